/*
 * test_tfdbg2_tensor.c - TensorProto decoding of reader/tf_tensor.c
 * (reader/parse/FORMAT.md §3): tensor_content, typed fields with
 * edge padding, half_val, both string encodings, the DT_INVALID
 * placeholder, corrupt content, and the allocation-free summary path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "reader/parse/tf_tensor.h"

static Tensorflow__TensorShapeProto__Dim dim_a = TENSORFLOW__TENSOR_SHAPE_PROTO__DIM__INIT;
static Tensorflow__TensorShapeProto__Dim dim_b = TENSORFLOW__TENSOR_SHAPE_PROTO__DIM__INIT;
static Tensorflow__TensorShapeProto__Dim *dims2[] = { &dim_a, &dim_b };
static Tensorflow__TensorShapeProto shape = TENSORFLOW__TENSOR_SHAPE_PROTO__INIT;

/* A proto of dtype with shape [a] (b < 0) or [a, b]. */
static Tensorflow__TensorProto
proto(int dtype, int64_t a, int64_t b)
{
	Tensorflow__TensorProto p = TENSORFLOW__TENSOR_PROTO__INIT;

	dim_a.size = a;
	dim_b.size = b;
	shape.dim = dims2;
	shape.n_dim = b < 0 ? 1 : 2;
	p.dtype = dtype;
	p.tensor_shape = &shape;
	return p;
}

static void
test_tf_dtype_mapping(void **state)
{
	(void)state;
	assert_int_equal(tf_dtype_to_td(1), DTYPE_FLOAT32);
	assert_int_equal(tf_dtype_to_td(19), DTYPE_FLOAT16);
	assert_int_equal(tf_dtype_to_td(14), DTYPE_BFLOAT16);
	assert_int_equal(tf_dtype_to_td(101), DTYPE_FLOAT32);    /* DT_FLOAT_REF */
	assert_int_equal(tf_dtype_to_td(11), DTYPE_INT8);        /* DT_QINT8 */
	assert_int_equal(tf_dtype_to_td(23), DTYPE_UINT64);
	assert_int_equal(tf_dtype_to_td(0), DTYPE_INVALID);
	assert_int_equal(tf_dtype_to_td(25), DTYPE_OTHER);
	assert_int_equal(tf_dtype_to_td(-3), DTYPE_OTHER);
}

static void
test_tf_tensor_content_float32(void **state)
{
	float v[6] = { 1, 2, 3, 4, 5, -INFINITY };
	Tensorflow__TensorProto p = proto(1, 2, 3);
	struct td_tensor *t;

	(void)state;
	p.tensor_content.data = (uint8_t *)v;
	p.tensor_content.len = sizeof v;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_OK);
	assert_int_equal(t->rank, 2);
	assert_int_equal(t->dims[1], 3);
	assert_true(td_tensor_get(t, 4) == 5.0);
	assert_true(isinf(td_tensor_get(t, 5)));
	td_tensor_free(t);
}

static void
test_tf_tensor_content_size_mismatch_is_corrupt(void **state)
{
	float v[5] = {0};
	Tensorflow__TensorProto p = proto(1, 2, 3);
	struct td_tensor *t;

	(void)state;
	p.tensor_content.data = (uint8_t *)v;
	p.tensor_content.len = sizeof v;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_ERR_CORRUPT);
	assert_null(t);
}

static void
test_tf_tensor_typed_field_edge_padding(void **state)
{
	float fv[2] = { 7, 9 };
	Tensorflow__TensorProto p = proto(1, 5, -1);
	struct td_tensor *t;

	(void)state;
	p.float_val = fv;
	p.n_float_val = 2;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_OK);
	assert_true(td_tensor_get(t, 0) == 7 && td_tensor_get(t, 1) == 9);
	assert_true(td_tensor_get(t, 4) == 9);     /* last value repeated */
	td_tensor_free(t);
}

static void
test_tf_tensor_no_values_means_zeros(void **state)
{
	Tensorflow__TensorProto p = proto(9, 3, -1);
	struct td_tensor *t;

	(void)state;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_OK);
	assert_int_equal(t->dtype, DTYPE_INT64);
	assert_true(td_tensor_get(t, 2) == 0);
	td_tensor_free(t);
}

static void
test_tf_tensor_half_val_low_bits(void **state)
{
	int32_t hv[3] = { 0x3c00, 0xfc00, 0x7e00 | 0x10000 };
	Tensorflow__TensorProto p = proto(19, 3, -1);
	struct td_tensor *t;
	struct td_summary s;

	(void)state;
	p.half_val = hv;
	p.n_half_val = 3;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_OK);
	assert_true(td_tensor_get(t, 0) == 1.0);
	td_tensor_summarize(t, &s);
	assert_int_equal(s.neg_inf, 1);
	assert_int_equal(s.nan, 1);
	td_tensor_free(t);
}

static void
test_tf_tensor_int_val_narrowed(void **state)
{
	int32_t iv[2] = { -3, 200 };
	Tensorflow__TensorProto p = proto(6, 2, -1);    /* DT_INT8 */
	struct td_tensor *t;

	(void)state;
	p.int_val = iv;
	p.n_int_val = 2;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_OK);
	assert_true(td_tensor_get(t, 0) == -3);
	td_tensor_free(t);
}

static void
test_tf_tensor_string_content_varints(void **state)
{
	uint8_t c[] = { 2, 0, 3, 'h', 'i', 'a', 'b', 'c' };
	Tensorflow__TensorProto p = proto(7, 3, -1);
	struct td_tensor *t;

	(void)state;
	p.tensor_content.data = c;
	p.tensor_content.len = sizeof c;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_OK);
	assert_string_equal(t->strings[0], "hi");
	assert_string_equal(t->strings[1], "");
	assert_string_equal(t->strings[2], "abc");
	td_tensor_free(t);
	c[2] = 4;       /* lengths no longer add up to the bytes */
	assert_int_equal(tf_tensor_decode(&p, &t), TD_ERR_CORRUPT);
}

static void
test_tf_tensor_string_val(void **state)
{
	ProtobufCBinaryData sv[1] = { { 3, (uint8_t *)"xyz" } };
	Tensorflow__TensorProto p = proto(7, 2, -1);
	struct td_tensor *t;

	(void)state;
	p.string_val = sv;
	p.n_string_val = 1;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_OK);
	assert_string_equal(t->strings[1], "xyz");
	td_tensor_free(t);
}

static void
test_tf_tensor_invalid_placeholder_has_no_value(void **state)
{
	Tensorflow__TensorProto p = TENSORFLOW__TENSOR_PROTO__INIT;
	struct td_tensor *t = (struct td_tensor *)&p;

	(void)state;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_OK);
	assert_null(t);
}

static void
test_tf_tensor_unknown_dim_unsupported(void **state)
{
	Tensorflow__TensorProto p = proto(1, -1, -1);
	struct td_tensor *t;

	(void)state;
	assert_int_equal(tf_tensor_decode(&p, &t), TD_ERR_UNSUPPORTED);
	assert_null(t);
}

static void
test_tf_tensor_summarize_bytes_worked_example(void **state)
{
	/* reader/tfdbg2/FORMAT.md §7.6: DT_DOUBLE, shape [2], content 2.0, 1.0 */
	static const uint8_t b[] = { 0x08, 0x02, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x22, 0x10,
				     0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f };
	struct td_summary s;
	struct td_tensor *t;

	(void)state;
	assert_true(tf_tensor_summarize_bytes(b, sizeof b, &s));
	assert_int_equal(s.dtype, DTYPE_FLOAT64);
	assert_int_equal(s.rank, 1);
	assert_int_equal(s.dims[0], 2);
	assert_int_equal(s.positive, 2);
	assert_true(s.max == 2.0);
	assert_int_equal(tf_tensor_decode_bytes(b, sizeof b, &t), TD_OK);
	assert_true(td_tensor_get(t, 1) == 1.0);
	td_tensor_free(t);
	assert_false(tf_tensor_summarize_bytes(b, sizeof b - 1, &s));
	assert_int_equal(tf_tensor_decode_bytes(b, sizeof b - 1, &t), TD_ERR_DECODE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tf_dtype_mapping),
		cmocka_unit_test(test_tf_tensor_content_float32),
		cmocka_unit_test(test_tf_tensor_content_size_mismatch_is_corrupt),
		cmocka_unit_test(test_tf_tensor_typed_field_edge_padding),
		cmocka_unit_test(test_tf_tensor_no_values_means_zeros),
		cmocka_unit_test(test_tf_tensor_half_val_low_bits),
		cmocka_unit_test(test_tf_tensor_int_val_narrowed),
		cmocka_unit_test(test_tf_tensor_string_content_varints),
		cmocka_unit_test(test_tf_tensor_string_val),
		cmocka_unit_test(test_tf_tensor_invalid_placeholder_has_no_value),
		cmocka_unit_test(test_tf_tensor_unknown_dim_unsupported),
		cmocka_unit_test(test_tf_tensor_summarize_bytes_worked_example),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
