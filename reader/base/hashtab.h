/*
 * hashtab.h - the one open-addressing hash table of every layer.
 *
 * Two faces over the same scheme (linear probing, power-of-two capacity,
 * at most half full, no deletion):
 *
 *  - struct hashtab maps a caller's entries to themselves: a slot holds a
 *    32-bit hash and a 32-bit id that the caller gives meaning to (a string
 *    id, an op id, an insertion number).  The caller computes the hash (so
 *    a hot caller keeps its own fast hash function) and says what "equal"
 *    means through a callback; the table never owns or reads the entries.
 *  - struct hashtab_u64 maps u64 keys to u64 values held in the table.
 *
 * Neither face is thread-safe: a table has one writer, and readers take the
 * writer's lock.  Tables are plain structs: zero-initialise (or call
 * hashtab_init to size one up front), add, and free with the _done call.
 * Not for deletion: no caller removes keys; build a new table instead.
 */
#ifndef TD_HASHTAB_H
#define TD_HASHTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HASHTAB_NONE UINT32_MAX     /* no id: an empty slot, a failed find */
#define HASHTAB_U64_EMPTY UINT64_MAX /* the one key a u64 table cannot hold */

struct hashtab_slot {
	uint32_t hash;
	uint32_t id;                /* HASHTAB_NONE: empty */
};

struct hashtab {
	struct hashtab_slot *slots;
	size_t cap;                 /* slots: 0 or a power of two */
	size_t n;                   /* ids added */
};

/* Says whether the caller's entry id has the key find was given.  ctx is
 * find's ctx, passed through. */
typedef bool hashtab_eq_fn(const void *ctx, uint32_t id, const void *key);

/* Word-at-a-time multiplicative hash of a NUL-terminated string: names are
 * long (graph UUIDs, scoped op names) and hashed once per trace row, so a
 * bytewise hash is too slow.  Stable across builds and runs (the model
 * keys some persisted maps with it). */
uint32_t hashtab_str_hash(const char *s);
/* The same hash of the len bytes at s (a name inside a larger string):
 * hashtab_mem_hash(s, strlen(s)) == hashtab_str_hash(s). */
uint32_t hashtab_mem_hash(const void *s, size_t len);

/* Sizes an empty table t for n ids without growing: the capacity is the
 * smallest power of two, at least 16, that keeps n ids at most half full.
 * A zero-initialised table needs no init (its first add allocates 64). */
void hashtab_init(struct hashtab *t, size_t n);
/* Frees t's slots (not the caller's entries) and zeroes t; NULL is fine. */
void hashtab_done(struct hashtab *t);
/* The id whose slot hash is hash and for which eq(ctx, id, key) holds, or
 * HASHTAB_NONE.  eq is called only for ids with an equal hash. */
uint32_t hashtab_find(const struct hashtab *t, uint32_t hash, hashtab_eq_fn *eq,
                      const void *ctx, const void *key);
/* Adds id (not HASHTAB_NONE) under hash, growing t (doubling) first when
 * it would be more than half full.  Does not look for an equal entry:
 * call hashtab_find first when the key may be present. */
void hashtab_add(struct hashtab *t, uint32_t hash, uint32_t id);
/* Iterates: start with *pos = 0; each call stores the next id in *id and
 * returns true, false when done.  Slot order; valid while t is unchanged. */
bool hashtab_next(const struct hashtab *t, size_t *pos, uint32_t *id);

struct hashtab_u64 {
	uint64_t *keys;             /* HASHTAB_U64_EMPTY: empty slot */
	uint64_t *vals;
	size_t cap;                 /* 0 or a power of two */
	size_t n;                   /* keys held */
};

/* Sizes an empty (zeroed) t for n keys, so that putting n keys never
 * grows it (no old and new arrays side by side at the last doubling):
 * the capacity is the power of two hashtab_u64_put would reach. */
void hashtab_u64_init(struct hashtab_u64 *t, size_t n);
/* Frees t's arrays and zeroes t; NULL is fine. */
void hashtab_u64_done(struct hashtab_u64 *t);
/* Whether key is in t; stores its value in *val when val is not NULL. */
bool hashtab_u64_get(const struct hashtab_u64 *t, uint64_t key, uint64_t *val);
/* The value slot of key, NULL when absent; valid until the next put. */
uint64_t *hashtab_u64_slot(struct hashtab_u64 *t, uint64_t key);
/* The value slot of key, inserting key with value def when absent (growing
 * t, doubling from 64, first when it would be more than half full).  The
 * pointer is valid until the next put on t.  key must not be
 * HASHTAB_U64_EMPTY (aborts). */
uint64_t *hashtab_u64_put(struct hashtab_u64 *t, uint64_t key, uint64_t def);
/* Iterates as hashtab_next does, giving each key and value (either
 * pointer may be NULL). */
bool hashtab_u64_next(const struct hashtab_u64 *t, size_t *pos, uint64_t *key,
                      uint64_t *val);

#endif
