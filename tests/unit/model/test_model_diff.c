/*
 * test_model_diff.c - aligning two models (op name, slot, host, order of
 * appearance within the op), the summary metrics, divergences, the first
 * one and its cause, over scripted in-memory readers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_diff.h"
#include "tests/unit/helpers/fake_model.h"

static struct model_diff *
diff_of(struct model *a, struct model *b, const struct model_diff_options *o)
{
	struct model_diff *d = NULL;
	char err[256] = "";

	assert_int_equal(model_diff_new(a, b, o, &d, err, sizeof err), TD_OK);
	return d;
}

/* A float32 summary with min/max/mean. */
static struct td_summary
ranged(enum td_dtype dt, int64_t n, double lo, double hi, double mean)
{
	struct td_summary s = fake_full_health(n, 0, 0, 0);

	s.dtype = dt;
	s.known |= SUM_MINMAX | SUM_MEAN;
	s.min = lo, s.max = hi, s.mean = mean;
	return s;
}

/* A chain x -> relu -> add(relu, x) -> out, one step of rows. */
static void
chain_ops(struct fake *f)
{
	static const char *const relu_in[] = { "x:0", NULL };
	static const char *const add_in[] = { "relu:0", "x:0", NULL };
	static const char *const out_in[] = { "add:0", NULL };

	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "relu", "Relu", relu_in, NULL);
	fake_op(f, "g", "add", "AddV2", add_in, NULL);
	fake_op(f, "g", "out", "Identity", out_in, NULL);
}

/* steps x (x, relu, add, out); in bad_step, NaN from relu on. */
static void
chain_rows(struct fake *f, int steps, int bad_step)
{
	static const char *const names[] = { "x", "relu", "add", "out" };
	struct td_summary ok = fake_full_health(10, 0, 0, 0), nan = fake_full_health(10, 0, 0, 2);
	int s, k;

	for (s = 0; s < steps; s++)
		for (k = 0; k < 4; k++) {
			bool bad = s == bad_step && k >= 1;

			fake_trace(f, 1, "g", names[k], 0, 10.0 * s + k, bad ? &nan : &ok);
		}
}

static void
test_diff_same_run_twice_nothing_diverges(void **state)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d;
	struct model_diff_counts c;
	uint64_t k, ra, rb;

	(void)state;
	chain_ops(fa), chain_ops(fb);
	chain_rows(fa, 3, -1), chain_rows(fb, 3, -1);
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, NULL);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 12);
	assert_int_equal(c.only_a, 0);
	assert_int_equal(c.only_b, 0);
	for (k = 0; k < 12; k++) {
		assert_true(model_diff_rows(d, k, &ra, &rb));
		assert_int_equal(ra, k);
		assert_int_equal(rb, k);
		assert_false(model_diff_diverged(d, k));
	}
	assert_int_equal(model_diff_first(d), -1);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

/* Repeated executions pair in order of appearance; the extra one of A and
 * an op only B has are counted as such, whatever the row order. */
static void
test_diff_aligns_by_order_within_the_op(void **state)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0);
	struct model_diff_counts c;
	struct model *a, *b;
	struct model_diff *d;
	uint64_t ra, rb;

	(void)state;
	fake_op(fa, "g1", "p", "Relu", NULL, NULL);
	fake_op(fa, "g1", "q", "Relu", NULL, NULL);
	fake_op(fb, "other", "q", "Relu", NULL, NULL);  /* graph ids differ between runs */
	fake_op(fb, "other", "p", "Relu", NULL, NULL);
	fake_op(fb, "other", "r", "Relu", NULL, NULL);
	fake_trace(fa, 1, "g1", "p", 0, 1, &ok);        /* A: p p q p */
	fake_trace(fa, 1, "g1", "p", 0, 2, &ok);
	fake_trace(fa, 1, "g1", "q", 0, 3, &ok);
	fake_trace(fa, 1, "g1", "p", 0, 4, &ok);
	fake_trace(fb, 1, "other", "q", 0, 1, &ok);     /* B: q p r p */
	fake_trace(fb, 1, "other", "p", 0, 2, &ok);
	fake_trace(fb, 1, "other", "r", 0, 3, &ok);
	fake_trace(fb, 1, "other", "p", 0, 4, &ok);
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, NULL);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 3);
	assert_int_equal(c.only_a, 1);          /* the third p */
	assert_int_equal(c.only_b, 1);          /* r */
	assert_true(model_diff_rows(d, 0, &ra, &rb));
	assert_int_equal(ra, 0), assert_int_equal(rb, 1);
	assert_true(model_diff_rows(d, 1, &ra, &rb));
	assert_int_equal(ra, 1), assert_int_equal(rb, 3);
	assert_true(model_diff_rows(d, 2, &ra, &rb));
	assert_int_equal(ra, 2), assert_int_equal(rb, 0);
	assert_false(model_diff_rows(d, 3, &ra, &rb));
	assert_int_equal(model_diff_pair_of_a(d, 2), 2);
	assert_int_equal(model_diff_pair_of_a(d, 3), -1);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

/* Two runs in the same order for 300 rows (past a window of host keys),
 * then a row each without a key (an op only A has; a host only B has),
 * then apart: A q r q, B r q s.  The rows in order pair with their
 * places; after that, each row of A takes the first free row of its op in
 * B, as if no row had been in order. */
static void
test_diff_same_order_then_apart(void **state)
{
	static const char *const tail_a[] = { "q", "r", "q" }, *const tail_b[] = { "r", "q", "s" };
	struct fake *fa = fake_new(), *fb = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0);
	struct model_diff_counts c;
	struct model *a, *b;
	struct model_diff *d;
	uint64_t k, ra, rb;
	char name[16];
	int i;

	(void)state;
	fake_file(fa, 1, "a0", "h0");
	fake_file(fb, 1, "b0", "h0");
	fake_file(fb, 2, "bx", "hx");
	for (i = 0; i < 10; i++) {
		snprintf(name, sizeof name, "o%d", i);
		fake_op(fa, "g", name, "Relu", NULL, NULL);
		fake_op(fb, "g", name, "Relu", NULL, NULL);
	}
	fake_op(fa, "g", "only_a", "Relu", NULL, NULL);
	fake_op(fa, "g", "q", "Relu", NULL, NULL);
	fake_op(fa, "g", "r", "Relu", NULL, NULL);
	fake_op(fb, "g", "q", "Relu", NULL, NULL);
	fake_op(fb, "g", "r", "Relu", NULL, NULL);
	fake_op(fb, "g", "s", "Relu", NULL, NULL);
	for (i = 0; i < 300; i++) {                     /* o0..o9, slots 0 and 1 */
		snprintf(name, sizeof name, "o%d", i % 10);
		fake_trace(fa, 1, "g", name, (uint32_t)(i / 10 % 2), i, &ok);
		fake_trace(fb, 1, "g", name, (uint32_t)(i / 10 % 2), i, &ok);
	}
	fake_trace(fa, 1, "g", "only_a", 0, 300, &ok);  /* row 300: no key on either side */
	fake_trace(fb, 2, "g", "o0", 0, 300, &ok);
	for (i = 0; i < 3; i++) {                       /* rows 301-303 */
		fake_trace(fa, 1, "g", tail_a[i], 0, 301 + i, &ok);
		fake_trace(fb, 1, "g", tail_b[i], 0, 301 + i, &ok);
	}
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, NULL);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 302);
	assert_int_equal(c.only_a, 2);                  /* only_a, the second q */
	assert_int_equal(c.only_b, 2);                  /* hx's row, s */
	for (k = 0; k < 300; k++) {
		assert_true(model_diff_rows(d, k, &ra, &rb));
		assert_int_equal(ra, k);
		assert_int_equal(rb, k);
	}
	assert_true(model_diff_rows(d, 300, &ra, &rb));  /* q */
	assert_int_equal(ra, 301), assert_int_equal(rb, 302);
	assert_true(model_diff_rows(d, 301, &ra, &rb));  /* r */
	assert_int_equal(ra, 302), assert_int_equal(rb, 301);
	assert_false(model_diff_rows(d, 302, &ra, &rb));
	assert_int_equal(model_diff_first(d), -1);
	for (k = 0; k < 302; k += 37)                   /* past a window of host keys */
		assert_string_equal(model_diff_host_a(d, k), "h0");
	assert_string_equal(model_diff_host_a(d, 301), "h0");
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

/* Output slots are keys of their own. */
static void
test_diff_slots_do_not_mix(void **state)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0);
	struct model_diff_counts c;
	struct model *a, *b;
	struct model_diff *d;
	uint64_t ra, rb;

	(void)state;
	fake_op(fa, "g", "split", "Split", NULL, NULL);
	fake_op(fb, "g", "split", "Split", NULL, NULL);
	fake_trace(fa, 1, "g", "split", 0, 1, &ok);
	fake_trace(fa, 1, "g", "split", 1, 2, &ok);
	fake_trace(fb, 1, "g", "split", 1, 1, &ok);
	fake_trace(fb, 1, "g", "split", 0, 2, &ok);
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, NULL);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 2);
	assert_true(model_diff_rows(d, 0, &ra, &rb));
	assert_int_equal(rb, 1);
	assert_true(model_diff_rows(d, 1, &ra, &rb));
	assert_int_equal(rb, 0);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

/* A NaN from relu on in B's second step: the first divergence is that
 * row, the op made it; add and out only inherit it. */
static void
test_diff_first_divergence_and_its_cause(void **state)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d;
	struct model_diff_pair p;

	(void)state;
	chain_ops(fa), chain_ops(fb);
	chain_rows(fa, 3, -1);
	chain_rows(fb, 3, 1);
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, NULL);
	assert_int_equal(model_diff_first(d), 5);
	assert_int_equal(model_diff_pair_get(d, 5, &p), TD_OK);
	assert_true(p.diverged);
	assert_string_equal(p.a.op_name, "relu");
	assert_string_equal(p.metrics.reason, "nonfinite");
	assert_true(p.metrics.nan_delta == 2);
	assert_int_equal(p.cause, DIFF_CAUSE_OP);
	assert_string_equal(model_diff_cause_name(p.cause), "op diverged");
	assert_int_equal(model_diff_pair_get(d, 6, &p), TD_OK);
	assert_string_equal(p.a.op_name, "add");
	assert_true(p.diverged);
	assert_int_equal(p.cause, DIFF_CAUSE_INPUTS);
	assert_string_equal(model_diff_cause_name(p.cause), "inputs differ");
	assert_int_equal(model_diff_pair_get(d, 4, &p), TD_OK);
	assert_false(p.diverged);
	assert_int_equal(p.cause, DIFF_CAUSE_NONE);
	assert_null(model_diff_cause_name(p.cause));
	assert_int_equal(model_diff_pair_get(d, 12, &p), TD_ERR_RANGE);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

static bool
one_pair_diverges(struct td_summary sa, struct td_summary sb, const struct model_diff_options *o,
		  struct model_diff_pair *p)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d;

	fake_op(fa, "g", "t", "MatMul", NULL, NULL);
	fake_op(fb, "g", "t", "MatMul", NULL, NULL);
	fake_trace(fa, 1, "g", "t", 0, 1, &sa);
	fake_trace(fb, 1, "g", "t", 0, 1, &sb);
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, o);
	assert_int_equal(model_diff_pair_get(d, 0, p), TD_OK);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
	return p->diverged;
}

/* float16 against float32 is judged with float16's tolerance; a change of
 * kind, of shape or past the tolerance is a divergence. */
static void
test_diff_tolerances_per_dtype(void **state)
{
	struct td_summary f32 = ranged(DTYPE_FLOAT32, 8, -1.0, 2.0, 0.5);
	struct td_summary f16 = ranged(DTYPE_FLOAT16, 8, -1.0005, 2.001, 0.5002);
	struct td_summary f32near = ranged(DTYPE_FLOAT32, 8, -1.0005, 2.001, 0.5002);
	struct td_summary f16far = ranged(DTYPE_FLOAT16, 8, -1.01, 2.0, 0.5);
	struct td_summary i32 = ranged(DTYPE_INT32, 8, -1.0, 2.0, 0.5);
	struct td_summary longer = ranged(DTYPE_FLOAT32, 9, -1.0, 2.0, 0.5);
	struct model_diff_options o;
	struct model_diff_pair p;

	(void)state;
	assert_false(one_pair_diverges(f32, f16, NULL, &p));
	assert_true(p.metrics.dtype_differs);
	assert_true(p.metrics.rtol == 1e-3);
	assert_true(fabs(p.metrics.min_delta - -0.0005) < 1e-12);
	assert_true(one_pair_diverges(f32, f32near, NULL, &p));
	assert_string_equal(p.metrics.reason, "summary");
	assert_true(one_pair_diverges(f32, f16far, NULL, &p));
	assert_true(one_pair_diverges(f32, i32, NULL, &p));
	assert_string_equal(p.metrics.reason, "dtype");
	assert_true(one_pair_diverges(f32, longer, NULL, &p));
	assert_string_equal(p.metrics.reason, "shape");
	assert_true(p.metrics.shape_differs);
	model_diff_options_init(&o);
	o.rtol = 0.05;
	assert_false(one_pair_diverges(f32, f16far, &o, &p));
	assert_true(p.metrics.rtol == 0.05);
}

/* Hosts pair by name whatever their order; explicit pairs replace that and
 * leave the other hosts out. */
static void
test_diff_hosts_by_name_and_explicit_pairs(void **state)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0), nan = fake_full_health(4, 0, 0, 1);
	struct model_diff_hostpair pair = { "rank_0", "rank_1" };
	struct model_diff_options o;
	struct model_diff_counts c;
	struct model_diff_pair p;
	struct model *a, *b;
	struct model_diff *d = NULL;
	char err[256];

	(void)state;
	fake_file(fa, 1, "a0", "rank_0");
	fake_file(fa, 2, "a1", "rank_1");
	fake_file(fb, 1, "b1", "rank_1");
	fake_file(fb, 2, "b0", "rank_0");
	fake_op(fa, "g", "t", "Relu", NULL, NULL);
	fake_op(fb, "g", "t", "Relu", NULL, NULL);
	fake_trace(fa, 1, "g", "t", 0, 1, &ok);
	fake_trace(fa, 2, "g", "t", 0, 1, &nan);
	fake_trace(fb, 1, "g", "t", 0, 1, &nan);        /* rank_1 first in B */
	fake_trace(fb, 2, "g", "t", 0, 1, &ok);
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, NULL);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 2);
	assert_int_equal(model_diff_first(d), -1);
	assert_int_equal(model_diff_pair_get(d, 0, &p), TD_OK);
	assert_int_equal(p.b_index, 1);
	assert_string_equal(p.a.host, "rank_0");
	assert_string_equal(p.b.host, "rank_0");
	assert_string_equal(model_diff_host_a(d, 0), "rank_0");
	assert_string_equal(model_diff_host_a(d, 1), "rank_1");
	assert_string_equal(model_diff_host_a(d, 0), "rank_0");      /* back */
	assert_null(model_diff_host_a(d, 2));
	model_diff_free(d);
	model_diff_options_init(&o);
	o.pairs = &pair, o.npairs = 1;
	d = diff_of(a, b, &o);                          /* A's rank_0 against B's rank_1 */
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 1);
	assert_int_equal(c.only_a, 0);
	assert_int_equal(c.only_b, 0);
	assert_int_equal(model_diff_first(d), 0);
	model_diff_free(d);
	d = diff_of(a, a, &o);                          /* two ranks of one dump */
	assert_int_equal(model_diff_first(d), 0);
	assert_int_equal(model_diff_pair_get(d, 0, &p), TD_OK);
	assert_string_equal(p.a.host, "rank_0");
	assert_string_equal(p.b.host, "rank_1");
	model_diff_free(d);
	pair.b = "rank_9";
	assert_int_equal(model_diff_new(a, b, &o, &d, err, sizeof err), TD_ERR_ARGS);
	assert_null(d);
	assert_non_null(strstr(err, "rank_9"));
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

/* Steps take part where both know them: A's steps 0-2 against B's 1-3. */
static void
test_diff_steps_align_when_known(void **state)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0);
	struct model_diff_counts c;
	struct model_diff_pair p;
	struct model *a, *b;
	struct model_diff *d;
	uint64_t ra, rb;
	int s;

	(void)state;
	fake_op(fa, "g", "t", "Relu", NULL, NULL);
	fake_op(fb, "g", "t", "Relu", NULL, NULL);
	for (s = 0; s < 3; s++) {
		fake_trace(fa, 1, "g", "t", 0, s, &ok);
		fake_step(fa, s);
		fake_trace(fb, 1, "g", "t", 0, s, &ok);
		fake_step(fb, s + 1);
	}
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, NULL);
	model_diff_counts(d, &c);
	assert_int_equal(c.aligned, 2);
	assert_int_equal(c.only_a, 1);
	assert_int_equal(c.only_b, 1);
	assert_true(model_diff_rows(d, 0, &ra, &rb));
	assert_int_equal(ra, 1), assert_int_equal(rb, 0);
	assert_true(model_diff_rows(d, 1, &ra, &rb));
	assert_int_equal(ra, 2), assert_int_equal(rb, 1);
	assert_int_equal(model_diff_pair_get(d, 1, &p), TD_OK);
	assert_int_equal(p.step, 2);
	assert_int_equal(p.b.step, 2);
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

static void
test_diff_select_by_op_regex(void **state)
{
	struct fake *fa = fake_new(), *fb = fake_new();
	struct model *a, *b;
	struct model_diff *d;
	char err[256];
	uint64_t k, n = 0;

	(void)state;
	chain_ops(fa), chain_ops(fb);
	chain_rows(fa, 2, -1), chain_rows(fb, 2, -1);
	a = fake_model_open(fa, NULL), b = fake_model_open(fb, NULL);
	d = diff_of(a, b, NULL);
	assert_int_equal(model_diff_select(d, "^(relu|out)$", err, sizeof err), TD_OK);
	for (k = 0; k < 8; k++)
		n += model_diff_selected(d, k);
	assert_int_equal(n, 4);
	assert_false(model_diff_selected(d, 0));
	assert_true(model_diff_selected(d, 1));
	assert_int_equal(model_diff_select(d, "([", err, sizeof err), TD_ERR_REGEX);
	assert_true(model_diff_selected(d, 0));        /* a failed regex selects all */
	model_diff_free(d);
	model_close(a), model_close(b);
	fake_free(fa), fake_free(fb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_same_run_twice_nothing_diverges),
		cmocka_unit_test(test_diff_aligns_by_order_within_the_op),
		cmocka_unit_test(test_diff_same_order_then_apart),
		cmocka_unit_test(test_diff_slots_do_not_mix),
		cmocka_unit_test(test_diff_first_divergence_and_its_cause),
		cmocka_unit_test(test_diff_tolerances_per_dtype),
		cmocka_unit_test(test_diff_hosts_by_name_and_explicit_pairs),
		cmocka_unit_test(test_diff_steps_align_when_known),
		cmocka_unit_test(test_diff_select_by_op_regex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
