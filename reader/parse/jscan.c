/*
 * jscan.c - the streaming JSON scanner (jscan.h): chunked reads through a
 * struct source, a state machine for the structure, bounded strings and
 * numbers.  Accepts NaN, Infinity and -Infinity as numbers (Python's
 * allow_nan output); everything else is RFC 8259.  Invalid UTF-8 in a string
 * is replaced by U+FFFD (bad_utf8 says so) rather than failing the file.
 */
#include "jscan.h"
#include "jscan_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/utf8.h"
#include "reader/parse/decnum.h"

#define CHUNK (64 * 1024)
/* A whole-file scan asks for the next PREFETCH bytes to be read into the
 * page cache when it is half way through the last ones: a cold file is
 * then read by the kernel while the scanner parses, not a chunk at a time
 * when the scanner gets there (the kernel's own read-ahead window is a few
 * hundred KiB). */
#define PREFETCH ((uint64_t)8 << 20)

static void
setup(struct jscan *js, struct source *src, uint64_t off, const struct jscan_limits *lim)
{
	memset(js, 0, sizeof(*js));
	js->src = src;
	js->lim.max_depth = lim && lim->max_depth > 0 ? lim->max_depth : JSCAN_MAX_DEPTH;
	js->lim.max_string = lim && lim->max_string ? lim->max_string : JSCAN_MAX_STRING;
	js->lim.max_number = lim && lim->max_number ? lim->max_number : JSCAN_MAX_NUMBER;
	js->off = off;
	js->boff = off;
	js->end = source_known_size(src);
	js->buf = xmalloc(CHUNK);
	js->chunk = CHUNK;
	js->stack = xmalloc((size_t)js->lim.max_depth + 1);
	js->scap = 256;
	js->own = xmalloc(js->scap);
	js->own[0] = '\0';
	js->str = js->own;
	js->cur_line = 1;
	js->line_start = off;
	js->prefetched = off;
}

void
jscan_init(struct jscan *js, struct source *src, uint64_t off, const struct jscan_limits *lim)
{
	setup(js, src, off, lim);
	js->state = ST_VALUE;
}

void
jscan_init_member(struct jscan *js, struct source *src, uint64_t off,
		 const struct jscan_limits *lim)
{
	setup(js, src, off, lim);
	js->cur_line = 0;
	js->stack[0] = 'o';
	js->depth = 1;
	js->member_mode = true;
	js->prefetched = UINT64_MAX;    /* a decode's few bytes: none */
	js->state = ST_KEY;
	/* one member is usually small (a decode reads one entry of a big
	 * file): read 4 KiB first, doubling on each refill */
	js->chunk = 4096;
}

void
jscan_done(struct jscan *js)
{
	free(js->buf);
	free(js->stack);
	free(js->own);
	js->buf = NULL;
	js->stack = NULL;
	js->str = js->own = NULL;
}

const char *
jscan_tok_name(enum jscan_tok t)
{
	static const char *const names[] = {
		"error", "end of input", "'{'", "'}'", "'['", "']'", "key", "string",
		"number", "true", "false", "null",
	};

	return (size_t)t < TD_ARRAY_SIZE(names) ? names[t] : "?";
}

/* ---- bytes ------------------------------------------------------------ */

/* Reads the next chunk (the buffer is used up): its first byte, -1 at the
 * end, -2 on a read error. */
static int
refill(struct jscan *js)
{
	ssize_t n;

	if (js->off >= js->end)
		return -1;
	if (js->prefetched < js->end && js->off + PREFETCH / 2 >= js->prefetched) {
		uint64_t from = TD_MAX(js->prefetched, js->off);

		source_prefetch(js->src, from, PREFETCH);
		js->prefetched = from + PREFETCH;
	}
	n = source_read(js->src, js->off, js->buf,
			(size_t)TD_MIN((uint64_t)js->chunk, js->end - js->off));
	js->chunk = TD_MIN(js->chunk * 2, (size_t)CHUNK);
	if (n < 0)
		return -2;
	if (n == 0)
		return -1;
	js->boff = js->off;
	js->blen = (size_t)n;
	js->bpos = 0;
	js->off += (uint64_t)n;
	return js->buf[0];
}

/* The next byte without consuming it, -1 at the end, -2 on a read error. */
static inline int
peek(struct jscan *js)
{
	if (js->bpos < js->blen)
		return js->buf[js->bpos];
	return refill(js);
}

static inline void
advance(struct jscan *js)
{
	if (js->buf[js->bpos] == '\n' && js->cur_line) {
		js->cur_line++;
		js->line_start = pos(js) + 1;
	}
	js->bpos++;
}

static enum jscan_tok
fail(struct jscan *js, const char *fmt, ...)
{
	char what[120];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (js->cur_line)
		snprintf(js->err, sizeof js->err, "line %llu, column %llu: %s",
			 (unsigned long long)js->cur_line, (unsigned long long)cur_col(js), what);
	else
		snprintf(js->err, sizeof js->err, "byte %llu: %s", (unsigned long long)pos(js),
			 what);
	js->failed = true;
	return JSCAN_ERROR;
}

static enum jscan_tok
fail_eof(struct jscan *js, int c, const char *inside)
{
	if (c == -2)
		return fail(js, "read error in %s", inside);
	return fail(js, "input ends inside %s", inside);
}

/* Skips white space, a run in the buffer at a time (advance() per byte
 * was the largest part of step() in an index pass: dumps are indented, a
 * third of msprobe's dump.json is white space); only line breaks are
 * counted, the column comes from the line's start when asked.  Returns the
 * next byte as peek() does. */
static inline int
skip_space(struct jscan *js)
{
	for (;;) {
		/* locals: the byte buffer may alias the scanner's fields */
		const unsigned char *b = js->buf;
		size_t i = js->bpos, n = js->blen;
		int c;

		for (; i < n; i++) {
			c = b[i];
			if (c > ' ') {
				js->bpos = i;
				return c;
			}
			if (c == '\n') {
				if (js->cur_line) {
					js->cur_line++;
					js->line_start = js->boff + i + 1;
				}
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
				/* the indentation after a line break: spaces
				 * eight at a time, i left on the last one */
				while (i + 9 <= n) {
					uint64_t v;

					memcpy(&v, b + i + 1, 8);
					v ^= 0x2020202020202020ull;
					if (v) {
						i += (size_t)__builtin_ctzll(v) / 8;
						break;
					}
					i += 8;
				}
#endif
			} else if (c != ' ' && c != '\t' && c != '\r') {
				js->bpos = i;
				return c;
			}
		}
		js->bpos = i;
		if ((c = peek(js)) < 0)
			return c;
	}
}

/* ---- strings ---------------------------------------------------------- */

static bool
put(struct jscan *js, const char *bytes, size_t n)
{
	if (js->len + n > js->lim.max_string)
		return false;
	if (js->len + n + 1 > js->scap) {
		while (js->len + n + 1 > js->scap)
			js->scap *= 2;
		js->own = xrealloc(js->own, js->scap);
		js->str = js->own;
	}
	memcpy(js->str + js->len, bytes, n);
	js->len += n;
	js->str[js->len] = '\0';
	return true;
}

static const char REPLACEMENT[] = "\xEF\xBF\xBD";

/* Four hex digits of a \u escape; -1 when they are not. */
static int32_t
hex4(struct jscan *js)
{
	int32_t v = 0;
	int k, c;

	for (k = 0; k < 4; k++) {
		c = peek(js);
		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return -1;
		advance(js);
	}
	return v;
}

/* After a backslash: one escape appended. */
static bool
escape(struct jscan *js, bool *ok)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	int c = peek(js);
	const char *p;
	int32_t cp;
	char u[4];

	*ok = true;
	if (c <= 0)
		return false;
	advance(js);
	if (c != 'u') {
		if (!(p = strchr(from, c)))
			return false;
		return (*ok = put(js, &to[p - from], 1)), true;
	}
	if ((cp = hex4(js)) < 0)
		return false;
	if (cp >= 0xD800 && cp < 0xDC00 && peek(js) == '\\') {
		advance(js);
		if (peek(js) != 'u')
			return false;
		advance(js);
		int32_t lo = hex4(js);

		if (lo < 0)
			return false;
		if (lo >= 0xDC00 && lo < 0xE000)
			cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
		else
			cp = -1;
	}
	if (cp <= 0 || (cp >= 0xD800 && cp < 0xE000)) {   /* NUL, lone surrogate */
		js->bad_utf8 = true;
		*ok = put(js, REPLACEMENT, 3);
		return true;
	}
	*ok = put(js, u, td_utf8_encode((uint32_t)cp, u));
	return true;
}

/* One raw multi-byte character (its lead byte c already peeked). */
static bool
raw_utf8(struct jscan *js, int c)
{
	char seq[4];
	int n = td_utf8_lead_len(c), k;

	seq[0] = (char)c;
	advance(js);
	for (k = 1; k < n; k++) {
		int d = peek(js);

		if (d < 0x80 || d > 0xBF)
			break;
		seq[k] = (char)d;
		advance(js);
	}
	if (n == 0 || k < n || (n == 3 && (unsigned char)seq[0] == 0xE0 && (unsigned char)seq[1] < 0xA0) ||
	    (n == 3 && (unsigned char)seq[0] == 0xED && (unsigned char)seq[1] > 0x9F) ||
	    (n == 4 && (unsigned char)seq[0] == 0xF0 && (unsigned char)seq[1] < 0x90) ||
	    (n == 4 && (unsigned char)seq[0] == 0xF4 && (unsigned char)seq[1] > 0x8F)) {
		js->bad_utf8 = true;
		return put(js, REPLACEMENT, 3);
	}
	return put(js, seq, (size_t)n);
}

/* A string after its opening quote, into js->str. */
static enum jscan_tok
string(struct jscan *js, enum jscan_tok kind)
{
	int c;

	{
		/* the usual string: plain bytes and the closing quote in the
		 * buffer, given where it lies, its quote made its NUL (the
		 * scanner never reads a byte behind it again); else the loop
		 * below, from the start, into the own buffer */
		unsigned char *b = js->buf + js->bpos;
		size_t avail = js->blen - js->bpos, n = plain_run(b, avail);

		if (n < avail && b[n] == '"' && n <= js->lim.max_string) {
			b[n] = '\0';
			js->str = (char *)b;
			js->len = n;
			js->bpos += n + 1;
			return kind;
		}
	}
	js->str = js->own;
	js->len = 0;
	js->str[0] = '\0';
	for (;;) {
		c = peek(js);
		if (c < 0)
			return fail_eof(js, c, "a string");
		if (c == '"') {
			advance(js);
			return kind;
		}
		if (c < 0x20)
			return fail(js, "control byte 0x%02x in a string", c);
		if (c == '\\') {
			bool ok;

			advance(js);
			if (!escape(js, &ok))
				return fail(js, "bad escape in a string");
			if (!ok)
				return fail(js, "string longer than %zu bytes", js->lim.max_string);
			continue;
		}
		if (c < 0x80) {
			/* a run of plain bytes in the buffer: one copy (no line
			 * breaks in it, so the column moves by its length) */
			size_t n = 1, avail = js->blen - js->bpos;
			const unsigned char *b = js->buf + js->bpos;

			while (n < avail && plain[b[n]])
				n++;
			if (!put(js, (const char *)b, n))
				return fail(js, "string longer than %zu bytes", js->lim.max_string);
			js->bpos += n;
			if (n < avail && b[n] == '"') {
				/* the closing quote in the buffer: the usual end */
				js->bpos++;
				return kind;
			}
			continue;
		}
		if (!raw_utf8(js, c))
			return fail(js, "string longer than %zu bytes", js->lim.max_string);
	}
}

/* ---- numbers and words ------------------------------------------------- */

static bool
word(struct jscan *js, const char *w)
{
	size_t n = strlen(w);

	/* the whole word in the buffer (no line break in it): one compare;
	 * else byte by byte, which stops where it differs */
	if (js->blen - js->bpos >= n && memcmp(js->buf + js->bpos, w, n) == 0) {
		js->bpos += n;
		return true;
	}
	for (; *w; w++) {
		if (peek(js) != (unsigned char)*w)
			return false;
		advance(js);
	}
	return true;
}

/* The significant digits of a number as they are read (decnum_exact's
 * inputs): up to 19 in m, the power of ten the fraction's digits take. */
struct mant {
	uint64_t m;
	int nd, scale;
	bool ovf;               /* more than 19 significant digits: strtod's */
};

/* Digits appended to num (and to mt unless NULL, as fraction digits when
 * frac); SIZE_MAX past the limit. */
static size_t
digits(struct jscan *js, char *num, size_t n, size_t max, struct mant *mt, bool frac)
{
	int c;

	while ((c = peek(js)) >= '0' && c <= '9') {
		/* the digits in the buffer at once (no line break among them);
		 * locals, as num's bytes may alias mt and js */
		const unsigned char *b = js->buf + js->bpos;
		size_t k = 0, avail = js->blen - js->bpos;
		uint64_t m = mt ? mt->m : 0;
		int nd = mt ? mt->nd : 0, scale = 0;
		bool ovf = false;

		for (; k < avail && b[k] >= '0' && b[k] <= '9' && n < max; k++) {
			unsigned d = b[k] - '0';

			num[n++] = (char)b[k];
			if (m || d) {           /* a leading zero is not significant */
				if (nd < 19)
					m = m * 10 + d, nd++;
				else
					ovf = true;
			}
			scale -= frac;
		}
		if (mt) {
			mt->m = m;
			mt->nd = nd;
			mt->scale += scale;
			mt->ovf |= ovf;
		}
		js->bpos += k;
		if (k < avail && b[k] >= '0' && b[k] <= '9')
			return SIZE_MAX;        /* a digit past the limit */
	}
	return n;
}

/* The exponent's digits num[from, to) with its sign, capped far beyond
 * double's range. */
static int
exponent(const char *num, size_t from, size_t to, bool neg)
{
	int ex = 0;

	for (; from < to; from++)
		if (ex < 100000)
			ex = ex * 10 + (num[from] - '0');
	return neg ? -ex : ex;
}

/* The number at the buffer's position when it lies whole in the buffer,
 * has no exponent, fits the length limit and decnum_exact takes its
 * digits: true, js->num set and the bytes consumed.  Else false and
 * nothing consumed (number() reads it again, with its errors).  The
 * digits are gathered as number() gathers them, so the value is the one
 * it gives. */
static bool
number_fast(struct jscan *js)
{
	const unsigned char *b = js->buf + js->bpos, *p = b, *end = js->buf + js->blen;
	size_t max = TD_MIN(js->lim.max_number, (size_t)JSCAN_MAX_NUMBER);
	uint64_t m = 0;
	int nd = 0, scale = 0;
	bool neg = *p == '-';

	p += neg;
	if (p < end && *p == '0') {
		p++;
	} else {
		if (p >= end || *p < '1' || *p > '9')
			return false;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (nd == 19)
				return false;
			m = m * 10 + (unsigned)(*p - '0');
			nd++;
		}
	}
	if (p < end && *p == '.') {
		const unsigned char *q = ++p;

#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* eight fraction digits at a time (the 17-digit Norms); the
		 * digit count as the loop below keeps it: leading zeros are
		 * not significant, every digit after the first non-zero is */
		for (; end - p >= 8; p += 8) {
			uint64_t v, d8;
			uint32_t val;

			memcpy(&v, p, 8);
			if (!eight_digits(v))
				break;
			d8 = v - 0x3030303030303030ull;
			val = eight_value(d8);
			if (m) {
				if (nd > 19 - 8)
					return false;
				m = m * 100000000u + val;
				nd += 8;
			} else if (d8) {
				m = val;
				nd = 8 - __builtin_ctzll(d8) / 8;
			}
		}
#endif
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			unsigned d = *p - '0';

			if (m || d) {           /* a leading zero is not significant */
				if (nd == 19)
					return false;
				m = m * 10 + d;
				nd++;
			}
		}
		scale = -(int)(p - q);
		if (p == q)
			return false;
	}
	/* an exponent, the buffer's end (the number may go on) or past the
	 * limit: number() */
	if (p >= end || *p == 'e' || *p == 'E' || (size_t)(p - b) > max)
		return false;
	if (!decnum_exact(neg, m, scale, &js->num))
		return false;
	js->bpos += (size_t)(p - b);
	return true;
}

static enum jscan_tok
number(struct jscan *js)
{
	char num[JSCAN_MAX_NUMBER + 8];
	size_t max = TD_MIN(js->lim.max_number, (size_t)JSCAN_MAX_NUMBER), n = 0, before;
	struct mant mt = { 0 };
	int c = peek(js), e10;
	bool eneg = false;

	if (c == '-') {
		num[n++] = '-';
		advance(js);
		c = peek(js);
		if (c == 'I') {
			if (!word(js, "Infinity"))
				return fail(js, "bad token after '-'");
			js->num = -INFINITY;
			return JSCAN_NUMBER;
		}
	}
	if (c == '0') {
		num[n++] = '0';
		advance(js);
	} else if (c >= '1' && c <= '9') {
		if ((n = digits(js, num, n, max, &mt, false)) == SIZE_MAX)
			return fail(js, "number longer than %zu characters", max);
	} else {
		return fail(js, "bad number");
	}
	if (peek(js) == '.') {
		num[n++] = '.';
		advance(js);
		before = n;
		if ((n = digits(js, num, n, max, &mt, true)) == SIZE_MAX)
			return fail(js, "number longer than %zu characters", max);
		if (n == before)
			return fail(js, "no digit after '.'");
	}
	e10 = mt.scale;
	c = peek(js);
	if (c == 'e' || c == 'E') {
		if (n >= max)
			return fail(js, "number longer than %zu characters", max);
		num[n++] = 'e';
		advance(js);
		c = peek(js);
		if (c == '+' || c == '-') {
			if (n >= max)
				return fail(js, "number longer than %zu characters", max);
			num[n++] = (char)c;
			eneg = c == '-';
			advance(js);
		}
		before = n;
		if ((n = digits(js, num, n, max, NULL, false)) == SIZE_MAX)
			return fail(js, "number longer than %zu characters", max);
		if (n == before)
			return fail(js, "no digit in an exponent");
		e10 += exponent(num, before, n, eneg);
	}
	num[n] = '\0';
	if (mt.ovf || !decnum_exact(num[0] == '-', mt.m, e10, &js->num))
		js->num = strtod(num, NULL);
	return JSCAN_NUMBER;
}

/* A value's first token, its first byte c peeked. */
static enum jscan_tok
value(struct jscan *js, int c)
{
	switch (c) {
	case '{':
	case '[':
		if (js->depth >= js->lim.max_depth)
			return fail(js, "nesting deeper than %d", js->lim.max_depth);
		advance(js);
		js->stack[js->depth++] = c == '{' ? 'o' : 'a';
		js->state = c == '{' ? ST_KEY_OR_END : ST_VALUE_OR_END;
		return c == '{' ? JSCAN_OBJ_BEGIN : JSCAN_ARR_BEGIN;
	case '"':
		advance(js);
		return string(js, JSCAN_STRING);
	case 't':
		return word(js, "true") ? JSCAN_TRUE : fail(js, "bad token");
	case 'f':
		return word(js, "false") ? JSCAN_FALSE : fail(js, "bad token");
	case 'n':
		return word(js, "null") ? JSCAN_NULL : fail(js, "bad token");
	case 'N':
		if (!word(js, "NaN"))
			return fail(js, "bad token");
		js->num = NAN;
		return JSCAN_NUMBER;
	case 'I':
		if (!word(js, "Infinity"))
			return fail(js, "bad token");
		js->num = INFINITY;
		return JSCAN_NUMBER;
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return number_fast(js) ? JSCAN_NUMBER : number(js);
		if (c < 0)
			return fail_eof(js, c, "a value");
		return fail(js, "unexpected byte 0x%02x", c);
	}
}

/* After a complete value: the state its container expects next.  A
 * comma right after the value (the usual layout) is taken at once, which
 * is what ST_COMMA_OR_END would do next (not in a member scan's top
 * object, which ends after one member). */
enum jscan_tok
jscan_after_value(struct jscan *js, enum jscan_tok t)
{
	if (t == JSCAN_ERROR || t == JSCAN_OBJ_BEGIN || t == JSCAN_ARR_BEGIN)
		return t;
	if (!js->depth) {
		js->state = ST_END;
		return t;
	}
	js->state = ST_COMMA_OR_END;
	if (js->bpos < js->blen && js->buf[js->bpos] == ',' && !(js->member_mode && js->depth == 1)) {
		js->bpos++;
		js->state = js->stack[js->depth - 1] == 'o' ? ST_KEY : ST_VALUE;
	}
	return t;
}

static enum jscan_tok
close_container(struct jscan *js, int c)
{
	char want = c == '}' ? 'o' : 'a';

	if (!js->depth || js->stack[js->depth - 1] != want)
		return fail(js, "unexpected '%c'", c);
	advance(js);
	js->depth--;
	if (js->member_mode && js->depth == 0) {
		js->done = true;   /* the object that held the member ended: no more members */
		return JSCAN_EOF;
	}
	return jscan_after_value(js, c == '}' ? JSCAN_OBJ_END : JSCAN_ARR_END);
}

static enum jscan_tok
step(struct jscan *js)
{
	int c = skip_space(js);

	js->tok_off = pos(js);
	js->line = js->cur_line;
	js->col = cur_col(js);
	switch (js->state) {
	case ST_END:
		if (c == -1)
			return JSCAN_EOF;
		return c == -2 ? fail_eof(js, c, "trailing space") : fail(js, "bytes after the end of the value");
	case ST_VALUE:
		return jscan_after_value(js, value(js, c));
	case ST_VALUE_OR_END:
		if (c == ']')
			return close_container(js, c);
		return jscan_after_value(js, value(js, c));
	case ST_KEY_OR_END:
	case ST_KEY:
		if (c == '}' && js->state == ST_KEY_OR_END)
			return close_container(js, c);
		if (c != '"')
			return c < 0 ? fail_eof(js, c, "an object") : fail(js, "expected a key");
		advance(js);
		js->state = ST_COLON;
		if (string(js, JSCAN_KEY) == JSCAN_ERROR)
			return JSCAN_ERROR;
		if (js->bpos < js->blen && js->buf[js->bpos] == ':') {
			/* the colon right after the key: taken now (ST_COLON's step) */
			js->bpos++;
			js->state = ST_VALUE;
		}
		return JSCAN_KEY;
	case ST_COLON:
		if (c != ':')
			return c < 0 ? fail_eof(js, c, "an object") : fail(js, "expected ':'");
		advance(js);
		js->state = ST_VALUE;
		return step(js);
	case ST_COMMA_OR_END:
		if (js->member_mode && js->depth == 1) {
			js->done = true;   /* the member's value is complete */
			return JSCAN_EOF;
		}
		if (c == ']' || c == '}')
			return close_container(js, c);
		if (c != ',')
			return c < 0 ? fail_eof(js, c, js->stack[js->depth - 1] == 'o' ? "an object" : "an array")
				     : fail(js, "expected ',' or a closing bracket");
		advance(js);
		js->state = js->stack[js->depth - 1] == 'o' ? ST_KEY : ST_VALUE;
		return step(js);
	}
	return fail(js, "bad scanner state");
}

enum jscan_tok
jscan_next(struct jscan *js)
{
	if (js->failed)
		return JSCAN_ERROR;
	if (js->done)
		return JSCAN_EOF;
	return step(js);
}

bool
jscan_skip(struct jscan *js, enum jscan_tok first)
{
	int base;

	if (first != JSCAN_OBJ_BEGIN && first != JSCAN_ARR_BEGIN)
		return first != JSCAN_ERROR;
	base = js->depth - 1;
	while (js->depth > base) {
		enum jscan_tok t = jscan_next(js);

		if (t == JSCAN_ERROR)
			return false;
		if (t == JSCAN_EOF)
			return js->depth <= base;
	}
	return true;
}
