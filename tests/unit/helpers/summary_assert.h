/*
 * summary_assert.h - a cmocka check that two summaries hold the same
 * facts, field by field (not memcmp: padding is not a fact), doubles
 * bit for bit (a NaN equals a NaN).
 */
#ifndef TD_TEST_SUMMARY_ASSERT_H
#define TD_TEST_SUMMARY_ASSERT_H

#include <stdint.h>

#include "reader/base/tensor.h"

/* Fails the running test unless a and b agree in every field, leaving out
 * the `known` bits in ignore and, where ignore has them, the tensor id
 * (SUM_TENSOR_ID) and the percentiles (SUM_PERCENTILES); dims are
 * compared up to ndims. */
void assert_same_summary(const struct td_summary *a, const struct td_summary *b, uint32_t ignore);

#endif
