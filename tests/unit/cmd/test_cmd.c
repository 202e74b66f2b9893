/*
 * test_cmd.c - the command table and the dispatcher: table sanity, the
 * table against the man page and the README, error lines and JSON error
 * documents, TUI-only commands, reactions through struct cmd_ui, and the
 * slice and option parsers the commands share.
 *
 * Commands that query a dump are tested end to end in
 * tests/e2e/batch_tfdbg2.sh; everything here runs without a model
 * (the dispatcher rejects bad input before a handler touches it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/cmd.h"
#include "tui/cmd/cmd_internal.h"

struct fixture {
	struct strbuf out, err;
	struct cmd_env env;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->env.out = &f->out;
	f->env.err = &f->err;
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	strbuf_done(&f->out);
	strbuf_done(&f->err);
	free(f);
	return 0;
}

/* ---- the table -------------------------------------------------------- */

static void
test_cmd_table_entries_are_complete(void **state)
{
	const struct cmd_info *c;
	size_t i, n;

	(void)state;
	c = cmd_table(&n);
	assert_true(n >= 20);
	for (i = 0; i < n; i++) {
		size_t len = strlen(c[i].name);

		assert_non_null(c[i].fn);
		assert_true(c[i].flags & (CMD_BATCH | CMD_TUI));
		assert_true(c[i].max_args < 0 || c[i].min_args <= c[i].max_args);
		assert_int_equal(strncmp(c[i].usage, c[i].name, len), 0);
		assert_true(c[i].usage[len] == '\0' || c[i].usage[len] == ' ');
		assert_true(strlen(c[i].summary) > 5);
		assert_ptr_equal(cmd_find(c[i].name), &c[i]);
	}
}

static void
test_cmd_table_names_are_unique(void **state)
{
	const struct cmd_info *c;
	size_t i, k, n;

	(void)state;
	c = cmd_table(&n);
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			assert_string_not_equal(c[i].name, c[k].name);
}

static void
test_cmd_table_has_the_issue_commands(void **state)
{
	static const char *const batch[] = {
		"info", "alerts", "first-nonfinite", "traces", "executions", "trace", "execution",
		"op", "inputs", "consumers", "stack", "sources", "source", "print", "compare",
		"rank", "problems", "graphs", "help", "tensor",
	};
	static const char *const tui_only[] = {
		"filter", "goto", "theme", "follow", "save-display", "quit",
	};
	size_t i;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(batch); i++) {
		assert_non_null(cmd_find(batch[i]));
		assert_true(cmd_find(batch[i])->flags & CMD_BATCH);
	}
	for (i = 0; i < TD_ARRAY_SIZE(tui_only); i++) {
		assert_non_null(cmd_find(tui_only[i]));
		assert_int_equal(cmd_find(tui_only[i])->flags, CMD_TUI);
	}
	assert_null(cmd_find("nonsense"));
}

static char *
slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	struct strbuf sb = {0};
	char buf[4096];
	size_t n;

	if (!fp)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(fp);
	return strbuf_take(&sb);
}

/* The man page writes '-' as "\-". */
static char *
roff_name(const char *name)
{
	struct strbuf sb = {0};

	for (; *name; name++) {
		if (*name == '-')
			strbuf_addc(&sb, '\\');
		strbuf_addc(&sb, *name);
	}
	return strbuf_take(&sb);
}

static void
test_cmd_every_command_is_in_the_man_page(void **state)
{
	char *man = slurp("tui/tdbg.1"), *want;
	const struct cmd_info *c;
	size_t i, n;

	(void)state;
	assert_non_null(man);
	c = cmd_table(&n);
	for (i = 0; i < n; i++) {
		struct strbuf line = {0};

		want = roff_name(c[i].name);
		strbuf_addf(&line, ".B %s", want);
		if (!strstr(man, line.buf))
			fail_msg("tui/tdbg.1 has no entry for %s (run ./tdbg --man > tui/tdbg.1)",
				 c[i].name);
		strbuf_done(&line);
		free(want);
	}
	free(man);
}

static void
test_cmd_every_command_is_in_the_readme(void **state)
{
	char *readme = slurp("README.md"), *start, *end;
	const struct cmd_info *c;
	size_t i, n;

	(void)state;
	assert_non_null(readme);
	start = strstr(readme, "<!-- commands -->");
	end = strstr(readme, "<!-- /commands -->");
	assert_non_null(start);
	assert_non_null(end);
	*end = '\0';
	c = cmd_table(&n);
	for (i = 0; i < n; i++) {
		struct strbuf head = {0};

		strbuf_addf(&head, "`%s", c[i].name);
		if (!strstr(start, head.buf))
			fail_msg("README.md Commands section does not document %s", c[i].name);
		strbuf_done(&head);
	}
	free(readme);
}

/* ---- the dispatcher --------------------------------------------------- */

static void
test_cmd_unknown_command_is_one_error_line(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cmd_run(&f->env, "bogus 1 2"), TD_ERR_NOTFOUND);
	assert_string_equal(f->err.buf, "bogus: unknown command (try help)");
	assert_int_equal(f->out.len, 0);
}

static void
test_cmd_error_in_json_mode_is_an_error_document(void **state)
{
	struct fixture *f = *state;

	f->env.json = true;
	assert_int_not_equal(cmd_run(&f->env, "bogus"), TD_OK);
	assert_string_equal(f->out.buf, "{\"error\":\"bogus: unknown command (try help)\"}");
}

static void
test_cmd_too_many_arguments_prints_usage(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cmd_run(&f->env, "info extra"), TD_ERR_ARGS);
	assert_string_equal(f->err.buf, "info: usage: info");
}

static void
test_cmd_missing_argument_prints_usage(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cmd_run(&f->env, "print"), TD_ERR_ARGS);
	assert_string_equal(f->err.buf, "print: usage: print N [SLICE]");
}

static void
test_cmd_tui_command_in_batch_needs_the_tui(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cmd_run(&f->env, "filter off"), TD_ERR_UNSUPPORTED);
	assert_non_null(strstr(f->err.buf, "filter: needs the TUI"));
}

static void
test_cmd_unterminated_quote_names_the_command(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cmd_run(&f->env, "op 'Log"), TD_ERR_ARGS);
	assert_string_equal(f->err.buf, "op: unterminated quote");
}

static void
test_cmd_empty_line_is_an_error(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cmd_run(&f->env, "   "), TD_ERR_ARGS);
	assert_non_null(strstr(f->err.buf, "empty command"));
}

static void
test_cmd_help_lists_every_command(void **state)
{
	struct fixture *f = *state;
	const struct cmd_info *c;
	size_t i, n;

	assert_int_equal(cmd_run(&f->env, "help"), TD_OK);
	c = cmd_table(&n);
	for (i = 0; i < n; i++)
		assert_non_null(strstr(f->out.buf, c[i].usage));
}

static void
test_cmd_help_json_for_one_command(void **state)
{
	struct fixture *f = *state;

	f->env.json = true;
	assert_int_equal(cmd_run(&f->env, "help inputs"), TD_OK);
	assert_string_equal(f->out.buf, "{\"name\":\"inputs\",\"usage\":\"inputs N [--depth D] | "
			    "inputs --op NAME [--graph G] [--depth D]\",\"summary\":"
			    "\"Inputs of trace N's op, each with the latest trace row before N; "
			    "--depth: the tree\",\"batch\":true,\"tui\":true,\"aliases\":[\"li\"]}");
}

static void
test_cmd_alias_runs_its_command(void **state)
{
	struct fixture *f = *state;
	size_t n, i;
	const struct cmd_alias *a = cmd_aliases(&n);

	assert_true(n >= 7);
	for (i = 0; i < n; i++) {
		assert_non_null(cmd_find(a[i].alias));
		assert_string_equal(cmd_find(a[i].alias)->name, a[i].command);
		assert_null(cmd_find(a[i].command) == cmd_find(a[i].alias) ? NULL : "alias and command differ");
	}
	assert_string_equal(cmd_find("lt")->name, "traces");
	assert_null(cmd_find("lx"));
	f->env.json = true;
	assert_int_equal(cmd_run(&f->env, "help ps"), TD_OK);
	assert_non_null(strstr(f->out.buf, "\"name\":\"source-ops\""));
}

static void
test_cmd_help_unknown_command_fails(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(cmd_run(&f->env, "help nope"), TD_ERR_NOTFOUND);
	assert_string_equal(f->err.buf, "help: nope: unknown command");
}

/* ---- reactions through cmd_ui ----------------------------------------- */

struct fake_ui {
	char theme[32];
	int follow;                 /* -1 not called, else the flag */
	bool quit;
	char saved[64];
};

static bool
fake_set_theme(void *ctx, const char *name, char *err, size_t errlen)
{
	struct fake_ui *u = ctx;

	if (strcmp(name, "dark") != 0) {
		snprintf(err, errlen, "no theme %s", name);
		return false;
	}
	snprintf(u->theme, sizeof u->theme, "%s", name);
	return true;
}

static void
fake_follow(void *ctx, bool on)
{
	((struct fake_ui *)ctx)->follow = on;
}

static void
fake_quit(void *ctx)
{
	((struct fake_ui *)ctx)->quit = true;
}

static void
fake_save(void *ctx, const char *path, char *err, size_t errlen)
{
	if (strcmp(path, "/tmp/tdbg-unit-no-such-file") == 0)
		snprintf(err, errlen, "%s: cannot write", path);
	else
		snprintf(((struct fake_ui *)ctx)->saved, 64, "%s", path);
}

static void
test_cmd_tui_commands_call_the_ui(void **state)
{
	struct fixture *f = *state;
	struct fake_ui u = { .follow = -1 };
	const struct cmd_ui ui = { .ctx = &u, .set_theme = fake_set_theme, .follow = fake_follow,
				   .quit = fake_quit, .save_display = fake_save };

	f->env.ui = &ui;
	assert_int_equal(cmd_run(&f->env, "theme dark"), TD_OK);
	assert_string_equal(u.theme, "dark");
	assert_int_equal(cmd_run(&f->env, "follow on"), TD_OK);
	assert_int_equal(u.follow, 1);
	assert_int_equal(cmd_run(&f->env, "save-display '/tmp/screen 1.txt'"), TD_OK);
	assert_string_equal(u.saved, "/tmp/screen 1.txt");
	assert_int_equal(cmd_run(&f->env, "quit"), TD_OK);
	assert_true(u.quit);
}

static void
test_cmd_tui_command_failures_are_reported(void **state)
{
	struct fixture *f = *state;
	struct fake_ui u = { .follow = -1 };
	const struct cmd_ui ui = { .ctx = &u, .set_theme = fake_set_theme, .follow = fake_follow,
				   .save_display = fake_save };

	f->env.ui = &ui;
	assert_int_not_equal(cmd_run(&f->env, "theme neon"), TD_OK);
	assert_string_equal(f->err.buf, "theme: no theme neon");
	assert_int_equal(cmd_run(&f->env, "follow maybe"), TD_ERR_ARGS);
	assert_int_equal(u.follow, -1);
	assert_int_not_equal(cmd_run(&f->env, "save-display /tmp/tdbg-unit-no-such-file"), TD_OK);
	assert_string_equal(f->err.buf, "save-display: /tmp/tdbg-unit-no-such-file: cannot write");
	assert_int_not_equal(cmd_run(&f->env, "save-display /nonexistent/x"), TD_OK);
	assert_string_equal(f->err.buf, "save-display: /nonexistent/x: no such directory");
	assert_int_equal(cmd_run(&f->env, "quit"), TD_ERR_UNSUPPORTED);
	assert_string_equal(f->err.buf, "quit: not supported by this interface");
}

/* ---- shared parsers --------------------------------------------------- */

static void
expect_range(const char *text, uint64_t n, uint64_t start, uint64_t stop, uint64_t step)
{
	struct cmd_range r;

	assert_true(cmd_parse_range(text, n, &r));
	assert_int_equal(r.start, start);
	assert_int_equal(r.stop, stop);
	assert_int_equal(r.step, step);
}

static void
test_cmd_range_is_python_like(void **state)
{
	(void)state;
	expect_range("80:90", 680, 80, 90, 1);
	expect_range(":5", 680, 0, 5, 1);
	expect_range("670:", 680, 670, 680, 1);
	expect_range("-5:", 680, 675, 680, 1);
	expect_range(":-1", 680, 0, 679, 1);
	expect_range("::10", 680, 0, 680, 10);
	expect_range("600:9999", 680, 600, 680, 1);
	expect_range("90:80", 680, 90, 90, 1);
	expect_range("88", 680, 88, 89, 1);
	expect_range("-1000:3", 680, 0, 3, 1);
}

static void
test_cmd_range_rejects_junk(void **state)
{
	struct cmd_range r;

	(void)state;
	assert_false(cmd_parse_range("a:b", 10, &r));
	assert_false(cmd_parse_range("1:2:0", 10, &r));
	assert_false(cmd_parse_range("1:2:-1", 10, &r));
	assert_false(cmd_parse_range("", 10, &r));
	assert_false(cmd_parse_range("3x", 10, &r));
}

static void
test_cmd_options_anywhere_with_values_and_flags(void **state)
{
	struct fixture *f = *state;
	const char *op = NULL, *type = NULL;
	bool nonfinite = false;
	const struct cmd_opt opts[] = {
		{ "op", &op, NULL }, { "type", &type, NULL }, { "nonfinite", NULL, &nonfinite },
		{ NULL, NULL, NULL },
	};
	char *argv[] = { "traces", "--op", "dense", "0:5", "--nonfinite", "--type=Log", "--", "--x" };
	char *pos[2];
	int npos;

	assert_int_equal(cmd_parse_opts(&f->env, 8, argv, opts, pos, &npos, 2), TD_OK);
	assert_string_equal(op, "dense");
	assert_string_equal(type, "Log");
	assert_true(nonfinite);
	assert_int_equal(npos, 2);
	assert_string_equal(pos[0], "0:5");
	assert_string_equal(pos[1], "--x");
}

static void
test_cmd_options_errors_name_the_option(void **state)
{
	struct fixture *f = *state;
	const char *op = NULL;
	const struct cmd_opt opts[] = { { "op", &op, NULL }, { NULL, NULL, NULL } };
	char *unknown[] = { "traces", "--opp", "x" };
	char *missing[] = { "traces", "--op" };
	char *extra[] = { "traces", "1:2", "3:4" };
	char *pos[1];
	int npos;

	assert_int_equal(cmd_parse_opts(&f->env, 3, unknown, opts, pos, &npos, 1), TD_ERR_ARGS);
	assert_string_equal(f->err.buf, "unknown option --opp");
	assert_int_equal(cmd_parse_opts(&f->env, 2, missing, opts, pos, &npos, 1), TD_ERR_ARGS);
	assert_string_equal(f->err.buf, "--op needs a value");
	assert_int_equal(cmd_parse_opts(&f->env, 3, extra, opts, pos, &npos, 1), TD_ERR_ARGS);
	assert_string_equal(f->err.buf, "unexpected argument \"3:4\"");
}

static void
test_cmd_parse_numbers(void **state)
{
	uint64_t u;
	int64_t i;

	(void)state;
	assert_true(cmd_parse_u64("88", &u));
	assert_int_equal(u, 88);
	assert_false(cmd_parse_u64("-1", &u));
	assert_false(cmd_parse_u64("8x", &u));
	assert_false(cmd_parse_u64("", &u));
	assert_false(cmd_parse_u64("99999999999999999999999", &u));
	assert_true(cmd_parse_i64("-12", &i));
	assert_int_equal(i, -12);
}

static void
test_cmd_cell_escapes_cuts_and_pads(void **state)
{
	struct strbuf sb = {0};

	(void)state;
	cmd_cell(&sb, "ab", 5);
	assert_string_equal(sb.buf, "ab   ");
	strbuf_reset(&sb);
	cmd_cell(&sb, "x\x1b[2J", 8);
	assert_string_equal(sb.buf, "x^[[2J  ");
	strbuf_reset(&sb);
	cmd_cell(&sb, NULL, 3);
	assert_string_equal(sb.buf, "-  ");
	strbuf_reset(&sb);
	cmd_cell(&sb, "abcdefgh", 4);
	assert_int_equal(strncmp(sb.buf, "abc", 3), 0);
	assert_null(strchr(sb.buf, 'd'));
	strbuf_done(&sb);
}

/* A dump string formatted into a text line is escaped as one field first
 * (issue 13): a newline cannot start a forged row, an escape sequence is
 * visible text, and cmd_txt() shows a missing string as "-". */
static void
test_cmd_safe_escapes_one_field(void **state)
{
	(void)state;
	assert_string_equal(cmd_safe("Log\nforged_row  0"), "Log^Jforged_row  0");
	assert_string_equal(cmd_safe("t\x1b]0;x\x07"), "t^[]0;x^G");
	assert_string_equal(cmd_safe(NULL), "");
	assert_string_equal(cmd_txt(""), "-");
	assert_string_equal(cmd_txt("a\rb"), "a^Mb");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_cmd_table_entries_are_complete),
		T(test_cmd_safe_escapes_one_field),
		T(test_cmd_table_names_are_unique),
		T(test_cmd_table_has_the_issue_commands),
		T(test_cmd_every_command_is_in_the_man_page),
		T(test_cmd_every_command_is_in_the_readme),
		T(test_cmd_unknown_command_is_one_error_line),
		T(test_cmd_error_in_json_mode_is_an_error_document),
		T(test_cmd_too_many_arguments_prints_usage),
		T(test_cmd_missing_argument_prints_usage),
		T(test_cmd_tui_command_in_batch_needs_the_tui),
		T(test_cmd_unterminated_quote_names_the_command),
		T(test_cmd_empty_line_is_an_error),
		T(test_cmd_help_lists_every_command),
		T(test_cmd_help_json_for_one_command),
		T(test_cmd_alias_runs_its_command),
		T(test_cmd_help_unknown_command_fails),
		T(test_cmd_tui_commands_call_the_ui),
		T(test_cmd_tui_command_failures_are_reported),
		T(test_cmd_range_is_python_like),
		T(test_cmd_range_rejects_junk),
		T(test_cmd_options_anywhere_with_values_and_flags),
		T(test_cmd_options_errors_name_the_option),
		T(test_cmd_parse_numbers),
		T(test_cmd_cell_escapes_cuts_and_pads),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
