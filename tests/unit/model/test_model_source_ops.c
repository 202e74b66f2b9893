/*
 * test_model_source_ops.c - from a source line to the ops created there:
 * any frame of an op's stack counts, each op once per line, other files
 * and frames without a source do not count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/helpers/fake_model.h"

/* main.py: line 2 calls f() at line 5 (twice in one stack for c) */
static struct fake *
script(void)
{
	struct fake *f = fake_new();

	fake_source(f, 1, "h", "/src/main.py", (const char *[]){"import x", "y = f()", "", "def f():",
		    "  return g()", NULL});
	fake_source(f, 2, "h", "/src/other.py", (const char *[]){"pass", NULL});
	fake_frame(f, "top", "h", "/src/main.py", 2, "<module>", 1);
	fake_frame(f, "in_f", "h", "/src/main.py", 5, "f", 1);
	fake_frame(f, "other", "h", "/src/other.py", 1, "h", 2);
	fake_graph(f, "g", "main", NULL);
	fake_op(f, "g", "a", "Const", NULL, (const char *[]){"top", "in_f", NULL});
	fake_op(f, "g", "b", "Exp", (const char *[]){"a:0", NULL}, (const char *[]){"top", NULL});
	fake_op(f, "g", "c", "Log", NULL, (const char *[]){"in_f", "other", "in_f", NULL});
	fake_op(f, "g", "d", "NoOp", NULL, (const char *[]){"other", NULL});
	return f;
}

static void
test_source_ops_of_a_line(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	int64_t main_py = model_source_find(m, "main.py", NULL);
	uint32_t *ops;
	struct model_op o;
	size_t n;

	(void)state;
	assert_true(main_py >= 0);
	n = model_source_ops(m, (uint32_t)main_py, 5, &ops);
	assert_int_equal(n, 2);                 /* a and c; c once though twice in its stack */
	assert_true(model_op_get(m, ops[0], &o));
	assert_string_equal(o.name, "a");
	assert_true(model_op_get(m, ops[1], &o));
	assert_string_equal(o.name, "c");
	free(ops);
	n = model_source_ops(m, (uint32_t)main_py, 3, &ops);
	assert_int_equal(n, 0);
	assert_null(ops);
	model_close(m);
	fake_free(f);
}

static void
test_source_op_counts_per_line(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	uint32_t *c;
	size_t n;

	(void)state;
	n = model_source_op_counts(m, (uint32_t)model_source_find(m, "main.py", NULL), &c);
	assert_int_equal(n, 6);                 /* up to line 5 */
	assert_int_equal(c[2], 2);              /* a, b */
	assert_int_equal(c[5], 2);              /* a, c */
	assert_int_equal(c[1] + c[3] + c[4], 0);
	free(c);
	n = model_source_op_counts(m, (uint32_t)model_source_find(m, "other.py", NULL), &c);
	assert_int_equal(n, 2);
	assert_int_equal(c[1], 2);              /* c, d */
	free(c);
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source_ops_of_a_line),
		cmocka_unit_test(test_source_op_counts_per_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
