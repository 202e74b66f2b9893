/*
 * decnum.c - decimal text to double (decnum.h): the exact fast path for
 * short mantissas and small powers of ten, strtod for the rest.
 *
 * Why it is exact: a mantissa m <= 2^53 is a double exactly, and so is
 * 10^k for k <= 22 (5^22 < 2^53); one IEEE multiply or divide of two exact
 * operands is rounded once, to nearest, which is what strtod's correct
 * rounding gives.  This needs double arithmetic evaluated in double
 * (FLT_EVAL_METHOD 0: SSE2 and every 64-bit target); elsewhere the fast
 * path is off and strtod answers everything.
 *
 * The 17-digit texts of shortest round-trip printing (Python's repr of a
 * float32 statistic: 0.10000000149011612) pass 2^53.  Where long double is
 * x87's 64-bit-mantissa format, a mantissa below 2^64 and 10^k for k <= 27
 * are exact in it, so one long double multiply or divide gives the value
 * rounded once to 64 bits; rounding that to double's 53 bits is the correct
 * rounding of the true value unless the 11 dropped bits are exactly a half
 * (0x400): the true value is within half a long double ulp of the result,
 * and every other pattern is at least one such ulp from a halfway point
 * between doubles.  That one pattern goes to strtod.  Whether the x87
 * arithmetic really keeps 64 bits is checked once at run time: valgrind
 * emulates it with 53, and a precision-control word set to double would do
 * the same; then strtod answers instead.
 */
#include "decnum.h"

#include <float.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MANT_MAX ((uint64_t)1 << 53)
#define MAX_DIGITS 19           /* 10^19 - 1 < 2^64 */
#define EXP_CAP 100000          /* a bigger exponent is strtod's anyway */

static const double POW10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64
#define HAVE_X87_WIDE 1

static const long double POW10L[] = {
	1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
	1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L,
	1e26L, 1e27L,
};

bool
decnum_wide(void)
{
	static atomic_int state;        /* 0 not checked yet, 1 on, 2 off */
	int s = atomic_load_explicit(&state, memory_order_relaxed);

	if (!s) {
		/* volatile: computed here, not folded by the compiler */
		volatile uint64_t a = ((uint64_t)1 << 62) + 1, b = ((uint64_t)1 << 60) + 1;
		volatile long double ten = 10;
		long double ra = (long double)a, rb = (long double)b * ten;

		s = (uint64_t)ra == a && (uint64_t)rb == b * 10 && (uint64_t)(rb / ten) == b ? 1 : 2;
		atomic_store_explicit(&state, s, memory_order_relaxed);
	}
	return s == 1;
}

/* m * 10^e10 through x87's 64-bit mantissa (the file comment says why it
 * is exact); false for a power out of the table or a halfway pattern. */
static bool
wide(uint64_t m, int e10, double *out)
{
	long double r;
	uint64_t mant;

	if (e10 > 27 || e10 < -27 || !decnum_wide())
		return false;
	r = (long double)m;
	r = e10 >= 0 ? r * POW10L[e10] : r / POW10L[-e10];
	memcpy(&mant, &r, sizeof mant);         /* x87: the mantissa's 64 bits first */
	if ((mant & 0x7FF) == 0x400)
		return false;
	*out = (double)r;
	return true;
}
#else
bool
decnum_wide(void)
{
	return false;
}
#endif

/* Appends digit d to *m; false when the mantissa would pass 19 digits. */
static bool
add_digit(uint64_t *m, int *nd, int d)
{
	if (*m == 0 && d == 0)
		return true;            /* a leading zero: no significant digit */
	if (*nd >= MAX_DIGITS)
		return false;
	*m = *m * 10 + (uint64_t)d;
	(*nd)++;
	return true;
}

/* Parses the grammar into sign, mantissa and power of ten; false when the
 * text is outside it or the mantissa has more than 19 digits. */
static bool
split(const char *p, bool *neg, uint64_t *m, int *e10)
{
	int nd = 0, ex = 0;
	bool eneg = false;

	*neg = *p == '-';
	p += *neg;
	*m = 0;
	*e10 = 0;
	if (*p == '0') {
		p++;
	} else if (*p >= '1' && *p <= '9') {
		for (; *p >= '0' && *p <= '9'; p++)
			if (!add_digit(m, &nd, *p - '0'))
				return false;
	} else {
		return false;
	}
	if (*p == '.') {
		if (!(*++p >= '0' && *p <= '9'))
			return false;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (!add_digit(m, &nd, *p - '0'))
				return false;
			(*e10)--;
		}
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			eneg = *p++ == '-';
		if (!(*p >= '0' && *p <= '9'))
			return false;
		for (; *p >= '0' && *p <= '9'; p++)
			if (ex < EXP_CAP)
				ex = ex * 10 + (*p - '0');
		*e10 += eneg ? -ex : ex;
	}
	return *p == '\0';
}

bool
decnum_exact(bool neg, uint64_t m, int e10, double *out)
{
#if FLT_EVAL_METHOD == 0
	double v;

	if (m == 0) {
		*out = neg ? -0.0 : 0.0;        /* any exponent: zero */
		return true;
	}
	/* 12e22 is 120e21: move powers of ten into the mantissa while it
	 * stays exact */
	while (e10 > 22 && m <= MANT_MAX / 10)
		m *= 10, e10--;
	if (m > MANT_MAX || e10 > 22 || e10 < -22) {
#ifdef HAVE_X87_WIDE
		if (!wide(m, e10, &v))
			return false;
		*out = neg ? -v : v;
		return true;
#else
		return false;
#endif
	}
	v = (double)m;
	v = e10 >= 0 ? v * POW10[e10] : v / POW10[-e10];
	*out = neg ? -v : v;
	return true;
#else
	(void)neg;
	(void)m;
	(void)e10;
	(void)out;
	return false;
#endif
}

double
decnum_dec_value(const struct decnum_dec *d)
{
	char text[48];
	double v;

	if (decnum_exact(d->neg, d->m, d->e10, &v))
		return v;
	snprintf(text, sizeof text, "%s%llue%d", d->neg ? "-" : "", (unsigned long long)d->m,
		 (int)d->e10);
	return strtod(text, NULL);
}

bool
decnum_fast(const char *text, double *out)
{
	uint64_t m;
	int e10;
	bool neg;

	return split(text, &neg, &m, &e10) && decnum_exact(neg, m, e10, out);
}

double
decnum_parse(const char *text)
{
	double v;

	if (decnum_fast(text, &v))
		return v;
	return strtod(text, NULL);
}
