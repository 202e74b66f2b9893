/*
 * cmd_diff_tensor.c - the tensor-mode metrics of diff --csv (the compare
 * tool's Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth and
 * Five Thousandths Err Ratio) from the full values of a pair, in one pass
 * over the elements, no copy.  The CSV itself is cmd_diff_csv.c.
 */
#include "cmd_diff_csv.h"

#include <float.h>
#include <math.h>

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
	m->eucdist = sqrt(sq);
	m->max_abs = maxabs;
	m->max_rel = maxrel;
	m->one = n->n ? (double)one / (double)n->n : NAN;
	m->five = n->n ? (double)five / (double)n->n : NAN;
	if (n->n <= 1)
		m->cosine_unsupported = true;
	else if (nn == 0 && bb == 0)
		m->cosine = 1;
	else if (nn > 0 && bb > 0)
		m->cosine = dot / (sqrt(nn) * sqrt(bb));
}
