/*
 * cmd_compare.c - "compare OP [--iterations A,B]": the same op's tensors
 * across executions (runs, graph runs), hosts and ranks, to spot where a
 * value diverged.
 *
 * Rows are the trace rows whose op name is exactly OP (on every host; a
 * "rank" restriction narrows them).  The iteration of a row is the step
 * number the reader gives it (model_trace.step), else its execution row
 * number.  --iterations A,B keeps the rows of those iterations.
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITERATIONS 64

/* PCRE2 pattern matching name literally: ^\Q...\E$ with \E escaped. */
static char *
exact_regex(const char *name)
{
	struct strbuf sb = {0};
	const char *p;

	strbuf_adds(&sb, "^\\Q");
	for (p = name; *p; p++) {
		if (p[0] == '\\' && p[1] == 'E') {
			strbuf_adds(&sb, "\\E\\\\E\\Q");
			p++;
			continue;
		}
		strbuf_addc(&sb, *p);
	}
	strbuf_adds(&sb, "\\E$");
	return strbuf_take(&sb);
}

/* The iteration of a trace row: its step, else its execution row (a dump
 * that numbers no steps), -1 neither. */
static int64_t
iteration_of(const struct model_trace *t)
{
	return t->step >= 0 ? t->step : t->execution;
}

static enum td_status
parse_iterations(struct cmd_env *env, const char *text, int64_t *it, size_t *n)
{
	char *copy = xstrdup(text), *tok, *save = NULL;

	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n >= MAX_ITERATIONS || !cmd_parse_i64(tok, &it[*n])) {
			free(copy);
			return cmd_fail(env, TD_ERR_ARGS, "--iterations wants numbers A,B,... not \"%s\"", text);
		}
		(*n)++;
	}
	free(copy);
	if (*n == 0)
		return cmd_fail(env, TD_ERR_ARGS, "--iterations wants numbers A,B,...");
	return TD_OK;
}

static bool
wanted(const int64_t *it, size_t n, int64_t v)
{
	size_t i;

	if (n == 0)
		return true;
	for (i = 0; i < n; i++)
		if (it[i] == v)
			return true;
	return false;
}

/* The op's rows, one per line; iteration and kind are text cells of
 * their own (no "iter -1" for a dump without iterations). */
static const struct emit_field compare_fields[] = {
	{ "op_name", NULL, 0, 0 },
	{ "rows", "", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct emit_field compare_cols[] = {
	{ "trace_index", "trace", -8, 0 },
	{ "host", NULL, 12, 0 },
	{ "iter", NULL, -6, 0 },
	{ "kind", NULL, 6, 0 },
	{ "output_slot", "slot", -4, 0 },
	{ "summary", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static void
compare_row(struct emit *e, const struct model_trace *t, int64_t iter)
{
	emit_object_begin(e, NULL);
	emit_kv_uint(e, "trace_index", t->index);
	emit_kv_str(e, "host", cmd_nz(t->host));
	emit_kv_index(e, "execution", t->execution);
	emit_kv_int(e, "iteration", iter);
	if (iter >= 0)
		emit_text_kv(e, "iter", "%lld", (long long)iter);
	emit_text_kv(e, "kind", "%s", (t->flags & ROW_INPUT) ? "input" : "output");
	emit_kv_uint(e, "output_slot", t->slot);
	emit_kv_bool(e, "is_input", t->flags & ROW_INPUT);
	emit_kv_bool(e, "nonfinite", t->flags & ROW_NONFINITE);
	emit_kv_summary(e, "summary", &t->summary);
	emit_object_end(e);
}

static uint64_t
compare_rows(struct cmd_env *env, struct model_filter *f, struct emit *e,
	     const int64_t *it, size_t nit)
{
	struct model_trace t;
	int64_t row = model_filter_next(env->m, f, TABLE_TRACES, 0, 1), iter;
	uint64_t shown = 0;

	for (; row >= 0; row = model_filter_next(env->m, f, TABLE_TRACES, (uint64_t)row + 1, 1)) {
		if (model_trace_get(env->m, (uint64_t)row, &t) != TD_OK)
			continue;
		iter = iteration_of(&t);
		if (!wanted(it, nit, iter))
			continue;
		compare_row(e, &t, iter);
		shown++;
		cmd_maybe_flush(env);
	}
	return shown;
}

enum td_status
cmd_compare(struct cmd_env *env, int argc, char **argv)
{
	const char *iters = NULL;
	const struct cmd_opt opts[] = { { "iterations", &iters, NULL }, { NULL, NULL, NULL } };
	struct model_filter_spec spec = { .graph = -1, .execution = -1 };
	struct model_filter *f;
	int64_t it[MAX_ITERATIONS];
	size_t nit = 0;
	char *pos[1], *re, err[512];
	struct emit e;
	uint64_t shown;
	int npos;
	enum td_status st;

	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 1)) != TD_OK)
		return st;
	if (npos != 1)
		return cmd_fail(env, TD_ERR_ARGS, "usage: compare OP [--iterations A,B]");
	if (iters && (st = parse_iterations(env, iters, it, &nit)) != TD_OK)
		return st;
	/* the op's name as op finds it: the name, an alias or a unique suffix */
	const char *name = pos[0];
	struct model_op op;
	int64_t id = model_op_find(env->m, name, NULL);
	if (id >= 0 && model_op_get(env->m, (uint32_t)id, &op))
		name = op.name;
	re = exact_regex(name);
	spec.op_regex = re;
	spec.host = env->host;
	st = model_filter_new(env->m, &spec, &f, err, sizeof err);
	free(re);
	if (st != TD_OK)
		return cmd_fail(env, st, "%s", err);
	if (model_filter_count(env->m, f, TABLE_TRACES) == 0) {
		model_filter_free(f);
		return cmd_fail(env, TD_ERR_NOTFOUND, "no trace rows of op \"%s\"", pos[0]);
	}
	pos[0] = (char *)name;
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, compare_fields);
	emit_kv_str(&e, "op_name", pos[0]);
	emit_key(&e, "rows");
	emit_table_begin(&e, compare_cols);
	shown = compare_rows(env, f, &e, it, nit);
	emit_table_end(&e);
	if (shown == 0)
		emit_note(&e, "no rows in those iterations");
	emit_object_end(&e);
	emit_done(&e);
	model_filter_free(f);
	return TD_OK;
}
