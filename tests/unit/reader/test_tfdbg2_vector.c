/*
 * test_tfdbg2_vector.c - the tfdbg v2 debug-vector layouts per tensor debug
 * mode (reader/tfdbg2/FORMAT.md §6) and the InfNanMonitor alert
 * rules (§7.5), on vectors written in the test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "reader/tfdbg2/tfdbg2_internal.h"

enum { NO_TENSOR = 1, CURT = 2, CONCISE = 3, FULL = 4, SHAPE = 5, FULL_TENSOR = 7 };

static void
test_tfdbg2_curt_health_vector(void **state)
{
	double v[2] = { 17, 1 };
	struct td_summary s;

	(void)state;
	assert_true(tf2_summary_from_vector(CURT, v, 2, &s));
	assert_int_equal(s.tensor_id, 17);
	assert_true(s.has_inf_or_nan);
	assert_int_equal(s.known, SUM_NONFINITE | SUM_TENSOR_ID);
	assert_true(tf2_vector_alerts(CURT, v, 2));
	v[1] = 0;
	assert_false(tf2_vector_alerts(CURT, v, 2));
}

static void
test_tfdbg2_concise_health_vector(void **state)
{
	double v[5] = { 3, 1000, 1, 0, 2 };
	struct td_summary s;

	(void)state;
	assert_true(tf2_summary_from_vector(CONCISE, v, 5, &s));
	assert_int_equal(s.elements, 1000);
	assert_int_equal(s.neg_inf, 1);
	assert_int_equal(s.nan, 2);
	assert_false(s.known & SUM_ZERO);
	assert_true(tf2_vector_alerts(CONCISE, v, 5));
	v[2] = v[4] = 0;
	assert_false(tf2_vector_alerts(CONCISE, v, 5));
}

static void
test_tfdbg2_full_health_vector(void **state)
{
	double v[11] = { 9, -1, 1, 2, 1000, 1, 0, 0, 10, 1, 988 };
	struct td_summary s;

	(void)state;
	assert_true(tf2_summary_from_vector(FULL, v, 11, &s));
	assert_int_equal(s.dtype, DTYPE_FLOAT32);       /* DataType 1 */
	assert_int_equal(s.rank, 2);
	assert_int_equal(s.elements, 1000);
	assert_int_equal(s.neg_inf, 1);
	assert_int_equal(s.negative, 10);
	assert_int_equal(s.zero, 1);
	assert_int_equal(s.positive, 988);
	assert_true(td_summary_nonfinite(&s));
	assert_true(tf2_vector_alerts(FULL, v, 11));
}

static void
test_tfdbg2_shape_vector_keeps_last_six_dims(void **state)
{
	double v[10] = { 5, 2, 8, 256, 2, 2, 2, 2, 2, 2 };
	double small[10] = { 5, 19, 2, 12, 3, 4, 0, 0, 0, 0 };
	struct td_summary s;

	(void)state;
	assert_true(tf2_summary_from_vector(SHAPE, v, 10, &s));
	assert_int_equal(s.rank, 8);
	assert_int_equal(s.ndims, 6);
	assert_true(s.dims_truncated);
	assert_int_equal(s.dtype, DTYPE_FLOAT64);
	assert_false(s.known & SUM_NONFINITE);
	assert_true(tf2_summary_from_vector(SHAPE, small, 10, &s));
	assert_int_equal(s.dtype, DTYPE_FLOAT16);
	assert_int_equal(s.ndims, 2);
	assert_false(s.dims_truncated);
	assert_int_equal(s.dims[0], 3);
	assert_int_equal(s.dims[1], 4);
	assert_false(tf2_vector_alerts(SHAPE, v, 10));  /* SHAPE never alerts */
}

static void
test_tfdbg2_wrong_vector_length_rejected(void **state)
{
	double v[11] = {0};
	struct td_summary s;

	(void)state;
	assert_false(tf2_summary_from_vector(CURT, v, 3, &s));
	assert_false(tf2_summary_from_vector(FULL, v, 10, &s));
	assert_false(tf2_summary_from_vector(NO_TENSOR, v, 1, &s));
	assert_true(tf2_summary_from_vector(NO_TENSOR, v, 0, &s));
	assert_int_equal(s.known, 0);
	v[1] = 1;
	assert_false(tf2_vector_alerts(CURT, v, 3));
}

static void
test_tfdbg2_wire_vector_reads_double_content(void **state)
{
	/* FORMAT.md §7.6's CURT_HEALTH tensor: DT_DOUBLE [2] = 2.0, 1.0 */
	static const uint8_t tp[] = { 0x08, 0x02, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x22, 0x10,
				      0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f };
	static const uint8_t placeholder[] = { 0 };
	double out[4];

	(void)state;
	assert_int_equal(tf2_wire_vector(tp, sizeof tp, out, 4), 2);
	assert_true(out[0] == 2.0 && out[1] == 1.0);
	assert_int_equal(tf2_wire_vector(placeholder, 0, out, 4), 0);
	assert_int_equal(tf2_wire_vector(tp, sizeof tp - 3, out, 4), -1);
}

static void
test_tfdbg2_absurd_vector_values_clamped(void **state)
{
	double v[11] = { 1e300, -1, 1e30, -1e300, 2.25e184, NAN, -INFINITY, 1e19, 0, 0, 0 };
	struct td_summary s;

	(void)state;
	assert_true(tf2_summary_from_vector(FULL, v, 11, &s));
	assert_int_equal(s.tensor_id, INT64_MAX);
	assert_int_equal(s.rank, INT32_MIN);
	assert_int_equal(s.elements, INT64_MAX);
	assert_int_equal(s.neg_inf, 0);
	assert_int_equal(s.pos_inf, INT64_MIN);
	assert_int_equal(s.dtype, DTYPE_OTHER);
}

static void
test_tfdbg2_mode_names(void **state)
{
	(void)state;
	assert_string_equal(tf2_mode_name(FULL), "FULL_HEALTH");
	assert_string_equal(tf2_mode_name(FULL_TENSOR), "FULL_TENSOR");
	assert_string_equal(tf2_mode_name(99), "UNKNOWN");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg2_curt_health_vector),
		cmocka_unit_test(test_tfdbg2_concise_health_vector),
		cmocka_unit_test(test_tfdbg2_full_health_vector),
		cmocka_unit_test(test_tfdbg2_shape_vector_keeps_last_six_dims),
		cmocka_unit_test(test_tfdbg2_wrong_vector_length_rejected),
		cmocka_unit_test(test_tfdbg2_wire_vector_reads_double_content),
		cmocka_unit_test(test_tfdbg2_absurd_vector_values_clamped),
		cmocka_unit_test(test_tfdbg2_mode_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
