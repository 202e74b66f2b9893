/*
 * test_cmd_tensor.c - tensor values as JSON for print / trace --slice:
 * numpy slicing semantics, element types, limits and errors.  Expected
 * values are what numpy gives for the same expression on the same array.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/cmd_internal.h"

struct fixture {
	struct strbuf out, err;
	struct cmd_env env;
	struct json j;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->env.out = &f->out;
	f->env.err = &f->err;
	f->env.json = true;
	json_init(&f->j, &f->out);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	strbuf_done(&f->out);
	strbuf_done(&f->err);
	free(f);
	return 0;
}

/* np.arange(6, dtype=int64).reshape(2, 3) */
static struct td_tensor *
arange_2x3(enum td_dtype dt)
{
	const int64_t dims[2] = { 2, 3 };
	struct td_tensor *t = td_tensor_new(dt, 2, dims, &(enum td_status){TD_OK});
	int i;

	for (i = 0; i < 6; i++) {
		if (dt == DTYPE_INT64)
			((int64_t *)t->data)[i] = i;
		else if (dt == DTYPE_FLOAT32)
			((float *)t->data)[i] = (float)i / 4;
		else if (dt == DTYPE_BOOL)
			((uint8_t *)t->data)[i] = (uint8_t)(i % 2);
	}
	return t;
}

/* The "data" member of the value JSON. */
static const char *
data_of(const struct fixture *f)
{
	const char *p = strstr(f->out.buf, "\"data\":");

	assert_non_null(p);
	return p + 7;
}

static void
expect_data(struct fixture *f, enum td_dtype dt, const char *slice, const char *want)
{
	struct td_tensor *t = arange_2x3(dt);
	char got[256];

	strbuf_reset(&f->out);
	json_init(&f->j, &f->out);
	assert_int_equal(cmd_json_value(&f->env, &f->j, t, slice, 1000), TD_OK);
	snprintf(got, sizeof got, "%s", data_of(f));
	got[strlen(got) - 1] = '\0';        /* the value object's closing brace */
	assert_string_equal(got, want);
	td_tensor_free(t);
}

static void
test_value_whole_tensor_nested(void **state)
{
	expect_data(*state, DTYPE_INT64, NULL, "[[0,1,2],[3,4,5]]");
}

static void
test_value_row_index_drops_a_dimension(void **state)
{
	struct fixture *f = *state;

	expect_data(f, DTYPE_INT64, "[1]", "[3,4,5]");
	assert_non_null(strstr(f->out.buf, "\"selected_shape\":[3],\"elements\":3"));
}

static void
test_value_negative_step_reverses(void **state)
{
	expect_data(*state, DTYPE_INT64, "[:, ::-1]", "[[2,1,0],[5,4,3]]");
}

static void
test_value_negative_indices_pick_one_element(void **state)
{
	expect_data(*state, DTYPE_INT64, "[-1, 0]", "3");
}

static void
test_value_ranges_clamp_like_numpy(void **state)
{
	expect_data(*state, DTYPE_INT64, "[0:99, 1:]", "[[1,2],[4,5]]");
	expect_data(*state, DTYPE_INT64, "[5:]", "[]");
}

static void
test_value_float32_shortest_and_bool(void **state)
{
	expect_data(*state, DTYPE_FLOAT32, "[0]", "[0,0.25,0.5]");
	expect_data(*state, DTYPE_BOOL, "[1]", "[true,false,true]");
}

static void
test_value_nonfinite_floats_are_strings(void **state)
{
	struct fixture *f = *state;
	struct td_tensor *t = arange_2x3(DTYPE_FLOAT32);

	((float *)t->data)[0] = -INFINITY;
	((float *)t->data)[1] = NAN;
	assert_int_equal(cmd_json_value(&f->env, &f->j, t, "[0]", 1000), TD_OK);
	assert_non_null(strstr(f->out.buf, "\"data\":[\"-Inf\",\"NaN\",0.5]"));
	td_tensor_free(t);
}

static void
test_value_over_limit_is_truncated_without_data(void **state)
{
	struct fixture *f = *state;
	struct td_tensor *t = arange_2x3(DTYPE_INT64);

	assert_int_equal(cmd_json_value(&f->env, &f->j, t, NULL, 5), TD_OK);
	assert_non_null(strstr(f->out.buf, "\"elements\":6,\"truncated\":true,\"data\":null"));
	td_tensor_free(t);
}

static void
test_value_bad_slices_fail_with_a_reason(void **state)
{
	struct fixture *f = *state;
	struct td_tensor *t = arange_2x3(DTYPE_INT64);

	assert_int_equal(cmd_json_value(&f->env, &f->j, t, "[0, 0, 0]", 100), TD_ERR_ARGS);
	assert_non_null(strstr(f->err.buf, "too many indices"));
	assert_int_equal(cmd_json_value(&f->env, &f->j, t, "[7]", 100), TD_ERR_RANGE);
	assert_non_null(strstr(f->err.buf, "out of bounds"));
	assert_int_not_equal(cmd_json_value(&f->env, &f->j, t, "[0:", 100), TD_OK);
	assert_true(f->err.len > 0);
	td_tensor_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_value_whole_tensor_nested),
		T(test_value_row_index_drops_a_dimension),
		T(test_value_negative_step_reverses),
		T(test_value_negative_indices_pick_one_element),
		T(test_value_ranges_clamp_like_numpy),
		T(test_value_float32_shortest_and_bool),
		T(test_value_nonfinite_floats_are_strings),
		T(test_value_over_limit_is_truncated_without_data),
		T(test_value_bad_slices_fail_with_a_reason),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
