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

static void
op_json(struct cmd_env *env, struct json *j, uint32_t op)
{
	int64_t rows[SOURCE_OPS_ROWS];
	struct model_op o;
	bool more;
	size_t n, k;

	model_op_get(env->m, op, &o);
	n = op_rows(env->m, op, rows, SOURCE_OPS_ROWS, &more);
	json_object_begin(j);
	json_kv_uint(j, "id", op);
	json_kv_string(j, "op_name", o.name);
	json_kv_string(j, "op_type", cmd_nz(o.type));
	json_kv_string(j, "graph_id", cmd_nz(o.graph_id));
	json_key(j, "trace_rows");
	json_array_begin(j);
	for (k = 0; k < n; k++)
		json_int(j, rows[k]);
	json_array_end(j);
	json_kv_bool(j, "more_rows", more);
	json_object_end(j);
}

static void
op_text(struct cmd_env *env, uint32_t op)
{
	int64_t rows[SOURCE_OPS_ROWS];
	struct model_op o;
	bool more;
	size_t n, k;

	model_op_get(env->m, op, &o);
	n = op_rows(env->m, op, rows, SOURCE_OPS_ROWS, &more);
	strbuf_adds(env->out, "  ");
	cmd_cell(env->out, o.type, 18);
	strbuf_addc(env->out, ' ');
	cmd_cell(env->out, o.name, -1);
	strbuf_adds(env->out, n ? "  traces" : "  (no trace row)");
	for (k = 0; k < n; k++)
		strbuf_addf(env->out, " %lld", (long long)rows[k]);
	strbuf_adds(env->out, more ? " ...\n" : "\n");
}

static void
line_ops(struct cmd_env *env, const struct model_source *s, uint32_t line, const char *text)
{
	uint32_t *ops;
	size_t n = model_source_ops(env->m, s->index, line, &ops), k;
	struct json j;

	if (!env->json) {
		cmd_cell(env->out, s->path, -1);
		strbuf_addf(env->out, ":%u: ", line);
		cmd_cell(env->out, text, -1);
		strbuf_addf(env->out, "\n%zu op%s created here%s\n", n, n == 1 ? "" : "s", n ? ":" : "");
		for (k = 0; k < n; k++)
			op_text(env, ops[k]);
		free(ops);
		return;
	}
	json_init(&j, env->out);
	json_object_begin(&j);
	json_kv_string(&j, "path", s->path);
	json_kv_string(&j, "host", cmd_nz(s->host));
	json_kv_uint(&j, "line", line);
	json_key(&j, "text");
	if (text)
		json_string(&j, text);
	else
		json_null(&j);
	json_key(&j, "ops");
	json_array_begin(&j);
	for (k = 0; k < n; k++)
		op_json(env, &j, ops[k]);
	json_array_end(&j);
	json_object_end(&j);
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
