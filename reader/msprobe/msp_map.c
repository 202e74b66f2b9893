/*
 * msp_map.c - msprobe compare's name maps (reader_ops.map_add/map_name):
 * how a MindSpore target's entry names become the PyTorch golden's before
 * the two dumps pair (FORMAT.md §11).  `--api-mapping` is msprobe's `-am`
 * without a file (the built-in rules: Mint -> Torch, MintFunctional ->
 * Functional, then a table of common APIs); `--cell-mapping` is `-cm`
 * (Cell -> Module, then the file's `{cell}.{Class}: {module}.{Class}`).
 * When both are given the API rules win, as in msprobe.
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

struct reader_map {
	bool api;                   /* the built-in API rules (they win) */
	bool cell;                  /* Cell -> Module and the cell names below */
	struct rename *cells;       /* "{cell}.{Class}" -> "{module}.{Class}" */
	size_t ncells, capcells;
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

/* Reads a cell-mapping file: one mapping of "{cell}.{Class}" to
 * "{module}.{Class}", plain values both (FORMAT.md §11.2). */
static enum td_status
read_cells(struct reader_map *m, const char *path, char *err, size_t errlen)
{
	struct ydoc *d;
	const struct ydoc_node *r;
	enum td_status st = ydoc_read(path, &d, err, errlen);
	size_t k;

	if (st != TD_OK)
		return st;
	r = ydoc_root(d);
	if (r && r->kind != YDOC_MAP) {
		snprintf(err, errlen, "%s:%zu: a cell mapping is one mapping of cell names "
			 "to module names (\"fc2.Dense: fc2.Linear\")", path, r->line);
		ydoc_free(d);
		return TD_ERR_ARGS;
	}
	for (k = 0; r && k + 1 < r->n; k += 2) {
		const struct ydoc_node *v = r->kid[k + 1];

		if (v->kind != YDOC_SCALAR) {
			snprintf(err, errlen, "%s:%zu: the module name of \"%s\" is not a plain value",
				 path, v->line, r->kid[k]->str);
			ydoc_free(d);
			return TD_ERR_ARGS;
		}
		TD_GROW(m->cells, m->capcells, m->ncells + 1);
		m->cells[m->ncells++] = (struct rename){ xstrdup(r->kid[k]->str), xstrdup(v->str) };
	}
	ydoc_free(d);
	if (m->ncells)              /* an empty file: Cell -> Module alone */
		qsort(m->cells, m->ncells, sizeof(*m->cells), rename_cmp);
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
		if (path) {
			snprintf(err, errlen, "%s: API mapping files are not read yet: "
				 "--api-mapping takes the built-in rules only", path);
			return TD_ERR_UNSUPPORTED;
		}
		m->api = true;
		return TD_OK;
	case READER_MAP_CELL:
		m->cell = true;
		if (path)
			st = read_cells(m, path, err, errlen);
		return st;
	}
	return TD_ERR_UNSUPPORTED;
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
	hit = m->ncells ? bsearch(&key, m->cells, m->ncells, sizeof(*m->cells), rename_cmp) : NULL;
	if (!hit && !strcmp(tmp, name))
		return name;            /* unchanged: the caller need not copy it */
	if (!hit)
		return snprintf(buf, len, "%s", tmp) < (int)len ? buf : name;
	return put_replaced(buf, len, tmp, cell, hit->to) ? buf : name;
}

const char *
msp_map_name(const struct reader_map *m, const char *name, char *buf, size_t len)
{
	if (m->api)
		return map_api(name, buf, len);
	if (m->cell)
		return map_cell(m, name, buf, len);
	return name;
}

void
msp_map_free(struct reader_map *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->ncells; i++) {
		free(m->cells[i].from);
		free(m->cells[i].to);
	}
	free(m->cells);
	free(m);
}
