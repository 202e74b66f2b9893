/*
 * prompt_line.h - the line being edited, shared by the line editor
 * (prompt_line.c) and Tab completion (prompt_complete.c).  Not for other
 * files: they call prompt_read() (tui_internal.h).
 */
#ifndef TD_PROMPT_LINE_H
#define TD_PROMPT_LINE_H

#include <stdbool.h>
#include <stddef.h>

#define PROMPT_MAX 1024

struct tui;
struct prompt;

struct line {
	char buf[PROMPT_MAX];
	size_t len, pos;            /* bytes; pos is on a character boundary */
};

/* Inserts n bytes of s at the cursor (nothing if the line would be full). */
void line_insert(struct line *l, const char *s, size_t n);
/* Removes bytes [from, to) and puts the cursor at from. */
void line_erase(struct line *l, size_t from, size_t to);

/* Splits head into words as a shell would (libedit's tokenizer(3)); argv
 * stays valid until the next call.  False on an unfinished quote. */
bool prompt_words(struct prompt *p, const char *head, int *argc, const char ***argv);

/* Tab: completes the word before the cursor, or puts the choices (or why
 * there is none) in the message line (prompt_complete.c). */
void prompt_complete(struct tui *t, struct line *l);

#endif
