/*
 * ydoc.c - a small YAML file read into a tree (ydoc.h) with libyaml's
 * event parser: one pass over the events, a stack of open collections,
 * every node (and its string) listed in the document and freed with it.
 *
 * Not a YAML implementation of its own: libyaml does the syntax; this file
 * only builds the tree, bounds it and words the errors.
 */
#include "reader/parse/ydoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "reader/base/fileio.h"

struct ydoc {
	struct ydoc_node *root;
	struct ydoc_node **all;     /* every node, to free */
	size_t nall, capall;
	bool have_root;
};

/* One open sequence or mapping and the kids gathered so far. */
struct frame {
	struct ydoc_node *node;
	size_t cap;
};

struct build {
	struct ydoc *d;
	struct frame stack[YDOC_MAX_DEPTH];
	int depth;
	const char *name;
	char *err;
	size_t errlen;
};

static struct ydoc_node *
node_new(struct build *b, enum ydoc_kind kind, size_t line)
{
	struct ydoc *d = b->d;
	struct ydoc_node *n;

	if (d->nall >= YDOC_MAX_NODES) {
		snprintf(b->err, b->errlen, "%s:%zu: more than %zu nodes (tdbg's limit)", b->name,
			 line, YDOC_MAX_NODES);
		return NULL;
	}
	n = xcalloc(1, sizeof(*n));
	n->kind = kind;
	n->line = line;
	TD_GROW(d->all, d->capall, d->nall + 1);
	d->all[d->nall++] = n;
	return n;
}

/* Hangs n under the innermost open collection (or makes it the root). */
static bool
attach(struct build *b, struct ydoc_node *n)
{
	struct frame *f;

	if (b->depth == 0) {
		if (!b->d->have_root)
			b->d->root = n;
		b->d->have_root = true;
		return true;
	}
	f = &b->stack[b->depth - 1];
	if (f->node->kind == YDOC_MAP && f->node->n % 2 == 0 && n->kind != YDOC_SCALAR) {
		snprintf(b->err, b->errlen, "%s:%zu: a mapping key that is not a plain value",
			 b->name, n->line);
		return false;
	}
	TD_GROW(f->node->kid, f->cap, f->node->n + 1);
	f->node->kid[f->node->n++] = n;
	return true;
}

static bool
open_collection(struct build *b, enum ydoc_kind kind, size_t line)
{
	struct ydoc_node *n;

	if (b->depth >= YDOC_MAX_DEPTH) {
		snprintf(b->err, b->errlen, "%s:%zu: nested more than %d levels deep (tdbg's limit)",
			 b->name, line, YDOC_MAX_DEPTH);
		return false;
	}
	if (!(n = node_new(b, kind, line)) || !attach(b, n))
		return false;
	b->stack[b->depth++] = (struct frame){ n, 0 };
	return true;
}

/* One event; false with err set to stop. */
static bool
on_event(struct build *b, const yaml_event_t *ev)
{
	size_t line = ev->start_mark.line + 1;
	struct ydoc_node *n;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		snprintf(b->err, b->errlen, "%s:%zu: an alias (*name): anchors and aliases are not taken",
			 b->name, line);
		return false;
	case YAML_SCALAR_EVENT:
		if (!(n = node_new(b, YDOC_SCALAR, line)))
			return false;
		n->str = xstrdup((const char *)ev->data.scalar.value);
		return attach(b, n);
	case YAML_SEQUENCE_START_EVENT:
		return open_collection(b, YDOC_SEQ, line);
	case YAML_MAPPING_START_EVENT:
		return open_collection(b, YDOC_MAP, line);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->depth > 0)
			b->depth--;
		return true;
	default:
		return true;
	}
}

static void
free_all(struct ydoc *d)
{
	size_t i;

	for (i = 0; i < d->nall; i++) {
		if (d->all[i]->kind == YDOC_SCALAR)
			free((char *)d->all[i]->str);
		free(d->all[i]->kid);
		free(d->all[i]);
	}
	free(d->all);
	free(d);
}

enum td_status
ydoc_parse(const char *name, const char *buf, size_t len, struct ydoc **out, char *err,
	   size_t errlen)
{
	yaml_parser_t p;
	yaml_event_t ev;
	struct build b = { .d = xcalloc(1, sizeof(struct ydoc)), .name = name, .err = err,
			   .errlen = errlen };
	bool ok = true, done = false;

	*out = NULL;
	if (len > YDOC_MAX_BYTES) {
		snprintf(err, errlen, "%s: %zu bytes, larger than tdbg's limit of %zu", name, len,
			 YDOC_MAX_BYTES);
		free_all(b.d);
		return TD_ERR_TOO_LARGE;
	}
	if (!yaml_parser_initialize(&p))
		abort();                    /* out of memory, as xmalloc would */
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (ok && !done) {
		if (!yaml_parser_parse(&p, &ev)) {
			snprintf(err, errlen, "%s:%zu: %s", name, p.problem_mark.line + 1,
				 p.problem ? p.problem : "not YAML");
			ok = false;
			break;
		}
		/* the first document only: a second one is not read */
		done = ev.type == YAML_STREAM_END_EVENT || ev.type == YAML_DOCUMENT_END_EVENT;
		ok = on_event(&b, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	if (!ok) {
		free_all(b.d);
		return TD_ERR_ARGS;
	}
	*out = b.d;
	return TD_OK;
}

enum td_status
ydoc_read(const char *path, struct ydoc **out, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	enum td_status st = td_read_file(path, YDOC_MAX_BYTES, &buf, &len, err, errlen);

	*out = NULL;
	if (st != TD_OK) {
		if (st == TD_ERR_NOENT)
			snprintf(err, errlen, "%s: no such file", path);
		return st;
	}
	st = ydoc_parse(path, buf, len, out, err, errlen);
	free(buf);
	return st;
}

const struct ydoc_node *
ydoc_root(const struct ydoc *d)
{
	return d ? d->root : NULL;
}

const struct ydoc_node *
ydoc_get(const struct ydoc_node *m, const char *key)
{
	size_t k;

	if (!m || m->kind != YDOC_MAP)
		return NULL;
	for (k = 0; k + 1 < m->n; k += 2)
		if (strcmp(m->kid[k]->str, key) == 0)
			return m->kid[k + 1];
	return NULL;
}

void
ydoc_free(struct ydoc *d)
{
	if (d)
		free_all(d);
}
