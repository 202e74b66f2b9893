/*
 * rowsort.h - sorting trace rows by a field, as the TensorFlow debugger's
 * `list_tensors -s`: row number, op name, op type, size (elements), wall
 * time, NaN/Inf count.  Shared by "traces --sort" (batch) and the trace
 * table's sort (TUI).  Curses-free.
 *
 * A row whose size or time is unknown sorts after the known ones in
 * either direction; ties keep row order.  The NaN/Inf count is the row's
 * NaN, -Inf and +Inf counts added (the ones it knows); a row without
 * NaN/Inf, or whose mode cannot tell, counts 0, a row known to hold some
 * without counts (CURT_HEALTH-like modes) 1.  Op and type sorts read the
 * index only; NaN/Inf decodes the rows with NaN/Inf; size and time read
 * the summary columns a window at a time, and decode the rows they do not
 * hold (model_trace_sort_keys).
 */
#ifndef TD_ROWSORT_H
#define TD_ROWSORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

#define ROWSORT_FIELDS(_) \
	_(ROW,       "row",       "row number (the dump's order)") \
	_(OP,        "op",        "op name") \
	_(TYPE,      "type",      "op type") \
	_(SIZE,      "size",      "element count") \
	_(TIME,      "time",      "wall time") \
	_(NONFINITE, "nonfinite", "NaN/Inf count")

enum rowsort_field {
#define ROWSORT_ENUM(id, name, help) SORT_##id,
	ROWSORT_FIELDS(ROWSORT_ENUM)
#undef ROWSORT_ENUM
	SORT_COUNT
};

/* The optional columns of the trace table (the TUI's "columns" command). */
#define ROWCOL_FIELDS(_) \
	_(TIME,  "time",  "wall time, seconds after the first row") \
	_(DTYPE, "dtype", "element type") \
	_(SHAPE, "shape", "shape (on by default)") \
	_(SIZE,  "size",  "element count")

enum rowcol {
#define ROWCOL_ENUM(id, name, help) ROWCOL_##id##_BIT,
	ROWCOL_FIELDS(ROWCOL_ENUM)
#undef ROWCOL_ENUM
	ROWCOL_COUNT
};
#define ROWCOL_TIME  (1u << ROWCOL_TIME_BIT)
#define ROWCOL_DTYPE (1u << ROWCOL_DTYPE_BIT)
#define ROWCOL_SHAPE (1u << ROWCOL_SHAPE_BIT)
#define ROWCOL_SIZE  (1u << ROWCOL_SIZE_BIT)
#define ROWCOL_DEFAULT ROWCOL_SHAPE

/* The bit of column name ("time"), 0 if none. */
unsigned rowcol_parse(const char *name);
/* "time shape" for mask, or "none"; appended to sb. */
void rowcol_describe(unsigned mask, struct strbuf *sb);

/* "op", "nonfinite", ... */
const char *rowsort_name(enum rowsort_field f);
/* Parses "op", "-time" (a leading '-' sorts descending) or "time desc".
 * false when the name is none of ROWSORT_FIELDS. */
bool rowsort_parse(const char *text, enum rowsort_field *f, bool *desc);
/* "time, size, ..." for messages.  Static. */
const char *rowsort_names(void);

/* Sorts the trace row numbers rows[0..n) in place by f (descending when
 * desc).  12 bytes a row beside rows.  TD_ERR_NOMEM when the keys do
 * not fit in memory (rows are then left as they were, or in ascending
 * order when they were not). */
enum td_status rowsort_traces(struct model *m, uint64_t *rows, size_t n, enum rowsort_field f,
			      bool desc);

/* The first k rows of rowsort_traces's order (tail: the last k) without
 * sorting them all: rows are added in ascending order, a batch at a
 * time, and a heap keeps the k so far (16 bytes each).  The answer is
 * exactly the head (tail) of the whole sort, ties included.  A caller
 * listing a slice A:B of a sort of N rows takes this path when
 * B <= ROWSORT_TOP_MAX (or N - A <= ROWSORT_TOP_MAX). */
#define ROWSORT_TOP_MAX 100000u
struct rowsort_top;
/* NULL when k > ROWSORT_TOP_MAX or out of memory. */
struct rowsort_top *rowsort_top_new(struct model *m, enum rowsort_field f, bool desc, size_t k,
				    bool tail);
/* Adds rows[0..n), ascending and above every row added before (false,
 * nothing added, otherwise). */
bool rowsort_top_add(struct rowsort_top *t, const uint64_t *rows, size_t n);
/* Writes the first (tail: last) min(k, rows added) rows of the order,
 * in order, to out (room for k) and returns their count; the heap is
 * then empty. */
size_t rowsort_top_take(struct rowsort_top *t, uint64_t *out);
/* Accepts NULL. */
void rowsort_top_free(struct rowsort_top *t);

#endif
