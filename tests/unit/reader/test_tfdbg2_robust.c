/*
 * test_tfdbg2_robust.c - the tfdbg v2 reader on damaged copies of the
 * mnist_nan fixture (tests/fixtures/tfdbg2, 680 traces, README facts):
 * special files in place of dump files, a length running past the end in
 * the middle of a file, a missing .source_files, and advance() stepping
 * over many records.  Each test checks the report and the good rows.
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

#include "reader/parse/crc32c.h"
#include "reader/reader.h"
#include "reader/tfdbg2/tfdbg2_internal.h"
#include "tf_debug_event.pb-c.h"
#include "tests/unit/helpers/files.h"
#include "tests/unit/helpers/record_sink.h"
#include "tests/unit/helpers/tfrecord_bytes.h"

#define FIX "tests/fixtures/tfdbg2/mnist_nan"
#define SET "tfdbg_events.1586979375.tfdbg-host-a."
#define MNIST_TRACES 680

static void
path_of(char *out, size_t len, const char *dir, const char *suffix)
{
	snprintf(out, len, "%s/" SET "%s", dir, suffix);
}

static const struct rs_problem *
problem_of(const struct record_sink *rs, enum reader_problem_kind kind)
{
	size_t i;

	for (i = 0; i < rs->nproblems; i++)
		if (rs->problems[i].kind == kind)
			return &rs->problems[i];
	return NULL;
}

/* ---- special files ------------------------------------------------------ */

static void
test_tfdbg2_fifo_in_place_of_file_is_unreadable_not_blocking(void **state)
{
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	const struct rs_problem *p;
	struct recorded ix;

	(void)state;
	path_of(path, sizeof path, dir, "execution");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, MNIST_TRACES);
	assert_int_equal(ix.rs.nexecutions, 0);
	p = problem_of(&ix.rs, PROBLEM_UNREADABLE);
	assert_non_null(p);
	assert_non_null(strstr(p->path, ".execution"));
	assert_non_null(strstr(p->detail, "FIFO"));
	assert_null(problem_of(&ix.rs, PROBLEM_MISSING_FILE));
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

static void
test_tfdbg2_directory_in_place_of_file_is_unreadable(void **state)
{
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	const struct rs_problem *p;
	struct recorded ix;

	(void)state;
	path_of(path, sizeof path, dir, "graphs");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, MNIST_TRACES);
	assert_int_equal(ix.rs.nops, 0);
	assert_int_equal(ix.rs.nproblems, 1);
	p = problem_of(&ix.rs, PROBLEM_UNREADABLE);
	assert_non_null(p);
	assert_non_null(strstr(p->path, ".graphs"));
	assert_non_null(strstr(p->detail, "directory"));
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* A FIFO as a set's metadata file: the open does not block and the file is
 * reported once, as unreadable; the set is no host, so its other files are
 * not reported missing (issue 13). */
static void
test_tfdbg2_fifo_metadata_reported_once(void **state)
{
	char *dir = test_tmpdir("tfdbg2r"), path[1024];
	struct recorded ix;

	(void)state;
	snprintf(path, sizeof path, "%s/tfdbg_events.1.h.metadata", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(record_sink_problems(&ix.rs, PROBLEM_UNREADABLE), 1);
	assert_int_equal(record_sink_problems(&ix.rs, PROBLEM_MISSING_FILE), 0);
	assert_int_equal(ix.rs.ntraces, 0);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* ---- a length past the end --------------------------------------------- */

/* Record 300 of the traces claims 1 GiB (with a good length CRC): the
 * records after it are valid, so it is one bad record, not a torn tail. */
static void
test_tfdbg2_length_past_end_mid_file_loses_one_trace(void **state)
{
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	const struct rs_problem *p;
	struct recorded ix;
	unsigned char *buf;
	size_t len, off, next;

	(void)state;
	path_of(path, sizeof path, dir, "graph_execution_traces");
	buf = test_slurp(path, &len);
	off = tfrecord_offset(buf, 300);
	next = tfrecord_offset(buf, 301);
	memset(buf + off, 0, 8);
	buf[off + 3] = 0x40;
	tfrecord_sign_length(buf + off);
	test_spit(path, buf, len, "wb");
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, MNIST_TRACES - 1);
	assert_int_equal(ix.rs.nproblems, 1);
	p = problem_of(&ix.rs, PROBLEM_BAD_LENGTH);
	assert_non_null(p);
	assert_int_equal(p->record, 300);
	assert_int_equal(p->offset, off);
	assert_int_equal(ix.rs.traces[300].loc.offset, next);
	record_sink_index_done(&ix);
	free(buf);
	test_rmtree(dir);
}

/* advance() from row 0 by k lands on row k for every k, across the skipped
 * record and across its read windows; one more is out of range. */
static void
test_tfdbg2_advance_steps_over_skipped_record(void **state)
{
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	struct td_locator loc;
	struct recorded ix;
	unsigned char *buf;
	size_t len, off, k;

	(void)state;
	path_of(path, sizeof path, dir, "graph_execution_traces");
	buf = test_slurp(path, &len);
	off = tfrecord_offset(buf, 300);
	buf[off + 12] ^= 0xff;                  /* payload CRC of record 300 now wrong */
	test_spit(path, buf, len, "wb");
	free(buf);
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, MNIST_TRACES - 1);
	for (k = 0; k < ix.rs.ntraces; k++) {
		loc = ix.rs.traces[0].loc;
		assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &loc, k), TD_OK);
		assert_int_equal(loc.offset, ix.rs.traces[k].loc.offset);
	}
	loc = ix.rs.traces[0].loc;
	assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &loc, k), TD_ERR_RANGE);
	assert_int_equal(loc.offset, ix.rs.traces[0].loc.offset);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* ---- frames without source files --------------------------------------- */

static size_t
count_records(const char *path)
{
	size_t len, n = 0, off = 0;
	unsigned char *buf = test_slurp(path, &len);

	while (off + 16 <= len) {
		uint64_t l;

		memcpy(&l, buf + off, 8);
		off += 16 + (size_t)l;
		n++;
	}
	free(buf);
	return n;
}

/* Without .source_files every stack frame is still sent, its file
 * unknown; the Log op's frame keeps line 216 in loss (README). */
static void
test_tfdbg2_frames_without_source_files_keep_line_and_function(void **state)
{
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	const struct rs_frame *fr = NULL;
	const struct rs_op *op;
	struct recorded ix;
	size_t i, nframes;

	(void)state;
	path_of(path, sizeof path, dir, "stack_frames");
	nframes = count_records(path);
	path_of(path, sizeof path, dir, "source_files");
	assert_int_equal(unlink(path), 0);
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.nsources, 0);
	assert_int_equal(ix.rs.nframes, nframes);
	assert_non_null(problem_of(&ix.rs, PROBLEM_MISSING_FILE));
	op = record_sink_op(&ix.rs, "Log");
	assert_non_null(op);
	for (i = 0; i < op->nframes && !fr; i++) {
		const struct rs_frame *f = record_sink_frame(&ix.rs, op->frame_ids[i]);

		assert_non_null(f);
		assert_int_equal(f->source_id, -1);
		assert_non_null(strstr(f->file, "<source file #"));
		assert_non_null(strstr(f->file, "tfdbg-host-a"));
		if (f->line == 216 && strcmp(f->func, "loss") == 0)
			fr = f;
	}
	assert_non_null(fr);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* ---- a trace without its optional fields -------------------------------- */

/* A GraphExecutionTrace with only an op name (no graph id, slot, mode or
 * tensor: proto3 leaves them off the wire) is indexed with graph id "". */
static void
test_tfdbg2_trace_without_graph_id_is_kept(void **state)
{
	Tensorflow__DebugEvent ev = TENSORFLOW__DEBUG_EVENT__INIT;
	Tensorflow__GraphExecutionTrace tr = TENSORFLOW__GRAPH_EXECUTION_TRACE__INIT;
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	unsigned char rec[256];
	struct recorded ix;
	size_t n;

	(void)state;
	tr.op_name = "lonely";
	ev.what_case = TENSORFLOW__DEBUG_EVENT__WHAT_GRAPH_EXECUTION_TRACE;
	ev.graph_execution_trace = &tr;
	n = tfrecord_frame(rec, rec + 12, tensorflow__debug_event__pack(&ev, rec + 12));
	path_of(path, sizeof path, dir, "graph_execution_traces");
	test_spit(path, rec, n, "ab");
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, MNIST_TRACES + 1);
	assert_int_equal(ix.rs.nproblems, 0);
	assert_string_equal(ix.rs.traces[MNIST_TRACES].op_name, "lonely");
	assert_string_equal(ix.rs.traces[MNIST_TRACES].graph_id, "");
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* ---- the staged trace pipeline ---------------------------------------- */

/* Traces file = the fixture's three times (2040 records, two stage blocks
 * and a bit), record 300 with a bad payload CRC, record 1500 lying about
 * its length: the producer thread gives exactly what the index thread
 * gives on its own, in the same order, problems included. */
static char *
tripled_dump(void)
{
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	unsigned char *buf, *big;
	size_t len, off, i;

	path_of(path, sizeof path, dir, "graph_execution_traces");
	buf = test_slurp(path, &len);
	big = malloc(3 * len);
	assert_non_null(big);
	for (i = 0; i < 3; i++)
		memcpy(big + i * len, buf, len);
	big[tfrecord_offset(big, 300) + 13] ^= 0x40;
	off = tfrecord_offset(big, 1500);
	memset(big + off, 0, 8);
	big[off + 2] = 0x30;
	tfrecord_sign_length(big + off);
	test_spit(path, big, 3 * len, "wb");
	free(big);
	free(buf);
	return dir;
}

/* The same rows, problems and record numbers from one pass (a) and from
 * a stage whose ranges are cut every chunk bytes (b). */
static void
assert_same_index(const struct recorded *a, const struct recorded *b)
{
	size_t i;

	assert_int_equal(b->rs.ntraces, a->rs.ntraces);
	for (i = 0; i < a->rs.ntraces; i++) {
		assert_int_equal(a->rs.traces[i].loc.offset, b->rs.traces[i].loc.offset);
		assert_string_equal(a->rs.traces[i].op_name, b->rs.traces[i].op_name);
		assert_int_equal(a->rs.traces[i].summary.elements, b->rs.traces[i].summary.elements);
	}
	assert_int_equal(b->rs.nproblems, a->rs.nproblems);
	for (i = 0; i < a->rs.nproblems; i++) {
		assert_int_equal(b->rs.problems[i].kind, a->rs.problems[i].kind);
		assert_int_equal(b->rs.problems[i].record, a->rs.problems[i].record);
		assert_int_equal(b->rs.problems[i].offset, a->rs.problems[i].offset);
	}
}

/* Indexes dir in one pass, then staged in ranges of each size in chunks[]
 * (13: a range boundary every few bytes, 4096: inside most records). */
static void
check_ranges_match_one_pass(const char *dir, struct recorded *one)
{
	static const uint64_t chunks[] = { 13, 300, 4096, (uint64_t)1 << 20 };
	size_t k;

	tf2_stage_thread_min = UINT64_MAX;
	record_sink_index(&tfdbg2_reader_ops, dir, one);
	for (k = 0; k < TD_ARRAY_SIZE(chunks); k++) {
		struct recorded b;

		tf2_stage_thread_min = 0;
		tf2_stage_chunk = chunks[k];
		record_sink_index(&tfdbg2_reader_ops, dir, &b);
		assert_same_index(one, &b);
		record_sink_index_done(&b);
	}
	tf2_stage_thread_min = (uint64_t)8 << 20;
	tf2_stage_chunk = (uint64_t)1 << 20;
}

static void
test_tfdbg2_staged_ranges_match_one_pass(void **state)
{
	char *dir = tripled_dump();
	struct recorded a;

	(void)state;
	check_ranges_match_one_pass(dir, &a);
	assert_int_equal(a.rs.ntraces, 3 * MNIST_TRACES - 2);
	assert_int_equal(a.rs.nproblems, 2);
	assert_int_equal(a.rs.problems[0].kind, PROBLEM_BAD_DATA_CRC);
	assert_int_equal(a.rs.problems[0].record, 300);
	assert_int_equal(a.rs.problems[1].kind, PROBLEM_BAD_LENGTH);
	assert_int_equal(a.rs.problems[1].record, 1500);
	record_sink_index_done(&a);
	test_rmtree(dir);
}

/* Appends a trace whose tensor holds a whole valid record (record k of
 * the file, header to footer): a range that starts inside that payload
 * finds a record that is not one of the file's. */
static void
append_trace_holding_record(const char *path, size_t k)
{
	Tensorflow__DebugEvent ev = TENSORFLOW__DEBUG_EVENT__INIT;
	Tensorflow__GraphExecutionTrace tr = TENSORFLOW__GRAPH_EXECUTION_TRACE__INIT;
	Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
	size_t len, off, inner;
	unsigned char *buf = test_slurp(path, &len), *rec;
	uint64_t n;
	uint32_t crc;
	FILE *f;

	off = tfrecord_offset(buf, k);
	memcpy(&n, buf + off, 8);
	inner = 12 + n + 4;
	tp.tensor_content.data = buf + off;
	tp.tensor_content.len = inner;
	tr.op_name = "carrier";
	tr.tensor_proto = &tp;
	ev.what_case = TENSORFLOW__DEBUG_EVENT__WHAT_GRAPH_EXECUTION_TRACE;
	ev.graph_execution_trace = &tr;
	rec = malloc(inner + 256);
	assert_non_null(rec);
	n = tensorflow__debug_event__pack(&ev, rec + 12);
	memcpy(rec, &n, 8);
	crc = crc32c_mask(crc32c(rec, 8));
	memcpy(rec + 8, &crc, 4);
	crc = crc32c_mask(crc32c(rec + 12, n));
	memcpy(rec + 12 + n, &crc, 4);
	f = fopen(path, "ab");
	assert_non_null(f);
	assert_int_equal(fwrite(rec, 1, n + 16, f), n + 16);
	fclose(f);
	free(rec);
	free(buf);
}

static void
test_tfdbg2_record_inside_payload_does_not_split_ranges(void **state)
{
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	struct recorded a;
	size_t i;

	(void)state;
	path_of(path, sizeof path, dir, "graph_execution_traces");
	for (i = 0; i < 3; i++)
		append_trace_holding_record(path, 5 + i);
	check_ranges_match_one_pass(dir, &a);
	assert_int_equal(a.rs.ntraces, MNIST_TRACES + 3);
	assert_string_equal(a.rs.traces[MNIST_TRACES].op_name, "carrier");
	assert_int_equal(record_sink_problems(&a.rs, PROBLEM_BAD_DATA_CRC), 0);
	assert_int_equal(record_sink_problems(&a.rs, PROBLEM_BAD_LENGTH_CRC), 0);
	record_sink_index_done(&a);
	test_rmtree(dir);
}

static bool
stop_after_first_trace(void *ctx)
{
	return ((struct record_sink *)ctx)->ntraces > 0;
}

/* A pass the sink stops (should_stop) after the first block: the next
 * pass sends exactly the traces the first did not, threaded or not. */
static void
test_tfdbg2_stopped_pass_resumes_after_last_trace_sent(void **state)
{
	int threaded;

	(void)state;
	for (threaded = 0; threaded < 2; threaded++) {
		char *dir = tripled_dump();
		struct record_sink rs2;
		struct reader_sink sink2;
		struct recorded a = { .ops = &tfdbg2_reader_ops };
		char err[256];

		tf2_stage_thread_min = threaded ? 0 : UINT64_MAX;
		tf2_stage_chunk = 4096;         /* several ranges: the first is one block */
		a.ops = &tfdbg2_reader_ops;
		assert_int_equal(tfdbg2_reader_ops.open(dir, &(struct reader_options){0}, &a.r, err,
							sizeof err), TD_OK);
		record_sink_init(&a.rs, &a.sink);
		a.sink.should_stop = stop_after_first_trace;
		assert_int_equal(tfdbg2_reader_ops.index(a.r, &a.sink), TD_OK);
		assert_true(a.rs.ntraces > 0 && a.rs.ntraces < 3 * MNIST_TRACES - 2);
		record_sink_init(&rs2, &sink2);
		assert_int_equal(tfdbg2_reader_ops.index(a.r, &sink2), TD_OK);
		assert_int_equal(a.rs.ntraces + rs2.ntraces, 3 * MNIST_TRACES - 2);
		assert_true(rs2.traces[0].loc.offset > a.rs.traces[a.rs.ntraces - 1].loc.offset);
		/* the two bad records (300 and 1500), each reported once */
		assert_int_equal(record_sink_problems(&a.rs, PROBLEM_BAD_DATA_CRC) +
				 record_sink_problems(&rs2, PROBLEM_BAD_DATA_CRC), 1);
		assert_int_equal(record_sink_problems(&a.rs, PROBLEM_BAD_LENGTH) +
				 record_sink_problems(&rs2, PROBLEM_BAD_LENGTH), 1);
		tf2_stage_thread_min = (uint64_t)8 << 20;
		tf2_stage_chunk = (uint64_t)1 << 20;
		record_sink_done(&rs2);
		record_sink_index_done(&a);
		test_rmtree(dir);
	}
}

/* Follow mode (issue 13): the traces file rewritten in place with the
 * same size (records 10.. first, then 0..9) is noticed by its signature,
 * reported, read again under a new file id; the old rows' locators say
 * TD_ERR_STALE instead of decoding the new bytes under their names. */
static void
test_tfdbg2_rewritten_traces_file_makes_old_rows_stale(void **state)
{
	char *dir = test_copy_dir(FIX, "tfdbg2r"), path[1024];
	struct reader_detail d = {0};
	struct td_locator old0, new0;
	unsigned char *buf, *rot;
	const struct rs_problem *p;
	struct recorded ix;
	char *name10;
	size_t len, cut;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, MNIST_TRACES);
	old0 = ix.rs.traces[0].loc;
	name10 = strdup(ix.rs.traces[10].op_name);
	path_of(path, sizeof path, dir, "graph_execution_traces");
	buf = test_slurp(path, &len);
	cut = tfrecord_offset(buf, 10);
	assert_true(cut < len);
	rot = malloc(len);
	assert_non_null(rot);
	memcpy(rot, buf + cut, len - cut);
	memcpy(rot + len - cut, buf, cut);
	test_spit(path, rot, len, "wb");
	assert_int_equal(tfdbg2_reader_ops.index(ix.r, &ix.sink), TD_OK);
	p = problem_of(&ix.rs, PROBLEM_INCONSISTENT);
	assert_non_null(p);
	assert_non_null(strstr(p->detail, "rewritten"));
	assert_int_equal(ix.rs.ntraces, 2 * MNIST_TRACES);
	new0 = ix.rs.traces[MNIST_TRACES].loc;
	assert_int_not_equal(new0.file, old0.file);
	assert_string_equal(ix.rs.traces[MNIST_TRACES].op_name, name10);
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &old0, &d), TD_ERR_STALE);
	reader_detail_done(&d);
	assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &old0, 1), TD_ERR_STALE);
	memset(&d, 0, sizeof d);
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &new0, &d), TD_OK);
	assert_string_equal(d.op_name, name10);
	reader_detail_done(&d);
	/* a third pass over the unchanged file reports nothing new */
	assert_int_equal(tfdbg2_reader_ops.index(ix.r, &ix.sink), TD_OK);
	assert_int_equal(record_sink_problems(&ix.rs, PROBLEM_INCONSISTENT), 1);
	assert_int_equal(ix.rs.ntraces, 2 * MNIST_TRACES);
	free(name10);
	free(buf);
	free(rot);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg2_fifo_in_place_of_file_is_unreadable_not_blocking),
		cmocka_unit_test(test_tfdbg2_directory_in_place_of_file_is_unreadable),
		cmocka_unit_test(test_tfdbg2_fifo_metadata_reported_once),
		cmocka_unit_test(test_tfdbg2_length_past_end_mid_file_loses_one_trace),
		cmocka_unit_test(test_tfdbg2_advance_steps_over_skipped_record),
		cmocka_unit_test(test_tfdbg2_frames_without_source_files_keep_line_and_function),
		cmocka_unit_test(test_tfdbg2_trace_without_graph_id_is_kept),
		cmocka_unit_test(test_tfdbg2_staged_ranges_match_one_pass),
		cmocka_unit_test(test_tfdbg2_record_inside_payload_does_not_split_ranges),
		cmocka_unit_test(test_tfdbg2_stopped_pass_resumes_after_last_trace_sent),
		cmocka_unit_test(test_tfdbg2_rewritten_traces_file_makes_old_rows_stale),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
