/*
 * model_where_window.c - a condition on summary fields, op names and
 * types answered for a window of trace rows at once (issue 25): the
 * columns the condition names are read for the window under one lock
 * (model_trace_field_window), then the condition is evaluated over them
 * as arrays (expr_eval_window).  A row the columns do not hold is left
 * to the row by row path (where_trace), which decodes it.
 *
 * Each field's value and "not carried" are where_summary_field's
 * (model_where.c) for a summary read from the columns, and an op's name
 * and type are row_field's (by op id, read once), so a row's answer is
 * where_trace's.  Not for role, host, step, the row's own facts or step
 * fields: those stay row by row.
 */
#include "model/analysis/model_where.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_query.h"

/* wfield's bit for the op fields (no SUM_* bit: not read from columns) */
#define WF_OP (1u << 30)
#define WF_SUMMARY (SUM_DTYPE | SUM_RANK | SUM_ELEMENTS | SUM_NAN | SUM_NEG_INF | SUM_POS_INF |  \
		    SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE | SUM_MINMAX | SUM_MEAN |             \
		    SUM_ABS_MEAN | SUM_STD | SUM_L2NORM)
_Static_assert((WF_OP & WF_SUMMARY) == 0, "the op bit is no summary bit");

/* The window fields: the SUM_* bits a field reads and its column
 * (-1: from the meta word or two columns). */
static const struct {
	uint32_t bits;
	int col;
} wfield[EXPR_F_COUNT] = {
	[EXPR_F_NAN] = { SUM_NAN, MODEL_FCOL_NAN },
	[EXPR_F_NEG_INF] = { SUM_NEG_INF, MODEL_FCOL_NEG_INF },
	[EXPR_F_POS_INF] = { SUM_POS_INF, MODEL_FCOL_POS_INF },
	[EXPR_F_NEGATIVE] = { SUM_NEGATIVE, MODEL_FCOL_NEGATIVE },
	[EXPR_F_ZERO] = { SUM_ZERO, MODEL_FCOL_ZERO },
	[EXPR_F_POSITIVE] = { SUM_POSITIVE, MODEL_FCOL_POSITIVE },
	[EXPR_F_ELEMENTS] = { SUM_ELEMENTS, MODEL_FCOL_ELEMENTS },
	[EXPR_F_MIN] = { SUM_MINMAX, MODEL_FCOL_MIN },
	[EXPR_F_MAX] = { SUM_MINMAX, MODEL_FCOL_MAX },
	[EXPR_F_MEAN] = { SUM_MEAN, MODEL_FCOL_MEAN },
	[EXPR_F_ABS_MEAN] = { SUM_ABS_MEAN, MODEL_FCOL_ABS_MEAN },
	[EXPR_F_STD] = { SUM_STD, MODEL_FCOL_STD },
	[EXPR_F_L2NORM] = { SUM_L2NORM, MODEL_FCOL_L2NORM },
	[EXPR_F_ZERO_FRACTION] = { SUM_ZERO | SUM_ELEMENTS, -1 },
	[EXPR_F_ZERO_PERCENTAGE] = { SUM_ZERO | SUM_ELEMENTS, -1 },
	[EXPR_F_RANK] = { SUM_RANK, -1 },
	[EXPR_F_DTYPE] = { SUM_DTYPE, -1 },
	[EXPR_F_MAX_ABS] = { SUM_MINMAX, -1 },
	[EXPR_F_DTYPE_MAX] = { SUM_DTYPE, -1 },
	[EXPR_F_OP] = { WF_OP, -1 },           /* not summary bits: the op's names */
	[EXPR_F_TYPE] = { WF_OP, -1 },
};

struct where_window {
	struct model_field_window f;
	uint64_t fill_gen;          /* the model's when the names were read */
	const char **name, **type;  /* by op id, NULL not read yet */
	size_t cap;
	uint32_t *op;               /* the window's rows' ops (op fields asked) */
	struct expr_memo *mm;       /* "~" answers by text (interned: stable) */
	const struct expr *e;       /* the expression mm is for */
};

struct where_window *
where_window_new(void)
{
	struct where_window *w = xcalloc(1, sizeof(*w));

	w->op = xmalloc(MODEL_FIELD_WINDOW * sizeof(*w->op));
	w->mm = expr_memo_new();
	return w;
}

void
where_window_free(struct where_window *w)
{
	if (!w)
		return;
	free(w->name);
	free(w->type);
	free(w->op);
	expr_memo_free(w->mm);
	free(w);
}

/* What window_col answers from. */
struct wctx {
	struct model *m;
	struct where_window *w;
};

/* The names of op as row_field (model_where.c) reads them: by op id,
 * "" for both when the op has none; read once while no op is filled. */
static void
op_names(struct model *m, struct where_window *w, uint32_t op, const char **name,
	 const char **type)
{
	if (op >= w->cap) {
		size_t old = w->cap, cap = w->cap;

		TD_GROW(w->name, cap, (size_t)op + 1);
		TD_GROW(w->type, w->cap, (size_t)op + 1);
		memset(w->name + old, 0, (cap - old) * sizeof(*w->name));
		memset(w->type + old, 0, (w->cap - old) * sizeof(*w->type));
	}
	if (!w->name[op]) {
		model_op_names(m, op, &w->name[op], &w->type[op]);
		if (!w->name[op])
			w->name[op] = w->type[op] = "";
	}
	*name = w->name[op];
	*type = w->type[op];
}

bool
where_window_able(const struct expr *e)
{
	uint64_t f = expr_fields(e);

	for (int i = 0; i < EXPR_F_COUNT; i++)
		if ((f >> i & 1) && !wfield[i].bits)
			return false;
	return true;
}

static double
as_count(uint64_t v)
{
	return (double)(int64_t)v;
}

static double
as_real(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof d);
	return d;
}

uint32_t
where_field_bits(enum expr_field f)
{
	return f >= 0 && f < EXPR_F_COUNT ? wfield[f].bits & ~WF_OP : 0;
}

/* Whether row k of the window holds every summary bit of bits. */
static inline bool
holds(const struct model_field_window *w, size_t k, uint32_t bits)
{
	return (w->known[k] & bits) == bits;
}

/* A count or real column (col) of the rows holding bits. */
static void
col_numbers(const struct model_field_window *w, int col, uint32_t bits, size_t n, uint8_t *avail,
	    double *num, const char **str)
{
	const uint64_t *v = w->v[col];
	size_t k;

	for (k = 0; k < n; k++) {
		avail[k] = holds(w, k, bits) ? EXPR_KNOWN : EXPR_ABSENT;
		num[k] = 0;
		str[k] = NULL;
		if (avail[k] != EXPR_KNOWN)
			continue;
		num[k] = col >= MODEL_FCOL_MIN ? as_real(v[k]) : as_count(v[k]);
	}
}

/* zero_fraction (scale 1) or zero_percentage (100), as
 * where_summary_field: none of no elements. */
static void
zero_share(const struct model_field_window *w, double scale, uint32_t bits, size_t n,
	   uint8_t *avail, double *num, const char **str)
{
	const uint64_t *el = w->v[MODEL_FCOL_ELEMENTS], *z = w->v[MODEL_FCOL_ZERO];
	size_t k;

	for (k = 0; k < n; k++) {
		num[k] = 0;
		str[k] = NULL;
		avail[k] = EXPR_ABSENT;
		if (!holds(w, k, bits) || (int64_t)el[k] <= 0)
			continue;
		avail[k] = EXPR_KNOWN;
		num[k] = scale * as_count(z[k]) / (double)(int64_t)el[k];
	}
}

void
where_field_col(const struct model_field_window *w, enum expr_field f, size_t n, uint8_t *avail,
		double *num, const char **str)
{
	uint32_t bits = wfield[f].bits;
	int col = wfield[f].col;
	size_t k;

	/* a row the columns do not hold has no values in the window's
	 * arrays: none is read (0 and no name are its answer); one loop a
	 * kind of field, the field's test out of it */
	if (col >= 0) {
		col_numbers(w, col, bits, n, avail, num, str);
		return;
	}
	if (f == EXPR_F_ZERO_FRACTION || f == EXPR_F_ZERO_PERCENTAGE) {
		zero_share(w, f == EXPR_F_ZERO_PERCENTAGE ? 100.0 : 1.0, bits, n, avail, num, str);
		return;
	}
	for (k = 0; k < n; k++) {
		num[k] = 0;
		str[k] = NULL;
		avail[k] = holds(w, k, bits) ? EXPR_KNOWN : EXPR_ABSENT;
		if (avail[k] != EXPR_KNOWN)
			continue;
		if (f == EXPR_F_RANK) {
			num[k] = (double)w->rank[k];
		} else if (f == EXPR_F_MAX_ABS) {
			num[k] = fmax(fabs(as_real(w->v[MODEL_FCOL_MIN][k])),
				      fabs(as_real(w->v[MODEL_FCOL_MAX][k])));
		} else {
			enum td_dtype dt = (enum td_dtype)w->dtype[k];

			if (f == EXPR_F_DTYPE ? dt == DTYPE_INVALID : td_dtype_max(dt) == 0)
				avail[k] = EXPR_ABSENT;
			else if (f == EXPR_F_DTYPE)
				str[k] = td_dtype_name(dt);
			else
				num[k] = td_dtype_max(dt);
		}
	}
}

/* Field f of the window's rows (the filled ones; others are not read):
 * the op's names by op id, the rest from the columns. */
static void
window_col(void *ctx, enum expr_field f, size_t n, uint8_t *avail, double *num, const char **str)
{
	struct wctx *c = ctx;

	if (f == EXPR_F_OP || f == EXPR_F_TYPE) {
		memset(avail, EXPR_KNOWN, n);
		for (size_t k = 0; k < n; k++) {
			const char *name, *type;

			op_names(c->m, c->w, c->w->op[k], &name, &type);
			str[k] = f == EXPR_F_OP ? name : type;
		}
		return;
	}
	where_field_col(&c->w->f, f, n, avail, num, str);
}

size_t
where_trace_window(struct model *m, const struct expr *e, uint64_t first, size_t n,
		   struct where_window *w, uint8_t *out)
{
	uint64_t f = expr_fields(e), gen;
	uint32_t need = 0, flags;
	struct wctx c = { m, w };
	size_t k, filled = 0;

	for (int i = 0; i < EXPR_F_COUNT; i++)
		if (f >> i & 1)
			need |= wfield[i].bits;
	if (!model_trace_field_window(m, first, n, need & ~WF_OP, &w->f))
		return 0;
	for (k = 0; k < w->f.n; k++)
		filled += w->f.filled[k];
	if (filled && (need & WF_OP)) {
		model_ops_filled(m, &gen);
		if (gen != w->fill_gen && w->cap) {     /* a placeholder's names changed */
			memset(w->name, 0, w->cap * sizeof(*w->name));
			memset(w->type, 0, w->cap * sizeof(*w->type));
		}
		w->fill_gen = gen;
		for (k = 0; k < w->f.n; k++)
			w->op[k] = model_trace_op_flags(m, first + k, &flags);
	}
	if (w->e != e) {            /* another expression: its own answers */
		expr_memo_free(w->mm);
		w->mm = expr_memo_new();
		w->e = e;
	}
	if (filled)     /* else nothing read: every row asked */
		expr_eval_window(e, w->f.n, window_col, &c, w->mm, out);
	for (k = 0; filled < w->f.n && k < w->f.n; k++)     /* some rows not filled */
		if (!w->f.filled[k])
			out[k] = WHERE_ASK;
	return w->f.n;
}
