/*
 * cmd_ui.c - commands that ask the TUI for a reaction (filter, goto,
 * theme, follow, save-display, quit) and "rank", which in batch
 * mode restricts the commands that follow to one host/rank.
 *
 * The cmd_run dispatcher already refuses TUI-only commands when env->ui is
 * NULL; here a NULL member of env->ui means "this interface cannot do it".
 */
#include "cmd_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_diff.h"
#include "outfile.h"
#include "rowsort.h"

#define UI_CAN(env, member) ((env)->ui && (env)->ui->member)

static enum td_status
unsupported(struct cmd_env *env)
{
	return cmd_fail(env, TD_ERR_UNSUPPORTED, "not supported by this interface");
}

/* ---- rank ------------------------------------------------------------------ */

/* The host restriction and the hosts to choose from; text names "all"
 * where JSON has null. */
static const struct emit_field rank_fields[] = {
	{ "host", "rank/host", 0, EMIT_HIDE },
	{ "hosts", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static void
rank_print(struct cmd_env *env, const struct model_info *in)
{
	struct emit e;
	size_t i;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, rank_fields);
	emit_kv_str(&e, "host", env->host);
	emit_text_kv(&e, "rank/host", "%s", env->host ? env->host : "all");
	emit_key(&e, "hosts");
	emit_list_begin(&e);
	for (i = 0; i < in->nhosts; i++)
		emit_str(&e, in->hosts[i]);
	emit_list_end(&e);
	emit_object_end(&e);
	emit_done(&e);
}

static enum td_status
rank_apply_ui(struct cmd_env *env)
{
	struct model_filter_spec spec = { .graph = -1, .execution = -1, .host = env->host };
	struct model_filter *f = NULL;
	char err[256];
	enum td_status st;

	if (!UI_CAN(env, set_filter))
		return TD_OK;
	if (env->host && (st = model_filter_new(env->m, &spec, &f, err, sizeof err)) != TD_OK)
		return cmd_fail(env, st, "%s", err);
	env->ui->set_filter(env->ui->ctx, f);
	return TD_OK;
}

enum td_status
cmd_rank(struct cmd_env *env, int argc, char **argv)
{
	struct model_info in;
	const char *h;

	if (argc > 1) {
		if (strcmp(argv[1], "all") == 0 || strcmp(argv[1], "off") == 0) {
			env->host = NULL;
		} else if ((h = cmd_host_find(env->m, argv[1]))) {
			env->host = h;
		} else {
			model_info(env->m, &in);
			return cmd_fail(env, TD_ERR_NOTFOUND, "no rank or host \"%s\" (the dump has %zu%s)",
					argv[1], in.nhosts, in.nhosts ? "; see rank" : "");
		}
		if (rank_apply_ui(env) != TD_OK)
			return TD_ERR_REGEX;
	}
	model_info(env->m, &in);    /* after cmd_host_find: its pointers last until the next call */
	rank_print(env, &in);
	return TD_OK;
}

/* ---- filter ------------------------------------------------------------------ */

static enum td_status
filter_word(struct cmd_env *env, const char *w, struct model_filter_spec *spec)
{
	if (strncmp(w, "op=", 3) == 0)
		spec->op_regex = w + 3;
	else if (strncmp(w, "type=", 5) == 0)
		spec->type_regex = w + 5;
	else if (strcmp(w, "nonfinite") == 0)
		spec->nonfinite = true;
	else if (strncmp(w, "host=", 5) == 0)
		return cmd_host_arg(env, w + 5, &spec->host);
	else if (strncmp(w, "graph=", 6) == 0) {
		if ((spec->graph = model_graph_find(env->m, w + 6)) < 0) {
			struct strbuf hint = { 0 };
			enum td_status st;

			cmd_suggest_graph(env->m, w + 6, &hint);
			st = cmd_fail(env, TD_ERR_NOTFOUND, "no graph \"%s\"%s", w + 6,
				      hint.buf ? hint.buf : "");
			strbuf_done(&hint);
			return st;
		}
	} else
		return cmd_fail(env, TD_ERR_ARGS, "\"%s\": want op=REGEX, type=REGEX, nonfinite, "
				"graph=G, host=H, where=EXPR or off", w);
	return TD_OK;
}

/* {"filter": what} ("filter off" when what is NULL). */
static void
filter_said(struct cmd_env *env, const char *what)
{
	struct emit e;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_str(&e, "filter", what);
	emit_textf(&e, "filter %s\n", what ? what : "off");
	emit_object_end(&e);
	emit_done(&e);
}

enum td_status
cmd_filter(struct cmd_env *env, int argc, char **argv)
{
	struct model_filter_spec spec = { .graph = -1, .execution = -1, .host = env->host };
	struct model_filter *f = NULL;
	char err[512], *where = NULL;
	enum td_status st = TD_OK;
	int i;

	if (!UI_CAN(env, set_filter))
		return unsupported(env);
	if (argc == 2 && strcmp(argv[1], "off") == 0) {
		env->ui->set_filter(env->ui->ctx, NULL);
		filter_said(env, NULL);
		return TD_OK;
	}
	for (i = 1; i < argc && st == TD_OK; i++) {
		if (strncmp(argv[i], "where=", 6) == 0) {
			/* the condition is the rest of the line: where=nan > 0 */
			where = cmd_join(argc, argv, i);
			spec.where = where + 6;
			break;
		}
		st = filter_word(env, argv[i], &spec);
	}
	if (st == TD_OK && (st = model_filter_new(env->m, &spec, &f, err, sizeof err)) != TD_OK)
		cmd_fail(env, st, "%s", err);
	free(where);
	if (st != TD_OK)
		return st;
	filter_said(env, model_filter_describe(f));
	env->ui->set_filter(env->ui->ctx, f);
	return TD_OK;
}

/* ---- goto, theme, follow, save-display, quit ----------------------------- */

enum td_status
cmd_goto(struct cmd_env *env, int argc, char **argv)
{
	enum model_table tab = argc > 2 && strcmp(argv[1], model_table_name(TABLE_EXECUTIONS)) == 0
			       ? TABLE_EXECUTIONS : TABLE_TRACES;
	const char *arg = argv[argc - 1];
	uint64_t row;
	enum td_status st;

	if (argc > 2 && strcmp(argv[1], model_table_name(tab)) != 0)
		return cmd_fail(env, TD_ERR_ARGS, "usage: goto [trace | execution] N");
	if (!UI_CAN(env, jump))
		return unsupported(env);
	st = tab == TABLE_EXECUTIONS ? cmd_execution_arg(env, arg, &row) : cmd_trace_arg(env, arg, &row);
	if (st != TD_OK)
		return st;
	env->ui->jump(env->ui->ctx, tab, row);
	return TD_OK;
}

enum td_status
cmd_theme(struct cmd_env *env, int argc, char **argv)
{
	char err[256] = "";

	(void)argc;
	if (!UI_CAN(env, set_theme))
		return unsupported(env);
	if (!env->ui->set_theme(env->ui->ctx, argv[1], err, sizeof err))
		return cmd_fail(env, TD_ERR_NOTFOUND, "%s", *err ? err : "no such theme");
	return TD_OK;
}

enum td_status
cmd_follow(struct cmd_env *env, int argc, char **argv)
{
	bool on = strcmp(argv[1], "on") == 0;

	(void)argc;
	if (!on && strcmp(argv[1], "off") != 0)
		return cmd_fail(env, TD_ERR_ARGS, "usage: follow on|off");
	if (!UI_CAN(env, follow))
		return unsupported(env);
	env->ui->follow(env->ui->ctx, on);
	return TD_OK;
}

enum td_status
cmd_save_display(struct cmd_env *env, int argc, char **argv)
{
	char err[512] = "";

	(void)argc;
	if (!UI_CAN(env, save_display))
		return unsupported(env);
	/* replaces an older screen dump, never writes into a dump */
	struct model *dumps[2] = { env->m, env->diff ? model_diff_b(env->diff) : NULL };
	if (outfile_check(argv[1], dumps, 2, true, err, sizeof err) != TD_OK)
		return cmd_fail(env, TD_ERR_ARGS, "%s", err);
	env->ui->save_display(env->ui->ctx, argv[1], err, sizeof err);
	if (*err)
		return cmd_fail(env, TD_ERR_IO, "%s", err);
	return TD_OK;
}

enum td_status
cmd_quit(struct cmd_env *env, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!UI_CAN(env, quit))
		return unsupported(env);
	env->ui->quit(env->ui->ctx);
	return TD_OK;
}

/* ---- sort, columns ----------------------------------------------------------- */

enum td_status
cmd_sort(struct cmd_env *env, int argc, char **argv)
{
	enum rowsort_field f;
	bool desc;
	char *spec = cmd_join(argc, argv, 1);

	if (!UI_CAN(env, sort)) {
		free(spec);
		return unsupported(env);
	}
	if (!rowsort_parse(spec, &f, &desc)) {
		enum td_status st = cmd_fail(env, TD_ERR_ARGS, "%s: sort by %s (-FIELD or FIELD desc: descending)",
					     spec, rowsort_names());
		free(spec);
		return st;
	}
	free(spec);
	env->ui->sort(env->ui->ctx, f, desc);
	return TD_OK;
}

enum td_status
cmd_columns(struct cmd_env *env, int argc, char **argv)
{
	unsigned mask;

	if (!UI_CAN(env, columns))
		return unsupported(env);
	mask = env->ui->columns(env->ui->ctx, false, 0);
	for (int i = 1; i < argc; i++) {
		const char *name = argv[i] + (argv[i][0] == '+' || argv[i][0] == '-');
		unsigned bit = rowcol_parse(name);

		if (!bit)
			return cmd_fail(env, TD_ERR_ARGS, "%s: columns are time, dtype, shape, size", argv[i]);
		if (argv[i][0] == '+')
			mask |= bit;
		else if (argv[i][0] == '-')
			mask &= ~bit;
		else
			mask ^= bit;
	}
	mask = env->ui->columns(env->ui->ctx, true, mask);
	strbuf_adds(env->out, "columns: ");
	rowcol_describe(mask, env->out);
	strbuf_addc(env->out, '\n');
	return TD_OK;
}
