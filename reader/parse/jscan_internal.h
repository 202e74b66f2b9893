/*
 * jscan_internal.h - what jscan.c and jscan_flat.c share and nothing else
 * includes: the scanner's states, its position and column, and the byte
 * runs and digit groups looked at a word (or, with SSE2, 16 bytes) at a
 * time.
 */
#ifndef TD_JSCAN_INTERNAL_H
#define TD_JSCAN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "reader/parse/jscan.h"

/* SSE2 is x86-64's baseline: a string's run of plain bytes is looked at
 * 16 bytes at a time with it, no run-time dispatch.  Elsewhere, or
 * built with -DJSCAN_NO_SIMD (the tests build both), the portable path
 * (eight bytes at a time in a word, or a byte at a time) gives the same
 * tokens. */
#if defined(__SSE2__) && !defined(JSCAN_NO_SIMD)
#define JSCAN_SSE2 1
#include <emmintrin.h>
#endif

enum {
	ST_VALUE,           /* a value must come */
	ST_VALUE_OR_END,    /* after '[' */
	ST_KEY_OR_END,      /* after '{' */
	ST_KEY,             /* after ',' in an object */
	ST_COLON,           /* after a key */
	ST_COMMA_OR_END,    /* after a value inside a container */
	ST_END,             /* the top value is complete */
};

static inline uint64_t
pos(const struct jscan *js)
{
	return js->boff + js->bpos;
}

/* The column of the next byte (1-based, in bytes), 0 in a member scan. */
static inline uint64_t
cur_col(const struct jscan *js)
{
	return js->cur_line ? pos(js) - js->line_start + 1 : 0;
}

/* After a complete value t: the state its container expects next, the
 * comma right after the value taken at once (jscan.c); returns t. */
enum jscan_tok jscan_after_value(struct jscan *js, enum jscan_tok t);

/* 1 for a byte a string holds as it is: printable ASCII but '"' and '\\'. */
static const unsigned char plain[256] = {
	['\x20'] = 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,     /* not '"' */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,                 /* not '\\' */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* How many bytes at b (of avail) a string holds as they are: up to the
 * first '"', '\\', control byte or non-ASCII byte.  Eight at a time: each
 * test below marks the high bit of a byte that is one (a borrow may mark
 * a byte above a true one too, never below: the lowest mark is exact). */
static inline size_t
plain_run(const unsigned char *b, size_t avail)
{
	size_t n = 0;

#ifdef JSCAN_SSE2
	/* signed bytes: a control byte (below 0x20) and a non-ASCII one (0x80
	 * and up, negative) are both below ' ' */
	for (; n + 16 <= avail; n += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + n));
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
							_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
					   _mm_cmplt_epi8(v, _mm_set1_epi8(' ')));
		unsigned m = (unsigned)_mm_movemask_epi8(hit);

		if (m)
			return n + (size_t)__builtin_ctz(m);
	}
#endif
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;

	for (; n + 8 <= avail; n += 8) {
		uint64_t v, q, bs, hit;

		memcpy(&v, b + n, 8);
		q = v ^ (ones * '"');
		bs = v ^ (ones * '\\');
		hit = (((q - ones) & ~q) | ((bs - ones) & ~bs) | ((v - ones * 0x20) & ~v) | v) & high;
		if (hit)
			return n + (size_t)__builtin_ctzll(hit) / 8;
	}
#endif
	while (n < avail && plain[b[n]])
		n++;
	return n;
}

#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The eight bytes of v (little-endian: the first byte lowest) are all
 * '0'..'9': their high nibbles are 3 and adding 6 to each carries none
 * out of its low nibble. */
static inline bool
eight_digits(uint64_t v)
{
	const uint64_t hi = 0xF0F0F0F0F0F0F0F0ull;

	return ((v & hi) | (((v + 0x0606060606060606ull) & hi) >> 4)) == 0x3333333333333333ull;
}

/* The value of eight digits d (each byte 0..9, the first digit lowest):
 * pairs, then quads, then the eight, by multiplies that keep each
 * partial value in its own lane. */
static inline uint32_t
eight_value(uint64_t d)
{
	d = d * 10 + (d >> 8);          /* byte 2i: digits 2i and 2i+1 as 0..99 */
	d = ((d & 0x000000FF000000FFull) * (100 + (1000000ull << 32)) +
	     ((d >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32))) >> 32;
	return (uint32_t)d;
}
#endif

#endif
