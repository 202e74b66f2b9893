/*
 * cmd_internal.h - what the cmd_*.c files share: the handlers listed in the
 * command table, argument and option parsing, and the JSON/text forms of
 * summaries, frames and ops that several commands print.
 *
 * Not for the TUI: panes use cmd.h only.  Curses-free like all of tui/cmd*.
 */
#ifndef TD_CMD_INTERNAL_H
#define TD_CMD_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"
#include "emit.h"
#include "json.h"

/* ---- handlers (one per table entry) ---------------------------------- */
#define CMD_HANDLER(name) enum td_status name(struct cmd_env *env, int argc, char **argv)
CMD_HANDLER(cmd_info);
CMD_HANDLER(cmd_alerts);
CMD_HANDLER(cmd_first_nonfinite);
CMD_HANDLER(cmd_problems);
CMD_HANDLER(cmd_graphs);
CMD_HANDLER(cmd_sources);
CMD_HANDLER(cmd_source);
CMD_HANDLER(cmd_traces);
CMD_HANDLER(cmd_executions);
CMD_HANDLER(cmd_trace);
CMD_HANDLER(cmd_execution);
CMD_HANDLER(cmd_print);
CMD_HANDLER(cmd_compare);
CMD_HANDLER(cmd_history);
CMD_HANDLER(cmd_op);
CMD_HANDLER(cmd_inputs);
CMD_HANDLER(cmd_consumers);
CMD_HANDLER(cmd_module);
CMD_HANDLER(cmd_stack);
CMD_HANDLER(cmd_rank);
CMD_HANDLER(cmd_filter);
CMD_HANDLER(cmd_goto);
CMD_HANDLER(cmd_theme);
CMD_HANDLER(cmd_follow);
CMD_HANDLER(cmd_save_display);
CMD_HANDLER(cmd_quit);
CMD_HANDLER(cmd_tensor);
CMD_HANDLER(cmd_help);
CMD_HANDLER(cmd_origins);
CMD_HANDLER(cmd_why);
CMD_HANDLER(cmd_watch);
CMD_HANDLER(cmd_watches);
CMD_HANDLER(cmd_diff);
CMD_HANDLER(cmd_source_ops);

/* inputs / consumers with --depth D or --op NAME (cmd_tree.c): the tree
 * below trace row row_arg (NULL: the selected row) or op op_name (in
 * graph when not NULL: a graph id or name). */
enum td_status cmd_tree(struct cmd_env *env, const char *row_arg, const char *op_name,
			const char *graph, unsigned depth, bool consumers);

/* Finds path among the dump's sources (a unique suffix will do), else
 * reads it from disk; its index and lines (borrowed until model_close).
 * Errors go to env. */
enum td_status cmd_source_open(struct cmd_env *env, const char *path, uint32_t *index,
			       const char *const **lines, size_t *n);
CMD_HANDLER(cmd_export);
CMD_HANDLER(cmd_sort);
CMD_HANDLER(cmd_columns);

/* ---- errors and parsing ---------------------------------------------- */

/* Sets the cause of a failure (cmd_run prefixes the command name) and
 * returns st. */
enum td_status cmd_fail(struct cmd_env *env, enum td_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Parses a decimal row number (no sign, no junk).  false on bad text. */
bool cmd_parse_u64(const char *s, uint64_t *out);
bool cmd_parse_i64(const char *s, int64_t *out);
/* The host named by arg: an exact host name, else a rank number matching
 * the trailing number of exactly one host ("1" -> "rank_1").  NULL none
 * (the string is the model's, valid until model_close). */
const char *cmd_host_find(struct model *m, const char *arg);
/* cmd_host_find for an option (--host H, host=H): an unknown host is an
 * error naming the hosts there are, as an unknown graph is. */
enum td_status cmd_host_arg(struct cmd_env *env, const char *arg, const char **host);

/* The older CLI's flags on an alias (cmd_alias.c): when argv[0] is an
 * alias (li, lo, ni, lt, pt) its flags, short or the CLI's long form, become
 * the command's options ("li -r 6" -> "li --depth 20 6", "lt -n R -s" ->
 * "lt --op R --sort size"); other words are kept.  Returns the new count
 * and a new argv in *out (free with cmd_split_free), or -1 with the cause
 * in env (an unknown flag, named with the flags the alias takes).  A
 * command name's argv is copied unchanged. */
int cmd_alias_args(struct cmd_env *env, int argc, char **argv, char ***out);
/* Appends the flags alias takes, "-r (--recursive), -d N (--depth)";
 * false (nothing appended) when it takes none. */
bool cmd_alias_flags(struct strbuf *sb, const char *alias);
/* Appends "; li -r is --depth 20" when an alias of command takes flag, so
 * that "inputs -r" says what it is called here; nothing otherwise. */
void cmd_alias_hint(struct strbuf *sb, const char *command, const char *flag);

/* "; did you mean dense/MatMul, dense_1/MatMul?": the dump's op names /
 * graph names and ids nearest to a name nobody has (reader/base/suggest.h),
 * appended to sb; nothing when none is near. */
void cmd_suggest_op(struct model *m, const char *name, struct strbuf *sb);
/* Trace row N (*op its op, *row N) or --op NAME [--graph G] (*row -1);
 * fails with a message (and a did-you-mean) otherwise (cmd_tree.c). */
enum td_status cmd_op_or_row(struct cmd_env *env, const char *row_arg, const char *op_name,
			     const char *graph, uint32_t *op, int64_t *row);
void cmd_suggest_graph(struct model *m, const char *name, struct strbuf *sb);

/* One option of a command: "--name VALUE", "--name=VALUE" or a "--flag". */
struct cmd_opt {
	const char *name;           /* without the dashes: "op" */
	const char **value;         /* set for options with a value */
	bool *flag;                 /* set for flags */
};
/* Splits argv into options (anywhere, "--" ends them) and positionals; up
 * to maxpos positionals are stored in pos (borrowed from argv).  Errors
 * (unknown option, missing value, too many positionals) go to env. */
enum td_status cmd_parse_opts(struct cmd_env *env, int argc, char **argv,
			      const struct cmd_opt *opts, char **pos, int *npos, int maxpos);

/* A python-like slice "A:B[:S]" over n items, or a single "A".  Negative
 * values count from the end; step > 0.  false on bad text. */
struct cmd_range {
	uint64_t start, stop, step;
};
bool cmd_parse_range(const char *text, uint64_t n, struct cmd_range *r);

/* The number of the trace / execution row in arg, checked against the
 * table; errors name the valid range. */
enum td_status cmd_trace_arg(struct cmd_env *env, const char *arg, uint64_t *row);
enum td_status cmd_execution_arg(struct cmd_env *env, const char *arg, uint64_t *row);

/* Fails with "trace N has no stored values (mode M; ... dumps keep them)". */
enum td_status cmd_no_values(struct cmd_env *env, uint64_t row, const char *mode);
/* For print / tensor on a row whose values the dump does not keep: the
 * statistics the row has and a note that the values are not stored (JSON
 * {"index", ["value": null,] "values_stored": false, "values_note",
 * "summary"}); TD_OK.  value_key adds print's "value": null. */
enum td_status cmd_stats_only(struct cmd_env *env, uint64_t row, const char *mode, bool value_key);

/* Joins argv[from..argc) with single spaces (a numpy slice split by the
 * shell rules: "[0:10," ":]").  Caller frees. */
char *cmd_join(int argc, char **argv, int from);

/* Between rows of a long listing: hands env->out to env->flush once it
 * holds more than CMD_FLUSH_BYTES. */
#define CMD_FLUSH_BYTES (256 * 1024)
static inline void
cmd_maybe_flush(struct cmd_env *env)
{
	if (env->flush && env->out->len > CMD_FLUSH_BYTES)
		env->flush(env);
}

/* ---- output helpers ----------------------------------------------------- */

/* The summary as a JSON object; unknown fields are null. */
void cmd_json_summary(struct json *j, const struct td_summary *s);
/* The summary as compact text: "float32[1000] nan=0 -inf=1 ...". */
void cmd_text_summary(struct strbuf *sb, const struct td_summary *s);
/* The NaN/-Inf/+Inf/elements counts as members of the current object. */
void cmd_json_counts(struct json *j, const struct td_summary *s);

/* A stack (frame ids, outermost first): a JSON list of frames; in text
 * title ("stack\n", "" none) then "  #0   file:line in function" lines,
 * or nothing when title is NULL (the stack is JSON only). */
void cmd_emit_frames(struct cmd_env *env, struct emit *e, const uint32_t *ids, size_t n,
		     const char *title);

/* The op: type, graph, device, inputs, consumers, output tensor ids,
 * details, stack; a JSON object (null when op is not known) and the op's
 * text block. */
void cmd_emit_op(struct cmd_env *env, struct emit *e, uint32_t op);
/* The same members and lines, in an object the caller has begun. */
void cmd_emit_op_members(struct cmd_env *env, struct emit *e, uint32_t op);
/* The details of an op (cmd_op_info.c): control inputs, attributes,
 * output dtypes and shapes, as members of the current object and their
 * text lines. */
void cmd_emit_op_details(struct cmd_env *env, struct emit *e, const struct model_op *o);

/* A full tensor value with an optional numpy slice text ("[0:10, :]") as
 * JSON (see cmd_tensor.c for the shape) or as numpy-style text; at most
 * limit elements are written.  Bad slices fail with the parser's message. */
enum td_status cmd_json_value(struct cmd_env *env, struct json *j, const struct td_tensor *t,
			      const char *slice_text, uint64_t limit);
enum td_status cmd_text_value(struct cmd_env *env, const struct td_tensor *t,
			      const char *slice_text, uint64_t limit);

/* A table cell: s (NULL/"" as "-") made safe for a terminal, cut to width
 * columns with an ellipsis, padded with spaces to width. */
void cmd_cell(struct strbuf *sb, const char *s, int width);
/* cmd_cell for a scoped op name ("Default/net/fc3-Dense/MatMul-op10"): a
 * name too long loses the middle of its scope, never the op's own name
 * while that fits ("Default/…/fc3-Dense/MatMul-op10"). */
void cmd_cell_name(struct strbuf *sb, const char *s, int width);

/* The graph id string of graph index g, NULL for none. */
const char *cmd_graph_id(struct cmd_env *env, int32_t g);

/* Empty string to NULL (so JSON shows null for "no graph"). */
static inline const char *
cmd_nz(const char *s)
{
	return s && *s ? s : NULL;
}

/* A string from the dump (NULL as "") made safe as one field of text
 * output, before it is formatted into a line: control bytes and escape
 * sequences visible (sanitize.h), a newline as "^J", so a name can never
 * start a row of its own.  The result lives in a ring of buffers: valid
 * until 16 more cmd_safe()/cmd_txt() calls on the same thread. */
const char *cmd_safe(const char *s);

/* Text for a possibly NULL/empty string in aligned output: "-", else
 * cmd_safe(s) (same lifetime). */
static inline const char *
cmd_txt(const char *s)
{
	return s && *s ? cmd_safe(s) : "-";
}

#endif
