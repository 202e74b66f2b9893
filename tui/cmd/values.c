/*
 * values.c - value ranges, value queries and element coordinates (see
 * values.h).
 */
#include "values.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *
ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* A number or inf/-inf/+inf at *pp; advances past it. */
static bool
parse_bound(const char **pp, double *v)
{
	const char *p = ws(*pp);
	char *end;
	int sign = 1;

	if (*p == '-' || *p == '+') {
		sign = *p == '-' ? -1 : 1;
		if (strncasecmp(ws(p + 1), "inf", 3) == 0) {
			*v = sign * INFINITY;
			*pp = ws(p + 1) + 3;
			return true;
		}
	} else if (strncasecmp(p, "inf", 3) == 0) {
		*v = INFINITY;
		*pp = p + 3;
		return true;
	}
	*v = strtod(p, &end);
	if (end == p || isnan(*v))
		return false;
	*pp = end;
	return true;
}

/* "[a, b]" at *pp. */
static bool
parse_pair(const char **pp, double *lo, double *hi, char *err, size_t errlen)
{
	const char *p = ws(*pp);

	if (*p != '[') {
		snprintf(err, errlen, "expected '[' at \"%.20s\"", p);
		return false;
	}
	p++;
	if (!parse_bound(&p, lo) || *(p = ws(p)) != ',' || (p++, !parse_bound(&p, hi)) ||
	    *(p = ws(p)) != ']') {
		snprintf(err, errlen, "a range is [LOW, HIGH] with numbers or inf: \"%.20s\"", *pp);
		return false;
	}
	if (*lo > *hi) {
		snprintf(err, errlen, "range [%g, %g]: the low bound is above the high one", *lo, *hi);
		return false;
	}
	*pp = p + 1;
	return true;
}

bool
value_ranges_parse(const char *text, struct value_ranges *r, char *err, size_t errlen)
{
	const char *p = ws(text);

	memset(r, 0, sizeof *r);
	if (p[0] == '[' && ws(p + 1)[0] != '[') {   /* a single [a, b] */
		if (!parse_pair(&p, &r->lo[0], &r->hi[0], err, errlen))
			return false;
		r->n = 1;
	} else {
		if (*p != '[') {
			snprintf(err, errlen, "ranges are [[LOW, HIGH], ...], e.g. [[-inf,-1],[1,inf]]");
			return false;
		}
		p++;
		for (;;) {
			if (r->n == VALUES_MAX_RANGES) {
				snprintf(err, errlen, "at most %d ranges", VALUES_MAX_RANGES);
				return false;
			}
			if (!parse_pair(&p, &r->lo[r->n], &r->hi[r->n], err, errlen))
				return false;
			r->n++;
			p = ws(p);
			if (*p == ',') {
				p++;
				continue;
			}
			if (*p != ']') {
				snprintf(err, errlen, "expected ',' or ']' at \"%.20s\"", p);
				return false;
			}
			p++;
			break;
		}
	}
	if (*ws(p)) {
		snprintf(err, errlen, "unexpected \"%.20s\" after the ranges", ws(p));
		return false;
	}
	return true;
}

bool
value_ranges_contains(const struct value_ranges *r, double v)
{
	for (int i = 0; i < r->n; i++)
		if (v >= r->lo[i] && v <= r->hi[i])
			return true;
	return false;
}

static void
add_bound(struct strbuf *sb, double v)
{
	if (isinf(v))
		strbuf_adds(sb, v < 0 ? "-inf" : "inf");
	else
		strbuf_add_double(sb, v);
}

void
value_ranges_format(const struct value_ranges *r, struct strbuf *sb)
{
	strbuf_addc(sb, '[');
	for (int i = 0; i < r->n; i++) {
		strbuf_adds(sb, i ? ", [" : "[");
		add_bound(sb, r->lo[i]);
		strbuf_adds(sb, ", ");
		add_bound(sb, r->hi[i]);
		strbuf_addc(sb, ']');
	}
	strbuf_addc(sb, ']');
}

bool
value_query_parse(const char *text, struct value_query *q)
{
	static const struct { const char *name; enum value_query_kind kind; } words[] = {
		{ "nan", VQ_NAN }, { "inf", VQ_INF }, { "+inf", VQ_POS_INF },
		{ "-inf", VQ_NEG_INF }, { "nonfinite", VQ_NONFINITE },
	};
	char *end;

	memset(q, 0, sizeof *q);
	for (size_t i = 0; i < TD_ARRAY_SIZE(words); i++)
		if (strcasecmp(text, words[i].name) == 0) {
			q->kind = words[i].kind;
			return true;
		}
	q->v = strtod(text, &end);
	if (end == text || *end || !isfinite(q->v))
		return false;
	q->kind = VQ_NUMBER;
	return true;
}

bool
value_query_match(const struct value_query *q, double x)
{
	char a[32], b[32];

	switch (q->kind) {
	case VQ_NAN:       return isnan(x);
	case VQ_INF:       return isinf(x);
	case VQ_POS_INF:   return isinf(x) && x > 0;
	case VQ_NEG_INF:   return isinf(x) && x < 0;
	case VQ_NONFINITE: return !isfinite(x);
	case VQ_NUMBER:
		if (!isfinite(x))
			return false;
		if (x == q->v)
			return true;
		snprintf(a, sizeof a, "%.6g", x);
		snprintf(b, sizeof b, "%.6g", q->v);
		return strcmp(a, b) == 0;
	}
	return false;
}

void
value_coords(const struct td_tensor *t, int64_t idx, struct strbuf *sb)
{
	int64_t c[TD_MAX_DIMS * 8];
	int rank = t->rank < (int)TD_ARRAY_SIZE(c) ? t->rank : (int)TD_ARRAY_SIZE(c);

	for (int a = rank - 1; a >= 0; a--) {
		int64_t d = t->dims[a] > 0 ? t->dims[a] : 1;
		c[a] = idx % d;
		idx /= d;
	}
	strbuf_addc(sb, '[');
	for (int a = 0; a < rank; a++)
		strbuf_addf(sb, "%s%lld", a ? "," : "", (long long)c[a]);
	strbuf_addc(sb, ']');
}

bool
value_coords_parse(const struct td_tensor *t, const char *text, int64_t *idx,
		   char *err, size_t errlen)
{
	const char *p = ws(text);
	bool bracket;
	int64_t off = 0;
	int a = 0;

	if (*p == '@')
		p = ws(p + 1);
	if ((bracket = *p == '['))
		p++;
	for (p = ws(p); *p && *p != ']'; a++) {
		char *end;
		long long v = strtoll(p, &end, 10), given = v;

		if (end == p) {
			snprintf(err, errlen, "an element is [i,j,...] with integers: \"%.20s\"", text);
			return false;
		}
		if (a >= t->rank) {
			snprintf(err, errlen, "%s: too many indices for a rank-%d tensor", text, t->rank);
			return false;
		}
		if (v < 0)
			v += t->dims[a];
		if (v < 0 || v >= t->dims[a]) {
			snprintf(err, errlen, "index %lld is out of bounds for axis %d of size %lld",
				 given, a, (long long)t->dims[a]);
			return false;
		}
		off = off * t->dims[a] + v;
		p = ws(end);
		if (*p == ',')
			p = ws(p + 1);
	}
	if ((bracket && *p != ']') || (!bracket && *p) || (bracket && *ws(p + 1))) {
		snprintf(err, errlen, "an element is [i,j,...]: \"%.20s\"", text);
		return false;
	}
	if (a != t->rank) {
		snprintf(err, errlen, "%s: a rank-%d tensor needs %d indices", text, t->rank, t->rank);
		return false;
	}
	*idx = off;
	return true;
}
