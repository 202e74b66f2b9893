/*
 * model_carry.c - values that cross a boundary the graph's edges do not
 * show, followed only through what the dump records.
 *
 * Four links, each read from recorded facts, never from a guess about the
 * cause:
 *   call input   a function graph's input op (a placeholder with no inputs)
 *                holds its call's input at the same position: the call's
 *                execution names its inputs' tensor ids, and the execution
 *                that output that id made the value.  In a nested graph the
 *                call op's input is the enclosing graph's latest value in the
 *                same call.
 *   call output  an op that reads a call op (an untraced `...Call` op) reads
 *                the inner graph's output: the latest row of a graph nested
 *                in its own, in the same call.
 *   variable     a read of a variable holds the last write before it: in a
 *                graph, the latest row of a writer op whose input 0 is the
 *                same variable; between executions, the last writing
 *                execution whose first input is a tensor id the call was
 *                given, and the value it wrote from.
 *   same value   an op's input record with no recorded producer holds the
 *                value an earlier output row of its step holds when the two
 *                summaries agree (counts, and values where recorded).
 * Op types are neutral names (a read, a write, a call); nothing here knows
 * a format.  The executions' tensor ids are decoded on demand and kept per
 * question; every search is bounded (CARRY_* below).  On the model's
 * public API (model_query.h): a walk over every op reads their briefs a
 * batch at a time.
 */
#include "model/analysis/model_carry_ctx.h"
#include "model/analysis/model_carry_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
model_carry_link_name(enum model_carry_link k)
{
	return (unsigned)k < TD_ARRAY_SIZE(link_names) ? link_names[k] : "";
}

/* The row of call e's output k before `before`: the latest non-finite row
 * of the call whose summary agrees with the execution's record of output
 * k (counts, and min/max where both have them), else the call's latest
 * non-finite row; -1 none. */
static int64_t
last_row_of_call(struct carry *c, uint64_t e, uint32_t k, uint64_t before)
{
	const struct td_summary *want = e < c->nx && k < c->x[e].nsums ? &c->x[e].sums[k] : NULL;
	uint64_t j, seen = 0;
	int64_t latest = -1;

	for (j = before; j > 0 && seen < CARRY_ROW_WINDOW; j--) {
		struct model_trace t;
		int64_t x;

		if (!(carry_row_flags(c->m, j - 1) & ROW_NONFINITE))
			continue;
		seen++;
		carry_tick(c);
		x = c->row_call(c->arg, j - 1);
		if (x >= 0 && x < (int64_t)e)
			break;      /* rows run in time order: earlier calls only now */
		if (x != (int64_t)e)
			continue;
		if (latest < 0)
			latest = (int64_t)(j - 1);
		if (!want)
			break;
		if (model_trace_get(c->m, j - 1, &t) == TD_OK && same_counts(&t.summary, want))
			return (int64_t)(j - 1);
	}
	return latest;
}

/* Whether tensor id `id`, given to execution e, held NaN/Inf: the
 * execution that output it did (CARRY_CALL_INPUT), or the last execution
 * before e that wrote it as a variable wrote it from such a value
 * (CARRY_VARIABLE).  before: the row asking (rows of the producer are
 * before it). */
static bool
id_value(struct carry *c, uint64_t e, int64_t id, uint64_t before, int depth, struct carry_found *f)
{
	uint64_t lo = e > CARRY_EXEC_WINDOW ? e - CARRY_EXEC_WINDOW : 0, p;
	uint32_t k;

	for (p = e; p > lo; p--) {
		struct xids *x = carry_xids(c, p - 1);
		bool fn;
		const char *t;

		if (!x)
			return false;
		for (k = 0; k < x->nout; k++) {
			if (x->out[k] != id)
				continue;
			if (!(k < 64 ? (x->bad >> k) & 1 : x->bad != 0))
				return false;
			t = carry_exec_type(c->m, p - 1, &fn);
			f->link = CARRY_CALL_INPUT;
			f->via = (int64_t)(p - 1);
			f->via_type = t;
			f->row = fn ? last_row_of_call(c, p - 1, k, before) : -1;
			return true;
		}
		if (x->nin < 2 || x->in[0] != id || depth >= CARRY_DEPTH)
			continue;
		t = carry_exec_type(c->m, p - 1, &fn);
		if (!write_type(t))
			continue;
		/* the variable's last write: what did it write? */
		for (k = 1; k < x->nin; k++) {
			struct carry_found g = {0};

			if (id_value(c, p - 1, x->in[k], before, depth + 1, &g)) {
				f->link = CARRY_VARIABLE;
				f->via = (int64_t)(p - 1);
				f->via_type = t;
				f->row = g.row;
				f->position = k;
				return true;
			}
		}
		return false;       /* written from finite values */
	}
	return false;
}

/* ---- graph facts ------------------------------------------------------------------ */

/* The latest non-finite row before i in call x that is an inner graph's
 * output: its graph nested in `within` (not `within` itself, not inside
 * `skip`, -1 none) and its op consumed by nothing in it (a function's
 * results are its graph's sinks); -1 none. */
static int64_t
latest_in(struct carry *c, uint64_t i, int64_t x, int32_t within, int32_t skip)
{
	uint64_t j, seen = 0;

	for (j = i; j > 0 && seen < CARRY_ROW_WINDOW; j--) {
		uint32_t fl = carry_row_flags(c->m, j - 1);
		int64_t xj;
		int32_t g;

		if (!(fl & ROW_NONFINITE) || (fl & ROW_INPUT))
			continue;
		seen++;
		carry_tick(c);
		xj = c->row_call(c->arg, j - 1);
		if (x >= 0 && xj >= 0 && xj != x)
			break;
		g = carry_row_graph(c->m, j - 1);
		if (g >= 0 && g != within && carry_inside(c->m, g, within) &&
		    (skip < 0 || !carry_inside(c->m, g, skip)) &&
		    !model_op_consumers(c->m, carry_row_op(c->m, j - 1), NULL, 0))
			return (int64_t)(j - 1);
	}
	return -1;
}

struct nested_walk {
	struct carry *c;
	uint64_t i;
	int64_t x;
	const struct opf *o;
	const char *outer_id;       /* the enclosing graph's id */
	int64_t best;               /* the latest such row, -1 */
	size_t ncalls;              /* call ops of the enclosing graph seen */
};

/* One op k of nested_input's walk: a call op of the enclosing graph. */
static bool
nested_call(void *arg, uint32_t k, const struct model_op_brief *b)
{
	struct nested_walk *w = arg;
	struct carry *c = w->c;
	struct model *m = c->m;
	const char *pt;
	uint32_t p, slot = 0;
	int64_t r;

	if (strcmp(b->graph_id, w->outer_id) || !call_type(b->type) || b->ninputs <= w->o->position)
		return true;
	carry_tick(c);
	w->ncalls++;
	model_op_input(m, k, w->o->position, &slot, NULL);
	p = carry_producer(m, k, w->o->position, &pt);
	if (p == NO_OP)
		return true;
	r = model_trace_of_op(m, p, slot, w->i, -1);
	if (r < 0 && call_type(pt))
		r = latest_in(c, w->i, w->x, w->o->outer, w->o->graph);
	if (r < 0 || !(carry_row_flags(m, (uint64_t)r) & ROW_NONFINITE) ||
	    (w->x >= 0 && c->row_call(c->arg, (uint64_t)r) != w->x))
		return true;
	w->best = TD_MAX(w->best, r);
	return true;
}

static bool
nested_input(struct carry *c, uint64_t i, int64_t x, const struct opf *o, struct carry_found *f,
	     size_t *ncalls)
{
	int64_t best;
	struct nested_walk w = { c, i, x, o, NULL, -1, 0 };
	struct model_graph g;

	*ncalls = 0;
	if (!model_graph_get(c->m, (uint32_t)o->outer, &g))
		return false;
	w.outer_id = g.graph_id;
	{
		const uint32_t *ops;
		uint32_t n = carry_call_ops(c, &ops);
		struct model_op_brief b;

		for (uint32_t k = 0; k < n; k++)
			if (model_op_brief(c->m, ops[k], &b))
				nested_call(&w, ops[k], &b);
	}
	*ncalls = w.ncalls;
	if (w.best < 0)
		return false;
	best = w.best;
	f->link = CARRY_CALL_INPUT;
	f->row = best;
	f->position = o->position;
	return true;
}

/* A graph's writers of variable op var: the latest non-finite row of one
 * before i (the last write, when it holds the bad value). */
static bool
graph_write(struct carry *c, uint64_t i, uint32_t var, struct carry_found *f)
{
	const uint32_t *ops;
	uint32_t n = carry_writers(c, var, &ops), k;
	int64_t best = -1, r;
	const char *best_type = "";
	struct model_op_brief b;

	for (k = 0; k < n; k++) {
		carry_tick(c);
		r = model_trace_of_op(c->m, ops[k], UINT32_MAX, i, -1);
		if (r > best && model_op_brief(c->m, ops[k], &b)) {
			best = r;
			best_type = b.type;
		}
	}
	if (best < 0 || !(carry_row_flags(c->m, (uint64_t)best) & ROW_NONFINITE))
		return false;
	f->link = CARRY_VARIABLE;
	f->row = best;
	f->via = -1;
	f->via_type = best_type;
	return true;
}

/* ---- same value ------------------------------------------------------------------------ */

/* Input record i with no producer row: the latest earlier output row of
 * its step with the same value. */
static bool
same_value(struct carry *c, uint64_t i, struct carry_found *f)
{
	struct model *m = c->m;
	struct model_trace t, u;
	uint64_t j, lo = i > CARRY_SAME_WINDOW ? i - CARRY_SAME_WINDOW : 0;
	int64_t step;

	if (model_trace_get(m, i, &t) != TD_OK)
		return false;
	step = c->row_call(c->arg, i);
	for (j = i; j > lo; j--) {
		uint32_t fl = carry_row_flags(m, j - 1);

		if (!(fl & ROW_NONFINITE) || (fl & ROW_INPUT))
			continue;
		carry_tick(c);
		if (c->row_call(c->arg, j - 1) != step)
			break;
		if (model_trace_get(m, j - 1, &u) != TD_OK)
			continue;
		if (u.summary.dtype == t.summary.dtype && same_counts(&u.summary, &t.summary)) {
			f->link = CARRY_SAME_VALUE;
			f->row = (int64_t)(j - 1);
			f->via = -1;
			f->via_type = "";
			return true;
		}
	}
	return false;
}

/* ---- the question ------------------------------------------------------------------------ */

/* Eager variable reads: a variable the call was given whose last write
 * wrote NaN/Inf. */
static bool
call_variables(struct carry *c, uint64_t i, int64_t x, struct carry_found *f)
{
	struct xids *xi;
	uint32_t k;

	if (x < 0 || !(xi = carry_xids(c, (uint64_t)x)))
		return false;
	for (k = 0; k < xi->nin; k++) {
		struct carry_found g = {0};

		if (id_value(c, (uint64_t)x, xi->in[k], i, 0, &g) && g.link == CARRY_VARIABLE) {
			*f = g;
			return true;
		}
	}
	return false;
}

/* A top-level function graph's input op at position pos: the call's input. */
static bool
call_input(struct carry *c, uint64_t i, int64_t x, uint32_t pos, struct carry_found *f)
{
	struct xids *xi;
	uint32_t k;

	if (x < 0 || !(xi = carry_xids(c, (uint64_t)x)))
		return false;
	if (pos < xi->nin) {
		if (!id_value(c, (uint64_t)x, xi->in[pos], i, 0, f))
			return false;
		f->position = pos;
		return true;
	}
	for (k = 0; k < xi->nin; k++) {
		if (id_value(c, (uint64_t)x, xi->in[k], i, 0, f)) {
			f->position = k;
			return true;
		}
	}
	return false;
}

bool
carry_find(struct carry *c, uint64_t i, struct carry_found *f)
{
	struct model *m = c->m;
	struct opf o;
	int64_t x, r;
	uint32_t k, v;
	const char *pt;
	bool unrecorded;
	size_t ncalls;

	memset(f, 0, sizeof(*f));
	f->row = f->via = -1;
	f->via_type = "";
	if (i >= model_trace_count(m) || !(carry_row_flags(m, i) & ROW_NONFINITE))
		return false;
	carry_op_facts(c, i, &o);
	if (carry_row_flags(m, i) & ROW_INPUT) {
		/* an input record of a variable (a parameter): its last write */
		k = model_trace_slot(m, i);
		v = carry_producer(m, o.op, k, &pt);
		if (v != NO_OP && variable_type(pt) && graph_write(c, i, v, f))
			return true;
		return same_value(c, i, f);
	}
	x = c->row_call(c->arg, i);

	/* a variable read: the last write in a graph, else between calls */
	if (read_type(o.type)) {
		v = variable_type(o.type) ? o.op : o.ninputs ? carry_producer(m, o.op, 0, &pt) : NO_OP;
		if (v != NO_OP && graph_write(c, i, v, f))
			return true;
		if (call_variables(c, i, x, f))
			return true;
	}
	/* a function's argument */
	if (!o.ninputs && graph_input_type(o.type) && o.graph >= 0) {
		int32_t xg = carry_exec_graph(m, x);

		if (xg >= 0 && xg == o.graph)
			return call_input(c, i, x, o.position, f);
		if (o.outer >= 0 && nested_input(c, i, x, &o, f, &ncalls))
			return true;
		/* no call op of the enclosing graph is recorded: the only
		 * recorded way in is the enclosing call's input (say so) */
		if (o.outer >= 0 && !ncalls && call_input(c, i, x, UINT32_MAX, f)) {
			f->link = CARRY_CALL_UNRECORDED;
			return true;
		}
		return false;
	}
	/* the output of a call op: the inner graph's output in the same call */
	unrecorded = !o.ninputs ? !source_type(o.type) : o.ninputs < arity(o.type);
	for (k = 0; k < o.ninputs; k++) {
		uint32_t p = carry_producer(m, o.op, k, &pt);

		if (p != NO_OP && model_trace_of_op(m, p, UINT32_MAX, i, -1) >= 0)
			continue;
		if (p == NO_OP || !call_type(pt)) {
			/* a computed producer never traced (a constant or an
			 * argument is a value, not a missing record) */
			unrecorded |= p == NO_OP || !source_type(pt);
			continue;
		}
		if (o.graph >= 0 && (r = latest_in(c, i, x, o.graph, -1)) >= 0) {
			f->link = CARRY_CALL_OUTPUT;
			f->row = r;
			f->position = k;
			return true;
		}
	}
	/* inputs not all recorded: the function's call input is the only
	 * recorded way a bad value came in (say so; never a cause) */
	if (unrecorded && o.graph >= 0 && carry_exec_graph(m, x) >= 0 &&
	    carry_inside(m, o.graph, carry_exec_graph(m, x)) && call_input(c, i, x, UINT32_MAX, f)) {
		f->link = CARRY_CALL_UNRECORDED;
		return true;
	}
	return false;
}

/* Whether execution e or one before it (within the window) output id. */
static int64_t
producer_of(struct carry *c, uint64_t e, int64_t id)
{
	uint64_t lo = e > CARRY_EXEC_WINDOW ? e - CARRY_EXEC_WINDOW : 0, p;
	uint32_t k;

	for (p = e; p > lo; p--) {
		struct xids *x = carry_xids(c, p - 1);

		for (k = 0; x && k < x->nout; k++)
			if (x->out[k] == id)
				return (int64_t)(p - 1);
		if (x && x->nin && x->in[0] == id)
			return (int64_t)(p - 1);    /* a write of it: recorded */
	}
	return -1;
}

bool
carry_missing(struct carry *c, uint64_t i, char *buf, size_t size)
{
	struct model *m = c->m;
	struct opf o;
	struct xids *xi;
	int64_t x;

	if (i >= model_trace_count(m))
		return false;
	carry_op_facts(c, i, &o);
	if (carry_row_flags(m, i) & ROW_INPUT) {
		if (o.ninputs)
			return false;
		snprintf(buf, size, "missing: the record of its producer (no graph names the op's "
			 "inputs, and no earlier output of the step holds this value)");
		return true;
	}
	x = c->row_call(c->arg, i);
	if (!o.ninputs && graph_input_type(o.type) && o.graph >= 0 && o.outer < 0) {
		if (x < 0 || carry_exec_graph(m, x) != o.graph) {
			snprintf(buf, size, "missing: the record of the call that ran this function "
				 "(no execution names its graph after the row)");
			return true;
		}
		if (!(xi = carry_xids(c, (uint64_t)x)) || o.position >= xi->nin) {
			snprintf(buf, size, "missing: input %u of its call, execution %lld (it records "
				 "%u input tensor ids)", o.position, (long long)x, xi ? xi->nin : 0);
			return true;
		}
		if (producer_of(c, (uint64_t)x, xi->in[o.position]) < 0) {
			snprintf(buf, size, "missing: the execution that output tensor id %lld, input "
				 "%u of its call (execution %lld): not recorded before it",
				 (long long)xi->in[o.position], o.position, (long long)x);
			return true;
		}
		return false;
	}
	if (read_type(o.type) && !variable_type(o.type) && x >= 0 && carry_exec_graph(m, x) >= 0) {
		uint32_t k;

		if (!(xi = carry_xids(c, (uint64_t)x)) || !xi->nin) {
			snprintf(buf, size, "missing: the input tensor ids of its call, execution %lld "
				 "(which variable it read is not recorded)", (long long)x);
			return true;
		}
		for (k = 0; k < xi->nin; k++)
			if (producer_of(c, (uint64_t)x, xi->in[k]) < 0)
				break;
		if (k < xi->nin) {
			snprintf(buf, size, "missing: the record that made tensor id %lld, input %u of "
				 "its call (execution %lld): a variable's last write may be there",
				 (long long)xi->in[k], k, (long long)x);
			return true;
		}
	}
	return false;
}
