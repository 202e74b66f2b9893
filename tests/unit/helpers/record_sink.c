/*
 * record_sink.c - a recording reader sink for tests; see record_sink.h.
 */
#include "record_sink.h"

#include <stdlib.h>
#include <string.h>

static char *
dup(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static char **
dup_list(const char *const *v, size_t n)
{
	char **out = xcalloc(n ? n : 1, sizeof(*out));
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = dup(v[i]);
	return out;
}

static void
free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static void
rs_meta(void *ctx, const char *key, const char *value)
{
	struct record_sink *rs = ctx;

	TD_GROW(rs->meta, rs->metacap, rs->nmeta + 1);
	rs->meta[rs->nmeta++] = (struct rs_meta){ dup(key), dup(value) };
}

static void
rs_file(void *ctx, const struct reader_file *f)
{
	struct record_sink *rs = ctx;
	struct strbuf read = {0};

	for (size_t k = 0; k < f->nread; k++) {
		if (k)
			strbuf_addc(&read, ',');
		strbuf_adds(&read, f->read[k]);
	}
	TD_GROW(rs->files, rs->filecap, rs->nfiles + 1);
	rs->files[rs->nfiles++] = (struct rs_file){ f->id, dup(f->path), dup(f->host), dup(f->role), f->size,
						    f->listed_only, strbuf_take(&read) };
}

static void
rs_source(void *ctx, const struct reader_source *s)
{
	struct record_sink *rs = ctx;

	TD_GROW(rs->sources, rs->sourcecap, rs->nsources + 1);
	rs->sources[rs->nsources++] = (struct rs_source){ s->id, dup(s->host), dup(s->path), s->loc, s->nlines };
}

static void
rs_frame(void *ctx, const struct reader_frame *f)
{
	struct record_sink *rs = ctx;

	TD_GROW(rs->frames, rs->framecap, rs->nframes + 1);
	rs->frames[rs->nframes++] = (struct rs_frame){ dup(f->id), dup(f->host), dup(f->file),
						       dup(f->func), f->source_id, f->line };
}

static void
rs_graph(void *ctx, const struct reader_graph *g)
{
	struct record_sink *rs = ctx;

	TD_GROW(rs->graphs, rs->graphcap, rs->ngraphs + 1);
	rs->graphs[rs->ngraphs++] = (struct rs_graph){ dup(g->graph_id), dup(g->name), dup(g->outer_id) };
}

static void
rs_device(void *ctx, const struct reader_device *d)
{
	struct record_sink *rs = ctx;

	TD_GROW(rs->devices, rs->devicecap, rs->ndevices + 1);
	rs->devices[rs->ndevices++] = (struct rs_device){ d->id, dup(d->name), dup(d->host) };
}

static void
rs_op(void *ctx, const struct reader_op *op)
{
	struct record_sink *rs = ctx;
	struct rs_op *o;

	TD_GROW(rs->ops, rs->opcap, rs->nops + 1);
	o = &rs->ops[rs->nops++];
	memset(o, 0, sizeof(*o));
	o->graph_id = dup(op->graph_id);
	o->op_name = dup(op->op_name);
	o->op_type = dup(op->op_type);
	o->host = dup(op->host);
	o->inputs = dup_list(op->inputs, op->ninputs);
	o->ninputs = op->ninputs;
	o->input_labels = op->input_labels;
	o->frame_ids = dup_list(op->frame_ids, op->nframes);
	o->nframes = op->nframes;
	o->num_outputs = op->num_outputs;
	o->noutput_ids = op->noutput_tensor_ids;
	o->output_ids = xcalloc(op->noutput_tensor_ids + 1, sizeof(int64_t));
	if (op->noutput_tensor_ids)
		memcpy(o->output_ids, op->output_tensor_ids, op->noutput_tensor_ids * sizeof(int64_t));
}

static void
rs_execution(void *ctx, const struct reader_execution *e)
{
	struct record_sink *rs = ctx;

	TD_GROW(rs->executions, rs->executioncap, rs->nexecutions + 1);
	rs->executions[rs->nexecutions++] = (struct rs_execution){
		e->loc, dup(e->op_type), dup(e->graph_id), dup(e->host), e->num_outputs,
		e->bad_outputs, e->has_values, e->wall_time, e->step,
	};
}

static void
rs_trace(void *ctx, const struct reader_trace *t)
{
	struct record_sink *rs = ctx;

	TD_GROW(rs->traces, rs->tracecap, rs->ntraces + 1);
	rs->traces[rs->ntraces++] = (struct rs_trace){
		t->loc, dup(t->graph_id), dup(t->op_name), dup(t->op_type), t->slot, t->wall_time, t->summary,
		t->step,
	};
}

static void
rs_problem(void *ctx, const struct reader_problem *p)
{
	struct record_sink *rs = ctx;

	TD_GROW(rs->problems, rs->problemcap, rs->nproblems + 1);
	rs->problems[rs->nproblems++] = (struct rs_problem){
		p->kind, p->file, p->record, p->offset, dup(p->path), dup(p->what), dup(p->detail),
	};
}

static void
rs_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct record_sink *rs = ctx;

	rs->progress_calls++;
	rs->progress_done = done;
	rs->progress_total = total;
}

void
record_sink_init(struct record_sink *rs, struct reader_sink *sink)
{
	memset(rs, 0, sizeof(*rs));
	memset(sink, 0, sizeof(*sink));
	sink->ctx = rs;
	sink->on_meta = rs_meta;
	sink->on_file = rs_file;
	sink->on_source = rs_source;
	sink->on_frame = rs_frame;
	sink->on_graph = rs_graph;
	sink->on_device = rs_device;
	sink->on_op = rs_op;
	sink->on_execution = rs_execution;
	sink->on_trace = rs_trace;
	sink->on_problem = rs_problem;
	sink->on_progress = rs_progress;
}

void
record_sink_done(struct record_sink *rs)
{
	size_t i;

	for (i = 0; i < rs->nmeta; i++) { free(rs->meta[i].key); free(rs->meta[i].value); }
	for (i = 0; i < rs->nfiles; i++) { free(rs->files[i].path); free(rs->files[i].host); free(rs->files[i].role); free(rs->files[i].read); }
	for (i = 0; i < rs->nsources; i++) { free(rs->sources[i].host); free(rs->sources[i].path); }
	for (i = 0; i < rs->nframes; i++) {
		free(rs->frames[i].id); free(rs->frames[i].host);
		free(rs->frames[i].file); free(rs->frames[i].func);
	}
	for (i = 0; i < rs->ngraphs; i++) {
		free(rs->graphs[i].graph_id); free(rs->graphs[i].name); free(rs->graphs[i].outer_id);
	}
	for (i = 0; i < rs->ndevices; i++) { free(rs->devices[i].name); free(rs->devices[i].host); }
	for (i = 0; i < rs->nops; i++) {
		struct rs_op *o = &rs->ops[i];

		free(o->graph_id); free(o->op_name); free(o->op_type); free(o->host);
		free_list(o->inputs, o->ninputs);
		free_list(o->frame_ids, o->nframes);
		free(o->output_ids);
	}
	for (i = 0; i < rs->nexecutions; i++) {
		free(rs->executions[i].op_type); free(rs->executions[i].graph_id); free(rs->executions[i].host);
	}
	for (i = 0; i < rs->ntraces; i++) {
		free(rs->traces[i].graph_id); free(rs->traces[i].op_name); free(rs->traces[i].op_type);
	}
	for (i = 0; i < rs->nproblems; i++) {
		free(rs->problems[i].path); free(rs->problems[i].what); free(rs->problems[i].detail);
	}
	free(rs->meta); free(rs->files); free(rs->sources); free(rs->frames); free(rs->graphs);
	free(rs->devices); free(rs->ops); free(rs->executions); free(rs->traces); free(rs->problems);
	memset(rs, 0, sizeof(*rs));
}

const char *
record_sink_meta(const struct record_sink *rs, const char *key, size_t nth)
{
	const char *last = NULL;
	size_t i, seen = 0;

	for (i = 0; i < rs->nmeta; i++) {
		if (strcmp(rs->meta[i].key, key) != 0)
			continue;
		if (seen++ == nth && key[strlen(key) - 1] == ']')
			return rs->meta[i].value;
		last = rs->meta[i].value;
	}
	return key[strlen(key) - 1] == ']' ? NULL : last;
}

size_t
record_sink_problems(const struct record_sink *rs, enum reader_problem_kind kind)
{
	size_t i, n = 0;

	for (i = 0; i < rs->nproblems; i++)
		n += rs->problems[i].kind == kind;
	return n;
}

const struct rs_op *
record_sink_op(const struct record_sink *rs, const char *op_name)
{
	size_t i;

	for (i = 0; i < rs->nops; i++)
		if (strcmp(rs->ops[i].op_name, op_name) == 0)
			return &rs->ops[i];
	return NULL;
}

const struct rs_frame *
record_sink_frame(const struct record_sink *rs, const char *id)
{
	size_t i;

	for (i = 0; i < rs->nframes; i++)
		if (strcmp(rs->frames[i].id, id) == 0)
			return &rs->frames[i];
	return NULL;
}
