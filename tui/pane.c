/*
 * pane.c - the generic pane engine: window, title, scrolling, cursor,
 * search and the drawing helpers every pane uses.
 *
 * It never stores rows: pane_draw() asks ops->draw_row for the visible rows
 * only, so a pane over millions of traces costs what the screen shows.
 */
#include "pane.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/model_regex.h"
#include "reader/base/util.h"
#include "tui/cmd/sanitize.h"
#include "theme.h"
#include "tui_internal.h"

/* Search gives up after this long (seconds) and says where it stopped. */
#define PANE_SEARCH_BUDGET 3.0

void
pane_init(struct pane *p, const struct pane_ops *ops, struct tui *tui, int id)
{
	memset(p, 0, sizeof *p);
	p->ops = ops;
	p->tui = tui;
	p->id = id;
	p->match = -1;
	p->name = id >= 0 && id < PANE_COUNT ? pane_info[id].name : ops->name;
	p->title = id >= 0 && id < PANE_COUNT ? pane_info[id].title : ops->title;
}

void
pane_done(struct pane *p)
{
	if (p->ops && p->ops->done)
		p->ops->done(p);
	if (p->win)
		delwin(p->win);
	p->win = NULL;
	p->priv = NULL;
}

void
pane_place(struct pane *p, const struct rect *r, bool shown)
{
	p->shown = shown && r->h > 0 && r->w > 0;
	if (!p->shown) {
		if (p->win)
			delwin(p->win);
		p->win = NULL;
		return;
	}
	bool resized = !p->win || p->r.h != r->h;
	p->r = *r;
	if (p->win && (wresize(p->win, r->h, r->w) == ERR || mvwin(p->win, r->y, r->x) == ERR)) {
		delwin(p->win);
		p->win = NULL;
	}
	if (!p->win)
		p->win = newwin(r->h, r->w, r->y, r->x);
	if (p->win)
		keypad(p->win, TRUE);
	/* a pane that (re)appears or changes height shows its cursor mid-window */
	if (resized && !(p->ops->flags & PANE_NO_CURSOR)) {
		int h = pane_height(p);
		p->top = h && p->cursor > (uint64_t)(h / 2) ? p->cursor - (uint64_t)(h / 2) : 0;
	}
	pane_clamp(p);
}

static bool
has_header(const struct pane *p)
{
	return p->ops->header && (!p->ops->header_shown || p->ops->header_shown(p));
}

int
pane_first_line(const struct pane *p)
{
	return 1 + (has_header(p) ? 1 : 0);
}

int
pane_height(const struct pane *p)
{
	int h = p->r.h - pane_first_line(p);
	return h > 0 ? h : 0;
}

uint64_t
pane_count(struct pane *p)
{
	return p->ops->row_count ? p->ops->row_count(p) : 0;
}

void
pane_clamp(struct pane *p)
{
	uint64_t n = pane_count(p), h = (uint64_t)pane_height(p);

	if (n == 0) {
		p->cursor = p->top = 0;
		return;
	}
	if (p->cursor >= n)
		p->cursor = n - 1;
	if (p->ops->flags & PANE_NO_CURSOR) {
		if (n > h && p->cursor > n - h)
			p->cursor = n - h;
		if (n <= h)
			p->cursor = 0;
		p->top = p->cursor;
		return;
	}
	if (p->top > p->cursor)
		p->top = p->cursor;
	if (h && p->cursor >= p->top + h)
		p->top = p->cursor - h + 1;
	if (h && n >= h && p->top > n - h)
		p->top = n - h;
}

void
pane_goto(struct pane *p, uint64_t row, bool centre, bool force)
{
	uint64_t old = p->cursor, n = pane_count(p), h = (uint64_t)pane_height(p);

	if (n == 0)
		return;
	p->cursor = row < n ? row : n - 1;
	if (centre && h && !(p->ops->flags & PANE_NO_CURSOR))
		p->top = p->cursor > h / 2 ? p->cursor - h / 2 : 0;
	pane_clamp(p);
	if ((force || p->cursor != old) && p->ops->select)
		p->ops->select(p, p->cursor);
}

static void
draw_title(struct pane *p)
{
	enum style_slot s = p->focused ? STYLE_TITLE_FOCUS : STYLE_TITLE_BLUR;
	char pos[64] = "", extra[256] = "";
	uint64_t n = pane_count(p);
	int x;

	wattrset(p->win, theme_style(s));
	mvwhline(p->win, 0, 0, ' ', p->r.w);
	if (p->id >= 0)
		x = pane_printf(p, 0, 0, s, -1, "[%d] %s", p->id + 1, p->title);
	else
		x = pane_printf(p, 0, 0, s, -1, " %s", p->title);
	if (p->ops->title_extra)
		p->ops->title_extra(p, extra, sizeof extra);
	if (p->ops->flags & PANE_NO_POSITION)
		;
	else if (n && !(p->ops->flags & PANE_OWN_CURSOR))
		snprintf(pos, sizeof pos, " %llu/%llu ", (unsigned long long)p->cursor + 1,
			 (unsigned long long)n);
	else if (!(p->ops->flags & PANE_OWN_CURSOR))
		snprintf(pos, sizeof pos, " 0/0 ");
	int posw = (int)strlen(pos);
	if ((p->ops->flags & PANE_EXTRA_FIRST) && x + 2 + (int)strlen(extra) > p->r.w - posw) {
		pos[0] = '\0';
		posw = 0;
	}
	if (extra[0] && x + 2 < p->r.w - posw)
		pane_print(p, 0, x + 2, s, extra, p->r.w - posw - x - (posw ? 3 : 2));
	if (posw < p->r.w - x)
		pane_print(p, 0, p->r.w - posw, s, pos, posw);
}

/* The empty-state text, word-wrapped over the pane's lines. */
static void
draw_empty(struct pane *p)
{
	const char *why = p->ops->empty ? p->ops->empty(p) : "nothing to show";
	int y = pane_first_line(p), w = p->r.w - 2;

	while (*why && y < p->r.h && w > 0) {
		size_t len = strlen(why), cut = len;
		if ((int)len > w) {
			cut = (size_t)w;
			while (cut > 0 && why[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = (size_t)w;
		}
		char line[512];
		snprintf(line, sizeof line, "%.*s", (int)TD_MIN(cut, sizeof line - 1), why);
		pane_print(p, y++, 1, STYLE_DIM, line, w);
		why += cut;
		while (*why == ' ')
			why++;
	}
}

void
pane_draw(struct pane *p)
{
	int first = pane_first_line(p), h = pane_height(p);
	uint64_t n;

	if (!p->win)
		return;
	werase(p->win);
	pane_clamp(p);
	n = pane_count(p);
	draw_title(p);
	if (has_header(p) && h > 0) {
		wattrset(p->win, theme_style(STYLE_HEADER));
		mvwhline(p->win, 1, 0, ' ', p->r.w);
		p->ops->header(p, 1);
	}
	if (n == 0) {
		draw_empty(p);
		return;
	}
	for (int y = 0; y < h && p->top + (uint64_t)y < n; y++) {
		uint64_t row = p->top + (uint64_t)y;
		bool cur = row == p->cursor && !(p->ops->flags & (PANE_OWN_CURSOR | PANE_NO_CURSOR));
		enum style_slot s = p->focused ? STYLE_SELECTED : STYLE_SELECTED_BLUR;

		p->drawing_match = (p->ops->flags & PANE_NO_CURSOR) && (int64_t)row == p->match;
		if (p->drawing_match)
			s = STYLE_SEARCH_MATCH; /* a text view's search match */

		p->drawing_cursor = cur;
		wattrset(p->win, theme_style(cur || p->drawing_match ? s : STYLE_DEFAULT));
		mvwhline(p->win, first + y, 0, ' ', p->r.w);
		p->ops->draw_row(p, row, first + y);
		p->drawing_cursor = p->drawing_match = false;
	}
	wattrset(p->win, theme_style(STYLE_DEFAULT));
}

static int
print_impl(struct pane *p, int y, int x, enum style_slot s, const char *text, int maxcols, bool tail)
{
	struct strbuf sb = { 0 };
	int room = p->r.w - x, w;

	if (!p->win || x >= p->r.w || y >= p->r.h || y < 0 || x < 0)
		return 0;
	if (maxcols < 0 || maxcols > room)
		maxcols = room;
	if (p->drawing_cursor && s != STYLE_TITLE_FOCUS && s != STYLE_TITLE_BLUR)
		s = p->focused ? STYLE_SELECTED : STYLE_SELECTED_BLUR;
	else if (p->drawing_match)
		s = STYLE_SEARCH_MATCH;
	w = tail ? sanitize_tail(text ? text : "", maxcols, &sb) : sanitize_str(text, maxcols, &sb);
	wattrset(p->win, theme_style(s));
	mvwaddstr(p->win, y, x, sb.buf ? sb.buf : "");
	strbuf_done(&sb);
	return w;
}

int
pane_print(struct pane *p, int y, int x, enum style_slot s, const char *text, int maxcols)
{
	return print_impl(p, y, x, s, text, maxcols, false);
}

int
pane_print_tail(struct pane *p, int y, int x, enum style_slot s, const char *text, int maxcols)
{
	return print_impl(p, y, x, s, text, maxcols, true);
}

int
pane_printf(struct pane *p, int y, int x, enum style_slot s, int maxcols, const char *fmt, ...)
{
	struct strbuf sb = { 0 };
	va_list ap;
	int w;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	w = pane_print(p, y, x, s, sb.buf ? sb.buf : "", maxcols);
	strbuf_done(&sb);
	return w;
}

const char *
pane_tail(const char *s, int maxw, char *buf, size_t size)
{
	size_t len = strlen(s);

	if (maxw < 4 || (int)len <= maxw) {
		snprintf(buf, size, "%s", s);
		return buf;
	}
	snprintf(buf, size, "...%s", s + len - (size_t)(maxw - 3));
	return buf;
}

bool
pane_match(const pcre2_code *re, const char *s)
{
	if (!re || !s)
		return false;
	/* bounded (model_regex.h); a line the regex cannot decide is shown
	 * (the search stops on it), never passed over as "no match" */
	return model_regex_match(re, s, strlen(s), NULL) != MODEL_REGEX_NO;
}

int64_t
pane_search(struct pane *p, const pcre2_code *re, int dir, uint64_t limit, bool *stopped,
	    uint64_t *scanned)
{
	uint64_t n = pane_count(p), row = p->cursor;
	double start = td_now();

	if ((p->ops->flags & PANE_NO_CURSOR) && p->match >= 0 && (uint64_t)p->match >= p->top &&
	    (uint64_t)p->match < p->top + (uint64_t)pane_height(p) && (uint64_t)p->match < n)
		row = (uint64_t)p->match;

	*stopped = false;
	*scanned = 0;
	if (!p->ops->grep || n == 0)
		return -1;
	if (limit > n)
		limit = n;
	for (uint64_t i = 1; i <= limit; i++) {
		row = dir > 0 ? (row + 1) % n : (row + n - 1) % n;
		*scanned = i;
		if (p->ops->grep(p, row, re))
			return (int64_t)row;
		if ((i & 1023) == 0 && i < limit && td_now() - start > PANE_SEARCH_BUDGET) {
			*stopped = true;
			return (int64_t)row;
		}
	}
	return -1;
}

unsigned
pane_request(struct pane *p, enum action act)
{
	uint64_t n = pane_count(p), h = (uint64_t)pane_height(p);
	uint64_t cur = p->cursor;

	if (p->ops->request && (act = p->ops->request(p, act)) == ACT_NONE)
		return RES_REDRAW | RES_HANDLED;
	if (!h)
		h = 1;
	switch (act) {
	case ACT_MOVE_DOWN:
		if (n)
			pane_goto(p, cur + 1 < n ? cur + 1 : cur, false, false);
		break;
	case ACT_MOVE_UP:
		pane_goto(p, cur ? cur - 1 : 0, false, false);
		break;
	case ACT_PAGE_DOWN:
		p->top += h;
		pane_goto(p, cur + h, false, false);
		break;
	case ACT_PAGE_UP:
		p->top = p->top > h ? p->top - h : 0;
		pane_goto(p, cur > h ? cur - h : 0, false, false);
		break;
	case ACT_MOVE_FIRST:
		pane_goto(p, 0, false, false);
		break;
	case ACT_MOVE_LAST:
		if (n)
			pane_goto(p, n - 1, false, false);
		break;
	default:
		return RES_NONE;
	}
	return RES_REDRAW | RES_HANDLED;
}
