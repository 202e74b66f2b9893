/*
 * layout.h - where the six panes go for a terminal size.
 *
 * Pure arithmetic, no curses: layout_compute() is called on start and on
 * every KEY_RESIZE, and unit-tested.  Large terminals (LAYOUT_FULL_COLS x
 * LAYOUT_FULL_ROWS and up) show all six panes as TensorBoard's Debugger V2
 * does (top: Alerts | Timeline | Graph executions; middle: Graph; bottom:
 * Source | Stack).  From LAYOUT_STORY_COLS x LAYOUT_STORY_ROWS (120x40) the
 * story's five panes show, however small: Alerts | Graph executions (or the
 * Timeline while it is wanted) on top, the Graph, then Source | Stack, so
 * that Enter on an alert shows the op and its source line at once.
 * Smaller terminals show one page of two panes, small ones a single pane;
 * the focused pane decides which.  When the dump can hold no source and no
 * stack, their rows go to the Graph.  The last two rows are always the
 * status bar and the prompt line.
 */
#ifndef TD_LAYOUT_H
#define TD_LAYOUT_H

#include <stdbool.h>

#include "pane_info.h"

#define LAYOUT_FULL_COLS 160
#define LAYOUT_FULL_ROWS 45
#define LAYOUT_STORY_COLS 100
#define LAYOUT_STORY_ROWS 30
#define LAYOUT_TWO_COLS  60
#define LAYOUT_TWO_ROWS  20
#define LAYOUT_SIDE_COLS 120   /* two panes side by side from this width */
#define LAYOUT_LEAD_COLS 62    /* the Alerts pane's lead lines (origin, watch hits,
				* first divergence) fit in this width */
#define LAYOUT_STORY_SIDE_COLS 130 /* story: Alerts beside the trace table from
				    * this width, above it below */
#define LAYOUT_MIN_COLS  20
#define LAYOUT_MIN_ROWS  6

enum layout_mode {
	LAYOUT_TOO_SMALL,
	LAYOUT_ONE,                 /* one pane at a time */
	LAYOUT_TWO,                 /* one page of two panes */
	LAYOUT_STORY,               /* five: the Timeline or Graph executions */
	LAYOUT_FULL,                /* all six */
};

struct rect {
	int y, x, h, w;
};

struct layout {
	int cols, rows;
	enum layout_mode mode;
	bool shown[PANE_COUNT];
	struct rect pane[PANE_COUNT];  /* title row included; valid when shown */
	struct rect body;              /* everything above the status bar (overlays) */
	struct rect status;            /* one row */
	struct rect prompt;            /* one row, the last */
	int nsep;
	struct rect sep[4];            /* one-column separators between panes */
};

/* What the screen knows beyond its size. */
struct layout_opts {
	/* LAYOUT_STORY: the pane beside Alerts when neither it nor the other
	 * one is focused (PANE_TRACES or PANE_TIMELINE) */
	enum pane_id beside_alerts;
	/* the Source and Stack panes can only stay empty (the dump has no
	 * source and no stack): their rows go to the Graph unless one of
	 * them is focused */
	bool no_source;
};

/* Fills out for a cols x rows terminal with pane `visible` focused.  Below
 * LAYOUT_MIN_COLS x LAYOUT_MIN_ROWS mode is LAYOUT_TOO_SMALL and no pane is
 * shown (status and prompt are still set when rows >= 2).  layout_compute
 * uses the default options (Graph executions beside Alerts, source shown). */
void layout_compute(int cols, int rows, enum pane_id visible, struct layout *out);
void layout_compute_opts(int cols, int rows, enum pane_id visible, const struct layout_opts *o,
			 struct layout *out);

/* The page of two panes that holds id in LAYOUT_TWO (its pane_info page),
 * and the pane shown first on a page (the first of the page in table
 * order). */
int layout_page_of(enum pane_id id);
enum pane_id layout_page_first(int page);
#define LAYOUT_PAGES PANE_PAGES

/* The first pane after id (dir > 0) or before it that would not be on
 * screen together with id in mode: what the cycle key goes to. */
enum pane_id layout_cycle(enum layout_mode mode, enum pane_id id, int dir);

#endif
