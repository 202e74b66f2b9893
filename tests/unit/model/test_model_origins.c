/*
 * test_model_origins.c - where NaN/Inf started: origin versus propagation,
 * repeats, unknown inputs, source ops, several origins per step, steps
 * (the reader's, and function calls placed by wall time), several ranks,
 * the causes worded from the inputs' summaries, and the compact listing
 * (numbers kept, text made when shown), over a scripted reader.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/helpers/fake_model.h"

/* A FULL_HEALTH-like summary with sign counts. */
static struct td_summary
health(int64_t n, int64_t zero, int64_t negative, int64_t nan, int64_t neg_inf, int64_t pos_inf)
{
	struct td_summary s = fake_full_health(n, neg_inf, pos_inf, nan);

	s.known |= SUM_ZERO | SUM_NEGATIVE | SUM_POSITIVE;
	s.zero = zero;
	s.negative = negative;
	s.positive = n - zero - negative - nan - neg_inf - pos_inf;
	return s;
}

/* A full summary with min/max (as full values give). */
static struct td_summary
ranged(enum td_dtype dt, int64_t rows, int64_t cols, double lo, double hi, int64_t nan,
       int64_t pos_inf)
{
	struct td_summary s = health(rows * cols, 0, lo < 0 ? 1 : 0, nan, 0, pos_inf);

	s.known |= SUM_MINMAX | SUM_SHAPE | SUM_RANK;
	s.dtype = dt;
	s.rank = s.ndims = 2;
	s.dims[0] = rows;
	s.dims[1] = cols;
	s.min = lo;
	s.max = hi;
	return s;
}

static bool
has_evidence(const struct model_origin *o, const char *text)
{
	size_t k;

	for (k = 0; k < o->nevidence; k++)
		if (strstr(o->evidence[k], text))
			return true;
	return false;
}

/* x (1 zero) -> Log -> mul(Log, x) -> Sum. */
static struct fake *
log_script(void)
{
	struct fake *f = fake_new();
	struct td_summary x = health(10, 1, 0, 0, 0, 0), log = health(10, 0, 9, 0, 1, 0);
	struct td_summary mul = health(10, 9, 0, 1, 0, 0), sum = health(1, 0, 0, 1, 0, 0);

	fake_graph(f, "g", "loss", NULL);
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "Log", "Log", (const char *[]){"x:0", NULL}, NULL);
	fake_op(f, "g", "mul", "Mul", (const char *[]){"Log:0", "x:0", NULL}, NULL);
	fake_op(f, "g", "Sum", "Sum", (const char *[]){"mul:0", NULL}, NULL);
	fake_trace(f, 1, "g", "x", 0, 1, &x);           /* 0 */
	fake_trace(f, 1, "g", "Log", 0, 2, &log);       /* 1 */
	fake_trace(f, 1, "g", "mul", 0, 3, &mul);       /* 2 */
	fake_trace(f, 1, "g", "Sum", 0, 4, &sum);       /* 3 */
	return f;
}

static void
test_origin_versus_propagation(void **state)
{
	struct fake *f = log_script();
	struct model *m = fake_model_open(f, NULL);
	struct model_origin *v, o;
	size_t n;

	(void)state;
	n = model_origins(m, NULL, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].role, ORIGIN_ORIGIN);
	assert_int_equal(v[0].index, 1);
	assert_string_equal(v[0].op_name, "Log");
	assert_int_equal(v[0].ninputs, 1);
	assert_string_equal(v[0].inputs[0].op_name, "x");
	assert_int_equal(v[0].inputs[0].trace_index, 0);
	assert_int_equal(v[0].inputs[0].state, INPUT_FINITE);
	assert_int_equal(v[0].inputs[0].summary.zero, 1);
	assert_string_equal(v[0].cause, "log of a zero in x:0");
	assert_true(has_evidence(&v[0], "input 0 x:0 has 1 zero in 10 elements"));
	assert_true(has_evidence(&v[0], "x:0 is a Placeholder"));
	assert_int_equal(v[0].npath, 3);                /* Log -> mul -> Sum */
	assert_int_equal(v[0].path[0], 1);
	assert_int_equal(v[0].path[1], 2);
	assert_int_equal(v[0].path[2], 3);
	model_origins_free(v, n);

	assert_int_equal(model_why(m, 3, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_PROPAGATION);
	assert_int_equal(o.nfrom, 1);
	assert_int_equal(o.from[0], 2);
	assert_int_equal(o.origin, 1);
	assert_int_equal(o.npath, 3);
	assert_int_equal(o.path[0], 1);
	assert_int_equal(o.path[2], 3);
	assert_non_null(strstr(o.cause, "from input 0 mul:0 (row 2)"));
	model_origin_done(&o);
	assert_int_equal(model_why(m, 2, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_PROPAGATION);
	assert_int_equal(o.inputs[0].state, INPUT_NONFINITE);
	assert_int_equal(o.inputs[1].state, INPUT_FINITE);
	model_origin_done(&o);
	assert_int_equal(model_why(m, 0, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_FINITE);
	assert_int_equal(o.origin, -1);
	model_origin_done(&o);
	assert_int_equal(model_why(m, 4, &o), TD_ERR_RANGE);
	model_close(m);
	fake_free(f);
}

static void
test_repeat_is_not_a_second_origin(void **state)
{
	struct fake *f = log_script();
	struct td_summary log = health(10, 0, 9, 0, 1, 0);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_trace(f, 1, "g", "Log", 0, 5, &log);       /* 4: Log again, no new x row */
	m = fake_model_open(f, NULL);
	n = model_origins(m, NULL, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 1);
	model_origins_free(v, n);
	assert_int_equal(model_why(m, 4, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_REPEAT);
	assert_int_equal(o.from[0], 1);
	assert_int_equal(o.origin, 1);
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

static void
test_unknown_inputs_are_not_finite(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = health(4, 0, 0, 4, 0, 0), shape = {0};
	struct model_origin *v;
	struct model *m;
	size_t n;

	(void)state;
	shape.known = SUM_DTYPE | SUM_ELEMENTS;         /* a mode with no NaN/Inf info */
	shape.dtype = DTYPE_FLOAT32;
	shape.elements = 4;
	fake_op(f, "g", "s", "Shape", NULL, NULL);
	fake_op(f, "g", "r", "Relu", (const char *[]){"never:0", NULL}, NULL);
	fake_op(f, "g", "t", "Tanh", (const char *[]){"s:0", NULL}, NULL);
	fake_trace(f, 1, "g", "r", 0, 1, &bad);         /* 0 */
	fake_trace(f, 1, "g", "s", 0, 2, &shape);       /* 1 */
	fake_trace(f, 1, "g", "t", 0, 3, &bad);         /* 2 */
	m = fake_model_open(f, NULL);
	n = model_origins(m, NULL, &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].index, 0);
	assert_int_equal(v[0].inputs[0].state, INPUT_UNKNOWN);
	assert_int_equal(v[0].inputs[0].trace_index, -1);
	assert_false(v[0].source_op);
	assert_non_null(strstr(v[0].cause, "1 of its 1 inputs not recorded"));
	assert_true(has_evidence(&v[0], "input 0 never:0 was never traced"));
	assert_int_equal(v[1].index, 2);
	assert_int_equal(v[1].inputs[0].trace_index, 1);
	assert_int_equal(v[1].inputs[0].state, INPUT_UNKNOWN);
	assert_true(has_evidence(&v[1], "does not say whether it is finite"));
	model_origins_free(v, n);
	model_close(m);
	fake_free(f);
}

static void
test_source_op_came_from_outside(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = health(4, 0, 0, 1, 0, 0);
	struct model_origin *v;
	struct model *m;
	size_t n;

	(void)state;
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "odd", "Relu", NULL, NULL);     /* no input recorded: not a source */
	fake_trace(f, 1, "g", "x", 0, 1, &bad);
	fake_trace(f, 1, "g", "odd", 0, 2, &bad);
	m = fake_model_open(f, NULL);
	n = model_origins(m, NULL, &v);
	assert_int_equal(n, 2);
	assert_true(v[0].source_op);
	assert_int_equal(v[0].ninputs, 0);
	assert_non_null(strstr(v[0].cause, "came in from outside the graph"));
	assert_false(v[1].source_op);
	assert_non_null(strstr(v[1].cause, "inputs are unknown"));
	model_origins_free(v, n);
	model_close(m);
	fake_free(f);
}

static void
test_several_origins_in_one_step(void **state)
{
	struct fake *f = fake_new();
	struct td_summary x = health(8, 2, 0, 0, 0, 0), y = health(8, 0, 3, 0, 0, 0);
	struct td_summary lg = health(8, 0, 6, 0, 2, 0), sq = health(8, 0, 0, 3, 0, 0);
	struct model_origin *v;
	struct model *m;
	size_t n;

	(void)state;
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "y", "Placeholder", NULL, NULL);
	fake_op(f, "g", "Log", "Log", (const char *[]){"x:0", NULL}, NULL);
	fake_op(f, "g", "Sqrt", "Sqrt", (const char *[]){"y:0", NULL}, NULL);
	fake_op(f, "g", "add", "AddV2", (const char *[]){"Log:0", "Sqrt:0", NULL}, NULL);
	fake_trace(f, 1, "g", "x", 0, 1, &x);           /* 0 */
	fake_step(f, 7);
	fake_trace(f, 1, "g", "y", 0, 2, &y);           /* 1 */
	fake_step(f, 7);
	fake_trace(f, 1, "g", "Sqrt", 0, 3, &sq);       /* 2 */
	fake_step(f, 7);
	fake_trace(f, 1, "g", "Log", 0, 4, &lg);        /* 3 */
	fake_step(f, 7);
	fake_trace(f, 1, "g", "add", 0, 5, &sq);        /* 4 */
	fake_step(f, 7);
	m = fake_model_open(f, NULL);
	n = model_origins(m, NULL, &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].index, 2);                /* first in time */
	assert_string_equal(v[0].cause, "sqrt of a negative in y:0");
	assert_true(has_evidence(&v[0], "input 0 y:0 has 3 negatives in 8 elements"));
	assert_int_equal(v[0].step, 7);
	assert_int_equal(v[1].index, 3);
	assert_string_equal(v[1].cause, "log of a zero in x:0");
	assert_int_equal(v[1].step, 7);
	assert_int_equal(v[1].path[v[1].npath - 1], 4);
	model_origins_free(v, n);
	model_close(m);
	fake_free(f);
}

/* The listing keeps numbers: each origin's table, row and host without
 * explaining it, and the explanation (cause, evidence, path) when asked,
 * in the same order and words as model_origins. */
static void
test_list_explains_when_shown(void **state)
{
	struct fake *f = fake_new();
	struct td_summary x = health(8, 2, 0, 0, 0, 0), y = health(8, 0, 3, 0, 0, 0);
	struct td_summary lg = health(8, 0, 6, 0, 2, 0), sq = health(8, 0, 0, 3, 0, 0);
	struct model_origin_list *l;
	struct model_origin o;
	enum model_table source;
	uint64_t index;
	const char *host;
	struct model *m;

	(void)state;
	fake_file(f, 1, "f1", "rank3");
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "y", "Placeholder", NULL, NULL);
	fake_op(f, "g", "Log", "Log", (const char *[]){"x:0", NULL}, NULL);
	fake_op(f, "g", "Sqrt", "Sqrt", (const char *[]){"y:0", NULL}, NULL);
	fake_op(f, "g", "add", "AddV2", (const char *[]){"Log:0", "Sqrt:0", NULL}, NULL);
	fake_trace(f, 1, "g", "x", 0, 1, &x);           /* 0 */
	fake_trace(f, 1, "g", "y", 0, 2, &y);           /* 1 */
	fake_trace(f, 1, "g", "Sqrt", 0, 3, &sq);       /* 2 */
	fake_trace(f, 1, "g", "Log", 0, 4, &lg);        /* 3 */
	fake_trace(f, 1, "g", "add", 0, 5, &sq);        /* 4 */
	m = fake_model_open(f, NULL);
	l = model_origins_list(m, NULL);
	assert_int_equal(model_origin_list_count(l), 2);
	assert_true(model_origin_list_at(l, 1, &source, &index, &host));
	assert_int_equal(source, TABLE_TRACES);
	assert_int_equal(index, 3);
	assert_string_equal(host, "rank3");
	assert_false(model_origin_list_at(l, 2, &source, &index, &host));
	/* the second first: each explained on its own */
	assert_true(model_origin_list_get(l, 1, &o));
	assert_int_equal(o.index, 3);
	assert_string_equal(o.cause, "log of a zero in x:0");
	assert_int_equal(o.path[o.npath - 1], 4);
	model_origin_done(&o);
	assert_true(model_origin_list_get(l, 0, &o));
	assert_int_equal(o.index, 2);
	assert_string_equal(o.cause, "sqrt of a negative in y:0");
	assert_true(has_evidence(&o, "input 0 y:0 has 3 negatives in 8 elements"));
	model_origin_done(&o);
	assert_false(model_origin_list_get(l, 2, &o));
	model_origin_list_free(l);
	model_close(m);
	fake_free(f);
}

static void
test_several_steps(void **state)
{
	struct fake *f = fake_new();
	struct td_summary x = health(4, 0, 0, 0, 0, 0), x0 = health(4, 1, 0, 0, 0, 0);
	struct td_summary ok = health(4, 0, 4, 0, 0, 0), bad = health(4, 0, 3, 0, 1, 0);
	struct model_origins_query q = { .step = 2 };
	struct model_origin *v;
	struct model *m;
	size_t n, s;

	(void)state;
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "Log", "Log", (const char *[]){"x:0", NULL}, NULL);
	for (s = 0; s < 3; s++) {
		fake_trace(f, 1, "g", "x", 0, 10.0 * (double)s + 1, s ? &x0 : &x);
		fake_step(f, (int64_t)s);
		fake_trace(f, 1, "g", "Log", 0, 10.0 * (double)s + 2, s ? &bad : &ok);
		fake_step(f, (int64_t)s);
	}
	m = fake_model_open(f, NULL);
	n = model_origins(m, NULL, &v);
	assert_int_equal(n, 2);                         /* steps 1 and 2, one each */
	assert_int_equal(v[0].index, 3);
	assert_int_equal(v[0].step, 1);
	assert_int_equal(v[1].index, 5);
	assert_int_equal(v[1].step, 2);
	assert_int_equal(v[1].inputs[0].trace_index, 4);  /* its own step's x */
	model_origins_free(v, n);
	n = model_origins(m, &q, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 5);
	model_origins_free(v, n);
	q.step = 0;
	n = model_origins(m, &q, &v);
	assert_int_equal(n, 0);
	assert_null(v);
	model_close(m);
	fake_free(f);
}

/* Rows outside any execution belong to the function call recorded after
 * them (by wall time) whose graph holds them. */
static void
test_steps_placed_by_function_calls(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = health(4, 0, 0, 0, 0, 0);
	struct model *m;

	(void)state;
	fake_graph(f, "outer", "train_step", NULL);
	fake_graph(f, "inner", "dense", "outer");
	fake_graph(f, "other", "eval", NULL);
	fake_op(f, "inner", "a", "Relu", NULL, NULL);
	fake_op(f, "other", "b", "Relu", NULL, NULL);
	fake_exec(f, 2, "IteratorGetNext", NULL, NULL, 0.5, NULL, 0);   /* exec 0: eager op */
	fake_trace(f, 1, "inner", "a", 0, 1, &ok);                      /* 0 */
	fake_trace(f, 1, "inner", "a", 0, 2, &ok);                      /* 1 */
	fake_exec(f, 2, "__inference_train_step", "outer", NULL, 3, NULL, 0); /* exec 1 */
	fake_trace(f, 1, "inner", "a", 0, 4, &ok);                      /* 2 */
	fake_exec(f, 2, "__inference_train_step", "outer", NULL, 5, NULL, 0); /* exec 2 */
	fake_trace(f, 1, "other", "b", 0, 6, &ok);                      /* 3 */
	fake_exec(f, 2, "__inference_train_step", "outer", NULL, 7, NULL, 0); /* exec 3 */
	fake_trace(f, 1, "inner", "a", 0, 8, &ok);                      /* 4: no call after */
	m = fake_model_open(f, NULL);
	assert_int_equal(model_trace_step(m, 0), 1);
	assert_int_equal(model_trace_step(m, 1), 1);
	assert_int_equal(model_trace_step(m, 2), 2);
	assert_int_equal(model_trace_step(m, 3), -1);   /* eval is not inside train_step */
	assert_int_equal(model_trace_step(m, 4), -1);
	assert_int_equal(model_trace_step(m, 5), -1);   /* past the rows */
	model_close(m);
	fake_free(f);
}

static void
test_several_ranks_first_in_time_leads(void **state)
{
	struct fake *f = fake_new();
	struct td_summary x = health(4, 1, 0, 0, 0, 0), bad = health(4, 0, 3, 0, 1, 0);
	struct model_origins_query q = { .step = -1, .host = "rank_0" };
	struct model_origin *v;
	struct model *m;
	size_t n;

	(void)state;
	fake_file(f, 1, "r0", "rank_0");
	fake_file(f, 2, "r1", "rank_1");
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "Log", "Log", (const char *[]){"x:0", NULL}, NULL);
	fake_trace(f, 1, "g", "x", 0, 19, &x);          /* 0: rank 0, later */
	fake_trace(f, 1, "g", "Log", 0, 20, &bad);      /* 1 */
	fake_trace(f, 2, "g", "x", 0, 9, &x);           /* 2: rank 1, earlier */
	fake_trace(f, 2, "g", "Log", 0, 10, &bad);      /* 3 */
	m = fake_model_open(f, NULL);
	n = model_origins(m, NULL, &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].index, 3);
	assert_string_equal(v[0].host, "rank_1");
	assert_int_equal(v[1].index, 1);
	assert_string_equal(v[1].host, "rank_0");
	model_origins_free(v, n);
	n = model_origins(m, &q, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 1);
	model_origins_free(v, n);
	model_close(m);
	fake_free(f);
}

/* An op's own records of its inputs (input rows) are what it read. */
static void
test_own_input_rows_and_outside_inputs(void **state)
{
	struct fake *f = fake_new();
	struct td_summary a = ranged(DTYPE_FLOAT32, 2, 4, -1, 1, 0, 0);
	struct td_summary w = ranged(DTYPE_FLOAT32, 4, 3, -0.5, 0.5, 0, 0);
	struct td_summary out = ranged(DTYPE_FLOAT32, 2, 3, -1, 1, 2, 0);
	struct td_summary wbad = ranged(DTYPE_FLOAT32, 4, 3, -0.5, 0.5, 1, 0);
	struct model_origin *v;
	struct model *m;
	size_t n;

	(void)state;
	fake_op(f, "g", "a", "Reshape", NULL, NULL);
	fake_op(f, "g", "w", "Parameter", NULL, NULL);
	fake_op(f, "g", "mm", "MatMul", (const char *[]){"a:0", "w:0", NULL}, NULL);
	fake_op(f, "g", "mm2", "MatMul", (const char *[]){"a:0", "w:0", NULL}, NULL);
	fake_trace_ex(f, 1, "g", "a", 0, 1, &a, 0, false);     /* 0 */
	fake_trace_ex(f, 1, "g", "mm", 0, 2, &a, 0, true);     /* 1: mm's input 0 */
	fake_trace_ex(f, 1, "g", "mm", 1, 2, &w, 0, true);     /* 2: mm's input 1 (w) */
	fake_trace_ex(f, 1, "g", "mm", 0, 3, &out, 0, false);  /* 3 */
	fake_trace_ex(f, 1, "g", "mm2", 1, 4, &wbad, 0, true); /* 4: w read with NaN */
	m = fake_model_open(f, NULL);
	n = model_origins(m, NULL, &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].index, 3);
	assert_int_equal(v[0].inputs[0].trace_index, 1);
	assert_int_equal(v[0].inputs[1].trace_index, 2);
	assert_int_equal(v[0].inputs[1].state, INPUT_FINITE);
	assert_non_null(strstr(v[0].cause, "from finite inputs"));
	assert_true(has_evidence(&v[0], "inner size 4"));
	assert_true(has_evidence(&v[0], "w:0 is a Parameter"));
	assert_int_equal(v[1].index, 4);                /* an input row, no producer row */
	assert_true(v[1].source_op);
	assert_string_equal(v[1].op_name, "w");
	assert_non_null(strstr(v[1].cause, "came in from outside the graph"));
	model_origins_free(v, n);
	model_close(m);
	fake_free(f);
}

/* ---- causes ------------------------------------------------------------ */

/* One origin: op of type on inputs in[0..n), output out; its cause. */
static void
expect_cause(const char *type, const struct td_summary *in, size_t nin, const struct td_summary *out,
	     const char *cause, const char *evidence)
{
	static const char *const names[] = { "p:0", "q:0", NULL };
	struct fake *f = fake_new();
	struct model_origin o;
	struct model *m;
	size_t k;

	fake_op(f, "g", "p", "Placeholder", NULL, NULL);
	fake_op(f, "g", "q", "Placeholder", NULL, NULL);
	fake_op(f, "g", "op", type, nin == 1 ? (const char *[]){names[0], NULL} : names, NULL);
	for (k = 0; k < nin; k++)
		fake_trace(f, 1, "g", k ? "q" : "p", 0, (double)k + 1, &in[k]);
	fake_trace(f, 1, "g", "op", 0, 5, out);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_why(m, nin, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_ORIGIN);
	if (!strstr(o.cause, cause))
		fail_msg("%s: cause \"%s\", wanted \"%s\"", type, o.cause, cause);
	if (evidence && !has_evidence(&o, evidence))
		fail_msg("%s: no evidence \"%s\" (first: \"%s\")", type, evidence,
			 o.nevidence ? o.evidence[0] : "");
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

static void
test_causes(void **state)
{
	struct td_summary in[2], out;

	(void)state;
	in[0] = health(10, 0, 2, 0, 0, 0);
	out = health(10, 0, 0, 2, 0, 0);
	expect_cause("Log", in, 1, &out, "log of a negative in p:0", "has 2 negatives in 10");
	in[0] = health(10, 3, 0, 0, 0, 0);
	in[1] = health(10, 1, 0, 0, 0, 0);
	out = health(10, 0, 0, 0, 0, 1);
	expect_cause("RealDiv", in, 2, &out, "division by a zero in q:0", "input 1 q:0 has 1 zero");
	expect_cause("Reciprocal", in, 1, &out, "reciprocal of a zero in p:0", "3 zeros");
	expect_cause("Rsqrt", in, 1, &out, "rsqrt of a zero in p:0", NULL);
	in[0] = health(10, 0, 4, 0, 0, 0);
	expect_cause("Pow", in, 2, &out, "pow of a negative in p:0", NULL);  /* base, exponent */
	in[0] = ranged(DTYPE_FLOAT32, 2, 5, -3, 100, 0, 0);
	out = ranged(DTYPE_FLOAT32, 2, 5, 0, 1e30, 0, 3);
	expect_cause("Exp", in, 1, &out, "exp overflow: p:0 reaches 100", "max 100");
	in[0] = ranged(DTYPE_FLOAT16, 2, 5, -300, 20, 0, 0);
	out = ranged(DTYPE_FLOAT16, 2, 5, 0, 400, 0, 3);
	expect_cause("Square", in, 1, &out, "square overflow: p:0 reaches 300 (limit 255.9", NULL);
	in[0] = ranged(DTYPE_FLOAT16, 2, 8, -100, 90, 0, 0);
	in[1] = ranged(DTYPE_FLOAT16, 8, 2, -10, 100, 0, 0);
	out = ranged(DTYPE_FLOAT16, 2, 2, -1, 1, 0, 2);
	expect_cause("MatMul", in, 2, &out, "MatMul overflow: 100 x 100 x 8 passes float16's range (65504)",
		     "inner size 8");
	in[0] = ranged(DTYPE_FLOAT32, 2, 5, -700, 1400, 0, 0);
	out = ranged(DTYPE_FLOAT32, 2, 5, 0, 1, 5, 0);
	expect_cause("Softmax", in, 1, &out, "softmax/cross-entropy of extreme logits in p:0",
		     "spread 2100");
	in[0] = ranged(DTYPE_FLOAT32, 2, 5, -1, 1, 0, 0);
	out = ranged(DTYPE_FLOAT32, 2, 5, -1, 1, 3, 0);
	expect_cause("Tanh", in, 1, &out, "Tanh made NaN/Inf from finite inputs", NULL);
}

/* Modes without the counts: the evidence says what is unknown. */
static void
test_cause_when_the_mode_lacks_counts(void **state)
{
	struct td_summary in = fake_full_health(10, 0, 0, 0);  /* no zero/negative counts */
	struct td_summary curt = fake_curt_health(false), bad = fake_full_health(10, 1, 0, 0);

	(void)state;
	expect_cause("Log", &in, 1, &bad, "log of a zero in p:0, likely (Inf in the output",
		     "unknown: the dump's mode does not count zeros in input 0 p:0");
	bad = fake_curt_health(true);
	expect_cause("Log", &curt, 1, &bad, "log of a zero or a negative in p:0, likely",
		     "does not count negatives");
	expect_cause("Exp", &in, 1, &bad, "Exp made NaN/Inf from finite inputs",
		     "unknown: the dump's mode does not record the max of input 0 p:0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_origin_versus_propagation),
		cmocka_unit_test(test_repeat_is_not_a_second_origin),
		cmocka_unit_test(test_unknown_inputs_are_not_finite),
		cmocka_unit_test(test_source_op_came_from_outside),
		cmocka_unit_test(test_several_origins_in_one_step),
		cmocka_unit_test(test_list_explains_when_shown),
		cmocka_unit_test(test_several_steps),
		cmocka_unit_test(test_steps_placed_by_function_calls),
		cmocka_unit_test(test_several_ranks_first_in_time_leads),
		cmocka_unit_test(test_own_input_rows_and_outside_inputs),
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_cause_when_the_mode_lacks_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
