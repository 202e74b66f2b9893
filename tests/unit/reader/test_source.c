/*
 * test_source.c - the descriptor pool of file sources (issue 13): more
 * files than the pool holds are all readable, the pool never holds more
 * than its limit, and a file renamed over while its descriptor was closed
 * is not read under the old one's name.
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

#include "reader/parse/source.h"

#define NFILES 12

static char dir[64];

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/tdbg-test-source.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	source_set_fd_limit(0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
test_source_more_files_than_descriptors_all_read(void **state)
{
	struct source *s[NFILES];
	char path[128], text[32], buf[32];
	enum td_status st;
	int i, round;

	(void)state;
	source_set_fd_limit(3);
	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof path, "%s/f%d", dir, i);
		snprintf(text, sizeof text, "file %d", i);
		write_file(path, text);
		s[i] = source_open_file(path, &st, NULL, 0);
		assert_non_null(s[i]);
		assert_true(source_open_fds() <= 3);
	}
	for (round = 0; round < 2; round++)
		for (i = 0; i < NFILES; i++) {
			ssize_t n;

			snprintf(text, sizeof text, "file %d", i);
			n = source_read(s[i], 0, buf, sizeof buf);
			assert_int_equal(n, (ssize_t)strlen(text));
			assert_memory_equal(buf, text, (size_t)n);
			assert_int_equal(source_size(s[i]), strlen(text));
			assert_true(source_open_fds() <= 3);
		}
	for (i = 0; i < NFILES; i++)
		source_close(s[i]);
	assert_int_equal(source_open_fds(), 0);
}

static void
test_source_renamed_over_is_not_read_as_the_old_file(void **state)
{
	struct source *a, *b;
	char pa[128], pb[128], tmp[128], buf[16];
	enum td_status st;

	(void)state;
	source_set_fd_limit(1);
	snprintf(pa, sizeof pa, "%s/a", dir);
	snprintf(pb, sizeof pb, "%s/b", dir);
	snprintf(tmp, sizeof tmp, "%s/a.new", dir);
	write_file(pa, "old a");
	write_file(pb, "b");
	a = source_open_file(pa, &st, NULL, 0);
	b = source_open_file(pb, &st, NULL, 0);     /* closes a's descriptor */
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(source_check(a, NULL, NULL), SOURCE_SAME);
	write_file(tmp, "new a");
	assert_int_equal(rename(tmp, pa), 0);
	assert_int_equal(source_check(a, NULL, NULL), SOURCE_REPLACED);
	errno = 0;
	assert_int_equal(source_read(a, 0, buf, sizeof buf), -1);
	assert_int_equal(errno, ESTALE);
	assert_int_equal(source_read(b, 0, buf, sizeof buf), 1);
	source_close(a);
	source_close(b);
}

static void
test_source_retired_reads_fail(void **state)
{
	struct source *a;
	char pa[128], buf[16];
	enum td_status st;

	(void)state;
	snprintf(pa, sizeof pa, "%s/r", dir);
	write_file(pa, "text");
	a = source_open_file(pa, &st, NULL, 0);
	assert_non_null(a);
	assert_int_equal(source_read(a, 0, buf, sizeof buf), 4);
	source_retire(a);
	assert_int_equal(source_read(a, 0, buf, sizeof buf), -1);
	assert_int_equal(source_open_fds(), 0);
	unlink(pa);
	assert_int_equal(source_check(a, NULL, NULL), SOURCE_GONE);
	source_close(a);
}

/* source_prefetch is a hint: reads give the same bytes after it, past the
 * end is fine, and a byte array, a file whose descriptor the pool closed
 * (not reopened for a hint) or a retired file are left alone. */
static void
test_source_prefetch_is_a_hint_only(void **state)
{
	struct source *a, *b, *m = source_from_bytes("bytes", 5);
	char pa[128], pb[128], buf[16];
	enum td_status st;

	(void)state;
	source_set_fd_limit(1);
	snprintf(pa, sizeof pa, "%s/p", dir);
	snprintf(pb, sizeof pb, "%s/q", dir);
	write_file(pa, "prefetched");
	write_file(pb, "q");
	a = source_open_file(pa, &st, NULL, 0);
	assert_non_null(a);
	source_prefetch(a, 0, (uint64_t)8 << 20);
	source_prefetch(a, (uint64_t)1 << 40, 4096);
	assert_int_equal(source_read(a, 0, buf, sizeof buf), 10);
	assert_memory_equal(buf, "prefetched", 10);
	b = source_open_file(pb, &st, NULL, 0);     /* closes a's descriptor */
	assert_non_null(b);
	assert_int_equal(source_open_fds(), 1);
	source_prefetch(a, 0, 4096);                /* no reopen for a hint */
	assert_int_equal(source_open_fds(), 1);
	source_prefetch(m, 0, 4096);
	assert_int_equal(source_read(m, 1, buf, sizeof buf), 4);
	source_retire(b);
	source_prefetch(b, 0, 4096);
	assert_int_equal(source_read(b, 0, buf, sizeof buf), -1);
	assert_int_equal(source_read(a, 2, buf, sizeof buf), 8);
	assert_memory_equal(buf, "efetched", 8);
	source_close(a);
	source_close(b);
	source_close(m);
}

/* A view of a file that shrinks under it (a restarted job truncating its
 * traces file): reading the vanished pages gives zeros, not SIGBUS. */
static void
test_source_view_of_truncated_file_reads_zeros(void **state)
{
	struct source *a;
	struct source_view v;
	const unsigned char *p;
	char pa[128];
	enum td_status st;
	FILE *f;
	unsigned sum = 0;

	(void)state;
	snprintf(pa, sizeof pa, "%s/t", dir);
	f = fopen(pa, "w");
	assert_non_null(f);
	for (int i = 0; i < 65536; i++)
		fputc('x', f);
	fclose(f);
	a = source_open_file(pa, &st, NULL, 0);
	assert_non_null(a);
	assert_int_equal(source_size(a), 65536);
	p = source_view(a, 0, 65536, &v);
	assert_non_null(p);
	assert_int_equal(p[0], 'x');
	assert_int_equal(truncate(pa, 0), 0);
	uint64_t before = source_zeroed_pages();
	for (int i = 4096; i < 65536; i += 4096)
		sum += p[i];            /* SIGBUS here without the handler */
	assert_int_equal(sum, 0);
	assert_true(source_zeroed_pages() > before);
	source_unview(&v);
	source_close(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source_more_files_than_descriptors_all_read),
		cmocka_unit_test(test_source_renamed_over_is_not_read_as_the_old_file),
		cmocka_unit_test(test_source_retired_reads_fail),
		cmocka_unit_test(test_source_prefetch_is_a_hint_only),
		cmocka_unit_test(test_source_view_of_truncated_file_reads_zeros),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
