/*
 * model_alerts.c - NaN/Inf alerts and the alerts readers state (overflow
 * ...), their groups, and the first non-finite tensor.
 *
 * Alerts follow TensorFlow's InfNanMonitor (the TensorFlow v2
 * reader's FORMAT.md, section Alerts) without its per-type limit: one alert per non-finite trace row, in
 * row order, then one per bad output of each execution, in order, then the
 * alerts a reader states (on_alert), of their kind.  Nothing is stored per
 * NaN/Inf alert: the k-th is found by rank/select over per-chunk counts (non-finite traces,
 * bad outputs) and a scan of one chunk; counts come from decoding the row.
 * When traces belong to executions (session runs, graph runs) the
 * executions are containers, marked ROW_CONTAINS_NONFINITE, and never alert.
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

static bool alert_key(struct model *m, uint64_t i, const char **kind, const char **type);

void
alerts_group_add(struct model *m, enum alert_source from, const char *kind, uint32_t type_sid,
		 uint64_t n, uint64_t first)
{
	struct alert_group_list *l = &m->pr.groups[from];
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (l->v[i].type_sid == type_sid && strcmp(l->v[i].kind, kind) == 0) {
			l->v[i].count += n;
			return;
		}
	}
	td_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n].kind = kind;
	l->v[l->n].type_sid = type_sid;
	l->v[l->n].count = n;
	l->v[l->n].first = first;
	l->n++;
}

void
alerts_group_retype(struct model *m, uint32_t old_sid, uint32_t new_sid, uint64_t n, uint64_t first)
{
	struct alert_group_list *l = &m->pr.groups[ALERTS_OF_TRACES];
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct alert_group *g = &l->v[i];

		if (g->type_sid != old_sid || strcmp(g->kind, "InfNan") != 0)
			continue;
		g->count -= TD_MIN(g->count, n);
		if (!g->count) {
			memmove(g, g + 1, (l->n - i - 1) * sizeof(*g));
			l->n--;
		}
		break;
	}
	for (i = 0; i < l->n; i++) {
		if (l->v[i].type_sid == new_sid && strcmp(l->v[i].kind, "InfNan") == 0) {
			l->v[i].count += n;
			l->v[i].first = TD_MIN(l->v[i].first, first);
			return;
		}
	}
	alerts_group_add(m, ALERTS_OF_TRACES, "InfNan", new_sid, n, first);
}

/* Rebuilds the trace alert groups from the ops' own counts (nf_rows,
 * first_alert), which stay exact whatever order types arrived in: the
 * incremental groups cannot tell which alert of a group comes first once a
 * placeholder op moved its alerts out.  O(ops), once per pass, under
 * m->th.lock. */
void
alerts_groups_rebuild(struct model *m)
{
	struct alert_group_list *l = &m->pr.groups[ALERTS_OF_TRACES];
	size_t i, g;

	/* ops still pending: no trace was added since the load (on_trace
	 * decodes them first), so the loaded groups are the ones the saver
	 * rebuilt from these very ops */
	if (atomic_load_explicit(&m->ot.ops_pending, memory_order_acquire))
		return;
	l->n = 0;
	for (i = 0; i < m->ot.nops; i++) {
		const struct op_entry *o = &m->ot.opv[i];

		if (!ops_nf_rows(o))
			continue;
		for (g = 0; g < l->n && l->v[g].type_sid != o->type_sid; g++)
			;
		if (g == l->n) {
			alerts_group_add(m, ALERTS_OF_TRACES, "InfNan", o->type_sid, ops_nf_rows(o),
					 ops_first_alert(o));
			continue;
		}
		l->v[g].count += ops_nf_rows(o);
		l->v[g].first = TD_MIN(l->v[g].first, ops_first_alert(o));
	}
}

void
alerts_done(struct model *m)
{
	for (size_t i = 0; i < ALERT_SOURCE_COUNT; i++)
		free(m->pr.groups[i].v);
	free(m->pr.ralerts);
}

static uint64_t
trace_alerts(struct model *m)
{
	return atomic_load_explicit(&m->rows.trace_alerts, memory_order_acquire);
}

static uint64_t
exec_alerts(struct model *m)
{
	return atomic_load(&m->rows.containers) ? 0 :
	       atomic_load_explicit(&m->rows.exec_alerts, memory_order_acquire);
}

uint64_t
model_alert_count(struct model *m)
{
	uint64_t n = trace_alerts(m) + exec_alerts(m);

	pthread_mutex_lock(&m->th.lock);
	n += m->pr.nralerts;
	pthread_mutex_unlock(&m->th.lock);
	return n;
}

/* The row of the k-th non-finite trace (k < trace_alerts): per-chunk
 * counts, then per-block counts, then a scan of one block. */
static int64_t
select_trace(struct model *m, uint64_t k)
{
	uint64_t n = rows_ntraces(m), c, b, j, end;

	for (c = 0; c < MODEL_MAX_CHUNKS && (c << MODEL_CHUNK_SHIFT) < n; c++) {
		uint32_t cnt = __atomic_load_n(&m->rows.tnonfinite[c], __ATOMIC_RELAXED);
		const struct trace_chunk *tc = m->rows.tchunks[c];

		if (k >= cnt) {
			k -= cnt;
			continue;
		}
		for (b = 0; b < TD_ARRAY_SIZE(tc->nfblock); b++) {
			uint16_t bc = __atomic_load_n(&tc->nfblock[b], __ATOMIC_RELAXED);

			if (k < bc)
				break;
			k -= bc;
		}
		j = (c << MODEL_CHUNK_SHIFT) + (b << NF_BLOCK_SHIFT);
		end = TD_MIN(n, j + (1u << NF_BLOCK_SHIFT));
		for (; j < end; j++)
			if (TF_IS_ALERT(trace_flags(m, j)) && k-- == 0)
				return (int64_t)j;
		return -1;
	}
	return -1;
}

/* The execution holding the k-th bad output, and which of its bad outputs. */
static int64_t
select_exec(struct model *m, uint64_t k, uint32_t *nth)
{
	uint64_t n = rows_nexecs(m), c, j, end, cnt;

	for (c = 0; c < MODEL_MAX_CHUNKS && (c << MODEL_CHUNK_SHIFT) < n; c++) {
		pthread_mutex_lock(&m->th.lock);
		cnt = m->rows.ebad[c];
		pthread_mutex_unlock(&m->th.lock);
		if (k >= cnt) {
			k -= cnt;
			continue;
		}
		end = TD_MIN(n, (c + 1) << MODEL_CHUNK_SHIFT);
		for (j = c << MODEL_CHUNK_SHIFT; j < end; j++) {
			uint32_t b = exec_row(m, j)->bad_outputs;

			if (k < b) {
				*nth = (uint32_t)k;
				return (int64_t)j;
			}
			k -= b;
		}
		return -1;
	}
	return -1;
}

static void
fill_trace_alert(struct model *m, uint64_t row, struct model_alert *a)
{
	struct cache_ent e;
	uint32_t op = trace_op(m, row);

	rows_trace_decoded(m, row, &e);
	memset(a, 0, sizeof(*a));
	a->kind = "InfNan";
	a->source = TABLE_TRACES;
	a->index = row;
	a->slot = e.slot;
	a->summary = e.summary;
	a->is_input = (trace_flags(m, row) & TF_INPUT) != 0;
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	a->op_name = op < m->ot.nops ? ops_name(m, &m->ot.opv[op]) : "";
	a->op_type = op < m->ot.nops ? ops_type(m, &m->ot.opv[op]) : "";
	pthread_mutex_unlock(&m->th.lock);
}

/* Execution x's nth bad output: its slot and summary, from a decode. */
static void
fill_exec_alert(struct model *m, uint64_t x, uint32_t nth, struct model_alert *a)
{
	struct reader_detail d = {0};
	struct td_locator loc;
	uint32_t seen = 0;
	size_t k;

	memset(a, 0, sizeof(*a));
	a->kind = "InfNan";
	a->source = TABLE_EXECUTIONS;
	a->index = x;
	a->slot = nth;
	a->op_type = intern_str(&m->str, exec_row(m, x)->op_type);
	a->op_name = a->op_type;
	if (!rows_locate(m, &m->rows.eloc, READER_EXECUTION, x, &loc) ||
	    m->ops->decode(m->r, READER_EXECUTION, &loc, &d) != TD_OK) {
		__atomic_fetch_or(&exec_row(m, x)->flags, ROW_CORRUPT, __ATOMIC_RELAXED);
		reader_detail_done(&d);
		return;
	}
	for (k = 0; d.summaries && k < d.noutputs; k++) {
		if (!td_summary_nonfinite(&d.summaries[k]))
			continue;
		if (seen++ == nth) {
			a->slot = (uint32_t)k;
			a->summary = d.summaries[k];
			break;
		}
	}
	reader_detail_done(&d);
}

enum td_status
model_alert_get(struct model *m, uint64_t i, struct model_alert *a)
{
	uint64_t ta = trace_alerts(m), ea = exec_alerts(m);
	uint32_t nth = 0;
	int64_t r;

	if (i < ta) {
		r = select_trace(m, i);
		if (r < 0)
			return TD_ERR_RANGE;
		fill_trace_alert(m, (uint64_t)r, a);
		return TD_OK;
	}
	i -= ta;
	if (i < ea) {
		r = select_exec(m, i, &nth);
		if (r < 0)
			return TD_ERR_RANGE;
		fill_exec_alert(m, (uint64_t)r, nth, a);
		return TD_OK;
	}
	i -= ea;
	pthread_mutex_lock(&m->th.lock);
	if (i >= m->pr.nralerts) {
		pthread_mutex_unlock(&m->th.lock);
		return TD_ERR_RANGE;
	}
	memset(a, 0, sizeof(*a));
	a->kind = reader_alert_name(m->pr.ralerts[i].kind);
	a->source = TABLE_EXECUTIONS;
	a->index = m->pr.ralerts[i].execution >= 0 ? (uint64_t)m->pr.ralerts[i].execution : 0;
	a->op_name = m->pr.ralerts[i].op_name;
	a->op_type = m->pr.ralerts[i].op_type;
	a->detail = m->pr.ralerts[i].detail;
	pthread_mutex_unlock(&m->th.lock);
	return TD_OK;
}

bool
model_alert_locate(struct model *m, uint64_t i, struct model_alert *a)
{
	uint64_t ta = trace_alerts(m), ea = exec_alerts(m);
	uint32_t nth = 0;
	int64_t r;

	memset(a, 0, sizeof(*a));
	if (!alert_key(m, i, &a->kind, &a->op_type))
		return false;
	a->source = i < ta ? TABLE_TRACES : TABLE_EXECUTIONS;
	if (i < ta) {
		r = select_trace(m, i);
	} else if (i < ta + ea) {
		r = select_exec(m, i - ta, &nth);
	} else {
		pthread_mutex_lock(&m->th.lock);
		r = m->pr.ralerts[i - ta - ea].execution >= 0 ? m->pr.ralerts[i - ta - ea].execution : 0;
		pthread_mutex_unlock(&m->th.lock);
	}
	a->index = r >= 0 ? (uint64_t)r : 0;
	return r >= 0;
}

/* ---- groups -------------------------------------------------------------- */

static size_t
merge_group(struct model_alert_group *out, size_t n, size_t max, const struct alert_group *g,
	    const char *type, uint64_t base)
{
	size_t i;

	for (i = 0; i < n && i < max; i++) {
		if (strcmp(out[i].kind, g->kind) == 0 && strcmp(out[i].op_type, type) == 0) {
			out[i].count += g->count;
			return n;
		}
	}
	if (n < max) {
		out[n].kind = g->kind;
		out[n].op_type = type;
		out[n].count = g->count;
		out[n].first = base + g->first;
	}
	return n + 1;
}

/* Groups in order of first appearance (first alert number). */
static int
group_cmp(const void *a, const void *b)
{
	const struct model_alert_group *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

size_t
model_alert_groups(struct model *m, struct model_alert_group *out, size_t max)
{
	uint64_t ta = trace_alerts(m), ea = exec_alerts(m);
	/* alert numbers: traces first, then executions, then stated alerts */
	const uint64_t base[ALERT_SOURCE_COUNT] = { 0, ta, ta + ea };
	size_t n = 0, i, cap = 0;
	enum alert_source from;
	struct model_alert_group *tmp;

	pthread_mutex_lock(&m->th.lock);
	for (from = 0; from < ALERT_SOURCE_COUNT; from++)
		cap += m->pr.groups[from].n;
	tmp = xcalloc(cap + 1, sizeof(*tmp));
	for (from = 0; from < ALERT_SOURCE_COUNT; from++) {
		const struct alert_group_list *l = &m->pr.groups[from];

		if (from == ALERTS_OF_EXECUTIONS && !ea)
			continue;
		for (i = 0; i < l->n; i++)
			n = merge_group(tmp, n, cap, &l->v[i], intern_str(&m->str, l->v[i].type_sid),
					base[from]);
	}
	pthread_mutex_unlock(&m->th.lock);
	td_sort(tmp, TD_MIN(n, cap), sizeof(*tmp), group_cmp);
	for (i = 0; i < n && i < max; i++)
		out[i] = tmp[i];
	free(tmp);
	return n;
}

/* Kind and type string of alert i without decoding; false past the end. */
static bool
alert_key(struct model *m, uint64_t i, const char **kind, const char **type)
{
	uint64_t ta = trace_alerts(m), ea = exec_alerts(m);
	uint32_t nth;
	int64_t r;
	bool ok = true;

	if (i < ta) {
		r = select_trace(m, i);
		if (r < 0)
			return false;
		*kind = "InfNan";
		pthread_mutex_lock(&m->th.lock);
		ops_ready_locked(m);
		*type = ops_type(m, &m->ot.opv[trace_op(m, (uint64_t)r)]);
		pthread_mutex_unlock(&m->th.lock);
		return true;
	}
	if (i < ta + ea) {
		r = select_exec(m, i - ta, &nth);
		if (r < 0)
			return false;
		*kind = "InfNan";
		*type = intern_str(&m->str, exec_row(m, (uint64_t)r)->op_type);
		return true;
	}
	pthread_mutex_lock(&m->th.lock);
	if (i - ta - ea < m->pr.nralerts) {
		*kind = reader_alert_name(m->pr.ralerts[i - ta - ea].kind);
		*type = m->pr.ralerts[i - ta - ea].op_type;
	} else {
		ok = false;
	}
	pthread_mutex_unlock(&m->th.lock);
	return ok;
}

/* Next trace alert of kind/type from trace alert i (its row), or -1. */
static int64_t
next_trace_alert(struct model *m, uint64_t i, int dir, const char *type)
{
	uint64_t n = rows_ntraces(m), k = i;
	int64_t row = select_trace(m, i), j;

	if (row < 0)
		return -1;
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	for (j = row + dir; j >= 0 && (uint64_t)j < n; j += dir) {
		if (!TF_IS_ALERT(trace_flags(m, (uint64_t)j)))
			continue;
		k += (uint64_t)dir;
		if (strcmp(ops_type(m, &m->ot.opv[trace_op(m, (uint64_t)j)]), type) == 0) {
			pthread_mutex_unlock(&m->th.lock);
			return (int64_t)k;
		}
	}
	pthread_mutex_unlock(&m->th.lock);
	return -1;
}

int64_t
model_alert_next_in_group(struct model *m, uint64_t i, int dir)
{
	int64_t total = (int64_t)model_alert_count(m), ta = (int64_t)trace_alerts(m), j, r;
	const char *kind, *type, *k2, *t2;
	bool infnan;

	dir = dir < 0 ? -1 : 1;
	if (!alert_key(m, i, &kind, &type))
		return -1;
	infnan = strcmp(kind, "InfNan") == 0;
	if ((int64_t)i < ta) {
		r = next_trace_alert(m, i, dir, type);
		if (r >= 0 || dir < 0)
			return r;
		j = ta;
	} else {
		j = (int64_t)i + dir;
	}
	for (; j >= 0 && j < total; j += dir) {
		bool same = alert_key(m, (uint64_t)j, &k2, &t2) && strcmp(k2, kind) == 0 &&
			    strcmp(t2, type) == 0;

		if (same)
			return j;
		if (j < ta)     /* going back into the traces */
			return infnan ? next_trace_alert(m, (uint64_t)j, -1, type) : -1;
	}
	return -1;
}

/* ---- first non-finite ------------------------------------------------------ */

struct candidate {
	enum model_table source;
	uint64_t index;
	double wall;
};

static bool
candidate_before(const struct candidate *a, const struct candidate *b)
{
	if ((a->wall != 0) != (b->wall != 0))
		return a->wall != 0;
	if (a->wall != b->wall)
		return a->wall < b->wall;
	if (a->source != b->source)
		return a->source == TABLE_TRACES;
	return a->index < b->index;
}

bool
model_first_nonfinite(struct model *m, struct model_alert *a)
{
	struct candidate *c, best;
	size_t n = 0, i, cap;
	bool have = false;

	pthread_mutex_lock(&m->th.lock);
	cap = m->rows.nsegs + 1;
	c = xcalloc(cap, sizeof(*c));
	for (i = 0; i < m->rows.nsegs; i++) {
		if (m->rows.segs[i].cand < 0 || (uint64_t)m->rows.segs[i].cand >= rows_ntraces(m))
			continue;
		c[n].source = TABLE_TRACES;
		c[n].index = (uint64_t)m->rows.segs[i].cand;
		c[n++].wall = m->rows.segs[i].cand_wall;
	}
	if (!atomic_load(&m->rows.containers) && m->rows.first_bad_exec >= 0 &&
	    (uint64_t)m->rows.first_bad_exec < rows_nexecs(m)) {
		c[n].source = TABLE_EXECUTIONS;
		c[n].index = (uint64_t)m->rows.first_bad_exec;
		c[n++].wall = m->rows.first_bad_exec_wall;
	}
	pthread_mutex_unlock(&m->th.lock);
	for (i = 0; i < n; i++) {
		if (c[i].wall == 0 && c[i].source == TABLE_TRACES) {
			struct cache_ent e;

			rows_trace_decoded(m, c[i].index, &e);
			c[i].wall = e.wall_time;
		}
		if (!have || candidate_before(&c[i], &best))
			best = c[i];
		have = true;
	}
	free(c);
	if (!have)
		return false;
	if (best.source == TABLE_TRACES)
		fill_trace_alert(m, best.index, a);
	else
		fill_exec_alert(m, best.index, 0, a);
	return true;
}
