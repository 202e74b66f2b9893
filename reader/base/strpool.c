/*
 * strpool.c - the readers' string pool (strpool.h): an arena of chunks
 * that never move, and the foundation's hash table (hashtab.h) over the
 * interned strings in insertion order.
 */
#include "reader/base/strpool.h"

#include <stdlib.h>
#include <string.h>

#include "reader/base/util.h"

#define CHUNK_FIRST 256u            /* a pool's first chunk; each next one doubles */
#define CHUNK_MAX (64u * 1024u)     /* ... up to this; a longer string gets its own */

struct td_strpool_chunk {
	struct td_strpool_chunk *next;
	size_t used, cap;
	char data[];
};

/* len bytes in the arena. */
static char *
arena_alloc(struct td_strpool *p, size_t len)
{
	struct td_strpool_chunk *c = p->chunks;
	char *s;

	if (!c || c->cap - c->used < len) {
		size_t cap = c ? (c->cap * 2 > CHUNK_MAX ? CHUNK_MAX : c->cap * 2) : CHUNK_FIRST;

		if (cap < len)
			cap = len;
		c = xmalloc(sizeof(*c) + cap);
		c->used = 0;
		c->cap = cap;
		c->next = p->chunks;
		p->chunks = c;
		p->bytes += sizeof(*c) + cap;
	}
	s = c->data + c->used;
	c->used += len;
	return s;
}

const char *
td_strpool_copy(struct td_strpool *p, const char *str, size_t len)
{
	char *s = arena_alloc(p, len + 1);

	memcpy(s, str, len);
	s[len] = '\0';
	return s;
}

struct key {
	const char *str;
	size_t len;
};

static bool
key_eq(const void *ctx, uint32_t id, const void *k)
{
	const char *s = ((const struct td_strpool *)ctx)->strs[id];
	const struct key *key = k;

	return strncmp(s, key->str, key->len) == 0 && s[key->len] == '\0';
}

/* The insertion number of the len bytes at str, adding them when absent. */
static size_t
lookup(struct td_strpool *p, const char *str, size_t len, bool *added)
{
	struct key key = { str, len };
	uint32_t hash = hashtab_mem_hash(str, len);
	uint32_t id = hashtab_find(&p->set, hash, key_eq, p, &key);

	*added = id == HASHTAB_NONE;
	if (!*added)
		return id;
	if (p->n >= HASHTAB_NONE)
		abort();                /* four billion distinct strings */
	TD_GROW(p->strs, p->cap, p->n + 1);
	p->strs[p->n] = td_strpool_copy(p, str, len);
	hashtab_add(&p->set, hash, (uint32_t)p->n);
	return p->n++;
}

const char *
td_strpool_add_len(struct td_strpool *p, const char *str, size_t len)
{
	bool added;
	size_t id = lookup(p, str, len, &added);    /* may move p->strs */

	return p->strs[id];
}

const char *
td_strpool_add(struct td_strpool *p, const char *str)
{
	return str ? td_strpool_add_len(p, str, strlen(str)) : NULL;
}

size_t
td_strpool_id(struct td_strpool *p, const char *str, bool *added)
{
	return lookup(p, str, strlen(str), added);
}

int64_t
td_strpool_find(const struct td_strpool *p, const char *str)
{
	struct key key = { str, strlen(str) };
	uint32_t id = hashtab_find(&p->set, hashtab_mem_hash(str, key.len), key_eq, p, &key);

	return id == HASHTAB_NONE ? -1 : (int64_t)id;
}

void
td_strpool_done(struct td_strpool *p)
{
	struct td_strpool_chunk *c, *next;

	if (!p)
		return;
	for (c = p->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	hashtab_done(&p->set);
	free(p->strs);
	memset(p, 0, sizeof(*p));
}
