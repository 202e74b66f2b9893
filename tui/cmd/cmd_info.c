/*
 * cmd_info.c - dump-level commands: info, alerts, first-nonfinite,
 * problems, graphs.  Their JSON shapes are documented in README.md
 * (section Commands) and checked by the batch e2e tests (tests/e2e/batch_*.sh).
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- info --------------------------------------------------------------- */

/* Fields info prints itself; a reader meta key of the same name is not
 * repeated. */
static const char *const info_fields[] = {
	"format", "path", "hosts", "host", "tensor_debug_mode", "executions",
	"graph_execution_traces", "ops", "graphs", "devices", "source_files",
	"stack_frames", "alerts", "corrupt_records", "torn_files", "missing_files",
	"problems", "index_cache", "index_cache_why", "index_cache_path", "index_cache_bytes",
};

static bool
is_info_field(const char *key)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(info_fields); i++)
		if (strcmp(info_fields[i], key) == 0)
			return true;
	return false;
}

/* Meta values are decimal text for numbers: an integer becomes a number. */
static void
emit_meta_value(struct emit *e, const char *v)
{
	int64_t n;

	if (v && cmd_parse_i64(v, &n) && !(v[0] == '0' && v[1]) && !(v[0] == '-' && v[1] == '0'))
		emit_int(e, n);
	else
		emit_str(e, v);
}

static void
emit_meta(struct emit *e, const struct model_meta *mm)
{
	size_t i;

	emit_key(e, mm->key);
	if (!mm->list) {
		emit_meta_value(e, mm->nvalues ? mm->values[mm->nvalues - 1] : NULL);
		return;
	}
	emit_list_begin(e);
	for (i = 0; i < mm->nvalues; i++)
		emit_meta_value(e, mm->values[i]);
	emit_list_end(e);
}

struct type_count;
static size_t alert_types(struct cmd_env *env, struct type_count **tc, uint64_t *total);

/* After "rank N": the executions, traces and alerts of that host only. */
static bool
host_counts(struct cmd_env *env, struct model_info *in)
{
	struct model_filter_spec spec = { .graph = -1, .execution = -1, .host = env->host };
	struct model_filter *f;
	struct type_count *tc = NULL;
	char err[256];

	if (model_filter_new(env->m, &spec, &f, err, sizeof err) != TD_OK)
		return false;
	in->executions = model_filter_count(env->m, f, TABLE_EXECUTIONS);
	in->traces = model_filter_count(env->m, f, TABLE_TRACES);
	model_filter_free(f);
	alert_types(env, &tc, &in->alerts);
	free(tc);
	return true;
}

enum td_status
cmd_info(struct cmd_env *env, int argc, char **argv)
{
	struct model_info in;
	struct emit e;
	size_t i;

	(void)argc;
	(void)argv;
	struct model_info hc;
	/* before model_info: its pointers last until the next call */
	bool counted = env->host && host_counts(env, &hc);
	model_info(env->m, &in);
	if (counted) {
		in.executions = hc.executions;
		in.traces = hc.traces;
		in.alerts = hc.alerts;
	}
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, NULL);
	emit_label_width(&e, 25);           /* the layout scripts cut on */
	emit_kv_str(&e, "format", in.format);
	emit_kv_str(&e, "path", in.path);
	emit_key(&e, "hosts");
	emit_list_begin(&e);
	for (i = 0; i < in.nhosts; i++)
		emit_str(&e, in.hosts[i]);
	emit_list_end(&e);
	emit_kv_str(&e, "tensor_debug_mode", in.tensor_debug_mode);
	emit_kv_uint(&e, "executions", in.executions);
	emit_kv_uint(&e, "graph_execution_traces", in.traces);
	emit_kv_uint(&e, "ops", in.ops);
	emit_kv_uint(&e, "graphs", in.graphs);
	emit_kv_uint(&e, "devices", in.devices);
	emit_kv_uint(&e, "source_files", in.source_files);
	emit_kv_uint(&e, "stack_frames", in.stack_frames);
	emit_kv_uint(&e, "alerts", in.alerts);
	emit_kv_uint(&e, "corrupt_records", in.corrupt_records);
	emit_kv_uint(&e, "torn_files", in.torn_files);
	emit_kv_uint(&e, "missing_files", in.missing_files);
	emit_kv_str(&e, "index_cache", in.index_cache);
	if (in.index_cache_why && *in.index_cache_why)
		emit_kv_str(&e, "index_cache_why", in.index_cache_why);
	emit_kv_str(&e, "index_cache_path", in.index_cache_path);
	if (in.index_cache_bytes >= 0)
		emit_kv_int(&e, "index_cache_bytes", in.index_cache_bytes);
	else
		emit_kv_null(&e, "index_cache_bytes");
	for (i = 0; i < in.nmeta; i++)
		if (!is_info_field(in.meta[i].key))
			emit_meta(&e, &in.meta[i]);
	if (env->host)
		emit_kv_str(&e, "restricted_to_host", env->host);
	emit_object_end(&e);
	emit_done(&e);
	return TD_OK;
}

/* ---- alerts -------------------------------------------------------------- */

/* The host a trace/execution row came from, "" unknown. */
static const char *
row_host(struct cmd_env *env, enum model_table kind, uint64_t index)
{
	struct model_trace t;
	struct model_execution e;

	if (kind == TABLE_TRACES)
		return model_trace_get(env->m, index, &t) == TD_OK && t.host ? t.host : "";
	return model_execution_get(env->m, index, &e) == TD_OK && e.host ? e.host : "";
}

static bool
alert_visible(struct cmd_env *env, const struct model_alert *a)
{
	return !env->host || strcmp(row_host(env, a->source, a->index), env->host) == 0;
}

/* Counts per op type (first appearance order), over the visible alerts. */
struct type_count {
	const char *type;
	uint64_t n;
};

static void
count_type(struct type_count **tc, size_t *n, size_t *cap, const char *type, uint64_t add)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*tc)[i].type, type) == 0) {
			(*tc)[i].n += add;
			return;
		}
	TD_GROW(*tc, *cap, *n + 1);
	(*tc)[*n].type = type;
	(*tc)[(*n)++].n = add;
}

static size_t
alert_types(struct cmd_env *env, struct type_count **tc, uint64_t *total)
{
	size_t n = 0, cap = 0, ng, i;
	struct model_alert_group *g;
	struct model_alert a;
	uint64_t k, na = model_alert_count(env->m);

	*tc = NULL;
	*total = 0;
	if (!env->host) {
		ng = model_alert_groups(env->m, NULL, 0);
		g = xcalloc(ng ? ng : 1, sizeof(*g));
		ng = TD_MIN(ng, model_alert_groups(env->m, g, ng));
		for (i = 0; i < ng; i++) {
			count_type(tc, &n, &cap, g[i].op_type ? g[i].op_type : "", g[i].count);
			*total += g[i].count;
		}
		free(g);
		return n;
	}
	for (k = 0; k < na; k++)
		if (model_alert_get(env->m, k, &a) == TD_OK && alert_visible(env, &a)) {
			count_type(tc, &n, &cap, a.op_type ? a.op_type : "", 1);
			(*total)++;
		}
	return n;
}

static void
alert_item(struct emit *e, const struct model_alert *a)
{
	struct strbuf *o;

	emit_object_begin(e, NULL);
	emit_kv_str(e, "kind", a->kind);
	emit_kv_str(e, "source", model_table_name(a->source));
	emit_kv_uint(e, "index", a->index);
	emit_kv_uint(e, "output_slot", a->slot);
	emit_kv_bool(e, "is_input", a->is_input);
	emit_kv_str(e, "op_type", a->op_type);
	emit_kv_str(e, "op_name", a->op_name);
	emit_counts(e, &a->summary);
	if (a->detail)
		emit_kv_str(e, "detail", a->detail);
	emit_object_end(e);
	if (!(o = emit_text(e)))
		return;
	strbuf_addf(o, "  %-9s %8llu  %-8s %s%s:%u (%s) ",
		    model_table_name(a->source),
		    (unsigned long long)a->index, cmd_txt(a->kind), a->is_input ? "input " : "",
		    cmd_txt(a->op_name), a->slot, cmd_txt(a->op_type));
	cmd_text_summary(o, &a->summary);
	if (a->detail)
		strbuf_addf(o, "  %s", cmd_safe(a->detail));
	strbuf_addc(o, '\n');
}

static void
alerts_items(struct cmd_env *env, struct emit *e, uint64_t limit, uint64_t *shown)
{
	uint64_t k, na = model_alert_count(env->m);
	struct model_alert a;

	*shown = 0;
	for (k = 0; k < na && *shown < limit; k++) {
		if (model_alert_get(env->m, k, &a) != TD_OK || !alert_visible(env, &a))
			continue;
		alert_item(e, &a);
		(*shown)++;
		cmd_maybe_flush(env);
	}
}

enum td_status
cmd_alerts(struct cmd_env *env, int argc, char **argv)
{
	const char *limit_text = NULL;
	const struct cmd_opt opts[] = { { "limit", &limit_text, NULL }, { NULL, NULL, NULL } };
	uint64_t limit = env->json ? UINT64_MAX : 50, total, shown;
	struct type_count *tc;
	struct emit e;
	size_t i, n;
	int npos;
	enum td_status st;

	if ((st = cmd_parse_opts(env, argc, argv, opts, NULL, &npos, 0)) != TD_OK)
		return st;
	if (limit_text && !cmd_parse_u64(limit_text, &limit))
		return cmd_fail(env, TD_ERR_ARGS, "--limit wants a number, not \"%s\"", limit_text);
	n = alert_types(env, &tc, &total);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_uint(&e, "total", total);
	emit_textf(&e, "%llu alerts\n", (unsigned long long)total);
	emit_key(&e, "by_op_type");
	emit_object_begin(&e, NULL);
	for (i = 0; i < n; i++) {
		emit_kv_uint(&e, tc[i].type, tc[i].n);
		emit_textf(&e, "  %-24s %llu\n", cmd_txt(tc[i].type), (unsigned long long)tc[i].n);
	}
	emit_object_end(&e);
	emit_key(&e, "items");
	emit_table_begin(&e, NULL);
	alerts_items(env, &e, limit, &shown);
	emit_table_end(&e);
	if (shown < total)
		emit_textf(&e, "  ... %llu more (alerts --limit N)\n", (unsigned long long)(total - shown));
	emit_object_end(&e);
	emit_done(&e);
	free(tc);
	return TD_OK;
}

/* ---- first-nonfinite ------------------------------------------------------ */

/* With a host restriction the first non-finite trace row of that host;
 * else the model's answer (execution order over all hosts). */
static bool
first_nonfinite(struct cmd_env *env, struct model_alert *a)
{
	struct model_filter_spec spec = { .nonfinite = true, .graph = -1, .execution = -1 };
	struct model_filter *f;
	struct model_trace t;
	char err[256];
	int64_t row;

	if (!env->host)
		return model_first_nonfinite(env->m, a);
	spec.host = env->host;
	if (model_filter_new(env->m, &spec, &f, err, sizeof err) != TD_OK)
		return false;
	row = model_filter_nth(env->m, f, TABLE_TRACES, 0);
	/* a row repeating a tensor another row holds is not its alert */
	while (row >= 0 && model_trace_get(env->m, (uint64_t)row, &t) == TD_OK &&
	       (t.flags & ROW_REPEAT))
		row = model_filter_next(env->m, f, TABLE_TRACES, (uint64_t)row + 1, 1);
	model_filter_free(f);
	if (row < 0 || model_trace_get(env->m, (uint64_t)row, &t) != TD_OK)
		return false;
	memset(a, 0, sizeof(*a));
	a->kind = "InfNan";
	a->source = TABLE_TRACES;
	a->index = (uint64_t)row;
	a->slot = t.slot;
	a->op_type = t.op_type;
	a->op_name = t.op_name;
	a->summary = t.summary;
	a->is_input = (t.flags & ROW_INPUT) != 0;
	return true;
}

/* Alerts of other kinds than NaN/Inf (overflow): a first-nonfinite that
 * finds nothing must not read as "all clear" when there are some. */
static uint64_t
alerts_not_infnan(struct cmd_env *env)
{
	struct model_alert_group *g;
	size_t ng = model_alert_groups(env->m, NULL, 0), i;
	uint64_t n = 0;

	g = xcalloc(ng ? ng : 1, sizeof(*g));
	ng = TD_MIN(ng, model_alert_groups(env->m, g, ng));
	for (i = 0; i < ng; i++)
		if (strcmp(g[i].kind, "InfNan") != 0)
			n += g[i].count;
	free(g);
	return n;
}

/* Their kinds, "Overflow" or "Overflow, X" (static buffer). */
static const char *
alert_kinds_not_infnan(struct cmd_env *env)
{
	static char buf[256];
	struct model_alert_group *g;
	size_t ng = model_alert_groups(env->m, NULL, 0), i, k, used = 0;

	buf[0] = '\0';
	g = xcalloc(ng ? ng : 1, sizeof(*g));
	ng = TD_MIN(ng, model_alert_groups(env->m, g, ng));
	for (i = 0; i < ng; i++) {
		if (strcmp(g[i].kind, "InfNan") == 0)
			continue;
		for (k = 0; k < i && strcmp(g[k].kind, g[i].kind) != 0; k++)
			;
		if (k < i || used >= sizeof buf)
			continue;
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", used ? ", " : "",
					 g[i].kind);
	}
	free(g);
	return buf;
}

enum td_status
cmd_first_nonfinite(struct cmd_env *env, int argc, char **argv)
{
	struct model_alert a;
	struct model_trace t;
	struct model_execution e;
	const char *graph = NULL, *host = NULL;
	struct strbuf *text;
	struct emit em;

	(void)argc;
	(void)argv;
	emit_init(&em, env->out, env->json);
	if (!first_nonfinite(env, &a)) {
		uint64_t other = alerts_not_infnan(env);

		emit_null(&em);
		if (other)
			emit_textf(&em, "no NaN or Inf found, but %llu %s alert%s (see alerts)\n",
				   (unsigned long long)other, alert_kinds_not_infnan(env),
				   other == 1 ? "" : "s");
		else
			emit_textf(&em, "no NaN or Inf found\n");
		emit_done(&em);
		return TD_OK;
	}
	const char *gname = NULL;       /* the graph's name, beside its id in text */
	struct model_graph mg;
	if (a.source == TABLE_TRACES && model_trace_get(env->m, a.index, &t) == TD_OK) {
		graph = cmd_nz(t.graph_id);
		gname = t.graph_name;
		host = cmd_nz(t.host);
	} else if (a.source == TABLE_EXECUTIONS && model_execution_get(env->m, a.index, &e) == TD_OK) {
		graph = cmd_graph_id(env, e.graph);
		if (e.graph >= 0 && model_graph_get(env->m, (uint32_t)e.graph, &mg))
			gname = mg.name;
		host = cmd_nz(e.host);
	}
	if (env->ui && env->ui->jump)
		env->ui->jump(env->ui->ctx, a.source, a.index);
	emit_object_begin(&em, emit_json_only);
	emit_kv_str(&em, "source", model_table_name(a.source));
	emit_kv_uint(&em, "index", a.index);
	emit_kv_str(&em, "op_name", a.op_name);
	emit_kv_str(&em, "op_type", a.op_type);
	emit_kv_uint(&em, "output_slot", a.slot);
	emit_kv_bool(&em, "is_input", a.is_input);
	emit_kv_str(&em, "graph_id", graph);
	emit_kv_str(&em, "host", host);
	emit_counts(&em, &a.summary);
	emit_kv_summary(&em, "summary", &a.summary);
	if ((text = emit_text(&em))) {
		bool named = gname && *gname && graph && strcmp(gname, graph);

		strbuf_addf(text, "%s %llu  %s%s:%u (%s)  graph ", model_table_name(a.source),
			    (unsigned long long)a.index, a.is_input ? "input " : "",
			    cmd_txt(a.op_name), a.slot, cmd_txt(a.op_type));
		if (named)              /* "graph loss (a2a7ae1f-...)" */
			strbuf_addf(text, "%s (%s)", cmd_txt(gname), cmd_txt(graph));
		else
			strbuf_adds(text, cmd_txt(graph));
		strbuf_addf(text, "%s%s\n  ", host ? "  host " : "", host ? cmd_safe(host) : "");
		cmd_text_summary(text, &a.summary);
		strbuf_addc(text, '\n');
	}
	emit_object_end(&em);
	emit_done(&em);
	return TD_OK;
}

/* ---- problems ----------------------------------------------------------------- */

enum td_status
cmd_problems(struct cmd_env *env, int argc, char **argv)
{
	size_t i, n = model_problem_count(env->m);
	struct model_problem p;
	struct model_info in;
	struct emit e;

	(void)argc;
	(void)argv;
	model_info(env->m, &in);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_uint(&e, "corrupt_records", in.corrupt_records);
	emit_kv_uint(&e, "torn_files", in.torn_files);
	emit_kv_uint(&e, "missing_files", in.missing_files);
	emit_textf(&e, "%llu corrupt records, %llu torn files, %llu missing files\n",
		   (unsigned long long)in.corrupt_records,
		   (unsigned long long)in.torn_files, (unsigned long long)in.missing_files);
	emit_key(&e, "items");
	emit_table_begin(&e, NULL);
	for (i = 0; i < n; i++) {
		if (!model_problem_get(env->m, i, &p))
			continue;
		emit_object_begin(&e, NULL);
		emit_kv_str(&e, "kind", p.kind);
		emit_kv_str(&e, "file", p.path);
		emit_kv_uint(&e, "offset", p.offset);
		emit_kv_index(&e, "record", p.record);
		emit_kv_str(&e, "what", p.what);
		emit_kv_str(&e, "detail", p.detail);
		emit_object_end(&e);
		emit_textf(&e, "  %-14s %s offset %llu record %lld: %s%s%s\n",
			   p.kind, cmd_txt(p.path), (unsigned long long)p.offset,
			   (long long)p.record, cmd_txt(p.what),
			   p.detail ? ": " : "", cmd_safe(p.detail));
	}
	emit_table_end(&e);
	emit_object_end(&e);
	emit_done(&e);
	return TD_OK;
}

/* ---- graphs ------------------------------------------------------------------- */

static const struct emit_field graph_cols[] = {
	{ "index", NULL, -5, 0 },
	{ "graph_id", NULL, 36, 0 },
	{ "name", NULL, 30, 0 },
	{ "outer", NULL, 36, 0 },
	{ "ops", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

enum td_status
cmd_graphs(struct cmd_env *env, int argc, char **argv)
{
	uint32_t i, n = model_graph_count(env->m);
	struct model_graph g;
	struct emit e;

	(void)argc;
	(void)argv;
	emit_init(&e, env->out, env->json);
	emit_table_begin(&e, graph_cols);
	for (i = 0; i < n; i++) {
		if (!model_graph_get(env->m, i, &g))
			continue;
		emit_object_begin(&e, NULL);
		emit_kv_uint(&e, "index", g.index);
		emit_kv_str(&e, "graph_id", g.graph_id);
		emit_kv_str(&e, "name", cmd_nz(g.name));
		emit_kv_str(&e, "outer", cmd_graph_id(env, g.outer));
		emit_kv_uint(&e, "ops", g.nops);
		emit_object_end(&e);
	}
	emit_table_end(&e);
	emit_done(&e);
	return TD_OK;
}
