/*
 * tfdbg1_strs.c - the reader's string pool: one arena for the strings kept
 * per file (node names, debug ops, op types, paths below a run) and a set
 * that interns the names repeated in every run.
 *
 * A training loop dumps the same 50 tensors in thousands of runs; a string
 * allocation per file and per name was most of the reader's memory (issue
 * 25).  Strings live in chunks that never move, so a pointer handed out
 * stays valid until tfdbg1_strs_done().  Not thread-safe: the reader calls
 * it under its lock or from the index thread before publishing the file.
 */
#include "reader/tfdbg1/tfdbg1_internal.h"

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
	struct key key;
	uint32_t hash, id;

	if (!str)
		return NULL;
	key.str = str;
	key.len = strlen(str);
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
