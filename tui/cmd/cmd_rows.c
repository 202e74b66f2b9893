/*
 * cmd_rows.c - row listings: "traces" and "executions" with regex filters
 * and a python-like slice over the matching rows.
 *
 * "traces 80:90" lists rows 80..89 when no filter is given; with a filter,
 * A:B counts matches ("traces 0:5 --nonfinite" = the first five bad rows).
 * A single number "traces 7" is the slice 7:8.  Negative ends count from
 * the end.  Without A:B, batch mode lists every match; the TUI prompt at
 * most TUI_PAGE of them.  --where EXPR keeps the rows a condition holds
 * for (model_expr.h); rows it cannot decide are counted as "unknown".
 * traces --sort FIELD lists the matches in that order (rowsort.h); A:B
 * then slices the sorted list ("--sort -nonfinite 0:10": the ten worst).
 */
#include "cmd_internal.h"
#include "rowsort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUI_PAGE 1000

struct listing {
	enum model_table table;
	const char *range, *op, *type, *graph, *host, *execution, *where, *sort;
	bool nonfinite;
	uint64_t *sorted;                   /* --sort: the matching rows in order (owned) */
	struct model_filter *filter;        /* NULL: every row */
	uint64_t total, matched, unknown;
};

static enum td_status
listing_parse(struct cmd_env *env, int argc, char **argv, struct listing *l)
{
	struct cmd_opt opts[] = {
		{ "op", &l->op, NULL }, { "type", &l->type, NULL }, { "graph", &l->graph, NULL },
		{ "host", &l->host, NULL }, { "nonfinite", NULL, &l->nonfinite },
		{ "execution", &l->execution, NULL }, { "where", &l->where, NULL },
		{ "sort", &l->sort, NULL }, { NULL, NULL, NULL },
	};
	char *pos[1];
	int npos;
	enum td_status st;

	if (l->table == TABLE_EXECUTIONS) {
		opts[5] = opts[6];      /* executions have no --execution, no --sort */
		opts[6].name = NULL;
	}
	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 1)) != TD_OK)
		return st;
	l->range = npos ? pos[0] : NULL;
	if (!l->host)
		l->host = env->host;
	return TD_OK;
}

static enum td_status
listing_filter(struct cmd_env *env, struct listing *l)
{
	struct model_filter_spec spec = { .graph = -1, .execution = -1 };
	char err[512];
	int64_t e;
	enum td_status st;

	if (!l->op && !l->type && !l->graph && !l->host && !l->execution && !l->nonfinite &&
	    !l->where)
		return TD_OK;
	if (l->where && !*l->where)
		return cmd_fail(env, TD_ERR_ARGS, "--where wants a condition, e.g. 'nan > 0'");
	spec.where = l->where;
	spec.op_regex = l->op;
	spec.type_regex = l->type;
	spec.nonfinite = l->nonfinite;
	if (l->host && l->host != env->host && (st = cmd_host_arg(env, l->host, &l->host)) != TD_OK)
		return st;
	spec.host = l->host;
	if (l->graph && (spec.graph = model_graph_find(env->m, l->graph)) < 0)
		return cmd_fail(env, TD_ERR_NOTFOUND, "no graph \"%s\" (see graphs)", l->graph);
	if (l->execution) {
		if (!cmd_parse_i64(l->execution, &e) || e < 0)
			return cmd_fail(env, TD_ERR_ARGS, "--execution wants a row number");
		if (model_trace_count(env->m) && !model_traces_name_executions(env->m))
			return cmd_fail(env, TD_ERR_ARGS, "this dump does not link traces to "
					"executions; use --graph (see graphs)");
		spec.execution = e;
	}
	st = model_filter_new(env->m, &spec, &l->filter, err, sizeof err);
	if (st != TD_OK)
		return cmd_fail(env, st, "%s", err);
	return TD_OK;
}

/* Row number of the k-th match; `prev` (the previous match, or -1) makes
 * consecutive walks cheap. */
static int64_t
listing_row(struct cmd_env *env, const struct listing *l, uint64_t k, int64_t prev, uint64_t step)
{
	if (l->sorted)
		return k < l->matched ? (int64_t)l->sorted[k] : -1;
	if (!l->filter)
		return (int64_t)k;
	if (prev >= 0 && step == 1)
		return model_filter_next(env->m, l->filter, l->table, (uint64_t)prev + 1, 1);
	return model_filter_nth(env->m, l->filter, l->table, k);
}

static void
trace_json(struct cmd_env *env, struct json *j, uint64_t row)
{
	struct model_trace t;

	json_object_begin(j);
	json_kv_uint(j, "index", row);
	if (model_trace_get(env->m, row, &t) != TD_OK) {
		json_kv_bool(j, "corrupt", true);
		json_object_end(j);
		return;
	}
	json_kv_string(j, "op_name", t.op_name);
	json_kv_string(j, "op_type", cmd_nz(t.op_type));
	json_kv_uint(j, "output_slot", t.slot);
	json_kv_string(j, "graph_id", cmd_nz(t.graph_id));
	json_kv_string(j, "host", cmd_nz(t.host));
	json_key(j, "execution");
	if (t.execution >= 0)
		json_int(j, t.execution);
	else
		json_null(j);
	json_kv_bool(j, "nonfinite", t.flags & ROW_NONFINITE);
	json_kv_bool(j, "is_input", t.flags & ROW_INPUT);
	if (t.debug_op)
		json_kv_string(j, "debug_op", t.debug_op);
	if (t.flags & ROW_CORRUPT)
		json_kv_bool(j, "corrupt", true);
	json_key(j, "summary");
	cmd_json_summary(j, &t.summary);
	json_kv_string(j, "role", cmd_nz(model_role_name(t.role)));
	json_object_end(j);
}

static void
trace_text(struct cmd_env *env, uint64_t row)
{
	struct model_trace t;

	if (model_trace_get(env->m, row, &t) != TD_OK) {
		strbuf_addf(env->out, "%8llu  (cannot be read)\n", (unsigned long long)row);
		return;
	}
	strbuf_addf(env->out, "%8llu %c ", (unsigned long long)row,
		    (t.flags & ROW_NONFINITE) ? '!' : (t.flags & ROW_CORRUPT) ? '?' : ' ');
	cmd_cell_name(env->out, t.op_name, 40);
	strbuf_addc(env->out, ' ');
	cmd_cell(env->out, t.op_type, 18);
	if (t.debug_op) {
		strbuf_addc(env->out, ' ');
		cmd_cell(env->out, t.debug_op, 19);
	}
	strbuf_addf(env->out, " %-3s %4u  ", (t.flags & ROW_INPUT) ? "in" : "out", t.slot);
	cmd_text_summary(env->out, &t.summary);
	strbuf_addc(env->out, '\n');
}

static void
execution_json(struct cmd_env *env, struct json *j, uint64_t row)
{
	struct model_execution e;

	json_object_begin(j);
	json_kv_uint(j, "index", row);
	if (model_execution_get(env->m, row, &e) != TD_OK) {
		json_kv_bool(j, "corrupt", true);
		json_object_end(j);
		return;
	}
	json_kv_string(j, "op_type", e.op_type);
	json_kv_string(j, "graph_id", cmd_graph_id(env, e.graph));
	json_kv_string(j, "host", cmd_nz(e.host));
	json_kv_uint(j, "num_outputs", e.num_outputs);
	json_kv_uint(j, "bad_outputs", e.bad_outputs);
	json_kv_bool(j, "nonfinite", e.flags & (ROW_NONFINITE | ROW_CONTAINS_NONFINITE));
	json_kv_bool(j, "function", e.flags & ROW_FUNCTION);
	json_kv_double(j, "wall_time", e.wall_time);
	json_kv_uint(j, "first_trace", e.first_trace);
	json_kv_uint(j, "traces", e.ntraces);
	if (e.flags & ROW_CORRUPT)
		json_kv_bool(j, "corrupt", true);
	json_object_end(j);
}

static void
execution_text(struct cmd_env *env, uint64_t row)
{
	struct model_execution e;

	if (model_execution_get(env->m, row, &e) != TD_OK) {
		strbuf_addf(env->out, "%8llu  (cannot be read)\n", (unsigned long long)row);
		return;
	}
	strbuf_addf(env->out, "%8llu %c ", (unsigned long long)row,
		    (e.flags & (ROW_NONFINITE | ROW_CONTAINS_NONFINITE)) ? '!' : ' ');
	cmd_cell(env->out, e.op_type, 40);
	strbuf_addf(env->out, " %3u outputs", e.num_outputs);
	if (e.bad_outputs)
		strbuf_addf(env->out, ", %u with NaN/Inf", e.bad_outputs);
	if (e.ntraces)
		strbuf_addf(env->out, "  traces %llu..%llu", (unsigned long long)e.first_trace,
			    (unsigned long long)(e.first_trace + e.ntraces - 1));
	strbuf_addc(env->out, '\n');
}

static void
listing_rows(struct cmd_env *env, struct listing *l, struct json *j, const struct cmd_range *r)
{
	int64_t row = -1;
	uint64_t k;

	for (k = r->start; k < r->stop; k += r->step) {
		row = listing_row(env, l, k, row, r->step);
		if (row < 0)
			break;
		if (l->table == TABLE_TRACES) {
			if (j)
				trace_json(env, j, (uint64_t)row);
			else
				trace_text(env, (uint64_t)row);
		} else if (j) {
			execution_json(env, j, (uint64_t)row);
		} else {
			execution_text(env, (uint64_t)row);
		}
		cmd_maybe_flush(env);
	}
}

static enum td_status
listing_print(struct cmd_env *env, struct listing *l)
{
	struct cmd_range r = { 0, l->matched, 1 };
	struct json j;

	if (l->range && !cmd_parse_range(l->range, l->matched, &r))
		return cmd_fail(env, TD_ERR_ARGS, "\"%s\" is not a slice A:B", l->range);
	if (!l->range && env->ui && r.stop > TUI_PAGE)
		r.stop = TUI_PAGE;
	if (!env->json) {
		uint64_t shown = r.stop > r.start ? (r.stop - r.start + r.step - 1) / r.step : 0;
		if (l->matched < l->total)      /* "6 of 12 rows shown (12 of 680 match)" */
			strbuf_addf(env->out, "%llu of %llu rows shown (%llu of %llu match)",
				    (unsigned long long)shown, (unsigned long long)l->matched,
				    (unsigned long long)l->matched, (unsigned long long)l->total);
		else
			strbuf_addf(env->out, "%llu of %llu rows shown", (unsigned long long)shown,
				    (unsigned long long)l->total);
		if (l->sort)
			strbuf_addf(env->out, ", sorted by %s", l->sort);
		if (l->where)
			strbuf_addf(env->out, ", %llu unknown", (unsigned long long)l->unknown);
		strbuf_addc(env->out, '\n');
		listing_rows(env, l, NULL, &r);
		if (!l->range && r.stop < l->matched)
			strbuf_addf(env->out, "... %llu more (give A:B)\n",
				    (unsigned long long)(l->matched - r.stop));
		return TD_OK;
	}
	json_init(&j, env->out);
	json_object_begin(&j);
	json_kv_uint(&j, "total", l->total);
	json_kv_uint(&j, "matched", l->matched);
	if (l->sort)
		json_kv_string(&j, "sort", l->sort);
	if (l->where)
		json_kv_uint(&j, "unknown", l->unknown);
	json_key(&j, "rows");
	json_array_begin(&j);
	listing_rows(env, l, &j, &r);
	json_array_end(&j);
	json_object_end(&j);
	return TD_OK;
}

/* --sort FIELD: the matching rows, sorted (rowsort.h). */
static enum td_status
listing_sort(struct cmd_env *env, struct listing *l)
{
	enum rowsort_field f;
	bool desc;
	int64_t row = -1;
	enum td_status st;

	if (!rowsort_parse(l->sort, &f, &desc))
		return cmd_fail(env, TD_ERR_ARGS, "--sort %s: sort by %s (-FIELD: descending)", l->sort,
				rowsort_names());
	l->sorted = malloc((size_t)l->matched * sizeof *l->sorted + 1);
	if (!l->sorted)
		return cmd_fail(env, TD_ERR_NOMEM, "--sort: %llu rows do not fit in memory",
				(unsigned long long)l->matched);
	for (uint64_t k = 0; k < l->matched; k++) {
		row = l->filter ? model_filter_next(env->m, l->filter, l->table, (uint64_t)(row + 1), 1)
				: (int64_t)k;
		l->sorted[k] = (uint64_t)row;
	}
	if ((st = rowsort_traces(env->m, l->sorted, (size_t)l->matched, f, desc)) != TD_OK)
		return cmd_fail(env, st, "--sort: out of memory");
	return TD_OK;
}

static enum td_status
listing_run(struct cmd_env *env, int argc, char **argv, enum model_table table)
{
	struct listing l = { .table = table };
	enum td_status st;

	if ((st = listing_parse(env, argc, argv, &l)) != TD_OK)
		return st;
	if ((st = listing_filter(env, &l)) != TD_OK)
		return st;
	l.total = table == TABLE_TRACES ? model_trace_count(env->m) : model_execution_count(env->m);
	l.matched = l.filter ? model_filter_count(env->m, l.filter, table) : l.total;
	if (l.filter && l.where)
		l.unknown = model_filter_unknown(env->m, l.filter, table);
	if (l.sort && (st = listing_sort(env, &l)) != TD_OK) {
		model_filter_free(l.filter);
		return st;
	}
	st = listing_print(env, &l);
	model_filter_free(l.filter);
	free(l.sorted);
	return st;
}

enum td_status
cmd_traces(struct cmd_env *env, int argc, char **argv)
{
	return listing_run(env, argc, argv, TABLE_TRACES);
}

enum td_status
cmd_executions(struct cmd_env *env, int argc, char **argv)
{
	return listing_run(env, argc, argv, TABLE_EXECUTIONS);
}
