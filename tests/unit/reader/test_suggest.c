/*
 * test_suggest.c - the nearest names to a miss (reader/base/suggest.h):
 * the order of the rules, the limit on edits, the count of the rest.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/suggest.h"

static char *
suggest(const char *word, const char *const *cands)
{
	struct td_suggest s;
	struct strbuf sb = { 0 };

	td_suggest_init(&s, word);
	for (; *cands; cands++)
		td_suggest_add(&s, *cands);
	td_suggest_text(&s, &sb);
	return sb.buf ? strbuf_take(&sb) : xstrdup("");
}

static void
check(const char *word, const char *const *cands, const char *want)
{
	char *got = suggest(word, cands);

	assert_string_equal(got, want);
	free(got);
}

static void
test_suggest_path_component_before_edits(void **state)
{
	static const char *const ops[] = { "MatMax", "dense/MatMul", "loss/Log", "dense_1/MatMul",
					   "MatMul_grad/x", NULL };
	(void)state;
	check("MatMul", ops, "; did you mean dense/MatMul, dense_1/MatMul, MatMul_grad/x, MatMax?");
}

static void
test_suggest_case_first(void **state)
{
	static const char *const c[] = { "relu_1", "Relu", NULL };
	(void)state;
	check("relu", c, "; did you mean Relu, relu_1?");
}

static void
test_suggest_typo_within_a_third(void **state)
{
	static const char *const f[] = { "abs_mean", "mean", "max", "elements", NULL };
	(void)state;
	check("meen", f, "; did you mean mean?");
	check("abs_maen", f, "; did you mean abs_mean?");
	check("xyzzy", f, "");
}

static void
test_suggest_exact_is_no_suggestion(void **state)
{
	static const char *const c[] = { "info", NULL };
	(void)state;
	check("info", c, "");
}

static void
test_suggest_counts_the_rest(void **state)
{
	static const char *const c[] = { "a/Log", "b/Log", "c/Log", "d/Log", "e/Log", "f/Log", NULL };
	(void)state;
	check("Log", c, "; did you mean a/Log, b/Log, c/Log, d/Log (or 2 more)?");
}

static void
test_suggest_repeats_offered_once(void **state)
{
	static const char *const c[] = { "g1/MatMul", "g1/MatMul", NULL };
	(void)state;
	check("MatMul", c, "; did you mean g1/MatMul?");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suggest_path_component_before_edits),
		cmocka_unit_test(test_suggest_case_first),
		cmocka_unit_test(test_suggest_typo_within_a_third),
		cmocka_unit_test(test_suggest_exact_is_no_suggestion),
		cmocka_unit_test(test_suggest_counts_the_rest),
		cmocka_unit_test(test_suggest_repeats_offered_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
