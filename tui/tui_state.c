/*
 * tui_state.c - marks (m then a letter sets one on the selected row, '
 * lists them and a letter jumps) and the state a dump's next session
 * starts from (tui/cmd/state.h): focus, filter, sort, columns, selection,
 * marks.  Loaded after the first screen unless --fresh; saved on quit.
 * Not with two dumps (the diff layout): its rows are pairs.
 */
#include "tui_internal.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/cmd.h"
#include "tui/cmd/rowsort.h"
#include "tui/cmd/state.h"

/* ---- marks ---------------------------------------------------------------- */

static void
mark_label(struct tui *t, const struct state_mark *k, char *buf, size_t size)
{
	struct model_trace tr;
	struct model_execution ex;

	if (k->execution && model_execution_get(t->m, k->row, &ex) == TD_OK)
		snprintf(buf, size, "%c execution %llu %s", k->letter, (unsigned long long)k->row, ex.op_type);
	else if (!k->execution && model_trace_get(t->m, k->row, &tr) == TD_OK)
		snprintf(buf, size, "%c trace %llu %s:%u", k->letter, (unsigned long long)k->row,
			 tr.op_name, tr.slot);
	else
		snprintf(buf, size, "%c %s %llu (not indexed)", k->letter, k->execution ? "execution" : "trace",
			 (unsigned long long)k->row);
}

void
tui_marks_text(struct tui *t, struct strbuf *sb, const char *sep)
{
	char buf[256];

	for (size_t i = 0; i < t->marks->nmarks; i++) {
		mark_label(t, &t->marks->marks[i], buf, sizeof buf);
		strbuf_addf(sb, "%s%s", i ? sep : "", buf);
	}
}

static void
mark_set(struct tui *t, int key)
{
	bool exec = t->focus == PANE_TIMELINE ? t->sel_exec >= 0 : t->sel_trace < 0 && t->sel_exec >= 0;
	int64_t row = exec ? t->sel_exec : t->sel_trace;
	char buf[256];

	if (row < 0) {
		tui_message(t, true, "mark: no row selected");
		return;
	}
	if (key > 127 || !isalpha(key) || !state_mark_set(t->marks, (char)key, exec, (uint64_t)row)) {
		tui_message(t, true, "mark: a mark is a letter (a-z, A-Z)");
		return;
	}
	mark_label(t, state_mark_get(t->marks, (char)key), buf, sizeof buf);
	tui_message(t, false, "mark %s", buf);
}

static void
mark_jump(struct tui *t, int key)
{
	const struct state_mark *k = key <= 127 && isalpha(key) ? state_mark_get(t->marks, (char)key) : NULL;

	if (!k) {
		tui_message(t, true, "no mark '%c' (m then a letter sets one)", key > 31 && key < 127 ? key : '?');
		return;
	}
	if (k->execution) {
		tui_jump_execution(t, k->row, true);
		tui_focus(t, PANE_TIMELINE);
	} else {
		tui_jump_trace(t, k->row, true);
		tui_focus(t, PANE_TRACES);
	}
}

void
tui_mark_start(struct tui *t, bool jump)
{
	struct strbuf sb = { 0 };

	if (jump && t->marks->nmarks == 0) {
		tui_message(t, true, "no marks yet: m then a letter sets one");
		return;
	}
	t->pending_mark = jump ? '\'' : 'm';
	if (jump) {
		tui_marks_text(t, &sb, ", ");
		tui_message(t, false, "' %s  (a letter jumps, Esc cancels)", sb.buf);
	} else {
		tui_message(t, false, "m: a letter names a mark on the selected row");
	}
	strbuf_done(&sb);
}

bool
tui_mark_key(struct tui *t, int key)
{
	int pending = t->pending_mark;

	if (!pending)
		return false;
	t->pending_mark = 0;
	if (key == 27 || key == 7 || key == 3) {     /* Esc, ^G, ^C */
		t->message[0] = '\0';
		return true;
	}
	if (pending == 'm')
		mark_set(t, key);
	else
		mark_jump(t, key);
	return true;
}

char
tui_mark_of_trace(const struct tui *t, uint64_t row)
{
	for (size_t i = 0; i < t->marks->nmarks; i++)
		if (!t->marks->marks[i].execution && t->marks->marks[i].row == row)
			return t->marks->marks[i].letter;
	return 0;
}

/* ---- the saved state ------------------------------------------------------- */

static bool
state_enabled(struct tui *t)
{
	return !tui_diff(t) && t->opt->dump_path && t->state_path[0];
}

/* Runs a command line of the command table (the saved filter). */
static bool
run_command(struct tui *t, const char *line, char *err, size_t errlen)
{
	struct strbuf out = { 0 }, e = { 0 };
	struct cmd_env env = { .m = t->m, .out = &out, .err = &e, .ui = tui_cmd_ui(t) };
	bool ok = cmd_run(&env, line) == TD_OK;

	if (!ok)
		snprintf(err, errlen, "%s", e.len ? e.buf : line);
	strbuf_done(&out);
	strbuf_done(&e);
	return ok;
}

static void
apply(struct tui *t, const struct ui_state *s, char *note, size_t size)
{
	char err[1200], line[1100];
	enum rowsort_field f;
	bool desc;

	if (s->has_columns)
		t->trace_cols = s->columns;
	if (*s->filter) {
		snprintf(line, sizeof line, "filter %s", s->filter);
		if (!run_command(t, line, err, sizeof err))
			snprintf(note, size, "; the saved filter failed: %s", err);
	}
	if (*s->sort && rowsort_parse(s->sort, &f, &desc))
		tui_sort_set(t, f, desc);
	for (int i = 0; i < PANE_COUNT; i++)
		if (strcmp(pane_info[i].name, s->focus) == 0)
			tui_focus(t, (enum pane_id)i);
	if (s->watches_recommended >= 0)
		model_watch_recommended(t->m, s->watches_recommended);
	for (size_t i = 0; i < s->nwatches; i++) {
		char name[128];
		const char *sp = strchr(s->watches[i], ' ');
		snprintf(name, sizeof name, "%.*s", (int)(sp - s->watches[i]), s->watches[i]);
		if (model_watch_add(t->m, name, sp + 1, err, sizeof err) != TD_OK)
			snprintf(note, size, "; a saved watch failed: %s", err);
		else
			model_watch_set_scope(t->m, name, WATCH_SCOPE_DUMP);
	}
	if (s->watches_recommended >= 0 || s->nwatches)
		tui_watches_restart(t);
	*t->marks = *s;             /* the marks (the rest is applied above) */
	t->restore_trace = s->trace;
	t->restore_exec = s->execution;
	tui_state_poll(t);
}

void
tui_state_load(struct tui *t)
{
	struct ui_state s;
	char real[PATH_MAX], err[600], note[1400] = "";
	enum td_status st;

	t->restore_trace = t->restore_exec = -1;
	if (tui_diff(t) || !t->opt->dump_path || !realpath(t->opt->dump_path, real) ||
	    !state_file(real, t->state_path, sizeof t->state_path)) {
		t->state_path[0] = '\0';
		return;
	}
	snprintf(t->dump_real, sizeof t->dump_real, "%s", real);
	if (t->opt->fresh)
		return;
	st = state_load(t->state_path, real, &s, err, sizeof err);
	if (st == TD_ERR_NOENT)
		return;
	if (st != TD_OK) {
		tui_message(t, true, "state file %s ignored: %s", t->state_path, err);
		return;
	}
	apply(t, &s, note, sizeof note);
	tui_message(t, *note != '\0', "restored the last session's state (--fresh starts clean)%s", note);
}

void
tui_state_poll(struct tui *t)
{
	if (t->restore_trace >= 0 && (uint64_t)t->restore_trace < model_trace_count(t->m)) {
		tui_jump_trace(t, (uint64_t)t->restore_trace, false);
		t->restore_trace = -1;
	}
	if (t->restore_exec >= 0 && (uint64_t)t->restore_exec < model_execution_count(t->m)) {
		if (t->focus == PANE_TIMELINE)
			tui_jump_execution(t, (uint64_t)t->restore_exec, false);
		t->restore_exec = -1;
	}
}

void
tui_state_save(struct tui *t)
{
	struct ui_state s = *t->marks;
	char err[600];

	if (!state_enabled(t))
		return;
	snprintf(s.focus, sizeof s.focus, "%s", pane_info[t->focus].name);
	snprintf(s.filter, sizeof s.filter, "%s", t->filter ? model_filter_describe(t->filter) : "");
	snprintf(s.sort, sizeof s.sort, "%s%s", t->sort.active ? rowsort_name((enum rowsort_field)t->sort.field) : "",
		 t->sort.active && t->sort.desc ? " desc" : "");
	s.columns = t->trace_cols;
	s.has_columns = true;
	s.trace = t->sel_trace;
	s.execution = t->sel_exec;
	/* the dump's watches: those added for it (not the global ones of the
	 * watches file, not the recommended set) */
	struct model_watch w;
	s.nwatches = 0;
	s.watches_recommended = model_watch_recommended_on(t->m);
	for (size_t i = 0; model_watch_at(t->m, i, &w) && s.nwatches < STATE_MAX_WATCHES; i++)
		if (!w.recommended && w.scope == WATCH_SCOPE_DUMP)
			snprintf(s.watches[s.nwatches++], STATE_WATCH_LEN, "%s %s", w.name, w.text);
	const struct safeio_id *ids;
	size_t nids = model_roots(t->m, &ids, NULL);
	if (state_save(t->state_path, t->dump_real, ids, nids, &s, err, sizeof err) != TD_OK)
		fprintf(stderr, "tdbg: state not saved: %s\n", err);
}
