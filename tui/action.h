/*
 * action.h - every user action the TUI knows, as data.
 *
 * ACTION_INFO(_) generates enum action and the name/help table used by the
 * key table (keys.c), the help overlay and `bind` lines, so the three cannot
 * drift apart (tig's REQ_INFO).  The actions that focus a pane come from the
 * pane table (pane_info.h: ACT_PANE_ALERTS, ...), in its order.  Nothing here
 * knows a key.
 */
#ifndef TD_ACTION_H
#define TD_ACTION_H

#include "pane_info.h"

#define ACTION_INFO(_) \
	_(NONE,          "none",           "Do nothing") \
	_(MOVE_DOWN,     "move-down",      "Move the cursor down") \
	_(MOVE_UP,       "move-up",        "Move the cursor up") \
	_(MOVE_LEFT,     "move-left",      "Move left (timeline cells; scrolls source and overlays)") \
	_(MOVE_RIGHT,    "move-right",     "Move right (timeline cells; scrolls source and overlays)") \
	_(PAGE_DOWN,     "page-down",      "Move one page down") \
	_(PAGE_UP,       "page-up",        "Move one page up") \
	_(MOVE_FIRST,    "move-first",     "Go to the first row") \
	_(MOVE_LAST,     "move-last",      "Go to the last row") \
	_(FOCUS_NEXT,    "focus-next",     "Focus the next pane") \
	_(FOCUS_PREV,    "focus-prev",     "Focus the previous pane") \
	_(CYCLE_PANES,   "cycle-panes",    "Show the next pane(s) on small terminals") \
	PANE_ACTION_INFO(_) \
	_(ENTER,         "enter",          "Follow the link of the selected row") \
	_(BACK,          "back",           "Go back to the previous location") \
	_(FORWARD,       "forward",        "Go forward again") \
	_(SEARCH,        "search",         "Search the focused pane (PCRE2 regex)") \
	_(SEARCH_NEXT,   "search-next",    "Next match (Alerts: next alert of the group)") \
	_(SEARCH_PREV,   "search-prev",    "Previous match (Alerts: previous alert)") \
	_(PROMPT,        "prompt",         "Open the command prompt") \
	_(HELP,          "help",           "Show this help") \
	_(CLOSE,         "close",          "Close the overlay") \
	_(TENSOR,        "tensor",         "Show the tensor of the selected row") \
	_(GO_ORIGIN,     "go-origin",      "Go to where the NaN/Inf of the selected row or alert started (its origin); marks the path") \
	_(TREND,         "trend",          "Chart the selected trace row's op output over the steps (the trend view)") \
	_(TREND_FIELD,   "trend-field",    "Trend view: show the next field (l2norm, abs_mean, ... nan, inf)") \
	_(TREND_KEEP,    "trend-keep",     "Trend view: keep the field shown while c moves on (several on one chart)") \
	_(TREND_LOG,     "trend-log",      "Trend view: switch the log scale of the values") \
	_(JUMP_ELEMENT,  "jump-element",   "Tensor view: go to an element, e.g. @[3,7]") \
	_(SORT_NEXT,     "sort-next",      "Trace table: sort by the next field (row, op, type, size, time, nonfinite)") \
	_(SORT_REVERSE,  "sort-reverse",   "Trace table: reverse the sort order") \
	_(MARK,          "mark",           "Set a mark on the selected row: m then a letter") \
	_(MARK_JUMP,     "mark-jump",      "List the marks; a letter jumps to one") \
	_(OUTPUT,        "output",         "Show the command output pane") \
	_(LOAD_SOURCE,   "load-source",    "Read the selected frame's file from disk") \
	_(TOGGLE_SCOPES, "toggle-scopes",  "Graph: full op names, or names relative to the op's scope") \
	_(USER_CODE,     "user-code",      "Stack: only the user's frames (hide the framework's), or all") \
	_(OP_INFO,       "op-info",        "Graph: the selected op's details (attributes, outputs, device, stack)") \
	_(EXPAND,        "expand",         "Graph: expand or fold the selected input's inputs / consumer's consumers") \
	_(FOLLOW,        "follow",         "Toggle follow mode (re-index appended data)") \
	_(REDRAW,        "redraw",         "Redraw the screen") \
	_(QUIT,          "quit",           "Quit tdbg")

enum action {
#define TD_ACTION_ENUM(id, name, help) ACT_##id,
	ACTION_INFO(TD_ACTION_ENUM)
#undef TD_ACTION_ENUM
	ACT_COUNT
};

struct action_info {
	enum action action;
	const char *name;           /* "move-down", as written in bind lines */
	const char *help;           /* one line for the help overlay */
};

/* The table, indexed by enum action. */
extern const struct action_info action_table[ACT_COUNT];

/* The action named name ("move-down"); ACT_COUNT if there is none. */
enum action action_from_name(const char *name);

#endif
