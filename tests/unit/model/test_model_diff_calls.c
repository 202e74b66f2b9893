/*
 * test_model_diff_calls.c - pairing two models whose op names count calls
 * (reader_ops.call_of): backward calls by their rank in order of
 * appearance, --fuzzy without counts, hosts by sorted position; and the
 * calls without rows, paired as a whole (model_diff_execution_pair).  The
 * scripted reader is the fake one with a call_of of its own: "OP.N.bw" is
 * a call paired by rank, "OP.N.fw" one paired by its count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_diff.h"
#include "tests/unit/helpers/fake_model.h"

static enum reader_call
test_call_of(const char *name, char *key, size_t keylen, int64_t *count)
{
	const char *a = strchr(name, '.'), *b = a ? strchr(a + 1, '.') : NULL;

	if (!b)
		return READER_CALL_NONE;
	snprintf(key, keylen, "%.*s.*%s", (int)(a - name), name, b);
	*count = atoll(a + 1);
	return strcmp(b, ".bw") == 0 ? READER_CALL_ORDINAL : READER_CALL_EXACT;
}

static struct reader_ops calls_ops;

static struct model *
open_calls(struct fake *f)
{
	struct model_options o = { .no_thread = true };
	struct model *m = NULL;
	char err[256];

	calls_ops = fake_reader_ops;
	calls_ops.call_of = test_call_of;
	calls_ops.flags |= READER_PAIR_HOSTS_BY_POSITION;
	fake_use(f);
	assert_int_equal(model_open_with(&calls_ops, "fake", &o, &m, err, sizeof err), TD_OK);
	return m;
}

/* One row per op name, in order; its mean tells which call it is. */
static void
rows(struct fake *f, uint32_t file, const char *const *names, const double *ids, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		struct td_summary s = fake_full_health(4, 0, 0, 0);

		s.known |= SUM_MEAN;
		s.mean = ids[k];
		fake_op(f, "g", names[k], "Op", NULL, NULL);
		fake_trace(f, file, "g", names[k], 0, k, &s);
	}
}

static double
mean_of(struct model *m, uint64_t row)
{
	struct model_trace t;

	assert_int_equal(model_trace_get(m, row, &t), TD_OK);
	return t.summary.mean;
}

/* Every pair joins rows of the same call (the same mean). */
static void
assert_pairs_same_call(struct model_diff *d, struct model *a, struct model *b, uint64_t n)
{
	struct model_diff_counts c;
	uint64_t k, ra, rb;

	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, n);
	assert_int_equal(c.only_a, 0);
	assert_int_equal(c.only_b, 0);
	for (k = 0; k < n; k++) {
		assert_true(model_diff_rows(d, k, &ra, &rb));
		assert_true(mean_of(a, ra) == mean_of(b, rb));
	}
}

static void
test_backward_calls_pair_by_rank_not_by_count(void **state)
{
	/* the golden numbers backward calls in their own order, the target
	 * by the forward call they follow */
	static const char *const an[] = { "lin.0.fw", "lin.1.fw", "lin.0.bw", "lin.1.bw" };
	static const char *const bn[] = { "lin.0.fw", "lin.1.fw", "lin.1.bw", "lin.0.bw" };
	static const double ids[] = { 1, 2, 3, 4 };
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d = NULL;
	char err[256];

	(void)state;
	rows(fa, 1, an, ids, 4);
	rows(fb, 1, bn, ids, 4);
	a = open_calls(fa), b = open_calls(fb);
	assert_int_equal(model_diff_new(a, b, NULL, &d, err, sizeof err), TD_OK);
	assert_pairs_same_call(d, a, b, 4);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

/* Op ids hold the same name in both dumps but its rank differs: B's class
 * for that op id (lin.*.bw#0) is not A's (#1), although A's ops take B's
 * class where the name alone makes it (model_diff.c class_hint).  A's rows
 * come in another order than its ops, so a wrong class pairs A's first
 * row with B's lin row. */
static void
test_same_name_at_same_op_other_rank(void **state)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct td_summary s = fake_full_health(4, 0, 0, 0);
	struct model *a, *b;
	struct model_diff *d = NULL;
	struct model_diff_counts c;
	uint64_t ra, rb;
	char err[256];

	(void)state;
	s.known |= SUM_MEAN;
	fake_op(fa, "g", "lin.5.bw", "Op", NULL, NULL);        /* rank 0 */
	fake_op(fa, "g", "lin.0.bw", "Op", NULL, NULL);        /* rank 1 */
	s.mean = 2;
	fake_trace(fa, 1, "g", "lin.0.bw", 0, 0, &s);
	s.mean = 1;
	fake_trace(fa, 1, "g", "lin.5.bw", 0, 1, &s);
	fake_op(fb, "g", "relu.0.fw", "Op", NULL, NULL);
	fake_op(fb, "g", "lin.0.bw", "Op", NULL, NULL);        /* rank 0 */
	s.mean = 3;
	fake_trace(fb, 1, "g", "relu.0.fw", 0, 0, &s);
	s.mean = 1;
	fake_trace(fb, 1, "g", "lin.0.bw", 0, 1, &s);
	a = open_calls(fa), b = open_calls(fb);
	assert_int_equal(model_diff_new(a, b, NULL, &d, err, sizeof err), TD_OK);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 1);
	assert_int_equal(c.only_a, 1);
	assert_int_equal(c.only_b, 1);
	assert_true(model_diff_rows(d, 0, &ra, &rb));
	assert_true(mean_of(a, ra) == 1 && mean_of(b, rb) == 1);      /* both rank 0 */
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

/* Enough ops that the names ops pair by are found in two halves, the
 * upper on a second thread (model_diff.c op_classes): backward calls pair
 * by rank across the halves, forward calls by name, as in one pass. */
static void
test_calls_pair_by_rank_across_both_halves(void **state)
{
	enum { N = 3000 };
	struct fake *fa = fake_new(), *fb = fake_new();
	struct td_summary s = fake_full_health(4, 0, 0, 0);
	struct model *a, *b;
	struct model_diff *d = NULL;
	char err[256], na[64], nb[64];
	int k;

	(void)state;
	s.known |= SUM_MEAN;
	for (k = 0; k < N; k++) {
		/* even: forward calls, same count; odd: backward calls whose
		 * count the target numbers otherwise */
		if (k % 2) {
			snprintf(na, sizeof na, "lin.%d.bw", k);
			snprintf(nb, sizeof nb, "lin.%d.bw", N + k * 7 % N);
		} else {
			snprintf(na, sizeof na, "relu.%d.fw", k);
			snprintf(nb, sizeof nb, "relu.%d.fw", k);
		}
		s.mean = k;
		fake_op(fa, "g", na, "Op", NULL, NULL);
		fake_trace(fa, 1, "g", na, 0, k, &s);
		fake_op(fb, "g", nb, "Op", NULL, NULL);
		fake_trace(fb, 1, "g", nb, 0, k, &s);
	}
	a = open_calls(fa), b = open_calls(fb);
	assert_int_equal(model_diff_new(a, b, NULL, &d, err, sizeof err), TD_OK);
	assert_pairs_same_call(d, a, b, N);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

static void
test_fuzzy_pairs_calls_in_order_whatever_their_counts(void **state)
{
	static const char *const an[] = { "lin.0.fw", "lin.1.fw", "relu.0.fw" };
	static const char *const bn[] = { "lin.7.fw", "lin.8.fw", "relu.3.fw" };
	static const double ids[] = { 1, 2, 3 };
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d = NULL;
	struct model_diff_options o;
	struct model_diff_counts c;
	char err[256];

	(void)state;
	rows(fa, 1, an, ids, 3);
	rows(fb, 1, bn, ids, 3);
	a = open_calls(fa), b = open_calls(fb);
	assert_int_equal(model_diff_new(a, b, NULL, &d, err, sizeof err), TD_OK);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 0);         /* exact counts: nothing pairs */
	model_diff_free(d);
	model_diff_options_init(&o);
	o.fuzzy = true;
	assert_int_equal(model_diff_new(a, b, &o, &d, err, sizeof err), TD_OK);
	assert_pairs_same_call(d, a, b, 3);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

static void
test_hosts_pair_by_sorted_position(void **state)
{
	static const char *const n1[] = { "lin.0.fw" };
	static const double r0[] = { 10 }, r1[] = { 11 };
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d = NULL;
	char err[256];

	(void)state;
	fake_file(fa, 1, "a0", "rank0");
	fake_file(fa, 2, "a1", "rank1");
	fake_file(fb, 1, "b10", "rank10");       /* listed first, sorted second */
	fake_file(fb, 2, "b2", "rank2");
	rows(fa, 1, n1, r0, 1);
	rows(fa, 2, n1, r1, 1);
	rows(fb, 1, n1, r1, 1);
	rows(fb, 2, n1, r0, 1);
	a = open_calls(fa), b = open_calls(fb);
	assert_int_equal(model_diff_new(a, b, NULL, &d, err, sizeof err), TD_OK);
	assert_pairs_same_call(d, a, b, 2);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

/* One execution per name, without trace rows (a call of non-tensor
 * arguments only). */
static void
execs(struct fake *f, const char *const *names, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		fake_op(f, "g", names[k], "Op", NULL, NULL);
		fake_exec(f, 1, names[k], "g", NULL, k, NULL, 0);
	}
}

static void
test_calls_without_rows_pair_as_their_rows_would(void **state)
{
	static const char *const an[] = { "size.0.fw", "size.0.bw", "size.1.bw" };
	/* backward calls by rank whatever their count; an unknown call */
	static const char *const bn[] = { "size.1.bw", "size.3.bw", "size.0.fw", "other.0.fw" };
	static const int64_t want[] = { 1, 2, 0, -1 };
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d = NULL;
	char err[256];
	int k;

	(void)state;
	execs(fa, an, 3);
	execs(fb, bn, 4);
	a = open_calls(fa), b = open_calls(fb);
	assert_int_equal(model_execution_count(b), 4);
	assert_int_equal(model_diff_new(a, b, NULL, &d, err, sizeof err), TD_OK);
	for (k = 0; k < 4; k++)
		assert_int_equal(model_diff_execution_pair(d, (uint64_t)k), want[k]);
	assert_int_equal(model_diff_execution_pair(d, 4), -1);     /* past the end */
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

static void
test_fuzzy_calls_without_rows_pair_in_order(void **state)
{
	static const char *const an[] = { "size.0.fw", "size.1.fw" };
	static const char *const bn[] = { "size.5.fw", "size.6.fw" };
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d = NULL;
	struct model_diff_options o;
	char err[256];

	(void)state;
	execs(fa, an, 2);
	execs(fb, bn, 2);
	a = open_calls(fa), b = open_calls(fb);
	assert_int_equal(model_diff_new(a, b, NULL, &d, err, sizeof err), TD_OK);
	assert_int_equal(model_diff_execution_pair(d, 0), -1);     /* exact counts */
	model_diff_free(d);
	model_diff_options_init(&o);
	o.fuzzy = true;
	assert_int_equal(model_diff_new(a, b, &o, &d, err, sizeof err), TD_OK);
	assert_int_equal(model_diff_execution_pair(d, 0), 0);
	assert_int_equal(model_diff_execution_pair(d, 1), 1);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backward_calls_pair_by_rank_not_by_count),
		cmocka_unit_test(test_same_name_at_same_op_other_rank),
		cmocka_unit_test(test_calls_pair_by_rank_across_both_halves),
		cmocka_unit_test(test_fuzzy_pairs_calls_in_order_whatever_their_counts),
		cmocka_unit_test(test_hosts_pair_by_sorted_position),
		cmocka_unit_test(test_calls_without_rows_pair_as_their_rows_would),
		cmocka_unit_test(test_fuzzy_calls_without_rows_pair_in_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
