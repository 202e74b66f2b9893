/*
 * test_emit.c - the emitter: the JSON backend writes what json.c writes,
 * the text backend aligns blocks and tables, sanitizes every dump string
 * on its own and hides what the schema marks JSON only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/emit.h"
#include "tui/cmd/sanitize.h"

static const struct emit_field cols[] = {
	{ "index", NULL, -5, 0 },
	{ "name", "op", 8, 0 },
	{ "secret", NULL, 4, EMIT_HIDE },
	{ "tags", NULL, 10, 0 },
	{ "ops", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* One result built once, used for both backends. */
static void
build_table(struct emit *e)
{
	emit_object_begin(e, NULL);
	emit_kv_uint(e, "total", 2);
	emit_key(e, "rows");
	emit_table_begin(e, cols);
	for (int i = 0; i < 2; i++) {
		emit_object_begin(e, NULL);
		emit_kv_uint(e, "index", (uint64_t)i * 100);
		emit_kv_str(e, "name", i ? "a\nb" : "averyveryverylongname");
		emit_kv_str(e, "secret", "s");
		emit_key(e, "tags");
		emit_list_begin(e);
		emit_str(e, "x");
		emit_str(e, "y");
		emit_list_end(e);
		emit_kv_null(e, "ops");
		emit_object_end(e);
	}
	emit_table_end(e);
	emit_object_end(e);
}

static char *
run(void (*build)(struct emit *), bool json)
{
	struct strbuf sb = {0};
	struct emit e;

	emit_init(&e, &sb, json);
	build(&e);
	assert_true(emit_done(&e));
	return strbuf_take(&sb);
}

static void
test_emit_json_is_what_json_c_writes(void **state)
{
	char *s = run(build_table, true);

	(void)state;
	assert_string_equal(s, "{\"total\":2,\"rows\":["
			    "{\"index\":0,\"name\":\"averyveryverylongname\",\"secret\":\"s\","
			    "\"tags\":[\"x\",\"y\"],\"ops\":null},"
			    "{\"index\":100,\"name\":\"a\\nb\",\"secret\":\"s\","
			    "\"tags\":[\"x\",\"y\"],\"ops\":null}]}");
	free(s);
}

static void
test_emit_text_table_columns_cut_and_hide(void **state)
{
	char *s = run(build_table, false);

	(void)state;
	/* "total" is a block line; "rows" a heading; the rows are indented
	 * under it; "secret" is JSON only; a newline never starts a row */
	assert_string_equal(s,
			    "total  2\n"
			    "rows\n"
			    "  index  op        tags        ops\n"
			    "      0  averyve\xe2\x80\xa6  x, y        -\n"
			    "    100  a^Jb      x, y        -\n");
	free(s);
}

static const struct emit_field info_fields[] = {
	{ "hidden", NULL, 0, EMIT_HIDE },
	{ "mode", "debug mode", 0, 0 },
	{ "sub", "", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static void
build_block(struct emit *e)
{
	emit_object_begin(e, info_fields);
	emit_kv_str(e, "format", "x\033[31m");
	emit_kv_str(e, "mode", NULL);
	emit_kv_bool(e, "ok", true);
	emit_kv_index(e, "row", -1);
	emit_key(e, "hidden");
	emit_object_begin(e, NULL);
	emit_kv_int(e, "deep", 1);
	emit_object_end(e);
	emit_key(e, "hosts");
	emit_list_begin(e);
	emit_list_end(e);
	emit_key(e, "op");
	emit_object_begin(e, NULL);
	emit_kv_double(e, "wall_time", 1586979375.124159);
	emit_kv_str(e, "name", "Log");
	emit_object_end(e);
	emit_key(e, "sub");
	emit_object_begin(e, NULL);
	emit_kv_int(e, "inline", -3);
	emit_object_end(e);
	emit_text_kv(e, "people", "%d of %d", 1, 2);
	emit_note(e, "a note\nwith a newline");
	emit_object_end(e);
}

static void
test_emit_text_block_aligns_and_nests(void **state)
{
	char *s = run(build_block, false);

	(void)state;
	assert_string_equal(s,
			    "format      x^[[31m\n"
			    "debug mode  -\n"
			    "ok          yes\n"
			    "row         -\n"
			    "hosts       -\n"
			    "op\n"
			    "  wall_time  1586979375.124159\n"
			    "  name       Log\n"
			    "inline  -3\n"
			    "people  1 of 2\n"
			    "a note^Jwith a newline\n");
	free(s);
}

static void
test_emit_json_ignores_text_only_calls(void **state)
{
	char *s = run(build_block, true);

	(void)state;
	assert_string_equal(s, "{\"format\":\"x\\u001b[31m\",\"mode\":null,\"ok\":true,\"row\":null,"
			    "\"hidden\":{\"deep\":1},\"hosts\":[],"
			    "\"op\":{\"wall_time\":1586979375.124159,\"name\":\"Log\"},"
			    "\"sub\":{\"inline\":-3}}");
	free(s);
}

static void
build_summary(struct emit *e)
{
	struct td_summary s = { .known = SUM_DTYPE | SUM_NAN | SUM_ELEMENTS, .dtype = DTYPE_FLOAT32,
				.nan = 2, .elements = 10 };

	emit_object_begin(e, NULL);
	emit_counts(e, &s);
	emit_object_end(e);
}

static void
test_emit_counts_json_members_text_summary(void **state)
{
	char *j = run(build_summary, true), *t = run(build_summary, false);

	(void)state;
	assert_string_equal(j, "{\"nan\":2,\"neg_inf\":null,\"pos_inf\":null,\"elements\":10}");
	assert_string_equal(t, "summary  float32 10 el nan=2\n");   /* issue 12 item 4 */
	free(j);
	free(t);
}

static void
build_lines(struct emit *e)
{
	emit_object_begin(e, NULL);
	emit_kv_str(e, "path", "a.py");
	emit_lines(e, "one\ttab\n\033two\n", 13);
	emit_object_end(e);
	emit_null(e);
}

static void
test_emit_lines_sanitized_one_by_one(void **state)
{
	char *t = run(build_lines, false);

	(void)state;
	assert_string_equal(t, "path  a.py\none     tab\n^[two\n");
	free(t);
}

static void
build_empty_table(struct emit *e)
{
	emit_table_begin(e, cols);
	emit_table_end(e);
	emit_note(e, "nothing");
}

static void
test_emit_empty_table_has_no_header(void **state)
{
	char *t = run(build_empty_table, false), *j = run(build_empty_table, true);

	(void)state;
	assert_string_equal(t, "nothing\n");
	assert_string_equal(j, "[]");
	free(t);
	free(j);
}

static void
build_unbalanced(struct emit *e)
{
	emit_object_begin(e, NULL);
	emit_str(e, "no key");
	emit_key(e, "k");
}

static void
test_emit_done_reports_unbalanced(void **state)
{
	struct strbuf sb = {0};
	struct emit e;

	(void)state;
	for (int json = 0; json < 2; json++) {
		emit_init(&e, &sb, json);
		build_unbalanced(&e);
		assert_false(emit_done(&e));
		strbuf_reset(&sb);
	}
	/* deeper than EMIT_MAX_DEPTH: ignored, not a crash */
	emit_init(&e, &sb, false);
	for (int i = 0; i < EMIT_MAX_DEPTH + 5; i++) {
		emit_key(&e, "k");
		emit_object_begin(&e, NULL);
	}
	emit_kv_int(&e, "x", 1);
	for (int i = 0; i < EMIT_MAX_DEPTH + 5; i++)
		emit_object_end(&e);
	assert_true(emit_done(&e));
	strbuf_done(&sb);
}

static const struct emit_field narrow[] = {
	{ "n", "number", -2, 0 },
	{ "name", NULL, 3, EMIT_TAIL },
	{ NULL, NULL, 0, 0 },
};

static void
build_narrow(struct emit *e)
{
	emit_table_begin(e, narrow);
	emit_object_begin(e, NULL);
	emit_kv_int(e, "n", 7);
	emit_kv_str(e, "name", "scope/Relu");
	emit_object_end(e);
	emit_table_end(e);
}

static void
test_emit_header_wider_than_column_widens_it(void **state)
{
	char *t = run(build_narrow, false);

	(void)state;
	/* the label is never cut: the column takes its width; EMIT_TAIL keeps
	 * the end of a long cell */
	assert_string_equal(t, "number  name\n     7  \xe2\x80\xa6" "elu\n");
	free(t);
}

static const struct emit_field marked[] = {
	{ "n", NULL, -2, 0 },
	{ "mark", "", 1, 0 },
	{ "name", NULL, 20, EMIT_SCOPE },
	{ NULL, NULL, 0, 0 },
};

static void
build_marked(struct emit *e)
{
	emit_table_begin(e, marked);
	emit_object_begin(e, NULL);
	emit_kv_int(e, "n", 1);
	emit_text_kv(e, "mark", "%s", "!");
	emit_kv_str(e, "name", "Default/net/fc3-Dense/MatMul-op10");
	emit_object_end(e);
	emit_object_begin(e, NULL);
	emit_kv_int(e, "n", 2);
	emit_kv_str(e, "name", "short/Relu");
	emit_object_end(e);
	emit_table_end(e);
}

static void
test_emit_row_text_cell_and_scope_cut(void **state)
{
	char *t = run(build_marked, false), *j = run(build_marked, true);

	(void)state;
	/* the mark is a text-only cell; EMIT_SCOPE keeps the first scope and
	 * the op's own name; JSON has neither */
	assert_string_equal(t, " n     name\n"
			    " 1  !  Default/\xe2\x80\xa6MatMul-op10\n"
			    " 2     short/Relu\n");
	assert_string_equal(j, "[{\"n\":1,\"name\":\"Default/net/fc3-Dense/MatMul-op10\"},"
			    "{\"n\":2,\"name\":\"short/Relu\"}]");
	free(t);
	free(j);
}

/* A prose result: members JSON only (nested ones too), text from
 * emit_textf in the same pass. */
static void
build_prose(struct emit *e)
{
	emit_object_begin(e, emit_json_only);
	emit_kv_uint(e, "index", 7);
	emit_textf(e, "trace     %d\n", 7);
	emit_key(e, "stack");
	emit_table_begin(e, cols);
	emit_object_begin(e, NULL);
	emit_kv_str(e, "name", "f");
	emit_textf(e, "stack\n  #0   f\n");      /* in the hidden member: shown */
	emit_object_end(e);
	emit_table_end(e);
	emit_key(e, "tags");
	emit_list_begin(e);
	emit_str(e, "x");
	emit_list_end(e);
	emit_object_end(e);
	emit_table_begin(e, emit_json_only);        /* at the root: hidden too */
	emit_object_begin(e, NULL);
	emit_kv_uint(e, "line", 3);
	emit_textf(e, "  #0 at 3\n");
	emit_object_end(e);
	emit_table_end(e);
	emit_table_begin(e, cols);                  /* a shown row takes no lines */
	emit_object_begin(e, NULL);
	emit_kv_uint(e, "index", 1);
	emit_textf(e, "never\n");
	emit_object_end(e);
	emit_table_end(e);
}

static void
test_emit_json_only_members_and_textf_lines(void **state)
{
	char *js = run(build_prose, true), *tx = run(build_prose, false);

	(void)state;
	assert_string_equal(js, "{\"index\":7,\"stack\":[{\"name\":\"f\"}],\"tags\":[\"x\"]}"
			    ",[{\"line\":3}],[{\"index\":1}]");
	assert_string_equal(tx, "trace     7\nstack\n  #0   f\n  #0 at 3\n"
			    "index  op        tags        ops\n    1\n");
	free(js);
	free(tx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emit_json_is_what_json_c_writes),
		cmocka_unit_test(test_emit_text_table_columns_cut_and_hide),
		cmocka_unit_test(test_emit_text_block_aligns_and_nests),
		cmocka_unit_test(test_emit_json_ignores_text_only_calls),
		cmocka_unit_test(test_emit_counts_json_members_text_summary),
		cmocka_unit_test(test_emit_lines_sanitized_one_by_one),
		cmocka_unit_test(test_emit_empty_table_has_no_header),
		cmocka_unit_test(test_emit_done_reports_unbalanced),
		cmocka_unit_test(test_emit_header_wider_than_column_widens_it),
		cmocka_unit_test(test_emit_row_text_cell_and_scope_cut),
		cmocka_unit_test(test_emit_json_only_members_and_textf_lines),
	};

	sanitize_set_utf8(true);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
