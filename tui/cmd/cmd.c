/*
 * cmd.c - the command table, word splitting and the dispatcher shared by
 * batch mode (-e) and the TUI prompt.
 *
 * Handlers live in cmd_*.c by subject and receive argv with argv[0] = the
 * command name; argc counts it.  The table's min_args/max_args count the
 * words after the name (options included), so commands with options say -1
 * and check their positionals themselves.  Nothing here prints: output and
 * errors go to env->out / env->err, main.c or the TUI decides where they go.
 */
#include "cmd.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_internal.h"
#include "reader/base/suggest.h"

#define B CMD_BATCH
#define T CMD_TUI

static const struct cmd_info commands[] = {
	{ "info", cmd_info, 0, 0, B | T, "info",
	  "Dump facts: format, hosts, debug mode, row counts, alerts, problems", COMPLETE_NONE },
	{ "alerts", cmd_alerts, 0, 2, B | T, "alerts [--limit N]",
	  "NaN/Inf and overflow alerts, grouped by op type", COMPLETE_NONE },
	{ "first-nonfinite", cmd_first_nonfinite, 0, 0, B | T, "first-nonfinite",
	  "The first tensor with NaN or Inf in execution order (the likely origin)", COMPLETE_NONE },
	{ "origins", cmd_origins, 0, -1, B | T, "origins [--step S] [--host H] [--by-host] [--all]",
	  "Where the NaN/Inf started (origins, first in time first) and why", COMPLETE_NONE },
	{ "why", cmd_why, 0, 1, B | T, "why N",
	  "Explain trace N: origin or propagation, from where, and why", COMPLETE_NONE },
	{ "traces", cmd_traces, 0, -1, B | T,
	  "traces [A:B] [--op REGEX] [--type REGEX] [--nonfinite] [--graph G] [--host H] [--execution N] [--where EXPR] [--sort FIELD]",
	  "Graph execution trace rows; A:B slices the matching rows", COMPLETE_OP },
	{ "executions", cmd_executions, 0, -1, B | T,
	  "executions [A:B] [--op REGEX] [--type REGEX] [--nonfinite] [--graph G] [--host H] [--where EXPR]",
	  "Timeline rows (eager ops, function calls, runs); A:B slices the matching rows", COMPLETE_OP },
	{ "trace", cmd_trace, 0, 3, B | T, "trace N [--slice SLICE]",
	  "One trace row: full summary, values, op and stack", COMPLETE_NONE },
	{ "execution", cmd_execution, 1, 3, B | T, "execution N [--slice SLICE]",
	  "One execution: per-output summaries, values and stack", COMPLETE_NONE },
	{ "print", cmd_print, 1, -1, B | T, "print N [SLICE]",
	  "Tensor values of trace N with numpy slicing, e.g. print 88 [0:10]", COMPLETE_NONE },
	{ "export", cmd_export, 1, -1, B | T, "export [N] [SLICE] FILE [--force]",
	  "Write trace N's values (or a slice) to a numpy array file or CSV, never into the dump", COMPLETE_NONE },
	{ "op", cmd_op, 1, 3, B | T, "op NAME [--graph ID]",
	  "An op: type, graph, device, inputs, consumers, output tensor ids, stack", COMPLETE_OP },
	{ "inputs", cmd_inputs, 0, 6, B | T, "inputs N [--depth D] | inputs --op NAME [--graph G] [--depth D]",
	  "Inputs of trace N's op, each with the latest trace row before N; --depth: the tree", COMPLETE_OP },
	{ "consumers", cmd_consumers, 0, 6, B | T,
	  "consumers N [--depth D] | consumers --op NAME [--graph G] [--depth D]",
	  "Consumers of trace N's tensor, each with its first trace row after N; --depth: the tree", COMPLETE_OP },
	{ "module", cmd_module, 0, 4, B | T, "module N | module --op NAME [--graph G]",
	  "The module enclosing trace N's op and the calls inside it, where the dump records them", COMPLETE_OP },
	{ "stack", cmd_stack, 0, 3, B | T, "stack trace N | stack execution N | stack op NAME [--user]",
	  "Creation stack, outermost frame first; --user: the user's frames only", COMPLETE_OP },
	{ "sources", cmd_sources, 0, 0, B | T, "sources",
	  "The source files the dump holds", COMPLETE_NONE },
	{ "source", cmd_source, 1, 2, B | T, "source PATH [LINE | A:B]",
	  "Lines of a source file (from the dump, else from disk)", COMPLETE_SOURCE },
	{ "source-ops", cmd_source_ops, 1, 2, B | T, "source-ops PATH [LINE]",
	  "Ops created at a source line, with their trace rows (no LINE: the lines that made ops)",
	  COMPLETE_SOURCE },
	{ "graphs", cmd_graphs, 0, 0, B | T, "graphs",
	  "Graphs with their ids, names, enclosing graph and op counts", COMPLETE_NONE },
	{ "watch", cmd_watch, 1, -1, B | T,
	  "watch add NAME 'CONDITION' [--global] | watch rm NAME | watch list | watch conditions | watch recommended on|off",
	  "Named numerical checks: a condition (gradient_vanishing(abs_mean_lt=1e-9)) or an expression",
	  COMPLETE_NONE },
	{ "watches", cmd_watches, 1, 3, B | T, "watches check [--step S]",
	  "Check every watch over every row: hits with their values and thresholds", COMPLETE_NONE },
	{ "problems", cmd_problems, 0, 0, B | T, "problems",
	  "Corrupt, torn and missing records: file, offset, record, what", COMPLETE_NONE },
	{ "compare", cmd_compare, 1, 3, B | T, "compare OP [--iterations A,B]",
	  "The same op's summary across executions, hosts and ranks", COMPLETE_OP },
	{ "history", cmd_history, 0, -1, B | T,
	  "history N | history --op NAME [--slot S] [--field F]... [--host H]",
	  "An op's output over the steps (norm, abs_mean, NaN/Inf...), one point per step and host (TUI: H)",
	  COMPLETE_OP },
	{ "diff", cmd_diff, 0, -1, B | T, "diff [--first] [--op REGEX] [--nonequal] [A:B] | diff --csv FILE [--force] [--stack]",
	  "Two dumps (or two ranks) pair by pair: metrics, divergences, the first one", COMPLETE_OP },
	{ "rank", cmd_rank, 0, 1, B | T, "rank [N | HOST | all]",
	  "Restrict to one rank/host (batch: the following commands)", COMPLETE_NONE },
	{ "filter", cmd_filter, 1, -1, T,
	  "filter [op=REGEX] [type=REGEX] [nonfinite] [graph=G] [host=H] [where=EXPR] | filter off",
	  "Filter the timeline and the trace table", COMPLETE_NONE },
	{ "goto", cmd_goto, 1, 2, T, "goto [trace | execution] N",
	  "Jump to a trace (default) or execution row", COMPLETE_NONE },
	{ "sort", cmd_sort, 1, 2, T, "sort FIELD [desc]",
	  "Sort the trace table by row, op, type, size, time or nonfinite (-FIELD: descending)", COMPLETE_NONE },
	{ "columns", cmd_columns, 0, -1, T, "columns [[+|-]time|dtype|shape|size ...]",
	  "Toggle (+ show, - hide) optional trace table columns; alone: list them", COMPLETE_NONE },
	{ "theme", cmd_theme, 1, 1, T, "theme NAME",
	  "Switch the colour theme (dark, light, mono, high-contrast)", COMPLETE_THEME },
	{ "follow", cmd_follow, 1, 1, T, "follow on|off",
	  "Pick up records appended to a growing dump", COMPLETE_NONE },
	{ "save-display", cmd_save_display, 1, 1, T, "save-display FILE",
	  "Write the screen as text to FILE", COMPLETE_NONE },
	{ "tensor", cmd_tensor, 0, -1, B | T, "tensor [N] [SLICE] [--range RANGES] [--find V]",
	  "Trace N's values: percentiles, std, elements in ranges like [[-inf,-1],[1,inf]] or equal to V (TUI: tensor view)",
	  COMPLETE_NONE },
	{ "quit", cmd_quit, 0, 0, T, "quit",
	  "Leave tdbg", COMPLETE_NONE },
	{ "help", cmd_help, 0, 1, B | T, "help [CMD]",
	  "Commands and their usage", COMPLETE_COMMAND },
};

#undef B
#undef T

static const struct cmd_alias aliases[] = {
	{ "lt", "traces", "list tensors" },
	{ "pt", "print", "print tensor" },
	{ "ni", "op", "node info" },
	{ "li", "inputs", "list inputs" },
	{ "lo", "consumers", "list outputs" },
	{ "ls", "sources", "list source files" },
	{ "ps", "source-ops", "print source, annotated with ops" },
};

const struct cmd_info *
cmd_table(size_t *n)
{
	*n = TD_ARRAY_SIZE(commands);
	return commands;
}

const struct cmd_alias *
cmd_aliases(size_t *n)
{
	*n = TD_ARRAY_SIZE(aliases);
	return aliases;
}

static const struct cmd_info *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(commands); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

const struct cmd_info *
cmd_find(const char *name)
{
	const struct cmd_info *c = find_command(name);
	size_t i;

	for (i = 0; !c && i < TD_ARRAY_SIZE(aliases); i++)
		if (strcmp(aliases[i].alias, name) == 0)
			c = find_command(aliases[i].command);
	return c;
}

/* "; did you mean traces?": the commands and aliases nearest to name. */
static void
suggest_command(const char *name, struct strbuf *hint)
{
	struct td_suggest near;
	size_t i;

	td_suggest_init(&near, name);
	for (i = 0; i < TD_ARRAY_SIZE(commands); i++)
		td_suggest_add(&near, commands[i].name);
	for (i = 0; i < TD_ARRAY_SIZE(aliases); i++)
		td_suggest_add(&near, aliases[i].alias);
	td_suggest_text(&near, hint);
}

/* ---- word splitting ------------------------------------------------- */

struct words {
	char **v;
	size_t n, cap;
	struct strbuf cur;
	bool in_word;
};

static void
words_end(struct words *w)
{
	if (!w->in_word)
		return;
	TD_GROW(w->v, w->cap, w->n + 2);
	w->v[w->n++] = strbuf_take(&w->cur);
	w->v[w->n] = NULL;
	w->in_word = false;
}

static void
words_add(struct words *w, char c)
{
	strbuf_addc(&w->cur, c);
	w->in_word = true;
}

/* Inside "...": a backslash escapes only $ ` " \ and newline (POSIX). */
static const char *
split_double(struct words *w, const char *p)
{
	for (; *p && *p != '"'; p++) {
		if (*p == '\\' && p[1] && strchr("$`\"\\\n", p[1]))
			p++;
		words_add(w, *p);
	}
	return *p ? p : NULL;
}

int
cmd_split(const char *line, char ***argv, char *err, size_t errlen)
{
	struct words w = {0};
	const char *p;

	for (p = line; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			words_end(&w);
		} else if (*p == '\'') {
			const char *q = strchr(p + 1, '\'');

			if (!q)
				goto unterminated;
			w.in_word = true;
			strbuf_add(&w.cur, p + 1, (size_t)(q - p - 1));
			p = q;
		} else if (*p == '"') {
			w.in_word = true;
			if (!(p = split_double(&w, p + 1)))
				goto unterminated;
		} else if (*p == '\\') {
			if (!p[1]) {
				snprintf(err, errlen, "trailing backslash");
				goto fail;
			}
			words_add(&w, *++p);
		} else {
			words_add(&w, *p);
		}
	}
	words_end(&w);
	if (!w.v)
		w.v = xcalloc(1, sizeof(*w.v));
	*argv = w.v;
	return (int)w.n;
unterminated:
	snprintf(err, errlen, "unterminated quote");
fail:
	strbuf_done(&w.cur);
	cmd_split_free(w.v, (int)w.n);
	*argv = NULL;
	return -1;
}

void
cmd_split_free(char **argv, int argc)
{
	int i;

	if (!argv)
		return;
	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

/* ---- dispatch ----------------------------------------------------------- */

/* Turns the cause a handler left in env->err into "CMD: cause" and, in JSON
 * mode, replaces the output with {"error": "CMD: cause"}. */
static enum td_status
report(struct cmd_env *env, const char *name, enum td_status st)
{
	struct strbuf msg = {0};
	struct emit e;

	strbuf_addf(&msg, "%s: %s", name,
		    env->err->len ? env->err->buf : td_strerror(st));
	strbuf_reset(env->err);
	strbuf_add(env->err, msg.buf, msg.len);
	if (env->json) {
		strbuf_reset(env->out);
		emit_init(&e, env->out, true);
		emit_object_begin(&e, NULL);
		emit_kv_str(&e, "error", msg.buf);
		emit_object_end(&e);
		emit_done(&e);
	}
	strbuf_done(&msg);
	return st;
}

static enum td_status
check_args(struct cmd_env *env, const struct cmd_info *c, int nargs)
{
	if (!(c->flags & CMD_BATCH) && !env->ui)
		return cmd_fail(env, TD_ERR_UNSUPPORTED, "needs the TUI (not available with -e)");
	if (!(c->flags & CMD_TUI) && env->ui)
		return cmd_fail(env, TD_ERR_UNSUPPORTED, "only available with -e");
	if (nargs < c->min_args || (c->max_args >= 0 && nargs > c->max_args))
		return cmd_fail(env, TD_ERR_ARGS, "usage: %s", c->usage);
	return TD_OK;
}

enum td_status
cmd_run(struct cmd_env *env, const char *line)
{
	const struct cmd_info *c;
	char **argv = NULL;
	char why[128];
	enum td_status st;
	int argc;

	strbuf_reset(env->out);
	strbuf_reset(env->err);
	argc = cmd_split(line, &argv, why, sizeof why);
	if (argc < 0) {
		char name[48];

		snprintf(name, sizeof name, "%.*s", (int)strcspn(line, " \t"), line);
		cmd_fail(env, TD_ERR_ARGS, "%s", why);
		return report(env, name, TD_ERR_ARGS);
	}
	if (argc == 0) {
		cmd_split_free(argv, argc);
		cmd_fail(env, TD_ERR_ARGS, "empty command (try help)");
		return report(env, "command", TD_ERR_ARGS);
	}
	c = cmd_find(argv[0]);
	if (c) {
		char **args = NULL;
		int n = cmd_alias_args(env, argc, argv, &args);

		if (n < 0) {
			st = report(env, argv[0], TD_ERR_ARGS);
			cmd_split_free(argv, argc);
			return st;
		}
		cmd_split_free(argv, argc);
		argv = args;
		argc = n;
	}
	if (!c) {
		struct strbuf hint = { 0 };

		suggest_command(argv[0], &hint);
		cmd_fail(env, TD_ERR_NOTFOUND, "unknown command (try help)%s", hint.buf ? hint.buf : "");
		strbuf_done(&hint);
		st = report(env, argv[0], TD_ERR_NOTFOUND);
	} else if ((st = check_args(env, c, argc - 1)) != TD_OK) {
		st = report(env, c->name, st);
	} else if ((st = c->fn(env, argc, argv)) != TD_OK) {
		st = report(env, c->name, st);
	}
	cmd_split_free(argv, argc);
	return st;
}

/* ---- help ---------------------------------------------------------------- */

static void
help_one(struct emit *e, const struct cmd_info *c)
{
	const char *sep = "   (alias ";
	size_t i;

	emit_object_begin(e, emit_json_only);
	emit_kv_str(e, "name", c->name);
	emit_kv_str(e, "usage", c->usage);
	emit_kv_str(e, "summary", c->summary);
	emit_kv_bool(e, "batch", c->flags & CMD_BATCH);
	emit_kv_bool(e, "tui", c->flags & CMD_TUI);
	emit_textf(e, "%s", c->usage);
	emit_key(e, "aliases");
	emit_list_begin(e);
	for (i = 0; i < TD_ARRAY_SIZE(aliases); i++)
		if (strcmp(aliases[i].command, c->name) == 0) {
			emit_str(e, aliases[i].alias);
			emit_textf(e, "%s%s", sep, aliases[i].alias);
			sep = ", ";
		}
	emit_list_end(e);
	emit_textf(e, "%s%s\n    %s\n", *sep == ',' ? ")" : "",
		   (c->flags & CMD_BATCH) ? "" : "   (TUI only)", c->summary);
	emit_object_end(e);
}

static void
help_aliases(struct emit *e)
{
	struct strbuf fl = { 0 };
	size_t i;

	emit_textf(e, "\nAliases (the verbs of the older debugger CLI):\n");
	emit_key(e, "aliases");
	emit_table_begin(e, emit_json_only);
	for (i = 0; i < TD_ARRAY_SIZE(aliases); i++) {
		emit_object_begin(e, NULL);
		emit_kv_str(e, "alias", aliases[i].alias);
		emit_kv_str(e, "command", aliases[i].command);
		emit_kv_str(e, "what", aliases[i].what);
		emit_object_end(e);
		emit_textf(e, "  %-4s %-12s %s", aliases[i].alias, aliases[i].command, aliases[i].what);
		strbuf_reset(&fl);
		if (emit_text(e) && cmd_alias_flags(&fl, aliases[i].alias))
			emit_textf(e, "; flags: %s", fl.buf);
		emit_textf(e, "\n");
	}
	emit_table_end(e);
	strbuf_done(&fl);
}

enum td_status
cmd_help(struct cmd_env *env, int argc, char **argv)
{
	const struct cmd_info *c = NULL;
	struct emit e;
	size_t i;

	if (argc > 1 && !(c = cmd_find(argv[1]))) {
		struct strbuf hint = { 0 };
		enum td_status st;

		suggest_command(argv[1], &hint);
		st = cmd_fail(env, TD_ERR_NOTFOUND, "%s: unknown command%s", argv[1],
			      hint.buf ? hint.buf : "");
		strbuf_done(&hint);
		return st;
	}
	emit_init(&e, env->out, env->json);
	if (c) {
		help_one(&e, c);
	} else {
		emit_object_begin(&e, emit_json_only);
		emit_key(&e, "commands");
		emit_table_begin(&e, emit_json_only);
		for (i = 0; i < TD_ARRAY_SIZE(commands); i++)
			help_one(&e, &commands[i]);
		emit_table_end(&e);
		help_aliases(&e);
		emit_object_end(&e);
	}
	emit_done(&e);
	return TD_OK;
}
