/*
 * model_columns.h - the summary columns of the persistent index (issue
 * 25, item 2): per trace row the summary fields the condition language,
 * the watches and the sorts read, one column per field, exact values
 * (int64 counts, doubles), in a side file next to the index file.
 *
 * Shared by model/model_columns.c (the file) and model/model_fields.c
 * (the model's use of it); not a contract for other layers (model.h's
 * model_trace_fields is).
 *
 * The file: a 64-byte header (magic, format, layout fingerprint, the
 * index key's hash, the rows it holds), then blocks of COLS_WINDOW rows;
 * in a block each column's COLS_WINDOW values follow one another, so a
 * question reads a window of one column with one pread.  A row is
 * "filled" when its meta column says so: its fields are then exactly
 * what decoding the row gives (the index pass knew them, or a question
 * decoded the row and kept them); an unfilled row is decoded.  Columns
 * no row of a block knows are never written (holes: the file is sparse).
 *
 * Memory: one block being written (the index thread's) and one window
 * being read, whatever the dump's size.
 */
#ifndef TD_MODEL_COLUMNS_H
#define TD_MODEL_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "reader/base/tensor.h"

#define COLS_SUFFIX ".tdc"
#define COLS_WINDOW 4096u           /* rows per block */

/* The summary fields the columns hold (SUM_* bits); COLS_WALL asks for
 * the wall time column. */
#define COLS_FIELDS (SUM_DTYPE | SUM_RANK | SUM_SHAPE | SUM_ELEMENTS | SUM_NONFINITE |       \
		     SUM_NAN | SUM_NEG_INF | SUM_POS_INF | SUM_NEGATIVE | SUM_ZERO |             \
		     SUM_POSITIVE | SUM_MINMAX | SUM_MEAN | SUM_ABS_MEAN | SUM_STD | SUM_L2NORM)
#define COLS_WALL (1u << 31)

struct colstore;

/* A row as the columns give it is a struct model_fields (model_rows.h):
 * in s only the fields asked for (their known bits, the shape among
 * them; no tensor id or percentiles), from_values the SUM_* bits
 * computed from values (the dump lacks them), from_columns true.  A row
 * whose shape does not fit the shape column's word is not kept. */

/* A new, empty column file name in the directory dirfd (replacing one
 * there) for the index whose key hashes to key; path is for messages.
 * NULL with err when it cannot be made. */
struct colstore *colstore_create(int dirfd, const char *name, const char *path, uint64_t key,
				 char *err, size_t errlen);
/* The column file name in dirfd, checked: its header (this build's
 * format and layout, key), and its length against the rows it says it
 * holds (a torn or cut file is refused).  At most max_rows rows are
 * used (the rows of the index file loaded with it).  NULL with err (why
 * it was refused) otherwise; the caller then makes a new one. */
struct colstore *colstore_open(int dirfd, const char *name, const char *path, uint64_t key,
			       uint64_t max_rows, char *err, size_t errlen);
/* Makes rows readable up to rows (those past what it held are "not
 * filled": decoded when asked), for an index that holds more rows than
 * its column file.  false on a write error. */
bool colstore_extend(struct colstore *cs, uint64_t rows);
/* Before any other use of a file opened with colstore_open: the filled
 * rows some of whose fields were computed from values (from_values) and
 * for which refuse(ctx, row) is true become not filled (decoded when
 * asked, then kept again): a session's values are not believed by the
 * next when the data files they came from were not fingerprinted.  One
 * read of the meta column a block, a write of the blocks changed.
 * Returns the rows unfilled. */
size_t colstore_unfill_derived(struct colstore *cs, bool (*refuse)(void *ctx, uint64_t row),
			       void *ctx);
/* Writes what is pending and closes; accepts NULL. */
void colstore_close(struct colstore *cs);
/* Rows whose columns are on disk (readable). */
uint64_t colstore_rows(struct colstore *cs);

/* Index thread only: row's fields from the index pass (rows in order;
 * a row not following the last starts a new run).  filled: s is exactly
 * what a decode of the row gives for COLS_FIELDS, and wall_time too, and
 * the record holds no values (colstore_no_values).  facts: the row's own
 * facts as decode() states them (COLS_FACTS | role | requires_grad << 2,
 * reader.h's enums), 0 when the reader states none at the index pass;
 * kept with a filled row only. */
#define COLS_FACTS 0x10u
void colstore_put(struct colstore *cs, uint64_t row, const struct td_summary *s,
		  double wall_time, bool filled, unsigned facts);
/* The facts colstore_put kept for row (COLS_FACTS set in *facts): true
 * when the row is readable, filled and has them.  Any thread. */
bool colstore_get_facts(struct colstore *cs, uint64_t row, unsigned *facts);
/* Index thread only: the rows put so far written out and made readable.
 * false on a write error (colstore_error says it; no more is written). */
bool colstore_flush(struct colstore *cs);

/* Row's fields in need (SUM_* bits of COLS_FIELDS, COLS_WALL) from the
 * columns: true when the row is readable and filled.  Any thread. */
bool colstore_get(struct colstore *cs, uint64_t row, uint32_t need, struct model_fields *out);
/* Rows [first, first + n) of one block into w (model_rows.h): the
 * columns need names, read under one lock; a row is filled when it is
 * readable and filled (as colstore_get says).  n is cut at the block's
 * end; returns w->n, 0 when first is not readable.  Any thread. */
size_t colstore_get_window(struct colstore *cs, uint64_t first, size_t n, uint32_t need,
			   struct model_field_window *w);
/* What colstore_get_keys says of a row. */
enum cols_key {
	COLS_KEY_NONE,              /* not readable or not filled: decode it */
	COLS_KEY_UNKNOWN,           /* filled, the field not known */
	COLS_KEY_KNOWN,             /* filled, val holds the field */
};
/* One field of rows[0..n) (ascending, typically one window of a scan)
 * for a sort: field is SUM_ELEMENTS (val the element count as a double)
 * or COLS_WALL (val the wall time, known whenever the row is filled);
 * state[i] says what val[i] is.  One lock for the call and one read of
 * the meta and field columns per block of COLS_WINDOW rows, not a
 * locked get per row.  Any thread. */
void colstore_get_keys(struct colstore *cs, const uint64_t *rows, size_t n, uint32_t field,
		       double *val, uint8_t *state);
/* What colstore_get_briefs says of a row. */
enum cols_row {
	COLS_ROW_NONE,              /* not readable: not known to hold no values */
	COLS_ROW_VALUES,            /* readable, not kept as holding no values */
	COLS_ROW_UNFILLED,          /* holds no values (colstore_no_values), its
				     * fields not filled: decode it */
	COLS_ROW_FILLED,            /* holds no values, out holds its fields */
};
/* Rows rows[0..n) (any order; a scan's rows, mostly ascending) at once:
 * state[i] says what colstore_no_values and colstore_get would of row
 * rows[i]; out[i], for COLS_ROW_FILLED, holds the brief of what
 * colstore_get(rows[i], need) gives (model_brief_of; exact: a filled
 * row's shape is a word), written straight from the columns.  One lock
 * for the call; a block's columns are read once for its run of rows.
 * Any thread. */
void colstore_get_briefs(struct colstore *cs, const uint64_t *rows, size_t n, uint32_t need,
			 struct model_brief *out, uint8_t *state);
/* The shape word of s (model_brief.shape), 0 when its dims do not pack. */
uint64_t cols_shape_word(const struct td_summary *s);
/* True when the index pass kept row and said its record holds no values
 * (filled by colstore_put: a reader's exact summary); false otherwise or
 * when not known.  Any thread. */
bool colstore_no_values(struct colstore *cs, uint64_t row);
/* A row a question decoded: its fields kept (written out with its
 * window) so the next question reads them.  Rows not readable yet are
 * left alone.  Any thread. */
void colstore_fill(struct colstore *cs, uint64_t row, const struct td_summary *s,
		   uint32_t from_values, double wall_time);
/* The disk bytes of the column file beside the index file index_path
 * (its name with COLS_SUFFIX for the index's ".tdx"; blocks used: the
 * file is sparse), 0 when there is none.  remove: it is removed. */
uint64_t colstore_beside(const char *index_path, bool remove);
/* The first write error ("" none); static or living as long as cs. */
const char *colstore_error(struct colstore *cs);

#endif
