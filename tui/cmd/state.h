/*
 * state.h - what tdbg remembers of a dump between two runs of the
 * interface: the focused pane, the filter, the trace table's sort and
 * columns, the selected rows, the marks and the watches.
 *
 * One text file per dump in $XDG_STATE_HOME/tdbg/ (default
 * ~/.local/state/tdbg/), named after a hash of the dump's real path and
 * holding that path, so two dumps never share a file and a moved dump
 * starts clean.  Never written inside a dump.  A file that does not parse
 * is ignored as a whole (the caller says so) and replaced at the next
 * save.  Curses-free; the TUI applies what it loads.
 *
 * The file, one "key value" a line after a version line:
 *	# tdbg state 1
 *	dump /real/path/of/the/dump
 *	focus traces
 *	filter type=^MatMul$
 *	sort nonfinite desc
 *	columns time shape
 *	trace 88
 *	execution 12
 *	mark a trace 88
 *	watches-recommended off
 *	watch big abs_mean > 1e3
 */
#ifndef TD_STATE_H
#define TD_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/safeio.h"
#include "reader/base/util.h"

#define STATE_MAX_MARKS 52      /* a-z, A-Z */
#define STATE_MAX_WATCHES 32
#define STATE_WATCH_LEN 512     /* "NAME CONDITION" */

struct state_mark {
	char letter;                /* 'a'..'z', 'A'..'Z'; 0 unused */
	bool execution;             /* an execution row, else a trace row */
	uint64_t row;
};

struct ui_state {
	char focus[32];             /* pane name, "" none */
	char filter[1024];          /* the filter command's words, "" none */
	char sort[32];              /* "nonfinite desc", "" the dump's order */
	unsigned columns;           /* rowsort.h ROWCOL_* bits */
	bool has_columns;
	int64_t trace, execution;   /* selected rows, -1 none */
	struct state_mark marks[STATE_MAX_MARKS];
	size_t nmarks;
	char watches[STATE_MAX_WATCHES][STATE_WATCH_LEN];  /* "NAME CONDITION" */
	size_t nwatches;
	int watches_recommended;    /* -1 not said, 0 off, 1 on */
};

/* An empty state (no selection, no marks). */
void state_init(struct ui_state *s);

/* The state file of the dump whose real path is dump_real, in the state
 * directory ($XDG_STATE_HOME/tdbg, else $HOME/.local/state/tdbg).  false
 * when neither variable is set. */
bool state_file(const char *dump_real, char *out, size_t size);

/* Reads file into s.  TD_ERR_NOENT when there is none (or it belongs to
 * another dump: a hash collision); TD_ERR_CORRUPT with "line N: why" in err
 * when it does not parse, or with the reason when it is not the user's own
 * file (a link, a FIFO, another owner, group/other-writable: s is then
 * empty). */
enum td_status state_load(const char *file, const char *dump_real, struct ui_state *s,
			  char *err, size_t errlen);

/* Writes s for dump_real to file: a new file (mode 0600) renamed over the
 * old one; its directory created (mode 0700) unless it is, or would lie
 * in, one of the dump's folders dump_ids[0, ndump_ids) (by identity,
 * model_roots) or is not the user's own (reader/base/safeio.h): refused
 * then, with nothing created. */
enum td_status state_save(const char *file, const char *dump_real, const struct safeio_id *dump_ids,
			  size_t ndump_ids, const struct ui_state *s, char *err, size_t errlen);

/* Sets (or moves) mark letter; false for a letter outside a-z, A-Z. */
bool state_mark_set(struct ui_state *s, char letter, bool execution, uint64_t row);
/* The mark of letter, NULL when not set. */
const struct state_mark *state_mark_get(const struct ui_state *s, char letter);

#endif
