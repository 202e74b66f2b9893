/*
 * hostlist.c - host ranges expanded and compressed (hostlist.h).
 *
 * Expansion walks an item left to right: the text before the first
 * bracket group is a prefix, each number of the group extends it, and the
 * rest of the item is expanded after it (so "r[1-2]n[1-2]" gives four
 * names).  Compression groups names by (prefix, digit width).
 */
#include "tui/cmd/hostlist.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct expand {
	char **names;
	size_t n, cap;
	const char *text;           /* the whole list, for messages */
	char *err;
	size_t errlen;
};

static int
fail(struct expand *x, const char *why)
{
	snprintf(x->err, x->errlen, "hostlist '%s': %s", x->text, why);
	return -1;
}

static int
push(struct expand *x, const char *name, size_t len)
{
	if (x->n >= HOSTLIST_MAX)
		return fail(x, "more than a million names");
	TD_GROW(x->names, x->cap, x->n + 1);
	x->names[x->n] = xmalloc(len + 1);
	memcpy(x->names[x->n], name, len);
	x->names[x->n][len] = '\0';
	x->n++;
	return 0;
}

/* A decimal number of digits only, at most 18 of them. */
static bool
parse_num(const char *s, size_t len, int64_t *v)
{
	size_t i;

	if (len == 0 || len > 18)
		return false;
	*v = 0;
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

static int expand_item(struct expand *x, struct strbuf *prefix, const char *s, size_t len);

/* One part "A" or "A-B" of a bracket group, each number appended to prefix
 * and the rest of the item expanded after it. */
static int
expand_part(struct expand *x, struct strbuf *prefix, const char *p, size_t plen,
	    const char *rest, size_t restlen)
{
	const char *dash = memchr(p, '-', plen);
	size_t alen = dash ? (size_t)(dash - p) : plen;
	size_t keep = prefix->len;
	int64_t a, b, v;

	if (!parse_num(p, alen, &a))
		return fail(x, "a range wants numbers (A or A-B)");
	b = a;
	if (dash && !parse_num(dash + 1, plen - alen - 1, &b))
		return fail(x, "a range wants numbers (A or A-B)");
	if (b < a)
		return fail(x, "a range goes down (A-B wants A <= B)");
	if (b - a >= HOSTLIST_MAX)
		return fail(x, "more than a million names");
	for (v = a; v <= b; v++) {
		strbuf_addf(prefix, "%0*" PRId64, (int)alen, v);
		if (expand_item(x, prefix, rest, restlen) < 0)
			return -1;
		prefix->len = keep;
		if (prefix->buf)
			prefix->buf[keep] = '\0';
	}
	return 0;
}

static int
expand_item(struct expand *x, struct strbuf *prefix, const char *s, size_t len)
{
	const char *open = memchr(s, '[', len), *close, *p, *end;
	size_t keep = prefix->len;
	int rc = 0;

	if (!open) {
		if (memchr(s, ']', len))
			return fail(x, "']' without '['");
		strbuf_add(prefix, s, len);
		rc = push(x, prefix->buf ? prefix->buf : "", prefix->len);
		prefix->len = keep;
		if (prefix->buf)
			prefix->buf[keep] = '\0';
		return rc;
	}
	close = memchr(open, ']', len - (size_t)(open - s));
	if (!close)
		return fail(x, "missing ']'");
	if (memchr(open + 1, '[', (size_t)(close - open - 1)) || memchr(s, ']', (size_t)(open - s)))
		return fail(x, "brackets do not nest");
	if (close == open + 1)
		return fail(x, "empty '[]'");
	strbuf_add(prefix, s, (size_t)(open - s));
	for (p = open + 1; rc == 0 && p < close; p = end + 1) {
		end = memchr(p, ',', (size_t)(close - p));
		if (!end)
			end = close;
		rc = expand_part(x, prefix, p, (size_t)(end - p), close + 1,
				 len - (size_t)(close + 1 - s));
	}
	prefix->len = keep;
	if (prefix->buf)
		prefix->buf[keep] = '\0';
	return rc;
}

int
hostlist_expand(const char *text, char ***names, size_t *n, char *err, size_t errlen)
{
	struct expand x = { .text = text, .err = err, .errlen = errlen };
	struct strbuf prefix = {0};
	const char *s = text, *p;
	int depth = 0, rc = 0;

	*names = NULL;
	*n = 0;
	for (p = text;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if (*p && !(*p == ',' && depth == 0))
			continue;
		if (p == s)
			rc = fail(&x, "empty name");
		else
			rc = expand_item(&x, &prefix, s, (size_t)(p - s));
		if (rc < 0 || !*p)
			break;
		s = p + 1;
	}
	strbuf_done(&prefix);
	if (rc < 0) {
		hostlist_free(x.names, x.n);
		return -1;
	}
	*names = x.names;
	*n = x.n;
	return 0;
}

void
hostlist_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n && names; i++)
		free(names[i]);
	free(names);
}

/* ---- compression ------------------------------------------------------------ */

struct hl_name {
	const char *name;
	size_t plen;                /* prefix length: the name without its trailing digits */
	size_t width;               /* number of trailing digits, 0 none */
	size_t pad;                 /* zero-padded to this width ("007"), 0 not padded */
	int64_t num;
};

static int
name_cmp(const void *pa, const void *pb)
{
	const struct hl_name *a = pa, *b = pb;
	size_t l = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->name, b->name, l);

	if (c)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if ((a->width == 0) != (b->width == 0))
		return a->width == 0 ? -1 : 1;
	if (a->width == 0)
		return strcmp(a->name, b->name);
	if (a->pad != b->pad)
		return a->pad < b->pad ? -1 : 1;
	return a->num < b->num ? -1 : a->num > b->num;
}

/* "n10" joins "n[01-09]": an unpadded number as wide as a padded group
 * of its prefix takes that padding.  v is sorted by prefix. */
static void
widen(struct hl_name *v, size_t n)
{
	size_t i, j, k;
	uint32_t pads;

	for (i = 0; i < n; i = j) {
		pads = 0;
		for (j = i; j < n && v[j].plen == v[i].plen && !memcmp(v[j].name, v[i].name, v[i].plen);
		     j++)
			if (v[j].width && v[j].pad)
				pads |= 1u << v[j].pad;
		for (k = i; k < j && pads; k++)
			if (v[k].width && !v[k].pad && (pads & (1u << v[k].width)))
				v[k].pad = v[k].width;
	}
}

static bool
same_group(const struct hl_name *a, const struct hl_name *b)
{
	return a->width && b->width && a->plen == b->plen && a->pad == b->pad &&
	       memcmp(a->name, b->name, a->plen) == 0;
}

/* "A-B" or "A" for the run v[i..j] of one group, zero-padded. */
static void
add_run(struct strbuf *out, const struct hl_name *a, const struct hl_name *b)
{
	strbuf_addf(out, "%0*" PRId64, (int)a->pad, a->num);
	if (b->num != a->num)
		strbuf_addf(out, "-%0*" PRId64, (int)b->pad, b->num);
}

void
hostlist_compress(const char *const *names, size_t n, struct strbuf *out)
{
	struct hl_name *v = xcalloc(n ? n : 1, sizeof *v);
	size_t i, j, k, m = 0;
	bool first = true;

	for (i = 0; i < n; i++) {
		struct hl_name *h = &v[i];
		size_t len = strlen(names[i]), d = 0;

		h->name = names[i];
		while (d < len && d < 18 && isdigit((unsigned char)names[i][len - 1 - d]))
			d++;
		h->plen = len - d;
		h->width = d;
		if (d && !parse_num(names[i] + h->plen, d, &h->num))
			h->width = 0, h->plen = len;
		if (h->width > 1 && names[i][h->plen] == '0')
			h->pad = d;         /* "n007": keeps its width; "n7", "n10": none */
	}
	td_sort(v, n, sizeof *v, name_cmp);
	widen(v, n);
	td_sort(v, n, sizeof *v, name_cmp);
	for (i = 0; i < n; i++)         /* drop duplicates */
		if (m == 0 || name_cmp(&v[m - 1], &v[i]) != 0)
			v[m++] = v[i];
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && same_group(&v[i], &v[j]); j++)
			;
		if (!first)
			strbuf_addc(out, ',');
		first = false;
		if (j - i == 1) {
			strbuf_adds(out, v[i].name);
			continue;
		}
		strbuf_add(out, v[i].name, v[i].plen);
		strbuf_addc(out, '[');
		for (k = i; k < j;) {
			size_t e = k;

			while (e + 1 < j && v[e + 1].num == v[e].num + 1)
				e++;
			if (k != i)
				strbuf_addc(out, ',');
			add_run(out, &v[k], &v[e]);
			k = e + 1;
		}
		strbuf_addc(out, ']');
	}
	free(v);
}

static int
i64_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

void
hostlist_ranks(const int64_t *ranks, size_t n, struct strbuf *out)
{
	int64_t *v;
	size_t i, j;

	if (n == 0)
		return;
	v = xmalloc(n * sizeof *v);
	memcpy(v, ranks, n * sizeof *v);
	td_sort(v, n, sizeof *v, i64_cmp);
	for (i = 0; i < n; i = j + 1) {
		j = i;
		while (j + 1 < n && (v[j + 1] == v[j] || v[j + 1] == v[j] + 1))
			j++;
		if (i)
			strbuf_addc(out, ',');
		strbuf_addf(out, "%" PRId64, v[i]);
		if (v[j] != v[i])
			strbuf_addf(out, "-%" PRId64, v[j]);
	}
	free(v);
}
