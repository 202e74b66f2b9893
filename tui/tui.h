/*
 * tui.h - the full-screen interface: entry point used by main.c.
 *
 * The TUI draws a model and knows no file format.  It owns the event loop,
 * the panes, keys, the prompt and themes.
 */
#ifndef TD_TUI_H
#define TD_TUI_H

#include <stdbool.h>

#include "model/model.h"

struct model_diff;

struct tui_options {
	const char *dump_path;      /* shown in the status bar */
	const char *theme;          /* theme name or path, NULL = default ("dark") */
	bool no_color;              /* NO_COLOR set or --no-color */
	bool follow;                /* start in follow mode */
	bool mouse;                 /* enable mouse reporting (default on) */
	struct model_diff *diff;    /* two dumps compared: the diff layout; NULL one dump */
	const char *dump_b_path;    /* the second dump (NULL: two hosts of one) */
	bool fresh;                 /* --fresh: do not restore the saved state */
};

/* Runs the interface on an open model until the user quits.  Returns the
 * process exit code (0 on a normal quit).  Restores the terminal on every
 * path, including errors.
 *
 * TDBG_TRACE_KEYS=FILE (environment): appends one line per key to FILE,
 * "KEYNAME MICROSECONDS", the time from reading the key to the doupdate()
 * of the screen it produced (key latency for make bench; a key that opens
 * the prompt, : or /, includes the typing).  Example:
 *	TDBG_TRACE_KEYS=/tmp/keys tdbg DUMP   ->   "G 1473", "KEY_NPAGE 1349" */
int tui_run(struct model *m, const struct tui_options *opt);

/* The ranks view (tui_ranks.c): the merged or node lines in the file at
 * path (tdbg --merge --json, tdbg --node) as a grid of ranks coloured by
 * their first bad step; Enter shows a rank's line and the commands to look
 * closer on its node.  Only theme and no_color of opt are used.  Returns
 * the exit code (2 when the file cannot be read). */
int tui_ranks_run(const char *path, const struct tui_options *opt);

#endif
