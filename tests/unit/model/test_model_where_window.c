/*
 * test_model_where_window.c - a `where` condition on summary fields
 * answered a window of rows at a time from the summary columns
 * (model_where_window.c, model_filter_window.c; issue 25): on dumps
 * opened with their persistent index and columns (health modes: every
 * row in the columns; FULL_TENSOR: none until a question decodes it;
 * corrupt records; no columns at all), every row's answer, and the
 * filter's counts, unknowns, nth and matches, are those of the row by
 * row path (where_trace), for conditions with NaN, infinities, fields a
 * mode lacks, `not`, `and`, `or`, op names and types beside summary
 * fields, and conditions the window leaves to the row by row path;
 * on the fixtures and on generated dumps of several 4096-row blocks
 * (two hosts, zeros and NaN rows: tests/gen).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_filter_priv.h"
#include "model/analysis/model_where.h"
#include "model/model.h"
#include "tests/unit/helpers/files.h"

static const char *const dumps[] = {
	"tests/fixtures/tfdbg2/mnist_nan",
	"tests/fixtures/tfdbg2/modes/curt_health",
	"tests/fixtures/tfdbg2/modes/concise_health",
	"tests/fixtures/tfdbg2/modes/shape",
	"tests/fixtures/tfdbg2/modes/full_tensor",
	"tests/fixtures/tfdbg2/modes/no_tensor",
	"tests/fixtures/robust/bad_crc",
	"tests/fixtures/robust/torn",
	"@FULL_HEALTH",             /* generated (gen_dump) */
	"@FULL_TENSOR",
	"@CURT_HEALTH",
};

static const char *const conds[] = {
	"zero_fraction > 0.5", "nan > 0", "nan", "not nan", "nan != 0", "pos_inf or neg_inf",
	"not (zero_fraction < 1)", "zero_percentage >= 50", "elements > 100", "elements == 0",
	"min < 0", "max >= inf", "min <= -inf", "mean > 0", "mean != mean", "abs_mean > 1",
	"std > 0.5", "l2norm > 10", "max_abs > 100", "rank == 2", "dtype == \"float32\"",
	"dtype ~ \"float\"", "dtype_max > 1e30", "zero == elements", "negative > positive",
	"nan > 0 or mean > 0", "not (nan > 0 and mean > 0)", "min > nan", "max != inf",
	"(nan or pos_inf) and zero_fraction > 0.1", "zero_fraction > 0.5 or not (elements > 0)",
	/* exact values of the generated dumps (491 / 16384, 327 / 8192) */
	"zero_fraction >= 0.02996826171875", "zero_percentage == 2.996826171875",
	"zero_fraction == 0.0399169921875 or zero_fraction < 0.01",
	/* with the op's name and type (read by op id, once) */
	"type ~ \"MatMul\" and nan > 0", "op ~ \"dense\" or zero_fraction > 0.2",
	"type == \"MatMul\" or nan > 0", "not (op ~ \"grad\") and zero > 0", "type != \"Relu\"",
	"op ~ \"(a+)+$\" or mean > 0",
	/* not window-able: the row by row path (the same answers) */
	"role == \"weight\" or nan > 0", "step >= 0 and zero > 0", "host != \"\" and nan >= 0",
};

/* A fixture's path, or a dump generated for "@MODE" into tmp (once). */
static const char *
dump_path(const char *name, char *buf, size_t len)
{
	static char *tmp;
	char cmd[1400];

	if (name[0] != '@')
		return name;
	if (!tmp)
		tmp = test_tmpdir("wwin_gen");
	snprintf(buf, len, "%s/%s", tmp, name + 1);
	snprintf(cmd, sizeof cmd, "test -d %s || \"$(tests/gen/build.sh)\" -q -n 9000 --hosts 2 "
		 "--ops 300 -m %s --nan-every 600 %s", buf, name + 1, buf);
	assert_int_equal(system(cmd), 0);
	return buf;
}

static struct model *
open_dump(const char *name, const char *cache)
{
	char buf[512];
	const char *path = dump_path(name, buf, sizeof buf);
	struct model_options opt = {.no_thread = true, .cache = cache != NULL, .cache_dir = cache};
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(path, &opt, &m, err, sizeof err), TD_OK);
	return m;
}

static struct model_filter *
where(struct model *m, const char *text)
{
	struct model_filter_spec spec = {.where = text, .graph = -1, .execution = -1};
	struct model_filter *fl = NULL;
	char err[512];

	if (model_filter_new(m, &spec, &fl, err, sizeof err) != TD_OK)
		fail_msg("%s: %s", text, err);
	return fl;
}

/* The filter (window path first, so rows not in the columns are asked
 * through it) agrees with where_trace row by row.  Returns the rows the
 * window answered from the columns. */
static uint64_t
check_condition(struct model *m, const char *text)
{
	struct model_filter *fl = where(m, text);
	uint64_t n = model_trace_count(m), matched, unknown, want = 0, unk = 0, cols = 0;
	struct where_window *w = where_window_new();
	uint8_t ans[MODEL_FIELD_WINDOW];
	struct expr *e;
	char err[256];

	matched = model_filter_count(m, fl, TABLE_TRACES);
	unknown = model_filter_unknown(m, fl, TABLE_TRACES);
	assert_int_equal(expr_parse(text, &e, err, sizeof err), TD_OK);
	for (uint64_t j = 0; j < n; j++) {
		enum expr_result r = where_trace(m, e, j);

		if (r == EXPR_TRUE && model_filter_nth(m, fl, TABLE_TRACES, want) != (int64_t)j)
			fail_msg("%s: match %llu is not row %llu", text, (unsigned long long)want,
				 (unsigned long long)j);
		if (model_filter_match(m, fl, TABLE_TRACES, j) != (r == EXPR_TRUE))
			fail_msg("%s: row %llu", text, (unsigned long long)j);
		want += r == EXPR_TRUE;
		unk += r == EXPR_UNKNOWN;
	}
	if (matched != want || unknown != unk)
		fail_msg("%s: window %llu/%llu unknown, row by row %llu/%llu", text,
			 (unsigned long long)matched, (unsigned long long)unknown,
			 (unsigned long long)want, (unsigned long long)unk);
	/* the window itself, now that every row was asked (and kept) */
	for (uint64_t j = 0; where_window_able(e) && j < n;) {
		size_t got = where_trace_window(m, e, j, (size_t)(n - j), w, ans);

		assert_true(got > 0);
		for (size_t k = 0; k < got; k++) {
			if (ans[k] == WHERE_ASK)
				continue;
			cols++;
			if (ans[k] != where_trace(m, e, j + k))
				fail_msg("%s: window row %llu", text, (unsigned long long)(j + k));
		}
		j += got;
	}
	expr_free(e);
	where_window_free(w);
	model_filter_free(fl);
	return cols;
}

static void
test_window_equals_row_by_row_with_columns(void **state)
{
	char *dir = test_tmpdir("wwin");

	(void)state;
	for (size_t d = 0; d < TD_ARRAY_SIZE(dumps); d++) {
		struct model *m = open_dump(dumps[d], dir);
		uint64_t cols = 0;

		for (size_t c = 0; c < TD_ARRAY_SIZE(conds); c++)
			cols += check_condition(m, conds[c]);
		/* every row is in the columns by now (the pass's, or kept) */
		if (model_trace_count(m) && strstr(dumps[d], "robust") == NULL)
			assert_true(cols > 0);
		model_close(m);
		m = open_dump(dumps[d], dir);       /* warm: what the first open kept */
		for (size_t c = 0; c < TD_ARRAY_SIZE(conds); c++)
			check_condition(m, conds[c]);
		model_close(m);
	}
	test_rmtree(dir);
}

static void
test_window_equals_row_by_row_without_columns(void **state)
{
	(void)state;
	for (size_t d = 0; d < TD_ARRAY_SIZE(dumps); d++) {
		struct model *m = open_dump(dumps[d], NULL);

		for (size_t c = 0; c < TD_ARRAY_SIZE(conds); c++)
			assert_int_equal(check_condition(m, conds[c]), 0);     /* all asked */
		model_close(m);
	}
}

static void
test_window_able_only_summary_fields(void **state)
{
	static const struct { const char *text; bool able; } cases[] = {
		{ "zero_fraction > 0.5", true }, { "dtype ~ \"f\" and max_abs > rank", true },
		{ "type ~ \"MatMul\" and nan > 0", true }, { "op == \"x\" or type != \"y\"", true },
		{ "host == \"a\"", false },
		{ "step > 1", false }, { "unchanged", false }, { "requires_grad", false },
		{ "role == \"weight\" or nan", false },
	};
	char err[128];

	(void)state;
	for (size_t i = 0; i < TD_ARRAY_SIZE(cases); i++) {
		struct expr *e;

		assert_int_equal(expr_parse(cases[i].text, &e, err, sizeof err), TD_OK);
		if (where_window_able(e) != cases[i].able)
			fail_msg("%s", cases[i].text);
		expr_free(e);
	}
}

/* A window's row whose fields the columns do not know (an unfilled row:
 * its arrays hold whatever was there) is absent with 0 and no name for
 * every field, its arrays never read (memcheck saw branches on them);
 * a known row beside it gets its values. */
static void
test_field_col_unknown_rows_read_nothing(void **state)
{
	static struct model_field_window w;
	static const enum expr_field fields[] = {
		EXPR_F_MIN, EXPR_F_NAN, EXPR_F_MAX_ABS, EXPR_F_ZERO_FRACTION, EXPR_F_RANK,
		EXPR_F_DTYPE, EXPR_F_DTYPE_MAX,
	};
	double num[2], lo = -3.0, hi = 2.0;
	const char *str[2];
	uint8_t avail[2];

	(void)state;
	memset(&w, 0xA5, sizeof w);     /* what an unfilled row's arrays may hold */
	w.n = 2;
	w.filled[0] = false;
	w.known[0] = 0;
	w.filled[1] = true;
	w.known[1] = SUM_MINMAX | SUM_NAN | SUM_ZERO | SUM_ELEMENTS | SUM_RANK | SUM_DTYPE;
	memcpy(&w.v[MODEL_FCOL_MIN][1], &lo, sizeof lo);
	memcpy(&w.v[MODEL_FCOL_MAX][1], &hi, sizeof hi);
	w.v[MODEL_FCOL_NAN][1] = 4;
	w.v[MODEL_FCOL_ZERO][1] = 5;
	w.v[MODEL_FCOL_ELEMENTS][1] = 20;
	w.rank[1] = 2;
	w.dtype[1] = DTYPE_FLOAT32;
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		num[0] = num[1] = -1;
		str[0] = str[1] = "x";
		where_field_col(&w, fields[i], 2, avail, num, str);
		assert_int_equal(avail[0], EXPR_ABSENT);
		assert_true(num[0] == 0);
		assert_null(str[0]);
		assert_int_equal(avail[1], EXPR_KNOWN);
	}
	where_field_col(&w, EXPR_F_MAX_ABS, 2, avail, num, str);
	assert_true(num[1] == 3.0);
	where_field_col(&w, EXPR_F_ZERO_FRACTION, 2, avail, num, str);
	assert_true(num[1] == 0.25);
	where_field_col(&w, EXPR_F_DTYPE, 2, avail, num, str);
	assert_string_equal(str[1], "float32");
	where_field_col(&w, EXPR_F_NAN, 2, avail, num, str);
	assert_true(num[1] == 4);
}

/* The filter's count skips the op look-up a row only when every op's
 * state decides rows alike (filter_same_state): a condition on summary
 * fields alone leaves every op's rows to it; one naming ops does not;
 * and with the flag asked (--nonfinite) the rows' flags still count. */
static void
test_same_state_only_when_every_op_is_alike(void **state)
{
	static const struct { const char *text; int same; } cases[] = {
		{ "zero_fraction > 0.01", ST_ROWS }, { "nan > 0 or mean > 0", ST_ROWS },
		{ "op ~ \"dense\" or zero_fraction > 0.2", -1 },
		{ "type ~ \"MatMul\" and nan > 0", -1 },
	};
	char *dir = test_tmpdir("wwin_same");
	struct model *m = open_dump("@FULL_HEALTH", dir);
	uint64_t n = model_trace_count(m);

	(void)state;
	for (size_t i = 0; i < TD_ARRAY_SIZE(cases); i++) {
		struct model_filter *fl = where(m, cases[i].text);

		check_condition(m, cases[i].text);
		model_filter_count(m, fl, TABLE_TRACES);
		if (fl->same_state != cases[i].same)
			fail_msg("%s: %d", cases[i].text, fl->same_state);
		model_filter_free(fl);
	}
	for (size_t i = 0; i < TD_ARRAY_SIZE(cases); i++) {
		struct model_filter_spec spec = {.where = cases[i].text, .graph = -1,
						 .execution = -1, .nonfinite = true};
		struct model_filter *fl = NULL;
		uint64_t want = 0;
		struct expr *e;
		char err[256];

		assert_int_equal(model_filter_new(m, &spec, &fl, err, sizeof err), TD_OK);
		assert_int_equal(expr_parse(cases[i].text, &e, err, sizeof err), TD_OK);
		for (uint64_t j = 0; j < n; j++) {
			uint32_t f;

			model_trace_op_flags(m, j, &f);
			want += (f & ROW_NONFINITE) && where_trace(m, e, j) == EXPR_TRUE;
		}
		assert_true(want > 0);
		assert_int_equal(model_filter_count(m, fl, TABLE_TRACES), want);
		expr_free(e);
		model_filter_free(fl);
	}
	model_close(m);
	test_rmtree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_col_unknown_rows_read_nothing),
		cmocka_unit_test(test_window_equals_row_by_row_with_columns),
		cmocka_unit_test(test_window_equals_row_by_row_without_columns),
		cmocka_unit_test(test_window_able_only_summary_fields),
		cmocka_unit_test(test_same_state_only_when_every_op_is_alike),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
