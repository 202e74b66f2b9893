/*
 * fingerprint.h - what a dump file looked like when it was indexed, so an
 * index saved then can be trusted now (the model's index cache, issue 18).
 *
 * A fingerprint is the file's size, modification time and inode plus a
 * hash of its first and of its last FP_SPAN bytes and one of FP_SAMPLES
 * blocks of FP_SPAN bytes spread evenly between them.  fingerprint_match()
 * compares a file on disk with one taken earlier: the same file (nothing
 * changed), the same file with bytes appended (a live dump that grew: what
 * was indexed is still there, byte for byte at both ends and in every
 * sampled block), or something else.  The hashes read at most
 * (2 + FP_SAMPLES) * FP_SPAN bytes (32 KiB); the file is opened read-only
 * through fileio.h.  Not a proof: a file rewritten in the middle, between
 * the sampled blocks, with the same size, time stamp and inode passes (as
 * it does for make).
 *
 * A directory (a format of one file per tensor announces an iteration
 * folder as one dump file) has a fingerprint of its own kind: its entry
 * count, its modification time and inode, and a hash of every entry's
 * name, size, modification time and inode, folders below included (one
 * stat per entry, no read; links are not followed into, 32 levels at most).
 * It matches only unchanged (FP_SAME) or not at all (FP_CHANGED): a file
 * added, removed, renamed over or rewritten in it is a change.
 *
 * A folder of which the index read only a few files, the others listed
 * (a MindSpore iteration folder with statistic.csv: the .npy files are
 * named there, never read), has a cheaper "listed" fingerprint: the
 * folder's own inode, modification and status-change times (a file
 * added, removed or renamed over moves them) and the size, times and
 * inode of each file it read, by name: a stat for the folder and one per
 * read file, not one per entry.  A listed file rewritten in place does
 * not show there; fingerprint_take_listed() gives the newest status-
 * change time of the folder's entries, which a decode of a file compares
 * with the file's own (a later one: rewritten since).
 */
#ifndef TD_FINGERPRINT_H
#define TD_FINGERPRINT_H

#include <stdint.h>

#include "strpool.h"
#include "util.h"

#define FP_SPAN 4096
#define FP_SAMPLES 6

struct fingerprint {
	uint64_t size;
	int64_t mtime_ns;           /* modification time, ns since the epoch */
	uint64_t ino;
	uint64_t head;              /* hash of bytes [0, min(size, FP_SPAN)) */
	uint64_t tail;              /* hash of the last min(size, FP_SPAN) bytes */
	uint64_t mid;               /* hash of FP_SAMPLES blocks between (fingerprint.c) */
};

enum fingerprint_match {
	FP_SAME,                    /* size, time, inode and both hashes match */
	FP_GROWN,                   /* same inode, longer, the old head, tail and samples unchanged */
	FP_CHANGED,                 /* anything else, or the file cannot be read */
};

/* Takes path's fingerprint (a regular file or a directory).  TD_ERR_NOENT /
 * TD_ERR_IO when it cannot be opened or read (neither a regular file nor a
 * directory included). */
enum td_status fingerprint_take(const char *path, struct fingerprint *fp);
/* Compares path on disk now with old (see enum fingerprint_match). */
enum fingerprint_match fingerprint_match(const char *path, const struct fingerprint *old);

/* The listed fingerprint of the folder path whose files read[0..nread)
 * (names in it) the index read: size is nread, mtime_ns and ino the
 * folder's, head a hash of the folder's status-change time and each read
 * file's name, size, times and inode (a missing one counts as such),
 * tail and mid 0.  *newest (may be NULL) gets the newest status-change
 * time (ns) among the folder's entries, one stat each (the folder's own
 * when it is empty).  TD_ERR_NOENT / TD_ERR_IO when the folder cannot be
 * read.  Not for plain files. */
enum td_status fingerprint_take_listed(const char *path, const char *const *read, size_t nread,
				       struct fingerprint *fp, int64_t *newest);
/* FP_SAME when the folder path and its read files match old (taken by
 * fingerprint_take_listed with the same names), else FP_CHANGED: a stat
 * for the folder and one per read file. */
enum fingerprint_match fingerprint_match_listed(const char *path, const char *const *read,
						size_t nread, const struct fingerprint *old);

/* The parent folders of the folders fingerprint_match_listed_in() checks,
 * kept open between calls (at most FP_PARENTS_MAX): a reopen checks
 * thousands of iteration folders, the siblings of a few graph folders.
 * Start zeroed; fingerprint_parents_done() closes them. */
#define FP_PARENTS_MAX 256
struct fingerprint_parents {
	struct td_strpool dirs;     /* parent paths, by id */
	int *fds;                   /* by id: O_PATH, or -1 */
	size_t cap;
};
/* fingerprint_match_listed() with the folder and its read files stat'ed
 * relative to its parent, opened once for all its children (a lookup of
 * two components, not of every component of the path); by path when the
 * parent cannot be opened or FP_PARENTS_MAX are open. */
enum fingerprint_match fingerprint_match_listed_in(struct fingerprint_parents *pp, const char *path,
						   const char *const *read, size_t nread,
						   const struct fingerprint *old);
void fingerprint_parents_done(struct fingerprint_parents *pp);

#endif
