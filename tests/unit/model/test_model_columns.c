/*
 * test_model_columns.c - the summary columns (model/model_columns.c,
 * model/model_fields.c; issue 25 item 2): rows written by the index
 * thread read back exactly after a reopen; a row a question decoded is
 * kept; a file cut short, of another dump or not a column file is
 * refused with its reason; and on a real dump the fields a scan reads
 * are those of a decode, from a fresh file, a reused one and after a
 * torn one was refused and made anew; shapes are kept exactly or not at
 * all; msprobe leaves without a tensor file come from the pass (issue
 * 27).  The expected values are the ones the test wrote, or
 * model_trace_get's (the decode) for the model.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "model/model_columns.h"
#include "model/model_columns_block.h"
#include "tests/unit/helpers/files.h"

#define KEY 0x1234abcdULL
#define NROWS (2 * COLS_WINDOW + 100)   /* two full blocks and a partial one */

/* Row r's summary as the test writes it: counts from r, doubles with
 * fractions (exactness), min/max on odd rows only, dtype and rank. */
static void
summary_of(uint64_t r, struct td_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->known = SUM_DTYPE | SUM_RANK | SUM_ELEMENTS | SUM_NAN | SUM_ZERO | SUM_MEAN;
	s->dtype = DTYPE_FLOAT32;
	s->rank = (int)(r % 5);
	s->elements = (int64_t)r * 3 + 1;
	s->nan = (int64_t)(r % 7);
	s->zero = (int64_t)r;
	s->mean = (double)r / 3.0;
	if (r & 1) {
		s->known |= SUM_MINMAX;
		s->min = -(double)r - 0.1;
		s->max = (double)r + 1e-300;
	}
}

static void
assert_row(struct colstore *cs, uint64_t r)
{
	struct model_fields got;
	struct td_summary want;

	summary_of(r, &want);
	assert_true(colstore_get(cs, r, COLS_FIELDS | COLS_WALL, &got));
	assert_int_equal(got.s.known, want.known);
	assert_int_equal(got.s.dtype, want.dtype);
	assert_int_equal(got.s.rank, want.rank);
	assert_int_equal(got.s.elements, want.elements);
	assert_int_equal(got.s.nan, want.nan);
	assert_int_equal(got.s.zero, want.zero);
	assert_memory_equal(&got.s.mean, &want.mean, sizeof(double));
	if (r & 1) {
		assert_memory_equal(&got.s.min, &want.min, sizeof(double));
		assert_memory_equal(&got.s.max, &want.max, sizeof(double));
	}
	assert_true(got.wall_time == 1e9 + (double)r * 0.5);
}

/* A file of NROWS rows (even rows filled, odd ones not) in dir. */
static void
write_file(const char *dir, int *dirfd)
{
	char err[256];
	struct colstore *cs;

	*dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(*dirfd >= 0);
	cs = colstore_create(*dirfd, "x.tdc", "x.tdc", KEY, err, sizeof err);
	assert_non_null(cs);
	for (uint64_t r = 0; r < NROWS; r++) {
		struct td_summary s;

		summary_of(r, &s);
		colstore_put(cs, r, &s, 1e9 + (double)r * 0.5, r % 2 == 0, 0);
	}
	/* the full blocks were written as they filled; the last waits */
	assert_int_equal(colstore_rows(cs), 2 * COLS_WINDOW);
	assert_true(colstore_flush(cs));
	assert_int_equal(colstore_rows(cs), NROWS);
	colstore_close(cs);
}

static void
test_columns_written_read_back_after_reopen(void **state)
{
	char *dir = test_tmpdir("cols"), err[256];
	struct model_fields got;
	struct colstore *cs;
	int dirfd;

	(void)state;
	write_file(dir, &dirfd);
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY, UINT64_MAX, err, sizeof err);
	assert_non_null(cs);
	assert_int_equal(colstore_rows(cs), NROWS);
	for (uint64_t r = 0; r < NROWS; r += 2)
		assert_row(cs, r);
	for (uint64_t r = 1; r < NROWS; r += 2)
		assert_false(colstore_get(cs, r, COLS_FIELDS, &got));   /* not filled: decode */
	assert_false(colstore_get(cs, NROWS, COLS_FIELDS, &got));
	/* asked for the zero count only: the other fields are not claimed */
	assert_true(colstore_get(cs, 10, SUM_ZERO, &got));
	assert_int_equal(got.s.known, SUM_ZERO);
	assert_int_equal(got.s.zero, 10);
	colstore_close(cs);
	/* an index holding fewer rows than the file: the rows past it are not used */
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY, 5000, err, sizeof err);
	assert_non_null(cs);
	assert_int_equal(colstore_rows(cs), 5000);
	assert_false(colstore_get(cs, 5000, COLS_FIELDS, &got));
	colstore_close(cs);
	close(dirfd);
	test_rmtree(dir);
}

static void
test_columns_keep_a_decoded_row(void **state)
{
	char *dir = test_tmpdir("cols"), err[256];
	struct model_fields got;
	struct td_summary s;
	struct colstore *cs;
	int dirfd;

	(void)state;
	write_file(dir, &dirfd);
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY, UINT64_MAX, err, sizeof err);
	assert_non_null(cs);
	summary_of(4097, &s);
	s.known |= SUM_STD;
	s.std = 0.25;
	colstore_fill(cs, 4097, &s, SUM_STD, 1e9 + 4097 * 0.5);
	assert_true(colstore_get(cs, 4097, COLS_FIELDS | COLS_WALL, &got));
	assert_int_equal(got.from_values, SUM_STD);
	colstore_close(cs);         /* written back with its window */
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY, UINT64_MAX, err, sizeof err);
	assert_non_null(cs);
	assert_true(colstore_get(cs, 4097, COLS_FIELDS | COLS_WALL, &got));
	assert_int_equal(got.from_values, SUM_STD);
	assert_true(got.s.std == 0.25);
	assert_int_equal(got.s.zero, 4097);
	assert_row(cs, 4096);       /* its neighbours unchanged */
	assert_row(cs, 4098);
	colstore_close(cs);
	close(dirfd);
	test_rmtree(dir);
}

static void
test_columns_cut_short_is_refused(void **state)
{
	char *dir = test_tmpdir("cols"), err[256], path[256];
	struct colstore *cs;
	int dirfd;

	(void)state;
	write_file(dir, &dirfd);
	snprintf(path, sizeof path, "%s/x.tdc", dir);
	assert_int_equal(truncate(path, 64 + 2 * 4096 * 15 * 8 + 1000), 0);
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY, UINT64_MAX, err, sizeof err);
	assert_null(cs);
	assert_non_null(strstr(err, "cut short"));
	assert_non_null(strstr(err, "8292 rows"));
	close(dirfd);
	test_rmtree(dir);
}

static void
test_columns_other_dump_or_no_header_is_refused(void **state)
{
	char *dir = test_tmpdir("cols"), err[256], path[256];
	struct colstore *cs;
	int dirfd;

	(void)state;
	write_file(dir, &dirfd);
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY + 1, UINT64_MAX, err, sizeof err);
	assert_null(cs);
	assert_non_null(strstr(err, "another dump"));
	snprintf(path, sizeof path, "%s/x.tdc", dir);
	test_spit(path, "TDBGIDX", 7, "r+b");
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY, UINT64_MAX, err, sizeof err);
	assert_null(cs);
	assert_non_null(strstr(err, "no header"));
	close(dirfd);
	test_rmtree(dir);
}

/* The shape column (issue 27: the two-dump diff compares shapes from
 * it): shapes of rank 0 to 8 whose dims fit 60 / rank bits read back
 * exactly; a dim past that, or a truncated shape, is not kept (the row
 * is decoded). */
static void
test_columns_shape_exact_or_not_kept(void **state)
{
	static const struct {
		int rank;
		int64_t dims[TD_MAX_DIMS];
		bool kept;
	} sh[] = {
		{ 0, { 0 }, true },
		{ 1, { (1ll << 60) - 1 }, true },
		{ 2, { 0, (1ll << 30) - 1 }, true },
		{ 2, { 3, 1ll << 30 }, false },
		{ 3, { 2, 3, 4 }, true },
		{ 4, { 64, 3, 224, 32767 }, true },
		{ 4, { 64, 3, 224, 32768 }, false },
		{ 8, { 1, 2, 3, 4, 5, 6, 7, 127 }, true },
		{ 8, { 1, 2, 3, 4, 5, 6, 7, 128 }, false },
		{ 9, { 1 }, false },                        /* rank past TD_MAX_DIMS */
	};
	char *dir = test_tmpdir("colsh"), err[256];
	struct model_fields got;
	struct colstore *cs;
	size_t n = sizeof sh / sizeof sh[0];
	int dirfd;

	(void)state;
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	cs = colstore_create(dirfd, "x.tdc", "x.tdc", KEY, err, sizeof err);
	assert_non_null(cs);
	for (size_t r = 0; r < n; r++) {
		struct td_summary s = { .known = SUM_RANK | SUM_SHAPE, .rank = sh[r].rank };

		s.ndims = sh[r].rank > TD_MAX_DIMS ? TD_MAX_DIMS : sh[r].rank;
		s.dims_truncated = sh[r].rank > TD_MAX_DIMS;
		memcpy(s.dims, sh[r].dims, sizeof s.dims);
		colstore_put(cs, r, &s, 0, true, 0);
	}
	assert_true(colstore_flush(cs));
	colstore_close(cs);
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY, UINT64_MAX, err, sizeof err);
	assert_non_null(cs);
	for (size_t r = 0; r < n; r++) {
		assert_int_equal(colstore_get(cs, r, COLS_FIELDS, &got), sh[r].kept);
		if (!sh[r].kept)
			continue;
		assert_int_equal(got.s.known, SUM_RANK | SUM_SHAPE);
		assert_int_equal(got.s.rank, sh[r].rank);
		assert_int_equal(got.s.ndims, sh[r].rank);
		assert_false(got.s.dims_truncated);
		assert_memory_equal(got.s.dims, sh[r].dims, (size_t)sh[r].rank * sizeof(int64_t));
	}
	/* not asked for: not claimed */
	assert_true(colstore_get(cs, 4, SUM_RANK, &got));
	assert_int_equal(got.s.known, SUM_RANK);
	colstore_close(cs);
	close(dirfd);
	test_rmtree(dir);
}

/* A sort's block read (colstore_get_keys): one field of a list of rows
 * across blocks, filled rows as written, the others to be decoded, rows
 * past the file none; an element count the row does not know is said
 * unknown, a filled row's wall time is read as it is (known). */
static void
test_columns_keys_of_rows_across_blocks(void **state)
{
	char *dir = test_tmpdir("colsb"), err[256];
	struct colstore *cs;
	uint64_t *rows = malloc((NROWS + 1) * sizeof *rows);
	double *val = malloc((NROWS + 1) * sizeof *val);
	uint8_t *st = malloc(NROWS + 1);
	struct td_summary none = { 0 };
	size_t n = 0;
	int dirfd;

	(void)state;
	write_file(dir, &dirfd);
	cs = colstore_open(dirfd, "x.tdc", "x.tdc", KEY, UINT64_MAX, err, sizeof err);
	assert_non_null(cs);
	colstore_fill(cs, 3, &none, 0, 7.5);    /* filled: no count */
	for (uint64_t r = 0; r < NROWS; r += 1 + r % 3)
		rows[n++] = r;
	rows[n++] = NROWS;
	for (int wall = 0; wall < 2; wall++) {
		colstore_get_keys(cs, rows, n, wall ? COLS_WALL : SUM_ELEMENTS, val, st);
		for (size_t k = 0; k < n; k++) {
			uint64_t r = rows[k];

			if (r == NROWS || (r % 2 && r != 3)) {
				assert_int_equal(st[k], COLS_KEY_NONE);
			} else if (r == 3) {
				assert_int_equal(st[k], wall ? COLS_KEY_KNOWN : COLS_KEY_UNKNOWN);
				if (wall)
					assert_true(val[k] == 7.5);
			} else {
				assert_int_equal(st[k], COLS_KEY_KNOWN);
				assert_true(val[k] == (wall ? 1e9 + (double)r * 0.5 : (double)(r * 3 + 1)));
			}
		}
	}
	colstore_close(cs);
	close(dirfd);
	free(rows);
	free(val);
	free(st);
	test_rmtree(dir);
}

/* ---- the model ------------------------------------------------------------ */

static struct model *
open_path(const char *path, const char *cache)
{
	struct model_options opt = {.no_thread = true, .cache = true, .cache_dir = cache};
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(path, &opt, &m, err, sizeof err), TD_OK);
	return m;
}

static struct model *
open_dump(const char *cache)
{
	return open_path("tests/fixtures/tfdbg2/mnist_nan", cache);
}

/* path's model without the persistent index (no summary columns). */
static struct model *
open_uncached(const char *path)
{
	struct model_options opt = {.no_thread = true};
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(path, &opt, &m, err, sizeof err), TD_OK);
	return m;
}

/* Every row's fields as a scan reads them equal the decode's; returns
 * how many came from the columns. */
static uint64_t
fields_equal_decode(struct model *m)
{
	uint64_t n = model_trace_count(m), cols = 0;

	assert_true(n > 0);
	for (uint64_t i = 0; i < n; i++) {
		struct model_fields f;
		struct model_trace t;

		assert_true(model_trace_fields(m, i, (COLS_FIELDS | MODEL_FIELDS_WALL), &f));
		assert_int_equal(model_trace_get(m, i, &t), TD_OK);
		cols += f.from_columns;
		assert_int_equal(f.s.known & COLS_FIELDS, t.summary.known & COLS_FIELDS);
		assert_int_equal(f.s.elements, t.summary.elements);
		assert_int_equal(f.s.zero, t.summary.zero);
		assert_int_equal(f.s.nan, t.summary.nan);
		assert_int_equal(f.s.neg_inf, t.summary.neg_inf);
		assert_int_equal(f.s.pos_inf, t.summary.pos_inf);
		assert_int_equal(f.s.negative, t.summary.negative);
		assert_int_equal(f.s.positive, t.summary.positive);
		if (t.summary.known & SUM_DTYPE)
			assert_int_equal(f.s.dtype, t.summary.dtype);
		if (t.summary.known & SUM_MINMAX) {
			assert_memory_equal(&f.s.min, &t.summary.min, sizeof(double));
			assert_memory_equal(&f.s.max, &t.summary.max, sizeof(double));
		}
		if (t.summary.known & SUM_MEAN)
			assert_memory_equal(&f.s.mean, &t.summary.mean, sizeof(double));
		if (t.summary.known & SUM_L2NORM)
			assert_memory_equal(&f.s.l2norm, &t.summary.l2norm, sizeof(double));
		if (t.summary.known & SUM_RANK)
			assert_int_equal(f.s.rank, t.summary.rank);
		if (t.summary.known & SUM_NONFINITE)
			assert_int_equal(f.s.has_inf_or_nan, t.summary.has_inf_or_nan);
		if (t.summary.known & SUM_SHAPE) {
			assert_int_equal(f.s.ndims, t.summary.ndims);
			assert_memory_equal(f.s.dims, t.summary.dims,
					    (size_t)t.summary.ndims * sizeof(t.summary.dims[0]));
		}
		assert_memory_equal(&f.wall_time, &t.wall_time, sizeof(double));
	}
	return cols;
}

static void
test_model_fields_equal_decode_fresh_reused_and_torn(void **state)
{
	char *dir = test_tmpdir("colsm"), cmd[512];
	struct model *m;
	uint64_t n;

	(void)state;
	m = open_dump(dir);
	n = model_trace_count(m);
	assert_int_equal(n, 680);                   /* tests/fixtures/tfdbg2/README.md */
	assert_int_equal(fields_equal_decode(m), n);        /* every row from the pass */
	assert_string_equal(model_fields_why(m), "");
	model_close(m);
	m = open_dump(dir);                         /* reused */
	assert_int_equal(fields_equal_decode(m), n);
	assert_string_equal(model_fields_why(m), "");
	model_close(m);
	snprintf(cmd, sizeof cmd, "truncate -s 1000 %s/*.tdc", dir);
	assert_int_equal(system(cmd), 0);
	m = open_dump(dir);                         /* torn: refused, made anew */
	assert_non_null(strstr(model_fields_why(m), "cut short"));
	/* the loaded index's rows are decoded, kept as they are asked */
	assert_int_equal(fields_equal_decode(m), 0);
	assert_int_equal(fields_equal_decode(m), n);
	model_close(m);
	m = open_dump(dir);                         /* the kept rows are used */
	assert_string_equal(model_fields_why(m), "");
	assert_int_equal(fields_equal_decode(m), n);
	model_close(m);
	test_rmtree(dir);
}

/* A health mode's record holds no values (the step fields need not
 * decode it); a FULL_TENSOR record holds them (README: "in FULL_TENSOR
 * the tensors' values are stored"): never claimed to have none. */
static void
test_model_no_values_only_for_health_modes(void **state)
{
	char *dir = test_tmpdir("colsv");
	struct model *m;

	(void)state;
	m = open_path("tests/fixtures/tfdbg2/mnist_nan", dir);
	for (uint64_t i = 0; i < model_trace_count(m); i++)
		assert_true(model_trace_no_values(m, i));
	model_close(m);
	m = open_path("tests/fixtures/tfdbg2/modes/full_tensor", dir);
	assert_true(model_trace_count(m) > 0);
	for (uint64_t i = 0; i < model_trace_count(m); i++) {
		struct model_fields f;

		assert_false(model_trace_no_values(m, i));
		assert_true(model_trace_fields(m, i, SUM_ZERO, &f));   /* decoded, kept */
		assert_false(model_trace_no_values(m, i));
	}
	model_close(m);
	test_rmtree(dir);
}

/* Without the persistent index (--no-cache: no summary columns) the pass
 * still knows which records hold no values: a health mode's rows (and
 * their fields, read through the row cache, equal the decode's), never a
 * FULL_TENSOR record's.  The cold diff and the step fields rely on it. */
static void
test_model_no_values_without_columns(void **state)
{
	struct model *m;
	uint64_t n;

	(void)state;
	m = open_uncached("tests/fixtures/tfdbg2/mnist_nan");
	n = model_trace_count(m);
	assert_int_equal(n, 680);                   /* tests/fixtures/tfdbg2/README.md */
	for (uint64_t i = 0; i < n; i++)
		assert_true(model_trace_no_values(m, i));
	assert_false(model_trace_no_values(m, n));
	assert_int_equal(fields_equal_decode(m), 0);        /* none from columns, all equal */
	model_close(m);
	m = open_uncached("tests/fixtures/tfdbg2/modes/full_tensor");
	assert_true(model_trace_count(m) > 0);
	for (uint64_t i = 0; i < model_trace_count(m); i++)
		assert_false(model_trace_no_values(m, i));
	model_close(m);
}

/* msprobe (issue 27): a leaf without a tensor file is its record's
 * statistics, so the pass's summary is the decode's and every such row
 * comes from the columns on a first open; a leaf with a file is decoded
 * (its values add fields) and kept.  The tensor-file counts are the
 * fixtures' README's. */
static void
test_msprobe_fields_from_the_pass_equal_decode(void **state)
{
	static const struct {
		const char *dir;
		uint64_t files;
	} fx[] = {
		{ "tests/fixtures/msprobe/pt_stats_2rank", 0 },
		{ "tests/fixtures/msprobe/pt_md5_legacy", 0 },
		{ "tests/fixtures/msprobe/pt_tensor_pt", 25 },
		{ "tests/fixtures/msprobe/pt_xor_npy", 25 },
		{ "tests/fixtures/msprobe/ms_tensor_npy", 74 },
	};
	char *dir = test_tmpdir("colsp");
	struct model *m;
	uint64_t n;

	(void)state;
	for (size_t k = 0; k < sizeof fx / sizeof fx[0]; k++) {
		m = open_path(fx[k].dir, dir);
		n = model_trace_count(m);
		assert_true(n >= fx[k].files && n > 0);
		assert_int_equal(fields_equal_decode(m), n - fx[k].files);
		assert_int_equal(fields_equal_decode(m), n);        /* the rest kept */
		model_close(m);
		m = open_path(fx[k].dir, dir);                      /* reused */
		assert_int_equal(fields_equal_decode(m), n);
		model_close(m);
	}
	test_rmtree(dir);
}

/* A sort's keys a window at a time (model_trace_sort_keys) are the
 * fields model_trace_fields gives row by row: from the columns the pass
 * wrote, from a reused file, from a torn one (the rows decoded, then
 * kept), for every row and for a subset (as a filter gives them). */
static void
keys_equal_fields(struct model *m)
{
	uint64_t n = model_trace_count(m), *rows = malloc((n + 1) * sizeof *rows);
	double *val = malloc((n + 1) * sizeof *val);
	bool *known = malloc((n + 1) * sizeof *known);
	size_t nsub = 0;

	for (int step = 1; step <= 7; step += 6) {
		nsub = 0;
		for (uint64_t i = 0; i < n; i += (uint64_t)step)
			rows[nsub++] = i;
		rows[nsub++] = n + 3;               /* past the rows: not known */
		for (int key = MODEL_SORT_ELEMENTS; key <= MODEL_SORT_WALL; key++) {
			model_trace_sort_keys(m, (enum model_sort_key)key, rows, nsub, val, known);
			assert_false(known[nsub - 1]);
			for (size_t k = 0; k + 1 < nsub; k++) {
				struct model_fields f;

				assert_true(model_trace_fields(m, rows[k],
							       SUM_ELEMENTS | MODEL_FIELDS_WALL, &f));
				if (key == MODEL_SORT_WALL) {
					assert_int_equal(known[k], f.wall_time > 0);
					assert_memory_equal(&val[k], &f.wall_time, sizeof(double));
				} else {
					assert_int_equal(known[k], (f.s.known & SUM_ELEMENTS) != 0);
					if (known[k])
						assert_true(val[k] == (double)f.s.elements);
				}
			}
		}
	}
	free(rows);
	free(val);
	free(known);
}

static void
test_model_sort_keys_equal_fields(void **state)
{
	char *dir = test_tmpdir("colsk"), cmd[512];
	struct model *m;

	(void)state;
	m = open_dump(dir);
	keys_equal_fields(m);
	model_close(m);
	m = open_dump(dir);                         /* reused */
	keys_equal_fields(m);
	model_close(m);
	snprintf(cmd, sizeof cmd, "truncate -s 1000 %s/*.tdc", dir);
	assert_int_equal(system(cmd), 0);
	m = open_dump(dir);                         /* torn: rows not filled */
	keys_equal_fields(m);
	model_close(m);
	m = open_path("tests/fixtures/tfdbg2/modes/full_tensor", dir);
	keys_equal_fields(m);                       /* decoded, then kept */
	keys_equal_fields(m);
	model_close(m);
	test_rmtree(dir);
}

/* cols_unpack writes each field (no clear of the whole struct first):
 * what the columns do not hold (dims past the rank, tensor_id, the
 * percentiles) comes back zero over a struct full of other bytes, and
 * the rest as packed; a row without a shape has no dims. */
static void
test_columns_unpack_over_a_dirty_struct(void **state)
{
	static struct block b;
	struct td_summary s = {0};
	struct model_fields f;

	(void)state;
	s.known = SUM_DTYPE | SUM_RANK | SUM_SHAPE | SUM_ELEMENTS | SUM_MEAN;
	s.dtype = DTYPE_FLOAT64;
	s.rank = s.ndims = 2;
	s.dims[0] = 3, s.dims[1] = 4;
	s.elements = 12;
	s.mean = 0.25;
	cols_pack(&b, 7, &s, SUM_MEAN, 1.5, true, true);
	s.known &= ~SUM_SHAPE;
	cols_pack(&b, 8, &s, 0, 0, true, true);

	memset(&f, 0xab, sizeof f);
	cols_unpack(&b, 7, ~0u, &f);
	assert_int_equal(f.s.known, SUM_DTYPE | SUM_RANK | SUM_SHAPE | SUM_ELEMENTS | SUM_MEAN);
	assert_int_equal(f.from_values, SUM_MEAN);
	assert_int_equal(f.s.rank, 2);
	assert_int_equal(f.s.ndims, 2);
	assert_false(f.s.dims_truncated);
	assert_int_equal(f.s.dims[0], 3);
	assert_int_equal(f.s.dims[1], 4);
	for (int k = 2; k < TD_MAX_DIMS; k++)
		assert_int_equal(f.s.dims[k], 0);
	for (int k = 0; k < TD_NPERCENTILES; k++)
		assert_true(f.s.pct[k] == 0);
	assert_int_equal(f.s.tensor_id, 0);
	assert_false(f.s.has_inf_or_nan);
	assert_int_equal(f.s.elements, 12);
	assert_true(f.s.mean == 0.25);
	assert_true(f.wall_time == 1.5);
	assert_true(f.from_columns);

	memset(&f, 0xab, sizeof f);
	cols_unpack(&b, 8, ~0u, &f);
	assert_int_equal(f.s.ndims, 0);
	for (int k = 0; k < TD_MAX_DIMS; k++)
		assert_int_equal(f.s.dims[k], 0);
	assert_true(f.wall_time == 0);
}

/* A column of a field no row of a block knows is not read (window_load):
 * a block where no row knows the NaN count reads none, one where one row
 * does reads its count, also when the column is asked after the
 * block's others; a row kept there later (colstore_fill) keeps its count
 * across a reopen. */
static void
test_columns_field_no_row_of_a_block_knows(void **state)
{
	char *dir = test_tmpdir("colsk"), err[256];
	const uint64_t one = COLS_WINDOW + 5;
	struct model_fields got;
	struct colstore *cs;
	int dirfd;

	(void)state;
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dirfd >= 0);
	cs = colstore_create(dirfd, "k.tdc", "k.tdc", KEY, err, sizeof err);
	assert_non_null(cs);
	for (uint64_t r = 0; r < NROWS; r++) {
		struct td_summary s;

		summary_of(r, &s);
		if (r != one)
			s.known &= ~(uint32_t)SUM_NAN;  /* its count not known */
		s.nan = r == one ? 42 : 77;
		colstore_put(cs, r, &s, 1.0, true, 0);
	}
	colstore_close(cs);
	for (int pass = 0; pass < 2; pass++) {
		cs = colstore_open(dirfd, "k.tdc", "k.tdc", KEY, UINT64_MAX, err, sizeof err);
		assert_non_null(cs);
		/* the block's window read without the NaN column, then with it */
		assert_true(colstore_get(cs, one + 1, SUM_MEAN, &got));
		assert_true(colstore_get(cs, one, COLS_FIELDS, &got));
		assert_true(got.s.known & SUM_NAN);
		assert_int_equal(got.s.nan, 42);
		assert_true(colstore_get(cs, one + 1, COLS_FIELDS, &got));
		assert_false(got.s.known & SUM_NAN);
		assert_true(colstore_get(cs, 3, COLS_FIELDS, &got));
		if (pass == 0) {
			struct td_summary s;

			assert_false(got.s.known & SUM_NAN);
			summary_of(3, &s);
			s.nan = 9;
			colstore_fill(cs, 3, &s, 0, 1.0);
			assert_true(colstore_get(cs, 3, COLS_FIELDS, &got));
		}
		assert_true(got.s.known & SUM_NAN);
		assert_int_equal(got.s.nan, 9);
		assert_true(colstore_get(cs, 4, COLS_FIELDS, &got));
		assert_false(got.s.known & SUM_NAN);
		colstore_close(cs);
	}
	close(dirfd);
	test_rmtree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_written_read_back_after_reopen),
		cmocka_unit_test(test_columns_keys_of_rows_across_blocks),
		cmocka_unit_test(test_columns_keep_a_decoded_row),
		cmocka_unit_test(test_columns_cut_short_is_refused),
		cmocka_unit_test(test_columns_other_dump_or_no_header_is_refused),
		cmocka_unit_test(test_columns_shape_exact_or_not_kept),
		cmocka_unit_test(test_model_fields_equal_decode_fresh_reused_and_torn),
		cmocka_unit_test(test_model_no_values_only_for_health_modes),
		cmocka_unit_test(test_model_no_values_without_columns),
		cmocka_unit_test(test_msprobe_fields_from_the_pass_equal_decode),
		cmocka_unit_test(test_model_sort_keys_equal_fields),
		cmocka_unit_test(test_columns_unpack_over_a_dirty_struct),
		cmocka_unit_test(test_columns_field_no_row_of_a_block_knows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
