/*
 * test_util.c - growable strings, status messages, growth arithmetic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reader/base/serial.h"
#include "reader/base/util.h"
#include "tests/unit/helpers/xorshift.h"

static void
test_strbuf_addf_formats_short_and_long_text(void **state)
{
	struct strbuf sb = {0};
	char want[1001];

	(void)state;
	strbuf_addf(&sb, "%d-%s", 42, "x");
	assert_string_equal(sb.buf, "42-x");
	memset(want, 'a', 1000);
	want[1000] = '\0';
	/* longer than the spare room: formatted a second time after growing */
	strbuf_addf(&sb, "%s", want);
	assert_int_equal(sb.len, 4 + 1000);
	assert_memory_equal(sb.buf + 4, want, 1001);
	strbuf_done(&sb);
}

static void
test_strbuf_addc_grows_and_terminates(void **state)
{
	struct strbuf sb = {0};
	int i;

	(void)state;
	for (i = 0; i < 5000; i++)
		strbuf_addc(&sb, (char)('a' + i % 26));
	assert_int_equal(sb.len, 5000);
	assert_int_equal(sb.buf[5000], '\0');
	assert_int_equal(sb.buf[27], 'b');
	strbuf_done(&sb);
}

static void
test_strbuf_take_hands_over_and_resets(void **state)
{
	struct strbuf sb = {0};
	char *p;

	(void)state;
	p = strbuf_take(&sb);            /* empty: still a string */
	assert_string_equal(p, "");
	free(p);
	strbuf_adds(&sb, "abc");
	p = strbuf_take(&sb);
	assert_string_equal(p, "abc");
	assert_null(sb.buf);
	assert_int_equal(sb.len, 0);
	free(p);
}

static void
test_strerror_names_every_status(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < TD_STATUS_COUNT; i++)
		assert_true(strlen(td_strerror((enum td_status)i)) > 0);
	assert_string_equal(td_strerror(TD_OK), "ok");
	assert_string_equal(td_strerror((enum td_status)999), "unknown error");
}

static void
test_grow_doubles_until_enough(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	(void)state;
	TD_GROW(a, cap, 3);
	assert_int_equal(cap, 8);
	TD_GROW(a, cap, 9);
	assert_int_equal(cap, 16);
	TD_GROW(a, cap, 5);              /* never shrinks */
	assert_int_equal(cap, 16);
	free(a);
}

static bool
reject_x(void *ctx, char *line, char *msg, size_t msglen)
{
	++*(int *)ctx;
	if (line[0] != 'x')
		return true;
	snprintf(msg, msglen, "no '%s'", line);
	return false;
}

static void
test_parse_lines_counts_rejects_and_names_the_first(void **state)
{
	char err[64];
	int calls = 0;

	(void)state;
	assert_int_equal(td_parse_lines("a\nx1\nb\nx2", reject_x, &calls, err, sizeof err), 2);
	assert_int_equal(calls, 4);
	assert_string_equal(err, "line 2: no 'x1'");
	assert_int_equal(td_parse_lines("", reject_x, &calls, err, sizeof err), 0);
	assert_string_equal(err, "");
}

/* A value from a dump can never start a line of its own in a reader's
 * "key: value" text (issue 13); other bytes are left as they are. */
static void
test_oneline_escapes_line_breaks_only(void **state)
{
	const char *a, *b;

	(void)state;
	assert_string_equal(td_oneline("op\nforged_row\r\n"), "op^Jforged_row^M^J");
	assert_string_equal(td_oneline("\x1b[2J tab\t"), "\x1b[2J tab\t");
	assert_string_equal(td_oneline(NULL), "");
	a = td_oneline("first");
	b = td_oneline("second");
	assert_string_equal(a, "first");        /* the ring keeps earlier results */
	assert_string_equal(b, "second");
}

/* $VAR/tdbg when VAR is absolute, else $HOME/REL/tdbg; a relative VAR is
 * ignored (the XDG spec); nothing when neither is set. */
static void
test_xdg_dir_prefers_an_absolute_variable(void **state)
{
	char buf[256];

	(void)state;
	setenv("HOME", "/home/u", 1);
	setenv("XDG_CONFIG_HOME", "/x/config", 1);
	assert_true(td_xdg_dir("XDG_CONFIG_HOME", ".config", buf, sizeof buf));
	assert_string_equal(buf, "/x/config/tdbg");
	setenv("XDG_CONFIG_HOME", "relative", 1);
	assert_true(td_xdg_dir("XDG_CONFIG_HOME", ".config", buf, sizeof buf));
	assert_string_equal(buf, "/home/u/.config/tdbg");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	assert_false(td_xdg_dir("XDG_CONFIG_HOME", ".config", buf, sizeof buf));
	assert_string_equal(buf, "");
	setenv("HOME", "/home/u", 1);
	assert_false(td_xdg_dir("XDG_CONFIG_HOME", ".config", buf, 8));     /* too long */
}

/* Typed bounds echo as typed (issue 24 item 9): the fewest digits that
 * read back the same, without %g's exponent where decimals read better. */
static void
test_strbuf_add_double_is_shortest_and_plain(void **state)
{
	static const struct { double v; const char *want; } cases[] = {
		{ 50, "50" }, { 0.05, "0.05" }, { 1e-7, "1e-07" }, { 65504, "65504" },
		{ 1e9, "1000000000" }, { 1e20, "1e+20" }, { -2.5, "-2.5" }, { 0, "0" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 3.38953139e38, "3.38953139e+38" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct strbuf sb = { 0 };

		strbuf_add_double(&sb, cases[i].v);
		assert_string_equal(sb.buf, cases[i].want);
		strbuf_done(&sb);
	}
}

/* strbuf_add_double as it was, counting the digits up. */
static void
add_double_counted(char *buf, size_t len, double v)
{
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v || v != v)
			break;
	}
	if (strchr(buf, 'e') && fabs(v) >= 1e-4 && fabs(v) < 1e15)
		for (int decimals = 0; decimals <= 17; decimals++) {
			snprintf(buf, len, "%.*f", decimals, v);
			if (strtod(buf, NULL) == v)
				break;
		}
}

/* The shortest digits' way (shortest.h) writes what counting up wrote,
 * byte for byte: doubles of every kind (test_double_of_kind). */
static void
test_strbuf_add_double_same_as_counted(void **state)
{
	uint64_t x = 0x853c49e6748fea9bull;
	char want[48];

	(void)state;
	for (int i = 0; i < 60000; i++) {
		struct strbuf sb = { 0 };
		double v = test_double_of_kind(xorshift64(&x), i);

		if (!isfinite(v))
			continue;
		strbuf_add_double(&sb, v);
		add_double_counted(want, sizeof want, v);
		assert_string_equal(sb.buf, want);
		strbuf_done(&sb);
	}
}

/* Varints and their changes come back as written, a byte below 128 and
 * for a small step either way; a varint cut short or over ten bytes is
 * bad. */
static void
test_serial_varints_and_deltas_round_trip(void **state)
{
	static const uint64_t v[] = { 0, 1, 127, 128, 300, 16383, 16384, UINT32_MAX,
				      (uint64_t)UINT32_MAX + 1, UINT64_MAX >> 1, UINT64_MAX - 1,
				      UINT64_MAX, 5, 3, 3 };
	size_t n = sizeof v / sizeof *v, i;
	struct strbuf o = {0};
	struct ser_in in;
	uint64_t prev = 0;

	(void)state;
	for (i = 0; i < n; i++)
		ser_put_varint(&o, v[i]);
	for (i = 0; i < n; i++) {
		ser_put_delta(&o, prev, v[i]);
		prev = v[i];
	}
	ser_in_init(&in, o.buf, o.len);
	for (i = 0; i < n; i++)
		assert_true(ser_get_varint(&in) == v[i]);
	for (prev = 0, i = 0; i < n; i++)
		assert_true((prev = ser_get_delta(&in, prev)) == v[i]);
	assert_false(in.bad);
	assert_true(ser_in_done(&in));
	o.len = 0;
	ser_put_varint(&o, 127);
	ser_put_delta(&o, 1000, 999);
	ser_put_delta(&o, 999, 1000);
	assert_int_equal(o.len, 3);
	ser_in_init(&in, "\x80\x80", 2);         /* cut short */
	(void)ser_get_varint(&in);
	assert_true(in.bad);
	ser_in_init(&in, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
	(void)ser_get_varint(&in);
	assert_true(in.bad);
	strbuf_done(&o);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf_addf_formats_short_and_long_text),
		cmocka_unit_test(test_oneline_escapes_line_breaks_only),
		cmocka_unit_test(test_strbuf_addc_grows_and_terminates),
		cmocka_unit_test(test_strbuf_take_hands_over_and_resets),
		cmocka_unit_test(test_strerror_names_every_status),
		cmocka_unit_test(test_grow_doubles_until_enough),
		cmocka_unit_test(test_parse_lines_counts_rejects_and_names_the_first),
		cmocka_unit_test(test_xdg_dir_prefers_an_absolute_variable),
		cmocka_unit_test(test_strbuf_add_double_is_shortest_and_plain),
		cmocka_unit_test(test_strbuf_add_double_same_as_counted),
		cmocka_unit_test(test_serial_varints_and_deltas_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
