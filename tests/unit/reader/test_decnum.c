/*
 * test_decnum.c - decimal text to double (reader/parse/decnum.h): the
 * answer is strtod's bit for bit on edge cases (signed zero, subnormals,
 * overflow, 2^53 neighbours, long mantissas, huge exponents) and on many
 * random numbers, both digit strings and the shortest round-trip texts
 * Python's repr writes; the fast path is taken where it may be and only
 * there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/decnum.h"
#include "tests/unit/helpers/xorshift.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t
rnd(void)
{
	return xorshift64(&rng_state);
}

/* decnum_parse(text) has strtod's bits; returns whether the fast path took it. */
static bool
check(const char *text)
{
	double want = strtod(text, NULL), got = decnum_parse(text), fast;
	uint64_t wb, gb;
	bool took = decnum_fast(text, &fast);

	memcpy(&wb, &want, sizeof wb);
	memcpy(&gb, &got, sizeof gb);
	if (wb != gb)
		fail_msg("'%s': decnum %a (%016llx), strtod %a (%016llx)", text, got,
			 (unsigned long long)gb, want, (unsigned long long)wb);
	if (took) {
		memcpy(&gb, &fast, sizeof gb);
		if (wb != gb)
			fail_msg("'%s': fast path %a, strtod %a", text, fast, want);
	}
	return took;
}

static void
test_decnum_edge_cases_match_strtod(void **state)
{
	static const char *const texts[] = {
		"0", "-0", "0.0", "-0.0", "0e400", "-0e-400", "0.000e5", "1", "-1", "1.5", "0.1",
		"0.2", "0.3", "1e22", "1e23", "-1e22", "9e22", "1.2e23", "1e-22", "1e-23",
		"9007199254740992", "9007199254740993", "9007199254740994", "18014398509481985",
		"123456789012345678", "1234567890123456789", "12345678901234567890",
		"12345678901234567890123", "1.7976931348623157e308", "1.7976931348623159e308",
		"1e308", "1e309", "1e400", "-1e400", "1e99999999999", "4.9e-324", "5e-324",
		"2e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
		"2.2250738585072014e-308", "2.225073858507201e-308", "1e-400", "-1e-400",
		"0.000000000000000000000000001", "1.0000000000000000000000001",
		"1E5", "1e+5", "1e-5", "2.5E-3", "0.1e1", "100000000000000000000000",
		"0.30000000000000004", "0.1000000014901161193847656", "3.4028234663852886e+38",
		"1.401298464324817e-45", "7.2057594037927933e16", "5.0000000000000001",
		"8.98846567431158e307", "123.456e-7", "-987654321.123456789e-3",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++)
		check(texts[i]);
	/* the fast path takes exactly what it may */
	assert_true(check("0.1") && check("-0") && check("1e22") && check("1.5e-7"));
	assert_true(check("9007199254740992") && check("12e22") && check("1e23"));
	assert_false(check("1e300") || check("1e-28") || check("12345678901234567890") ||
		     check("1e400"));
#if defined(__x86_64__) && FLT_EVAL_METHOD == 0
	/* 17-19 digits through long double (on x86 hardware; off under
	 * valgrind's emulation); exact halfway points between two doubles
	 * (2^53 + 1, 2^54 + 2) are left to strtod, their neighbours one long
	 * double ulp away are not */
	{
		/* on when long double really has 64 bits here (another probe
		 * than decnum's own) */
		volatile uint64_t odd = ((uint64_t)1 << 53) + 1;
		volatile long double x = (long double)odd;

		assert_int_equal(decnum_wide(), (uint64_t)x == odd);
	}
	if (!decnum_wide())
		return;
	assert_true(check("0.10000000149011612") && check("1.2345678901234567e-05"));
	assert_true(check("9007199254740993.001") && check("9007199254740992.999"));
	assert_true(check("9007199254740993.01") && check("1234567890123456789e8"));
	assert_false(check("9007199254740993") || check("9007199254740995") ||
		     check("18014398509481986") || check("9007199254740993000e-3"));
#endif
}

static void
test_decnum_words_and_bad_text_are_not_fast(void **state)
{
	static const char *const texts[] = {
		"NaN", "Infinity", "-Infinity", "", "-", "1.", ".5", "01", "1e", "1e+", "--1",
		"1.5x", "+1", "0x10", " 1",
	};
	size_t i;
	double v = 7;

	(void)state;
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		assert_false(decnum_fast(texts[i], &v));
		assert_true(v == 7);
	}
	/* outside the grammar, decnum_parse still answers as strtod does */
	assert_true(isnan(decnum_parse("NaN")));
	assert_true(decnum_parse("-Infinity") == -INFINITY);
}

/* Random digit strings: 1-22 digits, a dot somewhere or none, an exponent
 * (mostly near the fast path's edge, sometimes anywhere in double's range). */
static void
test_decnum_random_digit_strings_match_strtod(void **state)
{
	char text[80];
	int k, fast = 0;

	(void)state;
	for (k = 0; k < 200000; k++) {
		int nd = 1 + (int)(rnd() % 22), dot = (int)(rnd() % (uint64_t)(nd + 2)), i;
		size_t n = 0;

		if (rnd() & 1)
			text[n++] = '-';
		for (i = 0; i < nd; i++) {
			if (i == dot && i > 0)
				text[n++] = '.';
			/* no leading zero (the grammar's "0" alone is covered above) */
			text[n++] = (char)('0' + (i == 0 ? 1 + rnd() % 9 : rnd() % 10));
			if (rnd() % 5 == 0 && i > 0)
				text[n - 1] = '0';      /* runs of zeros */
		}
		text[n] = '\0';
		if (rnd() % 4) {
			int e = (int)(rnd() % 61) - 30;

			if (rnd() % 8 == 0)
				e = (int)(rnd() % 701) - 350;
			snprintf(text + n, sizeof text - n, "%s%d", rnd() & 1 ? "e" : "E", e);
		}
		fast += check(text);
	}
	/* most of them fit the fast path's bounds */
	assert_true(fast > 50000);
}

/* Random doubles as the texts dumps hold: shortest round-trip (Python's
 * repr), %.17g, and short precisions, over the whole exponent range and
 * the subnormals. */
static void
test_decnum_random_doubles_match_strtod(void **state)
{
	char text[64];
	int k, fast = 0;

	(void)state;
	for (k = 0; k < 100000; k++) {
		uint64_t bits = rnd();
		double d;
		int prec;

		if (k % 3 == 0)
			bits = (bits & 0x800FFFFFFFFFFFFFull) | ((uint64_t)(1023 - 40 + rnd() % 80) << 52);
		else if (k % 3 == 1)
			bits &= 0x800FFFFFFFFFFFFFull;  /* subnormal */
		memcpy(&d, &bits, sizeof d);
		if (!isfinite(d))
			continue;
		for (prec = 1; prec <= 17; prec++) {
			snprintf(text, sizeof text, "%.*g", prec, d);
			if (strtod(text, NULL) == d)
				break;
		}
		fast += check(text);
		snprintf(text, sizeof text, "%.17g", d);
		check(text);
		snprintf(text, sizeof text, "%.*g", 1 + (int)(rnd() % 9), d);
		fast += check(text);
	}
	assert_true(fast > 50000);
}

/* Decimal texts at and near the halfway points between neighbouring
 * doubles (the one case the long double path must leave to strtod): the
 * midpoint is exact in long double, printed with 17 to 19 digits. */
static void
test_decnum_near_halfway_points_match_strtod(void **state)
{
	char text[64];
	int k, prec;

	(void)state;
	for (k = 0; k < 30000; k++) {
		uint64_t bits = (rnd() & 0x000FFFFFFFFFFFFFull) | ((uint64_t)(1023 - 60 + rnd() % 120) << 52);
		double d, up;
		long double mid;

		memcpy(&d, &bits, sizeof d);
		up = nextafter(d, INFINITY);
		mid = ((long double)d + (long double)up) / 2;
		for (prec = 16; prec <= 19; prec++) {
			snprintf(text, sizeof text, "%.*Lg", prec, mid);
			check(text);
			snprintf(text, sizeof text, "%.*Le", prec - 1, mid);
			check(text);
		}
		if (k < 2000) {   /* integers at ties: 2^53..2^63 odd multiples */
			uint64_t v = ((uint64_t)1 << (53 + k % 11)) + ((rnd() | 1) << (k % 11)) % ((uint64_t)1 << 53);

			snprintf(text, sizeof text, "%llu", (unsigned long long)v);
			check(text);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decnum_edge_cases_match_strtod),
		cmocka_unit_test(test_decnum_words_and_bad_text_are_not_fast),
		cmocka_unit_test(test_decnum_random_digit_strings_match_strtod),
		cmocka_unit_test(test_decnum_random_doubles_match_strtod),
		cmocka_unit_test(test_decnum_near_halfway_points_match_strtod),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
