/*
 * test_rowsort.c - the sort field and column names of the trace table:
 * "-FIELD" and "FIELD desc" sort descending, unknown names are refused,
 * the column mask reads and prints back; the sort's order (the whole
 * sort and the heap of a slice's head or tail) against an order worked out here
 * from the fake dump's script: unknown keys last, ties by row number,
 * both directions, subsets of rows as a filter gives them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/helpers/fake_model.h"
#include "tui/cmd/rowsort.h"
#include "tests/unit/helpers/xorshift.h"

static void
test_sort_names_and_directions(void **state)
{
	enum rowsort_field f;
	bool desc;

	(void)state;
	assert_true(rowsort_parse("nonfinite", &f, &desc));
	assert_int_equal(f, SORT_NONFINITE);
	assert_false(desc);
	assert_true(rowsort_parse("-time", &f, &desc));
	assert_int_equal(f, SORT_TIME);
	assert_true(desc);
	assert_true(rowsort_parse("size desc", &f, &desc));
	assert_int_equal(f, SORT_SIZE);
	assert_true(desc);
	assert_true(rowsort_parse("op asc", &f, &desc));
	assert_false(desc);
	assert_false(rowsort_parse("bogus", &f, &desc));
	assert_false(rowsort_parse("op sideways", &f, &desc));
	assert_false(rowsort_parse("opx", &f, &desc));
	for (int i = 0; i < SORT_COUNT; i++) {
		assert_true(rowsort_parse(rowsort_name((enum rowsort_field)i), &f, &desc));
		assert_int_equal(f, i);
	}
}

static void
test_columns_read_and_print(void **state)
{
	struct strbuf sb = { 0 };

	(void)state;
	assert_int_equal(rowcol_parse("time"), ROWCOL_TIME);
	assert_int_equal(rowcol_parse("size"), ROWCOL_SIZE);
	assert_int_equal(rowcol_parse("colour"), 0);
	rowcol_describe(ROWCOL_SIZE | ROWCOL_TIME, &sb);
	assert_string_equal(sb.buf, "time size");
	strbuf_reset(&sb);
	rowcol_describe(0, &sb);
	assert_string_equal(sb.buf, "none");
	strbuf_done(&sb);
}


/* ---- the order ------------------------------------------------------------ */

#define NROWS 6000
#define NOPS 7

/* Op names and types in an order unlike their ids; a type shared. */
static const char *const op_names[NOPS] = { "m", "c", "x", "a", "q", "b", "k" };
static const char *const op_types[NOPS] = { "Relu", "Add", "MatMul", "Add", "Conv", "Relu", "Abs" };

/* What the script says of each row. */
struct truth {
	int op;
	bool size_known, time_known, broken;
	int64_t elements;
	double wall;
	int64_t nonfinite;          /* the NaN/Inf key: 0 for a finite row */
};
static struct truth truth[NROWS];

static uint64_t rng = 88172645463325252ull;

static uint64_t
next(void)
{
	return xorshift64(&rng);
}

/* A dump of NROWS rows whose keys tie often: elements from a handful of
 * values (some rows without counts), wall times from a few (0, NaN and
 * negative ones unknown), NaN/Inf on some rows, a few records that do
 * not decode (size and time unknown). */
static struct fake *
tie_dump(void)
{
	static const double walls[] = { 5, 1.5, 0, 2, 5, -1, 1.5, 0.0 / 0.0, 3 };
	struct fake *f = fake_new();

	fake_file(f, 1, "f1", "h");
	fake_graph(f, "g", "g", NULL);
	for (int i = 0; i < NOPS; i++)
		fake_op(f, "g", op_names[i], op_types[i], NULL, NULL);
	for (uint64_t r = 0; r < NROWS; r++) {
		struct truth *t = &truth[r];
		uint64_t x = next();
		int64_t nan = x % 13 == 0 ? (int64_t)(x >> 20) % 4 + 1 : 0;
		int64_t pinf = x % 17 == 0 ? 2 : 0;
		struct td_summary s = x % 11 == 0 ? fake_curt_health(nan || pinf)
						  : fake_full_health((int64_t)(x >> 8) % 6, 0, pinf, nan);
		uint64_t off;

		t->op = (int)((x >> 32) % NOPS);
		t->wall = walls[(x >> 40) % (sizeof walls / sizeof walls[0])];
		t->size_known = (s.known & SUM_ELEMENTS) != 0;
		t->elements = s.elements;
		t->time_known = t->wall > 0;
		t->nonfinite = !s.has_inf_or_nan ? 0 : t->size_known ? nan + pinf : 1;
		off = fake_trace(f, 1, "g", op_names[t->op], 0, t->wall, &s);
		if (!s.has_inf_or_nan && x % 101 == 0) {
			fake_break(f, 1, off);
			t->broken = true;
			t->size_known = t->time_known = false;
		}
	}
	return f;
}

static enum rowsort_field ref_field;
static bool ref_desc;

/* The order the contract states (rowsort.h), from the script. */
static int
ref_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	const struct truth *x = &truth[a], *y = &truth[b];
	bool ku = false, kv = false;
	double u = 0, v = 0;
	int c = 0;

	switch (ref_field) {
	case SORT_ROW:
		u = (double)a, v = (double)b;
		break;
	case SORT_OP:
	case SORT_TYPE:
		c = strcmp(ref_field == SORT_OP ? op_names[x->op] : op_types[x->op],
			   ref_field == SORT_OP ? op_names[y->op] : op_types[y->op]);
		if (c == 0)     /* one type of two ops: the op id ranks them */
			c = (x->op > y->op) - (x->op < y->op);
		break;
	case SORT_SIZE:
		ku = !x->size_known, kv = !y->size_known;
		u = (double)x->elements, v = (double)y->elements;
		break;
	case SORT_TIME:
		ku = !x->time_known, kv = !y->time_known;
		u = x->wall, v = y->wall;
		break;
	default:
		u = (double)x->nonfinite, v = (double)y->nonfinite;
		break;
	}
	if (ku != kv)
		return ku ? 1 : -1;
	if (!ku && c == 0 && u != v)
		c = u < v ? -1 : 1;
	if (!ku && c)
		return ref_desc ? -c : c;
	return (a > b) - (a < b);
}

/* rows[0..n) of the subset `every` (1 all, 3 every third, 0 a random
 * half), ascending. */
static size_t
subset(uint64_t *rows, int every)
{
	size_t n = 0;

	for (uint64_t r = 0; r < NROWS; r++)
		if (every ? r % (uint64_t)every == 0 : next() % 2 == 0)
			rows[n++] = r;
	return n;
}

static void
test_sort_order_matches_contract(void **state)
{
	struct fake *f = tie_dump();
	struct model *m = fake_model_open(f, NULL);
	static uint64_t base[NROWS], rows[NROWS], want[NROWS], head[NROWS + 8];

	(void)state;
	assert_int_equal(model_trace_count(m), NROWS);
	for (int field = 0; field < SORT_COUNT; field++)
		for (int desc = 0; desc < 2; desc++)
			for (int every = 0; every < 4; every += 1 + (every == 1)) {
				size_t n = subset(base, every);
				const size_t ks[] = { 0, 1, 10, 77, n / 2, n - 1, n, n + 5 };

				memcpy(want, base, n * sizeof *want);
				memcpy(rows, base, n * sizeof *rows);
				ref_field = (enum rowsort_field)field;
				ref_desc = desc;
				qsort(want, n, sizeof *want, ref_cmp);
				/* the whole sort, from ascending rows and from a shuffle */
				assert_int_equal(rowsort_traces(m, rows, n, ref_field, desc), TD_OK);
				assert_memory_equal(rows, want, n * sizeof *rows);
				for (size_t i = n - 1; i > 0; i--) {
					size_t j = next() % (i + 1);
					uint64_t t = rows[i];

					rows[i] = rows[j];
					rows[j] = t;
				}
				assert_int_equal(rowsort_traces(m, rows, n, ref_field, desc), TD_OK);
				assert_memory_equal(rows, want, n * sizeof *rows);
				/* its head and its tail, rows fed in uneven batches */
				for (size_t q = 0; q < 2 * sizeof ks / sizeof ks[0]; q++) {
					size_t k = ks[q / 2];
					bool tail = q % 2;
					struct rowsort_top *t = rowsort_top_new(m, ref_field, desc, k, tail);
					size_t got;

					assert_non_null(t);
					for (size_t at = 0, len = 1; at < n; at += len, len = len * 3 + 1)
						assert_true(rowsort_top_add(t, base + at, len < n - at ? len : n - at));
					got = rowsort_top_take(t, head);
					assert_int_equal(got, k < n ? k : n);
					assert_memory_equal(head, tail ? want + n - got : want,
							    got * sizeof *head);
					rowsort_top_free(t);
				}
			}
	model_close(m);
	fake_free(f);
}

static void
test_sort_head_refuses_disorder(void **state)
{
	struct fake *f = tie_dump();
	struct model *m = fake_model_open(f, NULL);
	struct rowsort_top *t = rowsort_top_new(m, SORT_SIZE, false, 5, false);
	const uint64_t a[] = { 10, 20 }, b[] = { 15 }, c[] = { 30, 25 };

	(void)state;
	assert_null(rowsort_top_new(m, SORT_SIZE, false, ROWSORT_TOP_MAX + 1, true));
	assert_true(rowsort_top_add(t, a, 2));
	assert_false(rowsort_top_add(t, b, 1));     /* below a row added before */
	assert_false(rowsort_top_add(t, c, 2));     /* not ascending */
	rowsort_top_free(t);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_names_and_directions),
		cmocka_unit_test(test_columns_read_and_print),
		cmocka_unit_test(test_sort_order_matches_contract),
		cmocka_unit_test(test_sort_head_refuses_disorder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
