/*
 * model_origin_carry.c - what the origins say about carried values: the
 * words of a carried row's cause and chain (why N), and how far each root's
 * values went (rows, calls, variables, steps, hosts) for the origins list.
 *
 * Not for: finding the links (model_carry.c) or classifying rows
 * (model_origins.c).  Counts are kept per root entry, never per row beyond
 * the row -> root map of the rows one listing walks.
 */
#include "model/analysis/model_origins_ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reach_ent {
	uint64_t root;              /* the origin's row */
	int64_t step;               /* its step */
	uint32_t host_sid;          /* its host */
	struct model_reach r;
};

static void
say(char *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, MODEL_CAUSE_LEN, fmt, ap);
	va_end(ap);
}

static const char *
exec_type(struct model *m, int64_t x, struct model_execution *e)
{
	if (x < 0 || model_execution_get(m, (uint64_t)x, e) != TD_OK || !e->op_type)
		return "?";
	return e->op_type;
}

/* One link in words: "read a variable written by ... (row R)". */
static void
link_words(struct octx *c, enum model_carry_link link, int64_t from, int64_t via, char *buf)
{
	struct model *m = c->m;
	struct model_execution e;
	struct model_trace t;
	char at[64] = "";
	const char *rt = "?";

	if (from >= 0) {
		int64_t s = octx_row_step(c, (uint64_t)from);

		if (model_trace_get(m, (uint64_t)from, &t) == TD_OK && t.op_type)
			rt = t.op_type;
		if (s >= 0)
			snprintf(at, sizeof at, " (row %lld, step %lld)", (long long)from, (long long)s);
		else
			snprintf(at, sizeof at, " (row %lld)", (long long)from);
	}
	switch (link) {
	case CARRY_CALL_INPUT:
		if (via >= 0)
			say(buf, "an input of its function call: the value execution %lld (%s) "
				 "output with NaN/Inf%s", (long long)via, exec_type(m, via, &e), at);
		else
			say(buf, "an input of a nested function: the calling graph's value with "
				 "NaN/Inf%s", at);
		break;
	case CARRY_CALL_OUTPUT:
		say(buf, "the output of a function call op: the inner graph's output with NaN/Inf%s",
		    at);
		break;
	case CARRY_VARIABLE:
		if (via >= 0)
			say(buf, "read a variable written by %s (execution %lld) from a value holding "
				 "NaN/Inf%s", exec_type(m, via, &e), (long long)via, at);
		else
			say(buf, "read a variable last written by %s%s, holding NaN/Inf", rt, at);
		break;
	case CARRY_SAME_VALUE:
		say(buf, "an input record holding the value of an earlier output%s (equal NaN/Inf "
			 "counts; its producer is not recorded)", at);
		break;
	case CARRY_CALL_UNRECORDED:
		say(buf, "inputs not all recorded (the op's, or the call op passing a nested "
			 "function's argument); its call's input held NaN/Inf: execution %lld's "
			 "output%s", (long long)via, at);
		break;
	case CARRY_NONE:
		say(buf, "carried");
		break;
	}
}

void
origins_explain_carried(struct octx *c, struct model_origin *o)
{
	char buf[MODEL_CAUSE_LEN];
	size_t k;

	o->cause[0] = 0;
	o->nevidence = 0;
	link_words(c, (enum model_carry_link)o->link, o->nfrom ? o->from[0] : -1, o->via, o->cause);
	if (o->origin >= 0)
		origin_add_evidence(o, "it goes back to the origin at row %lld", (long long)o->origin);
	else if (o->nfrom && o->from[0] < 0 && o->via >= 0)
		origin_add_evidence(o, "it goes back to execution %d, whose output no trace row holds",
			     o->via);
	else
		origin_add_evidence(o, "its root was not found within the search bounds");
	/* the other carried links on the way back, origin side first */
	for (k = 0; k + 1 < o->npath; k++) {
		struct model_origin t = {0};

		origins_classify(c, o->path[k], &t, false);
		if (t.role == ORIGIN_CARRIED) {
			link_words(c, (enum model_carry_link)t.link, t.nfrom ? t.from[0] : -1, t.via,
				   buf);
			origin_add_evidence(o, "row %llu: %s", (unsigned long long)o->path[k], buf);
		}
		model_origin_done(&t);
	}
}

/* ---- reach -------------------------------------------------------------------- */

static void
bump(uint16_t *n)
{
	if (*n < UINT16_MAX)
		(*n)++;
}

/* Counts (entry, key) once. */
static bool
first_time(struct reach_acc *a, uint64_t ent, uint64_t key, uint64_t kind)
{
	uint64_t k = (ent << 40) ^ (kind << 38) ^ (key & ((1ull << 38) - 1)), v;

	if (hashtab_u64_get(&a->seen, k + 1, &v))
		return false;
	*hashtab_u64_put(&a->seen, k + 1, 1) = 1;
	return true;
}

void
reach_note(struct reach_acc *a, struct octx *c, uint64_t j, const struct model_origin *t)
{
	struct reach_ent *e;
	uint64_t ent, p;
	int64_t next = -1, step;
	uint32_t hs;
	size_t k;

	if (t->role == ORIGIN_ORIGIN) {
		TD_GROW(a->v, a->cap, a->n + 1);
		e = &a->v[a->n];
		memset(e, 0, sizeof(*e));
		e->root = j;
		e->step = octx_row_step(c, j);
		e->host_sid = octx_row_host(c, j);
		e->r.rows = 1;
		*hashtab_u64_put(&a->root, j + 1, 0) = ++a->n;
		return;
	}
	for (k = 0; k < t->nfrom; k++)
		if (t->from[k] >= 0 && (next < 0 || t->from[k] < next))
			next = t->from[k];
	if (next < 0 || !hashtab_u64_get(&a->root, (uint64_t)next + 1, &p) || !p)
		return;
	ent = p - 1;
	*hashtab_u64_put(&a->root, j + 1, 0) = p;
	e = &a->v[ent];
	if (e->r.rows < UINT32_MAX)
		e->r.rows++;
	if (t->role == ORIGIN_CARRIED) {
		if (t->link == CARRY_CALL_INPUT || t->link == CARRY_CALL_OUTPUT ||
		    t->link == CARRY_CALL_UNRECORDED)
			bump(&e->r.calls);
		else if (t->link == CARRY_VARIABLE)
			bump(&e->r.variables);
		else if (t->link == CARRY_SAME_VALUE)
			bump(&e->r.records);
	}
	step = octx_row_step(c, j);
	if (step >= 0 && step != e->step && first_time(a, ent, (uint64_t)step, 0))
		bump(&e->r.steps);
	hs = octx_row_host(c, j);
	if (hs != e->host_sid && first_time(a, ent, hs, 1))
		bump(&e->r.hosts);
}

struct model_reach *
reach_take(struct reach_acc *a, const struct origin_rec *v, size_t n)
{
	struct model_reach *r;
	uint64_t p;
	size_t k;

	if (!n)
		return NULL;
	r = xcalloc(n, sizeof(*r));
	for (k = 0; k < n; k++)
		if (v[k].source == TABLE_TRACES && hashtab_u64_get(&a->root, v[k].index + 1, &p) && p)
			r[k] = a->v[p - 1].r;
	return r;
}

void
reach_done(struct reach_acc *a)
{
	hashtab_u64_done(&a->root);
	hashtab_u64_done(&a->seen);
	free(a->v);
	memset(a, 0, sizeof(*a));
}
