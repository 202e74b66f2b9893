/*
 * model_filter_window.c - a `where` condition on summary fields, op
 * names and types (where_window_able) counted a window of trace rows at a time (issue
 * 25): the condition is answered for the window from the summary
 * columns (where_trace_window: one lock, the columns it names, arrays),
 * the answers go into the filter's 2-bit row cache, and a row is then
 * matched from its op's state and that answer, with no call per row but
 * the op lookup.  A row the columns do not hold, and every row under a
 * host or execution bound, goes through the row by row match
 * (filter_trace_match), so the counts are the same as that path's.
 * Not for conditions on role, host, step or step fields: model_filter.c.
 */
#include "model/analysis/model_filter_priv.h"

#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_where.h"

/* What a row's op state and answer give (R_NO, R_MATCH, R_UNKNOWN), or
 * R_ASK: the row by row path decides. */
enum { R_ASK = 3 };

/* The 2-bit answers of the window answers (enum expr_result, WHERE_ASK:
 * W_NONE). */
static void
wbits_table(uint8_t *t)
{
	memset(t, W_UNKNOWN, 256);
	t[WHERE_ASK] = W_NONE;
	t[EXPR_TRUE] = W_MATCH;
	t[EXPR_FALSE] = W_NO;
}

/* A row's match as filter_trace_match gives it when no host or execution
 * bounds the filter, from its op's state byte st (its four low bits;
 * ST_NO for an op the filter has no state for) and its where answer w,
 * its flags passing: R_ASK when w is W_NONE and the op needs it. */
static uint8_t
quick_match(uint8_t st, unsigned w)
{
	unsigned s = st & 3;

	if (s != ST_MATCH && s != ST_ROWS)
		return R_NO;
	if (s == ST_ROWS && w != W_MATCH)
		return w == W_NONE ? R_ASK : w == W_NO ? R_NO : R_UNKNOWN;
	return st & ST_UNDECIDED ? R_UNKNOWN : R_MATCH;
}

/* Row j's 2-bit answer: the cached one, else now (kept for nth and
 * next). */
static uint8_t
keep_one(struct filter_table *tb, uint64_t j, uint8_t now)
{
	uint8_t *byte = &tb->wrow[j >> 2];
	unsigned shift = (unsigned)(j & 3) * 2, old = *byte >> shift & 3;

	if (old)
		return (uint8_t)old;
	*byte |= (uint8_t)(now << shift);
	return now;
}

/* The window answers ans[0..n) of rows [j, j + n) into the 2-bit cache
 * where a row has none yet; w[k] gets row j + k's 2-bit answer, the
 * cached one first.  Four rows a byte: one store a byte, not a row. */
static void
keep_answers(struct filter_table *tb, const uint8_t *wb, uint64_t j, const uint8_t *ans,
	     size_t n, uint8_t *w)
{
	size_t k = 0;

	for (; k < n && ((j + k) & 3); k++)
		w[k] = keep_one(tb, j + k, wb[ans[k]]);
	for (; k + 4 <= n; k += 4) {
		uint8_t *byte = &tb->wrow[(j + k) >> 2];
		unsigned old = *byte, now = 0;

		if (!old) {     /* none cached yet (a first count): no test a row */
			w[k] = wb[ans[k]];
			w[k + 1] = wb[ans[k + 1]];
			w[k + 2] = wb[ans[k + 2]];
			w[k + 3] = wb[ans[k + 3]];
			*byte = (uint8_t)(w[k] | w[k + 1] << 2 | w[k + 2] << 4 | w[k + 3] << 6);
			continue;
		}
		for (unsigned i = 0; i < 4; i++) {
			unsigned o = old >> (2 * i) & 3, v = o ? o : wb[ans[k + i]];

			w[k + i] = (uint8_t)v;
			now |= v << (2 * i);
		}
		*byte = (uint8_t)now;
	}
	for (; k < n; k++)
		w[k] = keep_one(tb, j + k, wb[ans[k]]);
}

int
filter_same_state(const struct model_filter *f)
{
	const unsigned bits = 3 | ST_UNDECIDED;     /* what quick_match reads */
	unsigned st;

	if (!f->nop_state)
		return -1;
	st = f->op_state[0] & bits;
	for (size_t k = 1; k < f->nop_state; k++)
		if ((f->op_state[k] & bits) != st)
			return -1;
	return (int)st;
}

/* The row counts by result packed in one word (R_* times HIST_BITS:
 * a call counts fewer than 2^HIST_BITS rows). */
#define HIST_BITS 21
_Static_assert(FBLOCK < (1u << HIST_BITS), "a block's rows fit a packed count");

void
filter_window_count(struct model_filter *f, const struct trace_bounds *b,
		    struct host_cursor *hc, uint64_t lo, uint64_t hi, struct fcount *cnt)
{
	struct filter_table *tb = &f->tab[TABLE_TRACES];
	uint8_t ans[MODEL_FIELD_WINDOW], w[MODEL_FIELD_WINDOW], lut[16][4], wb[256];
	bool quick = !f->host && f->execution < 0;
	uint32_t need = f->nonfinite ? ROW_NONFINITE : 0;
	/* every op alike (a condition on summary fields alone) and no flag
	 * asked: a row's match is its answer's, no op looked up a row (every
	 * row counted names an op of f's: update_counts' rows were counted
	 * before ensure_ops read the ops) */
	const uint8_t *same = NULL;
	uint64_t inc[4] = { 0 };    /* same: what a row of each answer adds to hist */
	size_t got = 0, k;
	uint64_t j, hist = 0;

	if (!f->fwin)
		f->fwin = where_window_new();
	wbits_table(wb);
	for (k = 0; k < 64; k++)
		lut[k >> 2][k & 3] = quick_match((uint8_t)(k >> 2), (unsigned)(k & 3));
	if (quick && !need && f->same_state >= 0) {
		same = lut[f->same_state];
		for (k = 0; k < 4; k++)
			inc[k] = same[k] == R_ASK ? 0 : (uint64_t)1 << (same[k] * HIST_BITS);
	}
	filter_wrow_reserve(tb, hi - 1);
	for (j = lo; j < hi; j += got) {
		got = where_trace_window(f->m, f->where, j, (size_t)(hi - j), f->fwin, ans);
		if (!got) {             /* past the columns' rows: row by row */
			got = (size_t)(hi - j);
			memset(ans, WHERE_ASK, got);
		}
		keep_answers(tb, wb, j, ans, got, w);
		for (k = 0; same && k < got; k++) {
			hist += inc[w[k]];
			if (same[w[k]] == R_ASK)
				hist += (uint64_t)1 << (filter_trace_match(f, j + k, b, hc) * HIST_BITS);
		}
		for (k = 0; !same && k < got; k++) {
			uint32_t flags, op;
			uint8_t st, r = R_ASK;

			if (quick) {    /* no branch a row but the op's bounds */
				op = model_trace_op_flags(f->m, j + k, &flags);
				st = op < f->nop_state ? f->op_state[op] : (uint8_t)ST_NO;
				r = (flags & need) == need ? lut[st & 15][w[k]] : (uint8_t)R_NO;
				if (r != R_ASK) {
					hist += (uint64_t)1 << (r * HIST_BITS);
					continue;
				}
			}
			r = (uint8_t)filter_trace_match(f, j + k, b, hc);
			hist += (uint64_t)1 << (r * HIST_BITS);
		}
	}
	cnt->count += hist >> (R_MATCH * HIST_BITS) & ((1u << HIST_BITS) - 1);
	cnt->unknown += hist >> (R_UNKNOWN * HIST_BITS) & ((1u << HIST_BITS) - 1);
}
