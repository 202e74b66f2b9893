/*
 * batch.h - batch mode (tdbg -e CMD ... DIR) and the tables that --help,
 * the man page (tdbg --man > tui/tdbg.1) and the README command list are
 * generated from or checked against.
 *
 * Curses-free: batch mode never initialises the terminal.
 */
#ifndef TD_BATCH_H
#define TD_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/model.h"

/* Process exit codes. */
enum batch_exit {
	EXIT_OK_ = 0,
	EXIT_USAGE = 1,             /* bad option, or a command failed */
	EXIT_OPEN = 2,              /* the dump cannot be opened */
	EXIT_STRICT = 3,            /* --strict and the dump has problems */
	EXIT_NONFINITE = 4,         /* --check and the dump has NaN/Inf */
	EXIT_CANNOT_TELL = 5,       /* --check, no NaN/Inf found, and the dump's
				     * mode records none (SHAPE, NO_TENSOR,
				     * structure only): it cannot tell */
};

/* Ids of the options without a short form (getopt_long returns them). */
enum batch_long_option {
	BATCH_OPT_PAIR = 300,
	BATCH_OPT_COMPARE_HOSTS,
	BATCH_OPT_RTOL,
	BATCH_OPT_ATOL,
	BATCH_OPT_COS_MIN,
	BATCH_OPT_FAIL_ON,
	BATCH_OPT_FRESH,
	BATCH_OPT_NO_CACHE,
	BATCH_OPT_NODE,             /* many nodes (node.h, merge.h, via.h) */
	BATCH_OPT_RANK,
	BATCH_OPT_MERGE,
	BATCH_OPT_RANKS,
	BATCH_OPT_NODES,
	BATCH_OPT_VIA,
	BATCH_OPT_VIA_TDBG,
	BATCH_OPT_CLEAR_CACHE,
	BATCH_OPT_FUZZY,
	BATCH_OPT_API_MAPPING,
	BATCH_OPT_CELL_MAPPING,
	BATCH_OPT_DATA_MAPPING,
	BATCH_OPT_LAYER_MAPPING,
};

/* One command-line option.  id is what getopt_long returns. */
struct batch_option {
	const char *name;           /* long name without dashes */
	int id;                     /* short option character, or a value >= 256 */
	const char *arg;            /* argument name, NULL for a flag; "[=X]": optional */
	const char *help;           /* one line */
};
const struct batch_option *batch_options(size_t *n);

/* Writes the --help text / the complete man page (roff) to f. */
void batch_print_help(FILE *f);
void batch_print_man(FILE *f);

/* Runs cmds[0..n) on m, printing each command's output on out (JSON: one
 * line per command, {"error": ...} for a failed one) and each failure as
 * "tdbg: CMD: cause" on err.  Every command runs even after a failure.
 * Returns EXIT_OK_ or EXIT_USAGE when a command failed. */
int batch_run(struct model *m, const char *const *cmds, size_t n, bool json,
	      FILE *out, FILE *err);
struct model_diff;
/* Like batch_run() with two dumps compared: m is the first, and the
 * commands see d (may be NULL) as env->diff. */
int batch_run_diff(struct model *m, struct model_diff *d, const char *const *cmds, size_t n,
		   bool json, FILE *out, FILE *err);

/* --json when the dump cannot be opened: {"error": msg} as one line on
 * out, so a pipeline reading stdout (| jq) sees the failure too. */
void batch_json_error(FILE *out, const char *msg);

/* With strict: prints the dump's problem counts on err and returns
 * EXIT_STRICT when there are corrupt records, torn or missing files;
 * else EXIT_OK_. */
int batch_strict_check(struct model *m, FILE *err);

/* --check: prints the headline origin of the NaN/Inf (or that there is
 * none) on out, as text or one JSON line; returns EXIT_NONFINITE when the
 * dump has any NaN/Inf alert (or, with watches, a watch hit),
 * EXIT_CANNOT_TELL when it has none but its rows do not record NaN/Inf
 * (a mode without counts, no rows), else EXIT_OK_. */
int batch_check(struct model *m, bool json, bool watches, FILE *out, FILE *err);

/* Waits for m's index pass (batch_progress.c).  With show (stderr is a
 * terminal, no --quiet) a pass that takes longer than a second
 * (TDBG_PROGRESS_AFTER milliseconds) draws a progress line on err,
 * redrawn in place and cleared at the end. */
void batch_wait(struct model *m, bool show, FILE *err);
/* The line itself: "tdbg: indexing 45%: 120 MB of 266 MB, 3.2M rows/s,
 * about 2 s left" for progress p after seconds.  Appends to sb. */
void batch_progress_line(struct strbuf *sb, const struct model_progress *p, double seconds);

#endif
