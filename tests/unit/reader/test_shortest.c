/*
 * test_shortest.c - shortest_digits (reader/base/shortest.h) against the
 * definition: the fewest significant digits whose correctly rounded
 * decimal (printf's %.*e) reads back (strtod) as the double; that decimal
 * is the nearest of its length.  On doubles of every kind: random bit
 * patterns, float32 values widened, short decimals, integers, powers of
 * two and ten and their neighbours, the smallest and largest normals and
 * subnormals.  Where the fast path answers, it must be exactly that; it
 * may decline (0), and must not decline often (its point is speed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/shortest.h"
#include "reader/base/util.h"
#include "tests/unit/helpers/xorshift.h"

/* s's digits (no point) into d and the exponent of its first digit. */
static int
split(const char *s, char *d, int *exp_sci)
{
	const char *x = strchr(s, 'e'), *p;
	int n = 0;

	for (p = s; p < x; p++)
		if (*p != '.')
			d[n++] = *p;
	d[n] = '\0';
	*exp_sci = atoi(x + 1);
	return n;
}

/* The definition (Python's repr): the fewest significant digits that read
 * back (strtod) as v, the nearest to v of that many.  For each count p
 * from one: the correctly rounded decimal (printf's %.*e), else its
 * neighbour across v (at a power of two the lower boundary is nearer
 * than the upper, and only that neighbour can read back then).  Digits
 * without trailing zeros, v = DIGITS x 10^exp10. */
static bool as_float;           /* reference: read back with strtof */

static bool
reads_back(const char *s, double v)
{
	return as_float ? (double)strtof(s, NULL) == v : strtod(s, NULL) == v;
}

static int
reference(double v, char *digits, int *exp10)
{
	char buf[48], d[24], nb[48];
	int p, n, e, k;

	for (p = 1; p <= 17; p++) {
		snprintf(buf, sizeof buf, "%.*e", p - 1, v);
		n = split(buf, d, &e);
		if (!reads_back(buf, v)) {
			/* one unit in the last place toward v */
			int up = strtod(buf, NULL) < v;

			for (k = n - 1; k >= 0; k--) {
				if (up ? d[k] != '9' : d[k] != '0') {
					d[k] = (char)(d[k] + (up ? 1 : -1));
					break;
				}
				d[k] = up ? '0' : '9';
			}
			if (k < 0 && up) {          /* 99..9 + 1: 10..0 */
				d[0] = '1';
				e++;
			}
			if (d[0] == '0')            /* 10..0 - 1: a count tried before */
				continue;
			snprintf(nb, sizeof nb, "%c.%se%d", d[0], d + 1, e);
			if (!reads_back(nb, v))
				continue;
		}
		while (n > 1 && d[n - 1] == '0')
			n--;
		d[n] = '\0';
		strcpy(digits, d);
		*exp10 = e - (n - 1);
		return n;
	}
	fail();
	return 0;
}

static uint64_t rng = 88172645463325252ull;

static uint64_t
next(void)
{
	return xorshift64(&rng);
}

struct tally {
	unsigned long tried, declined;
};

static void
check(double v, struct tally *t)
{
	char got[18], want[24];
	int ge = 0, we, n;

	if (!isfinite(v) || v <= 0)
		return;
	t->tried++;
	n = shortest_digits(v, got, &ge);
	if (n == 0) {
		t->declined++;
		return;
	}
	reference(v, want, &we);
	if (strcmp(got, want) != 0 || ge != we) {
		fprintf(stderr, "%a (%.17g): got %se%d, want %se%d\n", v, v, got, ge, want, we);
		fail();
	}
	assert_int_equal(n, (int)strlen(want));
}

static double
from_bits(uint64_t b)
{
	double v;

	memcpy(&v, &b, sizeof v);
	return v;
}

static void
test_shortest_random_bits(void **state)
{
	struct tally t = { 0 };

	(void)state;
	for (int i = 0; i < 80000; i++)
		check(from_bits(next() & ~((uint64_t)1 << 63)), &t);
	assert_true(t.tried > 75000);
	assert_true(t.declined * 100 < t.tried);    /* under 1% */
}

static void
test_shortest_float32_and_decimals(void **state)
{
	struct tally t = { 0 };

	(void)state;
	for (int i = 0; i < 30000; i++) {
		uint32_t b = (uint32_t)next() & 0x7fffffffu;
		float f;

		memcpy(&f, &b, sizeof f);
		check((double)f, &t);                     /* a statistic of a float32 tensor */
		check((double)(next() % 100000000) / pow(10, (double)(next() % 12)), &t);
		check((double)(next() % 1000) * pow(10, (double)(int)(next() % 40) - 20), &t);
	}
	assert_true(t.declined * 100 < t.tried);
}

static void
test_shortest_edges(void **state)
{
	struct tally t = { 0 };
	int e;

	(void)state;
	for (e = -1074; e <= 1023; e++) {
		double p = ldexp(1.0, e);

		check(p, &t);
		check(nextafter(p, 0), &t);
		check(nextafter(p, INFINITY), &t);
		check(p * 3, &t);
	}
	for (e = -323; e <= 308; e++) {
		double p = pow(10, e);

		check(p, &t);
		check(nextafter(p, 0), &t);
		check(nextafter(p, INFINITY), &t);
	}
	check(DBL_MIN, &t);
	check(DBL_MAX, &t);
	check(DBL_TRUE_MIN, &t);
	check(nextafter(DBL_MIN, 0), &t);
	check(nextafter(DBL_TRUE_MIN, 1), &t);
	for (e = 1; e < 100000; e++)
		check((double)e, &t);
	check(0.1, &t);
	check(0.3, &t);
	check(0.1 + 0.2, &t);
	check(1.0 / 3, &t);
	check(5e-324, &t);
	/* Python 3's repr(2.0 ** e) for powers of two whose 16-digit answer
	 * is not the correctly rounded 16 digits (the upper neighbour): */
	{
		static const struct {
			int e;
			const char *digits;
			int exp10;
		} facts[] = {
			{ -1017, "7120236347223045", -322 }, { -1007, "7291122019556398", -319 },
			{ -957, "8209073602596753", -304 }, { -808, "5858190679279809", -259 },
		};
		char d[24];
		int x;

		for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
			reference(ldexp(1.0, facts[i].e), d, &x);
			assert_string_equal(d, facts[i].digits);
			assert_int_equal(x, facts[i].exp10);
			assert_int_equal(shortest_digits(ldexp(1.0, facts[i].e), d, &x), 16);
			assert_string_equal(d, facts[i].digits);
		}
	}
	check(9007199254740993.0, &t);
	/* zero, negatives and non-finite values are the caller's */
	{
		char d[18];
		int x;

		assert_int_equal(shortest_digits(0.0, d, &x), 0);
		assert_int_equal(shortest_digits(-1.5, d, &x), 0);
		assert_int_equal(shortest_digits(INFINITY, d, &x), 0);
		assert_int_equal(shortest_digits(NAN, d, &x), 0);
	}
}

/* shortest_digits_float against the definition with strtof: random
 * floats, subnormals, every power of two and its neighbours. */
static void
test_shortest_floats(void **state)
{
	unsigned long tried = 0, declined = 0;

	(void)state;
	as_float = true;
	for (int i = 0; i < 60000 + 3 * 277; i++) {
		char got[10], want[24];
		int ge = 0, we, n;
		float f;
		uint32_t b;

		if (i >= 60000) {
			int k = (i - 60000) / 3;

			f = ldexpf(1.0f, k - 149);
			f = i % 3 == 1 ? nextafterf(f, 0) : i % 3 == 2 ? nextafterf(f, INFINITY) : f;
		} else {
			b = (uint32_t)next() & (i % 4 ? 0x7fffffffu : 0x007fffffu);
			memcpy(&f, &b, sizeof f);
		}
		if (!isfinite(f) || f <= 0)
			continue;
		tried++;
		if ((n = shortest_digits_float(f, got, &ge)) == 0) {
			declined++;
			continue;
		}
		reference((double)f, want, &we);
		if (strcmp(got, want) != 0 || ge != we)
			fprintf(stderr, "%a: got %se%d, want %se%d\n", (double)f, got, ge, want, we);
		assert_string_equal(got, want);
		assert_int_equal(ge, we);
		assert_true(n <= 9);
	}
	as_float = false;
	assert_true(declined * 100 < tried);
}

/* strbuf_add_pyfloat spells a double as Python 3's repr does (the CSV
 * cells of diff --csv, msprobe's argument values): facts from python3. */
static void
test_pyfloat_is_python_repr(void **state)
{
	const struct {
		double v;
		const char *repr;
	} facts[] = {
		{ 0.0, "0.0" }, { -0.0, "-0.0" }, { 1.0, "1.0" }, { -1.5, "-1.5" }, { 0.1, "0.1" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { 1.0 / 3, "0.3333333333333333" },
		{ 1e16, "1e+16" }, { 1e15, "1000000000000000.0" },
		{ 123456789012345.6, "123456789012345.6" }, { 1e-4, "0.0001" }, { 1e-5, "1e-05" },
		{ 0.00012345, "0.00012345" }, { 5e-324, "5e-324" },
		{ 1.7976931348623157e308, "1.7976931348623157e+308" },
		{ 0x1p-1017, "7.120236347223045e-307" }, { -0x1p-1007, "-7.291122019556398e-304" },
		{ 0x1p-30, "9.313225746154785e-10" }, { 100.0, "100.0" }, { 1e22, "1e+22" },
		{ 1.5e-7, "1.5e-07" }, { 9007199254740994.0, "9007199254740994.0" },
		{ 3.0e-310, "3e-310" },
	};

	(void)state;
	for (size_t i = 0; i < 2 * sizeof facts / sizeof facts[0]; i++) {
		struct strbuf sb = { 0 };
		size_t f = i % (sizeof facts / sizeof facts[0]);

		strbuf_pyfloat_exact_only = i >= sizeof facts / sizeof facts[0];
		strbuf_add_pyfloat(&sb, facts[f].v);
		assert_string_equal(sb.buf, facts[f].repr);
		strbuf_done(&sb);
	}
	strbuf_pyfloat_exact_only = false;
	{
		struct strbuf sb = { 0 };

		strbuf_add_pyfloat(&sb, NAN);
		strbuf_adds(&sb, " ");
		strbuf_add_pyfloat(&sb, -INFINITY);
		assert_string_equal(sb.buf, "nan -inf");
		strbuf_done(&sb);
	}
}

/* Every power of two, through the fast way or the exact one, has the
 * reference's digits (46 of them once came out with 17 digits). */
static void
test_pyfloat_powers_of_two(void **state)
{
	(void)state;
	for (int k = 0; k < 2 * 2098; k++) {
		int e = -1074 + k % 2098;

		strbuf_pyfloat_exact_only = k >= 2098;  /* the exact way alone, too */
		struct strbuf sb = { 0 };
		char want[24], got[48];
		int x, n = 0;
		const char *p;

		reference(ldexp(1.0, e), want, &x);
		strbuf_add_pyfloat(&sb, ldexp(1.0, e));
		/* the digits of the spelling, no point, zeros or exponent */
		for (p = sb.buf; *p && *p != 'e'; p++)
			if (*p >= '0' && *p <= '9' && (n || *p != '0'))
				got[n++] = *p;
		while (n > 1 && got[n - 1] == '0')
			n--;
		got[n] = '\0';
		assert_string_equal(got, want);
		strbuf_done(&sb);
	}
	strbuf_pyfloat_exact_only = false;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shortest_random_bits),
		cmocka_unit_test(test_shortest_float32_and_decimals),
		cmocka_unit_test(test_shortest_edges),
		cmocka_unit_test(test_shortest_floats),
		cmocka_unit_test(test_pyfloat_is_python_repr),
		cmocka_unit_test(test_pyfloat_powers_of_two),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
