/*
 * model_tree.c - recursive input and consumer trees (the `li -r -d N`
 * and `lo -r` of the older debugger CLI), and the health of a trace row.
 *
 * One level is model_trace_inputs / model_trace_consumers (data edges, the
 * rows linked by time order, see model_links.c) plus the op's control
 * edges, whose rows are the control op's latest row before / first row
 * after.  A node without a trace row of its own is expanded from its
 * parent's row (its bound), so a chain through un-dumped ops still finds
 * the rows beyond.  Not for drawing: the graph pane and the inputs /
 * consumers commands lay the nodes out.
 */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

const char *
model_health_name(enum model_health h)
{
	return h == HEALTH_FINITE ? "finite" : h == HEALTH_NONFINITE ? "nonfinite" : "unknown";
}

enum model_health
model_trace_health(struct model *m, int64_t r)
{
	struct model_trace t;

	if (r < 0 || model_trace_get(m, (uint64_t)r, &t) != TD_OK || (t.flags & ROW_CORRUPT))
		return HEALTH_UNKNOWN;
	if ((t.flags & ROW_NONFINITE) || td_summary_nonfinite(&t.summary))
		return HEALTH_NONFINITE;
	return origins_summary_finite(&t.summary) ? HEALTH_FINITE : HEALTH_UNKNOWN;
}

/* Row of op (any output) before `before` (dir < 0) or after `after`
 * (dir > 0; from < 0: from the first row on); -1 none. */
static int64_t
row_near(struct model *m, uint32_t op, int64_t from, int dir)
{
	uint64_t n = model_trace_count(m);
	uint32_t f;

	if (dir < 0)
		return model_trace_of_op(m, op, UINT32_MAX, from < 0 ? n : (uint64_t)from, -1);
	if (from < 0) {
		if (n && model_trace_op_flags(m, 0, &f) == op && !(f & (ROW_INPUT | ROW_REPEAT)))
			return 0;
		from = 0;
	}
	return model_trace_of_op(m, op, UINT32_MAX, (uint64_t)from, 1);
}

static void
node_set(struct model *m, struct model_tree_node *x, int64_t op, const char *name, uint32_t slot,
	 bool control, int64_t trace, int64_t bound)
{
	struct model_op o;

	memset(x, 0, sizeof(*x));
	x->depth = 1;
	x->parent = -1;
	x->op = op;
	x->op_name = name ? name : "";
	x->op_type = op >= 0 && model_op_get(m, (uint32_t)op, &o) ? o.type : "";
	x->slot = slot;
	x->control = control;
	x->trace_index = trace;
	x->bound = bound;
	/* the flag byte only: no decode while the graph pane follows the cursor */
	x->health = HEALTH_UNKNOWN;
	if (trace >= 0 && (uint64_t)trace < model_trace_count(m)) {
		uint32_t f;

		model_trace_op_flags(m, (uint64_t)trace, &f);
		if (f & ROW_NONFINITE)
			x->health = HEALTH_NONFINITE;
	}
}

/* Data links from a trace row (the model's own linking). */
static size_t
data_from_row(struct model *m, uint64_t row, enum model_tree_dir dir, struct model_tree_node **v)
{
	struct model_link *l = NULL;
	size_t n, k;

	n = dir == TREE_INPUTS ? model_trace_inputs(m, row, &l) : model_trace_consumers(m, row, &l);
	*v = xcalloc(n ? n : 1, sizeof(**v));
	for (k = 0; k < n; k++)
		node_set(m, &(*v)[k], l[k].op, l[k].op_name, l[k].slot, false, l[k].trace_index,
			 (int64_t)row);
	free(l);
	return n;
}

/* Data links of an op without a row of its own, searched from bound. */
static size_t
data_from_op(struct model *m, uint32_t op, int64_t bound, enum model_tree_dir dir,
	     struct model_tree_node **v)
{
	struct model_consumer *c;
	struct model_op o;
	size_t n, k;

	if (dir == TREE_INPUTS) {
		if (!model_op_get(m, op, &o) || !o.ninputs)
			return 0;
		*v = xcalloc(o.ninputs, sizeof(**v));
		for (k = 0; k < o.ninputs; k++) {
			int64_t r = -1;

			if (o.inputs[k].op >= 0)
				r = model_trace_of_op(m, (uint32_t)o.inputs[k].op, o.inputs[k].slot,
						      bound < 0 ? model_trace_count(m) : (uint64_t)bound, -1);
			node_set(m, &(*v)[k], o.inputs[k].op, o.inputs[k].op_name, o.inputs[k].slot, false,
				 r, bound);
		}
		return o.ninputs;
	}
	n = model_op_consumers(m, op, NULL, 0);
	if (!n)
		return 0;
	c = xcalloc(n, sizeof(*c));
	n = TD_MIN(n, model_op_consumers(m, op, c, n));
	*v = xcalloc(n, sizeof(**v));
	for (k = 0; k < n; k++) {
		model_op_get(m, c[k].op, &o);
		node_set(m, &(*v)[k], c[k].op, o.name, c[k].input_slot, false,
			 row_near(m, c[k].op, bound, 1), bound);
	}
	free(c);
	return n;
}

/* Appends the control edges of op to v (n entries so far). */
static size_t
add_controls(struct model *m, uint32_t op, int64_t from, enum model_tree_dir dir,
	     struct model_tree_node **v, size_t n)
{
	struct model_consumer *c;
	struct model_op o;
	size_t k, nc;

	if (dir == TREE_INPUTS) {
		if (!model_op_get(m, op, &o) || !o.ncontrol_inputs)
			return n;
		*v = xrealloc(*v, (n + o.ncontrol_inputs) * sizeof(**v));
		for (k = 0; k < o.ncontrol_inputs; k++) {
			const struct model_tensor_ref *r = &o.control_inputs[k];

			node_set(m, &(*v)[n++], r->op, r->op_name, 0, true,
				 r->op >= 0 ? row_near(m, (uint32_t)r->op, from, -1) : -1, from);
		}
		return n;
	}
	nc = model_op_control_consumers(m, op, NULL, 0);
	if (!nc)
		return n;
	c = xcalloc(nc, sizeof(*c));
	nc = TD_MIN(nc, model_op_control_consumers(m, op, c, nc));
	*v = xrealloc(*v, (n + nc) * sizeof(**v));
	for (k = 0; k < nc; k++) {
		model_op_get(m, c[k].op, &o);
		node_set(m, &(*v)[n++], c[k].op, o.name, c[k].input_slot, true,
			 row_near(m, c[k].op, from, 1), from);
	}
	free(c);
	return n;
}

size_t
model_tree_children(struct model *m, uint32_t op, int64_t row, int64_t bound,
		    enum model_tree_dir dir, struct model_tree_node **out)
{
	struct model_tree_node *v = NULL;
	bool input_row = false;
	size_t n;

	*out = NULL;
	if (row >= 0 && (uint64_t)row < model_trace_count(m)) {
		uint32_t f;

		model_trace_op_flags(m, (uint64_t)row, &f);
		input_row = f & ROW_INPUT;
		n = data_from_row(m, (uint64_t)row, dir, &v);
		bound = row;
	} else {
		n = data_from_op(m, op, bound, dir, &v);
	}
	if (!input_row)
		n = add_controls(m, op, bound, dir, &v, n);
	if (!n) {
		free(v);
		v = NULL;
	}
	*out = v;
	return n;
}

struct tree_walk {
	struct model *m;
	enum model_tree_dir dir;
	unsigned depth;
	struct model_tree_node *v;
	size_t n, cap;
	bool *seen;                 /* per op id: expanded already */
	uint32_t nops;
	bool truncated;
};

static void
walk(struct tree_walk *w, uint32_t op, int64_t row, int64_t bound, int64_t parent, unsigned depth)
{
	struct model_tree_node *kids;
	size_t nk, k;

	nk = model_tree_children(w->m, op, row, bound, w->dir, &kids);
	for (k = 0; k < nk; k++) {
		struct model_tree_node *x;
		int64_t at;

		if (w->n >= MODEL_TREE_MAX) {
			w->truncated = true;
			break;
		}
		TD_GROW(w->v, w->cap, w->n + 1);
		at = (int64_t)w->n;
		x = &w->v[w->n++];
		*x = kids[k];
		x->depth = depth;
		x->parent = parent;
		if (x->health == HEALTH_UNKNOWN)
			x->health = model_trace_health(w->m, x->trace_index);
		if (x->op < 0 || depth >= w->depth)
			continue;
		if ((uint32_t)x->op < w->nops && w->seen[x->op]) {
			x->repeat = true;
			continue;
		}
		if ((uint32_t)x->op < w->nops)
			w->seen[x->op] = true;
		walk(w, (uint32_t)x->op, x->trace_index, x->bound, at, depth + 1);
	}
	free(kids);
}

size_t
model_tree(struct model *m, uint32_t op, int64_t row, enum model_tree_dir dir, unsigned depth,
	   struct model_tree_node **out, bool *truncated)
{
	struct tree_walk w = { .m = m, .dir = dir, .depth = depth ? depth : 1 };

	w.nops = model_op_count(m);
	w.seen = xcalloc(w.nops + 1, sizeof(*w.seen));
	if (op < w.nops)
		w.seen[op] = true;
	walk(&w, op, row, -1, -1, 1);
	free(w.seen);
	*truncated = w.truncated;
	*out = w.v;
	return w.n;
}
