/*
 * model_scan.c - the scans that link a trace row to the rows of its
 * producers and consumers (model_query.h: model_trace_scan_back,
 * model_trace_scan_fwd, model_trace_link_bounds), shared by the queries of
 * the analysis floor (model/analysis/model_links.c) and the writer, which
 * asks whether an input row's producer was dumped
 * (links_input_producer_row, model_sink.c).
 *
 * TensorFlow records no edge from a trace to the trace that fed it; the
 * producer of an input is the latest earlier row of that (op, slot), the
 * consumer's row the first later row of that op (the TensorFlow v2
 * reader's FORMAT.md, Links: time order is the only link).  The search is
 * a scan of the 4-byte op-reference array, chunk by chunk, bounded by the
 * op's own first and last rows and by the owning execution's rows when
 * the format has containers.  Input rows never count as producers.
 * Where runs interleave, a candidate's execution is checked under the
 * model's lock, taken at most once per chunk (released around a decode:
 * the decode takes it itself).
 */
#include <string.h>

#include "model_internal.h"

#include <stdlib.h>

/* Row j is an input row of its op with input slot slot (UINT32_MAX: any). */
/* Whether row j (flags f) is of slot (UINT32_MAX: any). */
static bool
slot_is(struct model *m, uint64_t j, uint8_t f, uint32_t slot)
{
	if (slot == UINT32_MAX)
		return true;
	if (TF_SLOT(f) == TF_SLOT_ESC)
		return rows_trace_slot(m, j) == slot;
	return TF_SLOT(f) == slot;
}

static bool
input_slot_matches(struct model *m, uint64_t j, uint32_t slot)
{
	uint8_t f = trace_flags(m, j);

	return (f & TF_INPUT) && slot_is(m, j, f, slot);
}

static bool
slot_matches(struct model *m, uint64_t j, uint32_t slot)
{
	uint8_t f = trace_flags(m, j);

	return !(f & (TF_INPUT | TF_REPEAT)) && slot_is(m, j, f, slot);
}

/* The slot of row j can only be known by decoding it. */
static bool
slot_needs_decode(struct model *m, uint64_t j, uint32_t slot)
{
	return slot != UINT32_MAX && TF_SLOT(trace_flags(m, j)) == TF_SLOT_ESC;
}

/* Row j of the scan's op matches: its slot (input row or output row) and,
 * where runs interleave (check), execution e.  *locked: whether the scan
 * holds th.lock (taken here on the first execution check of a chunk,
 * dropped before a decode). */
static bool
row_matches(struct model *m, uint64_t j, uint32_t slot, int64_t e, bool input, bool check,
	    bool *locked)
{
	if (*locked && slot_needs_decode(m, j, slot)) {
		pthread_mutex_unlock(&m->th.lock);
		*locked = false;
	}
	if (!(input ? input_slot_matches(m, j, slot) : slot_matches(m, j, slot)))
		return false;
	if (!check)
		return true;
	if (!*locked) {
		pthread_mutex_lock(&m->th.lock);
		*locked = true;
	}
	return rows_trace_execution(m, j) == e;
}

/* Whether one of the 16 op references at p is op: four vector compares
 * and no branch, so a scan steps over 16 rows of other ops with one test
 * (the loop this replaced was not vectorized at -O2). */
static inline bool
any_of_16(const uint32_t *p, uint32_t op)
{
	u32x4 a, b, c, d, o = { op, op, op, op };
	u64x2 w;

	memcpy(&a, p, sizeof a);
	memcpy(&b, p + 4, sizeof b);
	memcpy(&c, p + 8, sizeof c);
	memcpy(&d, p + 12, sizeof d);
	w = (u64x2)((a == o) | (b == o) | (c == o) | (d == o));
	return (w[0] | w[1]) != 0;
}

static void
unlock_if(struct model *m, bool *locked)
{
	if (*locked)
		pthread_mutex_unlock(&m->th.lock);
	*locked = false;
}

int64_t
model_trace_scan_back(struct model *m, uint32_t op, uint32_t slot, uint64_t from, uint64_t lo,
		      int64_t e, bool input)
{
	uint64_t j = from, first, last;
	bool check = e >= 0 && atomic_load(&m->rows.split_runs), locked = false;

	/* a dump without input rows: nothing to find (and an op's whole row
	 * range to scan per question, once per alert in origins) */
	if ((input && !atomic_load(&m->rows.input_rows)) || !model_op_rows(m, op, &first, &last))
		return -1;
	lo = TD_MAX(lo, first);
	j = TD_MIN(j, last + 1);

	while (j > lo) {
		const uint32_t *a = m->rows.tchunks[(j - 1) >> MODEL_CHUNK_SHIFT]->op;
		uint64_t base = (j - 1) & ~(uint64_t)(MODEL_CHUNK - 1);
		uint64_t stop = TD_MAX(base, lo);

		while (j > stop) {
			if (j - stop >= 16 && !any_of_16(a + (j - 16 - base), op)) {
				j -= 16;
				continue;
			}
			if (a[(j - 1) - base] == op &&
			    row_matches(m, j - 1, slot, e, input, check, &locked)) {
				unlock_if(m, &locked);
				return (int64_t)(j - 1);
			}
			j--;
		}
		unlock_if(m, &locked);
	}
	return -1;
}

int64_t
model_trace_scan_fwd(struct model *m, uint32_t op, uint32_t slot, uint64_t from, uint64_t hi,
		     int64_t e)
{
	uint64_t j = from + 1, first, last;
	bool check = e >= 0 && atomic_load(&m->rows.split_runs), locked = false;

	if (!model_op_rows(m, op, &first, &last))
		return -1;
	hi = TD_MIN(hi, last + 1);
	j = TD_MAX(j, first);

	while (j < hi) {
		const uint32_t *a = m->rows.tchunks[j >> MODEL_CHUNK_SHIFT]->op;
		uint64_t base = j & ~(uint64_t)(MODEL_CHUNK - 1);
		uint64_t stop = TD_MIN(base + MODEL_CHUNK, hi);

		while (j < stop) {
			if (stop - j >= 16 && !any_of_16(a + (j - base), op)) {
				j += 16;
				continue;
			}
			if (a[j - base] == op && row_matches(m, j, slot, e, false, check, &locked)) {
				unlock_if(m, &locked);
				return (int64_t)j;
			}
			j++;
		}
		unlock_if(m, &locked);
	}
	return -1;
}

int64_t
links_input_producer_row(struct model *m, uint32_t op, uint32_t k, uint64_t before, int64_t exec)
{
	uint32_t pslot;
	int64_t pop = model_op_input(m, op, k, &pslot, NULL), j;

	if (pop < 0)
		return -1;
	j = model_trace_scan_back(m, (uint32_t)pop, pslot, before, 0, exec, false);
	if (j >= 0 && exec >= 0) {
		pthread_mutex_lock(&m->th.lock);
		if (rows_trace_execution(m, (uint64_t)j) != exec)
			j = -1;
		pthread_mutex_unlock(&m->th.lock);
	}
	return j;
}

void
model_trace_link_bounds(struct model *m, uint64_t i, uint64_t *lo, uint64_t *hi, int64_t *exec)
{
	int64_t e;

	*lo = 0;
	*hi = rows_ntraces(m);
	*exec = -1;
	if (!atomic_load(&m->rows.containers))
		return;
	pthread_mutex_lock(&m->th.lock);
	e = *exec = rows_trace_execution(m, i);
	pthread_mutex_unlock(&m->th.lock);
	if (e >= 0 && (uint64_t)e < rows_nexecs(m)) {
		struct exec_row *x = exec_row(m, (uint64_t)e);
		uint64_t first = __atomic_load_n(&x->first_trace, __ATOMIC_RELAXED);
		uint64_t n = __atomic_load_n(&x->ntraces, __ATOMIC_RELAXED);

		if (n && first <= i) {
			*lo = first;
			*hi = TD_MIN(*hi, first + n);
		}
	}
}
