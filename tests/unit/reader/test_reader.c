/*
 * test_reader.c - the helpers of the reader interface (reader.h): the
 * registry listing, alert and problem names, and the framework-frame rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "reader/reader.h"
#include "../helpers/record_sink.h"

static void
test_reader_at_lists_every_reader_in_probe_order(void **state)
{
	size_t i;

	(void)state;
	assert_ptr_equal(reader_at(0), &tfdbg2_reader_ops);
	assert_ptr_equal(reader_at(1), &tfdbg1_reader_ops);
	assert_ptr_equal(reader_at(2), &mindspore_reader_ops);
	assert_ptr_equal(reader_at(3), &msprobe_reader_ops);
	assert_null(reader_at(4));
	for (i = 0; reader_at(i); i++) {
		assert_ptr_equal(reader_by_name(reader_at(i)->name), reader_at(i));
		assert_non_null(reader_at(i)->description);
		assert_true(strlen(reader_at(i)->description) > 10);
	}
}

static void
test_reader_alert_names_from_the_table(void **state)
{
	(void)state;
	assert_string_equal(reader_alert_name(READER_ALERT_OVERFLOW), "Overflow");
	assert_non_null(strstr(reader_alert_text(READER_ALERT_OVERFLOW), "overflow"));
	assert_string_equal(reader_alert_name(READER_ALERT_COUNT), "Alert");
	assert_string_equal(reader_problem_name(PROBLEM_TORN_TAIL), "torn-tail");
}

static void
test_reader_framework_frames(void **state)
{
	(void)state;
	/* a framework's examples are the user's kind of code */
	assert_false(reader_path_is_framework("/usr/local/lib/python3.8/dist-packages/tensorflow/"
					      "python/debug/examples/v2/debug_mnist_v2.py"));
	assert_true(reader_path_is_framework("/venv/lib/python3.9/site-packages/keras/layers/core.py"));
	assert_true(reader_path_is_framework("/usr/lib/python3/dist-packages/tensorflow/ops/math.py"));
	assert_true(reader_path_is_framework("/venv/lib/site-packages/mindspore/nn/cell.py"));
	assert_true(reader_path_is_framework("/venv/lib/site-packages/torch/nn/modules/module.py"));
	assert_true(reader_path_is_framework("/venv/lib/site-packages/torch_npu/utils/_step.py"));
	/* another package, or the framework's name outside a package directory */
	assert_false(reader_path_is_framework("/venv/lib/python3.9/site-packages/numpy/core.py"));
	assert_false(reader_path_is_framework("/home/u/tensorflow/train.py"));
	assert_false(reader_path_is_framework(""));
	assert_false(reader_path_is_framework(NULL));
}

/* The TUI reads rows while the index pass runs: a row the sink was told of
 * must decode, and advance() must reach it, at once (tfdbg2 once moved its
 * framed-up-to mark only after announcing the record: advance() to the
 * newest row said "past the end" and the model marked that row corrupt). */
static void
test_reader_announced_rows_are_readable_at_once(void **state)
{
	static const struct { const struct reader_ops *ops; const char *dir; } dumps[] = {
		{ &tfdbg2_reader_ops, "tests/fixtures/tfdbg2/mnist_nan" },
		{ &tfdbg2_reader_ops, "tests/fixtures/tfdbg2/torn" },
		{ &tfdbg1_reader_ops, "tests/fixtures/tfdbg1/mlp_nan" },
		{ &mindspore_reader_ops, "tests/fixtures/mindspore/sync_lenet" },
		{ &mindspore_reader_ops, "tests/fixtures/mindspore/async_small" },
		{ &msprobe_reader_ops, "tests/fixtures/msprobe/pt_stats_2rank" },
	};
	uint64_t checked, failed;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof dumps / sizeof dumps[0]; i++) {
		record_index_reachable(dumps[i].ops, dumps[i].dir, &checked, &failed);
		print_message("%s: %llu rows, %llu unreadable\n", dumps[i].dir,
			      (unsigned long long)checked, (unsigned long long)failed);
		assert_true(checked > 10);
		assert_int_equal(failed, 0);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader_at_lists_every_reader_in_probe_order),
		cmocka_unit_test(test_reader_alert_names_from_the_table),
		cmocka_unit_test(test_reader_framework_frames),
		cmocka_unit_test(test_reader_announced_rows_are_readable_at_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
