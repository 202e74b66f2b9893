/*
 * test_tensor.c - dtype table, half/bfloat16 conversion, summaries, slicing
 * and numpy-style printing of reader/tensor.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "reader/base/tensor.h"

static void
test_dtype_names_and_sizes(void **state)
{
	(void)state;
	assert_string_equal(td_dtype_name(DTYPE_FLOAT32), "float32");
	assert_string_equal(td_dtype_name(DTYPE_BFLOAT16), "bfloat16");
	assert_int_equal(td_dtype_size(DTYPE_FLOAT16), 2);
	assert_int_equal(td_dtype_size(DTYPE_COMPLEX128), 16);
	assert_int_equal(td_dtype_size(DTYPE_STRING), 0);
	assert_int_equal(td_dtype_from_name("int64"), DTYPE_INT64);
	assert_int_equal(td_dtype_from_name("nope"), DTYPE_INVALID);
	assert_true(td_dtype_is_float(DTYPE_BFLOAT16));
	assert_false(td_dtype_is_float(DTYPE_INT32));
	assert_false(td_dtype_is_float(DTYPE_COMPLEX64));
}

/* The one table of dtype ranges, against the formats' own bit patterns
 * (largest finite: exponent all ones but one, mantissa all ones). */
static void
test_dtype_max_is_each_types_own_range(void **state)
{
	(void)state;
	assert_true(td_dtype_max(DTYPE_FLOAT16) == (double)td_half_to_float(0x7bff));
	assert_true(td_dtype_max(DTYPE_BFLOAT16) == (double)td_bf16_to_float(0x7f7f));
	assert_true(td_dtype_max(DTYPE_FLOAT32) == ldexp(2.0 - ldexp(1, -23), 127));
	assert_true(td_dtype_max(DTYPE_FLOAT64) == ldexp(2.0 - ldexp(1, -52), 1023));
	assert_true(td_dtype_max(DTYPE_INT8) == 127);
	assert_true(td_dtype_max(DTYPE_UINT8) == 255);
	assert_true(td_dtype_max(DTYPE_INT16) == 32767);
	assert_true(td_dtype_max(DTYPE_UINT16) == 65535);
	assert_true(td_dtype_max(DTYPE_INT32) == 2147483647.0);
	assert_true(td_dtype_max(DTYPE_UINT32) == 4294967295.0);
	assert_true(td_dtype_max(DTYPE_INT64) == ldexp(1, 63));
	assert_true(td_dtype_max(DTYPE_UINT64) == ldexp(1, 64));
	assert_true(td_dtype_max(DTYPE_BOOL) == 0);
	assert_true(td_dtype_max(DTYPE_STRING) == 0);
	assert_true(td_dtype_max(DTYPE_INVALID) == 0);
	assert_true(td_dtype_max((enum td_dtype)DTYPE_COUNT) == 0);
}

/* What a statistics file stored wins; the values fill in the rest, and
 * the bits added say which. */
static void
test_summary_complete_fills_only_what_is_missing(void **state)
{
	static const float v[] = { 0, -3, 4, 0 };
	struct td_summary stats = {0}, vals;
	uint32_t add;

	(void)state;
	td_summarize_raw(DTYPE_FLOAT32, v, 4, &vals);
	stats.known = SUM_DTYPE | SUM_ELEMENTS | SUM_ZERO | SUM_MINMAX;
	stats.dtype = DTYPE_FLOAT32;
	stats.elements = 4;
	stats.zero = 2;
	stats.min = -3.5;               /* the file's own (rounded) figure */
	stats.max = 4;
	add = td_summary_complete(&stats, &vals);
	assert_true(add & SUM_ABS_MEAN);
	assert_true(add & SUM_STD);
	assert_true(add & SUM_L2NORM);
	assert_false(add & (SUM_DTYPE | SUM_ELEMENTS | SUM_ZERO | SUM_MINMAX));
	assert_true(stats.min == -3.5);
	assert_true(stats.abs_mean == 7.0 / 4);
	assert_true(stats.l2norm == 5);
	/* mean 0.25: deviations -0.25, -3.25, 3.75, -0.25 */
	assert_true(fabs(stats.std - sqrt((0.0625 + 10.5625 + 14.0625 + 0.0625) / 4)) < 1e-12);
	assert_int_equal(stats.known & add, add);
	assert_int_equal(td_summary_complete(&stats, &vals) & ~SUM_PERCENTILES, 0);
}

static void
test_half_to_float_vectors(void **state)
{
	(void)state;
	assert_true(td_half_to_float(0x3c00) == 1.0f);
	assert_true(td_half_to_float(0xc000) == -2.0f);
	assert_true(td_half_to_float(0x7bff) == 65504.0f);
	assert_true(td_half_to_float(0x3555) == 0x1.554p-2f);
	/* smallest subnormal 2^-24 and largest subnormal */
	assert_true(td_half_to_float(0x0001) == 0x1p-24f);
	assert_true(td_half_to_float(0x03ff) == 0x1.ff8p-15f);
	assert_true(isinf(td_half_to_float(0x7c00)) && td_half_to_float(0x7c00) > 0);
	assert_true(isinf(td_half_to_float(0xfc00)) && td_half_to_float(0xfc00) < 0);
	assert_true(isnan(td_half_to_float(0x7e00)));
	assert_true(td_half_to_float(0x8000) == 0.0f && signbit(td_half_to_float(0x8000)));
}

static void
test_bf16_to_float_vectors(void **state)
{
	(void)state;
	assert_true(td_bf16_to_float(0x3f80) == 1.0f);
	assert_true(td_bf16_to_float(0xc040) == -3.0f);
	assert_true(td_bf16_to_float(0x0001) == 0x1p-133f);   /* subnormal */
	assert_true(isinf(td_bf16_to_float(0xff80)) && td_bf16_to_float(0xff80) < 0);
	assert_true(isnan(td_bf16_to_float(0x7fc0)));
}

static void
test_summary_counts_negative_zero_as_zero(void **state)
{
	float v[] = { -0.0f, 0.0f, 1.5f, -2.0f };
	struct td_summary s;

	(void)state;
	td_summarize_raw(DTYPE_FLOAT32, v, 4, &s);
	assert_int_equal(s.zero, 2);
	assert_int_equal(s.negative, 1);
	assert_int_equal(s.positive, 1);
	assert_true(s.min == -2.0 && s.max == 1.5);
	assert_true(fabs(s.mean - (-0.125)) < 1e-12);
	assert_false(td_summary_nonfinite(&s));
}

static void
test_summary_classifies_nan_and_inf(void **state)
{
	double v[] = { NAN, -INFINITY, INFINITY, INFINITY, 3.0 };
	struct td_summary s;

	(void)state;
	td_summarize_raw(DTYPE_FLOAT64, v, 5, &s);
	assert_int_equal(s.nan, 1);
	assert_int_equal(s.neg_inf, 1);
	assert_int_equal(s.pos_inf, 2);
	assert_int_equal(s.positive, 1);
	assert_true(s.has_inf_or_nan);
	assert_true(td_summary_nonfinite(&s));
	assert_true(s.min == 3.0 && s.max == 3.0);   /* finite elements only */
	assert_int_equal(s.elements, 5);
}

static void
test_summary_of_half_counts_inf(void **state)
{
	uint16_t v[] = { 0xfc00, 0x3c00, 0x0000 };
	struct td_summary s;

	(void)state;
	td_summarize_raw(DTYPE_FLOAT16, v, 3, &s);
	assert_int_equal(s.neg_inf, 1);
	assert_int_equal(s.positive, 1);
	assert_int_equal(s.zero, 1);
	assert_true(td_summary_nonfinite(&s));
}

static void
test_summary_integers_never_nonfinite(void **state)
{
	int32_t v[] = { -5, 0, 7 };
	struct td_summary s;

	(void)state;
	td_summarize_raw(DTYPE_INT32, v, 3, &s);
	assert_true(s.known & SUM_NONFINITE);
	assert_false(s.has_inf_or_nan);
	assert_int_equal(s.negative, 1);
	assert_true(s.min == -5 && s.max == 7);
}

static void
test_nonfinite_from_known_bits_only(void **state)
{
	struct td_summary s = {0};

	(void)state;
	s.nan = 3;                  /* not known: ignored */
	assert_false(td_summary_nonfinite(&s));
	s.known = SUM_NONFINITE;
	s.has_inf_or_nan = true;
	assert_true(td_summary_nonfinite(&s));
	s.known = SUM_NAN;
	s.has_inf_or_nan = false;
	assert_true(td_summary_nonfinite(&s));
}

static struct td_tensor *
make_2x3(void)
{
	int64_t dims[] = { 2, 3 };
	enum td_status st;
	struct td_tensor *t = td_tensor_new(DTYPE_INT32, 2, dims, &st);
	int32_t *p;
	int i;

	assert_non_null(t);
	p = t->data;
	for (i = 0; i < 6; i++)
		p[i] = i + 1;
	return t;
}

static void
test_tensor_new_zeroed_and_summarized(void **state)
{
	int64_t dims[] = { 4, 5 };
	enum td_status st;
	struct td_tensor *t = td_tensor_new(DTYPE_FLOAT32, 2, dims, &st);
	struct td_summary s;

	(void)state;
	assert_int_equal(st, TD_OK);
	assert_int_equal(t->n, 20);
	td_tensor_summarize(t, &s);
	assert_int_equal(s.zero, 20);
	assert_int_equal(s.rank, 2);
	assert_int_equal(s.dims[1], 5);
	assert_true(td_tensor_get(t, 19) == 0.0);
	assert_true(isnan(td_tensor_get(t, 20)));
	td_tensor_free(t);
}

static void
test_tensor_new_rejects_huge_and_negative(void **state)
{
	int64_t huge[] = { INT64_C(1) << 40, INT64_C(1) << 40 };
	int64_t neg[] = { -1 };
	enum td_status st;

	(void)state;
	assert_null(td_tensor_new(DTYPE_FLOAT64, 2, huge, &st));
	assert_int_equal(st, TD_ERR_TOO_LARGE);
	assert_null(td_tensor_new(DTYPE_FLOAT64, 1, neg, &st));
	assert_int_equal(st, TD_ERR_ARGS);
}

static void
test_format_2x3(void **state)
{
	struct td_tensor *t = make_2x3();
	struct strbuf sb = {0};
	char err[128];

	(void)state;
	assert_int_equal(td_tensor_format(t, NULL, 1000, &sb, err, sizeof err), TD_OK);
	assert_string_equal(sb.buf, "[[1 2 3]\n [4 5 6]]");
	strbuf_done(&sb);
	td_tensor_free(t);
}

static void
test_format_slice_negative_index(void **state)
{
	struct td_tensor *t = make_2x3();
	struct strbuf sb = {0};
	struct td_slice sl;
	char err[128];

	(void)state;
	assert_int_equal(td_slice_parse("[:, -1]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_tensor_format(t, &sl, 1000, &sb, err, sizeof err), TD_OK);
	assert_string_equal(sb.buf, "[3 6]");
	strbuf_reset(&sb);
	assert_int_equal(td_slice_parse("[-1, ::-2]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_tensor_format(t, &sl, 1000, &sb, err, sizeof err), TD_OK);
	assert_string_equal(sb.buf, "[6 4]");
	strbuf_reset(&sb);
	assert_int_equal(td_slice_parse("[1, 2]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_tensor_format(t, &sl, 1000, &sb, err, sizeof err), TD_OK);
	assert_string_equal(sb.buf, "6");
	strbuf_done(&sb);
	td_tensor_free(t);
}

static void
test_slice_parse_forms(void **state)
{
	struct td_slice sl;
	char err[128];

	(void)state;
	assert_int_equal(td_slice_parse("[0:10, :]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(sl.ndims, 2);
	assert_true(sl.dims[0].has_start && sl.dims[0].has_stop && sl.dims[0].stop == 10);
	assert_false(sl.dims[1].has_start || sl.dims[1].has_stop);
	assert_int_equal(td_slice_parse("[::2]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(sl.dims[0].step, 2);
	assert_int_equal(td_slice_parse("[3]", &sl, err, sizeof err), TD_OK);
	assert_true(sl.dims[0].index && sl.dims[0].start == 3);
	assert_int_equal(td_slice_parse("[]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(sl.ndims, 0);
}

static void
test_slice_parse_rejects_bad_input(void **state)
{
	static const char *const bad[] = {
		"[1:2", "[a]", "[1,,2]", "[::0]", "[1]]", "[1 2]", "[,]", "[1:2:3:4]",
		"[0,0,0,0,0,0,0,0,0]",
	};
	struct td_slice sl;
	char err[128];
	size_t i;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		assert_int_equal(td_slice_parse(bad[i], &sl, err, sizeof err), TD_ERR_ARGS);
		assert_true(strlen(err) > 0);
	}
}

/* Formats t through slice text a and b; asserts both read the same. */
static void
assert_same_slice(struct td_tensor *t, const char *a, const char *b)
{
	struct strbuf sa = {0}, sb = {0};
	struct td_slice sl;
	char err[128];

	assert_int_equal(td_slice_parse(a, &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_tensor_format(t, &sl, 1000, &sa, err, sizeof err), TD_OK);
	assert_int_equal(td_slice_parse(b, &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_tensor_format(t, &sl, 1000, &sb, err, sizeof err), TD_OK);
	assert_string_equal(sa.buf, sb.buf);
	strbuf_done(&sa);
	strbuf_done(&sb);
}

/* Issue 12 (friction): numpy's "..." and a trailing comma. */
static void
test_slice_ellipsis_and_trailing_comma_as_numpy(void **state)
{
	struct td_tensor *t = make_2x3();
	struct td_slice sl;
	char err[128];

	(void)state;
	assert_same_slice(t, "[..., 1]", "[:, 1]");
	assert_same_slice(t, "[1, ...]", "[1]");
	assert_same_slice(t, "[...]", "[:, :]");
	assert_same_slice(t, "[1,]", "[1]");
	assert_same_slice(t, "[0:2, ]", "[0:2]");
	assert_same_slice(t, "[..., 0, 1]", "[0, 1]");
	assert_int_equal(td_slice_parse("[..., ...]", &sl, err, sizeof err), TD_ERR_ARGS);
	assert_non_null(strstr(err, "bad slice"));
	assert_int_equal(td_slice_parse("[,]", &sl, err, sizeof err), TD_ERR_ARGS);
	td_tensor_free(t);
}

static void
test_format_index_out_of_range(void **state)
{
	struct td_tensor *t = make_2x3();
	struct strbuf sb = {0};
	struct td_slice sl;
	char err[128];

	(void)state;
	assert_int_equal(td_slice_parse("[2]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_tensor_format(t, &sl, 1000, &sb, err, sizeof err), TD_ERR_RANGE);
	assert_non_null(strstr(err, "out of bounds"));
	assert_non_null(strstr(err, "bad slice"));      /* one wording for slice errors */
	assert_int_equal(td_slice_parse("[0,0,0]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_tensor_format(t, &sl, 1000, &sb, err, sizeof err), TD_ERR_ARGS);
	assert_non_null(strstr(err, "bad slice: too many indices"));
	strbuf_done(&sb);
	td_tensor_free(t);
}

static void
test_format_elides_long_axis(void **state)
{
	int64_t dims[] = { 10 };
	enum td_status st;
	struct td_tensor *t = td_tensor_new(DTYPE_FLOAT32, 1, dims, &st);
	struct strbuf sb = {0};
	float *p = t->data;
	char err[128];
	int i;

	(void)state;
	for (i = 0; i < 10; i++)
		p[i] = (float)i;
	p[9] = -INFINITY;
	assert_int_equal(td_tensor_format(t, NULL, 5, &sb, err, sizeof err), TD_OK);
	assert_string_equal(sb.buf, "[  0.   1.   2. ...   7.   8. -inf]");
	strbuf_done(&sb);
	td_tensor_free(t);
}

static void
test_format_strings_quoted(void **state)
{
	int64_t dims[] = { 2 };
	enum td_status st;
	struct td_tensor *t = td_tensor_new(DTYPE_STRING, 1, dims, &st);
	struct strbuf sb = {0};
	char err[128];

	(void)state;
	t->strings[0] = xstrdup("ab");
	t->strings[1] = xstrdup("c\n");
	assert_int_equal(td_tensor_format(t, NULL, 100, &sb, err, sizeof err), TD_OK);
	assert_string_equal(sb.buf, "[   'ab' 'c\\x0a']");
	strbuf_done(&sb);
	td_tensor_free(t);
}

static void
test_histogram_skips_nonfinite(void **state)
{
	int64_t dims[] = { 5 };
	enum td_status st;
	struct td_tensor *t = td_tensor_new(DTYPE_FLOAT64, 1, dims, &st);
	double *p = t->data, lo, hi;
	uint64_t bins[2];

	(void)state;
	p[0] = 0; p[1] = 1; p[2] = 4; p[3] = NAN; p[4] = INFINITY;
	assert_true(td_tensor_histogram(t, bins, 2, &lo, &hi));
	assert_true(lo == 0 && hi == 4);
	assert_int_equal(bins[0], 2);
	assert_int_equal(bins[1], 1);
	p[0] = p[1] = p[2] = NAN;
	assert_false(td_tensor_histogram(t, bins, 2, &lo, &hi));
	td_tensor_free(t);
}

/* issue 13: an edge fill of a huge shape is summarised, not materialised */
static void
test_summarize_fill_repeats_last_value_arithmetically(void **state)
{
	const float v[2] = { -1.0f, 2.0f };
	struct td_summary s;

	(void)state;
	td_summarize_fill(DTYPE_FLOAT32, v, 2, (int64_t)1 << 40, &s);
	assert_int_equal(s.elements, (int64_t)1 << 40);
	assert_int_equal(s.negative, 1);
	assert_int_equal(s.positive, ((int64_t)1 << 40) - 1);
	assert_true(s.min == -1.0 && s.max == 2.0);
	assert_true(fabs(s.mean - 2.0) < 1e-9);
	td_summarize_fill(DTYPE_FLOAT32, NULL, 0, 1000, &s);
	assert_int_equal(s.zero, 1000);
	assert_true(s.min == 0.0 && s.max == 0.0 && s.mean == 0.0);
}

static void
test_fill_of_nan_counts_every_element(void **state)
{
	const float v[1] = { NAN };
	struct td_summary s;

	(void)state;
	td_summarize_fill(DTYPE_FLOAT32, v, 1, 5000000000LL, &s);
	assert_int_equal(s.nan, 5000000000LL);
	assert_true(s.has_inf_or_nan);
	assert_false(s.known & SUM_MINMAX);
}

static void
test_shape_elements_rejects_overflow_even_with_a_zero_dim(void **state)
{
	const int64_t big[3] = { 0, (int64_t)1 << 40, (int64_t)1 << 40 };
	const int64_t ok[3] = { 4000000000LL, 0, 7 };
	int64_t n = -1;

	(void)state;
	assert_false(td_shape_elements(3, big, &n));
	assert_true(td_shape_elements(3, ok, &n));
	assert_int_equal(n, 0);
}

static void
test_tensor_new_refuses_past_the_limit(void **state)
{
	const int64_t dims[1] = { (int64_t)1 << 32 };
	enum td_status st;

	(void)state;
	assert_null(td_tensor_new(DTYPE_FLOAT32, 1, dims, &st));
	assert_int_equal(st, TD_ERR_TOO_LARGE);
}

/* issue 13: shape (4e9, 0) holds nothing; the printer must not walk 4e9 rows */
static void
test_format_empty_rows_elided(void **state)
{
	const int64_t dims[2] = { 4000000000LL, 0 };
	struct td_tensor *t;
	struct strbuf sb = {0};
	enum td_status st;
	char err[128];

	(void)state;
	t = td_tensor_new(DTYPE_FLOAT32, 2, dims, &st);
	assert_non_null(t);
	assert_int_equal(td_tensor_format(t, NULL, 1000, &sb, err, sizeof err), TD_OK);
	assert_true(sb.len < 200);
	assert_non_null(strstr(sb.buf, "..."));
	strbuf_done(&sb);
	td_tensor_free(t);
}

/* issue 13: (0, 2^40, 2^40) and extreme steps must not overflow (UBSan) */
static void
test_slice_extreme_steps_and_empty_huge_shape(void **state)
{
	const int64_t dims[3] = { 0, (int64_t)1 << 40, (int64_t)1 << 40 };
	const int64_t d1[1] = { 10 };
	struct td_tensor *t, *u;
	struct td_slice sl;
	struct td_slice_view v;
	enum td_status st;
	char err[128];

	(void)state;
	t = td_tensor_new(DTYPE_FLOAT32, 3, dims, &st);
	assert_null(t);   /* the other dims multiply past int64: not a shape */
	u = td_tensor_new(DTYPE_FLOAT32, 1, d1, &st);
	assert_int_equal(td_slice_parse("[::9223372036854775807]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_slice_view(u, &sl, &v, err, sizeof err), TD_OK);
	assert_int_equal(v.count[0], 1);
	assert_int_equal(td_slice_parse("[::-9223372036854775808]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_slice_view(u, &sl, &v, err, sizeof err), TD_OK);
	assert_int_equal(v.count[0], 1);
	assert_int_equal(v.base, 9);
	assert_int_equal(td_slice_parse("[-9223372036854775808:9223372036854775807:3]", &sl, err, sizeof err), TD_OK);
	assert_int_equal(td_slice_view(u, &sl, &v, err, sizeof err), TD_OK);
	assert_int_equal(v.count[0], 4);
	td_tensor_free(u);
}

/* issue 13: a range of -1e308..1e308 must still spread values over bins */
static void
test_histogram_of_extreme_range(void **state)
{
	const int64_t d1[1] = { 3 };
	struct td_tensor *t;
	enum td_status st;
	uint64_t bins[4];
	double lo, hi, *p;

	(void)state;
	t = td_tensor_new(DTYPE_FLOAT64, 1, d1, &st);
	p = t->data;
	p[0] = -1e308;
	p[1] = 0;
	p[2] = 1e308;
	assert_true(td_tensor_histogram(t, bins, 4, &lo, &hi));
	assert_int_equal(bins[0], 1);
	assert_int_equal(bins[2], 1);
	assert_int_equal(bins[3], 1);
	td_tensor_free(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dtype_names_and_sizes),
		cmocka_unit_test(test_dtype_max_is_each_types_own_range),
		cmocka_unit_test(test_summary_complete_fills_only_what_is_missing),
		cmocka_unit_test(test_half_to_float_vectors),
		cmocka_unit_test(test_bf16_to_float_vectors),
		cmocka_unit_test(test_summary_counts_negative_zero_as_zero),
		cmocka_unit_test(test_summary_classifies_nan_and_inf),
		cmocka_unit_test(test_summary_of_half_counts_inf),
		cmocka_unit_test(test_summary_integers_never_nonfinite),
		cmocka_unit_test(test_nonfinite_from_known_bits_only),
		cmocka_unit_test(test_tensor_new_zeroed_and_summarized),
		cmocka_unit_test(test_tensor_new_rejects_huge_and_negative),
		cmocka_unit_test(test_format_2x3),
		cmocka_unit_test(test_format_slice_negative_index),
		cmocka_unit_test(test_slice_parse_forms),
		cmocka_unit_test(test_slice_parse_rejects_bad_input),
		cmocka_unit_test(test_slice_ellipsis_and_trailing_comma_as_numpy),
		cmocka_unit_test(test_format_index_out_of_range),
		cmocka_unit_test(test_format_elides_long_axis),
		cmocka_unit_test(test_format_strings_quoted),
		cmocka_unit_test(test_histogram_skips_nonfinite),
		cmocka_unit_test(test_summarize_fill_repeats_last_value_arithmetically),
		cmocka_unit_test(test_fill_of_nan_counts_every_element),
		cmocka_unit_test(test_shape_elements_rejects_overflow_even_with_a_zero_dim),
		cmocka_unit_test(test_tensor_new_refuses_past_the_limit),
		cmocka_unit_test(test_format_empty_rows_elided),
		cmocka_unit_test(test_slice_extreme_steps_and_empty_huge_shape),
		cmocka_unit_test(test_histogram_of_extreme_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
