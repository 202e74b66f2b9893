/*
 * main.c - command line: options, opening the dump, then batch mode or the
 * full-screen interface.
 *
 * Batch mode (any -e) never initialises curses.  Without -e, when stdout
 * is not a terminal or TERM is unset or dumb, a short note goes to stderr
 * and the default summary (info, alerts) is printed instead of the TUI.
 * Exit codes are in batch.h (0 ok, 1 usage, 2 cannot open, 3 strict,
 * 4 --check found NaN/Inf).
 */
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "tui/cmd/batch.h"
#include "tui/cmd/sanitize.h"
#include "tui.h"

struct args {
	const char **cmds;
	size_t ncmds, cap;
	bool json, strict, no_color, no_mouse, follow, man, check;
	const char *format, *source_root, *theme, *dump;
};

static void
usage_error(const char *fmt, const char *arg)
{
	fputs("tdbg: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'tdbg --help'.\n", stderr);
}

/* getopt_long tables from batch_options(), plus the hidden --man. */
static void
build_getopt(struct option *longs, char *shorts)
{
	const struct batch_option *o;
	size_t i, n;
	char *p = shorts;

	o = batch_options(&n);
	for (i = 0; i < n; i++) {
		longs[i] = (struct option){ o[i].name, o[i].arg ? required_argument : no_argument,
					    NULL, o[i].id };
		*p++ = (char)o[i].id;
		if (o[i].arg)
			*p++ = ':';
	}
	longs[n] = (struct option){ "man", no_argument, NULL, 256 };
	longs[n + 1] = (struct option){ NULL, 0, NULL, 0 };
	*p = '\0';
}

/* Returns -1 to go on, else the exit code. */
static int
parse_option(struct args *a, int c)
{
	switch (c) {
	case 'e':
		TD_GROW(a->cmds, a->cap, a->ncmds + 1);
		a->cmds[a->ncmds++] = optarg;
		return -1;
	case 'j': a->json = true; return -1;
	case 's': a->strict = true; return -1;
	case 'f': a->format = optarg; return -1;
	case 'r': a->source_root = optarg; return -1;
	case 't': a->theme = optarg; return -1;
	case 'C': a->no_color = true; return -1;
	case 'M': a->no_mouse = true; return -1;
	case 'F': a->follow = true; return -1;
	case 'c': a->check = true; return -1;
	case 256: batch_print_man(stdout); return EXIT_OK_;
	case 'h': batch_print_help(stdout); return EXIT_OK_;
	case 'V': printf("tdbg %s\n", TDBG_VERSION); return EXIT_OK_;
	default:  fputs("Try 'tdbg --help'.\n", stderr); return EXIT_USAGE;
	}
}

static int
parse_args(int argc, char **argv, struct args *a)
{
	struct option longs[32];
	char shorts[64];
	int c, rc;

	build_getopt(longs, shorts);
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1)
		if ((rc = parse_option(a, c)) >= 0)
			return rc;
	if (optind >= argc) {
		usage_error("%s", "missing DUMP_DIR");
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		usage_error("one DUMP_DIR only (extra: %s)", argv[optind + 1]);
		return EXIT_USAGE;
	}
	a->dump = argv[optind];
	return -1;
}

/* NULL when the full-screen interface can run, else why not. */
static const char *
no_terminal_reason(void)
{
	const char *term = getenv("TERM");

	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		return "not a terminal";
	if (!term || !*term)
		return "TERM is not set";
	if (strcmp(term, "dumb") == 0)
		return "TERM is dumb";
	return NULL;
}

static int
run_tui(struct model *m, const struct args *a)
{
	const char *nc = getenv("NO_COLOR");
	struct tui_options to = {
		.dump_path = a->dump,
		.theme = a->theme,
		.no_color = a->no_color || (nc && *nc),
		.follow = a->follow,
		.mouse = !a->no_mouse,
	};

	return tui_run(m, &to);
}

/* --check: the -e commands if any, then the headline origin; exit 4 when
 * the dump has NaN/Inf (3 when --strict fails). */
static int
run_check(struct model *m, const struct args *a)
{
	int rc = EXIT_OK_, crc;

	setlocale(LC_CTYPE, "");
	sanitize_set_utf8(strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
	model_wait(m);
	if (a->ncmds)
		rc = batch_run(m, a->cmds, a->ncmds, a->json, stdout, stderr);
	crc = batch_check(m, a->json, stdout, stderr);
	if (rc == EXIT_OK_)
		rc = crc;
	if (a->strict && batch_strict_check(m, stderr) == EXIT_STRICT)
		rc = EXIT_STRICT;
	return rc;
}

static int
run(struct model *m, struct args *a)
{
	static const char *const summary[] = { "info", "first-nonfinite", "alerts --limit 20" };
	const char *why = no_terminal_reason();
	int rc;

	if (a->check)
		return run_check(m, a);
	if (a->ncmds == 0 && !a->json && !why) {
		rc = run_tui(m, a);
		if (rc == EXIT_OK_ && a->strict)
			rc = batch_strict_check(m, stderr);
		return rc;
	}
	/* Text output is sanitized for the terminal's character set. */
	setlocale(LC_CTYPE, "");
	sanitize_set_utf8(strcmp(nl_langinfo(CODESET), "UTF-8") == 0);
	model_wait(m);
	if (a->ncmds == 0) {
		fprintf(stderr, "tdbg: %s; printing a summary (use -e CMD for more, see tdbg --help)\n",
			why ? why : "--json");
		rc = batch_run(m, summary, TD_ARRAY_SIZE(summary), a->json, stdout, stderr);
	} else {
		rc = batch_run(m, a->cmds, a->ncmds, a->json, stdout, stderr);
	}
	if (a->strict && batch_strict_check(m, stderr) == EXIT_STRICT)
		rc = EXIT_STRICT;
	return rc;
}

int
main(int argc, char **argv)
{
	struct args a = {0};
	struct model_options mo = {0};
	struct model *m = NULL;
	char err[1024] = "";
	enum td_status st;
	int rc;

	if ((rc = parse_args(argc, argv, &a)) >= 0) {
		free(a.cmds);
		return rc;
	}
	mo.source_root = a.source_root;
	mo.format = a.format;
	st = model_open(a.dump, &mo, &m, err, sizeof err);
	if (st != TD_OK) {
		char msg[2048];

		/* the model's message usually starts with the path already */
		if (*err && strncmp(err, a.dump, strlen(a.dump)) == 0)
			snprintf(msg, sizeof msg, "cannot open %s", err);
		else
			snprintf(msg, sizeof msg, "cannot open %s: %s", a.dump,
				 *err ? err : td_strerror(st));
		{
			struct strbuf safe = {0};

			sanitize_str(msg, -1, &safe);     /* names from the disk */
			fprintf(stderr, "tdbg: %s\n", safe.buf ? safe.buf : "");
			strbuf_done(&safe);
		}
		if (a.json)
			batch_json_error(stdout, msg);
		free(a.cmds);
		return EXIT_OPEN;
	}
	rc = run(m, &a);
	model_close(m);
	free(a.cmds);
	return rc;
}
