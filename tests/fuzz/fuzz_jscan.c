/*
 * fuzz_jscan.c - libFuzzer target: the streaming JSON scanner
 * (reader/parse/jscan.c) over arbitrary bytes.
 *
 * The input is scanned whole with the default limits and again with tiny
 * ones (depth 3, strings of 16 bytes, numbers of 8 characters), every value
 * skipped with jscan_skip(), and as a member scan from each of the first
 * 16 '"' bytes (the reader's decode path).  Invariants: a JSCAN_KEY or
 * JSCAN_STRING is NUL-terminated at len with no NUL inside, the depth stays
 * within the limit, and the scan ends (EOF or ERROR) within len + 2 tokens.
 * An input that is one number (and a short input taken as number text) has
 * strtod's bits, through the scanner and through decnum's fast path.
 * Every object jscan_flat() takes stands for the tokens jscan_next() gives
 * (keys, strings, numbers' bits) and leaves the scanner where they do.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/decnum.h"
#include "reader/parse/jscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
scan(struct source *src, uint64_t off, bool member, const struct jscan_limits *lim, bool skip,
     size_t size)
{
	struct jscan js;
	enum jscan_tok t;
	size_t n = 0;

	if (member)
		jscan_init_member(&js, src, off, lim);
	else
		jscan_init(&js, src, off, lim);
	while ((t = jscan_next(&js)) != JSCAN_EOF && t != JSCAN_ERROR) {
		if ((t == JSCAN_KEY || t == JSCAN_STRING) &&
		    (js.str[js.len] != '\0' || strlen(js.str) != js.len))
			abort();
		if (js.depth < 0 || js.depth > (lim ? lim->max_depth : JSCAN_MAX_DEPTH))
			abort();
		if (++n > size + 2)
			abort();
		if (skip && !jscan_skip(&js, t))
			break;
	}
	jscan_done(&js);
}

static bool
same_bits(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

/* A short input as number text: the scanner's number (when the input is
 * one) and decnum's fast path (when it takes it) equal strtod's. */
static void
number_check(const uint8_t *data, size_t size)
{
	char text[96];
	struct source *src;
	struct jscan js;
	double want, fast;

	if (size >= sizeof text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	if (strlen(text) != size)
		return;
	want = strtod(text, NULL);
	if (decnum_fast(text, &fast) && !same_bits(fast, want))
		abort();
	src = source_from_bytes(data, size);
	jscan_init(&js, src, 0, NULL);
	if (jscan_next(&js) == JSCAN_NUMBER) {
		double got = js.num;

		if (jscan_next(&js) == JSCAN_EOF && !same_bits(got, want))
			abort();
	}
	jscan_done(&js);
	source_close(src);
}

static bool
same_tok(const struct jscan *a, enum jscan_tok t, const char *str, size_t len, double num)
{
	if (t == JSCAN_KEY || t == JSCAN_STRING)
		return a->len == len && memcmp(a->str, str, len) == 0;
	return t != JSCAN_NUMBER || same_bits(a->num, num);
}

/* A scanner that reads flat objects at once (b) against one that reads
 * every token (a), in step. */
static void
flat_check(struct source *src, const struct jscan_limits *lim)
{
	struct jscan a, b;
	enum jscan_tok ta, tb;

	jscan_init(&a, src, 0, lim);
	jscan_init(&b, src, 0, lim);
	for (;;) {
		struct jscan_flat f;
		int i, j;

		ta = jscan_next(&a);
		tb = jscan_next(&b);
		if (ta != tb || a.tok_off != b.tok_off || a.line != b.line || a.col != b.col ||
		    a.depth != b.depth || (ta == JSCAN_ERROR && strcmp(a.err, b.err) != 0) ||
		    !same_tok(&a, ta, b.str, b.len, b.num))
			abort();
		if (ta == JSCAN_EOF || ta == JSCAN_ERROR)
			break;
		if (tb != JSCAN_OBJ_BEGIN || !jscan_flat(&b, &f))
			continue;
		for (i = 0; i < f.n; i++) {
			const struct jscan_member *mb = &f.m[i];

			if (jscan_next(&a) != JSCAN_KEY || !same_tok(&a, JSCAN_KEY, mb->key, mb->klen, 0))
				abort();
			ta = jscan_next(&a);
			if (ta != mb->tok)
				abort();
			if (ta != JSCAN_ARR_BEGIN) {
				if (!same_tok(&a, ta, mb->str, mb->len, mb->num))
					abort();
				continue;
			}
			for (j = 0; j < mb->count; j++)
				if (jscan_next(&a) != JSCAN_NUMBER || !same_bits(a.num, f.nums[mb->first + j]))
					abort();
			if (jscan_next(&a) != JSCAN_ARR_END)
				abort();
		}
		if (jscan_next(&a) != JSCAN_OBJ_END)
			abort();
		jscan_flat_take(&b, &f);
		if (a.tok_off != b.tok_off || a.line != b.line || a.col != b.col || a.depth != b.depth ||
		    a.len != b.len || strcmp(a.str, b.str) != 0 || !same_bits(a.num, b.num))
			abort();
	}
	jscan_done(&a);
	jscan_done(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct jscan_limits tiny = { .max_depth = 3, .max_string = 16, .max_number = 8 };
	struct source *src = source_from_bytes(data, size);
	size_t i, quotes = 0;

	number_check(data, size);
	scan(src, 0, false, NULL, false, size);
	scan(src, 0, false, &tiny, false, size);
	scan(src, 0, false, NULL, true, size);
	flat_check(src, NULL);
	flat_check(src, &tiny);
	for (i = 0; i < size && quotes < 16; i++)
		if (data[i] == '"') {
			scan(src, i, true, NULL, false, size);
			quotes++;
		}
	source_close(src);
	return 0;
}
