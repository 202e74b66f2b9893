/*
 * tui_link.c - the linked selection: how one pane's cursor moves the others.
 *
 * Debugger V2's links: a trace row selects its op (graph pane) and the op's
 * creation stack (stack pane); a stack frame selects a source line (source
 * pane); an execution selects its stack.  Every jump can be undone with
 * back/forward.  Model rows and view rows differ only when a filter is on.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_diff.h"

int64_t
tui_view_to_row(struct tui *t, enum model_table tab, uint64_t view)
{
	uint64_t a, b;

	if (tab == TABLE_TRACES && tui_diff(t))      /* diff layout: view = pair */
		return model_diff_rows(tui_diff(t), view, &a, &b) ? (int64_t)a : -1;
	if (tab == TABLE_TRACES && t->sort.active)
		return tui_sort_row(t, view);
	if (t->filter)
		return model_filter_nth(t->m, t->filter, tab, view);
	uint64_t n = tab == TABLE_TRACES ? model_trace_count(t->m) : model_execution_count(t->m);
	return view < n ? (int64_t)view : -1;
}

uint64_t
tui_row_to_view(struct tui *t, enum model_table tab, uint64_t row, bool *hidden)
{
	*hidden = false;
	if (tab == TABLE_TRACES && tui_diff(t)) {
		int64_t k = model_diff_pair_of_a(tui_diff(t), row);

		*hidden = k < 0;
		return k < 0 ? 0 : (uint64_t)k;
	}
	if (tab == TABLE_TRACES && t->sort.active)
		return tui_sort_view(t, row, hidden);
	if (!t->filter)
		return row;
	if (!model_filter_match(t->m, t->filter, tab, row))
		*hidden = true;
	return model_filter_rank(t->m, t->filter, tab, row);
}

uint64_t
tui_view_count(struct tui *t, enum model_table tab)
{
	struct model_diff_counts n;

	if (tab == TABLE_TRACES && tui_diff(t)) {
		model_diff_counts(tui_diff(t), &n);
		return n.aligned;
	}
	if (tab == TABLE_TRACES && t->sort.active)
		return t->sort.n;
	if (t->filter)
		return model_filter_count(t->m, t->filter, tab);
	return tab == TABLE_TRACES ? model_trace_count(t->m) : model_execution_count(t->m);
}

void
tui_reopen(struct tui *t)
{
	tui_sort_refresh(t, false);
	for (int i = 0; i < PANE_COUNT; i++) {
		struct pane *p = &t->panes[i];
		if (p->ops->open)
			p->ops->open(p);
		pane_clamp(p);
	}
}

static void
save_location(struct tui *t, struct tui_location *loc)
{
	loc->pane = t->focus;
	loc->trace = t->sel_trace;
	loc->execution = t->sel_exec;
	loc->row = t->panes[t->focus].cursor;
}

void
tui_history_push(struct tui *t)
{
	if (t->hist_pos >= TUI_HISTORY_MAX) {
		memmove(t->hist, t->hist + 1, sizeof t->hist[0] * (TUI_HISTORY_MAX - 1));
		t->hist_pos = TUI_HISTORY_MAX - 1;
	}
	save_location(t, &t->hist[t->hist_pos++]);
	t->hist_n = t->hist_pos;
}

static void
restore_location(struct tui *t, const struct tui_location *loc)
{
	if (loc->trace >= 0)
		tui_jump_trace(t, (uint64_t)loc->trace, false);
	if (loc->execution >= 0 && loc->pane == PANE_TIMELINE)
		tui_jump_execution(t, (uint64_t)loc->execution, false);
	tui_focus(t, (enum pane_id)loc->pane);
	if (loc->pane != PANE_TRACES && loc->pane != PANE_TIMELINE)
		pane_goto(&t->panes[loc->pane], loc->row, false, true);
}

/* Back (dir < 0) or forward through the locations.  Returns false at the end. */
bool
tui_history_go(struct tui *t, int dir)
{
	if (dir < 0) {
		if (t->hist_pos == 0)
			return false;
		if (t->hist_pos == t->hist_n && t->hist_n < TUI_HISTORY_MAX) {
			save_location(t, &t->hist[t->hist_n++]);
		}
		t->hist_pos--;
	} else {
		if (t->hist_pos + 1 >= t->hist_n)
			return false;
		t->hist_pos++;
	}
	restore_location(t, &t->hist[t->hist_pos]);
	return true;
}

bool
tui_jump_trace(struct tui *t, uint64_t row, bool history)
{
	bool hidden;
	uint64_t view;

	if (row >= model_trace_count(t->m)) {
		tui_message(t, true, "trace row %llu is not indexed (%llu rows)",
			    (unsigned long long)row, (unsigned long long)model_trace_count(t->m));
		return false;
	}
	if (history)
		tui_history_push(t);
	view = tui_row_to_view(t, TABLE_TRACES, row, &hidden);
	if (hidden) {
		tui_message(t, true, tui_diff(t) ? "trace row %llu has no counterpart in the other dump"
			    : "trace row %llu is hidden by the filter (:filter off shows it)",
			    (unsigned long long)row);
		return false;
	}
	pane_goto(&t->panes[PANE_TRACES], view, true, true);
	return true;
}

bool
tui_jump_execution(struct tui *t, uint64_t row, bool history)
{
	bool hidden;
	uint64_t view;

	if (row >= model_execution_count(t->m)) {
		tui_message(t, true, "execution %llu is not indexed", (unsigned long long)row);
		return false;
	}
	if (history)
		tui_history_push(t);
	view = tui_row_to_view(t, TABLE_EXECUTIONS, row, &hidden);
	if (hidden) {
		tui_message(t, true, "execution %llu is hidden by the filter (:filter off shows it)",
			    (unsigned long long)row);
		return false;
	}
	/* the timeline's cursor is a grid: it selects through its own goto */
	pane_timeline_goto(&t->panes[PANE_TIMELINE], view);
	return true;
}

void
tui_select_trace(struct tui *t, uint64_t row)
{
	struct model_trace tr;

	if (model_trace_get(t->m, row, &tr) != TD_OK)
		return;
	t->sel_trace = (int64_t)row;
	t->sel_op = tr.op;
	t->traces_followed = false;
	/* the timeline follows the row's execution, when the dump names it */
	t->step_exec = model_traces_name_executions(t->m) ? tr.execution : -1;
	if (t->step_exec >= 0 && t->focus != PANE_TIMELINE)
		pane_timeline_follow(&t->panes[PANE_TIMELINE], (uint64_t)t->step_exec);
	if (t->panes[PANE_GRAPH].ops->open)
		t->panes[PANE_GRAPH].ops->open(&t->panes[PANE_GRAPH]);
	struct model_op op;
	if (model_op_get(t->m, tr.op, &op)) {
		char origin[160];
		snprintf(origin, sizeof origin, "trace %llu %s:%u", (unsigned long long)row,
			 op.name, tr.slot);
		tui_set_stack(t, op.stack, op.nstack, origin);
	}
}

bool
tui_trace_in_step(const struct tui *t, const struct model_trace *tr)
{
	return t->step_exec >= 0 && tr->execution == t->step_exec;
}

void
tui_select_execution(struct tui *t, uint64_t row)
{
	struct model_execution ex;
	struct model_detail d;
	char origin[160];

	if (model_execution_get(t->m, row, &ex) != TD_OK)
		return;
	t->sel_exec = (int64_t)row;
	t->step_exec = (int64_t)row;
	/* the trace table follows to the execution's first row (the dump
	 * says which rows are its own) */
	if (ex.ntraces && model_traces_name_executions(t->m) && t->focus == PANE_TIMELINE)
		pane_traces_follow(&t->panes[PANE_TRACES], ex.first_trace);
	memset(&d, 0, sizeof d);
	snprintf(origin, sizeof origin, "execution %llu %s", (unsigned long long)row, ex.op_type);
	if (model_execution_detail(t->m, row, &d) == TD_OK)
		tui_set_stack(t, d.stack, d.nstack, origin);
	else
		tui_set_stack(t, NULL, 0, origin);
	model_detail_done(&d);
}

/* The trace row of op (any output slot) nearest the selected row, the
 * earlier one on a tie; the first one when no row is selected; -1 none. */
static int64_t
nearest_trace_of_op(struct tui *t, uint32_t op)
{
	uint64_t cur = t->sel_trace >= 0 ? (uint64_t)t->sel_trace : 0;
	int64_t before = model_trace_of_op(t->m, op, UINT32_MAX, cur + 1, -1);   /* <= cur */
	int64_t after = model_trace_of_op(t->m, op, UINT32_MAX, cur, 1);         /* > cur */

	if (before < 0)
		return after;
	if (after < 0 || cur - (uint64_t)before <= (uint64_t)after - cur)
		return before;
	return after;
}

void
tui_select_op(struct tui *t, uint32_t opid)
{
	struct model_op op;

	if (!model_op_get(t->m, opid, &op))
		return;
	t->sel_op = opid;
	/* near the user's place, not the op's last row (issue 12 item 12) */
	t->sel_trace = nearest_trace_of_op(t, opid);
	if (t->sel_trace >= 0) {
		tui_jump_trace(t, (uint64_t)t->sel_trace, false);
		return;
	}
	if (t->panes[PANE_GRAPH].ops->open)
		t->panes[PANE_GRAPH].ops->open(&t->panes[PANE_GRAPH]);
	char origin[160];
	snprintf(origin, sizeof origin, "op %s", op.name);
	tui_set_stack(t, op.stack, op.nstack, origin);
}

void
tui_set_stack(struct tui *t, const uint32_t *frames, size_t n, const char *origin)
{
	struct pane *sp = &t->panes[PANE_STACK];
	int64_t pick = -1;

	free(t->stack);
	t->stack = NULL;
	t->nstack = 0;
	if (n) {
		t->stack = xmalloc(n * sizeof *frames);
		memcpy(t->stack, frames, n * sizeof *frames);
		t->nstack = n;
	}
	snprintf(t->stack_origin, sizeof t->stack_origin, "%s", origin ? origin : "");
	/* start on the innermost frame of user code, as Debugger V2 does */
	for (size_t i = 0; i < n; i++) {
		struct model_frame f;
		if (model_frame_get(t->m, frames[i], &f) && f.user_code)
			pick = (int64_t)i;
	}
	if (pick < 0)
		pick = (int64_t)n - 1;
	sp->cursor = sp->top = 0;
	if (n) {
		pane_goto(sp, pane_stack_row_of(sp, (size_t)pick), true, true);
	} else {
		t->src_index = -1;
		t->src_line = 0;
		t->src_path[0] = '\0';
		t->src_error[0] = '\0';
		if (t->panes[PANE_SOURCE].ops->open)
			t->panes[PANE_SOURCE].ops->open(&t->panes[PANE_SOURCE]);
	}
}

void
tui_show_frame(struct tui *t, uint32_t frame)
{
	struct model_frame f;
	int64_t src;

	if (!model_frame_get(t->m, frame, &f))
		return;
	src = f.source >= 0 ? f.source : model_source_find(t->m, f.file, f.host);
	tui_show_source(t, src, f.line, f.file);
}

void
tui_show_source(struct tui *t, int64_t source, uint32_t line, const char *path)
{
	struct pane *sp = &t->panes[PANE_SOURCE];

	t->src_index = source;
	t->src_line = line;
	snprintf(t->src_path, sizeof t->src_path, "%s", path ? path : "");
	t->src_error[0] = '\0';
	if (source < 0 && path && *path)
		snprintf(t->src_error, sizeof t->src_error,
			 "%s is not in this dump: press L to read it from disk", path);
	if (sp->ops->open)
		sp->ops->open(sp);
	sp->cursor = sp->top = 0;
	if (line > 0)
		pane_goto(sp, line - 1, true, false);
}

/* Whether the Source pane already shows the whole of its file. */
static bool
source_complete(struct tui *t)
{
	struct model_source s;
	const char *const *lines;
	size_t n;

	return t->src_index >= 0 &&
	       model_source_lines(t->m, (uint32_t)t->src_index, &lines, &n) == TD_OK &&
	       model_source_get(t->m, (uint32_t)t->src_index, &s) && !s.partial;
}

/* Asks where the selected file is (a file, or a directory to use as its
 * source root) and reads it from there. */
static void
ask_source_path(struct tui *t, const char *why)
{
	char prefix[160], path[512], from[1024], err[256];
	const char *base = strrchr(t->src_path, '/');
	uint32_t idx;

	snprintf(path, sizeof path, "%s", t->src_path);
	if (why)
		tui_message(t, true, "%s", why);
	screen_draw(t);
	snprintf(prefix, sizeof prefix, "%.80s: file or source root: ", base ? base + 1 : path);
	char *answer = prompt_read(t, prefix, false);
	if (!answer || !*answer) {
		free(answer);
		tui_message(t, false, "not read");
		return;
	}
	const char *home = getenv("HOME");
	if (answer[0] == '~' && (answer[1] == '/' || !answer[1]) && home)
		snprintf(from, sizeof from, "%s%s", home, answer + 1);
	else
		snprintf(from, sizeof from, "%s", answer);
	free(answer);
	if (model_source_load_from(t->m, path, from, &idx, err, sizeof err) != TD_OK) {
		tui_message(t, true, "%s (L to try another path)", err);
		return;
	}
	tui_show_source(t, idx, t->src_line, path);
	tui_message(t, false, "read %s from %s", path, from);
}

void
tui_load_source(struct tui *t)
{
	char err[256];
	uint32_t idx;

	if (!t->src_path[0]) {
		tui_message(t, true, "no file selected: pick a stack frame first");
		return;
	}
	if (source_complete(t)) {
		tui_message(t, false, "%s is already loaded", t->src_path);
		return;
	}
	/* a file the dump knows in part, or not at all: its recorded path
	 * (after --source-root) first, then where the user says */
	if (t->src_index < 0 &&
	    model_source_load_disk(t->m, t->src_path, &idx, err, sizeof err) == TD_OK) {
		char path[512];
		snprintf(path, sizeof path, "%s", t->src_path);
		tui_show_source(t, idx, t->src_line, path);
		tui_message(t, false, "read %s from disk", path);
		return;
	}
	ask_source_path(t, t->src_index < 0 ? err : NULL);
}

/* After a filter change: the selected trace row again (by its model row). */
static void
keep_trace(struct tui *t)
{
	bool hidden;
	uint64_t v = t->sel_trace >= 0 ? tui_row_to_view(t, TABLE_TRACES, (uint64_t)t->sel_trace, &hidden) : 0;

	pane_goto(&t->panes[PANE_TRACES], v, true, true);
}

/* After a filter change: the selected execution again (by its model row). */
static void
keep_execution(struct tui *t)
{
	bool hidden;
	uint64_t v;

	if (t->sel_exec < 0 || tui_view_count(t, TABLE_EXECUTIONS) == 0)
		return;
	v = tui_row_to_view(t, TABLE_EXECUTIONS, (uint64_t)t->sel_exec, &hidden);
	if (v >= tui_view_count(t, TABLE_EXECUTIONS))
		v = tui_view_count(t, TABLE_EXECUTIONS) - 1;
	pane_timeline_goto(&t->panes[PANE_TIMELINE], v);
}

void
tui_set_filter(struct tui *t, struct model_filter *f)
{
	model_filter_free(t->filter);
	t->filter = f;
	t->filter_serial++;
	tui_sort_refresh(t, true);
	t->panes[PANE_TRACES].cursor = t->panes[PANE_TRACES].top = 0;
	t->panes[PANE_TIMELINE].cursor = t->panes[PANE_TIMELINE].top = 0;
	tui_reopen(t);
	/* keep the selected trace and execution (by row, not by position), or
	 * select the next one the filter shows; the focused pane's selection
	 * goes last, so the stack shown is its own */
	if (t->focus == PANE_TIMELINE) {
		keep_trace(t);
		keep_execution(t);
	} else {
		keep_execution(t);
		keep_trace(t);
	}
	t->tail_count = tui_view_count(t, TABLE_TRACES);   /* not "new rows" for follow_tail */
	if (f)
		tui_message(t, false, "filter: %s (%llu traces, %llu executions)", model_filter_describe(f),
			    (unsigned long long)tui_view_count(t, TABLE_TRACES),
			    (unsigned long long)tui_view_count(t, TABLE_EXECUTIONS));
	else
		tui_message(t, false, "filter off");
}
