/*
 * xorshift.h - the unit tests' pseudo-random numbers: Marsaglia's
 * xorshift64 (shifts 13, 7, 17), on a state the test keeps and seeds (never
 * 0), so a failing case is the same case on every run; and the doubles
 * the number-spelling tests draw from it.
 */
#ifndef TD_TEST_XORSHIFT_H
#define TD_TEST_XORSHIFT_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t
xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Doubles of every kind a number's spelling must get right, the kind by
 * i % 6, drawn from x: any bit pattern (NaN and Inf among them: the
 * caller skips what it does not want), a float32 widened, a short
 * decimal, an integer, a power of two or the double just under it, a
 * power of ten of either sign. */
static inline double
test_double_of_kind(uint64_t x, int i)
{
	double v;
	float f;
	uint32_t fb;

	switch (i % 6) {
	case 0: memcpy(&v, &x, sizeof v); return v;
	case 1: fb = (uint32_t)x; memcpy(&f, &fb, sizeof f); return f;
	case 2: return (double)(x % 100000000) / pow(10, (double)(x >> 40 & 15));
	case 3: return (double)(int64_t)(x % 2000001) - 1000000;
	case 4: v = ldexp(1.0, (int)(x % 2098) - 1074); return (x >> 20 & 1) ? nextafter(v, 0) : v;
	default: return pow(10, (double)((int)(x % 600) - 300)) * ((x >> 30 & 1) ? -1 : 1);
	}
}

#endif
