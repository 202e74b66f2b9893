/*
 * reader_listing.h - one listing of a directory (entry names and d_type),
 * made once and read by every reader's probe.
 *
 * Detection asks each reader in turn whether a directory is its dump; a
 * reader decides from the directory's names first, so the registry lists
 * the directory once and hands that listing to every probe (and, through
 * reader_options, to the open of the reader it chose), instead of each
 * reader listing it again.  A listing is a snapshot: it is not kept past
 * the detection and open it was made for.  Not a directory walker: one
 * level, no stat of the entries.
 */
#ifndef TD_READER_LISTING_H
#define TD_READER_LISTING_H

#include <stdbool.h>
#include <stddef.h>

struct reader_entry {
	const char *name;          /* borrowed from the listing */
	unsigned char type;        /* d_type as readdir gave it (DT_UNKNOWN on some filesystems) */
};

struct reader_listing {
	struct reader_entry *v;    /* in readdir order, without "." and ".." */
	size_t n;
	char *names;               /* the names, NUL-separated (owned) */
};

/* Lists dir into *ls (which it overwrites) in readdir order, "." and ".."
 * left out.  Returns false (ls empty, nothing to free) when dir cannot be
 * opened as a directory.  Free with reader_listing_done(). */
bool reader_listing_make(const char *dir, struct reader_listing *ls);
/* Frees the listing's memory and empties it; NULL and an empty listing
 * are fine. */
void reader_listing_done(struct reader_listing *ls);
/* probe_list(dir, ls) on a listing of dir made for the call (empty when
 * dir cannot be listed): a reader's probe() for callers that hold no
 * listing. */
int reader_listing_probe(const char *dir,
			 int (*probe_list)(const char *dir, const struct reader_listing *ls));
/* The same for a yes/no question asked of a listing: check_list(dir, ls)
 * on a listing of dir made for the call (empty when dir cannot be listed,
 * so an unlistable folder answers as an empty one). */
bool reader_listing_check(const char *dir,
			  bool (*check_list)(const char *dir, const struct reader_listing *ls));

#endif
