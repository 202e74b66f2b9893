/*
 * test_rowsort.c - the sort field and column names of the trace table:
 * "-FIELD" and "FIELD desc" sort descending, unknown names are refused,
 * the column mask reads and prints back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tui/cmd/rowsort.h"

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_names_and_directions),
		cmocka_unit_test(test_columns_read_and_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
