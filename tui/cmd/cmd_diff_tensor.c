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
#include <stdio.h>
#include <stdlib.h>

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
 * zeros; any other NaN/Inf makes every metric NaN ("Nan"). */
static bool
same_nonfinite(double n, double b)
{
	return (isnan(n) && isnan(b)) || (isinf(n) && n == b);
}

void
cmd_csv_tensor_metrics(const struct td_tensor *n, const struct td_tensor *b,
		       struct cmd_csv_tmetrics *m)
{
	double dot = 0, nn = 0, bb = 0, sq = 0, maxabs = 0, maxrel = 0;
	int64_t i, one = 0, five = 0;

	m->cosine = m->eucdist = m->max_abs = m->max_rel = m->one = m->five = NAN;
	m->cosine_unsupported = false;
	m->nonfinite_mismatch = false;
	if (!n || !b || n->n != b->n)
		return;
	for (i = 0; i < n->n; i++) {
		double x = td_tensor_get(n, i), y = td_tensor_get(b, i), d, re;

		if (same_nonfinite(x, y))
			x = y = 0;
		if (!isfinite(x) || !isfinite(y)) {
			m->nonfinite_mismatch = true;  /* a NaN/Inf the other side lacks */
			return;
		}
		d = fabs(x - y);
		/* the tool adds float32's eps where Bench is 0 */
		re = d / (y == 0 ? FLT_EPSILON : fabs(y));
		dot += x * y, nn += x * x, bb += y * y, sq += d * d;
		maxabs = fmax(maxabs, d);
		maxrel = fmax(maxrel, re);
		one += re < 0.001;
		five += re < 0.005;
	}
	/* the tool writes every metric but EucDist through its format_value,
	 * rounded to 12 decimals, and a cosine above 0.9999 to 6 */
	m->eucdist = sqrt(sq);
	m->max_abs = py_round(maxabs, 12);
	m->max_rel = py_round(maxrel, 12);
	m->one = n->n ? py_round((double)one / (double)n->n, 12) : NAN;
	m->five = n->n ? py_round((double)five / (double)n->n, 12) : NAN;
	if (n->n <= 1)
		m->cosine_unsupported = true;
	else if (sqrt(nn) <= DBL_EPSILON && sqrt(bb) <= DBL_EPSILON)
		m->cosine = 1;      /* the tool: both norms at most float64's eps */
	else if (sqrt(nn) > DBL_EPSILON && sqrt(bb) > DBL_EPSILON)
		m->cosine = py_round(dot / (sqrt(nn) * sqrt(bb)), 12);
	if (m->cosine > 0.9999)
		m->cosine = py_round(m->cosine, 6);
}
