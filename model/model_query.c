/*
 * model_query.c - the narrow API of model_query.h over the model's tables:
 * rows' keys in batches, decoded facts, executions' keys, op briefs and
 * rows, graph nesting, hosts and per-dump analysis state.  Each function
 * takes the model's lock itself, once per call.  The link scans are in
 * model_scan.c, the readers' links in model_peers.c.  Not for: analysis
 * (that is model/analysis/, which calls these).
 */
#include "model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- rows ------------------------------------------------------------- */

static uint32_t
public_flags(uint8_t f)
{
	return ((f & TF_NONFINITE) ? ROW_NONFINITE : 0) | ((f & TF_INPUT) ? ROW_INPUT : 0) |
	       ((f & TF_CORRUPT) ? ROW_CORRUPT : 0) | ((f & TF_REPEAT) ? ROW_REPEAT : 0);
}

/* Under th.lock. */
static void
row_keys_locked(struct model *m, uint64_t i, uint64_t nt, struct model_row_keys *k)
{
	*k = (struct model_row_keys){ UINT32_MAX, 0, 0, -1, -1, -1, -1 };
	if (i >= nt)
		return;
	k->op = trace_op(m, i);
	k->flags = public_flags(trace_flags(m, i));
	k->host = rows_trace_host_sid(m, i);
	k->step = rows_trace_step(m, i);
	k->execution = rows_trace_execution(m, i);
	ops_ready_locked(m);
	if (k->op < m->ot.nops)
		k->graph = graphs_index_of_sid(m, m->ot.opv[k->op].graph_sid);
	if (k->execution >= 0 && (uint64_t)k->execution < rows_nexecs(m))
		k->exec_step = exec_row(m, (uint64_t)k->execution)->step;
}

void
model_trace_keys(struct model *m, const uint64_t *rows, size_t n, struct model_row_keys *keys)
{
	uint64_t nt = rows_ntraces(m);

	pthread_mutex_lock(&m->th.lock);
	for (size_t k = 0; k < n; k++)
		row_keys_locked(m, rows[k], nt, &keys[k]);
	pthread_mutex_unlock(&m->th.lock);
}

uint32_t
model_trace_slot(struct model *m, uint64_t i)
{
	return i < rows_ntraces(m) ? rows_trace_slot(m, i) : 0;
}

void
model_trace_decoded(struct model *m, uint64_t i, struct model_row_decoded *d)
{
	struct cache_ent e;

	rows_trace_decoded(m, i, &e);
	d->wall_time = e.wall_time;
	d->summary = e.summary;
	d->from_values = e.from_values;
	d->corrupt = e.corrupt;
}

bool
model_traces_have_input_rows(struct model *m)
{
	return atomic_load(&m->rows.input_rows);
}

bool
model_traces_split_runs(struct model *m)
{
	return atomic_load(&m->rows.split_runs);
}

uint64_t
model_trace_next_nonfinite(struct model *m, uint64_t i, uint64_t end)
{
	uint64_t ch, stop;
	const uint8_t *f;

	end = TD_MIN(end, rows_ntraces(m));
	while (i < end) {
		ch = i >> MODEL_CHUNK_SHIFT;
		stop = TD_MIN(end, (ch + 1) << MODEL_CHUNK_SHIFT);
		if (!__atomic_load_n(&m->rows.tnonfinite[ch], __ATOMIC_RELAXED)) {
			i = stop;
			continue;
		}
		f = m->rows.tchunks[ch]->flags;
		/* eight flags a step (a clean stretch is the usual case), each
		 * loaded as trace_flags() does: another thread may mark a row
		 * corrupt meanwhile */
		while (i < stop) {
			size_t at = (size_t)(i & (MODEL_CHUNK - 1));
			unsigned any;

			if (!(at & 7) && stop - i >= 8) {
#define FL(k) __atomic_load_n(&f[at + (k)], __ATOMIC_RELAXED)
				any = FL(0) | FL(1) | FL(2) | FL(3) | FL(4) | FL(5) | FL(6) | FL(7);
#undef FL
				if (!(any & TF_NONFINITE)) {
					i += 8;
					continue;
				}
			}
			if (__atomic_load_n(&f[at], __ATOMIC_RELAXED) & TF_NONFINITE)
				return i;
			i++;
		}
	}
	return end;
}

bool
model_trace_span(struct model *m, uint64_t i, uint64_t *lo, uint64_t *hi, uint32_t *file)
{
	int64_t k = rows_ckpt_find(m, i);
	uint32_t next_file;

	if (k < 0 || !rows_ckpt(m, (uint64_t)k, lo, file))
		return false;
	if (!rows_ckpt(m, (uint64_t)k + 1, hi, &next_file))
		*hi = UINT64_MAX;
	return true;
}

bool
model_file_host(struct model *m, uint32_t file, uint32_t *host)
{
	uint64_t fi;
	bool ok;

	pthread_mutex_lock(&m->th.lock);
	ok = hashtab_u64_get(&m->src.file_by_id, file, &fi) && *m->src.files[fi].host;
	if (ok)
		*host = m->src.files[fi].host_sid;
	pthread_mutex_unlock(&m->th.lock);
	return ok;
}

uint32_t
model_trace_host(struct model *m, uint64_t i)
{
	uint32_t h = 0;

	pthread_mutex_lock(&m->th.lock);
	if (i < rows_ntraces(m))
		h = rows_trace_host_sid(m, i);
	pthread_mutex_unlock(&m->th.lock);
	return h;
}

size_t
model_trace_hosts(struct model *m, uint64_t first, size_t n, uint32_t *host, int64_t *step)
{
	uint64_t nt = rows_ntraces(m), lo = 1, hi = 0, fi;
	uint32_t file, next, fhost = 0;
	bool named = false;
	size_t k = 0;
	int64_t c;

	pthread_mutex_lock(&m->th.lock);
	for (; k < n && first + k < nt; k++) {
		uint64_t i = first + k;

		/* the rows of one checkpoint are one file's: its host found
		 * once for them (rows_trace_host_sid searches per row) */
		if (host && (i < lo || i >= hi)) {
			named = false;
			lo = hi = i + 1;
			if ((c = rows_ckpt_find(m, i)) >= 0 && rows_ckpt(m, (uint64_t)c, &lo, &file)) {
				if (!rows_ckpt(m, (uint64_t)c + 1, &hi, &next))
					hi = UINT64_MAX;
				named = file != NO_ID && hashtab_u64_get(&m->src.file_by_id, file, &fi) &&
					*m->src.files[fi].host;
				fhost = named ? m->src.files[fi].host_sid : 0;
			}
		}
		if (host)
			host[k] = named ? fhost : rows_trace_host_sid(m, i);
		if (step)
			step[k] = rows_trace_step(m, i);
	}
	pthread_mutex_unlock(&m->th.lock);
	return k;
}

/* ---- executions ------------------------------------------------------ */

size_t
model_execution_keys(struct model *m, uint64_t first, size_t n, struct model_exec_keys *out)
{
	uint64_t ne = rows_nexecs(m);
	size_t k = 0;

	pthread_mutex_lock(&m->th.lock);
	for (; k < n && first + k < ne; k++) {
		const struct exec_row *x = exec_row(m, first + k);

		out[k].wall_time = x->wall_time;
		out[k].flags = __atomic_load_n(&x->flags, __ATOMIC_RELAXED);
		out[k].graph = graphs_index_of_sid(m, x->graph_sid);
		out[k].host = x->host < m->src.nhosts ? m->src.hosts[x->host] : 0;
		out[k].step = x->step;
		out[k].first_trace = __atomic_load_n(&x->first_trace, __ATOMIC_RELAXED);
		out[k].ntraces = __atomic_load_n(&x->ntraces, __ATOMIC_RELAXED);
		out[k].bad_outputs = x->bad_outputs;
		out[k].op_type = intern_str(&m->str, x->op_type);
		out[k].type_key = x->op_type;
	}
	pthread_mutex_unlock(&m->th.lock);
	return k;
}

/* ---- ops and graphs -------------------------------------------------- */

/* Under th.lock. */
static void
brief_locked(struct model *m, uint32_t id, struct model_op_brief *b)
{
	const struct op_entry *o = &m->ot.opv[id];

	b->name = ops_name(m, o);
	b->type = ops_type(m, o);
	b->graph_id = ops_graph(m, o);
	b->graph = graphs_index_of_sid(m, o->graph_sid);
	b->graph_key = o->graph_sid;
	b->num_outputs = o->num_outputs;
	b->ninputs = o->ninputs;
	b->described = !o->placeholder;
}

uint32_t
model_ops_filled(struct model *m, uint64_t *fill_gen)
{
	uint32_t n;

	pthread_mutex_lock(&m->th.lock);
	n = (uint32_t)m->ot.nops;
	*fill_gen = m->ot.fill_gen;
	pthread_mutex_unlock(&m->th.lock);
	return n;
}

bool
model_op_brief(struct model *m, uint32_t id, struct model_op_brief *b)
{
	return model_op_briefs(m, id, 1, b) == 1;
}

size_t
model_op_briefs(struct model *m, uint32_t first, size_t n, struct model_op_brief *out)
{
	size_t k = 0;

	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	for (; k < n && (uint64_t)first + k < m->ot.nops; k++)
		brief_locked(m, first + (uint32_t)k, &out[k]);
	pthread_mutex_unlock(&m->th.lock);
	return k;
}

int64_t
model_op_input(struct model *m, uint32_t id, uint32_t k, uint32_t *slot, const char **name)
{
	int64_t r = -2;

	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	if (id < m->ot.nops && k < m->ot.opv[id].ninputs) {
		const struct op_entry *o = &m->ot.opv[id];
		uint32_t p = ops_lookup_sid(m, o->graph_sid, o->inputs[k].op_name);

		r = p == NO_ID ? -1 : (int64_t)p;
		if (slot)
			*slot = o->inputs[k].slot;
		if (name)
			*name = o->inputs[k].op_name;
	}
	pthread_mutex_unlock(&m->th.lock);
	return r;
}

bool
model_op_rows(struct model *m, uint32_t id, uint64_t *first, uint64_t *last)
{
	uint64_t f1 = 0;

	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	if (id < m->ot.nops) {
		f1 = __atomic_load_n(&m->ot.opv[id].first_row1, __ATOMIC_RELAXED);
		*last = __atomic_load_n(&m->ot.opv[id].last_row, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&m->th.lock);
	*first = f1 ? f1 - 1 : 0;
	return f1 != 0;
}

size_t
model_op_same_name(struct model *m, uint32_t id, uint32_t **out)
{
	uint32_t *v = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	if (id >= m->ot.nops) {
		pthread_mutex_unlock(&m->th.lock);
		return 0;
	}
	TD_GROW(v, cap, 1);
	v[n++] = id;
	for (uint32_t j = ops_first_of_name(m, m->ot.opv[id].name_sid); j != NO_ID;
	     j = m->ot.opv[j].next_same_name)
		if (j != id) {
			TD_GROW(v, cap, n + 1);
			v[n++] = j;
		}
	pthread_mutex_unlock(&m->th.lock);
	*out = v;
	return n;
}

bool
model_graph_inside(struct model *m, int32_t g, int32_t outer)
{
	bool r;

	pthread_mutex_lock(&m->th.lock);
	r = graphs_is_inside(m, g, outer);
	pthread_mutex_unlock(&m->th.lock);
	return r;
}

/* ---- hosts ---------------------------------------------------------- */

const char *
model_host_name(struct model *m, uint32_t key)
{
	return key < atomic_load(&m->str.n) ? intern_str(&m->str, key) : "";
}

uint32_t
model_host_key(struct model *m, const char *name)
{
	uint32_t k;

	pthread_mutex_lock(&m->th.lock);
	k = intern_find(&m->str, name);
	pthread_mutex_unlock(&m->th.lock);
	return k == NO_ID ? MODEL_NO_HOST : k;
}

/* ---- the dump's reader ---------------------------------------------- */

uint32_t
model_reader_flags(struct model *m)
{
	return m->ops->flags;
}

enum reader_call
model_op_call_key(struct model *m, const char *name, char *key, size_t keylen, int64_t *count)
{
	return m->ops->call_of ? m->ops->call_of(name, key, keylen, count) : READER_CALL_NONE;
}

bool
model_same_reader(const struct model *a, const struct model *b)
{
	return a->ops == b->ops;
}

enum td_status
model_map_add(struct model *m, struct reader_map **map, enum reader_map_kind kind,
	      const char *path, char *err, size_t errlen)
{
	if (!m->ops->map_add) {
		snprintf(err, errlen, "%s dumps have no name maps", m->ops->name);
		return TD_ERR_UNSUPPORTED;
	}
	return m->ops->map_add(map, kind, path, err, errlen);
}

enum td_status
model_map_layers(struct model *b, struct model *a, struct reader_map **map, const char *path,
		 char *err, size_t errlen)
{
	if (!b->ops->map_layers || a->ops != b->ops) {
		snprintf(err, errlen, a->ops != b->ops ? "a layer map pairs two dumps of one format"
			 : "%s dumps have no layer map", b->ops->name);
		return TD_ERR_UNSUPPORTED;
	}
	return b->ops->map_layers(map, b->r, a->r, path, err, errlen);
}

const char *
model_map_name(struct model *m, const struct reader_map *map, const char *name, char *buf,
	       size_t len)
{
	return map && m->ops->map_name ? m->ops->map_name(map, name, buf, len) : name;
}

bool
model_map_leaf(struct model *m, const struct reader_map *map, const char *op_name,
	       const char *leaf, char *buf, size_t len)
{
	return map && m->ops->map_leaf && m->ops->map_leaf(map, op_name, leaf, buf, len);
}

void
model_map_free(struct model *m, struct reader_map *map)
{
	if (map && m->ops->map_free)
		m->ops->map_free(map);
}

/* ---- per-dump analysis state ---------------------------------------- */

void *
model_state(struct model *m, enum model_state_slot slot, void *(*make)(void),
	    void (*done)(void *))
{
	void *p;

	pthread_mutex_lock(&m->th.lock);
	if (!m->an.state[slot].p) {
		m->an.state[slot].p = make();
		m->an.state[slot].done = done;
	}
	p = m->an.state[slot].p;
	pthread_mutex_unlock(&m->th.lock);
	return p;
}

void
model_state_free(struct model *m)
{
	for (size_t k = 0; k < MODEL_STATE_COUNT; k++)
		if (m->an.state[k].p && m->an.state[k].done)
			m->an.state[k].done(m->an.state[k].p);
	memset(m->an.state, 0, sizeof m->an.state);
}
