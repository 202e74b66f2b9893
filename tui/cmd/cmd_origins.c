/*
 * cmd_origins.c - "origins" (where the NaN/Inf started, first in time first,
 * per step and host) and "why N" (what one trace row is: origin,
 * propagation or repeat, from where, and why).
 *
 * JSON shapes (the contract, see README):
 *   origins -> {"total": N, "first": ORIGIN|null, "items": [ORIGIN, ...]}
 *              (+ "hosts": [{"host", "step", "index", "op_name", "op_type",
 *              "origins"}] with --by-host)
 *   ORIGIN  -> {"source", "index", "op_name", "op_type", "output_slot", "host",
 *              "step", "nan", "neg_inf", "pos_inf", "elements", "inputs":
 *              [{"op_name", "output_slot", "trace_index", "state", "summary"}],
 *              "cause", "evidence": [...], "path": [rows]}
 *   why N   -> ORIGIN + {"role", "origin", "from"}
 * The model computes everything (model_origins, model_why); this file only
 * prints it.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd_internal.h"
#include "sanitize.h"

#define TEXT_MAX_OTHERS 20          /* other origins listed in text output */

static const char *const role_names[] = {
	[ORIGIN_FINITE] = "finite",
	[ORIGIN_ORIGIN] = "origin",
	[ORIGIN_PROPAGATION] = "propagation",
	[ORIGIN_REPEAT] = "repeat",
};

static const char *const state_names[] = {
	[INPUT_FINITE] = "finite",
	[INPUT_NONFINITE] = "nonfinite",
	[INPUT_UNKNOWN] = "unknown",
};

/* ---- JSON --------------------------------------------------------------- */

static void
json_opt_int(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	if (v >= 0)
		json_int(j, v);
	else
		json_null(j);
}

static void
json_origin_members(struct json *j, const struct model_origin *o)
{
	size_t k;

	json_kv_string(j, "source", model_table_name(o->source));
	json_kv_uint(j, "index", o->index);
	json_kv_string(j, "op_name", o->op_name ? o->op_name : "");
	json_kv_string(j, "op_type", cmd_nz(o->op_type));
	json_kv_uint(j, "output_slot", o->slot);
	json_kv_string(j, "host", cmd_nz(o->host));
	json_opt_int(j, "step", o->step);
	cmd_json_counts(j, &o->summary);
	json_key(j, "inputs");
	json_array_begin(j);
	for (k = 0; k < o->ninputs; k++) {
		const struct model_origin_input *in = &o->inputs[k];

		json_object_begin(j);
		json_kv_string(j, "op_name", in->op_name);
		json_kv_uint(j, "output_slot", in->slot);
		json_opt_int(j, "trace_index", in->trace_index);
		json_kv_string(j, "state", state_names[in->state]);
		json_key(j, "summary");
		if (in->trace_index >= 0)
			cmd_json_summary(j, &in->summary);
		else
			json_null(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_kv_string(j, "cause", o->cause);
	json_key(j, "evidence");
	json_array_begin(j);
	for (k = 0; k < o->nevidence; k++)
		json_string(j, o->evidence[k]);
	json_array_end(j);
	json_key(j, "path");
	json_array_begin(j);
	for (k = 0; k < o->npath; k++)
		json_uint(j, o->path[k]);
	json_array_end(j);
}

static void
json_origin(struct json *j, const struct model_origin *o)
{
	json_object_begin(j);
	json_origin_members(j, o);
	json_object_end(j);
}

/* ---- text ---------------------------------------------------------------- */

static void
text_str(struct cmd_env *env, const char *s)
{
	sanitize_str(s, -1, env->out);
}

static void
text_headline(struct cmd_env *env, const struct model_origin *o, const char *label)
{
	strbuf_addf(env->out, "%s: ", label);
	text_str(env, o->op_name && *o->op_name ? o->op_name : "?");
	strbuf_addf(env->out, ":%u (", o->slot);
	text_str(env, cmd_txt(o->op_type));
	strbuf_addf(env->out, ") at %s %llu", o->source == TABLE_TRACES ? "row" : "execution",
		    (unsigned long long)o->index);
	if (o->step >= 0)
		strbuf_addf(env->out, ", step %lld", (long long)o->step);
	if (o->host && *o->host) {
		strbuf_adds(env->out, ", host ");
		text_str(env, o->host);
	}
	strbuf_adds(env->out, "\n  ");
	cmd_text_summary(env->out, &o->summary);
	strbuf_adds(env->out, "\n  cause: ");
	text_str(env, o->cause);
	strbuf_addc(env->out, '\n');
}

static void
text_path(struct cmd_env *env, const uint64_t *path, size_t n)
{
	size_t k;

	strbuf_adds(env->out, "  path: ");
	for (k = 0; k < n; k++) {
		struct model_trace t;

		if (k == 10 && n > 12) {
			strbuf_addf(env->out, " -> ... (%zu more)", n - 11);
			k = n - 1;
		}
		if (k)
			strbuf_adds(env->out, " -> ");
		if (model_trace_get(env->m, path[k], &t) == TD_OK)
			sanitize_tail(t.op_name, 40, env->out);
		strbuf_addf(env->out, " (%llu)", (unsigned long long)path[k]);
	}
	strbuf_addc(env->out, '\n');
}

/* "name:slot", malloc'd. */
static char *
xasprintf_slot(const char *name, uint32_t slot)
{
	struct strbuf sb = {0};

	strbuf_addf(&sb, "%s:%u", name ? name : "", slot);
	return strbuf_take(&sb);
}

static void
text_origin(struct cmd_env *env, const struct model_origin *o, const char *label)
{
	size_t k;

	text_headline(env, o, label);
	for (k = 0; k < o->nevidence; k++) {
		strbuf_adds(env->out, "    - ");
		text_str(env, o->evidence[k]);
		strbuf_addc(env->out, '\n');
	}
	for (k = 0; k < o->ninputs; k++) {
		const struct model_origin_input *in = &o->inputs[k];

		char *nm = xasprintf_slot(in->op_name, in->slot);

		strbuf_addf(env->out, "  input %zu ", k);
		cmd_cell(env->out, nm, 34);
		free(nm);
		strbuf_addf(env->out, " %-9s ", state_names[in->state]);
		if (in->trace_index >= 0) {
			strbuf_addf(env->out, "row %lld  ", (long long)in->trace_index);
			cmd_text_summary(env->out, &in->summary);
		} else {
			strbuf_adds(env->out, "(never traced)");
		}
		strbuf_addc(env->out, '\n');
	}
	if (o->npath > 1)
		text_path(env, o->path, o->npath);
}

/* ---- origins ---------------------------------------------------------------- */

struct host_first {
	const char *host;
	size_t first;               /* index into the origins (sorted: first in time) */
	size_t count;
};

/* One entry per host, in order of their first origin. */
static size_t
by_host(const struct model_origin *v, size_t n, struct host_first **out)
{
	struct host_first *h = xcalloc(n + 1, sizeof(*h));
	size_t nh = 0, i, k;

	for (i = 0; i < n; i++) {
		const char *name = v[i].host ? v[i].host : "";

		for (k = 0; k < nh && strcmp(h[k].host, name) != 0; k++)
			;
		if (k == nh) {
			h[nh].host = name;
			h[nh++].first = i;
		}
		h[k].count++;
	}
	*out = h;
	return nh;
}

static void
json_hosts(struct json *j, const struct model_origin *v, const struct host_first *h, size_t nh)
{
	size_t k;

	json_key(j, "hosts");
	json_array_begin(j);
	for (k = 0; k < nh; k++) {
		const struct model_origin *o = &v[h[k].first];

		json_object_begin(j);
		json_kv_string(j, "host", cmd_nz(h[k].host));
		json_opt_int(j, "step", o->step);
		json_kv_uint(j, "index", o->index);
		json_kv_string(j, "op_name", o->op_name ? o->op_name : "");
		json_kv_string(j, "op_type", cmd_nz(o->op_type));
		json_kv_uint(j, "origins", h[k].count);
		json_object_end(j);
	}
	json_array_end(j);
}

static void
text_hosts(struct cmd_env *env, const struct model_origin *v, const struct host_first *h, size_t nh)
{
	size_t k;

	strbuf_addf(env->out, "%-20s %-10s %-8s %s\n", "host/rank", "first step", "row", "origin op");
	for (k = 0; k < nh; k++) {
		const struct model_origin *o = &v[h[k].first];

		cmd_cell(env->out, h[k].host, 20);
		if (o->step >= 0)
			strbuf_addf(env->out, " %-10lld", (long long)o->step);
		else
			strbuf_addf(env->out, " %-10s", "-");
		strbuf_addf(env->out, " %-8llu ", (unsigned long long)o->index);
		sanitize_str(o->op_name, 60, env->out);
		strbuf_adds(env->out, " (");
		sanitize_str(cmd_txt(o->op_type), 30, env->out);
		strbuf_addf(env->out, ")  %zu origin%s\n", h[k].count, h[k].count == 1 ? "" : "s");
	}
}

static void
origins_text(struct cmd_env *env, const struct model_origin *v, size_t n)
{
	size_t i;

	if (!n) {
		strbuf_adds(env->out, "no NaN/Inf: no origin\n");
		return;
	}
	strbuf_addf(env->out, "%zu origin%s of NaN/Inf\n", n, n == 1 ? "" : "s");
	text_origin(env, &v[0], "Origin");
	for (i = 1; i < n; i++) {
		if (i == 1)
			strbuf_adds(env->out, "Other origins:\n");
		if (i > TEXT_MAX_OTHERS) {
			strbuf_addf(env->out, "  ... %zu more (origins --step S, or --json for all)\n",
				    n - i);
			break;
		}
		strbuf_addf(env->out, "  %s %-7llu ", v[i].source == TABLE_TRACES ? "row " : "exec",
			    (unsigned long long)v[i].index);
		sanitize_str(v[i].op_name, 40, env->out);
		strbuf_addf(env->out, ":%u", v[i].slot);
		if (v[i].step >= 0)
			strbuf_addf(env->out, "  step %lld", (long long)v[i].step);
		strbuf_adds(env->out, "  ");
		text_str(env, v[i].cause);
		strbuf_addc(env->out, '\n');
		cmd_maybe_flush(env);
	}
}

enum td_status
cmd_origins(struct cmd_env *env, int argc, char **argv)
{
	const char *step_arg = NULL, *host = NULL;
	bool hosts_flag = false;
	struct cmd_opt opts[] = {
		{ "step", &step_arg, NULL }, { "host", &host, NULL }, { "by-host", NULL, &hosts_flag },
		{ NULL, NULL, NULL },
	};
	struct model_origins_query q = { .step = -1 };
	struct model_origin *v = NULL;
	struct host_first *h = NULL;
	char *pos[1];
	int npos = 0;
	size_t n, nh = 0, i;
	enum td_status st;
	struct json j;

	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 0)) != TD_OK)
		return st;
	if (step_arg && (!cmd_parse_i64(step_arg, &q.step) || q.step < 0))
		return cmd_fail(env, TD_ERR_ARGS, "--step wants a step number, got '%s'", step_arg);
	if (host && (st = cmd_host_arg(env, host, &host)) != TD_OK)
		return st;
	q.host = host ? host : env->host;
	n = model_origins(env->m, &q, &v);
	if (hosts_flag)
		nh = by_host(v, n, &h);
	if (env->ui && env->ui->jump && n)
		env->ui->jump(env->ui->ctx, v[0].source, v[0].index);
	if (env->json) {
		json_init(&j, env->out);
		json_object_begin(&j);
		json_kv_uint(&j, "total", n);
		json_key(&j, "first");
		if (n)
			json_origin(&j, &v[0]);
		else
			json_null(&j);
		json_key(&j, "items");
		json_array_begin(&j);
		for (i = 0; i < n; i++)
			json_origin(&j, &v[i]);
		json_array_end(&j);
		if (hosts_flag)
			json_hosts(&j, v, h, nh);
		json_object_end(&j);
	} else if (hosts_flag) {
		text_hosts(env, v, h, nh);
	} else {
		origins_text(env, v, n);
	}
	free(h);
	model_origins_free(v, n);
	return TD_OK;
}

/* ---- why ------------------------------------------------------------------------ */

enum td_status
cmd_why(struct cmd_env *env, int argc, char **argv)
{
	struct model_origin o;
	enum td_status st;
	uint64_t row;
	int64_t cur;
	struct json j;
	size_t k;

	if (argc < 2 && env->ui && env->ui->current_trace &&
	    (cur = env->ui->current_trace(env->ui->ctx)) >= 0)
		row = (uint64_t)cur;
	else if ((st = cmd_trace_arg(env, argc > 1 ? argv[1] : NULL, &row)) != TD_OK)
		return st;
	if ((st = model_why(env->m, row, &o)) != TD_OK)
		return cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
	if (env->json) {
		json_init(&j, env->out);
		json_object_begin(&j);
		json_kv_string(&j, "role", role_names[o.role]);
		json_origin_members(&j, &o);
		json_opt_int(&j, "origin", o.origin);
		json_key(&j, "from");
		json_array_begin(&j);
		for (k = 0; k < o.nfrom; k++)
			json_int(&j, o.from[k]);
		json_array_end(&j);
		json_object_end(&j);
	} else {
		strbuf_addf(env->out, "row %llu is %s%s\n", (unsigned long long)row,
			    o.role == ORIGIN_ORIGIN ? "an " : o.role == ORIGIN_FINITE ? "" : "a ",
			    o.role == ORIGIN_FINITE ? "finite (no NaN/Inf)" : role_names[o.role]);
		text_origin(env, &o, o.role == ORIGIN_ORIGIN ? "Origin" : "Row");
		if (o.role != ORIGIN_ORIGIN && o.origin >= 0)
			strbuf_addf(env->out, "  origin: row %lld (why %lld)\n", (long long)o.origin,
				    (long long)o.origin);
	}
	model_origin_done(&o);
	return TD_OK;
}

/* ---- tdbg --check ------------------------------------------------------------------ */

/* Whether the dump's rows can show NaN/Inf at all: some of the first rows
 * (or executions) carry a NaN/Inf flag or counts. */
static bool
can_tell(struct model *m)
{
	uint32_t bits = SUM_NONFINITE | SUM_NAN | SUM_NEG_INF | SUM_POS_INF;
	uint64_t n = model_trace_count(m), i;
	struct model_trace t;

	for (i = 0; i < n && i < 64; i++)
		if (model_trace_get(m, i, &t) == TD_OK && (t.summary.known & bits))
			return true;
	return n == 0 && model_execution_count(m) > 0;
}

enum td_status
cmd_check(struct cmd_env *env, bool watches, bool *bad)
{
	struct model_origins_query q = { .step = -1, .per_host = 1 };
	struct model_origin *v = NULL;
	uint64_t alerts = model_alert_count(env->m);
	size_t n = alerts ? model_origins(env->m, &q, &v) : 0;
	struct json j;
	uint64_t hits = 0, unknown = 0;

	if (watches)
		hits = cmd_watch_hits(env->m, &unknown);
	*bad = alerts > 0 || hits > 0;
	if (env->json) {
		json_init(&j, env->out);
		json_object_begin(&j);
		json_kv_bool(&j, "nonfinite", alerts > 0);
		json_kv_bool(&j, "known", alerts > 0 || can_tell(env->m));
		json_kv_uint(&j, "alerts", alerts);
		json_key(&j, "first");
		if (n)
			json_origin(&j, &v[0]);
		else
			json_null(&j);
		if (watches) {
			json_key(&j, "watches");
			json_object_begin(&j);
			json_kv_uint(&j, "hits", hits);
			json_kv_uint(&j, "unknown", unknown);
			json_object_end(&j);
		}
		json_object_end(&j);
		model_origins_free(v, n);
		return TD_OK;
	}
	if (!alerts && !can_tell(env->m)) {
		strbuf_adds(env->out, "no NaN/Inf found, but the dump's rows do not record NaN/Inf "
			    "(a mode without counts): unknown\n");
	} else if (!alerts) {
		strbuf_adds(env->out, "no NaN/Inf\n");
	} else {
		strbuf_addf(env->out, "NaN/Inf: %llu alert%s\n", (unsigned long long)alerts,
			    alerts == 1 ? "" : "s");
		if (n)
			text_origin(env, &v[0], "Origin");
	}
	if (watches)
		strbuf_addf(env->out, "watches: %llu hit%s, %llu row%s unknown%s\n",
			    (unsigned long long)hits, hits == 1 ? "" : "s", (unsigned long long)unknown,
			    unknown == 1 ? "" : "s", hits ? " (watches check lists them)" : "");
	model_origins_free(v, n);
	return TD_OK;
}
