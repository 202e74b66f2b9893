/*
 * pane_traces.c - the Graph executions pane: the trace table.
 *
 * One line per graph execution trace (index, op name, role when the pane is
 * wide, or the debug op when the dump has several per tensor, or the host
 * when it has several hosts, op type,
 * output slot, shape, summary in the dump's mode), NaN/Inf rows in the
 * alert colour.
 * Rows come from the model one screenful at a time, through the filter when
 * one is on, so millions of rows cost nothing until they are on screen.
 */
#include "tui_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tui/cmd/fmt.h"

struct cols {
	int idx, name, role, type, slot, shape, sum;  /* x positions, -1 hidden */
	int name_w, type_w, shape_w;
};

/* The role column: weight, gradient, activation in four letters. */
#define ROLE_W 5
static const char *
role_abbrev(enum model_role r)
{
	switch (r) {
	case ROLE_WEIGHT:     return "wgt";
	case ROLE_GRADIENT:   return "grad";
	case ROLE_ACTIVATION: return "act";
	default:              return "";
	}
}

/* The debug op column (dumps whose tensors have several debug ops' rows,
 * which otherwise look alike), or the host column (several hosts): in the
 * role column's place. */
#define DEBUG_W 7
static const char *
debug_abbrev(const char *op)
{
	if (!strcmp(op, "DebugIdentity"))
		return "ident";
	if (!strcmp(op, "DebugNumericSummary"))
		return "numsum";
	if (!strcmp(op, "DebugNanCount"))
		return "nancnt";
	return strncmp(op, "Debug", 5) ? op : op + 5;
}

/* What the rows on screen hold, in pane.priv (a bitmask, nothing to free):
 * op inputs (the slot column says in0/out0), debug ops (their column). */
enum { ROWS_IO = 1, ROWS_DEBUG = 2, ROWS_HOSTS = 4 };
#define ROWS_OF(p) ((unsigned)(uintptr_t)(p)->priv)

/* Column positions for width w: name gets what is left; shape and type go
 * first when the pane is narrow.  debug: the role column is the debug
 * op's, kept down to narrower widths (it tells rows apart). */
static struct cols
columns(int w, bool debug)
{
	struct cols c = { 0, 8, -1, -1, -1, -1, -1, 0, 14, 16 };
	int sum_w = 22, rw = debug ? DEBUG_W : ROLE_W;

	if (w >= 8 + (debug ? 16 : 31) + rw + 15 + 5 + 17 + sum_w) {     /* names keep 30 (15) */
		c.sum = w - sum_w;
		c.shape = c.sum - 17;
		c.slot = c.shape - 5;
		c.type = c.slot - 15;
		c.role = c.type - rw;
	} else if (debug && w >= 8 + 16 + rw + 15 + 5 + sum_w) {   /* the debug op before the shape */
		c.sum = w - sum_w;
		c.slot = c.sum - 5;
		c.type = c.slot - 15;
		c.role = c.type - rw;
	} else if (w >= 8 + 16 + 15 + 5 + 17 + sum_w) {
		c.sum = w - sum_w;
		c.shape = c.sum - 17;
		c.slot = c.shape - 5;
		c.type = c.slot - 15;
	} else if (w >= 8 + 16 + 15 + 5 + sum_w) {
		c.sum = w - sum_w;
		c.slot = c.sum - 5;
		c.type = c.slot - 15;
	} else if (w >= 8 + 16 + sum_w) {
		c.sum = w - sum_w;
	}
	int end = c.role >= 0 ? c.role : c.type >= 0 ? c.type : c.sum >= 0 ? c.sum : w;
	c.name_w = end - c.name - 1;
	return c;
}

static uint64_t
traces_count(struct pane *p)
{
	return tui_view_count(p->tui, TABLE_TRACES);
}

/* ROWS_IO when a row on screen is an op input (ROW_INPUT): the slot column
 * then says "in0" / "out0" on every row; ROWS_DEBUG when a row names its
 * debug op.  Set by the header, which is drawn before the rows; the rows it
 * decodes stay in the model's cache. */
static unsigned
screen_rows(struct pane *p)
{
	struct model_trace tr;
	uint64_t n = pane_count(p), h = (uint64_t)pane_height(p);
	unsigned f = 0;

	for (uint64_t v = p->top; v < p->top + h && v < n; v++) {
		int64_t row = tui_view_to_row(p->tui, TABLE_TRACES, v);
		if (row < 0 || model_trace_get(p->tui->m, (uint64_t)row, &tr) != TD_OK)
			continue;
		f |= (tr.flags & ROW_INPUT) ? ROWS_IO : 0;
		f |= tr.debug_op && *tr.debug_op ? ROWS_DEBUG : 0;
	}
	struct model_info in;
	model_info(p->tui->m, &in);
	if (in.nhosts > 1 && !(f & ROWS_DEBUG))
		f |= ROWS_HOSTS;        /* the host column, in the same place */
	return f;
}

static void
traces_header(struct pane *p, int y)
{
	struct cols c;
	/* the breakdown's legend when the rows on screen carry the six counts
	 * (full-health modes, per-tensor statistics), else a plain title */
	const uint32_t six = SUM_NEG_INF | SUM_NAN | SUM_POS_INF | SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE;
	struct model_trace tr;
	int64_t row = tui_view_to_row(p->tui, TABLE_TRACES, p->top);
	bool full = !tui_diff(p->tui) && row >= 0 && model_trace_get(p->tui->m, (uint64_t)row, &tr) == TD_OK &&
		    (tr.summary.known & six) == six;
	bool io;

	if (tui_diff(p->tui)) {
		pane_diff_header(p, y);
		return;
	}
	unsigned rows = screen_rows(p);
	p->priv = (void *)(uintptr_t)rows;
	io = rows & ROWS_IO;
	c = columns(p->r.w, rows & (ROWS_DEBUG | ROWS_HOSTS));
	pane_print(p, y, c.idx, STYLE_HEADER, "  Index", 7);
	pane_print(p, y, c.name, STYLE_HEADER, "Op name", c.name_w);
	if (c.role >= 0)
		pane_print(p, y, c.role, STYLE_HEADER, rows & ROWS_DEBUG ? "Debug" : rows & ROWS_HOSTS ? "Host" : "Role",
			   (rows & (ROWS_DEBUG | ROWS_HOSTS) ? DEBUG_W : ROLE_W) - 1);
	if (c.type >= 0)
		pane_print(p, y, c.type, STYLE_HEADER, "Op type", 14);
	if (c.slot >= 0)
		pane_print(p, y, c.slot, STYLE_HEADER, io ? " I/O" : "Slot", 4);
	if (c.shape >= 0)
		pane_print(p, y, c.shape, STYLE_HEADER, "Shape", 16);
	if (c.sum >= 0)
		pane_print(p, y, c.sum, STYLE_HEADER, full ? FMT_BREAKDOWN_HEADER : "Summary", -1);
}

static void
traces_draw_row(struct pane *p, uint64_t view, int y)
{
	bool debug = ROWS_OF(p) & ROWS_DEBUG, hosts = ROWS_OF(p) & ROWS_HOSTS;
	struct cols c = columns(p->r.w, debug || hosts);
	struct model_trace tr;
	int64_t row = tui_view_to_row(p->tui, TABLE_TRACES, view);
	char buf[96];
	enum style_slot s = STYLE_DEFAULT;

	if (tui_diff(p->tui)) {
		pane_diff_draw_row(p, view, y);
		return;
	}
	if (row < 0 || model_trace_get(p->tui->m, (uint64_t)row, &tr) != TD_OK)
		return;
	if (tr.flags & ROW_NONFINITE)
		s = STYLE_NONFINITE;
	else if (tr.flags & ROW_CORRUPT)
		s = STYLE_CORRUPT;
	pane_printf(p, y, c.idx, s, 7, "%7llu", (unsigned long long)tr.index);
	pane_print_tail(p, y, c.name, s, tr.op_name, c.name_w);
	if (c.role >= 0 && debug)
		pane_print(p, y, c.role, s, tr.debug_op ? debug_abbrev(tr.debug_op) : "", DEBUG_W - 1);
	else if (c.role >= 0 && hosts)
		pane_print_tail(p, y, c.role, s, tr.host ? tr.host : "", DEBUG_W - 1);
	else if (c.role >= 0)
		pane_print(p, y, c.role, s, role_abbrev(tr.role), ROLE_W - 1);
	if (c.type >= 0)
		pane_print(p, y, c.type, s, tr.op_type, c.type_w);
	if (c.slot >= 0 && (ROWS_OF(p) & ROWS_IO)) {    /* rows of inputs and outputs */
		snprintf(buf, sizeof buf, "%s%u", tr.flags & ROW_INPUT ? "in" : "out", tr.slot);
		pane_printf(p, y, c.slot - 1, s, 5, "%5s", buf);
	} else if (c.slot >= 0) {
		pane_printf(p, y, c.slot, s, 4, "%4u", tr.slot);
	}
	if (c.shape >= 0)
		pane_print(p, y, c.shape, s, fmt_shape(&tr.summary, buf, sizeof buf), c.shape_w);
	if (c.sum >= 0) {
		if (tr.flags & ROW_CORRUPT)
			pane_print(p, y, c.sum, s, "corrupt record", -1);
		else
			pane_print(p, y, c.sum, s, fmt_summary(&tr.summary, buf, sizeof buf), -1);
	}
}

static bool
traces_grep(struct pane *p, uint64_t view, const pcre2_code *re)
{
	struct model_trace tr;
	int64_t row = tui_view_to_row(p->tui, TABLE_TRACES, view);

	if (row < 0 || model_trace_get(p->tui->m, (uint64_t)row, &tr) != TD_OK)
		return false;
	return pane_match(re, tr.op_name) || pane_match(re, tr.op_type);
}

static bool
traces_find(struct pane *p, int dir, int64_t *view, uint64_t *total)
{
	struct tui *t = p->tui;
	int64_t from = pane_count(p) ? tui_view_to_row(t, TABLE_TRACES, p->cursor) : -1;
	bool ok, hidden;
	int64_t row;

	if (tui_diff(t))
		return false;           /* pairs: the generic search over op names */
	row = tui_search_rows(t, TABLE_TRACES, from, dir, &ok);
	*view = -1;
	*total = pane_count(p);
	if (!ok || row < 0)
		return ok;
	*view = (int64_t)tui_row_to_view(t, TABLE_TRACES, (uint64_t)row, &hidden);
	pane_goto(p, (uint64_t)*view, true, false);
	return true;
}

static void
traces_select(struct pane *p, uint64_t view)
{
	int64_t row = tui_view_to_row(p->tui, TABLE_TRACES, view);

	if (row >= 0)
		tui_select_trace(p->tui, (uint64_t)row);
}

static enum action
traces_request(struct pane *p, enum action act)
{
	if (act == ACT_ENTER) {
		if (pane_count(p) == 0)
			return ACT_NONE;
		if (tui_diff(p->tui)) {         /* both tensors side by side */
			tui_diff_show_pair(p->tui, p->cursor);
			return ACT_NONE;
		}
		tui_focus(p->tui, PANE_GRAPH);
		return ACT_NONE;
	}
	return act;
}

static void
traces_title(struct pane *p, char *buf, size_t size)
{
	if (tui_diff(p->tui))
		pane_diff_title(p, buf, size);
	else if (p->tui->filter)
		snprintf(buf, size, "filter: %s", model_filter_describe(p->tui->filter));
}

static const char *
traces_empty(struct pane *p)
{
	if (p->tui->filter)
		return "no trace matches the filter (:filter off clears it)";
	if (!p->tui->progress.done)
		return "indexing...";
	return "no graph execution traces in this dump";
}

const struct pane_ops pane_traces_ops = {
	.row_count = traces_count,
	.draw_row = traces_draw_row,
	.grep = traces_grep,
	.find = traces_find,
	.request = traces_request,
	.select = traces_select,
	.header = traces_header,
	.title_extra = traces_title,
	.empty = traces_empty,
};
