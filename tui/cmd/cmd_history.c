/*
 * cmd_history.c - "history N | --op NAME [--slot S] [--field F]...
 * [--host H]": how an op's output moved over the steps (a weight's norm, a
 * gradient's abs_mean, the loss), one point per step and host, from
 * model_series_get().
 *
 * Trace row N stands for its op and output slot (all hosts unless --host
 * or a `rank` restriction).  --field picks the numbers (repeat it, or give
 * a comma list); by default those of l2norm, abs_mean, mean, max, min, nan
 * and inf the dump's mode records.  Text output is a small table; the
 * chart is the TUI's trend view (key H).
 */
#include "cmd_internal.h"
#include "fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_series.h"

#define MAX_FIELDS SERIES_FIELD_COUNT

struct history_args {
	const char *row, *op, *slot, *host;
	enum model_series_field fields[MAX_FIELDS];
	size_t nfields;
};

/* Adds the fields of a comma list ("l2norm,abs_mean"). */
static enum td_status
add_fields(struct cmd_env *env, struct history_args *a, const char *text)
{
	char *copy = xstrdup(text), *tok, *save = NULL;
	enum td_status st = TD_OK;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int f = model_series_field_find(tok);
		size_t k;

		if (f < 0) {
			struct strbuf names = {0};
			for (int g = 0; g < SERIES_FIELD_COUNT; g++)
				strbuf_addf(&names, "%s%s", g ? ", " : "",
					    model_series_field_name((enum model_series_field)g));
			st = cmd_fail(env, TD_ERR_ARGS, "unknown field \"%s\" (fields: %s)", cmd_safe(tok),
				      names.buf);
			free(names.buf);
			break;
		}
		for (k = 0; k < a->nfields && a->fields[k] != (enum model_series_field)f; k++)
			;
		if (k == a->nfields && a->nfields < MAX_FIELDS)
			a->fields[a->nfields++] = (enum model_series_field)f;
	}
	free(copy);
	return st;
}

/* Takes the --field options out of argv (they may repeat), then the rest. */
static enum td_status
parse_args(struct cmd_env *env, int argc, char **argv, struct history_args *a)
{
	const struct cmd_opt opts[] = {
		{ "op", &a->op, NULL }, { "slot", &a->slot, NULL }, { "host", &a->host, NULL },
		{ NULL, NULL, NULL },
	};
	char **rest = xcalloc((size_t)argc + 1, sizeof *rest), *pos[1];
	int nrest = 0, npos = 0;
	enum td_status st = TD_OK;

	for (int i = 0; i < argc && st == TD_OK; i++) {
		if (i > 0 && strcmp(argv[i], "--field") == 0) {
			if (i + 1 >= argc)
				st = cmd_fail(env, TD_ERR_ARGS, "--field needs a value");
			else
				st = add_fields(env, a, argv[++i]);
		} else if (i > 0 && strncmp(argv[i], "--field=", 8) == 0) {
			st = add_fields(env, a, argv[i] + 8);
		} else {
			rest[nrest++] = argv[i];
		}
	}
	if (st == TD_OK)
		st = cmd_parse_opts(env, nrest, rest, opts, pos, &npos, 1);
	if (st == TD_OK && npos == 1)
		a->row = pos[0];
	free(rest);
	return st;
}

/* The op and slot the arguments name. */
static enum td_status
resolve(struct cmd_env *env, struct history_args *a, uint32_t *op, uint32_t *slot)
{
	struct model_trace t;
	uint64_t row, v;
	enum td_status st;

	if (a->row && a->op)
		return cmd_fail(env, TD_ERR_ARGS, "give a trace row N or --op NAME, not both");
	if (a->op) {
		int64_t id = model_op_find(env->m, a->op, NULL);
		if (id < 0)
			return cmd_fail(env, TD_ERR_NOTFOUND, "no op \"%s\"", cmd_safe(a->op));
		*op = (uint32_t)id;
		*slot = 0;
	} else {
		if (!a->row && env->ui && env->ui->current_trace && env->ui->current_trace(env->ui->ctx) >= 0) {
			row = (uint64_t)env->ui->current_trace(env->ui->ctx);
		} else if ((st = cmd_trace_arg(env, a->row, &row)) != TD_OK) {
			return st;
		}
		if ((st = model_trace_get(env->m, row, &t)) != TD_OK)
			return cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
		if (t.flags & ROW_INPUT)
			return cmd_fail(env, TD_ERR_ARGS,
					"trace %llu is an input of %s, not an output: give its producer with --op",
					(unsigned long long)row, cmd_safe(t.op_name));
		*op = t.op;
		*slot = t.slot;
	}
	if (a->slot) {
		if (!cmd_parse_u64(a->slot, &v) || v > UINT32_MAX)
			return cmd_fail(env, TD_ERR_ARGS, "--slot wants an output slot number, not \"%s\"",
					cmd_safe(a->slot));
		*slot = (uint32_t)v;
	}
	return TD_OK;
}

/* A real as JSON: float32 (and narrower) values as float32, else double;
 * NaN and infinities as the strings of the JSON conventions. */
static void
json_value(struct json *j, const struct model_series_point *p, enum model_series_field f)
{
	double v = p->v[f];

	if (!(p->known & (1u << f)))
		json_null(j);
	else if (f >= SERIES_NAN)
		json_int(j, (int64_t)v);
	else if ((p->dtype == DTYPE_FLOAT32 || p->dtype == DTYPE_FLOAT16 || p->dtype == DTYPE_BFLOAT16) &&
		 (double)(float)v == v)
		json_float(j, (float)v);
	else
		json_double(j, v);
}

/* Steps among the points (sorted by step; an unknown step counts once
 * per point). */
static size_t
distinct_steps(const struct model_series *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		if (i == 0 || s->points[i].step < 0 || s->points[i].step != s->points[i - 1].step)
			n++;
	return n;
}

/* The series' own facts are JSON only: text says them in its first line. */
static const struct emit_field history_fields[] = {
	{ "op_name", NULL, 0, EMIT_HIDE },
	{ "op_type", NULL, 0, EMIT_HIDE },
	{ "output_slot", NULL, 0, EMIT_HIDE },
	{ "fields", NULL, 0, EMIT_HIDE },
	{ "steps", NULL, 0, EMIT_HIDE },
	{ "hosts", NULL, 0, EMIT_HIDE },
	{ "truncated", NULL, 0, EMIT_HIDE },
	{ "points", "", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* The points' columns: four fixed ones, one per field (a text cell: JSON
 * has the numbers in "values"), and the NaN/Inf mark. */
static void
point_columns(const struct history_args *a, struct emit_field *cols)
{
	static const struct emit_field fixed[] = {
		{ "step", NULL, -8, 0 },
		{ "host", NULL, 14, 0 },
		{ "trace_index", "row", -8, 0 },
		{ "rows_in_step", "rows", -5, 0 },
	};
	size_t n = 0;

	for (size_t k = 0; k < TD_ARRAY_SIZE(fixed); k++)
		cols[n++] = fixed[k];
	for (size_t k = 0; k < a->nfields; k++)
		cols[n++] = (struct emit_field){ model_series_field_name(a->fields[k]), NULL, -12, 0 };
	cols[n++] = (struct emit_field){ "mark", "", 0, 0 };
	cols[n] = (struct emit_field){ NULL, NULL, 0, 0 };
}

static void
point_emit(struct emit *e, const struct model_series_point *p, const struct history_args *a)
{
	char buf[64];

	emit_object_begin(e, NULL);
	emit_kv_index(e, "step", p->step);
	emit_kv_uint(e, "trace_index", p->row);
	emit_kv_str(e, "host", cmd_nz(p->host));
	emit_kv_uint(e, "rows_in_step", p->rows_in_step);
	if (emit_json(e)) {
		json_key(emit_json(e), "values");
		json_object_begin(emit_json(e));
	}
	for (size_t k = 0; k < a->nfields; k++) {
		enum model_series_field f = a->fields[k];

		if (emit_json(e)) {
			json_key(emit_json(e), model_series_field_name(f));
			json_value(emit_json(e), p, f);
		} else if (!(p->known & (1u << f))) {
			emit_text_kv(e, model_series_field_name(f), "-");
		} else if (f >= SERIES_NAN) {
			emit_text_kv(e, model_series_field_name(f), "%lld", (long long)p->v[f]);
		} else {
			fmt_double(p->v[f], buf, sizeof buf);
			emit_text_kv(e, model_series_field_name(f), "%s", buf);
		}
	}
	if (emit_json(e))
		json_object_end(emit_json(e));
	emit_kv_bool(e, "nonfinite", p->nonfinite);
	if (p->nonfinite)
		emit_text_kv(e, "mark", "NaN/Inf");
	emit_object_end(e);
}

static void
history_emit(struct cmd_env *env, const struct model_op *op, const struct model_series *s,
	     const struct history_args *a)
{
	struct emit_field cols[MAX_FIELDS + 6];
	size_t steps = distinct_steps(s);
	struct strbuf head = {0};
	bool loops = false;
	struct emit e;

	point_columns(a, cols);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, history_fields);
	emit_kv_str(&e, "op_name", op->name);
	emit_kv_str(&e, "op_type", cmd_nz(op->type));
	emit_kv_uint(&e, "output_slot", s->slot);
	emit_key(&e, "fields");
	emit_list_begin(&e);
	for (size_t k = 0; k < a->nfields; k++)
		emit_str(&e, model_series_field_name(a->fields[k]));
	emit_list_end(&e);
	emit_kv_uint(&e, "steps", steps);
	emit_key(&e, "hosts");
	emit_list_begin(&e);
	for (size_t i = 0; i < s->n; i++) {
		size_t k;
		for (k = 0; k < i && strcmp(s->points[k].host, s->points[i].host) != 0; k++)
			;
		if (k == i && *s->points[i].host)
			emit_str(&e, s->points[i].host);
	}
	emit_list_end(&e);
	emit_kv_bool(&e, "truncated", s->truncated);
	strbuf_addf(&head, "%s:%u  %zu step%s", op->name, s->slot, steps, steps == 1 ? "" : "s");
	if (s->nhosts > 1)
		strbuf_addf(&head, ", %zu hosts", s->nhosts);
	if (s->truncated)
		strbuf_addf(&head, " (the first %d only)", MODEL_SERIES_MAX_POINTS);
	emit_note(&e, "%s", head.buf);
	strbuf_done(&head);
	emit_key(&e, "points");
	emit_table_begin(&e, cols);
	for (size_t i = 0; i < s->n; i++) {
		loops |= s->points[i].rows_in_step > 1;
		point_emit(&e, &s->points[i], a);
		cmd_maybe_flush(env);
	}
	emit_table_end(&e);
	if (loops)
		emit_note(&e, "rows > 1: the step holds several rows of this tensor "
			      "(a loop, or several debug ops); the last is shown");
	emit_object_end(&e);
	emit_done(&e);
}

enum td_status
cmd_history(struct cmd_env *env, int argc, char **argv)
{
	struct history_args a = {0};
	struct model_series s;
	struct model_op op;
	const char *host = env->host;
	uint32_t opid = 0, slot = 0;
	enum td_status st;

	if ((st = parse_args(env, argc, argv, &a)) != TD_OK || (st = resolve(env, &a, &opid, &slot)) != TD_OK)
		return st;
	if (a.host && (st = cmd_host_arg(env, a.host, &host)) != TD_OK)
		return st;
	if (!model_op_get(env->m, opid, &op))
		return cmd_fail(env, TD_ERR_NOTFOUND, "no op %u", opid);
	if ((st = model_series_get(env->m, opid, slot, host, &s)) != TD_OK)
		return cmd_fail(env, st, "%s", td_strerror(st));
	if (s.n == 0) {
		model_series_done(&s);
		return cmd_fail(env, TD_ERR_NOTFOUND, "no output rows of %s:%u%s%s", cmd_safe(op.name), slot,
				host ? " on " : "", host ? cmd_safe(host) : "");
	}
	if (a.nfields == 0)
		a.nfields = model_series_default_fields(&s, a.fields, MAX_FIELDS);
	history_emit(env, &op, &s, &a);
	model_series_done(&s);
	return TD_OK;
}
