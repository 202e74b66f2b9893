/*
 * test_chart.c - the trend view's chart arithmetic (tui/chart.h): scales
 * fitted to the values (linear, log, flat, one step), values to rows and
 * steps to columns, braille dot bits and their UTF-8 text, line segments,
 * gaps at NaN, points of short series, ASCII cells, labels.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <math.h>

#include "tui/chart.h"

static void
test_fit_linear_spans_the_values(void **state)
{
	const double x[] = { 10, 11, 12, 13 }, y[] = { 2, NAN, -1, 5 };
	struct chart_line l = { x, y, 4 };
	struct chart_scale sc;

	(void)state;
	assert_true(chart_fit(&l, 1, false, &sc));
	assert_true(sc.x0 == 10 && sc.x1 == 13);
	assert_true(sc.y0 == -1 && sc.y1 == 5);            /* the NaN is not a value */
	assert_true(chart_y_edge(&sc, 0) == 5 && chart_y_edge(&sc, 1) == -1);
	/* 7 rows: 5 at the top, -1 at the bottom, 2 in the middle */
	assert_int_equal(chart_y_pos(&sc, 5, 7), 0);
	assert_int_equal(chart_y_pos(&sc, -1, 7), 6);
	assert_int_equal(chart_y_pos(&sc, 2, 7), 3);
	assert_int_equal(chart_y_pos(&sc, NAN, 7), -1);
	assert_int_equal(chart_y_pos(&sc, INFINITY, 7), -1);
	/* 31 columns: step 10 first, 13 last, 11 a third of the way */
	assert_int_equal(chart_x_pos(&sc, 10, 31), 0);
	assert_int_equal(chart_x_pos(&sc, 13, 31), 30);
	assert_int_equal(chart_x_pos(&sc, 11, 31), 10);
}

static void
test_fit_log_takes_the_positive_values(void **state)
{
	const double x[] = { 0, 1, 2, 3 }, y[] = { 1e-6, 1e-3, 0, 1 };
	struct chart_line l = { x, y, 4 };
	struct chart_scale sc;

	(void)state;
	assert_true(chart_spans_decades(&l, 1));
	assert_true(chart_fit(&l, 1, true, &sc));
	assert_true(fabs(sc.y0 + 6) < 1e-12 && fabs(sc.y1) < 1e-12);
	assert_true(fabs(chart_y_edge(&sc, 1) - 1e-6) < 1e-18);
	assert_int_equal(chart_y_pos(&sc, 0, 7), -1);      /* no log of 0 */
	assert_int_equal(chart_y_pos(&sc, 1e-3, 7), 3);    /* half way in decades */
	const double z[] = { 1, 2, 3, 50 };
	struct chart_line m = { x, z, 4 };
	assert_false(chart_spans_decades(&m, 1));
}

static void
test_flat_and_single_points_sit_in_the_middle(void **state)
{
	const double x[] = { 4 }, y[] = { 3 };
	struct chart_line l = { x, y, 1 };
	struct chart_scale sc;

	(void)state;
	assert_true(chart_fit(&l, 1, false, &sc));
	assert_int_equal(chart_x_pos(&sc, 4, 11), 5);
	assert_int_equal(chart_y_pos(&sc, 3, 9), 4);
	const double n[] = { NAN };
	struct chart_line none = { x, n, 1 };
	assert_false(chart_fit(&none, 1, false, &sc));
	assert_int_equal(chart_y_pos(&sc, 1, 9), -1);
}

static void
test_braille_bits_follow_the_unicode_layout(void **state)
{
	char buf[8];

	(void)state;
	/* dots 1 2 3 7 down the left column, 4 5 6 8 down the right */
	assert_int_equal(chart_braille_bit(0, 0), 0x01);
	assert_int_equal(chart_braille_bit(0, 2), 0x04);
	assert_int_equal(chart_braille_bit(0, 3), 0x40);
	assert_int_equal(chart_braille_bit(1, 0), 0x08);
	assert_int_equal(chart_braille_bit(1, 3), 0x80);
	assert_int_equal(chart_braille_bit(2, 0), 0);
	chart_braille_text(0, buf);
	assert_string_equal(buf, "\xe2\xa0\x80");          /* U+2800 */
	chart_braille_text(0xff, buf);
	assert_string_equal(buf, "\xe2\xa3\xbf");          /* U+28FF */
	chart_braille_text(0x41, buf);
	assert_string_equal(buf, "\xe2\xa1\x81");          /* U+2841: dots 1 and 7 */
}

static void
test_segments_pack_dots_into_cells(void **state)
{
	struct chart_grid g;
	char buf[8];
	int line;

	(void)state;
	chart_grid_init(&g, 2, 1, true);                    /* 4 x 4 dots */
	chart_grid_segment(&g, 0, 0, 3, 3, 1);              /* the diagonal */
	chart_cell(&g, 0, 0, buf, sizeof buf, &line);
	assert_int_equal(line, 1);
	assert_int_equal(g.dots[0], 0x01 | 0x10);           /* (0,0) and (1,1) */
	assert_int_equal(g.dots[1], 0x04 | 0x80);           /* (2,2) and (3,3) */
	chart_grid_dot(&g, 9, 9, 0);                        /* outside: ignored */
	chart_grid_done(&g);
}

static void
test_a_nan_breaks_the_line_and_few_points_show(void **state)
{
	const double x[] = { 0, 1, 2, 3 }, y[] = { 0, 1, NAN, 3 };
	struct chart_line l = { x, y, 4 };
	struct chart_scale sc;
	struct chart_grid g;
	char buf[8];
	int line;

	(void)state;
	chart_fit(&l, 1, false, &sc);
	chart_grid_init(&g, 10, 4, true);                   /* 20 x 16 dots */
	chart_plot(&g, &sc, &l, 2);
	/* four points in ten cells: each point's cell is whole */
	chart_cell(&g, 0, 3, buf, sizeof buf, &line);       /* step 0, value 0 */
	assert_string_equal(buf, "\xe2\xa3\xbf");
	assert_int_equal(line, 2);
	chart_cell(&g, 9, 0, buf, sizeof buf, &line);       /* step 3, value 3 */
	assert_string_equal(buf, "\xe2\xa3\xbf");
	/* nothing between step 1 (column 3) and step 3 (column 9): the gap */
	for (int cx = 4; cx < 9; cx++)
		for (int cy = 0; cy < 4; cy++) {
			chart_cell(&g, cx, cy, buf, sizeof buf, &line);
			assert_string_equal(buf, " ");
			assert_int_equal(line, -1);
		}
	/* steps 0 (cell 0) to 1 (cell 3) are joined by dots: the (0,15) to
	 * (6,10) segment crosses cell column 1 in cell row 3 */
	chart_cell(&g, 1, 3, buf, sizeof buf, &line);
	assert_int_equal(line, 2);
	assert_string_not_equal(buf, " ");
	assert_string_not_equal(buf, "\xe2\xa3\xbf");          /* a dot, not a point */
	chart_grid_done(&g);
}

static void
test_ascii_cells_use_glyphs(void **state)
{
	const double x[] = { 0, 4 }, y[] = { 0, 4 };
	struct chart_line l = { x, y, 2 };
	struct chart_scale sc;
	struct chart_grid g;
	char buf[8];
	int line;

	(void)state;
	chart_fit(&l, 1, false, &sc);
	chart_grid_init(&g, 5, 5, false);
	chart_plot(&g, &sc, &l, 1);
	chart_cell(&g, 0, 4, buf, sizeof buf, &line);
	assert_string_equal(buf, "+");                       /* line 1's point glyph */
	chart_cell(&g, 2, 2, buf, sizeof buf, &line);
	assert_string_equal(buf, ".");
	chart_cell(&g, 4, 0, buf, sizeof buf, &line);
	assert_string_equal(buf, "+");
	chart_cell(&g, 0, 0, buf, sizeof buf, &line);
	assert_string_equal(buf, " ");
	chart_grid_done(&g);
}

static void
test_labels_are_short(void **state)
{
	char buf[32];

	(void)state;
	chart_label(12345.678, buf, sizeof buf);
	assert_string_equal(buf, "1.23e+04");
	chart_label(0.5, buf, sizeof buf);
	assert_string_equal(buf, "0.5");
	chart_label(-0.0, buf, sizeof buf);
	assert_string_equal(buf, "0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fit_linear_spans_the_values),
		cmocka_unit_test(test_fit_log_takes_the_positive_values),
		cmocka_unit_test(test_flat_and_single_points_sit_in_the_middle),
		cmocka_unit_test(test_braille_bits_follow_the_unicode_layout),
		cmocka_unit_test(test_segments_pack_dots_into_cells),
		cmocka_unit_test(test_a_nan_breaks_the_line_and_few_points_show),
		cmocka_unit_test(test_ascii_cells_use_glyphs),
		cmocka_unit_test(test_labels_are_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
