/*
 * test_tfdbg1_dirs.c - the tfdbg v1 reader on small dump trees written by
 * the test into a temporary directory: run ordering by (<us>, counter),
 * collisions and several devices in one run, plain and legacy dump roots,
 * follow mode, uninitialised tensors, and bad files that are reported while
 * the rest of the dump is kept (reader/tfdbg1/FORMAT.md).
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
#include <sys/stat.h>
#include <unistd.h>

#include "reader/reader.h"
#include "reader/tfdbg1/tfdbg1_internal.h"
#include "tf_event.pb-c.h"

#include "test_tfdbg1_record.h"
#include "tests/unit/helpers/files.h"

#define CPU0 "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0"
#define GPU0 "_tfdbg_device_,job_localhost,replica_0,task_0,device_GPU_0"

/* ---- writing a dump tree ------------------------------------------- */

static void
mkdirs(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
	free(p);
}

static void
write_bytes(const char *root, const char *rel, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", root, rel);
	char *slash = strrchr(path, '/');
	FILE *f;

	*slash = '\0';
	mkdirs(path);
	*slash = '/';
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	free(path);
}

/* A DebugIdentity dump of float32 [2] = {v0, 1}; no data when !init. */
static void
write_dump(const char *root, const char *rel, float v0, bool init)
{
	Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
	Tensorflow__TensorShapeProto sh = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;
	Tensorflow__TensorShapeProto__Dim dim = TENSORFLOW__TENSOR_SHAPE_PROTO__DIM__INIT;
	Tensorflow__TensorShapeProto__Dim *dims[1] = { &dim };
	Tensorflow__Summary__Value val = TENSORFLOW__SUMMARY__VALUE__INIT;
	Tensorflow__Summary__Value *vals[1] = { &val };
	Tensorflow__Summary sum = TENSORFLOW__SUMMARY__INIT;
	Tensorflow__Event ev = TENSORFLOW__EVENT__INIT;
	float v[2] = { v0, 1.0f };
	uint8_t buf[256];
	size_t len;

	dim.size = 2;
	sh.n_dim = 1;
	sh.dim = dims;
	tp.dtype = 1;
	tp.tensor_shape = &sh;
	if (init) {
		tp.tensor_content.data = (uint8_t *)v;
		tp.tensor_content.len = sizeof(v);
	}
	val.tag = "x";
	val.value_case = TENSORFLOW__SUMMARY__VALUE__VALUE_TENSOR;
	val.tensor = &tp;
	sum.n_value = 1;
	sum.value = vals;
	ev.what_case = TENSORFLOW__EVENT__WHAT_SUMMARY;
	ev.summary = &sum;
	len = tensorflow__event__pack(&ev, buf);
	write_bytes(root, rel, buf, len);
}

static void
write_log(const char *root, const char *rel, const char *msg)
{
	Tensorflow__Event ev = TENSORFLOW__EVENT__INIT;
	Tensorflow__LogMessage lm = TENSORFLOW__LOG_MESSAGE__INIT;
	uint8_t buf[512];
	size_t len;

	lm.message = (char *)msg;
	ev.what_case = TENSORFLOW__EVENT__WHAT_LOG_MESSAGE;
	ev.log_message = &lm;
	len = tensorflow__event__pack(&ev, buf);
	write_bytes(root, rel, buf, len);
}

static int
tree_setup(void **state)
{
	*state = test_tmpdir("tfdbg1");
	return 0;
}

static int
tree_teardown(void **state)
{
	test_rmtree(*state);
	return 0;
}

static size_t
count_problems(const struct rec *r, enum reader_problem_kind kind)
{
	size_t i, n = 0;

	for (i = 0; i < r->nproblems; i++)
		n += r->problems[i].kind == kind;
	return n;
}

/* ---- tests ----------------------------------------------------------- */

static void
test_tfdbg1_dirs_runs_sorted_by_us_then_counter(void **state)
{
	const char *root = *state;
	struct reader *r;
	struct rec rec;

	/* numeric order: 50 < 100, and counter 2 < 10 (not "10" < "2") */
	write_dump(root, "run_100_10/" CPU0 "/a_0_DebugIdentity_300", 3, true);
	write_dump(root, "run_100_2/" CPU0 "/a_0_DebugIdentity_200", 2, true);
	write_dump(root, "run_50_3/" CPU0 "/a_0_DebugIdentity_100", 1, true);
	r = index_dir(root, &rec);
	assert_int_equal(rec.nexecs, 3);
	assert_string_equal(rec.execs[0].op_type, "Session.run #3");
	assert_string_equal(rec.execs[1].op_type, "Session.run #2");
	assert_string_equal(rec.execs[2].op_type, "Session.run #10");
	assert_int_equal(rec.ntraces, 3);
	assert_int_equal(rec.traces[0].execution, 0);
	assert_true(fabs(rec.traces[0].wall_time - 100e-6) < 1e-9);
	assert_int_equal(rec.traces[2].execution, 2);
	assert_true(fabs(rec.traces[2].wall_time - 300e-6) < 1e-9);
	assert_string_equal(rec.traces[1].graph_id,
			    "run_100_2/job:localhost/replica:0/task:0/device:CPU:0");
	/* the step is the run counter, not the row */
	assert_int_equal(rec.execs[0].step, 3);
	assert_int_equal(rec.execs[1].step, 2);
	assert_int_equal(rec.execs[2].step, 10);
	assert_int_equal(rec.traces[0].step, 3);
	assert_int_equal(rec.traces[1].step, 2);
	assert_int_equal(rec.traces[2].step, 10);
	tfdbg1_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_tfdbg1_dirs_collisions_and_devices_in_time_order(void **state)
{
	const char *root = *state;
	struct reader *r;
	struct rec rec;

	write_dump(root, CPU0 "/a_0_DebugIdentity_100-1", 2, true);
	write_dump(root, CPU0 "/a_0_DebugIdentity_100", 1, true);
	write_dump(root, GPU0 "/b_0_DebugIdentity_99", 0, true);
	write_dump(root, GPU0 "/c/d_1_DebugIdentity_101", 0, true);
	assert_true(tfdbg1_reader_ops.probe(root) > 0);
	r = index_dir(root, &rec);
	assert_true(rec_has_meta(&rec, "layout=dump root"));
	assert_true(rec_has_meta(&rec, "runs=1"));
	assert_int_equal(rec.nexecs, 1);
	assert_string_equal(rec.execs[0].op_type, "Session.run");
	assert_int_equal(rec.ndevices, 2);
	assert_int_equal(rec.ngraphs, 2);
	assert_int_equal(rec.ntraces, 4);
	assert_string_equal(rec.traces[0].op_name, "b");
	assert_string_equal(rec.traces[1].op_name, "a");
	assert_true(rec.traces[1].summary.min == 1);     /* collision 0 first */
	assert_string_equal(rec.traces[2].op_name, "a");
	assert_true(rec.traces[2].summary.min == 1 && rec.traces[2].summary.positive == 2);
	assert_string_equal(rec.traces[3].op_name, "c/d");
	assert_int_equal(rec.traces[3].slot, 1);
	assert_null(rec.traces[3].op_type);              /* no partition graph */
	assert_true(strstr(rec.traces[0].graph_id, "device:GPU:0") != NULL);
	tfdbg1_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_tfdbg1_dirs_collision_detail_names_it(void **state)
{
	const char *root = *state;
	struct reader_detail d;
	struct reader *r;
	struct rec rec;

	write_dump(root, CPU0 "/a_0_DebugIdentity_100", 1, true);
	write_dump(root, CPU0 "/a_0_DebugIdentity_100-1", 2, true);
	r = index_dir(root, &rec);
	assert_int_equal(tfdbg1_reader_ops.decode(r, READER_TRACE, &rec.traces[1].loc, &d), TD_OK);
	assert_non_null(strstr(d.text, "collision index: 1\n"));
	assert_true(td_tensor_get(d.values[0], 0) == 2.0);
	reader_detail_done(&d);
	tfdbg1_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_tfdbg1_dirs_bad_files_reported_rest_kept(void **state)
{
	const char *root = *state;
	const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01 };
	struct reader_detail d;
	struct reader *r;
	struct rec rec;
	char *link;

	write_dump(root, CPU0 "/good_0_DebugIdentity_10", 5, true);
	write_bytes(root, CPU0 "/bad_0_DebugIdentity_20", junk, sizeof(junk));
	write_bytes(root, CPU0 "/README", "x", 1);
	write_bytes(root, CPU0 "/_tfdbg_graph_hash1_5", junk, sizeof(junk));
	write_bytes(root, "_tfdbg_core_metadata_sessionrun00000000000001_7", junk, sizeof(junk));
	link = xasprintf("%s/%s/gone_0_DebugIdentity_30", root, CPU0);
	assert_int_equal(symlink("/nonexistent/tdbg-test-target", link), 0);
	free(link);
	r = index_dir(root, &rec);
	assert_int_equal(count_problems(&rec, PROBLEM_MISSING_FILE), 1);
	assert_int_equal(count_problems(&rec, PROBLEM_UNPARSED_NAME), 1);
	assert_int_equal(count_problems(&rec, PROBLEM_DECODE_ERROR), 3);  /* dump, graph, metadata */
	assert_int_equal(rec.nexecs, 1);
	assert_int_equal(rec.ntraces, 2);
	assert_string_equal(rec.traces[0].op_name, "good");
	assert_int_equal(rec.traces[0].summary.positive, 2);
	/* the bad dump keeps its row, with nothing known, and fails to decode */
	assert_string_equal(rec.traces[1].op_name, "bad");
	assert_int_equal(rec.traces[1].summary.known, 0);
	assert_int_equal(tfdbg1_reader_ops.decode(r, READER_TRACE, &rec.traces[1].loc, &d),
			 TD_ERR_DECODE);
	reader_detail_done(&d);
	assert_int_equal(tfdbg1_reader_ops.decode(r, READER_TRACE, &rec.traces[0].loc, &d), TD_OK);
	reader_detail_done(&d);
	assert_int_equal(rec.nops, 0);
	tfdbg1_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_tfdbg1_dirs_legacy_layout_without_device_dirs(void **state)
{
	const char *root = *state;
	struct reader *r;
	struct rec rec;

	write_log(root, "_tfdbg_core_metadata_sessionrun00000000000001_7",
		  "{\"global_step\":4,\"session_run_count\":1,\"executor_step_count\":0,"
		  "\"input_names\":[],\"output_names\":[\"y:0\"],\"target_nodes\":[]}");
	write_dump(root, "scope/x_0_DebugIdentity_10", 1, true);
	assert_true(tfdbg1_reader_ops.probe(root) > 0);
	r = index_dir(root, &rec);
	assert_int_equal(rec.ntraces, 1);
	assert_string_equal(rec.traces[0].op_name, "scope/x");
	assert_int_equal(rec.execs[0].num_outputs, 1);
	assert_int_equal(rec.execs[0].step, -1);    /* no run directory: no counter */
	assert_int_equal(rec.traces[0].step, -1);
	assert_int_equal(rec.nproblems, 0);
	tfdbg1_reader_ops.close(r);
	rec_free(&rec);
}

/* A later pass on the same reader, recorded into *more. */
static void
index_again(struct reader *r, size_t nfiles, size_t nexecs, struct rec *more)
{
	struct reader_sink sink;

	memset(more, 0, sizeof(*more));
	sink = rec_sink(more);
	/* the pass goes on numbering files and executions */
	more->nfiles = nfiles;
	more->exec_base = nexecs;
	assert_int_equal(tfdbg1_reader_ops.index(r, &sink), TD_OK);
}

static void
test_tfdbg1_dirs_follow_mode_last_run_then_new_runs(void **state)
{
	const char *root = *state;
	struct reader *r;
	struct rec rec, more, none;

	write_dump(root, "run_1_0/" CPU0 "/a_0_DebugIdentity_2", 1, true);
	r = index_dir(root, &rec);
	assert_int_equal(rec.nexecs, 1);
	/* the last run grows, and a new run starts */
	write_dump(root, "run_1_0/" CPU0 "/b_0_DebugIdentity_3", 1, true);
	write_bytes(root, "run_1_0/" CPU0 "/junk", "x", 1);
	write_dump(root, "run_5_1/" CPU0 "/a_0_DebugIdentity_6", 1, true);
	write_dump(root, "run_5_1/" CPU0 "/b_0_DebugIdentity_7", 1, true);
	index_again(r, rec.nfiles, rec.nexecs, &more);
	assert_int_equal(more.ntraces, 3);
	assert_string_equal(more.traces[0].op_name, "b");   /* run 0's new dump first */
	assert_int_equal(more.traces[0].execution, 0);
	assert_int_equal(more.traces[1].execution, 1);
	assert_int_equal(more.traces[2].execution, 1);
	assert_int_equal(more.nexecs, 1);
	assert_string_equal(more.execs[0].op_type, "Session.run #1");
	assert_int_equal(count_problems(&more, PROBLEM_UNPARSED_NAME), 1);
	assert_true(rec_has_meta(&more, "runs=2"));
	/* nothing new: nothing sent, the bad name not reported again */
	index_again(r, more.nfiles, rec.nexecs + more.nexecs, &none);
	assert_int_equal(none.ntraces, 0);
	assert_int_equal(none.nexecs, 0);
	assert_int_equal(none.nproblems, 0);
	tfdbg1_reader_ops.close(r);
	rec_free(&rec);
	rec_free(&more);
	rec_free(&none);
}

static void
test_tfdbg1_dirs_uninitialized_dump_is_not_an_alert(void **state)
{
	const char *root = *state;
	struct reader_detail d;
	struct reader *r;
	struct rec rec;

	write_dump(root, CPU0 "/var_0_DebugIdentity_10", 0, false);
	r = index_dir(root, &rec);
	assert_int_equal(rec.ntraces, 1);
	assert_true(rec.traces[0].summary.known & SUM_UNINITIALIZED);
	assert_false(td_summary_nonfinite(&rec.traces[0].summary));
	assert_int_equal(tfdbg1_reader_ops.decode(r, READER_TRACE, &rec.traces[0].loc, &d), TD_OK);
	assert_null(d.values[0]);
	assert_non_null(strstr(d.text, "uninitialized"));
	reader_detail_done(&d);
	tfdbg1_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_tfdbg1_dirs_fifo_is_skipped_without_blocking(void **state)
{
	const char *root = *state;
	struct reader *r;
	struct rec rec;
	char *fifo;

	write_dump(root, CPU0 "/a_0_DebugIdentity_10", 1, true);
	fifo = xasprintf("%s/%s/f_0_DebugIdentity_20", root, CPU0);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	r = index_dir(root, &rec);
	assert_int_equal(rec.ntraces, 1);
	assert_string_equal(rec.traces[0].op_name, "a");
	tfdbg1_reader_ops.close(r);
	rec_free(&rec);
	free(fifo);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_tfdbg1_dirs_runs_sorted_by_us_then_counter,
						tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_dirs_collisions_and_devices_in_time_order,
						tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_dirs_collision_detail_names_it,
						tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_dirs_bad_files_reported_rest_kept,
						tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_dirs_legacy_layout_without_device_dirs,
						tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_dirs_follow_mode_last_run_then_new_runs,
						tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_dirs_uninitialized_dump_is_not_an_alert,
						tree_setup, tree_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_dirs_fifo_is_skipped_without_blocking,
						tree_setup, tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
