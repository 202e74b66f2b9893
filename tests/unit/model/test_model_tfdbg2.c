/*
 * test_model_tfdbg2.c - the model over the tfdbg v2 reader on the bundled
 * fixtures.  Expected values are the facts written in
 * tests/fixtures/tfdbg2/README.md (the TensorBoard tutorial's story), not
 * tdbg's own earlier output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"

#define FIX "tests/fixtures/tfdbg2"

static struct model *
open_dump(const char *dir, bool thread)
{
	struct model_options opt = {.no_thread = !thread};
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(dir, &opt, &m, err, sizeof err), TD_OK);
	model_wait(m);
	return m;
}

static void
test_tfdbg2_mnist_counts(void **state)
{
	struct model *m = open_dump(FIX "/mnist_nan", true);
	struct model_info info;

	(void)state;
	model_info(m, &info);
	assert_string_equal(info.format, "tfdbg2");
	assert_string_equal(info.tensor_debug_mode, "FULL_HEALTH");
	assert_int_equal(info.executions, 224);
	assert_int_equal(info.traces, 680);
	assert_int_equal(info.nhosts, 1);
	assert_string_equal(info.hosts[0], "tfdbg-host-a");
	assert_int_equal(info.corrupt_records, 0);
	assert_int_equal(info.torn_files, 0);
	assert_true(model_graph_find(m, "model") >= 0);
	assert_true(model_graph_find(m, "loss") >= 0);
	model_close(m);
}

static void
test_tfdbg2_mnist_first_nonfinite_is_log_row_88(void **state)
{
	struct model *m = open_dump(FIX "/mnist_nan", false);
	struct model_alert a;

	(void)state;
	assert_true(model_first_nonfinite(m, &a));
	assert_int_equal(a.source, TABLE_TRACES);
	assert_int_equal(a.index, 88);
	assert_string_equal(a.op_name, "Log");
	assert_string_equal(a.op_type, "Log");
	assert_int_equal(a.slot, 0);
	assert_int_equal(a.summary.neg_inf, 1);
	assert_int_equal(a.summary.nan, 0);
	assert_int_equal(a.summary.elements, 1000);
	/* the first alert in load order is the same row */
	assert_int_equal(model_alert_get(m, 0, &a), TD_OK);
	assert_int_equal(a.index, 88);
	model_close(m);
}

static void
test_tfdbg2_mnist_log_input_is_probs_three_rows_above(void **state)
{
	struct model *m = open_dump(FIX "/mnist_nan", false);
	struct model_trace row;
	struct model_link *l;
	size_t n, k;
	bool found = false;

	(void)state;
	n = model_trace_inputs(m, 88, &l);
	assert_int_equal(n, 1);                 /* only input probs:0 */
	for (k = 0; k < n; k++) {
		if (strcmp(l[k].op_name, "probs") == 0) {
			found = true;
			assert_int_equal(l[k].slot, 0);
			assert_int_equal(l[k].trace_index, 85);
			assert_string_equal(l[k].op_type, "Placeholder");
		}
	}
	free(l);
	assert_true(found);
	assert_int_equal(model_trace_get(m, 85, &row), TD_OK);
	assert_string_equal(row.op_name, "probs");
	assert_string_equal(row.graph_name, "loss");
	assert_int_equal(row.summary.elements, 1000);
	assert_int_equal(row.summary.zero, 1);
	assert_int_equal(row.summary.positive, 999);
	assert_false(row.flags & ROW_NONFINITE);
	/* and Log is among probs' consumers, produced at row 88 */
	n = model_trace_consumers(m, 85, &l);
	found = false;
	for (k = 0; k < n; k++)
		if (strcmp(l[k].op_name, "Log") == 0 && l[k].trace_index == 88)
			found = true;
	free(l);
	assert_true(found);
	model_close(m);
}

static void
test_tfdbg2_mnist_log_stack_reaches_line_216(void **state)
{
	struct model *m = open_dump(FIX "/mnist_nan", false);
	const char *const *lines;
	struct model_trace row;
	struct model_frame fr;
	struct model_op op;
	size_t k, n;
	bool found = false;

	(void)state;
	assert_int_equal(model_trace_get(m, 88, &row), TD_OK);
	assert_true(model_op_get(m, row.op, &op));
	assert_true(op.nstack > 0);
	for (k = 0; k < op.nstack; k++) {
		assert_true(model_frame_get(m, op.stack[k], &fr));
		if (strstr(fr.file, "debug_mnist_v2.py") && fr.line == 216) {
			found = true;
			assert_string_equal(fr.func, "loss");
			assert_true(fr.user_code);      /* under /examples/ */
			assert_true(fr.source >= 0);
			assert_int_equal(model_source_lines(m, (uint32_t)fr.source, &lines, &n), TD_OK);
			assert_true(n >= 216);
			assert_non_null(strstr(lines[215], "tf.math.log(probs)"));
		}
	}
	assert_true(found);
	assert_true(model_source_find(m, "debug_mnist_v2.py", NULL) >= 0);
	model_close(m);
}

static void
test_tfdbg2_mnist_nonfinite_filter_starts_at_88(void **state)
{
	struct model *m = open_dump(FIX "/mnist_nan", false);
	struct model_filter_spec spec = {.nonfinite = true, .graph = -1, .execution = -1};
	struct model_filter *f;
	char err[256];

	(void)state;
	assert_int_equal(model_filter_new(m, &spec, &f, err, sizeof err), TD_OK);
	assert_int_equal(model_filter_nth(m, f, TABLE_TRACES, 0), 88);
	assert_int_equal(model_filter_rank(m, f, TABLE_TRACES, 88), 0);
	model_filter_free(f);
	model_close(m);
}

static void
test_tfdbg2_torn_serves_679_traces(void **state)
{
	struct model *m = open_dump(FIX "/torn", true);
	struct model_info info;
	struct model_alert a;

	(void)state;
	model_info(m, &info);
	assert_int_equal(info.traces, 679);
	assert_int_equal(info.executions, 224);
	assert_int_equal(info.torn_files, 1);
	assert_int_equal(info.corrupt_records, 0);
	assert_false(model_has_problems(m));
	assert_true(model_first_nonfinite(m, &a));
	assert_int_equal(a.index, 88);
	model_close(m);
}

#define TF2_FILES "tfdbg_events.1586979375.tfdbg-host-a."

/* Copies FIX/from/TF2_FILES<suffix> to dir (a temporary copy, writable). */
static void
copy_file(const char *from, const char *dir, const char *suffix)
{
	char src[512], dst[512], buf[65536];
	FILE *in, *out;
	size_t n;

	snprintf(src, sizeof src, FIX "/%s/" TF2_FILES "%s", from, suffix);
	snprintf(dst, sizeof dst, "%s/" TF2_FILES "%s", dir, suffix);
	in = fopen(src, "rb");
	out = fopen(dst, "wb");
	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/* Follow mode: the writer completes the torn last trace (torn/ is mnist_nan
 * with its traces file cut 100 bytes short): the next pass serves row 680
 * and torn_files drops back to 0. */
static void
test_tfdbg2_torn_tail_completed_later_is_no_longer_torn(void **state)
{
	static const char *const sfx[] = {"execution", "graph_execution_traces", "graphs",
					  "metadata", "source_files", "stack_frames"};
	char dir[] = "/tmp/tdbg-test-torn-XXXXXX", path[512];
	struct model_info info;
	struct model *m;
	size_t k;

	(void)state;
	assert_non_null(mkdtemp(dir));
	for (k = 0; k < sizeof sfx / sizeof sfx[0]; k++)
		copy_file("torn", dir, sfx[k]);
	m = open_dump(dir, true);
	model_info(m, &info);
	assert_int_equal(info.traces, 679);
	assert_int_equal(info.torn_files, 1);
	copy_file("mnist_nan", dir, "graph_execution_traces");
	model_refresh(m);
	model_wait(m);
	model_info(m, &info);
	assert_int_equal(info.traces, 680);
	assert_int_equal(info.torn_files, 0);
	assert_int_equal(info.corrupt_records, 0);
	model_close(m);
	for (k = 0; k < sizeof sfx / sizeof sfx[0]; k++) {
		snprintf(path, sizeof path, "%s/" TF2_FILES "%s", dir, sfx[k]);
		unlink(path);
	}
	rmdir(dir);
}

static void
test_tfdbg2_health_modes_find_log(void **state)
{
	static const char *const modes[] = { "curt_health", "concise_health" };
	struct model_alert a;
	char dir[128];
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct model *m;

		snprintf(dir, sizeof dir, FIX "/modes/%s", modes[i]);
		m = open_dump(dir, false);
		assert_true(model_first_nonfinite(m, &a));
		assert_string_equal(a.op_type, "Log");
		if (i == 0)     /* CURT_HEALTH carries no counts */
			assert_false(a.summary.known & SUM_NEG_INF);
		else
			assert_int_equal(a.summary.neg_inf, 1);
		model_close(m);
	}
}

static void
test_tfdbg2_shape_and_no_tensor_have_no_alerts(void **state)
{
	static const char *const modes[] = { "shape", "no_tensor" };
	struct model_alert a;
	char dir[128];
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct model *m;

		snprintf(dir, sizeof dir, FIX "/modes/%s", modes[i]);
		m = open_dump(dir, false);
		assert_true(model_trace_count(m) > 0);
		assert_int_equal(model_alert_count(m), 0);
		assert_false(model_first_nonfinite(m, &a));
		model_close(m);
	}
}

/* The TUI's pattern: read rows, alerts and links while the index runs. */
static void
test_tfdbg2_queries_during_the_index_pass(void **state)
{
	struct model_options opt = {0};
	struct model_progress p;
	struct model_trace row;
	struct model_alert a;
	struct model_link *l;
	struct model *m;
	char err[512];
	uint64_t n;

	(void)state;
	assert_int_equal(model_open(FIX "/mnist_nan", &opt, &m, err, sizeof err), TD_OK);
	do {
		model_progress(m, &p);
		n = model_trace_count(m);
		if (n) {
			assert_int_equal(model_trace_get(m, n - 1, &row), TD_OK);
			assert_false(row.flags & ROW_CORRUPT);
			model_trace_inputs(m, n - 1, &l);
			free(l);
		}
		if (model_alert_count(m))
			assert_int_equal(model_alert_get(m, 0, &a), TD_OK);
	} while (!p.done);
	model_wait(m);
	assert_int_equal(model_trace_count(m), 680);
	assert_true(model_first_nonfinite(m, &a));
	assert_int_equal(a.index, 88);
	model_close(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg2_mnist_counts),
		cmocka_unit_test(test_tfdbg2_mnist_first_nonfinite_is_log_row_88),
		cmocka_unit_test(test_tfdbg2_mnist_log_input_is_probs_three_rows_above),
		cmocka_unit_test(test_tfdbg2_mnist_log_stack_reaches_line_216),
		cmocka_unit_test(test_tfdbg2_mnist_nonfinite_filter_starts_at_88),
		cmocka_unit_test(test_tfdbg2_torn_serves_679_traces),
		cmocka_unit_test(test_tfdbg2_torn_tail_completed_later_is_no_longer_torn),
		cmocka_unit_test(test_tfdbg2_health_modes_find_log),
		cmocka_unit_test(test_tfdbg2_shape_and_no_tensor_have_no_alerts),
		cmocka_unit_test(test_tfdbg2_queries_during_the_index_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
