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
 * A slice ending at B <= ROWSORT_TOP_MAX sorts only the first B (a heap,
 * rows fed a batch at a time), one starting at A with N - A below that
 * and B only the last N - A: memory bounded whatever the dump's size.
 * Both listings build their result once through the emitter (emit.h): a
 * count line, then the rows as a table.
 */
#include "cmd_internal.h"
#include "rowsort.h"
#include "summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TUI_PAGE 1000

struct listing {
	enum model_table table;
	const char *range, *op, *type, *graph, *host, *execution, *where, *sort;
	bool nonfinite;
	uint64_t *sorted;                   /* --sort: the matching rows in order (owned) */
	uint64_t nsorted;                   /* rows in sorted: all, or a slice's head or tail */
	uint64_t sorted_from;               /* the place in the order of sorted[0] */
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
	if (l->graph && (spec.graph = model_graph_find(env->m, l->graph)) < 0) {
		struct strbuf hint = { 0 };

		cmd_suggest_graph(env->m, l->graph, &hint);
		st = cmd_fail(env, TD_ERR_NOTFOUND, "no graph \"%s\" (see graphs)%s", l->graph,
			      hint.buf ? hint.buf : "");
		strbuf_done(&hint);
		return st;
	}
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
		return k >= l->sorted_from && k - l->sorted_from < l->nsorted ?
			(int64_t)l->sorted[k - l->sorted_from] : -1;
	if (!l->filter)
		return (int64_t)k;
	if (prev >= 0 && step == 1)
		return model_filter_next(env->m, l->filter, l->table, (uint64_t)prev + 1, 1);
	return model_filter_nth(env->m, l->filter, l->table, k);
}

/* Trace rows as text: the mark is '!' for NaN/Inf, '?' for a damaged row;
 * "i/o" says whether the row is an op's input or its output.
 * A dump whose rows name the debug op that wrote them (trace_cols_debug)
 * shows it after the op type. */
static const struct emit_field trace_cols[] = {
	{ "index", "row", -8, 0 },
	{ "mark", "", 1, 0 },
	{ "op_name", NULL, 40, EMIT_SCOPE },
	{ "op_type", NULL, 18, 0 },
	{ "io", "i/o", 3, 0 },
	{ "output_slot", "slot", -4, 0 },
	{ "summary", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct emit_field trace_cols_debug[] = {
	{ "index", "row", -8, 0 },
	{ "mark", "", 1, 0 },
	{ "op_name", NULL, 40, EMIT_SCOPE },
	{ "op_type", NULL, 18, 0 },
	{ "debug_op", NULL, 19, 0 },
	{ "io", "i/o", 3, 0 },
	{ "output_slot", "slot", -4, 0 },
	{ "summary", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* Execution rows as text: '!' marks NaN/Inf in an output or inside; the
 * trace rows an execution holds as "A..B". */
static const struct emit_field execution_cols[] = {
	{ "index", "row", -8, 0 },
	{ "mark", "", 1, 0 },
	{ "op_type", NULL, 40, 0 },
	{ "num_outputs", "outputs", -7, 0 },
	{ "bad_outputs", "nan/inf", -7, 0 },
	{ "trace_rows", "trace rows", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* A row that cannot be read: its index, and "corrupt" (text says so in
 * the column named col). */
static void
emit_unreadable(struct emit *e, const char *col)
{
	emit_text_kv(e, "mark", "?");
	emit_text_kv(e, col, "(cannot be read)");
	emit_kv_bool(e, "corrupt", true);
}

/* "from_values": the summary's keys tdbg computed from the row's values
 * because the dump's statistics lack them ([] none: the dump's own). */
static void
emit_from_values(struct emit *e, uint32_t bits)
{
	emit_key(e, "from_values");
	emit_list_begin(e);
	for (size_t k = 0; k < SUMMARY_NFIELDS; k++)
		if (summary_fields[k].bit & bits)
			emit_str(e, summary_fields[k].key);
	emit_list_end(e);
}

static void
emit_trace(struct cmd_env *env, struct emit *e, uint64_t row)
{
	struct model_trace t;

	emit_object_begin(e, NULL);
	emit_kv_uint(e, "index", row);
	if (model_trace_get(env->m, row, &t) != TD_OK) {
		emit_unreadable(e, "op_name");
		emit_object_end(e);
		return;
	}
	emit_text_kv(e, "mark", "%s", (t.flags & ROW_NONFINITE) ? "!" :
		     (t.flags & ROW_CORRUPT) ? "?" : "");
	emit_kv_str(e, "op_name", t.op_name);
	emit_kv_str(e, "op_type", cmd_nz(t.op_type));
	emit_kv_uint(e, "output_slot", t.slot);
	emit_kv_str(e, "graph_id", cmd_nz(t.graph_id));
	emit_kv_str(e, "host", cmd_nz(t.host));
	emit_kv_index(e, "execution", t.execution);
	emit_kv_bool(e, "nonfinite", t.flags & ROW_NONFINITE);
	emit_kv_bool(e, "is_input", t.flags & ROW_INPUT);
	emit_text_kv(e, "io", "%s", (t.flags & ROW_INPUT) ? "in" : "out");
	if (t.debug_op)
		emit_kv_str(e, "debug_op", t.debug_op);
	if (t.flags & ROW_CORRUPT)
		emit_kv_bool(e, "corrupt", true);
	emit_kv_summary(e, "summary", &t.summary);
	emit_kv_str(e, "role", cmd_nz(model_role_name(t.role)));
	emit_from_values(e, t.from_values);
	emit_object_end(e);
}

static void
emit_execution(struct cmd_env *env, struct emit *e, uint64_t row)
{
	struct model_execution x;
	uint64_t bad;

	emit_object_begin(e, NULL);
	emit_kv_uint(e, "index", row);
	if (model_execution_get(env->m, row, &x) != TD_OK) {
		emit_unreadable(e, "op_type");
		emit_object_end(e);
		return;
	}
	emit_text_kv(e, "mark", "%s", (x.flags & (ROW_NONFINITE | ROW_CONTAINS_NONFINITE)) ? "!" :
		     (x.flags & ROW_CORRUPT) ? "?" : "");
	emit_kv_str(e, "op_type", x.op_type);
	emit_kv_str(e, "graph_id", cmd_graph_id(env, x.graph));
	emit_kv_str(e, "host", cmd_nz(x.host));
	emit_kv_uint(e, "num_outputs", x.num_outputs);
	/* a run holding traces is flagged for them: nonfinite_traces says
	 * how many (text shows it under nan/inf when no output is bad) */
	bad = x.ntraces ? model_execution_nonfinite_traces(env->m, row) : 0;
	if (!x.bad_outputs && bad)
		emit_text_kv(e, "bad_outputs", "%llu", (unsigned long long)bad);
	emit_kv_uint(e, "bad_outputs", x.bad_outputs);
	if (x.ntraces)
		emit_kv_uint(e, "nonfinite_traces", bad);
	else
		emit_kv_null(e, "nonfinite_traces");
	emit_kv_bool(e, "nonfinite", x.flags & (ROW_NONFINITE | ROW_CONTAINS_NONFINITE));
	emit_kv_bool(e, "function", x.flags & ROW_FUNCTION);
	emit_kv_double(e, "wall_time", x.wall_time);
	emit_kv_uint(e, "first_trace", x.first_trace);
	emit_kv_uint(e, "traces", x.ntraces);
	if (x.ntraces)
		emit_text_kv(e, "trace_rows", "%llu..%llu", (unsigned long long)x.first_trace,
			     (unsigned long long)(x.first_trace + x.ntraces - 1));
	if (x.flags & ROW_CORRUPT)
		emit_kv_bool(e, "corrupt", true);
	emit_object_end(e);
}

/* The columns text shows: trace rows with a debug op column when the first
 * row listed names one. */
static const struct emit_field *
listing_cols(struct cmd_env *env, const struct listing *l, const struct cmd_range *r)
{
	struct model_trace t;
	int64_t first;

	if (l->table != TABLE_TRACES)
		return execution_cols;
	first = r->start < r->stop ? listing_row(env, l, r->start, -1, r->step) : -1;
	if (first >= 0 && model_trace_get(env->m, (uint64_t)first, &t) == TD_OK && t.debug_op)
		return trace_cols_debug;
	return trace_cols;
}

static void
listing_rows(struct cmd_env *env, struct listing *l, struct emit *e, const struct cmd_range *r)
{
	int64_t row = -1;
	uint64_t k;

	emit_key(e, "rows");
	emit_table_begin(e, listing_cols(env, l, r));
	for (k = r->start; k < r->stop; k += r->step) {
		row = listing_row(env, l, k, row, r->step);
		if (row < 0)
			break;
		if (l->table == TABLE_TRACES)
			emit_trace(env, e, (uint64_t)row);
		else
			emit_execution(env, e, (uint64_t)row);
		cmd_maybe_flush(env);
	}
	if (!l->range && r->stop < l->matched)
		emit_note(e, "... %llu more (give A:B)", (unsigned long long)(l->matched - r->stop));
	emit_table_end(e);
}

/* Text: "6 of 12 rows shown (12 of 680 match)[, sorted by F][, N unknown]". */
static void
listing_count(struct emit *e, const struct listing *l, const struct cmd_range *r)
{
	uint64_t shown = r->stop > r->start ? (r->stop - r->start + r->step - 1) / r->step : 0;
	struct strbuf sb = {0};

	if (emit_json(e))
		return;
	if (l->matched < l->total)
		strbuf_addf(&sb, "%llu of %llu rows shown (%llu of %llu match)",
			    (unsigned long long)shown, (unsigned long long)l->matched,
			    (unsigned long long)l->matched, (unsigned long long)l->total);
	else
		strbuf_addf(&sb, "%llu of %llu rows shown", (unsigned long long)shown,
			    (unsigned long long)l->total);
	if (l->sort)
		strbuf_addf(&sb, ", sorted by %s", l->sort);
	if (l->where || l->unknown)
		strbuf_addf(&sb, ", %llu unknown", (unsigned long long)l->unknown);
	emit_note(e, "%s", sb.buf);
	strbuf_done(&sb);
	if (model_filter_undecided(l->filter))
		emit_note(e, "the regex was too costly on %llu name(s) (PCRE2 match limit): their rows are counted unknown, not matched",
			  (unsigned long long)model_filter_undecided(l->filter));
}

static const struct emit_field listing_fields[] = {
	{ "total", NULL, 0, EMIT_HIDE },
	{ "matched", NULL, 0, EMIT_HIDE },
	{ "sort", NULL, 0, EMIT_HIDE },
	{ "unknown", NULL, 0, EMIT_HIDE },
	{ "rows", "", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* The matches listed: A:B, else every match (the TUI: its first page).
 * false when A:B is not a slice. */
static bool
listing_range(struct cmd_env *env, const struct listing *l, struct cmd_range *r)
{
	*r = (struct cmd_range){ 0, l->matched, 1 };
	if (l->range && !cmd_parse_range(l->range, l->matched, r))
		return false;
	if (!l->range && env->ui && r->stop > TUI_PAGE)
		r->stop = TUI_PAGE;
	return true;
}

/* {"total", "matched"[, "sort"][, "unknown"], "rows": [...]}; text: the
 * count line, then the rows as a table. */
static enum td_status
listing_print(struct cmd_env *env, struct listing *l)
{
	struct cmd_range r;
	struct emit e;

	if (!listing_range(env, l, &r))
		return cmd_fail(env, TD_ERR_ARGS, "\"%s\" is not a slice A:B", l->range);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, listing_fields);
	emit_kv_uint(&e, "total", l->total);
	emit_kv_uint(&e, "matched", l->matched);
	if (l->sort)
		emit_kv_str(&e, "sort", l->sort);
	if (l->where || l->unknown)
		emit_kv_uint(&e, "unknown", l->unknown);
	listing_count(&e, l, &r);
	listing_rows(env, l, &e, &r);
	emit_object_end(&e);
	emit_done(&e);
	return TD_OK;
}

/* The next up to n matches after row prev (-1: from the start) into
 * rows; returns how many. */
static size_t
listing_next_rows(struct cmd_env *env, const struct listing *l, int64_t prev, uint64_t *rows,
		  size_t n)
{
	size_t got = 0;

	while (got < n) {
		int64_t row = l->filter ? model_filter_next(env->m, l->filter, l->table,
							    (uint64_t)(prev + 1), 1) : prev + 1;

		if (row < 0 || (uint64_t)row >= l->total)
			break;
		rows[got++] = (uint64_t)row;
		prev = row;
	}
	return got;
}

/* A:B with B <= ROWSORT_TOP_MAX: the first B of the sort (tail: the
 * last k), the matches fed to a heap a batch at a time. */
static enum td_status
listing_sort_part(struct cmd_env *env, struct listing *l, enum rowsort_field f, bool desc,
		  uint64_t k, bool tail)
{
	struct rowsort_top *t = rowsort_top_new(env->m, f, desc, (size_t)k, tail);
	uint64_t batch[4096];
	int64_t prev = -1;
	size_t got;

	l->sorted = malloc((size_t)k * sizeof *l->sorted + 1);
	if (!t || !l->sorted) {
		rowsort_top_free(t);
		return cmd_fail(env, TD_ERR_NOMEM, "--sort: out of memory");
	}
	while ((got = listing_next_rows(env, l, prev, batch, 4096)) > 0) {
		rowsort_top_add(t, batch, got);
		prev = (int64_t)batch[got - 1];
	}
	l->nsorted = rowsort_top_take(t, l->sorted);
	l->sorted_from = tail && l->nsorted < l->matched ? l->matched - l->nsorted : 0;
	rowsort_top_free(t);
	return TD_OK;
}

/* --sort FIELD: the matching rows, sorted (rowsort.h). */
static enum td_status
listing_sort(struct cmd_env *env, struct listing *l)
{
	enum rowsort_field f;
	bool desc;
	struct cmd_range r;
	enum td_status st;

	if (!rowsort_parse(l->sort, &f, &desc))
		return cmd_fail(env, TD_ERR_ARGS, "--sort %s: sort by %s (-FIELD: descending)", l->sort,
				rowsort_names());
	if (listing_range(env, l, &r)) {
		/* the smaller heap: the first B, or the last N - A */
		uint64_t tail = r.start < r.stop ? l->matched - r.start : UINT64_MAX;

		if (tail < r.stop && tail <= ROWSORT_TOP_MAX)
			return listing_sort_part(env, l, f, desc, tail, true);
		if (r.stop <= ROWSORT_TOP_MAX)
			return listing_sort_part(env, l, f, desc, r.stop, false);
	}
	l->sorted = malloc((size_t)l->matched * sizeof *l->sorted + 1);
	if (!l->sorted)
		return cmd_fail(env, TD_ERR_NOMEM, "--sort: %llu rows do not fit in memory",
				(unsigned long long)l->matched);
	l->nsorted = listing_next_rows(env, l, -1, l->sorted, (size_t)l->matched);
	if ((st = rowsort_traces(env->m, l->sorted, (size_t)l->nsorted, f, desc)) != TD_OK)
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
	if (l.filter)   /* a where condition, or a regex that hit its limit */
		l.unknown = model_filter_unknown(env->m, l.filter, table);
	if (l.sort && (st = listing_sort(env, &l)) != TD_OK) {
		model_filter_free(l.filter);
		free(l.sorted);
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
