/*
 * model_series.h - an op's output over the steps: one point per step and
 * host, for `history` and the trend view.
 *
 * A step is what model_trace_step() says (the reader's run or iteration,
 * else the row's execution, else the top-level function call recorded
 * after the row).  Where one step holds several rows of the op's slot (a
 * loop, or a second debug op on one tensor), the point is the step's last
 * row and rows_in_step counts them.  The op stands for its name: ops of
 * the same name in other graphs or on other hosts (each run's copy of the
 * graph, each rank's) belong to the series unless one ran in a step and
 * on a host the op itself (or an op taken before) ran in.  Only the chosen rows' summaries are
 * decoded into the points; the rows of an op are found from the index
 * (the op reference and flag byte per row).  Not for input rows: a point
 * is an output of the op.
 */
#ifndef TD_MODEL_SERIES_H
#define TD_MODEL_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The numbers a point carries, from its row's summary. */
#define MODEL_SERIES_FIELD_INFO(_) \
	_(L2NORM,   "l2norm") \
	_(ABS_MEAN, "abs_mean") \
	_(MEAN,     "mean") \
	_(STD,      "std") \
	_(MIN,      "min") \
	_(MAX,      "max") \
	_(NAN,      "nan") \
	_(INF,      "inf") \
	_(NEG_INF,  "neg_inf") \
	_(POS_INF,  "pos_inf") \
	_(ZERO,     "zero") \
	_(ELEMENTS, "elements")

enum model_series_field {
#define TD_SERIES_ENUM(id, name) SERIES_##id,
	MODEL_SERIES_FIELD_INFO(TD_SERIES_ENUM)
#undef TD_SERIES_ENUM
	SERIES_FIELD_COUNT
};

/* The points a series holds at most; past it the series is truncated
 * (the first steps in row order are kept). */
#define MODEL_SERIES_MAX_POINTS 200000

struct model_series_point {
	int64_t step;               /* -1 unknown (then one point per row) */
	uint64_t row;               /* the step's last row of the op's slot */
	uint32_t rows_in_step;      /* rows of the op's slot in this step and host */
	const char *host;           /* "" unknown; valid until model_close() */
	bool nonfinite;             /* the row holds NaN/Inf (flag or summary) */
	uint32_t known;             /* 1u << field for the values the row carries */
	enum td_dtype dtype;        /* the row's dtype (DTYPE_INVALID unknown) */
	double v[SERIES_FIELD_COUNT];
};

struct model_series {
	uint32_t op, slot;
	struct model_series_point *points;  /* by step, then host, then row (owned) */
	size_t n;
	uint32_t known;             /* union of the points' known bits */
	size_t nhosts;              /* distinct hosts among the points */
	bool truncated;             /* more than MODEL_SERIES_MAX_POINTS points */
};

/* "l2norm" ... for field f; NULL past the last. */
const char *model_series_field_name(enum model_series_field f);
/* The field named name, or -1. */
int model_series_field_find(const char *name);
/* Field f of summary s into *v; false when the summary does not carry it
 * (FULL_HEALTH has no mean, SHAPE no counts). */
bool model_series_value(const struct td_summary *s, enum model_series_field f, double *v);

/* The fields to show by default: those of l2norm, abs_mean, mean, max,
 * min, nan and inf that some point of s carries, in that order, into
 * fields (at most max); returns how many. */
size_t model_series_default_fields(const struct model_series *s, enum model_series_field *fields,
				   size_t max);

/* The series of op's output slot over the indexed rows, only host's rows
 * when host is not NULL (a host string as the rows carry it).  TD_OK with
 * n == 0 when the op has no output row of that slot; TD_ERR_RANGE for an
 * op id past the ops.  Free with model_series_done(). */
enum td_status model_series_get(struct model *m, uint32_t op, uint32_t slot, const char *host,
				struct model_series *out);
/* Frees the points; s may be zeroed or NULL. */
void model_series_done(struct model_series *s);

#endif
