/*
 * model_step.c - a tensor against itself at the previous step: the step
 * fields of the condition language (delta_abs_mean, update_ratio,
 * unchanged, first_record).
 *
 * "The same tensor" is the same op, output slot and host; "the previous
 * step" is that tensor's last record in an earlier step (the reader's step:
 * run, iteration), or its previous record when the dump gives rows no step.
 * A dump that makes a graph per step (a session run's partition graph)
 * gives each step's copy of a tensor an op of its own: an op's first row
 * joins the tensor of the same op name, slot and host when that tensor's
 * op has no row after it and its last record is of an earlier step (so two
 * ops that share a name in one step, or run side by side, stay apart).
 * The index (per tensor its latest records; per trace row the earlier
 * record's row, for the last STEP_RING rows indexed) is built on first
 * use, in row order, and extended as the dump grows and rows are asked;
 * nothing is spent on it while no condition reads a step field.  A row
 * asked from before the ring is found by building the index again from
 * the first row (a scan asks in row order: never; memory stays bounded
 * whatever the dump's size).  The summaries compared are
 * STEP_SUMMARY_BITS from the summary columns (model_trace_fields); a row's
 * are kept when a step field reads them, so a scan in row order finds the
 * previous step's there, and the last row's lookup serves its other step
 * watches.
 *
 * update_ratio (mean |w_t - w_(t-1)| / mean |w_(t-1)|) and unchanged (every
 * element within rtol/atol) come from the values when both records hold
 * them, else from the statistics (|abs_mean_t - abs_mean_(t-1)| /
 * abs_mean_(t-1), a lower bound; equal counts, min, max and means within
 * the tolerance); the caller learns which.
 * Not for: rows of executions (eager ops have no steps to compare).
 * On the model's public API (model_query.h): the index lives in the
 * model's state slot MODEL_STATE_STEP_INDEX and reads rows' steps in
 * batches (one lock a batch, not a row), their ops and slots from the
 * flag bytes and their hosts a file span at a time.
 */
#include "model/analysis/model_where.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/hashtab.h"

struct step_ent {
	uint32_t op;                /* the op of its latest record */
	uint64_t last_row;          /* the tensor's latest record */
	int64_t last_step;          /* its step (-1 none) */
	int64_t prev_row;           /* latest record of an earlier step, -1 */
};

/* A row's STEP_SUMMARY_BITS fields, kept once a step field read them:
 * the same tensor's next record finds its previous step's here (a scan
 * in row order) instead of reading another window of the columns. */
struct step_seen {
	uint64_t row1;              /* row + 1; 0 empty */
	uint32_t known;
	int64_t nan, elements;
	double min, max, mean, abs_mean;
};
#define STEP_SEEN 65536u            /* direct-mapped by row */
#ifndef STEP_RING                   /* a build may make it small (its rebuild tried) */
#define STEP_RING (1u << 20)        /* rows whose previous record is kept (8 MiB) */
#endif

/* A cursor over the rows' file spans for their host keys: a file that
 * names its host gives every row of its span that key, asked once a
 * span (model_trace_span, model_file_host); a row of a file naming none
 * takes its own (model_trace_host, its execution's).  The key is
 * model_trace_keys', without its checkpoint search and lock a row. */
struct span_host {
	bool valid;                 /* [lo, hi) is a span (hi capped at the rows
				     * indexed when it was read: a later file
				     * may start past them) */
	bool named;                 /* its file names a host: host */
	uint64_t lo, hi;
	uint32_t host;
};

struct step_index {
	pthread_mutex_t mu;               /* the index's own (never the model's) */
	struct step_seen *seen;     /* STEP_SEEN entries, made on first use */
	/* the row step_field read last: its previous row, that row's fields
	 * and whether its own record holds no values (a row's other step
	 * watches ask again) */
	struct step_seen memo;      /* memo.row1: row + 1, 0 none */
	int64_t memo_prev;
	bool memo_no_values;
	int64_t *prev;              /* STEP_RING entries: row r's previous step's
				     * record (-1 none) at r % STEP_RING, for rows
				     * [n - STEP_RING, n) */
	uint64_t n;                 /* rows indexed */
	struct hashtab_u64 by_key;       /* tensor key -> ents index */
	struct hashtab_u64 by_name;      /* name key -> the latest ents index made for it */
	struct span_host span;      /* extend's cursor, kept across calls */
	struct step_ent *ents;
	size_t nents, capents;
};

/* One key per (op, slot, host); false when it does not fit (slot > 255 or
 * a host id past 2^24): such rows have no previous step. */
static bool
tensor_key(uint32_t op, uint32_t slot, uint32_t host, uint64_t *key)
{
	if (slot > 0xff || host > 0xffffff)
		return false;
	*key = (uint64_t)op | (uint64_t)slot << 32 | (uint64_t)host << 40;
	return true;
}

static void *
step_index_new(void)
{
	struct step_index *s = xcalloc(1, sizeof *s);

	pthread_mutex_init(&s->mu, NULL);
	return s;
}

static void
step_index_free(void *p)
{
	struct step_index *s = p;

	free(s->prev);
	free(s->seen);
	free(s->ents);
	hashtab_u64_done(&s->by_key);
	hashtab_u64_done(&s->by_name);
	pthread_mutex_destroy(&s->mu);
	free(s);
}

static struct step_index *
step_index(struct model *m)
{
	return model_state(m, MODEL_STATE_STEP_INDEX, step_index_new, step_index_free);
}

/* The key of a tensor by its op's name (a hash: the caller compares the
 * names) into *key and the name into *name; false when the op is gone. */
static bool
name_key(struct model *m, uint32_t op, uint32_t slot, uint32_t host, uint64_t *key,
	 struct model_op_brief *b)
{
	if (!model_op_brief(m, op, b))
		return false;
	*key = (uint64_t)hashtab_str_hash(b->name) | (uint64_t)slot << 32 | (uint64_t)host << 40;
	return true;
}

/* The entry the first record of (op, slot, host) at row i and step joins:
 * the latest tensor of the same op name, slot and host when its op has no
 * row past i and its last record is of an earlier step (another step's copy
 * of the graph); else a new one.  Returns its index in s->ents. */
static uint64_t
first_record_ent(struct model *m, struct step_index *s, uint64_t i, uint32_t op, uint32_t slot,
		 uint32_t host, int64_t step)
{
	struct model_op_brief b, eb;
	uint64_t nkey, idx, first, last;
	bool named = step >= 0 && name_key(m, op, slot, host, &nkey, &b);

	if (named && hashtab_u64_get(&s->by_name, nkey, &idx)) {
		const struct step_ent *e = &s->ents[idx];

		if (e->last_step >= 0 && e->last_step < step &&
		    model_op_rows(m, e->op, &first, &last) && last < i &&
		    model_op_brief(m, e->op, &eb) && strcmp(eb.name, b.name) == 0)
			return idx;
	}
	if (s->nents == s->capents)
		td_grow((void **)&s->ents, &s->capents, s->nents + 1, sizeof *s->ents);
	s->ents[s->nents] = (struct step_ent){ op, i, step, -1 };
	if (named)
		*hashtab_u64_put(&s->by_name, nkey, s->nents) = s->nents;
	return s->nents++;
}

/* Adds row i, whose op, slot, host key and step are given. */
static void
add_row(struct model *m, struct step_index *s, uint64_t i, uint32_t op, uint32_t slot,
	uint32_t host, int64_t step)
{
	int64_t prev = -1;
	uint64_t key, *slotp;

	if (tensor_key(op, slot, host, &key)) {
		slotp = hashtab_u64_put(&s->by_key, key, UINT64_MAX);
		if (*slotp == UINT64_MAX)
			*slotp = first_record_ent(m, s, i, op, slot, host, step);
		struct step_ent *e = &s->ents[*slotp];
		if (e->last_row != i) {
			if (step < 0 || e->last_step < 0 || step != e->last_step)
				e->prev_row = (int64_t)e->last_row;
			prev = e->prev_row;
			e->op = op;
			e->last_row = i;
			e->last_step = step;
		}
	}
	if (!s->prev)                   /* pages touched as rows come */
		s->prev = xmalloc(STEP_RING * sizeof *s->prev);
	s->prev[s->n++ % STEP_RING] = prev;
}

#define STEP_BATCH 1024
/* extend goes a batch past the row asked, step_prev_window asks a window */
_Static_assert(STEP_RING > STEP_BATCH + EXPR_WINDOW, "the ring holds a window and a batch");

static uint32_t
row_host(struct model *m, struct span_host *c, uint64_t i)
{
	uint32_t file;

	if (!c->valid || i < c->lo || i >= c->hi) {
		uint64_t n = model_trace_count(m);     /* before the span: rows it covers */

		c->valid = model_trace_span(m, i, &c->lo, &c->hi, &file);
		c->hi = TD_MIN(c->hi, n);
		c->named = c->valid && model_file_host(m, file, &c->host);
	}
	return c->named ? c->host : model_trace_host(m, i);
}

/* Empties the index: built again from the first row. */
static void
reset(struct step_index *s)
{
	hashtab_u64_done(&s->by_key);
	hashtab_u64_done(&s->by_name);
	s->nents = 0;
	s->n = 0;
	s->span.valid = false;
}

/* Extends the index over rows [s->n, row] (row below nrows, the rows
 * indexed), a whole batch past row when the rows are there (a scan asks
 * row after row): their op and slot from the flag bytes, steps a batch
 * at a time (one lock a batch), hosts from their spans.  A row already
 * indexed but no longer in the ring: built again from the first row. */
static void
extend(struct model *m, struct step_index *s, uint64_t row, uint64_t nrows)
{
	int64_t steps[STEP_BATCH];
	uint64_t to;

	if (row + STEP_RING < s->n)
		reset(s);
	if (row < s->n)
		return;
	to = TD_MAX(row + 1, TD_MIN(nrows, s->n + STEP_BATCH));

	while (s->n < to) {
		size_t n = (size_t)TD_MIN((uint64_t)STEP_BATCH, to - s->n);
		uint64_t first = s->n;

		model_trace_hosts(m, first, n, NULL, steps);
		for (size_t k = 0; k < n; k++) {
			uint32_t flags, op = model_trace_op_flags(m, first + k, &flags);

			add_row(m, s, first + k, op, model_trace_slot(m, first + k),
				row_host(m, &s->span, first + k), steps[k]);
		}
	}
}

int64_t
step_prev(struct model *m, uint64_t row)
{
	struct step_index *s = step_index(m);
	uint64_t n = model_trace_count(m);
	int64_t r = -1;

	if (row >= n)
		return -1;
	pthread_mutex_lock(&s->mu);
	extend(m, s, row, n);
	r = s->prev[row % STEP_RING];
	pthread_mutex_unlock(&s->mu);
	return r;
}

void
step_prev_window(struct model *m, uint64_t first, size_t n, int64_t *prev)
{
	struct step_index *s = step_index(m);
	uint64_t rows = model_trace_count(m);
	size_t k = 0;

	if (n && first < rows) {
		pthread_mutex_lock(&s->mu);
		/* the first row back in the ring, then the last: n is far
		 * below STEP_RING, the first row stays in it */
		extend(m, s, first, rows);
		extend(m, s, TD_MIN(first + n, rows) - 1, rows);
		for (; k < n && first + k < rows; k++)
			prev[k] = s->prev[(first + k) % STEP_RING];
		pthread_mutex_unlock(&s->mu);
	}
	for (; k < n; k++)
		prev[k] = -1;
}

/* ---- the fields ---------------------------------------------------------- */

static bool
close_to(double a, double b, const struct step_tol *tol)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return a == b;
	return fabs(a - b) <= tol->atol + tol->rtol * fabs(b);
}

/* Both records' values, when the dump holds them with the same element
 * count; false otherwise (the caller falls back to the statistics).  Not
 * asked when the columns know a's record holds none. */
static bool
values_of(struct model *m, uint64_t a, uint64_t b, struct model_detail *da, struct model_detail *db)
{
	if (model_trace_detail(m, a, da) != TD_OK || !da->noutputs || !da->values || !da->values[0])
		return false;
	if (model_trace_detail(m, b, db) != TD_OK || !db->noutputs || !db->values || !db->values[0])
		return false;
	return da->values[0]->n == db->values[0]->n && da->values[0]->n > 0 &&
	       !da->values[0]->strings && !db->values[0]->strings;
}

static enum expr_avail
from_values(const struct td_tensor *now, const struct td_tensor *was, enum expr_field f,
	    const struct step_tol *tol, double *num)
{
	double diff = 0, base = 0;
	bool same = true;

	for (int64_t i = 0; i < now->n; i++) {
		double x = td_tensor_get(now, i), y = td_tensor_get(was, i);
		if (f == EXPR_F_UNCHANGED) {
			if (!close_to(x, y, tol)) {
				same = false;
				break;
			}
			continue;
		}
		diff += fabs(x - y);
		base += fabs(y);
	}
	if (f == EXPR_F_UNCHANGED) {
		*num = same;
		return EXPR_KNOWN;
	}
	if (!isfinite(diff) || !isfinite(base) || base == 0)
		return EXPR_ABSENT;
	*num = diff / base;             /* the element counts are equal */
	return EXPR_KNOWN;
}

enum expr_avail
step_stats_field(const struct step_stats *now, const struct step_stats *was, enum expr_field f,
		 const struct step_tol *tol, double *num)
{
	if (f == EXPR_F_DELTA_ABS_MEAN) {
		if (!(now->known & was->known & SUM_ABS_MEAN))
			return EXPR_ABSENT;
		*num = now->abs_mean - was->abs_mean;
		return EXPR_KNOWN;
	}
	if (f == EXPR_F_UPDATE_RATIO) {
		if (!(now->known & was->known & SUM_ABS_MEAN) || was->abs_mean == 0)
			return EXPR_ABSENT;
		*num = fabs(now->abs_mean - was->abs_mean) / was->abs_mean;
		return EXPR_KNOWN;
	}
	/* unchanged: every statistic both carry agrees; at least one real one */
	uint32_t both = now->known & was->known;
	if (!(both & (SUM_MINMAX | SUM_MEAN | SUM_ABS_MEAN)))
		return EXPR_ABSENT;
	bool same = true;
	if (both & SUM_MINMAX)
		same = same && close_to(now->min, was->min, tol) && close_to(now->max, was->max, tol);
	if (both & SUM_MEAN)
		same = same && close_to(now->mean, was->mean, tol);
	if (both & SUM_ABS_MEAN)
		same = same && close_to(now->abs_mean, was->abs_mean, tol);
	if (both & SUM_NAN)
		same = same && now->nan == was->nan;
	if (both & SUM_ELEMENTS)
		same = same && now->elements == was->elements;
	*num = same;
	return EXPR_KNOWN;
}

void
step_stats_of(const struct td_summary *s, struct step_stats *out)
{
	*out = (struct step_stats){ s->known & STEP_SUMMARY_BITS, s->nan, s->elements,
				    s->min, s->max, s->mean, s->abs_mean };
}

static void
seen_put(struct step_seen *e, uint64_t row, const struct td_summary *s)
{
	*e = (struct step_seen){ row + 1, s->known & STEP_SUMMARY_BITS, s->nan, s->elements,
				 s->min, s->max, s->mean, s->abs_mean };
}

/* e's fields into s (zeroed first). */
static void
seen_get(const struct step_seen *e, struct td_summary *s)
{
	memset(s, 0, sizeof *s);
	s->known = e->known;
	s->nan = e->nan;
	s->elements = e->elements;
	s->min = e->min;
	s->max = e->max;
	s->mean = e->mean;
	s->abs_mean = e->abs_mean;
}

/* The previous step's summary fields (STEP_SUMMARY_BITS) of row, whose
 * own are now, in was: from what an earlier step field kept of prev, else
 * read (model_trace_fields: the columns, or a decode); prev < 0: none
 * (was empty).  Keeps now's for row's next step.  Under s->mu. */
static void
prev_summary(struct model *m, struct step_index *s, uint64_t row, const struct td_summary *now,
	     int64_t prev, struct td_summary *was)
{
	struct step_seen *e;
	bool found = prev < 0;

	memset(was, 0, sizeof *was);
	if (!s->seen)
		s->seen = xcalloc(STEP_SEEN, sizeof *s->seen);
	e = &s->seen[(uint64_t)prev % STEP_SEEN];
	if (prev >= 0 && e->row1 == (uint64_t)prev + 1) {
		seen_get(e, was);
		found = true;
	}
	seen_put(&s->seen[row % STEP_SEEN], row, now);
	if (!found) {
		struct model_fields mf;

		if (model_trace_fields(m, (uint64_t)prev, STEP_SUMMARY_BITS, &mf))
			*was = mf.s;
	}
}

/* Row's previous record, its fields and whether row's own record holds
 * no values, into *prev, *was, *no_values: from the memo of the last row
 * asked, else looked up (and kept in the memo) -- but for first_record
 * (first: only *prev), which reads no fields.  One hold of the index's
 * lock for all of it (the model's and the columns' locks are taken
 * inside it, as extend does). */
static void
prev_of(struct model *m, uint64_t row, const struct td_summary *now, bool first, int64_t *prev,
	struct td_summary *was, bool *no_values)
{
	struct step_index *s = step_index(m);
	uint64_t n = model_trace_count(m);

	*prev = -1;
	*no_values = false;
	pthread_mutex_lock(&s->mu);
	if (s->memo.row1 == row + 1) {
		*prev = s->memo_prev;
		seen_get(&s->memo, was);
		*no_values = s->memo_no_values;
	} else {
		if (row < n) {
			extend(m, s, row, n);
			*prev = s->prev[row % STEP_RING];
		}
		if (!first) {
			prev_summary(m, s, row, now, *prev, was);
			/* the summary columns know the record holds no values: no decode */
			*no_values = *prev >= 0 && model_trace_no_values(m, row);
			seen_put(&s->memo, row, was);
			s->memo_prev = *prev;
			s->memo_no_values = *no_values;
		}
	}
	pthread_mutex_unlock(&s->mu);
}

enum expr_avail
step_field(struct model *m, uint64_t row, const struct td_summary *now, enum expr_field f,
	   const struct step_tol *tol, double *num, enum step_basis *basis)
{
	static const struct step_tol def = { STEP_RTOL, STEP_ATOL };
	int64_t prev;
	struct td_summary was;
	struct step_stats a, b;
	bool no_values;
	enum expr_avail r = EXPR_ABSENT;

	if (!tol)
		tol = &def;
	prev_of(m, row, now, f == EXPR_F_FIRST_RECORD, &prev, &was, &no_values);
	if (f == EXPR_F_FIRST_RECORD) {
		*num = prev < 0;
		return EXPR_KNOWN;
	}
	if (prev < 0)
		return EXPR_ABSENT;
	step_stats_of(now, &a);
	step_stats_of(&was, &b);
	if (f == EXPR_F_DELTA_ABS_MEAN) {
		r = step_stats_field(&a, &b, f, tol, num);
		if (basis && r == EXPR_KNOWN)
			*basis = STEP_FROM_STATISTICS;
		return r;
	}
	if (!no_values) {
		struct model_detail da = {0}, db = {0};
		bool both = values_of(m, row, (uint64_t)prev, &da, &db);

		if (both)
			r = from_values(da.values[0], db.values[0], f, tol, num);
		model_detail_done(&da);
		model_detail_done(&db);
		if (both) {
			if (basis)
				*basis = STEP_FROM_VALUES;
			return r;
		}
	}
	r = step_stats_field(&a, &b, f, tol, num);
	if (basis)
		*basis = STEP_FROM_STATISTICS;
	return r;
}
