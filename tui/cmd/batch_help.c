/*
 * batch_help.c - the option table, and the --help text and man page built
 * from it, the command table and the format table (model_format_at(), the
 * readers' own names and descriptions), so they cannot drift.
 *
 * tui/tdbg.1 is the output of `tdbg --man`; tests/e2e/batch_help.sh fails
 * when they differ.  To update it: make && ./tdbg --man > tui/tdbg.1
 */
#include "batch.h"

#include <string.h>

#include "cmd.h"
#include "cmd_internal.h"

static const struct batch_option options[] = {
	{ "execute",     'e', "CMD",  "run a command and print its result (repeatable); no screen" },
	{ "json",        'j', NULL,   "with -e: print each command's result as one JSON line" },
	{ "strict",      's', NULL,   "exit 3 when the dump has corrupt, torn or missing records" },
	{ "format",      'f', "NAME", "read the dump as format NAME (listed below), no detection" },
	{ "source-root", 'r', "DIR",  "look for the training job's source files under DIR" },
	{ "theme",       't', "NAME", "colour theme: dark (default), light, mono, high-contrast, or a file" },
	{ "no-color",    'C', NULL,   "no colours (the NO_COLOR environment variable does the same)" },
	{ "mouse",       'm', NULL,   "TUI: mouse on (the default): a click selects a row or follows a link, the wheel scrolls" },
	{ "no-mouse",    'M', NULL,   "TUI: mouse off, so the terminal selects text as usual (over SSH, in screen)" },
	{ "follow",      'F', NULL,   "TUI: keep reading records appended to a growing dump" },
	{ "fresh",       BATCH_OPT_FRESH, NULL, "TUI: start clean, without the focus, filter, sort and marks saved for this dump" },
	{ "no-cache",    BATCH_OPT_NO_CACHE, NULL, "neither read nor write the saved index ($XDG_CACHE_HOME/tdbg)" },
	{ "clear-cache", BATCH_OPT_CLEAR_CACHE, NULL, "remove the saved index of DUMP_DIR, or with no DUMP_DIR every saved index (only tdbg's .tdx files), and exit" },
	{ "quiet",       'q', NULL,   "batch: no progress line on stderr while a long first open indexes the dump" },
	{ "precision",   'p', "N",    "text: numbers with N significant digits (default 6; JSON keeps every digit)" },
	{ "pair",        BATCH_OPT_PAIR, "A=B", "two dumps: compare host or rank A of the first with B of the second (repeatable)" },
	{ "compare-hosts", BATCH_OPT_COMPARE_HOSTS, "A,B", "one dump: compare its hosts or ranks A and B (the diff command)" },
	{ "rtol",        BATCH_OPT_RTOL, "X", "diff: relative tolerance (default per dtype: float32 1e-5, float16 1e-3)" },
	{ "atol",        BATCH_OPT_ATOL, "X", "diff: absolute tolerance (default per dtype: float32 1e-7, float16 1e-5)" },
	{ "cos-min",     BATCH_OPT_COS_MIN, "X", "diff: lowest cosine similarity that still agrees, 0 to 1 (default per dtype)" },
	{ "fuzzy",       BATCH_OPT_FUZZY, NULL, "diff: calls pair in order of appearance, their call counts dropped (where op names count calls)" },
	{ "api-mapping", BATCH_OPT_API_MAPPING, "[=FILE]", "diff: the second dump's API names as the first's framework spells them (the compare tool's -am: built-in rules; FILE: its YAML of APIs and argument/output indices; where the format has them)" },
	{ "cell-mapping", BATCH_OPT_CELL_MAPPING, "[=FILE]", "diff: the second dump's cells as the first's modules (the compare tool's -cm; FILE: its YAML of cell names)" },
	{ "data-mapping", BATCH_OPT_DATA_MAPPING, "FILE", "diff: the second dump's leaves as the first's, by full leaf name (the compare tool's -dm; FILE: its YAML; the API and cell maps win)" },
	{ "layer-mapping", BATCH_OPT_LAYER_MAPPING, "FILE", "diff: the second dump's calls as the first's at the same place in the layers FILE renames (the compare tool's -lm: a data map made from both dumps' construct.json and stack.json; FILE: its YAML of layer classes; the API and cell maps win)" },
	{ "help",        'h', NULL,   "print this help and exit" },
	{ "version",     'V', NULL,   "print the version and exit" },
	{ "check",       'c', NULL,   "print where the NaN/Inf started (or \"no NaN/Inf\"); exit 4 if any" },
	{ "fail-on",     BATCH_OPT_FAIL_ON, "WHAT", "--check: also exit 4 on \"watches\" hits (NaN/Inf always fail)" },
	{ "node",        BATCH_OPT_NODE, NULL, "many nodes: one JSON line per rank/host of the DUMPs on this node (for --merge)" },
	{ "rank",        BATCH_OPT_RANK, "N", "--node: the rank of the first host when neither host nor path names one (srun: $SLURM_PROCID, pdsh: %n)" },
	{ "merge",       BATCH_OPT_MERGE, NULL, "many nodes: merge node lines (FILEs, or standard input) into one answer; --json for scripts" },
	{ "ranks",       BATCH_OPT_RANKS, "N", "--merge, --via: the job has ranks 0..N-1 (missing ones are named)" },
	{ "nodes",       BATCH_OPT_NODES, "LIST", "--merge, --via: the nodes that should answer (node[01-64],login)" },
	{ "via",         BATCH_OPT_VIA, "LAUNCHER", "many nodes: run 'LAUNCHER tdbg --node DUMP...' (srun -l ..., pdsh -w ...) and merge" },
	{ "via-tdbg",    BATCH_OPT_VIA_TDBG, "PATH", "--via: the tdbg the nodes run (default: this binary's path)" },
};

/* What stands between an option and its argument's name in the help: a
 * space, or nothing for an optional one ("--cell-mapping[=FILE]"). */
static const char *
arg_sep(const struct batch_option *o)
{
	return o->arg && o->arg[0] != '[' ? " " : "";
}

const struct batch_option *
batch_options(size_t *n)
{
	*n = TD_ARRAY_SIZE(options);
	return options;
}

static const char *const exit_codes[][2] = {
	{ "0", "success" },
	{ "1", "usage error, or a batch command failed (the other commands still ran)" },
	{ "2", "the dump cannot be opened (missing directory, unknown format)" },
	{ "3", "--strict and the dump has corrupt, torn or missing records" },
	{ "4", "--check and the dump has NaN/Inf, or a watch hit with --fail-on watches (3 wins when --strict also fails)" },
	{ "5", "--check found no NaN/Inf but cannot tell: the dump's mode records none (SHAPE, NO_TENSOR, structure only; 3 and 4 win)" },
};

void
batch_print_help(FILE *f)
{
	const struct cmd_alias *a;
	size_t na;
	const struct cmd_info *c;
	struct model_format fmt;
	size_t i, n;

	fprintf(f, "usage: tdbg [OPTIONS] DUMP_DIR\n"
		   "       tdbg [OPTIONS] -e CMD [-e CMD ...] DUMP_DIR\n"
		   "       tdbg [OPTIONS] [-e CMD ...] DUMP_A DUMP_B   (compare: diff)\n"
		   "       tdbg --node [--rank N] DUMP...              (many nodes: this node's answer)\n"
		   "       tdbg --merge [--ranks N] [--nodes LIST] [--json] [FILE...]\n"
		   "       tdbg --via 'LAUNCHER ARGS' [--ranks N] [--nodes LIST] [--json] DUMP...\n"
		   "       tdbg MERGED.jsonl                            (the ranks view)\n\n"
		   "Terminal debugger for machine-learning debug dumps (formats below).\n"
		   "Without -e it opens the full-screen interface (press ? for keys);\n"
		   "when stdout is not a terminal it prints a summary (info, alerts).\n\n"
		   "Options:\n");
	for (i = 0; i < TD_ARRAY_SIZE(options); i++) {
		char left[48];

		if (options[i].id < 256)
			snprintf(left, sizeof left, "-%c, --%s%s%s", options[i].id, options[i].name,
				 arg_sep(&options[i]), options[i].arg ? options[i].arg : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s", options[i].name,
				 arg_sep(&options[i]), options[i].arg ? options[i].arg : "");
		fprintf(f, "  %-26s %s\n", left, options[i].help);
	}
	fprintf(f, "\nFormats (detected from the directory's content; --format NAME forces one):\n");
	for (i = 0; model_format_at(i, &fmt); i++)
		fprintf(f, "  %-10s %s\n", fmt.name, fmt.description);
	fprintf(f, "\nCommands (-e, and the : prompt; \"help CMD\" for one):\n");
	c = cmd_table(&n);
	for (i = 0; i < n; i++)
		if (c[i].flags & CMD_BATCH)
			fprintf(f, "  %s\n      %s\n", c[i].usage, c[i].summary);
	fprintf(f, "Prompt only:");
	for (i = 0; i < n; i++)
		if (!(c[i].flags & CMD_BATCH))
			fprintf(f, " %s", c[i].name);
	fprintf(f, "\nAliases:");
	a = cmd_aliases(&na);
	for (i = 0; i < na; i++)
		fprintf(f, " %s=%s", a[i].alias, a[i].command);
	fprintf(f, "\n\nExit status:\n");
	for (i = 0; i < TD_ARRAY_SIZE(exit_codes); i++)
		fprintf(f, "  %s  %s\n", exit_codes[i][0], exit_codes[i][1]);
	fprintf(f, "\nExample: tdbg --json -e info -e first-nonfinite -e 'inputs 88' DIR\n");
}

/* roff: a backslash is \e, a minus is \-, and a line must not start with
 * a dot or a quote. */
static void
roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

static void
man_options(FILE *f)
{
	size_t i;

	fputs(".SH OPTIONS\n", f);
	for (i = 0; i < TD_ARRAY_SIZE(options); i++) {
		if (options[i].id < 256)
			fprintf(f, ".TP\n.BR \\-%c \", \" \\-\\-", options[i].id);
		else
			fputs(".TP\n.B \\-\\-", f);
		roff(f, options[i].name);
		if (options[i].arg)
			fprintf(f, "%s\\fI%s\\fR", *arg_sep(&options[i]) ? " \" \" " : "",
				options[i].arg);
		fputc('\n', f);
		roff(f, options[i].help);
		fputc('\n', f);
	}
}

static void
man_formats(FILE *f)
{
	struct model_format fmt;
	size_t i;

	fputs(".SH FORMATS\n"
	      "tdbg detects the format from the directory's content;\n"
	      "\\fB\\-\\-format\\fR \\fINAME\\fR forces one of these:\n", f);
	for (i = 0; model_format_at(i, &fmt); i++) {
		fputs(".TP\n.B ", f);
		roff(f, fmt.name);
		fputc('\n', f);
		roff(f, fmt.description);
		fputs(".\n", f);
	}
}

static void
man_commands(FILE *f)
{
	size_t i, n;
	const struct cmd_info *c = cmd_table(&n);

	fputs(".SH COMMANDS\n"
	      "The same commands run with \\fB\\-e\\fR and at the \\fB:\\fR prompt of the\n"
	      "interface.  Arguments are split as a shell splits words; quotes are allowed.\n"
	      "With \\fB\\-\\-json\\fR each command prints one JSON document on one line,\n"
	      "or {\"error\": \"...\"} when it fails; README.md documents every shape.\n", f);
	for (i = 0; i < n; i++) {
		fputs(".TP\n.B ", f);
		roff(f, c[i].usage);
		fputc('\n', f);
		roff(f, c[i].summary);
		fputs((c[i].flags & CMD_BATCH) ? ".\n" : " (prompt only).\n", f);
	}
}

static void
man_aliases(FILE *f)
{
	size_t i, n;
	const struct cmd_alias *a = cmd_aliases(&n);
	struct strbuf sb = { 0 };

	fputs(".SH ALIASES\n"
	      "Short verbs of the older debugger CLI, accepted wherever the command is:\n", f);
	for (i = 0; i < n; i++) {
		fputs(".TP\n.B ", f);
		roff(f, a[i].alias);
		fputc('\n', f);
		roff(f, a[i].command);
		fputs(" (", f);
		roff(f, a[i].what);
		strbuf_reset(&sb);
		fputs(")", f);
		if (cmd_alias_flags(&sb, a[i].alias)) {
			fputs("; the older CLI's flags: ", f);
			roff(f, sb.buf);
		}
		fputs(".\n", f);
	}
	strbuf_done(&sb);
}

void
batch_print_man(FILE *f)
{
	size_t i;

	fputs(".\\\" Generated by `tdbg --man` from the option and command tables\n"
	      ".\\\" (tui/cmd/batch_help.c, tui/cmd/cmd.c, the readers' format table);\n"
	      ".\\\" do not edit by hand.\n"
	      ".TH TDBG 1 \"\" \"tdbg " TDBG_VERSION "\" \"User Commands\"\n"
	      ".SH NAME\ntdbg \\- terminal debugger for machine\\-learning debug dumps\n"
	      ".SH SYNOPSIS\n.B tdbg\n[\\fIOPTIONS\\fR] \\fIDUMP_DIR\\fR\n.br\n"
	      ".B tdbg\n[\\fIOPTIONS\\fR] \\fB\\-e\\fR \\fICMD\\fR ... \\fIDUMP_DIR\\fR\n.br\n"
	      ".B tdbg\n[\\fIOPTIONS\\fR] [\\fB\\-e\\fR \\fICMD\\fR ...] \\fIDUMP_A\\fR \\fIDUMP_B\\fR\n.br\n"
	      ".B tdbg \\-\\-node\n[\\fB\\-\\-rank\\fR \\fIN\\fR] \\fIDUMP\\fR ...\n.br\n"
	      ".B tdbg \\-\\-merge\n[\\fB\\-\\-ranks\\fR \\fIN\\fR] [\\fB\\-\\-nodes\\fR \\fILIST\\fR] [\\fB\\-\\-json\\fR] [\\fIFILE\\fR ...]\n.br\n"
	      ".B tdbg \\-\\-via\n\\fI'LAUNCHER ARGS'\\fR [\\fB\\-\\-ranks\\fR \\fIN\\fR] [\\fB\\-\\-nodes\\fR \\fILIST\\fR] \\fIDUMP\\fR ...\n.br\n"
	      ".B tdbg\n\\fIMERGED.jsonl\\fR\n"
	      ".SH DESCRIPTION\n"
	      "tdbg opens a debug dump written by a machine-learning framework's debugger\n"
	      "(see FORMATS) and shows it in six linked panes: Alerts, Timeline,\n"
	      "Graph executions, Graph, Source and Stack.  It detects the format from the\n"
	      "directory's content and only reads it.\n"
	      ".PP\n"
	      "With \\fB\\-e\\fR it runs commands instead, prints their results and exits\n"
	      "without touching the terminal.  When standard output is not a terminal, or\n"
	      "TERM is unset or dumb, tdbg prints a summary (\\fBinfo\\fR, \\fBalerts\\fR).\n", f);
	man_options(f);
	man_formats(f);
	man_commands(f);
	man_aliases(f);
	fputs(".SH EXIT STATUS\n", f);
	for (i = 0; i < TD_ARRAY_SIZE(exit_codes); i++) {
		fprintf(f, ".TP\n.B %s\n", exit_codes[i][0]);
		roff(f, exit_codes[i][1]);
		fputc('\n', f);
	}
	fputs(".SH FILES\n"
	      ".TP\n.I $XDG_CONFIG_HOME/tdbg/keys\n"
	      "(default \\fI~/.config/tdbg/keys\\fR) Key bindings, one per line:\n"
	      ".RS\n.B bind\n\\fISCOPE KEY ACTION\\fR\n.RE\n"
	      ".IP\n"
	      "\\fISCOPE\\fR is \\fBgeneric\\fR or a pane's name (\\fBalerts\\fR, \\fBtimeline\\fR,\n"
	      "\\fBtraces\\fR, \\fBgraph\\fR, \\fBsource\\fR, \\fBstack\\fR, \\fBoverlay\\fR).\n"
	      "\\fIACTION\\fR is an action's name as the help (\\fB?\\fR) lists it.\n"
	      "\\fIKEY\\fR is a character (\\fBj\\fR, \\fB?\\fR); a key name: \\fBSpace\\fR, \\fBTab\\fR,\n"
	      "\\fBS\\-Tab\\fR, \\fBEnter\\fR, \\fBEsc\\fR, \\fBBackspace\\fR, \\fBDel\\fR, \\fBIns\\fR,\n"
	      "\\fBUp\\fR, \\fBDown\\fR, \\fBLeft\\fR, \\fBRight\\fR, \\fBPgUp\\fR, \\fBPgDn\\fR,\n"
	      "\\fBHome\\fR, \\fBEnd\\fR, \\fBF1\\fR..\\fBF12\\fR (any case; tig's \\fBEscape\\fR,\n"
	      "\\fBPageDown\\fR, \\fBPageUp\\fR, \\fBDelete\\fR, \\fBInsert\\fR, \\fBBackTab\\fR,\n"
	      "\\fBReturn\\fR, \\fBLt\\fR, \\fBGt\\fR, \\fBHash\\fR too); a control key \\fB^N\\fR,\n"
	      "\\fBC\\-n\\fR or \\fBCtrl\\-n\\fR; a Meta (Alt) key \\fBM\\-x\\fR or \\fBAlt\\-x\\fR (Esc then\n"
	      "x); any of these in angle brackets as tig writes them (\\fB<C\\-n>\\fR).\n"
	      "Lines starting with \\fB#\\fR are comments.  A bad line is skipped; the\n"
	      "message line names the first, and \\fBo\\fR lists every one with its line number.\n"
	      "Like every file of tdbg's own (history, state, watches, the cache), it is read\n"
	      "only when it is a regular file (not a link, not a FIFO) of yours, not writable\n"
	      "by group or others; it is read whole, up to 1 MiB.  Else the message line says why.\n"
	      ".IP\n"
	      ".nf\n"
	      "bind generic C\\-n move\\-down\n"
	      "bind generic ^P move\\-up\n"
	      "bind traces <PageDown> page\\-down\n"
	      ".fi\n", f);
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B NO_COLOR\nWhen set and not empty, no colours are used.\n"
	      ".TP\n.B TERM\nUnset or \\fBdumb\\fR: print a summary instead of the interface.\n"
	      ".TP\n.B XDG_STATE_HOME\nThe prompt history is kept in \\fI$XDG_STATE_HOME/tdbg/history\\fR, and each dump's "
	      "saved state (focus, filter, sort, columns, selection, marks; \\fB\\-\\-fresh\\fR ignores it) in "
	      "\\fI$XDG_STATE_HOME/tdbg/HASH.state\\fR (default \\fI~/.local/state/tdbg\\fR).\n"
	      ".TP\n.B XDG_CACHE_HOME\nThe persistent index of each dump opened is kept in "
	      "\\fI$XDG_CACHE_HOME/tdbg/\\fR (default \\fI~/.cache/tdbg/\\fR), never in the dump; "
	      "\\-\\-no\\-cache skips it.  A folder or file there that is a link, another user's or "
	      "writable by group or others is not used (\\fBinfo\\fR says why).\n"
	      ".TP\n.B TDBG_CACHE_MAX\nBytes that directory may hold: an integer with an optional "
	      "K, M, G or T suffix (default 1G); anything else is refused (no cache, and \\fBinfo\\fR "
	      "says why).  The least recently used files go first.\n"
	      ".SH EXAMPLES\n"
	      ".nf\n"
	      "tdbg DIR\n"
	      "tdbg \\-\\-json \\-e info \\-e first\\-nonfinite \\-e 'inputs 88' DIR\n"
	      "tdbg \\-e 'traces \\-\\-nonfinite 0:10' \\-e 'stack trace 88' DIR\n"
	      ".fi\n"
	      ".SH SEE ALSO\nThe README.md of the tdbg sources.\n", f);
}
