/*
 * tui_internal.h - the state shared by the TUI's own files.
 *
 * One struct tui per run.  The panes read the linked selection from here
 * (the selected trace, execution, op, stack and source line) and change it
 * only through the tui_* calls below, which keep the linked panes in step:
 * selecting a trace shows its op in the graph pane and its stack in the
 * stack pane, selecting a frame shows its line in the source pane.
 * Not for tui/cmd*.c (they see struct cmd_ui only).
 */
#ifndef TD_TUI_INTERNAL_H
#define TD_TUI_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "keys.h"
#include "layout.h"
#include "pane.h"
#include "theme.h"
#include "tui.h"

struct ui_state;

#define TUI_HISTORY_MAX 128

enum tui_overlay {
	OVERLAY_NONE,
	OVERLAY_HELP,
	OVERLAY_OUTPUT,
	OVERLAY_TENSOR,
	OVERLAY_TREND,
};

struct tui_location {
	int pane;                   /* enum pane_id */
	int64_t trace, execution;   /* model rows (not view rows), -1 none */
	uint64_t row;               /* view row for the other panes */
};

struct tui_text {
	char *title;
	char **lines;               /* owned, already sanitized on display */
	size_t n, cap;
	size_t mark;                /* first line of the latest addition */
};

/* The last search and what n/N need to go on with it. */
/* What a search matches: the op name (executions: their label), and for
 * trace rows also the op type. */
enum search_field { SEARCH_OP_NAME, SEARCH_OP_TYPE, SEARCH_FIELDS };

struct tui_search {
	pcre2_code *re;             /* NULL before the first '/' */
	char text[256];
	bool caseless;              /* smart case: the text has no capital */
	uint64_t scanned;           /* rows looked at by a search still going on */
	/* the search as model filters, built on first use, per table (enum
	 * model_table) and per field searched */
	struct model_filter *f[2][SEARCH_FIELDS];
	bool f_failed;              /* the model could not compile it */
};

struct tui {
	struct model *m;
	const struct tui_options *opt;
	struct keymap keys;
	struct theme theme;
	struct layout layout;
	struct pane panes[PANE_COUNT];
	enum pane_id focus;
	enum tui_overlay overlay;
	struct pane overlay_pane;   /* help / output / tensor text */
	struct tui_text help, output, tensor;
	struct tui_tensor_view *tview;  /* the tensor overlay's elements (pane_tensor.c) */
	struct tui_trend *trend;    /* the trend view's series (tui_trend.c), NULL none */
	int help_width;             /* COLS the help text was wrapped for */
	WINDOW *status_win, *prompt_win;
	char message[512];
	bool message_error;
	bool quit, follow, need_relayout;
	bool ui_acted;              /* the running command moved the panes */
	bool diff_scanning;         /* two dumps: the first divergence is being looked for */
	uint64_t tail_count;        /* trace rows seen at the last poll (follow) */
	int exit_code;
	double last_refresh;
	struct model_progress progress;

	/* filter on the timeline and the trace table (owned) */
	struct model_filter *filter;
	uint64_t filter_serial;     /* counts filter changes (panes cache per filter) */
	bool alert_walk;            /* n/N walk the Alerts pane's group (after its Enter) */
	/* the trace table's order (trace_sort.c) and optional columns */
	struct {
		int field;              /* enum rowsort_field */
		bool desc, active;
		uint64_t *rows, n;      /* view -> model row while active (owned) */
		uint64_t built_count;   /* model rows when it was built */
	} sort;
	unsigned trace_cols;        /* rowsort.h ROWCOL_* bits */
	/* marks and the saved state (tui_state.c) */
	struct ui_state *marks;     /* the marks (owned; the other fields unused) */
	int pending_mark;           /* 'm' or '\'' while waiting for a letter, else 0 */
	int64_t restore_trace, restore_exec;  /* saved selection not indexed yet, -1 */
	char state_path[4096], dump_real[4096];
	struct tui_search search;  /* the last '/' (tui_search.c) */

	/* back/forward */
	struct tui_location hist[TUI_HISTORY_MAX];
	int hist_n, hist_pos;

	/* the linked selection */
	int64_t sel_trace;          /* model trace row, -1 none */
	int64_t sel_exec;           /* model execution row, -1 none */
	int64_t sel_op;             /* op shown in the graph pane, -1 none */
	/* The execution the timeline and the trace table are in step on: the
	 * one the selected trace row belongs to (when the dump says which), or
	 * the execution selected last.  -1 none.  Its cell and its trace rows
	 * are marked (tui_trace_in_step). */
	int64_t step_exec;
	bool traces_followed;       /* the trace table's cursor followed the timeline
				     * without selecting: select on focus */
	uint32_t *stack;            /* frame ids, outermost first (owned) */
	size_t nstack;
	char stack_origin[160];     /* "trace 88 Log" */
	int64_t src_index;          /* source file shown, -1 none */
	uint32_t src_line;          /* highlighted line (1-based), 0 none */
	char src_path[512];         /* the frame's file, for missing files */
	char src_error[512];        /* why the source cannot be shown */

	struct prompt *prompt;      /* prompt.c state */
	struct tui_origins *origins; /* tui_origins.c state (owned) */
	struct tui_watches *watches; /* tui_watches.c state (owned) */
	bool watch_checking;        /* the watches' check is still going */
	bool origins_looking;       /* the origins' look is still going */
};

/* ---- tui.c --------------------------------------------------------- */
void tui_message(struct tui *t, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void tui_focus(struct tui *t, enum pane_id id);
/* Remembers where we are before a jump (for back/forward). */
void tui_history_push(struct tui *t);
/* Back (dir < 0) or forward; false at the end of the history. */
bool tui_history_go(struct tui *t, int dir);

/* ---- tui_link.c: the linked selection ------------------------------- */
/* Moves the trace table to model row (through the filter), selects it and
 * updates graph, stack and source.  history: push the old place first.
 * false (and an error message saying why) when the row is not indexed or
 * the filter hides it. */
bool tui_jump_trace(struct tui *t, uint64_t row, bool history);
bool tui_jump_execution(struct tui *t, uint64_t row, bool history);
/* Called by the panes when their cursor lands on a row. */
void tui_select_trace(struct tui *t, uint64_t row);
void tui_select_execution(struct tui *t, uint64_t row);
/* Whether trace row tr belongs to the execution in step (its mark in the
 * trace table). */
bool tui_trace_in_step(const struct tui *t, const struct model_trace *tr);
/* Timeline: keeps the selected cell on execution row without selecting it
 * (the trace table's row moved; pane_timeline.c). */
void pane_timeline_follow(struct pane *p, uint64_t row);
/* Trace table: puts the cursor on model row without selecting it (the
 * timeline's execution moved); focusing the table selects it then. */
void pane_traces_follow(struct pane *p, uint64_t row);
/* Shows op in the graph pane (with its creation stack) and selects its
 * trace row nearest the selected one (none when the op has no row). */
void tui_select_op(struct tui *t, uint32_t op);
/* Replaces the stack shown (copied), origin for the title. */
void tui_set_stack(struct tui *t, const uint32_t *frames, size_t n, const char *origin);
/* Shows frame's file in the source pane at its line. */
void tui_show_frame(struct tui *t, uint32_t frame);
void tui_show_source(struct tui *t, int64_t source, uint32_t line, const char *path);
/* Reads the current frame's file from disk (key L). */
void tui_load_source(struct tui *t);
/* Replaces the filter (owned; NULL clears) and refreshes the panes. */
void tui_set_filter(struct tui *t, struct model_filter *f);
/* Model row <-> view row of a table under the current filter. */
int64_t tui_view_to_row(struct tui *t, enum model_table tab, uint64_t view);
uint64_t tui_row_to_view(struct tui *t, enum model_table tab, uint64_t row, bool *hidden);
uint64_t tui_view_count(struct tui *t, enum model_table tab);
/* Re-opens every pane (the model grew or the selection changed). */
void tui_reopen(struct tui *t);

/* ---- trace_sort.c: the trace table's order ------------------------- */
/* Sorts the trace table by field (enum rowsort_field), keeping the
 * selected row in view; SORT_ROW ascending is the dump's order. */
void tui_sort_set(struct tui *t, int field, bool desc);
/* Rebuilds an active sort when the filter changed or the model grew. */
void tui_sort_refresh(struct tui *t, bool filter_changed);
void tui_sort_free(struct tui *t);
/* View <-> model row while a sort is active (tui_view_to_row uses them). */
int64_t tui_sort_row(const struct tui *t, uint64_t view);
uint64_t tui_sort_view(const struct tui *t, uint64_t row, bool *hidden);

/* ---- tui_state.c: marks and the saved state ------------------------ */
/* m (jump false) / ' (jump true): waits for the mark's letter. */
void tui_mark_start(struct tui *t, bool jump);
/* The key after m or '; false when no mark key is awaited. */
bool tui_mark_key(struct tui *t, int key);
/* The letter of a mark on trace row, 0 none. */
char tui_mark_of_trace(const struct tui *t, uint64_t row);
/* "a trace 88 Log:0" per mark, joined with sep, appended to sb. */
void tui_marks_text(struct tui *t, struct strbuf *sb, const char *sep);
/* Loads and applies the dump's saved state (not with --fresh); a file
 * that does not parse is ignored with a message. */
void tui_state_load(struct tui *t);
/* Selects the saved rows once the index has reached them. */
void tui_state_poll(struct tui *t);
/* Saves the state for the next session (errors to stderr). */
void tui_state_save(struct tui *t);

/* ---- screen.c ------------------------------------------------------ */
bool screen_init(struct tui *t);
void screen_done(struct tui *t);
void screen_relayout(struct tui *t);
void screen_draw(struct tui *t);
void screen_draw_status(struct tui *t);
/* Writes the screen as text to path (":save-display"). */
bool screen_save(struct tui *t, const char *path, char *err, size_t errlen);

/* ---- tui_search.c: '/', n and N ------------------------------------- */
/* Compiles re (an error goes to the message line), makes it the search
 * and goes to its first match in the focused pane or overlay. */
void tui_search_start(struct tui *t, const char *re);
/* n / N: the next (dir > 0) or previous match of the search. */
void tui_search_next(struct tui *t, int dir);
/* A key other than n/N: a search that ran out of time starts over. */
void tui_search_restart(struct tui *t);
/* Forgets the model filters of the search (a new text, or the end). */
void tui_search_reset(struct tui *t);
/* Frees everything (the end of the run). */
void tui_search_done(struct tui *t);
/* The model row after (dir > 0) or before `from` whose op name or op type
 * (traces) or label (executions) matches the current search and that the
 * current filter shows, wrapping once; `from` itself is found last.  -1 when
 * none.  The regex runs once per distinct op (model_filter_new), so this
 * costs a scan of flag bytes, not a decode per row.  Sets *ok false (and
 * returns -1) when the model cannot take the regex: the caller then falls
 * back to pane_search(). */
int64_t tui_search_rows(struct tui *t, enum model_table tab, int64_t from, int dir, bool *ok);

/* ---- pane_alerts.c -------------------------------------------------- */
/* n/N after Enter on an alert: the next/previous alert of that group. */
void tui_alerts_step(struct tui *t, int dir);

/* ---- pane_text.c: help / output / tensor overlays -------------------- */
extern const struct pane_ops pane_text_ops;
void tui_text_set(struct tui_text *x, const char *title, const char *text);
void tui_text_append(struct tui_text *x, const char *text);
void tui_text_done(struct tui_text *x);
/* Scrolls the overlay sideways so columns [col, col + len) show in width. */
void tui_text_hscroll_to(int col, int len, int width);
void tui_open_overlay(struct tui *t, enum tui_overlay which);
void tui_close_overlay(struct tui *t);
void tui_build_help(struct tui *t);

/* ---- tui_output.c: links in the command output ----------------------- */
/* Enter on line of the output pane: goes to the trace row, execution, op
 * or source line the line names (closing the pane, the old place on the
 * back history).  false when the line names none. */
bool tui_output_follow(struct tui *t, size_t line);

/* ---- pane_tensor.c ------------------------------------------------- */
/* Opens the tensor overlay on a row's tensors, with an optional numpy
 * slice text and value ranges to highlight ("[[-inf,-1],[1,inf]]"); a bad
 * range text is a message and leaves the overlay as it was. */
void tui_show_tensor(struct tui *t, enum model_table kind, uint64_t index, const char *slice,
		     const char *ranges);
/* Frees the overlay's element state (t->tview). */
void tui_tensor_view_free(struct tui *t);
/* The heatmap's shade character of a level (tensor_view.h). */
const char *tui_heat_char(uint8_t level);

/* ---- tui_trend.c: the trend view ------------------------------------ */
/* Key H: opens the trend view of the selected trace row's op output (in
 * the diff layout, the pair under the trace table's cursor: both dumps);
 * a message when no output row is selected. */
void tui_show_trend(struct tui *t);
/* Frees the trend view's series (the end of the run). */
void tui_trend_done(struct tui *t);

/* ---- tensor_tools.c: ranges, value search, @ in the tensor overlay ---- */
/* Draws the highlighted elements and heat colours of overlay line row. */
void tui_tensor_draw_row(struct pane *p, uint64_t row, int y, int hscroll);
/* '/' in the tensor overlay: when text is a value (tensor values.h), finds
 * its first element and returns true; false: a regex for the lines. */
bool tui_tensor_search(struct tui *t, const char *text);
/* n / N after a value search; false when none is going on. */
bool tui_tensor_search_next(struct tui *t, int dir);
/* '@': reads "[i,j]" and goes to that element (re-slicing when elided). */
void tui_tensor_jump_prompt(struct tui *t);
void tui_tensor_jump(struct tui *t, const char *text);

/* ---- prompt_line.c: the line editor -------------------------------- */
struct prompt *prompt_new(struct tui *t);
void prompt_free(struct prompt *p);
/* Reads a line on the prompt row with editing, history and (commands)
 * completion.  Returns a malloc'd line, or NULL when cancelled (Esc, ^C,
 * ^G). */
char *prompt_read(struct tui *t, const char *prefix, bool commands);

/* ---- prompt.c: ':' and '/' ------------------------------------------ */
/* ':' : reads and runs one command. */
void prompt_command(struct tui *t);
/* Runs one command line as ':' does (its output in the output pane or on
 * the message line, its error on the message line). */
void tui_run_command(struct tui *t, const char *line);
/* '/' : reads a regex and searches the focused pane. */
void prompt_search(struct tui *t);
/* The struct cmd_ui of this TUI. */
const struct cmd_ui *tui_cmd_ui(struct tui *t);

/* Selects execution view index (not a line) in the timeline grid. */
void pane_timeline_goto(struct pane *p, uint64_t view);

/* The Stack pane's row of frame i of t->stack (rows skip the framework's
 * frames while only the user's code shows). */
uint64_t pane_stack_row_of(struct pane *p, size_t i);

/* Why the source and stack panes are empty when the dump holds no frames
 * (pane_stack.c); a static string. */
const char *tui_no_stacks_why(struct tui *t);
/* Whether the Source and Stack panes can only stay empty: the format never
 * holds stacks, or the indexed dump has no source file and no frame (the
 * layout then gives their rows to the others). */
bool tui_no_source(struct tui *t);

/* ---- tui_origins.c: where the NaN/Inf started ------------------------ */
/* Lines the Alerts pane leads with: the origins, first in time first, or
 * with several hosts each host's first origin (0 before the index pass is
 * done, and in the diff layout). */
uint64_t tui_origins_lines(struct tui *t);
/* Looks for the origins a budget of work at a time (poll_model); true
 * while the look goes on. */
bool tui_origins_poll(struct tui *t);
void tui_origins_draw(struct pane *p, uint64_t i, int y);
/* Enter on line i: selects that origin's trace row, marks its path. */
void tui_origins_enter(struct tui *t, uint64_t i);
/* The go-origin key: from trace row (-1 none) to the origin of its bad
 * values, marking the path; says so when the row holds no NaN/Inf. */
void tui_goto_origin(struct tui *t, int64_t trace_row);
/* The trace table's mark for row: '>' on the marked path, else 0. */
char tui_origins_mark(struct tui *t, uint64_t row);
void tui_origins_done(struct tui *t);

/* ---- tui_watches.c: the watches' hits in the Alerts pane -------------- */
/* Checks a budget of rows; true while the check goes on. */
bool tui_watches_poll(struct tui *t);
/* The watches changed: the check starts over. */
void tui_watches_restart(struct tui *t);
/* Groups of hits (watch, op type), listed after the NaN/Inf groups. */
uint64_t tui_watches_groups(struct tui *t);
void tui_watches_draw(struct pane *p, uint64_t i, int y);
bool tui_watches_grep(struct tui *t, uint64_t i, const pcre2_code *re);
/* Enter on group i: its first hit. */
void tui_watches_enter(struct tui *t, uint64_t i);
/* n/N: the next/previous hit of the group walked; false when none is. */
bool tui_watches_step(struct tui *t, int dir);
/* ", watch 45%" while checking, ", 12 hits" after; "" without watches. */
void tui_watches_title(struct tui *t, char *buf, size_t size);
void tui_watches_done(struct tui *t);

/* ---- pane_diff.c: the diff layout (two dumps compared) ---------------- */
struct model_diff;
/* The alignment when two dumps are compared, else NULL. */
struct model_diff *tui_diff(const struct tui *t);
/* The trace table in the diff layout (its view index is the pair). */
void pane_diff_header(struct pane *p, int y);
void pane_diff_draw_row(struct pane *p, uint64_t view, int y);
void pane_diff_title(struct pane *p, char *buf, size_t size);
/* The pair view's summary block: "label  A  B" per field the tensor view
 * shows ("-" where a side does not know it), a label too wide for its
 * column on a line of its own.  Appends to sb. */
void pane_diff_side_summaries(struct strbuf *sb, const struct td_summary *a,
			      const struct td_summary *b);
/* Enter: both tensors of pair side by side in the tensor overlay. */
void tui_diff_show_pair(struct tui *t, uint64_t pair);
/* The Alerts pane's first line: the first divergence (or the search). */
void pane_diff_alert_draw(struct pane *p, int y);
void tui_diff_goto_first(struct tui *t);
/* Between keys: goes on looking for the first divergence; true while it
 * is not known yet (poll again soon). */
bool tui_diff_poll(struct tui *t);

/* The panes of the pane table, pane_<name>_ops in pane_<name>.c. */
#define TD_PANE_DECL(id, name, key, title, page) extern const struct pane_ops pane_##name##_ops;
PANE_INFO(TD_PANE_DECL)
#undef TD_PANE_DECL

#endif
