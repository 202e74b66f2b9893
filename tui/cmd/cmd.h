/*
 * cmd.h - the command table shared by batch mode (-e) and the TUI prompt.
 *
 * Curses-free: batch mode and its tests run without a terminal.  A command
 * prints into env->out (aligned text for people, or exactly one JSON
 * document when env->json) and, inside the TUI, may ask the UI for a
 * reaction (jump, filter, theme) through env->ui.  Batch mode, ":help", Tab
 * completion and the README's command list all come from cmd_table().
 */
#ifndef TD_CMD_H
#define TD_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

enum cmd_flags {
	CMD_BATCH = 1u << 0,        /* available with -e */
	CMD_TUI   = 1u << 1,        /* available at the ':' prompt */
};

enum cmd_complete {
	COMPLETE_NONE,
	COMPLETE_OP,                /* op names */
	COMPLETE_SOURCE,            /* source paths */
	COMPLETE_THEME,
	COMPLETE_COMMAND,
};

/* Reactions a command may ask of the TUI.  NULL members are unsupported. */
struct cmd_ui {
	void *ctx;
	void (*jump)(void *ctx, enum model_table kind, uint64_t index);
	void (*show_op)(void *ctx, uint32_t op);
	/* Takes ownership of f (NULL clears the filter). */
	void (*set_filter)(void *ctx, struct model_filter *f);
	bool (*set_theme)(void *ctx, const char *name, char *err, size_t errlen);
	void (*show_source)(void *ctx, uint32_t source, uint32_t line);
	/* Tensor view of a row with an optional numpy slice text ("[0:10, :]")
	 * and value ranges to highlight ("[[-inf,-1],[1,inf]]", values.h). */
	void (*show_tensor)(void *ctx, enum model_table kind, uint64_t index, const char *slice,
			    const char *ranges);
	void (*follow)(void *ctx, bool on);
	void (*save_display)(void *ctx, const char *path, char *err, size_t errlen);
	void (*quit)(void *ctx);
	/* Sorts the trace table by a rowsort.h field (desc: descending);
	 * SORT_ROW ascending is the dump's order. */
	void (*sort)(void *ctx, int field, bool desc);
	/* Shows the optional trace table columns of mask (rowsort.h ROWCOL_*);
	 * returns the mask now shown. */
	unsigned (*columns)(void *ctx, bool set, unsigned mask);
	/* Last selected trace row, for commands whose row argument is omitted; -1 none. */
	int64_t (*current_trace)(void *ctx);
	/* The watches changed: the background check starts over. */
	void (*watches_changed)(void *ctx);
};

struct model_diff;

struct cmd_env {
	struct model *m;
	bool json;
	struct strbuf *out;         /* the command's output */
	struct strbuf *err;         /* one line "CMD: cause" on failure */
	const struct cmd_ui *ui;    /* NULL in batch mode */
	/* Batch: host/rank restriction set by "rank N" for the commands that
	 * follow (borrowed from the model, NULL = all).  Zero-initialise. */
	const char *host;
	/* Batch: long listings call this between rows once env->out is large,
	 * so output streams instead of growing without bound; it writes and
	 * resets env->out.  NULL keeps everything in env->out (the TUI). */
	void (*flush)(struct cmd_env *env);
	void *flush_ctx;
	/* Two dumps compared (tdbg DUMP_A DUMP_B, --compare-hosts): their
	 * alignment, m being A.  NULL with one dump. */
	struct model_diff *diff;
};

struct cmd_info {
	const char *name;
	/* argv[0] is the command name (argc counts it); called by cmd_run
	 * after the argument count and the BATCH/TUI flags were checked. */
	enum td_status (*fn)(struct cmd_env *env, int argc, char **argv);
	int min_args, max_args;     /* argc excluding the name; max -1 = any */
	unsigned flags;             /* enum cmd_flags */
	const char *usage;          /* "traces [A:B] [--op REGEX] [--type REGEX] [--nonfinite]" */
	const char *summary;        /* one line */
	enum cmd_complete complete;
};

/* Short verbs users of the older debugger CLI type (lt, pt, ni ...), each
 * the alias of one command: one table, listed by help, --help, the man
 * page, Tab completion and the README (tests/e2e/batch_aliases.sh checks
 * the README against it). */
struct cmd_alias {
	const char *alias;          /* "lt" */
	const char *command;        /* "traces" */
	const char *what;           /* what the verb stood for: "list tensors" */
};

/* The command table, in help order. */
const struct cmd_info *cmd_table(size_t *n);
/* The command named name, or the command an alias stands for; NULL. */
const struct cmd_info *cmd_find(const char *name);
/* The alias table, in help order. */
const struct cmd_alias *cmd_aliases(size_t *n);

/* Splits line into words as a POSIX shell does for quotes and backslashes
 * (no expansion).  Returns the word count, or -1 with err set. */
int cmd_split(const char *line, char ***argv, char *err, size_t errlen);
void cmd_split_free(char **argv, int argc);

/* Runs one command line.  On failure env->err holds one line naming the
 * command and the cause, and in JSON mode env->out holds
 * {"error": "..."}.  Returns the status. */
enum td_status cmd_run(struct cmd_env *env, const char *line);

/* The text of `op` for op id op (type, graph, device, inputs, consumers,
 * control inputs, outputs, attributes, stack) into env->out, for a view of
 * it.  False when there is no such op. */
bool cmd_describe_op(struct cmd_env *env, uint32_t op);
/* Completes the summaries of d from its values where it has them: the
 * fields the dump did not store (std, abs_mean, ...) and the percentiles
 * (cmd_values.c).  The trace and execution commands and the tensor view
 * call it after model_*_detail. */
void cmd_detail_complete(struct model_detail *d);

/* tdbg --check: the headline origin of the NaN/Inf as text, or as JSON
 * {"nonfinite", "known", "alerts", "first": ORIGIN|null}; with watches
 * (--fail-on watches) also "watches": {"hits", "unknown"}.  *bad tells
 * whether the dump has any NaN/Inf alert (or, with watches, a hit). */
enum td_status cmd_check(struct cmd_env *env, bool watches, bool *bad, bool *cannot_tell);

/* cmd_watch.c: the user's watches file ($XDG_CONFIG_HOME/tdbg/watches).
 * Loads it into m (no file: the defaults); returns the number of bad
 * lines, err saying the first.  Never writes. */
int cmd_watches_load(struct model *m, char *err, size_t errlen);
bool cmd_watches_path(char *buf, size_t size);
/* Checks every watch over the whole dump (waits for the index); the hits,
 * and in *unknown (may be NULL) the rows no condition could decide. */
uint64_t cmd_watch_hits(struct model *m, uint64_t *unknown);

#endif
