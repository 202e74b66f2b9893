/*
 * cmd_export.c - "export [N] [SLICE] FILE [--force]": writes trace N's
 * values (or a numpy slice of them) to FILE as a numpy array file (by the
 * extension, reader/base/numpy.h) or CSV, never inside a dump directory
 * and never over a file without --force (outfile.h).
 *
 * CSV: one
 * line per row of the last axis (a rank > 2 selection is flattened to
 * rows of its last axis, a 1-D one is one value per line as numpy.savetxt
 * writes it); floats in the fewest digits that read back exactly, NaN and
 * Inf as nan, inf, -inf; bool as 1/0; complex as a+bj; strings quoted.
 *
 * JSON: {"index", "file", "format": TD_NUMPY_FORMAT|"csv", "dtype", "shape",
 * "elements", "bytes"}.
 */
#include "cmd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/model_diff.h"
#include "reader/base/numpy.h"
#include "outfile.h"

static void
csv_real(struct strbuf *sb, double x, bool single)
{
	char buf[40];

	if (isnan(x))
		strbuf_adds(sb, "nan");
	else if (isinf(x))
		strbuf_adds(sb, x < 0 ? "-inf" : "inf");
	else {
		if (single)
			json_format_float(buf, sizeof buf, (float)x);
		else
			json_format_double(buf, sizeof buf, x);
		strbuf_adds(sb, buf);
	}
}

static void
csv_string(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '"');
	for (; s && *s; s++) {
		if (*s == '"')
			strbuf_addc(sb, '"');
		strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '"');
}

static void
csv_elem(struct strbuf *sb, const struct td_tensor *t, int64_t i)
{
	const char *p = t->data;
	bool single = t->dtype != DTYPE_FLOAT64 && t->dtype != DTYPE_COMPLEX128;

	switch (t->dtype) {
	case DTYPE_STRING:
		csv_string(sb, t->strings ? t->strings[i] : NULL);
		return;
	case DTYPE_INT64:
		strbuf_addf(sb, "%lld", (long long)((const int64_t *)p)[i]);
		return;
	case DTYPE_UINT64:
		strbuf_addf(sb, "%llu", (unsigned long long)((const uint64_t *)p)[i]);
		return;
	case DTYPE_COMPLEX64:
	case DTYPE_COMPLEX128: {
		double re = t->dtype == DTYPE_COMPLEX64 ? ((const float *)p)[2 * i] : ((const double *)p)[2 * i];
		double im = t->dtype == DTYPE_COMPLEX64 ? ((const float *)p)[2 * i + 1] : ((const double *)p)[2 * i + 1];
		csv_real(sb, re, single);
		strbuf_addc(sb, im < 0 || signbit(im) ? '-' : '+');
		csv_real(sb, fabs(im), single);
		strbuf_addc(sb, 'j');
		return;
	}
	default:
		if (td_dtype_is_float(t->dtype))
			csv_real(sb, td_tensor_get(t, i), single);
		else
			strbuf_addf(sb, "%.0f", td_tensor_get(t, i));
	}
}

static enum td_status
to_csv(struct cmd_env *env, const struct td_tensor *t, const struct td_slice_view *v,
       struct strbuf *sb)
{
	int64_t n = td_slice_view_elements(v);
	int64_t cols = v->ndims >= 2 ? v->count[v->ndims - 1] : 1;

	if (!t->data && !t->strings)
		return cmd_fail(env, TD_ERR_UNSUPPORTED, "%s values cannot be exported",
				td_dtype_name(t->dtype));
	for (int64_t k = 0; k < n; k++) {
		csv_elem(sb, t, td_slice_view_index(v, k));
		strbuf_addc(sb, (k + 1) % cols ? ',' : '\n');
	}
	return TD_OK;
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

struct export_args {
	const char *row, *file;
	char *slice;                /* owned */
	bool force, numpy;
};

/* [N] [SLICE...] FILE [--force] */
static enum td_status
export_args(struct cmd_env *env, int argc, char **argv, struct export_args *a)
{
	const struct cmd_opt opts[] = { { "force", NULL, &a->force }, { NULL, NULL, NULL } };
	char *pos[16];
	int npos, first = 0;
	uint64_t n;
	enum td_status st;

	memset(a, 0, sizeof *a);
	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 16)) != TD_OK)
		return st;
	if (npos == 0)
		return cmd_fail(env, TD_ERR_ARGS, "usage: export [N] [SLICE] FILE [--force]");
	a->file = pos[--npos];
	if (npos && cmd_parse_u64(pos[0], &n))
		a->row = pos[first++];
	if (first < npos)
		a->slice = cmd_join(npos, pos, first);
	if (ends_with(a->file, TD_NUMPY_EXT))
		a->numpy = true;
	else if (!ends_with(a->file, ".csv"))
		return cmd_fail(env, TD_ERR_ARGS, "%s: name the file %s or .csv", a->file, TD_NUMPY_EXT);
	return TD_OK;
}

static void
export_report(struct cmd_env *env, uint64_t row, const struct export_args *a,
	      const struct td_tensor *t, const struct td_slice_view *v, size_t bytes)
{
	const char *format = a->numpy ? TD_NUMPY_FORMAT : "csv";
	struct emit e;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_uint(&e, "index", row);
	emit_kv_str(&e, "file", a->file);
	emit_kv_str(&e, "format", format);
	emit_kv_str(&e, "dtype", td_dtype_name(a->numpy && t->dtype == DTYPE_BFLOAT16 ? DTYPE_FLOAT32 : t->dtype));
	emit_textf(&e, "wrote trace %llu%s%s, %s[", (unsigned long long)row,
		   a->slice ? " " : "", a->slice ? a->slice : "", td_dtype_name(t->dtype));
	emit_key(&e, "shape");
	emit_list_begin(&e);
	for (int k = 0; k < v->ndims; k++) {
		emit_int(&e, v->count[k]);
		emit_textf(&e, "%s%lld", k ? "," : "", (long long)v->count[k]);
	}
	emit_list_end(&e);
	emit_kv_int(&e, "elements", td_slice_view_elements(v));
	emit_kv_uint(&e, "bytes", bytes);
	emit_textf(&e, "], to %s (%s, %zu bytes)\n", a->file, format, bytes);
	emit_object_end(&e);
	emit_done(&e);
}

static enum td_status
export_row(struct cmd_env *env, uint64_t row, const struct export_args *a)
{
	struct model_detail d = { 0 };
	struct model *dumps[2] = { env->m, env->diff ? model_diff_b(env->diff) : NULL };
	struct strbuf data = { 0 };
	struct td_slice slice;
	struct td_slice_view v;
	char err[4200];
	enum td_status st;

	/* refuse before decoding anything */
	if ((st = outfile_check(a->file, dumps, 2, a->force, err, sizeof err)) != TD_OK)
		return cmd_fail(env, st, "%s", err);
	if ((st = model_trace_detail(env->m, row, &d)) != TD_OK) {
		cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
		goto out;
	}
	if (d.noutputs == 0 || !d.values || !d.values[0]) {
		st = cmd_no_values(env, row, d.mode);
		goto out;
	}
	if ((a->slice && (st = td_slice_parse(a->slice, &slice, err, sizeof err)) != TD_OK) ||
	    (st = td_slice_view(d.values[0], a->slice ? &slice : NULL, &v, err, sizeof err)) != TD_OK) {
		cmd_fail(env, st, "%s", err);
		goto out;
	}
	if (a->numpy) {
		if (!td_numpy_encode(d.values[0], &v, &data, err, sizeof err))
			st = cmd_fail(env, TD_ERR_UNSUPPORTED, "%s: export to .csv", err);
	} else {
		st = to_csv(env, d.values[0], &v, &data);
	}
	if (st != TD_OK)
		goto out;
	st = outfile_write(a->file, dumps, 2, a->force, data.buf ? data.buf : "", data.len, err, sizeof err);
	if (st != TD_OK)
		cmd_fail(env, st, "%s", err);
	else
		export_report(env, row, a, d.values[0], &v, data.len);
out:
	strbuf_done(&data);
	model_detail_done(&d);
	return st;
}

enum td_status
cmd_export(struct cmd_env *env, int argc, char **argv)
{
	struct export_args a;
	uint64_t row;
	enum td_status st;

	if ((st = export_args(env, argc, argv, &a)) == TD_OK) {
		if (!env->ui && !a.row)
			st = cmd_fail(env, TD_ERR_ARGS, "which trace? export N [SLICE] FILE");
		else if ((st = cmd_trace_arg(env, a.row, &row)) == TD_OK)
			st = export_row(env, row, &a);
	}
	free(a.slice);
	return st;
}
