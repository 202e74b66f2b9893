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

static void
json_debug_values(struct json *j, const double *v, size_t n)
{
	size_t i;

	json_array_begin(j);
	for (i = 0; i < n; i++)
		json_double(j, v[i]);
	json_array_end(j);
}

/* Output k of a detail: summary, raw debug vector, value. */
static enum td_status
json_output(struct cmd_env *env, struct json *j, const struct model_detail *d, size_t k,
	    const char *slice)
{
	json_key(j, "summary");
	if (d->summaries)
		cmd_json_summary(j, &d->summaries[k]);
	else
		json_null(j);
	json_key(j, "debug_values");
	if (d->debug_values && d->debug_values[k] && d->ndebug_values)
		json_debug_values(j, d->debug_values[k], d->ndebug_values[k]);
	else
		json_null(j);
	json_key(j, "value");
	if (d->values && d->values[k])
		return cmd_json_value(env, j, d->values[k], slice, VALUE_LIMIT_JSON);
	json_null(j);
	return TD_OK;
}

static void
text_detail_extra(struct cmd_env *env, const struct model_detail *d)
{
	if (d->mode)
		strbuf_addf(env->out, "mode      %s\n", cmd_safe(d->mode));
	if (d->text && *d->text)
		strbuf_addf(env->out, "%s%s", d->text, d->text[strlen(d->text) - 1] == '\n' ? "" : "\n");
}

static enum td_status
text_output(struct cmd_env *env, const struct model_detail *d, size_t k, const char *slice)
{
	if (d->summaries) {
		strbuf_adds(env->out, "summary   ");
		cmd_text_summary(env->out, &d->summaries[k]);
		strbuf_addc(env->out, '\n');
	}
	if (d->values && d->values[k])
		return cmd_text_value(env, d->values[k], slice, VALUE_LIMIT_TEXT);
	return TD_OK;
}

/* ---- trace N ----------------------------------------------------------------- */

static void
trace_json_head(struct json *j, const struct model_trace *t)
{
	json_kv_uint(j, "index", t->index);
	json_kv_string(j, "op_name", t->op_name);
	json_kv_string(j, "op_type", cmd_nz(t->op_type));
	json_kv_uint(j, "output_slot", t->slot);
	json_kv_string(j, "graph_id", cmd_nz(t->graph_id));
	json_kv_string(j, "graph_name", cmd_nz(t->graph_name));
	json_key(j, "execution");
	if (t->execution >= 0)
		json_int(j, t->execution);
	else
		json_null(j);
	json_kv_string(j, "host", cmd_nz(t->host));
	json_kv_string(j, "device", cmd_nz(t->device));
	json_kv_double(j, "wall_time", t->wall_time);
	json_kv_bool(j, "nonfinite", t->flags & ROW_NONFINITE);
	json_kv_bool(j, "is_input", t->flags & ROW_INPUT);
	json_kv_bool(j, "corrupt", t->flags & ROW_CORRUPT);
	json_kv_string(j, "debug_op", t->debug_op);
}

static enum td_status
trace_json(struct cmd_env *env, const struct model_trace *t, struct model_detail *d,
	   enum td_status dst, const char *slice)
{
	struct json j;
	struct model_op o;
	enum td_status st = TD_OK;

	json_init(&j, env->out);
	json_object_begin(&j);
	trace_json_head(&j, t);
	json_kv_string(&j, "mode", dst == TD_OK ? d->mode : NULL);
	if (dst == TD_OK && d->noutputs > 0) {
		st = json_output(env, &j, d, 0, slice);
	} else {
		json_key(&j, "summary");
		cmd_json_summary(&j, &t->summary);
		if (dst != TD_OK)
			json_kv_string(&j, "detail_error", td_strerror(dst));
	}
	json_key(&j, "op");
	cmd_json_op(env, &j, t->op);
	json_key(&j, "stack");
	if (dst == TD_OK && d->nstack)
		cmd_json_frames(env, &j, d->stack, d->nstack);
	else if (model_op_get(env->m, t->op, &o))
		cmd_json_frames(env, &j, o.stack, o.nstack);
	else
		cmd_json_frames(env, &j, NULL, 0);
	json_object_end(&j);
	return st;
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
trace_text(struct cmd_env *env, const struct model_trace *t, struct model_detail *d,
	   enum td_status dst, const char *slice)
{
	enum td_status st = TD_OK;

	strbuf_addf(env->out, "trace     %llu%s\n", (unsigned long long)t->index,
		    (t->flags & ROW_NONFINITE) ? "  (NaN/Inf)" : "");
	if (t->execution >= 0)
		strbuf_addf(env->out, "execution %lld\n", (long long)t->execution);
	if (t->host && *t->host)
		strbuf_addf(env->out, "host      %s\n", cmd_safe(t->host));
	if (t->debug_op)
		strbuf_addf(env->out, "debug op  %s%s\n", cmd_txt(t->debug_op),
			    (t->flags & ROW_REPEAT) ? "  (another debug op's row of this tensor "
			    "holds its values)" : "");
	if (dst == TD_OK) {
		text_detail_extra(env, d);
		if (d->noutputs > 0)
			st = text_output(env, d, 0, slice);
	} else {
		strbuf_addf(env->out, "detail    %s\nsummary   ", td_strerror(dst));
		cmd_text_summary(env->out, &t->summary);
		strbuf_addc(env->out, '\n');
	}
	cmd_text_op(env, t->op);
	if (dst == TD_OK && d->nstack && !same_as_op_stack(env, t->op, d)) {
		strbuf_adds(env->out, "trace stack\n");
		cmd_text_frames(env, d->stack, d->nstack);
	}
	return st;
}

enum td_status
cmd_trace(struct cmd_env *env, int argc, char **argv)
{
	struct model_detail d = {0};
	struct model_trace t;
	struct row_args a;
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
	st = env->json ? trace_json(env, &t, &d, dst, a.slice) : trace_text(env, &t, &d, dst, a.slice);
	model_detail_done(&d);
	return st;
}

/* ---- execution N --------------------------------------------------------------- */

static enum td_status
execution_json(struct cmd_env *env, const struct model_execution *e, struct model_detail *d,
	       enum td_status dst, const char *slice)
{
	struct json j;
	size_t k;
	enum td_status st = TD_OK;

	json_init(&j, env->out);
	json_object_begin(&j);
	json_kv_uint(&j, "index", e->index);
	json_kv_string(&j, "op_type", e->op_type);
	json_kv_string(&j, "graph_id", cmd_graph_id(env, e->graph));
	json_kv_string(&j, "host", cmd_nz(e->host));
	json_kv_uint(&j, "num_outputs", e->num_outputs);
	json_kv_uint(&j, "bad_outputs", e->bad_outputs);
	json_kv_double(&j, "wall_time", e->wall_time);
	json_kv_uint(&j, "first_trace", e->first_trace);
	json_kv_uint(&j, "traces", e->ntraces);
	json_kv_string(&j, "mode", dst == TD_OK ? d->mode : NULL);
	if (dst != TD_OK)
		json_kv_string(&j, "detail_error", td_strerror(dst));
	json_key(&j, "outputs");
	json_array_begin(&j);
	for (k = 0; dst == TD_OK && k < d->noutputs && st == TD_OK; k++) {
		json_object_begin(&j);
		json_kv_uint(&j, "output_slot", k);
		st = json_output(env, &j, d, k, slice);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "stack");
	cmd_json_frames(env, &j, dst == TD_OK ? d->stack : NULL, dst == TD_OK ? d->nstack : 0);
	json_object_end(&j);
	return st;
}

static enum td_status
execution_text(struct cmd_env *env, const struct model_execution *e, struct model_detail *d,
	       enum td_status dst, const char *slice)
{
	size_t k;
	enum td_status st = TD_OK;

	strbuf_addf(env->out, "execution %llu  %s\noutputs   %u (%u with NaN/Inf)\n",
		    (unsigned long long)e->index, cmd_txt(e->op_type), e->num_outputs, e->bad_outputs);
	if (e->ntraces)
		strbuf_addf(env->out, "traces    %llu..%llu\n", (unsigned long long)e->first_trace,
			    (unsigned long long)(e->first_trace + e->ntraces - 1));
	if (dst != TD_OK) {
		strbuf_addf(env->out, "detail    %s\n", td_strerror(dst));
		return TD_OK;
	}
	text_detail_extra(env, d);
	for (k = 0; k < d->noutputs && st == TD_OK; k++) {
		strbuf_addf(env->out, "output %zu\n", k);
		st = text_output(env, d, k, slice);
	}
	strbuf_adds(env->out, "stack\n");
	cmd_text_frames(env, d->stack, d->nstack);
	return st;
}

enum td_status
cmd_execution(struct cmd_env *env, int argc, char **argv)
{
	struct model_detail d = {0};
	struct model_execution e;
	struct row_args a;
	uint64_t row;
	enum td_status st, dst;

	if ((st = row_args(env, argc, argv, &a)) != TD_OK)
		return st;
	if ((st = cmd_execution_arg(env, a.row, &row)) != TD_OK)
		return st;
	if ((st = model_execution_get(env->m, row, &e)) != TD_OK)
		return cmd_fail(env, st, "row %llu: %s", (unsigned long long)row, td_strerror(st));
	dst = model_execution_detail(env->m, row, &d);
	if (dst == TD_OK)
		cmd_detail_complete(&d);
	if (env->ui && env->ui->jump)
		env->ui->jump(env->ui->ctx, TABLE_EXECUTIONS, row);
	st = env->json ? execution_json(env, &e, &d, dst, a.slice)
		       : execution_text(env, &e, &d, dst, a.slice);
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
	struct strbuf note = { 0 };
	struct json j;
	enum td_status st;

	if ((st = model_trace_get(env->m, row, &t)) != TD_OK) {
		free(which);
		return cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
	}
	strbuf_addf(&note, "values not stored (mode %s; %s dumps keep them)",
		    mode ? mode : "unknown", which);
	if (env->json) {
		json_init(&j, env->out);
		json_object_begin(&j);
		json_kv_uint(&j, "index", row);
		if (value_key) {
			json_key(&j, "value");
			json_null(&j);
		}
		json_kv_bool(&j, "values_stored", false);
		json_kv_string(&j, "values_note", note.buf);
		json_key(&j, "summary");
		summary_json(&j, &t.summary);
		json_object_end(&j);
	} else {
		strbuf_addf(env->out, "trace %llu ", (unsigned long long)row);
		cmd_cell(env->out, t.op_name, -1);
		strbuf_addf(env->out, ":%u: %s; the statistics it has:\n", t.slot, note.buf);
		summary_lines(env->out, &t.summary);
	}
	strbuf_done(&note);
	free(which);
	return TD_OK;
}

enum td_status
cmd_print(struct cmd_env *env, int argc, char **argv)
{
	struct model_detail d = {0};
	char *slice = argc > 2 ? cmd_join(argc, argv, 2) : NULL;
	struct json j;
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
	if (!env->json) {
		st = cmd_text_value(env, d.values[0], slice, VALUE_LIMIT_TEXT);
		goto out;
	}
	json_init(&j, env->out);
	json_object_begin(&j);
	json_kv_uint(&j, "index", row);
	json_key(&j, "value");
	st = cmd_json_value(env, &j, d.values[0], slice, VALUE_LIMIT_JSON);
	json_object_end(&j);
out:
	model_detail_done(&d);
	free(slice);
	return st;
}
