/*
 * keyseq.c - the escape sequences of the usual terminals, decoded without
 * terminfo (see keyseq.h).
 *
 * Forms known (ECMA-48 CSI and SS3 framing; a modifier parameter such as
 * the 5 of ESC [ 1 ; 5 H is read and ignored):
 *   ESC [ A..D, ESC O A..D         arrows (normal and application mode)
 *   ESC [ H / F, ESC O H / F       Home / End (xterm)
 *   ESC [ 1 ~ / 4 ~                Home / End (vt220, tmux, screen)
 *   ESC [ 7 ~ / 8 ~                Home / End (rxvt)
 *   ESC [ 2 ~ / 3 ~                Insert / Delete
 *   ESC [ 5 ~ / 6 ~                PgUp / PgDn
 *   ESC O P..S, ESC [ 1 ; m P..S   F1-F4 (xterm)
 *   ESC [ 11..15 ~                 F1-F5 (vt220, rxvt)
 *   ESC [ 17..21 ~, 23 ~, 24 ~     F6-F12
 *   ESC [ [ A..E                   F1-F5 (linux console)
 *   ESC [ Z                        Shift-Tab
 *   ESC O M                        keypad Enter
 * Mouse reports that curses did not take (ESC [ M b x y, ESC [ < ... M)
 * are recognised and dropped.
 */
#include "keyseq.h"

#include <curses.h>

#define ESC 27

static bool
is_seq_byte(int c)
{
	return c >= 0x20 && c <= 0x7e;
}

/* vt220 "ESC [ n ~" keys. */
static int
tilde_key(int n)
{
	switch (n) {
	case 1: case 7: return KEY_HOME;
	case 2: return KEY_IC;
	case 3: return KEY_DC;
	case 4: case 8: return KEY_END;
	case 5: return KEY_PPAGE;
	case 6: return KEY_NPAGE;
	case 11: case 12: case 13: case 14: case 15: return KEY_F(n - 10);
	case 17: case 18: case 19: case 20: case 21: return KEY_F(n - 11);
	case 23: case 24: return KEY_F(n - 12);
	default: return KEYSEQ_NONE;
	}
}

/* The key a final letter names, in CSI and SS3 forms alike. */
static int
letter_key(int c)
{
	switch (c) {
	case 'A': return KEY_UP;
	case 'B': return KEY_DOWN;
	case 'C': return KEY_RIGHT;
	case 'D': return KEY_LEFT;
	case 'H': return KEY_HOME;
	case 'F': return KEY_END;
	case 'P': case 'Q': case 'R': case 'S': return KEY_F(c - 'P' + 1);
	case 'Z': return KEY_BTAB;
	case 'M': return '\n';
	default: return KEYSEQ_NONE;
	}
}

/* ESC then one code that starts no sequence. */
static size_t
meta_or_esc(const int *buf, size_t n, int *key)
{
	if (n >= 2 && buf[1] > ' ' && buf[1] < 0x7f) {
		*key = KEYSEQ_META | buf[1];
		return 2;
	}
	*key = ESC;
	return 1;
}

/* ESC [ M b x y: three raw codes follow. */
static size_t
x10_mouse(size_t n, bool final, int *key)
{
	if (n < 6 && !final)
		return 0;
	*key = KEYSEQ_NONE;
	return n < 6 ? n : 6;
}

/* Decodes the body of a CSI or SS3 sequence from buf[2]; lead is '[' or 'O'. */
static size_t
decode_body(const int *buf, size_t n, bool final, int lead, int *key)
{
	size_t i = 2;
	int param[2] = { -1, -1 }, np = 0;  /* np: the parameter being read */
	bool private = false;

	if (lead == '[' && n > 2 && buf[2] == '[') {        /* linux console F1-F5 */
		if (n < 4)
			return final ? (*key = KEYSEQ_NONE, n) : 0;
		*key = buf[3] >= 'A' && buf[3] <= 'E' ? KEY_F(buf[3] - 'A' + 1) : KEYSEQ_NONE;
		return 4;
	}
	if (lead == '[' && n > 2 && buf[2] == 'M')
		return x10_mouse(n, final, key);
	for (; i < n; i++) {
		int c = buf[i];

		if (!is_seq_byte(c)) {         /* not a sequence after all */
			*key = KEYSEQ_NONE;
			return i;
		}
		if (c >= '0' && c <= '9') {
			if (param[np] < 0)
				param[np] = 0;
			if (param[np] < 1000)
				param[np] = param[np] * 10 + (c - '0');
		} else if (c == ';') {
			np = 1;                /* the modifier (or later ones) */
		} else if (c >= 0x3c && c <= 0x3f) {
			private = true;        /* "<" of SGR mouse reports, "?" */
		} else if (c >= 0x40) {        /* the final byte */
			if (private)
				*key = KEYSEQ_NONE;
			else if (c == '~')
				*key = tilde_key(param[0]);
			else
				*key = letter_key(c);
			return i + 1;
		}
	}
	if (!final)
		return 0;
	*key = KEYSEQ_NONE;
	return n;
}

size_t
keyseq_decode(const int *buf, size_t n, bool final, int *key)
{
	if (n == 0) {
		*key = KEYSEQ_NONE;
		return 0;
	}
	if (buf[0] != ESC) {
		*key = buf[0];
		return 1;
	}
	if (n == 1) {
		if (!final)
			return 0;
		*key = ESC;
		return 1;
	}
	if (buf[1] != '[' && buf[1] != 'O')
		return meta_or_esc(buf, n, key);
	if (n == 2) {                  /* Alt-[ or Alt-O, or a sequence's start */
		if (!final)
			return 0;
		return meta_or_esc(buf, n, key);
	}
	if (!is_seq_byte(buf[2]))
		return meta_or_esc(buf, n, key);
	return decode_body(buf, n, final || n >= KEYSEQ_MAX, buf[1], key);
}

int
keyseq_next(struct keyseq_reader *r, int (*get)(void *ctx, bool more), void *ctx)
{
	int buf[KEYSEQ_MAX], key;
	size_t n, used;

	for (;;) {
		n = 0;
		if (r->npending) {
			buf[n++] = r->pending[0];
			r->npending--;
			for (size_t i = 0; i < r->npending; i++)
				r->pending[i] = r->pending[i + 1];
		} else {
			buf[n++] = get(ctx, false);
		}
		if (buf[0] != ESC)
			return buf[0];
		/* take what is pending first, then read until the sequence ends */
		while ((used = keyseq_decode(buf, n, n == KEYSEQ_MAX, &key)) == 0) {
			int c;

			if (r->npending) {
				c = r->pending[0];
				r->npending--;
				for (size_t i = 0; i < r->npending; i++)
					r->pending[i] = r->pending[i + 1];
			} else {
				c = get(ctx, true);
			}
			if (c == ERR) {
				used = keyseq_decode(buf, n, true, &key);
				break;
			}
			buf[n++] = c;
		}
		/* codes read past the sequence go back in front of the queue */
		size_t extra = n - used;
		for (size_t i = r->npending; i-- > 0;)
			r->pending[i + extra] = r->pending[i];
		for (size_t i = 0; i < extra; i++)
			r->pending[i] = buf[used + i];
		r->npending += extra;
		if (!r->meta && key != KEYSEQ_NONE && (key & KEYSEQ_META)) {
			/* Esc, then c as a key of its own */
			for (size_t i = r->npending; i-- > 0;)
				r->pending[i + 1] = r->pending[i];
			r->pending[0] = key & ~KEYSEQ_META;
			r->npending++;
			key = ESC;
		}
		if (key != KEYSEQ_NONE)
			return key;
	}
}
