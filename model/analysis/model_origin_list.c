/*
 * model_origin_list.c - the origins of a dump, listed: every non-finite row
 * classified in row order (model_origins.c), the roots kept with how far
 * their values went (model_origin_carry.c), then the executions whose
 * outputs are bad without rows.
 *
 * The listing is a run that can be stepped a budget of work at a time
 * (the TUI does it between keys, as it checks the watches) or at once
 * (model_origins).  Work is counted in rows, inputs and executions looked
 * at; past the total budget the run stops and says where (partial).
 * The run keeps each origin compact (struct origin_rec: its row, time and
 * host) and, up to a bound, the explanation it made packed
 * (model_origin_pack.c); the answer is a list whose origins are shown
 * from those (or explained again past the bound: model_origin_list_get),
 * or all at once for model_origins.
 */
#include "model/analysis/model_origins_ctx.h"

#include <stdlib.h>
#include <string.h>

#define EXEC_BATCH 256              /* executions' keys read at once */

_Static_assert(sizeof(struct origin_rec) <= 24, "an origin as listed is numbers only");

/* Eager executions (not function calls, not containers) with bad outputs:
 * origins whose inputs are not linked to rows. */
static void
exec_origin(struct model *m, uint64_t x, struct model_origin *o)
{
	struct model_execution e;
	struct model_detail d = {0};
	size_t k;

	memset(o, 0, sizeof(*o));
	o->role = ORIGIN_ORIGIN;
	o->source = TABLE_EXECUTIONS;
	o->index = x;
	o->origin = (int64_t)x;
	o->via = -1;
	o->step = -1;
	if (model_execution_get(m, x, &e) != TD_OK)
		return;
	o->op_name = o->op_type = e.op_type;
	o->host = e.host;
	o->wall_time = e.wall_time;
	if (model_execution_outputs(m, x, &d) == TD_OK) {
		for (k = 0; d.summaries && k < d.noutputs; k++) {
			if (td_summary_nonfinite(&d.summaries[k])) {
				o->slot = (uint32_t)k;
				o->summary = d.summaries[k];
				break;
			}
		}
	}
	model_detail_done(&d);
	origin_explain(o);
}

static bool
origin_before(const struct origin_rec *a, const struct origin_rec *b)
{
	if ((a->wall_time > 0) != (b->wall_time > 0))
		return a->wall_time > 0;
	if (a->wall_time != b->wall_time)
		return a->wall_time < b->wall_time;
	if (a->source != b->source)
		return a->source == TABLE_TRACES;
	return a->index < b->index;
}

static int
origin_cmp(const void *a, const void *b)
{
	const struct origin_rec *x = a, *y = b;

	return origin_before(x, y) ? -1 : origin_before(y, x);
}

/* Origins found per host (the per_host limit). */
struct host_count {
	uint32_t sid;
	size_t n;
};

/* The count slot of host sid (added at 0). */
static size_t *
host_slot(struct host_count **v, size_t *n, size_t *cap, uint32_t sid)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if ((*v)[k].sid == sid)
			return &(*v)[k].n;
	TD_GROW(*v, *cap, *n + 1);
	(*v)[*n].sid = sid;
	(*v)[*n].n = 0;
	return &(*v)[(*n)++].n;
}

static bool
host_matches(struct model *m, const char *want, uint32_t host_sid)
{
	const char *h;

	if (!want)
		return true;
	h = model_host_name(m, host_sid);
	return h && strcmp(h, want) == 0;
}

struct model_origins_run {
	struct model *m;
	struct octx c;
	int64_t step;
	char *host;                 /* owned copy, NULL any */
	size_t per_host;
	uint64_t budget;            /* total work allowed */
	uint64_t next;              /* next trace row to look at */
	uint64_t next_exec;         /* next execution (after the rows) */
	struct host_count *hc;
	size_t nhc, caphc;
	struct reach_acc acc;
	struct origin_rec *v;       /* the origins found, compact */
	size_t n, cap;
	struct origin_packs packs;  /* their explanations, as far as kept */
	bool partial, done;
	uint64_t partial_row;
};

struct model_origins_run *
model_origins_run_new(struct model *m, const struct model_origins_query *q)
{
	struct model_origins_run *r = xcalloc(1, sizeof(*r));

	r->m = m;
	r->c.m = m;
	r->step = q ? q->step : -1;
	r->host = q && q->host ? xstrdup(q->host) : NULL;
	r->per_host = q ? q->per_host : 0;
	r->budget = q && q->budget ? q->budget : MODEL_ORIGINS_BUDGET;
	return r;
}

/* Row j: classified, noted for the reach, listed when a root. */
static void
run_row(struct model_origins_run *r, uint64_t j)
{
	struct model *m = r->m;
	struct model_origin t;
	size_t *cnt = NULL;
	uint32_t hs;

	/* zeroed here, not per row of the dump: it is kilobytes (a memset
	 * per row was most of origins at ten million rows) */
	memset(&t, 0, sizeof t);
	if (r->host || r->per_host) {
		hs = octx_row_host(&r->c, j);
		if (!host_matches(m, r->host, hs))
			return;
		cnt = r->per_host ? host_slot(&r->hc, &r->nhc, &r->caphc, hs) : NULL;
		if (cnt && *cnt >= r->per_host)
			return;
	}
	/* a step asked for: other steps' rows cost no budget */
	if (r->step >= 0 && octx_row_step(&r->c, j) != r->step) {
		r->c.work++;
		return;
	}
	origins_classify(&r->c, j, &t, false);
	reach_note(&r->acc, &r->c, j, &t);
	if (t.role != ORIGIN_ORIGIN) {
		model_origin_done(&t);
		return;
	}
	model_origin_done(&t);
	/* explained as it will be shown (the same work counted against the
	 * budget), then kept as numbers: the text is made again when shown */
	origins_explain_row(&r->c, j, &t);
	origin_pack_put(&r->packs, j, &t);
	TD_GROW(r->v, r->cap, r->n + 1);
	r->v[r->n++] = (struct origin_rec){ j, t.wall_time, octx_row_host(&r->c, j), TABLE_TRACES };
	model_origin_done(&t);
	if (cnt)
		(*cnt)++;
}

/* Eager executions (not calls) with bad outputs, once the rows are done. */
static void
run_execs(struct model_origins_run *r)
{
	struct model *m = r->m;
	uint64_t ne = model_traces_name_executions(m) ? 0 : model_execution_count(m);
	uint64_t j = r->next_exec;
	struct model_exec_keys xk[EXEC_BATCH];
	size_t *cnt, n;

	while (j < ne && r->step < 0 &&
	       (n = model_execution_keys(m, j, (size_t)TD_MIN((uint64_t)EXEC_BATCH, ne - j), xk))) {
		for (size_t k = 0; k < n; k++) {
			const struct model_exec_keys *x = &xk[k];

			if (!x->bad_outputs || (x->flags & ROW_FUNCTION))
				continue;
			if (!host_matches(m, r->host, x->host))
				continue;
			cnt = r->per_host ? host_slot(&r->hc, &r->nhc, &r->caphc, x->host) : NULL;
			if (cnt && (*cnt)++ >= r->per_host)
				continue;
			TD_GROW(r->v, r->cap, r->n + 1);
			r->v[r->n++] = (struct origin_rec){ j + k, x->wall_time, x->host,
							    TABLE_EXECUTIONS };
		}
		j += n;
	}
	r->next_exec = j;
}

bool
model_origins_run_step(struct model_origins_run *r, uint64_t budget)
{
	struct model *m = r->m;
	uint64_t nt = model_trace_count(m), stop = r->c.work + (budget ? budget : UINT64_MAX / 2);

	if (r->done)
		return true;
	while ((r->next = model_trace_next_nonfinite(m, r->next, nt)) < nt) {
		if (r->c.work >= r->budget) {
			r->partial = true;
			r->partial_row = r->next;
			r->done = true;
			return true;
		}
		if (r->c.work >= stop)
			return false;
		run_row(r, r->next);
		r->next++;
	}
	run_execs(r);
	r->done = true;
	return true;
}

void
model_origins_run_where(const struct model_origins_run *r, uint64_t *next, uint64_t *total)
{
	*next = r->next;
	*total = model_trace_count(r->m);
}

struct model_origin_list {
	struct model *m;
	struct octx c;              /* for the explanations (calls, carried values) */
	struct origin_rec *v;
	size_t n;
	struct origin_packs packs;  /* the run's explanations, as far as kept */
};

struct model_origin_list *
model_origins_run_list(struct model_origins_run *r, struct model_origins_query *q)
{
	struct model_origin_list *l = xcalloc(1, sizeof(*l));

	if (r->n > 1)
		td_sort(r->v, r->n, sizeof(*r->v), origin_cmp);
	if (q) {
		q->partial = r->partial;
		q->partial_row = r->partial_row;
		q->reach = q->want_reach ? reach_take(&r->acc, r->v, r->n) : NULL;
	}
	l->m = r->m;
	l->c.m = r->m;              /* its own context: the carry context points at its octx */
	l->v = r->v;
	l->n = r->n;
	l->packs = r->packs;
	r->v = NULL;
	r->n = r->cap = 0;
	memset(&r->packs, 0, sizeof(r->packs));
	return l;
}

struct model_origin_list *
model_origins_list(struct model *m, struct model_origins_query *q)
{
	struct model_origins_run *r = model_origins_run_new(m, q);
	struct model_origin_list *l;

	model_origins_run_step(r, 0);
	l = model_origins_run_list(r, q);
	model_origins_run_free(r);
	return l;
}

size_t
model_origin_list_count(const struct model_origin_list *l)
{
	return l ? l->n : 0;
}

bool
model_origin_list_at(const struct model_origin_list *l, size_t k, enum model_table *source,
		     uint64_t *index, const char **host)
{
	if (!l || k >= l->n)
		return false;
	*source = (enum model_table)l->v[k].source;
	*index = l->v[k].index;
	*host = model_host_name(l->m, l->v[k].host);
	return true;
}

bool
model_origin_list_get(struct model_origin_list *l, size_t k, struct model_origin *o)
{
	memset(o, 0, sizeof(*o));
	if (!l || k >= l->n)
		return false;
	if (l->v[k].source == TABLE_EXECUTIONS)
		exec_origin(l->m, l->v[k].index, o);
	else if (!origin_pack_get(&l->packs, l->v[k].index, o))
		origins_explain_row(&l->c, l->v[k].index, o);
	return true;
}

void
model_origin_list_free(struct model_origin_list *l)
{
	if (!l)
		return;
	octx_done(&l->c);
	origin_packs_done(&l->packs);
	free(l->v);
	free(l);
}

/* All of a list's origins explained, a malloc'd array (NULL when none). */
static size_t
list_explain_all(struct model_origin_list *l, struct model_origin **out)
{
	struct model_origin *v = l->n ? xcalloc(l->n, sizeof(*v)) : NULL;

	for (size_t k = 0; k < l->n; k++)
		model_origin_list_get(l, k, &v[k]);
	*out = v;
	return l->n;
}

size_t
model_origins_run_take(struct model_origins_run *r, struct model_origins_query *q,
		       struct model_origin **out)
{
	struct model_origin_list *l = model_origins_run_list(r, q);
	size_t n = list_explain_all(l, out);

	model_origin_list_free(l);
	return n;
}

void
model_origins_run_free(struct model_origins_run *r)
{
	if (!r)
		return;
	free(r->v);
	origin_packs_done(&r->packs);
	reach_done(&r->acc);
	octx_done(&r->c);
	free(r->hc);
	free(r->host);
	free(r);
}

size_t
model_origins(struct model *m, struct model_origins_query *q, struct model_origin **out)
{
	struct model_origin_list *l = model_origins_list(m, q);
	size_t n = list_explain_all(l, out);

	model_origin_list_free(l);
	return n;
}
