/*
 * strpool.h - a reader's string pool: strings kept for the pool's life in
 * an arena of chunks that never move (no allocation per string), and a set
 * that interns them, each with its insertion number.
 *
 * Readers keep the names every run, rank or file repeats (op names, debug
 * ops, directories, frame keys) and some per-file strings; one allocation
 * per string was most of a many-file dump's reader memory (issue 25).
 * Chunks start small and double up to 64 KiB, so the many small pools a
 * reader keeps (a rank's iteration texts, the unreadable directories) cost
 * little.  Zero-initialise; free with td_strpool_done().  Not thread-safe:
 * one writer, and readers of it take the writer's lock.
 */
#ifndef TD_STRPOOL_H
#define TD_STRPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/hashtab.h"

struct td_strpool_chunk;
struct td_strpool {
	struct td_strpool_chunk *chunks;    /* newest first */
	size_t bytes;                       /* allocated for chunks */
	struct hashtab set;                 /* interned strings: ids into strs */
	const char **strs;                  /* insertion number -> string */
	size_t n, cap;
};

/* A copy of the len bytes at str (NUL added) in the arena, not interned;
 * valid until td_strpool_done(). */
const char *td_strpool_copy(struct td_strpool *p, const char *str, size_t len);
/* The one copy of str in the pool (added the first time); NULL for NULL.
 * Valid until td_strpool_done(). */
const char *td_strpool_add(struct td_strpool *p, const char *str);
/* The same for the len bytes at str (a directory inside a path). */
const char *td_strpool_add_len(struct td_strpool *p, const char *str, size_t len);
/* str's insertion number (0-based), adding it when absent; *added says. */
size_t td_strpool_id(struct td_strpool *p, const char *str, bool *added);
/* The insertion number of str, or -1 if absent (adds nothing). */
int64_t td_strpool_find(const struct td_strpool *p, const char *str);
/* Frees every string of the pool and zeroes it; NULL is fine. */
void td_strpool_done(struct td_strpool *p);

#endif
