/*
 * test_model_expr.c - the condition language: precedence, numbers, strings
 * and patterns (answers kept per text), SQL's three-valued logic with
 * unknown fields, deferring op fields from row fields, thresholds, and
 * errors that name the column.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model_expr.h"

/* A row: a value per field, or absent, or "later". */
struct row {
	double num[EXPR_F_COUNT];
	const char *str[EXPR_F_COUNT];
	enum expr_avail avail[EXPR_F_COUNT];
	int asked[EXPR_F_COUNT];
};

static enum expr_avail
get(void *ctx, enum expr_field f, double *num, const char **str)
{
	struct row *r = ctx;

	r->asked[f]++;
	*num = r->num[f];
	*str = r->str[f];
	return r->avail[f];
}

static void
row_init(struct row *r)
{
	int i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < EXPR_F_COUNT; i++)
		r->str[i] = "";
	r->num[EXPR_F_NAN] = 0;
	r->num[EXPR_F_MEAN] = 2.5;
	r->num[EXPR_F_MAX] = 70000;
	r->num[EXPR_F_MIN] = -3;
	r->num[EXPR_F_ABS_MEAN] = 3.2e4;
	r->str[EXPR_F_TYPE] = "MatMul";
	r->str[EXPR_F_OP] = "dense_1/MatMul";
	r->str[EXPR_F_ROLE] = "gradient";
	r->str[EXPR_F_DTYPE] = "float16";
}

static enum expr_result
eval(const char *text, struct row *r)
{
	struct expr *e = NULL;
	char err[256] = "";
	enum expr_result res;

	if (expr_parse(text, &e, err, sizeof err) != TD_OK)
		fail_msg("%s: %s", text, err);
	res = expr_eval(e, get, r);
	expr_free(e);
	return res;
}

static void
parse_error(const char *text, enum td_status want, const char *msg)
{
	struct expr *e = NULL;
	char err[256] = "";

	assert_int_equal(expr_parse(text, &e, err, sizeof err), want);
	assert_null(e);
	if (strncmp(err, msg, strlen(msg)) != 0)
		fail_msg("%s: got \"%s\", want \"%s...\"", text, err, msg);
}

static void
test_expr_and_binds_tighter_than_or(void **state)
{
	struct row r;

	(void)state;
	row_init(&r);
	/* true or (false and false) = true; (true or false) and false = false */
	assert_int_equal(eval("mean > 0 or max < 0 and min > 0", &r), EXPR_TRUE);
	assert_int_equal(eval("(mean > 0 or max < 0) and min > 0", &r), EXPR_FALSE);
	/* not binds tighter than and */
	assert_int_equal(eval("not mean > 0 and min < 0", &r), EXPR_FALSE);
	assert_int_equal(eval("not (mean > 0 and min > 0)", &r), EXPR_TRUE);
	assert_int_equal(eval("not not mean > 0", &r), EXPR_TRUE);
}

static void
test_expr_numbers_exponents_inf_and_signs(void **state)
{
	struct row r;

	(void)state;
	row_init(&r);
	assert_int_equal(eval("abs_mean > 1e3", &r), EXPR_TRUE);
	assert_int_equal(eval("abs_mean > 3.2E+4", &r), EXPR_FALSE);
	assert_int_equal(eval("abs_mean >= 3.2e4", &r), EXPR_TRUE);
	assert_int_equal(eval("min < -2.5", &r), EXPR_TRUE);
	assert_int_equal(eval("max < inf and min > -inf", &r), EXPR_TRUE);
	assert_int_equal(eval("1e3 < abs_mean", &r), EXPR_TRUE);
	assert_int_equal(eval("max>=65504", &r), EXPR_TRUE);
	assert_int_equal(eval(".5 < mean", &r), EXPR_TRUE);
	r.num[EXPR_F_MAX] = INFINITY;
	assert_int_equal(eval("max == inf", &r), EXPR_TRUE);
	/* NaN compares false, except != */
	r.num[EXPR_F_MEAN] = NAN;
	assert_int_equal(eval("mean > 0 or mean <= 0", &r), EXPR_FALSE);
	assert_int_equal(eval("mean != 0", &r), EXPR_TRUE);
}

static void
test_expr_strings_and_patterns(void **state)
{
	struct row r;

	(void)state;
	row_init(&r);
	assert_int_equal(eval("type ~ \"MatMul\" and abs_mean > 1e3", &r), EXPR_TRUE);
	assert_int_equal(eval("type ~ '^Mat' and op ~ \"dense_[0-9]+/\"", &r), EXPR_TRUE);
	assert_int_equal(eval("type ~ \"^Conv\"", &r), EXPR_FALSE);
	assert_int_equal(eval("role == \"gradient\"", &r), EXPR_TRUE);
	assert_int_equal(eval("role != 'gradient'", &r), EXPR_FALSE);
	assert_int_equal(eval("dtype == \"float16\"", &r), EXPR_TRUE);
	assert_int_equal(eval("op == \"say \\\"hi\\\"\"", &r), EXPR_FALSE);
	r.str[EXPR_F_OP] = "say \"hi\"";
	assert_int_equal(eval("op == \"say \\\"hi\\\"\"", &r), EXPR_TRUE);
}

/* A "~" answer is kept by the text, per node: one condition evaluated
 * row after row, its texts in one buffer rewritten between rows (an
 * answer kept by address would be stale), two patterns on one text,
 * texts too long to keep, and more texts than the memo has entries (two
 * passes: answers found again, and entries taken over). */
static void
test_expr_pattern_answers_kept_per_text(void **state)
{
	static const struct { const char *text; enum expr_result want; } rows[] = {
		{ "float32", EXPR_TRUE }, { "float16", EXPR_FALSE }, { "int16", EXPR_FALSE },
		{ "float32", EXPR_TRUE }, { "float16", EXPR_FALSE },
		{ "float_with_a_name_longer_than_the_memo_keeps_16", EXPR_FALSE },
		{ "float_with_a_name_longer_than_the_memo_keeps_32", EXPR_TRUE },
	};
	struct expr *e = NULL, *many = NULL;
	char err[256] = "", buf[64];
	struct row r;

	(void)state;
	row_init(&r);
	r.str[EXPR_F_DTYPE] = r.str[EXPR_F_OP] = buf;
	assert_int_equal(expr_parse("dtype ~ \"^float\" and not (op ~ \"16$\")", &e, err, sizeof err),
			 TD_OK);
	assert_int_equal(expr_parse("dtype ~ \"7$\" or op ~ \"^t1\"", &many, err, sizeof err),
			 TD_OK);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
			snprintf(buf, sizeof buf, "%s", rows[i].text);
			if (expr_eval(e, get, &r) != rows[i].want)
				fail_msg("pass %d, %s: not %d", pass, buf, rows[i].want);
		}
		for (int i = 0; i < 3000; i++) {
			snprintf(buf, sizeof buf, "t%d", i);
			bool want = buf[strlen(buf) - 1] == '7' || buf[1] == '1';

			if (expr_eval(many, get, &r) != (want ? EXPR_TRUE : EXPR_FALSE))
				fail_msg("pass %d, %s: not %d", pass, buf, want);
		}
	}
	expr_free(e);
	expr_free(many);
}

static void
test_expr_unknown_follows_sql(void **state)
{
	struct row r;

	(void)state;
	row_init(&r);
	r.avail[EXPR_F_MEAN] = EXPR_ABSENT;
	assert_int_equal(eval("mean > 0", &r), EXPR_UNKNOWN);
	assert_int_equal(eval("mean <= 0", &r), EXPR_UNKNOWN);
	assert_int_equal(eval("not mean > 0", &r), EXPR_UNKNOWN);
	assert_int_equal(eval("mean > 0 or max > 0", &r), EXPR_TRUE);
	assert_int_equal(eval("mean > 0 or max < 0", &r), EXPR_UNKNOWN);
	assert_int_equal(eval("mean > 0 and max < 0", &r), EXPR_FALSE);
	assert_int_equal(eval("mean > 0 and max > 0", &r), EXPR_UNKNOWN);
	assert_int_equal(eval("max < 0 and mean > 0", &r), EXPR_FALSE);
	/* a field alone: unknown stays unknown, never 0 */
	assert_int_equal(eval("mean", &r), EXPR_UNKNOWN);
	assert_int_equal(eval("not mean", &r), EXPR_UNKNOWN);
	assert_int_equal(eval("nan", &r), EXPR_FALSE);
	r.num[EXPR_F_NAN] = 3;
	assert_int_equal(eval("nan", &r), EXPR_TRUE);
}

static void
test_expr_defers_row_fields_and_short_circuits(void **state)
{
	struct row r;
	int f;

	(void)state;
	row_init(&r);
	for (f = 0; f < EXPR_F_COUNT; f++)
		if (expr_field_stage((enum expr_field)f) != EXPR_STAGE_OP)
			r.avail[f] = EXPR_LATER;
	/* the op part decides: false and ... never asks the row */
	assert_int_equal(eval("type ~ \"Conv\" and abs_mean > 1e3", &r), EXPR_FALSE);
	assert_int_equal(r.asked[EXPR_F_ABS_MEAN], 0);
	assert_int_equal(eval("type ~ \"MatMul\" or abs_mean > 1e3", &r), EXPR_TRUE);
	assert_int_equal(r.asked[EXPR_F_ABS_MEAN], 0);
	assert_int_equal(eval("type ~ \"MatMul\" and abs_mean > 1e3", &r), EXPR_DEFER);
	assert_int_equal(eval("not (type ~ \"MatMul\" and abs_mean > 1e3)", &r), EXPR_DEFER);
	/* defer wins over unknown: the row could still make it false */
	r.avail[EXPR_F_ROLE] = EXPR_ABSENT;
	assert_int_equal(eval("role == \"weight\" and mean > 0", &r), EXPR_DEFER);
}

static void
test_expr_fields_stage_and_thresholds(void **state)
{
	struct expr *e = NULL;
	struct expr_threshold t[4];
	char err[128];

	(void)state;
	assert_int_equal(expr_parse("type ~ \"x\" and (1e3 < abs_mean or max >= 7)", &e, err,
				    sizeof err), TD_OK);
	assert_int_equal(expr_fields(e), (1ull << EXPR_F_TYPE) | (1ull << EXPR_F_ABS_MEAN) |
					 (1ull << EXPR_F_MAX));
	assert_int_equal(expr_max_stage(e), EXPR_STAGE_ROW);
	assert_int_equal(expr_thresholds(e, t, 4), 2);
	assert_int_equal(t[0].field, EXPR_F_ABS_MEAN);
	assert_string_equal(t[0].op, ">");
	assert_true(t[0].value == 1e3);
	assert_int_equal(t[1].field, EXPR_F_MAX);
	assert_string_equal(t[1].op, ">=");
	assert_string_equal(expr_text(e), "type ~ \"x\" and (1e3 < abs_mean or max >= 7)");
	expr_free(e);
	assert_int_equal(expr_parse("op ~ \"^a\" or type == \"B\"", &e, err, sizeof err), TD_OK);
	assert_int_equal(expr_max_stage(e), EXPR_STAGE_OP);
	expr_free(e);
	assert_int_equal(expr_parse("update_ratio > 0.1", &e, err, sizeof err), TD_OK);
	assert_int_equal(expr_max_stage(e), EXPR_STAGE_STEP);
	expr_free(e);
}

static void
test_expr_errors_point_at_the_column(void **state)
{
	(void)state;
	parse_error("", TD_ERR_ARGS, "column 1: empty condition");
	parse_error("mean > ", TD_ERR_ARGS, "column 8: expected a field, a number or a string");
	parse_error("meen > 0", TD_ERR_ARGS, "column 1: unknown field \"meen\"");
	parse_error("mean > 0 and maxx < 1", TD_ERR_ARGS, "column 14: unknown field \"maxx\"");
	parse_error("(mean > 0 or max < 1", TD_ERR_ARGS,
		    "column 21: expected \")\" to close column 1");
	parse_error("mean > 0)", TD_ERR_ARGS, "column 9: expected \"and\", \"or\" or the end");
	parse_error("mean > 0 max < 1", TD_ERR_ARGS, "column 10: expected \"and\"");
	parse_error("type == 3", TD_ERR_ARGS, "column 9: == compares a text with a number");
	parse_error("mean ~ \"x\"", TD_ERR_ARGS, "column 1: \"~\" wants a text field");
	parse_error("type ~ op", TD_ERR_ARGS, "column 8: \"~\" wants a pattern string");
	parse_error("type ~ \"(\"", TD_ERR_REGEX, "column 10: pattern \"(\":");
	parse_error("op == \"abc", TD_ERR_ARGS, "column 7: unterminated string");
	parse_error("type", TD_ERR_ARGS, "column 1: a text field alone");
	parse_error("mean > 1e", TD_ERR_ARGS, "column 8: bad number \"1e\"");
	parse_error("mean > 12abc", TD_ERR_ARGS, "column 8: bad number \"12abc\"");
	parse_error("mean # 1", TD_ERR_ARGS, "column 6: expected \"and\", \"or\" or the end, found #");
	parse_error("not", TD_ERR_ARGS, "column 4: expected a field");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expr_and_binds_tighter_than_or),
		cmocka_unit_test(test_expr_numbers_exponents_inf_and_signs),
		cmocka_unit_test(test_expr_strings_and_patterns),
		cmocka_unit_test(test_expr_pattern_answers_kept_per_text),
		cmocka_unit_test(test_expr_unknown_follows_sql),
		cmocka_unit_test(test_expr_defers_row_fields_and_short_circuits),
		cmocka_unit_test(test_expr_fields_stage_and_thresholds),
		cmocka_unit_test(test_expr_errors_point_at_the_column),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
