/*
 * pane_traces.c - the Graph executions pane: the trace table.
 *
 * One line per graph execution trace (index, op name, role when the pane is
 * wide, or the debug op when the dump has several per tensor, or the host
 * when it has several hosts, op type, output slot, the optional time,
 * dtype and size columns (:columns), shape, summary in the dump's mode),
 * NaN/Inf rows in the alert colour; after the index a mark's letter, or a
 * bar on the rows of the execution in step with the timeline; before it
 * '>' on a marked origin path.  s / S sort the table (trace_sort.c).
 * Rows come from the model one screenful at a time, through the filter when
 * one is on, so millions of rows cost nothing until they are on screen.
 */
#include "tui_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tui/cmd/fmt.h"
#include "tui/cmd/summary.h"
#include "tui/cmd/sanitize.h"
#include "tui/cmd/rowsort.h"

struct cols {
	int idx, name, role, type, slot, shape, sum;  /* x positions, -1 hidden */
	int time, dtype, size;      /* optional columns (:columns), -1 hidden */
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

/* Column positions for width w and the optional columns opt (ROWCOL_*),
 * placed from the right: the summary, the optional ones while the name,
 * type and slot (and the debug op column, debug) keep their room, slot
 * and type, the role when names keep 30 (the debug op when they keep 16:
 * it tells rows apart); the name gets what is left. */
static struct cols
columns(int w, unsigned opt, bool debug)
{
	struct cols c = { 0, 8, -1, -1, -1, -1, -1, -1, -1, -1, 0, 14, 16 };
	const int sum_w = 22, keep = 8 + 16 + 15 + 5 + (debug ? DEBUG_W : 0);
	int x = w;

	if (w >= 8 + 16 + sum_w) {
		x = c.sum = w - sum_w;
#define PLACE(field, width, bit) \
		if ((opt & (bit)) && x - (width) >= keep) { \
			x -= (width); \
			c.field = x; \
		}
		PLACE(shape, 17, ROWCOL_SHAPE)
		PLACE(size, 11, ROWCOL_SIZE)
		PLACE(dtype, 9, ROWCOL_DTYPE)
		PLACE(time, 13, ROWCOL_TIME)
#undef PLACE
		if (x - 5 - 15 >= 8 + 16) {
			c.slot = x - 5;
			c.type = x = c.slot - 15;
		}
		if (c.type >= 0 && debug && x - DEBUG_W >= 8 + 16)
			c.role = x -= DEBUG_W;
		else if (c.type >= 0 && !debug && x - ROLE_W >= 8 + 31)
			c.role = x -= ROLE_W;
	}
	c.name_w = x - c.name - 1;
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
	const uint32_t six = summary_bits(SF_BREAKDOWN);   /* the breakdown column's counts */
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
	c = columns(p->r.w, p->tui->trace_cols, rows & (ROWS_DEBUG | ROWS_HOSTS));
	pane_print(p, y, c.idx, STYLE_HEADER, "  Index", 7);
	pane_print(p, y, c.name, STYLE_HEADER, "Op name", c.name_w);
	if (c.role >= 0)
		pane_print(p, y, c.role, STYLE_HEADER, rows & ROWS_DEBUG ? "Debug" : rows & ROWS_HOSTS ? "Host" : "Role",
			   (rows & (ROWS_DEBUG | ROWS_HOSTS) ? DEBUG_W : ROLE_W) - 1);
	if (c.type >= 0)
		pane_print(p, y, c.type, STYLE_HEADER, "Op type", 14);
	if (c.slot >= 0)
		pane_print(p, y, c.slot, STYLE_HEADER, io ? " I/O" : "Slot", 4);
	if (c.time >= 0)
		pane_print(p, y, c.time, STYLE_HEADER, "    Time (s)", 12);
	if (c.dtype >= 0)
		pane_print(p, y, c.dtype, STYLE_HEADER, "Dtype", 8);
	if (c.size >= 0)
		pane_print(p, y, c.size, STYLE_HEADER, "      Size", 10);
	if (c.shape >= 0)
		pane_print(p, y, c.shape, STYLE_HEADER, "Shape", 16);
	if (c.sum >= 0)
		pane_print(p, y, c.sum, STYLE_HEADER, full ? FMT_BREAKDOWN_HEADER : "Summary", -1);
}

/* Wall time of the first trace row: the time column counts from it. */
static double
time_base(struct tui *t)
{
	struct model_trace tr;

	return model_trace_get(t->m, 0, &tr) == TD_OK ? tr.wall_time : 0;
}

static void
draw_optional(struct pane *p, const struct cols *c, const struct model_trace *tr, int y,
	      enum style_slot s)
{
	const struct td_summary *sum = &tr->summary;

	if (c->time >= 0 && tr->wall_time > 0)
		pane_printf(p, y, c->time, s, 12, "%12.6f", tr->wall_time - time_base(p->tui));
	else if (c->time >= 0)
		pane_print(p, y, c->time, s, "           -", 12);
	if (c->dtype >= 0)
		pane_print(p, y, c->dtype, s, sum->known & SUM_DTYPE ? td_dtype_name(sum->dtype) : "-", 8);
	if (c->size >= 0 && (sum->known & SUM_ELEMENTS))
		pane_printf(p, y, c->size, s, 10, "%10lld", (long long)sum->elements);
	else if (c->size >= 0)
		pane_print(p, y, c->size, s, "         -", 10);
}

static void
traces_draw_row(struct pane *p, uint64_t view, int y)
{
	bool debug = ROWS_OF(p) & ROWS_DEBUG, hosts = ROWS_OF(p) & ROWS_HOSTS;
	struct cols c = columns(p->r.w, p->tui->trace_cols, debug || hosts);
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
	char path = tui_origins_mark(p->tui, tr.index), mark = tui_mark_of_trace(p->tui, tr.index);
	if (path && tr.index < 1000000)         /* the index leaves column 0 free */
		pane_printf(p, y, c.idx, STYLE_ALERT, 1, "%c", path);
	if (mark)                               /* a mark's letter (m) */
		pane_printf(p, y, c.idx + 7, STYLE_LINK, 1, "%c", mark);
	else if (tui_trace_in_step(p->tui, &tr)) /* a row of the execution in step */
		pane_print(p, y, c.idx + 7, STYLE_LINK, sanitize_utf8() ? "\xe2\x96\x8f" : "|", 1);
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
	draw_optional(p, &c, &tr, y, s);
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

void
pane_traces_follow(struct pane *p, uint64_t row)
{
	bool hidden;
	uint64_t view;

	if (tui_diff(p->tui))
		return;
	view = tui_row_to_view(p->tui, TABLE_TRACES, row, &hidden);
	if (hidden)
		return;
	p->cursor = p->top = view;  /* no select: the panes stay the execution's */
	pane_clamp(p);
	p->tui->traces_followed = true;
}

static enum action
traces_request(struct pane *p, enum action act)
{
	if (act == ACT_SORT_NEXT || act == ACT_SORT_REVERSE) {
		struct tui *t = p->tui;
		if (act == ACT_SORT_NEXT)
			tui_sort_set(t, (t->sort.field + 1) % SORT_COUNT, t->sort.desc);
		else
			tui_sort_set(t, t->sort.field, !t->sort.desc);
		return ACT_NONE;
	}
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
	struct tui *t = p->tui;
	char order[48] = "";

	if (tui_diff(t)) {
		pane_diff_title(p, buf, size);
		return;
	}
	if (t->sort.active)
		snprintf(order, sizeof order, "%ssorted by %s%s", t->filter ? "; " : "",
			 rowsort_name((enum rowsort_field)t->sort.field), t->sort.desc ? " desc" : "");
	if (t->filter)
		snprintf(buf, size, "filter: %s%s", model_filter_describe(t->filter), order);
	else
		snprintf(buf, size, "%s", order);
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
