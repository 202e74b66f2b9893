/*
 * test_hostlist.c - Slurm/pdsh host ranges: expansion, compression, rank
 * ranges (tui/cmd/hostlist.c).  Expected names are written out by hand
 * from the ranges' meaning (as `scontrol show hostnames` lists them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/hostlist.h"

static void
expect_names(const char *text, const char *const *want)
{
	char **names, err[160] = "";
	size_t n, i, nwant = 0;

	while (want[nwant])
		nwant++;
	assert_int_equal(hostlist_expand(text, &names, &n, err, sizeof err), 0);
	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		assert_string_equal(names[i], want[i]);
	hostlist_free(names, n);
}

static void
expect_fail(const char *text, const char *why)
{
	char **names = (char **)1, err[160] = "";
	size_t n = 7;

	assert_int_equal(hostlist_expand(text, &names, &n, err, sizeof err), -1);
	assert_null(names);
	assert_int_equal(n, 0);
	assert_non_null(strstr(err, why));
}

static void
expect_compress(const char *const *names, const char *want)
{
	struct strbuf sb = {0};
	size_t n = 0;

	while (names[n])
		n++;
	hostlist_compress(names, n, &sb);
	assert_string_equal(sb.buf ? sb.buf : "", want);
	strbuf_done(&sb);
}

static void
test_hostlist_plain_names_and_commas(void **state)
{
	(void)state;
	expect_names("login", (const char *const[]){ "login", NULL });
	expect_names("a,b,c", (const char *const[]){ "a", "b", "c", NULL });
}

static void
test_hostlist_zero_padded_range_keeps_width(void **state)
{
	(void)state;
	expect_names("node[08-11]", (const char *const[]){ "node08", "node09", "node10", "node11", NULL });
	expect_names("n[1-3,7]", (const char *const[]){ "n1", "n2", "n3", "n7", NULL });
	expect_names("n[9-10]", (const char *const[]){ "n9", "n10", NULL });
}

static void
test_hostlist_commas_inside_brackets_do_not_split_items(void **state)
{
	(void)state;
	expect_names("n[1,3],login,m[2-3]x",
		     (const char *const[]){ "n1", "n3", "login", "m2x", "m3x", NULL });
}

static void
test_hostlist_two_groups_make_the_product(void **state)
{
	(void)state;
	expect_names("r[1-2]n[1-2]", (const char *const[]){ "r1n1", "r1n2", "r2n1", "r2n2", NULL });
}

static void
test_hostlist_bad_ranges_fail_with_the_cause(void **state)
{
	(void)state;
	expect_fail("n[1-", "missing ']'");
	expect_fail("n[3-1]", "goes down");
	expect_fail("n[a-b]", "wants numbers");
	expect_fail("n[]", "empty '[]'");
	expect_fail("n1]", "']' without '['");
	expect_fail("a,,b", "empty name");
	expect_fail("n[[1]]", "do not nest");
	expect_fail("n[1-99999999]", "more than a million");
}

static void
test_hostlist_compress_groups_by_prefix_and_width(void **state)
{
	(void)state;
	expect_compress((const char *const[]){ "n3", "n1", "n2", "n7", "login", NULL },
			"login,n[1-3,7]");
	expect_compress((const char *const[]){ "node01", "node02", "node10", NULL }, "node[01-02,10]");
	expect_compress((const char *const[]){ "n5", NULL }, "n5");
	expect_compress((const char *const[]){ "n9", "n10", "n11", "n1", NULL }, "n[1,9-11]");
	expect_compress((const char *const[]){ "n2", "n2", "n1", NULL }, "n[1-2]");
	expect_compress((const char *const[]){ NULL }, "");
}

static void
test_hostlist_compress_then_expand_round_trips(void **state)
{
	const char *const names[] = { "gpu009", "gpu010", "gpu011", "gpu100", "cpu1", "cpu2", NULL };
	struct strbuf sb = {0};
	char **back, err[160];
	size_t n;

	(void)state;
	hostlist_compress(names, 6, &sb);
	assert_string_equal(sb.buf, "cpu[1-2],gpu[009-011,100]");
	assert_int_equal(hostlist_expand(sb.buf, &back, &n, err, sizeof err), 0);
	assert_int_equal(n, 6);
	assert_string_equal(back[0], "cpu1");
	assert_string_equal(back[5], "gpu100");
	hostlist_free(back, n);
	strbuf_done(&sb);
}

static void
test_hostlist_ranks_compress_to_ranges(void **state)
{
	const int64_t r[] = { 7, 0, 1, 2, 3, 4, 5, 5, 9, 10 };
	struct strbuf sb = {0};

	(void)state;
	hostlist_ranks(r, 10, &sb);
	assert_string_equal(sb.buf, "0-5,7,9-10");
	strbuf_reset(&sb);
	hostlist_ranks(r, 1, &sb);
	assert_string_equal(sb.buf, "7");
	strbuf_done(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hostlist_plain_names_and_commas),
		cmocka_unit_test(test_hostlist_zero_padded_range_keeps_width),
		cmocka_unit_test(test_hostlist_commas_inside_brackets_do_not_split_items),
		cmocka_unit_test(test_hostlist_two_groups_make_the_product),
		cmocka_unit_test(test_hostlist_bad_ranges_fail_with_the_cause),
		cmocka_unit_test(test_hostlist_compress_groups_by_prefix_and_width),
		cmocka_unit_test(test_hostlist_compress_then_expand_round_trips),
		cmocka_unit_test(test_hostlist_ranks_compress_to_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
