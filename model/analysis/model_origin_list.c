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
 */
#include "model/analysis/model_origins_ctx.h"

#include <stdlib.h>
#include <string.h>

#define EXEC_BATCH 256              /* executions' keys read at once */

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
	if (model_execution_detail(m, x, &d) == TD_OK) {
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
origin_before(const struct model_origin *a, const struct model_origin *b)
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
	const struct model_origin *x = a, *y = b;

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
	struct model_origin *v;
	size_t n, cap;
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
		struct model_row_keys k;

		model_trace_keys(m, &j, 1, &k);
		hs = k.host;
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
	TD_GROW(r->v, r->cap, r->n + 1);
	origins_explain_row(&r->c, j, &r->v[r->n++]);
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
			exec_origin(m, j + k, &r->v[r->n++]);
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

size_t
model_origins_run_take(struct model_origins_run *r, struct model_origins_query *q,
		       struct model_origin **out)
{
	size_t n = r->n;

	if (n > 1)
		td_sort(r->v, n, sizeof(*r->v), origin_cmp);
	if (q) {
		q->partial = r->partial;
		q->partial_row = r->partial_row;
		q->reach = q->want_reach ? reach_take(&r->acc, r->v, n) : NULL;
	}
	*out = r->v;
	r->v = NULL;
	r->n = r->cap = 0;
	return n;
}

void
model_origins_run_free(struct model_origins_run *r)
{
	if (!r)
		return;
	model_origins_free(r->v, r->n);
	reach_done(&r->acc);
	octx_done(&r->c);
	free(r->hc);
	free(r->host);
	free(r);
}

size_t
model_origins(struct model *m, struct model_origins_query *q, struct model_origin **out)
{
	struct model_origins_run *r = model_origins_run_new(m, q);
	size_t n;

	model_origins_run_step(r, 0);
	n = model_origins_run_take(r, q, out);
	model_origins_run_free(r);
	return n;
}
