/*
 * ydoc.h - one small YAML file (a mapping file a user gives) read whole
 * into a tree of scalars, sequences and mappings, through libyaml's event
 * parser (parse/FORMAT.md §8).
 *
 * For files of a few thousand lines written by people: the file, its
 * nesting and its node count are bounded (YDOC_MAX_*), anchors and aliases
 * are refused (no expansion bombs), tags are ignored and every scalar is a
 * string.  Only the first document of a stream is kept.  Not a YAML
 * writer, and not for dump files.
 */
#ifndef TD_YDOC_H
#define TD_YDOC_H

#include <stddef.h>

#include "reader/base/util.h"

#define YDOC_MAX_BYTES ((size_t)16 << 20)  /* the file */
#define YDOC_MAX_DEPTH 32                  /* sequences and mappings inside each other */
#define YDOC_MAX_NODES ((size_t)1 << 20)   /* scalars, sequences and mappings */

enum ydoc_kind {
	YDOC_SCALAR,
	YDOC_SEQ,
	YDOC_MAP,
};

struct ydoc_node {
	enum ydoc_kind kind;
	size_t line;                /* 1-based line where the node starts */
	const char *str;            /* YDOC_SCALAR: the value, NUL-terminated */
	/* YDOC_SEQ: n items; YDOC_MAP: n keys and values, kid[2k] the key
	 * (a scalar: other keys are refused) and kid[2k+1] its value. */
	struct ydoc_node **kid;
	size_t n;
};

struct ydoc;

/* Reads path (read-only, a regular file of at most YDOC_MAX_BYTES) into
 * *out.  On error *out is NULL and err holds one line naming the file and,
 * for a syntax or limit error, the line ("map.yaml:3: mapping values are
 * not allowed in this context"): TD_ERR_NOENT, TD_ERR_IO, TD_ERR_TOO_LARGE,
 * TD_ERR_ARGS (the file is no YAML tdbg takes: a syntax error, an alias, a
 * key that is no scalar, a limit).  An empty file is a document whose root is NULL. */
enum td_status ydoc_read(const char *path, struct ydoc **out, char *err, size_t errlen);
/* The same from bytes (len of them, no NUL needed); name stands for the
 * file in messages.  Used by ydoc_read and the tests. */
enum td_status ydoc_parse(const char *name, const char *buf, size_t len, struct ydoc **out,
			  char *err, size_t errlen);
/* The document's root node, NULL for an empty document.  Valid until
 * ydoc_free. */
const struct ydoc_node *ydoc_root(const struct ydoc *d);
/* The value of key in a YDOC_MAP node, NULL when absent or m is not a map. */
const struct ydoc_node *ydoc_get(const struct ydoc_node *m, const char *key);
/* NULL is fine. */
void ydoc_free(struct ydoc *d);

#endif
