/*
 * tfdbg1_strs.c - the reader's string pool: one arena for the strings kept
 * per file (node names, debug ops, op types, directories) and a set that
 * interns the names repeated in every run; and a file's path kept as its
 * interned directory plus, only when the dump name's fields do not spell
 * it, its base name.
 *
 * A training loop dumps the same 50 tensors in thousands of runs; a string
 * allocation per file and per name was most of the reader's memory (issue
 * 25).  Strings live in chunks that never move, so a pointer handed out
 * stays valid until tfdbg1_strs_done().  Not thread-safe: the reader calls
 * it under its lock or from the index thread before publishing the file.
 */
#include "reader/tfdbg1/tfdbg1_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/util.h"

#define CHUNK_SIZE (64 * 1024)

struct tfdbg1_chunk {
	struct tfdbg1_chunk *next;
	size_t used, cap;
	char data[];
};

static char *
arena_alloc(struct tfdbg1_strs *s, size_t len)
{
	struct tfdbg1_chunk *c = s->chunks;
	char *p;

	if (!c || c->cap - c->used < len) {
		size_t cap = len > CHUNK_SIZE ? len : CHUNK_SIZE;

		c = xmalloc(sizeof(*c) + cap);
		c->used = 0;
		c->cap = cap;
		c->next = s->chunks;
		s->chunks = c;
		s->bytes += sizeof(*c) + cap;
	}
	p = c->data + c->used;
	c->used += len;
	return p;
}

const char *
tfdbg1_strs_copy(struct tfdbg1_strs *s, const char *str, size_t len)
{
	char *p = arena_alloc(s, len + 1);

	memcpy(p, str, len);
	p[len] = '\0';
	return p;
}

struct key {
	const char *str;
	size_t len;
};

static bool
name_eq(const void *ctx, uint32_t id, const void *k)
{
	const struct tfdbg1_strs *s = ctx;
	const struct key *key = k;
	const char *name = s->names[id];

	return !strncmp(name, key->str, key->len) && name[key->len] == '\0';
}

const char *
tfdbg1_strs_intern(struct tfdbg1_strs *s, const char *str)
{
	return str ? tfdbg1_strs_intern_len(s, str, strlen(str)) : NULL;
}

const char *
tfdbg1_strs_intern_len(struct tfdbg1_strs *s, const char *str, size_t len)
{
	struct key key;
	uint32_t hash, id;

	key.str = str;
	key.len = len;
	hash = hashtab_mem_hash(str, key.len);
	id = hashtab_find(&s->set, hash, name_eq, s, &key);
	if (id != HASHTAB_NONE)
		return s->names[id];
	TD_GROW(s->names, s->namecap, s->nnames + 1);
	id = (uint32_t)s->nnames;
	s->names[s->nnames++] = tfdbg1_strs_copy(s, str, key.len);
	hashtab_add(&s->set, hash, id);
	return s->names[id];
}

void
tfdbg1_strs_done(struct tfdbg1_strs *s)
{
	struct tfdbg1_chunk *c, *next;

	if (!s)
		return;
	for (c = s->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	hashtab_done(&s->set);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

/* ---- file paths ---------------------------------------------------------- */

/* The base name a dump's fields spell (FORMAT.md §9): the node's last
 * component, slot, debug op, timestamp and "-<n>" for a collision. */
static char *
spelled_base(const struct tfdbg1_file *f)
{
	const char *last = strrchr(f->node, '/');

	last = last ? last + 1 : f->node;
	if (f->collision)
		return xasprintf("%s_%" PRIu32 "_%s_%" PRIu64 "-%" PRIu32, last, f->slot,
				 f->debug_op, f->timestamp, f->collision);
	return xasprintf("%s_%" PRIu32 "_%s_%" PRIu64, last, f->slot, f->debug_op, f->timestamp);
}

void
tfdbg1_file_set_path(struct tfdbg1_strs *s, struct tfdbg1_file *f, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *spelled;

	f->dir = slash ? tfdbg1_strs_intern_len(s, path, (size_t)(slash - path)) : NULL;
	f->base = NULL;
	if (f->role == TFDBG1_DUMP && f->node && f->debug_op) {
		spelled = spelled_base(f);
		if (strcmp(spelled, base) == 0) {
			free(spelled);
			return;
		}
		free(spelled);
	}
	f->base = tfdbg1_strs_copy(s, base, strlen(base));
}

char *
tfdbg1_file_path(const struct tfdbg1_file *f)
{
	char *base = f->base ? NULL : spelled_base(f);
	char *path;

	if (f->dir)
		path = xasprintf("%s/%s", f->dir, f->base ? f->base : base);
	else
		path = xstrdup(f->base ? f->base : base);
	free(base);
	return path;
}
