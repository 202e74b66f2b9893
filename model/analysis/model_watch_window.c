/*
 * model_watch_window.c - `watches check` a window of trace rows at a
 * time (issue 25): the summary columns every watch reads are read for
 * the window under one lock (model_trace_field_window), each watch is
 * evaluated over them as arrays (expr_eval_window), its op fields (op,
 * type, role) from the op's fields read once per op, its step fields
 * from the window of previous rows the step index gives (step_prev_window)
 * and those rows' fields from this window or the one before (a
 * tensor's previous step is usually a few hundred rows back), and the
 * answers are counted row by row in row order.
 *
 * The answers are watch_check_trace's (model_watch_check.c): a row the
 * columns do not hold (not filled yet, corrupt), a row whose step fields
 * need its values (a record that may hold them), and a row some watch
 * hits (its hit records where the step fields came from, which depends
 * on the row by row walk's order) are handed to it.
 * Not for: watches that read the host, the step, the row's own facts
 * (requires_grad, prefix, a role the dump states per row), or more
 * watches than an op's mask holds: the whole run stays row by row.
 */
#include "model_watch_set.h"

#include <stdlib.h>
#include <string.h>

/* The step fields the window answers, and those of them that compare
 * values when both records hold some. */
#define STEP_FIELDS                                                                          \
	(UINT64_C(1) << EXPR_F_DELTA_ABS_MEAN | UINT64_C(1) << EXPR_F_UPDATE_RATIO |         \
	 UINT64_C(1) << EXPR_F_UNCHANGED | UINT64_C(1) << EXPR_F_FIRST_RECORD)
#define VALUE_FIELDS (UINT64_C(1) << EXPR_F_UPDATE_RATIO | UINT64_C(1) << EXPR_F_UNCHANGED)
#define OP_FIELDS                                                                            \
	(UINT64_C(1) << EXPR_F_OP | UINT64_C(1) << EXPR_F_TYPE | UINT64_C(1) << EXPR_F_ROLE)

struct watch_window {
	struct model_field_window *cur, *prev; /* this window's columns, the one before */
	bool have_prev;             /* prev holds a window read with need */
	uint32_t need;              /* the SUM_* bits prev was read with */
	uint32_t op[EXPR_WINDOW];   /* the rows' ops */
	uint64_t may[EXPR_WINDOW];  /* the watches each row's op leaves to it */
	int64_t prev_row[EXPR_WINDOW];  /* the rows' previous steps (step fields read) */
	struct step_stats now[EXPR_WINDOW], was[EXPR_WINDOW];
	bool ask[EXPR_WINDOW];      /* checked row by row */
	uint8_t *out;               /* nmemo x EXPR_WINDOW answers */
	struct expr_memo **mm;      /* per watch: its "~" answers by text */
	const struct expr **mm_e;   /* the expression each memo is for */
	size_t nmemo;
	struct expr_leaves *lv;     /* leaves the watches share, a window */
};

/* What the column callback answers from: the window, and the watch
 * being evaluated (its tolerance). */
struct wctx {
	struct model_watch_run *r;
	struct watch_window *w;
	const struct step_tol *tol;
};

void
watch_window_free(struct watch_window *w)
{
	if (!w)
		return;
	for (size_t k = 0; k < w->nmemo; k++)
		expr_memo_free(w->mm[k]);
	free(w->mm);
	free(w->mm_e);
	free(w->out);
	expr_leaves_free(w->lv);
	free(w->cur);
	free(w->prev);
	free(w);
}

/* The SUM_* bits the watches of s read (0 and *able false when some
 * watch reads a field the window does not answer), *fields their fields. */
static uint32_t
watches_need(const struct watch_set *s, const struct model_watch_run *r, bool *able,
	     uint64_t *fields)
{
	uint32_t need = 0;

	*fields = 0;
	*able = s->n <= MAY_WATCHES;
	for (size_t k = 0; *able && k < s->n; k++)
		if (s->v[k].e)
			*fields |= expr_fields(s->v[k].e);
	for (int f = 0; *able && f < EXPR_F_COUNT; f++) {
		uint64_t bit = UINT64_C(1) << f;

		if (!(*fields & bit))
			continue;
		if (f == EXPR_F_ROLE && r->row_facts)
			*able = false;          /* a role the dump may state per row */
		else if (!(OP_FIELDS & bit) && !(STEP_FIELDS & bit) && !where_field_bits(f))
			*able = false;
		need |= where_field_bits(f);
	}
	if (*fields & STEP_FIELDS)
		need |= STEP_SUMMARY_BITS;
	return need;
}

static struct watch_window *
window_state(struct model_watch_run *r, size_t nwatches)
{
	struct watch_window *w = r->win;

	if (!w) {
		w = r->win = xcalloc(1, sizeof(*w));
		w->cur = xmalloc(sizeof(*w->cur));
		w->prev = xmalloc(sizeof(*w->prev));
		w->lv = expr_leaves_new();
	}
	if (w->nmemo < nwatches) {
		w->mm = xrealloc(w->mm, nwatches * sizeof(*w->mm));
		w->mm_e = xrealloc(w->mm_e, nwatches * sizeof(*w->mm_e));
		w->out = xrealloc(w->out, nwatches * EXPR_WINDOW);
		for (size_t k = w->nmemo; k < nwatches; k++) {
			w->mm[k] = NULL;
			w->mm_e[k] = NULL;
		}
		w->nmemo = nwatches;
	}
	return w;
}

/* Row k's (first + k) step fields from the window f. */
static void
stats_at(const struct model_field_window *f, size_t k, struct step_stats *s)
{
	s->known = f->known[k] & STEP_SUMMARY_BITS;
	s->nan = (int64_t)f->v[MODEL_FCOL_NAN][k];
	s->elements = (int64_t)f->v[MODEL_FCOL_ELEMENTS][k];
	memcpy(&s->min, &f->v[MODEL_FCOL_MIN][k], sizeof(s->min));
	memcpy(&s->max, &f->v[MODEL_FCOL_MAX][k], sizeof(s->max));
	memcpy(&s->mean, &f->v[MODEL_FCOL_MEAN][k], sizeof(s->mean));
	memcpy(&s->abs_mean, &f->v[MODEL_FCOL_ABS_MEAN][k], sizeof(s->abs_mean));
}

/* Row p's step fields: from the window f when it holds p filled, else
 * read as step_field does (model_trace_fields). */
static void
stats_of_row(struct model *m, const struct model_field_window *f, uint64_t p, struct step_stats *s)
{
	struct model_fields mf;

	if (p >= f->first && p - f->first < f->n && f->filled[p - f->first]) {
		stats_at(f, (size_t)(p - f->first), s);
		return;
	}
	memset(&mf.s, 0, sizeof(mf.s));
	if (!model_trace_fields(m, p, STEP_SUMMARY_BITS, &mf))
		memset(&mf.s, 0, sizeof(mf.s));
	step_stats_of(&mf.s, s);
}

/* The step fields' inputs for the window's rows some step watch may
 * hit: their previous rows, both records' fields; a row whose update
 * ratio or unchanged may compare values goes row by row. */
static void
step_inputs(struct model *m, struct watch_window *w, const struct watch_set *s, uint64_t first,
	    size_t n)
{
	uint64_t step_w = 0, value_w = 0;

	for (size_t k = 0; k < s->n; k++) {
		uint64_t f = s->v[k].e ? expr_fields(s->v[k].e) : 0;

		step_w |= (uint64_t)((f & STEP_FIELDS) != 0) << k;
		value_w |= (uint64_t)((f & VALUE_FIELDS) != 0) << k;
	}
	step_prev_window(m, first, n, w->prev_row);
	for (size_t k = 0; k < n; k++) {
		int64_t p = w->prev_row[k];

		if (!(w->may[k] & step_w) || p < 0 || !w->cur->filled[k])
			continue;
		stats_at(w->cur, k, &w->now[k]);
		if ((uint64_t)p >= first)
			stats_of_row(m, w->cur, (uint64_t)p, &w->was[k]);
		else if (w->have_prev)
			stats_of_row(m, w->prev, (uint64_t)p, &w->was[k]);
		else
			stats_of_row(m, w->cur, (uint64_t)p, &w->was[k]);
		/* the columns know the record holds no values: statistics */
		if ((w->may[k] & value_w) && !model_trace_no_values(m, first + k))
			w->ask[k] = true;
	}
}

/* Field f of the window's rows, as watch_check_trace's row context reads
 * it (rows no watch reads, or checked row by row, may hold anything). */
static void
window_col(void *ctx, enum expr_field f, size_t n, uint8_t *avail, double *num, const char **str)
{
	struct wctx *c = ctx;
	struct watch_window *w = c->w;
	size_t k;

	if (f == EXPR_F_OP || f == EXPR_F_TYPE || f == EXPR_F_ROLE) {
		memset(avail, EXPR_KNOWN, n);
		for (k = 0; k < n; k++) {
			const struct model_watch_op *o = &c->r->ops[w->op[k]];

			str[k] = f == EXPR_F_OP ? o->name : f == EXPR_F_TYPE ? o->type : o->role;
		}
		return;
	}
	if (!(STEP_FIELDS & UINT64_C(1) << f)) {
		where_field_col(w->cur, f, n, avail, num, str);
		return;
	}
	for (k = 0; k < n; k++) {
		int64_t p = w->prev_row[k];

		if (f == EXPR_F_FIRST_RECORD) {
			avail[k] = EXPR_KNOWN;
			num[k] = p < 0;
		} else if (p < 0 || w->ask[k] || !w->cur->filled[k]) {
			avail[k] = EXPR_ABSENT;
		} else {
			avail[k] = (uint8_t)step_stats_field(&w->now[k], &w->was[k], f, c->tol, &num[k]);
		}
	}
}

/* The answers of every watch a row of the window may hit, into w->out. */
static void
eval_watches(struct model_watch_run *r, struct watch_window *w, const struct watch_set *s,
	     size_t n)
{
	uint64_t any = 0;

	for (size_t k = 0; k < n; k++)
		any |= w->may[k];
	expr_leaves_reset(w->lv);
	for (size_t k = 0; k < s->n; k++) {
		struct wctx c = { r, w, &s->v[k].tol };

		if (!(any >> k & 1))
			continue;
		if (w->mm_e[k] != s->v[k].e) {  /* another expression: its own answers */
			expr_memo_free(w->mm[k]);
			w->mm[k] = expr_memo_new();
			w->mm_e[k] = s->v[k].e;
		}
		expr_eval_window_shared(s->v[k].e, n, window_col, &c, w->mm[k], w->lv,
					w->out + k * EXPR_WINDOW);
	}
}

/* Counts row first + k from the window's answers, or hands it to
 * watch_check_trace (not in the columns, values to compare, a hit). */
static void
count_row(struct model *m, struct model_watch_run *r, struct watch_window *w, size_t nwatches,
	  uint64_t first, size_t k, int64_t step)
{
	uint64_t may = w->may[k], unk = 0;

	if (r->step >= 0 && step != r->step)
		return;
	if (!w->cur->filled[k] || w->ask[k]) {
		watch_check_trace(m, r, first + k, step);
		return;
	}
	/* only the watches the row's op leaves to it (a few of the set) */
	for (uint64_t b = may; b; b &= b - 1) {
		size_t q = (size_t)__builtin_ctzll(b);
		uint8_t a = w->out[q * EXPR_WINDOW + k];

		if (a == EXPR_TRUE) {
			watch_check_trace(m, r, first + k, step);
			return;
		}
		unk |= (uint64_t)(a == EXPR_UNKNOWN) << q;
	}
	r->checked++;
	r->by_window++;
	for (uint64_t b = unk; b; b &= b - 1)
		watch_count_unknown(r, nwatches, (size_t)__builtin_ctzll(b));
	r->unknown += unk != 0;
}

size_t
watch_check_window(struct model *m, struct model_watch_run *r, uint64_t first, size_t n,
		   const int64_t *steps)
{
	struct watch_set *s = *model_watch_slot(m);
	struct model_row_facts facts;
	struct watch_window *w;
	uint64_t fields;
	uint32_t need, flags;
	bool able;
	size_t k, got;

	if (!s || first >= model_trace_count(m))
		return 0;
	if (r->row_facts < 0)           /* as watch_op_info: whether the reader states any */
		r->row_facts = model_trace_facts(m, first, false, &facts);
	need = watches_need(s, r, &able, &fields);
	if (!able)
		return 0;
	w = window_state(r, s->n);
	if (w->need != need)
		w->have_prev = false;
	w->need = need;
	got = model_trace_field_window(m, first, TD_MIN(n, (size_t)EXPR_WINDOW), need, w->cur);
	if (!got)
		return 0;
	for (k = 0; k < got; k++) {
		struct model_watch_op *o;

		w->op[k] = model_trace_op_flags(m, first + k, &flags);
		o = watch_op_info(m, r, w->op[k], first + k);
		w->may[k] = watch_op_may(m, r, o, w->op[k]);
		w->ask[k] = false;
	}
	if (fields & STEP_FIELDS)
		step_inputs(m, w, s, first, got);
	eval_watches(r, w, s, got);
	for (k = 0; k < got; k++)
		count_row(m, r, w, s->n, first, k, r->step >= 0 ? steps[k] : -1);
	/* this window is the next one's previous rows */
	struct model_field_window *t = w->prev;
	w->prev = w->cur;
	w->cur = t;
	w->have_prev = true;
	return got;
}
