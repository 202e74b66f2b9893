/*
 * model_diff_metrics.c - how far apart the two tensors of an aligned pair
 * are, whether that is a divergence, the first divergence in A's row order
 * and its cause (see model_diff.h for the rules).
 *
 * Values are compared element by element in one pass over both decoded
 * tensors, accumulating sums (no copy, no per-element allocation): memory is
 * the two decoded tensors, released before the next pair.
 */
#include "model/model_diff.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_diff_state.h"

int64_t
diff_row_step(struct model *m, uint64_t i)
{
	int64_t step = -1;

	model_trace_hosts(m, i, 1, NULL, &step);
	return step;
}

const char *
model_diff_cause_name(enum model_diff_cause c)
{
	switch (c) {
	case DIFF_CAUSE_INPUTS: return "inputs differ";
	case DIFF_CAUSE_OP: return "op diverged";
	default: return NULL;
	}
}

/* ---- tolerances ------------------------------------------------------- */

struct tol {
	double rtol, atol, cos_min;
};

static struct tol
dtype_tol(enum td_dtype dt)
{
	switch (dt) {
	case DTYPE_FLOAT64: return (struct tol){ 1e-7, 1e-9, 0.99999 };
	case DTYPE_FLOAT32: return (struct tol){ 1e-5, 1e-7, 0.9999 };
	case DTYPE_FLOAT16: return (struct tol){ 1e-3, 1e-5, 0.999 };
	case DTYPE_BFLOAT16: return (struct tol){ 8e-3, 1e-4, 0.99 };
	default: return (struct tol){ 0, 0, -2 };
	}
}

/* The looser of the two dtypes' defaults, then the user's overrides. */
static struct tol
pair_tol(const struct model_diff *d, const struct model_brief *a, const struct model_brief *b)
{
	struct tol ta = dtype_tol((a->known & SUM_DTYPE) ? a->dtype : DTYPE_FLOAT32);
	struct tol tb = dtype_tol((b->known & SUM_DTYPE) ? b->dtype : DTYPE_FLOAT32);
	struct tol t = {
		fmax(ta.rtol, tb.rtol), fmax(ta.atol, tb.atol), fmin(ta.cos_min, tb.cos_min),
	};

	if (d->rtol >= 0)
		t.rtol = d->rtol;
	if (d->atol >= 0)
		t.atol = d->atol;
	if (d->cos_min >= 0)
		t.cos_min = d->cos_min;
	return t;
}

/* ---- summaries ---------------------------------------------------------- */

static bool
close_enough(double x, double y, const struct tol *t)
{
	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y);
	if (isinf(x) || isinf(y))
		return x == y;
	return fabs(x - y) <= t->atol + t->rtol * fabs(x);
}

static int
dtype_kind(enum td_dtype dt)
{
	if (td_dtype_is_float(dt))
		return 1;
	if (dt == DTYPE_BOOL)
		return 2;
	if (dt >= DTYPE_INT8 && dt <= DTYPE_UINT64)
		return 3;
	return 4 + (int)dt;
}

/* Whether both summaries know their shapes and the dims differ. */
static bool
dims_differ(const struct td_summary *a, const struct td_summary *b)
{
	if ((a->known & SUM_SHAPE) && (b->known & SUM_SHAPE)) {
		if (a->rank != b->rank || a->ndims != b->ndims)
			return true;
		if (memcmp(a->dims, b->dims, (size_t)a->ndims * sizeof(a->dims[0])) != 0)
			return true;
	}
	return false;
}

/* dims_differ of two exact briefs (model_brief_of true): at one rank,
 * equal dims are equal shape words. */
static bool
brief_dims_differ(const struct model_brief *a, const struct model_brief *b)
{
	return (a->known & SUM_SHAPE) && (b->known & SUM_SHAPE) &&
	       (a->rank != b->rank || a->shape != b->shape);
}

/* Whether the non-finite counts (or, without them, the flags) differ;
 * their deltas into x unless x is NULL. */
static bool
nonfinite_differs(const struct model_brief *a, const struct model_brief *b, struct model_diff_metrics *x)
{
	bool counts = false, differs = false;

	if ((a->known & SUM_NAN) && (b->known & SUM_NAN)) {
		if (x)
			x->nan_delta = (double)(b->nan - a->nan);
		differs |= a->nan != b->nan;
		counts = true;
	}
	if ((a->known & SUM_NEG_INF) && (b->known & SUM_NEG_INF) && (a->known & SUM_POS_INF) &&
	    (b->known & SUM_POS_INF)) {
		if (x)
			x->inf_delta = (double)(b->neg_inf + b->pos_inf) - (double)(a->neg_inf + a->pos_inf);
		differs |= a->neg_inf != b->neg_inf || a->pos_inf != b->pos_inf;
		counts = true;
	}
	if (!counts)
		differs = model_brief_nonfinite(a) != model_brief_nonfinite(b);
	return differs;
}

static double
zero_fraction(const struct td_summary *s)
{
	if (!(s->known & SUM_ZERO) || !(s->known & SUM_ELEMENTS) || s->elements <= 0)
		return NAN;
	return (double)s->zero / (double)s->elements;
}

/* Summary metrics into x but the zero fraction's (pair_verdict's); returns
 * the reason of a divergence seen in them, or NULL.  dims: whether both
 * know their shapes and the dims differ.  x NULL: the reason alone, no
 * metrics filled (a batch's pairs whose rows hold no values keep only the
 * verdict: settle_range). */
static const char *
summary_metrics(const struct model_brief *a, const struct model_brief *b, bool dims,
		const struct tol *t, bool values, struct model_diff_metrics *x)
{
	const char *why = NULL;
	bool shape = dims || ((a->known & SUM_ELEMENTS) && (b->known & SUM_ELEMENTS) &&
			      a->elements != b->elements);
	bool dtype = (a->known & SUM_DTYPE) && (b->known & SUM_DTYPE) && a->dtype != b->dtype;

	if (x) {
		x->shape_differs = shape;
		x->dtype_differs = dtype;
	}
	if (nonfinite_differs(a, b, x))
		why = "nonfinite";
	if (dtype && dtype_kind(a->dtype) != dtype_kind(b->dtype))
		why = "dtype";
	if (shape)
		why = "shape";
	if ((a->known & SUM_MINMAX) && (b->known & SUM_MINMAX)) {
		if (x) {
			x->min_delta = b->min - a->min;
			x->max_delta = b->max - a->max;
		}
		if (!why && !values && (!close_enough(a->min, b->min, t) || !close_enough(a->max, b->max, t)))
			why = "summary";
	}
	if ((a->known & SUM_MEAN) && (b->known & SUM_MEAN)) {
		if (x)
			x->mean_delta = b->mean - a->mean;
		if (!why && !values && !close_enough(a->mean, b->mean, t))
			why = "summary";
	}
	return why;
}

/* ---- values --------------------------------------------------------------- */

struct acc {
	double dot, na2, nb2, sq, max_abs, max_rel, abs_a, abs_b;
	int64_t within, finite, rel_n;
	int64_t nonfinite_mismatch;     /* positions apart by a non-finite value */
};

static void
acc_add(struct acc *s, double x, double y, const struct tol *t)
{
	double e;

	if (close_enough(x, y, t))
		s->within++;
	if (!isfinite(x) || !isfinite(y)) {
		/* NaN against NaN, +Inf against +Inf are equal; anything else
		 * with a non-finite side is infinitely far apart */
		if (!(isnan(x) && isnan(y)) && x != y)
			s->nonfinite_mismatch++;
		return;
	}
	e = fabs(x - y);
	s->dot += x * y;
	s->na2 += x * x;
	s->nb2 += y * y;
	s->sq += e * e;
	s->abs_a += fabs(x);
	s->abs_b += fabs(y);
	s->finite++;
	if (e > s->max_abs)
		s->max_abs = e;
	if (x != 0) {
		s->rel_n++;
		if (e / fabs(x) > s->max_rel)
			s->max_rel = e / fabs(x);
	}
}

/* Whether the cosine says anything: a side whose norm tolerance cannot
 * tell from zero (every element within atol of 0) has no direction
 * ([1e-45, -1e-45, 0] against zeros is equal, not at cosine 0). */
static bool
cosine_meaningful(const struct acc *s, const struct tol *t)
{
	double floor = t->atol * t->atol * (double)s->finite;

	return s->na2 > floor && s->nb2 > floor;
}

static double
cosine(const struct acc *s)
{
	if (s->na2 == 0 && s->nb2 == 0)
		return 1.0;
	if (s->na2 == 0 || s->nb2 == 0)
		return 0.0;
	return s->dot / sqrt(s->na2) / sqrt(s->nb2);
}

/* Value metrics over equal element counts; returns a reason or NULL. */
static const char *
value_metrics(const struct td_tensor *a, const struct td_tensor *b, const struct tol *t,
	      struct model_diff_metrics *x)
{
	struct acc s = {0};
	int64_t i;

	for (i = 0; i < a->n; i++)
		acc_add(&s, td_tensor_get(a, i), td_tensor_get(b, i), t);
	x->within = a->n ? (double)s.within / (double)a->n : 1.0;
	x->finite_positions = (double)s.finite;
	x->nonfinite_mismatch = (double)s.nonfinite_mismatch;
	if (s.finite) {
		x->cosine = cosine(&s);
		x->max_abs_err = s.max_abs;
		x->rmse = sqrt(s.sq / (double)s.finite);
		x->abs_mean_delta = (s.abs_b - s.abs_a) / (double)s.finite;
	}
	if (s.rel_n)
		x->max_rel_err = s.max_rel;
	if (s.nonfinite_mismatch) {
		/* -1 against -Inf is an infinite error, whatever the finite
		 * positions say (cosine and RMSE are over those only) */
		x->max_abs_err = x->max_rel_err = INFINITY;
		return "nonfinite";
	}
	if (s.within < a->n)
		return "values";
	if (s.finite && x->cosine < t->cos_min && cosine_meaningful(&s, t))
		return "cosine";
	return NULL;
}

static bool
has_values(const struct model_detail *d)
{
	return d->noutputs && d->values && d->values[0] && d->values[0]->data;
}

static void
metrics_init(struct model_diff_metrics *x)
{
	memset(x, 0, sizeof(*x));
	x->cosine = x->max_abs_err = x->max_rel_err = x->rmse = x->within = NAN;
	x->nan_delta = x->inf_delta = NAN;
	x->min_delta = x->max_delta = x->mean_delta = x->abs_mean_delta = NAN;
	x->zero_fraction_delta = NAN;
	x->finite_positions = x->nonfinite_mismatch = NAN;
}

/* The summary fields the verdict reads (summary_metrics, pair_tol), and
 * the metrics (the zero fraction too). */
#define VERDICT_FIELDS (SUM_DTYPE | SUM_RANK | SUM_SHAPE | SUM_ELEMENTS | SUM_NAN | \
			SUM_NEG_INF | SUM_POS_INF | SUM_NONFINITE | SUM_MINMAX | SUM_MEAN)
#define ROW_FIELDS (VERDICT_FIELDS | SUM_ZERO)

/* Row i's summary into *s: when its record holds no values, from the
 * summary columns (they hold what its decode gives, shape included) or,
 * without them, the row cache's summary decode (the same summary, read
 * without unpacking the record: a cold diff's cost); else decoded into
 * *md (its values there too). */
static void
row_fetch(struct model *m, uint64_t i, struct model_detail *md, struct td_summary *s)
{
	struct model_fields f;

	if (model_trace_no_values(m, i) && model_trace_fields(m, i, ROW_FIELDS, &f)) {
		*s = f.s;
		return;
	}
	model_trace_detail(m, i, md);
	if (md->noutputs && md->summaries)
		*s = md->summaries[0];
}

/* Fills x from both rows' summaries sa, sb and decoded details da, db
 * (values there, or none); returns whether the pair diverged. */
static bool
pair_verdict(const struct model_diff *d, const struct td_summary *sa, const struct td_summary *sb,
	     const struct model_detail *da, const struct model_detail *db,
	     struct model_diff_metrics *x)
{
	const char *why, *vwhy = NULL;
	struct model_brief ba, bb;
	bool values;
	struct tol t;

	metrics_init(x);
	/* the dims from the summaries themselves: their briefs' shape words
	 * need not be exact */
	model_brief_of(sa, ~0u, &ba);
	model_brief_of(sb, ~0u, &bb);
	t = pair_tol(d, &ba, &bb);
	values = has_values(da) && has_values(db) && da->values[0]->n == db->values[0]->n &&
		 da->values[0]->dtype != DTYPE_STRING && db->values[0]->dtype != DTYPE_STRING;
	why = summary_metrics(&ba, &bb, dims_differ(sa, sb), &t, values, x);
	x->zero_fraction_delta = zero_fraction(sb) - zero_fraction(sa);
	if (values) {
		x->values = true;
		vwhy = value_metrics(da->values[0], db->values[0], &t, x);
	}
	x->rtol = t.rtol, x->atol = t.atol, x->cos_min = t.cos_min;
	/* a non-finite mismatch in the values leads: it is the worst */
	x->reason = vwhy && !strcmp(vwhy, "nonfinite") ? vwhy : why ? why : vwhy;
	return x->reason != NULL;
}

/* Reads both rows of pair k and fills x; returns whether it diverged. */
static bool
pair_metrics(struct model_diff *d, uint64_t k, struct model_diff_metrics *x)
{
	struct model_detail da = {0}, db = {0};
	struct td_summary sa = {0}, sb = {0};
	bool div;

	row_fetch(d->a, d->pa[k], &da, &sa);
	row_fetch(d->b, d->pb[k], &db, &sb);
	div = pair_verdict(d, &sa, &sb, &da, &db, x);
	model_detail_done(&da);
	model_detail_done(&db);
	return div;
}

/* ---- pairs a batch at a time -------------------------------------------- */

/* A scan in pair order (the first divergence, the counts) reads the pairs
 * whose two records hold no values a batch at a time: B's rows on a second
 * thread while this one reads A's.  Two models, two readers, no lock in
 * common, so on a cold dump (no summary columns: every row a decode) the
 * reads take about half the wall time; with the columns a side's batch is
 * one model_trace_briefs_novalues (one lock a block of rows).  A batch
 * starts small (a divergence early on wastes little) and doubles while the
 * scan goes on in order, up to BATCH_MAX pairs: each batch is two hand-offs
 * between the threads (a futex wake and sleep each), and 4,096 made 200
 * batches of the bench's 200,000-entry pair's 800,000 pairs (warm compare
 * 0.19 s mean); 16,384 make 50 (0.16 s), 2.9 MB of batch; 65,536 gained
 * nothing more for 4 MB more. */
#define BATCH_FIRST 64
#define BATCH_MAX 16384

struct side_batch {
	struct model *m;
	const uint32_t *rows;
	size_t n;
	uint64_t row[BATCH_MAX];
	struct model_brief f[BATCH_MAX];
	bool ok[BATCH_MAX];         /* the record holds no values; f is its exact brief */
};

static void *
batch_fetch(void *arg)
{
	struct side_batch *b = arg;
	size_t k;

	for (k = 0; k < b->n; k++)
		b->row[k] = b->rows[k];
	model_trace_briefs_novalues(b->m, b->row, b->n, VERDICT_FIELDS, b->f, b->ok);
	return NULL;
}

/* The verdicts of pairs [k + lo, k + hi) of a fetched batch whose rows
 * both hold no values (pair_verdict: a function of the two summaries and
 * d's tolerances); the others stay unknown. */
static void
settle_range(struct model_diff *d, const struct side_batch *a, const struct side_batch *b,
	     uint64_t k, size_t lo, size_t hi)
{
	/* pair_tol is a function of the two dtypes it reads: kept for the
	 * next pair of the same two (most pairs of a dump) */
	int last_a = 0, last_b = 0;
	bool have = false;
	struct tol t = {0};
	size_t i;

	for (i = lo; i < hi; i++)
		if (a->ok[i] && b->ok[i] && d->status[k + i] == DS_UNKNOWN) {
			const struct model_brief *sa = &a->f[i], *sb = &b->f[i];
			int da = (sa->known & SUM_DTYPE) ? (int)sa->dtype : DTYPE_FLOAT32;
			int db = (sb->known & SUM_DTYPE) ? (int)sb->dtype : DTYPE_FLOAT32;

			if (!have || da != last_a || db != last_b) {
				t = pair_tol(d, sa, sb);
				last_a = da, last_b = db, have = true;
			}
			/* pair_verdict without values: summary_metrics' reason */
			d->status[k + i] = summary_metrics(sa, sb, brief_dims_differ(sa, sb), &t,
							   false, NULL) ? DS_DIVERGED : DS_EQUAL;
		}
}

/* A batch's second thread: B's rows fetched while the calling thread
 * fetches A's, then, both fetched (the barrier), the verdicts of the
 * upper half while the calling thread gives the lower half's.  The two
 * halves' status bytes are apart. */
struct settle_job {
	struct model_diff *d;
	const struct side_batch *a;
	struct side_batch *b;
	uint64_t k;
	size_t lo, hi;
	pthread_barrier_t fetched;
};

static void *
settle_upper(void *arg)
{
	struct settle_job *j = arg;

	batch_fetch(j->b);
	pthread_barrier_wait(&j->fetched);
	settle_range(j->d, j->a, j->b, j->k, j->lo, j->hi);
	return NULL;
}

/* One second thread for all of a diff's helper work: the batches (50 at
 * 800,000 pairs) and lockstep's blocks of B's keys (100): a thread
 * started and joined for each was 300 clones a compare (batches of at
 * most 4,096 then).  It waits for a job, runs it, says it is done, and
 * waits again until diff_worker_free tells it to quit. */
struct diff_worker {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cond;        /* a job posted, a job done, quit */
	void *(*fn)(void *);        /* the posted job, NULL once done */
	void *arg;
	bool quit;
};

static void *
worker_main(void *arg)
{
	struct diff_worker *w = arg;
	void *(*fn)(void *);

	pthread_mutex_lock(&w->mu);
	for (;;) {
		while (!w->fn && !w->quit)
			pthread_cond_wait(&w->cond, &w->mu);
		if (!w->fn)
			break;
		fn = w->fn;
		pthread_mutex_unlock(&w->mu);
		fn(w->arg);
		pthread_mutex_lock(&w->mu);
		w->fn = NULL;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

bool
diff_worker_post(struct model_diff *d, void *(*fn)(void *), void *arg)
{
	struct diff_worker *w = d->worker;

	if (!w) {
		w = xcalloc(1, sizeof(*w));
		pthread_mutex_init(&w->mu, NULL);
		pthread_cond_init(&w->cond, NULL);
		if (pthread_create(&w->th, NULL, worker_main, w) != 0) {
			pthread_cond_destroy(&w->cond);
			pthread_mutex_destroy(&w->mu);
			free(w);
			return false;
		}
		d->worker = w;
	}
	pthread_mutex_lock(&w->mu);
	w->fn = fn;
	w->arg = arg;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->mu);
	return true;
}

void
diff_worker_wait(struct model_diff *d)
{
	struct diff_worker *w = d->worker;

	pthread_mutex_lock(&w->mu);
	while (w->fn)
		pthread_cond_wait(&w->cond, &w->mu);
	pthread_mutex_unlock(&w->mu);
}

void
diff_worker_free(struct diff_worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

/* Settles pairs [k, k + the batch size) whose rows hold no values, as
 * pair_metrics would; the others stay unknown (pair_metrics decodes them). */
static void
batch_settle(struct model_diff *d, uint64_t k)
{
	struct side_batch *a, *b;
	struct settle_job job;
	bool threaded = false;
	size_t n;

	d->batch = k == d->batch_end && d->batch ? TD_MIN(d->batch * 2, (size_t)BATCH_MAX)
						 : BATCH_FIRST;
	n = (size_t)TD_MIN((uint64_t)d->batch, d->npairs - k);
	d->batch_end = k + n;
	if (!d->batches)            /* kept until model_diff_free: not zeroed nor faulted again */
		d->batches = xmalloc(2 * sizeof(struct side_batch));
	a = d->batches, b = a + 1;
	a->m = d->a, a->rows = d->pa + k, a->n = n;
	b->m = d->b, b->rows = d->pb + k, b->n = n;
	job = (struct settle_job){ d, a, b, k, n / 2, n };
	if (pthread_barrier_init(&job.fetched, NULL, 2) == 0) {
		threaded = diff_worker_post(d, settle_upper, &job);
		if (!threaded)
			pthread_barrier_destroy(&job.fetched);
	}
	batch_fetch(a);
	if (threaded) {
		pthread_barrier_wait(&job.fetched);
		settle_range(d, a, b, k, 0, n / 2);
		diff_worker_wait(d);
		pthread_barrier_destroy(&job.fetched);
	} else {
		batch_fetch(b);
		settle_range(d, a, b, k, 0, n);
	}
}

/* ---- divergence and cause ----------------------------------------------- */

bool
model_diff_diverged(struct model_diff *d, uint64_t k)
{
	struct model_diff_metrics x;

	if (k >= d->npairs)
		return false;
	if (d->status[k] == DS_UNKNOWN && k >= d->batch_end)
		batch_settle(d, k);
	if (d->status[k] == DS_UNKNOWN)
		d->status[k] = pair_metrics(d, k, &x) ? DS_DIVERGED : DS_EQUAL;
	return d->status[k] == DS_DIVERGED;
}

/* "inputs differ" when an input of A's row (its latest trace row before
 * it) is paired and diverged, else "op diverged". */
static enum model_diff_cause
cause_of(struct model_diff *d, uint64_t k)
{
	struct model_link *in = NULL;
	size_t n = model_trace_inputs(d->a, d->pa[k], &in), i;
	enum model_diff_cause c = DIFF_CAUSE_OP;
	int64_t p;

	for (i = 0; i < n && c == DIFF_CAUSE_OP; i++) {
		if (in[i].trace_index < 0)
			continue;
		p = model_diff_pair_of_a(d, (uint64_t)in[i].trace_index);
		if (p >= 0 && model_diff_diverged(d, (uint64_t)p))
			c = DIFF_CAUSE_INPUTS;
	}
	free(in);
	return c;
}

enum td_status
model_diff_pair_get(struct model_diff *d, uint64_t k, struct model_diff_pair *p)
{
	bool div;

	if (k >= d->npairs)
		return TD_ERR_RANGE;
	memset(p, 0, sizeof(*p));
	p->pair = k;
	p->a_index = d->pa[k];
	p->b_index = d->pb[k];
	/* the row's step as trace, why and origins give it (the reader's
	 * step, else its execution's or top-level call's), not only the
	 * reader's step the alignment uses */
	p->step = model_trace_step(d->a, p->a_index);
	model_trace_get(d->a, p->a_index, &p->a);
	model_trace_get(d->b, p->b_index, &p->b);
	div = pair_metrics(d, k, &p->metrics);
	d->status[k] = div ? DS_DIVERGED : DS_EQUAL;
	p->diverged = div;
	p->cause = div ? cause_of(d, k) : DIFF_CAUSE_NONE;
	return TD_OK;
}

int64_t
model_diff_first_step(struct model_diff *d, uint64_t budget)
{
	while (d->first == -2 && budget-- > 0) {
		if (d->first_scan >= d->npairs)
			d->first = -1;
		else if (model_diff_diverged(d, d->first_scan))
			d->first = (int64_t)d->first_scan;
		else
			d->first_scan++;
	}
	return d->first;
}

int64_t
model_diff_first(struct model_diff *d)
{
	return model_diff_first_step(d, UINT64_MAX);
}

uint64_t
model_diff_scanned(const struct model_diff *d)
{
	return d->first_scan;
}
