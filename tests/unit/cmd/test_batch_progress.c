/*
 * test_batch_progress.c - the batch progress line's text (batch_progress.c):
 * bytes done of the total, the row rate, the time left from the byte rate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "tui/cmd/batch.h"

static void
test_progress_line_half_way(void **state)
{
	struct model_progress p = { 0 };
	struct strbuf sb = { 0 };

	(void)state;
	p.bytes_done = 100u << 20;
	p.bytes_total = 200u << 20;
	p.traces = 3000000;
	p.executions = 200000;
	batch_progress_line(&sb, &p, 2.0);
	assert_string_equal(sb.buf, "tdbg: indexing 50%: 100 MB of 200 MB, 1.6M rows/s, about 2 s left");
	strbuf_done(&sb);
}

static void
test_progress_line_small_and_unknown_total(void **state)
{
	struct model_progress p = { 0 };
	struct strbuf sb = { 0 };

	(void)state;
	p.traces = 500;
	batch_progress_line(&sb, &p, 0.5);
	assert_string_equal(sb.buf, "tdbg: indexing: 500 rows, 1000 rows/s");
	strbuf_reset(&sb);
	p.bytes_done = 900;
	p.bytes_total = 4096;
	batch_progress_line(&sb, &p, 0.5);
	assert_string_equal(sb.buf, "tdbg: indexing 21%: 900 bytes of 4 KB, 1000 rows/s, about 2 s left");
	strbuf_done(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress_line_half_way),
		cmocka_unit_test(test_progress_line_small_and_unknown_total),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
