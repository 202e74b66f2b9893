/*
 * pane_graph.c - the Graph pane: the selected op with its inputs above and
 * its consumers below, each with its op type and linked trace row.
 *
 * Enter on an input jumps to the latest trace row that produced it before
 * the current one (the tutorial's step from Log:0 back to probs:0); on a
 * consumer, to the first row it produced after.  Links come from the model
 * (model_trace_inputs / model_trace_consumers); without a trace row (an op
 * chosen with :op) the op's own inputs and consumers are listed unlinked.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/fmt.h"

struct graph {
	struct model_link *in, *out;
	size_t nin, nout;
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
	free(g->in);
	free(g->out);
	g->in = g->out = NULL;
	g->nin = g->nout = 0;
	g->have_op = false;
	g->trace = -1;
}

/* Inputs and consumers of an op without a trace row: unlinked. */
static void
links_of_op(struct pane *p, struct graph *g)
{
	struct model_consumer cons[256];
	size_t n;

	g->in = xcalloc(g->op.ninputs ? g->op.ninputs : 1, sizeof *g->in);
	for (size_t i = 0; i < g->op.ninputs; i++) {
		struct model_op src;
		g->in[i].op = g->op.inputs[i].op;
		g->in[i].op_name = g->op.inputs[i].op_name;
		g->in[i].slot = g->op.inputs[i].slot;
		g->in[i].op_type = g->in[i].op >= 0 && model_op_get(p->tui->m, (uint32_t)g->in[i].op, &src)
				   ? src.type : "";
		g->in[i].trace_index = -1;
	}
	g->nin = g->op.ninputs;
	n = TD_MIN(model_op_consumers(p->tui->m, g->op.id, cons, 256), (size_t)256);
	g->out = xcalloc(n ? n : 1, sizeof *g->out);
	for (size_t i = 0; i < n; i++) {
		struct model_op c;
		if (!model_op_get(p->tui->m, cons[i].op, &c))
			continue;
		g->out[g->nout++] = (struct model_link){ cons[i].op, c.name, c.type, cons[i].input_slot, -1 };
	}
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
		g->nin = model_trace_inputs(t->m, (uint64_t)g->trace, &g->in);
		g->nout = model_trace_consumers(t->m, (uint64_t)g->trace, &g->out);
	} else {
		links_of_op(p, g);
	}
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

/* The link of a row, NULL for padding and the op itself. */
static const struct model_link *
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

static void
draw_link(struct pane *p, const struct model_link *l, bool input, size_t k, int y)
{
	bool narrow = p->r.w < GRAPH_NARROW;
	int x = narrow ? 1 : 4, w = p->r.w;
	char label[32];

	x += pane_print(p, y, x, STYLE_DIM, input ? "\xe2\x86\x91 " : "\xe2\x86\x93 ", 2);
	if (narrow) {
		snprintf(label, sizeof label, input ? "%zu" : "c", k);
		x += pane_print(p, y, x, STYLE_DIM, label, 3) + 1;
	} else {
		snprintf(label, sizeof label, input ? "input %zu" : "consumer", k);
		pane_print(p, y, x, STYLE_DIM, label, 10);
		x += 11;
	}
	char name[1024], rel[1024];
	const char *shown = l->op_name ? l->op_name : "?";
	if (relative_names(get(p)))
		shown = fmt_scope_relative(shown, get(p)->op.name, rel, sizeof rel);
	snprintf(name, sizeof name, input ? "%s:%u" : "%s", shown, l->slot);
	x += pane_print_tail(p, y, x, l->trace_index >= 0 ? STYLE_LINK : STYLE_DEFAULT, name,
			     narrow ? w - x - 1 : w / 2 - x);
	if (!input)
		x += pane_printf(p, y, x, STYLE_DIM, -1, " (input %u)", l->slot);
	x += 2;
	x += pane_print(p, y, x, STYLE_DEFAULT, l->op_type && *l->op_type ? l->op_type : "", 20) + 2;
	if (l->trace_index >= 0)
		pane_printf(p, y, x, STYLE_LINK, -1, "-> trace %lld", (long long)l->trace_index);
	else if (l->op < 0)
		pane_print(p, y, x, STYLE_DIM, "(not in the graph)", -1);
}

static void
graph_draw_row(struct pane *p, uint64_t row, int y)
{
	struct graph *g = get(p);
	bool input = false;
	const struct model_link *l = link_at(g, row, &input);

	if (l) {
		uint64_t k = row - (uint64_t)g->pad - (input ? 0 : g->nin + 1);
		draw_link(p, l, input, (size_t)k, y);
		return;
	}
	if (row < (uint64_t)g->pad)
		return;
	int x = 1 + pane_print(p, y, 1, STYLE_HEADER, "\xe2\x97\x8f ", 2);
	/* relative names: the op's scope is in the title, the row shows the rest */
	char name[1024];
	const char *shown = relative_names(g) ? g->op.name + fmt_scope_len(g->op.name) : g->op.name;
	snprintf(name, sizeof name, g->trace >= 0 ? "%s:%u" : "%s", shown, g->slot);
	x += pane_print_tail(p, y, x, STYLE_HEADER, name, p->r.w / 2);
	x += 2;
	x += pane_print(p, y, x, STYLE_DEFAULT, g->op.type, 24) + 2;
	if (g->op.graph_name && *g->op.graph_name)
		x += pane_printf(p, y, x, STYLE_DIM, -1, "graph %s  ", g->op.graph_name);
	if (g->trace >= 0)
		pane_printf(p, y, x, STYLE_DIM, -1, "trace %lld", (long long)g->trace);
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
	if (act != ACT_ENTER)
		return act;
	const struct model_link *l = link_at(g, p->cursor, &input);
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
		tui_message(t, false, "%s has no trace row %s this one", l->op_name,
			    input ? "before" : "after");
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
	const struct model_link *l = link_at(g, row, &input);

	if (l)
		return pane_match(re, l->op_name) || pane_match(re, l->op_type);
	return row == (uint64_t)g->pad + g->nin && pane_match(re, g->op.name);
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
			 g->nin, g->nout);
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
