/*
 * pane_info.h - the panes of the main screen, as data.
 *
 * PANE_INFO(_) has one line per pane (tig's VIEW_INFO):
 *
 *	_(ID, name, key, title, page)
 *
 *   ID     enum pane_id is PANE_<ID>, the action that focuses it ACT_PANE_<ID>
 *   name   the pane file's stem and key scope: pane_<name>.c defines
 *          `const struct pane_ops pane_<name>_ops`, bindings in scope "<name>",
 *          the focus action is named "pane-<name>"
 *   key    the default key of the focus action ("1")
 *   title  the pane's title ("Alerts"), also in the help of its focus action
 *   page   the page of two panes it shares on medium terminals (0..2); the
 *          first of a page in table order is shown first (layout.c)
 *
 * From it come enum pane_id (layout.h), the focus actions in ACTION_INFO
 * (action.h) and their default keys (keys.c), the vtable array and the
 * declarations of the pane_*_ops (tui.c, tui_internal.h), and the help's
 * per-pane key scopes (pane_text.c).  The order is the Tab order on large
 * screens (left to right, top to bottom).  Adding a pane: one line here,
 * one pane_<name>.c filling struct pane_ops (pane.h), and its place in
 * layout_full() if it shows on large terminals.  No curses here.
 */
#ifndef TD_PANE_INFO_H
#define TD_PANE_INFO_H

/* The table proper: row(arg, ...) per pane, arg passed through so that a
 * row can be turned into another table's row (PANE_ACTION_INFO below). */
#define PANE_TABLE(row, arg) \
	row(arg, ALERTS,   alerts,   "1", "Alerts",           0) \
	row(arg, TIMELINE, timeline, "2", "Timeline",         1) \
	row(arg, TRACES,   traces,   "3", "Graph executions", 0) \
	row(arg, GRAPH,    graph,    "4", "Graph",            1) \
	row(arg, SOURCE,   source,   "5", "Source",           2) \
	row(arg, STACK,    stack,    "6", "Stack",            2)

/* Pages of two panes on medium terminals (checked in pane_info.c). */
#define PANE_PAGES 3

#define TD_PANE_APPLY(f, ...) f(__VA_ARGS__)
/* _(ID, name, key, title, page) for every pane. */
#define PANE_INFO(_) PANE_TABLE(TD_PANE_APPLY, _)

/* The focus actions as ACTION_INFO rows: _(PANE_ID, "pane-name", help). */
#define TD_PANE_ACTION_ROW(_, id, name, key, title, page) \
	_(PANE_##id, "pane-" #name, "Jump to the " title " pane")
#define PANE_ACTION_INFO(_) PANE_TABLE(TD_PANE_ACTION_ROW, _)

enum pane_id {
#define TD_PANE_ENUM(id, name, key, title, page) PANE_##id,
	PANE_INFO(TD_PANE_ENUM)
#undef TD_PANE_ENUM
	PANE_COUNT
};

struct pane_info {
	const char *name;           /* "alerts": key scope */
	const char *title;          /* "Alerts" */
	const char *key;            /* default key of its focus action */
	int page;                   /* page of two panes (medium terminals) */
};

/* Indexed by enum pane_id (pane_info.c: no curses, for unit tests too). */
extern const struct pane_info pane_info[PANE_COUNT];

#endif
