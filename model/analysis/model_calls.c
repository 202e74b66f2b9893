/*
 * model_calls.c - the call tree around an op: the call that encloses it
 * (a module around an API call) and the calls it encloses, as the dump
 * records them (reader.h READER_CALL_TREE), each resolved to an op of the
 * same graph and to the first row of its call nearest the row asked about,
 * in the same step.
 *
 * The names come from one decode of the op's row (model_trace_detail), so
 * nothing is kept in the model's tables and a reopen from the persistent
 * index answers the same.  Not for: data links (model_tree.c), dumps that
 * record no call tree (answered without decoding).
 */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

/* The first row of the call holding row c of op: its rows are adjacent
 * (inputs, then outputs), in one step. */
static int64_t
call_start(struct model *m, uint32_t op, int64_t c)
{
	int64_t step = model_trace_step(m, (uint64_t)c);
	uint32_t f;

	while (c > 0 && model_trace_op_flags(m, (uint64_t)c - 1, &f) == op &&
	       model_trace_step(m, (uint64_t)c - 1) == step)
		c--;
	return c;
}

/* The first row of op's call nearest row (its output row nearest row,
 * either side, the earlier on a tie) in row's step; -1 none. */
static int64_t
nearest_row(struct model *m, uint32_t op, uint64_t row)
{
	int64_t step = model_trace_step(m, row), best = -1, c;
	uint64_t dist = UINT64_MAX;
	int dir;

	for (dir = -1; dir <= 1; dir += 2) {
		c = model_trace_of_op(m, op, UINT32_MAX, row, dir);
		if (c < 0 || model_trace_step(m, (uint64_t)c) != step)
			continue;
		uint64_t d = (uint64_t)c > row ? (uint64_t)c - row : row - (uint64_t)c;
		if (d < dist) {
			dist = d;
			best = c;
		}
	}
	return best < 0 ? -1 : call_start(m, op, best);
}

static void
call_set(struct model *m, struct model_call *c, const char *name, const char *graph, uint64_t row)
{
	struct model_op o;
	uint32_t f;

	memset(c, 0, sizeof(*c));
	c->op_name = xstrdup(name);
	c->op_type = "";
	c->op = model_op_find(m, name, graph);
	c->trace_index = -1;
	if (c->op < 0)
		return;
	if (model_op_get(m, (uint32_t)c->op, &o))
		c->op_type = o.type;
	c->trace_index = nearest_row(m, (uint32_t)c->op, row);
	if (c->trace_index >= 0) {
		model_trace_op_flags(m, (uint64_t)c->trace_index, &f);
		c->nonfinite = (f & ROW_NONFINITE) != 0;
	}
}

/* The first row of the op's first call (found by its output rows); -1 none. */
static int64_t
first_row(struct model *m, uint32_t op)
{
	uint32_t f;
	int64_t c;

	if (model_trace_count(m) && model_trace_op_flags(m, 0, &f) == op)
		return 0;
	c = model_trace_of_op(m, op, UINT32_MAX, 0, 1);
	return c < 0 ? -1 : call_start(m, op, c);
}

bool
model_calls_of(struct model *m, uint32_t op, int64_t row, struct model_calls *out)
{
	struct model_detail d;
	struct model_op o;
	uint32_t f;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->trace_index = -1;
	if (!model_has_call_tree(m) || !model_op_get(m, op, &o))
		return false;
	if (row < 0 || (uint64_t)row >= model_trace_count(m) ||
	    model_trace_op_flags(m, (uint64_t)row, &f) != op)
		row = first_row(m, op);
	if (row < 0 || model_trace_detail(m, (uint64_t)row, &d) != TD_OK)
		return false;
	out->trace_index = row;
	if (d.call_parent) {
		out->has_parent = true;
		call_set(m, &out->parent, d.call_parent, o.graph_id, (uint64_t)row);
	}
	if (d.ncall_children) {
		out->children = xcalloc(d.ncall_children, sizeof(*out->children));
		for (i = 0; i < d.ncall_children; i++)
			call_set(m, &out->children[i], d.call_children[i], o.graph_id, (uint64_t)row);
		out->nchildren = d.ncall_children;
	}
	model_detail_done(&d);
	return true;
}

void
model_calls_done(struct model_calls *c)
{
	size_t i;

	if (!c)
		return;
	if (c->has_parent)
		free(c->parent.op_name);
	for (i = 0; i < c->nchildren; i++)
		free(c->children[i].op_name);
	free(c->children);
	memset(c, 0, sizeof(*c));
	c->trace_index = -1;
}
