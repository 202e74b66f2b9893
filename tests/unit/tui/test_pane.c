/*
 * test_pane.c - the generic pane engine without a terminal: cursor moves,
 * scrolling, clamping, search with wrap and limit, and title path tails.
 * A fake pane over N numbered rows stands in for the model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tui/pane.h"

static uint64_t nrows;
static uint64_t selected;
static int selects;

static uint64_t
fake_count(struct pane *p)
{
	(void)p;
	return nrows;
}

static void
fake_draw(struct pane *p, uint64_t row, int y)
{
	(void)p, (void)row, (void)y;
}

/* row r's text is "row<r>" */
static bool
fake_grep(struct pane *p, uint64_t row, const pcre2_code *re)
{
	char text[32];

	(void)p;
	snprintf(text, sizeof text, "row%llu", (unsigned long long)row);
	return pane_match(re, text);
}

static void
fake_select(struct pane *p, uint64_t row)
{
	(void)p;
	selected = row;
	selects++;
}

static const struct pane_ops fake_ops = {
	.name = "fake", .title = "Fake", .row_count = fake_count, .draw_row = fake_draw,
	.grep = fake_grep, .select = fake_select,
};

/* A pane of height h (one title line, so h - 1 data rows). */
static void
make(struct pane *p, uint64_t n, int h)
{
	pane_init(p, &fake_ops, NULL, 0);
	p->r.h = h;
	p->r.w = 40;
	nrows = n;
	selects = 0;
	selected = UINT64_MAX;
}

static pcre2_code *
re(const char *s)
{
	int err;
	PCRE2_SIZE off;
	return pcre2_compile((PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
}

static void
test_move_down_scrolls_when_cursor_leaves_the_window(void **state)
{
	struct pane p;

	(void)state;
	make(&p, 100, 11);              /* 10 data rows */
	for (int i = 0; i < 12; i++)
		pane_request(&p, ACT_MOVE_DOWN);
	assert_int_equal(p.cursor, 12);
	assert_int_equal(p.top, 3);
	assert_int_equal(selected, 12);
	assert_int_equal(selects, 12);
}

static void
test_move_up_at_top_stays_and_does_not_reselect(void **state)
{
	struct pane p;

	(void)state;
	make(&p, 5, 11);
	pane_request(&p, ACT_MOVE_UP);
	assert_int_equal(p.cursor, 0);
	assert_int_equal(selects, 0);
}

static void
test_last_and_first_rows_of_millions(void **state)
{
	struct pane p;

	(void)state;
	make(&p, 5000000, 21);
	pane_request(&p, ACT_MOVE_LAST);
	assert_int_equal(p.cursor, 4999999);
	assert_int_equal(p.top, 5000000 - 20);
	pane_request(&p, ACT_MOVE_FIRST);
	assert_int_equal(p.cursor, 0);
	assert_int_equal(p.top, 0);
}

static void
test_page_down_moves_by_the_window_height(void **state)
{
	struct pane p;

	(void)state;
	make(&p, 100, 11);
	pane_request(&p, ACT_PAGE_DOWN);
	assert_int_equal(p.cursor, 10);
	assert_int_equal(p.top, 10);
	pane_request(&p, ACT_PAGE_UP);
	assert_int_equal(p.cursor, 0);
	assert_int_equal(p.top, 0);
}

static void
test_goto_centre_puts_row_mid_window(void **state)
{
	struct pane p;

	(void)state;
	make(&p, 1000, 11);
	pane_goto(&p, 500, true, false);
	assert_int_equal(p.cursor, 500);
	assert_int_equal(p.top, 495);
	pane_goto(&p, 5000, false, false);  /* past the end: the last row */
	assert_int_equal(p.cursor, 999);
}

static void
test_clamp_after_rows_shrink(void **state)
{
	struct pane p;

	(void)state;
	make(&p, 100, 11);
	pane_goto(&p, 90, false, false);
	nrows = 20;
	pane_clamp(&p);
	assert_int_equal(p.cursor, 19);
	assert_true(p.top <= 19 && p.top + 10 > 19);
	nrows = 0;
	pane_clamp(&p);
	assert_int_equal(p.cursor, 0);
	assert_int_equal(p.top, 0);
}

static void
test_search_finds_next_and_wraps(void **state)
{
	struct pane p;
	pcre2_code *code = re("^row(3|7)$");
	bool stopped;
	uint64_t scanned;

	(void)state;
	make(&p, 10, 11);
	assert_int_equal(pane_search(&p, code, 1, 10, &stopped, &scanned), 3);
	pane_goto(&p, 7, false, false);
	assert_int_equal(pane_search(&p, code, 1, 10, &stopped, &scanned), 3);   /* wrapped */
	assert_int_equal(pane_search(&p, code, -1, 10, &stopped, &scanned), 3);
	assert_false(stopped);
	pcre2_code_free(code);
}

static void
test_search_respects_limit_and_reports_not_found(void **state)
{
	struct pane p;
	pcre2_code *code = re("^row9$");
	bool stopped;
	uint64_t scanned;

	(void)state;
	make(&p, 10, 11);
	assert_int_equal(pane_search(&p, code, 1, 5, &stopped, &scanned), -1);
	assert_int_equal(scanned, 5);
	pcre2_code_free(code);
	code = re("nothing");
	assert_int_equal(pane_search(&p, code, 1, 100, &stopped, &scanned), -1);
	assert_int_equal(scanned, 10);              /* one round, capped at the rows */
	pcre2_code_free(code);
}

static void
test_no_cursor_pane_scrolls_top_line(void **state)
{
	static const struct pane_ops text_ops = {
		.name = "text", .title = "Text", .flags = PANE_NO_CURSOR,
		.row_count = fake_count, .draw_row = fake_draw,
	};
	struct pane p;

	(void)state;
	make(&p, 30, 11);
	p.ops = &text_ops;
	pane_request(&p, ACT_MOVE_LAST);
	assert_int_equal(p.top, 20);            /* the last page, not the last line */
	assert_int_equal(p.cursor, 20);
}

static void
test_tail_keeps_the_end_of_long_paths(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(pane_tail("/a/b/debug_mnist_v2.py", 15, buf, sizeof buf), "..._mnist_v2.py");
	assert_string_equal(pane_tail("short.py", 15, buf, sizeof buf), "short.py");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_move_down_scrolls_when_cursor_leaves_the_window),
		cmocka_unit_test(test_move_up_at_top_stays_and_does_not_reselect),
		cmocka_unit_test(test_last_and_first_rows_of_millions),
		cmocka_unit_test(test_page_down_moves_by_the_window_height),
		cmocka_unit_test(test_goto_centre_puts_row_mid_window),
		cmocka_unit_test(test_clamp_after_rows_shrink),
		cmocka_unit_test(test_search_finds_next_and_wraps),
		cmocka_unit_test(test_search_respects_limit_and_reports_not_found),
		cmocka_unit_test(test_no_cursor_pane_scrolls_top_line),
		cmocka_unit_test(test_tail_keeps_the_end_of_long_paths),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
