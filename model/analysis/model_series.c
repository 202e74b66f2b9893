/*
 * model_series.c - an op's output slot over the steps (model_series.h).
 *
 * One pass over the op's span of rows reads the index only (op reference
 * and flag byte); the rows found are given their steps a batch at a time
 * (model_trace_steps) and folded into one point per (host, step), the
 * step's last row winning.  Then the other ops of the same name (a run's
 * own copy of the graph, another rank's op) join, each unless it has a row
 * in a (host, step) the series already holds (then it is another op that
 * happens to share the name, as two layers' "MatMul" in their
 * functions).  Then only the points' rows are decoded, for their
 * summaries.  Memory: the points (bounded by MODEL_SERIES_MAX_POINTS), a
 * map from (host, step) to a point, and a batch of rows.
 * Not for: input rows (an op's input recorded as a row of its own), or
 * executions' outputs.
 */
#include "model/model_series.h"

#include <stdlib.h>
#include <string.h>

#include "reader/base/hashtab.h"

#define BATCH 4096
#define STEP_BITS 48                /* a (host, step) key: host index << 48 | step */
#define MAX_HOSTS 0xffff
#define DROPPED (UINT64_MAX - 1)    /* a step past MODEL_SERIES_MAX_POINTS */

static const char *const field_names[] = {
#define TD_SERIES_NAME(id, name) name,
	MODEL_SERIES_FIELD_INFO(TD_SERIES_NAME)
#undef TD_SERIES_NAME
};

const char *
model_series_field_name(enum model_series_field f)
{
	return (unsigned)f < SERIES_FIELD_COUNT ? field_names[f] : NULL;
}

int
model_series_field_find(const char *name)
{
	for (int f = 0; f < SERIES_FIELD_COUNT; f++)
		if (strcmp(field_names[f], name) == 0)
			return f;
	return -1;
}

bool
model_series_value(const struct td_summary *s, enum model_series_field f, double *v)
{
	switch (f) {
	case SERIES_L2NORM:
		*v = s->l2norm;
		return s->known & SUM_L2NORM;
	case SERIES_ABS_MEAN:
		*v = s->abs_mean;
		return s->known & SUM_ABS_MEAN;
	case SERIES_MEAN:
		*v = s->mean;
		return s->known & SUM_MEAN;
	case SERIES_STD:
		*v = s->std;
		return s->known & SUM_STD;
	case SERIES_MIN:
		*v = s->min;
		return s->known & SUM_MINMAX;
	case SERIES_MAX:
		*v = s->max;
		return s->known & SUM_MINMAX;
	case SERIES_NAN:
		*v = (double)s->nan;
		return s->known & SUM_NAN;
	case SERIES_INF:
		*v = (double)s->neg_inf + (double)s->pos_inf;
		return (s->known & (SUM_NEG_INF | SUM_POS_INF)) == (SUM_NEG_INF | SUM_POS_INF);
	case SERIES_NEG_INF:
		*v = (double)s->neg_inf;
		return s->known & SUM_NEG_INF;
	case SERIES_POS_INF:
		*v = (double)s->pos_inf;
		return s->known & SUM_POS_INF;
	case SERIES_ZERO:
		*v = (double)s->zero;
		return s->known & SUM_ZERO;
	case SERIES_ELEMENTS:
		*v = (double)s->elements;
		return s->known & SUM_ELEMENTS;
	default:
		return false;
	}
}

size_t
model_series_default_fields(const struct model_series *s, enum model_series_field *fields,
			    size_t max)
{
	static const enum model_series_field pref[] = {
		SERIES_L2NORM, SERIES_ABS_MEAN, SERIES_MEAN, SERIES_MAX, SERIES_MIN, SERIES_NAN, SERIES_INF,
	};
	size_t n = 0;

	for (size_t k = 0; k < TD_ARRAY_SIZE(pref) && n < max; k++)
		if (s->known & (1u << pref[k]))
			fields[n++] = pref[k];
	return n;
}

/* The state of one query. */
struct sctx {
	struct model *m;
	struct model_series *s;
	size_t cap;
	struct hashtab_u64 by_key;       /* (host index, step) -> point */
	uint32_t hosts[MAX_HOSTS];  /* host keys seen, by index */
	uint16_t *point_host;       /* per point: its host index */
	bool seen[MAX_HOSTS];       /* host indexes counted in nhosts */
	size_t nhosts;
	uint64_t rows[BATCH];
	uint32_t row_host[BATCH];
	int64_t steps[BATCH];
	size_t nb;
	uint64_t cand[BATCH];       /* output rows of the slot, before their hosts */
	size_t ncand;
};

static size_t
host_index(struct sctx *c, uint32_t sid)
{
	for (size_t k = 0; k < c->nhosts; k++)
		if (c->hosts[k] == sid)
			return k;
	if (c->nhosts == MAX_HOSTS)             /* cannot be told apart: the last one */
		return MAX_HOSTS - 1;
	c->hosts[c->nhosts] = sid;
	return c->nhosts++;
}

static void
new_point(struct sctx *c, uint64_t row, int64_t step, size_t host)
{
	struct model_series *s = c->s;
	size_t was = c->cap;

	TD_GROW(s->points, c->cap, s->n + 1);
	if (c->cap != was)   /* not per point: a realloc may copy the array */
		c->point_host = xrealloc(c->point_host, c->cap * sizeof *c->point_host);
	memset(&s->points[s->n], 0, sizeof s->points[s->n]);
	s->points[s->n].step = step;
	s->points[s->n].row = row;
	s->points[s->n].rows_in_step = 1;
	c->point_host[s->n] = (uint16_t)host;
	s->n++;
}

/* Folds the batch of rows (with their steps) into points. */
static void
flush(struct sctx *c)
{
	for (size_t k = 0; k < c->nb; k++) {
		size_t h = host_index(c, c->row_host[k]);
		int64_t step = c->steps[k];
		uint64_t key, *slot;

		if (step >= 0 && (uint64_t)step < (1ull << STEP_BITS)) {
			key = (uint64_t)h << STEP_BITS | (uint64_t)step;
			slot = hashtab_u64_put(&c->by_key, key, UINT64_MAX);
			if (*slot == DROPPED)
				continue;
			if (*slot != UINT64_MAX) {
				struct model_series_point *p = &c->s->points[*slot];
				p->row = TD_MAX(p->row, c->rows[k]);   /* the last row wins */
				p->rows_in_step++;
				continue;
			}
			if (c->s->n >= MODEL_SERIES_MAX_POINTS) {
				c->s->truncated = true;
				*slot = DROPPED;
				continue;
			}
			*slot = c->s->n;
		} else if (c->s->n >= MODEL_SERIES_MAX_POINTS) {
			c->s->truncated = true;
			continue;
		}
		new_point(c, c->rows[k], step < 0 ? -1 : step, h);
	}
}

/* Whether row j is an output row of (op, slot), from its flag byte (and
 * a decode when the byte cannot hold the slot). */
static bool
row_wanted(struct model *m, uint64_t j, uint32_t op, uint32_t slot)
{
	uint32_t f;

	if (model_trace_op_flags(m, j, &f) != op || (f & ROW_INPUT))
		return false;
	return model_trace_slot(m, j) == slot;
}

static void
fill_point(struct model *m, struct model_series_point *p)
{
	struct model_trace t;

	p->host = "";
	if (model_trace_get(m, p->row, &t) != TD_OK)
		return;
	p->host = t.host ? t.host : "";
	p->dtype = (t.summary.known & SUM_DTYPE) ? t.summary.dtype : DTYPE_INVALID;
	p->nonfinite = (t.flags & ROW_NONFINITE) || td_summary_nonfinite(&t.summary);
	for (int f = 0; f < SERIES_FIELD_COUNT; f++)
		if (model_series_value(&t.summary, (enum model_series_field)f, &p->v[f]))
			p->known |= 1u << f;
}

static int
point_cmp(const void *a, const void *b)
{
	const struct model_series_point *x = a, *y = b;
	uint64_t sx = x->step < 0 ? UINT64_MAX : (uint64_t)x->step;
	uint64_t sy = y->step < 0 ? UINT64_MAX : (uint64_t)y->step;
	int h;

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if ((h = strcmp(x->host, y->host)) != 0)
		return h;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Keeps the candidates c->cand of host want (MODEL_NO_HOST any) in the
 * batch, their host keys read in one call; calls fn when the batch is
 * full and returns true when it did and fn said stop. */
static bool
take(struct sctx *c, uint32_t want, bool (*fn)(struct sctx *c))
{
	struct model_row_keys keys[BATCH];

	model_trace_keys(c->m, c->cand, c->ncand, keys);
	for (size_t k = 0; k < c->ncand; k++) {
		if (want != MODEL_NO_HOST && keys[k].host != want)
			continue;
		c->rows[c->nb] = c->cand[k];
		c->row_host[c->nb++] = keys[k].host;
		if (c->nb == BATCH) {
			model_trace_steps(c->m, c->rows, c->nb, c->steps);
			if (fn(c)) {
				c->ncand = 0;
				return true;
			}
			c->nb = 0;
		}
	}
	c->ncand = 0;
	return false;
}

/* Calls fn on each batch of op's output rows of the slot (on host key
 * want, MODEL_NO_HOST any) with their steps; stops when fn returns true
 * and returns true then. */
static bool
scan_op(struct sctx *c, uint32_t op, uint32_t slot, uint32_t want, bool (*fn)(struct sctx *c))
{
	struct model *m = c->m;
	uint64_t first, last, n = model_trace_count(m), j;

	if (!model_op_rows(m, op, &first, &last) || n == 0)
		return false;
	last = TD_MIN(last, n - 1);
	c->nb = 0;
	c->ncand = 0;
	for (j = first; j <= last; j++) {
		if (!row_wanted(m, j, op, slot))
			continue;
		c->cand[c->ncand++] = j;
		if (c->ncand == BATCH && take(c, want, fn))
			return true;
	}
	if (c->ncand && take(c, want, fn))
		return true;
	if (c->nb) {
		model_trace_steps(m, c->rows, c->nb, c->steps);
		if (fn(c))
			return true;
	}
	c->nb = 0;
	return false;
}

/* Whether a row of the batch falls in a (host, step) the series holds. */
static bool
overlaps(struct sctx *c)
{
	uint64_t v;

	for (size_t k = 0; k < c->nb; k++)
		if (c->steps[k] >= 0 && (uint64_t)c->steps[k] < (1ull << STEP_BITS) &&
		    hashtab_u64_get(&c->by_key, (uint64_t)host_index(c, c->row_host[k]) << STEP_BITS |
				   (uint64_t)c->steps[k], &v))
			return true;
	return false;
}

static bool
fold(struct sctx *c)
{
	flush(c);
	return false;
}

enum td_status
model_series_get(struct model *m, uint32_t op, uint32_t slot, const char *host,
		 struct model_series *out)
{
	struct sctx *c;
	uint32_t want = MODEL_NO_HOST, *ops;
	size_t nops;

	memset(out, 0, sizeof *out);
	out->op = op;
	out->slot = slot;
	if (op >= model_op_count(m))
		return TD_ERR_RANGE;
	if (host && (want = model_host_key(m, host)) == MODEL_NO_HOST)
		return TD_OK;

	c = xcalloc(1, sizeof *c);
	c->m = m;
	c->s = out;
	nops = model_op_same_name(m, op, &ops);
	for (size_t k = 0; k < nops; k++) {
		/* another op of the name joins unless it ran in a step (and on a
		 * host) the series holds: a run's own copy of the graph, or a
		 * rank's, but not a second op of that name in the same step */
		if (k > 0 && scan_op(c, ops[k], slot, want, overlaps))
			continue;
		scan_op(c, ops[k], slot, want, fold);
	}
	free(ops);
	for (size_t k = 0; k < out->n; k++) {
		fill_point(m, &out->points[k]);
		out->known |= out->points[k].known;
	}
	for (size_t k = 0; k < out->n; k++)
		if (!c->seen[c->point_host[k]]) {
			c->seen[c->point_host[k]] = true;
			out->nhosts++;
		}
	if (out->n > 1)
		td_sort(out->points, out->n, sizeof *out->points, point_cmp);
	hashtab_u64_done(&c->by_key);
	free(c->point_host);
	free(c);
	return TD_OK;
}

void
model_series_done(struct model_series *s)
{
	if (!s)
		return;
	free(s->points);
	memset(s, 0, sizeof *s);
}
