/*
 * summary.h - one table of the tensor summary fields, and the printers it
 * feeds: the JSON summary object of the commands (and the four counts of
 * an alert), their compact text ("float32[1000] -inf=1 nan=0 ..."), the
 * trace table's column (fmt_summary in fmt.h) and the tensor view's lines.
 * A field added to struct td_summary is one line here; every printer then
 * knows its key, labels, format and when it is known.
 *
 * Curses-free.  Not for values: tensor data is cmd_tensor.c's.
 */
#ifndef TD_SUMMARY_H
#define TD_SUMMARY_H

#include <stdint.h>

#include "json.h"
#include "reader/base/tensor.h"
#include "reader/base/util.h"

/* How a field is shown. */
enum summary_kind {
	SK_DTYPE,                   /* a dtype name */
	SK_SHAPE,                   /* dims[] (JSON: a list, and "shape_truncated" when cut) */
	SK_COUNT,                   /* an integer count */
	SK_FLAG,                    /* has_inf_or_nan: yes or no */
	SK_REAL,                    /* a double, with float precision when the tensor was
				       float32 or narrower (-0.9274042, not -0.92740416526) */
	SK_MARK,                    /* shown only when known (a property that holds) */
};

/* Which printers show a field besides JSON. */
enum summary_flags {
	SF_COUNTS    = 1u << 0,     /* one of the four counts an alert carries in JSON */
	SF_NONFINITE = 1u << 1,     /* a NaN/Inf count (it also tells has_inf_or_nan) */
	SF_BREAKDOWN = 1u << 2,     /* one of the six counts of the trace table column */
	SF_NO_SHAPE  = 1u << 3,     /* compact text: only when the shape is not known */
	SF_ALONE     = 1u << 4,     /* compact text: only when no SF_NONFINITE count is known */
};

/*
 * The fields in JSON order (a contract: README, Commands).  order is the
 * place in the order people read (compact text, trace table, tensor view):
 * type and shape, size, then the breakdown -Inf/NaN/+Inf/-/0/+ of Debugger
 * V2; -1 for fields shown in JSON only.  short is the compact text label
 * ("nan=3"), long the tensor view's and trace table's label ("NaN   3");
 * NULL where the printer does not show the field.  value reads it from
 * the summary s.  The percentiles p1..p99 are known only where tdbg had the
 * values and computed them (trace, tensor): no dump stores them.
 *
 *  id              known bit           JSON key          short   long        kind      order  flags                             value
 */
#define SUMMARY_FIELDS(_) \
	_(DTYPE,         SUM_DTYPE,         "dtype",          "",     "tensor",   SK_DTYPE,  0, 0,                                (s)->dtype) \
	_(RANK,          SUM_RANK,          "rank",           NULL,   NULL,       SK_COUNT, -1, 0,                                (s)->rank) \
	_(SHAPE,         SUM_SHAPE,         "shape",          "",     "",         SK_SHAPE,  1, 0,                                (s)->ndims) \
	_(NAN,           SUM_NAN,           "nan",            "nan",  "NaN",      SK_COUNT,  4, SF_COUNTS | SF_NONFINITE | SF_BREAKDOWN, (s)->nan) \
	_(NEG_INF,       SUM_NEG_INF,       "neg_inf",        "-inf", "-Inf",     SK_COUNT,  3, SF_COUNTS | SF_NONFINITE | SF_BREAKDOWN, (s)->neg_inf) \
	_(POS_INF,       SUM_POS_INF,       "pos_inf",        "+inf", "+Inf",     SK_COUNT,  5, SF_COUNTS | SF_NONFINITE | SF_BREAKDOWN, (s)->pos_inf) \
	_(ELEMENTS,      SUM_ELEMENTS,      "elements",       "n",    "elements", SK_COUNT,  2, SF_COUNTS | SF_NO_SHAPE,        (s)->elements) \
	_(NEGATIVE,      SUM_NEGATIVE,      "negative",       "-",    "negative", SK_COUNT,  6, SF_BREAKDOWN,                   (s)->negative) \
	_(ZERO,          SUM_ZERO,          "zero",           "0",    "zero",     SK_COUNT,  7, SF_BREAKDOWN,                   (s)->zero) \
	_(POSITIVE,      SUM_POSITIVE,      "positive",       "+",    "positive", SK_COUNT,  8, SF_BREAKDOWN,                   (s)->positive) \
	_(HAS_INF_OR_NAN, SUM_NONFINITE,    "has_inf_or_nan", "",     "Inf/NaN",  SK_FLAG,   9, SF_ALONE,                       (s)->has_inf_or_nan) \
	_(MIN,           SUM_MINMAX,        "min",            "min",  "min",      SK_REAL,  10, 0,                                (s)->min) \
	_(MAX,           SUM_MINMAX,        "max",            "max",  "max",      SK_REAL,  11, 0,                                (s)->max) \
	_(MEAN,          SUM_MEAN,          "mean",           "mean", "mean",     SK_REAL,  12, 0,                                (s)->mean) \
	_(ABS_MEAN,      SUM_ABS_MEAN,      "abs_mean",       NULL,   "|mean|",   SK_REAL,  13, 0,                                (s)->abs_mean) \
	_(STD,           SUM_STD,           "std",            NULL,   "std",      SK_REAL,  14, 0,                                (s)->std) \
	_(L2NORM,        SUM_L2NORM,        "l2norm",         NULL,   "l2 norm",  SK_REAL,  15, 0,                                (s)->l2norm) \
	_(TENSOR_ID,     SUM_TENSOR_ID,     "tensor_id",      NULL,   NULL,       SK_COUNT, -1, 0,                                (s)->tensor_id) \
	_(P1,            SUM_PERCENTILES,   "p1",             "p1",   "p1",       SK_REAL,  16, 0,                                (s)->pct[0]) \
	_(P25,           SUM_PERCENTILES,   "p25",            "p25",  "p25",      SK_REAL,  17, 0,                                (s)->pct[1]) \
	_(P50,           SUM_PERCENTILES,   "p50",            "p50",  "p50",      SK_REAL,  18, 0,                                (s)->pct[2]) \
	_(P75,           SUM_PERCENTILES,   "p75",            "p75",  "p75",      SK_REAL,  19, 0,                                (s)->pct[3]) \
	_(P99,           SUM_PERCENTILES,   "p99",            "p99",  "p99",      SK_REAL,  20, 0,                                (s)->pct[4]) \
	_(UNINITIALIZED, SUM_UNINITIALIZED, "uninitialized",  NULL,   "value known to be uninitialised", SK_MARK, 21, 0,     0)

#define SUMMARY_ENUM(id, bit, key, sh, lg, kind, order, flags, value) SUMMARY_##id,
enum summary_id {
	SUMMARY_FIELDS(SUMMARY_ENUM)
	SUMMARY_NFIELDS
};
#undef SUMMARY_ENUM

struct summary_field {
	enum summary_id id;
	uint32_t bit;               /* enum td_summary_field: known when set */
	const char *key;            /* JSON key */
	const char *short_label;    /* compact text; NULL: not shown */
	const char *long_label;     /* tensor view / trace table; NULL: not shown */
	enum summary_kind kind;
	int order;                  /* people's order, -1 JSON only */
	unsigned flags;             /* enum summary_flags */
};

/* The table, in JSON order. */
extern const struct summary_field summary_fields[SUMMARY_NFIELDS];

/* The field at place pos of people's order, NULL past the end. */
const struct summary_field *summary_by_order(int pos);
/* The union of the known bits of the fields with all of flags. */
uint32_t summary_bits(unsigned flags);
/* Whether field f of s is known (has_inf_or_nan also from a NaN/Inf count). */
bool summary_known(const struct td_summary *s, const struct summary_field *f);
/* The value of an SK_COUNT, SK_DTYPE or SK_FLAG field / of an SK_REAL field. */
int64_t summary_int(const struct td_summary *s, enum summary_id id);
double summary_real(const struct td_summary *s, enum summary_id id);

/* The summary as a JSON object; unknown fields are null. */
void summary_json(struct json *j, const struct td_summary *s);
/* The SF_COUNTS fields as members of the current object (null unknown). */
void summary_json_counts(struct json *j, const struct td_summary *s);
/* The compact text: "float32[1000] -inf=1 nan=0 +inf=0 -=999 0=0 +=0",
 * "(no summary)" when nothing is known.  Appends to sb. */
void summary_text(struct strbuf *sb, const struct td_summary *s);
/* The tensor view's block: one "  label      value" line per known field
 * ("  tensor     float32[1000]", "  NaN        0" ...).  Appends to sb. */
void summary_lines(struct strbuf *sb, const struct td_summary *s);
/* The value of field f of s as the tensor view writes it, in buf:
 * "float32[1000]" (SK_DTYPE: type and shape), "1000", "yes", "-2.5", and
 * "yes" for a mark that holds.  NULL when the field is not known (SK_DTYPE:
 * when neither type nor shape is) and for SK_SHAPE, which SK_DTYPE shows.
 * Printers that lay fields out their own way (the diff pane's two
 * columns) take labels from the table and values from here. */
const char *summary_value(const struct td_summary *s, const struct summary_field *f,
			  char *buf, size_t size);

#endif
