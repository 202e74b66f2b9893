/*
 * cmd_diff_tensor.c - the tensor-mode metrics of diff --csv (the compare
 * tool's Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth and
 * Five Thousandths Err Ratio) from the full values of a pair, in one pass
 * over the elements, no copy, rounded as the tool writes them.  The CSV
 * itself is cmd_diff_csv.c.
 */
#include "cmd_diff_csv.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v rounded to nd decimals as Python's float('{:.Nf}'.format(v)) and
 * round(v, nd) give it: printf's %.*f is correctly rounded, as Python's
 * formatting is, and reads back to the nearest double. */
static double
py_round(double v, int nd)
{
	char buf[400];

	if (!isfinite(v) || fabs(v) >= 1e300)
		return v;
	snprintf(buf, sizeof buf, "%.*f", nd, v);
	return strtod(buf, NULL);
}

/* Positions where both sides hold the same NaN or Inf count as equal
 * zeros; any other NaN/Inf makes every metric "N/A". */
static bool
same_nonfinite(double n, double b)
{
	return (isnan(n) && isnan(b)) || (isinf(n) && n == b);
}

static bool
same_shape(const struct td_tensor *n, const struct td_tensor *b)
{
	int k;

	if (n->rank != b->rank)
		return false;
	for (k = 0; k < n->rank; k++)
		if (n->dims[k] != b->dims[k])
			return false;
	return true;
}

/* The dtype the tool's numpy array has: a bfloat16 tensor is read as
 * float32 (numpy has no bfloat16). */
static enum td_dtype
np_dtype(enum td_dtype t)
{
	return t == DTYPE_BFLOAT16 ? DTYPE_FLOAT32 : t;
}

/* Appends the tool's words to the Err_message (it joins them bare). */
static void
add_msg(struct cmd_csv_tmetrics *m, const char *msg)
{
	size_t l = strlen(m->msg);

	snprintf(m->msg + l, sizeof m->msg - l, "%s", msg);
}

/* The arithmetic the tool's relative error is computed in: the arrays'
 * own float type when Bench's is one (numpy's promotion: float16 with
 * float16 stays half), else both as float64. */
enum arith { AR_HALF, AR_FLOAT, AR_DOUBLE };

static enum arith
arith_of(enum td_dtype n, enum td_dtype b)
{
	n = np_dtype(n), b = np_dtype(b);
	if (b == DTYPE_FLOAT16 && n == DTYPE_FLOAT16)
		return AR_HALF;
	if ((b == DTYPE_FLOAT16 || b == DTYPE_FLOAT32) &&
	    (n == DTYPE_FLOAT16 || n == DTYPE_FLOAT32))
		return AR_FLOAT;
	return AR_DOUBLE;
}

/* v rounded to the nearest float16 value (ties to even; overflow to inf):
 * numpy's half arithmetic rounds each result so. */
static double
to_half(double v)
{
	double a = fabs(v), ulp, inv, q;
	uint64_t bits;
	int e;

	if (!isfinite(v) || v == 0)
		return v;
	if (a >= 65520.0)
		return copysign(INFINITY, v);
	memcpy(&bits, &a, sizeof bits);
	e = (int)((bits >> 52) & 0x7ff) - 1023;  /* a in [2^e, 2^(e+1)) */
	if (e < -14)
		e = -14;            /* subnormal halves: one ulp of 2^-24 */
	/* ulp 2^(e-10) and its inverse as bit patterns: both normal doubles */
	bits = (uint64_t)(e - 10 + 1023) << 52;
	memcpy(&ulp, &bits, sizeof ulp);
	bits = (uint64_t)(10 - e + 1023) << 52;
	memcpy(&inv, &bits, sizeof inv);
	q = a * inv;                /* exact: a power of two; q < 2^11 */
	q = (q + 0x1p52) - 0x1p52;  /* round half to even (the default mode) */
	return copysign(q * ulp, v);
}

/* The eps the tool adds where Bench is 0: that of Bench's array type
 * (float64's when it is no float). */
static double
eps_of(enum td_dtype b)
{
	b = np_dtype(b);
	return b == DTYPE_FLOAT16 ? 0.0009765625 : b == DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
}

/* The tool's RE of one element, |(N - B) / B| with eps added to both
 * where B is 0, each step rounded to the arithmetic's type. */
static double
rel_err(double x, double y, enum arith t, double eps)
{
	if (t == AR_FLOAT) {
		float xf = (float)x, yf = (float)y;

		if (yf == 0) {
			yf = (float)eps;
			xf = xf + (float)eps;
		}
		return fabsf((xf - yf) / yf);
	}
	if (t == AR_HALF) {
		if (y == 0) {
			y = eps;
			x = to_half(x + eps);
		}
		return fabs(to_half(to_half(x - y) / y));
	}
	if (y == 0) {
		y = eps;
		x = x + eps;
	}
	return fabs((x - y) / y);
}

/* The ratios' thresholds as the tool compares them: in the array's type. */
static double
threshold(double v, enum arith t)
{
	return t == AR_FLOAT ? (double)(float)v : t == AR_HALF ? to_half(v) : v;
}

/* The tool's checks before the metrics, in its order (empty, shapes, 0-d
 * here; NaN/Inf positions, then dtype, in the pass over the elements);
 * the first that fails gives the Err_message (and, but for 0-d and dtype,
 * the one word of every metric).  False when no metric is computed. */
static bool
precheck(const struct td_tensor *n, const struct td_tensor *b, struct cmd_csv_tmetrics *m)
{
	if (n->n == 0) {
		m->word = "unsupported";
		add_msg(m, "This is empty data, can not compare.");
		return false;
	}
	if (!same_shape(n, b)) {
		m->word = "shape unmatched";
		add_msg(m, "Shape of NPU and bench tensor do not match. Skipped.");
		return false;
	}
	if (n->rank == 0) {
		m->scalar = true;
		m->cosine_unsupported = true;
		add_msg(m, "This is type of 0-d tensor, can not calculate 'Cosine', 'EucDist', "
			"'One Thousandth Err Ratio' and 'Five Thousandths Err Ratio'. ");
		return true;
	}
	return true;                /* NaN/Inf positions and dtype: in the pass */
}

void
cmd_csv_tensor_metrics(const struct td_tensor *n, const struct td_tensor *b,
		       struct cmd_csv_tmetrics *m)
{
	double dot = 0, nn = 0, bb = 0, sq = 0, maxabs = 0, maxrel = 0, t1, t5, eps;
	int64_t i, one = 0, five = 0;
	enum arith t;

	memset(m, 0, sizeof(*m));
	m->cosine = m->eucdist = m->max_abs = m->max_rel = m->one = m->five = NAN;
	if (!n || !b || !precheck(n, b, m))
		return;
	t = arith_of(n->dtype, b->dtype);
	t1 = threshold(0.001, t), t5 = threshold(0.005, t);
	eps = t == AR_DOUBLE ? DBL_EPSILON : eps_of(b->dtype);
	for (i = 0; i < n->n; i++) {
		double x = td_tensor_get(n, i), y = td_tensor_get(b, i), d, re;

		/* the tool zeroes shared NaN/Inf after its 0-d check: a 0-d
		 * pair keeps them (and a NaN difference) */
		if (!m->scalar && (!isfinite(x) || !isfinite(y))) {
			if (!same_nonfinite(x, y)) {
				m->nonfinite_mismatch = true;
				m->word = "N/A";
				add_msg(m, "The position of inf or nan in NPU and bench Tensor "
					"do not match.");
				return;
			}
			x = y = 0;
		}
		d = fabs(x - y);
		re = rel_err(x, y, t, eps);
		dot += x * y, nn += x * x, bb += y * y, sq += d * d;
		maxabs = i == 0 || d > maxabs ? d : maxabs;
		maxrel = i == 0 || re > maxrel ? re : maxrel;
		one += re < t1;
		five += re < t5;
	}
	/* the tool writes every metric but EucDist through its format_value,
	 * rounded to 12 decimals, and a cosine above 0.9999 to 6 */
	if (!m->scalar && np_dtype(n->dtype) != np_dtype(b->dtype))
		add_msg(m, "Dtype of NPU and bench tensor do not match.");
	m->max_abs = py_round(maxabs, 12);
	m->max_rel = py_round(maxrel, 12);
	if (m->scalar)
		return;             /* the rest "unsupported" */
	m->eucdist = sqrt(sq);
	m->one = py_round((double)one / (double)n->n, 12);
	m->five = py_round((double)five / (double)n->n, 12);
	if (n->n <= 1)
		m->cosine_unsupported = true;
	else if (sqrt(nn) <= DBL_EPSILON && sqrt(bb) <= DBL_EPSILON)
		m->cosine = 1;      /* the tool: both norms at most float64's eps */
	else if (sqrt(nn) <= DBL_EPSILON)
		add_msg(m, "Cannot compare by Cosine Similarity, All the data is Zero in npu dump data.");
	else if (sqrt(bb) <= DBL_EPSILON)
		add_msg(m, "Cannot compare by Cosine Similarity, All the data is Zero in Bench dump data.");
	else
		m->cosine = py_round(dot / (sqrt(nn) * sqrt(bb)), 12);
	if (m->cosine > 0.9999)
		m->cosine = py_round(m->cosine, 6);
}
