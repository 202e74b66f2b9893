/*
 * test_model.c - the model's tables over a scripted in-memory reader:
 * lazy growth, sparse locators, the decode cache, links, problems, meta,
 * frames, sources and the row storage budget.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "tests/unit/helpers/fake_model.h"

static struct model *
open_fake(struct fake *f, bool thread, size_t cache_rows)
{
	struct model_options opt = {.no_thread = !thread, .cache_rows = cache_rows};

	return fake_model_open(f, &opt);
}

static void
test_model_rows_visible_before_pass_ends(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(10, 0, 0, 0);
	struct model_progress p;
	struct model_trace row;
	struct model *m;
	int i;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	for (i = 0; i < 10; i++)
		fake_trace(f, 1, "g", "a", 0, 100 + i, &ok);
	fake_pause_after(f, 6);         /* the op and five traces */
	m = open_fake(f, true, 0);
	fake_wait_paused(f);
	assert_int_equal(model_trace_count(m), 5);
	model_progress(m, &p);
	assert_false(p.done);
	assert_int_equal(p.traces, 5);
	assert_int_equal(model_trace_get(m, 4, &row), TD_OK);
	assert_true(row.wall_time == 104);
	assert_int_equal(model_trace_get(m, 5, &row), TD_ERR_RANGE);
	fake_release(f);
	model_wait(m);
	model_progress(m, &p);
	assert_true(p.done);
	assert_int_equal(model_trace_count(m), 10);
	model_close(m);
	fake_free(f);
}

/* model_trace_quick: op id and flags from the index, the same as a
 * decoded row's; false past the indexed rows. */
static void
test_model_trace_quick_matches_the_decoded_row(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(10, 0, 0, 0), bad = fake_full_health(10, 2, 0, 0);
	struct model_trace row;
	struct model *m;
	uint32_t op, flags;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	fake_op(f, "g", "b", "Log", NULL, NULL);
	fake_trace(f, 1, "g", "a", 0, 100, &ok);
	fake_trace(f, 1, "g", "b", 0, 101, &bad);
	m = open_fake(f, false, 0);
	model_wait(m);
	for (uint64_t i = 0; i < 2; i++) {
		assert_true(model_trace_quick(m, i, &op, &flags));
		assert_int_equal(model_trace_get(m, i, &row), TD_OK);
		assert_int_equal(op, row.op);
		assert_int_equal(flags, row.flags);
	}
	assert_true(flags & ROW_NONFINITE);
	assert_false(model_trace_quick(m, 2, &op, &flags));
	model_close(m);
	fake_free(f);
}

static void
test_model_close_does_not_wait_for_a_long_pass(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(10, 0, 0, 0);
	struct model *m;
	double t0;
	int i;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	for (i = 0; i < 10; i++)
		fake_trace(f, 1, "g", "a", 0, i, &ok);
	fake_pause_after(f, 3);         /* a reader stuck in its pass */
	m = open_fake(f, true, 0);
	fake_wait_paused(f);
	t0 = td_now();
	model_close(m);
	assert_true(td_now() - t0 < 2.0);
	fake_release(f);                /* the thread ends the pass, frees the model */
	fake_wait_index_returned(f, 1);
	usleep(100000);
	fake_free(f);
}

/* model_close() asks the reader to give its pass up (should_stop): the
 * pass returns and the thread is joined, instead of parsing on. */
static void
test_model_close_stops_the_reader_pass(void **state)
{
	struct fake *f = fake_new();
	struct model *m;
	double t0;

	(void)state;
	fake_synth(f, 20000000, 0);     /* seconds of indexing */
	m = open_fake(f, true, 0);
	while (model_trace_count(m) < 10000)
		usleep(1000);
	t0 = td_now();
	model_close(m);
	assert_true(td_now() - t0 < 1.0);
	assert_int_equal(fake_index_returned(f), 1);    /* joined, not orphaned */
	fake_free(f);
}

static void
test_model_sparse_locators_find_rows_0_to_100_across_files(void **state)
{
	struct fake *f = fake_new();
	struct td_summary s;
	struct model_trace row;
	struct model *m;
	uint32_t file;
	int i;

	(void)state;
	fake_file(f, 1, "f1", "h1");
	fake_file(f, 2, "f2", "h2");
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	for (i = 0; i <= 100; i++) {
		file = (i >= 37 && i < 70) ? 2 : 1;
		s = fake_full_health(i, 0, 0, 0);
		if (i == 80)
			fake_problem(f, PROBLEM_BAD_DATA_CRC, 1, "f1");
		fake_trace(f, file, "g", "a", (uint32_t)(i % 3), 1000 + i, &s);
	}
	m = open_fake(f, false, 1);     /* a one-row cache: every get decodes */
	assert_int_equal(model_trace_count(m), 101);
	for (i = 100; i >= 0; i--) {
		assert_int_equal(model_trace_get(m, (uint64_t)i, &row), TD_OK);
		assert_true(row.wall_time == 1000 + i);
		assert_int_equal(row.summary.elements, i);
		assert_int_equal(row.slot, i % 3);
		assert_string_equal(row.host, (i >= 37 && i < 70) ? "h2" : "h1");
		assert_false(row.flags & ROW_CORRUPT);
	}
	model_close(m);
	fake_free(f);
}

/* Reading rows in order (a listing, a page of the table) advances one
 * record per row from the last row read, not up to CKPT_EVERY - 1 from the
 * row's checkpoint; a second reader elsewhere keeps its own cursor. */
static void
test_model_sequential_reads_step_one_record_per_row(void **state)
{
	struct fake *f = fake_new();
	struct td_summary s;
	struct model_trace row;
	struct model *m;
	uint64_t steps;
	int i;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	for (i = 0; i < 1000; i++) {
		s = fake_full_health(i, 0, 0, 0);
		fake_trace(f, (i / 300) % 2 ? 2 : 1, "g", "a", 0, i, &s);
	}
	m = open_fake(f, false, 1);     /* every get decodes and locates */
	for (i = 0; i < 1000; i++) {
		assert_int_equal(model_trace_get(m, (uint64_t)i, &row), TD_OK);
		assert_int_equal(row.summary.elements, i);
	}
	assert_true(fake_steps(f) < 1000);
	steps = fake_steps(f);
	for (i = 0; i < 40; i++) {      /* two panes, interleaved pages */
		assert_int_equal(model_trace_get(m, (uint64_t)(500 + i), &row), TD_OK);
		assert_int_equal(row.summary.elements, 500 + i);
		assert_int_equal(model_trace_get(m, (uint64_t)(101 + i), &row), TD_OK);
		assert_int_equal(row.summary.elements, 101 + i);
	}
	assert_true(fake_steps(f) - steps <= 2 * 40 + 2 * 15);
	model_close(m);
	fake_free(f);
}

/* A reader whose decode() gives the next record's offset: reading in order
 * needs no advance() at all; rows after a problem (a new checkpoint) and
 * in another file stay right. */
static void
test_model_sequential_reads_use_decoded_next_offset(void **state)
{
	struct fake *f = fake_new();
	struct td_summary s;
	struct model_trace row;
	struct model *m;
	int i;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	for (i = 0; i < 200; i++) {
		s = fake_full_health(i, 0, 0, 0);
		if (i == 77)
			fake_problem(f, PROBLEM_BAD_DATA_CRC, 1, "f1");
		fake_trace(f, i >= 150 ? 2 : 1, "g", "a", 0, i, &s);
	}
	fake_next_offsets(f, true);
	m = open_fake(f, false, 1);
	for (i = 0; i < 200; i++) {
		assert_int_equal(model_trace_get(m, (uint64_t)i, &row), TD_OK);
		assert_int_equal(row.summary.elements, i);
		assert_false(row.flags & ROW_CORRUPT);
	}
	assert_int_equal(fake_steps(f), 0);
	model_close(m);
	fake_free(f);
}

static void
test_model_cache_evicts_with_tiny_cache(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_trace row;
	struct model *m;
	int i;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	for (i = 0; i < 4; i++)
		fake_trace(f, 1, "g", "a", 0, i, &ok);
	m = open_fake(f, false, 2);
	model_trace_get(m, 0, &row);
	assert_int_equal(fake_decodes(f), 1);
	model_trace_get(m, 0, &row);
	assert_int_equal(fake_decodes(f), 1);   /* cached */
	model_trace_get(m, 1, &row);
	assert_int_equal(fake_decodes(f), 2);
	model_trace_get(m, 2, &row);            /* evicts row 0 */
	assert_int_equal(fake_decodes(f), 3);
	model_trace_get(m, 1, &row);
	assert_int_equal(fake_decodes(f), 3);
	model_trace_get(m, 0, &row);
	assert_int_equal(fake_decodes(f), 4);
	assert_true(row.wall_time == 0);
	model_close(m);
	fake_free(f);
}

static void
test_model_undecodable_row_is_corrupt_but_ok(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(5, 0, 0, 0);
	struct model_trace row;
	struct model *m;
	uint64_t off;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	fake_trace(f, 1, "g", "a", 0, 1, &ok);
	off = fake_trace(f, 1, "g", "a", 0, 2, &ok);
	fake_break(f, 1, off);
	m = open_fake(f, false, 0);
	assert_int_equal(model_trace_get(m, 1, &row), TD_OK);
	assert_true(row.flags & ROW_CORRUPT);
	assert_int_equal(row.summary.known, 0);
	assert_string_equal(row.op_name, "a");
	assert_int_equal(model_trace_get(m, 0, &row), TD_OK);
	assert_false(row.flags & ROW_CORRUPT);
	assert_int_equal(row.summary.elements, 5);
	model_close(m);
	fake_free(f);
}

/* x -> y=Log(x) -> z=Add(y, x, missing) */
static struct fake *
links_script(void)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);

	fake_graph(f, "g", "loss", NULL);
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "y", "Log", (const char *[]){"x:0", NULL}, NULL);
	fake_op(f, "g", "z", "AddN", (const char *[]){"y", "x:0", "missing:1", NULL}, NULL);
	fake_trace(f, 1, "g", "x", 0, 1, &ok);  /* 0 */
	fake_trace(f, 1, "g", "y", 0, 2, &ok);  /* 1 */
	fake_trace(f, 1, "g", "x", 0, 3, &ok);  /* 2 */
	fake_trace(f, 1, "g", "y", 0, 4, &ok);  /* 3 */
	fake_trace(f, 1, "g", "z", 0, 5, &ok);  /* 4 */
	fake_trace(f, 1, "g", "y", 0, 6, &ok);  /* 5 */
	return f;
}

static void
test_model_inputs_link_latest_earlier_row(void **state)
{
	struct fake *f = links_script();
	struct model *m = open_fake(f, false, 0);
	struct model_link *l;
	size_t n;

	(void)state;
	n = model_trace_inputs(m, 4, &l);
	assert_int_equal(n, 3);
	assert_string_equal(l[0].op_name, "y");
	assert_string_equal(l[0].op_type, "Log");
	assert_int_equal(l[0].slot, 0);
	assert_int_equal(l[0].trace_index, 3);
	assert_string_equal(l[1].op_name, "x");
	assert_int_equal(l[1].trace_index, 2);
	assert_string_equal(l[2].op_name, "missing");
	assert_int_equal(l[2].slot, 1);
	assert_int_equal(l[2].op, -1);
	assert_int_equal(l[2].trace_index, -1);
	free(l);
	n = model_trace_inputs(m, 1, &l);
	assert_int_equal(n, 1);
	assert_int_equal(l[0].trace_index, 0);
	free(l);
	n = model_trace_inputs(m, 0, &l);       /* a placeholder has no inputs */
	assert_int_equal(n, 0);
	assert_null(l);
	model_close(m);
	fake_free(f);
}

static void
test_model_consumers_link_first_later_row(void **state)
{
	struct fake *f = links_script();
	struct model *m = open_fake(f, false, 0);
	struct model_consumer c[4];
	struct model_link *l;
	size_t n;

	(void)state;
	n = model_trace_consumers(m, 2, &l);    /* x at row 2 feeds y (row 3), z (row 4) */
	assert_int_equal(n, 2);
	assert_string_equal(l[0].op_name, "y");
	assert_int_equal(l[0].slot, 0);
	assert_int_equal(l[0].trace_index, 3);
	assert_string_equal(l[1].op_name, "z");
	assert_int_equal(l[1].slot, 1);
	assert_int_equal(l[1].trace_index, 4);
	free(l);
	n = model_trace_consumers(m, 5, &l);    /* z never runs after row 5 */
	assert_int_equal(n, 1);
	assert_int_equal(l[0].trace_index, -1);
	free(l);
	assert_int_equal(model_op_consumers(m, (uint32_t)model_op_find(m, "x", NULL), c, 4), 2);
	assert_int_equal(model_trace_of_op(m, (uint32_t)model_op_find(m, "y", "loss"), 0, 3, -1), 1);
	assert_int_equal(model_trace_of_op(m, (uint32_t)model_op_find(m, "y", "g"), 0, 3, 1), 5);
	model_close(m);
	fake_free(f);
}

static void
test_model_op_find_forms_and_graphs(void **state)
{
	struct fake *f = fake_new();
	struct model_graph g;
	struct model_op op;
	struct model *m;
	int64_t id;

	(void)state;
	fake_graph(f, "G0", "model", NULL);
	fake_graph(f, "G1", "dense", "G0");
	fake_op(f, "G0", "Default/fc3-Dense/MatMul-op10", "MatMul", NULL, NULL);
	fake_op_alias(f, "Default--fc3-Dense--MatMul-op10");
	fake_op(f, "G1", "Relu", "Relu", NULL, NULL);
	fake_op(f, "G0", "Relu", "Relu", NULL, NULL);
	fake_op(f, "G0", "Default/fc2-Dense/MatMul-op9", "MatMul", NULL, NULL);
	m = open_fake(f, false, 0);
	id = model_op_find(m, "Default--fc3-Dense--MatMul-op10", NULL);  /* the alias */
	assert_int_equal(id, 0);
	/* the model knows no spelling of its own: no alias, no match */
	assert_int_equal(model_op_find(m, "Default--fc2-Dense--MatMul-op9", NULL), -1);
	assert_int_equal(model_op_find(m, "Default/fc2-Dense/MatMul-op9", NULL), 3);
	assert_int_equal(model_op_find(m, "MatMul-op10", NULL), 0);      /* unique last part */
	assert_int_equal(model_op_find(m, "Relu", "G0"), 2);
	assert_int_equal(model_op_find(m, "Relu", "dense"), 1);
	assert_int_equal(model_op_find(m, "Relu", "nope"), -1);
	assert_int_equal(model_op_find(m, "Nope", NULL), -1);
	assert_true(model_op_get(m, 1, &op));
	assert_string_equal(op.graph_name, "dense");
	assert_int_equal(op.graph, 1);
	assert_true(model_graph_get(m, 1, &g));
	assert_int_equal(g.outer, 0);
	assert_int_equal(g.nops, 1);
	assert_true(model_graph_get(m, 0, &g));
	assert_int_equal(g.outer, -1);
	assert_int_equal(g.nops, 3);
	assert_false(model_graph_get(m, 2, &g));
	model_close(m);
	fake_free(f);
}

static void
test_model_placeholder_op_filled_later(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_trace row;
	struct model *m;

	(void)state;
	fake_trace(f, 1, "g", "late", 0, 1, &ok);
	m = open_fake(f, false, 0);
	model_trace_get(m, 0, &row);
	assert_string_equal(row.op_type, "");
	fake_op(f, "g", "late", "MatMul", NULL, NULL);
	model_refresh(m);
	model_trace_get(m, 0, &row);
	assert_string_equal(row.op_type, "MatMul");
	assert_int_equal(model_op_count(m), 1);
	model_close(m);
	fake_free(f);
}

/* The sink guesses a row's op from the op sequence seen before; a guess
 * with the right name in another graph must not be taken. */
static void
test_model_trace_op_same_name_in_two_graphs_never_confused(void **state)
{
	static const char *const seq[][2] = {
		{"g1", "a"}, {"g1", "b"}, {"g1", "a"}, {"g2", "a"}, {"g1", "b"}, {"g2", "a"},
		{"g1", "a"}, {"g1", "b"}, {"g1", "a"},
	};
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_trace row;
	struct model *m;
	size_t i;

	(void)state;
	fake_op(f, "g1", "a", "Relu", NULL, NULL);
	fake_op(f, "g2", "a", "Tanh", NULL, NULL);
	for (i = 0; i < sizeof seq / sizeof seq[0]; i++)
		fake_trace(f, 1, seq[i][0], seq[i][1], 0, 1, &ok);
	m = open_fake(f, false, 0);
	for (i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		assert_int_equal(model_trace_get(m, i, &row), TD_OK);
		assert_string_equal(row.graph_id, seq[i][0]);
		assert_string_equal(row.op_name, seq[i][1]);
	}
	assert_int_equal(model_op_count(m), 3);
	model_close(m);
	fake_free(f);
}

static void
test_model_trace_type_fills_placeholder_without_on_op(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_trace row;
	struct model *m;

	(void)state;
	fake_trace(f, 1, "g", "conv", 0, 1, &ok);
	fake_trace_type(f, "Conv2D");
	m = open_fake(f, false, 0);
	assert_int_equal(model_trace_get(m, 0, &row), TD_OK);
	assert_string_equal(row.op_type, "Conv2D");
	model_close(m);
	fake_free(f);
}

static void
test_model_details_move_decoded_fields_and_resolve_stack(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(6, 0, 0, 0);
	struct model_detail d;
	struct model_frame fr;
	struct model *m;

	(void)state;
	fake_file(f, 1, "f1", "host-a");
	fake_frame(f, "fr1", "host-a", "/home/u/train.py", 12, "step", -1);
	fake_op(f, "g", "a", "Relu", NULL, (const char *[]){"fr1", "unknown-frame", NULL});
	fake_trace(f, 1, "g", "a", 0, 42, &ok);
	fake_exec(f, 2, "__inference_f_1", "g", "host-b", 43, &ok, 1);
	m = open_fake(f, false, 0);
	assert_int_equal(model_trace_detail(m, 0, &d), TD_OK);
	assert_string_equal(d.mode, "FULL_HEALTH");
	assert_string_equal(d.host, "host-a");
	assert_true(d.wall_time == 42);
	assert_int_equal(d.noutputs, 1);
	assert_int_equal(d.summaries[0].elements, 6);
	assert_int_equal(d.nstack, 1);          /* the unknown frame id is dropped */
	assert_true(model_frame_get(m, d.stack[0], &fr));
	assert_int_equal(fr.line, 12);
	model_detail_done(&d);
	assert_null(d.summaries);
	assert_int_equal(model_execution_detail(m, 0, &d), TD_OK);
	assert_string_equal(d.host, "host-b");
	assert_int_equal(d.noutputs, 1);
	model_detail_done(&d);
	assert_int_equal(model_trace_detail(m, 1, &d), TD_ERR_RANGE);
	model_close(m);
	fake_free(f);
}

/* An execution sent right after an op takes the op's name id only when
 * its type is that name (on_execution's memo of the last op): an
 * execution named as its op (msprobe's entries) and one typed otherwise
 * keep their own types, and their graph ids. */
static void
test_model_execution_type_after_op(void **state)
{
	struct fake *f = fake_new();
	struct model_execution e;
	struct model_graph g;
	struct model *m;

	(void)state;
	fake_file(f, 1, "f1", "host-a");
	fake_graph(f, "g", "graph g", NULL);
	fake_graph(f, "h", "graph h", NULL);
	fake_op(f, "g", "Functional.a.0.forward", "Functional.a", NULL, NULL);
	fake_exec(f, 1, "Functional.a.0.forward", "g", "host-a", 1, NULL, 0);
	fake_op(f, "g", "Functional.a.1.forward", "Functional.a", NULL, NULL);
	fake_exec(f, 1, "Functional.a.1.forwarD", "h", "host-a", 2, NULL, 0);
	fake_exec(f, 1, "Functional.a.1.forward", "g", "host-a", 3, NULL, 0);
	m = open_fake(f, false, 0);
	assert_int_equal(model_execution_count(m), 3);
	assert_int_equal(model_execution_get(m, 0, &e), TD_OK);
	assert_string_equal(e.op_type, "Functional.a.0.forward");
	assert_true(e.graph >= 0 && model_graph_get(m, (uint32_t)e.graph, &g));
	assert_string_equal(g.graph_id, "g");
	assert_int_equal(model_execution_get(m, 1, &e), TD_OK);
	assert_string_equal(e.op_type, "Functional.a.1.forwarD");
	assert_true(e.graph >= 0 && model_graph_get(m, (uint32_t)e.graph, &g));
	assert_string_equal(g.graph_id, "h");
	assert_int_equal(model_execution_get(m, 2, &e), TD_OK);
	assert_string_equal(e.op_type, "Functional.a.1.forward");
	model_close(m);
	fake_free(f);
}

/* UBSan: copying an op's empty stack passed a NULL pointer to memcpy. */
static void
test_model_detail_of_op_without_stack_is_empty(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_detail d;
	struct model *m;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	fake_trace(f, 1, "g", "a", 0, 1, &ok);
	m = open_fake(f, false, 0);
	assert_int_equal(model_trace_detail(m, 0, &d), TD_OK);
	assert_int_equal(d.nstack, 0);
	model_detail_done(&d);
	model_close(m);
	fake_free(f);
}

static void
test_model_problems_count_torn_and_missing_apart(void **state)
{
	struct fake *f = fake_new();
	struct model_options opt = {.no_thread = true, .strict = true};
	struct model_problem p;
	struct model_info info;
	struct model *m;
	char err[256];

	(void)state;
	fake_file(f, 1, "f1", "h");
	fake_file(f, 2, "f2", "h");
	fake_problem(f, PROBLEM_BAD_DATA_CRC, 1, "f1");
	fake_problem(f, PROBLEM_DECODE_ERROR, 1, "f1");
	fake_problem(f, PROBLEM_TORN_TAIL, 2, "f2");
	fake_problem(f, PROBLEM_MISSING_FILE, -1, "f3");
	fake_problem(f, PROBLEM_MISSING_FILE, -1, "f4");
	m = open_fake(f, false, 0);
	model_info(m, &info);
	assert_int_equal(info.corrupt_records, 2);
	assert_int_equal(info.torn_files, 1);
	assert_int_equal(info.missing_files, 2);
	assert_int_equal(info.problems_by_kind[PROBLEM_BAD_DATA_CRC], 1);
	assert_int_equal(model_problem_count(m), 5);
	fake_rewind(f);
	model_refresh(m);       /* a reader reporting them again on a later pass */
	model_info(m, &info);
	assert_int_equal(info.corrupt_records, 2);
	assert_true(model_problem_get(m, 2, &p));
	assert_string_equal(p.kind, "torn-tail");
	assert_string_equal(p.path, "f2");
	assert_true(model_has_problems(m));
	model_close(m);
	fake_use(f);
	assert_int_equal(model_open_with(&fake_reader_ops, "fake", &opt, &m, err, sizeof err),
			 TD_ERR_CORRUPT);
	assert_non_null(strstr(err, "f1"));
	fake_free(f);
}

static void
test_model_torn_tail_alone_is_not_a_problem(void **state)
{
	struct fake *f = fake_new();
	struct model *m;

	(void)state;
	fake_problem(f, PROBLEM_TORN_TAIL, 2, "f2");
	m = open_fake(f, false, 0);
	assert_false(model_has_problems(m));
	model_close(m);
	fake_free(f);
}

/* Follow mode: a torn tail the writer completed is no longer counted in
 * torn_files (the status bar's "torn N"); one still torn stays. */
static void
test_model_torn_tail_completed_later_clears_torn_files(void **state)
{
	struct fake *f = fake_new();
	struct model_info in;
	struct model *m;

	(void)state;
	fake_file(f, 2, "f2", "h");
	fake_problem(f, PROBLEM_TORN_TAIL, 2, "f2");
	fake_problem(f, PROBLEM_TORN_TAIL, -1, "run/x.npy");
	m = open_fake(f, false, 0);
	model_info(m, &in);
	assert_int_equal(in.torn_files, 2);
	fake_problem(f, PROBLEM_TORN_TAIL, 2, "f2");    /* still torn on the next pass */
	model_refresh(m);
	model_info(m, &in);
	assert_int_equal(in.torn_files, 2);
	fake_resolved(f, PROBLEM_TORN_TAIL, 2, "f2");   /* then read past it */
	model_refresh(m);
	model_info(m, &in);
	assert_int_equal(in.torn_files, 1);
	assert_int_equal(in.corrupt_records, 0);
	assert_false(model_has_problems(m));
	fake_problem(f, PROBLEM_TORN_TAIL, 2, "f2");    /* torn again further on */
	model_refresh(m);
	model_info(m, &in);
	assert_int_equal(in.torn_files, 2);
	model_close(m);
	fake_free(f);
}

static void
test_model_meta_lists_and_scalars(void **state)
{
	struct fake *f = fake_new();
	const struct model_meta *mm;
	struct model_info info;
	struct model *m;

	(void)state;
	fake_meta(f, "format", "first");
	fake_meta(f, "host[]", "a");
	fake_meta(f, "format", "tfdbg2");
	fake_meta(f, "host[]", "b");
	fake_meta(f, "tensor_debug_mode", "FULL_HEALTH");
	m = open_fake(f, false, 0);
	mm = model_meta_get(m, "host");
	assert_non_null(mm);
	assert_true(mm->list);
	assert_int_equal(mm->nvalues, 2);
	assert_string_equal(mm->values[1], "b");
	mm = model_meta_get(m, "format");
	assert_false(mm->list);
	assert_int_equal(mm->nvalues, 1);
	assert_string_equal(mm->values[0], "tfdbg2");
	assert_null(model_meta_get(m, "host[]"));
	model_info(m, &info);
	assert_string_equal(info.format, "tfdbg2");
	assert_string_equal(info.tensor_debug_mode, "FULL_HEALTH");
	assert_int_equal(info.nhosts, 2);
	assert_string_equal(info.hosts[0], "a");
	assert_int_equal(info.nmeta, 3);
	model_close(m);
	fake_free(f);
}

/* A scalar sent again on a later pass (follow mode: "incomplete_iterations"
 * 1, then 0) reads as its new value, though its count stays 1. */
static void
test_model_meta_scalar_changed_by_a_later_pass(void **state)
{
	struct fake *f = fake_new();
	const struct model_meta *mm;
	struct model *m;

	(void)state;
	fake_meta(f, "waiting", "1");
	m = open_fake(f, false, 0);
	mm = model_meta_get(m, "waiting");
	assert_string_equal(mm->values[0], "1");
	fake_meta(f, "waiting", "0");
	model_refresh(m);
	mm = model_meta_get(m, "waiting");
	assert_int_equal(mm->nvalues, 1);
	assert_string_equal(mm->values[0], "0");
	model_close(m);
	fake_free(f);
}

static void
test_model_hosts_without_meta_come_from_files(void **state)
{
	struct fake *f = fake_new();
	struct model_info info;
	struct model *m;

	(void)state;
	fake_file(f, 1, "rank_0/a", "rank0");
	fake_file(f, 2, "rank_1/a", "rank1");
	fake_file(f, 3, "rank_1/b", "rank1");
	m = open_fake(f, false, 0);
	model_info(m, &info);
	assert_int_equal(info.nhosts, 2);
	assert_string_equal(info.hosts[0], "rank0");
	assert_string_equal(info.hosts[1], "rank1");
	model_close(m);
	fake_free(f);
}

static void
test_model_frames_resolve_after_ops(void **state)
{
	struct fake *f = fake_new();
	struct model_frame fr;
	struct model_op op;
	struct model *m;

	(void)state;
	fake_op(f, "g", "a", "Log", NULL, (const char *[]){"f-outer", "f-inner", NULL});
	m = open_fake(f, false, 0);
	assert_true(model_op_get(m, 0, &op));
	assert_int_equal(op.nstack, 0);
	fake_source(f, 0, "h", "/home/u/train.py", (const char *[]){"import x", "y = log(x)", NULL});
	fake_frame(f, "f-inner", "h", "/usr/lib/python3/dist-packages/tensorflow/ops/math.py", 7,
		   "log", -1);
	fake_frame_framework(f);
	fake_frame(f, "f-outer", "h", "/home/u/train.py", 2, "main", 0);
	model_refresh(m);
	assert_true(model_op_get(m, 0, &op));
	assert_int_equal(op.nstack, 2);
	assert_true(model_frame_get(m, op.stack[0], &fr));
	assert_string_equal(fr.file, "/home/u/train.py");
	assert_int_equal(fr.line, 2);
	assert_true(fr.user_code);
	assert_int_equal(fr.source, 0);
	assert_true(model_frame_get(m, op.stack[1], &fr));
	assert_false(fr.user_code);
	assert_int_equal(fr.source, -1);
	model_close(m);
	fake_free(f);
}

static void
test_model_source_suffix_lookup_and_lines_once(void **state)
{
	struct fake *f = fake_new();
	const char *const *lines;
	struct model *m;
	uint64_t before;
	size_t n;

	(void)state;
	fake_source(f, 0, "h", "/home/u/proj/train.py", (const char *[]){"a", "b", NULL});
	fake_source(f, 1, "h", "/home/u/other/train.py", (const char *[]){"c", NULL});
	fake_source(f, 2, "h", "/home/u/proj/model.py", (const char *[]){"d", NULL});
	m = open_fake(f, false, 0);
	assert_int_equal(model_source_count(m), 3);
	assert_int_equal(model_source_find(m, "/home/u/proj/train.py", NULL), 0);
	assert_int_equal(model_source_find(m, "proj/train.py", NULL), 0);
	assert_int_equal(model_source_find(m, "model.py", "h"), 2);
	assert_int_equal(model_source_find(m, "train.py", NULL), -1);   /* ambiguous */
	assert_int_equal(model_source_find(m, "odel.py", NULL), -1);    /* not at a '/' */
	assert_int_equal(model_source_find(m, "model.py", "other-host"), -1);
	before = fake_decodes(f);
	assert_int_equal(model_source_lines(m, 0, &lines, &n), TD_OK);
	assert_int_equal(n, 2);
	assert_string_equal(lines[1], "b");
	assert_int_equal(model_source_lines(m, 0, &lines, &n), TD_OK);
	assert_int_equal(fake_decodes(f), before + 1);
	model_close(m);
	fake_free(f);
}

static void
test_model_source_load_disk_remaps_by_root(void **state)
{
	char dir[] = "/tmp/tdbg-model-XXXXXX", sub[128], file[160], err[256];
	struct model_options opt = {.no_thread = true};
	const char *const *lines;
	struct fake *f = fake_new();
	struct model *m;
	uint32_t idx;
	size_t n;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/proj", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(file, sizeof file, "%s/a.py", sub);
	fp = fopen(file, "w");
	fputs("one\r\ntwo\nthree", fp);
	fclose(fp);
	opt.source_root = dir;
	fake_use(f);
	assert_int_equal(model_open_with(&fake_reader_ops, "fake", &opt, &m, err, sizeof err), TD_OK);
	assert_int_equal(model_source_load_disk(m, "/remote/job/proj/a.py", &idx, err, sizeof err), TD_OK);
	assert_int_equal(model_source_lines(m, idx, &lines, &n), TD_OK);
	assert_int_equal(n, 3);
	assert_string_equal(lines[0], "one");
	assert_string_equal(lines[2], "three");
	assert_int_equal(model_source_find(m, "proj/a.py", NULL), idx);
	assert_int_not_equal(model_source_load_disk(m, "/remote/none.py", &idx, err, sizeof err), TD_OK);
	assert_non_null(strstr(err, "none.py"));
	model_close(m);
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	fake_free(f);
}

/* Issue 12 item 11: a source the dump knows only in part says so, line by
 * line, and a file the user names later replaces it in place. */
static void
test_model_partial_source_marks_known_lines_and_loads_from(void **state)
{
	char dir[] = "/tmp/tdbg-model-XXXXXX", sub[128], file[160], err[256];
	const char *gaps[] = { NULL, "    x = f(x)", NULL, "    return x" };
	const char *const *lines;
	struct fake *f = fake_new();
	struct model_source s;
	struct model *m;
	uint32_t idx;
	size_t n;
	FILE *fp;

	(void)state;
	fake_source_partial(f, 0, "h", "/remote/job/proj/net.py", gaps, 4);
	fake_frame(f, "1", "h", "/remote/job/proj/net.py", 2, "", 0);
	m = open_fake(f, false, 0);
	assert_int_equal(model_source_lines(m, 0, &lines, &n), TD_OK);
	assert_int_equal(n, 4);
	assert_string_equal(lines[0], "");              /* a gap reads as empty */
	assert_string_equal(lines[1], "    x = f(x)");
	assert_true(model_source_get(m, 0, &s));
	assert_true(s.partial);
	assert_false(model_source_line_known(m, 0, 0));
	assert_true(model_source_line_known(m, 0, 1));
	assert_false(model_source_line_known(m, 0, 2));
	assert_true(model_source_line_known(m, 0, 3));
	assert_false(model_source_line_known(m, 0, 4));

	/* the user names a directory: it is tried as a source root */
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof sub, "%s/proj", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(file, sizeof file, "%s/net.py", sub);
	fp = fopen(file, "w");
	fputs("def f(x):\n    x = f(x)\n    y = 1\n    return x\n", fp);
	fclose(fp);
	assert_int_not_equal(model_source_load_from(m, "/remote/job/proj/net.py", "/nonexistent-dir/x.py",
						    &idx, err, sizeof err), TD_OK);
	assert_true(model_source_get(m, 0, &s) && s.partial);   /* unchanged */
	assert_int_equal(model_source_load_from(m, "/remote/job/proj/net.py", dir, &idx, err, sizeof err),
			 TD_OK);
	assert_int_equal(idx, 0);                       /* in place: the frame shows it */
	assert_int_equal(model_source_count(m), 1);
	assert_true(model_source_get(m, 0, &s));
	assert_false(s.partial);
	assert_true(model_source_line_known(m, 0, 0));
	assert_int_equal(model_source_lines(m, 0, &lines, &n), TD_OK);
	assert_int_equal(n, 4);
	assert_string_equal(lines[2], "    y = 1");
	/* a file named directly works too, for a path the dump never had */
	assert_int_equal(model_source_load_from(m, "/elsewhere/net.py", file, &idx, err, sizeof err), TD_OK);
	assert_int_equal(idx, 1);
	model_close(m);
	unlink(file);
	rmdir(sub);
	rmdir(dir);
	fake_free(f);
}

/* user_code is the reader's mark, whatever the path says: the model has
 * no rule of its own about framework packages. */
static void
test_model_user_code_is_the_readers_mark(void **state)
{
	struct fake *f = fake_new();
	struct model_frame fr;
	struct model *m;

	(void)state;
	fake_frame(f, "1", "h", "/home/u/train.py", 216, "loss", -1);
	fake_frame(f, "2", "h", "/venv/lib/python3.9/site-packages/keras/layers/core.py", 1, "f", -1);
	fake_frame_framework(f);
	fake_frame(f, "3", "h", "/venv/lib/python3.9/site-packages/keras/layers/core.py", 2, "g", -1);
	fake_frame(f, "4", "h", "/home/u/my_framework.py", 1, "f", -1);
	fake_frame_framework(f);
	m = open_fake(f, false, 0);
	assert_true(model_frame_get(m, 0, &fr));
	assert_true(fr.user_code);
	assert_true(model_frame_get(m, 1, &fr));
	assert_false(fr.user_code);
	assert_true(model_frame_get(m, 2, &fr));
	assert_true(fr.user_code);
	assert_true(model_frame_get(m, 3, &fr));
	assert_false(fr.user_code);
	model_close(m);
	fake_free(f);
}

/* Steps as the reader numbers them, on executions and on trace rows; a
 * row with no step reads -1, also after rows that had one. */
static void
test_model_steps_of_executions_and_traces(void **state)
{
	static const int64_t want[] = {-1, 7, 7, 9, -1};
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_execution e;
	struct model_trace row;
	struct model *m;
	size_t i;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	fake_exec(f, 2, "graph 0 iter 7", "", "h", 1, NULL, 0);
	fake_step(f, 7);
	fake_exec(f, 2, "run", "", "h", 2, NULL, 0);
	fake_trace(f, 1, "g", "a", 0, 1, &ok);
	fake_trace_ex(f, 1, "g", "a", 0, 1, &ok, 0, false);
	fake_step(f, 7);
	fake_trace_ex(f, 1, "g", "a", 0, 1, &ok, 0, false);
	fake_step(f, 7);
	fake_trace_ex(f, 1, "g", "a", 0, 1, &ok, 1, false);
	fake_step(f, 9);
	fake_trace(f, 1, "g", "a", 0, 1, &ok);
	m = open_fake(f, false, 0);
	assert_int_equal(model_execution_get(m, 0, &e), TD_OK);
	assert_int_equal(e.step, 7);
	assert_int_equal(model_execution_get(m, 1, &e), TD_OK);
	assert_int_equal(e.step, -1);
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		assert_int_equal(model_trace_get(m, i, &row), TD_OK);
		assert_int_equal(row.step, want[i]);
	}
	model_close(m);
	fake_free(f);
}

static void
test_model_follow_refresh_appends_rows(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(1, 0, 0, 0);
	struct model_progress p1, p2;
	struct model *m;

	(void)state;
	fake_op(f, "g", "a", "Relu", NULL, NULL);
	fake_trace(f, 1, "g", "a", 0, 1, &ok);
	m = open_fake(f, true, 0);
	model_wait(m);
	model_progress(m, &p1);
	fake_trace(f, 1, "g", "a", 0, 2, &ok);
	fake_trace(f, 1, "g", "a", 0, 3, &ok);
	model_refresh(m);
	model_wait(m);
	model_progress(m, &p2);
	assert_int_equal(model_trace_count(m), 3);
	assert_true(p2.generation > p1.generation);
	assert_true(p2.done);
	model_close(m);
	fake_free(f);
}

static void
test_model_row_storage_under_8_bytes_per_row(void **state)
{
	struct fake *f = fake_new();
	struct model_alert a;
	struct model *m;
	size_t bytes;

	(void)state;
	fake_synth(f, 1000000, 1000);
	m = open_fake(f, false, 0);
	assert_int_equal(model_trace_count(m), 1000000);
	bytes = model_memory_bytes(m);
	assert_true(bytes < 8u * 1000000u);
	assert_int_equal(model_alert_count(m), 1000);
	assert_int_equal(model_alert_get(m, 999, &a), TD_OK);
	assert_int_equal(a.index, 999999);
	assert_int_equal(model_alert_get(m, 500, &a), TD_OK);
	assert_int_equal(a.index, 500999);
	model_close(m);
	fake_free(f);
}

static void
test_model_queries_while_indexing_see_growing_prefix(void **state)
{
	struct fake *f = fake_new();
	struct model_filter_spec spec = {.nonfinite = true, .graph = -1, .execution = -1};
	struct model_filter *fl;
	struct model_progress p;
	struct model_trace row;
	struct model_link *l;
	struct model *m;
	uint64_t last = 0, n, matched;
	char err[128];

	(void)state;
	fake_synth(f, 300000, 5);
	m = open_fake(f, true, 64);
	assert_int_equal(model_filter_new(m, &spec, &fl, err, sizeof err), TD_OK);
	do {
		model_progress(m, &p);
		n = model_trace_count(m);
		assert_true(n >= last);
		last = n;
		if (!n)
			continue;
		assert_int_equal(model_trace_get(m, n - 1, &row), TD_OK);
		assert_true(row.wall_time == (double)(n - 1));
		matched = model_filter_count(m, fl, TABLE_TRACES);
		assert_true(matched <= model_trace_count(m) / 5 + 1);  /* rows keep coming */
		assert_true(model_alert_count(m) >= matched);
		model_trace_consumers(m, n - 1, &l);
		free(l);
	} while (!p.done);
	model_wait(m);
	assert_int_equal(model_trace_count(m), 300000);
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 60000);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_rows_visible_before_pass_ends),
		cmocka_unit_test(test_model_trace_quick_matches_the_decoded_row),
		cmocka_unit_test(test_model_close_does_not_wait_for_a_long_pass),
		cmocka_unit_test(test_model_close_stops_the_reader_pass),
		cmocka_unit_test(test_model_sparse_locators_find_rows_0_to_100_across_files),
		cmocka_unit_test(test_model_sequential_reads_step_one_record_per_row),
		cmocka_unit_test(test_model_sequential_reads_use_decoded_next_offset),
		cmocka_unit_test(test_model_cache_evicts_with_tiny_cache),
		cmocka_unit_test(test_model_undecodable_row_is_corrupt_but_ok),
		cmocka_unit_test(test_model_inputs_link_latest_earlier_row),
		cmocka_unit_test(test_model_consumers_link_first_later_row),
		cmocka_unit_test(test_model_op_find_forms_and_graphs),
		cmocka_unit_test(test_model_placeholder_op_filled_later),
		cmocka_unit_test(test_model_trace_op_same_name_in_two_graphs_never_confused),
		cmocka_unit_test(test_model_trace_type_fills_placeholder_without_on_op),
		cmocka_unit_test(test_model_details_move_decoded_fields_and_resolve_stack),
		cmocka_unit_test(test_model_execution_type_after_op),
		cmocka_unit_test(test_model_detail_of_op_without_stack_is_empty),
		cmocka_unit_test(test_model_problems_count_torn_and_missing_apart),
		cmocka_unit_test(test_model_torn_tail_alone_is_not_a_problem),
		cmocka_unit_test(test_model_torn_tail_completed_later_clears_torn_files),
		cmocka_unit_test(test_model_meta_lists_and_scalars),
		cmocka_unit_test(test_model_meta_scalar_changed_by_a_later_pass),
		cmocka_unit_test(test_model_hosts_without_meta_come_from_files),
		cmocka_unit_test(test_model_frames_resolve_after_ops),
		cmocka_unit_test(test_model_source_suffix_lookup_and_lines_once),
		cmocka_unit_test(test_model_source_load_disk_remaps_by_root),
		cmocka_unit_test(test_model_user_code_is_the_readers_mark),
		cmocka_unit_test(test_model_partial_source_marks_known_lines_and_loads_from),
		cmocka_unit_test(test_model_steps_of_executions_and_traces),
		cmocka_unit_test(test_model_follow_refresh_appends_rows),
		cmocka_unit_test(test_model_row_storage_under_8_bytes_per_row),
		cmocka_unit_test(test_model_queries_while_indexing_see_growing_prefix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
