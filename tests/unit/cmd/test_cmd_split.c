/*
 * test_cmd_split.c - cmd_split: words as a POSIX shell splits them
 * (quotes and backslashes, no expansion).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/cmd.h"

/* Splits line and checks the words against want (NULL-terminated). */
static void
expect_words(const char *line, const char *const *want)
{
	char **argv;
	char err[128];
	int argc, i, n = 0;

	while (want[n])
		n++;
	argc = cmd_split(line, &argv, err, sizeof err);
	assert_int_equal(argc, n);
	for (i = 0; i < n; i++)
		assert_string_equal(argv[i], want[i]);
	assert_null(argv[argc]);
	cmd_split_free(argv, argc);
}

static void
expect_error(const char *line, const char *msg)
{
	char **argv = (char **)1;
	char err[128] = "";

	assert_int_equal(cmd_split(line, &argv, err, sizeof err), -1);
	assert_null(argv);
	assert_non_null(strstr(err, msg));
}

static void
test_split_plain_words_on_blanks(void **state)
{
	(void)state;
	expect_words("  traces  --op\tdense 0:10 ", (const char *const[]){
		"traces", "--op", "dense", "0:10", NULL });
}

static void
test_split_empty_line_has_no_words(void **state)
{
	(void)state;
	expect_words("", (const char *const[]){ NULL });
	expect_words("   \t ", (const char *const[]){ NULL });
}

static void
test_split_single_quotes_are_literal(void **state)
{
	(void)state;
	expect_words("op 'a b\\c \"d\"'", (const char *const[]){ "op", "a b\\c \"d\"", NULL });
}

static void
test_split_double_quotes_escape_only_specials(void **state)
{
	(void)state;
	expect_words("x \"a \\\"b\\\" \\\\ \\n $\"", (const char *const[]){
		"x", "a \"b\" \\ \\n $", NULL });
}

static void
test_split_backslash_escapes_blank_outside_quotes(void **state)
{
	(void)state;
	expect_words("source my\\ file.py 3", (const char *const[]){
		"source", "my file.py", "3", NULL });
}

static void
test_split_adjacent_quoted_parts_join(void **state)
{
	(void)state;
	expect_words("a'b'\"c\"d", (const char *const[]){ "abcd", NULL });
}

static void
test_split_empty_quotes_make_empty_word(void **state)
{
	(void)state;
	expect_words("filter '' \"\"", (const char *const[]){ "filter", "", "", NULL });
}

static void
test_split_numpy_slice_in_quotes_stays_one_word(void **state)
{
	(void)state;
	expect_words("trace 5 --slice \"[0:10, :]\"", (const char *const[]){
		"trace", "5", "--slice", "[0:10, :]", NULL });
}

static void
test_split_unterminated_single_quote_fails(void **state)
{
	(void)state;
	expect_error("op 'abc", "unterminated quote");
}

static void
test_split_unterminated_double_quote_fails(void **state)
{
	(void)state;
	expect_error("op \"abc\\\"", "unterminated quote");
}

static void
test_split_trailing_backslash_fails(void **state)
{
	(void)state;
	expect_error("op abc\\", "trailing backslash");
}

static void
test_split_free_accepts_null(void **state)
{
	(void)state;
	cmd_split_free(NULL, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_plain_words_on_blanks),
		cmocka_unit_test(test_split_empty_line_has_no_words),
		cmocka_unit_test(test_split_single_quotes_are_literal),
		cmocka_unit_test(test_split_double_quotes_escape_only_specials),
		cmocka_unit_test(test_split_backslash_escapes_blank_outside_quotes),
		cmocka_unit_test(test_split_adjacent_quoted_parts_join),
		cmocka_unit_test(test_split_empty_quotes_make_empty_word),
		cmocka_unit_test(test_split_numpy_slice_in_quotes_stays_one_word),
		cmocka_unit_test(test_split_unterminated_single_quote_fails),
		cmocka_unit_test(test_split_unterminated_double_quote_fails),
		cmocka_unit_test(test_split_trailing_backslash_fails),
		cmocka_unit_test(test_split_free_accepts_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
