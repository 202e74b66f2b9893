/*
 * pane_timeline.c - the Timeline pane: the execution history as cells.
 *
 * One cell per execution (eager op or tf.function call), labelled as
 * Debugger V2 labels them (function names shortened), cells with NaN/Inf in
 * the alert colour, function calls in the link colour.  Cells fill the pane
 * line by line; the engine's cursor is the line and this file keeps the
 * selected execution, so h/l move by cell and j/k by line.  In step with
 * the trace table: the cell of the execution the selected trace row belongs
 * to is selected (without moving the other panes) and marked, when the
 * dump says which execution a row belongs to; the title says when not.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/fmt.h"
#include "tui/cmd/sanitize.h"

#define CELL_W 16            /* "Session.run #12", "graph 0 iter 12" fit */

struct timeline {
	uint64_t sel;               /* selected view index */
	int per;                    /* cells per line at the last layout */
	/* the filter the last Enter set (compared, never freed here) */
	const struct model_filter *filter;
	int64_t filter_row;
};

static struct timeline *
get(struct pane *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct timeline));
	return p->priv;
}

static int
per_line(struct pane *p)
{
	int per = (p->r.w - 1) / CELL_W;
	return per > 0 ? per : 1;
}

static uint64_t
timeline_count(struct pane *p)
{
	struct timeline *tl = get(p);
	uint64_t n = tui_view_count(p->tui, TABLE_EXECUTIONS);
	int per = per_line(p);

	if (n && tl->sel >= n)
		tl->sel = n - 1;
	if (per != tl->per) {       /* width changed: keep the selected cell */
		tl->per = per;
		p->cursor = tl->sel / (uint64_t)per;
	}
	return (n + (uint64_t)per - 1) / (uint64_t)per;
}

/* A host in a few columns: "r3" for a rank ("rank_3", "worker-3"), else
 * the name (cut by the cell). */
static void
short_host(const char *host, char *buf, size_t size)
{
	size_t n = strlen(host), i = n;

	while (i > 0 && host[i - 1] >= '0' && host[i - 1] <= '9')
		i--;
	if (i < n && n - i < 8)
		snprintf(buf, size, "r%s", host + i);
	else
		snprintf(buf, size, "%s", host);
}

/* A cell's label: the function or op name; with several hosts the host
 * first, and a step (a training iteration) as "r3 it812", not the
 * reader's "graph 0 iter 812" on every rank. */
static void
label_of(struct pane *p, const struct model_execution *ex, char *buf, size_t size)
{
	char name[256], host[64], text[256];
	struct model_info in;

	fmt_function_name(ex->op_type ? ex->op_type : "?", name, sizeof name);
	model_info(p->tui->m, &in);
	if (in.nhosts > 1 && ex->host && *ex->host) {
		short_host(ex->host, host, sizeof host);
		if (ex->step >= 0)
			snprintf(text, sizeof text, "%.20s it%lld", host, (long long)ex->step);
		else
			snprintf(text, sizeof text, "%.20s %.200s", host, name);
		memcpy(name, text, sizeof text);
	}
	fmt_cell_label(name, CELL_W - 1, sanitize_utf8() ? "\xe2\x80\xa6" : "~", buf, size);
}

static void
timeline_draw_row(struct pane *p, uint64_t line, int y)
{
	struct timeline *tl = get(p);
	uint64_t n = tui_view_count(p->tui, TABLE_EXECUTIONS);

	for (int c = 0; c < tl->per; c++) {
		uint64_t view = line * (uint64_t)tl->per + (uint64_t)c;
		int64_t row = tui_view_to_row(p->tui, TABLE_EXECUTIONS, view);
		struct model_execution ex;
		char label[64];
		enum style_slot s = STYLE_CELL;

		if (view >= n || row < 0 || model_execution_get(p->tui->m, (uint64_t)row, &ex) != TD_OK)
			break;
		if (ex.bad_outputs || (ex.flags & (ROW_NONFINITE | ROW_CONTAINS_NONFINITE)))
			s = STYLE_NONFINITE;
		else if (ex.flags & ROW_FUNCTION)
			s = STYLE_LINK;
		if (view == tl->sel)
			s = p->focused ? STYLE_SELECTED : STYLE_SELECTED_BLUR;
		label_of(p, &ex, label, sizeof label);
		pane_printf(p, y, c * CELL_W, s, CELL_W - 1, "%-*.*s", CELL_W - 1, CELL_W - 1, "");
		pane_print(p, y, c * CELL_W, s, label, CELL_W - 1);
		if (row == p->tui->step_exec && p->tui->sel_trace >= 0 && !p->focused)
			pane_print(p, y, c * CELL_W + CELL_W - 1, STYLE_LINK,
				   sanitize_utf8() ? "\xe2\x97\x82" : "<", 1);
	}
}

static void
select_cell(struct pane *p, uint64_t view)
{
	struct timeline *tl = get(p);
	int64_t row = tui_view_to_row(p->tui, TABLE_EXECUTIONS, view);

	tl->sel = view;
	if (row >= 0)
		tui_select_execution(p->tui, (uint64_t)row);
}

/* The engine moved the line cursor: keep the column, clamp to the last cell. */
static void
timeline_select(struct pane *p, uint64_t line)
{
	struct timeline *tl = get(p);
	uint64_t n = tui_view_count(p->tui, TABLE_EXECUTIONS);
	uint64_t per = (uint64_t)per_line(p);
	uint64_t view = line * per + tl->sel % per;

	if (n == 0)
		return;
	if (view >= n)
		view = n - 1;
	select_cell(p, view);
}

/* pane_goto() from tui_jump_execution passes a view index, not a line. */
static void
move_to_view(struct pane *p, uint64_t view)
{
	uint64_t per = (uint64_t)per_line(p);

	get(p)->sel = view;
	pane_goto(p, view / per, false, false);
	select_cell(p, view);
}

void
pane_timeline_goto(struct pane *p, uint64_t view)
{
	move_to_view(p, view);
}

void
pane_timeline_follow(struct pane *p, uint64_t row)
{
	bool hidden;
	uint64_t view = tui_row_to_view(p->tui, TABLE_EXECUTIONS, row, &hidden);
	uint64_t per = (uint64_t)per_line(p);

	if (hidden)
		return;
	get(p)->sel = view;
	p->cursor = view / per;     /* no select: the stack stays the trace's */
	pane_clamp(p);
}

static void
timeline_click(struct pane *p, uint64_t line, int x)
{
	uint64_t view = line * (uint64_t)per_line(p) + (uint64_t)(x / CELL_W);

	if (x / CELL_W < per_line(p) && view < tui_view_count(p->tui, TABLE_EXECUTIONS))
		move_to_view(p, view);
}

/* The fetches of a run (a session run's outputs) for the message after Enter,
 * from the "fetches: " line of its details: the quoted names of the
 * Python repr ("[<tf.Operation 'GradientDescent' type=NoOp>, ...]" ->
 * "GradientDescent, ..."), else the line itself; "" when there is none. */
static void
fetches_of(struct tui *t, uint64_t row, char *buf, size_t size)
{
	struct model_detail d;
	const char *s, *q, *end;
	size_t len = 0;

	buf[0] = '\0';
	memset(&d, 0, sizeof d);
	if (model_execution_detail(t->m, row, &d) == TD_OK && d.text &&
	    (s = strstr(d.text, "fetches: ")) && (s == d.text || s[-1] == '\n')) {
		s += strlen("fetches: ");
		end = s + strcspn(s, "\n");
		for (q = s; q < end && (q = memchr(q, '\'', (size_t)(end - q))); q++) {
			const char *close = memchr(q + 1, '\'', (size_t)(end - q - 1));
			if (!close || len + 4 >= size)
				break;
			len += (size_t)snprintf(buf + len, size - len, "%s%.*s", len ? ", " : "",
						(int)(close - q - 1), q + 1);
			q = close;
		}
		if (!len)
			snprintf(buf, size, "%.*s", (int)(end - s), s);
	}
	model_detail_done(&d);
}

/* The step (function call) of the trace at view v, -1 unknown. */
static int64_t
step_at(struct tui *t, uint64_t v)
{
	int64_t r = tui_view_to_row(t, TABLE_TRACES, v);

	return r < 0 ? -1 : model_trace_step(t->m, (uint64_t)r);
}

/* The view index of the first trace of call `row` in the trace table: the
 * rows it owns when traces name their execution, else the first trace
 * whose step (the function call recorded after it, model_trace_step) is
 * this call, found by bisection (steps grow with the rows).  -1 unknown. */
static int64_t
first_trace_of_call(struct tui *t, uint64_t row, const struct model_execution *ex)
{
	uint64_t lo = 0, hi = tui_view_count(t, TABLE_TRACES);
	bool hidden;

	if (model_traces_name_executions(t->m)) {
		if (!ex->ntraces)
			return -1;
		uint64_t v = tui_row_to_view(t, TABLE_TRACES, ex->first_trace, &hidden);
		return hidden ? -1 : (int64_t)v;
	}
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (step_at(t, mid) < (int64_t)row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return step_at(t, lo) == (int64_t)row ? (int64_t)lo : -1;
}

/* Enter on a function call or a run: the trace table shows its graph's
 * traces from this call's first one, the timeline keeps the call selected
 * (the message names the run's fetches); Enter again on the same cell, or
 * on an eager op: its details in the tensor overlay. */
static void
enter(struct pane *p)
{
	struct timeline *tl = get(p);
	struct tui *t = p->tui;
	int64_t row = tui_view_to_row(t, TABLE_EXECUTIONS, tl->sel);
	struct model_execution ex;

	if (row < 0 || model_execution_get(t->m, (uint64_t)row, &ex) != TD_OK)
		return;
	bool again = t->filter && t->filter == tl->filter && tl->filter_row == row;
	if ((ex.flags & ROW_FUNCTION) && ex.graph >= 0 && !again) {
		struct model_filter_spec spec = { .graph = ex.graph, .execution = -1 };
		struct model_filter *f;
		char err[256], fetches[400];
		if (model_filter_new(t->m, &spec, &f, err, sizeof err) == TD_OK) {
			tui_history_push(t);
			t->sel_exec = row;      /* the filter keeps this call selected */
			tui_set_filter(t, f);
			tl->filter = f;
			tl->filter_row = row;
			tui_focus(t, PANE_TRACES);
			int64_t first = first_trace_of_call(t, (uint64_t)row, &ex);
			pane_goto(&t->panes[PANE_TRACES], first >= 0 ? (uint64_t)first : 0, first >= 0, true);
			fetches_of(t, (uint64_t)row, fetches, sizeof fetches);
			tui_message(t, false, "%s (%llu traces, %llu executions)%s%s%s; Enter: details",
				    ex.op_type, (unsigned long long)tui_view_count(t, TABLE_TRACES),
				    (unsigned long long)tui_view_count(t, TABLE_EXECUTIONS),
				    fetches[0] ? " fetches " : "", fetches,
				    first >= 0 ? "" : "; this call's own rows are not known");
			return;
		}
		tui_message(t, true, "%s", err);
	}
	tui_show_tensor(t, TABLE_EXECUTIONS, (uint64_t)row, NULL, NULL);
}

static enum action
timeline_request(struct pane *p, enum action act)
{
	struct timeline *tl = get(p);
	uint64_t n = tui_view_count(p->tui, TABLE_EXECUTIONS);

	switch (act) {
	case ACT_MOVE_LEFT:
		if (tl->sel > 0)
			move_to_view(p, tl->sel - 1);
		return ACT_NONE;
	case ACT_MOVE_RIGHT:
		if (tl->sel + 1 < n)
			move_to_view(p, tl->sel + 1);
		return ACT_NONE;
	case ACT_MOVE_FIRST:
		if (n)
			move_to_view(p, 0);
		return ACT_NONE;
	case ACT_MOVE_LAST:
		if (n)
			move_to_view(p, n - 1);
		return ACT_NONE;
	case ACT_ENTER:
		enter(p);
		return ACT_NONE;
	default:
		return act;
	}
}

static bool
timeline_grep(struct pane *p, uint64_t line, const pcre2_code *re)
{
	uint64_t per = (uint64_t)per_line(p), n = tui_view_count(p->tui, TABLE_EXECUTIONS);

	for (uint64_t v = line * per; v < (line + 1) * per && v < n; v++) {
		int64_t row = tui_view_to_row(p->tui, TABLE_EXECUTIONS, v);
		struct model_execution ex;
		if (row >= 0 && model_execution_get(p->tui->m, (uint64_t)row, &ex) == TD_OK &&
		    pane_match(re, ex.op_type)) {
			get(p)->sel = v;
			return true;
		}
	}
	return false;
}

static bool
timeline_find(struct pane *p, int dir, int64_t *view, uint64_t *total)
{
	struct tui *t = p->tui;
	uint64_t n = tui_view_count(t, TABLE_EXECUTIONS);
	int64_t from = n ? tui_view_to_row(t, TABLE_EXECUTIONS, get(p)->sel) : -1;
	bool ok, hidden;
	int64_t row = tui_search_rows(t, TABLE_EXECUTIONS, from, dir, &ok);

	*view = -1;
	*total = n;
	if (!ok || row < 0)
		return ok;
	*view = (int64_t)tui_row_to_view(t, TABLE_EXECUTIONS, (uint64_t)row, &hidden);
	move_to_view(p, (uint64_t)*view);
	return true;
}

static void
timeline_title(struct pane *p, char *buf, size_t size)
{
	struct timeline *tl = get(p);
	uint64_t n = tui_view_count(p->tui, TABLE_EXECUTIONS);
	int64_t row = tui_view_to_row(p->tui, TABLE_EXECUTIONS, tl->sel);
	struct model_execution ex;

	if (n == 0 || row < 0 || model_execution_get(p->tui->m, (uint64_t)row, &ex) != TD_OK) {
		snprintf(buf, size, "0 executions");
		return;
	}
	/* the dump does not say which execution a trace row belongs to */
	struct model_info in;
	model_info(p->tui->m, &in);
	bool hosts = in.nhosts > 1 && ex.host && *ex.host;
	/* the note last: a narrow title cuts it, not the call's name */
	snprintf(buf, size, "%llu/%llu #%lld %s%s%s%s%s", (unsigned long long)tl->sel + 1,
		 (unsigned long long)n, (long long)row, ex.op_type, hosts ? " on " : "", hosts ? ex.host : "",
		 ex.bad_outputs ? " (NaN/Inf)" : "",
		 p->tui->sel_trace >= 0 && !model_traces_name_executions(p->tui->m)
		 ? " (rows not linked)" : "");
}

static const char *
timeline_empty(struct pane *p)
{
	if (p->tui->filter)
		return "no execution matches the filter";
	if (!p->tui->progress.done)
		return "indexing...";
	return "no executions in this dump";
}

static void
timeline_done(struct pane *p)
{
	free(p->priv);
}

const struct pane_ops pane_timeline_ops = {
	.flags = PANE_OWN_CURSOR,
	.row_count = timeline_count,
	.draw_row = timeline_draw_row,
	.grep = timeline_grep,
	.find = timeline_find,
	.request = timeline_request,
	.select = timeline_select,
	.done = timeline_done,
	.title_extra = timeline_title,
	.empty = timeline_empty,
	.click = timeline_click,
};
