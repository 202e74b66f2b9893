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
json_coords(struct json *j, const struct td_tensor *t, int64_t idx)
{
	int64_t c[TD_MAX_DIMS * 8];
	int rank = t->rank < (int)TD_ARRAY_SIZE(c) ? t->rank : (int)TD_ARRAY_SIZE(c);

	for (int a = rank - 1; a >= 0; a--) {
		int64_t d = t->dims[a] > 0 ? t->dims[a] : 1;
		c[a] = idx % d;
		idx /= d;
	}
	json_array_begin(j);
	for (int a = 0; a < rank; a++)
		json_int(j, c[a]);
	json_array_end(j);
}

/* What a listing picks: the elements in ranges r, or (r NULL) those q
 * finds. */
static bool
picked(const struct value_ranges *r, const struct value_query *q, double x)
{
	return r ? value_ranges_contains(r, x) : value_query_match(q, x);
}

/* Counts the selected elements picked; lists the first `limit` (JSON
 * coordinates, or text lines "  [3,0] -inf"). */
static int64_t
in_range(struct cmd_env *env, struct json *j, const struct td_tensor *t,
	 const struct td_slice_view *v, const struct value_ranges *r, const struct value_query *q,
	 int64_t limit)
{
	int64_t n = td_slice_view_elements(v), hits = 0;

	for (int64_t k = 0; k < n; k++) {
		int64_t idx = td_slice_view_index(v, k);
		double x = td_tensor_get(t, idx);

		if (!picked(r, q, x))
			continue;
		if (hits++ >= limit)
			continue;
		if (j) {
			json_coords(j, t, idx);
		} else {
			char buf[40];
			strbuf_adds(env->out, "  ");
			value_coords(t, idx, env->out);
			snprintf(buf, sizeof buf, "%.9g", x);
			strbuf_addf(env->out, " %s\n", isnan(x) ? "nan" : isinf(x) ? (x < 0 ? "-inf" : "inf") : buf);
		}
	}
	return hits;
}

/* With --find: "find", "found_indices", "found", "found_truncated". */
static void
json_find(struct cmd_env *env, struct json *j, const struct tensor_args *a,
	  const struct td_tensor *t, const struct td_slice_view *v)
{
	int64_t hits;

	if (!a->find)
		return;
	json_kv_string(j, "find", a->find);
	json_key(j, "found_indices");
	json_array_begin(j);
	hits = in_range(env, j, t, v, NULL, &a->query, INDICES_JSON);
	json_array_end(j);
	json_kv_int(j, "found", hits);
	json_kv_bool(j, "found_truncated", hits > INDICES_JSON);
}

static void
tensor_json(struct cmd_env *env, uint64_t row, const struct tensor_args *a,
	    const struct td_tensor *t, const struct td_slice_view *v, const struct td_summary *s)
{
	struct json j;
	int64_t hits;

	json_init(&j, env->out);
	json_object_begin(&j);
	json_kv_uint(&j, "index", row);
	json_kv_string(&j, "slice", a->slice);
	json_key(&j, "selected_shape");
	json_array_begin(&j);
	for (int k = 0; k < v->ndims; k++)
		json_int(&j, v->count[k]);
	json_array_end(&j);
	json_key(&j, "summary");
	cmd_json_summary(&j, s);
	json_key(&j, "ranges");
	if (!a->has_ranges) {
		json_null(&j);
		json_key(&j, "in_range_indices");
		json_array_begin(&j);
		json_array_end(&j);
		json_kv_null(&j, "in_range");
		json_kv_bool(&j, "indices_truncated", false);
		json_find(env, &j, a, t, v);
		json_object_end(&j);
		return;
	}
	json_array_begin(&j);
	for (int i = 0; i < a->ranges.n; i++) {
		json_array_begin(&j);
		json_double(&j, a->ranges.lo[i]);
		json_double(&j, a->ranges.hi[i]);
		json_array_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "in_range_indices");
	json_array_begin(&j);
	hits = in_range(env, &j, t, v, &a->ranges, NULL, INDICES_JSON);
	json_array_end(&j);
	json_kv_int(&j, "in_range", hits);
	json_kv_bool(&j, "indices_truncated", hits > INDICES_JSON);
	json_find(env, &j, a, t, v);
	json_object_end(&j);
}

/* "in range [[a, b]]: N of M elements" or "found nan: N of M elements",
 * then the first coordinates. */
static void
text_picks(struct cmd_env *env, const struct tensor_args *a, const struct td_tensor *t,
	   const struct td_slice_view *v, bool ranges)
{
	struct strbuf list = { 0 }, *out = env->out;
	int64_t hits;

	env->out = &list;           /* the count goes before the list */
	hits = in_range(env, NULL, t, v, ranges ? &a->ranges : NULL, &a->query, INDICES_TEXT);
	env->out = out;
	if (ranges) {
		strbuf_adds(out, "in range ");
		value_ranges_format(&a->ranges, out);
	} else {
		strbuf_addf(out, "found %s", a->find);
	}
	strbuf_addf(out, ": %lld of %lld elements\n", (long long)hits,
		    (long long)td_slice_view_elements(v));
	if (list.len)
		strbuf_add(out, list.buf, list.len);
	if (hits > INDICES_TEXT)
		strbuf_addf(out, "  ... %lld more (--json lists %d)\n", (long long)(hits - INDICES_TEXT),
			    INDICES_JSON);
	strbuf_done(&list);
}

static void
tensor_text(struct cmd_env *env, uint64_t row, const struct tensor_args *a,
	    const struct td_tensor *t, const struct td_slice_view *v, const struct td_summary *s)
{
	strbuf_addf(env->out, "trace %llu%s%s\n", (unsigned long long)row, a->slice ? " " : "",
		    a->slice ? a->slice : "");
	summary_lines(env->out, s);
	if (a->has_ranges)
		text_picks(env, a, t, v, true);
	if (a->find)
		text_picks(env, a, t, v, false);
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
	if (env->json)
		tensor_json(env, row, a, t, &v, &s);
	else
		tensor_text(env, row, a, t, &v, &s);
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
