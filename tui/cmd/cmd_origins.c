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
 *              "cause", "evidence": [...], "path": [rows],
 *              "carried": {"rows", "calls", "variables", "steps", "hosts",
 *              "records"} (origins: how far its values went; else null)}
 *              (+ "partial", "partial_row": the work budget ran out)
 *   why N   -> ORIGIN + {"role", "origin", "from", "link", "via"}
 * The model computes everything (model_origins, model_why); this file only
 * prints it, each result built once through the emitter (emit.h): text
 * shows an origin as a headline ("Origin: Log:0 (Log) at row 88, ..."),
 * its summary, its inputs as a table, the cause, the evidence and the path.
 */
#include <stdio.h>
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
	[ORIGIN_CARRIED] = "carried",
};

static const char *const state_names[] = {
	[INPUT_FINITE] = "finite",
	[INPUT_NONFINITE] = "nonfinite",
	[INPUT_UNKNOWN] = "unknown",
};

/* ---- one origin ------------------------------------------------------------ */

/* How an origin shows as text.  The headline (a note) names the row, the op
 * and where it ran, so those members are JSON only; the evidence and the
 * path show as text lines of their own (the path with its ops' names).
 * The keys of "why" and of the origins/--check results are here too. */
static const struct emit_field origin_fields[] = {
	{ "role", NULL, 0, EMIT_HIDE },
	{ "source", NULL, 0, EMIT_HIDE },
	{ "index", NULL, 0, EMIT_HIDE },
	{ "op_name", NULL, 0, EMIT_HIDE },
	{ "op_type", NULL, 0, EMIT_HIDE },
	{ "output_slot", NULL, 0, EMIT_HIDE },
	{ "host", NULL, 0, EMIT_HIDE },
	{ "step", NULL, 0, EMIT_HIDE },
	{ "evidence", NULL, 0, EMIT_HIDE },
	{ "path", NULL, 0, EMIT_HIDE },
	{ "carried", NULL, 0, EMIT_HIDE },
	{ "origin", "origin row", 0, 0 },
	{ "from", "from rows", 0, 0 },
	{ "link", NULL, 0, EMIT_HIDE },
	{ "via", "via execution", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* An origin's inputs, one row each. */
static const struct emit_field input_cols[] = {
	{ "op_name", "input", 34, 0 },
	{ "output_slot", "slot", -4, 0 },
	{ "state", NULL, 9, 0 },
	{ "trace_index", "row", -7, 0 },
	{ "summary", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* Text: "LABEL: name:slot (type) at row N, step S, host H". */
static void
note_headline(struct emit *e, const struct model_origin *o, const char *label)
{
	char step[32] = "";

	if (o->step >= 0)
		snprintf(step, sizeof step, ", step %lld", (long long)o->step);
	emit_note(e, "%s: %s:%u (%s) at %s %llu%s%s%s", label,
		  o->op_name && *o->op_name ? o->op_name : "?", o->slot, cmd_txt(o->op_type),
		  o->source == TABLE_TRACES ? "row" : "execution", (unsigned long long)o->index,
		  step, o->host && *o->host ? ", host " : "", o->host ? o->host : "");
}

/* Text: "path  Log (88) -> mul (89) -> ..." (the ops' names, cut to their
 * last 40 columns; a long path keeps its first 10 rows and its last). */
static void
text_path(struct emit *e, struct model *m, const uint64_t *path, size_t n)
{
	struct strbuf sb = {0};
	struct model_trace t;
	size_t k;

	if (n < 2 || emit_json(e))
		return;
	for (k = 0; k < n; k++) {
		if (k == 10 && n > 12) {
			strbuf_addf(&sb, " -> ... (%zu more)", n - 11);
			k = n - 1;
		}
		if (k)
			strbuf_adds(&sb, " -> ");
		if (model_trace_get(m, path[k], &t) == TD_OK)
			sanitize_tail(t.op_name, 40, &sb);
		strbuf_addf(&sb, " (%llu)", (unsigned long long)path[k]);
	}
	emit_text_kv(e, "path", "%s", sb.buf);
	strbuf_done(&sb);
}

static void
emit_inputs(struct emit *e, const struct model_origin *o)
{
	size_t k;

	emit_key(e, "inputs");
	emit_table_begin(e, input_cols);
	for (k = 0; k < o->ninputs; k++) {
		const struct model_origin_input *in = &o->inputs[k];

		emit_object_begin(e, NULL);
		emit_kv_str(e, "op_name", in->op_name);
		emit_kv_uint(e, "output_slot", in->slot);
		emit_kv_index(e, "trace_index", in->trace_index);
		emit_kv_str(e, "state", state_names[in->state]);
		emit_key(e, "summary");
		if (in->trace_index >= 0)
			emit_summary(e, &in->summary);
		else
			emit_null(e);
		emit_object_end(e);
	}
	emit_table_end(e);
}

/* The members of an origin (ORIGIN in the header), into the current object
 * or table row; label heads its text ("Origin", "Row"). */
/* "carried": how far an origin's values went (null when not counted). */
static void
emit_reach(struct emit *e, const struct model_reach *r)
{
	emit_key(e, "carried");
	if (!r) {
		emit_null(e);
		return;
	}
	emit_object_begin(e, NULL);
	emit_kv_uint(e, "rows", r->rows);
	emit_kv_uint(e, "calls", r->calls);
	emit_kv_uint(e, "variables", r->variables);
	emit_kv_uint(e, "steps", r->steps);
	emit_kv_uint(e, "hosts", r->hosts);
	emit_kv_uint(e, "records", r->records);
	emit_object_end(e);
	if (r->rows > 1)
		emit_text_kv(e, "carried", "to %u row%s across %u function call%s, %u variable "
			     "write%s, %u more step%s, %u more host%s, %u input record%s",
			     r->rows, r->rows == 1 ? "" : "s", r->calls, r->calls == 1 ? "" : "s",
			     r->variables, r->variables == 1 ? "" : "s", r->steps,
			     r->steps == 1 ? "" : "s", r->hosts, r->hosts == 1 ? "" : "s",
			     r->records, r->records == 1 ? "" : "s");
}

static void
emit_origin_members(struct emit *e, struct model *m, const struct model_origin *o,
		    const char *label, const struct model_reach *reach)
{
	size_t k;

	note_headline(e, o, label);
	emit_kv_str(e, "source", model_table_name(o->source));
	emit_kv_uint(e, "index", o->index);
	emit_kv_str(e, "op_name", o->op_name ? o->op_name : "");
	emit_kv_str(e, "op_type", cmd_nz(o->op_type));
	emit_kv_uint(e, "output_slot", o->slot);
	emit_kv_str(e, "host", cmd_nz(o->host));
	emit_kv_index(e, "step", o->step);
	emit_counts(e, &o->summary);
	emit_inputs(e, o);
	emit_kv_str(e, "cause", o->cause);
	emit_key(e, "evidence");
	emit_list_begin(e);
	for (k = 0; k < o->nevidence; k++)
		emit_str(e, o->evidence[k]);
	emit_list_end(e);
	for (k = 0; k < o->nevidence; k++)
		emit_text_kv(e, "evidence", "%s", o->evidence[k]);
	emit_key(e, "path");
	emit_list_begin(e);
	for (k = 0; k < o->npath; k++)
		emit_uint(e, o->path[k]);
	emit_list_end(e);
	text_path(e, m, o->path, o->npath);
	emit_reach(e, reach);
}

/* An origin as the value of key (an object: a block of text; a row of a
 * table when key is NULL). */
static void
emit_origin(struct emit *e, struct model *m, const char *key, const struct model_origin *o,
	    const struct model_reach *reach)
{
	if (key)
		emit_key(e, key);
	emit_object_begin(e, origin_fields);
	emit_origin_members(e, m, o, "Origin", reach);
	emit_object_end(e);
}

/* Origin k of list l (explained now, freed after) as emit_origin does. */
static void
emit_listed(struct emit *e, struct model *m, const char *key, struct model_origin_list *l,
	    size_t k, const struct model_reach *reach)
{
	struct model_origin o;

	model_origin_list_get(l, k, &o);
	emit_origin(e, m, key, &o, reach);
	model_origin_done(&o);
}

/* ---- origins ---------------------------------------------------------------- */

struct host_first {
	const char *host;
	size_t first;               /* index into the origins (sorted: first in time) */
	size_t count;
};

/* One entry per host, in order of their first origin. */
static size_t
by_host(const struct model_origin_list *l, struct host_first **out)
{
	size_t n = model_origin_list_count(l);
	struct host_first *h = xcalloc(n + 1, sizeof(*h));
	size_t nh = 0, i, k;

	for (i = 0; i < n; i++) {
		enum model_table source;
		uint64_t index;
		const char *name = "";

		model_origin_list_at(l, i, &source, &index, &name);
		name = name ? name : "";

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

/* The origins after the first, one line each. */
static const struct emit_field item_cols[] = {
	{ "source", NULL, 9, 0 },
	{ "index", "row", -7, 0 },
	{ "op_name", NULL, 40, EMIT_TAIL },
	{ "output_slot", "slot", -4, 0 },
	{ "step", NULL, -5, 0 },
	{ "cause", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* One row per host: where its first origin is. */
static const struct emit_field host_cols[] = {
	{ "host", "host/rank", 20, 0 },
	{ "step", "first step", -10, 0 },
	{ "index", "row", -8, 0 },
	{ "op_name", "origin op", 44, EMIT_TAIL },
	{ "op_type", NULL, 18, 0 },
	{ "origins", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static void
emit_hosts(struct emit *e, struct model_origin_list *l, const struct host_first *h, size_t nh)
{
	struct model_origin oo;
	size_t k;

	emit_key(e, "hosts");
	emit_table_begin(e, host_cols);
	for (k = 0; k < nh; k++) {
		const struct model_origin *o = &oo;

		model_origin_list_get(l, h[k].first, &oo);
		emit_object_begin(e, NULL);
		emit_kv_str(e, "host", cmd_nz(h[k].host));
		emit_kv_index(e, "step", o->step);
		emit_kv_uint(e, "index", o->index);
		emit_kv_str(e, "op_name", o->op_name ? o->op_name : "");
		emit_kv_str(e, "op_type", cmd_nz(o->op_type));
		emit_kv_uint(e, "origins", h[k].count);
		emit_object_end(e);
		model_origin_done(&oo);
	}
	emit_table_end(e);
}

/* {"total", "first", "items"[, "hosts"]}: text shows the count, the first
 * origin in full and the others one line each (at most TEXT_MAX_OTHERS
 * of them, every one with all); with --by-host only the hosts. */
static void
emit_origins(struct cmd_env *env, struct model_origin_list *l,
	     const struct model_origins_query *q, const struct host_first *h, size_t nh,
	     bool hosts_flag, bool all)
{
	size_t n = model_origin_list_count(l);
	struct emit_field root[] = {
		{ "total", NULL, 0, EMIT_HIDE },
		{ "partial", NULL, 0, EMIT_HIDE },
		{ "partial_row", NULL, 0, EMIT_HIDE },
		{ "first", "", 0, n && !hosts_flag ? 0 : EMIT_HIDE },
		{ "items", "Other origins:", 0, n > 1 && !hosts_flag ? 0 : EMIT_HIDE },
		{ "hosts", "", 0, 0 },
		{ NULL, NULL, 0, 0 },
	};
	size_t i, limit = env->json || all ? n : TEXT_MAX_OTHERS + 1;
	struct emit e;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, root);
	emit_kv_uint(&e, "total", n);
	emit_kv_bool(&e, "partial", q->partial);
	if (q->partial)
		emit_kv_uint(&e, "partial_row", q->partial_row);
	else
		emit_kv_null(&e, "partial_row");
	if (q->partial)
		emit_note(&e, "partial: the work budget ran out at row %llu; the origins "
			  "below are those of the rows before it",
			  (unsigned long long)q->partial_row);
	emit_note(&e, n ? "%zu origin%s of NaN/Inf" : "no NaN/Inf: no origin", n,
			  n == 1 ? "" : "s");
	if (n)
		emit_listed(&e, env->m, "first", l, 0, q->reach);
	else
		emit_kv_null(&e, "first");
	emit_key(&e, "items");
	emit_table_begin(&e, item_cols);
	for (i = 0; i < n && i < limit; i++) {
		if (i || env->json)     /* text: the first is shown above */
			emit_listed(&e, env->m, NULL, l, i, q->reach ? &q->reach[i] : NULL);
		cmd_maybe_flush(env);
	}
	if (i < n)
		emit_note(&e, "... %zu more (origins --all, --step S, or --json)", n - i);
	emit_table_end(&e);
	if (hosts_flag)
		emit_hosts(&e, l, h, nh);
	emit_object_end(&e);
	emit_done(&e);
}

enum td_status
cmd_origins(struct cmd_env *env, int argc, char **argv)
{
	const char *step_arg = NULL, *host = NULL;
	bool hosts_flag = false, all = false;
	struct cmd_opt opts[] = {
		{ "step", &step_arg, NULL }, { "host", &host, NULL }, { "by-host", NULL, &hosts_flag },
		{ "all", NULL, &all }, { NULL, NULL, NULL },
	};
	struct model_origins_query q = { .step = -1, .want_reach = true };
	struct model_origin_list *l;
	struct host_first *h = NULL;
	enum model_table source;
	uint64_t index;
	const char *first_host;
	char *pos[1];
	int npos = 0;
	size_t nh = 0;
	enum td_status st;

	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 0)) != TD_OK)
		return st;
	if (step_arg && (!cmd_parse_i64(step_arg, &q.step) || q.step < 0))
		return cmd_fail(env, TD_ERR_ARGS, "--step wants a step number, got '%s'", step_arg);
	if (host && (st = cmd_host_arg(env, host, &host)) != TD_OK)
		return st;
	q.host = host ? host : env->host;
	/* the origins kept compact; each explained as it is written */
	l = model_origins_list(env->m, &q);
	if (hosts_flag)
		nh = by_host(l, &h);
	/* --all lists them (every one, text too) and leaves the screen be */
	if (env->ui && env->ui->jump && !all && model_origin_list_at(l, 0, &source, &index, &first_host))
		env->ui->jump(env->ui->ctx, source, index);
	emit_origins(env, l, &q, h, nh, hosts_flag, all);
	free(h);
	free(q.reach);
	model_origin_list_free(l);
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
	struct emit e;
	size_t k;

	if (argc < 2 && env->ui && env->ui->current_trace &&
	    (cur = env->ui->current_trace(env->ui->ctx)) >= 0)
		row = (uint64_t)cur;
	else if ((st = cmd_trace_arg(env, argc > 1 ? argv[1] : NULL, &row)) != TD_OK)
		return st;
	if ((st = model_why(env->m, row, &o)) != TD_OK)
		return cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, origin_fields);
	emit_kv_str(&e, "role", role_names[o.role]);
	emit_note(&e, "row %llu is %s%s", (unsigned long long)row,
		  o.role == ORIGIN_ORIGIN ? "an " :
		  o.role == ORIGIN_FINITE || o.role == ORIGIN_CARRIED ? "" : "a ",
		  o.role == ORIGIN_FINITE ? "finite (no NaN/Inf)" : role_names[o.role]);
	emit_origin_members(&e, env->m, &o, o.role == ORIGIN_ORIGIN ? "Origin" : "Row", NULL);
	emit_kv_index(&e, "origin", o.origin);
	emit_key(&e, "from");
	emit_list_begin(&e);
	for (k = 0; k < o.nfrom; k++)
		emit_int(&e, o.from[k]);
	emit_list_end(&e);
	if (o.role == ORIGIN_CARRIED)
		emit_kv_str(&e, "link", model_carry_link_name((enum model_carry_link)o.link));
	else
		emit_kv_null(&e, "link");
	emit_kv_index(&e, "via", o.via);
	emit_object_end(&e);
	emit_done(&e);
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

/* {"nonfinite", "known", "alerts", "first"[, "watches"]}: text says it in
 * a sentence, then the first origin in full. */
enum td_status
cmd_check(struct cmd_env *env, bool watches, bool *bad, bool *cannot_tell)
{
	struct model_origins_query q = { .step = -1, .per_host = 1 };
	uint64_t alerts = model_alert_count(env->m);
	struct model_origin_list *l = alerts ? model_origins_list(env->m, &q) : NULL;
	size_t n = model_origin_list_count(l);
	bool known = alerts > 0 || can_tell(env->m);
	uint64_t hits = 0, unknown = 0;
	struct emit_field root[] = {
		{ "nonfinite", NULL, 0, EMIT_HIDE },
		{ "known", NULL, 0, EMIT_HIDE },
		{ "alerts", NULL, 0, EMIT_HIDE },
		{ "first", "", 0, n ? 0 : EMIT_HIDE },
		{ "watches", NULL, 0, EMIT_HIDE },
		{ NULL, NULL, 0, 0 },
	};
	struct emit e;

	if (watches)
		hits = cmd_watch_hits(env->m, &unknown);
	*bad = alerts > 0 || hits > 0;
	*cannot_tell = !known;
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, root);
	emit_kv_bool(&e, "nonfinite", alerts > 0);
	emit_kv_bool(&e, "known", known);
	emit_kv_uint(&e, "alerts", alerts);
	if (!known)
		emit_note(&e, "no NaN/Inf found, but the dump's rows do not record NaN/Inf "
			  "(a mode without counts): unknown");
	else if (!alerts)
		emit_note(&e, "no NaN/Inf");
	else
		emit_note(&e, "NaN/Inf: %llu alert%s", (unsigned long long)alerts,
			  alerts == 1 ? "" : "s");
	if (n)
		emit_listed(&e, env->m, "first", l, 0, NULL);
	else
		emit_kv_null(&e, "first");
	if (watches) {
		emit_key(&e, "watches");
		emit_object_begin(&e, NULL);
		emit_kv_uint(&e, "hits", hits);
		emit_kv_uint(&e, "unknown", unknown);
		emit_object_end(&e);
		emit_note(&e, "watches: %llu hit%s, %llu row%s unknown%s", (unsigned long long)hits,
			  hits == 1 ? "" : "s", (unsigned long long)unknown, unknown == 1 ? "" : "s",
			  hits ? " (watches check lists them)" : "");
	}
	emit_object_end(&e);
	emit_done(&e);
	free(q.reach);
	model_origin_list_free(l);
	return TD_OK;
}
