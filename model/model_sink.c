/*
 * model_sink.c - the reader_sink the index thread fills the model through.
 *
 * Runs on the index thread only (the single writer).  The hot path,
 * on_trace, takes no lock unless it meets something new (an op the dump
 * has not described, a file change, a non-finite row): it looks the op up,
 * appends 5 bytes and maybe a checkpoint, and publishes the row count.
 * Alert groups are counted here, as TensorFlow's InfNanMonitor counts
 * while loading (the TensorFlow v2 reader's FORMAT.md, section Alerts).
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

static bool
stopping(struct model *m)
{
	return atomic_load_explicit(&m->th.stopping, memory_order_relaxed);
}

static void
on_meta(void *ctx, const char *key, const char *value)
{
	struct model *m = ctx;
	size_t klen = strlen(key), i;
	bool list = klen >= 2 && strcmp(key + klen - 2, "[]") == 0;
	struct meta_entry *e = NULL;

	if (list)
		klen -= 2;
	pthread_mutex_lock(&m->th.lock);
	for (i = 0; i < m->md.nmeta; i++)
		if (strlen(m->md.meta[i]->key) == klen && strncmp(m->md.meta[i]->key, key, klen) == 0)
			e = m->md.meta[i];
	if (!e) {
		TD_GROW(m->md.meta, m->md.capmeta, m->md.nmeta + 1);
		e = m->md.meta[m->md.nmeta++] = xcalloc(1, sizeof(*e));
		e->key = arena_dup(&m->str, key, klen);
	}
	e->list = e->list || list;
	if (!list)
		e->n = 0;               /* scalars: the last value wins */
	TD_GROW(e->values, e->cap, e->n + 1);
	e->values[e->n++] = intern_str(&m->str, intern_add(&m->str, value ? value : ""));
	pthread_mutex_unlock(&m->th.lock);
}

static void
on_file(void *ctx, const struct reader_file *f)
{
	struct model *m = ctx;
	uint64_t *idx;
	struct file_entry *e;

	pthread_mutex_lock(&m->th.lock);
	idx = hashtab_u64_put(&m->src.file_by_id, f->id, m->src.nfiles);
	if (*idx == m->src.nfiles) {
		TD_GROW(m->src.files, m->src.capfiles, m->src.nfiles + 1);
		memset(&m->src.files[m->src.nfiles], 0, sizeof(m->src.files[0]));
		m->src.nfiles++;
	}
	e = &m->src.files[*idx];
	e->id = f->id;
	e->path = intern_str(&m->str, intern_add(&m->str, f->path ? f->path : ""));
	e->host_sid = intern_add(&m->str, f->host ? f->host : "");
	e->host = intern_str(&m->str, e->host_sid);
	e->role = intern_str(&m->str, intern_add(&m->str, f->role ? f->role : ""));
	e->size = f->size;
	e->listed_only = f->listed_only;
	free(e->read);
	e->read = NULL;
	e->nread = 0;
	if (f->listed_only && f->nread) {
		e->read = xmalloc(f->nread * sizeof(*e->read));
		for (size_t k = 0; k < f->nread; k++)
			e->read[k] = intern_str(&m->str, intern_add(&m->str, f->read[k]));
		e->nread = f->nread;
	}
	m->wr.have_seg_memo = false;   /* the file's host may have changed */
	if (f->host && *f->host)
		hosts_index(m, f->host);
	pthread_mutex_unlock(&m->th.lock);
}

static void
on_source(void *ctx, const struct reader_source *s)
{
	struct model *m = ctx;
	uint64_t *idx;
	struct source_entry *e;

	pthread_mutex_lock(&m->th.lock);
	idx = hashtab_u64_put(&m->src.source_by_rid, s->id, m->src.nsources);
	if (*idx == m->src.nsources) {
		TD_GROW(m->src.sources, m->src.capsources, m->src.nsources + 1);
		memset(&m->src.sources[m->src.nsources], 0, sizeof(m->src.sources[0]));
		m->src.nsources++;
	}
	e = &m->src.sources[*idx];
	e->reader_id = s->id;
	e->host = intern_str(&m->str, intern_add(&m->str, s->host ? s->host : ""));
	e->path = intern_str(&m->str, intern_add(&m->str, s->path ? s->path : ""));
	e->loc = s->loc;
	e->nlines = s->nlines;
	e->in_dump = true;
	pthread_mutex_unlock(&m->th.lock);
	model_bump(m);
}

static const char *
str_or_null(struct model *m, const char *s)
{
	return s ? intern_str(&m->str, intern_add(&m->str, s)) : NULL;
}

static void
on_frame(void *ctx, const struct reader_frame *f)
{
	struct model *m = ctx;
	struct frame_entry *e;
	uint64_t *idx;
	uint32_t sid;

	pthread_mutex_lock(&m->th.lock);
	sid = intern_add(&m->str, f->id ? f->id : "");
	idx = hashtab_u64_put(&m->src.frame_by_sid, sid, m->src.nframes);
	if (*idx == m->src.nframes) {
		TD_GROW(m->src.frames, m->src.capframes, m->src.nframes + 1);
		m->src.nframes++;
	}
	e = &m->src.frames[*idx];
	e->file = str_or_null(m, f->file ? f->file : "");
	e->host = str_or_null(m, f->host ? f->host : "");
	e->func = str_or_null(m, f->func ? f->func : "");
	e->code = str_or_null(m, f->code);
	e->line = f->line;
	e->source_id = f->source_id;
	e->user_code = !f->framework;
	pthread_mutex_unlock(&m->th.lock);
}

static void
on_graph(void *ctx, const struct reader_graph *g)
{
	struct model *m = ctx;
	uint32_t sid;
	uint64_t *idx;
	struct graph_entry *e;

	pthread_mutex_lock(&m->th.lock);
	sid = intern_add(&m->str, g->graph_id ? g->graph_id : "");
	idx = hashtab_u64_put(&m->ot.graph_by_sid, sid, m->ot.ngraphs);
	if (*idx == m->ot.ngraphs) {
		TD_GROW(m->ot.graphs, m->ot.capgraphs, m->ot.ngraphs + 1);
		m->ot.ngraphs++;
	}
	e = &m->ot.graphs[*idx];
	e->id_sid = sid;
	e->name_sid = intern_add(&m->str, g->name ? g->name : "");
	e->outer_sid = g->outer_id && *g->outer_id ? intern_add(&m->str, g->outer_id) : NO_ID;
	e->host_sid = intern_add(&m->str, g->host ? g->host : "");
	pthread_mutex_unlock(&m->th.lock);
}

static void
on_device(void *ctx, const struct reader_device *d)
{
	struct model *m = ctx;
	struct reader_device *e;
	const char *host = d->host ? d->host : "";
	size_t i;

	pthread_mutex_lock(&m->th.lock);
	for (i = 0; i < m->ot.ndevices; i++) {
		if (m->ot.devices[i].id == d->id && strcmp(m->ot.devices[i].host, host) == 0) {
			pthread_mutex_unlock(&m->th.lock);
			return;         /* announced again */
		}
	}
	TD_GROW(m->ot.devices, m->ot.capdevices, m->ot.ndevices + 1);
	e = &m->ot.devices[m->ot.ndevices++];
	e->id = d->id;
	e->name = intern_str(&m->str, intern_add(&m->str, d->name ? d->name : ""));
	e->host = intern_str(&m->str, intern_add(&m->str, d->host ? d->host : ""));
	pthread_mutex_unlock(&m->th.lock);
}

static uint32_t trace_graph_sid(struct model *m, const char *graph);

static void
on_op(void *ctx, const struct reader_op *op)
{
	struct model *m = ctx;
	const char *name = op->op_name ? op->op_name : "";
	uint32_t id, name_hash;

	if (stopping(m))
		return;
	name_hash = hashtab_str_hash(name);     /* once: lookup, intern, op hash */
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	id = ops_lookup_hashed(m, op->graph_id ? op->graph_id : "", name, name_hash);
	if (id == NO_ID)
		id = ops_add_hashed(m, op, false, name_hash);
	else if (m->ot.opv[id].placeholder)
		ops_fill(m, id, op);
	m->wr.last_op1 = id + 1;
	pthread_mutex_unlock(&m->th.lock);
	model_bump(m);
}

/* Trace rows of execution x: rows the run list gives it (a trace may name an
 * execution the reader has not sent yet). */
static void
exec_claim_runs(struct model *m, uint64_t x, struct exec_row *row)
{
	uint64_t n = rows_ntraces(m), first = UINT64_MAX, last = 0, j;
	size_t r;

	for (r = 0; r < m->rows.nruns; r++) {
		uint64_t end = r + 1 < m->rows.nruns ? m->rows.runs[r + 1].first : n;

		if (m->rows.runs[r].execution != (int64_t)x || end <= m->rows.runs[r].first)
			continue;
		first = TD_MIN(first, m->rows.runs[r].first);
		last = TD_MAX(last, end);
	}
	if (first == UINT64_MAX)
		return;
	row->first_trace = first;
	row->ntraces = (uint32_t)(last - first);   /* rows < 2^32 */
	for (j = first; j < last; j++)
		if (trace_flags(m, j) & TF_NONFINITE)
			row->flags |= ROW_CONTAINS_NONFINITE;
}

static void
on_execution(void *ctx, const struct reader_execution *e)
{
	struct model *m = ctx;
	struct exec_row *x;
	uint64_t idx = rows_nexecs(m);
	const char *type = e->op_type ? e->op_type : "";
	uint32_t type_sid = NO_ID, graph_sid;

	if (stopping(m))
		return;
	x = rows_add_exec_begin(m, &e->loc);
	if (!x)
		return;
	graph_sid = e->graph_id && *e->graph_id ? trace_graph_sid(m, e->graph_id) : NO_ID;
	pthread_mutex_lock(&m->th.lock);
	/* a reader whose execution is named as its op (an API entry of a
	 * statistics dump) sends it right after the op: its name's id,
	 * without a hash */
	if (m->wr.last_op1 && m->wr.last_op1 <= m->ot.nops) {
		const struct op_entry *o = &m->ot.opv[m->wr.last_op1 - 1];

		if (strcmp(ops_name(m, o), type) == 0)
			type_sid = o->name_sid;
	}
	if (type_sid == NO_ID)
		type_sid = intern_add(&m->str, type);
	x->op_type = type_sid;
	x->graph_sid = graph_sid;
	x->host = hosts_index(m, e->host);
	x->wall_time = e->wall_time;
	x->num_outputs = e->num_outputs;
	x->bad_outputs = e->bad_outputs;
	x->step = e->step < 0 ? -1 : e->step;
	x->flags = (e->bad_outputs ? ROW_NONFINITE : 0) | (x->graph_sid != NO_ID ? ROW_FUNCTION : 0);
	/* only a run that named idx before it was sent has rows to give it:
	 * skip the scan of every run otherwise (it made one execution per
	 * call, sent before its rows, quadratic) */
	if (m->rows.nruns && (!m->rows.run_max_known || m->rows.run_max_exec >= (int64_t)idx))
		exec_claim_runs(m, idx, x);
	if (e->bad_outputs) {
		uint64_t before = atomic_load(&m->rows.exec_alerts);

		m->rows.ebad[idx >> MODEL_CHUNK_SHIFT] += e->bad_outputs;
		alerts_group_add(m, ALERTS_OF_EXECUTIONS, "InfNan", type_sid, e->bad_outputs, before);
		atomic_store_explicit(&m->rows.exec_alerts, before + e->bad_outputs, memory_order_release);
		if (m->rows.first_bad_exec < 0) {
			m->rows.first_bad_exec = (int64_t)idx;
			m->rows.first_bad_exec_wall = e->wall_time;
		}
	}
	pthread_mutex_unlock(&m->th.lock);
	rows_add_exec_end(m);
	model_bump(m);
}

/* Keeps the run list (trace -> execution) and the execution's row range. */
static void
trace_execution(struct model *m, uint64_t row, int64_t execution, bool nonfinite)
{
	if (execution >= 0)
		atomic_store(&m->rows.containers, true);
	if (execution != m->wr.last_exec_of_trace &&
	    (execution >= 0 || m->rows.nruns)) {
		pthread_mutex_lock(&m->th.lock);
		TD_GROW(m->rows.runs, m->rows.capruns, m->rows.nruns + 1);
		m->rows.runs[m->rows.nruns].first = row;
		m->rows.runs[m->rows.nruns].execution = execution;
		if (!m->rows.nruns) {
			m->rows.run_max_known = true;
			m->rows.run_max_exec = execution;
		} else if (execution > m->rows.run_max_exec) {
			m->rows.run_max_exec = execution;
		}
		m->rows.nruns++;
		pthread_mutex_unlock(&m->th.lock);
	}
	if (execution >= 0 && (uint64_t)execution < rows_nexecs(m)) {
		struct exec_row *x = exec_row(m, (uint64_t)execution);

		if (execution != m->wr.last_exec_of_trace && x->ntraces)
			atomic_store(&m->rows.split_runs, true);   /* its rows are not contiguous */
		if (!__atomic_load_n(&x->ntraces, __ATOMIC_RELAXED))
			__atomic_store_n(&x->first_trace, row, __ATOMIC_RELAXED);
		if (row >= x->first_trace)
			__atomic_store_n(&x->ntraces, (uint32_t)(row - x->first_trace + 1),
					 __ATOMIC_RELAXED);
		if (nonfinite)
			__atomic_fetch_or(&x->flags, ROW_CONTAINS_NONFINITE, __ATOMIC_RELAXED);
	}
	m->wr.last_exec_of_trace = execution;
}

/* Keeps the step list: a new entry where the step changes (a few per
 * dump: readers send the rows of one step together). */
static void
trace_step(struct model *m, uint64_t row, int64_t step)
{
	if (step < 0)
		step = -1;
	if (step == m->wr.last_step_of_trace)
		return;
	pthread_mutex_lock(&m->th.lock);
	TD_GROW(m->rows.steps, m->rows.capsteps, m->rows.nsteps + 1);
	m->rows.steps[m->rows.nsteps].first = row;
	m->rows.steps[m->rows.nsteps].step = step;
	m->rows.nsteps++;
	pthread_mutex_unlock(&m->th.lock);
	m->wr.last_step_of_trace = step;
}

/* The segment of a trace's file (writer; the file map is writer-owned). */
static size_t
trace_segment_of(struct model *m, uint32_t file)
{
	uint64_t fi, key = 1ull << 63 | file, *idx;

	if (m->wr.have_seg_memo && m->wr.seg_memo_file == file)
		return m->wr.seg_memo;
	if (hashtab_u64_get(&m->src.file_by_id, file, &fi) && *m->src.files[fi].host)
		key = (uint64_t)(uintptr_t)m->src.files[fi].host;
	pthread_mutex_lock(&m->th.lock);
	idx = hashtab_u64_put(&m->rows.seg_by_key, key, m->rows.nsegs);
	if (*idx == m->rows.nsegs) {
		TD_GROW(m->rows.segs, m->rows.capsegs, m->rows.nsegs + 1);
		m->rows.segs[m->rows.nsegs].key = key;
		m->rows.segs[m->rows.nsegs].cand = -1;
		m->rows.segs[m->rows.nsegs].cand_wall = 0;
		m->rows.nsegs++;
	}
	pthread_mutex_unlock(&m->th.lock);
	m->wr.have_seg_memo = true;
	m->wr.seg_memo_file = file;
	m->wr.seg_memo = *idx;
	return *idx;
}

/* The first non-finite row of each segment (first_nonfinite). */
static void
trace_segment(struct model *m, uint64_t row, const struct reader_trace *t, bool nonfinite)
{
	size_t s;

	if (!nonfinite)
		return;
	s = trace_segment_of(m, t->loc.file);
	if (m->rows.segs[s].cand < 0) {
		pthread_mutex_lock(&m->th.lock);
		m->rows.segs[s].cand = (int64_t)row;
		m->rows.segs[s].cand_wall = t->wall_time;
		pthread_mutex_unlock(&m->th.lock);
	}
}

/* The string id of a trace's graph id, through a small writer-only memo
 * (a dump has few graphs; locking and hashing per row would show). */
static uint32_t
trace_graph_sid(struct model *m, const char *graph)
{
	struct graph_memo *g = &m->wr.gmemo[m->wr.gmemo_last];
	unsigned i;

	if (g->s && strcmp(g->s, graph) == 0)      /* rows come in runs of one graph */
		return g->sid;
	for (i = 0; i < TD_ARRAY_SIZE(m->wr.gmemo); i++) {
		if (m->wr.gmemo[i].s && strcmp(m->wr.gmemo[i].s, graph) == 0) {
			m->wr.gmemo_last = i;
			return m->wr.gmemo[i].sid;
		}
	}
	m->wr.gmemo_last = m->wr.gmemo_next++ % TD_ARRAY_SIZE(m->wr.gmemo);
	g = &m->wr.gmemo[m->wr.gmemo_last];
	pthread_mutex_lock(&m->th.lock);
	g->sid = intern_add(&m->str, graph);
	g->s = intern_str(&m->str, g->sid);
	pthread_mutex_unlock(&m->th.lock);
	return g->sid;
}

/* The op of a trace row.  A training loop repeats one op sequence step
 * after step, so the op that followed the previous row's op last time is
 * tried first (two string compares, no hashing); else the op hash, and a
 * placeholder op when the dump has not described it (yet).  Writer only. */
static uint32_t
trace_op_of(struct model *m, const char *graph, const char *name, uint64_t key)
{
	uint32_t op = NO_ID, guess1 = m->wr.last_trace_op1 ? ops_writer(m, m->wr.last_trace_op1 - 1)->succ1 : 0;

	/* the reader's op key (reader.h) spares the compares when it is the
	 * one this op was last matched with: the op of the trace before
	 * again (an op's inputs and outputs), or the one that followed it */
	if (key && m->wr.last_trace_op1 && ops_writer(m, m->wr.last_trace_op1 - 1)->key == key) {
		op = m->wr.last_trace_op1 - 1;
	} else if (guess1 && key && ops_writer(m, guess1 - 1)->key == key) {
		op = guess1 - 1;
	} else if (guess1 && strcmp(ops_name(m, &m->ot.opv[guess1 - 1]), name) == 0 &&
	    strcmp(ops_graph(m, &m->ot.opv[guess1 - 1]), graph) == 0) {
		op = guess1 - 1;
	} else {
		op = ops_lookup_sid(m, trace_graph_sid(m, graph), name);
		if (op == NO_ID) {
			struct reader_op ph = {.graph_id = graph, .op_name = name};

			pthread_mutex_lock(&m->th.lock);
			op = ops_add(m, &ph, true);
			pthread_mutex_unlock(&m->th.lock);
		}
		if (m->wr.last_trace_op1)
			ops_writer(m, m->wr.last_trace_op1 - 1)->succ1 = op + 1;
	}
	m->wr.last_trace_op1 = op + 1;
	if (key)
		ops_writer(m, op)->key = key;
	return op;
}

static void
on_trace(void *ctx, const struct reader_trace *t)
{
	struct model *m = ctx;
	const char *graph = t->graph_id ? t->graph_id : "", *name = t->op_name ? t->op_name : "";
	uint64_t row = atomic_load_explicit(&m->rows.ntraces, memory_order_relaxed);
	bool nonfinite = td_summary_nonfinite(&t->summary);
	uint32_t op;
	uint8_t flags;

	ops_ready(m);           /* the writer reads the op table without the lock below */
	ops_hash_ready(m);      /* and looks ops up by name (trace_op_of) */
	if (stopping(m) || (row >> MODEL_CHUNK_SHIFT) >= MODEL_MAX_CHUNKS)
		return;
	op = trace_op_of(m, graph, name, t->op_key);
	if (t->op_type && *t->op_type && m->ot.opv[op].placeholder && !m->ot.opv[op].type_sid) {
		/* a format whose traces carry their type (no on_op) */
		pthread_mutex_lock(&m->th.lock);
		uint32_t old_type = m->ot.opv[op].type_sid;

		m->ot.opv[op].type_sid = intern_add(&m->str, t->op_type);
		if (ops_nf_rows(&m->ot.opv[op]) && old_type != m->ot.opv[op].type_sid)
			alerts_group_retype(m, old_type, m->ot.opv[op].type_sid,
					    ops_nf_rows(&m->ot.opv[op]), ops_first_alert(&m->ot.opv[op]));
		m->ot.fill_gen++;
		pthread_mutex_unlock(&m->th.lock);
	}
	flags = (uint8_t)((nonfinite ? TF_NONFINITE : 0) | (t->is_input ? TF_INPUT : 0) |
			  (TD_MIN(t->slot, TF_SLOT_ESC) << TF_SLOT_SHIFT));
	if (t->repeat || (nonfinite && t->is_input &&
			  links_input_producer_row(m, op, t->slot, row, t->execution) >= 0))
		flags |= TF_REPEAT;
	if (t->is_input && !atomic_load_explicit(&m->rows.input_rows, memory_order_relaxed))
		atomic_store(&m->rows.input_rows, true);
	trace_segment(m, row, t, TF_IS_ALERT(flags));
	if (t->execution >= 0 || m->rows.nruns)
		trace_execution(m, row, t->execution, nonfinite);
	trace_step(m, row, t->step);
	if (TF_IS_ALERT(flags)) {
		struct op_entry *o = &m->ot.opv[op];
		uint64_t alert = atomic_load(&m->rows.trace_alerts);
		struct op_more *x;

		pthread_mutex_lock(&m->th.lock);
		x = ops_more(m, o);
		if (!x->nf_rows++)
			x->first_alert = alert;
		alerts_group_add(m, ALERTS_OF_TRACES, "InfNan", o->type_sid, 1, alert);
		pthread_mutex_unlock(&m->th.lock);
	}
	if (!m->ot.opv[op].first_row1)
		__atomic_store_n(&m->ot.opv[op].first_row1, row + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&m->ot.opv[op].last_row, row, __ATOMIC_RELAXED);
	fields_put(m, row, t);
	rows_add_trace(m, op, flags, &t->loc);
	model_bump(m);
}

/* A value that crossed between rows (reader.h struct reader_link): kept
 * for origins; a link naming a row not sent is dropped. */
static void
on_link(void *ctx, const struct reader_link *l)
{
	struct model *m = ctx;
	uint64_t n = atomic_load_explicit(&m->rows.ntraces, memory_order_relaxed);

	if (stopping(m) || l->from >= n || l->to >= n || l->from == l->to)
		return;
	pthread_mutex_lock(&m->th.lock);
	TD_GROW(m->rows.peer_links, m->rows.cappeer_links, m->rows.npeer_links + 1);
	m->rows.peer_links[m->rows.npeer_links++] = *l;
	pthread_mutex_unlock(&m->th.lock);
}

/* The file a torn tail belongs to: its id, else its path (under lock). */
static uint64_t
torn_key(struct model *m, const struct reader_problem *p)
{
	if (p->file >= 0)
		return (uint64_t)p->file;
	return 1ull << 63 | intern_add(&m->str, p->path ? p->path : "");
}

/* Torn tails are state, not history: a file's tail is torn until a later
 * pass reads past it (on_resolved).  Under m->th.lock. */
static void
torn_set(struct model *m, const struct reader_problem *p)
{
	uint64_t key = torn_key(m, p);
	size_t i;

	for (i = 0; i < m->pr.ntorn && m->pr.torn[i].key != key; i++)
		;
	if (i == m->pr.ntorn) {
		TD_GROW(m->pr.torn, m->pr.captorn, m->pr.ntorn + 1);
		m->pr.ntorn++;
	}
	m->pr.torn[i].key = key;
	m->pr.torn[i].offset = p->offset;
}

static void
on_resolved(void *ctx, const struct reader_problem *p)
{
	struct model *m = ctx;
	uint64_t key;
	size_t i;

	if (p->kind != PROBLEM_TORN_TAIL)
		return;
	pthread_mutex_lock(&m->th.lock);
	key = torn_key(m, p);
	for (i = 0; i < m->pr.ntorn; i++) {
		if (m->pr.torn[i].key == key && m->pr.torn[i].offset <= p->offset) {
			m->pr.torn[i] = m->pr.torn[--m->pr.ntorn];
			break;
		}
	}
	pthread_mutex_unlock(&m->th.lock);
	model_bump(m);
}

static void
on_problem(void *ctx, const struct reader_problem *p)
{
	struct model *m = ctx;
	uint64_t fi, key, *seen;

	m->rows.tloc.force = m->rows.eloc.force = true;
	if (p->kind == PROBLEM_TORN_TAIL) {
		pthread_mutex_lock(&m->th.lock);
		torn_set(m, p);
		pthread_mutex_unlock(&m->th.lock);
	}
	/* a reader may report the same spot again on a later pass (a torn
	 * tail still being written): count it once */
	key = ((uint64_t)p->kind * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)(p->file + 1) << 40) ^
	      p->offset ^ ((uint64_t)hashtab_str_hash(p->path ? p->path : "") << 20) ^
	      ((uint64_t)p->record * 0xc4ceb9fe1a85ec53ULL);
	if (key == UINT64_MAX)
		key = 0;
	pthread_mutex_lock(&m->th.lock);
	seen = hashtab_u64_put(&m->pr.problem_seen, key, 0);
	if ((*seen)++) {
		pthread_mutex_unlock(&m->th.lock);
		return;
	}
	if ((unsigned)p->kind < TD_ARRAY_SIZE(m->pr.problems_by_kind))
		m->pr.problems_by_kind[p->kind]++;
	m->pr.problem_total++;
	if (p->file >= 0 && hashtab_u64_get(&m->src.file_by_id, (uint64_t)p->file, &fi))
		m->src.files[fi].problems++;
	if (m->pr.nproblems < MODEL_MAX_PROBLEMS) {
		struct problem_entry *e;

		if (!m->pr.problems)
			m->pr.problems = xcalloc(MODEL_MAX_PROBLEMS, sizeof(*m->pr.problems));
		e = &m->pr.problems[m->pr.nproblems++];
		e->kind = p->kind;
		e->path = str_or_null(m, p->path ? p->path : "");
		e->what = str_or_null(m, p->what ? p->what : "");
		e->detail = str_or_null(m, p->detail ? p->detail : "");
		e->offset = p->offset;
		e->record = p->record;
	}
	pthread_mutex_unlock(&m->th.lock);
	model_bump(m);
}

static void
on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct model *m = ctx;

	atomic_store_explicit(&m->th.bytes_done, done, memory_order_relaxed);
	atomic_store_explicit(&m->th.bytes_total, total, memory_order_relaxed);
}

/* The type of the op named op_name (the first described op of that name),
 * string id 0 ("") if none.  Under m->th.lock. */
static uint32_t
alert_op_type(struct model *m, const char *op_name)
{
	uint32_t j;

	ops_ready_locked(m);
	if (!op_name)
		return 0;
	for (j = ops_first_of_name(m, intern_add(&m->str, op_name)); j != NO_ID;
	     j = m->ot.opv[j].next_same_name)
		if (!m->ot.opv[j].placeholder)
			return m->ot.opv[j].type_sid;
	return 0;
}

static void
on_alert(void *ctx, const struct reader_alert *a)
{
	struct model *m = ctx;
	struct reader_alert_entry *o;
	uint32_t type_sid;

	pthread_mutex_lock(&m->th.lock);
	type_sid = alert_op_type(m, a->op_name);
	TD_GROW(m->pr.ralerts, m->pr.capralerts, m->pr.nralerts + 1);
	o = &m->pr.ralerts[m->pr.nralerts];
	o->kind = a->kind;
	o->op_name = str_or_null(m, a->op_name ? a->op_name : "");
	o->op_type = intern_str(&m->str, type_sid);
	o->detail = str_or_null(m, a->detail);
	o->execution = a->execution;
	alerts_group_add(m, ALERTS_STATED, reader_alert_name(a->kind), type_sid, 1, m->pr.nralerts);
	m->pr.nralerts++;
	pthread_mutex_unlock(&m->th.lock);
	model_bump(m);
}

/* model_close() is waiting: the reader gives its pass up. */
static bool
should_stop(void *ctx)
{
	return stopping(ctx);
}

void
model_sink_init(struct model *m, struct reader_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->ctx = m;
	sink->on_meta = on_meta;
	sink->on_file = on_file;
	sink->on_source = on_source;
	sink->on_frame = on_frame;
	sink->on_graph = on_graph;
	sink->on_device = on_device;
	sink->on_op = on_op;
	sink->on_execution = on_execution;
	sink->on_trace = on_trace;
	sink->on_problem = on_problem;
	sink->on_progress = on_progress;
	sink->on_alert = on_alert;
	sink->should_stop = should_stop;
	sink->on_resolved = on_resolved;
	sink->on_link = on_link;
}
