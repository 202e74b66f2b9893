/*
 * test_model_expr_window.c - the condition language over a window of
 * rows at once (model_expr_window.c, issue 25): for many generated
 * conditions (comparisons with numbers, NaN and inf, of two fields,
 * fields alone, `~` and `==` on text, `and`, `or`, `not`, parentheses)
 * and many generated rows (fields known, absent or answered later, NaN
 * and infinite values), every row's answer is the one expr_eval gives
 * that row, field by field; with the "~" answers remembered too.
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
#include "tests/unit/helpers/xorshift.h"

#define ROWS 1500

static const enum expr_field num_fields[] = {
	EXPR_F_NAN, EXPR_F_ZERO, EXPR_F_ELEMENTS, EXPR_F_MIN, EXPR_F_MAX, EXPR_F_MEAN,
	EXPR_F_ZERO_FRACTION, EXPR_F_STEP,
};
static const char *const texts[] = { "float32", "float16", "int8", "", "MatMul", "Relu" };

/* The rows: per field an availability, a number and a text. */
struct rows {
	uint8_t avail[EXPR_F_COUNT][ROWS];
	double num[EXPR_F_COUNT][ROWS];
	const char *str[EXPR_F_COUNT][ROWS];
	size_t row;                 /* expr_eval's row */
};

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned
rnd(unsigned n)
{
	return (unsigned)(xorshift64(&rng) % n);
}

static double
rnd_num(void)
{
	static const double v[] = { 0, 1, -1, 0.5, 2, 1e3, -1e3, 0.25 };

	switch (rnd(10)) {
	case 0: return NAN;
	case 1: return INFINITY;
	case 2: return -INFINITY;
	default: return v[rnd(TD_ARRAY_SIZE(v))];
	}
}

static void
fill_rows(struct rows *r)
{
	for (int f = 0; f < EXPR_F_COUNT; f++)
		for (size_t k = 0; k < ROWS; k++) {
			unsigned a = rnd(10);

			r->avail[f][k] = a < 7 ? EXPR_KNOWN : a < 9 ? EXPR_ABSENT : EXPR_LATER;
			r->num[f][k] = rnd_num();
			/* a text field may answer NULL: read as "" */
			r->str[f][k] = rnd(8) ? texts[rnd(TD_ARRAY_SIZE(texts))] : NULL;
		}
}

static enum expr_avail
row_get(void *ctx, enum expr_field f, double *num, const char **str)
{
	struct rows *r = ctx;

	*num = r->num[f][r->row];
	*str = r->str[f][r->row];
	return (enum expr_avail)r->avail[f][r->row];
}

static void
col_get(void *ctx, enum expr_field f, size_t n, uint8_t *avail, double *num, const char **str)
{
	struct rows *r = ctx;

	memcpy(avail, r->avail[f], n);
	memcpy(num, r->num[f], n * sizeof(*num));
	memcpy(str, r->str[f], n * sizeof(*str));
}

static const char *
num_name(void)
{
	return expr_field_name(num_fields[rnd(TD_ARRAY_SIZE(num_fields))]);
}

static void
gen_leaf(struct strbuf *sb)
{
	static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=" };
	static const char *const lits[] = { "0", "1", "-1", "0.5", "inf", "-inf", "1e3", "2" };

	switch (rnd(7)) {
	case 0:
		strbuf_addf(sb, "%s", num_name());
		break;
	case 1:
		strbuf_addf(sb, "%s %s %s", num_name(), ops[rnd(6)], num_name());
		break;
	case 2:
		strbuf_addf(sb, "%s %s \"%s\"", rnd(2) ? "dtype" : "type", rnd(2) ? "==" : "!=",
			    texts[rnd(TD_ARRAY_SIZE(texts))]);
		break;
	case 3:
		strbuf_addf(sb, "%s ~ \"%s\"", rnd(2) ? "dtype" : "type",
			    rnd(2) ? "float" : "^(Mat|int)");
		break;
	case 4:
		strbuf_addf(sb, "%s %s %s", lits[rnd(TD_ARRAY_SIZE(lits))], ops[rnd(6)], num_name());
		break;
	default:
		strbuf_addf(sb, "%s %s %s", num_name(), ops[rnd(6)], lits[rnd(TD_ARRAY_SIZE(lits))]);
		break;
	}
}

static void
gen_cond(struct strbuf *sb, int depth)
{
	unsigned k = depth > 3 ? 0 : rnd(5);

	if (k == 0 || k == 1) {
		gen_leaf(sb);
	} else if (k == 2) {
		strbuf_adds(sb, "not ");
		gen_cond(sb, depth + 1);
	} else {
		strbuf_adds(sb, "(");
		gen_cond(sb, depth + 1);
		strbuf_adds(sb, k == 3 ? " and " : " or ");
		gen_cond(sb, depth + 1);
		strbuf_adds(sb, ")");
	}
}

static void
test_window_answers_equal_row_by_row(void **state)
{
	static struct rows r;
	static uint8_t out[ROWS];
	unsigned seen[4] = { 0 };

	(void)state;
	fill_rows(&r);
	for (int c = 0; c < 400; c++) {
		struct strbuf sb = { 0 };
		struct expr *e;
		char err[256];

		gen_cond(&sb, 0);
		if (expr_parse(sb.buf, &e, err, sizeof err) != TD_OK)
			fail_msg("%s: %s", sb.buf, err);
		memset(out, 0xee, sizeof out);
		if (c & 1) {            /* the answers remembered: a second pass reads them */
			struct expr_memo *mm = expr_memo_new();

			expr_eval_window(e, ROWS, col_get, &r, mm, out);
			memset(out, 0xee, sizeof out);
			expr_eval_window(e, ROWS, col_get, &r, mm, out);
			expr_memo_free(mm);
		} else {
			expr_eval_window(e, ROWS, col_get, &r, NULL, out);
		}
		for (r.row = 0; r.row < ROWS; r.row++) {
			enum expr_result want = expr_eval(e, row_get, &r);

			if (out[r.row] != want)
				fail_msg("%s, row %zu: window %u, row by row %u", sb.buf, r.row,
					 out[r.row], want);
			seen[want]++;
		}
		expr_free(e);
		strbuf_done(&sb);
	}
	/* the generated rows and conditions reach every answer */
	for (int k = 0; k < 4; k++)
		assert_true(seen[k] > 1000);
}

/* Fewer rows than a window, and a window cut at EXPR_WINDOW. */
static void
test_window_sizes(void **state)
{
	static struct rows r;
	uint8_t out[8];
	struct expr *e;
	char err[128];

	(void)state;
	memset(&r, 0, sizeof r);
	for (int k = 0; k < 3; k++) {
		r.avail[EXPR_F_NAN][k] = EXPR_KNOWN;
		r.num[EXPR_F_NAN][k] = k;
	}
	r.avail[EXPR_F_NAN][2] = EXPR_ABSENT;
	assert_int_equal(expr_parse("nan > 0", &e, err, sizeof err), TD_OK);
	memset(out, 0xee, sizeof out);
	expr_eval_window(e, 3, col_get, &r, NULL, out);
	assert_int_equal(out[0], EXPR_FALSE);
	assert_int_equal(out[1], EXPR_TRUE);
	assert_int_equal(out[2], EXPR_UNKNOWN);
	assert_int_equal(out[3], 0xee);             /* past n: untouched */
	expr_eval_window(e, 0, col_get, &r, NULL, out);   /* nothing asked, nothing done */
	assert_int_equal(out[0], EXPR_FALSE);
	expr_free(e);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_answers_equal_row_by_row),
		cmocka_unit_test(test_window_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
