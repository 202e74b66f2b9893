/*
 * cmd_row.c - one row in full: "trace N", "execution N", "print N [SLICE]".
 *
 * A row's details are decoded on demand (model_*_detail); when that fails
 * (a record that no longer decodes) the indexed fields are still shown and
 * "detail_error" says why.
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

/* Elements written in JSON without --slice / in text. */
#define VALUE_LIMIT_JSON 100000
#define VALUE_LIMIT_TEXT 1000

struct row_args {
	const char *row, *slice;
};

static enum td_status
row_args(struct cmd_env *env, int argc, char **argv, struct row_args *a)
{
	const struct cmd_opt opts[] = { { "slice", &a->slice, NULL }, { NULL, NULL, NULL } };
	char *pos[1];
	int npos;
	enum td_status st;

	memset(a, 0, sizeof(*a));
	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 1)) != TD_OK)
		return st;
	a->row = npos ? pos[0] : NULL;
	return TD_OK;
}

/* Output k of a detail: summary, raw debug vector, value. */
static enum td_status
emit_output(struct cmd_env *env, struct emit *e, const struct model_detail *d, size_t k,
	    const char *slice)
{
	struct strbuf *text;
	size_t i;

	emit_key(e, "summary");
	if (d->summaries)
		emit_summary(e, &d->summaries[k]);
	else
		emit_null(e);
	if (d->summaries && (text = emit_text(e))) {
		strbuf_adds(text, "summary   ");
		cmd_text_summary(text, &d->summaries[k]);
		strbuf_addc(text, '\n');
	}
	emit_key(e, "debug_values");
	if (d->debug_values && d->debug_values[k] && d->ndebug_values) {
		emit_list_begin(e);
		for (i = 0; i < d->ndebug_values[k]; i++)
			emit_double(e, d->debug_values[k][i]);
		emit_list_end(e);
	} else {
		emit_null(e);
	}
	emit_key(e, "value");
	if (!d->values || !d->values[k]) {
		emit_null(e);
		return TD_OK;
	}
	if (emit_json(e))
		return cmd_json_value(env, emit_json(e), d->values[k], slice, VALUE_LIMIT_JSON);
	return cmd_text_value(env, d->values[k], slice, VALUE_LIMIT_TEXT);
}

/* The mode member; text shows it with the detail's own text. */
static void
emit_mode(struct emit *e, const struct model_detail *d, enum td_status dst)
{
	emit_kv_str(e, "mode", dst == TD_OK ? d->mode : NULL);
	if (dst != TD_OK)
		return;
	if (d->mode)
		emit_textf(e, "mode      %s\n", cmd_safe(d->mode));
	if (d->text && *d->text)
		emit_textf(e, "%s%s", d->text, d->text[strlen(d->text) - 1] == '\n' ? "" : "\n");
}

/* ---- trace N ----------------------------------------------------------------- */

static void
trace_head(struct emit *e, const struct model_trace *t)
{
	emit_kv_uint(e, "index", t->index);
	emit_kv_str(e, "op_name", t->op_name);
	emit_kv_str(e, "op_type", cmd_nz(t->op_type));
	emit_kv_uint(e, "output_slot", t->slot);
	emit_kv_str(e, "graph_id", cmd_nz(t->graph_id));
	emit_kv_str(e, "graph_name", cmd_nz(t->graph_name));
	emit_kv_index(e, "execution", t->execution);
	emit_kv_str(e, "host", cmd_nz(t->host));
	emit_kv_str(e, "device", cmd_nz(t->device));
	emit_kv_double(e, "wall_time", t->wall_time);
	emit_kv_bool(e, "nonfinite", t->flags & ROW_NONFINITE);
	emit_kv_bool(e, "is_input", t->flags & ROW_INPUT);
	emit_kv_bool(e, "corrupt", t->flags & ROW_CORRUPT);
	emit_kv_str(e, "debug_op", t->debug_op);
	emit_textf(e, "trace     %llu%s\n", (unsigned long long)t->index,
		   (t->flags & ROW_NONFINITE) ? "  (NaN/Inf)" : "");
	if (t->execution >= 0)
		emit_textf(e, "execution %lld\n", (long long)t->execution);
	if (t->host && *t->host)
		emit_textf(e, "host      %s\n", cmd_safe(t->host));
	if (t->debug_op)
		emit_textf(e, "debug op  %s%s\n", cmd_txt(t->debug_op),
			   (t->flags & ROW_REPEAT) ? "  (another debug op's row of this tensor "
			   "holds its values)" : "");
}

/* The op block already shows the creation stack; a trace record with its
 * own, different stack shows that one too. */
static bool
same_as_op_stack(struct cmd_env *env, uint32_t op, const struct model_detail *d)
{
	struct model_op o;

	return model_op_get(env->m, op, &o) && o.nstack == d->nstack &&
	       memcmp(o.stack, d->stack, d->nstack * sizeof(*d->stack)) == 0;
}

static enum td_status
trace_emit(struct cmd_env *env, struct emit *e, const struct model_trace *t,
	   struct model_detail *d, enum td_status dst, const char *slice)
{
	struct model_op o;
	struct strbuf *text;
	enum td_status st = TD_OK;

	emit_object_begin(e, emit_json_only);
	trace_head(e, t);
	emit_mode(e, d, dst);
	if (dst == TD_OK && d->noutputs > 0) {
		st = emit_output(env, e, d, 0, slice);
	} else if (dst != TD_OK) {
		emit_kv_summary(e, "summary", &t->summary);
		emit_kv_str(e, "detail_error", td_strerror(dst));
		if ((text = emit_text(e))) {
			strbuf_addf(text, "detail    %s\nsummary   ", td_strerror(dst));
			cmd_text_summary(text, &t->summary);
			strbuf_addc(text, '\n');
		}
	} else {
		emit_kv_summary(e, "summary", &t->summary);
	}
	emit_key(e, "op");
	cmd_emit_op(env, e, t->op);
	emit_key(e, "stack");
	if (dst == TD_OK && d->nstack)
		cmd_emit_frames(env, e, d->stack, d->nstack,
				same_as_op_stack(env, t->op, d) ? NULL : "trace stack\n");
	else if (model_op_get(env->m, t->op, &o))
		cmd_emit_frames(env, e, o.stack, o.nstack, NULL);
	else
		cmd_emit_frames(env, e, NULL, 0, NULL);
	emit_object_end(e);
	return st;
}

enum td_status
cmd_trace(struct cmd_env *env, int argc, char **argv)
{
	struct model_detail d = {0};
	struct model_trace t;
	struct row_args a;
	struct emit e;
	uint64_t row;
	enum td_status st, dst;

	if ((st = row_args(env, argc, argv, &a)) != TD_OK)
		return st;
	if ((st = cmd_trace_arg(env, a.row, &row)) != TD_OK)
		return st;
	if ((st = model_trace_get(env->m, row, &t)) != TD_OK)
		return cmd_fail(env, st, "row %llu: %s", (unsigned long long)row, td_strerror(st));
	dst = model_trace_detail(env->m, row, &d);
	if (dst == TD_OK)
		cmd_detail_complete(&d);
	if (env->ui && env->ui->jump && a.row)
		env->ui->jump(env->ui->ctx, TABLE_TRACES, row);
	emit_init(&e, env->out, env->json);
	st = trace_emit(env, &e, &t, &d, dst, a.slice);
	emit_done(&e);
	model_detail_done(&d);
	return st;
}

/* ---- execution N --------------------------------------------------------------- */

static enum td_status
execution_emit(struct cmd_env *env, struct emit *e, const struct model_execution *x,
	       struct model_detail *d, enum td_status dst, const char *slice)
{
	size_t k;
	enum td_status st = TD_OK;

	emit_object_begin(e, emit_json_only);
	emit_kv_uint(e, "index", x->index);
	emit_kv_str(e, "op_type", x->op_type);
	emit_kv_str(e, "graph_id", cmd_graph_id(env, x->graph));
	emit_kv_str(e, "host", cmd_nz(x->host));
	emit_kv_uint(e, "num_outputs", x->num_outputs);
	emit_kv_uint(e, "bad_outputs", x->bad_outputs);
	emit_kv_double(e, "wall_time", x->wall_time);
	emit_kv_uint(e, "first_trace", x->first_trace);
	emit_kv_uint(e, "traces", x->ntraces);
	emit_textf(e, "execution %llu  %s\noutputs   %u (%u with NaN/Inf)\n",
		   (unsigned long long)x->index, cmd_txt(x->op_type), x->num_outputs, x->bad_outputs);
	if (x->ntraces)
		emit_textf(e, "traces    %llu..%llu\n", (unsigned long long)x->first_trace,
			   (unsigned long long)(x->first_trace + x->ntraces - 1));
	emit_mode(e, d, dst);
	if (dst != TD_OK) {
		emit_kv_str(e, "detail_error", td_strerror(dst));
		emit_textf(e, "detail    %s\n", td_strerror(dst));
	}
	emit_key(e, "outputs");
	emit_table_begin(e, emit_json_only);
	for (k = 0; dst == TD_OK && k < d->noutputs && st == TD_OK; k++) {
		emit_object_begin(e, NULL);
		emit_kv_uint(e, "output_slot", k);
		emit_textf(e, "output %zu\n", k);
		st = emit_output(env, e, d, k, slice);
		emit_object_end(e);
	}
	emit_table_end(e);
	emit_key(e, "stack");
	cmd_emit_frames(env, e, dst == TD_OK ? d->stack : NULL, dst == TD_OK ? d->nstack : 0,
			dst == TD_OK ? "stack\n" : NULL);
	emit_object_end(e);
	return st;
}

enum td_status
cmd_execution(struct cmd_env *env, int argc, char **argv)
{
	struct model_detail d = {0};
	struct model_execution x;
	struct row_args a;
	struct emit e;
	uint64_t row;
	enum td_status st, dst;

	if ((st = row_args(env, argc, argv, &a)) != TD_OK)
		return st;
	if ((st = cmd_execution_arg(env, a.row, &row)) != TD_OK)
		return st;
	if ((st = model_execution_get(env->m, row, &x)) != TD_OK)
		return cmd_fail(env, st, "row %llu: %s", (unsigned long long)row, td_strerror(st));
	dst = model_execution_detail(env->m, row, &d);
	if (dst == TD_OK)
		cmd_detail_complete(&d);
	if (env->ui && env->ui->jump)
		env->ui->jump(env->ui->ctx, TABLE_EXECUTIONS, row);
	emit_init(&e, env->out, env->json);
	st = execution_emit(env, &e, &x, &d, dst, a.slice);
	emit_done(&e);
	model_detail_done(&d);
	return st;
}

/* ---- print N [SLICE] ------------------------------------------------------------ */

/* "A, B and C": the dumps that keep full values, as the formats name them. */
static char *
values_in_formats(void)
{
	struct model_format f;
	struct strbuf sb = {0};
	const char *names[16];
	size_t i, n = 0;

	for (i = 0; model_format_at(i, &f) && n < TD_ARRAY_SIZE(names); i++)
		if (f.values_in)
			names[n++] = f.values_in;
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s", i == 0 ? "" : i + 1 == n ? " and " : ", ", names[i]);
	if (!n)
		strbuf_adds(&sb, "full-value");
	return strbuf_take(&sb);
}

enum td_status
cmd_no_values(struct cmd_env *env, uint64_t row, const char *mode)
{
	char *which = values_in_formats();
	enum td_status st = cmd_fail(env, TD_ERR_NOTFOUND,
				     "trace %llu has no stored values (mode %s; %s dumps keep them)",
				     (unsigned long long)row, mode ? mode : "unknown", which);

	free(which);
	return st;
}

enum td_status
cmd_stats_only(struct cmd_env *env, uint64_t row, const char *mode, bool value_key)
{
	char *which = values_in_formats();
	struct model_trace t;
	struct strbuf note = { 0 }, *text;
	struct emit e;
	enum td_status st;

	if ((st = model_trace_get(env->m, row, &t)) != TD_OK) {
		free(which);
		return cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
	}
	strbuf_addf(&note, "values not stored (mode %s; %s dumps keep them)",
		    mode ? mode : "unknown", which);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_uint(&e, "index", row);
	if (value_key)
		emit_kv_null(&e, "value");
	emit_kv_bool(&e, "values_stored", false);
	emit_kv_str(&e, "values_note", note.buf);
	emit_kv_summary(&e, "summary", &t.summary);
	if ((text = emit_text(&e))) {
		strbuf_addf(text, "trace %llu ", (unsigned long long)row);
		cmd_cell(text, t.op_name, -1);
		strbuf_addf(text, ":%u: %s; the statistics it has:\n", t.slot, note.buf);
		summary_lines(text, &t.summary);
	}
	emit_object_end(&e);
	emit_done(&e);
	strbuf_done(&note);
	free(which);
	return TD_OK;
}

enum td_status
cmd_print(struct cmd_env *env, int argc, char **argv)
{
	struct model_detail d = {0};
	char *slice = argc > 2 ? cmd_join(argc, argv, 2) : NULL;
	struct emit e;
	uint64_t row;
	enum td_status st;

	if ((st = cmd_trace_arg(env, argv[1], &row)) != TD_OK)
		goto out;
	if ((st = model_trace_detail(env->m, row, &d)) != TD_OK) {
		cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
		goto out;
	}
	if (d.noutputs == 0 || !d.values || !d.values[0]) {
		st = cmd_stats_only(env, row, d.mode, true);
		goto out;
	}
	if (env->ui && env->ui->show_tensor)
		env->ui->show_tensor(env->ui->ctx, TABLE_TRACES, row, slice, NULL);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_uint(&e, "index", row);
	emit_key(&e, "value");
	if (emit_json(&e))
		st = cmd_json_value(env, emit_json(&e), d.values[0], slice, VALUE_LIMIT_JSON);
	else
		st = cmd_text_value(env, d.values[0], slice, VALUE_LIMIT_TEXT);
	emit_object_end(&e);
	emit_done(&e);
out:
	model_detail_done(&d);
	free(slice);
	return st;
}
