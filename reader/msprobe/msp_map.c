/*
 * msp_map.c - msprobe compare's name maps (reader_ops.map_add/map_name):
 * how a MindSpore target's entry names become the PyTorch golden's before
 * the two dumps pair (FORMAT.md §11).  `--api-mapping` is msprobe's `-am`
 * without a file (the built-in rules: Mint -> Torch, MintFunctional ->
 * Functional, then a table of common APIs); `--cell-mapping` is `-cm`
 * (Cell -> Module, then the file's `{cell}.{Class}: {module}.{Class}`);
 * `--api-mapping=FILE` adds a file's APIs and index renumbering
 * (msp_map_api.c); `--data-mapping` is `-dm` (a file of full target leaf names to golden
 * ones, answered per leaf by map_leaf, FORMAT.md §11.3); `--layer-mapping`
 * is `-lm` (msp_map_layer.c: a data map made from the two runs' scopes, in
 * place of -dm's).  One kind applies, as in msprobe: the API rules, else
 * the cell rules, else the data map.
 *
 * Not the pairing itself (model_diff does it) and not the YAML syntax
 * (reader/parse/ydoc.c).
 */
#include "msp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/ydoc.h"

/* A rename rule: from -> to, sorted by from. */
struct rename {
	char *from, *to;
};

/* Renames sorted by from (bsearch). */
struct rename_set {
	struct rename *v;
	size_t n, cap;
};

struct reader_map {
	bool api;                   /* the built-in API rules (they win) */
	struct msp_api_file *apifile;   /* -am FILE's APIs, before the rules; NULL none */
	bool cell;                  /* Cell -> Module and the cell names below */
	struct rename_set cells;    /* "{cell}.{Class}" -> "{module}.{Class}" */
	bool data;                  /* the leaf names below (when neither rule above) */
	struct rename_set leaves;   /* full target leaf name -> full golden leaf name */
	struct msp_layer_map *layers;   /* -lm's leaves (in place of -dm's), NULL none */
};

/* msprobe's built-in MindSpore -> PyTorch API names for the APIs models
 * use most, "{prefix}.{api}" on both sides (FORMAT.md §11.1), sorted.  An
 * API missing here keeps its name, as one missing from msprobe's table. */
static const char *const api_table[][2] = {
	{ "Functional.abs", "Torch.abs" },
	{ "Functional.add", "Torch.add" },
	{ "Functional.addmm", "Torch.addmm" },
	{ "Functional.argmax", "Torch.argmax" },
	{ "Functional.baddbmm", "Torch.baddbmm" },
	{ "Functional.bidense", "Functional.bilinear" },
	{ "Functional.clamp", "Torch.clamp" },
	{ "Functional.cumprod", "Torch.cumprod" },
	{ "Functional.dense", "Functional.linear" },
	{ "Functional.div", "Torch.div" },
	{ "Functional.einsum", "Torch.einsum" },
	{ "Functional.equal", "Torch.eq" },
	{ "Functional.erf", "Torch.erf" },
	{ "Functional.exp", "Torch.exp" },
	{ "Functional.full", "Torch.full" },
	{ "Functional.matmul", "Torch.matmul" },
	{ "Functional.mm", "Torch.mm" },
	{ "Functional.mul", "Torch.mul" },
	{ "Functional.neg", "Torch.neg" },
	{ "Functional.ones_like", "Torch.ones_like" },
	{ "Functional.permute", "Torch.permute" },
	{ "Functional.pow", "Torch.pow" },
	{ "Functional.reshape", "Torch.reshape" },
	{ "Functional.rsqrt", "Torch.rsqrt" },
	{ "Functional.sin", "Torch.sin" },
	{ "Functional.square", "Torch.square" },
	{ "Functional.subtract", "Torch.subtract" },
	{ "Functional.sum", "Torch.sum" },
	{ "Functional.swapaxes", "Torch.transpose" },
	{ "Functional.tril", "Torch.tril" },
	{ "Functional.unsqueeze", "Torch.unsqueeze" },
	{ "Functional.where", "Torch.where" },
	{ "Functional.zeros_like", "Torch.zeros_like" },
	{ "Tensor.asnumpy", "Tensor.numpy" },
	{ "Tensor.equal", "Tensor.eq" },
	{ "Tensor.gather_elements", "Tensor.gather" },
	{ "Tensor.swapaxes", "Tensor.transpose" },
};

static int
rename_cmp(const void *x, const void *y)
{
	return strcmp(((const struct rename *)x)->from, ((const struct rename *)y)->from);
}

static int
table_cmp(const void *key, const void *row)
{
	return strcmp(key, ((const char *const *)row)[0]);
}

/* The built-in table's name for api ("Functional.dense"), NULL if none. */
static const char *
api_lookup(const char *api)
{
	const char *const *row = bsearch(api, api_table, TD_ARRAY_SIZE(api_table),
					 sizeof(api_table[0]), table_cmp);

	return row ? row[1] : NULL;
}

/* Reads a map file of plain names to plain names into set: one YAML
 * mapping (FORMAT.md §11.2, §11.3); what says which ("a cell mapping is
 * one mapping of cell names to module names (...)"), value what a value
 * is ("module name").  With unique, a name mapped twice is refused. */
static enum td_status
read_renames(struct rename_set *set, const char *path, const char *what, const char *value,
	     bool unique, char *err, size_t errlen)
{
	struct ydoc *d;
	const struct ydoc_node *r;
	enum td_status st = ydoc_read(path, &d, err, errlen);
	size_t k, first = set->n;

	if (st != TD_OK)
		return st;
	r = ydoc_root(d);
	if (r && r->kind != YDOC_MAP) {
		snprintf(err, errlen, "%s:%zu: %s", path, r->line, what);
		ydoc_free(d);
		return TD_ERR_ARGS;
	}
	for (k = 0; r && k + 1 < r->n; k += 2) {
		const struct ydoc_node *v = r->kid[k + 1];

		if (v->kind != YDOC_SCALAR) {
			snprintf(err, errlen, "%s:%zu: the %s of \"%s\" is not a plain value", path,
				 v->line, value, r->kid[k]->str);
			ydoc_free(d);
			return TD_ERR_ARGS;
		}
		TD_GROW(set->v, set->cap, set->n + 1);
		set->v[set->n++] = (struct rename){ xstrdup(r->kid[k]->str), xstrdup(v->str) };
	}
	ydoc_free(d);
	if (set->n)                 /* an empty file: no names */
		qsort(set->v, set->n, sizeof(*set->v), rename_cmp);
	for (k = first + 1; unique && k < set->n; k++)
		if (!strcmp(set->v[k].from, set->v[k - 1].from)) {
			snprintf(err, errlen, "%s: \"%s\" is mapped twice", path, set->v[k].from);
			return TD_ERR_ARGS;
		}
	return TD_OK;
}

enum td_status
msp_map_add(struct reader_map **map, enum reader_map_kind kind, const char *path, char *err,
	    size_t errlen)
{
	struct reader_map *m = *map ? *map : xcalloc(1, sizeof(*m));
	enum td_status st = TD_OK;

	*map = m;
	switch (kind) {
	case READER_MAP_API:
		if (path && m->apifile) {
			snprintf(err, errlen, "%s: one API mapping file at a time", path);
			return TD_ERR_ARGS;
		}
		m->api = true;
		return path ? msp_api_file_read(&m->apifile, path, err, errlen) : TD_OK;
	case READER_MAP_CELL:
		m->cell = true;
		if (path)
			st = read_renames(&m->cells, path, "a cell mapping is one mapping of cell "
					  "names to module names (\"fc2.Dense: fc2.Linear\")", "module name", false,
					  err, errlen);
		return st;
	case READER_MAP_DATA:
		if (!path) {
			snprintf(err, errlen, "--data-mapping takes a file");
			return TD_ERR_ARGS;
		}
		m->data = true;
		return read_renames(&m->leaves, path, "a data mapping is one mapping of target "
				    "leaf names to golden leaf names (\"Functional.add.0.forward."
				    "input.0: Torch.add.0.forward.input.0\")", "golden leaf name", true,
				    err, errlen);
	}
	return TD_ERR_UNSUPPORTED;
}

enum td_status
msp_map_layers(struct reader_map **map, struct reader *b, struct reader *a, const char *path,
	       char *err, size_t errlen)
{
	struct reader_map *m = *map ? *map : xcalloc(1, sizeof(*m));

	*map = m;
	if (m->layers) {
		snprintf(err, errlen, "%s: one layer mapping file at a time", path);
		return TD_ERR_ARGS;
	}
	return msp_layer_map_make(&m->layers, b, a, path, err, errlen);
}

/* Writes s with its first occurrence of from replaced by to (s itself
 * when from does not occur) into buf; false when it does not fit. */
static bool
put_replaced(char *buf, size_t len, const char *s, const char *from, const char *to)
{
	const char *at = *from ? strstr(s, from) : NULL;
	int n;

	if (!at)
		n = snprintf(buf, len, "%s", s);
	else
		n = snprintf(buf, len, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return n >= 0 && (size_t)n < len;
}

/* The API rules: the entry's prefix and API name (its first two parts). */
static const char *
map_api(const char *name, char *buf, size_t len)
{
	const char *dot = strchr(name, '.'), *dot2, *to;
	char api[512];

	if (!dot)
		return name;
	if (dot - name == 4 && !strncmp(name, "Mint", 4))
		return snprintf(buf, len, "Torch%s", dot) < (int)len ? buf : name;
	if (dot - name == 14 && !strncmp(name, "MintFunctional", 14))
		return snprintf(buf, len, "Functional%s", dot) < (int)len ? buf : name;
	dot2 = strchr(dot + 1, '.');
	if ((size_t)((dot2 ? dot2 : dot + strlen(dot)) - name) >= sizeof api)
		return name;
	snprintf(api, sizeof api, "%.*s", (int)((dot2 ? dot2 : dot + strlen(dot)) - name), name);
	if (!(to = api_lookup(api)))
		return name;
	return snprintf(buf, len, "%s%s", to, dot2 ? dot2 : "") < (int)len ? buf : name;
}

/* Where the cell name of leaf names of entry name ends: the first
 * ".forward.", ".backward." or ".parameters_grad." of "name." (msprobe
 * looks in the leaf's full name, which continues past the entry name). */
static const char *
cell_end(const char *name, size_t *kwlen)
{
	static const char *const kw[] = { ".forward", ".backward", ".parameters_grad" };
	const char *best = NULL, *p;
	size_t i, l;

	for (i = 0; i < TD_ARRAY_SIZE(kw); i++) {
		l = strlen(kw[i]);
		for (p = strstr(name, kw[i]); p; p = strstr(p + 1, kw[i]))
			if (p[l] == '.' || p[l] == '\0') {
				if (!best || p < best)
					best = p, *kwlen = l;
				break;
			}
	}
	return best;
}

/* The cell rules: entries of neither direction pair with nothing; Cell
 * becomes Module; the cell name, when the file names it, its module's. */
static const char *
map_cell(const struct reader_map *m, const char *name, char *buf, size_t len)
{
	char tmp[1024], cell[1024];
	size_t kwlen = 0;
	const char *end, *start;
	struct rename key, *hit;

	if (!cell_end(name, &kwlen))
		return NULL;
	if (!put_replaced(tmp, sizeof tmp, name, "Cell", "Module"))
		return name;
	start = strchr(tmp, '.');
	end = cell_end(tmp, &kwlen);
	if (!start || !end || end <= start || (size_t)(end - start) > sizeof cell)
		return !strcmp(tmp, name) ? name : snprintf(buf, len, "%s", tmp) < (int)len ? buf : name;
	snprintf(cell, sizeof cell, "%.*s", (int)(end - start - 1), start + 1);
	key.from = cell;
	hit = m->cells.n ? bsearch(&key, m->cells.v, m->cells.n, sizeof(*m->cells.v), rename_cmp)
			 : NULL;
	if (!hit && !strcmp(tmp, name))
		return name;            /* unchanged: the caller need not copy it */
	if (!hit)
		return snprintf(buf, len, "%s", tmp) < (int)len ? buf : name;
	return put_replaced(buf, len, tmp, cell, hit->to) ? buf : name;
}

const char *
msp_map_name(const struct reader_map *m, const char *name, char *buf, size_t len)
{
	const char *r;

	if (m->api && (r = msp_api_file_name(m->apifile, name, buf, len)))
		return r;
	if (m->api)
		return map_api(name, buf, len);
	if (m->cell)
		return map_cell(m, name, buf, len);
	return name;
}

/* The first leaf name at or after key in the sorted set (its index). */
static size_t
lower_bound(const struct rename_set *set, const char *key)
{
	size_t lo = 0, hi = set->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(set->v[mid].from, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool
msp_map_leaf(const struct reader_map *m, const char *op, const char *leaf, char *buf,
	     size_t len)
{
	char key[2048];
	size_t k, n;
	int w;

	if (m->api && m->apifile)   /* the file's APIs renumber their leaves */
		return !op || msp_api_file_leaf(m->apifile, op, leaf, buf, len);
	if (m->api || m->cell)
		return false;       /* one kind of rewrite: -am, else -cm, else -dm (§11) */
	if (m->layers)          /* -lm makes the data map, -dm's file or not */
		return msp_layer_map_leaf(m->layers, op, leaf, buf, len);
	if (!m->data || !m->leaves.n)
		return false;
	if (!op)
		return true;
	w = snprintf(key, sizeof key, "%s.%s", op, leaf ? leaf : "");
	if (w < 0 || (size_t)w >= sizeof key)
		return false;
	k = lower_bound(&m->leaves, key);
	if (!leaf) {                /* a leaf name "{op}.something" follows key, if any */
		n = strlen(key);
		return k < m->leaves.n && !strncmp(m->leaves.v[k].from, key, n);
	}
	if (k >= m->leaves.n || strcmp(m->leaves.v[k].from, key))
		return false;
	w = snprintf(buf, len, "%s", m->leaves.v[k].to);
	return w >= 0 && (size_t)w < len;
}

static void
renames_done(struct rename_set *set)
{
	size_t i;

	for (i = 0; i < set->n; i++) {
		free(set->v[i].from);
		free(set->v[i].to);
	}
	free(set->v);
}

void
msp_map_free(struct reader_map *m)
{
	if (!m)
		return;
	renames_done(&m->cells);
	renames_done(&m->leaves);
	msp_api_file_free(m->apifile);
	msp_layer_map_free(m->layers);
	free(m);
}
