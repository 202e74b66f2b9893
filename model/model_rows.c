/*
 * model_rows.c - chunked row storage, sparse locators and the decode cache.
 *
 * A trace row costs an op reference (4 bytes) and a flag byte; every
 * CKPT_EVERY rows (and whenever the file changes or a problem was reported
 * in between) one packed (row, locator) checkpoint; nothing else.  Row i's
 * record is found by taking the checkpoint at or before i, or a recently
 * located row between it and i (a few cursors per table, so a listing or a
 * page of the table steps one record per row), and asking the reader to
 * advance().  Decoded rows (summary, wall time, device) go through
 * a direct-mapped cache of opt.cache_rows entries: neighbouring rows never
 * evict each other, so a screen of rows stays decoded.
 *
 * Not here: what the rows mean (alerts, links, filters).
 */
#include "model_internal.h"
#include "model_cache.h"

#include <stdlib.h>
#include <string.h>

void
rows_init(struct model *m)
{
	m->rows.tnonfinite = xcalloc(MODEL_MAX_CHUNKS, sizeof(*m->rows.tnonfinite));
	m->rows.ebad = xcalloc(MODEL_MAX_CHUNKS, sizeof(*m->rows.ebad));
	m->rows.tloc.every = m->ops->advance ? CKPT_EVERY : 1;
	m->rows.eloc.every = m->rows.tloc.every;
	m->dc.cache_n = m->opt.cache_rows ? m->opt.cache_rows : MODEL_DEFAULT_CACHE;
	m->dc.cache = xcalloc(m->dc.cache_n, sizeof(*m->dc.cache));
	pthread_mutex_init(&m->rows.tloc.cur_lock, NULL);
	pthread_mutex_init(&m->rows.eloc.cur_lock, NULL);
	m->wr.last_exec_of_trace = -1;
	m->wr.last_step_of_trace = -1;
	m->rows.first_bad_exec = -1;
	pthread_mutex_init(&m->dc.cache_lock, NULL);
}

static void
locidx_done(struct locidx *li)
{
	size_t i;

	for (i = 0; i < CKPT_MAX_CHUNKS && li->dir[i]; i++)
		free(li->dir[i]);
	pthread_mutex_destroy(&li->cur_lock);
}

void
rows_done(struct model *m)
{
	size_t i;

	for (i = 0; i < MODEL_MAX_CHUNKS && m->rows.tchunks[i]; i++)
		if (!model_cache_owns(m, m->rows.tchunks[i]))    /* loaded in place */
			free(m->rows.tchunks[i]);
	for (i = 0; i < MODEL_MAX_CHUNKS && m->rows.echunks[i]; i++)
		free(m->rows.echunks[i]);
	locidx_done(&m->rows.tloc);
	locidx_done(&m->rows.eloc);
	free(m->rows.tnonfinite);
	free(m->rows.ebad);
	free(m->dc.cache);
	free(m->rows.runs);
	free(m->rows.peer_links);
	free(m->rows.steps);
	free(m->rows.segs);
	hashtab_u64_done(&m->rows.seg_by_key);
	pthread_mutex_destroy(&m->dc.cache_lock);
}

uint64_t
rows_ntraces(const struct model *m)
{
	return atomic_load_explicit(&((struct model *)m)->rows.ntraces, memory_order_acquire);
}

uint64_t
rows_nexecs(const struct model *m)
{
	return atomic_load_explicit(&((struct model *)m)->rows.nexecs, memory_order_acquire);
}

/* ---- locators ------------------------------------------------------- */

static struct ckpt *
ckpt_at(const struct locidx *li, uint64_t k)
{
	return &li->dir[k >> CKPT_CHUNK_SHIFT][k & (CKPT_CHUNK - 1)];
}

static void
ckpt_append(struct locidx *li, uint64_t row, const struct td_locator *loc)
{
	uint64_t k = atomic_load_explicit(&li->n, memory_order_relaxed);
	struct ckpt *c;

	if ((k >> CKPT_CHUNK_SHIFT) >= CKPT_MAX_CHUNKS)
		abort();                /* a billion checkpoints */
	if (!li->dir[k >> CKPT_CHUNK_SHIFT])
		li->dir[k >> CKPT_CHUNK_SHIFT] = xmalloc(CKPT_CHUNK * sizeof(struct ckpt));
	c = ckpt_at(li, k);
	c->row = row;
	c->offset = loc->offset;
	c->file = loc->file;
	atomic_store_explicit(&li->n, k + 1, memory_order_release);
	li->have = true;
	li->last_row = row;
	li->last_file = loc->file;
	li->force = false;
}

void
locidx_add(struct locidx *li, uint64_t row, const struct td_locator *loc)
{
	if (!li->have || li->force || loc->file != li->last_file ||
	    row - li->last_row >= (uint64_t)li->every)
		ckpt_append(li, row, loc);
}

/* Index of the last checkpoint with row <= i, or -1. */
static int64_t
ckpt_find(const struct locidx *li, uint64_t i)
{
	uint64_t lo = 0, hi = atomic_load_explicit(&((struct locidx *)li)->n, memory_order_acquire);

	if (!hi || ckpt_at(li, 0)->row > i)
		return -1;
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (ckpt_at(li, mid)->row <= i)
			lo = mid;
		else
			hi = mid;
	}
	return (int64_t)lo;
}

/* The cursor nearest at or before row i and at or after base (the row of
 * i's checkpoint, so in the same file); -1 none.  Under cur_lock. */
static int
cursor_find(const struct locidx *li, uint64_t base, uint64_t i)
{
	int best = -1, c;

	for (c = 0; c < LOC_CURSORS; c++) {
		uint64_t r1 = li->cur[c].row1;

		if (r1 > base && r1 - 1 <= i && (best < 0 || r1 > li->cur[best].row1))
			best = c;
	}
	return best;
}

/* Remembers row i at loc: in place of the cursor it came from (a reader
 * going down keeps one cursor), else over the oldest. */
static void
cursor_store(struct locidx *li, int from, uint64_t i, const struct td_locator *loc)
{
	int c;

	pthread_mutex_lock(&li->cur_lock);
	c = from >= 0 ? from : (int)(li->cur_next++ % LOC_CURSORS);
	li->cur[c].row1 = i + 1;
	li->cur[c].loc = *loc;
	pthread_mutex_unlock(&li->cur_lock);
}

bool
rows_locate(struct model *m, struct locidx *li, enum reader_kind kind, uint64_t i,
	    struct td_locator *loc)
{
	int64_t k = ckpt_find(li, i);
	uint64_t from;
	struct ckpt *c;
	int cur;

	if (k < 0)
		return false;
	c = ckpt_at(li, (uint64_t)k);
	loc->file = c->file;
	loc->offset = c->offset;
	from = c->row;
	pthread_mutex_lock(&li->cur_lock);
	cur = cursor_find(li, c->row, i);
	if (cur >= 0) {
		*loc = li->cur[cur].loc;
		from = li->cur[cur].row1 - 1;
	}
	pthread_mutex_unlock(&li->cur_lock);
	if (i == from)
		return true;
	if (!m->ops->advance || m->ops->advance(m->r, kind, loc, i - from) != TD_OK)
		return false;
	cursor_store(li, cur, i, loc);
	return true;
}

/* Row i was decoded and the reader said where the next record starts
 * (reader_detail.next_offset): the cursor that found i moves to i + 1, so
 * reading in order needs no advance() at all.  Not when row i + 1 is not
 * indexed yet or starts a checkpoint (another file, or a problem was
 * reported between the two rows). */
static void
cursor_next(struct locidx *li, uint64_t n, uint64_t i, uint32_t file, uint64_t next)
{
	int64_t k = ckpt_find(li, i + 1);
	int c;

	if (i + 1 >= n || k < 0 || ckpt_at(li, (uint64_t)k)->row == i + 1)
		return;
	pthread_mutex_lock(&li->cur_lock);
	for (c = 0; c < LOC_CURSORS && li->cur[c].row1 != i + 1; c++)
		;
	if (c == LOC_CURSORS)
		c = (int)(li->cur_next++ % LOC_CURSORS);
	li->cur[c].row1 = i + 2;
	li->cur[c].loc.file = file;
	li->cur[c].loc.offset = next;
	pthread_mutex_unlock(&li->cur_lock);
}

uint32_t
rows_trace_file(struct model *m, uint64_t i)
{
	int64_t k = ckpt_find(&m->rows.tloc, i);

	return k < 0 ? NO_ID : ckpt_at(&m->rows.tloc, (uint64_t)k)->file;
}

/* ---- appending (writer) ------------------------------------------------ */

void
rows_add_trace(struct model *m, uint32_t op, uint8_t flags, const struct td_locator *loc)
{
	uint64_t i = atomic_load_explicit(&m->rows.ntraces, memory_order_relaxed);
	struct trace_chunk *c;

	if ((i >> MODEL_CHUNK_SHIFT) >= MODEL_MAX_CHUNKS)
		return;                 /* 4 billion rows: the rest is not indexed */
	c = m->rows.tchunks[i >> MODEL_CHUNK_SHIFT];
	if (!c) {
		c = xmalloc(sizeof(*c));
		memset(c->nfblock, 0, sizeof(c->nfblock));
		m->rows.tchunks[i >> MODEL_CHUNK_SHIFT] = c;
	}
	c->op[i & (MODEL_CHUNK - 1)] = op;
	c->flags[i & (MODEL_CHUNK - 1)] = flags;
	if (TF_IS_ALERT(flags)) {
		__atomic_fetch_add(&m->rows.tnonfinite[i >> MODEL_CHUNK_SHIFT], 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&c->nfblock[(i & (MODEL_CHUNK - 1)) >> NF_BLOCK_SHIFT], 1,
				   __ATOMIC_RELAXED);
		atomic_fetch_add_explicit(&m->rows.trace_alerts, 1, memory_order_release);
	}
	locidx_add(&m->rows.tloc, i, loc);
	atomic_store_explicit(&m->rows.ntraces, i + 1, memory_order_release);
}

struct exec_row *
rows_add_exec_begin(struct model *m, const struct td_locator *loc)
{
	uint64_t i = atomic_load_explicit(&m->rows.nexecs, memory_order_relaxed);
	struct exec_row *c;

	if ((i >> MODEL_CHUNK_SHIFT) >= MODEL_MAX_CHUNKS)
		return NULL;
	c = m->rows.echunks[i >> MODEL_CHUNK_SHIFT];
	if (!c)
		c = m->rows.echunks[i >> MODEL_CHUNK_SHIFT] = xmalloc(MODEL_CHUNK * sizeof(*c));
	locidx_add(&m->rows.eloc, i, loc);
	c += i & (MODEL_CHUNK - 1);
	memset(c, 0, sizeof(*c));
	return c;
}

void
rows_add_exec_end(struct model *m)
{
	uint64_t i = atomic_load_explicit(&m->rows.nexecs, memory_order_relaxed);

	atomic_store_explicit(&m->rows.nexecs, i + 1, memory_order_release);
}

size_t
rows_memory(const struct model *m)
{
	size_t bytes = 0, i;

	for (i = 0; i < MODEL_MAX_CHUNKS && m->rows.tchunks[i]; i++)
		bytes += sizeof(struct trace_chunk);
	for (i = 0; i < CKPT_MAX_CHUNKS && m->rows.tloc.dir[i]; i++)
		bytes += CKPT_CHUNK * sizeof(struct ckpt);
	bytes += m->rows.capruns * sizeof(struct run) + m->rows.capsegs * sizeof(struct segment);
	bytes += m->rows.capsteps * sizeof(struct step_run);
	return bytes;
}

/* ---- trace facts ------------------------------------------------------- */

int64_t
rows_trace_execution(struct model *m, uint64_t i)
{
	size_t lo = 0, hi = m->rows.nruns;

	if (!hi || m->rows.runs[0].first > i)
		return -1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->rows.runs[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return m->rows.runs[lo].execution;
}

int64_t
rows_trace_step(struct model *m, uint64_t i)
{
	size_t lo = 0, hi = m->rows.nsteps;

	if (!hi || m->rows.steps[0].first > i)
		return -1;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->rows.steps[mid].first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return m->rows.steps[lo].step;
}

uint32_t
rows_trace_host_sid(struct model *m, uint64_t i)
{
	uint32_t file = rows_trace_file(m, i);
	uint64_t fi;
	int64_t e;

	if (file != NO_ID && hashtab_u64_get(&m->src.file_by_id, file, &fi) && *m->src.files[fi].host)
		return m->src.files[fi].host_sid;
	e = rows_trace_execution(m, i);
	if (e >= 0 && (uint64_t)e < rows_nexecs(m))
		return m->src.hosts[exec_row(m, (uint64_t)e)->host];
	return 0;
}

const char *
rows_trace_host(struct model *m, uint64_t i)
{
	return intern_str(&m->str, rows_trace_host_sid(m, i));
}

/* ---- the decode cache -------------------------------------------------- */

static void
decode_trace(struct model *m, uint64_t i, struct cache_ent *e)
{
	struct reader_detail d = {0};
	struct td_locator loc;

	memset(e, 0, sizeof(*e));
	e->key = i + 1;
	e->device = NO_ID;
	e->debug_op = NO_ID;
	e->prefix = NO_ID;
	e->slot = TF_SLOT(trace_flags(m, i));
	m->dc.decodes++;
	if (!rows_locate(m, &m->rows.tloc, READER_TRACE, i, &loc) ||
	    (m->ops->decode_summary ? m->ops->decode_summary(m->r, &loc, &d)  /* the cache keeps no more */
				    : m->ops->decode(m->r, READER_TRACE, &loc, &d)) != TD_OK) {
		e->corrupt = true;
		reader_detail_done(&d);
		return;
	}
	if (d.next_offset)
		cursor_next(&m->rows.tloc, rows_ntraces(m), i, loc.file, d.next_offset);
	e->wall_time = d.wall_time;
	if (d.noutputs && d.summaries) {
		e->summary = d.summaries[0];
		/* a row from the cache file that decodes otherwise: the file is stale */
		model_cache_check_row(m, i, trace_flags(m, i) & TF_NONFINITE,
				      td_summary_nonfinite(&e->summary));
	}
	/* a data file rewritten since the cached index was saved */
	model_cache_check_data(m, i, loc.file, d.data_ctime_ns);
	/* The decode read the values: what the dump's statistics lack
	 * (abs_mean, std, l2norm beside a statistics file's counts) comes
	 * from them, once per decode, kept with the row. */
	if (d.noutputs && d.summaries && d.values && d.values[0] && d.values[0]->data &&
	    (~e->summary.known & TD_SUMMARY_VALUE_FIELDS & ~(uint32_t)SUM_PERCENTILES)) {
		struct td_summary vs;

		td_tensor_summarize(d.values[0], &vs);
		e->from_values = td_summary_complete(&e->summary, &vs);
	}
	if (e->slot == TF_SLOT_ESC)
		e->slot = d.slot;
	e->role = (uint8_t)d.role;
	e->grad = (uint8_t)d.requires_grad;
	if (d.device || d.debug_op || d.prefix) {
		pthread_mutex_lock(&m->th.lock);
		if (d.device)
			e->device = intern_add(&m->str, d.device);
		if (d.debug_op)
			e->debug_op = intern_add(&m->str, d.debug_op);
		if (d.prefix)
			e->prefix = intern_add(&m->str, d.prefix);
		pthread_mutex_unlock(&m->th.lock);
	}
	reader_detail_done(&d);
}

void
rows_trace_decoded(struct model *m, uint64_t i, struct cache_ent *out)
{
	struct cache_ent *e;

	pthread_mutex_lock(&m->dc.cache_lock);
	e = &m->dc.cache[i % m->dc.cache_n];
	if (e->key != i + 1)
		decode_trace(m, i, e);
	*out = *e;
	pthread_mutex_unlock(&m->dc.cache_lock);
	if (out->corrupt)
		rows_mark_corrupt(m, i);
}

/* Marks trace i corrupt; the error rolls up to its execution. */
void
rows_mark_corrupt(struct model *m, uint64_t i)
{
	int64_t e;

	__atomic_fetch_or(&m->rows.tchunks[i >> MODEL_CHUNK_SHIFT]->flags[i & (MODEL_CHUNK - 1)],
			  TF_CORRUPT, __ATOMIC_RELAXED);
	if (!atomic_load(&m->rows.containers))
		return;
	pthread_mutex_lock(&m->th.lock);
	e = rows_trace_execution(m, i);
	pthread_mutex_unlock(&m->th.lock);
	if (e >= 0 && (uint64_t)e < rows_nexecs(m))
		__atomic_fetch_or(&exec_row(m, (uint64_t)e)->flags, ROW_CORRUPT, __ATOMIC_RELAXED);
}

uint32_t
rows_trace_slot(struct model *m, uint64_t i)
{
	uint32_t slot = TF_SLOT(trace_flags(m, i));
	struct cache_ent e;

	if (slot != TF_SLOT_ESC)
		return slot;
	rows_trace_decoded(m, i, &e);
	return e.slot;
}

/* ---- public row access ----------------------------------------------- */

const char *
model_table_name(enum model_table t)
{
	return t == TABLE_TRACES ? "trace" : "execution";
}

uint64_t
model_trace_count(struct model *m)
{
	return rows_ntraces(m);
}

uint64_t
model_execution_count(struct model *m)
{
	return rows_nexecs(m);
}

bool
model_traces_name_executions(struct model *m)
{
	return atomic_load(&m->rows.containers);
}

static uint32_t
row_flags_public(uint8_t f)
{
	return ((f & TF_NONFINITE) ? ROW_NONFINITE : 0) | ((f & TF_INPUT) ? ROW_INPUT : 0) |
	       ((f & TF_CORRUPT) ? ROW_CORRUPT : 0) | ((f & TF_REPEAT) ? ROW_REPEAT : 0);
}

uint32_t
model_trace_op_flags(struct model *m, uint64_t i, uint32_t *flags)
{
	*flags = row_flags_public(trace_flags(m, i));
	return trace_op(m, i);
}

void
model_trace_summary(struct model *m, uint64_t i, struct td_summary *s, uint32_t *from_values)
{
	struct cache_ent e;

	rows_trace_decoded(m, i, &e);
	*s = e.summary;
	if (from_values)
		*from_values = e.from_values;
}

/* The model's role for a role the reader stated (ROLE_NONE: none). */
static enum model_role
stated_role(uint8_t r)
{
	switch (r) {
	case READER_ROLE_WEIGHT:     return ROLE_WEIGHT;
	case READER_ROLE_GRADIENT:   return ROLE_GRADIENT;
	case READER_ROLE_ACTIVATION: return ROLE_ACTIVATION;
	default:                     return ROLE_NONE;
	}
}

static int
stated_grad(uint8_t g)
{
	return g == READER_GRAD_YES ? 1 : g == READER_GRAD_NO ? 0 : -1;
}

bool
model_op_prefix(struct model *m, const char *op_name, size_t *len)
{
	if (!(m->ops->flags & READER_ROW_FACTS) || !m->ops->op_prefix || !op_name)
		return false;
	*len = m->ops->op_prefix(op_name);
	return true;
}

const char *
model_op_prefix_str(struct model *m, const char *op_name, bool *stated)
{
	const char *p;
	size_t n;
	char *s;

	*stated = model_op_prefix(m, op_name, &n);
	if (!*stated || !n)
		return NULL;
	s = xstrndup(op_name, n);
	pthread_mutex_lock(&m->th.lock);
	p = intern_str(&m->str, intern_add(&m->str, s));
	pthread_mutex_unlock(&m->th.lock);
	free(s);
	return p;
}

/* Row i's prefix from its op's name (model_op_prefix_str). */
static const char *
prefix_of_row(struct model *m, uint64_t i)
{
	const char *name, *type;
	bool stated;

	if (!model_op_names(m, trace_op(m, i), &name, &type))
		return NULL;
	return model_op_prefix_str(m, name, &stated);
}

bool
model_trace_facts(struct model *m, uint64_t i, bool prefix, struct model_row_facts *out)
{
	struct cache_ent e;
	unsigned f;

	*out = (struct model_row_facts){ ROLE_NONE, -1, NULL };
	if (!(m->ops->flags & READER_ROW_FACTS) || i >= rows_ntraces(m))
		return false;
	if (prefix && m->ops->op_prefix) {
		/* the reader spells a row's prefix from its op's name: no
		 * decode for it (a condition on it over every row) */
		out->prefix = prefix_of_row(m, i);
		prefix = false;
	}
	if (!prefix && fields_facts(m, i, &f)) {
		out->role = stated_role((uint8_t)(f & 3));
		out->requires_grad = stated_grad((uint8_t)(f >> 2 & 3));
		return true;
	}
	rows_trace_decoded(m, i, &e);
	out->role = stated_role(e.role);
	out->requires_grad = stated_grad(e.grad);
	if (prefix)
		out->prefix = e.prefix == NO_ID ? NULL : intern_str(&m->str, e.prefix);
	return true;
}

bool
model_has_call_tree(struct model *m)
{
	return (m->ops->flags & READER_CALL_TREE) != 0;
}

void
model_trace_names(struct model *m, uint64_t i, const char **name, const char **type,
		  const char **host)
{
	uint32_t op = trace_op(m, i);

	*name = *type = NULL;
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	if (op < m->ot.nops) {
		*name = ops_name(m, &m->ot.opv[op]);
		*type = ops_type(m, &m->ot.opv[op]);
	}
	*host = rows_trace_host(m, i);
	pthread_mutex_unlock(&m->th.lock);
}

enum td_status
model_trace_get(struct model *m, uint64_t i, struct model_trace *row)
{
	struct cache_ent e;
	uint32_t op;

	if (i >= rows_ntraces(m))
		return TD_ERR_RANGE;
	rows_trace_decoded(m, i, &e);
	memset(row, 0, sizeof(*row));
	row->index = i;
	row->op = op = trace_op(m, i);
	row->flags = row_flags_public(trace_flags(m, i));
	row->slot = e.slot;
	row->wall_time = e.wall_time;
	row->summary = e.summary;
	row->from_values = e.from_values;
	row->device = intern_str(&m->str, e.device);
	row->debug_op = e.debug_op == NO_ID ? NULL : intern_str(&m->str, e.debug_op);
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	if (op < m->ot.nops) {
		struct op_entry *o = &m->ot.opv[op];
		int32_t g = graphs_index_of_sid(m, o->graph_sid);

		row->op_name = ops_name(m, o);
		row->op_type = ops_type(m, o);
		row->graph_id = ops_graph(m, o);
		row->graph_name = g >= 0 ? intern_str(&m->str, m->ot.graphs[g].name_sid) : "";
	}
	row->execution = rows_trace_execution(m, i);
	row->step = rows_trace_step(m, i);
	row->host = rows_trace_host(m, i);
	pthread_mutex_unlock(&m->th.lock);
	if (!row->op_name)
		row->op_name = row->op_type = row->graph_id = row->graph_name = "";
	row->role = stated_role(e.role);
	if (row->role == ROLE_NONE)
		row->role = model_role_of(row->op_name, row->op_type);
	return TD_OK;
}

bool
model_trace_quick(struct model *m, uint64_t i, uint32_t *op, uint32_t *flags)
{
	if (i >= rows_ntraces(m))
		return false;
	*op = trace_op(m, i);
	*flags = row_flags_public(trace_flags(m, i));
	return true;
}

enum td_status
model_execution_get(struct model *m, uint64_t i, struct model_execution *row)
{
	struct exec_row *x;

	if (i >= rows_nexecs(m))
		return TD_ERR_RANGE;
	x = exec_row(m, i);
	memset(row, 0, sizeof(*row));
	row->index = i;
	row->op_type = intern_str(&m->str, x->op_type);
	row->flags = __atomic_load_n(&x->flags, __ATOMIC_RELAXED);
	if (m->rows.containers)
		row->flags &= ~(uint32_t)ROW_NONFINITE;
	row->num_outputs = x->num_outputs;
	row->bad_outputs = m->rows.containers ? 0 : x->bad_outputs;
	row->wall_time = x->wall_time;
	row->step = x->step;
	row->first_trace = __atomic_load_n(&x->first_trace, __ATOMIC_RELAXED);
	row->ntraces = __atomic_load_n(&x->ntraces, __ATOMIC_RELAXED);
	pthread_mutex_lock(&m->th.lock);
	row->graph = graphs_index_of_sid(m, x->graph_sid);
	row->host = intern_str(&m->str, m->src.hosts[x->host]);
	pthread_mutex_unlock(&m->th.lock);
	return TD_OK;
}

uint64_t
model_execution_nonfinite_traces(struct model *m, uint64_t i)
{
	uint64_t n = rows_ntraces(m), count = 0, j;
	size_t r;

	if (i >= rows_nexecs(m) || !atomic_load(&m->rows.containers))
		return 0;
	pthread_mutex_lock(&m->th.lock);
	for (r = 0; r < m->rows.nruns; r++) {
		uint64_t end = r + 1 < m->rows.nruns ? m->rows.runs[r + 1].first : n;

		if (m->rows.runs[r].execution != (int64_t)i)
			continue;
		for (j = m->rows.runs[r].first; j < end && j < n; j++)
			count += (trace_flags(m, j) & TF_NONFINITE) != 0;
	}
	pthread_mutex_unlock(&m->th.lock);
	return count;
}

/* Checkpoint k: its first row and file; false past the end. */
bool
rows_ckpt(const struct model *m, uint64_t k, uint64_t *row, uint32_t *file)
{
	if (k >= atomic_load_explicit(&((struct model *)m)->rows.tloc.n, memory_order_acquire))
		return false;
	*row = ckpt_at(&m->rows.tloc, k)->row;
	*file = ckpt_at(&m->rows.tloc, k)->file;
	return true;
}

int64_t
rows_ckpt_find(const struct model *m, uint64_t i)
{
	return ckpt_find(&m->rows.tloc, i);
}
