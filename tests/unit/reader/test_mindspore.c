/*
 * test_mindspore.c - the MindSpore reader end to end on the bundled sync
 * (sync_lenet) and async (async_small) fixtures, through a recording sink.
 * Facts come from the fixtures' READMEs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader.h"
#include "tests/unit/helpers/files.h"

#define SYNC "tests/fixtures/mindspore/sync_lenet"
#define ASYNC "tests/fixtures/mindspore/async_small"
#define MATMUL10 "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10"

struct rec_trace {
	char *op_name, *op_type;
	uint32_t slot;
	bool is_input;
	int64_t execution;
	int64_t step;
	struct td_summary summary;
	struct td_locator loc;
};

struct rec {
	char **meta;                 /* "key=value" */
	size_t nmeta;
	char **execs;                /* "label@host" */
	size_t nexecs;
	int64_t exec_steps[8];       /* steps of the first executions */
	struct rec_trace *traces;
	size_t ntraces;
	struct reader_op *ops;       /* op_name, op_type, frame ids copied */
	size_t nops;
	char **op_aliases;           /* per op: its first alias, or NULL */
	struct reader_frame *frames; /* id, file, line, code copied */
	size_t nframes;
	char **overflows;            /* "op|detail" */
	size_t noverflows;
	struct reader_alert alert0;  /* the first alert (strings cleared) */
	size_t nsources, nproblems;
	int64_t last_exec;
	bool order_ok;               /* executions arrive before their traces */
};

static char **
push_str(char **v, size_t *n, char *s)
{
	v = realloc(v, (*n + 1) * sizeof(*v));
	v[(*n)++] = s;
	return v;
}

static void
on_meta(void *ctx, const char *k, const char *v)
{
	struct rec *r = ctx;

	r->meta = push_str(r->meta, &r->nmeta, xasprintf("%s=%s", k, v));
}

static void
on_execution(void *ctx, const struct reader_execution *e)
{
	struct rec *r = ctx;

	if (r->nexecs < TD_ARRAY_SIZE(r->exec_steps))
		r->exec_steps[r->nexecs] = e->step;
	r->execs = push_str(r->execs, &r->nexecs, xasprintf("%s@%s", e->op_type, e->host));
}

static void
on_trace(void *ctx, const struct reader_trace *t)
{
	struct rec *r = ctx;
	struct rec_trace *x;

	r->traces = realloc(r->traces, (r->ntraces + 1) * sizeof(*r->traces));
	x = &r->traces[r->ntraces++];
	x->op_name = xstrdup(t->op_name);
	x->op_type = xstrdup(t->op_type ? t->op_type : "");
	x->slot = t->slot;
	x->is_input = t->is_input;
	x->execution = t->execution;
	x->step = t->step;
	x->summary = t->summary;
	x->loc = t->loc;
	if (t->execution >= (int64_t)r->nexecs)
		r->order_ok = false;
}

static void
on_op(void *ctx, const struct reader_op *op)
{
	struct rec *r = ctx;
	struct reader_op *o;
	size_t i;
	char **ids = calloc(op->nframes + 1, sizeof(*ids));

	r->ops = realloc(r->ops, (r->nops + 1) * sizeof(*r->ops));
	o = &r->ops[r->nops++];
	*o = *op;
	o->op_name = xstrdup(op->op_name);
	o->op_type = xstrdup(op->op_type);
	for (i = 0; i < op->nframes; i++)
		ids[i] = xstrdup(op->frame_ids[i]);
	o->frame_ids = (const char *const *)ids;
	o->inputs = NULL;
	o->ninputs = op->ninputs;
	o->aliases = NULL;
	r->op_aliases = realloc(r->op_aliases, r->nops * sizeof(*r->op_aliases));
	r->op_aliases[r->nops - 1] = op->naliases ? xstrdup(op->aliases[0]) : NULL;
}

static void
on_frame(void *ctx, const struct reader_frame *f)
{
	struct rec *r = ctx;
	struct reader_frame *x;

	r->frames = realloc(r->frames, (r->nframes + 1) * sizeof(*r->frames));
	x = &r->frames[r->nframes++];
	*x = *f;
	x->id = xstrdup(f->id);
	x->file = xstrdup(f->file);
	x->code = f->code ? xstrdup(f->code) : NULL;
}

static void
on_source(void *ctx, const struct reader_source *s)
{
	(void)s;
	((struct rec *)ctx)->nsources++;
}

static void
on_problem(void *ctx, const struct reader_problem *p)
{
	(void)p;
	((struct rec *)ctx)->nproblems++;
}

static void
on_alert(void *ctx, const struct reader_alert *a)
{
	struct rec *r = ctx;

	assert_int_equal(a->kind, READER_ALERT_OVERFLOW);
	r->overflows = push_str(r->overflows, &r->noverflows,
				xasprintf("%s|%s", a->op_name, a->detail));
	if (r->noverflows == 1) {
		r->alert0 = *a;
		r->alert0.op_name = r->alert0.detail = NULL;
	}
}

static struct reader *
index_dump(const char *dir, struct rec *rec)
{
	struct reader_sink sink = {
		.ctx = rec, .on_meta = on_meta, .on_execution = on_execution, .on_trace = on_trace,
		.on_op = on_op, .on_frame = on_frame, .on_source = on_source,
		.on_problem = on_problem, .on_alert = on_alert,
	};
	struct reader_options opt = {0};
	struct reader *r = NULL;
	char err[256] = "";

	memset(rec, 0, sizeof(*rec));
	rec->order_ok = true;
	assert_true(mindspore_reader_ops.probe(dir) > 0);
	if (mindspore_reader_ops.open(dir, &opt, &r, err, sizeof err) != TD_OK)
		fail_msg("open %s: %s", dir, err);
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	return r;
}

static bool
has_meta(const struct rec *r, const char *kv)
{
	size_t i;

	for (i = 0; i < r->nmeta; i++)
		if (strcmp(r->meta[i], kv) == 0)
			return true;
	return false;
}

static const struct reader_op *
find_op(const struct rec *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nops; i++)
		if (strcmp(r->ops[i].op_name, name) == 0)
			return &r->ops[i];
	return NULL;
}

static const struct reader_frame *
find_frame(const struct rec *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->nframes; i++)
		if (strcmp(r->frames[i].id, id) == 0)
			return &r->frames[i];
	return NULL;
}

static void
rec_free(struct rec *r)
{
	size_t i, k;

	for (i = 0; i < r->nmeta; i++)
		free(r->meta[i]);
	for (i = 0; i < r->nexecs; i++)
		free(r->execs[i]);
	for (i = 0; i < r->ntraces; i++) {
		free(r->traces[i].op_name);
		free(r->traces[i].op_type);
	}
	for (i = 0; i < r->nops; i++) {
		free((char *)r->ops[i].op_name);
		free((char *)r->ops[i].op_type);
		for (k = 0; k < r->ops[i].nframes; k++)
			free((char *)r->ops[i].frame_ids[k]);
		free((void *)r->ops[i].frame_ids);
		free(r->op_aliases[i]);
	}
	free(r->op_aliases);
	for (i = 0; i < r->nframes; i++) {
		free((char *)r->frames[i].id);
		free((char *)r->frames[i].file);
		free((char *)r->frames[i].code);
	}
	for (i = 0; i < r->noverflows; i++)
		free(r->overflows[i]);
	free(r->meta);
	free(r->execs);
	free(r->traces);
	free(r->ops);
	free(r->frames);
	free(r->overflows);
}

/* ---- sync fixture ------------------------------------------------------- */

static void
test_mindspore_sync_meta(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC, &rec);

	(void)state;
	assert_true(has_meta(&rec, "format=mindspore-sync"));
	assert_true(has_meta(&rec, "ranks=1"));
	assert_true(has_meta(&rec, "rank_ids[]=0"));
	assert_true(has_meta(&rec, "host[]=rank_0"));
	assert_true(has_meta(&rec, "graphs=1"));
	assert_true(has_meta(&rec, "iterations=2"));
	assert_true(has_meta(&rec, "net_name=Lenet"));
	/* 50 .npy per iteration dir, 2 constants sent with the first run */
	assert_true(has_meta(&rec, "tensors=102"));
	assert_int_equal(rec.nproblems, 0);
	/* ops go out with their older file-name spelling as an alias; a name
	 * without scope has none */
	for (size_t i = 0; i < rec.nops; i++) {
		if (strcmp(rec.ops[i].op_name, MATMUL10) == 0)
			assert_string_equal(rec.op_aliases[i], "Default--network-WithLossCell--"
					    "_backbone-LeNet5--fc3-Dense--MatMul-op10");
		if (!strchr(rec.ops[i].op_name, '/'))
			assert_null(rec.op_aliases[i]);
	}
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_sync_two_graph_runs_in_order(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC, &rec);

	(void)state;
	assert_int_equal(rec.nexecs, 2);
	assert_string_equal(rec.execs[0], "graph 0 iter 0@rank_0");
	assert_string_equal(rec.execs[1], "graph 0 iter 1@rank_0");
	assert_true(rec.order_ok);
	assert_int_equal(rec.ntraces, 102);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_sync_seventeen_kernels_in_execution_order(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC, &rec);
	const char *seen[64];
	size_t nseen = 0, i, k;

	(void)state;
	for (i = 0; i < rec.ntraces && rec.traces[i].execution == 0; i++) {
		if (strcmp(rec.traces[i].op_type, "Parameter") == 0)
			continue;
		for (k = 0; k < nseen && strcmp(seen[k], rec.traces[i].op_name); k++)
			;
		if (k == nseen)
			seen[nseen++] = rec.traces[i].op_name;
	}
	assert_int_equal(nseen, 17);
	assert_string_equal(seen[0],
			    "Default/network-WithLossCell/_loss_fn-SoftmaxCrossEntropyWithLogits/OneHot-op0");
	assert_string_equal(seen[16],
			    "Default/network-WithLossCell/_loss_fn-SoftmaxCrossEntropyWithLogits/ReduceMean-op60");
	/* OneHot-op0: inputs 0, 1, 2 then output 0 */
	assert_true(rec.traces[0].is_input && rec.traces[0].slot == 0);
	assert_true(rec.traces[2].is_input && rec.traces[2].slot == 2);
	assert_false(rec.traces[3].is_input);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_sync_first_nonfinite_is_matmul_op10_output(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC, &rec);
	size_t i;

	(void)state;
	for (i = 0; i < rec.ntraces && !td_summary_nonfinite(&rec.traces[i].summary); i++)
		;
	assert_true(i < rec.ntraces);
	assert_string_equal(rec.traces[i].op_name, MATMUL10);
	assert_string_equal(rec.traces[i].op_type, "MatMul");
	assert_false(rec.traces[i].is_input);
	assert_int_equal(rec.traces[i].slot, 0);
	assert_int_equal(rec.traces[i].execution, 1);
	assert_int_equal(rec.traces[i].summary.nan, 2);
	assert_int_equal(rec.traces[i].summary.neg_inf, 1);
	assert_int_equal(rec.traces[i].summary.pos_inf, 0);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_sync_decode_reads_the_npy_value(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC, &rec);
	struct reader_detail d;
	size_t i;

	(void)state;
	for (i = 0; i < rec.ntraces && !td_summary_nonfinite(&rec.traces[i].summary); i++)
		;
	assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE, &rec.traces[i].loc, &d), TD_OK);
	assert_string_equal(d.op_name, MATMUL10);
	assert_string_equal(d.host, "rank_0");
	assert_int_equal(d.noutputs, 1);
	assert_int_equal(d.summaries[0].nan, 2);
	assert_non_null(d.values[0]);
	assert_int_equal(d.values[0]->n, 240);
	assert_int_equal(d.values[0]->rank, 2);
	reader_detail_done(&d);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_sync_stack_of_matmul_op10_reaches_train_lenet_line_26(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC, &rec);
	const struct reader_op *op;
	const struct reader_frame *f;

	(void)state;
	op = find_op(&rec, MATMUL10);
	assert_non_null(op);
	assert_string_equal(op->op_type, "MatMul");
	assert_int_equal(op->nframes, 2);
	assert_int_equal(op->ninputs, 2);
	f = find_frame(&rec, op->frame_ids[0]);   /* outermost first: the user's line */
	assert_non_null(f);
	assert_string_equal(f->file, "/home/user/lenet/train_lenet.py");
	assert_int_equal(f->line, 26);
	assert_string_equal(f->code, "        x = self.fc1(x)");
	assert_true(f->source_id >= 0);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_sync_source_lines_from_trace_or_source_root(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC, &rec);
	const struct reader_op *op = find_op(&rec, MATMUL10);
	const struct reader_frame *f = find_frame(&rec, op->frame_ids[0]);
	struct td_locator loc = { 0, (uint64_t)f->source_id };
	struct reader_options opt = { .source_root = "tests/fixtures/mindspore" };
	struct reader_detail d;
	char err[128];

	(void)state;
	assert_int_equal(mindspore_reader_ops.decode(r, READER_SOURCE, &loc, &d), TD_OK);
	assert_true(d.nlines >= 26);
	assert_string_equal(d.lines[25], "        x = self.fc1(x)");
	assert_true(d.lines_partial);          /* the .ir knows only some lines */
	assert_null(d.lines[0]);
	reader_detail_done(&d);
	mindspore_reader_ops.close(r);
	rec_free(&rec);

	/* with --source-root the whole file comes from disk */
	assert_int_equal(mindspore_reader_ops.open(SYNC, &opt, &r, err, sizeof err), TD_OK);
	{
		struct reader_sink sink = {0};

		assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	}
	assert_int_equal(mindspore_reader_ops.decode(r, READER_SOURCE, &loc, &d), TD_OK);
	assert_false(d.lines_partial);
	assert_string_equal(d.lines[0], "import mindspore.nn as nn");
	assert_string_equal(d.lines[25], "        x = self.fc1(x)");
	reader_detail_done(&d);
	mindspore_reader_ops.close(r);
}

static void
test_mindspore_sync_advance_walks_a_run(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC, &rec);
	struct td_locator loc = rec.traces[0].loc;

	(void)state;
	assert_int_equal(mindspore_reader_ops.advance(r, READER_TRACE, &loc, 3), TD_OK);
	assert_int_equal(loc.offset, rec.traces[3].loc.offset);
	assert_int_equal(mindspore_reader_ops.advance(r, READER_TRACE, &loc, 1000), TD_ERR_RANGE);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_probe_rejects_other_dirs(void **state)
{
	(void)state;
	assert_int_equal(mindspore_reader_ops.probe("tests/fixtures/mindspore"), 0);
	assert_true(mindspore_reader_ops.probe(SYNC "/rank_0") > 0);
}

/* ---- async fixture --------------------------------------------------------- */

static void
test_mindspore_async_meta_and_rows(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(ASYNC, &rec);

	(void)state;
	assert_true(has_meta(&rec, "format=mindspore-async"));
	assert_true(has_meta(&rec, "ranks=1"));
	assert_true(has_meta(&rec, "iterations=2"));
	assert_true(has_meta(&rec, "tensors=11"));
	assert_true(has_meta(&rec, "net_name=Net"));
	assert_int_equal(rec.nexecs, 2);
	assert_int_equal(rec.ntraces, 11);
	assert_int_equal(rec.nproblems, 0);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_async_overflow_names_mul_op2(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(ASYNC, &rec);
	size_t i;

	(void)state;
	assert_int_equal(rec.noverflows, 1);
	assert_true(strncmp(rec.overflows[0], "Default/network/Mul-op2|", 24) == 0);
	assert_non_null(strstr(rec.overflows[0], "0x800"));
	assert_non_null(strstr(rec.overflows[0], "iter 0"));
	/* in iteration 0 (execution 0); it locates Mul-op2's output row, the
	 * record names no slot */
	assert_int_equal(rec.alert0.execution, 0);
	assert_int_equal(rec.alert0.slot, -1);
	assert_true(rec.alert0.has_trace);
	for (i = 0; i < rec.ntraces; i++)
		if (rec.traces[i].loc.file == rec.alert0.trace.file &&
		    rec.traces[i].loc.offset == rec.alert0.trace.offset)
			break;
	assert_true(i < rec.ntraces);
	assert_string_equal(rec.traces[i].op_name, "Default/network/Mul-op2");
	assert_false(rec.traces[i].is_input);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_async_numbered_file_resolves_through_mapping(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(ASYNC, &rec);
	const char *conv = "Default/network-WithLossCell/_backbone-VeryLongName/Conv2D-op3";
	size_t i, ins = 0, outs = 0;

	(void)state;
	for (i = 0; i < rec.ntraces; i++)
		if (strcmp(rec.traces[i].op_name, conv) == 0) {
			ins += rec.traces[i].is_input;
			outs += !rec.traces[i].is_input;
		}
	assert_int_equal(ins, 2);
	assert_int_equal(outs, 1);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_async_bin_values_and_infinities(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(ASYNC, &rec);
	struct reader_detail d;
	size_t i;

	(void)state;
	/* kernel order: Add in0, in1, out0, Mul in0, out0, Conv2D ... */
	assert_string_equal(rec.traces[2].op_name, "Default/Add-op1");
	assert_false(rec.traces[2].is_input);
	assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE, &rec.traces[2].loc, &d), TD_OK);
	assert_non_null(d.values[0]);
	assert_int_equal(d.values[0]->n, 6);
	assert_int_equal(d.values[0]->dims[1], 3);
	assert_true(td_tensor_get(d.values[0], 5) == 12.0);
	reader_detail_done(&d);
	for (i = 0; i < rec.ntraces && !td_summary_nonfinite(&rec.traces[i].summary); i++)
		;
	assert_string_equal(rec.traces[i].op_name, "Default/network/Mul-op2");
	assert_false(rec.traces[i].is_input);
	assert_int_equal(rec.traces[i].summary.dtype, DTYPE_FLOAT16);
	assert_int_equal(rec.traces[i].summary.pos_inf, 1);
	assert_int_equal(rec.traces[i].summary.neg_inf, 1);
	assert_int_equal(rec.traces[i].summary.nan, 0);
	for (i++; i < rec.ntraces; i++)
		assert_false(td_summary_nonfinite(&rec.traces[i].summary));
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_async_truncated_bin_is_reported_and_rest_survives(void **state)
{
	char *tmp = test_tmpdir("ms"), cmd[512];
	struct rec rec;
	struct reader *r;

	(void)state;
	snprintf(cmd, sizeof cmd, "cp -r %s %s/ && chmod -R u+w %s && truncate -s 100 "
		 "%s/async_small/rank_0/Net/0/1/Add.Default_Add-op1.1.2.1700000001000010",
		 ASYNC, tmp, tmp, tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%s/async_small", tmp);
	r = index_dump(cmd, &rec);
	assert_int_equal(rec.nproblems, 1);
	assert_int_equal(rec.nexecs, 2);
	assert_int_equal(rec.ntraces, 8);      /* iteration 0 intact */
	assert_int_equal(rec.noverflows, 1);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
	test_rmtree(tmp);
}

/* ---- layouts built in a temp dir from the fixtures -------------------------- */

/* Runs a shell script with $T set to a fresh temp dir; returns the dir. */
static char *
tmp_layout(const char *script)
{
	char *tmp = test_tmpdir("ms"), *cmd;

	cmd = xasprintf("T=%s; set -e; %s", tmp, script);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	return tmp;
}

static void
test_mindspore_two_ranks_interleave_by_iteration(void **state)
{
	char *t = tmp_layout("cp -r " SYNC "/rank_0 $T/rank_0; cp -r " SYNC "/rank_0 $T/rank_1; "
			     "chmod -R u+w $T");
	struct rec rec;
	struct reader *r = index_dump(t, &rec);

	(void)state;
	assert_true(has_meta(&rec, "ranks=2"));
	assert_true(has_meta(&rec, "rank_ids[]=0"));
	assert_true(has_meta(&rec, "rank_ids[]=1"));
	assert_true(has_meta(&rec, "host[]=rank_1"));
	assert_int_equal(rec.nexecs, 4);
	assert_string_equal(rec.execs[0], "graph 0 iter 0@rank_0");
	assert_string_equal(rec.execs[1], "graph 0 iter 0@rank_1");
	assert_string_equal(rec.execs[2], "graph 0 iter 1@rank_0");
	assert_string_equal(rec.execs[3], "graph 0 iter 1@rank_1");
	assert_int_equal(rec.ntraces, 204);
	/* steps are the iteration numbers, not the execution rows */
	assert_int_equal(rec.exec_steps[0], 0);
	assert_int_equal(rec.exec_steps[1], 0);
	assert_int_equal(rec.exec_steps[2], 1);
	assert_int_equal(rec.exec_steps[3], 1);
	for (size_t i = 0; i < rec.ntraces; i++)
		assert_int_equal(rec.traces[i].step, rec.exec_steps[rec.traces[i].execution]);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
	test_rmtree(t);
}

static void
test_mindspore_acl_layout_with_step_dir(void **state)
{
	char *t = tmp_layout("mkdir -p $T/3/20240115103000/0/Net/1/0 && "
			     "cp " ASYNC "/rank_0/Net/0/0/* $T/3/20240115103000/0/Net/1/0/ && "
			     "echo '{}' > $T/acl_dump_0.json && chmod -R u+w $T");
	struct rec rec;
	struct reader *r = index_dump(t, &rec);

	(void)state;
	assert_true(has_meta(&rec, "format=mindspore-async"));
	assert_true(has_meta(&rec, "host[]=device_0"));
	assert_int_equal(rec.nexecs, 1);
	assert_string_equal(rec.execs[0], "model Net iter 0 step 3@device_0");
	assert_int_equal(rec.ntraces, 8);
	/* no graphs/: the op names come from the DumpData headers */
	assert_int_equal(rec.noverflows, 1);
	assert_true(strncmp(rec.overflows[0], "Default/network/Mul-op2|", 24) == 0);
	/* ops only the files name are still sent, with their type */
	assert_non_null(find_op(&rec, "Default/network/Mul-op2"));
	assert_string_equal(find_op(&rec, "Default/network/Mul-op2")->op_type, "Mul");
	assert_int_equal(rec.nops, 3);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
	test_rmtree(t);
}

static void
test_mindspore_short_op_name_matches_by_op_tail(void **state)
{
	char *t = tmp_layout("cp -r " SYNC " $T/d && chmod -R u+w $T && cd $T/d/rank_0/Lenet/0/1 && "
			     "mv MatMul.*MatMul-op10.*.output.0.DefaultFormat.npy "
			     "MatMul.MatMul-op10.0.0.1700000002000217.output.0.DefaultFormat.npy");
	char *dir = xasprintf("%s/d", t);
	struct rec rec;
	struct reader *r = index_dump(dir, &rec);
	size_t i;

	(void)state;
	for (i = 0; i < rec.ntraces && !td_summary_nonfinite(&rec.traces[i].summary); i++)
		;
	assert_true(i < rec.ntraces);
	assert_string_equal(rec.traces[i].op_name, MATMUL10);
	assert_int_equal(rec.traces[i].summary.nan, 2);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
	free(dir);
	test_rmtree(t);
}

static void
test_mindspore_opening_an_iteration_dir_reads_that_run(void **state)
{
	struct rec rec;
	struct reader *r = index_dump(SYNC "/rank_0/Lenet/0/1", &rec);

	(void)state;
	assert_int_equal(rec.nexecs, 1);
	assert_string_equal(rec.execs[0], "graph 0 iter 1@rank_0");
	assert_non_null(find_op(&rec, MATMUL10));
	mindspore_reader_ops.close(r);
	rec_free(&rec);
}

static void
test_mindspore_statistic_only_dump_gives_rows_from_the_csv(void **state)
{
	char *t = tmp_layout("cp -r " SYNC " $T/d && chmod -R u+w $T && "
			     "rm $T/d/rank_0/Lenet/0/0/*.npy $T/d/rank_0/Lenet/0/1/*.npy");
	char *dir = xasprintf("%s/d", t);
	struct rec rec;
	struct reader *r = index_dump(dir, &rec);
	struct reader_detail d;
	size_t i;

	(void)state;
	/* 50 statistic rows per iteration, 2 constants (still .npy) */
	assert_int_equal(rec.ntraces, 102);
	assert_string_equal(rec.traces[0].op_name,
			    "Default/network-WithLossCell/_loss_fn-SoftmaxCrossEntropyWithLogits/OneHot-op0");
	for (i = 0; i < rec.ntraces && !td_summary_nonfinite(&rec.traces[i].summary); i++)
		;
	assert_string_equal(rec.traces[i].op_name, MATMUL10);
	assert_int_equal(rec.traces[i].execution, 1);
	assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE, &rec.traces[i].loc, &d), TD_OK);
	assert_int_equal(d.summaries[0].nan, 2);
	assert_null(d.values[0]);
	reader_detail_done(&d);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
	free(dir);
	test_rmtree(t);
}

static void
test_mindspore_follow_picks_up_a_new_iteration_once(void **state)
{
	/* written a minute ago (else follow mode waits for it to settle:
	 * test_ms_follow.c) */
	char *t = tmp_layout("cp -r " SYNC " $T/d && chmod -R u+w $T && "
			     "mv $T/d/rank_0/Lenet/0/1 $T/later && "
			     "find $T -exec touch -d '-1 min' {} +");
	char *dir = xasprintf("%s/d", t), *cmd;
	struct rec rec;
	struct reader *r = index_dump(dir, &rec);
	struct reader_sink sink = {
		.ctx = &rec, .on_meta = on_meta, .on_execution = on_execution, .on_trace = on_trace,
		.on_op = on_op, .on_frame = on_frame, .on_source = on_source,
		.on_problem = on_problem, .on_alert = on_alert,
	};
	size_t ops = rec.nops, frames = rec.nframes;

	(void)state;
	assert_int_equal(rec.nexecs, 1);
	assert_int_equal(rec.ntraces, 52);
	cmd = xasprintf("mv %s/later %s/rank_0/Lenet/0/1", t, dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(rec.nexecs, 2);
	assert_string_equal(rec.execs[1], "graph 0 iter 1@rank_0");
	assert_int_equal(rec.ntraces, 102);        /* 50 new rows, constants not re-sent */
	assert_int_equal(rec.traces[52].execution, 1);
	assert_int_equal(rec.traces[52].loc.file, 1);
	assert_int_equal(rec.nops, ops);
	assert_int_equal(rec.nframes, frames);
	assert_true(has_meta(&rec, "iterations=2"));
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(rec.ntraces, 102);        /* nothing new: nothing sent */
	assert_int_equal(rec.nexecs, 2);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
	free(dir);
	test_rmtree(t);
}

static void
test_mindspore_kernel_launched_twice_keeps_launches_apart(void **state)
{
	/* a second launch of MatMul-op10 in iteration 0: same names, later timestamps */
	char *t = tmp_layout("cp -r " SYNC " $T/d && chmod -R u+w $T && cd $T/d/rank_0/Lenet/0/0 && "
			     "rm statistic.csv && for f in MatMul.*MatMul-op10.0.0.*; do "
			     "ts=$(echo $f | cut -d. -f5); cp $f $(echo $f | sed s/$ts/$((ts + 500))/); done");
	char *dir = xasprintf("%s/d", t);
	struct rec rec;
	struct reader *r = index_dump(dir, &rec);
	size_t i, first = SIZE_MAX;
	static const struct { bool in; uint32_t slot; } want[6] = {
		{ true, 0 }, { true, 1 }, { false, 0 }, { true, 0 }, { true, 1 }, { false, 0 },
	};

	(void)state;
	for (i = 0; i < rec.ntraces && first == SIZE_MAX; i++)
		if (strcmp(rec.traces[i].op_name, MATMUL10) == 0)
			first = i;
	assert_true(first != SIZE_MAX);
	for (i = 0; i < 6; i++) {
		assert_string_equal(rec.traces[first + i].op_name, MATMUL10);
		assert_int_equal(rec.traces[first + i].is_input, want[i].in);
		assert_int_equal(rec.traces[first + i].slot, want[i].slot);
	}
	assert_string_not_equal(rec.traces[first + 6].op_name, MATMUL10);
	mindspore_reader_ops.close(r);
	rec_free(&rec);
	free(dir);
	test_rmtree(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mindspore_sync_meta),
		cmocka_unit_test(test_mindspore_sync_two_graph_runs_in_order),
		cmocka_unit_test(test_mindspore_sync_seventeen_kernels_in_execution_order),
		cmocka_unit_test(test_mindspore_sync_first_nonfinite_is_matmul_op10_output),
		cmocka_unit_test(test_mindspore_sync_decode_reads_the_npy_value),
		cmocka_unit_test(test_mindspore_sync_stack_of_matmul_op10_reaches_train_lenet_line_26),
		cmocka_unit_test(test_mindspore_sync_source_lines_from_trace_or_source_root),
		cmocka_unit_test(test_mindspore_sync_advance_walks_a_run),
		cmocka_unit_test(test_mindspore_probe_rejects_other_dirs),
		cmocka_unit_test(test_mindspore_async_meta_and_rows),
		cmocka_unit_test(test_mindspore_async_overflow_names_mul_op2),
		cmocka_unit_test(test_mindspore_async_numbered_file_resolves_through_mapping),
		cmocka_unit_test(test_mindspore_async_bin_values_and_infinities),
		cmocka_unit_test(test_mindspore_async_truncated_bin_is_reported_and_rest_survives),
		cmocka_unit_test(test_mindspore_two_ranks_interleave_by_iteration),
		cmocka_unit_test(test_mindspore_acl_layout_with_step_dir),
		cmocka_unit_test(test_mindspore_short_op_name_matches_by_op_tail),
		cmocka_unit_test(test_mindspore_opening_an_iteration_dir_reads_that_run),
		cmocka_unit_test(test_mindspore_statistic_only_dump_gives_rows_from_the_csv),
		cmocka_unit_test(test_mindspore_follow_picks_up_a_new_iteration_once),
		cmocka_unit_test(test_mindspore_kernel_launched_twice_keeps_launches_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
