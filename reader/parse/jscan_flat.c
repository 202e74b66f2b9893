/*
 * jscan_flat.c - a flat object read at once (jscan.h, jscan_flat): the
 * usual record of a dump (strings without escapes, numbers, true, false,
 * null, arrays of numbers) parsed straight from the read buffer, with no
 * token-by-token state steps; anything else is left to jscan_next(),
 * which reports its errors.  The numbers are number()'s (jscan.c): the
 * same digits to decnum_exact, else strtod of the same text.
 */
#include "jscan.h"
#include "jscan_internal.h"

#include <stdlib.h>
#include <string.h>

#include "reader/parse/decnum.h"

/* White space from p on (p < end), counting line breaks into *lines and
 * the offset in buf just after the last one into *ls; the first other
 * byte, or end. */
static inline const unsigned char *
flat_space(const unsigned char *p, const unsigned char *end, const unsigned char *buf,
	   uint64_t *lines, size_t *ls)
{
	for (; p < end; p++) {
		if (*p > ' ')
			return p;
		if (*p == '\n') {
			++*lines;
			*ls = (size_t)(p - buf) + 1;
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* the indentation: eight spaces at a time, as skip_space */
			while (end - p >= 9) {
				uint64_t v;

				memcpy(&v, p + 1, 8);
				v ^= 0x2020202020202020ull;
				if (v) {
					p += __builtin_ctzll(v) / 8;
					break;
				}
				p += 8;
			}
#endif
		} else if (*p != ' ' && *p != '\t' && *p != '\r') {
			return p;
		}
	}
	return end;
}

/* The number at p, whole before end: its length and *out the value
 * number() gives it (the same digits to decnum_exact, else strtod of the
 * same text); 0 when number() would fail or might (past the length limit,
 * a digit missing) or the number reaches end. */
static size_t
flat_number(const struct jscan *js, const unsigned char *p0, const unsigned char *end, double *out,
	    struct jscan_member *mb)
{
	const unsigned char *p = p0;
	size_t max = TD_MIN(js->lim.max_number, (size_t)JSCAN_MAX_NUMBER);
	uint64_t m = 0;
	int nd = 0, e10 = 0;
	bool neg = *p == '-', ovf = false;

	p += neg;
	if (p < end && *p == '0') {
		p++;
	} else {
		if (p >= end || *p < '1' || *p > '9')
			return 0;
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			if (nd < 19)
				m = m * 10 + (unsigned)(*p - '0'), nd++;
			else
				ovf = true;
		}
	}
	if (p < end && *p == '.') {
		const unsigned char *q = ++p;

#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		for (; end - p >= 8 && !ovf; p += 8) {
			uint64_t v, d8;

			memcpy(&v, p, 8);
			if (!eight_digits(v))
				break;
			d8 = v - 0x3030303030303030ull;
			if (m) {
				if (nd > 19 - 8)
					break;          /* the byte loop keeps the first 19 */
				m = m * 100000000u + eight_value(d8);
				nd += 8;
			} else if (d8) {
				m = eight_value(d8);
				nd = 8 - __builtin_ctzll(d8) / 8;
			}
		}
#endif
		for (; p < end && *p >= '0' && *p <= '9'; p++) {
			unsigned d = *p - '0';

			if (m || d) {           /* a leading zero is not significant */
				if (nd < 19)
					m = m * 10 + d, nd++;
				else
					ovf = true;
			}
		}
		if (p == q)
			return 0;
		e10 = -(int)(p - q);
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		const unsigned char *q;
		bool eneg = false;
		int ex = 0;

		p++;
		if (p < end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		for (q = p; p < end && *p >= '0' && *p <= '9'; p++)
			if (ex < 100000)
				ex = ex * 10 + (*p - '0');
		if (p == q)
			return 0;
		e10 += eneg ? -ex : ex;
	}
	if (p >= end || (size_t)(p - p0) > max)
		return 0;
	if (mb && js->flat_defer && !ovf) {
		/* every significant digit is in m: its value later, by
		 * jscan_member_num, the same bits as below */
		mb->pending = true;
		mb->dec = (struct decnum_dec){ m, e10, neg };
		*out = 0;
		return (size_t)(p - p0);
	}
	if (ovf || !decnum_exact(neg, m, e10, out)) {
		char num[JSCAN_MAX_NUMBER + 8];

		memcpy(num, p0, (size_t)(p - p0));
		num[p - p0] = '\0';
		*out = strtod(num, NULL);
	}
	return (size_t)(p - p0);
}

/* A string's text after its opening quote at p: its length when it is
 * plain bytes up to a closing quote before end within the limit, else
 * SIZE_MAX. */
static inline size_t
flat_string(const struct jscan *js, const unsigned char *p, const unsigned char *end)
{
	size_t avail = (size_t)(end - p), n = plain_run(p, avail);

	return n < avail && p[n] == '"' && n <= js->lim.max_string ? n : SIZE_MAX;
}

/* A value at p (not white space) into mb; the byte after it, NULL when
 * the value is none flat_value takes. */
static const unsigned char *
flat_value(const struct jscan *js, struct jscan_member *mb,
	   const unsigned char *p, const unsigned char *end)
{
	size_t n;

	switch (*p) {
	case '"':
		if ((n = flat_string(js, p + 1, end)) == SIZE_MAX)
			return NULL;
		mb->tok = JSCAN_STRING;
		mb->str = (const char *)p + 1;
		mb->len = n;
		return p + n + 2;
	case 't':
		if (end - p < 4 || memcmp(p, "true", 4) != 0)
			return NULL;
		mb->tok = JSCAN_TRUE;
		return p + 4;
	case 'f':
		if (end - p < 5 || memcmp(p, "false", 5) != 0)
			return NULL;
		mb->tok = JSCAN_FALSE;
		return p + 5;
	case 'n':
		if (end - p < 4 || memcmp(p, "null", 4) != 0)
			return NULL;
		mb->tok = JSCAN_NULL;
		return p + 4;
	default:
		if (*p != '-' && (*p < '0' || *p > '9'))
			return NULL;
		if (!(n = flat_number(js, p, end, &mb->num, mb)))
			return NULL;
		mb->tok = JSCAN_NUMBER;
		return p + n;
	}
}

/* An array of numbers after its '[' at p: into f->nums; the byte after
 * its ']', NULL when it is not one. */
static const unsigned char *
flat_array(const struct jscan *js, struct jscan_flat *f, struct jscan_member *mb,
	   const unsigned char *p, const unsigned char *end, uint64_t *lines, size_t *ls)
{
	mb->tok = JSCAN_ARR_BEGIN;
	mb->first = f->nnums;
	mb->count = 0;
	if (js->depth >= js->lim.max_depth)
		return NULL;            /* the token path says "nesting deeper" */
	p = flat_space(p, end, js->buf, lines, ls);
	if (p < end && *p == ']')
		return p + 1;
	for (;;) {
		size_t n;

		if (p >= end || f->nnums >= JSCAN_FLAT_NUMS || (*p != '-' && (*p < '0' || *p > '9')) ||
		    !(n = flat_number(js, p, end, &f->nums[f->nnums], NULL)))
			return NULL;
		f->nnums++;
		mb->count++;
		p = flat_space(p + n, end, js->buf, lines, ls);
		if (p >= end)
			return NULL;
		if (*p == ']')
			return p + 1;
		if (*p != ',')
			return NULL;
		p = flat_space(p + 1, end, js->buf, lines, ls);
	}
}

bool
jscan_flat(struct jscan *js, struct jscan_flat *f)
{
	const unsigned char *buf = js->buf, *p = buf + js->bpos, *end = buf + js->blen;
	uint64_t lines = 0;
	size_t ls = 0;

	f->n = f->nnums = 0;
	if (js->failed || js->done || js->state != ST_KEY_OR_END)
		return false;
	p = flat_space(p, end, buf, &lines, &ls);
	if (p < end && *p == '}')
		goto closed;
	for (;;) {
		struct jscan_member *mb;
		size_t n;

		if (p >= end || *p != '"' || f->n >= JSCAN_FLAT_MEMBERS)
			return false;
		if ((n = flat_string(js, p + 1, end)) == SIZE_MAX)
			return false;
		mb = &f->m[f->n++];
		mb->pending = false;
		mb->key = (const char *)p + 1;
		mb->klen = n;
		p = flat_space(p + n + 2, end, buf, &lines, &ls);
		if (p >= end || *p != ':')
			return false;
		p = flat_space(p + 1, end, buf, &lines, &ls);
		if (p >= end)
			return false;
		p = *p == '[' ? flat_array(js, f, mb, p + 1, end, &lines, &ls) : flat_value(js, mb, p, end);
		if (!p)
			return false;
		p = flat_space(p, end, buf, &lines, &ls);
		if (p >= end)
			return false;
		if (*p == '}')
			break;
		if (*p != ',')
			return false;
		p = flat_space(p + 1, end, buf, &lines, &ls);
	}
closed:
	f->close_pos = (size_t)(p - buf);
	f->lines = lines;
	f->line_start = ls;
	return true;
}

void
jscan_flat_take(struct jscan *js, struct jscan_flat *f)
{
	int i;

	/* the tokens' last string and number, as jscan_next() leaves them */
	for (i = 0; i < f->n; i++) {
		struct jscan_member *mb = &f->m[i];

		((char *)mb->key)[mb->klen] = '\0';
		js->str = (char *)mb->key;
		js->len = mb->klen;
		if (mb->tok == JSCAN_STRING) {
			((char *)mb->str)[mb->len] = '\0';
			js->str = (char *)mb->str;
			js->len = mb->len;
		} else if (mb->tok == JSCAN_NUMBER && !mb->pending) {
			js->num = mb->num;
		} else if (mb->tok == JSCAN_ARR_BEGIN && mb->count) {
			js->num = f->nums[mb->first + mb->count - 1];
		}
	}
	if (js->cur_line && f->lines) {
		js->cur_line += f->lines;
		js->line_start = js->boff + f->line_start;
	}
	js->bpos = f->close_pos;
	js->tok_off = pos(js);
	js->line = js->cur_line;
	js->col = cur_col(js);
	js->bpos++;
	js->depth--;
	jscan_after_value(js, JSCAN_OBJ_END);
}
