/*
 * msp_layer_file.c - msprobe compare's layer mapping file (`-lm`,
 * `--layer-mapping=FILE`, FORMAT.md §11.3) read into rules: for each layer
 * class (the top layer as "TopLayer", or "Cell" as older files name it), its
 * child names (one or several dotted parts) and the names the golden run
 * gives them.  The scopes the rules rename are msp_map_layer.c's; the YAML
 * syntax is reader/parse/ydoc.c's.
 */
#include "msp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/ydoc.h"

struct layer_rule {
	char *origin, *target;      /* dotted child names */
	size_t level;               /* origin's parts */
	size_t first_len;           /* origin's first part's length */
	size_t order;               /* its place in the file */
};

struct layer_class {
	char *type;
	struct layer_rule *rules;   /* longest first, then in file order */
	size_t n;
};

struct msp_layer_file {
	struct layer_class *cls;
	size_t n;
};

static size_t
parts_of(const char *s)
{
	size_t n = 1;

	for (; *s; s++)
		n += *s == '.';
	return n;
}

static int
rule_cmp(const void *x, const void *y)
{
	const struct layer_rule *a = x, *b = y;

	if (a->level != b->level)
		return a->level > b->level ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void
class_free(struct layer_class *c)
{
	size_t k;

	for (k = 0; k < c->n; k++) {
		free(c->rules[k].origin);
		free(c->rules[k].target);
	}
	free(c->rules);
	free(c->type);
}

void
msp_layer_file_free(struct msp_layer_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++)
		class_free(&f->cls[i]);
	free(f->cls);
	free(f);
}

/* Reads one class's mapping v into c; false with err set. */
static bool
read_class(struct layer_class *c, const struct ydoc_node *v, const char *path, char *err,
	   size_t errlen)
{
	size_t k, j;

	if (v->kind != YDOC_MAP) {
		snprintf(err, errlen, "%s:%zu: the names of layer class \"%s\" are not a mapping "
			 "(\"child: golden_child\")", path, v->line, c->type);
		return false;
	}
	c->rules = xcalloc(v->n / 2 + 1, sizeof(*c->rules));
	for (k = 0; k + 1 < v->n; k += 2) {
		const struct ydoc_node *key = v->kid[k], *to = v->kid[k + 1];

		if (to->kind != YDOC_SCALAR || !*to->str || !*key->str) {
			snprintf(err, errlen, "%s:%zu: the golden name of \"%s\" in \"%s\" is not a "
				 "plain name", path, to->line, key->str, c->type);
			return false;
		}
		for (j = 0; j < c->n; j++)
			if (!strcmp(c->rules[j].origin, key->str)) {
				snprintf(err, errlen, "%s:%zu: \"%s\" is mapped twice in \"%s\"", path,
					 key->line, key->str, c->type);
				return false;
			}
		c->rules[c->n] = (struct layer_rule){ xstrdup(key->str), xstrdup(to->str),
						      parts_of(key->str), strcspn(key->str, "."), c->n };
		c->n++;
	}
	if (c->n)
		qsort(c->rules, c->n, sizeof(*c->rules), rule_cmp);
	return true;
}

enum td_status
msp_layer_file_read(struct msp_layer_file **out, const char *path, char *err, size_t errlen)
{
	struct msp_layer_file *f;
	const struct ydoc_node *r;
	struct ydoc *d;
	enum td_status st;
	size_t k, j;
	bool has_cell;

	*out = NULL;
	if ((st = ydoc_read(path, &d, err, errlen)) != TD_OK)
		return st;
	r = ydoc_root(d);
	if (r && r->kind != YDOC_MAP) {
		snprintf(err, errlen, "%s:%zu: a layer mapping is one mapping of layer classes to "
			 "their child names (\"ParallelAttention: {qkv_proj: query_key_value}\")", path,
			 r->line);
		ydoc_free(d);
		return TD_ERR_ARGS;
	}
	f = xcalloc(1, sizeof(*f));
	f->cls = xcalloc(r ? r->n / 2 + 1 : 1, sizeof(*f->cls));
	has_cell = ydoc_get(r, "Cell") != NULL;
	for (k = 0; r && k + 1 < r->n; k += 2) {
		/* msprobe's older files name the top layer "Cell"; msprobe moves
		 * it to "TopLayer", over a "TopLayer" of the same file */
		const char *key = r->kid[k]->str, *type = !strcmp(key, "Cell") ? "TopLayer" : key;
		struct layer_class c = { .type = xstrdup(type) };

		if (has_cell && !strcmp(key, "TopLayer")) {
			class_free(&c);
			continue;
		}
		for (j = 0; j < f->n; j++)
			if (!strcmp(f->cls[j].type, type)) {
				snprintf(err, errlen, "%s:%zu: layer class \"%s\" is named twice", path,
					 r->kid[k]->line, key);
				class_free(&c);
				goto bad;
			}
		if (!read_class(&c, r->kid[k + 1], path, err, errlen)) {
			class_free(&c);
			goto bad;
		}
		f->cls[f->n++] = c;
	}
	ydoc_free(d);
	*out = f;
	return TD_OK;
bad:
	ydoc_free(d);
	msp_layer_file_free(f);
	return TD_ERR_ARGS;
}

const char *
msp_layer_file_rename(const struct msp_layer_file *f, const char *type, const char *const *parts,
		      size_t nparts, size_t *used)
{
	char joined[1024];
	size_t i, k, len;

	for (i = 0; f && i < f->n; i++) {
		if (strcmp(f->cls[i].type, type))
			continue;
		for (k = 0; k < f->cls[i].n; k++) {
			const struct layer_rule *r = &f->cls[i].rules[k];
			size_t p;

			if (r->level > nparts || strlen(parts[0]) != r->first_len ||
			    strncmp(parts[0], r->origin, r->first_len))
				continue;
			for (p = 0, len = 0; p < r->level && len < sizeof joined; p++)
				len += (size_t)snprintf(joined + len, sizeof joined - len, "%s%s",
							p ? "." : "", parts[p]);
			if (len < sizeof joined && !strcmp(joined, r->origin)) {
				*used = r->level;
				return r->target;
			}
		}
		break;
	}
	*used = 1;
	return parts[0];
}
