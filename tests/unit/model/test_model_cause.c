/*
 * test_model_cause.c - causes only from what is recorded (issue 22.3): an
 * op whose recorded inputs are fewer than it read says so instead of a
 * cause; overflow bounds use the op's reduction size (MatMul's inner
 * dimension from the shapes, transposed or not; none for elementwise ops);
 * ranges from the one dtype table.  Over a scripted reader; every expected
 * number is worked out here from the summaries the script writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/helpers/fake_model.h"

/* A finite summary of dtype dt, shape rows x cols, values in [lo, hi]. */
static struct td_summary
ranged(enum td_dtype dt, int64_t rows, int64_t cols, double lo, double hi)
{
	struct td_summary s = fake_full_health(rows * cols, 0, 0, 0);

	s.known |= SUM_MINMAX | SUM_SHAPE | SUM_RANK | SUM_ZERO | SUM_NEGATIVE | SUM_POSITIVE;
	s.dtype = dt;
	s.rank = s.ndims = 2;
	s.dims[0] = rows;
	s.dims[1] = cols;
	s.min = lo;
	s.max = hi;
	s.negative = lo < 0;
	s.positive = rows * cols - s.negative;
	return s;
}

/* The output: n elements of dt with one +Inf. */
static struct td_summary
inf_out(enum td_dtype dt, int64_t rows, int64_t cols)
{
	struct td_summary s = ranged(dt, rows, cols, -1, 1);

	s.pos_inf = 1;
	s.positive--;
	s.has_inf_or_nan = true;
	return s;
}

static bool
has_evidence(const struct model_origin *o, const char *text)
{
	for (size_t k = 0; k < o->nevidence; k++)
		if (strstr(o->evidence[k], text))
			return true;
	return false;
}

/* Op "op" of type reading the listed inputs (names "p:0", "q:0"; nlisted
 * of them in the graph), traced values in[0..ntraced), its output out.
 * Fills o with model_why of the output row. */
static void
why_op(const char *type, size_t nlisted, const struct td_summary *in, size_t ntraced,
       const struct td_summary *out, struct model_origin *o, struct fake **fp, struct model **mp)
{
	static const char *const names[][3] = { { NULL }, { "p:0", NULL }, { "p:0", "q:0", NULL } };
	struct fake *f = fake_new();
	struct model *m;

	fake_op(f, "g", "p", "Placeholder", NULL, NULL);
	fake_op(f, "g", "q", "Placeholder", NULL, NULL);
	fake_op(f, "g", "op", type, (const char **)names[nlisted], NULL);
	for (size_t k = 0; k < ntraced; k++)
		fake_trace(f, 1, "g", k ? "q" : "p", 0, (double)k + 1, &in[k]);
	fake_trace(f, 1, "g", "op", 0, 5, out);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_why(m, ntraced, o), TD_OK);
	assert_int_equal(o->role, ORIGIN_ORIGIN);
	*fp = f;
	*mp = m;
}

static void
done(struct model_origin *o, struct fake *f, struct model *m)
{
	model_origin_done(o);
	model_close(m);
	fake_free(f);
}

#define EXPECT_CAUSE(o, text) \
	do { \
		if (!strstr((o)->cause, (text))) \
			fail_msg("cause \"%s\", wanted \"%s\"", (o)->cause, (text)); \
	} while (0)

/* mnist_nan's gradients/mul_grad/Mul: the graph lists 1 of the Mul's 2
 * inputs; no overflow is claimed from the one it has. */
static void
test_mul_with_one_input_recorded_says_so(void **state)
{
	struct td_summary in = ranged(DTYPE_FLOAT32, 2, 8, 0.5, 1), out = inf_out(DTYPE_FLOAT32, 2, 8);
	struct model_origin o;
	struct fake *f;
	struct model *m;

	(void)state;
	why_op("Mul", 1, &in, 1, &out, &o, &f, &m);
	assert_string_equal(o.cause, "Mul made NaN/Inf; 1 of its 2 inputs not recorded");
	assert_true(has_evidence(&o, "the graph lists 1 of the 2 inputs a Mul reads"));
	assert_null(strstr(o.cause, "overflow"));
	done(&o, f, m);
}

/* A division whose divisor was never traced: no cause from the dividend. */
static void
test_div_with_an_untraced_input_names_no_cause(void **state)
{
	struct td_summary in = ranged(DTYPE_FLOAT32, 2, 8, -1, 0), out = inf_out(DTYPE_FLOAT32, 2, 8);
	struct model_origin o;
	struct fake *f;
	struct model *m;

	(void)state;
	in.zero = 3;                    /* zeros in the dividend: not the divisor's */
	in.negative -= 3;
	why_op("RealDiv", 2, &in, 1, &out, &o, &f, &m);
	assert_string_equal(o.cause, "RealDiv made NaN/Inf; 1 of its 2 inputs not recorded");
	assert_true(has_evidence(&o, "input 1 q:0 was never traced"));
	done(&o, f, m);
}

/* An elementwise Mul has no reduction: |out| <= 100 * 100 = 10000 stays
 * inside float16's 65504 (the old bound took a dimension as an inner size:
 * 100 x 100 x 8 = 80000, an overflow that cannot happen). */
static void
test_elementwise_mul_bound_has_no_inner_size(void **state)
{
	struct td_summary in[2] = { ranged(DTYPE_FLOAT16, 2, 8, -100, 90),
				    ranged(DTYPE_FLOAT16, 2, 8, -10, 100) };
	struct td_summary out = inf_out(DTYPE_FLOAT16, 2, 8);
	struct model_origin o;
	struct fake *f;
	struct model *m;

	(void)state;
	why_op("Mul", 2, in, 2, &out, &o, &f, &m);
	assert_null(strstr(o.cause, "Mul overflow"));
	assert_true(has_evidence(&o, "elementwise: |output| <= 10000"));
	assert_false(has_evidence(&o, "inner size"));
	done(&o, f, m);
	/* 300 x 300 = 90000 does pass it */
	in[0] = ranged(DTYPE_FLOAT16, 2, 8, -300, 20);
	in[1] = ranged(DTYPE_FLOAT16, 2, 8, -10, 300);
	why_op("Mul", 2, in, 2, &out, &o, &f, &m);
	assert_string_equal(o.cause, "Mul overflow: 300 x 300 passes float16's range (65504)");
	done(&o, f, m);
}

/* MatMul's inner size is the dimension a and b share: a [3, 4] transposed
 * against b [3, 5] reduces over 3, not a's last dimension 4. */
static void
test_matmul_inner_size_from_the_shapes(void **state)
{
	struct td_summary in[2] = { ranged(DTYPE_FLOAT16, 3, 4, -150, 10),
				    ranged(DTYPE_FLOAT16, 3, 5, -1, 150) };
	struct td_summary out = inf_out(DTYPE_FLOAT16, 4, 5);
	struct model_origin o;
	struct fake *f;
	struct model *m;
	char want[160];

	(void)state;
	why_op("MatMul", 2, in, 2, &out, &o, &f, &m);
	snprintf(want, sizeof want, "MatMul overflow: 150 x 150 x 3 passes float16's range (%g)",
		 td_dtype_max(DTYPE_FLOAT16));
	assert_string_equal(o.cause, want);
	assert_true(has_evidence(&o, "inner size 3: |output| <= 67500"));
	done(&o, f, m);
	/* b transposed: a [2, 8] x b [5, 8]^T reduces over 8 */
	in[0] = ranged(DTYPE_FLOAT16, 2, 8, -100, 90);
	in[1] = ranged(DTYPE_FLOAT16, 5, 8, -10, 100);
	why_op("MatMul", 2, in, 2, &out, &o, &f, &m);
	EXPECT_CAUSE(&o, "MatMul overflow: 100 x 100 x 8 passes float16's range");
	done(&o, f, m);
	/* shapes that share no dimension: no bound, no claim */
	in[1] = ranged(DTYPE_FLOAT16, 5, 7, -10, 100);
	why_op("MatMul", 2, in, 2, &out, &o, &f, &m);
	assert_null(strstr(o.cause, "MatMul overflow"));
	assert_true(has_evidence(&o, "reduction size unknown"));
	done(&o, f, m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mul_with_one_input_recorded_says_so),
		cmocka_unit_test(test_div_with_an_untraced_input_names_no_cause),
		cmocka_unit_test(test_elementwise_mul_bound_has_no_inner_size),
		cmocka_unit_test(test_matmul_inner_size_from_the_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
