/*
 * test_csv.c - CSV line splitting and statistic.csv column mapping (reader/mindspore/FORMAT.md §7).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "reader/parse/csv.h"
#include "reader/mindspore/ms_internal.h"

static void
test_csv_quoted_field_keeps_commas(void **state)
{
	struct csv_row r = {0};
	const char *line = "MatMul,op,\"(2,400)\",1.5\r\n";

	(void)state;
	assert_int_equal(csv_split(line, strlen(line), &r), TD_OK);
	assert_int_equal(r.n, 4);
	assert_string_equal(r.fields[2], "(2,400)");
	assert_string_equal(r.fields[3], "1.5");
	csv_row_done(&r);
}

static void
test_csv_doubled_quote_and_empty_fields(void **state)
{
	struct csv_row r = {0};
	const char *line = "a,,\"say \"\"hi\"\"\",";

	(void)state;
	assert_int_equal(csv_split(line, strlen(line), &r), TD_OK);
	assert_int_equal(r.n, 4);
	assert_string_equal(r.fields[1], "");
	assert_string_equal(r.fields[2], "say \"hi\"");
	assert_string_equal(r.fields[3], "");
	csv_row_done(&r);
}

static void
test_csv_unterminated_quote_is_corrupt(void **state)
{
	struct csv_row r = {0};
	const char *line = "a,\"(2,3";

	(void)state;
	assert_int_equal(csv_split(line, strlen(line), &r), TD_ERR_CORRUPT);
	csv_row_done(&r);
}

static const char classic_header[] =
	"Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,"
	"Max Value,Min Value,Avg Value,Count,Negative Zero Count,Positive Zero Count,"
	"NaN Count,Negative Inf Count,Positive Inf Count,Zero Count\n";

static void
test_stat_classic_row_maps_counts(void **state)
{
	/* The fixture's MatMul-op10 output row of iteration 1. */
	char text[2048];
	struct ms_stat st;
	const struct ms_stat_row *r;
	char err[128];

	(void)state;
	snprintf(text, sizeof text, "%sMatMul,Default_x_MatMul-op10,0,0,1700000002000217,output,"
		 "0,960,float32,\"(2,120)\",1.36813,-1.20678,-0.0070703,240,132,106,2,1,0,0\n",
		 classic_header);
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	assert_int_equal(st.n, 1);
	r = ms_stat_find(&st, "MatMul", 1700000002000217ull, false, 0);
	assert_non_null(r);
	assert_int_equal(r->summary.dtype, DTYPE_FLOAT32);
	assert_int_equal(r->summary.rank, 2);
	assert_int_equal(r->summary.dims[1], 120);
	assert_int_equal(r->summary.elements, 240);
	assert_int_equal(r->summary.nan, 2);
	assert_int_equal(r->summary.neg_inf, 1);
	assert_int_equal(r->summary.pos_inf, 0);
	/* "Negative Zero Count" is < 0 including the -inf: 132 - 1 finite */
	assert_int_equal(r->summary.negative, 131);
	assert_int_equal(r->summary.positive, 106);
	assert_true(r->summary.has_inf_or_nan);
	assert_true(r->summary.max > 1.368 && r->summary.max < 1.369);
	assert_null(ms_stat_find(&st, "MatMul", 1700000002000217ull, true, 0));
	ms_stat_done(&st);
}

static void
test_stat_null_values_stay_unknown(void **state)
{
	char text[2048];
	struct ms_stat st;
	char err[128];

	(void)state;
	snprintf(text, sizeof text, "%sAdd,a,0,0,5,output,0,8,float32,\"(2)\",null,null,null,"
		 "2,0,0,2,0,0,0\n", classic_header);
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	assert_int_equal(st.n, 1);
	assert_false(st.rows[0].summary.known & SUM_MINMAX);
	assert_false(st.rows[0].summary.known & SUM_MEAN);
	assert_int_equal(st.rows[0].summary.nan, 2);
	ms_stat_done(&st);
}

static void
test_stat_device_variant_and_unknown_columns(void **state)
{
	const char *text =
		"Op Type,Op Name,Task ID,Stream ID,Timestamp,IO,Slot,Data Size,Data Type,Shape,"
		"Max Value,Min Value,Avg Value,L2Norm Value,Count,Fancy\n"
		"Conv2D,c,1,2,9,input,1,24,float16,\"(2, 3)\",8,-1,0.5,3.2,6,zz\n";
	struct ms_stat st;
	char err[128];
	const struct ms_stat_row *r;

	(void)state;
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	r = ms_stat_find(&st, NULL, 9, true, 1);
	assert_non_null(r);
	assert_int_equal(r->task, 1);
	assert_int_equal(r->stream, 2);
	assert_int_equal(r->summary.dtype, DTYPE_FLOAT16);
	assert_int_equal(r->summary.elements, 6);
	assert_true(r->summary.max == 8.0);
	assert_false(r->summary.known & SUM_NAN);
	assert_false(r->summary.known & SUM_NONFINITE);
	ms_stat_done(&st);
}

static void
test_stat_missing_key_column_is_an_error(void **state)
{
	const char *text = "Op Type,Op Name,Timestamp,Slot\nAdd,a,1,0\n";
	struct ms_stat st;
	char err[128];

	(void)state;
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_ERR_CORRUPT);
	assert_non_null(strstr(err, "IO"));
	ms_stat_done(&st);
}

static void
test_stat_short_row_is_skipped_and_counted(void **state)
{
	char text[2048];
	struct ms_stat st;
	char err[128];

	(void)state;
	snprintf(text, sizeof text, "%sAdd,a,0,0,5,output,0\n"
		 "Add,a,0,0,6,output,0,8,float32,\"()\",1,1,1,1,0,1,0,0,0,0\n", classic_header);
	assert_int_equal(ms_stat_parse(text, strlen(text), &st, err, sizeof err), TD_OK);
	assert_int_equal(st.n, 1);
	assert_int_equal(st.bad_rows, 1);
	assert_int_equal(st.rows[0].summary.rank, 0);
	assert_int_equal(st.rows[0].summary.elements, 1);
	ms_stat_done(&st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_quoted_field_keeps_commas),
		cmocka_unit_test(test_csv_doubled_quote_and_empty_fields),
		cmocka_unit_test(test_csv_unterminated_quote_is_corrupt),
		cmocka_unit_test(test_stat_classic_row_maps_counts),
		cmocka_unit_test(test_stat_null_values_stay_unknown),
		cmocka_unit_test(test_stat_device_variant_and_unknown_columns),
		cmocka_unit_test(test_stat_missing_key_column_is_an_error),
		cmocka_unit_test(test_stat_short_row_is_skipped_and_counted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
