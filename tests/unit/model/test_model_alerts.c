/*
 * test_model_alerts.c - NaN/Inf alerts as InfNanMonitor computes them,
 * their groups, execution containers, overflow alerts and the first
 * non-finite tensor, over a scripted in-memory reader.
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

static void
ops(struct fake *f)
{
	fake_op(f, "g", "Log", "Log", NULL, NULL);
	fake_op(f, "g", "add", "AddV2", NULL, NULL);
	fake_op(f, "g", "relu", "Relu", NULL, NULL);
}

static void
test_alerts_curt_health_counts_are_null(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_curt_health(false), bad = fake_curt_health(true);
	struct model_alert a;
	struct model *m;

	(void)state;
	ops(f);
	fake_trace(f, 1, "g", "relu", 0, 1, &ok);
	fake_trace(f, 1, "g", "Log", 0, 2, &bad);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_alert_count(m), 1);
	assert_int_equal(model_alert_get(m, 0, &a), TD_OK);
	assert_string_equal(a.kind, "InfNan");
	assert_int_equal(a.source, TABLE_TRACES);
	assert_int_equal(a.index, 1);
	assert_string_equal(a.op_type, "Log");
	assert_string_equal(a.op_name, "Log");
	assert_false(a.summary.known & (SUM_NAN | SUM_NEG_INF | SUM_POS_INF | SUM_ELEMENTS));
	assert_true(a.summary.has_inf_or_nan);
	assert_int_equal(model_alert_get(m, 1, &a), TD_ERR_RANGE);
	model_close(m);
	fake_free(f);
}

static void
test_alerts_full_health_counts_come_from_the_row(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = fake_full_health(1000, 1, 0, 0);
	struct model_alert a;
	struct model *m;

	(void)state;
	ops(f);
	fake_trace(f, 1, "g", "Log", 3, 2, &bad);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_alert_get(m, 0, &a), TD_OK);
	assert_true(a.summary.known & SUM_NEG_INF);
	assert_int_equal(a.summary.neg_inf, 1);
	assert_int_equal(a.summary.nan, 0);
	assert_int_equal(a.summary.elements, 1000);
	assert_int_equal(a.slot, 3);
	model_close(m);
	fake_free(f);
}

static void
test_alerts_execution_with_two_bad_outputs_gives_two(void **state)
{
	struct fake *f = fake_new();
	struct td_summary outs[3] = {
		fake_full_health(4, 0, 0, 2), fake_full_health(4, 0, 0, 0), fake_full_health(4, 0, 1, 0),
	};
	struct td_summary bad = fake_full_health(9, 0, 0, 9);
	struct model_execution x;
	struct model_alert a;
	struct model *m;

	(void)state;
	ops(f);
	fake_exec(f, 2, "Unpack", NULL, "h", 5, outs, 3);
	fake_trace(f, 1, "g", "add", 0, 2, &bad);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_alert_count(m), 3);
	/* traces first, then executions, as InfNanMonitor's load order */
	assert_int_equal(model_alert_get(m, 0, &a), TD_OK);
	assert_int_equal(a.source, TABLE_TRACES);
	assert_int_equal(model_alert_get(m, 1, &a), TD_OK);
	assert_int_equal(a.source, TABLE_EXECUTIONS);
	assert_int_equal(a.index, 0);
	assert_int_equal(a.slot, 0);
	assert_int_equal(a.summary.nan, 2);
	assert_string_equal(a.op_type, "Unpack");
	assert_int_equal(model_alert_get(m, 2, &a), TD_OK);
	assert_int_equal(a.slot, 2);
	assert_int_equal(a.summary.pos_inf, 1);
	assert_int_equal(model_execution_get(m, 0, &x), TD_OK);
	assert_int_equal(x.bad_outputs, 2);
	assert_true(x.flags & ROW_NONFINITE);
	model_close(m);
	fake_free(f);
}

static void
test_alerts_groups_by_type_in_order_of_first_appearance(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = fake_curt_health(true), ok = fake_curt_health(false);
	struct td_summary out = fake_full_health(1, 1, 0, 0);
	struct model_alert_group g[8];
	struct model *m;
	size_t n;

	(void)state;
	ops(f);
	fake_exec(f, 2, "Relu", NULL, "h", 1, &out, 1);
	fake_trace(f, 1, "g", "add", 0, 1, &bad);       /* alert 0 */
	fake_trace(f, 1, "g", "relu", 0, 1, &ok);
	fake_trace(f, 1, "g", "Log", 0, 1, &bad);       /* alert 1 */
	fake_trace(f, 1, "g", "add", 0, 1, &bad);       /* alert 2 */
	fake_exec(f, 2, "Log", NULL, "h", 1, &out, 1);
	fake_overflow(f, "relu", 0, "overflow in Relu");
	m = fake_model_open(f, NULL);
	assert_int_equal(model_alert_count(m), 6);
	n = model_alert_groups(m, g, 8);
	assert_int_equal(n, 4);
	assert_string_equal(g[0].op_type, "AddV2");
	assert_int_equal(g[0].count, 2);
	assert_int_equal(g[0].first, 0);
	assert_string_equal(g[1].op_type, "Log");
	assert_int_equal(g[1].count, 2);            /* a trace and an execution */
	assert_int_equal(g[1].first, 1);
	assert_string_equal(g[2].op_type, "Relu");
	assert_string_equal(g[2].kind, "InfNan");
	assert_int_equal(g[2].first, 3);
	assert_string_equal(g[3].kind, "Overflow");
	assert_string_equal(g[3].op_type, "Relu");
	assert_int_equal(g[3].first, 5);
	assert_int_equal(model_alert_next_in_group(m, 0, 1), 2);
	assert_int_equal(model_alert_next_in_group(m, 2, -1), 0);
	assert_int_equal(model_alert_next_in_group(m, 2, 1), -1);
	assert_int_equal(model_alert_next_in_group(m, 1, 1), 4);
	assert_int_equal(model_alert_next_in_group(m, 4, -1), 1);
	assert_int_equal(model_alert_next_in_group(m, 3, 1), -1);
	model_close(m);
	fake_free(f);
}

static void
test_alerts_groups_follow_a_late_op_type(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = fake_curt_health(true);
	struct model_alert_group g[4];
	struct model *m;

	(void)state;
	ops(f);
	fake_trace(f, 1, "g", "late", 0, 1, &bad);      /* op not described yet */
	fake_trace(f, 1, "g", "add", 0, 1, &bad);
	fake_trace(f, 1, "g", "late", 0, 1, &bad);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_alert_groups(m, g, 4), 2);
	assert_string_equal(g[0].op_type, "");
	fake_op(f, "g", "late", "Sqrt", NULL, NULL);
	model_refresh(m);
	assert_int_equal(model_alert_groups(m, g, 4), 2);
	assert_string_equal(g[0].op_type, "Sqrt");
	assert_int_equal(g[0].count, 2);
	assert_int_equal(g[0].first, 0);
	assert_string_equal(g[1].op_type, "AddV2");
	assert_int_equal(model_alert_next_in_group(m, 0, 1), 2);
	model_close(m);
	fake_free(f);
}

/* Two typeless ops alert (alerts 0 and 1, group ""), then the first gets
 * its type: the "" group left over starts at alert 1, not 0. */
static void
test_alerts_group_left_by_a_typed_placeholder_starts_at_its_own_first(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = fake_curt_health(true);
	struct model_alert_group g[4];
	struct model *m;

	(void)state;
	fake_trace(f, 1, "g", "p1", 0, 1, &bad);
	fake_trace(f, 1, "g", "p2", 0, 1, &bad);
	fake_trace(f, 1, "g", "p1", 0, 1, &bad);
	fake_op(f, "g", "p1", "Log", NULL, NULL);       /* same pass, after its alerts */
	m = fake_model_open(f, NULL);
	assert_int_equal(model_alert_groups(m, g, 4), 2);
	assert_string_equal(g[0].op_type, "Log");
	assert_int_equal(g[0].count, 2);
	assert_int_equal(g[0].first, 0);
	assert_string_equal(g[1].op_type, "");
	assert_int_equal(g[1].count, 1);
	assert_int_equal(g[1].first, 1);
	assert_int_equal(model_alert_next_in_group(m, 0, 1), 2);
	model_close(m);
	fake_free(f);
}

static void
test_alerts_overflow_alert_fields(void **state)
{
	struct fake *f = fake_new();
	struct model_alert a;
	struct model *m;

	(void)state;
	ops(f);
	fake_overflow(f, "add", 7, "float16 overflow");
	m = fake_model_open(f, NULL);
	assert_int_equal(model_alert_count(m), 1);
	assert_int_equal(model_alert_get(m, 0, &a), TD_OK);
	assert_string_equal(a.kind, "Overflow");
	assert_string_equal(a.op_name, "add");
	assert_string_equal(a.op_type, "AddV2");
	assert_int_equal(a.index, 7);
	assert_string_equal(a.detail, "float16 overflow");
	model_close(m);
	fake_free(f);
}

static void
test_alerts_containers_mark_executions_not_alert(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = fake_full_health(2, 0, 0, 1), ok = fake_full_health(2, 0, 0, 0);
	struct model_execution x;
	struct model_trace row;
	struct model_link *l;
	struct model *m;

	(void)state;
	fake_op(f, "g", "x", "Const", NULL, NULL);
	fake_op(f, "g", "y", "Log", (const char *[]){"x", NULL}, NULL);
	fake_exec(f, 2, "run 0", NULL, "h", 1, NULL, 0);
	fake_exec(f, 2, "run 1", NULL, "h", 2, NULL, 0);
	fake_trace_ex(f, 1, "g", "x", 0, 1, &ok, 0, false);
	fake_trace_ex(f, 1, "g", "y", 0, 1, &ok, 0, false);
	fake_trace_ex(f, 1, "g", "y", 0, 2, &bad, 1, false);    /* run 1 has no x */
	fake_trace_ex(f, 1, "g", "x", 0, 2, &ok, 1, true);      /* an input row */
	fake_break(f, 1, fake_trace_ex(f, 1, "g", "x", 0, 3, &ok, 1, false));
	m = fake_model_open(f, NULL);
	assert_int_equal(model_alert_count(m), 1);
	assert_int_equal(model_execution_get(m, 1, &x), TD_OK);
	assert_true(x.flags & ROW_CONTAINS_NONFINITE);
	assert_false(x.flags & ROW_NONFINITE);
	assert_int_equal(x.first_trace, 2);
	assert_int_equal(x.ntraces, 3);
	assert_false(x.flags & ROW_CORRUPT);
	assert_int_equal(model_trace_get(m, 4, &row), TD_OK);
	assert_true(row.flags & ROW_CORRUPT);
	assert_int_equal(model_execution_get(m, 1, &x), TD_OK);
	assert_true(x.flags & ROW_CORRUPT);         /* the error rolls up */
	assert_int_equal(model_execution_get(m, 0, &x), TD_OK);
	assert_false(x.flags & ROW_CONTAINS_NONFINITE);
	assert_int_equal(model_trace_get(m, 2, &row), TD_OK);
	assert_int_equal(row.execution, 1);
	assert_int_equal(model_trace_get(m, 3, &row), TD_OK);
	assert_true(row.flags & ROW_INPUT);
	/* y in run 1: its input x ran only in run 0 -> no link across runs */
	assert_int_equal(model_trace_inputs(m, 2, &l), 1);
	assert_int_equal(l[0].trace_index, -1);
	free(l);
	assert_int_equal(model_trace_inputs(m, 1, &l), 1);
	assert_int_equal(l[0].trace_index, 0);
	free(l);
	model_close(m);
	fake_free(f);
}

static void
test_links_and_filters_stay_in_interleaved_executions(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(2, 0, 0, 0);
	struct model_filter_spec spec = {.graph = -1, .execution = 0};
	struct model_filter *fl;
	struct model_link *l;
	struct model *m;
	char err[128];

	(void)state;
	fake_op(f, "g", "x", "Const", NULL, NULL);
	fake_op(f, "g", "y", "Log", (const char *[]){"x", NULL}, NULL);
	fake_exec(f, 2, "rank 0 run", NULL, "r0", 1, NULL, 0);
	fake_exec(f, 2, "rank 1 run", NULL, "r1", 1, NULL, 0);
	fake_trace_ex(f, 1, "g", "x", 0, 1, &ok, 0, false);     /* 0 */
	fake_trace_ex(f, 1, "g", "x", 0, 1, &ok, 1, false);     /* 1 */
	fake_trace_ex(f, 1, "g", "y", 0, 1, &ok, 0, false);     /* 2 */
	fake_trace_ex(f, 1, "g", "y", 0, 1, &ok, 1, false);     /* 3 */
	m = fake_model_open(f, NULL);
	assert_int_equal(model_trace_inputs(m, 2, &l), 1);
	assert_int_equal(l[0].trace_index, 0);
	free(l);
	assert_int_equal(model_trace_inputs(m, 3, &l), 1);
	assert_int_equal(l[0].trace_index, 1);
	free(l);
	assert_int_equal(model_trace_consumers(m, 0, &l), 1);
	assert_int_equal(l[0].trace_index, 2);
	free(l);
	assert_int_equal(model_filter_new(m, &spec, &fl, err, sizeof err), TD_OK);
	assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), 2);
	assert_int_equal(model_filter_nth(m, fl, TABLE_TRACES, 1), 2);
	model_filter_free(fl);
	model_close(m);
	fake_free(f);
}

static void
test_first_nonfinite_smallest_wall_time_across_file_segments(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = fake_full_health(3, 0, 0, 1), ok = fake_full_health(3, 0, 0, 0);
	struct td_summary out = fake_full_health(1, 1, 0, 0);
	struct model_alert a;
	struct model *m;

	(void)state;
	ops(f);
	fake_trace(f, 1, "g", "relu", 0, 150, &ok);
	fake_trace(f, 1, "g", "add", 0, 200, &bad);     /* host 1's first: t=200 */
	fake_trace(f, 1, "g", "add", 0, 90, &bad);      /* not a segment's first */
	fake_trace(f, 2, "g", "relu", 0, 50, &ok);
	fake_trace(f, 2, "g", "Log", 1, 100, &bad);     /* host 2's first: t=100 */
	fake_exec(f, 3, "Relu", NULL, "h", 120, &out, 1);
	m = fake_model_open(f, NULL);
	assert_true(model_first_nonfinite(m, &a));
	assert_int_equal(a.source, TABLE_TRACES);
	assert_int_equal(a.index, 4);
	assert_string_equal(a.op_name, "Log");
	assert_int_equal(a.slot, 1);
	assert_int_equal(a.summary.nan, 1);
	model_close(m);
	fake_free(f);
}

static void
test_first_nonfinite_files_of_one_host_are_one_segment(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = fake_full_health(3, 0, 0, 1);
	struct model_alert a;
	struct model *m;

	(void)state;
	ops(f);
	fake_file(f, 1, "run0/a.npy", "rank0");
	fake_file(f, 2, "run0/b.npy", "rank0");
	fake_trace(f, 1, "g", "add", 0, 200, &bad);     /* rank 0's first in row order */
	fake_trace(f, 2, "g", "Log", 0, 100, &bad);     /* same rank: not a candidate */
	m = fake_model_open(f, NULL);
	assert_true(model_first_nonfinite(m, &a));
	assert_int_equal(a.index, 0);
	model_close(m);
	fake_free(f);
}

static void
test_first_nonfinite_known_time_beats_unknown(void **state)
{
	struct fake *f = fake_new();
	struct td_summary bad = fake_full_health(3, 0, 0, 1);
	struct td_summary outs[2] = {fake_full_health(1, 0, 0, 0), fake_full_health(1, 1, 0, 0)};
	struct model_alert a;
	struct model *m;

	(void)state;
	ops(f);
	fake_trace(f, 1, "g", "add", 0, 0, &bad);       /* time unknown */
	fake_exec(f, 3, "Relu", NULL, "h", 120, outs, 2);
	m = fake_model_open(f, NULL);
	assert_true(model_first_nonfinite(m, &a));
	assert_int_equal(a.source, TABLE_EXECUTIONS);
	assert_int_equal(a.index, 0);
	assert_int_equal(a.slot, 1);
	assert_int_equal(a.summary.neg_inf, 1);
	model_close(m);
	fake_free(f);
}

static void
test_first_nonfinite_none(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(3, 0, 0, 0);
	struct model_alert a;
	struct model *m;

	(void)state;
	ops(f);
	fake_trace(f, 1, "g", "add", 0, 1, &ok);
	m = fake_model_open(f, NULL);
	assert_false(model_first_nonfinite(m, &a));
	assert_int_equal(model_alert_count(m), 0);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alerts_curt_health_counts_are_null),
		cmocka_unit_test(test_alerts_full_health_counts_come_from_the_row),
		cmocka_unit_test(test_alerts_execution_with_two_bad_outputs_gives_two),
		cmocka_unit_test(test_alerts_groups_by_type_in_order_of_first_appearance),
		cmocka_unit_test(test_alerts_groups_follow_a_late_op_type),
		cmocka_unit_test(test_alerts_group_left_by_a_typed_placeholder_starts_at_its_own_first),
		cmocka_unit_test(test_alerts_overflow_alert_fields),
		cmocka_unit_test(test_alerts_containers_mark_executions_not_alert),
		cmocka_unit_test(test_links_and_filters_stay_in_interleaved_executions),
		cmocka_unit_test(test_first_nonfinite_smallest_wall_time_across_file_segments),
		cmocka_unit_test(test_first_nonfinite_files_of_one_host_are_one_segment),
		cmocka_unit_test(test_first_nonfinite_known_time_beats_unknown),
		cmocka_unit_test(test_first_nonfinite_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
