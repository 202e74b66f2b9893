/*
 * test_sanitize.c - dump strings become display-safe text of a known width.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/sanitize.h"

static char out_text[512];

/* sanitize s into out_text; returns the width. */
static int
run(const char *s, size_t len, int maxcols, unsigned flags)
{
	struct strbuf sb = { 0 };
	int w = sanitize(s, len, maxcols, flags, &sb);
	snprintf(out_text, sizeof out_text, "%s", sb.buf);
	strbuf_done(&sb);
	return w;
}

static int
setup(void **state)
{
	(void)state;
	setlocale(LC_ALL, "C.UTF-8");
	sanitize_set_utf8(true);
	return 0;
}

static void
test_plain_ascii_is_unchanged(void **state)
{
	(void)state;
	assert_int_equal(run("dense/MatMul:0", 14, -1, 0), 14);
	assert_string_equal(out_text, "dense/MatMul:0");
}

static void
test_escape_sequence_becomes_text(void **state)
{
	const char *evil = "op\x1b[2J\x1b]0;pwned\x07name";

	(void)state;
	int w = run(evil, strlen(evil), -1, 0);
	assert_string_equal(out_text, "op^[[2J^[]0;pwned^Gname");
	assert_int_equal(w, (int)strlen(out_text));
	assert_null(strchr(out_text, 0x1b));
}

static void
test_control_bytes_and_del_use_caret_form(void **state)
{
	(void)state;
	run("a\nb\rc\x7f" "d", 7, -1, 0);
	assert_string_equal(out_text, "a^Jb^Mc^?d");
}

static void
test_nul_inside_length_is_shown(void **state)
{
	(void)state;
	run("a\0b", 3, -1, 0);
	assert_string_equal(out_text, "a^@b");
}

static void
test_invalid_utf8_shown_as_hex(void **state)
{
	(void)state;
	/* lone continuation, overlong '/', truncated 3-byte sequence */
	run("x\x80y\xc0\xafz\xe2\x82", 8, -1, 0);
	assert_string_equal(out_text, "x\\x80y\\xc0\\xafz\\xe2\\x82");
}

static void
test_c1_controls_and_bidi_overrides_are_shown(void **state)
{
	(void)state;
	run("a\xc2\x9b" "b", 4, -1, 0);             /* U+009B CSI */
	assert_string_equal(out_text, "a\\x9bb");
	run("x\xe2\x80\xaey", 5, -1, 0);            /* U+202E RIGHT-TO-LEFT OVERRIDE */
	assert_string_equal(out_text, "x<U+202E>y");
}

static void
test_valid_utf8_passes_with_its_width(void **state)
{
	(void)state;
	assert_int_equal(run("caf\xc3\xa9", 5, -1, 0), 4);
	assert_string_equal(out_text, "caf\xc3\xa9");
	assert_int_equal(run("\xe6\xbc\xa2\xe5\xad\x97", 6, -1, 0), 4);   /* two wide CJK */
}

static void
test_cut_adds_ellipsis_within_width(void **state)
{
	(void)state;
	assert_int_equal(run("__inference_train_step_123", 26, 10, 0), 10);
	assert_string_equal(out_text, "__inferen\xe2\x80\xa6");
	assert_int_equal(run("exactly10!", 10, 10, 0), 10);
	assert_string_equal(out_text, "exactly10!");
}

static void
test_cut_never_splits_an_escape_or_wide_char(void **state)
{
	(void)state;
	assert_int_equal(run("ab\x1b" "cdef", 7, 4, 0), 3);
	assert_string_equal(out_text, "ab\xe2\x80\xa6");
	assert_int_equal(run("a\xe6\xbc\xa2\xe5\xad\x97", 7, 4, 0), 4);
	assert_string_equal(out_text, "a\xe6\xbc\xa2\xe2\x80\xa6");
}

static void
test_tabs_expand_to_stops_only_when_asked(void **state)
{
	(void)state;
	run("ab\tc", 4, -1, SANITIZE_TABS);
	assert_string_equal(out_text, "ab      c");
	run("ab\tc", 4, -1, 0);
	assert_string_equal(out_text, "ab^Ic");
}

static void
test_without_utf8_every_high_byte_is_hex(void **state)
{
	(void)state;
	sanitize_set_utf8(false);
	run("caf\xc3\xa9", 5, -1, 0);
	assert_string_equal(out_text, "caf\\xc3\\xa9");
	run("abcdef", 6, 4, 0);
	assert_string_equal(out_text, "abc~");
	sanitize_set_utf8(true);
}

static void
test_tail_cut_keeps_the_end(void **state)
{
	struct strbuf sb = { 0 };

	(void)state;
	assert_int_equal(sanitize_tail("Default/net/OneHot-op0", 10, &sb), 10);   /* ellipsis + last 9 */
	assert_string_equal(sb.buf, "\xe2\x80\xa6" "neHot-op0");
	strbuf_reset(&sb);
	assert_int_equal(sanitize_tail("short", 10, &sb), 5);
	assert_string_equal(sb.buf, "short");
	strbuf_reset(&sb);
	assert_int_equal(sanitize_tail("a\x1b" "bcdefgh", 5, &sb), 5);   /* escape kept visible */
	assert_string_equal(sb.buf, "\xe2\x80\xa6" "efgh");
	strbuf_done(&sb);
}

static void
test_width_helper_matches_output(void **state)
{
	(void)state;
	assert_int_equal(sanitize_width("a\x1b" "b"), 4);
	assert_int_equal(sanitize_width(NULL), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_ascii_is_unchanged),
		cmocka_unit_test(test_escape_sequence_becomes_text),
		cmocka_unit_test(test_control_bytes_and_del_use_caret_form),
		cmocka_unit_test(test_nul_inside_length_is_shown),
		cmocka_unit_test(test_invalid_utf8_shown_as_hex),
		cmocka_unit_test(test_c1_controls_and_bidi_overrides_are_shown),
		cmocka_unit_test(test_valid_utf8_passes_with_its_width),
		cmocka_unit_test(test_cut_adds_ellipsis_within_width),
		cmocka_unit_test(test_cut_never_splits_an_escape_or_wide_char),
		cmocka_unit_test(test_tabs_expand_to_stops_only_when_asked),
		cmocka_unit_test(test_without_utf8_every_high_byte_is_hex),
		cmocka_unit_test(test_tail_cut_keeps_the_end),
		cmocka_unit_test(test_width_helper_matches_output),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
