/*
 * tui.h - the full-screen interface: entry point used by main.c.
 *
 * The TUI draws a model and knows no file format.  It owns the event loop,
 * the panes, keys, the prompt and themes.
 */
#ifndef TD_TUI_H
#define TD_TUI_H

#include <stdbool.h>

#include "../model/model.h"

struct tui_options {
	const char *dump_path;      /* shown in the status bar */
	const char *theme;          /* theme name or path, NULL = default ("dark") */
	bool no_color;              /* NO_COLOR set or --no-color */
	bool follow;                /* start in follow mode */
	bool mouse;                 /* enable mouse reporting (default on) */
};

/* Runs the interface on an open model until the user quits.  Returns the
 * process exit code (0 on a normal quit).  Restores the terminal on every
 * path, including errors. */
int tui_run(struct model *m, const struct tui_options *opt);

#endif
