/*
 * test_fmt.c - compact summaries, shapes and Debugger V2 function labels.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/fmt.h"

static void
test_full_health_breakdown_in_header_order(void **state)
{
	struct td_summary s = { 0 };
	char buf[64];

	(void)state;
	/* Log:0 of the tutorial: 1000 elements, one -Inf */
	s.known = SUM_NAN | SUM_NEG_INF | SUM_POS_INF | SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE;
	s.neg_inf = 1, s.negative = 999;
	assert_string_equal(fmt_summary(&s, buf, sizeof buf), "1/0/0/999/0/0");
	assert_string_equal(FMT_BREAKDOWN_HEADER, "-Inf/NaN/+Inf/-/0/+");
}

static void
test_concise_and_curt_health_show_what_is_known(void **state)
{
	struct td_summary s = { 0 };
	char buf[64];

	(void)state;
	s.known = SUM_NAN | SUM_NEG_INF | SUM_POS_INF;
	s.nan = 3;
	assert_string_equal(fmt_summary(&s, buf, sizeof buf), "-Inf:0 NaN:3 +Inf:0");
	s.known = SUM_NONFINITE;
	s.has_inf_or_nan = true;
	assert_string_equal(fmt_summary(&s, buf, sizeof buf), "Inf/NaN");
	s.has_inf_or_nan = false;
	assert_string_equal(fmt_summary(&s, buf, sizeof buf), "finite");
	s.known = 0;
	assert_string_equal(fmt_summary(&s, buf, sizeof buf), "-");
	s.known = SUM_DTYPE | SUM_SHAPE;          /* SHAPE mode */
	s.dtype = DTYPE_INT32;
	s.ndims = 1, s.dims[0] = 3;
	assert_string_equal(fmt_summary(&s, buf, sizeof buf), "int32[3]");
}

static void
test_values_mode_shows_min_max_mean(void **state)
{
	struct td_summary s = { 0 };
	char buf[64];

	(void)state;
	s.known = SUM_MINMAX | SUM_MEAN;
	s.min = -1.5, s.max = 2, s.mean = 0.25;
	assert_string_equal(fmt_summary(&s, buf, sizeof buf), "min -1.5 max 2 mean 0.25");
}

static void
test_shape_with_dtype_and_dims(void **state)
{
	struct td_summary s = { 0 };
	char buf[64];

	(void)state;
	s.known = SUM_DTYPE | SUM_SHAPE;
	s.dtype = DTYPE_FLOAT32;
	s.ndims = 2, s.dims[0] = 10, s.dims[1] = 100;
	assert_string_equal(fmt_shape(&s, buf, sizeof buf), "float32[10,100]");
	s.known = SUM_ELEMENTS;
	s.elements = 1000;
	assert_string_equal(fmt_shape(&s, buf, sizeof buf), "1000 el");
	s.known = 0;
	assert_string_equal(fmt_shape(&s, buf, sizeof buf), "");
}

/* Health modes know the rank and element count, not the shape: say so,
 * never invent a shape from them (issue 12, item 4). */
static void
test_shape_unknown_shows_rank_and_elements(void **state)
{
	struct td_summary s = { 0 };
	char buf[64];

	(void)state;
	s.known = SUM_DTYPE | SUM_RANK | SUM_ELEMENTS;
	s.dtype = DTYPE_FLOAT32;
	s.rank = 2, s.elements = 1000;
	assert_string_equal(fmt_shape(&s, buf, sizeof buf), "float32 rank 2, 1000 el");
	s.rank = 0, s.elements = 1;                 /* a scalar's shape is known: [] */
	assert_string_equal(fmt_shape(&s, buf, sizeof buf), "float32[]");
	s.known = SUM_DTYPE | SUM_ELEMENTS;
	s.elements = 1000;
	assert_string_equal(fmt_shape(&s, buf, sizeof buf), "float32 1000 el");
}

/* A record that knows only some counts (a NaN count alone) shows the
 * others as unknown, never as 0 (issue 12, item 3). */
static void
test_unknown_counts_are_dashes(void **state)
{
	struct td_summary s = { 0 };
	char buf[64];

	(void)state;
	s.known = SUM_NAN;
	s.nan = 8;
	assert_string_equal(fmt_summary(&s, buf, sizeof buf), "-Inf:- NaN:8 +Inf:-");
}

static void
test_function_names_shortened_like_debugger_v2(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(fmt_function_name("__inference_train_step_123", buf, sizeof buf), "train_step");
	assert_string_equal(fmt_function_name("__forward_loss_45", buf, sizeof buf), "loss (fwd)");
	assert_string_equal(fmt_function_name("__backward_loss_45_67", buf, sizeof buf), "loss (bwd)");
	assert_string_equal(fmt_function_name("__inference___backward_loss_318_347", buf, sizeof buf),
			    "loss (bwd)");
	assert_string_equal(fmt_function_name("MatMul", buf, sizeof buf), "MatMul");
	assert_string_equal(fmt_function_name("__inference_", buf, sizeof buf), "__inference_");
	assert_string_equal(fmt_function_name("__inference_f", buf, sizeof buf), "f");
}

static void
test_doubles_print_nonfinite_words(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(fmt_double(NAN, buf, sizeof buf), "nan");
	assert_string_equal(fmt_double(-INFINITY, buf, sizeof buf), "-inf");
	assert_string_equal(fmt_double(0.1234567, buf, sizeof buf), "0.123457");
}

#define LENET "Default/network-WithLossCell/_backbone-LeNet5/"

static void
test_scope_shared_components_become_dots(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(fmt_scope_relative(LENET "flatten-Flatten/Reshape-op9",
					       LENET "fc3-Dense/MatMul-op10", buf, sizeof buf),
			    ".../flatten-Flatten/Reshape-op9");
}

static void
test_scope_sibling_loses_its_scope(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(fmt_scope_relative(LENET "fc3-Dense/BiasAdd-op11",
					       LENET "fc3-Dense/MatMul-op10", buf, sizeof buf),
			    "BiasAdd-op11");
}

static void
test_scope_unrelated_or_unscoped_names_are_copied(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(fmt_scope_relative("fc1.weight", LENET "fc3-Dense/MatMul-op10", buf, sizeof buf),
			    "fc1.weight");
	assert_string_equal(fmt_scope_relative("Gradients/Default/x", "Default/y", buf, sizeof buf),
			    "Gradients/Default/x");
	/* a shared prefix that is not a whole component ("Default" vs "Default2") */
	assert_string_equal(fmt_scope_relative("Default2/a/b", "Default/a/c", buf, sizeof buf),
			    "Default2/a/b");
	assert_string_equal(fmt_scope_relative("Log", "Mul", buf, sizeof buf), "Log");
	assert_int_equal(fmt_scope_len(LENET "fc3-Dense/MatMul-op10"), strlen(LENET "fc3-Dense/"));
	assert_int_equal(fmt_scope_len("probs"), 0);
}

static const struct fmt_seg status_segs[] = {
	{ "/data/runs/mnist_nan", "mnist_nan", 1 },
	{ "tfdbg2 FULL_HEALTH", NULL, 2 },
	{ "host a", NULL, 0 },
	{ "224 exec  680 traces  568 alerts", "224 exec 680 traces 568 alerts", 3 },
	{ "filter: type=Log", NULL, 4 },
};

static void
test_segments_all_shown_when_wide(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(fmt_fit_segments(status_segs, 5, 200, buf, sizeof buf),
			    " /data/runs/mnist_nan  tfdbg2 FULL_HEALTH  host a  224 exec  680 traces  "
			    "568 alerts  filter: type=Log");
}

static void
test_segments_path_shortens_before_anything_drops(void **state)
{
	char buf[256];

	(void)state;
	/* the full line is 100 columns; with the base name it is 89 */
	assert_string_equal(fmt_fit_segments(status_segs, 5, 90, buf, sizeof buf),
			    " mnist_nan  tfdbg2 FULL_HEALTH  host a  224 exec  680 traces  568 alerts  "
			    "filter: type=Log");
}

static void
test_segments_lowest_priority_drop_first_filter_stays(void **state)
{
	char buf[256];

	(void)state;
	assert_string_equal(fmt_fit_segments(status_segs, 5, 60, buf, sizeof buf),
			    " 224 exec 680 traces 568 alerts  filter: type=Log");
	assert_string_equal(fmt_fit_segments(status_segs, 5, 20, buf, sizeof buf),
			    " filter: type=Log");
	/* the last segment is kept even when it does not fit */
	assert_string_equal(fmt_fit_segments(status_segs, 5, 5, buf, sizeof buf),
			    " filter: type=Log");
}

static void
test_cell_label_keeps_the_run_number(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(fmt_cell_label("Session.run #2", 15, "\xe2\x80\xa6", buf, sizeof buf), "Session.run #2");
	assert_string_equal(fmt_cell_label("Session.run #1234", 14, "\xe2\x80\xa6", buf, sizeof buf),
			    "Session\xe2\x80\xa6 #1234");
	assert_string_equal(fmt_cell_label("graph 0 iter 12345", 15, "\xe2\x80\xa6", buf, sizeof buf),
			    "graph 0\xe2\x80\xa6 12345");
	assert_string_equal(fmt_cell_label("Session.run #1234", 14, "~", buf, sizeof buf), "Session~ #1234");
	/* a long last word: the caller cuts the end */
	assert_string_equal(fmt_cell_label("train_step_long_name", 10, "\xe2\x80\xa6", buf, sizeof buf),
			    "train_step_long_name");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_health_breakdown_in_header_order),
		cmocka_unit_test(test_concise_and_curt_health_show_what_is_known),
		cmocka_unit_test(test_values_mode_shows_min_max_mean),
		cmocka_unit_test(test_shape_with_dtype_and_dims),
		cmocka_unit_test(test_shape_unknown_shows_rank_and_elements),
		cmocka_unit_test(test_unknown_counts_are_dashes),
		cmocka_unit_test(test_function_names_shortened_like_debugger_v2),
		cmocka_unit_test(test_doubles_print_nonfinite_words),
		cmocka_unit_test(test_scope_shared_components_become_dots),
		cmocka_unit_test(test_scope_sibling_loses_its_scope),
		cmocka_unit_test(test_scope_unrelated_or_unscoped_names_are_copied),
		cmocka_unit_test(test_cell_label_keeps_the_run_number),
		cmocka_unit_test(test_segments_all_shown_when_wide),
		cmocka_unit_test(test_segments_path_shortens_before_anything_drops),
		cmocka_unit_test(test_segments_lowest_priority_drop_first_filter_stays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
