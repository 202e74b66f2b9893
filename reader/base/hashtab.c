/*
 * hashtab.c - the open-addressing hash table (hashtab.h): linear probing
 * over a power-of-two array kept at most half full.
 *
 * The u64 face keeps the probe order and growth of the model's former
 * u64map exactly, so the persistent index (which writes those maps in slot
 * order) stays byte for byte the same.  Not for deletion.
 */
#include "hashtab.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util.h"

#define HASHTAB_FIRST_CAP 64

uint32_t
hashtab_str_hash(const char *s)
{
	return hashtab_mem_hash(s, strlen(s));
}

uint32_t
hashtab_mem_hash(const void *p, size_t len)
{
	const char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w;
	size_t i;

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

/* ---- hashed ids ------------------------------------------------------- */

static void
slots_alloc(struct hashtab *t, size_t cap)
{
	if (cap > SIZE_MAX / 2 / sizeof(*t->slots))
		abort();
	t->slots = xmalloc(cap * sizeof(*t->slots));
#ifdef MADV_HUGEPAGE
	{
		/* a big table is written whole here: its 2 MB pages huge, a page
		 * fault per 2 MB, not per 4 KB (a loaded index's strings, 8 MB) */
		uintptr_t huge = (uintptr_t)1 << 21, p = (uintptr_t)t->slots;
		uintptr_t lo = (p + huge - 1) & ~(huge - 1);
		uintptr_t hi = (p + cap * sizeof(*t->slots)) & ~(huge - 1);

		if (lo < hi)
			madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	}
#endif
	memset(t->slots, 0xff, cap * sizeof(*t->slots));   /* id HASHTAB_NONE */
	t->cap = cap;
}

void
hashtab_init(struct hashtab *t, size_t n)
{
	size_t cap = 16;

	while (cap / 2 < n)
		cap *= 2;
	memset(t, 0, sizeof(*t));
	slots_alloc(t, cap);
}

void
hashtab_done(struct hashtab *t)
{
	if (!t)
		return;
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

uint32_t
hashtab_find(const struct hashtab *t, uint32_t hash, hashtab_eq_fn *eq, const void *ctx,
             const void *key)
{
	size_t mask, i;

	if (!t->cap)
		return HASHTAB_NONE;
	mask = t->cap - 1;
	for (i = hash & mask; t->slots[i].id != HASHTAB_NONE; i = (i + 1) & mask)
		if (t->slots[i].hash == hash && eq(ctx, t->slots[i].id, key))
			return t->slots[i].id;
	return HASHTAB_NONE;
}

/* Puts (hash, id) in the first free slot of its probe run. */
static void
slot_put(struct hashtab *t, uint32_t hash, uint32_t id)
{
	size_t mask = t->cap - 1, i;

	for (i = hash & mask; t->slots[i].id != HASHTAB_NONE; i = (i + 1) & mask)
		;
	t->slots[i].hash = hash;
	t->slots[i].id = id;
}

static void
hashtab_grow(struct hashtab *t)
{
	struct hashtab old = *t;
	size_t i;

	slots_alloc(t, old.cap ? old.cap * 2 : HASHTAB_FIRST_CAP);
	for (i = 0; i < old.cap; i++)
		if (old.slots[i].id != HASHTAB_NONE)
			slot_put(t, old.slots[i].hash, old.slots[i].id);
	free(old.slots);
}

void
hashtab_add(struct hashtab *t, uint32_t hash, uint32_t id)
{
	if (id == HASHTAB_NONE)
		abort();
	if ((t->n + 1) * 2 > t->cap)
		hashtab_grow(t);
	slot_put(t, hash, id);
	t->n++;
}

bool
hashtab_next(const struct hashtab *t, size_t *pos, uint32_t *id)
{
	for (; *pos < t->cap; (*pos)++) {
		if (t->slots[*pos].id != HASHTAB_NONE) {
			*id = t->slots[(*pos)++].id;
			return true;
		}
	}
	return false;
}

/* ---- u64 keys ------------------------------------------------------------ */

static size_t
u64_hash(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k;
}

void
hashtab_u64_done(struct hashtab_u64 *t)
{
	if (!t)
		return;
	free(t->keys);
	free(t->vals);
	memset(t, 0, sizeof(*t));
}

/* The slot index of key, or t->cap when absent. */
static size_t
u64_index(const struct hashtab_u64 *t, uint64_t key)
{
	size_t mask, i;

	if (!t->cap)
		return 0;
	mask = t->cap - 1;
	for (i = u64_hash(key) & mask; t->keys[i] != HASHTAB_U64_EMPTY; i = (i + 1) & mask)
		if (t->keys[i] == key)
			return i;
	return t->cap;
}

bool
hashtab_u64_get(const struct hashtab_u64 *t, uint64_t key, uint64_t *val)
{
	size_t i = u64_index(t, key);

	if (i == t->cap)
		return false;
	if (val)
		*val = t->vals[i];
	return true;
}

uint64_t *
hashtab_u64_slot(struct hashtab_u64 *t, uint64_t key)
{
	size_t i = u64_index(t, key);

	return i == t->cap ? NULL : &t->vals[i];
}

/* t's arrays for cap slots, every key empty. */
static void
u64_alloc(struct hashtab_u64 *t, size_t cap)
{
	if (cap > SIZE_MAX / 2 / sizeof(*t->keys))
		abort();
	t->cap = cap;
	t->keys = xmalloc(cap * sizeof(*t->keys));
	t->vals = xmalloc(cap * sizeof(*t->vals));
	memset(t->keys, 0xff, cap * sizeof(*t->keys));
}

void
hashtab_u64_init(struct hashtab_u64 *t, size_t n)
{
	size_t cap = HASHTAB_FIRST_CAP;

	while (cap < 2 * n)             /* put grows when (held + 1) * 2 > cap */
		cap *= 2;
	memset(t, 0, sizeof(*t));
	u64_alloc(t, cap);
}

static void
hashtab_u64_grow(struct hashtab_u64 *t)
{
	struct hashtab_u64 n = {0};
	size_t i;

	u64_alloc(&n, t->cap ? t->cap * 2 : HASHTAB_FIRST_CAP);
	for (i = 0; i < t->cap; i++)
		if (t->keys[i] != HASHTAB_U64_EMPTY)
			*hashtab_u64_put(&n, t->keys[i], 0) = t->vals[i];
	free(t->keys);
	free(t->vals);
	*t = n;
}

uint64_t *
hashtab_u64_put(struct hashtab_u64 *t, uint64_t key, uint64_t def)
{
	size_t mask, i;

	if (key == HASHTAB_U64_EMPTY)
		abort();
	if ((t->n + 1) * 2 > t->cap)
		hashtab_u64_grow(t);
	mask = t->cap - 1;
	for (i = u64_hash(key) & mask; t->keys[i] != HASHTAB_U64_EMPTY; i = (i + 1) & mask)
		if (t->keys[i] == key)
			return &t->vals[i];
	t->keys[i] = key;
	t->vals[i] = def;
	t->n++;
	return &t->vals[i];
}

bool
hashtab_u64_next(const struct hashtab_u64 *t, size_t *pos, uint64_t *key, uint64_t *val)
{
	for (; *pos < t->cap; (*pos)++) {
		if (t->keys[*pos] != HASHTAB_U64_EMPTY) {
			if (key)
				*key = t->keys[*pos];
			if (val)
				*val = t->vals[*pos];
			(*pos)++;
			return true;
		}
	}
	return false;
}
