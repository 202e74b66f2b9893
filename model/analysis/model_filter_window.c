/*
 * model_filter_window.c - a `where` condition on summary fields alone
 * (where_window_able) counted a window of trace rows at a time (issue
 * 25): the condition is answered for the window from the summary
 * columns (where_trace_window: one lock, the columns it names, arrays),
 * the answers go into the filter's 2-bit row cache, and a row is then
 * matched from its op's state and that answer, with no call per row but
 * the op lookup.  A row the columns do not hold, and every row under a
 * host or execution bound, goes through the row by row match
 * (filter_trace_match), so the counts are the same as that path's.
 * Not for conditions on op, host, step or step fields: model_filter.c.
 */
#include "model/analysis/model_filter_priv.h"

#include <stdlib.h>

#include "model/analysis/model_where.h"

/* Keeps the window's answers of the rows not answered yet. */
static void
keep_answers(struct filter_table *tb, uint64_t lo, const uint8_t *ans, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		uint64_t j = lo + k;
		uint8_t *byte = &tb->wrow[j >> 2];
		unsigned shift = (unsigned)(j & 3) * 2;

		if (ans[k] == WHERE_ASK || (*byte >> shift & 3) != W_NONE)
			continue;
		*byte |= (uint8_t)((ans[k] == EXPR_TRUE ? W_MATCH :
				    ans[k] == EXPR_FALSE ? W_NO : W_UNKNOWN) << shift);
	}
}

/* Row lo + k's match as filter_trace_match gives it when no host or
 * execution bounds the filter: its op's state, its flags, the answer. */
static int
quick_match(struct model_filter *f, uint64_t j, const struct filter_table *tb)
{
	uint32_t flags, op = model_trace_op_flags(f->m, j, &flags);
	unsigned w;
	uint8_t st;

	if (op >= f->nop_state || ((st = f->op_state[op] & 3) != ST_MATCH && st != ST_ROWS))
		return R_NO;
	if (f->nonfinite && !(flags & ROW_NONFINITE))
		return R_NO;
	if (st == ST_ROWS) {
		w = tb->wrow[j >> 2] >> ((unsigned)(j & 3) * 2) & 3;
		if (w == W_NONE)
			return -1;      /* not in the columns: row by row */
		if (w != W_MATCH)
			return w == W_NO ? R_NO : R_UNKNOWN;
	}
	return f->op_state[op] & ST_UNDECIDED ? R_UNKNOWN : R_MATCH;
}

void
filter_window_count(struct model_filter *f, const struct trace_bounds *b,
		    struct host_cursor *hc, uint64_t lo, uint64_t hi, struct fcount *cnt)
{
	struct filter_table *tb = &f->tab[TABLE_TRACES];
	uint8_t ans[MODEL_FIELD_WINDOW];
	bool quick = !f->host && f->execution < 0;
	uint64_t j, from = lo;
	size_t got;

	if (!f->fwin)
		f->fwin = xmalloc(sizeof(*f->fwin));
	filter_wrow_reserve(tb, hi - 1);
	for (; from < hi; from += got) {
		if (!(got = where_trace_window(f->m, f->where, from, (size_t)(hi - from), f->fwin,
					       ans)))
			break;
		keep_answers(tb, from, ans, got);
	}
	for (j = lo; j < hi; j++) {
		int r = quick ? quick_match(f, j, tb) : -1;

		if (r < 0)
			r = filter_trace_match(f, j, b, hc);
		cnt->count += r == R_MATCH;
		cnt->unknown += r == R_UNKNOWN;
	}
}
