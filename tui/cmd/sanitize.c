/*
 * sanitize.c - dump strings to display-safe text with a column budget.
 *
 * Works token by token: one token is a printable character (its UTF-8
 * bytes and wcwidth) or an escape ("^[", "\xff", "<U+202E>") that is kept
 * whole.  A first pass measures, a second emits, so a string that fits is
 * never given an ellipsis and one that does not ends in one.
 */
#include "sanitize.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "reader/base/utf8.h"

static bool use_utf8 = true;

void
sanitize_set_utf8(bool utf8)
{
	use_utf8 = utf8;
}

bool
sanitize_utf8(void)
{
	return use_utf8;
}

/* Bidi embedding/override/isolate controls: shown, never obeyed
 * ("Trojan Source"). */
static bool
is_bidi_control(unsigned cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

struct token {
	char text[16];
	size_t tlen;                /* bytes of text */
	size_t used;                /* input bytes consumed */
	int width;                  /* columns */
};

static void
token_set(struct token *t, size_t used, int width, const char *fmt, unsigned v)
{
	int n = snprintf(t->text, sizeof t->text, fmt, v);
	t->tlen = (size_t)n;
	t->used = used;
	t->width = width < 0 ? n : width;
}

/* The token at s[0, n), drawn at column col. */
static void
next_token(const unsigned char *s, size_t n, int col, unsigned flags, struct token *t)
{
	unsigned c = s[0];
	uint32_t cp;
	size_t len;

	if (c == '\t' && (flags & SANITIZE_TABS)) {
		int w = 8 - col % 8;
		memset(t->text, ' ', (size_t)w);
		t->tlen = (size_t)w, t->used = 1, t->width = w;
	} else if (c == 0x1b) {
		token_set(t, 1, -1, "^[", 0);
	} else if (c < 0x20) {
		token_set(t, 1, -1, "^%c", c + '@');
	} else if (c == 0x7f) {
		token_set(t, 1, -1, "^?", 0);
	} else if (c < 0x80) {
		t->text[0] = (char)c;           /* the common case: no snprintf */
		t->tlen = 1, t->used = 1, t->width = 1;
	} else if (!use_utf8 || !(len = td_utf8_decode(s, n, &cp))) {
		token_set(t, 1, -1, "\\x%02x", c);
	} else if (cp < 0xa0) {
		token_set(t, len, -1, "\\x%02x", cp);        /* C1 control */
	} else {
		int w = is_bidi_control(cp) ? -1 : wcwidth((wchar_t)cp);
		if (w < 0) {
			token_set(t, len, -1, "<U+%04X>", cp);
		} else {
			memcpy(t->text, s, len);
			t->tlen = len, t->used = len, t->width = w;
		}
	}
}

/* Total width of s, stopping early once it passes limit (limit < 0: none). */
static int
measure(const unsigned char *s, size_t len, int limit, unsigned flags)
{
	int w = 0;
	struct token t;

	for (size_t i = 0; i < len && (limit < 0 || w <= limit); i += t.used) {
		next_token(s + i, len - i, w, flags, &t);
		w += t.width;
	}
	return w;
}

int
sanitize(const char *str, size_t len, int maxcols, unsigned flags, struct strbuf *out)
{
	const unsigned char *s = (const unsigned char *)str;
	bool cut = maxcols >= 0 && measure(s, len, maxcols, flags) > maxcols;
	int budget = cut ? maxcols - 1 : maxcols, w = 0;
	struct token t;

	if (maxcols == 0) {
		strbuf_add(out, "", 0);
		return 0;
	}
	for (size_t i = 0; i < len; i += t.used) {
		next_token(s + i, len - i, w, flags, &t);
		if (budget >= 0 && w + t.width > budget)
			break;
		strbuf_add(out, t.text, t.tlen);
		w += t.width;
	}
	if (cut) {
		strbuf_adds(out, use_utf8 ? "\xe2\x80\xa6" : "~");
		w++;
	}
	if (!out->buf)
		strbuf_add(out, "", 0);
	return w;
}

int
sanitize_str(const char *s, int maxcols, struct strbuf *out)
{
	if (!s)
		s = "";
	return sanitize(s, strlen(s), maxcols, 0, out);
}

int
sanitize_width(const char *s)
{
	return s ? measure((const unsigned char *)s, strlen(s), -1, 0) : 0;
}

int
sanitize_tail(const char *s, int maxcols, struct strbuf *out)
{
	struct strbuf full = { 0 };
	int w = sanitize_str(s, -1, &full);
	const unsigned char *p = (const unsigned char *)full.buf;
	size_t len = full.len;

	if (maxcols < 0 || w <= maxcols || maxcols == 0) {
		if (maxcols == 0)
			w = 0;
		else
			strbuf_add(out, full.buf, full.len);
		strbuf_done(&full);
		return w;
	}
	/* drop display characters from the front until the rest fits after the
	 * ellipsis; full.buf is valid UTF-8 now (escapes are ASCII) */
	while (len && w > maxcols - 1) {
		uint32_t cp = 0;
		size_t n = use_utf8 ? td_utf8_decode(p, len, &cp) : 1;
		int cw = use_utf8 && n ? wcwidth((wchar_t)cp) : 1;
		if (n == 0)
			n = 1;
		w -= cw > 0 ? cw : 0;
		p += n;
		len -= n;
	}
	strbuf_adds(out, use_utf8 ? "\xe2\x80\xa6" : "~");
	strbuf_add(out, (const char *)p, len);
	strbuf_done(&full);
	return w + 1;
}
