/*
 * tensor_stats.c - statistics over a selection of a tensor's elements:
 * the k-th element of a slice view, the summary of a slice and the
 * percentiles (numpy's default linear method) of the finite elements.
 *
 * Pure functions over struct td_tensor; no format knowledge.  Not for the
 * statistics a dump stores (readers fill struct td_summary from those),
 * except td_summary_complete(): where a row's values are at hand, the
 * fields its stored statistics lack are filled from theirs.
 */
#include "tensor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const double TD_PERCENTILES[TD_NPERCENTILES] = { 1, 25, 50, 75, 99 };

int64_t
td_slice_view_index(const struct td_slice_view *v, int64_t k)
{
	int64_t off = v->base;

	for (int a = v->ndims - 1; a >= 0; a--) {
		int64_t c = v->count[a] > 0 ? v->count[a] : 1;

		off += (k % c) * v->stride[a];
		k /= c;
	}
	return off;
}

void
td_view_summarize(const struct td_tensor *t, const struct td_slice_view *v,
		  struct td_summary *out)
{
	int64_t n = td_slice_view_elements(v);
	size_t size = td_dtype_size(t->dtype);
	char *copy;

	if (!t->data || !size || n <= 0 || (uint64_t)n > SIZE_MAX / size ||
	    !(copy = malloc((size_t)n * size))) {
		td_summarize_raw(t->dtype, NULL, n, out);
		return;
	}
	for (int64_t k = 0; k < n; k++)
		memcpy(copy + (size_t)k * size,
		       (const char *)t->data + (size_t)td_slice_view_index(v, k) * size, size);
	td_summarize_raw(t->dtype, copy, n, out);
	free(copy);
	out->rank = v->ndims;
	out->ndims = v->ndims;
	for (int a = 0; a < v->ndims; a++)
		out->dims[a] = v->count[a];
	out->known |= SUM_RANK | SUM_SHAPE;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

bool
td_tensor_percentiles(const struct td_tensor *t, const struct td_slice_view *v,
		      struct td_summary *s)
{
	struct td_slice_view all = { .ndims = 1, .base = 0, .count = { t->n }, .stride = { 1 } };
	int64_t n, m = 0;
	double *x;

	if (!v)
		v = &all;
	n = td_slice_view_elements(v);
	if (!t->data || !td_dtype_size(t->dtype) || n <= 0 || n > TD_PERCENTILE_MAX ||
	    t->dtype == DTYPE_COMPLEX64 || t->dtype == DTYPE_COMPLEX128)
		return false;
	x = malloc((size_t)n * sizeof *x);
	if (!x)
		return false;
	for (int64_t k = 0; k < n; k++) {
		double d = td_tensor_get(t, td_slice_view_index(v, k));
		if (isfinite(d))
			x[m++] = d;
	}
	if (m > 0) {
		td_sort(x, (size_t)m, sizeof *x, cmp_double);
		for (int i = 0; i < TD_NPERCENTILES; i++) {
			double pos = TD_PERCENTILES[i] / 100.0 * (double)(m - 1);
			int64_t lo = (int64_t)floor(pos), hi = lo + 1 < m ? lo + 1 : lo;
			double frac = pos - (double)lo;
			/* numpy's lerp: exact at both ends, monotone */
			s->pct[i] = frac == 0 ? x[lo] : x[lo] + (x[hi] - x[lo]) * frac;
		}
		s->known |= SUM_PERCENTILES;
	}
	free(x);
	return m > 0;
}

uint32_t
td_summary_complete(struct td_summary *dst, const struct td_summary *vals)
{
	uint32_t add = vals->known & ~dst->known & TD_SUMMARY_VALUE_FIELDS;

	if (add & SUM_DTYPE)
		dst->dtype = vals->dtype;
	if (add & SUM_RANK)
		dst->rank = vals->rank;
	if (add & SUM_SHAPE) {
		dst->ndims = vals->ndims;
		dst->dims_truncated = vals->dims_truncated;
		memcpy(dst->dims, vals->dims, sizeof dst->dims);
	}
	if (add & SUM_ELEMENTS)
		dst->elements = vals->elements;
	if (add & SUM_NAN)
		dst->nan = vals->nan;
	if (add & SUM_NEG_INF)
		dst->neg_inf = vals->neg_inf;
	if (add & SUM_POS_INF)
		dst->pos_inf = vals->pos_inf;
	if (add & SUM_NEGATIVE)
		dst->negative = vals->negative;
	if (add & SUM_ZERO)
		dst->zero = vals->zero;
	if (add & SUM_POSITIVE)
		dst->positive = vals->positive;
	if (add & SUM_NONFINITE)
		dst->has_inf_or_nan = vals->has_inf_or_nan;
	if (add & SUM_MINMAX) {
		dst->min = vals->min;
		dst->max = vals->max;
	}
	if (add & SUM_MEAN)
		dst->mean = vals->mean;
	if (add & SUM_ABS_MEAN)
		dst->abs_mean = vals->abs_mean;
	if (add & SUM_STD)
		dst->std = vals->std;
	if (add & SUM_L2NORM)
		dst->l2norm = vals->l2norm;
	if (add & SUM_PERCENTILES)
		memcpy(dst->pct, vals->pct, sizeof dst->pct);
	dst->known |= add;
	return add;
}
