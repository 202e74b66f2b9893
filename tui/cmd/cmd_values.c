/*
 * cmd_values.c - "tensor [N] [SLICE] [--range RANGES] [--find V]": a trace row's
 * values looked at element by element, as the TensorFlow debugger's `print_tensor -r`.
 *
 * Batch: the summary of the selected elements (with the percentiles and
 * the standard deviation), and with --range how many selected elements lie
 * in the ranges and which (their coordinates in the whole tensor).  At the
 * prompt: the TUI's tensor view of the row, the ranges highlighted.
 *
 * JSON: {"index", "slice", "selected_shape", "summary", "ranges":
 * [[lo, hi], ...] | null, "in_range_indices": [[i, j, ...], ...],
 * "in_range": N | null, "indices_truncated"}, and with --find V: "find",
 * "found_indices", "found", "found_truncated" (the elements equal to V as
 * printed with 6 digits, or NaN, Inf, -Inf, +Inf, nonfinite).
 */
#include "cmd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"
#include "values.h"

#define INDICES_JSON 1000          /* coordinates listed in JSON */
#define INDICES_TEXT 50            /* ... and in text */

static void
merge_summary(struct td_summary *dst, const struct td_summary *from)
{
	struct td_summary s = *from;

	/* what the dump stored wins; the values fill in the rest */
	if (dst->known & SUM_MINMAX) {
		s.min = dst->min;
		s.max = dst->max;
	}
	if (dst->known & SUM_MEAN)
		s.mean = dst->mean;
	if (dst->known & SUM_ABS_MEAN)
		s.abs_mean = dst->abs_mean;
	if (dst->known & SUM_STD)
		s.std = dst->std;
	if (dst->known & SUM_L2NORM)
		s.l2norm = dst->l2norm;
	s.known |= SUM_PERCENTILES & from->known;
	dst->known |= s.known & (SUM_MINMAX | SUM_MEAN | SUM_ABS_MEAN | SUM_STD | SUM_L2NORM |
				 SUM_PERCENTILES);
	dst->min = s.min;
	dst->max = s.max;
	dst->mean = s.mean;
	dst->abs_mean = s.abs_mean;
	dst->std = s.std;
	dst->l2norm = s.l2norm;
	memcpy(dst->pct, s.pct, sizeof dst->pct);
}

void
cmd_detail_complete(struct model_detail *d)
{
	for (size_t k = 0; d->summaries && d->values && k < d->noutputs; k++) {
		struct td_summary s;

		if (!d->values[k] || !d->values[k]->data)
			continue;
		td_tensor_summarize(d->values[k], &s);
		td_tensor_percentiles(d->values[k], NULL, &s);
		merge_summary(&d->summaries[k], &s);
	}
}

struct tensor_args {
	const char *row, *range, *find;
	char *slice;                /* owned */
	struct value_ranges ranges;
	bool has_ranges;
	struct value_query query;   /* --find */
};

/* [N] [SLICE...] [--range R]: N is a number, the rest the slice. */
static enum td_status
tensor_args(struct cmd_env *env, int argc, char **argv, struct tensor_args *a)
{
	const struct cmd_opt opts[] = { { "range", &a->range, NULL }, { "find", &a->find, NULL },
					{ NULL, NULL, NULL } };
	char *pos[16], err[256];
	int npos, first = 0;
	uint64_t n;
	enum td_status st;

	memset(a, 0, sizeof *a);
	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 16)) != TD_OK)
		return st;
	if (npos && cmd_parse_u64(pos[0], &n))
		a->row = pos[first++];
	if (first < npos) {
		struct strbuf sb = { 0 };
		for (int i = first; i < npos; i++)
			strbuf_addf(&sb, "%s%s", i > first ? " " : "", pos[i]);
		a->slice = strbuf_take(&sb);
	}
	if (a->range) {
		if (!value_ranges_parse(a->range, &a->ranges, err, sizeof err))
			return cmd_fail(env, TD_ERR_ARGS, "--range %s: %s", a->range, err);
		a->has_ranges = true;
	}
	if (a->find && !value_query_parse(a->find, &a->query))
		return cmd_fail(env, TD_ERR_ARGS, "--find %s: a number, nan, inf, +inf, -inf or nonfinite",
				a->find);
	return TD_OK;
}

static void
emit_coords(struct emit *e, const struct td_tensor *t, int64_t idx)
{
	int64_t c[TD_MAX_DIMS * 8];
	int rank = t->rank < (int)TD_ARRAY_SIZE(c) ? t->rank : (int)TD_ARRAY_SIZE(c);

	for (int a = rank - 1; a >= 0; a--) {
		int64_t d = t->dims[a] > 0 ? t->dims[a] : 1;
		c[a] = idx % d;
		idx /= d;
	}
	emit_list_begin(e);
	for (int a = 0; a < rank; a++)
		emit_int(e, c[a]);
	emit_list_end(e);
}

/* What a listing picks: the elements in ranges r, or (r NULL) those q
 * finds. */
static bool
picked(const struct value_ranges *r, const struct value_query *q, double x)
{
	return r ? value_ranges_contains(r, x) : value_query_match(q, x);
}

/* Counts the selected elements picked; lists the first `limit`: JSON
 * coordinates, and text lines "  [3,0] -inf" into lines (when not NULL). */
static int64_t
in_range(struct emit *e, struct strbuf *lines, const struct td_tensor *t,
	 const struct td_slice_view *v, const struct value_ranges *r, const struct value_query *q,
	 int64_t limit)
{
	int64_t n = td_slice_view_elements(v), hits = 0;
	char buf[40];

	for (int64_t k = 0; k < n; k++) {
		int64_t idx = td_slice_view_index(v, k);
		double x = td_tensor_get(t, idx);

		if (!picked(r, q, x))
			continue;
		if (hits++ >= limit)
			continue;
		emit_coords(e, t, idx);
		if (!lines)
			continue;
		strbuf_adds(lines, "  ");
		value_coords(t, idx, lines);
		snprintf(buf, sizeof buf, "%.9g", x);
		strbuf_addf(lines, " %s\n", isnan(x) ? "nan" : isinf(x) ? (x < 0 ? "-inf" : "inf") : buf);
	}
	return hits;
}

/* The picks of --range (ranges) or --find: the JSON list of coordinates
 * under key, then the count under count_key and truncated_key; text "in
 * range [[a, b]]: N of M elements" or "found nan: N of M elements", then
 * the first coordinates. */
static void
emit_picks(struct emit *e, const struct tensor_args *a, const struct td_tensor *t,
	   const struct td_slice_view *v, bool ranges)
{
	int64_t limit = emit_json(e) ? INDICES_JSON : INDICES_TEXT, hits;
	struct strbuf lines = { 0 }, *text = emit_text(e);

	emit_key(e, ranges ? "in_range_indices" : "found_indices");
	emit_table_begin(e, emit_json_only);
	hits = in_range(e, text ? &lines : NULL, t, v, ranges ? &a->ranges : NULL, &a->query, limit);
	emit_table_end(e);
	emit_kv_int(e, ranges ? "in_range" : "found", hits);
	emit_kv_bool(e, ranges ? "indices_truncated" : "found_truncated", hits > INDICES_JSON);
	if (text) {
		if (ranges) {
			strbuf_adds(text, "in range ");
			value_ranges_format(&a->ranges, text);
		} else {
			strbuf_addf(text, "found %s", a->find);
		}
		strbuf_addf(text, ": %lld of %lld elements\n", (long long)hits,
			    (long long)td_slice_view_elements(v));
		if (lines.len)
			strbuf_add(text, lines.buf, lines.len);
		if (hits > INDICES_TEXT)
			strbuf_addf(text, "  ... %lld more (--json lists %d)\n",
				    (long long)(hits - INDICES_TEXT), INDICES_JSON);
	}
	strbuf_done(&lines);
}

static void
tensor_emit(struct cmd_env *env, uint64_t row, const struct tensor_args *a,
	    const struct td_tensor *t, const struct td_slice_view *v, const struct td_summary *s)
{
	struct strbuf *text;
	struct emit e;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_uint(&e, "index", row);
	emit_kv_str(&e, "slice", a->slice);
	emit_textf(&e, "trace %llu%s%s\n", (unsigned long long)row, a->slice ? " " : "",
		   a->slice ? a->slice : "");
	emit_key(&e, "selected_shape");
	emit_list_begin(&e);
	for (int k = 0; k < v->ndims; k++)
		emit_int(&e, v->count[k]);
	emit_list_end(&e);
	emit_kv_summary(&e, "summary", s);
	if ((text = emit_text(&e)))
		summary_lines(text, s);
	emit_key(&e, "ranges");
	if (a->has_ranges) {
		emit_table_begin(&e, emit_json_only);
		for (int i = 0; i < a->ranges.n; i++) {
			emit_list_begin(&e);
			emit_double(&e, a->ranges.lo[i]);
			emit_double(&e, a->ranges.hi[i]);
			emit_list_end(&e);
		}
		emit_table_end(&e);
		emit_picks(&e, a, t, v, true);
	} else {
		emit_null(&e);
		emit_key(&e, "in_range_indices");
		emit_table_begin(&e, emit_json_only);
		emit_table_end(&e);
		emit_kv_null(&e, "in_range");
		emit_kv_bool(&e, "indices_truncated", false);
	}
	if (a->find) {
		emit_kv_str(&e, "find", a->find);
		emit_picks(&e, a, t, v, false);
	}
	emit_object_end(&e);
	emit_done(&e);
}

/* Batch: the values of one row, looked at element by element. */
static enum td_status
tensor_batch(struct cmd_env *env, uint64_t row, const struct tensor_args *a)
{
	struct model_detail d = { 0 };
	struct td_slice slice;
	struct td_slice_view v;
	struct td_summary s;
	const struct td_tensor *t;
	char err[256];
	enum td_status st;

	if ((st = model_trace_detail(env->m, row, &d)) != TD_OK) {
		cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
		goto out;
	}
	if (d.noutputs == 0 || !d.values || !d.values[0] || !d.values[0]->data) {
		/* Ranges and finds need the values; the plain view has the statistics. */
		st = a->has_ranges || a->find ? cmd_no_values(env, row, d.mode)
					      : cmd_stats_only(env, row, d.mode, false);
		goto out;
	}
	t = d.values[0];
	if (a->slice && (st = td_slice_parse(a->slice, &slice, err, sizeof err)) != TD_OK) {
		cmd_fail(env, st, "%s", err);
		goto out;
	}
	if ((st = td_slice_view(t, a->slice ? &slice : NULL, &v, err, sizeof err)) != TD_OK) {
		cmd_fail(env, st, "%s", err);
		goto out;
	}
	td_view_summarize(t, &v, &s);
	td_tensor_percentiles(t, &v, &s);
	tensor_emit(env, row, a, t, &v, &s);
out:
	model_detail_done(&d);
	return st;
}

enum td_status
cmd_tensor(struct cmd_env *env, int argc, char **argv)
{
	struct tensor_args a;
	struct td_slice parsed;
	char err[256];
	uint64_t row;
	enum td_status st;

	if ((st = tensor_args(env, argc, argv, &a)) != TD_OK)
		goto out;
	if (!env->ui && !a.row) {
		st = cmd_fail(env, TD_ERR_ARGS, "which trace? tensor N [SLICE] [--range RANGES] [--find V]");
		goto out;
	}
	if ((st = cmd_trace_arg(env, a.row, &row)) != TD_OK)
		goto out;
	if (a.slice && (st = td_slice_parse(a.slice, &parsed, err, sizeof err)) != TD_OK) {
		cmd_fail(env, st, "%s", err);
		goto out;
	}
	if (env->ui && a.find) {
		st = cmd_fail(env, TD_ERR_ARGS, "--find lists in batch mode; in the tensor view / %s finds it",
			      a.find);
	} else if (!env->ui) {
		st = tensor_batch(env, row, &a);
	} else if (!env->ui->show_tensor) {
		st = cmd_fail(env, TD_ERR_UNSUPPORTED, "not supported by this interface");
	} else {
		env->ui->show_tensor(env->ui->ctx, TABLE_TRACES, row, a.slice, a.range);
	}
out:
	free(a.slice);
	return st;
}
