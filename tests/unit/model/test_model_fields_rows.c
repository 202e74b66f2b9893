/*
 * test_model_fields_rows.c - the fields of many rows at once
 * (colstore_get_briefs, model_trace_briefs_novalues: the diff's
 * batches, issue 27): a column file's rows in any order and across blocks
 * say what colstore_no_values and colstore_get say one by one (as
 * briefs, model_brief_of), with the values the test wrote; on dumps (with
 * fresh, reused and torn columns, a FULL_TENSOR dump, msprobe leaves with
 * and without tensor files, and without columns) every row's answer is
 * model_trace_no_values' and model_trace_fields' brief.
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
#include "tests/unit/helpers/files.h"

#define KEY 0x5678ef01ULL
#define NROWS (2 * COLS_WINDOW + 100)   /* two full blocks and a partial one */
#define BIG_RANK 3000                   /* rows r % 50 == 7: a rank the meta word cannot hold */

/* Row r as written: counts and a mean from r, a shape of rank 2. */
static void
summary_of(uint64_t r, struct td_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->known = SUM_DTYPE | SUM_RANK | SUM_SHAPE | SUM_ELEMENTS | SUM_NAN | SUM_MEAN;
	s->dtype = DTYPE_FLOAT16;
	s->rank = r % 50 == 7 ? BIG_RANK : 2;
	s->ndims = 2;
	s->dims[0] = (int64_t)(r % 11) + 1;
	s->dims[1] = 3;
	s->elements = s->dims[0] * 3;
	s->nan = (int64_t)(r % 4);
	s->mean = (double)r / 7.0;
}

/* What the test wrote of row r: its record holds values (r % 3 == 0, not
 * kept), else no values, filled unless its rank does not fit. */
static enum cols_row
written(uint64_t r)
{
	if (r >= NROWS)
		return COLS_ROW_NONE;
	if (r % 3 == 0)
		return COLS_ROW_VALUES;
	return r % 50 == 7 ? COLS_ROW_UNFILLED : COLS_ROW_FILLED;
}

/* Every field of two briefs alike. */
static void
assert_brief_equal(const struct model_brief *x, const struct model_brief *y)
{
	assert_int_equal(x->known, y->known);
	assert_int_equal(x->dtype, y->dtype);
	assert_int_equal(x->rank, y->rank);
	assert_int_equal(x->nonfinite, y->nonfinite);
	assert_true(x->shape == y->shape);
	assert_int_equal(x->elements, y->elements);
	assert_int_equal(x->nan, y->nan);
	assert_int_equal(x->neg_inf, y->neg_inf);
	assert_int_equal(x->pos_inf, y->pos_inf);
	assert_memory_equal(&x->min, &y->min, sizeof(double));
	assert_memory_equal(&x->max, &y->max, sizeof(double));
	assert_memory_equal(&x->mean, &y->mean, sizeof(double));
}

static void
test_columns_rows_in_any_order(void **state)
{
	char *dir = test_tmpdir("colsr"), err[256];
	struct colstore *cs;
	uint64_t *rows = malloc((NROWS + 2) * sizeof *rows);
	struct model_brief *out = malloc((NROWS + 2) * sizeof *out);
	uint8_t *st = malloc(NROWS + 2);
	size_t n = 0, seen[4] = {0};
	int dirfd;

	(void)state;
	dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dirfd >= 0);
	cs = colstore_create(dirfd, "r.tdc", "r.tdc", KEY, err, sizeof err);
	assert_non_null(cs);
	for (uint64_t r = 0; r < NROWS; r++) {
		struct td_summary s;

		summary_of(r, &s);
		colstore_put(cs, r, &s, 2.0 + (double)r, r % 3 != 0, 0);
	}
	assert_true(colstore_flush(cs));
	/* every row of the last block, then back to the first blocks (a
	 * pair's B rows need not ascend), then one past the end */
	for (uint64_t r = 2 * COLS_WINDOW; r < NROWS; r++)
		rows[n++] = r;
	for (uint64_t r = 0; r < 2 * COLS_WINDOW; r += 1 + r % 5)
		rows[n++] = r;
	rows[n++] = NROWS;
	for (int wall = 0; wall < 2; wall++) {
		uint32_t need = SUM_ELEMENTS | SUM_NAN | SUM_MEAN | SUM_SHAPE | SUM_RANK | SUM_DTYPE |
				(wall ? COLS_WALL : 0);

		/* dirty first: the brief's every field is written */
		memset(out, 0xa5, n * sizeof *out);
		colstore_get_briefs(cs, rows, n, need, out, st);
		for (size_t k = 0; k < n; k++) {
			struct model_fields one;
			struct model_brief ob;
			struct td_summary want;
			uint64_t r = rows[k];

			assert_int_equal(st[k], written(r));
			assert_int_equal(st[k] >= COLS_ROW_UNFILLED, colstore_no_values(cs, r));
			seen[st[k]]++;
			if (st[k] != COLS_ROW_FILLED) {
				assert_false(st[k] != COLS_ROW_VALUES && colstore_get(cs, r, need, &one));
				continue;
			}
			summary_of(r, &want);
			assert_true(colstore_get(cs, r, need, &one));
			assert_int_equal(out[k].known, want.known);
			assert_int_equal(out[k].elements, want.elements);
			assert_int_equal(out[k].nan, want.nan);
			assert_int_equal(out[k].rank, 2);
			assert_true(out[k].shape == cols_shape_word(&want));
			assert_memory_equal(&out[k].mean, &want.mean, sizeof(double));
			assert_true(model_brief_of(&one.s, need, &ob));
			assert_brief_equal(&out[k], &ob);
		}
	}
	for (int s = 0; s < 4; s++)
		assert_true(seen[s] > 0);           /* every state met */
	colstore_close(cs);
	close(dirfd);
	free(rows);
	free(out);
	free(st);
	test_rmtree(dir);
}

/* ---- the model ------------------------------------------------------------ */

static struct model *
open_path(const char *path, const char *cache)
{
	struct model_options opt = {.no_thread = true, .cache = cache != NULL, .cache_dir = cache};
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(path, &opt, &m, err, sizeof err), TD_OK);
	return m;
}

/* Every row (ascending, then every third one from the end down, then one
 * past the rows) at once equals the row by row answers; returns the rows
 * that hold no values. */
static uint64_t
rows_equal_one_by_one(struct model *m)
{
	uint64_t n = model_trace_count(m), *rows = malloc((2 * n + 1) * sizeof *rows), nov = 0;
	struct model_brief *out = malloc((2 * n + 1) * sizeof *out);
	bool *ok = malloc(2 * n + 1);
	size_t len = 0;
	const uint32_t need = SUM_ELEMENTS | SUM_SHAPE | SUM_MINMAX | SUM_MEAN | SUM_NAN |
			      SUM_NEG_INF | SUM_POS_INF | SUM_NONFINITE | SUM_DTYPE | SUM_RANK;

	assert_true(n > 0);
	for (uint64_t i = 0; i < n; i++)
		rows[len++] = i;
	for (uint64_t i = n; i-- > 0;)
		if (i % 3 == 0)
			rows[len++] = i;
	rows[len++] = n;
	model_trace_briefs_novalues(m, rows, len, need, out, ok);
	for (size_t k = 0; k < len; k++) {
		struct model_fields one;
		struct model_brief ob;
		bool exact = false;

		if (model_trace_no_values(m, rows[k])) {
			assert_true(model_trace_fields(m, rows[k], need, &one));
			exact = model_brief_of(&one.s, need, &ob);
			assert_true(exact);     /* the fixtures' shapes all pack */
		}
		assert_int_equal(ok[k], exact);
		nov += k < n && ok[k];
		if (ok[k])
			assert_brief_equal(&out[k], &ob);
	}
	free(rows);
	free(out);
	free(ok);
	return nov;
}

static void
test_model_rows_at_once_equal_one_by_one(void **state)
{
	/* rows whose records hold values: the fixtures' READMEs (every
	 * FULL_TENSOR record; the msprobe leaves with a tensor file) */
	static const struct {
		const char *dir;
		int64_t with_values;        /* -1: every row */
	} fx[] = {
		{ "tests/fixtures/tfdbg2/mnist_nan", 0 },
		{ "tests/fixtures/tfdbg2/modes/full_tensor", -1 },
		{ "tests/fixtures/msprobe/pt_stats_2rank", 0 },
		{ "tests/fixtures/msprobe/pt_tensor_pt", 25 },
	};
	char *dir = test_tmpdir("colsn"), cmd[512];
	struct model *m;

	(void)state;
	for (size_t k = 0; k < sizeof fx / sizeof fx[0]; k++) {
		for (int pass = 0; pass < 4; pass++) {  /* fresh, reused, torn, no columns */
			uint64_t n, want;

			if (pass == 2) {
				snprintf(cmd, sizeof cmd, "truncate -s 1000 %s/*.tdc", dir);
				assert_int_equal(system(cmd), 0);
			}
			m = open_path(fx[k].dir, pass == 3 ? NULL : dir);
			n = model_trace_count(m);
			want = fx[k].with_values < 0 ? 0 : n - (uint64_t)fx[k].with_values;
			if (pass == 2)
				want = 0;           /* made anew: the pass's marks are gone */
			assert_int_equal(rows_equal_one_by_one(m), want);
			model_close(m);
		}
		snprintf(cmd, sizeof cmd, "rm -f %s/*", dir);
		assert_int_equal(system(cmd), 0);
	}
	test_rmtree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_columns_rows_in_any_order),
		cmocka_unit_test(test_model_rows_at_once_equal_one_by_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
