/*
 * test_fileio.c - reading side files within limits: td_read_file's size
 * limit, and td_lines (line by line through one buffer, overlong lines
 * skipped and counted, holes of sparse files jumped over).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "reader/base/fileio.h"

static char path[64];

static int
setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof path, "/tmp/tdbg_test_fileio_XXXXXX");
	if ((fd = mkstemp(path)) < 0)
		return -1;
	close(fd);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void
write_file(const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* The lines of path through td_lines with max_line, joined with '|'. */
static char *
read_all(size_t max_line, uint64_t *long_lines)
{
	struct td_lines l;
	struct strbuf sb = {0};
	const char *s;
	size_t len;
	char err[256];

	assert_int_equal(td_lines_open(&l, path, max_line, err, sizeof err), TD_OK);
	while ((s = td_lines_next(&l, &len))) {
		strbuf_add(&sb, s, len);
		strbuf_addc(&sb, '|');
	}
	assert_false(l.error);
	*long_lines = l.long_lines;
	td_lines_close(&l);
	return sb.buf ? strbuf_take(&sb) : strdup("");
}

static void
test_lines_split_crlf_and_a_last_line_without_newline(void **state)
{
	uint64_t nlong;
	char *got;

	(void)state;
	write_file("a,b\r\n\nccc\nlast", 14);
	got = read_all(0, &nlong);
	assert_string_equal(got, "a,b||ccc|last|");
	assert_int_equal(nlong, 0);
	free(got);
}

static void
test_lines_skip_overlong_lines_whole_and_count_them(void **state)
{
	uint64_t nlong;
	char *got;

	(void)state;
	/* max_line 4: "12345" is too long, "1234\r" is not ("\r" is the line end) */
	write_file("ok\n12345\n1234\r\nxy\n123456789", 27);
	got = read_all(4, &nlong);
	assert_string_equal(got, "ok|1234|xy|");
	assert_int_equal(nlong, 2);
	free(got);
}

/* Lines that straddle the buffer's refills come out whole: a file several
 * times the read size, lines of every length up to the cap. */
static void
test_lines_across_refills_match_the_text(void **state)
{
	struct strbuf text = {0}, want = {0};
	size_t i;
	uint64_t nlong;
	char *got;

	(void)state;
	for (i = 0; text.len < (3u << 20); i++) {
		size_t n = (i * 7919) % 5000, k;

		for (k = 0; k < n; k++)
			strbuf_addc(&text, (char)('a' + (i + k) % 26));
		strbuf_addc(&text, '\n');
		if (n <= 4000) {
			strbuf_add(&want, text.buf + text.len - n - 1, n);
			strbuf_addc(&want, '|');
		}
	}
	write_file(text.buf, text.len);
	got = read_all(4000, &nlong);
	assert_true(nlong > 0);
	assert_int_equal(strlen(got), want.len);
	assert_memory_equal(got, want.buf, want.len);
	free(got);
	strbuf_done(&text);
	strbuf_done(&want);
}

/* A 1 TiB sparse file after two lines: the hole is one overlong line and
 * is jumped over, not read (this would take minutes otherwise). */
static void
test_lines_jump_the_hole_of_a_sparse_file(void **state)
{
	uint64_t nlong;
	char *got;

	(void)state;
	write_file("h1,h2\nv1,v2\n", 12);
	if (truncate(path, (off_t)1 << 40) != 0)
		skip();
	got = read_all(0, &nlong);
	assert_string_equal(got, "h1,h2|v1,v2|");
	assert_int_equal(nlong, 1);
	free(got);
}

static void
test_read_file_refuses_a_file_over_the_limit(void **state)
{
	char *buf = (char *)1, err[256];
	size_t len = 1;

	(void)state;
	write_file("0123456789", 10);
	assert_int_equal(td_read_file(path, 9, &buf, &len, err, sizeof err), TD_ERR_TOO_LARGE);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_non_null(strstr(err, "limit of 9"));
	assert_int_equal(td_read_file(path, 10, &buf, &len, err, sizeof err), TD_OK);
	assert_int_equal(len, 10);
	assert_string_equal(buf, "0123456789");
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lines_split_crlf_and_a_last_line_without_newline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lines_skip_overlong_lines_whole_and_count_them, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lines_across_refills_match_the_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lines_jump_the_hole_of_a_sparse_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_file_refuses_a_file_over_the_limit, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
