/*
 * tensor_slice.c - numpy-style slicing of a tensor ("[0:3, ::2, -1]"):
 * parsing a slice and resolving it against a tensor's shape into a
 * strided view (tensor.h, struct td_slice and struct td_slice_view).
 * Every error starts "bad slice".
 */
#include "tensor.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- numpy-style slicing ---------------------------------------------- */

static const char *
skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Parses an optional signed integer at *pp; returns false on a malformed one. */
static bool
parse_opt_int(const char **pp, int64_t *v, bool *has)
{
	const char *p = skip_ws(*pp);
	char *end;

	*has = false;
	if (*p != '-' && *p != '+' && (*p < '0' || *p > '9')) {
		*pp = p;
		return true;
	}
	errno = 0;
	*v = strtoll(p, &end, 10);
	if (end == p || errno == ERANGE)
		return false;
	*has = true;
	*pp = skip_ws(end);
	return true;
}

static enum td_status
slice_error(char *err, size_t errlen, const char *text, const char *what)
{
	snprintf(err, errlen, "bad slice \"%s\": %s", text, what);
	return TD_ERR_ARGS;
}

/* One comma-separated item: "3", "-1", ":", "1:5", "::2", "5:1:-1". */
static enum td_status
parse_slice_item(const char **pp, struct td_slice_dim *d, const char *text, char *err, size_t errlen)
{
	int64_t v;
	bool has;

	memset(d, 0, sizeof(*d));
	d->step = 1;
	if (!parse_opt_int(pp, &v, &has))
		return slice_error(err, errlen, text, "expected a number");
	if (**pp != ':') {
		if (!has)
			return slice_error(err, errlen, text, "empty index");
		d->index = true;
		d->start = v;
		return TD_OK;
	}
	d->has_start = has;
	d->start = has ? v : 0;
	(*pp)++;
	if (!parse_opt_int(pp, &v, &has))
		return slice_error(err, errlen, text, "expected a number after ':'");
	d->has_stop = has;
	d->stop = has ? v : 0;
	if (**pp != ':')
		return TD_OK;
	(*pp)++;
	if (!parse_opt_int(pp, &v, &has))
		return slice_error(err, errlen, text, "expected a step after '::'");
	if (has && v == 0)
		return slice_error(err, errlen, text, "slice step cannot be zero");
	if (has)
		d->step = v;
	return TD_OK;
}

enum td_status
td_slice_parse(const char *text, struct td_slice *out, char *err, size_t errlen)
{
	const char *p = skip_ws(text);
	bool bracket = *p == '[';
	enum td_status st;

	memset(out, 0, sizeof(*out));
	if (bracket)
		p = skip_ws(p + 1);
	if ((bracket && *p == ']') || (!bracket && *p == '\0')) {
		p = skip_ws(p + bracket);
		return *p ? slice_error(err, errlen, text, "text after ']'") : TD_OK;
	}
	for (;;) {
		if (!strncmp(p, "...", 3)) {            /* numpy's Ellipsis */
			if (out->has_ellipsis)
				return slice_error(err, errlen, text, "only one '...' is allowed");
			out->has_ellipsis = true;
			out->ellipsis = out->ndims;
			p = skip_ws(p + 3);
		} else {
			if (out->ndims == TD_MAX_DIMS)
				return slice_error(err, errlen, text, "too many dimensions");
			st = parse_slice_item(&p, &out->dims[out->ndims], text, err, errlen);
			if (st != TD_OK)
				return st;
			out->ndims++;
		}
		if (*p != ',')
			break;
		p = skip_ws(p + 1);
		if ((bracket && *p == ']') || (!bracket && !*p))
			break;                          /* "[0,]": a trailing comma, as numpy takes */
	}
	if (bracket) {
		if (*p != ']')
			return slice_error(err, errlen, text, "expected ',' or ']'");
		p = skip_ws(p + 1);
	}
	if (*p)
		return slice_error(err, errlen, text, *p == ']' ? "unbalanced ']'" : "unexpected character");
	return TD_OK;
}

/* numpy's rules for one range on an axis of size n.  Counts are computed
 * so that no step (INT64_MIN and INT64_MAX included) can overflow. */
static void
resolve_range(const struct td_slice_dim *d, int64_t n, int64_t *start, int64_t *count)
{
	int64_t step = d->step, a, b;
	uint64_t mag = step < 0 ? (uint64_t)0 - (uint64_t)step : (uint64_t)step;

	if (step > 0) {
		a = d->has_start ? d->start : 0;
		b = d->has_stop ? d->stop : n;
		if (a < 0)
			a = TD_MAX(a + n, 0);
		if (b < 0)
			b = TD_MAX(b + n, 0);
		a = TD_MIN(a, n);
		b = TD_MIN(b, n);
		*count = b > a ? (int64_t)((uint64_t)(b - a - 1) / mag) + 1 : 0;
	} else {
		a = d->has_start ? d->start : n - 1;
		b = d->has_stop ? d->stop : -1 - n;
		if (a < 0)
			a = TD_MAX(a + n, -1);
		if (b < 0)
			b = TD_MAX(b + n, -1);
		a = TD_MIN(a, n - 1);
		b = TD_MIN(b, n - 1);
		*count = a > b ? (int64_t)((uint64_t)(a - b - 1) / mag) + 1 : 0;
	}
	*start = a;
}

int64_t
td_slice_view_elements(const struct td_slice_view *v)
{
	int64_t total = 1;
	int k;

	for (k = 0; k < v->ndims; k++)
		if (v->count[k] == 0)
			return 0;
	for (k = 0; k < v->ndims; k++)
		total = total > INT64_MAX / v->count[k] ? INT64_MAX : total * v->count[k];
	return total;
}

int64_t
td_slice_view_cost(const struct td_slice_view *v)
{
	int64_t cost = 1;
	int k;

	for (k = 0; k < v->ndims && v->count[k] > 0; k++)
		cost = cost > INT64_MAX / v->count[k] ? INT64_MAX : cost * v->count[k];
	return cost;
}

enum td_status
td_slice_view(const struct td_tensor *t, const struct td_slice *s, struct td_slice_view *v,
	      char *err, size_t errlen)
{
	int64_t stride = 1, strides[TD_MAX_DIMS + 1];
	int k, rank = t->rank, ns = s ? s->ndims : 0;
	struct td_slice full;

	memset(v, 0, sizeof(*v));
	if (ns > rank) {
		snprintf(err, errlen, "bad slice: too many indices: tensor has %d dimension%s, slice has %d",
			 rank, rank == 1 ? "" : "s", ns);
		return TD_ERR_ARGS;
	}
	if (s && s->has_ellipsis && ns < rank && rank <= TD_MAX_DIMS) {
		/* "...": full ranges for the axes the slice does not name */
		int e = s->ellipsis, fill = rank - ns;
		memset(&full, 0, sizeof(full));
		memcpy(full.dims, s->dims, (size_t)e * sizeof(full.dims[0]));
		for (k = 0; k < fill; k++)
			full.dims[e + k].step = 1;
		memcpy(full.dims + e + fill, s->dims + e, (size_t)(ns - e) * sizeof(full.dims[0]));
		full.ndims = rank;
		s = &full;
		ns = rank;
	}
	if (rank > TD_MAX_DIMS) {
		snprintf(err, errlen, "cannot print a tensor of rank %d (at most %d)", rank, TD_MAX_DIMS);
		return TD_ERR_UNSUPPORTED;
	}
	/* strides of an empty tensor are never used, and its other dims
	 * may multiply past int64 (0 x 2^40 x 2^40) */
	for (k = rank - 1; k >= 0; k--) {
		strides[k] = t->n > 0 ? stride : 0;
		if (t->n > 0)
			stride *= t->dims[k];
	}
	for (k = 0; k < rank; k++) {
		const struct td_slice_dim *d = k < ns ? &s->dims[k] : NULL;
		int64_t n = t->dims[k], start, count;

		if (d && d->index) {
			int64_t i = d->start < 0 ? d->start + n : d->start;

			if (i < 0 || i >= n) {
				snprintf(err, errlen, "bad slice: index %" PRId64 " is out of bounds for axis %d with size %" PRId64,
					 d->start, k, n);
				return TD_ERR_RANGE;
			}
			v->base += i * strides[k];
			continue;
		}
		if (d) {
			resolve_range(d, n, &start, &count);
		} else {
			start = 0;
			count = n;
		}
		v->base += start * strides[k];
		v->count[v->ndims] = count;
		/* one element needs no stride (and a huge step would overflow) */
		v->stride[v->ndims] = count > 1 ? (d ? d->step : 1) * strides[k] : 0;
		v->ndims++;
	}
	return TD_OK;
}
