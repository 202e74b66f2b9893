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

/* The 2-bit answer of a window answer (WHERE_ASK: W_NONE). */
static unsigned
wbits(uint8_t ans)
{
	return ans == WHERE_ASK ? W_NONE :
	       ans == EXPR_TRUE ? W_MATCH : ans == EXPR_FALSE ? W_NO : W_UNKNOWN;
}

/* Row j's match as filter_trace_match gives it when no host or execution
 * bounds the filter: its op's state, its flags, the where answer w;
 * -1 when w is W_NONE and the op needs it (the row by row path). */
static int
quick_match(struct model_filter *f, uint64_t j, unsigned w)
{
	uint32_t flags, op = model_trace_op_flags(f->m, j, &flags);
	uint8_t st;

	if (op >= f->nop_state || ((st = f->op_state[op] & 3) != ST_MATCH && st != ST_ROWS))
		return R_NO;
	if (f->nonfinite && !(flags & ROW_NONFINITE))
		return R_NO;
	if (st == ST_ROWS && w != W_MATCH)
		return w == W_NONE ? -1 : w == W_NO ? R_NO : R_UNKNOWN;
	return f->op_state[op] & ST_UNDECIDED ? R_UNKNOWN : R_MATCH;
}

void
filter_window_count(struct model_filter *f, const struct trace_bounds *b,
		    struct host_cursor *hc, uint64_t lo, uint64_t hi, struct fcount *cnt)
{
	struct filter_table *tb = &f->tab[TABLE_TRACES];
	uint8_t ans[MODEL_FIELD_WINDOW];
	bool quick = !f->host && f->execution < 0;
	size_t got = 0, k;
	uint64_t j;

	if (!f->fwin)
		f->fwin = where_window_new();
	filter_wrow_reserve(tb, hi - 1);
	for (j = lo; j < hi; j += got) {
		got = where_trace_window(f->m, f->where, j, (size_t)(hi - j), f->fwin, ans);
		if (!got) {             /* past the columns' rows: row by row */
			got = (size_t)(hi - j);
			memset(ans, WHERE_ASK, got);
		}
		for (k = 0; k < got; k++) {
			uint8_t *byte = &tb->wrow[(j + k) >> 2];
			unsigned shift = (unsigned)((j + k) & 3) * 2, w = *byte >> shift & 3;
			int r;

			if (w == W_NONE) {      /* keep the answer (nth, next) */
				w = wbits(ans[k]);
				*byte |= (uint8_t)(w << shift);
			}
			r = quick ? quick_match(f, j + k, w) : -1;
			if (r < 0)
				r = filter_trace_match(f, j + k, b, hc);
			cnt->count += r == R_MATCH;
			cnt->unknown += r == R_UNKNOWN;
		}
	}
}
