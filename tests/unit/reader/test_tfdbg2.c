/*
 * test_tfdbg2.c - the tfdbg v2 reader on the bundled fixtures
 * (tests/fixtures/tfdbg2, facts from its README) and on dumps corrupted in
 * the test: counts, the Log -> -Inf story, links, every debug mode, torn
 * tails, flipped CRCs, missing files, resumable indexing, advance, decode.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/parse/crc32c.h"
#include "reader/reader.h"
#include "tf_debug_event.pb-c.h"
#include "tests/unit/helpers/files.h"
#include "tests/unit/helpers/record_sink.h"
#include "tests/unit/helpers/summary_assert.h"
#include "tests/unit/helpers/tfrecord_bytes.h"

#define FIX "tests/fixtures/tfdbg2"


#define SET "tfdbg_events.1586979375.tfdbg-host-a."

/* ---- temp dumps -------------------------------------------------------- */

static char *
file_in(const char *dir, const char *suffix)
{
	char *p = malloc(1024);

	snprintf(p, 1024, "%s/" SET "%s", dir, suffix);
	return p;
}

static const struct rs_trace *
first_trace(const struct record_sink *rs, const char *op_name)
{
	size_t i;

	for (i = 0; i < rs->ntraces; i++)
		if (strcmp(rs->traces[i].op_name, op_name) == 0)
			return &rs->traces[i];
	return NULL;
}

static const struct rs_trace *
first_nonfinite(const struct record_sink *rs)
{
	size_t i;

	for (i = 0; i < rs->ntraces; i++)
		if (td_summary_nonfinite(&rs->traces[i].summary))
			return &rs->traces[i];
	return NULL;
}

static const char *
graph_name(const struct record_sink *rs, const char *graph_id)
{
	size_t i;

	for (i = 0; i < rs->ngraphs; i++)
		if (strcmp(rs->graphs[i].graph_id, graph_id) == 0)
			return rs->graphs[i].name;
	return NULL;
}

/* ---- mnist_nan ---------------------------------------------------------- */

static void
test_tfdbg2_probe(void **state)
{
	(void)state;
	assert_true(tfdbg2_reader_ops.probe(FIX "/mnist_nan") > 0);
	assert_int_equal(tfdbg2_reader_ops.probe(FIX), 0);
	assert_int_equal(tfdbg2_reader_ops.probe("/nonexistent-dir"), 0);
}

static void
test_tfdbg2_open_rejects_non_dump(void **state)
{
	struct reader *r = NULL;
	char err[512] = "";

	(void)state;
	assert_int_equal(tfdbg2_reader_ops.open(FIX, &(struct reader_options){0}, &r, err, sizeof err),
			 TD_ERR_FORMAT);
	assert_null(r);
	assert_non_null(strstr(err, "metadata"));
}

static void
test_tfdbg2_mnist_counts_and_meta(void **state)
{
	struct recorded ix;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	assert_int_equal(ix.rs.nexecutions, 224);
	assert_int_equal(ix.rs.ntraces, 680);
	assert_int_equal(ix.rs.nproblems, 0);
	assert_int_equal(ix.rs.nfiles, 6);
	assert_string_equal(record_sink_meta(&ix.rs, "format", 0), "tfdbg2");
	assert_string_equal(record_sink_meta(&ix.rs, "host[]", 0), "tfdbg-host-a");
	assert_null(record_sink_meta(&ix.rs, "host[]", 1));
	assert_string_equal(record_sink_meta(&ix.rs, "tensor_debug_mode", 0), "FULL_HEALTH");
	assert_string_equal(record_sink_meta(&ix.rs, "file_version", 0), "debug.Event:1");
	assert_true(ix.rs.progress_calls >= 2);
	assert_int_equal(ix.rs.progress_done, ix.rs.progress_total);
	record_sink_index_done(&ix);
}

/* The records number no steps: every row says -1 (unknown), never 0. */
static void
test_tfdbg2_rows_have_no_step(void **state)
{
	struct recorded ix;
	size_t i;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	for (i = 0; i < ix.rs.nexecutions; i++)
		assert_int_equal(ix.rs.executions[i].step, -1);
	for (i = 0; i < ix.rs.ntraces; i++)
		assert_int_equal(ix.rs.traces[i].step, -1);
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_probs_trace_has_one_zero(void **state)
{
	struct recorded ix;
	const struct rs_trace *t;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	t = &ix.rs.traces[85];
	assert_string_equal(t->op_name, "probs");
	assert_int_equal(t->slot, 0);
	assert_string_equal(graph_name(&ix.rs, t->graph_id), "loss");
	assert_int_equal(t->summary.elements, 1000);
	assert_int_equal(t->summary.zero, 1);
	assert_int_equal(t->summary.positive, 999);
	assert_int_equal(t->summary.dtype, DTYPE_FLOAT32);
	assert_false(td_summary_nonfinite(&t->summary));
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_log_trace_is_first_nonfinite(void **state)
{
	struct recorded ix;
	const struct rs_trace *t;
	size_t i;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	t = &ix.rs.traces[88];
	assert_string_equal(t->op_name, "Log");
	assert_null(t->op_type);        /* resolved from the op table by the model */
	assert_string_equal(graph_name(&ix.rs, t->graph_id), "loss");
	assert_int_equal(t->summary.elements, 1000);
	assert_int_equal(t->summary.neg_inf, 1);
	assert_int_equal(t->summary.nan, 0);
	assert_true(td_summary_nonfinite(&t->summary));
	for (i = 0; i < 88; i++)
		assert_false(td_summary_nonfinite(&ix.rs.traces[i].summary));
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_log_op_links_to_probs_and_source(void **state)
{
	struct recorded ix;
	const struct rs_op *op;
	const struct rs_frame *fr;
	struct reader_detail d;
	struct td_locator loc = {0};
	size_t i;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	op = record_sink_op(&ix.rs, "Log");
	assert_non_null(op);
	assert_string_equal(op->op_type, "Log");
	assert_int_equal(op->ninputs, 1);
	assert_string_equal(op->inputs[0], "probs:0");
	assert_true(op->nframes > 0);
	/* the innermost frame in the user's program (TensorFlow's own frames follow) */
	fr = NULL;
	for (i = op->nframes; i-- > 0 && !fr;) {
		const struct rs_frame *f = record_sink_frame(&ix.rs, op->frame_ids[i]);

		assert_non_null(f);
		if (strstr(f->file, "debug_mnist_v2.py"))
			fr = f;
	}
	assert_non_null(fr);
	assert_int_equal(fr->line, 216);
	assert_string_equal(fr->func, "loss");
	assert_non_null(strstr(fr->file, "debug_mnist_v2.py"));
	for (i = 0; i < ix.rs.nsources; i++)
		if ((int64_t)ix.rs.sources[i].id == fr->source_id)
			loc = ix.rs.sources[i].loc;
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_SOURCE, &loc, &d), TD_OK);
	assert_true(d.nlines >= 216);
	assert_non_null(strstr(d.lines[215], "tf.math.log(probs)"));
	reader_detail_done(&d);
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_decode_log_trace(void **state)
{
	struct recorded ix;
	struct reader_detail d;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[88].loc, &d), TD_OK);
	assert_string_equal(d.op_name, "Log");
	assert_string_equal(d.mode, "FULL_HEALTH");
	assert_string_equal(d.host, "tfdbg-host-a");
	assert_int_equal(d.noutputs, 1);
	assert_int_equal(d.ndebug_values[0], 11);
	assert_true(d.debug_values[0][5] == 1.0);    /* count(-inf) */
	assert_int_equal(d.summaries[0].neg_inf, 1);
	assert_int_equal(d.summaries[0].elements, 1000);
	assert_non_null(d.text);
	reader_detail_done(&d);
	record_sink_index_done(&ix);
}

/* Executions flagged bad by the index prove it when decoded. */
static void
test_tfdbg2_execution_alerts_match_decoded_outputs(void **state)
{
	struct recorded ix;
	size_t i, j, flagged = 0;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	for (i = 0; i < ix.rs.nexecutions; i++) {
		struct reader_detail d;
		uint32_t bad = 0;

		assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_EXECUTION, &ix.rs.executions[i].loc, &d), TD_OK);
		assert_string_equal(d.op_type, ix.rs.executions[i].op_type);
		for (j = 0; j < d.noutputs; j++)
			bad += td_summary_nonfinite(&d.summaries[j]);
		assert_int_equal(bad, ix.rs.executions[i].bad_outputs);
		flagged += bad > 0;
		reader_detail_done(&d);
	}
	assert_true(flagged > 0);       /* NaN reaches the eager loss after the Log */
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_second_pass_sends_nothing_new(void **state)
{
	struct recorded ix;
	struct record_sink rs2;
	struct reader_sink sink2;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	record_sink_init(&rs2, &sink2);
	assert_int_equal(tfdbg2_reader_ops.index(ix.r, &sink2), TD_OK);
	assert_int_equal(rs2.ntraces + rs2.nexecutions + rs2.nops + rs2.nsources + rs2.nframes + rs2.nfiles, 0);
	assert_int_equal(rs2.nproblems, 0);
	record_sink_done(&rs2);
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_advance_steps_records(void **state)
{
	struct recorded ix;
	struct td_locator loc;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	loc = ix.rs.traces[0].loc;
	assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &loc, 88), TD_OK);
	assert_int_equal(loc.offset, ix.rs.traces[88].loc.offset);
	assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &loc, 591), TD_OK);
	assert_int_equal(loc.offset, ix.rs.traces[679].loc.offset);
	assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &loc, 1), TD_ERR_RANGE);
	loc = ix.rs.executions[0].loc;
	assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_EXECUTION, &loc, 223), TD_OK);
	assert_int_equal(loc.offset, ix.rs.executions[223].loc.offset);
	record_sink_index_done(&ix);
}

/* decode() tells where the next row starts, so rows read in order need no
 * advance(); the last indexed row has no next row yet. */
static void
test_tfdbg2_decode_gives_next_row_offset(void **state)
{
	struct recorded ix;
	struct reader_detail d = {0};

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[88].loc, &d), TD_OK);
	assert_int_equal(d.next_offset, ix.rs.traces[89].loc.offset);
	reader_detail_done(&d);
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[679].loc, &d), TD_OK);
	assert_int_equal(d.next_offset, 0);
	reader_detail_done(&d);
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_EXECUTION, &ix.rs.executions[0].loc, &d), TD_OK);
	assert_int_equal(d.next_offset, ix.rs.executions[1].loc.offset);
	reader_detail_done(&d);
	record_sink_index_done(&ix);
}

/* ---- decode_outputs: the cheaper decode of an execution --------------- */

/* Every execution of dir: decode_outputs gives what decode gives of the
 * ids and the outputs' summaries, or fails where it fails.  Returns the
 * executions compared. */
static size_t
check_outputs_like_decode(const char *dir)
{
	struct recorded ix;
	size_t i, j, n;

	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	n = ix.rs.nexecutions;
	for (i = 0; i < n; i++) {
		struct reader_detail full, cheap;
		enum td_status a = tfdbg2_reader_ops.decode(ix.r, READER_EXECUTION, &ix.rs.executions[i].loc, &full);
		enum td_status b = tfdbg2_reader_ops.decode_outputs(ix.r, &ix.rs.executions[i].loc, &cheap);

		assert_int_equal(a, b);
		if (a == TD_OK) {
			assert_int_equal(full.noutputs, cheap.noutputs);
			assert_int_equal(full.ninput_ids, cheap.ninput_ids);
			assert_int_equal(full.noutput_ids, cheap.noutput_ids);
			if (full.ninput_ids)
				assert_memory_equal(full.input_tensor_ids, cheap.input_tensor_ids,
						    full.ninput_ids * sizeof(int64_t));
			if (full.noutput_ids)
				assert_memory_equal(full.output_tensor_ids, cheap.output_tensor_ids,
						    full.noutput_ids * sizeof(int64_t));
			for (j = 0; j < full.noutputs; j++)
				assert_same_summary(&full.summaries[j], &cheap.summaries[j], 0);
			assert_memory_equal(&full.wall_time, &cheap.wall_time, sizeof(double));
			assert_int_equal(full.next_offset, cheap.next_offset);
		}
		reader_detail_done(&full);
		reader_detail_done(&cheap);
	}
	record_sink_index_done(&ix);
	return n;
}

/* The head of a DebugEvent holding n bytes of Execution (wall time 1.5):
 * the Execution's bytes go after it. */
static size_t
event_head(unsigned char *out, size_t n)
{
	double wall = 1.5;
	size_t k = 0;

	out[k++] = 0x09;
	memcpy(out + k, &wall, 8);
	k += 8;
	out[k++] = 0x4a;
	while (n >= 0x80) {
		out[k++] = (unsigned char)(n | 0x80);
		n >>= 7;
	}
	out[k++] = (unsigned char)n;
	return k;
}

/* decode_summary (the row cache's cheaper decode of a trace) against
 * decode() on every trace of dir: the same status, and where both decode
 * the same summary, slot and wall time.  Returns the traces compared. */
static size_t
check_summary_like_decode(const char *dir)
{
	struct recorded ix;
	size_t i, n;

	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	n = ix.rs.ntraces;
	for (i = 0; i < n; i++) {
		struct reader_detail full, cheap;
		enum td_status a = tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[i].loc, &full);
		enum td_status b = tfdbg2_reader_ops.decode_summary(ix.r, &ix.rs.traces[i].loc, &cheap);

		assert_int_equal(a, b);
		if (a == TD_OK) {
			assert_int_equal(full.noutputs, cheap.noutputs);
			assert_int_equal(full.slot, cheap.slot);
			if (full.noutputs)
				assert_same_summary(&full.summaries[0], &cheap.summaries[0],
						    SUM_TENSOR_ID | SUM_PERCENTILES);
			assert_memory_equal(&full.wall_time, &cheap.wall_time, sizeof(double));
		}
		reader_detail_done(&full);
		reader_detail_done(&cheap);
	}
	record_sink_index_done(&ix);
	return n;
}

/* A trace's DebugEvent with more beside its graph_execution_trace, which
 * the index reads as a trace (it looks at field 10 alone) but the
 * unpacker may not: decode_summary agrees with decode() on each (found
 * by fuzz_tfdbg2_event: a known field of the wrong wire type). */
static void
test_tfdbg2_decode_summary_matches_decode_on_odd_events(void **state)
{
	static const unsigned char extra[][12] = {
		{ 0x61, 1, 2, 3, 4, 5, 6, 7, 8 },       /* debugged_device (12) as FIXED64 */
		{ 0x10, 0x05 },                         /* a step (2): fine */
		{ 0x4a, 0x00 },                         /* an empty execution (9) after: it wins */
		{ 0x11, 1, 2, 3, 4, 5, 6, 7, 8 },       /* the step as FIXED64 */
		{ 0x68, 0x01 },                         /* an unknown field 13: fine */
	};
	static const size_t nextra[] = { 9, 2, 2, 9, 2 };
	unsigned char *src, *out;
	struct recorded ix;
	size_t len, k, at = 0, plen, off;
	char *dir, *path;

	(void)state;
	assert_true(check_summary_like_decode(FIX "/mnist_nan") == 680);
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	path = file_in(FIX "/mnist_nan", "graph_execution_traces");
	src = test_slurp(path, &len);
	free(path);
	off = (size_t)ix.rs.traces[88].loc.offset;
	record_sink_index_done(&ix);
	memcpy(&plen, src + off, 8);
	out = malloc(64 * 1024);
	for (k = 0; k < sizeof nextra / sizeof nextra[0]; k++) {
		unsigned char rec[4096];

		assert_true(plen + nextra[k] <= sizeof rec);
		memcpy(rec, src + off + 12, plen);
		memcpy(rec + plen, extra[k], nextra[k]);
		at += tfrecord_frame(out + at, rec, plen + nextra[k]);
	}
	/* the trace twice in one event: the unpacker merges the two */
	{
		unsigned char rec[8192];

		memcpy(rec, src + off + 12, plen);
		memcpy(rec + plen, src + off + 12, plen);
		at += tfrecord_frame(out + at, rec, 2 * plen);
	}
	dir = test_copy_dir(FIX "/mnist_nan", "decode-summary");
	path = file_in(dir, "graph_execution_traces");
	test_spit(path, out, at, "wb");
	free(path);
	assert_int_equal(check_summary_like_decode(dir), 6);
	test_rmtree(dir);
	free(src);
	free(out);
}

static void
test_tfdbg2_decode_outputs_matches_decode(void **state)
{
	static const char *dirs[] = {
		FIX "/mnist_nan", FIX "/modes/curt_health", FIX "/modes/concise_health",
		FIX "/modes/full_tensor", FIX "/modes/no_tensor", FIX "/modes/shape",
		"tests/fixtures/robust/exec_bad_proto", "tests/fixtures/robust/hostile",
		"tests/fixtures/robust/clean",
	};
	struct recorded ix;
	Tensorflow__DebugEvent *ev = NULL;
	unsigned char *src, *out, *exec, *rec;
	size_t len, k, n, at = 0, total = 0, nexec;
	char *dir, *path;
	uint8_t mode;

	(void)state;
	for (k = 0; k < sizeof dirs / sizeof *dirs; k++)
		total += check_outputs_like_decode(dirs[k]);
	assert_true(total > 200);

	/* Records no writer makes but the wire allows, from a real one (the
	 * first execution with a tensor and ids: its bytes repacked): ids
	 * split over packed and unpacked fields, the debug mode after the
	 * tensors, and known fields of the wrong wire type. */
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	path = file_in(FIX "/mnist_nan", "execution");
	src = test_slurp(path, &len);
	free(path);
	for (k = 0; k < ix.rs.nexecutions; k++) {
		size_t off = (size_t)ix.rs.executions[k].loc.offset, plen;

		memcpy(&plen, src + off, 8);
		ev = tensorflow__debug_event__unpack(NULL, plen, src + off + 12);
		assert_non_null(ev);
		if (ev->execution->n_tensor_protos && ev->execution->n_input_tensor_ids)
			break;
		tensorflow__debug_event__free_unpacked(ev, NULL);
	}
	assert_true(k < ix.rs.nexecutions);
	record_sink_index_done(&ix);
	mode = (uint8_t)ev->execution->tensor_debug_mode;
	exec = malloc(1 << 20);
	rec = malloc(1 << 20);
	out = malloc(8 << 20);
	for (k = 0; k < 5; k++) {
		static const unsigned char extra[][16] = {
			{ 0x20, 0x07, 0x28, 0x09, 0x20, 0x81, 0x01 },   /* ids unpacked, after packed */
			{ 0x30, 0 },                                    /* the mode again after the tensors */
			{ 0x21, 1, 2, 3, 4, 5, 6, 7, 8 },               /* input ids as FIXED64 */
			{ 0x42, 0x02, 0x08, 0x01 },                     /* a host name as a varint */
			{ 0x10, 0x03, 0x10, 0x01 },                     /* num_outputs twice */
		};
		static const size_t nextra[] = { 7, 2, 9, 4, 4 };
		int32_t keep = ev->execution->tensor_debug_mode;

		if (k == 1)     /* another mode before the tensors: the last one counts */
			ev->execution->tensor_debug_mode = keep == 2 ? 3 : 2;
		n = tensorflow__execution__pack(ev->execution, exec);
		ev->execution->tensor_debug_mode = keep;
		memcpy(exec + n, extra[k], nextra[k]);
		if (k == 1)
			exec[n + 1] = mode;
		n += nextra[k];
		len = event_head(rec, n);
		memcpy(rec + len, exec, n);
		at += tfrecord_frame(out + at, rec, len + n);
	}
	tensorflow__debug_event__free_unpacked(ev, NULL);
	dir = test_copy_dir(FIX "/mnist_nan", "decode-outputs");
	path = file_in(dir, "execution");
	test_spit(path, out, at, "wb");
	free(path);
	nexec = check_outputs_like_decode(dir);
	assert_true(nexec >= 3);
	test_rmtree(dir);
	free(src);
	free(exec);
	free(rec);
	free(out);
}

/* ---- modes -------------------------------------------------------------- */

static void
check_mode(const char *dir, const char *mode, bool flags_log)
{
	struct recorded ix;
	const struct rs_trace *log;
	size_t i, nonfinite = 0;

	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.nproblems, 0);
	assert_int_equal(ix.rs.nexecutions > 0 && ix.rs.ntraces > 0, 1);
	assert_string_equal(record_sink_meta(&ix.rs, "tensor_debug_mode", 0), mode);
	assert_non_null(first_trace(&ix.rs, "Log"));
	log = first_nonfinite(&ix.rs);
	if (flags_log) {
		assert_non_null(log);
		assert_string_equal(log->op_name, "Log");
	}
	for (i = 0; i < ix.rs.ntraces; i++)
		nonfinite += td_summary_nonfinite(&ix.rs.traces[i].summary);
	if (!flags_log)
		assert_int_equal(nonfinite, 0);
	for (i = 0; i < ix.rs.nexecutions && !flags_log; i++)
		assert_int_equal(ix.rs.executions[i].bad_outputs, 0);
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_mode_curt_health(void **state)
{
	(void)state;
	check_mode(FIX "/modes/curt_health", "CURT_HEALTH", true);
}

static void
test_tfdbg2_mode_concise_health(void **state)
{
	struct recorded ix;
	const struct rs_trace *log;

	(void)state;
	check_mode(FIX "/modes/concise_health", "CONCISE_HEALTH", true);
	record_sink_index(&tfdbg2_reader_ops, FIX "/modes/concise_health", &ix);
	log = first_nonfinite(&ix.rs);
	assert_true(log->summary.known & SUM_NEG_INF);
	assert_true(log->summary.neg_inf >= 1);
	assert_false(log->summary.known & SUM_ZERO);  /* CONCISE carries no sign counts */
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_mode_shape(void **state)
{
	struct recorded ix;
	const struct rs_trace *probs;

	(void)state;
	check_mode(FIX "/modes/shape", "SHAPE", false);
	record_sink_index(&tfdbg2_reader_ops, FIX "/modes/shape", &ix);
	probs = first_trace(&ix.rs, "probs");
	assert_non_null(probs);
	assert_true(probs->summary.known & SUM_SHAPE);
	assert_true(probs->summary.rank >= 1);
	assert_int_equal(probs->summary.dtype, DTYPE_FLOAT32);
	assert_false(probs->summary.known & SUM_NONFINITE);
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_mode_no_tensor(void **state)
{
	struct recorded ix;

	(void)state;
	check_mode(FIX "/modes/no_tensor", "NO_TENSOR", false);
	record_sink_index(&tfdbg2_reader_ops, FIX "/modes/no_tensor", &ix);
	assert_int_equal(first_trace(&ix.rs, "Log")->summary.known, 0);
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_mode_full_tensor_log_has_one_neg_inf(void **state)
{
	struct recorded ix;
	const struct rs_trace *log;
	struct reader_detail d;
	int64_t i, neg_inf = 0;

	(void)state;
	check_mode(FIX "/modes/full_tensor", "FULL_TENSOR", true);
	record_sink_index(&tfdbg2_reader_ops, FIX "/modes/full_tensor", &ix);
	log = first_nonfinite(&ix.rs);
	assert_string_equal(log->op_name, "Log");
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &log->loc, &d), TD_OK);
	assert_non_null(d.values[0]);
	for (i = 0; i < d.values[0]->n; i++) {
		double v = td_tensor_get(d.values[0], i);

		neg_inf += isinf(v) && v < 0;
	}
	assert_int_equal(neg_inf, 1);
	assert_int_equal(d.summaries[0].neg_inf, 1);
	assert_int_equal(log->summary.neg_inf, 1);
	reader_detail_done(&d);
	record_sink_index_done(&ix);
}

/* ---- damaged dumps ------------------------------------------------------ */

static void
test_tfdbg2_torn_fixture_keeps_679_traces(void **state)
{
	struct recorded ix;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/torn", &ix);
	assert_int_equal(ix.rs.ntraces, 679);
	assert_int_equal(ix.rs.nexecutions, 224);
	assert_int_equal(ix.rs.nproblems, 1);
	assert_int_equal(ix.rs.problems[0].kind, PROBLEM_TORN_TAIL);
	assert_non_null(strstr(ix.rs.problems[0].path, "graph_execution_traces"));
	assert_string_equal(ix.rs.traces[88].op_name, "Log");
	record_sink_index_done(&ix);
}

static void
test_tfdbg2_torn_tail_completes_on_next_pass(void **state)
{
	char *dir = test_copy_dir(FIX "/torn", "tfdbg2");
	char *traces = file_in(dir, "graph_execution_traces");
	char *full = file_in(FIX "/mnist_nan", "graph_execution_traces");
	struct record_sink rs2;
	struct reader_sink sink2;
	struct recorded ix;
	unsigned char *buf;
	size_t len;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, 679);
	/* the producer finishes writing the record */
	buf = test_slurp(full, &len);
	test_spit(traces, buf, len, "wb");
	record_sink_init(&rs2, &sink2);
	assert_int_equal(tfdbg2_reader_ops.index(ix.r, &sink2), TD_OK);
	assert_int_equal(rs2.ntraces, 1);
	assert_int_equal(rs2.nproblems, 0);
	assert_int_equal(rs2.traces[0].loc.offset, tfrecord_offset(buf, 679));
	free(buf);
	record_sink_done(&rs2);
	record_sink_index_done(&ix);
	free(traces);
	free(full);
	test_rmtree(dir);
}

static void
test_tfdbg2_flipped_payload_crc_loses_one_trace(void **state)
{
	char *dir = test_copy_dir(FIX "/mnist_nan", "tfdbg2");
	char *traces = file_in(dir, "graph_execution_traces");
	struct recorded ix, good;
	struct td_locator loc;
	unsigned char *buf;
	size_t len, off, next, i;

	(void)state;
	buf = test_slurp(traces, &len);
	off = tfrecord_offset(buf, 300);
	next = tfrecord_offset(buf, 301);
	buf[next - 1] ^= 0xff;          /* payload CRC of record 300 */
	test_spit(traces, buf, len, "wb");
	free(buf);
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &good);
	assert_int_equal(ix.rs.ntraces, 679);
	assert_int_equal(ix.rs.nproblems, 1);
	assert_int_equal(ix.rs.problems[0].kind, PROBLEM_BAD_DATA_CRC);
	assert_int_equal(ix.rs.problems[0].offset, off);
	assert_int_equal(ix.rs.problems[0].record, 300);
	for (i = 0; i < 679; i++) {
		const struct rs_trace *g = &good.rs.traces[i < 300 ? i : i + 1];

		assert_string_equal(ix.rs.traces[i].op_name, g->op_name);
		assert_int_equal(ix.rs.traces[i].loc.offset, g->loc.offset);
	}
	/* advance steps over the skipped record like the index did */
	loc = ix.rs.traces[290].loc;
	assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &loc, 20), TD_OK);
	assert_int_equal(loc.offset, ix.rs.traces[310].loc.offset);
	record_sink_index_done(&good);
	record_sink_index_done(&ix);
	free(traces);
	test_rmtree(dir);
}

static void
test_tfdbg2_bad_length_crc_resyncs_in_traces(void **state)
{
	char *dir = test_copy_dir(FIX "/mnist_nan", "tfdbg2");
	char *traces = file_in(dir, "graph_execution_traces");
	struct recorded ix;
	unsigned char *buf;
	size_t len;

	(void)state;
	buf = test_slurp(traces, &len);
	buf[tfrecord_offset(buf, 400) + 9] ^= 0x01;      /* length CRC of record 400 */
	test_spit(traces, buf, len, "wb");
	free(buf);
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, 679);
	assert_int_equal(ix.rs.nproblems, 1);
	assert_int_equal(ix.rs.problems[0].kind, PROBLEM_BAD_LENGTH_CRC);
	assert_int_equal(ix.rs.problems[0].record, 400);
	record_sink_index_done(&ix);
	free(traces);
	test_rmtree(dir);
}

static void
test_tfdbg2_missing_file_reported_rest_read(void **state)
{
	char *dir = test_copy_dir(FIX "/mnist_nan", "tfdbg2");
	char *exec = file_in(dir, "execution");
	struct recorded ix;

	(void)state;
	unlink(exec);
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.nexecutions, 0);
	assert_int_equal(ix.rs.ntraces, 680);
	assert_int_equal(ix.rs.nproblems, 1);
	assert_int_equal(ix.rs.problems[0].kind, PROBLEM_MISSING_FILE);
	assert_non_null(strstr(ix.rs.problems[0].path, ".execution"));
	assert_int_equal(ix.rs.nfiles, 5);
	record_sink_index_done(&ix);
	free(exec);
	test_rmtree(dir);
}

static void
test_tfdbg2_appended_records_indexed_once(void **state)
{
	char *dir = test_copy_dir(FIX "/mnist_nan", "tfdbg2");
	char *traces = file_in(dir, "graph_execution_traces");
	struct record_sink rs2;
	struct reader_sink sink2;
	struct recorded ix, good;
	unsigned char *buf;
	char first_op[256];
	size_t len, half;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &good);
	snprintf(first_op, sizeof first_op, "%s", good.rs.traces[100].op_name);
	record_sink_index_done(&good);
	buf = test_slurp(traces, &len);
	half = tfrecord_offset(buf, 100);
	test_spit(traces, buf, half, "wb");
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, 100);
	test_spit(traces, buf + half, len - half, "ab");
	free(buf);
	record_sink_init(&rs2, &sink2);
	assert_int_equal(tfdbg2_reader_ops.index(ix.r, &sink2), TD_OK);
	assert_int_equal(rs2.ntraces, 580);
	assert_int_equal(rs2.nops, 0);
	assert_int_equal(rs2.traces[0].loc.offset, half);
	assert_string_equal(ix.rs.traces[88].op_name, "Log");
	assert_string_equal(rs2.traces[0].op_name, first_op);
	record_sink_done(&rs2);
	record_sink_index_done(&ix);
	free(traces);
	test_rmtree(dir);
}

/* A second host whose name has dots: both sets are read, sources get ids
 * unique across hosts, frames resolve within their host. */
static void
test_tfdbg2_two_hosts_merged(void **state)
{
	char *dir = test_copy_dir(FIX "/mnist_nan", "tfdbg2");
	struct recorded ix;
	size_t i, j;
	int k;

	(void)state;
	for (k = 0; k < 6; k++) {
		static const char *const suf[] = { "metadata", "source_files", "stack_frames", "graphs",
						   "execution", "graph_execution_traces" };
		char *from = file_in(dir, suf[k]), to[1024];
		unsigned char *buf;
		size_t len;

		snprintf(to, sizeof to, "%s/tfdbg_events.1586979375.worker.b.example.%s", dir, suf[k]);
		buf = test_slurp(from, &len);
		test_spit(to, buf, len, "wb");
		free(buf);
		free(from);
	}
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_int_equal(ix.rs.ntraces, 1360);
	assert_int_equal(ix.rs.nexecutions, 448);
	assert_int_equal(ix.rs.nproblems, 0);
	assert_non_null(record_sink_meta(&ix.rs, "host[]", 1));
	assert_true(strcmp(record_sink_meta(&ix.rs, "host[]", 0), "worker.b.example") == 0 ||
		    strcmp(record_sink_meta(&ix.rs, "host[]", 1), "worker.b.example") == 0);
	for (i = 0; i < ix.rs.nsources; i++)
		for (j = i + 1; j < ix.rs.nsources; j++)
			assert_int_not_equal(ix.rs.sources[i].id, ix.rs.sources[j].id);
	for (i = 0; i < ix.rs.nframes; i++)
		for (j = 0; j < ix.rs.nsources; j++)
			if ((int64_t)ix.rs.sources[j].id == ix.rs.frames[i].source_id)
				assert_string_equal(ix.rs.sources[j].path, ix.rs.frames[i].file);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

/* A host that starts writing after the first pass is picked up by the next. */
static void
test_tfdbg2_new_host_found_on_next_pass(void **state)
{
	char *dir = test_copy_dir(FIX "/mnist_nan", "tfdbg2");
	struct record_sink rs2;
	struct reader_sink sink2;
	struct recorded ix;
	int k;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	for (k = 0; k < 6; k++) {
		static const char *const suf[] = { "metadata", "source_files", "stack_frames", "graphs",
						   "execution", "graph_execution_traces" };
		char *from = file_in(dir, suf[k]), to[1024];
		unsigned char *buf;
		size_t len;

		snprintf(to, sizeof to, "%s/tfdbg_events.1586979400.late-host.%s", dir, suf[k]);
		buf = test_slurp(from, &len);
		test_spit(to, buf, len, "wb");
		free(buf);
		free(from);
	}
	record_sink_init(&rs2, &sink2);
	assert_int_equal(tfdbg2_reader_ops.index(ix.r, &sink2), TD_OK);
	assert_string_equal(record_sink_meta(&rs2, "host[]", 0), "late-host");
	assert_null(record_sink_meta(&rs2, "host[]", 1));
	assert_int_equal(rs2.ntraces, 680);
	assert_int_equal(rs2.nexecutions, 224);
	assert_int_equal(rs2.nfiles, 6);
	assert_int_equal(rs2.nproblems, 0);
	assert_int_equal(rs2.sources[0].id, ix.rs.nsources);   /* ids continue */
	assert_string_equal(rs2.traces[88].op_name, "Log");
	record_sink_done(&rs2);
	record_sink_index_done(&ix);
	test_rmtree(dir);
}

static void
test_tfdbg2_decode_execution_details(void **state)
{
	struct recorded ix;
	struct reader_detail d;
	size_t i, with_devices = 0;

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	for (i = 0; i < ix.rs.nexecutions; i++) {
		assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_EXECUTION, &ix.rs.executions[i].loc, &d), TD_OK);
		assert_string_equal(d.mode, "FULL_HEALTH");
		assert_true(d.nframes > 0);
		assert_true(d.noutputs >= ix.rs.executions[i].num_outputs);
		assert_non_null(strstr(d.text, "op type: "));
		if (strstr(d.text, "output devices: /job:"))
			with_devices++;
		reader_detail_done(&d);
	}
	assert_true(with_devices > 0);
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_EXECUTION, &ix.rs.traces[0].loc, &d), TD_ERR_ARGS);
	record_sink_index_done(&ix);
}

/* decode() and advance() on another thread while index() runs (reader.h's
 * contract): every trace already announced decodes to its own op name. */
struct concurrent {
	struct reader *r;
	struct td_locator locs[1024];
	char names[1024][64];
	unsigned n;                     /* published with release/acquire */
	int done;
	unsigned decoded, wrong;
};

static void
conc_trace(void *ctx, const struct reader_trace *t)
{
	struct concurrent *c = ctx;
	unsigned k = __atomic_load_n(&c->n, __ATOMIC_RELAXED);

	if (k >= 1024)
		return;
	c->locs[k] = t->loc;
	snprintf(c->names[k], sizeof c->names[k], "%s", t->op_name);
	__atomic_store_n(&c->n, k + 1, __ATOMIC_RELEASE);
}

static void *
conc_decoder(void *arg)
{
	struct concurrent *c = arg;
	int last_round = 0;

	while (!last_round) {
		struct reader_detail d;
		struct td_locator loc;
		unsigned k, i;

		/* done before n: the last round sees every trace */
		last_round = __atomic_load_n(&c->done, __ATOMIC_ACQUIRE);
		k = __atomic_load_n(&c->n, __ATOMIC_ACQUIRE);
		i = k / 2;
		if (k < 2)
			continue;
		loc = c->locs[0];
		if (tfdbg2_reader_ops.decode(c->r, READER_TRACE, &c->locs[i], &d) == TD_OK &&
		    strcmp(d.op_name, c->names[i]) == 0)
			c->decoded++;
		else
			c->wrong++;
		reader_detail_done(&d);
		if (tfdbg2_reader_ops.advance(c->r, READER_TRACE, &loc, i) != TD_OK ||
		    loc.offset != c->locs[i].offset)
			c->wrong++;
	}
	return NULL;
}

static void
test_tfdbg2_decode_while_indexing(void **state)
{
	struct concurrent *c = calloc(1, sizeof(*c));
	struct reader_sink sink = { .ctx = c, .on_trace = conc_trace };
	char err[256];
	pthread_t th;

	(void)state;
	assert_int_equal(tfdbg2_reader_ops.open(FIX "/mnist_nan", &(struct reader_options){0}, &c->r,
						err, sizeof err), TD_OK);
	assert_int_equal(pthread_create(&th, NULL, conc_decoder, c), 0);
	assert_int_equal(tfdbg2_reader_ops.index(c->r, &sink), TD_OK);
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	assert_int_equal(c->n, 680);
	assert_int_equal(c->wrong, 0);
	assert_true(c->decoded >= 1);
	tfdbg2_reader_ops.close(c->r);
	free(c);
}

/* A metadata record with another run id makes the directory a mix of runs. */
static void
test_tfdbg2_mixed_run_ids_refused(void **state)
{
	char *dir = test_copy_dir(FIX "/mnist_nan", "tfdbg2");
	Tensorflow__DebugEvent ev = TENSORFLOW__DEBUG_EVENT__INIT;
	Tensorflow__DebugMetadata md = TENSORFLOW__DEBUG_METADATA__INIT;
	unsigned char rec[256];
	struct reader *r = NULL;
	char path[1024], err[512] = "";
	size_t n;

	(void)state;
	md.tensorflow_version = "2.3.0";
	md.file_version = "debug.Event:1";
	md.tfdbg_run_id = "ffffffff";
	ev.wall_time = 1586979999.0;
	ev.what_case = TENSORFLOW__DEBUG_EVENT__WHAT_DEBUG_METADATA;
	ev.debug_metadata = &md;
	n = tfrecord_frame(rec, rec + 12, tensorflow__debug_event__pack(&ev, rec + 12));
	snprintf(path, sizeof path, "%s/tfdbg_events.1586979999.other.metadata", dir);
	test_spit(path, rec, n, "wb");
	assert_int_equal(tfdbg2_reader_ops.open(dir, &(struct reader_options){0}, &r, err, sizeof err),
			 TD_ERR_FORMAT);
	assert_null(r);
	assert_non_null(strstr(err, "ffffffff"));
	assert_non_null(strstr(err, "2265b1f5"));
	test_rmtree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg2_probe),
		cmocka_unit_test(test_tfdbg2_open_rejects_non_dump),
		cmocka_unit_test(test_tfdbg2_mnist_counts_and_meta),
		cmocka_unit_test(test_tfdbg2_rows_have_no_step),
		cmocka_unit_test(test_tfdbg2_probs_trace_has_one_zero),
		cmocka_unit_test(test_tfdbg2_log_trace_is_first_nonfinite),
		cmocka_unit_test(test_tfdbg2_log_op_links_to_probs_and_source),
		cmocka_unit_test(test_tfdbg2_decode_log_trace),
		cmocka_unit_test(test_tfdbg2_execution_alerts_match_decoded_outputs),
		cmocka_unit_test(test_tfdbg2_second_pass_sends_nothing_new),
		cmocka_unit_test(test_tfdbg2_advance_steps_records),
		cmocka_unit_test(test_tfdbg2_decode_gives_next_row_offset),
		cmocka_unit_test(test_tfdbg2_decode_outputs_matches_decode),
		cmocka_unit_test(test_tfdbg2_decode_summary_matches_decode_on_odd_events),
		cmocka_unit_test(test_tfdbg2_mode_curt_health),
		cmocka_unit_test(test_tfdbg2_mode_concise_health),
		cmocka_unit_test(test_tfdbg2_mode_shape),
		cmocka_unit_test(test_tfdbg2_mode_no_tensor),
		cmocka_unit_test(test_tfdbg2_mode_full_tensor_log_has_one_neg_inf),
		cmocka_unit_test(test_tfdbg2_torn_fixture_keeps_679_traces),
		cmocka_unit_test(test_tfdbg2_torn_tail_completes_on_next_pass),
		cmocka_unit_test(test_tfdbg2_flipped_payload_crc_loses_one_trace),
		cmocka_unit_test(test_tfdbg2_bad_length_crc_resyncs_in_traces),
		cmocka_unit_test(test_tfdbg2_missing_file_reported_rest_read),
		cmocka_unit_test(test_tfdbg2_appended_records_indexed_once),
		cmocka_unit_test(test_tfdbg2_two_hosts_merged),
		cmocka_unit_test(test_tfdbg2_new_host_found_on_next_pass),
		cmocka_unit_test(test_tfdbg2_decode_execution_details),
		cmocka_unit_test(test_tfdbg2_decode_while_indexing),
		cmocka_unit_test(test_tfdbg2_mixed_run_ids_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
