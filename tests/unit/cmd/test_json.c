/*
 * test_json.c - the JSON writer: separators, escaping, numbers.
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

#include "tui/cmd/json.h"
#include "tests/unit/helpers/xorshift.h"

struct fixture {
	struct strbuf sb;
	struct json j;
};

static int
setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	json_init(&f->j, &f->sb);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture *f = *state;

	strbuf_done(&f->sb);
	free(f);
	return 0;
}

static void
test_json_object_members_are_comma_separated(void **state)
{
	struct fixture *f = *state;

	json_object_begin(&f->j);
	json_kv_int(&f->j, "a", 1);
	json_kv_string(&f->j, "b", "x");
	json_kv_null(&f->j, "c");
	json_kv_bool(&f->j, "d", true);
	json_object_end(&f->j);
	assert_string_equal(f->sb.buf, "{\"a\":1,\"b\":\"x\",\"c\":null,\"d\":true}");
	assert_true(json_ok(&f->j));
}

static void
test_json_nested_arrays_and_objects(void **state)
{
	struct fixture *f = *state;

	json_array_begin(&f->j);
	json_array_begin(&f->j);
	json_int(&f->j, 1);
	json_int(&f->j, -2);
	json_array_end(&f->j);
	json_object_begin(&f->j);
	json_key(&f->j, "e");
	json_array_begin(&f->j);
	json_array_end(&f->j);
	json_object_end(&f->j);
	json_array_end(&f->j);
	assert_string_equal(f->sb.buf, "[[1,-2],{\"e\":[]}]");
	assert_true(json_ok(&f->j));
}

static void
test_json_unbalanced_is_not_ok(void **state)
{
	struct fixture *f = *state;

	json_object_begin(&f->j);
	assert_false(json_ok(&f->j));
}

static void
test_json_string_escapes_quotes_backslash_and_controls(void **state)
{
	struct fixture *f = *state;

	json_string(&f->j, "a\"b\\c\nd\te\x1b[31m\x7f");
	assert_string_equal(f->sb.buf, "\"a\\\"b\\\\c\\nd\\te\\u001b[31m\\u007f\"");
}

static void
test_json_string_keeps_valid_utf8(void **state)
{
	struct fixture *f = *state;

	json_string(&f->j, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	assert_string_equal(f->sb.buf, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

static void
test_json_string_replaces_invalid_utf8(void **state)
{
	struct fixture *f = *state;

	/* lone continuation, overlong '/', truncated 3-byte, surrogate */
	json_string(&f->j, "a\x80" "b\xc0\xaf" "c\xe2\x82" "d\xed\xa0\x80");
	assert_string_equal(f->sb.buf,
		"\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffd\"");
}

static void
test_json_string_with_nul_inside_length(void **state)
{
	struct fixture *f = *state;

	json_string_n(&f->j, "a\0b", 3);
	assert_string_equal(f->sb.buf, "\"a\\u0000b\"");
}

static void
test_json_null_string_is_null(void **state)
{
	struct fixture *f = *state;

	json_string(&f->j, NULL);
	assert_string_equal(f->sb.buf, "null");
}

static void
test_json_int64_extremes(void **state)
{
	struct fixture *f = *state;

	json_array_begin(&f->j);
	json_int(&f->j, INT64_MIN);
	json_int(&f->j, INT64_MAX);
	json_uint(&f->j, UINT64_MAX);
	json_array_end(&f->j);
	assert_string_equal(f->sb.buf,
		"[-9223372036854775808,9223372036854775807,18446744073709551615]");
}

/* Every number of digits and sign, as printf writes them. */
static void
test_json_integers_as_printf_writes_them(void **state)
{
	struct fixture *f = *state;
	char want[4096] = "[", num[96];
	int64_t v = 1;

	json_array_begin(&f->j);
	json_int(&f->j, 0);
	json_uint(&f->j, 0);
	strcat(want, "0,0");
	for (int k = 0; k < 18; k++, v *= 10) {
		json_int(&f->j, v);
		json_int(&f->j, -v);
		json_int(&f->j, v * 9 + (v - 1));
		json_uint(&f->j, (uint64_t)v + 1);
		snprintf(num, sizeof num, ",%lld,%lld,%lld,%llu", (long long)v, (long long)-v,
			 (long long)(v * 9 + (v - 1)), (unsigned long long)v + 1);
		strcat(want, num);
	}
	json_array_end(&f->j);
	strcat(want, "]");
	assert_string_equal(f->sb.buf, want);
}

/* Plain runs between escapes, at the start and the end of a string, and
 * an invalid byte between two runs. */
static void
test_json_string_runs_between_escapes(void **state)
{
	struct fixture *f = *state;

	json_array_begin(&f->j);
	json_string(&f->j, "\"plain\\");
	json_string(&f->j, "ab\x01" "cd\xff" "ef~\x7f");
	json_string(&f->j, "");
	json_array_end(&f->j);
	assert_string_equal(f->sb.buf,
		"[\"\\\"plain\\\\\",\"ab\\u0001cd\\ufffdef~\\u007f\",\"\"]");
}

static void
test_json_double_is_shortest_round_trip(void **state)
{
	struct fixture *f = *state;

	json_array_begin(&f->j);
	json_double(&f->j, 0.1);
	json_double(&f->j, 1.0 / 3.0);
	json_double(&f->j, -2.5);
	json_double(&f->j, 1e300);
	json_double(&f->j, 0.0);
	json_array_end(&f->j);
	assert_string_equal(f->sb.buf, "[0.1,0.3333333333333333,-2.5,1e+300,0]");
}

static void
test_json_double_fixed_notation_for_moderate_exponents(void **state)
{
	struct fixture *f = *state;

	json_array_begin(&f->j);
	json_double(&f->j, 1700000010.0);
	json_double(&f->j, 1700000000.126497);
	json_double(&f->j, 0.0001);
	json_double(&f->j, 0.00001);
	json_double(&f->j, 1e16);
	json_float(&f->j, 1e10f);
	json_array_end(&f->j);
	assert_string_equal(f->sb.buf, "[1700000010,1700000000.126497,0.0001,1e-05,1e+16,10000000000]");
}

static void
test_json_float_uses_float_precision(void **state)
{
	struct fixture *f = *state;

	json_array_begin(&f->j);
	json_float(&f->j, 0.1f);
	json_float(&f->j, 3.14159274f);
	json_float(&f->j, 16777216.0f);
	json_array_end(&f->j);
	assert_string_equal(f->sb.buf, "[0.1,3.1415927,16777216]");
}

static void
test_json_nonfinite_are_strings(void **state)
{
	struct fixture *f = *state;

	json_array_begin(&f->j);
	json_double(&f->j, NAN);
	json_double(&f->j, INFINITY);
	json_double(&f->j, -INFINITY);
	json_float(&f->j, -INFINITY);
	json_array_end(&f->j);
	assert_string_equal(f->sb.buf, "[\"NaN\",\"Inf\",\"-Inf\",\"-Inf\"]");
}

static void
test_json_key_is_escaped(void **state)
{
	struct fixture *f = *state;

	json_object_begin(&f->j);
	json_kv_int(&f->j, "we\"ird\n", 1);
	json_object_end(&f->j);
	assert_string_equal(f->sb.buf, "{\"we\\\"ird\\n\":1}");
}

static void
test_json_too_deep_is_reported(void **state)
{
	struct fixture *f = *state;
	int i;

	for (i = 0; i < JSON_MAX_DEPTH + 2; i++)
		json_array_begin(&f->j);
	for (i = 0; i < JSON_MAX_DEPTH + 2; i++)
		json_array_end(&f->j);
	assert_false(json_ok(&f->j));
}

/* json_format_double as it was: the fewest %g digits that read back
 * (counted up from one), then fixed notation for exponents -4..15. */
static void
format_counted(char *buf, size_t len, double v)
{
	int prec;
	char *e;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec > 17)
		prec = 17;
	if ((e = strchr(buf, 'e')) && atoi(e + 1) >= -4 && atoi(e + 1) <= 15)
		snprintf(buf, len, "%.*f", prec - 1 - atoi(e + 1) > 0 ? prec - 1 - atoi(e + 1) : 0, v);
}

/* json_format_float as it was: the fewest %g digits that read back as
 * the float (strtof), then fixed notation for exponents -4..15. */
static void
format_counted_float(char *buf, size_t len, float v)
{
	int prec;
	char *e;

	for (prec = 1; prec <= 9; prec++) {
		snprintf(buf, len, "%.*g", prec, (double)v);
		if (strtof(buf, NULL) == v)
			break;
	}
	if (prec > 9)
		prec = 9;
	if ((e = strchr(buf, 'e')) && atoi(e + 1) >= -4 && atoi(e + 1) <= 15)
		snprintf(buf, len, "%.*f", prec - 1 - atoi(e + 1) > 0 ? prec - 1 - atoi(e + 1) : 0,
			 (double)v);
}

/* The same for floats: random bit patterns, short decimals, every power
 * of two and its neighbours, subnormals, negatives. */
static void
test_json_float_same_as_counted_digits(void **state)
{
	uint64_t x = 0x2545f4914f6cdd1dull;
	char a[48], b[48];

	(void)state;
	for (int i = 0; i < 150000 + 3 * 277; i++) {
		float v;
		uint32_t fb;

		xorshift64(&x);
		if (i >= 150000) {
			int k = (i - 150000) / 3;

			v = ldexpf(1.0f, k - 149);
			v = i % 3 == 1 ? nextafterf(v, 0) : i % 3 == 2 ? nextafterf(v, INFINITY) : v;
		} else if (i % 3 == 0) {
			fb = (uint32_t)x;
			memcpy(&v, &fb, sizeof v);
		} else if (i % 3 == 1) {
			v = (float)((double)(x % 10000000) / pow(10, (double)(x >> 40 & 15)));
		} else {
			fb = (uint32_t)(x % 0x800000);      /* subnormal */
			memcpy(&v, &fb, sizeof v);
		}
		if (!isfinite(v))
			continue;
		json_format_float(a, sizeof a, v);
		format_counted_float(b, sizeof b, v);
		if (strcmp(a, b) != 0)
			fprintf(stderr, "%a: %s against %s\n", (double)v, a, b);
		assert_string_equal(a, b);
	}
}

/* The shortest digits' way (reader/base/shortest.h) writes what counting
 * the digits up wrote, byte for byte: random doubles, float32 values,
 * short decimals, integers, powers of two and ten and their neighbours,
 * subnormals, negatives. */
static void
test_json_double_same_as_counted_digits(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char a[48], b[48];

	(void)state;
	for (int i = 0; i < 120000; i++) {
		double v = test_double_of_kind(xorshift64(&x), i);

		if (!isfinite(v))
			continue;
		json_format_double(a, sizeof a, v);
		format_counted(b, sizeof b, v);
		if (strcmp(a, b) != 0)
			fprintf(stderr, "%a: %s against %s\n", v, a, b);
		assert_string_equal(a, b);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_double_same_as_counted_digits),
		cmocka_unit_test(test_json_float_same_as_counted_digits),
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_json_object_members_are_comma_separated),
		T(test_json_nested_arrays_and_objects),
		T(test_json_unbalanced_is_not_ok),
		T(test_json_string_escapes_quotes_backslash_and_controls),
		T(test_json_string_keeps_valid_utf8),
		T(test_json_string_replaces_invalid_utf8),
		T(test_json_string_with_nul_inside_length),
		T(test_json_null_string_is_null),
		T(test_json_int64_extremes),
		T(test_json_integers_as_printf_writes_them),
		T(test_json_string_runs_between_escapes),
		T(test_json_double_is_shortest_round_trip),
		T(test_json_double_fixed_notation_for_moderate_exponents),
		T(test_json_float_uses_float_precision),
		T(test_json_nonfinite_are_strings),
		T(test_json_key_is_escaped),
		T(test_json_too_deep_is_reported),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
