/*
 * fake_reader.c - an in-memory reader for model tests (see fake_reader.h).
 */
#include "fake_reader.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum fake_kind {
	FK_META, FK_FILE, FK_GRAPH, FK_OP, FK_TRACE, FK_EXEC, FK_SOURCE, FK_FRAME,
	FK_PROBLEM, FK_OVERFLOW, FK_SYNTH, FK_RESOLVED,
};

#define FAKE_SYN_FILE 9u
#define FAKE_SYN_STEP 64u

struct fake_rec {
	enum fake_kind kind;
	char *s[5];
	char **inputs, **frames, **lines, **aliases, **controls;
	size_t ninputs, nframes, nlines, naliases, ncontrols;
	uint32_t file, slot, line;
	uint64_t offset, n, every;
	int64_t execution, id;
	int64_t step;               /* traces and executions, -1 unknown */
	double wall;
	bool is_input, broken;
	bool framework;             /* frames */
	bool input_labels;          /* FK_OP: reader_op.input_labels */
	bool partial;               /* FK_SOURCE: lines has gaps (NULL) */
	struct td_summary *summ;
	size_t nsumm;
	int64_t *ids_in, *ids_out;  /* executions: tensor ids (fake_exec_ids) */
	size_t nids_in, nids_out;
	enum reader_problem_kind problem;
	struct reader_attr *attrs;  /* ops: fake_op_attr() */
	size_t nattrs;
};

struct fake {
	struct fake_rec *recs;
	size_t n, cap;
	size_t cursor;              /* next record index() sends */
	uint32_t per_file[64];      /* records so far per file (offsets) */
	size_t pause_at;
	bool paused, released;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t decodes;
	uint64_t steps;             /* records advance() stepped over */
	bool next_offsets;          /* decode() fills next_offset */
	unsigned index_returned;
	uint64_t synth_n, synth_every;
};

static struct fake *fake_next;

static char *
dup0(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static char **
duplist(const char *const *l, size_t *n)
{
	char **out;
	size_t i;

	*n = 0;
	if (!l)
		return NULL;
	while (l[*n])
		(*n)++;
	out = xcalloc(*n + 1, sizeof(*out));
	for (i = 0; i < *n; i++)
		out[i] = xstrdup(l[i]);
	return out;
}

static void
freelist(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

static struct fake_rec *
add(struct fake *f, enum fake_kind kind)
{
	struct fake_rec *r;

	pthread_mutex_lock(&f->mu);
	TD_GROW(f->recs, f->cap, f->n + 1);
	r = &f->recs[f->n++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->execution = -1;
	r->step = -1;
	pthread_mutex_unlock(&f->mu);
	return r;
}

/* Record offsets: 100 apart and shifted by the file, so a model that does
 * arithmetic on offsets instead of calling advance() gets them wrong. */
static uint64_t
next_offset(struct fake *f, uint32_t file)
{
	return 7 + 100ull * f->per_file[file % 64]++ + file;
}

struct fake *
fake_new(void)
{
	struct fake *f = xcalloc(1, sizeof(*f));

	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->cv, NULL);
	f->pause_at = SIZE_MAX;
	return f;
}

void
fake_free(struct fake *f)
{
	size_t i, k;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		for (k = 0; k < TD_ARRAY_SIZE(f->recs[i].s); k++)
			free(f->recs[i].s[k]);
		freelist(f->recs[i].inputs, f->recs[i].ninputs);
		freelist(f->recs[i].frames, f->recs[i].nframes);
		freelist(f->recs[i].lines, f->recs[i].nlines);
		freelist(f->recs[i].aliases, f->recs[i].naliases);
		freelist(f->recs[i].controls, f->recs[i].ncontrols);
		for (k = 0; k < f->recs[i].nattrs; k++) {
			free((char *)f->recs[i].attrs[k].name);
			free((char *)f->recs[i].attrs[k].value);
		}
		free(f->recs[i].attrs);
		free(f->recs[i].summ);
		free(f->recs[i].ids_in);
		free(f->recs[i].ids_out);
	}
	free(f->recs);
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->cv);
	free(f);
}

void
fake_use(struct fake *f)
{
	fake_next = f;
}

void
fake_meta(struct fake *f, const char *key, const char *value)
{
	struct fake_rec *r = add(f, FK_META);

	r->s[0] = dup0(key);
	r->s[1] = dup0(value);
}

void
fake_file(struct fake *f, uint32_t id, const char *path, const char *host)
{
	struct fake_rec *r = add(f, FK_FILE);

	r->file = id;
	r->s[0] = dup0(path);
	r->s[1] = dup0(host);
}

void
fake_graph(struct fake *f, const char *id, const char *name, const char *outer)
{
	struct fake_rec *r = add(f, FK_GRAPH);

	r->s[0] = dup0(id);
	r->s[1] = dup0(name);
	r->s[2] = dup0(outer ? outer : "");
}

void
fake_op(struct fake *f, const char *graph, const char *name, const char *type,
	const char *const *inputs, const char *const *frames)
{
	struct fake_rec *r = add(f, FK_OP);

	r->s[0] = dup0(graph);
	r->s[1] = dup0(name);
	r->s[2] = dup0(type);
	r->inputs = duplist(inputs, &r->ninputs);
	r->frames = duplist(frames, &r->nframes);
}

uint64_t
fake_trace_ex(struct fake *f, uint32_t file, const char *graph, const char *op, uint32_t slot,
	      double wall, const struct td_summary *s, int64_t execution, bool is_input)
{
	struct fake_rec *r = add(f, FK_TRACE);

	r->file = file;
	r->offset = next_offset(f, file);
	r->s[0] = dup0(graph);
	r->s[1] = dup0(op);
	r->slot = slot;
	r->wall = wall;
	r->execution = execution;
	r->is_input = is_input;
	r->summ = xcalloc(1, sizeof(*r->summ));
	if (s)
		r->summ[0] = *s;
	r->nsumm = 1;
	return r->offset;
}

void
fake_trace_type(struct fake *f, const char *type)
{
	struct fake_rec *r = &f->recs[f->n - 1];

	free(r->s[2]);
	r->s[2] = dup0(type);
}

void
fake_step(struct fake *f, int64_t step)
{
	f->recs[f->n - 1].step = step;
}

uint64_t
fake_trace(struct fake *f, uint32_t file, const char *graph, const char *op, uint32_t slot,
	   double wall, const struct td_summary *s)
{
	return fake_trace_ex(f, file, graph, op, slot, wall, s, -1, false);
}

uint64_t
fake_exec(struct fake *f, uint32_t file, const char *op_type, const char *graph_id,
	  const char *host, double wall, const struct td_summary *outs, size_t nout)
{
	struct fake_rec *r = add(f, FK_EXEC);

	r->file = file;
	r->offset = next_offset(f, file);
	r->s[0] = dup0(op_type);
	r->s[1] = dup0(graph_id ? graph_id : "");
	r->s[2] = dup0(host ? host : "");
	r->wall = wall;
	r->summ = xcalloc(nout + 1, sizeof(*r->summ));
	if (nout)
		memcpy(r->summ, outs, nout * sizeof(*outs));
	r->nsumm = nout;
	return r->offset;
}

void
fake_exec_ids(struct fake *f, const int64_t *in, size_t nin, const int64_t *out, size_t nout)
{
	struct fake_rec *r = &f->recs[f->n - 1];

	r->ids_in = xcalloc(nin + 1, sizeof(*r->ids_in));
	r->ids_out = xcalloc(nout + 1, sizeof(*r->ids_out));
	if (nin)
		memcpy(r->ids_in, in, nin * sizeof(*in));
	if (nout)
		memcpy(r->ids_out, out, nout * sizeof(*out));
	r->nids_in = nin;
	r->nids_out = nout;
}

void
fake_source(struct fake *f, uint32_t id, const char *host, const char *path,
	    const char *const *lines)
{
	struct fake_rec *r = add(f, FK_SOURCE);

	r->id = id;
	r->s[0] = dup0(host);
	r->s[1] = dup0(path);
	r->lines = duplist(lines, &r->nlines);
	r->file = 50;
	r->offset = next_offset(f, 50);
}

void
fake_source_partial(struct fake *f, uint32_t id, const char *host, const char *path,
		    const char *const *lines, size_t n)
{
	struct fake_rec *r = add(f, FK_SOURCE);

	r->id = id;
	r->s[0] = dup0(host);
	r->s[1] = dup0(path);
	r->lines = xcalloc(n + 1, sizeof(*r->lines));
	for (size_t i = 0; i < n; i++)
		r->lines[i] = dup0(lines[i]);
	r->nlines = n;
	r->partial = true;
	r->file = 50;
	r->offset = next_offset(f, 50);
}

void
fake_frame(struct fake *f, const char *id, const char *host, const char *file, uint32_t line,
	   const char *func, int64_t source_id)
{
	struct fake_rec *r = add(f, FK_FRAME);

	r->s[0] = dup0(id);
	r->s[1] = dup0(host);
	r->s[2] = dup0(file);
	r->s[3] = dup0(func);
	r->line = line;
	r->id = source_id;
}

void
fake_op_alias(struct fake *f, const char *alias)
{
	struct fake_rec *r = &f->recs[f->n - 1];

	r->aliases = xrealloc(r->aliases, (r->naliases + 1) * sizeof(*r->aliases));
	r->aliases[r->naliases++] = xstrdup(alias);
}

void
fake_op_attr(struct fake *f, const char *name, const char *value)
{
	struct fake_rec *r = &f->recs[f->n - 1];

	r->attrs = xrealloc(r->attrs, (r->nattrs + 1) * sizeof(*r->attrs));
	r->attrs[r->nattrs].name = xstrdup(name);
	r->attrs[r->nattrs++].value = xstrdup(value);
}

void
fake_op_control(struct fake *f, const char *op_name)
{
	struct fake_rec *r = &f->recs[f->n - 1];

	r->controls = xrealloc(r->controls, (r->ncontrols + 1) * sizeof(*r->controls));
	r->controls[r->ncontrols++] = xstrdup(op_name);
}

void
fake_op_input_labels(struct fake *f)
{
	f->recs[f->n - 1].input_labels = true;
}

void
fake_frame_framework(struct fake *f)
{
	f->recs[f->n - 1].framework = true;
}

void
fake_problem(struct fake *f, enum reader_problem_kind kind, int64_t file, const char *path)
{
	struct fake_rec *r = add(f, FK_PROBLEM);

	r->problem = kind;
	r->id = file;
	r->s[0] = dup0(path);
}

void
fake_resolved(struct fake *f, enum reader_problem_kind kind, int64_t file, const char *path)
{
	struct fake_rec *r = add(f, FK_RESOLVED);

	r->problem = kind;
	r->id = file;
	r->s[0] = dup0(path);
}

void
fake_overflow(struct fake *f, const char *op_name, int64_t execution, const char *detail)
{
	struct fake_rec *r = add(f, FK_OVERFLOW);

	r->s[0] = dup0(op_name);
	r->s[1] = dup0(detail);
	r->execution = execution;
}

void
fake_synth(struct fake *f, uint64_t n, uint64_t nonfinite_every)
{
	struct fake_rec *r = add(f, FK_SYNTH);

	r->n = n;
	r->every = nonfinite_every;
	f->synth_n = n;
	f->synth_every = nonfinite_every;
}

void
fake_break(struct fake *f, uint32_t file, uint64_t offset)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->recs[i].file == file && f->recs[i].offset == offset)
			f->recs[i].broken = true;
}

void
fake_pause_after(struct fake *f, size_t n)
{
	pthread_mutex_lock(&f->mu);
	f->pause_at = n;
	f->released = false;
	pthread_mutex_unlock(&f->mu);
}

void
fake_wait_paused(struct fake *f)
{
	pthread_mutex_lock(&f->mu);
	while (!f->paused)
		pthread_cond_wait(&f->cv, &f->mu);
	pthread_mutex_unlock(&f->mu);
}

void
fake_release(struct fake *f)
{
	pthread_mutex_lock(&f->mu);
	f->released = true;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
}

uint64_t
fake_decodes(struct fake *f)
{
	uint64_t n;

	pthread_mutex_lock(&f->mu);
	n = f->decodes;
	pthread_mutex_unlock(&f->mu);
	return n;
}

void
fake_next_offsets(struct fake *f, bool on)
{
	pthread_mutex_lock(&f->mu);
	f->next_offsets = on;
	pthread_mutex_unlock(&f->mu);
}

uint64_t
fake_steps(struct fake *f)
{
	uint64_t n;

	pthread_mutex_lock(&f->mu);
	n = f->steps;
	pthread_mutex_unlock(&f->mu);
	return n;
}

struct td_summary
fake_full_health(int64_t elements, int64_t neg_inf, int64_t pos_inf, int64_t nan)
{
	struct td_summary s = {0};

	s.known = SUM_DTYPE | SUM_ELEMENTS | SUM_NAN | SUM_NEG_INF | SUM_POS_INF | SUM_NONFINITE;
	s.dtype = DTYPE_FLOAT32;
	s.elements = elements;
	s.neg_inf = neg_inf;
	s.pos_inf = pos_inf;
	s.nan = nan;
	s.has_inf_or_nan = neg_inf || pos_inf || nan;
	return s;
}

struct td_summary
fake_curt_health(bool bad)
{
	struct td_summary s = {0};

	s.known = SUM_NONFINITE;
	s.has_inf_or_nan = bad;
	return s;
}

/* ---- the reader -------------------------------------------------------- */

static int
fake_probe(const char *dir)
{
	(void)dir;
	return 0;
}

static enum td_status
fake_open(const char *dir, const struct reader_options *opt, struct reader **out, char *err,
	  size_t errlen)
{
	(void)dir;
	(void)opt;
	if (!fake_next) {
		snprintf(err, errlen, "fake: no script");
		return TD_ERR_FORMAT;
	}
	fake_next->cursor = 0;      /* every open reads the script from the start */
	*out = (struct reader *)fake_next;
	return TD_OK;
}

static void
send_synth(const struct fake_rec *r, const struct reader_sink *sink)
{
	struct reader_trace t = {0};
	uint64_t i;

	t.graph_id = "g";
	t.op_name = "syn";
	t.execution = -1;
	t.step = -1;
	t.loc.file = FAKE_SYN_FILE;
	for (i = 0; i < r->n; i++) {
		bool bad = r->every && i % r->every == r->every - 1;

		/* polled as a real reader does, every few thousand records */
		if ((i & 4095) == 4095 && sink->should_stop && sink->should_stop(sink->ctx))
			return;

		t.loc.offset = i * FAKE_SYN_STEP;
		t.summary = fake_curt_health(bad);
		sink->on_trace(sink->ctx, &t);
	}
}

static void
send_exec(const struct fake_rec *r, const struct reader_sink *sink)
{
	struct reader_execution e = {0};
	size_t k;

	e.loc.file = r->file;
	e.loc.offset = r->offset;
	e.op_type = r->s[0];
	e.graph_id = r->s[1];
	e.host = r->s[2];
	e.num_outputs = (uint32_t)r->nsumm;
	e.wall_time = r->wall;
	e.has_values = true;
	e.step = r->step;
	for (k = 0; k < r->nsumm; k++)
		if (td_summary_nonfinite(&r->summ[k]))
			e.bad_outputs++;
	sink->on_execution(sink->ctx, &e);
}

static void
send_rec(const struct fake_rec *r, const struct reader_sink *sink)
{
	switch (r->kind) {
	case FK_META:
		sink->on_meta(sink->ctx, r->s[0], r->s[1]);
		break;
	case FK_FILE: {
		struct reader_file fl = {.id = r->file, .path = r->s[0], .host = r->s[1]};

		sink->on_file(sink->ctx, &fl);
		break;
	}
	case FK_GRAPH: {
		struct reader_graph g = {.graph_id = r->s[0], .name = r->s[1], .outer_id = r->s[2]};

		sink->on_graph(sink->ctx, &g);
		break;
	}
	case FK_OP: {
		struct reader_op op = {.graph_id = r->s[0], .op_name = r->s[1], .op_type = r->s[2],
				       .inputs = (const char *const *)r->inputs, .ninputs = r->ninputs,
				       .frame_ids = (const char *const *)r->frames,
				       .nframes = r->nframes, .num_outputs = 1,
				       .aliases = (const char *const *)r->aliases,
				       .naliases = r->naliases,
				       .control_inputs = (const char *const *)r->controls,
				       .ncontrol_inputs = r->ncontrols,
				       .attrs = r->attrs, .nattrs = r->nattrs,
				       .input_labels = r->input_labels};

		sink->on_op(sink->ctx, &op);
		break;
	}
	case FK_TRACE: {
		struct reader_trace t = {.loc = {r->file, r->offset}, .graph_id = r->s[0],
					 .op_name = r->s[1], .op_type = r->s[2], .slot = r->slot,
					 .is_input = r->is_input,
					 .execution = r->execution, .wall_time = r->wall,
					 .summary = r->summ[0], .step = r->step};

		sink->on_trace(sink->ctx, &t);
		break;
	}
	case FK_EXEC:
		send_exec(r, sink);
		break;
	case FK_SOURCE: {
		struct reader_source s = {.id = (uint32_t)r->id, .host = r->s[0], .path = r->s[1],
					  .loc = {r->file, r->offset}, .nlines = r->nlines};

		sink->on_source(sink->ctx, &s);
		break;
	}
	case FK_FRAME: {
		struct reader_frame fr = {.id = r->s[0], .host = r->s[1], .file = r->s[2],
					  .line = r->line, .func = r->s[3], .source_id = r->id,
					  .framework = r->framework};

		sink->on_frame(sink->ctx, &fr);
		break;
	}
	case FK_PROBLEM: {
		struct reader_problem p = {.kind = r->problem, .file = r->id, .path = r->s[0],
					   .record = -1, .what = "record", .detail = "test"};

		sink->on_problem(sink->ctx, &p);
		break;
	}
	case FK_RESOLVED: {
		struct reader_problem p = {.kind = r->problem, .file = r->id, .path = r->s[0],
					   .record = -1, .what = "record", .detail = "test"};

		if (sink->on_resolved)
			sink->on_resolved(sink->ctx, &p);
		break;
	}
	case FK_OVERFLOW: {
		struct reader_alert a = {.kind = READER_ALERT_OVERFLOW, .op_name = r->s[0],
					 .execution = r->execution, .slot = -1, .detail = r->s[1]};

		sink->on_alert(sink->ctx, &a);
		break;
	}
	case FK_SYNTH:
		send_synth(r, sink);
		break;
	}
}

static enum td_status
fake_index(struct reader *rd, const struct reader_sink *sink)
{
	struct fake *f = (struct fake *)rd;

	pthread_mutex_lock(&f->mu);
	while (f->cursor < f->n) {
		struct fake_rec r;

		if (f->cursor == f->pause_at && !f->released) {
			f->paused = true;
			pthread_cond_broadcast(&f->cv);
			while (!f->released)
				pthread_cond_wait(&f->cv, &f->mu);
			f->paused = false;
		}
		r = f->recs[f->cursor++];
		pthread_mutex_unlock(&f->mu);
		send_rec(&r, sink);
		pthread_mutex_lock(&f->mu);
	}
	f->index_returned++;
	pthread_cond_broadcast(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return TD_OK;
}

void
fake_rewind(struct fake *f)
{
	pthread_mutex_lock(&f->mu);
	f->cursor = 0;
	pthread_mutex_unlock(&f->mu);
}

unsigned
fake_index_returned(struct fake *f)
{
	unsigned n;

	pthread_mutex_lock(&f->mu);
	n = f->index_returned;
	pthread_mutex_unlock(&f->mu);
	return n;
}

void
fake_wait_index_returned(struct fake *f, unsigned n)
{
	pthread_mutex_lock(&f->mu);
	while (f->index_returned < n)
		pthread_cond_wait(&f->cv, &f->mu);
	pthread_mutex_unlock(&f->mu);
}

static const struct fake_rec *
find(struct fake *f, enum fake_kind kind, const struct td_locator *loc, size_t *at)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->recs[i].kind == kind && f->recs[i].file == loc->file &&
		    f->recs[i].offset == loc->offset) {
			if (at)
				*at = i;
			return &f->recs[i];
		}
	}
	return NULL;
}

static enum td_status
decode_synth(struct fake *f, const struct td_locator *loc, struct reader_detail *out)
{
	uint64_t i = loc->offset / FAKE_SYN_STEP;

	if (loc->offset % FAKE_SYN_STEP || i >= f->synth_n)
		return TD_ERR_RANGE;
	out->op_name = xstrdup("syn");
	out->noutputs = 1;
	out->summaries = xcalloc(1, sizeof(*out->summaries));
	out->summaries[0] = fake_curt_health(f->synth_every && i % f->synth_every == f->synth_every - 1);
	out->wall_time = (double)i;
	if (f->next_offsets && i + 1 < f->synth_n)
		out->next_offset = loc->offset + FAKE_SYN_STEP;
	return TD_OK;
}

/* What advance(loc, 1) gives for record at (under f->mu), 0 none. */
static uint64_t
next_of(const struct fake *f, size_t at)
{
	size_t i;

	for (i = at + 1; i < f->n; i++)
		if (f->recs[i].kind == f->recs[at].kind && f->recs[i].file == f->recs[at].file)
			return f->recs[i].offset;
	return 0;
}

static enum td_status
fake_decode(struct reader *rd, enum reader_kind kind, const struct td_locator *loc,
	    struct reader_detail *out)
{
	struct fake *f = (struct fake *)rd;
	const struct fake_rec *r;
	enum td_status st = TD_OK;
	size_t at = 0;

	pthread_mutex_lock(&f->mu);
	f->decodes++;
	if (kind == READER_TRACE && loc->file == FAKE_SYN_FILE) {
		st = decode_synth(f, loc, out);
		pthread_mutex_unlock(&f->mu);
		return st;
	}
	r = find(f, kind == READER_TRACE ? FK_TRACE : kind == READER_EXECUTION ? FK_EXEC : FK_SOURCE,
		 loc, &at);
	if (!r || r->broken) {
		pthread_mutex_unlock(&f->mu);
		return r ? TD_ERR_CORRUPT : TD_ERR_RANGE;
	}
	if (f->next_offsets && kind != READER_SOURCE)
		out->next_offset = next_of(f, at);
	out->wall_time = r->wall;
	out->slot = r->slot;
	out->device = xstrdup("/device:CPU:0");
	out->mode = xstrdup("FULL_HEALTH");
	if (kind == READER_TRACE)
		out->op_name = xstrdup(r->s[1]);
	if (kind == READER_SOURCE) {
		if (r->partial) {
			out->lines = xcalloc(r->nlines + 1, sizeof(*out->lines));
			for (size_t i = 0; i < r->nlines; i++)
				out->lines[i] = dup0(r->lines[i]);
			out->nlines = r->nlines;
			out->lines_partial = true;
		} else {
			out->lines = duplist((const char *const *)r->lines, &out->nlines);
		}
	} else {
		out->noutputs = r->nsumm;
		out->summaries = xcalloc(r->nsumm + 1, sizeof(*out->summaries));
		memcpy(out->summaries, r->summ, r->nsumm * sizeof(*r->summ));
		if (r->nids_in) {
			out->input_tensor_ids = xcalloc(r->nids_in, sizeof(int64_t));
			memcpy(out->input_tensor_ids, r->ids_in, r->nids_in * sizeof(int64_t));
			out->ninput_ids = r->nids_in;
		}
		if (r->nids_out) {
			out->output_tensor_ids = xcalloc(r->nids_out, sizeof(int64_t));
			memcpy(out->output_tensor_ids, r->ids_out, r->nids_out * sizeof(int64_t));
			out->noutput_ids = r->nids_out;
		}
	}
	pthread_mutex_unlock(&f->mu);
	return st;
}

static enum td_status
fake_advance(struct reader *rd, enum reader_kind kind, struct td_locator *loc, uint64_t n)
{
	struct fake *f = (struct fake *)rd;
	enum fake_kind k = kind == READER_TRACE ? FK_TRACE : FK_EXEC;
	size_t i;

	if (n == 0)
		return TD_OK;
	pthread_mutex_lock(&f->mu);
	f->steps += n;
	pthread_mutex_unlock(&f->mu);
	if (kind == READER_TRACE && loc->file == FAKE_SYN_FILE) {
		if (loc->offset / FAKE_SYN_STEP + n >= f->synth_n)
			return TD_ERR_RANGE;
		loc->offset += n * FAKE_SYN_STEP;
		return TD_OK;
	}
	pthread_mutex_lock(&f->mu);
	if (!find(f, k, loc, &i)) {
		pthread_mutex_unlock(&f->mu);
		return TD_ERR_RANGE;
	}
	for (i++; n && i < f->n; i++) {
		if (f->recs[i].kind == k && f->recs[i].file == loc->file && --n == 0) {
			loc->offset = f->recs[i].offset;
			pthread_mutex_unlock(&f->mu);
			return TD_OK;
		}
	}
	pthread_mutex_unlock(&f->mu);
	return TD_ERR_RANGE;
}

static void
fake_close(struct reader *rd)
{
	(void)rd;
}

const struct reader_ops fake_reader_ops = {
	.name = "fake",
	.looks_for = "a test script",
	.probe = fake_probe,
	.open = fake_open,
	.index = fake_index,
	.decode = fake_decode,
	.advance = fake_advance,
	.close = fake_close,
};
