/*
 * test_tfdbg1_names.c - the tfdbg v1 name parsers (dump files, device and
 * run directories, graph inputs), the core metadata JSON and the
 * DebugNumericSummary layouts.  Expected values come from
 * reader/tfdbg1/FORMAT.md and the mlp_nan fixture README.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reader/tfdbg1/tfdbg1_internal.h"
#include "tf_event.pb-c.h"

/* ---- dump file names ---------------------------------------------- */

static void
test_tfdbg1_name_nested_scope(void **state)
{
	struct tfdbg1_dump_name n;

	(void)state;
	assert_true(tfdbg1_parse_dump_name("dense/MatMul_0_DebugIdentity_1600000000123456", &n));
	assert_string_equal(n.node, "dense/MatMul");
	assert_int_equal(n.slot, 0);
	assert_string_equal(n.debug_op, "DebugIdentity");
	assert_true(n.timestamp == 1600000000123456ull);
	assert_int_equal(n.collision, 0);
	tfdbg1_dump_name_done(&n);
}

static void
test_tfdbg1_name_deep_scope_with_underscores_and_digits(void **state)
{
	struct tfdbg1_dump_name n;

	(void)state;
	assert_true(tfdbg1_parse_dump_name(
		"gradients/Softmax_grad/mul_1_0_DebugIdentity_1700000000493669", &n));
	assert_string_equal(n.node, "gradients/Softmax_grad/mul_1");
	assert_int_equal(n.slot, 0);
	tfdbg1_dump_name_done(&n);
	assert_true(tfdbg1_parse_dump_name("gradients/grad_ys_0_0_DebugIdentity_1700000000492928", &n));
	assert_string_equal(n.node, "gradients/grad_ys_0");
	tfdbg1_dump_name_done(&n);
	assert_true(tfdbg1_parse_dump_name("dense_1/bias/read_0_DebugIdentity_7", &n));
	assert_string_equal(n.node, "dense_1/bias/read");
	assert_true(n.timestamp == 7);
	tfdbg1_dump_name_done(&n);
}

static void
test_tfdbg1_name_other_slots_and_debug_ops(void **state)
{
	struct tfdbg1_dump_name n;

	(void)state;
	assert_true(tfdbg1_parse_dump_name("split_2_DebugNanCount_123", &n));
	assert_string_equal(n.node, "split");
	assert_int_equal(n.slot, 2);
	assert_string_equal(n.debug_op, "DebugNanCount");
	tfdbg1_dump_name_done(&n);
	assert_true(tfdbg1_parse_dump_name("a/split_13_DebugNumericSummary_1", &n));
	assert_string_equal(n.node, "a/split");
	assert_int_equal(n.slot, 13);
	assert_string_equal(n.debug_op, "DebugNumericSummary");
	tfdbg1_dump_name_done(&n);
}

static void
test_tfdbg1_name_collision_suffix(void **state)
{
	struct tfdbg1_dump_name n;

	(void)state;
	assert_true(tfdbg1_parse_dump_name("dense/MatMul_0_DebugIdentity_1600000000123456-1", &n));
	assert_string_equal(n.node, "dense/MatMul");
	assert_true(n.timestamp == 1600000000123456ull);
	assert_int_equal(n.collision, 1);
	tfdbg1_dump_name_done(&n);
	assert_true(tfdbg1_parse_dump_name("x_0_DebugIdentity_5-12", &n));
	assert_int_equal(n.collision, 12);
	tfdbg1_dump_name_done(&n);
}

static void
test_tfdbg1_name_too_few_underscores_rejected(void **state)
{
	struct tfdbg1_dump_name n;

	(void)state;
	assert_false(tfdbg1_parse_dump_name("MatMul_0_1600000000", &n));
	assert_null(n.node);
	assert_false(tfdbg1_parse_dump_name("dense/MatMul", &n));
	assert_false(tfdbg1_parse_dump_name("_0_DebugIdentity_1", &n));     /* empty node */
}

static void
test_tfdbg1_name_bad_fields_rejected(void **state)
{
	struct tfdbg1_dump_name n;

	(void)state;
	assert_false(tfdbg1_parse_dump_name("a_x_DebugIdentity_1", &n));   /* slot */
	assert_false(tfdbg1_parse_dump_name("a_0_DebugIdentity_12ab", &n)); /* timestamp */
	assert_false(tfdbg1_parse_dump_name("a_0_DebugIdentity_", &n));
	assert_false(tfdbg1_parse_dump_name("a_0__1", &n));                 /* debug op */
	assert_false(tfdbg1_parse_dump_name("a_0_DebugIdentity_1-", &n));
	assert_false(tfdbg1_parse_dump_name("a_0_DebugIdentity_1-x", &n));
}

/* ---- device and run directories ----------------------------------- */

static void
test_tfdbg1_device_decode_doc_example(void **state)
{
	char *d;

	(void)state;
	d = tfdbg1_device_decode("_tfdbg_device_,job_localhost,replica_0,task_0,device_GPU_0");
	assert_string_equal(d, "/job:localhost/replica:0/task:0/device:GPU:0");
	free(d);
	d = tfdbg1_device_decode("_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0");
	assert_string_equal(d, "/job:localhost/replica:0/task:0/device:CPU:0");
	free(d);
}

static void
test_tfdbg1_device_decode_keeps_later_underscores(void **state)
{
	char *d;

	(void)state;
	/* only the first '_' of an item becomes ':' (FORMAT.md §4) */
	d = tfdbg1_device_decode("_tfdbg_device_,job_my_job,replica_0,task_1,device_CPU_0");
	assert_string_equal(d, "/job:my_job/replica:0/task:1/device:CPU:0");
	free(d);
	assert_null(tfdbg1_device_decode("device_CPU_0"));
}

static void
test_tfdbg1_run_dir_counter_and_token(void **state)
{
	uint64_t us;
	const char *token;
	int64_t counter;

	(void)state;
	assert_true(tfdbg1_parse_run_dir("run_1700000000123456_0", &us, &token, &counter));
	assert_true(us == 1700000000123456ull);
	assert_int_equal(counter, 0);
	assert_string_equal(token, "0");
	assert_true(tfdbg1_parse_run_dir("run_5_0123456789abcdef0123456789abcdef", &us, &token, &counter));
	assert_int_equal(counter, -1);
	assert_string_equal(token, "0123456789abcdef0123456789abcdef");
	assert_false(tfdbg1_parse_run_dir("run_x_1", &us, &token, &counter));
	assert_false(tfdbg1_parse_run_dir("run_12", &us, &token, &counter));
	assert_false(tfdbg1_parse_run_dir("runs_1_2", &us, &token, &counter));
	assert_false(tfdbg1_parse_run_dir("run_1_", &us, &token, &counter));
}

/* ---- graph inputs -------------------------------------------------- */

static void
test_tfdbg1_input_forms(void **state)
{
	size_t len;
	uint32_t slot;

	(void)state;
	assert_true(tfdbg1_parse_input("scope/x:10", &len, &slot));
	assert_int_equal(len, 7);
	assert_int_equal(slot, 10);
	assert_true(tfdbg1_parse_input("Softmax", &len, &slot));
	assert_int_equal(len, 7);
	assert_int_equal(slot, 0);
	assert_false(tfdbg1_parse_input("^GradientDescent", &len, &slot));
	assert_false(tfdbg1_parse_input("", &len, &slot));
	assert_true(tfdbg1_is_debug_node("__copy_dense/kernel_0"));
	assert_true(tfdbg1_is_debug_node("__dbg_dense/kernel:0_0_DebugIdentity"));
	assert_false(tfdbg1_is_debug_node("_arg_x_0_0"));
}

/* ---- core metadata ------------------------------------------------- */

static void
test_tfdbg1_core_meta_current_keys(void **state)
{
	struct tfdbg1_core_meta m;

	(void)state;
	tfdbg1_core_meta_parse("{\"global_step\":-1,\"session_run_index\":3,"
			       "\"executor_step_index\":0,\"input_names\":[\"x:0\",\"y:0\"],"
			       "\"output_names\":[\"cross_entropy/Mean:0\"],"
			       "\"target_nodes\":[\"GradientDescent\"]}", &m);
	assert_int_equal(m.global_step, -1);
	assert_int_equal(m.session_run_index, 3);
	assert_int_equal(m.executor_step_index, 0);
	assert_int_equal(m.ninputs, 2);
	assert_string_equal(m.input_names[1], "y:0");
	assert_int_equal(m.noutputs, 1);
	assert_string_equal(m.output_names[0], "cross_entropy/Mean:0");
	assert_int_equal(m.ntargets, 1);
	assert_string_equal(m.target_nodes[0], "GradientDescent");
	tfdbg1_core_meta_done(&m);
}

static void
test_tfdbg1_core_meta_old_keys_and_unknown_members(void **state)
{
	struct tfdbg1_core_meta m;

	(void)state;
	tfdbg1_core_meta_parse(" { \"extra\" : {\"a\":[1,2]}, \"session_run_count\" : 7 ,"
			       " \"executor_step_count\":2, \"target_nodes\":[] }", &m);
	assert_int_equal(m.session_run_index, 7);
	assert_int_equal(m.executor_step_index, 2);
	assert_true(m.global_step == INT64_MIN);
	assert_int_equal(m.ntargets, 0);
	tfdbg1_core_meta_done(&m);
}

static void
test_tfdbg1_core_meta_malformed_keeps_what_was_read(void **state)
{
	struct tfdbg1_core_meta m;

	(void)state;
	tfdbg1_core_meta_parse("{\"global_step\":5,\"input_names\":[\"x:0\"", &m);
	assert_int_equal(m.global_step, 5);
	assert_int_equal(m.ninputs, 1);
	tfdbg1_core_meta_done(&m);
	tfdbg1_core_meta_parse("not json", &m);
	assert_true(m.session_run_index == INT64_MIN);
	tfdbg1_core_meta_done(&m);
}

/* ---- DebugNumericSummary ------------------------------------------- */

static void
test_tfdbg1_numeric_summary_current_layout(void **state)
{
	/* cross_entropy/Log:0 of run 2 in the mlp_nan README */
	const double v[] = { 1, 80, 0, 9, 70, 1, 0, 0, -3.4607, 0, -2.38144, 0.305468, 1, 2, 8, 10 };
	struct td_summary s;
	const char *layout = tfdbg1_numeric_summary(v, 16, &s);

	(void)state;
	assert_non_null(layout);
	assert_int_equal(s.elements, 80);
	assert_int_equal(s.nan, 0);
	assert_int_equal(s.neg_inf, 9);
	assert_int_equal(s.negative, 70);
	assert_int_equal(s.zero, 1);
	assert_int_equal(s.positive, 0);
	assert_int_equal(s.pos_inf, 0);
	assert_true(s.has_inf_or_nan);
	assert_true(td_summary_nonfinite(&s));
	assert_int_equal(s.dtype, DTYPE_FLOAT32);
	assert_int_equal(s.rank, 2);
	assert_int_equal(s.ndims, 2);
	assert_int_equal(s.dims[0], 8);
	assert_int_equal(s.dims[1], 10);
	assert_true(s.known & SUM_MINMAX);
	assert_true(s.min == -3.4607 && s.max == 0 && s.mean == -2.38144);
	assert_false(s.known & SUM_UNINITIALIZED);
}

static void
test_tfdbg1_numeric_summary_old_layout_nan_at_index_7(void **state)
{
	/* 0 init, 1 count, 2 -inf, 3 <0, 4 ==0, 5 >0, 6 +inf, 7 NaN, 8 min .. 11 var */
	const double v[] = { 1, 10, 1, 2, 3, 1, 1, 2, -5, 4, 0.5, 2 };
	struct td_summary s;

	(void)state;
	assert_non_null(tfdbg1_numeric_summary(v, 12, &s));
	assert_int_equal(s.nan, 2);
	assert_int_equal(s.neg_inf, 1);
	assert_int_equal(s.negative, 2);
	assert_int_equal(s.zero, 3);
	assert_int_equal(s.positive, 1);
	assert_int_equal(s.pos_inf, 1);
	assert_false(s.known & SUM_DTYPE);
	assert_false(s.known & SUM_SHAPE);
	assert_true(td_summary_nonfinite(&s));
}

static void
test_tfdbg1_numeric_summary_no_finite_values_has_no_minmax(void **state)
{
	/* a NaN scalar: min +inf, max -inf, mean NaN are not values */
	const double v[] = { 1, 1, 1, 0, 0, 0, 0, 0, INFINITY, -INFINITY, NAN, NAN, 1, 0 };
	struct td_summary s;

	(void)state;
	assert_non_null(tfdbg1_numeric_summary(v, 14, &s));
	assert_int_equal(s.nan, 1);
	assert_int_equal(s.rank, 0);
	assert_false(s.known & SUM_MINMAX);
	assert_false(s.known & SUM_MEAN);
}

static void
test_tfdbg1_numeric_summary_uninitialized_and_bad_lengths(void **state)
{
	const double uninit[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 4 };
	const double bad[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 5 };
	struct td_summary s;

	(void)state;
	assert_non_null(tfdbg1_numeric_summary(uninit, 15, &s));
	assert_true(s.known & SUM_UNINITIALIZED);
	assert_false(s.known & SUM_NAN);
	assert_int_equal(s.dims[0], 4);
	assert_null(tfdbg1_numeric_summary(bad, 14, &s));   /* rank 5 needs 19 */
	assert_null(tfdbg1_numeric_summary(bad, 13, &s));
	assert_null(tfdbg1_numeric_summary(bad, 0, &s));
}

static void
test_tfdbg1_numeric_summary_garbage_dtype_is_other(void **state)
{
	const double v[] = { 1, 1, 0, 0, 0, 0, 1, 0, 2, 2, 2, 0, 6.9641e+252, 0 };
	const double nan_dtype[] = { 1, 1, 0, 0, 0, 0, 1, 0, 2, 2, 2, 0, NAN, 0 };
	struct td_summary s;

	(void)state;
	assert_non_null(tfdbg1_numeric_summary(v, 14, &s));
	assert_int_equal(s.dtype, DTYPE_OTHER);
	assert_int_equal(s.positive, 1);
	assert_non_null(tfdbg1_numeric_summary(nan_dtype, 14, &s));
	assert_int_equal(s.dtype, DTYPE_OTHER);
}

static void
check_attr(const Tensorflow__AttrValue *v, const char *want)
{
	char *got = tfdbg1_attr_text(v);

	assert_string_equal(got, want);
	free(got);
}

/* NodeDef attributes as text for the op details (`ni -a`). */
static void
test_tfdbg1_attr_text_forms(void **state)
{
	Tensorflow__AttrValue v = TENSORFLOW__ATTR_VALUE__INIT;
	Tensorflow__AttrValue__ListValue l = TENSORFLOW__ATTR_VALUE__LIST_VALUE__INIT;
	Tensorflow__TensorShapeProto sh = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;
	Tensorflow__TensorShapeProto__Dim d0 = TENSORFLOW__TENSOR_SHAPE_PROTO__DIM__INIT, d1 = d0;
	Tensorflow__TensorShapeProto__Dim *dims[] = { &d0, &d1 };
	Tensorflow__TensorProto t = TENSORFLOW__TENSOR_PROTO__INIT;
	int64_t ints[] = { 1, -2 };

	(void)state;
	v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
	v.type = 1;                                     /* DT_FLOAT */
	check_attr(&v, "float32");
	v.type = 999;
	check_attr(&v, "DataType(999)");
	v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_B;
	v.b = 1;
	check_attr(&v, "true");
	v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_I;
	v.i = -7;
	check_attr(&v, "-7");
	v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_S;
	v.s.data = (uint8_t *)"SAME";
	v.s.len = 4;
	check_attr(&v, "\"SAME\"");
	v.s.data = NULL;                                /* an empty string: no data (UBSan) */
	v.s.len = 0;
	check_attr(&v, "\"\"");
	d0.size = 8;
	d1.size = -1;
	sh.n_dim = 2;
	sh.dim = dims;
	v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_SHAPE;
	v.shape = &sh;
	check_attr(&v, "[8,-1]");
	t.dtype = 1;
	t.tensor_shape = &sh;
	v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_TENSOR;
	v.tensor = &t;
	check_attr(&v, "tensor float32[8,-1]");
	l.n_i = 2;
	l.i = ints;
	v.value_case = TENSORFLOW__ATTR_VALUE__VALUE_LIST;
	v.list = &l;
	check_attr(&v, "[1, -2]");
	check_attr(NULL, "?");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg1_name_nested_scope),
		cmocka_unit_test(test_tfdbg1_name_deep_scope_with_underscores_and_digits),
		cmocka_unit_test(test_tfdbg1_name_other_slots_and_debug_ops),
		cmocka_unit_test(test_tfdbg1_name_collision_suffix),
		cmocka_unit_test(test_tfdbg1_name_too_few_underscores_rejected),
		cmocka_unit_test(test_tfdbg1_name_bad_fields_rejected),
		cmocka_unit_test(test_tfdbg1_device_decode_doc_example),
		cmocka_unit_test(test_tfdbg1_device_decode_keeps_later_underscores),
		cmocka_unit_test(test_tfdbg1_run_dir_counter_and_token),
		cmocka_unit_test(test_tfdbg1_input_forms),
		cmocka_unit_test(test_tfdbg1_core_meta_current_keys),
		cmocka_unit_test(test_tfdbg1_core_meta_old_keys_and_unknown_members),
		cmocka_unit_test(test_tfdbg1_core_meta_malformed_keeps_what_was_read),
		cmocka_unit_test(test_tfdbg1_numeric_summary_current_layout),
		cmocka_unit_test(test_tfdbg1_numeric_summary_old_layout_nan_at_index_7),
		cmocka_unit_test(test_tfdbg1_numeric_summary_no_finite_values_has_no_minmax),
		cmocka_unit_test(test_tfdbg1_numeric_summary_uninitialized_and_bad_lengths),
		cmocka_unit_test(test_tfdbg1_numeric_summary_garbage_dtype_is_other),
		cmocka_unit_test(test_tfdbg1_attr_text_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
