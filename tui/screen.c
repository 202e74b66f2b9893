/*
 * screen.c - curses setup, layout to windows, the status bar, full redraws
 * and the screen dump behind :save-display.
 *
 * Resize is one path (tig's resize_display): KEY_RESIZE -> screen_relayout()
 * -> layout_compute() -> wresize/mvwin -> full redraw.  Nothing runs in a
 * signal handler.  Below the minimum size one "terminal too small" line is
 * drawn (ncdu's ncresize).
 */
#include "tui_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "model/model_diff.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/outfile.h"
#include "tui/cmd/sanitize.h"

#define SCREEN_CCHAR_MAX CCHARW_MAX

static SCREEN *screen;

bool
screen_init(struct tui *t)
{
	const char *term = getenv("TERM");

	if (!term || !*term || !strcmp(term, "dumb")) {
		fprintf(stderr, "tdbg: the terminal (TERM=%s) cannot show the full-screen interface; "
			"use batch mode: tdbg -e COMMAND DUMP\n", term ? term : "");
		return false;
	}
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		fprintf(stderr, "tdbg: cannot initialise the terminal (TERM=%s)\n", term);
		return false;
	}
	sanitize_set_utf8(!strcmp(nl_langinfo(CODESET), "UTF-8"));
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	curs_set(0);
	if (has_colors() && !t->opt->no_color) {
		start_color();
		use_default_colors();
	}
	theme_apply(&t->theme, t->opt->no_color);
	if (t->opt->mouse)
		mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	t->status_win = newwin(1, COLS, LINES > 1 ? LINES - 2 : 0, 0);
	t->prompt_win = newwin(1, COLS, LINES - 1, 0);
	if (!t->status_win || !t->prompt_win) {
		screen_done(t);
		fprintf(stderr, "tdbg: cannot create windows on a %dx%d terminal\n", COLS, LINES);
		return false;
	}
	keypad(t->prompt_win, TRUE);
	return true;
}

void
screen_done(struct tui *t)
{
	for (int i = 0; i < PANE_COUNT; i++)
		pane_done(&t->panes[i]);
	pane_done(&t->overlay_pane);
	if (t->status_win)
		delwin(t->status_win);
	if (t->prompt_win)
		delwin(t->prompt_win);
	t->status_win = t->prompt_win = NULL;
	if (screen) {
		endwin();
		delscreen(screen);
		screen = NULL;
	}
}

static void
place_line(WINDOW **w, const struct rect *r)
{
	if (*w && (wresize(*w, 1, r->w > 0 ? r->w : 1) == ERR || mvwin(*w, r->y, r->x) == ERR)) {
		delwin(*w);
		*w = NULL;
	}
	if (!*w)
		*w = newwin(1, r->w > 0 ? r->w : 1, r->y, r->x);
	if (*w)
		keypad(*w, TRUE);
}

void
screen_relayout(struct tui *t)
{
	struct layout *l = &t->layout;

	struct layout_opts o = { PANE_TRACES, tui_no_source(t) };

	/* the story layout keeps the Timeline beside Alerts until the trace
	 * table is wanted */
	if (l->mode == LAYOUT_STORY && l->shown[PANE_TIMELINE])
		o.beside_alerts = PANE_TIMELINE;
	layout_compute_opts(COLS, LINES, t->focus, &o, l);
	for (int i = 0; i < PANE_COUNT; i++) {
		t->panes[i].focused = i == (int)t->focus && t->overlay == OVERLAY_NONE;
		pane_place(&t->panes[i], &l->pane[i], l->shown[i] && t->overlay == OVERLAY_NONE);
	}
	t->overlay_pane.focused = true;
	pane_place(&t->overlay_pane, &l->body, t->overlay != OVERLAY_NONE && l->mode != LAYOUT_TOO_SMALL);
	if (LINES >= 2) {
		place_line(&t->status_win, &l->status);
		place_line(&t->prompt_win, &l->prompt);
	}
	/* the help is wrapped for the width */
	if (t->overlay == OVERLAY_HELP && t->help_width != COLS)
		tui_build_help(t);
	/* the graph pane centres its op for the new height */
	if (t->panes[PANE_GRAPH].ops->open)
		t->panes[PANE_GRAPH].ops->open(&t->panes[PANE_GRAPH]);
	t->need_relayout = false;
}

/* Segment priorities of the status bar: what says the view is partial or
 * damaged stays longest, the host goes first. */
enum { PRIO_HOST, PRIO_PATH, PRIO_FORMAT, PRIO_COUNTS, PRIO_STATE };

/* The status line's segments into segs (texts in bufs); returns how many. */
static size_t
status_segments(struct tui *t, struct fmt_seg *segs, char bufs[][256])
{
	struct model_info info;
	const struct model_progress *pr = &t->progress;
	const char *path;
	size_t n = 0;

	model_info(t->m, &info);
	path = t->opt->dump_path ? t->opt->dump_path : info.path;
	if (t->opt->diff)           /* two dumps compared: "A vs B" */
		snprintf(bufs[n], 256, "%s vs %s", path ? path : "?",
			 t->opt->dump_b_path ? t->opt->dump_b_path : "its other host");
	else
		snprintf(bufs[n], 256, "%s", path ? path : "?");
	const char *base = t->opt->diff ? NULL : strrchr(bufs[n], '/');
	while (base && base[1] == '\0' && base > bufs[n])     /* "dump/" */
		base = memrchr(bufs[n], '/', (size_t)(base - bufs[n]));
	segs[n] = (struct fmt_seg){ bufs[n], base && base[1] ? base + 1 : NULL, PRIO_PATH };
	n++;
	snprintf(bufs[n], 256, "%s%s%s", info.format ? info.format : "?",
		 info.tensor_debug_mode ? " " : "", info.tensor_debug_mode ? info.tensor_debug_mode : "");
	segs[n] = (struct fmt_seg){ bufs[n], NULL, PRIO_FORMAT };
	n++;
	if (info.nhosts == 1)
		snprintf(bufs[n], 256, "host %s", info.hosts[0]);
	else if (info.nhosts > 1)
		snprintf(bufs[n], 256, "%zu hosts", info.nhosts);
	if (info.nhosts)
		segs[n] = (struct fmt_seg){ bufs[n], NULL, PRIO_HOST }, n++;
	snprintf(bufs[n], 256, "%llu exec  %llu traces  %llu alerts", (unsigned long long)info.executions,
		 (unsigned long long)info.traces, (unsigned long long)info.alerts);
	snprintf(bufs[n + 1], 256, "%llu exec %llu traces %llu alerts", (unsigned long long)info.executions,
		 (unsigned long long)info.traces, (unsigned long long)info.alerts);
	segs[n] = (struct fmt_seg){ bufs[n], bufs[n + 1], PRIO_COUNTS };
	n += 2;                     /* bufs[n + 1] holds the shorter form */
	segs[n - 1] = (struct fmt_seg){ NULL, NULL, PRIO_HOST };
	if (!pr->done) {
		snprintf(bufs[n], 256, "indexing %d%%", pr->bytes_total ?
			 (int)(pr->bytes_done * 100 / pr->bytes_total) : 0);
		segs[n] = (struct fmt_seg){ bufs[n], NULL, PRIO_STATE }, n++;
	}
	if (t->filter) {
		snprintf(bufs[n], 256, "filter: %s", model_filter_describe(t->filter));
		segs[n] = (struct fmt_seg){ bufs[n], NULL, PRIO_STATE }, n++;
	}
	if (info.corrupt_records || info.torn_files || info.missing_files) {
		snprintf(bufs[n], 256, "corrupt %llu  torn %llu  missing %llu",
			 (unsigned long long)info.corrupt_records, (unsigned long long)info.torn_files,
			 (unsigned long long)info.missing_files);
		segs[n] = (struct fmt_seg){ bufs[n], NULL, PRIO_STATE }, n++;
	}
	if (t->follow) {
		/* a reader holding back what is still being written says how much */
		const struct model_meta *w = model_meta_get(t->m, "incomplete_iterations");
		const char *v = w && w->nvalues ? w->values[w->nvalues - 1] : "0";

		if (strcmp(v, "0") != 0)
			snprintf(bufs[n], 256, "[follow: %s being written]", v);
		else
			snprintf(bufs[n], 256, "[follow]");
		segs[n] = (struct fmt_seg){ bufs[n], NULL, PRIO_STATE }, n++;
	}
	return n;
}

void
screen_draw_status(struct tui *t)
{
	struct fmt_seg segs[10];
	char bufs[10][256], line[1024];
	struct strbuf out = { 0 };
	size_t n;
	int w;

	if (!t->status_win)
		return;
	n = status_segments(t, segs, bufs);
	werase(t->status_win);
	wbkgdset(t->status_win, ' ' | theme_style(STYLE_STATUS));
	wattrset(t->status_win, theme_style(STYLE_STATUS));
	mvwhline(t->status_win, 0, 0, ' ', COLS);
	/* on small terminals, say how to reach the panes not shown */
	const char *hint = t->layout.mode == LAYOUT_FULL ? "? help "
			   : t->layout.mode == LAYOUT_STORY ? "w: timeline/traces  ? help " : "w: more panes  ? help ";
	if (COLS < 100 && t->layout.mode != LAYOUT_FULL)
		hint = COLS < 60 ? "?:help " : "w:panes ?:help ";
	int hw = (int)strlen(hint), room = COLS > hw + 1 ? COLS - hw - 1 : COLS;
	fmt_fit_segments(segs, n, room, line, sizeof line);
	w = sanitize_str(line, room, &out);
	mvwaddstr(t->status_win, 0, 0, out.buf ? out.buf : "");
	if (COLS - w >= hw + 1)
		mvwaddstr(t->status_win, 0, COLS - hw, hint);
	strbuf_done(&out);
	wnoutrefresh(t->status_win);
}

static void
draw_message(struct tui *t)
{
	struct strbuf out = { 0 };

	if (!t->prompt_win)
		return;
	werase(t->prompt_win);
	if (t->message[0]) {
		sanitize_str(t->message, COLS, &out);
		wattrset(t->prompt_win, theme_style(t->message_error ? STYLE_STATUS_ERROR : STYLE_PROMPT));
		mvwaddstr(t->prompt_win, 0, 0, out.buf ? out.buf : "");
		wattrset(t->prompt_win, theme_style(STYLE_DEFAULT));
	}
	strbuf_done(&out);
	wnoutrefresh(t->prompt_win);
}

static void
draw_too_small(struct tui *t)
{
	char msg[96];

	snprintf(msg, sizeof msg, "too small: %dx%d, tdbg needs %dx%d", COLS, LINES,
		 LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
	werase(stdscr);
	mvwaddnstr(stdscr, 0, 0, msg, COLS);
	wnoutrefresh(stdscr);
	(void)t;
}

/* A pane separator: Unicode box drawing in a UTF-8 locale (what tmux
 * captures and copy-paste then read), else the terminal's line. */
static void
draw_vline(int y, int x, int h)
{
	cchar_t bar;
	const wchar_t wbar[] = { 0x2502, 0 };
	attr_t a = theme_style(STYLE_SEPARATOR);

	if (sanitize_utf8() && setcchar(&bar, wbar, a & ~A_COLOR, (short)PAIR_NUMBER(a), NULL) == OK)
		mvwvline_set(stdscr, y, x, &bar, h);
	else
		mvwvline(stdscr, y, x, ACS_VLINE | a, h);
}

void
screen_draw(struct tui *t)
{
	const struct layout *l = &t->layout;

	if (t->need_relayout)
		screen_relayout(t);
	if (l->mode == LAYOUT_TOO_SMALL) {
		draw_too_small(t);
		if (LINES >= 2)
			screen_draw_status(t);
		doupdate();
		return;
	}
	werase(stdscr);
	for (int i = 0; i < l->nsep && t->overlay == OVERLAY_NONE; i++)
		draw_vline(l->sep[i].y, l->sep[i].x, l->sep[i].h);
	wnoutrefresh(stdscr);
	for (int i = 0; i < PANE_COUNT; i++) {
		if (!t->panes[i].shown)
			continue;
		pane_draw(&t->panes[i]);
		wnoutrefresh(t->panes[i].win);
	}
	if (t->overlay != OVERLAY_NONE && t->overlay_pane.win) {
		pane_draw(&t->overlay_pane);
		wnoutrefresh(t->overlay_pane.win);
	}
	screen_draw_status(t);
	draw_message(t);
	doupdate();
}

/* The text of a line-drawing character curses keeps as an
 * alternate-charset letter (VT100 'x' for a vertical line): box drawing
 * in a UTF-8 locale, ASCII otherwise, never the letter. */
static const char *
acs_text(wchar_t c)
{
	static const struct { wchar_t acs; const char *utf8, *ascii; } map[] = {
		{ 'x', "\xe2\x94\x82", "|" }, { 'q', "\xe2\x94\x80", "-" },
		{ 'l', "\xe2\x94\x8c", "+" }, { 'k', "\xe2\x94\x90", "+" },
		{ 'm', "\xe2\x94\x94", "+" }, { 'j', "\xe2\x94\x98", "+" },
		{ 't', "\xe2\x94\x9c", "+" }, { 'u', "\xe2\x94\xa4", "+" },
		{ 'v', "\xe2\x94\xb4", "+" }, { 'w', "\xe2\x94\xac", "+" },
		{ 'n', "\xe2\x94\xbc", "+" }, { 'a', "\xe2\x96\x92", "#" },
		{ '~', "\xc2\xb7", "o" }, { '`', "\xe2\x97\x86", "+" },
	};

	for (size_t i = 0; i < TD_ARRAY_SIZE(map); i++)
		if (map[i].acs == c)
			return sanitize_utf8() ? map[i].utf8 : map[i].ascii;
	return NULL;
}

/* One screen line as UTF-8 text, trailing blanks dropped. */
static void
dump_line(int y, struct strbuf *sb)
{
	size_t start = sb->len, keep = sb->len;

	for (int x = 0; x < COLS; x++) {
		cchar_t cc;
		wchar_t wch[SCREEN_CCHAR_MAX + 1];
		attr_t attrs;
		short pair;
		char mb[MB_LEN_MAX * (SCREEN_CCHAR_MAX + 1)];
		size_t n = 0;
		mbstate_t st;

		if (mvwin_wch(curscr, y, x, &cc) == ERR)
			break;
		if (getcchar(&cc, wch, &attrs, &pair, NULL) == ERR)
			continue;
		const char *acs = (attrs & A_ALTCHARSET) ? acs_text(wch[0]) : NULL;
		if (acs) {
			strbuf_adds(sb, acs);
			keep = sb->len;
			continue;
		}
		memset(&st, 0, sizeof st);
		for (int i = 0; wch[i] && i < SCREEN_CCHAR_MAX; i++) {
			size_t k = wcrtomb(mb + n, wch[i], &st);
			if (k != (size_t)-1)
				n += k;
		}
		if (n == 0)
			continue;          /* the right half of a wide character */
		strbuf_add(sb, mb, n);
		if (!(n == 1 && mb[0] == ' '))
			keep = sb->len;
	}
	sb->len = keep > start ? keep : start;
	strbuf_addc(sb, '\n');
}

bool
screen_save(struct tui *t, const char *path, char *err, size_t errlen)
{
	struct model_diff *diff = tui_diff(t);
	struct model *dumps[2] = { t->m, diff ? model_diff_b(diff) : NULL };
	struct strbuf sb = { 0 };
	bool ok;

	for (int y = 0; y < LINES; y++)
		dump_line(y, &sb);
	/* replaces an older screen dump through a new file, never writes
	 * into a dump (outfile.h) */
	ok = outfile_write(path, dumps, 2, true, sb.buf ? sb.buf : "", sb.len, err, errlen) == TD_OK;
	strbuf_done(&sb);
	return ok;
}
