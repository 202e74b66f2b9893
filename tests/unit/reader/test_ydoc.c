/*
 * test_ydoc.c - small YAML files read into a tree (reader/parse/ydoc.h,
 * parse/FORMAT.md §10): the shapes mapping files take, and hostile files
 * (syntax errors, aliases, deep nesting, keys that are not values, size)
 * refused with the file and line named, never a crash.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/ydoc.h"
#include "tests/unit/helpers/files.h"

static struct ydoc *
parse_ok(const char *text)
{
	struct ydoc *d = NULL;
	char err[256] = "";

	assert_int_equal(ydoc_parse("t.yaml", text, strlen(text), &d, err, sizeof err), TD_OK);
	assert_non_null(d);
	return d;
}

/* The error of a text that must be refused. */
static void
parse_bad(const char *text, enum td_status want, const char *msg_has)
{
	struct ydoc *d = (struct ydoc *)1;
	char err[256] = "";

	assert_int_equal(ydoc_parse("t.yaml", text, strlen(text), &d, err, sizeof err), want);
	assert_null(d);
	if (!strstr(err, msg_has))
		fail_msg("error \"%s\" lacks \"%s\"", err, msg_has);
}

static void
test_ydoc_flat_mapping_keeps_order_and_lines(void **state)
{
	struct ydoc *d = parse_ok("# cells\nfc2.Dense: fc2.Linear\nconv1.Conv2d: conv3.Conv2d\n");
	const struct ydoc_node *r = ydoc_root(d);

	(void)state;
	assert_int_equal(r->kind, YDOC_MAP);
	assert_int_equal(r->n, 4);
	assert_string_equal(r->kid[0]->str, "fc2.Dense");
	assert_string_equal(r->kid[1]->str, "fc2.Linear");
	assert_int_equal(r->kid[2]->line, 3);
	assert_string_equal(ydoc_get(r, "conv1.Conv2d")->str, "conv3.Conv2d");
	assert_null(ydoc_get(r, "absent"));
	ydoc_free(d);
}

static void
test_ydoc_sequence_of_mappings_with_lists(void **state)
{
	struct ydoc *d = parse_ok("- ms_api: Functional.abs\n  pt_api: Torch.abs\n"
				  "  ms_args:\n  - 0\n  - 2\n- ms_api: Tensor.add\n");
	const struct ydoc_node *r = ydoc_root(d), *args;

	(void)state;
	assert_int_equal(r->kind, YDOC_SEQ);
	assert_int_equal(r->n, 2);
	args = ydoc_get(r->kid[0], "ms_args");
	assert_int_equal(args->kind, YDOC_SEQ);
	assert_int_equal(args->n, 2);
	assert_string_equal(args->kid[1]->str, "2");
	assert_string_equal(ydoc_get(r->kid[1], "ms_api")->str, "Tensor.add");
	ydoc_free(d);
}

static void
test_ydoc_empty_file_has_no_root(void **state)
{
	struct ydoc *d = parse_ok("");

	(void)state;
	assert_null(ydoc_root(d));
	ydoc_free(d);
	d = parse_ok("# only a comment\n");
	assert_null(ydoc_root(d));
	ydoc_free(d);
}

static void
test_ydoc_only_the_first_document_is_read(void **state)
{
	struct ydoc *d = parse_ok("a: b\n---\nc: d\n");

	(void)state;
	assert_int_equal(ydoc_root(d)->n, 2);
	assert_null(ydoc_get(ydoc_root(d), "c"));
	ydoc_free(d);
}

static void
test_ydoc_syntax_error_names_file_and_line(void **state)
{
	(void)state;
	parse_bad("a: b\nc: d\n  e: f\n", TD_ERR_ARGS, "t.yaml:3:");
	parse_bad("a: [1, 2\n", TD_ERR_ARGS, "t.yaml:");
	parse_bad("a: \"unterminated\n", TD_ERR_ARGS, "t.yaml:");
}

static void
test_ydoc_aliases_are_refused(void **state)
{
	(void)state;
	parse_bad("a: &x [1, 2]\nb: *x\n", TD_ERR_ARGS, "t.yaml:2: an alias");
	/* the "billion laughs" shape stops at its first alias */
	parse_bad("a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n", TD_ERR_ARGS, "alias");
}

static void
test_ydoc_nesting_is_bounded(void **state)
{
	char deep[YDOC_MAX_DEPTH * 2 + 8];
	size_t i;

	(void)state;
	for (i = 0; i < YDOC_MAX_DEPTH + 1; i++)
		deep[i] = '[';
	deep[i] = '\0';
	parse_bad(deep, TD_ERR_ARGS, "nested more than");
	for (i = 0; i < YDOC_MAX_DEPTH; i++)    /* at the limit, closed: fine */
		deep[YDOC_MAX_DEPTH + i] = ']';
	deep[2 * YDOC_MAX_DEPTH] = '\0';
	ydoc_free(parse_ok(deep));
}

static void
test_ydoc_key_that_is_not_a_value_is_refused(void **state)
{
	(void)state;
	parse_bad("? [a, b]\n: c\n", TD_ERR_ARGS, "t.yaml:1: a mapping key that is not a plain value");
}

static void
test_ydoc_nodes_are_bounded(void **state)
{
	size_t n = YDOC_MAX_NODES + 2, i;
	char *buf = malloc(n * 2 + 4), *p = buf;

	(void)state;
	*p++ = '[';
	for (i = 0; i < n; i++) {
		*p++ = '1';
		*p++ = ',';
	}
	p[-1] = ']';
	*p = '\0';
	parse_bad(buf, TD_ERR_ARGS, "more than");
	free(buf);
}

static void
test_ydoc_binary_and_bad_utf8_are_refused(void **state)
{
	const char bin[] = "a: \xff\xfe\x00\x01 b\n";
	struct ydoc *d = (struct ydoc *)1;
	char err[256] = "";

	(void)state;
	assert_int_equal(ydoc_parse("t.yaml", bin, sizeof bin - 1, &d, err, sizeof err), TD_ERR_ARGS);
	assert_null(d);
	assert_non_null(strstr(err, "t.yaml:"));
}

static void
test_ydoc_read_missing_large_and_good_files(void **state)
{
	char *dir = test_tmpdir("ydoc"), path[512], err[512] = "";
	struct ydoc *d = NULL;
	char *big;

	(void)state;
	snprintf(path, sizeof path, "%s/none.yaml", dir);
	assert_int_equal(ydoc_read(path, &d, err, sizeof err), TD_ERR_NOENT);
	assert_non_null(strstr(err, "none.yaml"));
	snprintf(path, sizeof path, "%s/big.yaml", dir);
	big = calloc(YDOC_MAX_BYTES + 2, 1);
	memset(big, '#', YDOC_MAX_BYTES + 1);
	test_spit(path, big, YDOC_MAX_BYTES + 1, "wb");
	free(big);
	assert_int_equal(ydoc_read(path, &d, err, sizeof err), TD_ERR_TOO_LARGE);
	assert_null(d);
	snprintf(path, sizeof path, "%s/ok.yaml", dir);
	test_spit(path, "x: y\n", 5, "wb");
	assert_int_equal(ydoc_read(path, &d, err, sizeof err), TD_OK);
	assert_string_equal(ydoc_get(ydoc_root(d), "x")->str, "y");
	ydoc_free(d);
	ydoc_free(NULL);
	test_rmtree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ydoc_flat_mapping_keeps_order_and_lines),
		cmocka_unit_test(test_ydoc_sequence_of_mappings_with_lists),
		cmocka_unit_test(test_ydoc_empty_file_has_no_root),
		cmocka_unit_test(test_ydoc_only_the_first_document_is_read),
		cmocka_unit_test(test_ydoc_syntax_error_names_file_and_line),
		cmocka_unit_test(test_ydoc_aliases_are_refused),
		cmocka_unit_test(test_ydoc_nesting_is_bounded),
		cmocka_unit_test(test_ydoc_key_that_is_not_a_value_is_refused),
		cmocka_unit_test(test_ydoc_nodes_are_bounded),
		cmocka_unit_test(test_ydoc_binary_and_bad_utf8_are_refused),
		cmocka_unit_test(test_ydoc_read_missing_large_and_good_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
