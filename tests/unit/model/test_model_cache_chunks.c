/*
 * test_model_cache_chunks.c - sections of the persistent index written a
 * chunk at a time (model_cache.h, mc_section_chunked; issue 26: the ops,
 * strings and runs of a 200,000-entry dump were each built whole in one
 * buffer before being written).  A chunked section is the same bytes as
 * the section built whole, the maker's buffer never holds much more than
 * a chunk, and a maker whose second run differs from its first fails the
 * write instead of writing a length that lies.  The expected bytes are
 * the maker's own pattern, written whole through mc_section.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model_cache.h"

#define PIECE 100u
#define PIECES 40000u           /* 4 MB: sixteen chunks and a part */

static size_t most_held;        /* the largest sb->len a maker saw */
static unsigned runs;           /* maker runs so far */

/* The pattern's piece i. */
static void
piece(uint32_t i, unsigned char *b)
{
	for (uint32_t k = 0; k < PIECE; k++)
		b[k] = (unsigned char)(i * 31u + k);
}

static void
maker(struct model *m, struct strbuf *sb, struct mc_chunks *ck)
{
	unsigned char b[PIECE];

	(void)m;
	for (uint32_t i = 0; i < PIECES; i++) {
		piece(i, b);
		strbuf_add(sb, (const char *)b, PIECE);
		if (sb->len > most_held)
			most_held = sb->len;
		mc_chunk(ck, sb, false);
	}
	runs++;
}

/* Makes one more piece on its second run than on its first. */
static void
unsteady_maker(struct model *m, struct strbuf *sb, struct mc_chunks *ck)
{
	unsigned char b[PIECE];

	maker(m, sb, ck);
	if (runs % 2 == 0) {
		piece(PIECES, b);
		strbuf_add(sb, (const char *)b, PIECE);
	}
}

/* The bytes written to a temporary file through o by write(o). */
static unsigned char *
written(void (*write)(struct mc_out *), size_t *len, struct mc_out *out)
{
	FILE *f = tmpfile();
	unsigned char *buf;
	long n;

	assert_non_null(f);
	memset(out, 0, sizeof *out);
	out->fd = fileno(f);
	write(out);
	mc_flush(out);
	n = lseek(out->fd, 0, SEEK_END);
	assert_true(n >= 0);
	buf = malloc((size_t)n + 1);
	assert_int_equal(pread(out->fd, buf, (size_t)n, 0), n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void
write_whole(struct mc_out *o)
{
	struct strbuf sb = {0};

	maker(NULL, &sb, NULL);
	mc_section(o, MC_OPS, &sb);
	strbuf_done(&sb);
}

static void
write_chunked(struct mc_out *o)
{
	mc_section_chunked(o, MC_OPS, NULL, maker);
}

static void
write_unsteady(struct mc_out *o)
{
	mc_section_chunked(o, MC_OPS, NULL, unsteady_maker);
}

static void
test_chunked_section_same_bytes(void **state)
{
	static struct mc_out a, b;
	unsigned char *whole, *chunked;
	size_t nw, nc;

	(void)state;
	whole = written(write_whole, &nw, &a);
	assert_int_equal(nw, 12 + (size_t)PIECES * PIECE);
	most_held = 0;
	runs = 0;
	chunked = written(write_chunked, &nc, &b);
	assert_false(b.err);
	assert_int_equal(runs, 2);
	assert_int_equal(nc, nw);
	assert_memory_equal(chunked, whole, nw);
	assert_int_equal(b.sum, a.sum);
	/* never more than a chunk and a piece in the maker's buffer */
	assert_true(most_held < MC_CHUNK_BYTES + PIECE);
	free(whole);
	free(chunked);
}

static void
test_chunked_section_unsteady_maker_fails(void **state)
{
	static struct mc_out o;
	unsigned char *bytes;
	size_t n;

	(void)state;
	runs = 0;
	bytes = written(write_unsteady, &n, &o);
	assert_true(o.err);
	assert_int_equal(o.errnum, EIO);
	free(bytes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chunked_section_same_bytes),
		cmocka_unit_test(test_chunked_section_unsteady_maker_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
