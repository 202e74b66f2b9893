/*
 * test_pane_diff.c - the pair view's summary block (pane_diff.c): every
 * value sits in its column, even beside a label wider than the label
 * column (issue 24 item 9: "value known to be uninitialised" ran into the
 * A column).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "tui/tui_internal.h"

static void
test_pair_view_long_label_keeps_the_columns(void **state)
{
	struct td_summary a = { 0 }, b = { 0 };
	struct strbuf sb = { 0 };
	char *line, *save = NULL;
	bool saw_label = false;

	(void)state;
	a.known = b.known = SUM_DTYPE | SUM_ELEMENTS | SUM_UNINITIALIZED;
	a.dtype = b.dtype = DTYPE_FLOAT32;
	a.elements = b.elements = 4;
	pane_diff_side_summaries(&sb, &a, &b);
	for (line = strtok_r(sb.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strcmp(line, "value known to be uninitialised") == 0) {
			saw_label = true;       /* alone on its line */
			continue;
		}
		/* the A column starts at column 15: the label column and a space */
		assert_true(strlen(line) > 15);
		assert_int_equal(line[14], ' ');
		assert_true(line[15] != ' ');
	}
	assert_true(saw_label);
	strbuf_done(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pair_view_long_label_keeps_the_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
