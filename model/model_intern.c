/*
 * model_intern.c - the string arena and the intern table.
 *
 * Every name the model keeps (op names, types, graph ids, paths, hosts)
 * lives once in an arena owned by the open dump and is freed with it.
 * Strings get dense ids; id -> string is a chunked table so it can be read
 * without a lock while the writer adds strings.  Not for per-row data.
 * The id lookup is the foundation's hash table (reader/base/hashtab.h)
 * keyed by hashtab_str_hash.
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

#define ARENA_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	char data[];
};

void
intern_init(struct intern *in)
{
	hashtab_init(&in->ids, 512);
	atomic_store(&in->n, 0);
	intern_add(in, "");             /* id 0 is "" */
}

void
intern_reserve(struct intern *in, size_t n)
{
	uint32_t i, have = atomic_load_explicit(&in->n, memory_order_relaxed);

	if (n <= in->ids.cap / 2)
		return;
	hashtab_done(&in->ids);
	hashtab_init(&in->ids, n);
	for (i = 0; i < have; i++)
		hashtab_add(&in->ids, hashtab_str_hash(intern_str(in, i)), i);
}

void
intern_done(struct intern *in)
{
	struct arena_block *b, *next;
	size_t i;

	for (b = in->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	for (i = 0; i < STR_MAX_CHUNKS && in->dir[i]; i++)
		free((void *)in->dir[i]);
	hashtab_done(&in->ids);
	memset(in, 0, sizeof(*in));
}

const char *
arena_dup(struct intern *in, const char *s, size_t len)
{
	struct arena_block *b = in->blocks;
	char *p;

	if (!b || b->cap - b->used < len + 1) {
		size_t cap = len + 1 > ARENA_BLOCK / 4 ? len + 1 : ARENA_BLOCK;

		if (cap == len + 1 && b) {
			/* a big string gets its own block behind the current one */
			struct arena_block *big = xmalloc(sizeof(*big) + cap);

			big->used = big->cap = cap;
			big->next = b->next;
			b->next = big;
			in->bytes += sizeof(*big) + cap;
			memcpy(big->data, s, len);
			big->data[len] = '\0';
			return big->data;
		}
		b = xmalloc(sizeof(*b) + cap);
		b->used = 0;
		b->cap = cap;
		b->next = in->blocks;
		in->blocks = b;
		in->bytes += sizeof(*b) + cap;
	}
	p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
}

const char *
intern_str(const struct intern *in, uint32_t id)
{
	const char **chunk;

	if (id == NO_ID || id >= atomic_load_explicit(&in->n, memory_order_acquire))
		return "";
	chunk = in->dir[id >> STR_CHUNK_SHIFT];
	return chunk[id & (STR_CHUNK - 1)];
}

static bool
intern_eq(const void *ctx, uint32_t id, const void *key)
{
	return strcmp(intern_str(ctx, id), key) == 0;
}

/* intern_find with the hash of s already computed. */
static uint32_t
intern_find_hashed(const struct intern *in, const char *s, uint32_t h)
{
	return hashtab_find(&in->ids, h, intern_eq, in, s);
}

uint32_t
intern_find(const struct intern *in, const char *s)
{
	return intern_find_hashed(in, s, hashtab_str_hash(s));
}

uint32_t
intern_add(struct intern *in, const char *s)
{
	uint32_t h = hashtab_str_hash(s), id = intern_find_hashed(in, s, h), n;
	const char **chunk;

	if (id != NO_ID)
		return id;
	n = atomic_load_explicit(&in->n, memory_order_relaxed);
	if ((n >> STR_CHUNK_SHIFT) >= STR_MAX_CHUNKS)
		abort();                /* 268 million distinct names */
	chunk = in->dir[n >> STR_CHUNK_SHIFT];
	if (!chunk)
		chunk = in->dir[n >> STR_CHUNK_SHIFT] = xmalloc(STR_CHUNK * sizeof(*chunk));
	chunk[n & (STR_CHUNK - 1)] = arena_dup(in, s, strlen(s));
	hashtab_add(&in->ids, h, n);
	atomic_store_explicit(&in->n, n + 1, memory_order_release);
	return n;
}
