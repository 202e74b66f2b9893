/*
 * summary_assert.c - see summary_assert.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/unit/helpers/summary_assert.h"

#define SAME_DOUBLE(f) assert_memory_equal(&a->f, &b->f, sizeof a->f)

void
assert_same_summary(const struct td_summary *a, const struct td_summary *b, uint32_t ignore)
{
	assert_int_equal(a->known & ~ignore, b->known & ~ignore);
	assert_int_equal(a->dtype, b->dtype);
	assert_int_equal(a->rank, b->rank);
	assert_int_equal(a->ndims, b->ndims);
	assert_int_equal(a->dims_truncated, b->dims_truncated);
	if (a->ndims > 0)
		assert_memory_equal(a->dims, b->dims, (size_t)a->ndims * sizeof(a->dims[0]));
	assert_int_equal(a->elements, b->elements);
	assert_int_equal(a->nan, b->nan);
	assert_int_equal(a->neg_inf, b->neg_inf);
	assert_int_equal(a->pos_inf, b->pos_inf);
	assert_int_equal(a->negative, b->negative);
	assert_int_equal(a->zero, b->zero);
	assert_int_equal(a->positive, b->positive);
	assert_int_equal(a->has_inf_or_nan, b->has_inf_or_nan);
	SAME_DOUBLE(min);
	SAME_DOUBLE(max);
	SAME_DOUBLE(mean);
	SAME_DOUBLE(abs_mean);
	SAME_DOUBLE(std);
	SAME_DOUBLE(l2norm);
	if (!(ignore & SUM_TENSOR_ID))
		assert_int_equal(a->tensor_id, b->tensor_id);
	if (!(ignore & SUM_PERCENTILES))
		assert_memory_equal(a->pct, b->pct, sizeof a->pct);
}
