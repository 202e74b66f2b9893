/*
 * test_reader_report.c - the readers' one way of reporting problems and
 * progress (reader/reader_report.c): what reaches the sink, the NULL
 * sink and callback cases, and the progress step.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "reader/reader_report.h"

struct seen {
	int problems, progress;
	struct reader_problem last;
	char detail[64];
	uint64_t done, total;
};

static void
on_problem(void *ctx, const struct reader_problem *p)
{
	struct seen *s = ctx;

	s->problems++;
	s->last = *p;
	strncpy(s->detail, p->detail ? p->detail : "", sizeof s->detail - 1);
}

static void
on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct seen *s = ctx;

	s->progress++;
	s->done = done;
	s->total = total;
}

static void
test_report_problem_fills_every_field(void **state)
{
	struct seen s = {0};
	struct reader_sink sink = { .ctx = &s, .on_problem = on_problem };

	(void)state;
	reader_report_problem(&sink, PROBLEM_BAD_DATA_CRC, 3, "f", 120, 7, "execution", "crc");
	assert_int_equal(s.problems, 1);
	assert_int_equal(s.last.kind, PROBLEM_BAD_DATA_CRC);
	assert_int_equal(s.last.file, 3);
	assert_string_equal(s.last.path, "f");
	assert_int_equal(s.last.offset, 120);
	assert_int_equal(s.last.record, 7);
	assert_string_equal(s.last.what, "execution");
	assert_string_equal(s.detail, "crc");
}

static void
test_report_problemf_formats_detail(void **state)
{
	struct seen s = {0};
	struct reader_sink sink = { .ctx = &s, .on_problem = on_problem };

	(void)state;
	reader_report_problemf(&sink, PROBLEM_BAD_LENGTH, -1, NULL, 0, -1, "dump",
			       "length %d > %s", 12, "8 bytes left");
	assert_int_equal(s.problems, 1);
	assert_string_equal(s.detail, "length 12 > 8 bytes left");
	assert_int_equal(s.last.file, -1);
	assert_null(s.last.path);
}

static void
test_report_without_sink_or_callback_is_silent(void **state)
{
	struct seen s = {0};
	struct reader_sink sink = { .ctx = &s };
	struct reader_progress pr = { .done = 5, .total = 10 };

	(void)state;
	reader_report_problem(NULL, PROBLEM_TORN_TAIL, 0, "f", 0, 0, "x", "y");
	reader_report_problemf(&sink, PROBLEM_TORN_TAIL, 0, "f", 0, 0, "x", "%s", "y");
	reader_report_progress(NULL, &pr, true);
	reader_report_progress(&sink, &pr, true);
	assert_int_equal(s.problems, 0);
	assert_int_equal(s.progress, 0);
}

static void
test_report_progress_waits_for_a_step_unless_forced(void **state)
{
	struct seen s = {0};
	struct reader_sink sink = { .ctx = &s, .on_progress = on_progress };
	struct reader_progress pr = { .total = 100, .step = 10 };

	(void)state;
	pr.done = 9;
	reader_report_progress(&sink, &pr, false);
	assert_int_equal(s.progress, 0);
	pr.done = 10;
	reader_report_progress(&sink, &pr, false);
	assert_int_equal(s.progress, 1);
	assert_int_equal(s.done, 10);
	assert_int_equal(s.total, 100);
	pr.done = 12;
	reader_report_progress(&sink, &pr, false);
	assert_int_equal(s.progress, 1);
	reader_report_progress(&sink, &pr, true);
	assert_int_equal(s.progress, 2);
	assert_int_equal(s.done, 12);
}

static void
test_report_progress_total_never_below_done(void **state)
{
	struct seen s = {0};
	struct reader_sink sink = { .ctx = &s, .on_progress = on_progress };
	struct reader_progress pr = { .done = 150, .total = 100 };   /* a file grew */

	(void)state;
	reader_report_progress(&sink, &pr, false);   /* step 0: every call */
	assert_int_equal(s.progress, 1);
	assert_int_equal(s.done, 150);
	assert_int_equal(s.total, 150);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_problem_fills_every_field),
		cmocka_unit_test(test_report_problemf_formats_detail),
		cmocka_unit_test(test_report_without_sink_or_callback_is_silent),
		cmocka_unit_test(test_report_progress_waits_for_a_step_unless_forced),
		cmocka_unit_test(test_report_progress_total_never_below_done),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
