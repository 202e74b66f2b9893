/*
 * tui_ranks.c - the ranks view: `tdbg MERGED.jsonl` on a file of merged or
 * node lines (tdbg --merge --json, tdbg --node) shows every rank as a cell
 * of a grid, marked and coloured by its outcome: the first bad step (the
 * earliest step any rank went bad at), a later bad step, finite, an error,
 * or missing.  Enter on a rank shows its node line and the commands that
 * open its dump on its node; q quits.
 *
 * A small full-screen loop of its own: there is no dump (no model) behind
 * it, so none of the panes apply.  Every string from the lines goes
 * through the sanitizer.
 */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/many.h"
#include "tui/cmd/merge.h"
#include "tui/cmd/sanitize.h"
#include "theme.h"
#include "tui.h"

enum cell_kind { CELL_FIRST_STEP, CELL_LATER_STEP, CELL_FINITE, CELL_ERROR, CELL_MISSING };

static const struct {
	char mark;
	enum style_slot style;
	const char *what;
} kinds[] = {
	[CELL_FIRST_STEP] = { '!', STYLE_NONFINITE, "NaN/Inf from the first bad step" },
	[CELL_LATER_STEP] = { '*', STYLE_ALERT, "NaN/Inf from a later step" },
	[CELL_FINITE]     = { '.', STYLE_DEFAULT, "finite" },
	[CELL_ERROR]      = { 'E', STYLE_CORRUPT, "error" },
	[CELL_MISSING]    = { '?', STYLE_DIM, "missing" },
};

struct cell {
	int64_t rank;
	long line;                  /* index into v, -1 missing */
	enum cell_kind kind;
};

struct ranks_ui {
	const char *path;
	struct merge_rank_view *v;
	size_t n;
	struct cell *cells;
	size_t ncells, cur, top;    /* top: first grid row shown */
	int64_t first_step;         /* earliest bad step, -1 none */
	int64_t first_rank;
	int width;                  /* columns of a cell */
	bool detail;
};

static int
cell_cmp(const void *pa, const void *pb)
{
	const struct cell *a = pa, *b = pb;
	uint64_t ra = (uint64_t)a->rank, rb = (uint64_t)b->rank;

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static enum cell_kind
kind_of(const struct ranks_ui *u, const struct merge_rank_view *r)
{
	if (r->error)
		return CELL_ERROR;
	if (!r->bad)
		return CELL_FINITE;
	return r->step == u->first_step ? CELL_FIRST_STEP : CELL_LATER_STEP;
}

static void
build_cells(struct ranks_ui *u, const int64_t *missing, size_t nmissing)
{
	size_t i;
	int64_t top = 0;
	char buf[32];

	u->first_step = -1;
	u->first_rank = -1;
	for (i = 0; i < u->n; i++)
		if (u->v[i].first) {
			u->first_step = u->v[i].step;
			u->first_rank = u->v[i].rank;
		}
	u->cells = xcalloc(u->n + nmissing + 1, sizeof *u->cells);
	for (i = 0; i < u->n; i++) {
		u->cells[u->ncells++] = (struct cell){ u->v[i].rank, (long)i, kind_of(u, &u->v[i]) };
		if (u->v[i].rank > top)
			top = u->v[i].rank;
	}
	for (i = 0; i < nmissing; i++)
		u->cells[u->ncells++] = (struct cell){ missing[i], -1, CELL_MISSING };
	td_sort(u->cells, u->ncells, sizeof *u->cells, cell_cmp);
	u->width = snprintf(buf, sizeof buf, "%lld", (long long)top) + 3;   /* "! 12 " */
}

static void
put(int y, int x, const char *s, int maxcols, enum style_slot st)
{
	struct strbuf sb = {0};

	if (maxcols <= 0)
		return;
	sanitize_str(s, maxcols, &sb);
	attrset((attr_t)theme_style(st));
	mvaddstr(y, x, sb.buf ? sb.buf : "");
	attrset(A_NORMAL);
	strbuf_done(&sb);
}

static int
grid_cols(const struct ranks_ui *u)
{
	int c = COLS / u->width;

	return c > 0 ? c : 1;
}

static void
draw_legend(const struct ranks_ui *u, int y)
{
	int x = 0;
	char buf[96];

	for (size_t k = 0; k < TD_ARRAY_SIZE(kinds); k++) {
		if (k == CELL_FIRST_STEP && u->first_step >= 0)
			snprintf(buf, sizeof buf, "%c NaN/Inf from step %lld (the first)  ", kinds[k].mark,
				 (long long)u->first_step);
		else
			snprintf(buf, sizeof buf, "%c %s  ", kinds[k].mark, kinds[k].what);
		put(y, x, buf, COLS - x, kinds[k].style);
		x += (int)strlen(buf);
		if (x >= COLS)
			break;
	}
}

static void
draw_grid(struct ranks_ui *u)
{
	int cols = grid_cols(u), rows = LINES - 4, y, x;
	size_t i, row;
	char buf[48], title[256];

	if (rows < 1)
		rows = 1;
	row = u->cur / (size_t)cols;
	if (row < u->top)
		u->top = row;
	if (row >= u->top + (size_t)rows)
		u->top = row - (size_t)rows + 1;
	snprintf(title, sizeof title, "tdbg ranks: %zu ranks, first bad rank %s", u->ncells,
		 u->first_rank >= 0 ? "" : "none");
	if (u->first_rank >= 0)
		snprintf(title + strlen(title), sizeof title - strlen(title), "%lld",
			 (long long)u->first_rank);
	put(0, 0, title, COLS, STYLE_TITLE_FOCUS);
	draw_legend(u, 1);
	for (i = u->top * (size_t)cols; i < u->ncells; i++) {
		y = 3 + (int)(i / (size_t)cols - u->top);
		x = (int)(i % (size_t)cols) * u->width;
		if (y >= LINES - 1)
			break;
		if (u->cells[i].rank >= 0)
			snprintf(buf, sizeof buf, "%c %*lld", kinds[u->cells[i].kind].mark, u->width - 3,
				 (long long)u->cells[i].rank);
		else            /* a line that names no rank */
			snprintf(buf, sizeof buf, "%c %*s", kinds[u->cells[i].kind].mark, u->width - 3, "?");
		put(y, x, buf, u->width - 1, i == u->cur ? STYLE_SELECTED : kinds[u->cells[i].kind].style);
	}
}

static void
draw_status(const struct ranks_ui *u)
{
	struct strbuf sb = {0};
	const struct cell *c = u->ncells ? &u->cells[u->cur] : NULL;

	if (c && c->line >= 0) {
		const struct merge_rank_view *r = &u->v[c->line];

		if (c->rank >= 0)
			strbuf_addf(&sb, "rank %lld on %s: ", (long long)c->rank, r->node);
		else
			strbuf_addf(&sb, "rank ? on %s: ", r->node);
		if (r->error)
			strbuf_addf(&sb, "error: %s", r->error);
		else if (r->bad && r->step >= 0)
			strbuf_addf(&sb, "NaN/Inf from step %lld", (long long)r->step);
		else
			strbuf_adds(&sb, r->bad ? "NaN/Inf" : "finite");
	} else if (c) {
		strbuf_addf(&sb, "rank %lld: missing (no node answered for it)", (long long)c->rank);
	}
	strbuf_adds(&sb, "   Enter: its line and commands  q: quit");
	put(LINES - 1, 0, sb.buf, COLS, STYLE_STATUS);
	strbuf_done(&sb);
}

/* The line of the selected rank, wrapped, and its drill-down commands. */
static void
draw_detail(const struct ranks_ui *u)
{
	const struct cell *c = &u->cells[u->cur];
	const struct merge_rank_view *r = c->line >= 0 ? &u->v[c->line] : NULL;
	struct strbuf sb = {0};
	int y = 2;
	size_t off, len;

	strbuf_addf(&sb, "rank %lld", (long long)c->rank);
	put(0, 0, sb.buf, COLS, STYLE_OVERLAY_TITLE);
	if (!r) {
		put(y, 0, "missing: no node answered for this rank", COLS, STYLE_DIM);
	} else {
		len = strlen(r->line);
		for (off = 0; off < len && y < LINES - 6; off += (size_t)COLS, y++) {
			strbuf_reset(&sb);
			strbuf_add(&sb, r->line + off, len - off < (size_t)COLS ? len - off : (size_t)COLS);
			put(y, 0, sb.buf, COLS, STYLE_DEFAULT);
		}
		put(++y, 0, "look closer on its node:", COLS, STYLE_HEADER);
		strbuf_reset(&sb);
		merge_drill(&sb, true, "tdbg", r->node, r->dump);
		put(++y, 2, sb.buf, COLS - 2, STYLE_LINK);
		strbuf_reset(&sb);
		merge_drill(&sb, false, "tdbg", r->node, r->dump);
		put(++y, 2, sb.buf, COLS - 2, STYLE_LINK);
	}
	put(LINES - 1, 0, "Esc or Enter: back to the ranks  q: quit", COLS, STYLE_STATUS);
	strbuf_done(&sb);
}

static void
move_cursor(struct ranks_ui *u, long delta)
{
	long cur = (long)u->cur + delta;

	if (cur < 0)
		cur = 0;
	if (cur >= (long)u->ncells)
		cur = (long)u->ncells - 1;
	u->cur = cur < 0 ? 0 : (size_t)cur;
}

/* Returns false to quit. */
static bool
key(struct ranks_ui *u, int ch)
{
	long cols = grid_cols(u);

	if (ch == 'q')
		return false;
	if (u->detail) {
		if (ch == 27 || ch == '\r' || ch == '\n' || ch == KEY_ENTER)
			u->detail = false;
		return true;
	}
	switch (ch) {
	case KEY_LEFT: case 'h': move_cursor(u, -1); break;
	case KEY_RIGHT: case 'l': move_cursor(u, 1); break;
	case KEY_UP: case 'k': move_cursor(u, -cols); break;
	case KEY_DOWN: case 'j': move_cursor(u, cols); break;
	case KEY_HOME: case 'g': u->cur = 0; break;
	case KEY_END: case 'G': move_cursor(u, (long)u->ncells); break;
	case '\r': case '\n': case KEY_ENTER: u->detail = u->ncells > 0; break;
	default: break;
	}
	return true;
}

static int
ranks_loop(struct ranks_ui *u, const struct tui_options *opt)
{
	struct theme th;
	char err[256];
	SCREEN *s;
	int ch;

	if (!theme_load(opt->theme ? opt->theme : "dark", &th, err, sizeof err))
		theme_builtin("dark", &th);
	if (!(s = newterm(NULL, stdout, stdin))) {
		fprintf(stderr, "tdbg: cannot initialise the terminal\n");
		return 1;
	}
	sanitize_set_utf8(!strcmp(nl_langinfo(CODESET), "UTF-8"));
	set_escdelay(25);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	curs_set(0);
	if (has_colors() && !opt->no_color) {
		start_color();
		use_default_colors();
	}
	theme_apply(&th, opt->no_color);
	do {
		erase();
		if (u->detail)
			draw_detail(u);
		else {
			draw_grid(u);
			draw_status(u);
		}
		refresh();
		ch = getch();
	} while (ch != ERR && key(u, ch));
	endwin();
	delscreen(s);
	return 0;
}

int
tui_ranks_run(const char *path, const struct tui_options *opt)
{
	struct ranks_ui u = { .path = path };
	struct merge *mg = merge_new(NULL, NULL, 0);
	int64_t *missing = NULL;
	size_t nmissing = 0;
	FILE *f = fopen(path, "r");
	int rc;

	setlocale(LC_CTYPE, "");
	if (!f || !many_read(f, mg)) {
		fprintf(stderr, "tdbg: cannot read the ranks file\n");
		if (f)
			fclose(f);
		merge_free(mg);
		return 2;
	}
	fclose(f);
	u.n = merge_ranks(mg, &u.v, &missing, &nmissing);
	build_cells(&u, missing, nmissing);
	rc = ranks_loop(&u, opt);
	free(missing);
	free(u.cells);
	free(u.v);
	merge_free(mg);
	return rc;
}
