/*
 * xorshift.h - the unit tests' pseudo-random numbers: Marsaglia's
 * xorshift64 (shifts 13, 7, 17), on a state the test keeps and seeds (never
 * 0), so a failing case is the same case on every run.
 */
#ifndef TD_TEST_XORSHIFT_H
#define TD_TEST_XORSHIFT_H

#include <stdint.h>

static inline uint64_t
xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif
