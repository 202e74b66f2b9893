/*
 * layout.c - pane geometry for a terminal size (pure arithmetic).
 *
 * No curses here: tui.c turns the rectangles into windows.  Sizes follow
 * Debugger V2's proportions: the top row (alerts, trace table) takes about
 * a third of the height, the timeline and graph a quarter, source and stack
 * the rest (the story layout keeps the shape with five panes).  The Alerts
 * pane is as wide as its lead lines need (LAYOUT_LEAD_COLS) at every size
 * from the story layout up.
 */
#include "layout.h"

#include <string.h>

static struct rect
mkrect(int y, int x, int h, int w)
{
	struct rect r = { y, x, h, w };
	return r;
}

static int
clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int
layout_page_of(enum pane_id id)
{
	return (int)id >= 0 && id < PANE_COUNT ? pane_info[id].page : 0;
}

/* The n-th pane (0, 1) of page in table order; PANE_COUNT if none. */
static enum pane_id
page_pane(int page, int n)
{
	for (int i = 0; i < PANE_COUNT; i++)
		if (pane_info[i].page == page && n-- == 0)
			return (enum pane_id)i;
	return PANE_COUNT;
}

enum pane_id
layout_page_first(int page)
{
	enum pane_id id = page_pane(clamp(page, 0, LAYOUT_PAGES - 1), 0);
	return id < PANE_COUNT ? id : PANE_ALERTS;
}

enum pane_id
layout_cycle(enum layout_mode mode, enum pane_id id, int dir)
{
	int step = dir < 0 ? PANE_COUNT - 1 : 1;

	if (mode == LAYOUT_STORY)   /* the one pane not shown beside the other */
		return id == PANE_TIMELINE ? PANE_TRACES : PANE_TIMELINE;
	if (mode == LAYOUT_TWO) {
		int p = (layout_page_of(id) + (dir < 0 ? LAYOUT_PAGES - 1 : 1)) % LAYOUT_PAGES;
		return layout_page_first(p);
	}
	return (enum pane_id)((id + step) % PANE_COUNT);
}

static void
add_sep(struct layout *l, int y, int x, int h)
{
	if (l->nsep < (int)(sizeof l->sep / sizeof l->sep[0]))
		l->sep[l->nsep++] = mkrect(y, x, h, 1);
}

static void
show(struct layout *l, enum pane_id id, struct rect r)
{
	l->shown[id] = true;
	l->pane[id] = r;
}

/* Source and Stack at the bottom from row y, h rows. */
static void
bottom_row(struct layout *l, int y, int h)
{
	const struct rect b = l->body;
	int source_w = (b.w - 1) * 3 / 5;
	int stack_w = b.w - 1 - source_w;

	show(l, PANE_SOURCE, mkrect(y, b.x, h, source_w));
	add_sep(l, y, b.x + source_w, h);
	show(l, PANE_STACK, mkrect(y, b.x + source_w + 1, h, stack_w));
}

/* The Alerts pane's width: what its lead lines need (an origin, a watch's
 * hits, the first divergence: "Origin: Log:0 at row 88, step 74: log of a
 * zero in probs:0"), more on wide terminals, never less than LAYOUT_LEAD_COLS. */
static int
alerts_width(int w, int most)
{
	return clamp(w * 2 / 5, LAYOUT_LEAD_COLS, most);
}

/* Six panes: Alerts | Graph executions on top, Timeline (2/5) | Graph in the
 * middle (the graph rarely needs the whole width, the timeline's cells do
 * not need it either), Source | Stack at the bottom; heights about 35%,
 * 25%, the rest. */
static void
layout_full(struct layout *l, bool no_source)
{
	const struct rect b = l->body;
	int top_h = b.h * 35 / 100, mid_h = no_source ? b.h - top_h : b.h / 4;
	int bot_h = b.h - top_h - mid_h;
	int alerts_w = clamp(b.w * 9 / 20, LAYOUT_LEAD_COLS, 90);
	int timeline_w = (b.w - 1) * 2 / 5;

	show(l, PANE_ALERTS, mkrect(b.y, b.x, top_h, alerts_w));
	add_sep(l, b.y, b.x + alerts_w, top_h);
	show(l, PANE_TRACES, mkrect(b.y, b.x + alerts_w + 1, top_h, b.w - alerts_w - 1));
	show(l, PANE_TIMELINE, mkrect(b.y + top_h, b.x, mid_h, timeline_w));
	add_sep(l, b.y + top_h, b.x + timeline_w, mid_h);
	show(l, PANE_GRAPH, mkrect(b.y + top_h, b.x + timeline_w + 1, mid_h, b.w - timeline_w - 1));
	if (bot_h > 0)
		bottom_row(l, b.y + top_h + mid_h, bot_h);
}

/* Five panes: Alerts, (Graph executions or Timeline), Graph, Source |
 * Stack.  Alerts sits beside the other top pane when both get their width
 * (LAYOUT_STORY_SIDE_COLS); narrower, it takes the whole width above it, so
 * its lead lines are never cut.  Heights: the top band about 2/5, the
 * graph 2/5 of the rest (stacked: 1/4, 2/5, 1/5, the rest: the trace
 * table keeps the rows it had beside Alerts). */
static void
layout_story(struct layout *l, enum pane_id visible, const struct layout_opts *o, bool no_source)
{
	const struct rect b = l->body;
	int top_h = b.h * 2 / 5, mid_h = no_source ? b.h - top_h : (b.h - top_h) * 2 / 5;
	int bot_h, alerts_w = alerts_width(b.w, LAYOUT_LEAD_COLS + 2);
	enum pane_id beside = visible == PANE_TIMELINE || visible == PANE_TRACES ? visible
			      : o->beside_alerts == PANE_TIMELINE ? PANE_TIMELINE : PANE_TRACES;

	if (b.w >= LAYOUT_STORY_SIDE_COLS) {
		show(l, PANE_ALERTS, mkrect(b.y, b.x, top_h, alerts_w));
		add_sep(l, b.y, b.x + alerts_w, top_h);
		show(l, beside, mkrect(b.y, b.x + alerts_w + 1, top_h, b.w - alerts_w - 1));
	} else {
		int alerts_h = b.h / 4, beside_h = b.h * 2 / 5;

		top_h = alerts_h + beside_h;
		mid_h = no_source ? b.h - top_h : b.h / 5;
		show(l, PANE_ALERTS, mkrect(b.y, b.x, alerts_h, b.w));
		show(l, beside, mkrect(b.y + alerts_h, b.x, beside_h, b.w));
	}
	bot_h = b.h - top_h - mid_h;
	show(l, PANE_GRAPH, mkrect(b.y + top_h, b.x, mid_h, b.w));
	if (bot_h > 0)
		bottom_row(l, b.y + top_h + mid_h, bot_h);
}

/* Two panes of one page: side by side on wide terminals (the first one
 * narrower for alerts), else one above the other. */
static void
layout_two(struct layout *l, enum pane_id visible)
{
	const struct rect b = l->body;
	int page = layout_page_of(visible);
	enum pane_id a = page_pane(page, 0), c = page_pane(page, 1);

	if (c == PANE_COUNT) {                  /* a page of one pane */
		show(l, a, b);
	} else if (b.w >= LAYOUT_SIDE_COLS) {
		int aw = page == 0 ? clamp(b.w / 4, 24, 40) : (b.w - 1) / 2;
		show(l, a, mkrect(b.y, b.x, b.h, aw));
		add_sep(l, b.y, b.x + aw, b.h);
		show(l, c, mkrect(b.y, b.x + aw + 1, b.h, b.w - aw - 1));
	} else {
		int ah = page == 2 ? b.h * 3 / 5 : page == 0 ? b.h * 2 / 5 : b.h / 2;
		show(l, a, mkrect(b.y, b.x, ah, b.w));
		show(l, c, mkrect(b.y + ah, b.x, b.h - ah, b.w));
	}
}

void
layout_compute(int cols, int rows, enum pane_id visible, struct layout *l)
{
	const struct layout_opts o = { PANE_TRACES, false };

	layout_compute_opts(cols, rows, visible, &o, l);
}

void
layout_compute_opts(int cols, int rows, enum pane_id visible, const struct layout_opts *o,
		    struct layout *l)
{
	/* empty source panes give way, unless the user asked for one */
	bool no_source = o->no_source && visible != PANE_SOURCE && visible != PANE_STACK;

	memset(l, 0, sizeof *l);
	l->cols = cols;
	l->rows = rows;
	if ((int)visible < 0 || visible >= PANE_COUNT)
		visible = PANE_ALERTS;
	if (rows >= 2 && cols >= 1) {
		l->status = mkrect(rows - 2, 0, 1, cols);
		l->prompt = mkrect(rows - 1, 0, 1, cols);
	}
	if (cols < LAYOUT_MIN_COLS || rows < LAYOUT_MIN_ROWS) {
		l->mode = LAYOUT_TOO_SMALL;
		return;
	}
	l->body = mkrect(0, 0, rows - 2, cols);
	if (cols >= LAYOUT_FULL_COLS && rows >= LAYOUT_FULL_ROWS) {
		l->mode = LAYOUT_FULL;
		layout_full(l, no_source);
	} else if (cols >= LAYOUT_STORY_COLS && rows >= LAYOUT_STORY_ROWS) {
		l->mode = LAYOUT_STORY;
		layout_story(l, visible, o, no_source);
	} else if (cols >= LAYOUT_TWO_COLS && rows >= LAYOUT_TWO_ROWS) {
		l->mode = LAYOUT_TWO;
		layout_two(l, visible);
	} else {
		l->mode = LAYOUT_ONE;
		show(l, visible, l->body);
	}
}
