/*
 * pane_graph.c - the Graph pane: the selected op with its inputs above and
 * its consumers below, each with its op type and linked trace row.
 *
 * Enter on an input jumps to the latest trace row that produced it before
 * the current one (the tutorial's step from Log:0 back to probs:0); on a
 * consumer, to the first row it produced after.  x expands an input (its
 * own inputs) or a consumer (its consumers) in place, as a tree listing
 * of inputs / consumers does: the depth shown, control edges marked, each node
 * with its row and a NaN/Inf mark.  Links come from the model
 * (model_tree_children: model_trace_inputs / model_trace_consumers plus
 * control edges); without a trace row (an op chosen with :op) the rows are
 * the latest / first of each op.
 *
 * Where the dump records a module tree (model_calls_of), the module
 * enclosing the op heads the inputs ("module") and the calls inside it end
 * the consumers ("submodule"), each linked to its call's first row in the
 * step: Enter jumps there as on any link.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/cmd.h"
#include "tui/cmd/fmt.h"

/* A listed input or consumer; depth 1 are the op's own. */
struct gnode {
	struct model_tree_node n;
	bool expanded;
	bool module;                /* a module-tree row: the enclosing module (inputs
				     * side) or a call inside the op (consumers side) */
	char *name;                 /* module rows: n.op_name's storage (owned) */
};

/* Nodes a side may hold (expansions stop there). */
#define GRAPH_NODES_MAX 4000

struct graph {
	struct gnode *in, *out;     /* pre-order: a node, then its expanded subtree */
	size_t nin, nout, capin, capout;
	bool have_op;
	struct model_op op;
	int64_t trace;              /* trace row shown, -1 none */
	uint32_t slot;
	int pad;                    /* blank rows above, to centre the op */
	bool full_names;            /* z: deep scoped names in full (else relative) */
};

/* Names are shown relative to the op's scope when that scope is deep
 * ("Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/"):
 * three components or more; shallow names ("cross_entropy/mul") stay whole. */
#define DEEP_SCOPE 3

static bool
relative_names(const struct graph *g)
{
	size_t depth = 0, len = fmt_scope_len(g->op.name);

	if (g->full_names)
		return false;
	for (size_t i = 0; i < len; i++)
		depth += g->op.name[i] == '/';
	return depth >= DEEP_SCOPE;
}

static struct graph *
get(struct pane *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct graph));
	return p->priv;
}

static void
graph_clear(struct graph *g)
{
	for (size_t i = 0; i < g->nin; i++)
		free(g->in[i].name);
	for (size_t i = 0; i < g->nout; i++)
		free(g->out[i].name);
	free(g->in);
	free(g->out);
	g->in = g->out = NULL;
	g->nin = g->nout = g->capin = g->capout = 0;
	g->have_op = false;
	g->trace = -1;
}

/* Inserts the children of side[at] (or of the op itself when at < 0) after
 * it, one level deeper. */
static void
side_expand(struct pane *p, struct graph *g, bool input, int64_t at)
{
	struct gnode **v = input ? &g->in : &g->out;
	size_t *n = input ? &g->nin : &g->nout, *cap = input ? &g->capin : &g->capout;
	struct model_tree_node *kids;
	uint32_t op = g->op.id, depth = 1;
	int64_t row = g->trace, bound = -1;
	size_t nk, k, pos = 0;

	if (at >= 0) {
		const struct model_tree_node *x = &(*v)[at].n;

		if (x->op < 0)
			return;
		op = (uint32_t)x->op;
		row = x->trace_index;
		bound = x->bound;
		depth = x->depth + 1;
		pos = (size_t)at + 1;
		(*v)[at].expanded = true;
	}
	nk = model_tree_children(p->tui->m, op, row, bound, input ? TREE_INPUTS : TREE_CONSUMERS, &kids);
	nk = TD_MIN(nk, GRAPH_NODES_MAX > *n ? GRAPH_NODES_MAX - *n : 0);
	TD_GROW(*v, *cap, *n + nk + 1);
	memmove(*v + pos + nk, *v + pos, (*n - pos) * sizeof(**v));
	for (k = 0; k < nk; k++) {
		(*v)[pos + k].n = kids[k];
		(*v)[pos + k].n.depth = depth;
		(*v)[pos + k].expanded = false;
		(*v)[pos + k].module = false;
		(*v)[pos + k].name = NULL;
	}
	*n += nk;
	free(kids);
}

/* Removes the subtree under side[at]. */
static void
side_fold(struct graph *g, bool input, size_t at)
{
	struct gnode *v = input ? g->in : g->out;
	size_t *n = input ? &g->nin : &g->nout, end = at + 1;

	while (end < *n && v[end].n.depth > v[at].n.depth)
		end++;
	memmove(v + at + 1, v + end, (*n - end) * sizeof(*v));
	*n -= end - at - 1;
	v[at].expanded = false;
}

/* A module-tree row for call c, at side[pos]. */
static void
module_insert(struct graph *g, bool input, size_t pos, const struct model_call *c)
{
	struct gnode **v = input ? &g->in : &g->out;
	size_t *n = input ? &g->nin : &g->nout, *cap = input ? &g->capin : &g->capout;
	struct gnode *x;

	TD_GROW(*v, *cap, *n + 1);
	memmove(*v + pos + 1, *v + pos, (*n - pos) * sizeof(**v));
	(*n)++;
	x = &(*v)[pos];
	memset(x, 0, sizeof(*x));
	x->module = true;
	x->name = xstrdup(c->op_name);
	x->n.depth = 1;
	x->n.parent = -1;
	x->n.op = c->op;
	x->n.op_name = x->name;
	x->n.op_type = c->op_type;
	x->n.trace_index = c->trace_index;
	x->n.bound = -1;
	x->n.health = c->nonfinite ? HEALTH_NONFINITE : HEALTH_UNKNOWN;
}

/* The module enclosing the op first among the inputs, the calls inside it
 * last among the consumers. */
static void
modules_add(struct pane *p, struct graph *g)
{
	struct model_calls c;

	if (!model_calls_of(p->tui->m, g->op.id, g->trace, &c))
		return;
	if (c.has_parent)
		module_insert(g, true, 0, &c.parent);
	for (size_t i = 0; i < c.nchildren && g->nout < GRAPH_NODES_MAX; i++)
		module_insert(g, false, g->nout, &c.children[i]);
	model_calls_done(&c);
}

static void
graph_open(struct pane *p)
{
	struct graph *g = get(p);
	struct tui *t = p->tui;
	struct model_trace tr;

	graph_clear(g);
	if (t->sel_op < 0 || !model_op_get(t->m, (uint32_t)t->sel_op, &g->op))
		return;
	g->have_op = true;
	if (t->sel_trace >= 0 && model_trace_get(t->m, (uint64_t)t->sel_trace, &tr) == TD_OK &&
	    tr.op == g->op.id) {
		g->trace = t->sel_trace;
		g->slot = tr.slot;
	}
	side_expand(p, g, true, -1);
	side_expand(p, g, false, -1);
	modules_add(p, g);
	int half = pane_height(p) / 2;
	g->pad = half > (int)g->nin ? half - (int)g->nin : 0;
	p->top = 0;
	p->cursor = (uint64_t)g->pad + g->nin;
	pane_clamp(p);
}

static uint64_t
graph_count(struct pane *p)
{
	struct graph *g = get(p);
	return g->have_op ? (uint64_t)g->pad + g->nin + 1 + g->nout : 0;
}

/* The node of a row, NULL for padding and the op itself. */
static struct gnode *
link_at(struct graph *g, uint64_t row, bool *input)
{
	if (row < (uint64_t)g->pad)
		return NULL;
	row -= (uint64_t)g->pad;
	*input = row < g->nin;
	if (row < g->nin)
		return &g->in[row];
	if (row == g->nin)
		return NULL;
	row -= g->nin + 1;
	return row < g->nout ? &g->out[row] : NULL;
}

/* Narrower than this, a link row drops its label ("input 0") for the
 * arrow and number, so the name keeps the room. */
#define GRAPH_NARROW 60

/* The label column: "input 0" / "consumer" for the op's own, "control"
 * for a control edge, the depth indented below. */
static void
link_label(const struct model_tree_node *l, bool input, bool module, size_t k, bool narrow,
	   char *buf, size_t size)
{
	int indent = 2 * (int)(l->depth - 1);

	if (module)
		snprintf(buf, size, narrow ? "m" : input ? "module" : "submodule");
	else if (narrow)
		snprintf(buf, size, l->depth > 1 || input ? "%u" : "c",
			 l->depth > 1 ? l->depth : (unsigned)k);
	else if (l->depth > 1)
		snprintf(buf, size, "%*s(%u)%s", indent, "", l->depth, l->control ? " ctl" : "");
	else if (l->control)
		snprintf(buf, size, "control");
	else
		snprintf(buf, size, input ? "input %zu" : "consumer", k);
}

static void
draw_link(struct pane *p, const struct gnode *gn, bool input, size_t k, int y)
{
	const struct model_tree_node *l = &gn->n;
	bool narrow = p->r.w < GRAPH_NARROW;
	int x = narrow ? 1 : 4, w = p->r.w, lw = 10 + 2 * (int)(l->depth - 1);
	char label[64];

	if (!narrow && l->op >= 0 && !l->repeat && !gn->module)
		pane_print(p, y, 2, STYLE_DIM, gn->expanded ? "-" : "+", 1);
	x += pane_print(p, y, x, STYLE_DIM, input ? "\xe2\x86\x91 " : "\xe2\x86\x93 ", 2);
	link_label(l, input, gn->module, k, narrow, label, sizeof label);
	if (narrow) {
		x += pane_print(p, y, x, STYLE_DIM, label, 3) + 1;
	} else {
		pane_print(p, y, x, STYLE_DIM, label, lw);
		x += lw + 1;
	}
	char name[1024], rel[1024];
	const char *shown = l->op_name ? l->op_name : "?";
	if (relative_names(get(p)))
		shown = fmt_scope_relative(shown, get(p)->op.name, rel, sizeof rel);
	snprintf(name, sizeof name, input && !l->control && !gn->module ? "%s:%u" : "%s", shown,
		 l->slot);
	x += pane_print_tail(p, y, x, l->trace_index >= 0 ? STYLE_LINK : STYLE_DEFAULT, name,
			     narrow ? w - x - 1 : w / 2 - x);
	if (!input && !l->control && !gn->module)
		x += pane_printf(p, y, x, STYLE_DIM, -1, " (input %u)", l->slot);
	else if (l->control && narrow)
		x += pane_print(p, y, x, STYLE_DIM, " ctl", -1);
	x += 2;
	x += pane_print(p, y, x, STYLE_DEFAULT, l->op_type && *l->op_type ? l->op_type : "", 20) + 2;
	if (l->trace_index >= 0)
		x += pane_printf(p, y, x, STYLE_LINK, -1, "-> trace %lld", (long long)l->trace_index);
	else if (l->op < 0)
		x += pane_print(p, y, x, STYLE_DIM, gn->module ? "(no entry of the dump)" :
			       "(not in the graph)", -1);
	if (l->health == HEALTH_NONFINITE)
		x += pane_print(p, y, x + 1, STYLE_NONFINITE, "NaN/Inf", -1) + 1;
	if (l->repeat)
		pane_print(p, y, x + 1, STYLE_DIM, "(above)", -1);
}

static void
graph_draw_row(struct pane *p, uint64_t row, int y)
{
	struct graph *g = get(p);
	bool input = false;
	const struct gnode *l = link_at(g, row, &input);

	if (l) {
		const struct gnode *side = input ? g->in : g->out;
		size_t k = 0;

		for (const struct gnode *q = side; q < l; q++)     /* its number among the op's own */
			k += q->n.depth == 1 && !q->n.control && !q->module;
		draw_link(p, l, input, k, y);
		return;
	}
	if (row < (uint64_t)g->pad)
		return;
	int x = 1 + pane_print(p, y, 1, STYLE_HEADER, "\xe2\x97\x8f ", 2);
	/* relative names: the op's scope is in the title, the row shows the rest */
	char name[1024];
	const char *shown = relative_names(g) ? g->op.name + fmt_scope_len(g->op.name) : g->op.name;
	snprintf(name, sizeof name, g->trace >= 0 ? "%s:%u" : "%s", shown, g->slot);
	/* the name may take all but the room type, graph and trace need (the
	 * pane shares its row with the Timeline on large terminals) */
	x += pane_print_tail(p, y, x, STYLE_HEADER, name, TD_MAX(p->r.w / 2, p->r.w - 44));
	x += 2;
	x += pane_print(p, y, x, STYLE_DEFAULT, g->op.type, 24) + 2;
	/* the trace row before the graph's name, which can be long (a run's
	 * device path) and is then the part cut */
	if (g->trace >= 0)
		x += pane_printf(p, y, x, STYLE_DIM, -1, "trace %lld  ", (long long)g->trace);
	if (g->op.graph_name && *g->op.graph_name)
		pane_printf(p, y, x, STYLE_DIM, -1, "graph %s", g->op.graph_name);
}

/* i: the details of the selected op (an input, a consumer, or the op
 * itself) in the output pane. */
static void
graph_op_info(struct pane *p, struct graph *g)
{
	struct tui *t = p->tui;
	bool input = false;
	const struct gnode *gn = link_at(g, p->cursor, &input);
	int64_t op = gn ? gn->n.op : (int64_t)g->op.id;
	struct strbuf out = { 0 }, err = { 0 };
	struct cmd_env env = { .m = t->m, .out = &out, .err = &err };

	if (op < 0) {
		tui_message(t, true, "%s is not an op of this dump's graphs", gn->n.op_name);
		return;
	}
	if (cmd_describe_op(&env, (uint32_t)op)) {
		if (t->output.n)
			tui_text_append(&t->output, " ");
		t->output.mark = t->output.n;
		tui_text_append(&t->output, "# op details");
		tui_text_append(&t->output, out.buf ? out.buf : "");
		if (!t->output.title)
			t->output.title = xstrdup("Command output");
		tui_open_overlay(t, OVERLAY_OUTPUT);
	}
	strbuf_done(&out);
	strbuf_done(&err);
}

/* x: expands the selected input / consumer one level, or folds it. */
static void
graph_expand(struct pane *p, struct graph *g)
{
	struct tui *t = p->tui;
	bool input = false;
	struct gnode *gn = link_at(g, p->cursor, &input);
	size_t at, before;

	if (!gn) {
		tui_message(t, false, "x expands an input or a consumer (its own inputs / consumers)");
		return;
	}
	if (gn->module) {
		tui_message(t, false, "x expands data links; Enter jumps to the module call's row");
		return;
	}
	at = (size_t)(gn - (input ? g->in : g->out));
	if (gn->expanded) {
		side_fold(g, input, at);
	} else if (gn->n.op < 0) {
		tui_message(t, true, "%s is not an op of this dump's graphs", gn->n.op_name);
		return;
	} else {
		before = input ? g->nin : g->nout;
		side_expand(p, g, input, (int64_t)at);
		if ((input ? g->nin : g->nout) == before)
			tui_message(t, false, "%s has no %s", gn->n.op_name, input ? "inputs" : "consumers");
	}
	/* inputs grow above the op: keep the cursor on the same node */
	if (input)
		p->cursor = (uint64_t)g->pad + at;
	pane_clamp(p);
}

static enum action
graph_request(struct pane *p, enum action act)
{
	struct graph *g = get(p);
	struct tui *t = p->tui;
	bool input = false;

	if (act == ACT_MOVE_UP && p->cursor <= (uint64_t)g->pad)
		return ACT_NONE;
	if (act == ACT_TOGGLE_SCOPES) {
		g->full_names = !g->full_names;
		tui_message(t, false, g->full_names ? "graph: full op names (z: relative to a deep scope)"
				      : "graph: names relative to the op's scope when it is deep (z: full names)");
		return ACT_NONE;
	}
	if (act == ACT_MOVE_FIRST) {
		pane_goto(p, (uint64_t)g->pad, false, false);
		return ACT_NONE;
	}
	if (act == ACT_EXPAND) {
		graph_expand(p, g);
		return ACT_NONE;
	}
	if (act == ACT_OP_INFO) {
		if (g->have_op)
			graph_op_info(p, g);
		return ACT_NONE;
	}
	if (act != ACT_ENTER)
		return act;
	const struct gnode *gn = link_at(g, p->cursor, &input);
	const struct model_tree_node *l = gn ? &gn->n : NULL;
	if (!l) {                   /* the op itself: back to its trace row */
		if (g->trace >= 0) {
			tui_jump_trace(t, (uint64_t)g->trace, false);
			tui_focus(t, PANE_TRACES);
		}
		return ACT_NONE;
	}
	if (l->trace_index >= 0) {
		tui_jump_trace(t, (uint64_t)l->trace_index, true);
		tui_focus(t, PANE_TRACES);
	} else if (l->op >= 0) {
		tui_history_push(t);
		tui_select_op(t, (uint32_t)l->op);
		if (gn->module)
			tui_message(t, false, "%s has no row in this step", l->op_name);
		else
			tui_message(t, false, "%s has no trace row %s this one", l->op_name,
				    input ? "before" : "after");
	} else if (gn->module) {
		tui_message(t, true, "%s is no entry of this dump", l->op_name);
	} else {
		tui_message(t, true, "%s is not an op of this dump's graphs", l->op_name);
	}
	return ACT_NONE;
}

static bool
graph_grep(struct pane *p, uint64_t row, const pcre2_code *re)
{
	struct graph *g = get(p);
	bool input;
	const struct gnode *l = link_at(g, row, &input);

	if (l)
		return pane_match(re, l->n.op_name) || pane_match(re, l->n.op_type);
	return row == (uint64_t)g->pad + g->nin && pane_match(re, g->op.name);
}

/* The op's own inputs / consumers (depth 1), not the expanded ones. */
static size_t
own_count(const struct gnode *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += v[i].n.depth == 1 && !v[i].module;
	return k;
}

static void
graph_title(struct pane *p, char *buf, size_t size)
{
	struct graph *g = get(p);

	char name[512];

	if (!g->have_op)
		return;
	if (p->r.w < GRAPH_NARROW)      /* the end of the name says the most */
		snprintf(buf, size, "%s", pane_tail(g->op.name, p->r.w - 12, name, sizeof name));
	else
		snprintf(buf, size, "%s (%s) %zu inputs, %zu consumers", g->op.name, g->op.type,
			 own_count(g->in, g->nin), own_count(g->out, g->nout));
}

static const char *
graph_empty(struct pane *p)
{
	if (!p->tui->progress.done)
		return "indexing...";
	if (model_op_count(p->tui->m) == 0)
		return "no graph in this dump";
	return "select a trace row to see its op, inputs and consumers";
}

static void
graph_done(struct pane *p)
{
	if (p->priv)
		graph_clear(p->priv);
	free(p->priv);
}

/* A click on a link (an input or consumer) follows it, as Enter does; on
 * another line it only moves the cursor there. */
static void
graph_click(struct pane *p, uint64_t row, int x)
{
	bool input;

	(void)x;
	if (row >= pane_count(p))
		return;
	pane_goto(p, row, false, false);
	if (link_at(get(p), row, &input))
		graph_request(p, ACT_ENTER);
}

const struct pane_ops pane_graph_ops = {
	.flags = PANE_NO_POSITION,
	.open = graph_open,
	.row_count = graph_count,
	.draw_row = graph_draw_row,
	.grep = graph_grep,
	.request = graph_request,
	.done = graph_done,
	.title_extra = graph_title,
	.empty = graph_empty,
	.click = graph_click,
};
