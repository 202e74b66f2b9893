/*
 * msp_map_api.c - msprobe compare's API mapping file (`-am FILE`,
 * `--api-mapping=FILE`, FORMAT.md §11.1): per MindSpore API its PyTorch
 * API and how the argument and output indices renumber.  Read here into a
 * table; msp_map.c asks it for an entry's API name (map_name) and for a
 * leaf's golden name (map_leaf).
 *
 * Not the built-in API rules nor the YAML syntax (reader/parse/ydoc.c).
 */
#include "msp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/ydoc.h"

/* One item: ms -> pt, index ms_x[k] of the MindSpore API being index
 * pt_x[k] of the PyTorch one. */
struct api_item {
	char *ms, *pt;
	long *ms_args, *pt_args, *ms_outs, *pt_outs;
	size_t nargs, nouts;
};

struct msp_api_file {
	struct api_item *v;         /* sorted by ms */
	size_t n, cap;
};

static int
item_cmp(const void *x, const void *y)
{
	return strcmp(((const struct api_item *)x)->ms, ((const struct api_item *)y)->ms);
}

static int
key_cmp(const void *key, const void *item)
{
	return strcmp(key, ((const struct api_item *)item)->ms);
}

/* An index list (a sequence of non-negative integers, or absent: empty)
 * into *out; false with err set when it is something else. */
static bool
read_list(const struct ydoc_node *item, const char *key, long **out, size_t *n,
	  const char *path, char *err, size_t errlen)
{
	const struct ydoc_node *l = ydoc_get(item, key);
	size_t k;

	*out = NULL, *n = 0;
	if (!l)
		return true;
	if (l->kind != YDOC_SEQ) {
		snprintf(err, errlen, "%s:%zu: %s is a list of indices ([0, 1])", path, l->line, key);
		return false;
	}
	*out = xcalloc(l->n ? l->n : 1, sizeof(**out));
	for (k = 0; k < l->n; k++) {
		const struct ydoc_node *v = l->kid[k];
		char *end;

		if (v->kind == YDOC_SCALAR)
			(*out)[k] = strtol(v->str, &end, 10);
		if (v->kind != YDOC_SCALAR || !*v->str || *end || (*out)[k] < 0) {
			snprintf(err, errlen, "%s:%zu: %s holds \"%s\", not an index", path, v->line,
				 key, v->kind == YDOC_SCALAR ? v->str : "...");
			return false;
		}
	}
	*n = l->n;
	return true;
}

/* A plain value of item under key into *out; false with err set. */
static bool
read_name(const struct ydoc_node *item, const char *key, char **out, const char *path, char *err,
	  size_t errlen)
{
	const struct ydoc_node *v = ydoc_get(item, key);

	if (!v || v->kind != YDOC_SCALAR || !*v->str) {
		snprintf(err, errlen, "%s:%zu: an API mapping item needs %s, a plain value", path,
			 v ? v->line : item->line, key);
		return false;
	}
	*out = xstrdup(v->str);
	return true;
}

static bool
read_item(struct msp_api_file *f, const struct ydoc_node *it, const char *path, char *err,
	  size_t errlen)
{
	struct api_item *a;

	if (it->kind != YDOC_MAP) {
		snprintf(err, errlen, "%s:%zu: an API mapping item is a mapping (ms_api, pt_api, "
			 "ms_args, pt_args, ms_outputs, pt_outputs)", path, it->line);
		return false;
	}
	TD_GROW(f->v, f->cap, f->n + 1);
	a = &f->v[f->n++];
	memset(a, 0, sizeof(*a));
	if (!read_name(it, "ms_api", &a->ms, path, err, errlen) ||
	    !read_name(it, "pt_api", &a->pt, path, err, errlen) ||
	    !read_list(it, "ms_args", &a->ms_args, &a->nargs, path, err, errlen) ||
	    !read_list(it, "pt_args", &a->pt_args, &(size_t){ 0 }, path, err, errlen) ||
	    !read_list(it, "ms_outputs", &a->ms_outs, &a->nouts, path, err, errlen) ||
	    !read_list(it, "pt_outputs", &a->pt_outs, &(size_t){ 0 }, path, err, errlen))
		return false;
	if ((ydoc_get(it, "pt_args") ? ydoc_get(it, "pt_args")->n : 0) != a->nargs ||
	    (ydoc_get(it, "pt_outputs") ? ydoc_get(it, "pt_outputs")->n : 0) != a->nouts) {
		/* msprobe skips such an item with a warning; tdbg has no warning
		 * channel here and refuses the file instead */
		snprintf(err, errlen, "%s:%zu: %s's MindSpore and PyTorch index lists differ in "
			 "length", path, it->line, a->ms);
		return false;
	}
	return true;
}

enum td_status
msp_api_file_read(struct msp_api_file **out, const char *path, char *err, size_t errlen)
{
	struct msp_api_file *f = xcalloc(1, sizeof(*f));
	struct ydoc *d;
	const struct ydoc_node *r;
	enum td_status st = ydoc_read(path, &d, err, errlen);
	size_t k;

	*out = NULL;
	if (st != TD_OK) {
		free(f);
		return st;
	}
	r = ydoc_root(d);
	if (r && r->kind == YDOC_MAP)   /* the docs show a single item */
		st = read_item(f, r, path, err, errlen) ? TD_OK : TD_ERR_ARGS;
	else if (r && r->kind != YDOC_SEQ) {
		snprintf(err, errlen, "%s:%zu: an API mapping is a list of items (ms_api, pt_api, "
			 "ms_args, pt_args, ...)", path, r->line);
		st = TD_ERR_ARGS;
	}
	for (k = 0; r && r->kind == YDOC_SEQ && k < r->n && st == TD_OK; k++)
		st = read_item(f, r->kid[k], path, err, errlen) ? TD_OK : TD_ERR_ARGS;
	ydoc_free(d);
	if (st == TD_OK && f->n)
		qsort(f->v, f->n, sizeof(*f->v), item_cmp);
	for (k = 1; st == TD_OK && k < f->n; k++)
		if (!strcmp(f->v[k].ms, f->v[k - 1].ms)) {
			snprintf(err, errlen, "%s: %s is mapped twice", path, f->v[k].ms);
			st = TD_ERR_ARGS;
		}
	if (st != TD_OK) {
		msp_api_file_free(f);
		return st;
	}
	*out = f;
	return TD_OK;
}

/* The item of op's API (its first two parts), NULL if none; *alen the
 * API's length in op. */
static const struct api_item *
item_of(const struct msp_api_file *f, const char *op, size_t *alen)
{
	const char *dot = strchr(op, '.'), *dot2 = dot ? strchr(dot + 1, '.') : NULL;
	char api[512];

	*alen = dot2 ? (size_t)(dot2 - op) : strlen(op);
	if (!f || !f->n || !dot || *alen >= sizeof api)
		return NULL;
	snprintf(api, sizeof api, "%.*s", (int)*alen, op);
	return bsearch(api, f->v, f->n, sizeof(*f->v), key_cmp);
}

const char *
msp_api_file_name(const struct msp_api_file *f, const char *op, char *buf, size_t len)
{
	size_t alen;
	const struct api_item *a = item_of(f, op, &alen);

	if (!a)
		return NULL;
	return snprintf(buf, len, "%s%s", a->pt, op + alen) < (int)len ? buf : op;
}

bool
msp_api_file_leaf(const struct msp_api_file *f, const char *op, const char *leaf, char *buf,
		  size_t len)
{
	size_t alen, k, n;
	const struct api_item *a = item_of(f, op, &alen);
	bool in, bwd = strstr(op, ".backward") != NULL;
	const long *ms, *pt;
	const char *p;
	char *end;
	long idx;

	if (!a)
		return false;
	if (!leaf)
		return true;
	buf[0] = '\0';              /* unlisted: pairs with nothing */
	in = !strncmp(leaf, "input.", 6);
	if (!in && strncmp(leaf, "output.", 7))
		return true;
	p = leaf + (in ? 6 : 7);
	idx = strtol(p, &end, 10);
	if (end == p || (*end && *end != '.'))
		return true;        /* a keyword argument has no index */
	/* a backward entry's inputs are the gradients of the outputs, its
	 * outputs those of the inputs (FORMAT.md §11.1) */
	if (in != bwd)
		ms = a->ms_args, pt = a->pt_args, n = a->nargs;
	else
		ms = a->ms_outs, pt = a->pt_outs, n = a->nouts;
	for (k = 0; k < n; k++)
		if (ms[k] == idx) {
			int w = snprintf(buf, len, "%s%s.%s.%ld%s", a->pt, op + alen,
					 in ? "input" : "output", pt[k], end);

			if (w < 0 || (size_t)w >= len)
				buf[0] = '\0';
			break;
		}
	return true;
}

void
msp_api_file_free(struct msp_api_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->v[i].ms);
		free(f->v[i].pt);
		free(f->v[i].ms_args);
		free(f->v[i].pt_args);
		free(f->v[i].ms_outs);
		free(f->v[i].pt_outs);
	}
	free(f->v);
	free(f);
}
