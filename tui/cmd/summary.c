/*
 * summary.c - the summary field table and the printers it feeds (JSON,
 * compact text, the tensor view's lines); fmt_summary (fmt.c) reads the
 * same table for the trace table's column.
 */
#include "summary.h"

#include <stdio.h>
#include <string.h>

#include "fmt.h"

#define SUMMARY_ROW(id, bit, key, sh, lg, kind, order, flags, value) \
	{ SUMMARY_##id, bit, key, sh, lg, kind, order, flags },
const struct summary_field summary_fields[SUMMARY_NFIELDS] = {
	SUMMARY_FIELDS(SUMMARY_ROW)
};
#undef SUMMARY_ROW

const struct summary_field *
summary_by_order(int pos)
{
	for (size_t i = 0; i < SUMMARY_NFIELDS; i++)
		if (summary_fields[i].order == pos)
			return &summary_fields[i];
	return NULL;
}

uint32_t
summary_bits(unsigned flags)
{
	uint32_t bits = 0;

	for (size_t i = 0; i < SUMMARY_NFIELDS; i++)
		if ((summary_fields[i].flags & flags) == flags)
			bits |= summary_fields[i].bit;
	return bits;
}

bool
summary_known(const struct td_summary *s, const struct summary_field *f)
{
	if (f->kind == SK_FLAG)
		return s->known & (f->bit | summary_bits(SF_NONFINITE));
	return s->known & f->bit;
}

int64_t
summary_int(const struct td_summary *s, enum summary_id id)
{
#define SUMMARY_INT(fid, bit, key, sh, lg, kind, order, flags, value) \
	case SUMMARY_##fid: return (int64_t)(value);
	switch (id) {
	SUMMARY_FIELDS(SUMMARY_INT)
	default: return 0;
	}
#undef SUMMARY_INT
}

double
summary_real(const struct td_summary *s, enum summary_id id)
{
#define SUMMARY_REAL(fid, bit, key, sh, lg, kind, order, flags, value) \
	case SUMMARY_##fid: return (double)(value);
	switch (id) {
	SUMMARY_FIELDS(SUMMARY_REAL)
	default: return 0;
	}
#undef SUMMARY_REAL
}

/* A min/max of a float32 (or narrower) tensor is a float. */
static bool
float_origin(const struct td_summary *s, double v)
{
	return (s->known & SUM_DTYPE) && td_dtype_is_float(s->dtype) && s->dtype != DTYPE_FLOAT64 &&
	       (double)(float)v == v;
}

/* ---- JSON ------------------------------------------------------------------ */

static void
json_shape(struct json *j, const struct td_summary *s)
{
	json_array_begin(j);
	for (int i = 0; i < s->ndims && i < TD_MAX_DIMS; i++)
		json_int(j, s->dims[i]);
	json_array_end(j);
	if (s->dims_truncated)
		json_kv_bool(j, "shape_truncated", true);
}

static void
json_field(struct json *j, const struct td_summary *s, const struct summary_field *f)
{
	double v;

	if (f->kind == SK_MARK) {
		if (summary_known(s, f))
			json_kv_bool(j, f->key, true);
		return;
	}
	json_key(j, f->key);
	if (!summary_known(s, f)) {
		json_null(j);
		return;
	}
	switch (f->kind) {
	case SK_DTYPE:
		json_string(j, td_dtype_name(s->dtype));
		break;
	case SK_SHAPE:
		json_shape(j, s);
		break;
	case SK_COUNT:
		json_int(j, summary_int(s, f->id));
		break;
	case SK_FLAG:
		json_bool(j, td_summary_nonfinite(s));
		break;
	case SK_REAL:
		v = summary_real(s, f->id);
		if (float_origin(s, v))
			json_float(j, (float)v);
		else
			json_double(j, v);
		break;
	case SK_MARK:
		break;
	}
}

void
summary_json(struct json *j, const struct td_summary *s)
{
	json_object_begin(j);
	for (size_t i = 0; i < SUMMARY_NFIELDS; i++)
		json_field(j, s, &summary_fields[i]);
	json_object_end(j);
}

void
summary_json_counts(struct json *j, const struct td_summary *s)
{
	for (size_t i = 0; i < SUMMARY_NFIELDS; i++)
		if (summary_fields[i].flags & SF_COUNTS)
			json_field(j, s, &summary_fields[i]);
}

/* ---- compact text -------------------------------------------------------------- */

static void
text_field(struct strbuf *sb, const struct td_summary *s, const struct summary_field *f)
{
	char buf[40];

	if (!f->short_label || !(s->known & f->bit))
		return;
	/* type, shape, rank and element count come first, from fmt_shape() */
	if (f->kind == SK_DTYPE || f->kind == SK_SHAPE || (f->flags & SF_NO_SHAPE))
		return;
	if ((f->flags & SF_ALONE) && (s->known & summary_bits(SF_NONFINITE)))
		return;
	switch (f->kind) {
	case SK_DTYPE:
	case SK_SHAPE:
		break;
	case SK_COUNT:
		strbuf_addf(sb, " %s=%lld", f->short_label, (long long)summary_int(s, f->id));
		break;
	case SK_FLAG:
		strbuf_adds(sb, s->has_inf_or_nan ? " inf/nan" : " finite");
		break;
	case SK_REAL:           /* for people: fmt_double's digits, not JSON's */
		strbuf_addf(sb, " %s=%s", f->short_label, fmt_double(summary_real(s, f->id), buf, sizeof buf));
		break;
	case SK_MARK:
		break;
	}
}

void
summary_text(struct strbuf *sb, const struct td_summary *s)
{
	size_t start = sb->len;
	const struct summary_field *f;
	char shape[160];

	/* the shape where it is known, else rank and elements, never one
	 * made up from them: "float32 rank 2, 1000 el" */
	strbuf_adds(sb, fmt_shape(s, shape, sizeof shape));
	for (int pos = 0; (f = summary_by_order(pos)); pos++)
		text_field(sb, s, f);
	if (sb->len == start) {
		strbuf_adds(sb, "(no summary)");
	} else if (sb->buf[start] == ' ') {
		memmove(sb->buf + start, sb->buf + start + 1, sb->len - start);
		sb->len--;
	}
}

/* ---- the tensor view's lines ------------------------------------------------------- */

const char *
summary_value(const struct td_summary *s, const struct summary_field *f, char *buf, size_t size)
{
	if (f->kind == SK_DTYPE)     /* type and shape together */
		return *fmt_shape(s, buf, size) ? buf : NULL;
	if (!(s->known & f->bit))
		return NULL;
	switch (f->kind) {
	case SK_COUNT:
		snprintf(buf, size, "%lld", (long long)summary_int(s, f->id));
		return buf;
	case SK_FLAG:
		snprintf(buf, size, "%s", s->has_inf_or_nan ? "yes" : "no");
		return buf;
	case SK_REAL:
		return fmt_double(summary_real(s, f->id), buf, size);
	case SK_MARK:
		snprintf(buf, size, "yes");
		return buf;
	default:
		return NULL;
	}
}

static void
line_field(struct strbuf *sb, const struct td_summary *s, const struct summary_field *f)
{
	char buf[96];
	const char *v;

	if (!f->long_label || !*f->long_label)
		return;
	v = summary_value(s, f, buf, sizeof buf);
	if (f->kind == SK_DTYPE)     /* type and shape on one line, known or not */
		strbuf_addf(sb, "  %-10s %s\n", f->long_label, v ? v : "(unknown)");
	else if (v && f->kind == SK_MARK)
		strbuf_addf(sb, "  %s\n", f->long_label);
	else if (v)
		strbuf_addf(sb, "  %-10s %s\n", f->long_label, v);
}

void
summary_lines(struct strbuf *sb, const struct td_summary *s)
{
	const struct summary_field *f;

	for (int pos = 0; (f = summary_by_order(pos)); pos++)
		line_field(sb, s, f);
}
