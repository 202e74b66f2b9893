/*
 * tui.c - tui_run(): the event loop and the actions bigger than one pane.
 *
 * Keys become actions through the key table (keys.c) in the focused pane's
 * scope; the pane gets the first go (pane_request), then the actions that
 * concern the whole screen are handled here: focus, back/forward, search,
 * the prompt, overlays, follow mode, quit.  While the model's background
 * index runs, the loop wakes up a few times a second to redraw what has
 * been indexed so far.  Every exit path goes through screen_done(), which
 * restores the terminal.
 */
#include "tui.h"

#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui_internal.h"
#include "keyseq.h"
#include "tui/cmd/rowsort.h"
#include "tui/cmd/state.h"
#include "reader/base/safeio.h"

#define FOLLOW_INTERVAL 0.5     /* seconds between re-index passes in follow mode */

static const struct pane_ops *const pane_ops_of[PANE_COUNT] = {
#define TD_PANE_OPS(id, name, key, title, page) [PANE_##id] = &pane_##name##_ops,
	PANE_INFO(TD_PANE_OPS)
#undef TD_PANE_OPS
};

void
tui_message(struct tui *t, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->message, sizeof t->message, fmt, ap);
	va_end(ap);
	t->message_error = error;
}

void
tui_focus(struct tui *t, enum pane_id id)
{
	if ((int)id < 0 || id >= PANE_COUNT)
		return;
	/* empty source panes show only while one of them is focused */
	bool src = id == PANE_SOURCE || id == PANE_STACK, was = t->focus == PANE_SOURCE || t->focus == PANE_STACK;
	if (src != was && tui_no_source(t))
		t->need_relayout = true;
	t->focus = id;
	for (int i = 0; i < PANE_COUNT; i++)
		t->panes[i].focused = i == (int)id && t->overlay == OVERLAY_NONE;
	if (id == PANE_TRACES && t->traces_followed)    /* in step with the timeline */
		pane_goto(&t->panes[PANE_TRACES], t->panes[PANE_TRACES].cursor, false, true);
	if (!t->layout.shown[id])
		t->need_relayout = true;
}

/* Tab order: on screen left to right, top to bottom (the table's order;
 * the story layout swaps the Timeline in when Tab reaches it); by pages
 * when only a page shows. */
static void
tab_order(const struct tui *t, enum pane_id order[PANE_COUNT])
{
	int n = 0;

	for (int page = 0; page < PANE_PAGES; page++)
		for (int i = 0; i < PANE_COUNT; i++)
			if (t->layout.mode >= LAYOUT_STORY ? page == 0 : pane_info[i].page == page)
				order[n++] = (enum pane_id)i;
}

static void
focus_step(struct tui *t, int dir)
{
	enum pane_id order[PANE_COUNT];
	int i = 0;

	tab_order(t, order);
	while (i < PANE_COUNT && order[i] != t->focus)
		i++;
	i = (i + (dir > 0 ? 1 : PANE_COUNT - 1)) % PANE_COUNT;
	tui_focus(t, order[i]);
}

static void
show_tensor_of_selection(struct tui *t)
{
	if (t->focus == PANE_TIMELINE && t->sel_exec >= 0)
		tui_show_tensor(t, TABLE_EXECUTIONS, (uint64_t)t->sel_exec, NULL, NULL);
	else if (t->sel_trace >= 0)
		tui_show_tensor(t, TABLE_TRACES, (uint64_t)t->sel_trace, NULL, NULL);
	else
		tui_message(t, true, "no row selected");
}

static void
global_action(struct tui *t, enum action act)
{
	switch (act) {
	case ACT_FOCUS_NEXT:
	case ACT_FOCUS_PREV:
		focus_step(t, act == ACT_FOCUS_NEXT ? 1 : -1);
		break;
	case ACT_CYCLE_PANES:
		tui_focus(t, layout_cycle(t->layout.mode, t->focus, 1));
		break;
#define TD_PANE_CASE(id, name, key, title, page) case ACT_PANE_##id:
	PANE_INFO(TD_PANE_CASE)
#undef TD_PANE_CASE
		tui_focus(t, (enum pane_id)(act - ACT_PANE_ALERTS));
		break;
	case ACT_BACK:
	case ACT_FORWARD:
		if (!tui_history_go(t, act == ACT_BACK ? -1 : 1))
			tui_message(t, false, act == ACT_BACK ? "nothing to go back to" : "nothing to go forward to");
		break;
	case ACT_SEARCH:
		prompt_search(t);
		break;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		tui_search_next(t, act == ACT_SEARCH_NEXT ? 1 : -1);
		break;
	case ACT_PROMPT:
		prompt_command(t);
		break;
	case ACT_HELP:
		tui_build_help(t);
		tui_open_overlay(t, OVERLAY_HELP);
		break;
	case ACT_OUTPUT:
		tui_open_overlay(t, OVERLAY_OUTPUT);
		break;
	case ACT_TENSOR:
		show_tensor_of_selection(t);
		break;
	case ACT_GO_ORIGIN:
		tui_goto_origin(t, t->sel_trace);
		break;
	case ACT_TREND:
		tui_show_trend(t);
		break;
	case ACT_LOAD_SOURCE:
		tui_load_source(t);
		break;
	case ACT_MARK:
	case ACT_MARK_JUMP:
		tui_mark_start(t, act == ACT_MARK_JUMP);
		break;
	case ACT_CLOSE:
		t->message[0] = '\0';
		break;
	case ACT_FOLLOW:
		t->follow = !t->follow;
		tui_message(t, false, "follow mode %s", t->follow ? "on: re-reading appended records" : "off");
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		t->need_relayout = true;
		break;
	case ACT_QUIT:
		t->quit = true;
		break;
	default:
		break;
	}
}

static void
dispatch(struct tui *t, int key)
{
	struct pane *p = t->overlay != OVERLAY_NONE ? &t->overlay_pane : &t->panes[t->focus];
	const char *scope = p->name;
	enum action act = keymap_lookup(&t->keys, scope, key);
	unsigned res;

	if (tui_mark_key(t, key))          /* the letter after m or ' */
		return;
	if (act == ACT_NONE && (key & KEYSEQ_META)) {   /* an unbound M-x: Esc, then x */
		dispatch(t, 27);
		dispatch(t, key & ~KEYSEQ_META);
		return;
	}
	if (act == ACT_NONE)
		return;
	if (act != ACT_SEARCH_NEXT && act != ACT_SEARCH_PREV)
		tui_search_restart(t);      /* a resumed search starts over after a move */
	if (t->overlay == OVERLAY_NONE && t->layout.mode == LAYOUT_TOO_SMALL && act != ACT_QUIT)
		return;
	res = p->win || t->overlay != OVERLAY_NONE ? pane_request(p, act) : RES_NONE;
	if (res & RES_QUIT)
		t->quit = true;
	if (res & RES_RELAYOUT)
		t->need_relayout = true;
	if (!(res & RES_HANDLED))
		global_action(t, act);
}

/* Mouse: a click focuses the pane under the pointer and selects the row;
 * the wheel scrolls it. */
static void
mouse(struct tui *t)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return;
	if (t->overlay != OVERLAY_NONE) {   /* the wheel scrolls an overlay */
		for (int k = 0; k < 3 && (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)); k++)
			pane_request(&t->overlay_pane, ev.bstate & BUTTON4_PRESSED ? ACT_MOVE_UP : ACT_MOVE_DOWN);
		return;
	}
	for (int i = 0; i < PANE_COUNT; i++) {
		struct pane *p = &t->panes[i];
		if (!p->shown || ev.y < p->r.y || ev.y >= p->r.y + p->r.h || ev.x < p->r.x ||
		    ev.x >= p->r.x + p->r.w)
			continue;
		tui_focus(t, (enum pane_id)i);
		if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
			for (int k = 0; k < 3; k++)
				pane_request(p, ev.bstate & BUTTON4_PRESSED ? ACT_MOVE_UP : ACT_MOVE_DOWN);
			return;
		}
		int line = ev.y - p->r.y - pane_first_line(p);
		if (line < 0)
			return;
		uint64_t row = p->top + (uint64_t)line;
		if (p->ops->click)
			p->ops->click(p, row, ev.x - p->r.x);
		else if (row < pane_count(p))
			pane_goto(p, row, false, false);
		return;
	}
}

/* Rows arriving in the trace table: the first ones get selected; in follow
 * mode a cursor on the newest row stays on the newest row, as tail -f does.
 * Compares with the count seen at the last poll (the model's counts move
 * between generation changes). */
static void
follow_tail(struct tui *t)
{
	struct pane *tp = &t->panes[PANE_TRACES];
	uint64_t n = pane_count(tp);

	/* the first rows (of the dump, or of a filter set while indexing) are
	 * selected as soon as they arrive */
	if (t->tail_count == 0 && n > 0)
		pane_goto(tp, 0, false, true);
	else if (t->follow && n > t->tail_count && tp->cursor + 1 == t->tail_count)
		pane_goto(tp, n - 1, false, false);
	t->tail_count = n;
}

/* Called when no key came: follow the background index. */
static void
poll_model(struct tui *t)
{
	struct model_progress pr;

	model_progress(t->m, &pr);
	if (pr.generation != t->progress.generation || pr.done != t->progress.done) {
		bool finished = pr.done && !t->progress.done;
		t->progress = pr;
		tui_reopen(t);
		if (finished)               /* empty source panes give way now */
			t->need_relayout = true;
		if (finished && t->sel_trace >= 0)  /* ops and stacks may have come later */
			tui_select_trace(t, (uint64_t)t->sel_trace);
	}
	t->progress = pr;
	t->diff_scanning = tui_diff_poll(t);
	t->watch_checking = tui_watches_poll(t);
	t->origins_looking = tui_origins_poll(t);
	follow_tail(t);
	tui_state_poll(t);
	if (t->follow && pr.done && td_now() - t->last_refresh > FOLLOW_INTERVAL) {
		t->last_refresh = td_now();
		model_refresh(t->m);
	}
}

/* TDBG_TRACE_KEYS=FILE: one line per key, "KEYNAME US", the microseconds
 * from reading the key to the doupdate() of the screen it produced (for
 * make bench).  Keys that open the prompt include the time spent typing. */
static void
trace_key(FILE *f, int key, double since)
{
	const char *name = keyname(key);

	fprintf(f, "%s %.0f\n", name ? name : "?", (td_now() - since) * 1e6);
	fflush(f);
}

struct key_input {
	WINDOW *win;
	int wait_ms;                /* the loop's timeout for the next key */
};

/* keyseq_next's source: the loop's wait for a key, a short one for the
 * rest of an escape sequence. */
static int
get_code(void *ctx, bool more)
{
	struct key_input *in = ctx;

	wtimeout(in->win, more ? KEYSEQ_WAIT_MS : in->wait_ms);
	return wgetch(in->win);
}

static void
event_loop(struct tui *t)
{
	const char *path = getenv("TDBG_TRACE_KEYS");
	FILE *trace = path && *path ? fopen(path, "a") : NULL;
	int last_key = ERR;
	double key_time = 0;
	/* Esc + x is one key only when the user bound a Meta key */
	struct keyseq_reader seq = { { 0 }, 0, keymap_has_meta(&t->keys) };

	while (!t->quit) {
		screen_draw(t);
		if (trace && last_key != ERR)
			trace_key(trace, last_key, key_time);
		last_key = ERR;
		/* Poll often while the index fills the panes (the first rows show
		 * within ~50 ms), less when following, rarely when idle. */
		struct key_input in = { t->prompt_win, !t->progress.done || t->diff_scanning || t->watch_checking ||
					t->origins_looking ? 50 :
					t->follow ? 250 : 1000 };
		/* escape sequences terminfo does not list still make one key */
		int key = keyseq_next(&seq, get_code, &in);
		if (key == ERR) {
			poll_model(t);
			continue;
		}
		if (key == KEY_RESIZE) {
			t->need_relayout = true;
			continue;
		}
		key_time = td_now();
		last_key = key;
		t->message[0] = '\0';
		if (key == KEY_MOUSE)
			mouse(t);
		else
			dispatch(t, key);
		poll_model(t);
	}
	if (trace && last_key != ERR)
		trace_key(trace, last_key, key_time);
	if (trace)
		fclose(trace);
}

/* The largest keys file read: a larger one is not read, and said. */
#define KEYS_FILE_MAX ((uint64_t)1 << 20)

/* The user's own bindings, "bind SCOPE KEY ACTION" lines, in
 * $XDG_CONFIG_HOME/tdbg/keys (default ~/.config/tdbg/keys), read whole (up
 * to KEYS_FILE_MAX) as one of tdbg's own files (reader/base/safeio.h: no
 * link, no FIFO, the user's, not group/other-writable); a file refused or
 * too large is said on the message line and skipped.  Bad lines are
 * skipped; the message line names the first and how many there are, the
 * output pane (o) lists every one with its number. */
static void
load_user_keys(struct tui *t)
{
	char dir[1000], path[1024], err[4096], *buf;
	enum td_status st;
	size_t n;

	if (!td_xdg_dir("XDG_CONFIG_HOME", ".config", dir, sizeof dir))
		return;
	snprintf(path, sizeof path, "%s/keys", dir);
	st = safeio_read_own(path, KEYS_FILE_MAX, &buf, &n, err, sizeof err);
	if (st == TD_ERR_NOENT)
		return;
	if (st != TD_OK) {
		tui_message(t, true, "%s (no key bindings of yours loaded)", err);
		return;
	}
	int bad = keymap_parse_text(&t->keys, buf, err, sizeof err);
	free(buf);
	if (!bad)
		return;
	char title[1100];
	snprintf(title, sizeof title, "# %s: %d bad line%s (skipped)", path, bad, bad > 1 ? "s" : "");
	tui_text_append(&t->output, title);
	tui_text_append(&t->output, err);
	if (!t->output.title)
		t->output.title = xstrdup("Command output");
	tui_message(t, true, "%s: %.*s%s", path, (int)strcspn(err, "\n"), err,
		    bad > 1 ? " and more (o: every bad line)" : "");
}

static void
tui_init(struct tui *t, struct model *m, const struct tui_options *opt)
{
	char err[256];

	memset(t, 0, sizeof *t);
	t->m = m;
	t->opt = opt;
	t->sel_trace = t->sel_exec = t->sel_op = t->src_index = t->step_exec = -1;
	t->follow = opt->follow;
	t->need_relayout = true;
	t->trace_cols = ROWCOL_DEFAULT;
	t->marks = xcalloc(1, sizeof *t->marks);
	state_init(t->marks);
	t->restore_trace = t->restore_exec = -1;
	keymap_init_defaults(&t->keys);
	load_user_keys(t);
	if (!theme_load(opt->theme ? opt->theme : "dark", &t->theme, err, sizeof err)) {
		if (!t->theme.name[0])
			theme_builtin("dark", &t->theme);
		tui_message(t, true, "%s", err);
	}
	for (int i = 0; i < PANE_COUNT; i++)
		pane_init(&t->panes[i], pane_ops_of[i], t, i);
	pane_init(&t->overlay_pane, &pane_text_ops, t, -1);
}

static void
tui_free(struct tui *t)
{
	prompt_free(t->prompt);
	screen_done(t);
	keymap_done(&t->keys);
	model_filter_free(t->filter);
	tui_search_done(t);
	tui_origins_done(t);
	tui_watches_done(t);
	tui_text_done(&t->help);
	tui_text_done(&t->output);
	tui_text_done(&t->tensor);
	tui_tensor_view_free(t);
	tui_trend_done(t);
	tui_sort_free(t);
	free(t->marks);
	free(t->stack);
}

int
tui_run(struct model *m, const struct tui_options *opt)
{
	struct tui t;

	/* the character set only: numbers are read and written with a dot
	 * whatever the user's locale (the index thread parses the dump's
	 * numbers while the TUI runs; tests/e2e/tui_locale.sh) */
	setlocale(LC_CTYPE, "");
	tui_init(&t, m, opt);
	if (!screen_init(&t)) {
		tui_free(&t);
		return 1;
	}
	t.prompt = prompt_new(&t);
	model_progress(m, &t.progress);
	t.diff_scanning = tui_diff(&t) != NULL;
	screen_relayout(&t);
	tui_reopen(&t);
	follow_tail(&t);            /* selects the first row if there is one yet */
	tui_state_load(&t);
	event_loop(&t);
	tui_state_save(&t);
	tui_free(&t);
	return t.exit_code;
}
