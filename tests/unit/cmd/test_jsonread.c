/*
 * test_jsonread.c - the JSON reader the merge reads node lines with
 * (tui/cmd/jsonread.c): values, spans, escapes, and bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/jsonread.h"

static struct jsonread_value *
parse_ok(const char *text)
{
	struct jsonread_value *v = NULL;
	char err[128] = "";

	assert_int_equal(jsonread_parse(text, strlen(text), &v, err, sizeof err), 0);
	assert_non_null(v);
	return v;
}

static void
expect_fail(const char *text, const char *why)
{
	struct jsonread_value *v = (struct jsonread_value *)1;
	char err[128] = "";

	assert_int_equal(jsonread_parse(text, strlen(text), &v, err, sizeof err), -1);
	assert_null(v);
	assert_non_null(strstr(err, why));
}

static void
test_jsonread_object_members_and_types(void **state)
{
	struct jsonread_value *v = parse_ok(" {\"rank\": 3, \"node\": \"n1\", \"ok\": true,"
					    " \"bad\": false, \"err\": null, \"x\": -1.5e2} ");
	double d;

	(void)state;
	assert_int_equal(v->type, JSONREAD_OBJECT);
	assert_int_equal(v->nchild, 6);
	assert_true(jsonread_num(v, "rank", &d));
	assert_true(d == 3);
	assert_true(jsonread_num(v, "x", &d));
	assert_true(d == -150);
	assert_string_equal(jsonread_str(v, "node"), "n1");
	assert_int_equal(jsonread_get(v, "ok")->type, JSONREAD_TRUE);
	assert_int_equal(jsonread_get(v, "bad")->type, JSONREAD_FALSE);
	assert_int_equal(jsonread_get(v, "err")->type, JSONREAD_NULL);
	assert_null(jsonread_get(v, "missing"));
	assert_null(jsonread_str(v, "rank"));
	assert_false(jsonread_num(v, "node", &d));
	jsonread_free(v);
}

static void
test_jsonread_span_copies_a_member_verbatim(void **state)
{
	const char *text = "{\"a\": [1, {\"b\": \"c\"}], \"z\": 0}";
	struct jsonread_value *v = parse_ok(text);
	const struct jsonread_value *a = jsonread_get(v, "a");

	(void)state;
	assert_int_equal(a->type, JSONREAD_ARRAY);
	assert_int_equal(a->nchild, 2);
	assert_int_equal(a->end - a->start, strlen("[1, {\"b\": \"c\"}]"));
	assert_memory_equal(text + a->start, "[1, {\"b\": \"c\"}]", a->end - a->start);
	jsonread_free(v);
}

static void
test_jsonread_string_escapes_become_utf8(void **state)
{
	struct jsonread_value *v = parse_ok("[\"a\\n\\t\\\"\\\\\\/\", \"\\u00e9\\ud83d\\ude00\", \"\\udc00\"]");

	(void)state;
	assert_string_equal(v->child->str, "a\n\t\"\\/");
	assert_string_equal(v->child->next->str, "\xc3\xa9\xf0\x9f\x98\x80");
	assert_string_equal(v->child->next->next->str, "\xef\xbf\xbd");
	jsonread_free(v);
}

static void
test_jsonread_bad_input_names_the_column(void **state)
{
	char deep[200];

	(void)state;
	expect_fail("pdsh@login: n3: connection refused", "column 1");
	expect_fail("{\"a\" 1}", "expected ':'");
	expect_fail("{\"a\": 1", "expected ',' or '}'");
	expect_fail("[1, 2", "expected ',' or ']'");
	expect_fail("\"abc", "unterminated string");
	expect_fail("\"a\tb\"", "control character");
	expect_fail("{\"a\": 01}", "expected");
	expect_fail("{} x", "text after the value");
	expect_fail("", "expected a value");
	memset(deep, '[', sizeof deep - 1);
	deep[sizeof deep - 1] = '\0';
	expect_fail(deep, "nested too deeply");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsonread_object_members_and_types),
		cmocka_unit_test(test_jsonread_span_copies_a_member_verbatim),
		cmocka_unit_test(test_jsonread_string_escapes_become_utf8),
		cmocka_unit_test(test_jsonread_bad_input_names_the_column),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
