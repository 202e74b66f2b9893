/*
 * test_model_carry.c - values followed across the boundaries the graph's
 * edges do not show (issue 22): a function's input placeholder and its
 * call's input by tensor id, an eager variable write and a later read, a
 * graph variable's writer op and the next step's read, an input record
 * with no graph holding the value of an earlier output, the repeat rule
 * (only records of the same value), and the origins' work budget.  Every
 * script's truth is written next to it; carried rows are never origins.
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

static struct td_summary
counts(int64_t n, int64_t nan, int64_t neg_inf)
{
	struct td_summary s = fake_full_health(n, neg_inf, 0, nan);

	s.known |= SUM_ZERO | SUM_NEGATIVE | SUM_POSITIVE;
	s.positive = n - nan - neg_inf;
	return s;
}

static size_t
origins_of(struct model *m, struct model_origin **v)
{
	return model_origins(m, NULL, v);
}

/* Call 1 (graph "f") computes Log of a zero: row 1 -Inf, row 2 its
 * Identity output.  Exec 1 outputs tensor id 10.  Call 2 (graph "h") is
 * given id 10: its placeholder "arg" (row 3) holds it, Neg (row 4) reads
 * it.  One origin: row 1; row 3 is carried (call input) from row 2. */
static void
test_call_input_by_tensor_id(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = counts(4, 0, 0), bad = counts(4, 0, 1);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_graph(f, "f", "f", NULL);
	fake_graph(f, "h", "h", NULL);
	fake_op(f, "f", "x", "Placeholder", NULL, NULL);
	fake_op(f, "f", "Log", "Log", (const char *[]){"x:0", NULL}, NULL);
	fake_op(f, "f", "Identity", "Identity", (const char *[]){"Log:0", NULL}, NULL);
	fake_op(f, "h", "arg", "Placeholder", NULL, NULL);
	fake_op(f, "h", "Neg", "Neg", (const char *[]){"arg:0", NULL}, NULL);
	fake_exec(f, 2, "IteratorGetNext", NULL, NULL, 0.5, &ok, 1);        /* exec 0 */
	fake_exec_ids(f, NULL, 0, (const int64_t[]){5}, 1);
	fake_trace(f, 1, "f", "x", 0, 1, &ok);                              /* 0 */
	fake_trace(f, 1, "f", "Log", 0, 2, &bad);                           /* 1 */
	fake_trace(f, 1, "f", "Identity", 0, 3, &bad);                      /* 2 */
	fake_exec(f, 2, "__inference_f", "f", NULL, 4, &bad, 1);            /* exec 1 */
	fake_exec_ids(f, (const int64_t[]){5}, 1, (const int64_t[]){10}, 1);
	fake_trace(f, 1, "h", "arg", 0, 5, &bad);                           /* 3 */
	fake_trace(f, 1, "h", "Neg", 0, 6, &bad);                           /* 4 */
	fake_exec(f, 2, "__inference_h", "h", NULL, 7, &bad, 1);            /* exec 2 */
	fake_exec_ids(f, (const int64_t[]){10}, 1, (const int64_t[]){11}, 1);
	m = fake_model_open(f, NULL);
	n = origins_of(m, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 1);
	model_origins_free(v, n);
	assert_int_equal(model_why(m, 3, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_CARRIED);
	assert_int_equal(o.link, CARRY_CALL_INPUT);
	assert_int_equal(o.via, 1);
	assert_int_equal(o.from[0], 2);
	assert_int_equal(o.origin, 1);
	assert_int_equal(o.path[0], 1);
	assert_int_equal(o.path[o.npath - 1], 3);
	model_origin_done(&o);
	assert_int_equal(model_why(m, 4, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_PROPAGATION);
	assert_int_equal(o.origin, 1);
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

/* The same call 2, but given a finite tensor (id 5): its placeholder's NaN
 * is not carried from call 1; it is an origin. */
static void
test_call_input_of_a_finite_tensor_is_no_link(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = counts(4, 0, 0), bad = counts(4, 1, 0);
	struct model_origin o;
	struct model *m;

	(void)state;
	fake_graph(f, "f", "f", NULL);
	fake_graph(f, "h", "h", NULL);
	fake_op(f, "f", "Log", "Log", NULL, NULL);
	fake_op(f, "h", "arg", "Placeholder", NULL, NULL);
	fake_exec(f, 2, "IteratorGetNext", NULL, NULL, 0.5, &ok, 1);
	fake_exec_ids(f, NULL, 0, (const int64_t[]){5}, 1);
	fake_trace(f, 1, "f", "Log", 0, 2, &bad);                           /* 0 */
	fake_exec(f, 2, "__inference_f", "f", NULL, 4, &bad, 1);
	fake_exec_ids(f, (const int64_t[]){5}, 1, (const int64_t[]){10}, 1);
	fake_trace(f, 1, "h", "arg", 0, 5, &bad);                           /* 1 */
	fake_exec(f, 2, "__inference_h", "h", NULL, 7, &bad, 1);
	fake_exec_ids(f, (const int64_t[]){5}, 1, (const int64_t[]){11}, 1);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_why(m, 1, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_ORIGIN);
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

static bool
says(const struct model_origin *o, const char *text)
{
	size_t k;

	for (k = 0; k < o->nevidence; k++)
		if (strstr(o->evidence[k], text))
			return true;
	return false;
}

/* Where the link's far end is not in the dump, the origin says which
 * record is missing instead of guessing: the call is given tensor id 99
 * that no execution before it output (a ring buffer dropped it); an input
 * record holds NaN that no earlier output of its step holds. */
static void
test_missing_records_are_named(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = counts(4, 1, 0), bad2 = counts(4, 3, 0);
	struct model_origin o;
	struct model *m;

	(void)state;
	fake_graph(f, "h", "h", NULL);
	fake_op(f, "h", "arg", "Placeholder", NULL, NULL);
	fake_trace(f, 1, "h", "arg", 0, 5, &bad);                           /* 0 */
	fake_exec(f, 2, "__inference_h", "h", NULL, 7, &bad, 1);            /* exec 0 */
	fake_exec_ids(f, (const int64_t[]){99}, 1, (const int64_t[]){11}, 1);
	fake_trace_ex(f, 1, "", "ReLU-op12", 0, 8, &bad2, -1, true);        /* 1 */
	m = fake_model_open(f, NULL);
	assert_int_equal(model_why(m, 0, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_ORIGIN);
	assert_true(says(&o, "missing: the execution that output tensor id 99"));
	model_origin_done(&o);
	assert_int_equal(model_why(m, 1, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_ORIGIN);
	assert_true(says(&o, "missing: the record of its producer"));
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

/* A gradient call (exec 0, graph "g") outputs id 20 holding NaN (row 0
 * its origin); an eager ResourceApplyAdam (exec 1) writes variable handle
 * 7 from id 20; the next call (exec 2, graph "m") is given handle 7 and
 * its ReadVariableOp (row 1) holds NaN: carried through the variable. */
static void
test_eager_variable_write_then_read(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = counts(4, 4, 0);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_graph(f, "g", "grad", NULL);
	fake_graph(f, "m", "model", NULL);
	fake_op(f, "g", "Sqrt", "Sqrt", NULL, NULL);
	fake_op(f, "m", "resource", "Placeholder", NULL, NULL);
	fake_op(f, "m", "ReadVariableOp", "ReadVariableOp", (const char *[]){"resource:0", NULL}, NULL);
	fake_trace(f, 1, "g", "Sqrt", 0, 1, &bad);                          /* 0 */
	fake_exec(f, 2, "__inference_grad", "g", NULL, 2, &bad, 1);         /* exec 0 */
	fake_exec_ids(f, NULL, 0, (const int64_t[]){20}, 1);
	fake_exec(f, 2, "ResourceApplyAdam", NULL, NULL, 3, NULL, 0);       /* exec 1 */
	fake_exec_ids(f, (const int64_t[]){7, 20}, 2, NULL, 0);
	fake_trace(f, 1, "m", "ReadVariableOp", 0, 4, &bad);                /* 1 */
	fake_exec(f, 2, "__inference_model", "m", NULL, 5, &bad, 1);        /* exec 2 */
	fake_exec_ids(f, (const int64_t[]){7}, 1, (const int64_t[]){30}, 1);
	m = fake_model_open(f, NULL);
	n = origins_of(m, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 0);
	model_origins_free(v, n);
	assert_int_equal(model_why(m, 1, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_CARRIED);
	assert_int_equal(o.link, CARRY_VARIABLE);
	assert_int_equal(o.via, 1);
	assert_int_equal(o.from[0], 0);
	assert_int_equal(o.origin, 0);
	assert_non_null(strstr(o.cause, "ResourceApplyAdam"));
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

/* A nested function graph's argument (as a while or cond body records
 * it): call 1 runs graph "o", whose Log makes -Inf (row 0) and whose call
 * op "body" (a PartitionedCall, with an Identity before it in op order
 * and another call op that takes no input) hands Log's value to graph
 * "i" nested in "o"; i's placeholder "arg" (row 1) holds it: carried
 * (call input) from row 0, the one origin. */
static void
test_nested_graph_argument(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = counts(4, 0, 0), bad = counts(4, 0, 1);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_graph(f, "o", "o", NULL);
	fake_graph(f, "i", "i", "o");
	fake_op(f, "o", "x", "Placeholder", NULL, NULL);
	fake_op(f, "o", "Log", "Log", (const char *[]){"x:0", NULL}, NULL);
	fake_op(f, "o", "noarg", "StatefulPartitionedCall", NULL, NULL);
	fake_op(f, "o", "Identity", "Identity", (const char *[]){"Log:0", NULL}, NULL);
	fake_op(f, "o", "body", "PartitionedCall", (const char *[]){"Log:0", NULL}, NULL);
	fake_op(f, "i", "arg", "Placeholder", NULL, NULL);
	fake_op(f, "i", "Neg", "Neg", (const char *[]){"arg:0", NULL}, NULL);
	fake_trace(f, 1, "o", "Log", 0, 1, &bad);                           /* 0 */
	fake_trace(f, 1, "i", "arg", 0, 2, &bad);                           /* 1 */
	fake_trace(f, 1, "i", "Neg", 0, 3, &bad);                           /* 2 */
	fake_exec(f, 2, "__inference_o", "o", NULL, 4, &bad, 1);            /* exec 0 */
	fake_exec_ids(f, (const int64_t[]){5}, 1, (const int64_t[]){6}, 1);
	(void)ok;
	m = fake_model_open(f, NULL);
	n = origins_of(m, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 0);
	model_origins_free(v, n);
	assert_int_equal(model_why(m, 1, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_CARRIED);
	assert_int_equal(o.link, CARRY_CALL_INPUT);
	assert_int_equal(o.nfrom, 1);
	assert_int_equal(o.from[0], 0);
	assert_int_equal(o.origin, 0);
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

/* A graph variable across steps (as session runs record it): step 0's
 * Log makes -Inf (row 0), the ApplyGradientDescent writer of variable w
 * carries it (row 1); step 1's read of w (row 2) holds it: carried
 * through the variable, one origin. */
static void
test_graph_variable_across_steps(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = counts(4, 0, 4);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_graph(f, "g", "train", NULL);
	fake_op(f, "g", "w", "VariableV2", NULL, NULL);
	fake_op(f, "g", "Log", "Log", NULL, NULL);
	fake_op(f, "g", "update", "ApplyGradientDescent", (const char *[]){"w:0", "Log:0", NULL},
		NULL);
	fake_op(f, "g", "w/read", "Identity", (const char *[]){"w:0", NULL}, NULL);
	fake_trace(f, 1, "g", "Log", 0, 1, &bad);                           /* 0 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "update", 0, 2, &bad);                        /* 1 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "w", 0, 3, &bad);                             /* 2 */
	fake_step(f, 1);
	m = fake_model_open(f, NULL);
	n = origins_of(m, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 0);
	model_origins_free(v, n);
	assert_int_equal(model_why(m, 2, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_CARRIED);
	assert_int_equal(o.link, CARRY_VARIABLE);
	assert_int_equal(o.from[0], 1);
	assert_int_equal(o.origin, 0);
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

/* Two writers of variable w and one of variable v, in op order u1 (w),
 * uv (v), u2 (w); w's input 1 also feeds an op that is no writer of w.
 * Step 0: Log -Inf (row 0, the origin), u2 writes w from it (row 1), u1
 * writes w again later (row 2), uv writes v later still (row 3).  Step
 * 1's read of w (row 4) holds the latest write of w: u1's row 2, not
 * uv's later row 3 (another variable) and not u2's earlier row 1. */
static void
test_variable_latest_of_its_writers(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = counts(4, 0, 4);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_graph(f, "g", "train", NULL);
	fake_op(f, "g", "w", "VariableV2", NULL, NULL);
	fake_op(f, "g", "v", "VariableV2", NULL, NULL);
	fake_op(f, "g", "Log", "Log", NULL, NULL);
	fake_op(f, "g", "u1", "ApplyGradientDescent", (const char *[]){"w:0", "Log:0", NULL}, NULL);
	fake_op(f, "g", "uv", "ApplyGradientDescent", (const char *[]){"v:0", "Log:0", NULL}, NULL);
	fake_op(f, "g", "u2", "AssignAdd", (const char *[]){"w:0", "Log:0", NULL}, NULL);
	fake_op(f, "g", "mix", "Assign", (const char *[]){"Log:0", "w:0", NULL}, NULL);
	fake_trace(f, 1, "g", "Log", 0, 1, &bad);                           /* 0 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "u2", 0, 2, &bad);                            /* 1 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "u1", 0, 3, &bad);                            /* 2 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "uv", 0, 4, &bad);                            /* 3 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "w", 0, 5, &bad);                             /* 4 */
	fake_step(f, 1);
	m = fake_model_open(f, NULL);
	n = origins_of(m, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 0);
	model_origins_free(v, n);
	assert_int_equal(model_why(m, 4, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_CARRIED);
	assert_int_equal(o.link, CARRY_VARIABLE);
	assert_int_equal(o.nfrom, 1);
	assert_int_equal(o.from[0], 2);
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

/* The writers of a variable are looked up again once the ops grew: a
 * listing run in steps (as the TUI runs it during the pass) classifies
 * step 0's read of w (row 0) before the writer op arrives; after it,
 * step 1's read of w (row 3) is carried from the writer's row 2, not
 * another origin. */
static void
test_variable_writer_sent_after_the_run_began(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = counts(4, 0, 4);
	struct model_options opt = { .no_thread = false };
	struct model_origins_run *r;
	struct model_origin *v;
	struct model *m;
	size_t n;

	(void)state;
	fake_graph(f, "g", "train", NULL);
	fake_op(f, "g", "w", "VariableV2", NULL, NULL);
	fake_op(f, "g", "Log", "Log", NULL, NULL);
	fake_trace(f, 1, "g", "w", 0, 1, &bad);                             /* 0 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "Log", 0, 2, &bad);                           /* 1 */
	fake_step(f, 0);
	fake_pause_after(f, 5);         /* the graph, two ops and two rows */
	fake_op(f, "g", "update", "ApplyGradientDescent", (const char *[]){"w:0", "Log:0", NULL},
		NULL);
	fake_trace(f, 1, "g", "update", 0, 3, &bad);                        /* 2 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "w", 0, 4, &bad);                             /* 3 */
	fake_step(f, 1);
	m = fake_model_open(f, &opt);
	fake_wait_paused(f);
	assert_int_equal(model_trace_count(m), 2);
	r = model_origins_run_new(m, NULL);
	assert_false(model_origins_run_step(r, 1));   /* row 0 looked at, not row 1 */
	fake_release(f);
	model_wait(m);
	assert_int_equal(model_trace_count(m), 4);
	while (!model_origins_run_step(r, 0))
		;
	n = model_origins_run_take(r, NULL, &v);
	model_origins_run_free(r);
	assert_int_equal(n, 2);         /* w's first read (no write before it) and Log */
	assert_int_equal(v[0].index, 0);
	assert_int_equal(v[1].index, 1);
	model_origins_free(v, n);
	model_close(m);
	fake_free(f);
}

/* A parameter updated by the optimizer across iterations (as a MindSpore
 * dump with input records shows it): iteration 1's gradient Log makes
 * -Inf (row 0, the origin), ApplyMomentum writes fc3.weight from it (row
 * 1); in iteration 2 MatMul's input record of fc3.weight (row 2) holds it:
 * carried through the variable, and MatMul's output (row 3) propagates. */
static void
test_parameter_updated_across_iterations(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = counts(4, 0, 4), ok = counts(4, 0, 0);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_graph(f, "0", "kernel_graph_0", NULL);
	fake_op(f, "0", "fc3.weight", "Parameter", NULL, NULL);
	fake_op(f, "0", "x", "Parameter", NULL, NULL);
	fake_op(f, "0", "Log-op3", "Log", NULL, NULL);
	fake_op(f, "0", "ApplyMomentum-op9", "ApplyMomentum",
		(const char *[]){"fc3.weight:0", "Log-op3:0", NULL}, NULL);
	fake_op(f, "0", "MatMul-op10", "MatMul", (const char *[]){"x:0", "fc3.weight:0", NULL}, NULL);
	fake_trace_ex(f, 1, "0", "Log-op3", 0, 1, &bad, -1, false);         /* 0 */
	fake_step(f, 1);
	fake_trace_ex(f, 1, "0", "ApplyMomentum-op9", 0, 2, &bad, -1, false); /* 1 */
	fake_step(f, 1);
	fake_trace_ex(f, 1, "0", "MatMul-op10", 1, 3, &bad, -1, true);      /* 2 */
	fake_step(f, 2);
	fake_trace_ex(f, 1, "0", "MatMul-op10", 0, 4, &bad, -1, false);     /* 3 */
	fake_step(f, 2);
	(void)ok;
	m = fake_model_open(f, NULL);
	n = origins_of(m, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 0);
	model_origins_free(v, n);
	assert_int_equal(model_why(m, 2, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_CARRIED);
	assert_int_equal(o.link, CARRY_VARIABLE);
	assert_int_equal(o.from[0], 1);
	assert_int_equal(o.origin, 0);
	model_origin_done(&o);
	assert_int_equal(model_why(m, 3, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_PROPAGATION);
	assert_int_equal(o.origin, 0);
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

/* No graph, input records on (an asynchronous dump): MatMul's two input
 * records are finite and its output holds 2 NaN (row 2: the origin);
 * ReLU's input record (row 3) holds the same 2 NaN and its output (row 4)
 * too.  One origin: ReLU's input record is carried (same value), its
 * output a propagation from its own input record. */
static void
test_input_records_without_a_graph(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = counts(6, 0, 0), bad = counts(6, 2, 0);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_trace_ex(f, 1, "", "MatMul-op10", 0, 1, &ok, -1, true);        /* 0 */
	fake_step(f, 1);
	fake_trace_ex(f, 1, "", "MatMul-op10", 1, 2, &ok, -1, true);        /* 1 */
	fake_step(f, 1);
	fake_trace_ex(f, 1, "", "MatMul-op10", 0, 3, &bad, -1, false);      /* 2 */
	fake_step(f, 1);
	fake_trace_ex(f, 1, "", "ReLU-op12", 0, 4, &bad, -1, true);         /* 3 */
	fake_step(f, 1);
	fake_trace_ex(f, 1, "", "ReLU-op12", 0, 5, &bad, -1, false);        /* 4 */
	fake_step(f, 1);
	m = fake_model_open(f, NULL);
	n = origins_of(m, &v);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].index, 2);
	assert_int_equal(v[0].ninputs, 2);
	assert_int_equal(v[0].inputs[0].trace_index, 0);
	assert_int_equal(v[0].inputs[1].trace_index, 1);
	assert_int_equal(v[0].inputs[0].state, INPUT_FINITE);
	model_origins_free(v, n);
	assert_int_equal(model_why(m, 3, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_CARRIED);
	assert_int_equal(o.link, CARRY_SAME_VALUE);
	assert_int_equal(o.from[0], 2);
	model_origin_done(&o);
	assert_int_equal(model_why(m, 4, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_PROPAGATION);
	assert_int_equal(o.from[0], 3);
	assert_int_equal(o.origin, 2);
	model_origin_done(&o);
	model_close(m);
	fake_free(f);
}

/* A loop body op whose loop-carried input is never traced records
 * [NaN,1,2,3] then [NaN,NaN,2,3] in one step with no new traced input:
 * a different value, not a repeat (both are origins).  A third record
 * equal to the second is a repeat of it. */
static void
test_loop_records_of_different_values_are_not_repeats(void **state)
{
	struct fake *f = fake_new();
	struct td_summary x = counts(4, 0, 0), one = counts(4, 1, 0), two = counts(4, 2, 0);
	struct model_origin *v, o;
	struct model *m;
	size_t n;

	(void)state;
	fake_graph(f, "g", "while_body", NULL);
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "add", "AddV2", (const char *[]){"x:0", "carried:0", NULL}, NULL);
	fake_trace(f, 1, "g", "x", 0, 1, &x);           /* 0 */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "add", 0, 2, &one);       /* 1: [NaN,1,2,3] */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "add", 0, 3, &two);       /* 2: [NaN,NaN,2,3] */
	fake_step(f, 0);
	fake_trace(f, 1, "g", "add", 0, 4, &two);       /* 3: the same again */
	fake_step(f, 0);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_why(m, 2, &o), TD_OK);
	assert_int_not_equal(o.role, ORIGIN_REPEAT);
	assert_int_equal(o.role, ORIGIN_ORIGIN);
	model_origin_done(&o);
	assert_int_equal(model_why(m, 3, &o), TD_OK);
	assert_int_equal(o.role, ORIGIN_REPEAT);
	assert_int_equal(o.from[0], 2);
	model_origin_done(&o);
	n = origins_of(m, &v);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].index, 1);
	assert_int_equal(v[1].index, 2);
	model_origins_free(v, n);
	model_close(m);
	fake_free(f);
}

/* The budget: 3,000 independent bad rows (one op, no inputs) with a budget
 * of 100 units answer partially, with the rows before partial_row only;
 * the default budget covers them all. */
static void
test_budget_makes_a_partial_answer(void **state)
{
	struct fake *f = fake_new();
	struct model_origins_query q = { .step = -1, .budget = 100, .want_reach = true };
	struct model_origin *v;
	struct model *m;
	size_t n, k;

	(void)state;
	fake_synth(f, 6000, 2);
	m = fake_model_open(f, NULL);
	n = model_origins(m, &q, &v);
	assert_true(q.partial);
	assert_true(n > 0 && n < 3000);
	for (k = 0; k < n; k++)
		assert_true(v[k].index < q.partial_row);
	assert_non_null(q.reach);
	free(q.reach);
	model_origins_free(v, n);
	q.budget = 0;
	q.reach = NULL;
	n = model_origins(m, &q, &v);
	assert_false(q.partial);
	free(q.reach);
	model_origins_free(v, n);
	model_close(m);
	fake_free(f);
}

/* A run stepped a little at a time (as the TUI does between keys) gives
 * the answer model_origins gives at once: the 3 origins of the loop and
 * input-record scripts' kind, here 300 independent bad rows. */
static void
test_run_in_steps_equals_at_once(void **state)
{
	struct fake *f = fake_new();
	struct model_origins_query q = { .step = -1 };
	struct model_origins_run *r;
	struct model_origin *v, *w;
	struct model *m;
	size_t n, k, steps = 0;

	(void)state;
	fake_synth(f, 600, 2);
	m = fake_model_open(f, NULL);
	n = model_origins(m, NULL, &v);
	r = model_origins_run_new(m, &q);
	while (!model_origins_run_step(r, 10))
		steps++;
	assert_true(steps > 10);
	assert_int_equal(model_origins_run_take(r, &q, &w), n);
	assert_false(q.partial);
	assert_null(q.reach);
	for (k = 0; k < n; k++)
		assert_int_equal(w[k].index, v[k].index);
	model_origins_run_free(r);
	model_origins_free(v, n);
	model_origins_free(w, n);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_call_input_by_tensor_id),
		cmocka_unit_test(test_call_input_of_a_finite_tensor_is_no_link),
		cmocka_unit_test(test_missing_records_are_named),
		cmocka_unit_test(test_eager_variable_write_then_read),
		cmocka_unit_test(test_graph_variable_across_steps),
		cmocka_unit_test(test_nested_graph_argument),
		cmocka_unit_test(test_variable_latest_of_its_writers),
		cmocka_unit_test(test_variable_writer_sent_after_the_run_began),
		cmocka_unit_test(test_parameter_updated_across_iterations),
		cmocka_unit_test(test_input_records_without_a_graph),
		cmocka_unit_test(test_loop_records_of_different_values_are_not_repeats),
		cmocka_unit_test(test_budget_makes_a_partial_answer),
		cmocka_unit_test(test_run_in_steps_equals_at_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
