/*
 * test_model_regex.c - regexes over dump strings with bounded work (issue
 * 23 item 17, model/model_regex.c): a pattern that backtracks
 * exponentially on a deep scope name stops at PCRE2's limits within
 * milliseconds and says "undecided"; a filter then counts the op's rows as
 * unknown, so the "x5$ or any scopes then y" pattern never matches
 * fewer rows than "x5$" without saying so, and a `where` regex condition
 * on such a name is unknown.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "model/model_regex.h"
#include "tests/unit/helpers/fake_model.h"

/* "s/s/.../s/" (depth scopes) then tail, in buf. */
static const char *
deep(char *buf, size_t size, int depth, const char *tail)
{
	size_t n = 0;

	for (int i = 0; i < depth && n + 3 < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "s/");
	snprintf(buf + n, size - n, "%s", tail);
	return buf;
}

static pcre2_code *
compile(const char *re)
{
	int code;
	PCRE2_SIZE off;
	pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);

	assert_non_null(c);
	return c;
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void
test_regex_exponential_pattern_is_undecided_fast(void **state)
{
	pcre2_code *re = compile("x5$|^(.*/)*y$"), *plain = compile("x5$");
	char name[512];
	double t0;

	(void)state;
	deep(name, sizeof name, 40, "x5");
	t0 = now();
	assert_int_equal(model_regex_match(re, name, strlen(name), NULL), MODEL_REGEX_UNDECIDED);
	assert_true(now() - t0 < 0.5);     /* unbounded: 2^40 steps */
	assert_int_equal(model_regex_match(plain, name, strlen(name), NULL), MODEL_REGEX_MATCH);
	deep(name, sizeof name, 2, "x5");  /* shallow: decided */
	assert_int_equal(model_regex_match(re, name, strlen(name), NULL), MODEL_REGEX_MATCH);
	assert_int_equal(model_regex_match(plain, "x6", 2, NULL), MODEL_REGEX_NO);
	pcre2_code_free(re);
	pcre2_code_free(plain);
}

/* ops: deep/x5 (rows 0, 2), s/x5 (row 1), deep/x6 (row 3) */
static struct fake *
script(void)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	static char a[512], b[512];

	deep(a, sizeof a, 40, "x5");
	deep(b, sizeof b, 40, "x6");
	fake_file(f, 1, "f1", "a");
	fake_graph(f, "G0", "model", NULL);
	fake_op(f, "G0", a, "MatMul", NULL, NULL);
	fake_op(f, "G0", "s/x5", "MatMul", NULL, NULL);
	fake_op(f, "G0", b, "MatMul", NULL, NULL);
	fake_trace(f, 1, "G0", a, 0, 1, &ok);
	fake_trace(f, 1, "G0", "s/x5", 0, 1, &ok);
	fake_trace(f, 1, "G0", a, 0, 1, &ok);
	fake_trace(f, 1, "G0", b, 0, 1, &ok);
	return f;
}

static struct model_filter *
filter(struct model *m, const char *op_re, const char *where)
{
	struct model_filter_spec spec = {.op_regex = op_re, .where = where, .graph = -1,
					 .execution = -1};
	struct model_filter *fl = NULL;
	char err[256];

	assert_int_equal(model_filter_new(m, &spec, &fl, err, sizeof err), TD_OK);
	return fl;
}

static void
test_filter_limit_hit_counts_unknown_not_no_match(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter *plain = filter(m, "x5$", NULL), *costly = filter(m, "x5$|^(.*/)*y$", NULL);
	uint64_t matched;

	(void)state;
	assert_int_equal(model_filter_count(m, plain, TABLE_TRACES), 3);
	assert_int_equal(model_filter_unknown(m, plain, TABLE_TRACES), 0);
	assert_int_equal(model_filter_undecided(plain), 0);
	matched = model_filter_count(m, costly, TABLE_TRACES);
	assert_int_equal(matched, 1);                   /* s/x5: decided */
	assert_int_equal(model_filter_unknown(m, costly, TABLE_TRACES), 3);  /* rows 0, 2, 3 */
	assert_true(model_filter_undecided(costly) >= 2);
	assert_false(model_filter_match(m, costly, TABLE_TRACES, 0));
	assert_int_equal(model_filter_nth(m, costly, TABLE_TRACES, 0), 1);
	model_filter_free(plain);
	model_filter_free(costly);
	model_close(m);
	fake_free(f);
}

static void
test_where_regex_limit_is_unknown(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	struct model_filter *fl = filter(m, NULL, "op ~ \"x5$|^(.*/)*y$\"");

	(void)state;
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 1);
	assert_int_equal(model_filter_unknown(m, fl, TABLE_TRACES), 3);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regex_exponential_pattern_is_undecided_fast),
		cmocka_unit_test(test_filter_limit_hit_counts_unknown_not_no_match),
		cmocka_unit_test(test_where_regex_limit_is_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
