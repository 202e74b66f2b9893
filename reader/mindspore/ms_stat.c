/*
 * ms_stat.c - statistic.csv (FORMAT.md §7) into td_summary rows.
 *
 * Columns are found by header name, never by position, so the classic
 * 20-column file, the 22-column one with L2 Value and MD5, the 15-column
 * device-statistics file and newer category lists all load; unknown columns
 * are ignored.  Not for: statistic values beyond the summary (MD5).
 */
#include "ms_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/fileio.h"
#include "reader/parse/csv.h"
#include "reader/parse/decnum.h"

enum stat_col {
	COL_OP_TYPE, COL_OP_NAME, COL_TASK, COL_STREAM, COL_TS, COL_IO, COL_SLOT,
	COL_DTYPE, COL_SHAPE, COL_MAX, COL_MIN, COL_AVG, COL_COUNT, COL_NEG, COL_POS,
	COL_NAN, COL_NEG_INF, COL_POS_INF, COL_ZERO, COL_L2, COL_L2NORM, COL_COUNT_
};

static const char *const col_names[COL_COUNT_] = {
	"Op Type", "Op Name", "Task ID", "Stream ID", "Timestamp", "IO", "Slot",
	"Data Type", "Shape", "Max Value", "Min Value", "Avg Value", "Count",
	"Negative Zero Count", "Positive Zero Count", "NaN Count", "Negative Inf Count",
	"Positive Inf Count", "Zero Count", "L2 Value", "L2Norm Value",
};

/* A cell that is no run of 1 to 19 digits: strtoull's value when it reads
 * the whole cell (a sign, spaces or more digits), else false. */
static bool
parse_u64_slow(const char *s, uint64_t *v)
{
	char *e;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &e, 10);
	return !errno && !*e;
}

/* A cell of 1 to 19 digits and nothing else: its value without strtoull
 * (which gives the same for it); anything else goes to strtoull. */
static inline bool
parse_u64(const char *s, uint64_t *v)
{
	const char *p = s;
	uint64_t x = 0;

	if (!s)
		return false;
	for (; (unsigned)(*p - '0') < 10u; p++)
		x = x * 10 + (uint64_t)(*p - '0');
	if (!*p && p != s && p - s <= 19) {
		*v = x;
		return true;
	}
	return parse_u64_slow(s, v);
}

/* A cell that is a plain decimal -?D+(.D+)? of at most 19 digits (the
 * writer's usual cell, §7): sign, mantissa and power of ten for
 * decnum_exact, which says whether its one multiply or divide is exact
 * (decnum.h), so the double is strtod's.  false for any other text, and
 * when the mantissa is not exactly convertible: the caller asks
 * decnum_fast and strtod. */
static inline bool
plain_decimal(const char *s, double *v)
{
	const char *p = s + (*s == '-'), *int_end, *frac;
	uint64_t m = 0;

	for (; (unsigned)(*p - '0') < 10u; p++)
		m = m * 10 + (uint64_t)(*p - '0');
	int_end = p;
	if (*p == '.') {
		frac = ++p;
		for (; (unsigned)(*p - '0') < 10u; p++)
			m = m * 10 + (uint64_t)(*p - '0');
	} else {
		frac = p;
	}
	if (*int_end == '.' && p == frac)
		return false;   /* "1." */
	/* digits before the point, then after it: at most 19 in all (m
	 * did not wrap), at least one before */
	if (*p || int_end == s + (*s == '-') || (int_end - s) - (*s == '-') + (p - frac) > 19)
		return false;
	return decnum_exact(*s == '-', m, -(int)(p - frac), v);
}

/* The cell's double, bit for bit strtod's: the plain decimals and
 * decnum's exact fast path for the short numbers the writer prints (§7),
 * strtod for the rest. */
static bool
parse_double(const char *s, double *v)
{
	char *e;

	if (!s || !*s || (*s == 'n' && strcmp(s, "null") == 0))
		return false;
	if (plain_decimal(s, v) || decnum_fast(s, v))
		return true;
	*v = strtod(s, &e);
	return !*e;
}

/* A dimension of 1 to 18 digits at p (no sign, no space: what strtoll
 * would read the same): its value and end; false for anything else, which
 * goes to strtoll. */
static bool
digits(const char *p, long long *v, char **end)
{
	const char *q = p;
	long long x = 0;

	for (; *q >= '0' && *q <= '9'; q++) {
		if (q - p == 18)
			return false;
		x = x * 10 + (*q - '0');
	}
	if (q == p)
		return false;
	*v = x;
	*end = (char *)q;
	return true;
}

bool
ms_stat_parse_shape(const char *text, struct td_summary *s)
{
	const char *p = text;
	int64_t dims[64], n = 1;
	int rank = 0, i;

	while (*p == ' ')
		p++;
	if (*p++ != '(')
		return false;
	for (;;) {
		char *e;
		long long d;

		while (*p == ' ' || *p == ',')
			p++;
		if (*p == ')')
			break;
		if (!digits(p, &d, &e)) {
			errno = 0;
			d = strtoll(p, &e, 10);
			if (e == p || errno)
				return false;
		}
		if (d < 0 || rank >= 64)
			return false;
		dims[rank++] = d;
		/* the product saturates at INT64_MAX (the multiply says when it
		 * overflows: no division per dimension) */
		if (__builtin_mul_overflow(n, (int64_t)d, &n))
			n = INT64_MAX;
		p = e;
	}
	s->rank = rank;
	s->dims_truncated = rank > TD_MAX_DIMS;
	s->ndims = TD_MIN(rank, TD_MAX_DIMS);
	for (i = 0; i < s->ndims; i++)
		s->dims[i] = dims[rank - s->ndims + i];
	s->elements = n;
	s->known |= SUM_RANK | SUM_SHAPE;
	return true;
}

/* A row's known cells: their text (NUL-terminated; NULL for an absent
 * column). */
struct cells {
	char *s[COL_COUNT_];
};

/* Integer cell col: parse_u64 of its text. */
static inline bool
cell_u64(const struct cells *c, int col, uint64_t *v)
{
	return parse_u64(c->s[col], v);
}

/* Decimal cell col: parse_double of its text. */
static inline bool
cell_double(const struct cells *c, int col, double *v)
{
	return parse_double(c->s[col], v);
}

/* Sets one count field from cell col. */
static inline void
set_count(const struct cells *c, int col, int64_t *field, uint32_t bit, struct td_summary *s)
{
	uint64_t v;

	if (cell_u64(c, col, &v) && v <= INT64_MAX) {
		*field = (int64_t)v;
		s->known |= bit;
	}
}

/* The dtype of a Data Type cell; st (may be NULL) remembers the last. */
static enum td_dtype
dtype_of(const char *word, struct ms_stat *st)
{
	enum td_dtype dt;

	if (!word)
		return DTYPE_INVALID;
	if (st && *st->dtype_word && strcmp(word, st->dtype_word) == 0)
		return (enum td_dtype)st->dtype;
	dt = td_dtype_from_name(word);
	if (st && strlen(word) < sizeof st->dtype_word) {
		strcpy(st->dtype_word, word);
		st->dtype = (int)dt;
	}
	return dt;
}

/* s: zeroed by the caller (fill_row) */
static void
fill_summary(const struct cells *c, struct td_summary *s, struct ms_stat *st)
{
	uint32_t both_inf = SUM_NEG_INF | SUM_POS_INF;
	enum td_dtype dt = dtype_of(c->s[COL_DTYPE], st);

	if (dt != DTYPE_INVALID) {
		s->dtype = dt;
		s->known |= SUM_DTYPE;
	}
	if (c->s[COL_SHAPE] && ms_stat_parse_shape(c->s[COL_SHAPE], s))
		s->known |= SUM_ELEMENTS;
	set_count(c, COL_COUNT, &s->elements, SUM_ELEMENTS, s);
	set_count(c, COL_NAN, &s->nan, SUM_NAN, s);
	set_count(c, COL_NEG_INF, &s->neg_inf, SUM_NEG_INF, s);
	set_count(c, COL_POS_INF, &s->pos_inf, SUM_POS_INF, s);
	set_count(c, COL_ZERO, &s->zero, SUM_ZERO, s);
	/* §7: "Negative/Positive Zero Count" are elements < 0 / > 0,
	 * infinities included; the neutral fields count finite ones. */
	set_count(c, COL_NEG, &s->negative, SUM_NEGATIVE, s);
	set_count(c, COL_POS, &s->positive, SUM_POSITIVE, s);
	if (s->known & SUM_NEGATIVE)
		s->negative = TD_MAX(0, s->negative - s->neg_inf);
	if (s->known & SUM_POSITIVE)
		s->positive = TD_MAX(0, s->positive - s->pos_inf);
	if ((s->known & SUM_NAN) && (s->known & both_inf) == both_inf) {
		s->has_inf_or_nan = s->nan > 0 || s->neg_inf > 0 || s->pos_inf > 0;
		s->known |= SUM_NONFINITE;
	}
	if (cell_double(c, COL_MAX, &s->max) && cell_double(c, COL_MIN, &s->min))
		s->known |= SUM_MINMAX;
	if (cell_double(c, COL_AVG, &s->mean))
		s->known |= SUM_MEAN;
	/* §7: 22-column files say "L2 Value", device statistics "L2Norm Value" */
	if (cell_double(c, COL_L2, &s->l2norm) || cell_double(c, COL_L2NORM, &s->l2norm))
		s->known |= SUM_L2NORM;
}

/* st: the file's parse (its memos), NULL for a row read again. */
static bool
fill_row(const struct cells *c, struct ms_stat_row *r, struct ms_stat *st)
{
	uint64_t slot;

	memset(r, 0, sizeof(*r));
	if (!c->s[COL_OP_TYPE] || !c->s[COL_OP_NAME] || !cell_u64(c, COL_TS, &r->ts) ||
	    !cell_u64(c, COL_SLOT, &slot) || slot > UINT32_MAX)
		return false;
	if (strcmp(c->s[COL_IO], "input") == 0)
		r->is_input = true;
	else if (strcmp(c->s[COL_IO], "output") != 0)
		return false;
	r->slot = (uint32_t)slot;
	if (!cell_u64(c, COL_TASK, &r->task))
		r->task = 0;
	if (!cell_u64(c, COL_STREAM, &r->stream))
		r->stream = 0;
	fill_summary(c, &r->summary, st);
	r->op_type = c->s[COL_OP_TYPE];     /* borrowed: the caller copies them */
	r->op_name = c->s[COL_OP_NAME];
	return true;
}

static int
row_cmp(const void *a, const void *b)
{
	const struct ms_stat_row *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->is_input != y->is_input)
		return x->is_input ? -1 : 1;
	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

_Static_assert(COL_COUNT_ == MS_STAT_NCOLS, "ms_stat.colmap holds every column");

enum td_status
ms_stat_map_header(const struct csv_row *hdr, int *colmap, char *err, size_t errlen)
{
	static const int key_cols[] = { COL_OP_TYPE, COL_OP_NAME, COL_TS, COL_IO, COL_SLOT };
	size_t i, c;

	for (c = 0; c < COL_COUNT_; c++)
		colmap[c] = -1;
	for (i = 0; i < hdr->n; i++)
		for (c = 0; c < COL_COUNT_; c++)
			if (strcmp(hdr->fields[i], col_names[c]) == 0)
				colmap[c] = (int)i;
	for (i = 0; i < TD_ARRAY_SIZE(key_cols); i++)
		if (colmap[key_cols[i]] < 0) {
			snprintf(err, errlen, "statistic.csv header lacks the \"%s\" column",
				 col_names[key_cols[i]]);
			return TD_ERR_CORRUPT;
		}
	return TD_OK;
}

/* The known columns' cells of a split line, NULL for absent ones. */
static void
map_cells(const int *colmap, const struct csv_row *row, struct cells *cell)
{
	size_t c;

	for (c = 0; c < COL_COUNT_; c++)
		cell->s[c] = colmap[c] >= 0 ? row->fields[colmap[c]] : NULL;
}

bool
ms_stat_fill_split(const int *colmap, const struct csv_row *row, struct ms_stat_row *out)
{
	struct cells cell;

	map_cells(colmap, row, &cell);
	return fill_row(&cell, out, NULL);
}

/* One line of the file, starting at byte off: the header first, then
 * rows.  row is scratch. */
static enum td_status
stat_line(struct ms_stat *st, const char *line, size_t len, uint64_t off, struct csv_row *row,
	  char *err, size_t errlen)
{
	struct cells cell;
	struct ms_stat_row spare, *r = &spare;

	if (!st->header) {
		enum td_status rc;

		st->header = true;
		if (st->last_header && len == st->last_header_len &&
		    memcmp(line, st->last_header, len) == 0) {
			st->ncolumns = st->last_ncolumns;
			memcpy(st->colmap, st->last_colmap, sizeof(st->colmap));
			return TD_OK;
		}
		csv_split(line, len, row);
		st->ncolumns = row->n;
		if ((rc = ms_stat_map_header(row, st->colmap, err, errlen)) == TD_OK) {
			free(st->last_header);
			st->last_header = xmalloc(len ? len : 1);
			memcpy(st->last_header, line, len);
			st->last_header_len = len;
			st->last_ncolumns = st->ncolumns;
			memcpy(st->last_colmap, st->colmap, sizeof(st->colmap));
		}
		return rc;
	}
	if (len == 0)
		return TD_OK;
	if (csv_split(line, len, row) != TD_OK || row->n != st->ncolumns) {
		st->bad_rows++;
		return TD_OK;
	}
	map_cells(st->colmap, row, &cell);
	/* the row is parsed where it is kept (the array has room for one
	 * more), and kept by counting it */
	if (st->n < MS_STAT_ROWS_MAX) {
		if (st->n == st->cap)
			TD_GROW(st->rows, st->cap, st->n + 1);
		r = &st->rows[st->n];
	}
	if (!fill_row(&cell, r, st)) {
		st->bad_rows++;
	} else if (r == &spare) {
		st->over_rows++;
	} else {
		r->off = off;
		/* a run repeats few op types, and an op's rows follow each
		 * other: the previous row's copy is kept (the index thread then
		 * knows the name again by its pointer) */
		if (st->n && strcmp(st->rows[st->n - 1].op_type, r->op_type) == 0)
			r->op_type = st->rows[st->n - 1].op_type;
		else
			r->op_type = td_strpool_copy(&st->names, r->op_type, strlen(r->op_type));
		if (st->n && strcmp(st->rows[st->n - 1].op_name, r->op_name) == 0)
			r->op_name = st->rows[st->n - 1].op_name;
		else
			r->op_name = td_strpool_copy(&st->names, r->op_name, strlen(r->op_name));
		st->n++;
	}
	return TD_OK;
}

static enum td_status
stat_finish(struct ms_stat *st, char *err, size_t errlen)
{
	size_t i;

	if (!st->header) {
		snprintf(err, errlen, "statistic.csv is empty");
		return TD_ERR_CORRUPT;
	}
	/* rows written in (timestamp, io, slot) order stay; with a tie or
	 * one out of order the sort decides, as it always did */
	for (i = 1; i < st->n && row_cmp(&st->rows[i - 1], &st->rows[i]) < 0; i++)
		;
	if (i < st->n)
		td_sort(st->rows, st->n, sizeof(*st->rows), row_cmp);
	return TD_OK;
}

enum td_status
ms_stat_parse(const char *text, size_t len, struct ms_stat *st, char *err, size_t errlen)
{
	struct csv_row row = {0};
	size_t pos = 0, llen;
	const char *line;
	enum td_status rc = TD_OK;

	memset(st, 0, sizeof(*st));
	while (rc == TD_OK && (line = csv_next_line(text, len, &pos, &llen)))
		rc = stat_line(st, line, llen, (uint64_t)(line - text), &row, err, errlen);
	st->size = len;
	csv_row_done(&row);
	return rc == TD_OK ? stat_finish(st, err, errlen) : rc;
}

enum td_status
ms_stat_read(const char *path, size_t max_line, struct ms_stat *st, char *err, size_t errlen)
{
	struct csv_row row = {0};
	struct td_lines lines;
	const char *line;
	size_t llen;
	enum td_status rc;

	ms_stat_clear(st);
	if ((rc = td_lines_open(&lines, path, max_line, err, errlen)) != TD_OK) {
		td_lines_close(&lines);
		return rc;
	}
	/* a line's offset: buf[end] is at file offset off (fileio.h) */
	while (rc == TD_OK && (line = td_lines_next(&lines, &llen)))
		rc = stat_line(st, line, llen, lines.off - (lines.end - (size_t)(line - lines.buf)),
			       &row, err, errlen);
	st->long_lines = lines.long_lines;
	st->size = lines.size;
	st->mtime_ns = lines.mtime_ns;
	if (rc == TD_OK && lines.error) {
		snprintf(err, errlen, "%s: read error after %llu lines", path,
			 (unsigned long long)lines.lines);
		rc = TD_ERR_IO;
	}
	td_lines_close(&lines);
	csv_row_done(&row);
	return rc == TD_OK ? stat_finish(st, err, errlen) : rc;
}

const struct ms_stat_row *
ms_stat_find(const struct ms_stat *st, const char *op_type, uint64_t ts, bool is_input,
	     uint32_t slot)
{
	struct ms_stat_row key = { .ts = ts, .is_input = is_input, .slot = slot };
	size_t lo = 0, hi = st->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (row_cmp(&st->rows[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < st->n && row_cmp(&st->rows[lo], &key) == 0; lo++)
		if (!op_type || strcmp(st->rows[lo].op_type, op_type) == 0)
			return &st->rows[lo];
	return NULL;
}

/* A row array kept by ms_stat_clear: the rows of a few runs' files */
#define KEEP_ROWS 4096

void
ms_stat_clear(struct ms_stat *st)
{
	struct ms_stat keep = {
		.rows = st->rows, .cap = st->cap, .last_header = st->last_header,
		.last_header_len = st->last_header_len, .last_ncolumns = st->last_ncolumns,
		.dtype = st->dtype,
	};

	td_strpool_done(&st->names);
	if (keep.cap > KEEP_ROWS) {
		free(keep.rows);
		keep.rows = NULL;
		keep.cap = 0;
	}
	memcpy(keep.last_colmap, st->last_colmap, sizeof(keep.last_colmap));
	memcpy(keep.dtype_word, st->dtype_word, sizeof(keep.dtype_word));
	*st = keep;
}

void
ms_stat_done(struct ms_stat *st)
{
	if (!st)
		return;
	free(st->rows);
	free(st->last_header);
	td_strpool_done(&st->names);
	memset(st, 0, sizeof(*st));
}
