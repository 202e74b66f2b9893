/*
 * model_intern.c - the string arena, the intern table and a small u64 map.
 *
 * Every name the model keeps (op names, types, graph ids, paths, hosts)
 * lives once in an arena owned by the open dump and is freed with it.
 * Strings get dense ids; id -> string is a chunked table so it can be read
 * without a lock while the writer adds strings.  Not for per-row data.
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

/* Word-at-a-time multiplicative hash: names are long (graph UUIDs, scoped
 * op names) and hashed once per trace row, so bytewise FNV is too slow. */
uint32_t
str_hash(const char *s)
{
	size_t len = strlen(s), i;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	if (i < len) {
		w = 0;
		memcpy(&w, s + i, len - i);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
		h ^= h >> 29;
	}
	h *= 0x9e3779b97f4a7c15ULL;
	return (uint32_t)(h >> 32);
}

void
intern_init(struct intern *in)
{
	in->cap = 1024;
	in->slots = xmalloc(in->cap * sizeof(*in->slots));
	in->hashes = xmalloc(in->cap * sizeof(*in->hashes));
	memset(in->slots, 0xff, in->cap * sizeof(*in->slots));
	atomic_store(&in->n, 0);
	intern_add(in, "");             /* id 0 is "" */
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
	free(in->slots);
	free(in->hashes);
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

uint32_t
intern_find(const struct intern *in, const char *s)
{
	uint32_t h = str_hash(s);
	size_t mask = in->cap - 1, i;

	for (i = h & mask;; i = (i + 1) & mask) {
		uint32_t id = in->slots[i];

		if (id == NO_ID)
			return NO_ID;
		if (in->hashes[i] == h && strcmp(intern_str(in, id), s) == 0)
			return id;
	}
}

static void
intern_rehash(struct intern *in)
{
	size_t ncap = in->cap * 2, i, j;
	uint32_t *slots = xmalloc(ncap * sizeof(*slots));
	uint32_t *hashes = xmalloc(ncap * sizeof(*hashes));

	memset(slots, 0xff, ncap * sizeof(*slots));
	for (i = 0; i < in->cap; i++) {
		if (in->slots[i] == NO_ID)
			continue;
		for (j = in->hashes[i] & (ncap - 1); slots[j] != NO_ID; j = (j + 1) & (ncap - 1))
			;
		slots[j] = in->slots[i];
		hashes[j] = in->hashes[i];
	}
	free(in->slots);
	free(in->hashes);
	in->slots = slots;
	in->hashes = hashes;
	in->cap = ncap;
}

uint32_t
intern_add(struct intern *in, const char *s)
{
	uint32_t id = intern_find(in, s), h, n;
	size_t mask, i;
	const char **chunk;

	if (id != NO_ID)
		return id;
	n = atomic_load_explicit(&in->n, memory_order_relaxed);
	if ((size_t)(n + 1) * 2 > in->cap)
		intern_rehash(in);
	if ((n >> STR_CHUNK_SHIFT) >= STR_MAX_CHUNKS)
		abort();                /* 268 million distinct names */
	chunk = in->dir[n >> STR_CHUNK_SHIFT];
	if (!chunk)
		chunk = in->dir[n >> STR_CHUNK_SHIFT] = xmalloc(STR_CHUNK * sizeof(*chunk));
	chunk[n & (STR_CHUNK - 1)] = arena_dup(in, s, strlen(s));
	h = str_hash(s);
	mask = in->cap - 1;
	for (i = h & mask; in->slots[i] != NO_ID; i = (i + 1) & mask)
		;
	in->slots[i] = n;
	in->hashes[i] = h;
	atomic_store_explicit(&in->n, n + 1, memory_order_release);
	return n;
}

/* ---- u64 map ---------------------------------------------------------- */

static size_t
u64_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

void
u64map_done(struct u64map *h)
{
	free(h->keys);
	free(h->vals);
	memset(h, 0, sizeof(*h));
}

bool
u64map_get(const struct u64map *h, uint64_t key, uint64_t *val)
{
	size_t mask, i;

	if (!h->cap)
		return false;
	mask = h->cap - 1;
	for (i = u64_hash(key) & mask; h->keys[i] != UINT64_MAX; i = (i + 1) & mask) {
		if (h->keys[i] == key) {
			if (val)
				*val = h->vals[i];
			return true;
		}
	}
	return false;
}

static void
u64map_grow(struct u64map *h)
{
	struct u64map n = {0};
	size_t i;

	n.cap = h->cap ? h->cap * 2 : 64;
	n.keys = xmalloc(n.cap * sizeof(*n.keys));
	n.vals = xmalloc(n.cap * sizeof(*n.vals));
	memset(n.keys, 0xff, n.cap * sizeof(*n.keys));
	for (i = 0; i < h->cap; i++)
		if (h->keys[i] != UINT64_MAX)
			*u64map_put(&n, h->keys[i], 0) = h->vals[i];
	free(h->keys);
	free(h->vals);
	*h = n;
}

uint64_t *
u64map_put(struct u64map *h, uint64_t key, uint64_t def)
{
	size_t mask, i;

	if ((h->n + 1) * 2 > h->cap)
		u64map_grow(h);
	mask = h->cap - 1;
	for (i = u64_hash(key) & mask; h->keys[i] != UINT64_MAX; i = (i + 1) & mask)
		if (h->keys[i] == key)
			return &h->vals[i];
	h->keys[i] = key;
	h->vals[i] = def;
	h->n++;
	return &h->vals[i];
}
