/*
 * keyseq.h - decoding the escape sequences terminals send for keys.
 *
 * curses decodes only the sequences terminfo lists for $TERM; a terminal
 * (or tmux) that sends another common form, such as Home as ESC [ 1 ~
 * under TERM=xterm-256color, would reach tdbg as Esc, '[' and '1', three
 * unrelated keys.  keyseq_decode() knows the usual xterm, vt220, rxvt and
 * linux-console forms of the cursor keys, Home/End, Insert/Delete,
 * PgUp/PgDn and F1-F12 whatever terminfo says, and Esc followed by a
 * character as Meta (Alt) plus that character.  It is pure: the caller
 * reads codes (curses key codes or bytes) and hands them over.
 * keyseq_next() is the small read loop around it.
 */
#ifndef TD_KEYSEQ_H
#define TD_KEYSEQ_H

#include <stdbool.h>
#include <stddef.h>

#define KEYSEQ_MAX 16           /* codes in the longest sequence decoded */
#define KEYSEQ_META 0x100000    /* KEYSEQ_META | c: Meta (Alt) + c */
#define KEYSEQ_NONE (-2)        /* a complete sequence that names no key we use */
#define KEYSEQ_WAIT_MS 30       /* how long the rest of a sequence may take */

/* Decodes the escape sequence at the start of buf[0..n) (buf[0] is Esc,
 * 27).  Returns how many codes it spans (1..n) and sets *key to a curses
 * key code (KEY_HOME, KEY_F(5), ...), to 27 for a lone Esc, to
 * KEYSEQ_META | c for Esc then a printable c, or to KEYSEQ_NONE for a
 * sequence it recognises as one but does not map (a mouse report, Insert
 * with an unknown modifier...), which the caller drops.  Returns 0 when buf
 * is the start of a longer sequence and more codes may come; with final
 * true (no more codes are coming, or n is KEYSEQ_MAX) it never returns 0.
 * Codes after the sequence are not looked at. */
size_t keyseq_decode(const int *buf, size_t n, bool final, int *key);

/* A read loop with its pushed-back codes; zero it before the first call. */
struct keyseq_reader {
	int pending[KEYSEQ_MAX];    /* codes read past a sequence, in order */
	size_t npending;
	bool meta;                  /* give Esc + c as KEYSEQ_META | c */
};

/* The next key: calls get(ctx, false) for a key as the caller waits for
 * keys (it may return -1, ERR, on a timeout: so does keyseq_next), and
 * after an Esc get(ctx, true), which must wait at most about
 * KEYSEQ_WAIT_MS, for the rest of a sequence.  Sequences that name no key
 * are skipped.  Esc then a character is Meta + c only with r->meta set;
 * otherwise it stays two keys (scripts and quick hands send Esc q within
 * a few milliseconds, and mean Esc, then q), so set it only when some
 * binding uses Meta. */
int keyseq_next(struct keyseq_reader *r, int (*get)(void *ctx, bool more), void *ctx);

#endif
