/*
 * test_tfdbg1_record.h - a recording reader_sink for the tfdbg v1 reader
 * tests: copies every record it is sent so tests can assert on them.
 * Included by test_tfdbg1*.c only (functions are static inline so a test
 * may leave some unused).
 */
#ifndef TEST_TFDBG1_RECORD_H
#define TEST_TFDBG1_RECORD_H

#include <string.h>

#include "reader/reader.h"

/* ---- a recording sink ---------------------------------------------- */

struct rec_trace {
	struct td_locator loc;
	char *graph_id, *op_name, *op_type;
	uint32_t slot;
	int64_t execution;
	int64_t step;
	double wall_time;
	struct td_summary summary;
};
struct rec_exec {
	struct td_locator loc;
	char *op_type, *graph_id;
	uint32_t num_outputs;
	int64_t step;
	double wall_time;
};
struct rec_op {
	char *graph_id, *name, *type, *device;
	char **inputs;
	size_t ninputs;
};
struct rec_problem {
	enum reader_problem_kind kind;
	int64_t file;
	char *path;
};
struct rec {
	struct rec_trace *traces;
	size_t ntraces, tcap;
	struct rec_exec *execs;
	size_t nexecs, ecap;
	struct rec_op *ops;
	size_t nops, ocap;
	struct rec_problem *problems;
	size_t nproblems, pcap;
	char **meta;                /* "key=value" */
	size_t nmeta, mcap;
	char **devices, **graphs;
	size_t ndevices, dcap, ngraphs, gcap;
	size_t nfiles;              /* next file id expected (seed for a later pass) */
	size_t exec_base;           /* executions sent by earlier passes */
};

static inline char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static inline void
rec_meta(void *ctx, const char *key, const char *value)
{
	struct rec *r = ctx;

	TD_GROW(r->meta, r->mcap, r->nmeta + 1);
	r->meta[r->nmeta++] = xasprintf("%s=%s", key, value);
}

static inline void
rec_file(void *ctx, const struct reader_file *f)
{
	struct rec *r = ctx;

	assert_int_equal(f->id, r->nfiles);   /* ids are dense, in order */
	r->nfiles++;
}

static inline void
rec_device(void *ctx, const struct reader_device *d)
{
	struct rec *r = ctx;

	TD_GROW(r->devices, r->dcap, r->ndevices + 1);
	r->devices[r->ndevices++] = xstrdup(d->name);
}

static inline void
rec_graph(void *ctx, const struct reader_graph *g)
{
	struct rec *r = ctx;

	TD_GROW(r->graphs, r->gcap, r->ngraphs + 1);
	r->graphs[r->ngraphs++] = xstrdup(g->graph_id);
}

static inline void
rec_op(void *ctx, const struct reader_op *op)
{
	struct rec *r = ctx;
	struct rec_op *o;
	size_t i;

	TD_GROW(r->ops, r->ocap, r->nops + 1);
	o = &r->ops[r->nops++];
	o->graph_id = xstrdup(op->graph_id);
	o->name = xstrdup(op->op_name);
	o->type = xstrdup(op->op_type);
	o->device = dup_or_null(op->device);
	o->ninputs = op->ninputs;
	o->inputs = xcalloc(op->ninputs + 1, sizeof(char *));
	for (i = 0; i < op->ninputs; i++)
		o->inputs[i] = xstrdup(op->inputs[i]);
}

static inline void
rec_execution(void *ctx, const struct reader_execution *e)
{
	struct rec *r = ctx;
	struct rec_exec *x;

	TD_GROW(r->execs, r->ecap, r->nexecs + 1);
	x = &r->execs[r->nexecs++];
	x->loc = e->loc;
	x->op_type = xstrdup(e->op_type);
	x->graph_id = xstrdup(e->graph_id);
	x->num_outputs = e->num_outputs;
	x->step = e->step;
	x->wall_time = e->wall_time;
}

static inline void
rec_trace(void *ctx, const struct reader_trace *t)
{
	struct rec *r = ctx;
	struct rec_trace *x;

	/* a trace refers to an execution already sent */
	assert_true(t->execution >= 0 && (size_t)t->execution < r->exec_base + r->nexecs);
	TD_GROW(r->traces, r->tcap, r->ntraces + 1);
	x = &r->traces[r->ntraces++];
	x->loc = t->loc;
	x->graph_id = xstrdup(t->graph_id);
	x->op_name = xstrdup(t->op_name);
	x->op_type = dup_or_null(t->op_type);
	x->slot = t->slot;
	x->execution = t->execution;
	x->step = t->step;
	x->wall_time = t->wall_time;
	x->summary = t->summary;
}

static inline void
rec_problem(void *ctx, const struct reader_problem *p)
{
	struct rec *r = ctx;

	TD_GROW(r->problems, r->pcap, r->nproblems + 1);
	r->problems[r->nproblems].kind = p->kind;
	r->problems[r->nproblems].file = p->file;
	r->problems[r->nproblems++].path = dup_or_null(p->path);
}

static inline struct reader_sink
rec_sink(struct rec *r)
{
	struct reader_sink s = {
		.ctx = r, .on_meta = rec_meta, .on_file = rec_file, .on_device = rec_device,
		.on_graph = rec_graph, .on_op = rec_op, .on_execution = rec_execution,
		.on_trace = rec_trace, .on_problem = rec_problem,
	};

	return s;
}

static inline void
rec_free(struct rec *r)
{
	size_t i, k;

	for (i = 0; i < r->ntraces; i++) {
		free(r->traces[i].graph_id);
		free(r->traces[i].op_name);
		free(r->traces[i].op_type);
	}
	for (i = 0; i < r->nexecs; i++) {
		free(r->execs[i].op_type);
		free(r->execs[i].graph_id);
	}
	for (i = 0; i < r->nops; i++) {
		free(r->ops[i].graph_id);
		free(r->ops[i].name);
		free(r->ops[i].type);
		free(r->ops[i].device);
		for (k = 0; k < r->ops[i].ninputs; k++)
			free(r->ops[i].inputs[k]);
		free(r->ops[i].inputs);
	}
	for (i = 0; i < r->nproblems; i++)
		free(r->problems[i].path);
	for (i = 0; i < r->nmeta; i++)
		free(r->meta[i]);
	for (i = 0; i < r->ndevices; i++)
		free(r->devices[i]);
	for (i = 0; i < r->ngraphs; i++)
		free(r->graphs[i]);
	free(r->traces);
	free(r->execs);
	free(r->ops);
	free(r->problems);
	free(r->meta);
	free(r->devices);
	free(r->graphs);
	memset(r, 0, sizeof(*r));
}

static inline bool
rec_has_meta(const struct rec *r, const char *kv)
{
	size_t i;

	for (i = 0; i < r->nmeta; i++)
		if (!strcmp(r->meta[i], kv))
			return true;
	return false;
}

/* Opens and indexes dir into rec; returns the open reader. */
static inline struct reader *
index_dir(const char *dir, struct rec *rec)
{
	struct reader_sink sink = rec_sink(rec);
	struct reader *r = NULL;
	char err[256];

	memset(rec, 0, sizeof(*rec));
	assert_int_equal(tfdbg1_reader_ops.open(dir, NULL, &r, err, sizeof(err)), TD_OK);
	assert_int_equal(tfdbg1_reader_ops.index(r, &sink), TD_OK);
	return r;
}

#endif
