/*
 * model_intern.c - the string arena and the intern table.
 *
 * Every name the model keeps (op names, types, graph ids, paths, hosts)
 * lives once in an arena owned by the open dump and is freed with it.
 * Strings get dense ids; id -> string is a chunked table so it can be read
 * without a lock while the writer adds strings.  Not for per-row data.
 * The id lookup is the foundation's hash table (reader/base/hashtab.h)
 * keyed by hashtab_str_hash.  A persistent index's strings are appended
 * without a lookup and indexed at once (intern_append, intern_index).
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

/* A new block of cap bytes, the current one from now on. */
static struct arena_block *
block_push(struct intern *in, size_t cap)
{
	struct arena_block *b = xmalloc(sizeof(*b) + cap);

	b->used = 0;
	b->cap = cap;
	b->next = in->blocks;
	in->blocks = b;
	in->bytes += sizeof(*b) + cap;
	return b;
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
		b = block_push(in, cap);
	}
	p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
}

void
intern_reserve(struct intern *in, size_t bytes)
{
	struct arena_block *b = in->blocks;

	if (bytes <= ARENA_BLOCK || (b && b->cap - b->used >= bytes))
		return;
	b = block_push(in, bytes);
	model_huge_inside(b->data, bytes);
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
uint32_t
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
	return intern_add_hashed(in, s, hashtab_str_hash(s));
}

uint32_t
intern_add_hashed(struct intern *in, const char *s, uint32_t h)
{
	uint32_t id = intern_find_hashed(in, s, h), n;
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

uint32_t
intern_append(struct intern *in, const char *s, size_t len)
{
	uint32_t n = atomic_load_explicit(&in->n, memory_order_relaxed);
	const char **chunk;

	if ((n >> STR_CHUNK_SHIFT) >= STR_MAX_CHUNKS)
		abort();
	chunk = in->dir[n >> STR_CHUNK_SHIFT];
	if (!chunk)
		chunk = in->dir[n >> STR_CHUNK_SHIFT] = xmalloc(STR_CHUNK * sizeof(*chunk));
	chunk[n & (STR_CHUNK - 1)] = arena_dup(in, s, len);
	atomic_store_explicit(&in->n, n + 1, memory_order_release);
	return n;
}

#define RADIX_BITS 10

/* v (hash << 32 | id, one per string) sorted by the hash's home slot
 * (hash & mask), an LSD radix sort RADIX_BITS at a time with tmp beside
 * it; returns whichever of v and tmp holds the result.  Stable. */
static uint64_t *
sort_by_home(uint64_t *v, uint64_t *tmp, size_t n, uint64_t mask)
{
	size_t cnt[1u << RADIX_BITS], i, sum, k;
	uint64_t *t;
	unsigned shift;

	for (shift = 0; (mask >> shift) != 0; shift += RADIX_BITS) {
		memset(cnt, 0, sizeof cnt);
		for (i = 0; i < n; i++)
			cnt[((v[i] >> 32 & mask) >> shift) & ((1u << RADIX_BITS) - 1)]++;
		for (k = 0, sum = 0; k < TD_ARRAY_SIZE(cnt); k++) {
			size_t c = cnt[k];

			cnt[k] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[cnt[((v[i] >> 32 & mask) >> shift) & ((1u << RADIX_BITS) - 1)]++] = v[i];
		t = v;
		v = tmp;
		tmp = t;
	}
	return v;
}

/* Whether two ids of the run [a, e) of one home slot hold the same string
 * (the same string has the same hash, so the same home). */
static bool
run_has_twin(const struct intern *in, const uint64_t *v, size_t a, size_t e)
{
	for (size_t i = a; i < e; i++)
		for (size_t j = i + 1; j < e; j++)
			if (v[i] >> 32 == v[j] >> 32 &&
			    strcmp(intern_str(in, (uint32_t)v[i]), intern_str(in, (uint32_t)v[j])) == 0)
				return true;
	return false;
}

bool
intern_index(struct intern *in)
{
	uint32_t n = atomic_load_explicit(&in->n, memory_order_relaxed);
	uint64_t *v = xmalloc((n ? n : 1) * sizeof(*v)), *tmp = xmalloc((n ? n : 1) * sizeof(*tmp));
	uint64_t mask, *sorted;
	size_t i, e;
	bool ok = true;

	model_huge_inside(v, (n ? n : 1) * sizeof(*v));        /* both written whole */
	model_huge_inside(tmp, (n ? n : 1) * sizeof(*tmp));
	hashtab_done(&in->ids);
	hashtab_init(&in->ids, n);
	mask = in->ids.cap - 1;
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)hashtab_str_hash(intern_str(in, (uint32_t)i)) << 32 | i;
	/* filled in order of home slot, the table is written front to back
	 * instead of at random (a cache miss per string at 200,000) */
	sorted = sort_by_home(v, tmp, n, mask);
	for (i = 0; i < n && ok; i = e) {
		uint64_t home = sorted[i] >> 32 & mask;

		for (e = i + 1; e < n && (sorted[e] >> 32 & mask) == home; e++)
			;
		ok = e - i == 1 || !run_has_twin(in, sorted, i, e);
		for (size_t k = i; k < e && ok; k++)
			hashtab_add(&in->ids, (uint32_t)(sorted[k] >> 32), (uint32_t)sorted[k]);
	}
	free(v);
	free(tmp);
	return ok;
}
