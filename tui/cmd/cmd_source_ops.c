/*
 * cmd_source_ops.c - "source-ops PATH [LINE]": the ops created at a source
 * line, with their trace rows (the debugger's source view, the older CLI's
 * `ps`); without LINE, the lines of the file that created ops and how many.
 *
 * An op was created at a line when a frame of its creation stack is that
 * line (model_source_ops).  Rows of each op are listed in order, the first
 * SOURCE_OPS_ROWS of them.
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Trace rows listed per op (more_rows says when there are more). */
#define SOURCE_OPS_ROWS 20

/* The first rows of op; returns how many (up to max), *more when past. */
static size_t
op_rows(struct model *m, uint32_t op, int64_t *rows, size_t max, bool *more)
{
	size_t n = 0;
	int64_t r = model_trace_of_op(m, op, UINT32_MAX, 0, 1);
	struct model_trace t;

	/* row 0 is before "after 0": look at it on its own */
	if (model_trace_count(m) && model_trace_get(m, 0, &t) == TD_OK && t.op == op &&
	    !(t.flags & (ROW_INPUT | ROW_REPEAT)))
		rows[n++] = 0;
	while (r >= 0 && n < max) {
		rows[n++] = r;
		r = model_trace_of_op(m, op, UINT32_MAX, (uint64_t)r, 1);
	}
	*more = r >= 0;
	return n;
}

/* One line and the ops created there, each with its first trace rows. */
static const struct emit_field line_fields[] = {
	{ "path", NULL, 0, 0 },
	{ "host", NULL, 0, EMIT_HIDE },
	{ "line", NULL, 0, 0 },
	{ "text", NULL, 0, EMIT_TABS },
	{ "ops", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct emit_field line_op_cols[] = {
	{ "op_type", NULL, 18, 0 },
	{ "op_name", NULL, 40, EMIT_SCOPE },
	{ "more_rows", "more", 4, 0 },
	{ "trace_rows", "traces", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static void
op_emit(struct cmd_env *env, struct emit *e, uint32_t op)
{
	int64_t rows[SOURCE_OPS_ROWS];
	struct model_op o;
	bool more;
	size_t n, k;

	model_op_get(env->m, op, &o);
	n = op_rows(env->m, op, rows, SOURCE_OPS_ROWS, &more);
	emit_object_begin(e, NULL);
	emit_kv_uint(e, "id", op);
	emit_kv_str(e, "op_name", o.name);
	emit_kv_str(e, "op_type", cmd_nz(o.type));
	emit_kv_str(e, "graph_id", cmd_nz(o.graph_id));
	emit_key(e, "trace_rows");
	emit_list_begin(e);
	for (k = 0; k < n; k++)
		emit_int(e, rows[k]);
	emit_list_end(e);
	emit_kv_bool(e, "more_rows", more);
	emit_object_end(e);
}

static void
line_ops(struct cmd_env *env, const struct model_source *s, uint32_t line, const char *text)
{
	uint32_t *ops;
	size_t n = model_source_ops(env->m, s->index, line, &ops), k;
	struct emit e;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, line_fields);
	emit_kv_str(&e, "path", s->path);
	emit_kv_str(&e, "host", cmd_nz(s->host));
	emit_kv_uint(&e, "line", line);
	if (text)
		emit_kv_str(&e, "text", text);
	else
		emit_kv_null(&e, "text");
	emit_key(&e, "ops");
	emit_table_begin(&e, line_op_cols);
	for (k = 0; k < n; k++)
		op_emit(env, &e, ops[k]);
	emit_table_end(&e);
	if (n == 0)
		emit_note(&e, "(no op was created at this line)");
	emit_object_end(&e);
	emit_done(&e);
	free(ops);
}

/* The file's lines that created ops: the path, then a table of them (host
 * is JSON only, as the text of one line shows no host either). */
static const struct emit_field file_fields[] = {
	{ "path", NULL, 0, 0 },
	{ "host", NULL, 0, EMIT_HIDE },
	{ "lines", "", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct emit_field file_line_cols[] = {
	{ "line", NULL, -6, 0 },
	{ "ops", NULL, -4, 0 },
	{ "text", NULL, 0, EMIT_TABS },
	{ NULL, NULL, 0, 0 },
};

static void
file_ops(struct cmd_env *env, const struct model_source *s, const char *const *lines, size_t nl)
{
	uint32_t *counts;
	size_t n = model_source_op_counts(env->m, s->index, &counts), k;
	struct emit e;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, file_fields);
	emit_kv_str(&e, "path", s->path);
	emit_kv_str(&e, "host", cmd_nz(s->host));
	emit_key(&e, "lines");
	emit_table_begin(&e, file_line_cols);
	for (k = 1; k < n; k++) {
		if (!counts[k])
			continue;
		emit_object_begin(&e, NULL);
		emit_kv_uint(&e, "line", k);
		emit_kv_uint(&e, "ops", counts[k]);
		if (k <= nl)
			emit_kv_str(&e, "text", lines[k - 1]);
		else
			emit_kv_null(&e, "text");
		emit_object_end(&e);
	}
	emit_table_end(&e);
	if (n == 0)
		emit_note(&e, "(no op was created in this file)");
	emit_object_end(&e);
	emit_done(&e);
	free(counts);
}

enum td_status
cmd_source_ops(struct cmd_env *env, int argc, char **argv)
{
	const char *const *lines = NULL;
	struct model_info info;
	struct model_source s;
	uint32_t index;
	uint64_t line = 0;
	size_t n = 0;
	enum td_status st;

	model_info(env->m, &info);
	if (info.no_stacks_why)
		return cmd_fail(env, TD_ERR_UNSUPPORTED, "%s", info.no_stacks_why);
	if (argc > 2 && (!cmd_parse_u64(argv[2], &line) || line == 0 || line > UINT32_MAX))
		return cmd_fail(env, TD_ERR_ARGS, "\"%s\" is not a line number", argv[2]);
	if ((st = cmd_source_open(env, argv[1], &index, &lines, &n)) != TD_OK)
		return st;
	if (!model_source_get(env->m, index, &s))
		return cmd_fail(env, TD_ERR_NOTFOUND, "%s: not found", argv[1]);
	if (line > n)
		return cmd_fail(env, TD_ERR_RANGE, "%s has %zu lines, not %llu", s.path, n,
				(unsigned long long)line);
	if (!line) {
		file_ops(env, &s, lines, n);
		return TD_OK;
	}
	if (env->ui && env->ui->show_source)
		env->ui->show_source(env->ui->ctx, index, (uint32_t)line);
	line_ops(env, &s, (uint32_t)line, lines[line - 1]);
	return TD_OK;
}
