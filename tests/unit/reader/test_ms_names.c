/*
 * test_ms_names.c - MindSpore tensor file-name grammar (reader/mindspore/FORMAT.md §5) and mapping.csv.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/mindspore/ms_internal.h"

static void
test_ms_name_sync_npy_scoped(void **state)
{
	struct ms_name n;

	(void)state;
	assert_true(ms_name_parse("MatMul.Default_network-WithLossCell__backbone-LeNet5_fc3-Dense_"
				  "MatMul-op10.0.0.1700000001000217.output.0.DefaultFormat.npy",
				  NULL, &n));
	assert_int_equal(n.kind, MS_NAME_NPY);
	assert_string_equal(n.op_type, "MatMul");
	assert_string_equal(n.op_name,
			    "Default_network-WithLossCell__backbone-LeNet5_fc3-Dense_MatMul-op10");
	assert_int_equal(n.task, 0);
	assert_int_equal(n.stream, 0);
	assert_true(n.ts == 1700000001000217ull);
	assert_true(n.has_io);
	assert_false(n.is_input);
	assert_int_equal(n.slot, 0);
	assert_string_equal(n.format, "DefaultFormat");
	assert_int_equal(n.dtype, DTYPE_INVALID);
	ms_name_done(&n);
}

static void
test_ms_name_newest_with_dtype_field(void **state)
{
	struct ms_name n;

	(void)state;
	assert_true(ms_name_parse("Conv2D.Default_Conv2D-op12.3.7.161243956333802.input.1."
				  "FRACTAL_Z.bfloat16.npy", NULL, &n));
	assert_true(n.is_input);
	assert_int_equal(n.slot, 1);
	assert_int_equal(n.task, 3);
	assert_int_equal(n.stream, 7);
	assert_string_equal(n.format, "FRACTAL_Z");
	assert_string_equal(n.dtype_word, "bfloat16");
	assert_int_equal(n.dtype, DTYPE_BFLOAT16);
	ms_name_done(&n);
}

static void
test_ms_name_dots_in_op_name_are_joined(void **state)
{
	struct ms_name n;

	(void)state;
	assert_true(ms_name_parse("Add.my.odd.name.0.0.12.output.0.ND.npy", NULL, &n));
	assert_string_equal(n.op_type, "Add");
	assert_string_equal(n.op_name, "my.odd.name");
	ms_name_done(&n);
}

static void
test_ms_name_parameter_and_constant(void **state)
{
	struct ms_name n;

	(void)state;
	assert_true(ms_name_parse("Parameter.conv1_weight.0.0.1700000001000336.output.0."
				  "DefaultFormat.npy", NULL, &n));
	assert_string_equal(n.op_type, "Parameter");
	assert_string_equal(n.op_name, "conv1_weight");
	ms_name_done(&n);
	assert_true(ms_name_parse("Parameter.data-1.0.0.1700000000000000.output.0.DefaultFormat.npy",
				  NULL, &n));
	assert_string_equal(n.op_name, "data-1");
	ms_name_done(&n);
}

static void
test_ms_name_async_bin_five_fields(void **state)
{
	struct ms_name n;

	(void)state;
	assert_true(ms_name_parse("Conv2D.Default_network-WithLossCell__backbone-AlexNet_conv3-"
				  "Conv2d_Conv2D-op12.2.7.161243956333802", NULL, &n));
	assert_int_equal(n.kind, MS_NAME_BIN);
	assert_int_equal(n.task, 2);
	assert_int_equal(n.stream, 7);
	assert_false(n.has_io);
	ms_name_done(&n);
}

static void
test_ms_name_overflow_bin_and_json(void **state)
{
	struct ms_name n;

	(void)state;
	assert_true(ms_name_parse("Opdebug.Node_OpDebug.20.2.1700000000000100", NULL, &n));
	assert_int_equal(n.kind, MS_NAME_OVERFLOW_BIN);
	assert_int_equal(n.task, 20);
	ms_name_done(&n);
	assert_true(ms_name_parse("Opdebug.Node_OpDebug.20.2.1700000000000100.output.0.json", NULL,
				  &n));
	assert_int_equal(n.kind, MS_NAME_OVERFLOW_JSON);
	assert_int_equal(n.stream, 2);
	ms_name_done(&n);
}

static void
test_ms_name_kernel_args_json(void **state)
{
	struct ms_name n;

	(void)state;
	assert_true(ms_name_parse("Conv2D.Default_network_Conv2D-op1.json", NULL, &n));
	assert_int_equal(n.kind, MS_NAME_KERNEL_ARGS);
	assert_string_equal(n.op_type, "Conv2D");
	assert_string_equal(n.op_name, "Default_network_Conv2D-op1");
	ms_name_done(&n);
	assert_false(ms_name_parse("Opdebug.Node_OpDebug.json", NULL, &n));
}

static void
test_ms_name_msaccucmp_shape_field(void **state)
{
	struct ms_name n;

	(void)state;
	assert_true(ms_name_parse("Conv2D.Conv2D-op12.2.7.161243956333802.output.0.32x256x13x13.npy",
				  NULL, &n));
	assert_null(n.format);
	assert_string_equal(n.shape, "32x256x13x13");
	ms_name_done(&n);
}

static void
test_ms_name_numbered_file_via_mapping(void **state)
{
	const char *csv = "1705311000000015,SoftmaxCrossEntropyWithLogits.Gradients_Default_"
			  "SoftmaxCrossEntropyWithLogits-op18.35.3.1700000014000208\n";
	struct ms_mapping map;
	struct ms_name n;

	(void)state;
	ms_mapping_parse(csv, strlen(csv), &map);
	assert_int_equal(map.n, 1);
	assert_true(ms_name_parse("1705311000000015", &map, &n));
	assert_int_equal(n.kind, MS_NAME_BIN);
	assert_string_equal(n.op_type, "SoftmaxCrossEntropyWithLogits");
	assert_int_equal(n.task, 35);
	assert_string_equal(n.number, "1705311000000015");
	ms_name_done(&n);
	assert_true(ms_name_parse("1705311000000015.output.1.32x10.npy", &map, &n));
	assert_int_equal(n.kind, MS_NAME_NPY);
	assert_int_equal(n.slot, 1);
	assert_string_equal(n.shape, "32x10");
	ms_name_done(&n);
	assert_false(ms_name_parse("1705311000000016", &map, &n));
	ms_mapping_done(&map);
}

static void
test_ms_mapping_header_row_is_skipped(void **state)
{
	const char *csv = "File Name,Original Name\n12,Add.x.1.2.3\n";
	struct ms_mapping map;

	(void)state;
	ms_mapping_parse(csv, strlen(csv), &map);
	assert_int_equal(map.n, 1);
	assert_string_equal(ms_mapping_lookup(&map, "12"), "Add.x.1.2.3");
	ms_mapping_done(&map);
}

/* 100,000 rows (a hostile mapping.csv): every number found, the first row
 * of a repeated number wins, an absent number is NULL.  Lookups go through
 * a hash (they scanned every row: O(files x rows)). */
static void
test_ms_mapping_many_rows_first_wins(void **state)
{
	struct strbuf csv = {0};
	struct ms_mapping map;
	char num[32], want[64];
	size_t i;

	(void)state;
	for (i = 0; i < 100000; i++)
		strbuf_addf(&csv, "%zu,Op.n%zu.0.0.1\n", i, i);
	strbuf_addf(&csv, "7,Other.repeat.0.0.1\n");
	ms_mapping_parse(csv.buf, csv.len, &map);
	assert_int_equal(map.n, 100001);
	for (i = 0; i < 100000; i++) {
		snprintf(num, sizeof num, "%zu", i);
		snprintf(want, sizeof want, "Op.n%zu.0.0.1", i);
		assert_string_equal(ms_mapping_lookup(&map, num), want);
	}
	assert_null(ms_mapping_lookup(&map, "100000"));
	ms_mapping_done(&map);
	strbuf_done(&csv);
}

static void
test_ms_name_rejects_what_does_not_fit(void **state)
{
	struct ms_name n;

	(void)state;
	assert_false(ms_name_parse("statistic.csv", NULL, &n));
	assert_false(ms_name_parse("mapping.csv", NULL, &n));
	assert_false(ms_name_parse("Add.x.0.0.notdigits.output.0.ND.npy", NULL, &n));
	assert_false(ms_name_parse("Add.x.0.0.12.sideways.0.ND.npy", NULL, &n));
	assert_false(ms_name_parse("random.npy", NULL, &n));
	assert_false(ms_name_parse("Add.0.0.12", NULL, &n));
}

static void
test_ms_name_file_form_replaces_separators(void **state)
{
	char *s = ms_name_file_form("Default/network-WithLossCell/_backbone-AlexNet/conv3-Conv2d/"
				    "Conv2D-op12");

	(void)state;
	assert_string_equal(s, "Default_network-WithLossCell__backbone-AlexNet_conv3-Conv2d_"
			    "Conv2D-op12");
	free(s);
	s = ms_name_file_form("conv1.weight a\\b");
	assert_string_equal(s, "conv1_weight_a_b");
	free(s);
}

static void
test_ms_name_op_tail(void **state)
{
	(void)state;
	assert_string_equal(ms_name_op_tail("Default_network-WithLossCell__backbone-LeNet5_fc3-Dense_"
					    "MatMul-op10"), "MatMul-op10");
	assert_string_equal(ms_name_op_tail("Default/fc3-Dense/MatMul-op10"), "MatMul-op10");
	assert_string_equal(ms_name_op_tail("Conv2D-op12"), "Conv2D-op12");
	assert_null(ms_name_op_tail("conv1_weight"));
	assert_null(ms_name_op_tail("-op3"));
	assert_null(ms_name_op_tail("Add-op"));
	assert_string_equal(ms_name_op_tail("x_-op3"), "x_-op3");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms_name_sync_npy_scoped),
		cmocka_unit_test(test_ms_name_newest_with_dtype_field),
		cmocka_unit_test(test_ms_name_dots_in_op_name_are_joined),
		cmocka_unit_test(test_ms_name_parameter_and_constant),
		cmocka_unit_test(test_ms_name_async_bin_five_fields),
		cmocka_unit_test(test_ms_name_overflow_bin_and_json),
		cmocka_unit_test(test_ms_name_kernel_args_json),
		cmocka_unit_test(test_ms_name_msaccucmp_shape_field),
		cmocka_unit_test(test_ms_name_numbered_file_via_mapping),
		cmocka_unit_test(test_ms_mapping_header_row_is_skipped),
		cmocka_unit_test(test_ms_name_rejects_what_does_not_fit),
		cmocka_unit_test(test_ms_name_file_form_replaces_separators),
		cmocka_unit_test(test_ms_name_op_tail),
		cmocka_unit_test(test_ms_mapping_many_rows_first_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
