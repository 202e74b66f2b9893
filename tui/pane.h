/*
 * pane.h - the generic pane engine and the vtable every pane fills.
 *
 * A pane is a window over rows it never holds: each redraw asks its ops for
 * rows [top, top + height) and the model answers (tig's struct view_ops).
 * The engine owns what is the same for every pane: the window, scrolling,
 * the cursor, the title with "row/total", regex search and focus.  Pane
 * files (pane_alerts.c, ...) fill a struct pane_ops and keep their own
 * state in pane->priv.
 *
 * Keys reach a pane as actions: pane_request() first offers the action to
 * ops->request (which returns the action to pass on, or ACT_NONE when it
 * handled it), then applies the generic movement.  Reactions bigger than
 * the pane are returned as an enum pane_result bitmask, the way htop's
 * HandlerResult works.
 */
#ifndef TD_PANE_H
#define TD_PANE_H

#define PCRE2_CODE_UNIT_WIDTH 8

#include <curses.h>
#include <pcre2.h>
#include <stdbool.h>
#include <stdint.h>

#include "action.h"
#include "layout.h"
#include "style.h"

struct tui;
struct pane;

enum pane_result {
	RES_NONE     = 0,
	RES_REDRAW   = 1u << 0,     /* redraw the screen */
	RES_RELAYOUT = 1u << 1,     /* recompute the layout (focus moved off-page) */
	RES_QUIT     = 1u << 2,
	RES_HANDLED  = 1u << 3,     /* the action was consumed */
};

enum pane_flags {
	PANE_OWN_CURSOR = 1u << 0,  /* draw_row draws the cursor itself (grids) */
	PANE_NO_CURSOR  = 1u << 1,  /* text views: the cursor is the top row */
	PANE_NO_POSITION = 1u << 2, /* no "row/total" in the title */
	PANE_EXTRA_FIRST = 1u << 3, /* the title's extra text (a count) is never cut:
				     * the position goes first when both do not fit */
};

struct pane_ops {
	/* Key scope and title of an overlay; the panes of the main screen take
	 * theirs from the pane table (pane_info.h) and leave these NULL. */
	const char *name;           /* "overlay" */
	const char *title;
	unsigned flags;             /* enum pane_flags */
	/* (Re)reads what the pane shows from the model; called on start, when
	 * the model grows, and when a linked selection changes.  Optional. */
	void (*open)(struct pane *p);
	uint64_t (*row_count)(struct pane *p);
	/* Draws row at window line y (clear already, style set by the engine). */
	void (*draw_row)(struct pane *p, uint64_t row, int y);
	/* Whether row matches re (search).  Optional: no search without it. */
	bool (*grep)(struct pane *p, uint64_t row, const pcre2_code *re);
	/* Fast search over names (optional, tried before grep): moves the
	 * cursor to the next (dir > 0) or previous match of the current search,
	 * sets *view to its view index (-1 none) and *total to the view's size.
	 * Returns false when it cannot search (grep is used then). */
	bool (*find)(struct pane *p, int dir, int64_t *view, uint64_t *total);
	/* Pane-specific keys; returns the action to pass on or ACT_NONE. */
	enum action (*request)(struct pane *p, enum action act);
	/* The cursor moved to row: update linked panes.  Optional. */
	void (*select)(struct pane *p, uint64_t row);
	void (*done)(struct pane *p);
	/* Column header line (drawn under the title), optional. */
	void (*header)(struct pane *p, int y);
	/* Whether the header line shows now (optional: always). */
	bool (*header_shown)(const struct pane *p);
	/* Extra title text after the name ("exec 12 __inference_f"), optional. */
	void (*title_extra)(struct pane *p, char *buf, size_t size);
	/* Why there is nothing to show ("no source in this dump"). */
	const char *(*empty)(struct pane *p);
	/* A mouse click on row (the line under the pointer, maybe past the
	 * last row) at column x.  Optional: the default selects the row. */
	void (*click)(struct pane *p, uint64_t row, int x);
};

struct pane {
	const struct pane_ops *ops;
	struct tui *tui;
	int id;                     /* enum pane_id, or -1 for overlays */
	const char *name;           /* key scope: "traces" (pane_info or ops) */
	const char *title;          /* "Graph executions" */
	WINDOW *win;
	struct rect r;
	bool shown, focused;
	uint64_t top, cursor;
	/* text views (PANE_NO_CURSOR): the line the last search found, -1
	 * none; n/N go on from it while it is on screen (the top line cannot
	 * reach the last screenful, so it cannot serve as the position) */
	int64_t match;
	bool drawing_cursor;        /* set while the cursor row is drawn */
	bool drawing_match;         /* set while a text view's match line is drawn */
	void *priv;                 /* the pane file's state */
};

/* id is an enum pane_id (name and title from pane_info[id]) or -1 for an
 * overlay (name and title from ops). */
void pane_init(struct pane *p, const struct pane_ops *ops, struct tui *tui, int id);
void pane_done(struct pane *p);
/* Places the pane's window at r (creating, resizing or moving it); a pane
 * not shown has its window deleted. */
void pane_place(struct pane *p, const struct rect *r, bool shown);

/* Rows available for data (height minus title and header). */
int pane_height(const struct pane *p);
/* Window line of the first data row. */
int pane_first_line(const struct pane *p);
uint64_t pane_count(struct pane *p);

/* Redraws title, header and visible rows into the window (no refresh). */
void pane_draw(struct pane *p);

/* Moves the cursor to row (clamped), scrolling so that it shows; centre
 * scrolls it to the middle.  Calls ops->select when the row changed (or
 * when force is set). */
void pane_goto(struct pane *p, uint64_t row, bool centre, bool force);
/* Keeps cursor and top valid after the row count changed. */
void pane_clamp(struct pane *p);

/* Generic handling of act after ops->request; returns enum pane_result. */
unsigned pane_request(struct pane *p, enum action act);

/* Searches from the row after (dir > 0) or before the cursor (a text
 * view's match line while it shows) for a row that
 * ops->grep matches, wrapping once, looking at most at limit rows.  Returns
 * the row or -1.  After a time budget it stops and returns the row it got
 * to with *stopped set; *scanned tells how many rows it looked at, so a
 * caller can resume and still know when it has been round once. */
int64_t pane_search(struct pane *p, const pcre2_code *re, int dir, uint64_t limit,
		    bool *stopped, uint64_t *scanned);

/* Prints text at (y, x) with the slot's style, sanitized and cut to maxcols
 * (maxcols < 0: to the window edge).  On the cursor row the cursor style
 * replaces s.  Returns the columns used. */
int pane_print(struct pane *p, int y, int x, enum style_slot s, const char *text, int maxcols);
/* The same, keeping the end of a text too wide (scoped op names). */
int pane_print_tail(struct pane *p, int y, int x, enum style_slot s, const char *text, int maxcols);
/* The same with printf formatting (for numbers we make ourselves). */
int pane_printf(struct pane *p, int y, int x, enum style_slot s, int maxcols,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The last columns of a long path for a title: "...les/v2/debug_mnist_v2.py"
 * when s is wider than maxw.  Returns buf. */
const char *pane_tail(const char *s, int maxw, char *buf, size_t size);
/* Whether regex re matches s (bounded work; a line it cannot decide
 * within PCRE2's limits counts as a match, so a search stops on it). */
bool pane_match(const pcre2_code *re, const char *s);

#endif
