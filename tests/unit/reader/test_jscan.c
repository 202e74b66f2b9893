/*
 * test_jscan.c - the streaming JSON scanner (reader/parse/jscan.h): tokens,
 * Python's NaN/Infinity, member scans, line/column errors, limits, invalid
 * UTF-8, truncation at every byte, and reads across chunk boundaries.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/jscan.h"
#include "tests/unit/helpers/xorshift.h"

/* Scans text whole; returns the tokens as a compact string ("{k:n,s}") and
 * the error, if any, in err. */
static char *
scan(const char *text, size_t len, const struct jscan_limits *lim, char *err, size_t errlen)
{
	struct source *src = source_from_bytes(text, len);
	struct jscan js;
	struct strbuf sb;
	enum jscan_tok t;

	memset(&sb, 0, sizeof sb);
	jscan_init(&js, src, 0, lim);
	err[0] = '\0';
	while ((t = jscan_next(&js)) != JSCAN_EOF && t != JSCAN_ERROR) {
		switch (t) {
		case JSCAN_OBJ_BEGIN: strbuf_addf(&sb, "{"); break;
		case JSCAN_OBJ_END: strbuf_addf(&sb, "}"); break;
		case JSCAN_ARR_BEGIN: strbuf_addf(&sb, "["); break;
		case JSCAN_ARR_END: strbuf_addf(&sb, "]"); break;
		case JSCAN_KEY: strbuf_addf(&sb, "k(%s)", js.str); break;
		case JSCAN_STRING: strbuf_addf(&sb, "s(%s)", js.str); break;
		case JSCAN_NUMBER: strbuf_addf(&sb, "n(%g)", js.num); break;
		case JSCAN_TRUE: strbuf_addf(&sb, "T"); break;
		case JSCAN_FALSE: strbuf_addf(&sb, "F"); break;
		case JSCAN_NULL: strbuf_addf(&sb, "N"); break;
		default: break;
		}
	}
	if (t == JSCAN_ERROR)
		snprintf(err, errlen, "%s", js.err);
	jscan_done(&js);
	source_close(src);
	return strbuf_take(&sb);
}

static void
expect(const char *text, const char *tokens)
{
	char err[200];
	char *got = scan(text, strlen(text), NULL, err, sizeof err);

	assert_string_equal(err, "");
	assert_string_equal(got, tokens);
	free(got);
}

static void
expect_error(const char *text, const char *msg)
{
	char err[200];
	char *got = scan(text, strlen(text), NULL, err, sizeof err);

	if (!strstr(err, msg))
		fail_msg("'%s': error '%s', wanted '%s'", text, err, msg);
	free(got);
}

static void
test_jscan_tokens_of_an_entry(void **state)
{
	(void)state;
	expect("{\"a\": [1, -2.5e1, true, false, null, \"x\\ny\"], \"b\": {}}",
	       "{k(a)[n(1)n(-25)TFNs(x\ny)]k(b){}}");
	expect("  []  ", "[]");
	expect("\"\\u00e9\\ud83d\\ude00\"", "s(\xc3\xa9\xf0\x9f\x98\x80)");
}

static void
test_jscan_python_nonfinite_tokens(void **state)
{
	(void)state;
	expect("{\"Max\": NaN, \"Min\": -Infinity, \"Mean\": Infinity}",
	       "{k(Max)n(nan)k(Min)n(-inf)k(Mean)n(inf)}");
	expect("[NaN,NaN]", "[n(nan)n(nan)]");
	/* NaN where a key belongs, or half a token, is an error */
	expect_error("{NaN: 1}", "expected a key");
	expect_error("[-NaN]", "bad number");
	expect_error("[Infinit]", "bad token");
	expect_error("[nan]", "bad token");
}

static void
test_jscan_error_names_line_and_column(void **state)
{
	(void)state;
	expect_error("{\n  \"a\": 1,\n  \"b\" 2}", "line 3, column 7: expected ':'");
	expect_error("[1,\n2,,3]", "line 2, column 3");
	expect_error("{\"a\": 1", "input ends inside an object");
	expect_error("[1] 2", "bytes after the end");
	expect_error("[1}", "unexpected '}'");
	expect_error("[01]", "expected ','");
	expect_error("[1.]", "no digit after '.'");
	expect_error("\"a\x01\"", "control byte");
	expect_error("\"\\x\"", "bad escape");
}

static void
test_jscan_limits_depth_string_number(void **state)
{
	struct jscan_limits lim = { .max_depth = 4, .max_string = 8, .max_number = 10 };
	char err[200];
	char *got;

	(void)state;
	got = scan("[[[[1]]]]", 9, &lim, err, sizeof err);
	assert_string_equal(err, "");
	free(got);
	got = scan("[[[[[1]]]]]", 11, &lim, err, sizeof err);
	assert_non_null(strstr(err, "nesting deeper than 4"));
	free(got);
	got = scan("\"123456789\"", 11, &lim, err, sizeof err);
	assert_non_null(strstr(err, "string longer than 8"));
	free(got);
	got = scan("12345678901", 11, &lim, err, sizeof err);
	assert_non_null(strstr(err, "number longer than 10"));
	free(got);
	/* the default depth limit holds against a deep file */
	{
		size_t n = 100000;
		char *deep = malloc(n);

		memset(deep, '[', n);
		got = scan(deep, n, NULL, err, sizeof err);
		assert_non_null(strstr(err, "nesting deeper than"));
		free(got);
		free(deep);
	}
}

static void
test_jscan_invalid_utf8_is_replaced(void **state)
{
	struct source *src = source_from_bytes("[\"a\xff\xc3\"]", 7);
	struct jscan js;

	(void)state;
	jscan_init(&js, src, 0, NULL);
	assert_int_equal(jscan_next(&js), JSCAN_ARR_BEGIN);
	assert_int_equal(jscan_next(&js), JSCAN_STRING);
	assert_string_equal(js.str, "a\xEF\xBF\xBD\xEF\xBF\xBD");
	assert_true(js.bad_utf8);
	assert_int_equal(jscan_next(&js), JSCAN_ARR_END);
	assert_int_equal(jscan_next(&js), JSCAN_EOF);
	jscan_done(&js);
	source_close(src);
}

/* Every prefix of a small file gives tokens then an error, never a crash. */
static void
test_jscan_truncated_at_every_byte(void **state)
{
	const char *text = "{\"task\": \"statistics\", \"data\": {\"A.x.0.forward\": "
			   "{\"input_args\": [{\"Max\": NaN, \"shape\": [2, 3]}], \"s\": \"\\u00e9\"}}}";
	size_t len = strlen(text), cut;
	char err[200];

	(void)state;
	for (cut = 0; cut < len; cut++) {
		char *got = scan(text, cut, NULL, err, sizeof err);

		if (err[0] == '\0')
			fail_msg("prefix of %zu bytes scanned without an error", cut);
		free(got);
	}
	free(scan(text, len, NULL, err, sizeof err));
	assert_string_equal(err, "");
}

static void
test_jscan_member_scan_mid_file(void **state)
{
	const char *text = "{\"data\": {\"a\": [1, 2], \"b\": {\"c\": null}}}";
	const char *b = strstr(text, "\"b\"");
	struct source *src = source_from_bytes(text, strlen(text));
	struct jscan js;

	(void)state;
	jscan_init_member(&js, src, (uint64_t)(b - text), NULL);
	assert_int_equal(jscan_next(&js), JSCAN_KEY);
	assert_string_equal(js.str, "b");
	assert_int_equal(js.tok_off, (uint64_t)(b - text));
	assert_int_equal(jscan_next(&js), JSCAN_OBJ_BEGIN);
	assert_int_equal(jscan_next(&js), JSCAN_KEY);
	assert_int_equal(jscan_next(&js), JSCAN_NULL);
	assert_int_equal(jscan_next(&js), JSCAN_OBJ_END);
	assert_int_equal(jscan_next(&js), JSCAN_EOF);
	jscan_done(&js);
	source_close(src);
}

static void
test_jscan_skip_and_chunk_boundaries(void **state)
{
	struct strbuf sb;
	struct source *src;
	struct jscan js;
	size_t i;
	char *text;

	(void)state;
	memset(&sb, 0, sizeof sb);
	strbuf_addf(&sb, "{\"skip\": [");
	for (i = 0; i < 20000; i++)
		strbuf_addf(&sb, "%s{\"k\": \"value %zu\"}", i ? "," : "", i);
	strbuf_addf(&sb, "], \"after\": \"%s\"}", "long string across chunks");
	text = strbuf_take(&sb);
	src = source_from_bytes(text, strlen(text));
	jscan_init(&js, src, 0, NULL);
	assert_int_equal(jscan_next(&js), JSCAN_OBJ_BEGIN);
	assert_int_equal(jscan_next(&js), JSCAN_KEY);
	assert_true(jscan_skip(&js, jscan_next(&js)));
	assert_int_equal(jscan_next(&js), JSCAN_KEY);
	assert_string_equal(js.str, "after");
	assert_int_equal(jscan_next(&js), JSCAN_STRING);
	assert_string_equal(js.str, "long string across chunks");
	assert_int_equal(jscan_next(&js), JSCAN_OBJ_END);
	assert_int_equal(jscan_next(&js), JSCAN_EOF);
	jscan_done(&js);
	source_close(src);
	free(text);
}

/* Numbers in an indented array longer than a chunk: each one has strtod's
 * bits (the short-decimal fast path, decnum.c, and the long ones), digits
 * and white space split across chunk boundaries; the line and column of an
 * error after them are counted through every line break. */
/* Number text i of a test's list: the fixed ones first, then from the
 * xorshift x: a short decimal (small times small_scale, or large), or a
 * random double's 17 digits. */
static void
number_text(char *out, size_t cap, size_t i, const char *const *fixed, size_t nfixed,
	    uint64_t *x, double small_scale)
{
	double d;

	xorshift64(x);
	memcpy(&d, x, sizeof d);
	if (i < nfixed)
		snprintf(out, cap, "%s", fixed[i]);
	else if (!isfinite(d) || i % 2)
		snprintf(out, cap, "%.*g", (int)(1 + i % 17),
			 (double)(*x % 2000003) / 64.0 * (i % 3 ? small_scale : 1e5));
	else
		snprintf(out, cap, "%.17g", d);
}

static void
test_jscan_numbers_are_strtods_bits_across_chunks(void **state)
{
	static const char *const fixed[] = { "-0", "0", "1e400", "-1e400", "5e-324", "1e-400",
					     "0.1", "9007199254740993", "123456789012345678901",
					     "0.000123", "1.5E+3", "-0.0e-5", "100e-2",
					     "12345678901234567890e-5", "0.10000000149011612",
					     "1234567890123456789e8", "-7.0e-0" };
	char texts[24000][32], err[200];
	uint64_t x = 88172645463325252ull;
	struct strbuf sb;
	struct source *src;
	struct jscan js;
	size_t i, n = sizeof texts / sizeof texts[0];
	char *text;

	(void)state;
	memset(&sb, 0, sizeof sb);
	strbuf_addf(&sb, "[\n");
	for (i = 0; i < n; i++) {
		number_text(texts[i], sizeof texts[i], i, fixed, TD_ARRAY_SIZE(fixed), &x, 1e-7);
		strbuf_addf(&sb, "%s\t%s", i ? ",\n  \r\n" : "", texts[i]);
	}
	strbuf_addf(&sb, ",\n   ]");
	text = strbuf_take(&sb);
	src = source_from_bytes(text, strlen(text));
	jscan_init(&js, src, 0, NULL);
	assert_int_equal(jscan_next(&js), JSCAN_ARR_BEGIN);
	for (i = 0; i < n; i++) {
		double want = strtod(texts[i], NULL);

		assert_int_equal(jscan_next(&js), JSCAN_NUMBER);
		if (memcmp(&want, &js.num, sizeof want) != 0)
			fail_msg("'%s': scanned %a, strtod %a", texts[i], js.num, want);
		assert_int_equal(js.line, 2 + 2 * i);
		assert_int_equal(js.col, 2);
	}
	assert_int_equal(jscan_next(&js), JSCAN_ERROR);
	snprintf(err, sizeof err, "line %zu, column 4: unexpected byte 0x5d", 2 * n + 1);
	assert_string_equal(js.err, err);
	jscan_done(&js);
	source_close(src);
	free(text);
}

/* Fractions of every length with leading zeros of every count (the fast
 * path takes eight fraction digits at a time where it can, and counts as
 * significant only the digits after the first non-zero one: up to 19 of
 * them, more go to strtod): each number has strtod's bits. */
static void
test_jscan_fraction_digits_of_every_length_are_strtods(void **state)
{
	static const char *const ints[] = { "0", "-0", "1", "-7", "12345678", "123456789012" };
	uint64_t x = 0x9E3779B97F4A7C15ull;
	struct strbuf sb;
	size_t in, zeros, digs, k;

	(void)state;
	for (in = 0; in < TD_ARRAY_SIZE(ints); in++) {
		for (zeros = 0; zeros <= 20; zeros++) {
			for (digs = 1; digs <= 26; digs++) {
				struct source *src;
				struct jscan js;
				double want;

				memset(&sb, 0, sizeof sb);
				strbuf_addf(&sb, "%s.", ints[in]);
				for (k = 0; k < zeros; k++)
					strbuf_addf(&sb, "0");
				for (k = 0; k < digs; k++) {
					xorshift64(&x);
					/* a first digit of zero now and then: a zero run
					 * inside the significant digits */
					strbuf_addf(&sb, "%c", (char)('0' + (k == 0 ? 1 + x % 9 : x % 10)));
				}
				strbuf_addf(&sb, "%s", digs % 3 ? " " : "");
				want = strtod(sb.buf, NULL);
				src = source_from_bytes(sb.buf, sb.len);
				jscan_init(&js, src, 0, NULL);
				assert_int_equal(jscan_next(&js), JSCAN_NUMBER);
				if (memcmp(&want, &js.num, sizeof want) != 0)
					fail_msg("'%s': scanned %a, strtod %a", sb.buf, js.num, want);
				assert_int_equal(jscan_next(&js), JSCAN_EOF);
				jscan_done(&js);
				source_close(src);
				strbuf_done(&sb);
			}
		}
	}
}

/* A string of plain bytes with one byte that is not plain at every
 * position of its first 48 (the plain run is found 16 or 8 bytes at a
 * time): an escape, a UTF-8 character, an invalid byte, a control byte,
 * the closing quote itself. */
static void
test_jscan_string_special_byte_at_every_position(void **state)
{
	static const struct {
		const char *in, *out;   /* raw bytes in the string, decoded */
		bool bad_utf8, error;
	} special[] = {
		{ "\\n", "\n", false, false }, { "\\\"", "\"", false, false },
		{ "\xC3\xA9", "\xC3\xA9", false, false }, { "\xFF", "\xEF\xBF\xBD", true, false },
		{ "\x01", NULL, false, true }, { "", "", false, false },
	};
	size_t at, sp;

	(void)state;
	for (sp = 0; sp < TD_ARRAY_SIZE(special); sp++) {
		for (at = 0; at < 48; at++) {
			char text[160], want[160], err[160];
			size_t tail = 40 - at % 5, n;
			struct source *src;
			struct jscan js;
			enum jscan_tok t;

			n = (size_t)snprintf(text, sizeof text, "[\"%.*s%s%.*s\"]", (int)at,
					     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", special[sp].in,
					     (int)tail, "0123456789012345678901234567890123456789");
			snprintf(want, sizeof want, "%.*s%s%.*s", (int)at,
				 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
				 special[sp].out ? special[sp].out : "", (int)tail,
				 "0123456789012345678901234567890123456789");
			src = source_from_bytes(text, n);
			jscan_init(&js, src, 0, NULL);
			assert_int_equal(jscan_next(&js), JSCAN_ARR_BEGIN);
			t = jscan_next(&js);
			if (special[sp].error) {
				assert_int_equal(t, JSCAN_ERROR);
				snprintf(err, sizeof err, "line 1, column %zu: control byte 0x01 in a string",
					 at + 3);
				assert_string_equal(js.err, err);
			} else {
				assert_int_equal(t, JSCAN_STRING);
				assert_string_equal(js.str, want);
				assert_int_equal(js.len, strlen(want));
				assert_int_equal(js.bad_utf8, special[sp].bad_utf8);
				assert_int_equal(jscan_next(&js), JSCAN_ARR_END);
				assert_int_equal(jscan_next(&js), JSCAN_EOF);
			}
			jscan_done(&js);
			source_close(src);
		}
	}
}

/* Objects' numbers left pending (jscan.flat_defer: made later, on the
 * msprobe index's other thread) are made bit for bit as strtod makes
 * them: the fixed texts of the numbers test (zeros, signs, overflow,
 * underflow, 2^53 + 1, 17 and 19 digits, more than 19) and random ones
 * of every length; a number of more than 19 digits is made at once. */
static void
test_jscan_flat_deferred_numbers_are_strtods(void **state)
{
	static const char *const fixed[] = { "-0", "0", "1e400", "-1e400", "5e-324", "1e-400",
					     "-1e-400", "0.1", "9007199254740993", "-9007199254740993",
					     "123456789012345678901", "0.000123", "1.5E+3", "-0.0e-5",
					     "100e-2", "12345678901234567890e-5", "0.10000000149011612",
					     "-1234567890123456789e8", "-7.0e-0", "-1.7976931348623157e308",
					     "2.2250738585072011e-308", "-4.9406564584124654e-324",
					     "1e1234567", "-12345678901234567e-1234567", "-0.30000000000000004" };
	enum { N = 8000, PER = 8 };
	static char texts[N][32];
	uint64_t x = 88172645463325252ull;
	struct strbuf sb;
	struct source *src;
	struct jscan js;
	size_t i, pending = 0, made = 0;
	char *text;

	(void)state;
	memset(&sb, 0, sizeof sb);
	strbuf_addf(&sb, "[");
	for (i = 0; i < N; i++) {
		number_text(texts[i], sizeof texts[i], i, fixed, TD_ARRAY_SIZE(fixed), &x, -1e-7);
		strbuf_addf(&sb, "%s\"m%zu\": %s", i % PER ? ", " : i ? "},\n{" : "\n{",
			    i % PER, texts[i]);
	}
	strbuf_addf(&sb, "}\n]\n");
	text = strbuf_take(&sb);
	src = source_from_bytes(text, strlen(text));
	jscan_init(&js, src, 0, NULL);
	js.flat_defer = true;
	assert_int_equal(jscan_next(&js), JSCAN_ARR_BEGIN);
	for (i = 0; i < N; i += PER) {
		struct jscan_flat f;
		int k;

		assert_int_equal(jscan_next(&js), JSCAN_OBJ_BEGIN);
		if (!jscan_flat(&js, &f)) {     /* not whole in the read buffer */
			assert_true(jscan_skip(&js, JSCAN_OBJ_BEGIN));
			continue;
		}
		assert_int_equal(f.n, PER);
		for (k = 0; k < PER; k++) {
			double want = strtod(texts[i + (size_t)k], NULL), got = jscan_member_num(&f.m[k]);

			assert_int_equal(f.m[k].tok, JSCAN_NUMBER);
			if (memcmp(&want, &got, sizeof want) != 0)
				fail_msg("'%s': made %a, strtod %a", texts[i + (size_t)k], got, want);
			if (f.m[k].pending)
				pending++;
			else
				made++;
			if (strlen(texts[i + (size_t)k]) > 22 && strchr(texts[i + (size_t)k], '.') == NULL &&
			    strchr(texts[i + (size_t)k], 'e') == NULL)
				assert_false(f.m[k].pending);   /* past 19 digits: strtod at once */
		}
		jscan_flat_take(&js, &f);
	}
	assert_int_equal(jscan_next(&js), JSCAN_ARR_END);
	assert_true(pending > N / 2);
	assert_true(made >= 1);
	assert_true(pending + made > N * 9 / 10);
	jscan_done(&js);
	source_close(src);
	free(text);
}

/* Reads text with jscan_flat() tried at every object (flat) or never:
 * the token stream as text, each token with its line and column, and the
 * error; *taken counts the objects read at once. */
static char *
scan_flat(const char *text, const struct jscan_limits *lim, bool flat, int *taken)
{
	struct source *src = source_from_bytes(text, strlen(text));
	struct jscan js;
	struct strbuf sb;
	enum jscan_tok t;

	memset(&sb, 0, sizeof sb);
	jscan_init(&js, src, 0, lim);
	while ((t = jscan_next(&js)) != JSCAN_EOF && t != JSCAN_ERROR) {
		struct jscan_flat f;
		int i, j;

		strbuf_addf(&sb, "%llu:%llu ", (unsigned long long)js.line, (unsigned long long)js.col);
		if (t != JSCAN_OBJ_BEGIN || !flat || !jscan_flat(&js, &f)) {
			switch (t) {
			case JSCAN_KEY: strbuf_addf(&sb, "k(%s)", js.str); break;
			case JSCAN_STRING: strbuf_addf(&sb, "s(%s)", js.str); break;
			case JSCAN_NUMBER: strbuf_addf(&sb, "n(%a)", js.num); break;
			default: strbuf_addf(&sb, "%s", jscan_tok_name(t)); break;
			}
			strbuf_addf(&sb, "\n");
			continue;
		}
		/* the tokens the object stands for, without their places */
		strbuf_addf(&sb, "'{'\n");
		for (i = 0; i < f.n; i++) {
			const struct jscan_member *mb = &f.m[i];

			strbuf_addf(&sb, "k(%.*s)", (int)mb->klen, mb->key);
			switch (mb->tok) {
			case JSCAN_STRING: strbuf_addf(&sb, "s(%.*s)", (int)mb->len, mb->str); break;
			case JSCAN_NUMBER: strbuf_addf(&sb, "n(%a)", mb->num); break;
			case JSCAN_ARR_BEGIN:
				strbuf_addf(&sb, "'['");
				for (j = 0; j < mb->count; j++)
					strbuf_addf(&sb, "n(%a)", f.nums[mb->first + j]);
				strbuf_addf(&sb, "']'");
				break;
			default: strbuf_addf(&sb, "%s", jscan_tok_name(mb->tok)); break;
			}
		}
		jscan_flat_take(&js, &f);
		++*taken;
		strbuf_addf(&sb, "\n%llu:%llu '}'\n", (unsigned long long)js.line, (unsigned long long)js.col);
	}
	if (t == JSCAN_ERROR)
		strbuf_addf(&sb, "error %s\n", js.err);
	jscan_done(&js);
	source_close(src);
	return strbuf_take(&sb);
}

/* The same tokens token by token, for comparison: a flat object's are
 * joined as scan_flat() writes them (no places inside the object). */
static char *
scan_joined(const char *text, const struct jscan_limits *lim)
{
	struct source *src = source_from_bytes(text, strlen(text));
	struct jscan js;
	struct strbuf sb;
	enum jscan_tok t;
	int in = 0;     /* depth of the object being joined, 0: none */

	memset(&sb, 0, sizeof sb);
	jscan_init(&js, src, 0, lim);
	while ((t = jscan_next(&js)) != JSCAN_EOF && t != JSCAN_ERROR) {
		if (in && t == JSCAN_OBJ_END && js.depth == in - 1)
			strbuf_addf(&sb, "\n");
		if (!in || (t == JSCAN_OBJ_END && js.depth == in - 1))
			strbuf_addf(&sb, "%llu:%llu ", (unsigned long long)js.line, (unsigned long long)js.col);
		switch (t) {
		case JSCAN_KEY: strbuf_addf(&sb, "k(%s)", js.str); break;
		case JSCAN_STRING: strbuf_addf(&sb, "s(%s)", js.str); break;
		case JSCAN_NUMBER: strbuf_addf(&sb, "n(%a)", js.num); break;
		default: strbuf_addf(&sb, "%s", jscan_tok_name(t)); break;
		}
		if (t == JSCAN_OBJ_BEGIN && !in)
			in = js.depth;
		else if (t == JSCAN_OBJ_END && in && js.depth == in - 1)
			in = 0;
		if (!in || t == JSCAN_OBJ_BEGIN)
			strbuf_addf(&sb, "\n");
	}
	if (t == JSCAN_ERROR)
		strbuf_addf(&sb, "error %s\n", js.err);
	jscan_done(&js);
	source_close(src);
	return strbuf_take(&sb);
}

/* A flat object read at once (jscan_flat) stands for the tokens
 * jscan_next() gives, numbers with the same bits, and leaves the scanner
 * where they do: the closing brace's line and column, the next tokens'. */
static void
test_jscan_flat_object_is_its_tokens(void **state)
{
	static const char *const texts[] = {
		"[{\n    \"type\": \"torch.Tensor\",\n    \"shape\": [\n     64,\n     1024\n    ],\n"
		"    \"Max\": 0.515625,\n    \"Norm\": 1.2848653261139862,\r\n\t\"requires_grad\": true\n   },\n"
		"   {}, {\"a\":null,\"b\":false,\"c\":[],\"d\":-0,\"e\":1.5e-3,\"f\":12345678901234567890123,"
		"\"g\":0.000000001234567890123456789,\"h\":-7E+2,\"i\":25e300,\"k\":2.5e+3,\"j\":1e-310}\n,{\"x\": 1} ]",
		"{\"n\": 2.5}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(texts); i++) {
		int taken = 0, none = 0;
		char *flat = scan_flat(texts[i], NULL, true, &taken), *plain = scan_flat(texts[i], NULL, false, &none);
		char *joined = scan_joined(texts[i], NULL);

		assert_true(taken > 0);
		assert_int_equal(none, 0);
		(void)plain;
		assert_string_equal(flat, joined);
		free(flat);
		free(plain);
		free(joined);
	}
	{
		/* the closing brace's place, written down from the text */
		int taken = 0;
		char *flat = scan_flat(texts[0], NULL, true, &taken);

		assert_int_equal(taken, 4);
		assert_non_null(strstr(flat, "\n10:4 '}'\n11:4 '{'\n"));
		assert_non_null(strstr(flat, "'}'\n12:2 '{'\n"));
		assert_non_null(strstr(flat, "12:9 '}'\n12:11 ']'\n"));
		free(flat);
	}
}

/* An object jscan_flat() does not take is left whole to jscan_next(),
 * which gives its tokens and errors as if it had not been asked. */
static void
test_jscan_flat_declines_and_consumes_nothing(void **state)
{
	static const struct jscan_limits lim = { 2, 8, 6 };
	static const char *const texts[] = {
		"[{\"a\": \"t\\u0041b\"}]",     /* an escape */
		"[{\"a\": \"\xC3\xA9\"}]",      /* UTF-8 */
		"[{\"a\": {\"b\": \"\\u0041\"}}]",        /* nested */
		"[{\"a\": [\"s\"]}]",           /* an array of strings */
		"[{\"a\": [[1]]}]",
		"[{\"a\": NaN, \"b\": -Infinity}]",
		"[{\"a\": 1.}]",                /* errors, each the token path's */
		"[{\"a\": 1 \"b\": 2}]",
		"[{\"a\": 01}]",
		"[{\"a\": tru}]",
		"[{\"a\": 1,}]",
		"[{\"a\": 1e}]",
		"[{\"a\": [1,]}]",
		"[{\"a\": 1",
		"[{\"a\": \"bcdefghij\"}]",     /* past the limits */
		"[{\"a\": 1234567}]",
		"[{\"a\": [1]}]",              /* the array past the depth limit */
		"[{\"1\":1,\"2\":2,\"3\":3,\"4\":4,\"5\":5,\"6\":6,\"7\":7,\"8\":8,\"9\":9,\"10\":0,"
		"\"11\":1,\"12\":2,\"13\":3,\"14\":4,\"15\":5,\"16\":6,\"17\":7}]",
		"[{\"a\": [1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7]}]",
	};
	size_t i;

	(void)state;
	for (i = 0; i < TD_ARRAY_SIZE(texts); i++) {
		const struct jscan_limits *l = i >= 14 && i <= 16 ? &lim : NULL;
		int taken = 0, none = 0;
		char *flat = scan_flat(texts[i], l, true, &taken), *plain = scan_flat(texts[i], l, false, &none);

		if (taken)
			fail_msg("'%s' was read at once", texts[i]);
		assert_string_equal(flat, plain);
		free(flat);
		free(plain);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jscan_tokens_of_an_entry),
		cmocka_unit_test(test_jscan_python_nonfinite_tokens),
		cmocka_unit_test(test_jscan_error_names_line_and_column),
		cmocka_unit_test(test_jscan_limits_depth_string_number),
		cmocka_unit_test(test_jscan_invalid_utf8_is_replaced),
		cmocka_unit_test(test_jscan_truncated_at_every_byte),
		cmocka_unit_test(test_jscan_member_scan_mid_file),
		cmocka_unit_test(test_jscan_skip_and_chunk_boundaries),
		cmocka_unit_test(test_jscan_numbers_are_strtods_bits_across_chunks),
		cmocka_unit_test(test_jscan_fraction_digits_of_every_length_are_strtods),
		cmocka_unit_test(test_jscan_string_special_byte_at_every_position),
		cmocka_unit_test(test_jscan_flat_object_is_its_tokens),
		cmocka_unit_test(test_jscan_flat_declines_and_consumes_nothing),
		cmocka_unit_test(test_jscan_flat_deferred_numbers_are_strtods),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
