/*
 * test_summary.c - the summary field table and its printers: JSON (the
 * contract's keys and order), compact text, the tensor view's lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/summary.h"

/* Log:0 of the tutorial dump: FULL_HEALTH, 1000 float32 elements, one -Inf. */
static struct td_summary
log_summary(void)
{
	struct td_summary s = {
		.known = SUM_DTYPE | SUM_SHAPE | SUM_RANK | SUM_ELEMENTS | SUM_NAN | SUM_NEG_INF |
			 SUM_POS_INF | SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE,
		.dtype = DTYPE_FLOAT32, .rank = 1, .ndims = 1, .dims = { 1000 }, .elements = 1000,
		.neg_inf = 1, .negative = 999,
	};
	return s;
}

static void
test_summary_table_orders_are_a_permutation(void **state)
{
	bool seen[SUMMARY_NFIELDS] = { false };
	int shown = 0;

	(void)state;
	for (size_t i = 0; i < SUMMARY_NFIELDS; i++) {
		assert_int_equal(summary_fields[i].id, i);
		for (size_t k = 0; k < i; k++)
			assert_string_not_equal(summary_fields[i].key, summary_fields[k].key);
		if (summary_fields[i].order >= 0)
			shown++;
	}
	for (int pos = 0; pos < shown; pos++) {
		const struct summary_field *f = summary_by_order(pos);

		assert_non_null(f);
		assert_false(seen[f->id]);
		seen[f->id] = true;
	}
	assert_null(summary_by_order(shown));
	assert_int_equal(summary_bits(SF_BREAKDOWN), SUM_NAN | SUM_NEG_INF | SUM_POS_INF |
			 SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE);
}

static void
test_summary_json_keys_in_contract_order(void **state)
{
	struct td_summary s = log_summary();
	struct strbuf sb = {0};
	struct json j;

	(void)state;
	json_init(&j, &sb);
	summary_json(&j, &s);
	assert_string_equal(sb.buf, "{\"dtype\":\"float32\",\"rank\":1,\"shape\":[1000],\"nan\":0,"
			    "\"neg_inf\":1,\"pos_inf\":0,\"elements\":1000,\"negative\":999,\"zero\":0,"
			    "\"positive\":0,\"has_inf_or_nan\":true,\"min\":null,\"max\":null,"
			    "\"mean\":null,\"abs_mean\":null,\"std\":null,\"l2norm\":null,\"tensor_id\":null,"
			    "\"p1\":null,\"p25\":null,\"p50\":null,\"p75\":null,\"p99\":null}");
	strbuf_reset(&sb);
	json_init(&j, &sb);
	json_object_begin(&j);
	summary_json_counts(&j, &s);
	json_object_end(&j);
	assert_string_equal(sb.buf, "{\"nan\":0,\"neg_inf\":1,\"pos_inf\":0,\"elements\":1000}");
	strbuf_done(&sb);
}

static void
test_summary_json_float_precision_and_marks(void **state)
{
	struct td_summary s = { .known = SUM_DTYPE | SUM_MINMAX | SUM_UNINITIALIZED | SUM_SHAPE,
				.dtype = DTYPE_FLOAT32, .min = (double)-0.9274042f, .max = 0.5,
				.ndims = 1, .dims = { 4 }, .dims_truncated = true };
	struct strbuf sb = {0};
	struct json j;

	(void)state;
	json_init(&j, &sb);
	summary_json(&j, &s);
	assert_non_null(strstr(sb.buf, "\"min\":-0.9274042,\"max\":0.5,"));
	assert_non_null(strstr(sb.buf, "\"shape\":[4],\"shape_truncated\":true,"));
	assert_non_null(strstr(sb.buf, ",\"uninitialized\":true}"));
	assert_non_null(strstr(sb.buf, "\"has_inf_or_nan\":null"));
	strbuf_done(&sb);
}

static void
test_summary_text_compact(void **state)
{
	struct td_summary s = log_summary();
	struct strbuf sb = {0};

	(void)state;
	summary_text(&sb, &s);
	assert_string_equal(sb.buf, "float32[1000] -inf=1 nan=0 +inf=0 -=999 0=0 +=0");
	strbuf_reset(&sb);
	s.known = SUM_ELEMENTS | SUM_NONFINITE;     /* no shape: the size; a flag alone */
	s.has_inf_or_nan = false;
	summary_text(&sb, &s);
	assert_string_equal(sb.buf, "1000 el finite");   /* issue 12 item 4: never an invented shape */
	strbuf_reset(&sb);
	s.known = 0;
	summary_text(&sb, &s);
	assert_string_equal(sb.buf, "(no summary)");
	strbuf_done(&sb);
}

static void
test_summary_lines_for_the_tensor_view(void **state)
{
	struct td_summary s = log_summary();
	struct strbuf sb = {0};

	(void)state;
	s.known |= SUM_NONFINITE | SUM_MINMAX | SUM_UNINITIALIZED;
	s.has_inf_or_nan = true;
	s.min = -2.5, s.max = 1.0 / 3;
	summary_lines(&sb, &s);
	assert_string_equal(sb.buf,
			    "  tensor     float32[1000]\n"
			    "  elements   1000\n"
			    "  -Inf       1\n"
			    "  NaN        0\n"
			    "  +Inf       0\n"
			    "  negative   999\n"
			    "  zero       0\n"
			    "  positive   0\n"
			    "  Inf/NaN    yes\n"
			    "  min        -2.5\n"
			    "  max        0.333333\n"
			    "  value known to be uninitialised\n");
	strbuf_reset(&sb);
	s.known = 0;
	summary_lines(&sb, &s);
	assert_string_equal(sb.buf, "  tensor     (unknown)\n");
	strbuf_done(&sb);
}

/* summary_value is what the diff pane's two columns print: the same text
 * as the tensor view's lines, NULL where the field is unknown. */
static void
test_summary_value_matches_the_lines(void **state)
{
	struct td_summary s = log_summary();
	char buf[96];

	(void)state;
	s.known |= SUM_MINMAX | SUM_L2NORM;
	s.min = -2.5, s.l2norm = 4;
	assert_string_equal(summary_value(&s, &summary_fields[SUMMARY_DTYPE], buf, sizeof buf),
			    "float32[1000]");
	assert_null(summary_value(&s, &summary_fields[SUMMARY_SHAPE], buf, sizeof buf));
	assert_string_equal(summary_value(&s, &summary_fields[SUMMARY_NEG_INF], buf, sizeof buf), "1");
	assert_string_equal(summary_value(&s, &summary_fields[SUMMARY_MIN], buf, sizeof buf), "-2.5");
	assert_string_equal(summary_value(&s, &summary_fields[SUMMARY_L2NORM], buf, sizeof buf), "4");
	assert_null(summary_value(&s, &summary_fields[SUMMARY_MEAN], buf, sizeof buf));
	assert_null(summary_value(&s, &summary_fields[SUMMARY_HAS_INF_OR_NAN], buf, sizeof buf));
	assert_null(summary_value(&s, &summary_fields[SUMMARY_UNINITIALIZED], buf, sizeof buf));
	s.known |= SUM_NONFINITE | SUM_UNINITIALIZED;
	s.has_inf_or_nan = true;
	assert_string_equal(summary_value(&s, &summary_fields[SUMMARY_HAS_INF_OR_NAN], buf, sizeof buf),
			    "yes");
	assert_string_equal(summary_value(&s, &summary_fields[SUMMARY_UNINITIALIZED], buf, sizeof buf),
			    "yes");
	s.known = 0;
	assert_null(summary_value(&s, &summary_fields[SUMMARY_DTYPE], buf, sizeof buf));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_table_orders_are_a_permutation),
		cmocka_unit_test(test_summary_json_keys_in_contract_order),
		cmocka_unit_test(test_summary_json_float_precision_and_marks),
		cmocka_unit_test(test_summary_text_compact),
		cmocka_unit_test(test_summary_lines_for_the_tensor_view),
		cmocka_unit_test(test_summary_value_matches_the_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
