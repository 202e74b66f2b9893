/*
 * trace_sort.c - the trace table in another order than the dump's: the
 * view rows (under the filter) sorted by a rowsort.h field, kept as an
 * array of model rows that tui_view_to_row() reads.  Rebuilt when the
 * filter changes or the model grows (during the first index pass the
 * rows indexed after the sort show once the pass ends); SORT_ROW ascending drops it.
 */
#include "tui_internal.h"

#include <stdlib.h>

#include "tui/cmd/rowsort.h"

void
tui_sort_free(struct tui *t)
{
	free(t->sort.rows);
	t->sort.rows = NULL;
	t->sort.n = 0;
	t->sort.active = false;
}

/* Sorts the rows the filter shows now; false when out of memory. */
static bool
build(struct tui *t)
{
	uint64_t n, *rows;

	tui_sort_free(t);                       /* the view in the dump's order */
	n = tui_view_count(t, TABLE_TRACES);
	rows = malloc((size_t)n * sizeof *rows + 1);
	if (!rows)
		return false;
	for (uint64_t v = 0; v < n; v++)
		rows[v] = (uint64_t)tui_view_to_row(t, TABLE_TRACES, v);
	if (rowsort_traces(t->m, rows, (size_t)n, (enum rowsort_field)t->sort.field, t->sort.desc) != TD_OK) {
		free(rows);
		return false;
	}
	t->sort.rows = rows;
	t->sort.n = n;
	t->sort.built_count = model_trace_count(t->m);
	t->sort.active = true;
	return true;
}

void
tui_sort_set(struct tui *t, int field, bool desc)
{
	bool hidden;

	t->sort.field = field;
	t->sort.desc = desc;
	if (tui_diff(t)) {
		tui_message(t, true, "sort: the diff layout lists pairs in A's order");
		return;
	}
	if (field == SORT_ROW && !desc)
		tui_sort_free(t);
	else if (!build(t)) {
		tui_message(t, true, "sort: out of memory");
		return;
	}
	if (t->sel_trace >= 0) {
		uint64_t v = tui_row_to_view(t, TABLE_TRACES, (uint64_t)t->sel_trace, &hidden);
		pane_goto(&t->panes[PANE_TRACES], hidden ? 0 : v, true, true);
	}
	tui_message(t, false, "traces sorted by %s%s (%llu rows)", rowsort_name((enum rowsort_field)field),
		    desc ? ", descending" : "", (unsigned long long)tui_view_count(t, TABLE_TRACES));
}

void
tui_sort_refresh(struct tui *t, bool filter_changed)
{
	/* while the first index pass runs, growth waits for its end (one
	 * rebuild, not one per batch of rows) */
	bool grew = t->sort.built_count != model_trace_count(t->m) && t->progress.done;

	if (t->sort.active && (filter_changed || grew) && !build(t))
		tui_message(t, true, "sort: out of memory; the dump's order");
}

int64_t
tui_sort_row(const struct tui *t, uint64_t view)
{
	return view < t->sort.n ? (int64_t)t->sort.rows[view] : -1;
}

uint64_t
tui_sort_view(const struct tui *t, uint64_t row, bool *hidden)
{
	for (uint64_t v = 0; v < t->sort.n; v++)
		if (t->sort.rows[v] == row)
			return v;
	*hidden = true;
	return 0;
}
