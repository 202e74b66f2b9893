/*
 * test_layout.c - pane geometry for terminal sizes: inside the screen, no
 * overlaps, status and prompt rows reserved, the right panes shown.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tui/layout.h"

static bool
overlap(struct rect a, struct rect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static bool
inside(struct rect r, int cols, int rows)
{
	return r.x >= 0 && r.y >= 0 && r.w > 0 && r.h > 0 && r.x + r.w <= cols && r.y + r.h <= rows;
}

/* Every shown pane and separator lies in the body, none overlap, and the
 * last two rows are the status bar and prompt. */
static void
check_sane(int cols, int rows, enum pane_id vis)
{
	struct layout l;
	struct rect all[PANE_COUNT + 4];
	int n = 0;

	layout_compute(cols, rows, vis, &l);
	assert_int_equal(l.status.y, rows - 2);
	assert_int_equal(l.prompt.y, rows - 1);
	assert_int_equal(l.status.w, cols);
	for (int i = 0; i < PANE_COUNT; i++) {
		if (!l.shown[i])
			continue;
		assert_true(inside(l.pane[i], cols, rows - 2));
		assert_true(l.pane[i].h >= 2);    /* title + at least one row */
		all[n++] = l.pane[i];
	}
	for (int i = 0; i < l.nsep; i++) {
		assert_true(inside(l.sep[i], cols, rows - 2));
		all[n++] = l.sep[i];
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (overlap(all[i], all[j]))
				fail_msg("%dx%d: rects %d and %d overlap", cols, rows, i, j);
	assert_true(l.shown[vis] || l.mode == LAYOUT_TOO_SMALL);
}

static int
count_shown(const struct layout *l)
{
	int n = 0;
	for (int i = 0; i < PANE_COUNT; i++)
		n += l->shown[i];
	return n;
}

static void
test_full_size_shows_six_panes_like_debugger_v2(void **state)
{
	struct layout l;

	(void)state;
	layout_compute(160, 45, PANE_ALERTS, &l);
	assert_int_equal(l.mode, LAYOUT_FULL);
	assert_int_equal(count_shown(&l), 6);
	/* top row: alerts | traces, left to right */
	assert_int_equal(l.pane[PANE_ALERTS].y, 0);
	assert_int_equal(l.pane[PANE_TRACES].y, 0);
	assert_true(l.pane[PANE_ALERTS].x < l.pane[PANE_TRACES].x);
	/* issue 24 item 1: the middle row is timeline | graph (the graph
	 * rarely needs the whole width), source | stack at the bottom */
	assert_true(l.pane[PANE_GRAPH].y > 0);
	assert_int_equal(l.pane[PANE_TIMELINE].y, l.pane[PANE_GRAPH].y);
	assert_true(l.pane[PANE_TIMELINE].x < l.pane[PANE_GRAPH].x);
	assert_true(l.pane[PANE_GRAPH].w >= 80);
	assert_int_equal(l.pane[PANE_GRAPH].x + l.pane[PANE_GRAPH].w, 160);
	assert_true(l.pane[PANE_SOURCE].y > l.pane[PANE_GRAPH].y);
	assert_int_equal(l.pane[PANE_SOURCE].y, l.pane[PANE_STACK].y);
	assert_true(l.pane[PANE_SOURCE].x < l.pane[PANE_STACK].x);
	/* the body is used to its last row */
	assert_int_equal(l.pane[PANE_SOURCE].y + l.pane[PANE_SOURCE].h, 43);
	assert_int_equal(l.pane[PANE_TRACES].x + l.pane[PANE_TRACES].w, 160);
}

/* Issue 24 item 1: the Alerts pane's lead lines ("Origin: Log:0 at row 88,
 * step 74: log of a zero in probs:0", 58 columns) are not cut at any size
 * from 100x30 up, and the trace table keeps room for its columns. */
static void
test_alerts_gets_its_lead_lines_width_from_100x30_up(void **state)
{
	static const int sizes[][2] = {
		{ 100, 30 }, { 110, 35 }, { 120, 40 }, { 129, 40 }, { 130, 40 }, { 140, 40 },
		{ 159, 44 }, { 160, 45 }, { 200, 60 }, { 300, 100 },
	};
	struct layout l;

	(void)state;
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		layout_compute(sizes[s][0], sizes[s][1], PANE_ALERTS, &l);
		assert_true(l.shown[PANE_ALERTS] && l.shown[PANE_TRACES] && l.shown[PANE_GRAPH]);
		if (l.pane[PANE_ALERTS].w < LAYOUT_LEAD_COLS || l.pane[PANE_ALERTS].w < 60)
			fail_msg("%dx%d: alerts %d wide", sizes[s][0], sizes[s][1], l.pane[PANE_ALERTS].w);
		if (l.pane[PANE_TRACES].w < 64)
			fail_msg("%dx%d: traces %d wide", sizes[s][0], sizes[s][1], l.pane[PANE_TRACES].w);
		if (l.pane[PANE_GRAPH].h < 4)
			fail_msg("%dx%d: graph %d high", sizes[s][0], sizes[s][1], l.pane[PANE_GRAPH].h);
	}
}

static void
test_every_size_and_focus_is_sane(void **state)
{
	static const int sizes[][2] = {
		{ 160, 45 }, { 200, 60 }, { 300, 100 }, { 159, 45 }, { 160, 44 }, { 120, 40 },
		{ 119, 30 }, { 100, 30 }, { 129, 30 }, { 130, 30 }, { 80, 24 }, { 60, 20 }, { 59, 20 }, { 40, 12 }, { 20, 6 },
	};

	(void)state;
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (int p = 0; p < PANE_COUNT; p++)
			check_sane(sizes[s][0], sizes[s][1], p);
}

static void
test_80x24_shows_a_page_of_two_with_the_focused_pane(void **state)
{
	struct layout l;

	(void)state;
	layout_compute(80, 24, PANE_TRACES, &l);
	assert_int_equal(l.mode, LAYOUT_TWO);
	assert_int_equal(count_shown(&l), 2);
	assert_true(l.shown[PANE_ALERTS] && l.shown[PANE_TRACES]);
	layout_compute(80, 24, PANE_STACK, &l);
	assert_true(l.shown[PANE_SOURCE] && l.shown[PANE_STACK]);
	/* narrow: stacked, full width */
	assert_int_equal(l.pane[PANE_SOURCE].w, 80);
	assert_int_equal(l.pane[PANE_STACK].w, 80);
}

static void
test_wide_medium_terminal_puts_a_page_side_by_side(void **state)
{
	struct layout l;

	(void)state;
	layout_compute(140, 26, PANE_GRAPH, &l);
	assert_int_equal(l.mode, LAYOUT_TWO);
	assert_int_equal(l.pane[PANE_TIMELINE].y, l.pane[PANE_GRAPH].y);
	assert_int_equal(l.nsep, 1);
}

static void
test_40x12_shows_only_the_focused_pane(void **state)
{
	struct layout l;

	(void)state;
	layout_compute(40, 12, PANE_GRAPH, &l);
	assert_int_equal(l.mode, LAYOUT_ONE);
	assert_int_equal(count_shown(&l), 1);
	assert_true(l.shown[PANE_GRAPH]);
	assert_int_equal(l.pane[PANE_GRAPH].h, 10);
}

static void
test_below_minimum_is_too_small_but_keeps_status(void **state)
{
	struct layout l;

	(void)state;
	layout_compute(19, 10, PANE_ALERTS, &l);
	assert_int_equal(l.mode, LAYOUT_TOO_SMALL);
	assert_int_equal(count_shown(&l), 0);
	assert_int_equal(l.status.y, 8);
	layout_compute(80, 5, PANE_ALERTS, &l);
	assert_int_equal(l.mode, LAYOUT_TOO_SMALL);
	layout_compute(0, 0, PANE_ALERTS, &l);
	assert_int_equal(l.mode, LAYOUT_TOO_SMALL);
	assert_int_equal(l.status.w, 0);
}

static void
test_cycle_visits_every_page_then_wraps(void **state)
{
	enum pane_id p = PANE_ALERTS;
	bool seen[LAYOUT_PAGES] = { false };

	(void)state;
	for (int i = 0; i < LAYOUT_PAGES; i++) {
		seen[layout_page_of(p)] = true;
		p = layout_cycle(LAYOUT_TWO, p, 1);
	}
	for (int i = 0; i < LAYOUT_PAGES; i++)
		assert_true(seen[i]);
	assert_int_equal(p, PANE_ALERTS);
	/* one pane at a time: table order, the last one wraps to the first */
	assert_int_equal(layout_cycle(LAYOUT_ONE, PANE_COUNT - 1, 1), PANE_ALERTS);
	assert_int_equal(layout_cycle(LAYOUT_ONE, PANE_ALERTS, -1), PANE_COUNT - 1);
}

/* Issue 12 (friction): at 120x40 the story's panes all show, so Enter on
 * an alert shows the op, its source line and its stack at once.  Issue 24
 * item 1: below LAYOUT_STORY_SIDE_COLS Alerts sits above the trace table,
 * full width; from there beside it. */
static void
test_120x40_shows_the_story_alerts_traces_graph_source_stack(void **state)
{
	struct layout l;

	(void)state;
	layout_compute(120, 40, PANE_ALERTS, &l);
	assert_int_equal(l.mode, LAYOUT_STORY);
	assert_int_equal(count_shown(&l), 5);
	assert_true(l.shown[PANE_ALERTS] && l.shown[PANE_TRACES] && l.shown[PANE_GRAPH] &&
		    l.shown[PANE_SOURCE] && l.shown[PANE_STACK]);
	assert_false(l.shown[PANE_TIMELINE]);
	/* Alerts above traces, the graph below, source | stack at the bottom */
	assert_int_equal(l.pane[PANE_ALERTS].w, 120);
	assert_int_equal(l.pane[PANE_TRACES].w, 120);
	assert_int_equal(l.pane[PANE_ALERTS].y + l.pane[PANE_ALERTS].h, l.pane[PANE_TRACES].y);
	assert_true(l.pane[PANE_GRAPH].y > l.pane[PANE_TRACES].y);
	assert_int_equal(l.pane[PANE_SOURCE].y, l.pane[PANE_STACK].y);
	assert_true(l.pane[PANE_SOURCE].y > l.pane[PANE_GRAPH].y);
	assert_int_equal(l.pane[PANE_SOURCE].y + l.pane[PANE_SOURCE].h, 38);
	/* wider: Alerts | traces on top */
	layout_compute(140, 40, PANE_ALERTS, &l);
	assert_int_equal(l.mode, LAYOUT_STORY);
	assert_int_equal(l.pane[PANE_ALERTS].y, l.pane[PANE_TRACES].y);
	assert_true(l.pane[PANE_ALERTS].x < l.pane[PANE_TRACES].x);
	/* the timeline takes the traces' place when focused, and keeps it */
	layout_compute(120, 40, PANE_TIMELINE, &l);
	assert_true(l.shown[PANE_TIMELINE] && !l.shown[PANE_TRACES]);
	struct layout_opts o = { PANE_TIMELINE, false };
	layout_compute_opts(120, 40, PANE_GRAPH, &o, &l);
	assert_true(l.shown[PANE_TIMELINE] && !l.shown[PANE_TRACES]);
	assert_int_equal(layout_cycle(LAYOUT_STORY, PANE_TRACES, 1), PANE_TIMELINE);
	assert_int_equal(layout_cycle(LAYOUT_STORY, PANE_TIMELINE, 1), PANE_TRACES);
}

/* Issue 12 (friction): a dump with no source and no stack gives the empty
 * panes' rows to the graph, unless the user focuses one of them. */
static void
test_no_source_gives_the_bottom_to_the_graph(void **state)
{
	struct layout l;
	struct layout_opts o = { PANE_TRACES, true };
	static const int sizes[][2] = { { 160, 45 }, { 120, 40 } };

	(void)state;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		layout_compute_opts(sizes[i][0], sizes[i][1], PANE_TRACES, &o, &l);
		assert_false(l.shown[PANE_SOURCE]);
		assert_false(l.shown[PANE_STACK]);
		assert_int_equal(l.pane[PANE_GRAPH].y + l.pane[PANE_GRAPH].h, sizes[i][1] - 2);
		layout_compute_opts(sizes[i][0], sizes[i][1], PANE_STACK, &o, &l);
		assert_true(l.shown[PANE_SOURCE] && l.shown[PANE_STACK]);
	}
	for (int p = 0; p < PANE_COUNT; p++) {
		layout_compute_opts(120, 40, (enum pane_id)p, &o, &l);
		assert_true(l.shown[p]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_size_shows_six_panes_like_debugger_v2),
		cmocka_unit_test(test_alerts_gets_its_lead_lines_width_from_100x30_up),
		cmocka_unit_test(test_every_size_and_focus_is_sane),
		cmocka_unit_test(test_80x24_shows_a_page_of_two_with_the_focused_pane),
		cmocka_unit_test(test_wide_medium_terminal_puts_a_page_side_by_side),
		cmocka_unit_test(test_40x12_shows_only_the_focused_pane),
		cmocka_unit_test(test_below_minimum_is_too_small_but_keeps_status),
		cmocka_unit_test(test_cycle_visits_every_page_then_wraps),
		cmocka_unit_test(test_120x40_shows_the_story_alerts_traces_graph_source_stack),
		cmocka_unit_test(test_no_source_gives_the_bottom_to_the_graph),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
