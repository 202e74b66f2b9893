/*
 * model_origin_steps.c - the step and the call of a trace row, for the
 * origins: the reader's step when it knows one, else the execution a row
 * belongs to, else the first function-call execution recorded at or after
 * the row's wall time on its host (a call is recorded when it returns,
 * after its graph's rows) whose graph holds the row's op; else unknown.
 */
#include "model_origins_internal.h"

#include <stdlib.h>
#include <string.h>

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
	uint64_t n = rows_nexecs(m), i;
	size_t cap = 0;

	c->have_calls = true;
	pthread_mutex_lock(&m->th.lock);
	for (i = 0; i < n; i++) {
		const struct exec_row *x = exec_row(m, i);

		if (!(__atomic_load_n(&x->flags, __ATOMIC_RELAXED) & ROW_FUNCTION) || x->wall_time <= 0)
			continue;
		TD_GROW(c->calls, cap, c->ncalls + 1);
		c->calls[c->ncalls].wall = x->wall_time;
		c->calls[c->ncalls].exec = i;
		c->calls[c->ncalls].host_sid = x->host < m->src.nhosts ? m->src.hosts[x->host] : 0;
		c->calls[c->ncalls].graph = graphs_index_of_sid(m, x->graph_sid);
		c->ncalls++;
	}
	pthread_mutex_unlock(&m->th.lock);
	if (c->ncalls)
		td_sort(c->calls, c->ncalls, sizeof(*c->calls), call_cmp);
}

void
octx_done(struct octx *c)
{
	free(c->calls);
	carry_free(c->carry);
	c->calls = NULL;
	c->carry = NULL;
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
		bool inside;

		pthread_mutex_lock(&c->m->th.lock);
		inside = graphs_is_inside(c->m, graph, c->calls[k].graph);
		pthread_mutex_unlock(&c->m->th.lock);
		if (!inside)
			return -1;
	}
	return (int64_t)c->calls[k].exec;
}

int64_t
octx_row_step(struct octx *c, uint64_t i)
{
	struct model *m = c->m;
	struct cache_ent e;
	uint32_t op = trace_op(m, i), host;
	int32_t graph = -1;
	int64_t s, x;

	pthread_mutex_lock(&m->th.lock);
	s = rows_trace_step(m, i);      /* the reader's own step */
	x = rows_trace_execution(m, i);
	host = rows_trace_host_sid(m, i);
	if (op < m->ot.nops)
		graph = graphs_index_of_sid(m, m->ot.opv[op].graph_sid);
	if (s < 0 && x >= 0 && (uint64_t)x < rows_nexecs(m))
		s = exec_row(m, (uint64_t)x)->step;
	pthread_mutex_unlock(&m->th.lock);
	if (s >= 0)
		return s;
	if (x >= 0)
		return x;
	rows_trace_decoded(m, i, &e);
	if (e.wall_time <= 0)
		return -1;
	return call_after(c, e.wall_time, host, graph);
}

int64_t
model_trace_step(struct model *m, uint64_t i)
{
	struct octx c = { .m = m };
	int64_t s;

	if (i >= rows_ntraces(m))
		return -1;
	s = octx_row_step(&c, i);
	octx_done(&c);
	return s;
}

/* The steps of many rows at once: the list of function calls is built once
 * for all of them, not once a row. */
void
model_trace_steps(struct model *m, const uint64_t *rows, size_t n, int64_t *steps)
{
	struct octx c = { .m = m };
	uint64_t nt = rows_ntraces(m);

	for (size_t k = 0; k < n; k++)
		steps[k] = rows[k] < nt ? octx_row_step(&c, rows[k]) : -1;
	octx_done(&c);
}


int64_t
octx_row_call(void *arg, uint64_t i)
{
	struct octx *c = arg;
	struct model *m = c->m;
	struct cache_ent e;
	uint32_t op = trace_op(m, i), host;
	int32_t graph = -1;
	int64_t x, s, call;

	pthread_mutex_lock(&m->th.lock);
	x = rows_trace_execution(m, i);
	s = rows_trace_step(m, i);
	host = rows_trace_host_sid(m, i);
	if (op < m->ot.nops)
		graph = graphs_index_of_sid(m, m->ot.opv[op].graph_sid);
	pthread_mutex_unlock(&m->th.lock);
	if (x >= 0)
		return x;
	c->work++;
	rows_trace_decoded(m, i, &e);
	if (e.wall_time > 0 && (call = call_after(c, e.wall_time, host, graph)) >= 0)
		return call;
	return s;
}
