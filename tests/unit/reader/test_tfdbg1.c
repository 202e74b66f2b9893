/*
 * test_tfdbg1.c - the tfdbg v1 reader through its reader_ops and a
 * recording sink: the mlp_nan session root (facts from
 * tests/fixtures/tfdbg1/README.md), and small dumps built in a temporary
 * directory for run ordering, plain and legacy dump roots, collisions,
 * several devices, follow mode and bad files.
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

#define MLP "tests/fixtures/tfdbg1/mlp_nan"
#define RUN2 MLP "/run_1700000000491002_2"
#define CPU0 "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0"

/* ---- the mlp_nan fixture ------------------------------------------ */

struct mlp {
	struct reader *r;
	struct rec rec;
};

static int
mlp_setup(void **state)
{
	struct mlp *m = xcalloc(1, sizeof(*m));

	m->r = index_dir(MLP, &m->rec);
	*state = m;
	return 0;
}

static int
mlp_teardown(void **state)
{
	struct mlp *m = *state;

	tfdbg1_reader_ops.close(m->r);
	rec_free(&m->rec);
	free(m);
	return 0;
}

static void
test_tfdbg1_probe_session_root_and_run_dir(void **state)
{
	char tmpl[] = "/tmp/tdbg_t1_probe_XXXXXX";

	(void)state;
	assert_true(tfdbg1_reader_ops.probe(MLP) > 0);
	assert_true(tfdbg1_reader_ops.probe(RUN2) > 0);
	assert_non_null(mkdtemp(tmpl));
	assert_int_equal(tfdbg1_reader_ops.probe(tmpl), 0);
	rmdir(tmpl);
	assert_int_equal(tfdbg1_reader_ops.probe("tests/fixtures/tfdbg1"), 0);
}

static void
test_tfdbg1_mlp_three_runs_in_order(void **state)
{
	struct mlp *m = *state;
	const struct rec *r = &m->rec;

	assert_int_equal(r->nexecs, 3);
	assert_string_equal(r->execs[0].op_type, "Session.run #0");
	assert_string_equal(r->execs[1].op_type, "Session.run #1");
	assert_string_equal(r->execs[2].op_type, "Session.run #2");
	assert_true(fabs(r->execs[0].wall_time - 1700000000.123456) < 1e-6);
	assert_true(fabs(r->execs[2].wall_time - 1700000000.491002) < 1e-6);
	/* sess.run([train_op, cross_entropy]): two fetches */
	assert_int_equal(r->execs[1].num_outputs, 2);
	assert_true(rec_has_meta(r, "format=tfdbg1"));
	assert_true(rec_has_meta(r, "runs=3"));
	assert_true(rec_has_meta(r, "tensor_debug_mode=DebugIdentity,DebugNumericSummary,DebugNanCount"));
	assert_int_equal(r->nproblems, 0);
}

static void
test_tfdbg1_mlp_48_dumps_per_run_in_time_order(void **state)
{
	struct mlp *m = *state;
	const struct rec *r = &m->rec;
	size_t i, per_run[3] = { 0, 0, 0 };

	assert_int_equal(r->ntraces, 144);
	for (i = 0; i < r->ntraces; i++) {
		assert_true(r->traces[i].execution >= 0 && r->traces[i].execution < 3);
		per_run[r->traces[i].execution]++;
		if (i > 0 && r->traces[i].execution == r->traces[i - 1].execution)
			assert_true(r->traces[i].wall_time >= r->traces[i - 1].wall_time);
		if (i > 0)
			assert_true(r->traces[i].execution >= r->traces[i - 1].execution);
	}
	assert_int_equal(per_run[0], 48);
	assert_int_equal(per_run[1], 48);
	assert_int_equal(per_run[2], 48);
}

/* The debug op of every row, from decode(); counts per run. */
static void
test_tfdbg1_mlp_debug_ops_per_run(void **state)
{
	struct mlp *m = *state;
	size_t i, ident = 0, dns = 0, nan = 0;

	for (i = 0; i < m->rec.ntraces; i++) {
		struct reader_detail d;

		if (m->rec.traces[i].execution != 1)
			continue;
		assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_TRACE, &m->rec.traces[i].loc, &d),
				 TD_OK);
		ident += !strcmp(d.mode, "DebugIdentity");
		dns += !strcmp(d.mode, "DebugNumericSummary");
		nan += !strcmp(d.mode, "DebugNanCount");
		reader_detail_done(&d);
	}
	assert_int_equal(ident, 42);
	assert_int_equal(dns, 4);
	assert_int_equal(nan, 2);
}

static bool
in_list(const char *s, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

/* Which tensors each debug op watches; _Arg feeds are not watched. */
static void
test_tfdbg1_mlp_watched_tensors_per_debug_op(void **state)
{
	static const char *const dns_ops[] = { "dense/Relu", "Softmax", "cross_entropy/Log",
					       "cross_entropy/Mean" };
	static const char *const nan_ops[] = { "cross_entropy/mul",
					       "gradients/cross_entropy/Log_grad/mul" };
	struct mlp *m = *state;
	size_t i, dns = 0, nan = 0;

	for (i = 0; i < m->rec.ntraces; i++) {
		const struct rec_trace *t = &m->rec.traces[i];
		struct reader_detail d;

		assert_int_equal(t->slot, 0);
		assert_non_null(t->op_type);
		assert_string_not_equal(t->op_type, "_Arg");
		assert_string_not_equal(t->op_type, "ApplyGradientDescent");
		assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_TRACE, &t->loc, &d), TD_OK);
		if (!strcmp(d.mode, "DebugNumericSummary")) {
			assert_true(in_list(t->op_name, dns_ops, 4));
			dns++;
		} else if (!strcmp(d.mode, "DebugNanCount")) {
			assert_true(in_list(t->op_name, nan_ops, 2));
			nan++;
		}
		reader_detail_done(&d);
	}
	assert_int_equal(dns, 3 * 4);
	assert_int_equal(nan, 3 * 2);
}

static void
test_tfdbg1_mlp_partition_graph_hides_debugger_nodes(void **state)
{
	struct tfdbg1_graph g;
	uint8_t *data;
	size_t len;
	char err[256];

	(void)state;
	assert_int_equal(tfdbg1_read_file(RUN2 "/" CPU0 "/_tfdbg_graph_hash5142332573353703294_1700000000492158",
					  &data, &len, err, sizeof(err)), TD_OK);
	assert_int_equal(tfdbg1_graph_decode(data, len, &g, err, sizeof(err)), TD_OK);
	assert_int_equal(g.nnodes + g.ncopy + g.ndebug, 148);
	assert_int_equal(g.nnodes, 58);
	assert_int_equal(g.ncopy, 42);
	assert_int_equal(g.ndebug, 48);
	assert_non_null(tfdbg1_graph_find(&g, "_arg_x_0_0"));
	assert_string_equal(tfdbg1_graph_find(&g, "_retval_cross_entropy/Mean_0_0")->op, "_Retval");
	assert_string_equal(tfdbg1_graph_find(&g, "GradientDescent")->op, "NoOp");
	tfdbg1_graph_done(&g);
	free(data);
}

/* A graph shared by several runs (the decode is done once) stays whole
 * until its last holder lets it go, in any order. */
static void
test_tfdbg1_shared_graph_outlives_first_holder(void **state)
{
	struct tfdbg1_graph a, b, c;
	uint8_t *data;
	size_t len;
	char err[256];

	(void)state;
	assert_int_equal(tfdbg1_read_file(RUN2 "/" CPU0 "/_tfdbg_graph_hash5142332573353703294_1700000000492158",
					  &data, &len, err, sizeof(err)), TD_OK);
	assert_int_equal(tfdbg1_graph_decode(data, len, &a, err, sizeof(err)), TD_OK);
	free(data);
	tfdbg1_graph_share(&a, &b);
	tfdbg1_graph_share(&a, &c);
	tfdbg1_graph_done(&a);
	assert_null(a.nodes);
	assert_int_equal(b.nnodes, 58);
	assert_string_equal(tfdbg1_graph_find(&b, "GradientDescent")->op, "NoOp");
	tfdbg1_graph_done(&c);
	assert_string_equal(tfdbg1_graph_find(&b, "_retval_cross_entropy/Mean_0_0")->op, "_Retval");
	tfdbg1_graph_done(&b);
	assert_null(b.nodes);
}

static const struct rec_op *
find_op(const struct rec *r, const char *graph_suffix, const char *name)
{
	size_t i;

	for (i = 0; i < r->nops; i++)
		if (!strcmp(r->ops[i].name, name) && strstr(r->ops[i].graph_id, graph_suffix))
			return &r->ops[i];
	return NULL;
}

static void
test_tfdbg1_mlp_ops_per_run_graph(void **state)
{
	struct mlp *m = *state;
	const struct rec *r = &m->rec;
	const struct rec_op *log;
	size_t i;

	assert_int_equal(r->ngraphs, 3);
	assert_int_equal(r->ndevices, 1);
	assert_string_equal(r->devices[0], "/job:localhost/replica:0/task:0/device:CPU:0");
	assert_int_equal(r->nops, 3 * 58);
	for (i = 0; i < r->nops; i++)
		assert_true(strncmp(r->ops[i].name, "__", 2) != 0);
	log = find_op(r, "run_1700000000491002_2", "cross_entropy/Log");
	assert_non_null(log);
	assert_string_equal(log->type, "Log");
	assert_string_equal(log->device, "/job:localhost/replica:0/task:0/device:CPU:0");
	/* its only input is Softmax:0 (through the debugger's copy node) */
	assert_int_equal(log->ninputs, 1);
	assert_string_equal(log->inputs[0], "Softmax:0");
}

static void
test_tfdbg1_mlp_first_nonfinite_is_log_in_run_2(void **state)
{
	struct mlp *m = *state;
	const struct rec *r = &m->rec;
	const struct rec_trace *t = NULL;
	size_t i, first_of_run2 = 0;

	for (i = 0; i < r->ntraces; i++) {
		if (r->traces[i].execution == 2 && !first_of_run2)
			first_of_run2 = i;
		if (td_summary_nonfinite(&r->traces[i].summary)) {
			t = &r->traces[i];
			break;
		}
	}
	assert_non_null(t);
	assert_int_equal(t->execution, 2);
	assert_string_equal(t->op_name, "cross_entropy/Log");
	assert_int_equal(t->slot, 0);
	assert_string_equal(t->op_type, "Log");
	assert_int_equal(t->summary.neg_inf, 9);
	assert_int_equal(t->summary.nan, 0);
	assert_int_equal(t->summary.pos_inf, 0);
	assert_int_equal(t->summary.elements, 80);
	assert_int_equal(t->summary.dims[0], 8);
	assert_int_equal(t->summary.dims[1], 10);
	/* the 27th dump of the run, 550 us after its first dump */
	assert_int_equal(i - first_of_run2, 26);
	assert_true(fabs((t->wall_time - r->traces[first_of_run2].wall_time) - 550e-6) < 1e-7);
}

static void
test_tfdbg1_mlp_runs_0_and_1_are_finite(void **state)
{
	struct mlp *m = *state;
	size_t i;

	for (i = 0; i < m->rec.ntraces; i++)
		if (m->rec.traces[i].execution < 2)
			assert_false(td_summary_nonfinite(&m->rec.traces[i].summary));
}

static bool
values_nonfinite(const struct reader_detail *d)
{
	int64_t k;
	size_t j;

	if (d->values[0] && td_dtype_is_float(d->values[0]->dtype))
		for (k = 0; k < d->values[0]->n; k++)
			if (!isfinite(td_tensor_get(d->values[0], k)))
				return true;
	for (j = 0; j < d->ndebug_values[0]; j++)
		if (!isfinite(d->debug_values[0][j]))
			return true;
	return false;
}

/* README: "18 dumps of run 2 contain inf or NaN" -- the dumped values
 * themselves (DebugIdentity tensors, and cross_entropy/Mean's
 * DebugNumericSummary vector whose min/max/mean are inf/NaN). */
static void
test_tfdbg1_mlp_18_dumps_of_run_2_hold_inf_or_nan(void **state)
{
	struct mlp *m = *state;
	size_t i, n = 0;

	for (i = 0; i < m->rec.ntraces; i++) {
		struct reader_detail d;

		if (m->rec.traces[i].execution != 2)
			continue;
		assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_TRACE, &m->rec.traces[i].loc, &d),
				 TD_OK);
		n += values_nonfinite(&d);
		reader_detail_done(&d);
	}
	assert_int_equal(n, 18);
}

static const struct rec_trace *
find_trace(const struct rec *r, int64_t run, const char *op, size_t nth)
{
	size_t i;

	for (i = 0; i < r->ntraces; i++)
		if (r->traces[i].execution == run && !strcmp(r->traces[i].op_name, op) && nth-- == 0)
			return &r->traces[i];
	return NULL;
}

static void
test_tfdbg1_mlp_summary_rows_of_bad_tensors_are_alerts(void **state)
{
	struct mlp *m = *state;
	const struct rec_trace *dns = find_trace(&m->rec, 2, "cross_entropy/Log", 1);
	const struct rec_trace *nanc = find_trace(&m->rec, 2, "cross_entropy/mul", 1);
	const struct rec_trace *softmax = find_trace(&m->rec, 2, "Softmax", 0);

	/* Log's DebugNumericSummary: [1, 80, 0, 9, 70, 1, 0, 0, ...] */
	assert_non_null(dns);
	assert_int_equal(dns->summary.neg_inf, 9);
	assert_int_equal(dns->summary.negative, 70);
	assert_int_equal(dns->summary.zero, 1);
	assert_true(td_summary_nonfinite(&dns->summary));
	/* cross_entropy/mul's DebugNanCount is [8] */
	assert_non_null(nanc);
	assert_int_equal(nanc->summary.nan, 8);
	assert_true(td_summary_nonfinite(&nanc->summary));
	/* Softmax:0 holds zeros but is finite */
	assert_false(td_summary_nonfinite(&softmax->summary));
	assert_true(softmax->summary.zero > 0);
}

static void
test_tfdbg1_mlp_loss_per_run(void **state)
{
	struct mlp *m = *state;
	const double loss[2] = { 2.50253, 2.18158 };
	int64_t run;

	for (run = 0; run < 3; run++) {
		const struct rec_trace *t = find_trace(&m->rec, run, "cross_entropy/Mean", 0);
		struct reader_detail d;

		assert_non_null(t);
		assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_TRACE, &t->loc, &d), TD_OK);
		assert_string_equal(d.mode, "DebugIdentity");
		assert_int_equal(d.values[0]->n, 1);
		if (run < 2)
			assert_true(fabs(td_tensor_get(d.values[0], 0) - loss[run]) < 1e-5);
		else
			assert_true(isnan(td_tensor_get(d.values[0], 0)));
		reader_detail_done(&d);
	}
}

static void
test_tfdbg1_mlp_trace_detail(void **state)
{
	struct mlp *m = *state;
	const struct rec_trace *t = find_trace(&m->rec, 2, "cross_entropy/Log", 1);
	struct reader_detail d;

	assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_TRACE, &t->loc, &d), TD_OK);
	assert_string_equal(d.mode, "DebugNumericSummary");
	assert_string_equal(d.op_name, "cross_entropy/Log");
	assert_string_equal(d.op_type, "Log");
	assert_string_equal(d.device, "/job:localhost/replica:0/task:0/device:CPU:0");
	assert_int_equal(d.noutputs, 1);
	assert_int_equal(d.ndebug_values[0], 16);
	assert_true(d.debug_values[0][3] == 9 && d.debug_values[0][13] == 2);
	assert_true(fabs(d.debug_values[0][11] - 0.305468) < 1e-6);
	assert_null(d.values[0]);
	assert_true(fabs(d.wall_time - 1700000000.493396) < 1e-6);
	assert_non_null(strstr(d.text, "debug op: DebugNumericSummary"));
	assert_non_null(strstr(d.text, "Log_0_DebugNumericSummary_1700000000493396"));
	reader_detail_done(&d);
}

static void
test_tfdbg1_mlp_dump_wall_time_equals_file_timestamp(void **state)
{
	struct mlp *m = *state;
	size_t i;

	for (i = 0; i < m->rec.ntraces; i++) {
		struct reader_detail d;

		assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_TRACE, &m->rec.traces[i].loc, &d),
				 TD_OK);
		/* the text names an Event wall_time only when it differs */
		assert_null(strstr(d.text, "event wall_time"));
		assert_null(strstr(d.text, "collision"));
		reader_detail_done(&d);
	}
}

static void
test_tfdbg1_mlp_execution_detail_core_metadata(void **state)
{
	struct mlp *m = *state;
	const char *run_index[3] = { "session run index: 1\n", "session run index: 2\n",
				     "session run index: 3\n" };
	int run;

	for (run = 0; run < 3; run++) {
		struct reader_detail d;

		assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_EXECUTION,
							  &m->rec.execs[run].loc, &d), TD_OK);
		assert_non_null(strstr(d.text, run_index[run]));
		assert_non_null(strstr(d.text, "global step: -1\n"));
		assert_non_null(strstr(d.text, "executor step index: 0\n"));
		assert_non_null(strstr(d.text, "input names: x:0, y:0\n"));
		assert_non_null(strstr(d.text, "output names: cross_entropy/Mean:0\n"));
		assert_non_null(strstr(d.text, "target nodes: GradientDescent\n"));
		assert_non_null(strstr(d.text, "fetches: [<tf.Operation 'GradientDescent' type=NoOp>"));
		assert_non_null(strstr(d.text, "feed keys: dict_keys(["));
		assert_string_equal(d.op_type, m->rec.execs[run].op_type);
		reader_detail_done(&d);
	}
}

/* A run's outputs: the fetched loss (cross_entropy/Mean:0) with its value,
 * then the fetched train op GradientDescent, which has none. */
static void
test_tfdbg1_mlp_execution_outputs_are_the_fetches(void **state)
{
	struct mlp *m = *state;
	const double loss[2] = { 2.50253, 2.18158 };
	int run;

	for (run = 0; run < 3; run++) {
		struct reader_detail d;

		assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_EXECUTION,
							  &m->rec.execs[run].loc, &d), TD_OK);
		assert_int_equal(d.noutputs, 2);
		assert_int_equal(d.summaries[0].elements, 1);
		assert_non_null(d.values[0]);
		if (run < 2)
			assert_true(fabs(td_tensor_get(d.values[0], 0) - loss[run]) < 1e-5);
		else
			assert_true(isnan(td_tensor_get(d.values[0], 0)) && d.summaries[0].nan == 1);
		assert_int_equal(d.summaries[1].known, 0);
		assert_null(d.values[1]);
		reader_detail_done(&d);
	}
}

static void
test_tfdbg1_mlp_advance_over_rows_and_runs(void **state)
{
	struct mlp *m = *state;
	struct td_locator loc = m->rec.traces[0].loc;

	assert_int_equal(tfdbg1_reader_ops.advance(m->r, READER_TRACE, &loc, 100), TD_OK);
	assert_int_equal(loc.file, m->rec.traces[100].loc.file);
	assert_int_equal(tfdbg1_reader_ops.advance(m->r, READER_TRACE, &loc, 43), TD_OK);
	assert_int_equal(loc.file, m->rec.traces[143].loc.file);
	assert_int_equal(tfdbg1_reader_ops.advance(m->r, READER_TRACE, &loc, 1), TD_ERR_RANGE);
	loc = m->rec.execs[0].loc;
	assert_int_equal(tfdbg1_reader_ops.advance(m->r, READER_EXECUTION, &loc, 2), TD_OK);
	assert_int_equal(loc.file, m->rec.execs[2].loc.file);
	assert_int_equal(tfdbg1_reader_ops.advance(m->r, READER_EXECUTION, &loc, 1), TD_ERR_RANGE);
}

static void
test_tfdbg1_mlp_decode_wrong_locators(void **state)
{
	struct mlp *m = *state;
	struct td_locator far = { 100000, 0 };
	struct reader_detail d;

	assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_TRACE, &m->rec.execs[0].loc, &d),
			 TD_ERR_RANGE);
	assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_EXECUTION, &m->rec.traces[0].loc, &d),
			 TD_ERR_RANGE);
	assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_TRACE, &far, &d), TD_ERR_RANGE);
	assert_int_equal(tfdbg1_reader_ops.decode(m->r, READER_SOURCE, &m->rec.traces[0].loc, &d),
			 TD_ERR_UNSUPPORTED);
	assert_int_equal(tfdbg1_reader_ops.advance(m->r, READER_TRACE, &far, 1), TD_ERR_RANGE);
	reader_detail_done(&d);
}

/* The in-place index summary agrees with the full decode on every
 * DebugIdentity dump, and does not apply to the other debug ops. */
static void
test_tfdbg1_mlp_fast_summary_matches_full_decode(void **state)
{
	struct mlp *m = *state;
	size_t i, fast = 0;

	for (i = 0; i < m->rec.ntraces; i++) {
		const struct tfdbg1_file *f = &m->r->files[m->rec.traces[i].loc.file];
		struct td_summary s;
		struct tfdbg1_datum d;
		uint8_t *data;
		size_t len;
		char err[256];
		bool ident = !strcmp(f->debug_op, "DebugIdentity");
		char *path = tfdbg1_file_path(f);

		assert_int_equal(tfdbg1_read_file(path, &data, &len, err, sizeof(err)), TD_OK);
		free(path);
		assert_int_equal(tfdbg1_fast_summary(data, len, f->debug_op, &s), ident);
		if (ident) {
			assert_int_equal(tfdbg1_datum_decode(data, len, f->debug_op, &d, err,
							     sizeof(err)), TD_OK);
			assert_int_equal(s.known, d.summary.known);
			assert_int_equal(s.elements, d.summary.elements);
			assert_int_equal(s.nan, d.summary.nan);
			assert_int_equal(s.neg_inf, d.summary.neg_inf);
			assert_int_equal(s.pos_inf, d.summary.pos_inf);
			assert_int_equal(s.negative, d.summary.negative);
			assert_int_equal(s.zero, d.summary.zero);
			assert_int_equal(s.positive, d.summary.positive);
			assert_int_equal(s.rank, d.summary.rank);
			assert_memory_equal(s.dims, d.summary.dims, sizeof(s.dims));
			assert_true(s.min == d.summary.min && s.max == d.summary.max);
			tfdbg1_datum_done(&d);
			fast++;
		}
		free(data);
	}
	assert_int_equal(fast, 3 * 42);
}

static void
test_tfdbg1_mlp_second_pass_sends_nothing_new(void **state)
{
	struct mlp *m = *state;
	struct rec again;
	struct reader_sink sink = rec_sink(&again);

	memset(&again, 0, sizeof(again));
	assert_int_equal(tfdbg1_reader_ops.index(m->r, &sink), TD_OK);
	assert_int_equal(again.ntraces, 0);
	assert_int_equal(again.nexecs, 0);
	assert_int_equal(again.nops, 0);
	assert_true(rec_has_meta(&again, "runs=3"));
	rec_free(&again);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg1_probe_session_root_and_run_dir),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_three_runs_in_order, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_48_dumps_per_run_in_time_order, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_debug_ops_per_run, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_watched_tensors_per_debug_op, mlp_setup, mlp_teardown),
		cmocka_unit_test(test_tfdbg1_mlp_partition_graph_hides_debugger_nodes),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_ops_per_run_graph, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_first_nonfinite_is_log_in_run_2, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_runs_0_and_1_are_finite, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_18_dumps_of_run_2_hold_inf_or_nan, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_summary_rows_of_bad_tensors_are_alerts, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_loss_per_run, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_trace_detail, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_dump_wall_time_equals_file_timestamp, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_execution_detail_core_metadata, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_execution_outputs_are_the_fetches, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_advance_over_rows_and_runs, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_decode_wrong_locators, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_fast_summary_matches_full_decode, mlp_setup, mlp_teardown),
		cmocka_unit_test_setup_teardown(test_tfdbg1_mlp_second_pass_sends_nothing_new, mlp_setup, mlp_teardown),
		cmocka_unit_test(test_tfdbg1_shared_graph_outlives_first_holder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
