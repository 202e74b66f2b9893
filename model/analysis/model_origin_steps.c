/*
 * model_origin_steps.c - the step and the call of a trace row, for the
 * origins: the reader's step when it knows one, else the execution a row
 * belongs to, else the first function-call execution recorded at or after
 * the row's wall time on its host (a call is recorded when it returns,
 * after its graph's rows) whose graph holds the row's op; else unknown.
 */
#include "model/analysis/model_origins_ctx.h"

#include <stdlib.h>
#include <string.h>

#define CALL_BATCH 256              /* executions' keys read at once */
#define STEP_MEMO 4096              /* rows' steps kept (direct-mapped) */
#define HOST_WINDOW 256             /* rows' host keys read at once */

/* The steps of the rows asked last: the walks ask a row's step again and
 * again (classify, explain, the path, the reach), and a row of a graph
 * run inside a function call costs a decode of the row for its time. */
struct step_memo {
	uint64_t row1[STEP_MEMO];   /* row + 1, 0 empty */
	int64_t v[STEP_MEMO];       /* its step, or its call */
	bool looked[STEP_MEMO];     /* calls: looked for by time (work) */
};

/* Row i's slot in *mm (made on first use) into *h; true when it holds i. */
static bool
memo_find(struct step_memo **mm, uint64_t i, size_t *h)
{
	if (!*mm)
		*mm = xcalloc(1, sizeof(**mm));
	*h = (size_t)(i * 0x9E3779B97F4A7C15ull >> 52) & (STEP_MEMO - 1);
	return (*mm)->row1[*h] == i + 1;
}

static int
call_cmp(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->wall != y->wall)
		return x->wall < y->wall ? -1 : 1;
	return x->exec < y->exec ? -1 : x->exec > y->exec;
}

static void
calls_build(struct octx *c)
{
	struct model *m = c->m;
	uint64_t n = model_execution_count(m), i = 0;
	struct model_exec_keys xk[CALL_BATCH];
	size_t cap = 0, got;

	c->have_calls = true;
	while (i < n && (got = model_execution_keys(m, i, (size_t)TD_MIN((uint64_t)CALL_BATCH, n - i),
						      xk))) {
		for (size_t k = 0; k < got; k++) {
			const struct model_exec_keys *x = &xk[k];

			if (!(x->flags & ROW_FUNCTION) || x->wall_time <= 0)
				continue;
			TD_GROW(c->calls, cap, c->ncalls + 1);
			c->calls[c->ncalls].wall = x->wall_time;
			c->calls[c->ncalls].exec = i + k;
			c->calls[c->ncalls].host_sid = x->host;
			c->calls[c->ncalls].graph = x->graph;
			c->ncalls++;
		}
		i += got;
	}
	if (c->ncalls)
		td_sort(c->calls, c->ncalls, sizeof(*c->calls), call_cmp);
}

void
octx_done(struct octx *c)
{
	free(c->calls);
	carry_free(c->carry);
	free(c->steps);
	free(c->calls_of);
	octx_prev_free(c->prev);
	c->prev = NULL;
	free(c->host);
	c->host = NULL;
	c->host_n = 0;
	c->calls = NULL;
	c->carry = NULL;
	c->steps = NULL;
	c->calls_of = NULL;
}

uint32_t
octx_row_host(struct octx *c, uint64_t j)
{
	if (j < c->host_lo || j - c->host_lo >= c->host_n) {
		/* a window when the rows asked follow on from the last one,
		 * else the row alone (rows far apart: few NaN rows) */
		uint64_t end = c->host_lo + c->host_n;
		size_t n = c->host && j >= end && j - end < HOST_WINDOW ? HOST_WINDOW : 1;

		if (!c->host)
			c->host = xmalloc(HOST_WINDOW * sizeof(*c->host));
		c->host_lo = j;
		c->host_n = model_trace_hosts(c->m, j, n, c->host, NULL);
		if (!c->host_n)
			return 0;           /* past the rows */
	}
	return c->host[j - c->host_lo];
}

struct carry *
octx_carry(struct octx *c)
{
	if (!c->carry)
		c->carry = carry_new(c->m, octx_row_call, c, &c->work);
	return c->carry;
}

/* The function call recorded at or after wall on host whose graph holds
 * graph (any when either is unknown); -1 none. */
static int64_t
call_after(struct octx *c, double wall, uint32_t host_sid, int32_t graph)
{
	size_t lo = 0, hi, k;
	int64_t found = -1;

	if (!c->have_calls)
		calls_build(c);
	hi = c->ncalls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->calls[mid].wall < wall)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < c->ncalls; k++) {
		if (host_sid && c->calls[k].host_sid && c->calls[k].host_sid != host_sid)
			continue;
		found = (int64_t)k;
		break;
	}
	if (found < 0)
		return -1;
	k = (size_t)found;
	if (graph >= 0 && c->calls[k].graph >= 0) {
		if (!model_graph_inside(c->m, graph, c->calls[k].graph))
			return -1;
	}
	return (int64_t)c->calls[k].exec;
}

static int64_t
row_step(struct octx *c, uint64_t i)
{
	struct model_row_keys k;
	double wall;
	bool known;
	int64_t s;

	model_trace_keys(c->m, &i, 1, &k);
	s = k.step >= 0 ? k.step : k.exec_step;     /* the reader's own step */
	if (s >= 0)
		return s;
	if (k.execution >= 0)
		return k.execution;
	/* the row's time: from the summary columns when they hold it (the
	 * decode's own value), else decoded */
	model_trace_sort_keys(c->m, MODEL_SORT_WALL, &i, 1, &wall, &known);
	if (!known)
		return -1;
	return call_after(c, wall, k.host, k.graph);
}

int64_t
octx_row_step(struct octx *c, uint64_t i)
{
	size_t h;

	if (!memo_find(&c->steps, i, &h)) {
		c->steps->v[h] = row_step(c, i);
		c->steps->row1[h] = i + 1;
	}
	return c->steps->v[h];
}

int64_t
model_trace_step(struct model *m, uint64_t i)
{
	struct octx c = { .m = m };
	int64_t s;

	if (i >= model_trace_count(m))
		return -1;
	s = row_step(&c, i);    /* one row: the memo would cost more than it saves */
	octx_done(&c);
	return s;
}

/* The steps of many rows at once: the list of function calls is built once
 * for all of them, not once a row. */
void
model_trace_steps(struct model *m, const uint64_t *rows, size_t n, int64_t *steps)
{
	struct octx c = { .m = m };
	uint64_t nt = model_trace_count(m);

	for (size_t k = 0; k < n; k++)
		steps[k] = rows[k] < nt ? row_step(&c, rows[k]) : -1;
	octx_done(&c);
}


/* Row i's call; *looked: whether the call was looked for by time (a unit
 * of work). */
static int64_t
row_call(struct octx *c, uint64_t i, bool *looked)
{
	struct model_row_keys k;
	int64_t call;
	double wall;
	bool known;

	*looked = false;
	model_trace_keys(c->m, &i, 1, &k);
	if (k.execution >= 0)
		return k.execution;
	*looked = true;
	model_trace_sort_keys(c->m, MODEL_SORT_WALL, &i, 1, &wall, &known);
	if (known && (call = call_after(c, wall, k.host, k.graph)) >= 0)
		return call;
	return k.step;
}

int64_t
octx_row_call(void *arg, uint64_t i)
{
	struct octx *c = arg;
	size_t h;
	bool looked;

	if (!memo_find(&c->calls_of, i, &h)) {
		c->calls_of->v[h] = row_call(c, i, &looked);
		c->calls_of->looked[h] = looked;
		c->calls_of->row1[h] = i + 1;
	}
	/* the same work counted as when it is looked for again */
	c->work += c->calls_of->looked[h];
	return c->calls_of->v[h];
}
