/*
 * sanitize.h - the one gate every dump string passes before curses.
 *
 * Dumps are untrusted: an op name or a source line may hold ESC sequences
 * that would drive the terminal, control bytes, invalid UTF-8 or bidi
 * overrides.  sanitize() turns them into visible text (ESC -> "^[", other
 * C0 bytes -> "^X", DEL -> "^?", invalid bytes and C1 controls -> "\xNN",
 * bidi controls and unprintable code points -> "<U+XXXX>") and cuts the
 * result to a column width with an ellipsis.  An escape is never cut in
 * half.  Curses-free.
 */
#ifndef TD_SANITIZE_H
#define TD_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "reader/base/util.h"

enum sanitize_flags {
	SANITIZE_TABS = 1u << 0,    /* expand tabs to 8-column stops (source text) */
};

/* Whether the terminal takes UTF-8 (else every non-ASCII byte is shown as
 * \xNN).  Default true; tui.c sets it from the locale. */
void sanitize_set_utf8(bool utf8);
bool sanitize_utf8(void);

/* Appends the display form of s[0, len) to out, at most maxcols columns
 * (maxcols < 0: no limit); when cut, the last column is an ellipsis
 * ("…", or "~" without UTF-8).  Returns the columns used. */
int sanitize(const char *s, size_t len, int maxcols, unsigned flags, struct strbuf *out);
/* The same for a NUL-terminated string (NULL is ""). */
int sanitize_str(const char *s, int maxcols, struct strbuf *out);
/* Like sanitize_str() but, when s is too wide, keeps its end and starts
 * with the ellipsis: scoped op names ("Default/net/.../OneHot-op0") are told
 * apart by their last part. */
int sanitize_tail(const char *s, int maxcols, struct strbuf *out);
/* Columns the display form of s takes (no limit). */
int sanitize_width(const char *s);


#endif
