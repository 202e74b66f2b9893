/*
 * fingerprint.c - file fingerprints: fstat plus a few short reads, hashed
 * with 64-bit FNV-1a (speed is not an issue at 32 KiB a file; what matters
 * is that a rewritten head, tail or sampled block shows).  A directory
 * (formats of one file per tensor announce a folder as one dump file) is
 * fingerprinted by its entries' stat data instead (dir_take).
 */
#include "fingerprint.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "strpool.h"

static uint64_t
fnv64(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h ^ n;
}

/* Hash of len bytes of fd at off; false on a read error. */
static bool
hash_span(int fd, uint64_t off, size_t len, uint64_t *h)
{
	unsigned char buf[FP_SPAN];

	if (len > sizeof buf || !td_pread_full(fd, buf, len, off))
		return false;
	*h = fnv64(buf, len);
	return true;
}

/* Head and tail hashes of fd as if it were size bytes long, and the
 * samples': block k (1..FP_SAMPLES) at k / (FP_SAMPLES + 1) of the way
 * from the head to the tail, their hashes folded in order (0 for a file
 * of at most two spans, whose ends cover it). */
static bool
hash_ends(int fd, uint64_t size, uint64_t *head, uint64_t *tail, uint64_t *mid)
{
	size_t span = (size_t)TD_MIN(size, (uint64_t)FP_SPAN);
	uint64_t h, k;

	if (!hash_span(fd, 0, span, head) || !hash_span(fd, size - span, span, tail))
		return false;
	*mid = 0;
	if (size <= 2 * (uint64_t)FP_SPAN)
		return true;
	for (k = 1; k <= FP_SAMPLES; k++) {
		uint64_t off = (size - FP_SPAN) / (FP_SAMPLES + 1) * k;

		if (!hash_span(fd, off, FP_SPAN, &h))
			return false;
		*mid = (*mid ^ h) * 0x100000001b3ULL;
	}
	return true;
}

/* Opens path and fills the stat part of fp; -1 when it cannot. */
static int
open_stat(const char *path, struct fingerprint *fp, enum td_status *st)
{
	struct stat sb;
	uint64_t size;
	char err[160];
	int fd = td_open_regular(path, &size, st, err, sizeof err);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0) {
		close(fd);
		*st = TD_ERR_IO;
		return -1;
	}
	fp->size = (uint64_t)sb.st_size;
	fp->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
	fp->ino = (uint64_t)sb.st_ino;
	return fd;
}

/* ---- directories ---------------------------------------------------------- */

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint64_t
fold(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

/* The sorted names in the open directory d (closes it); NULL on error. */
static char **
dir_names(DIR *d, size_t *n)
{
	char **names = NULL;
	size_t cap = 0;
	struct dirent *de;

	*n = 0;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		TD_GROW(names, cap, *n + 1);
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), name_cmp);
	return names;
}

/* Folders below a folder fingerprinted, at most (deeper ones count by
 * their own stat data only). */
#define FP_DIR_DEPTH 32

/* The hash of folder fd's entries (fd is consumed): each entry's name,
 * size, modification time and inode in name order, and for a folder (a
 * real one: links are not followed into) the hash of its own entries
 * (tfdbg v1 nests a node's dumps in folders of its name).  *n: the count
 * of entries at this level.  false when the folder cannot be listed. */
static bool
dir_hash(int fd, int depth, uint64_t *h, uint64_t *n)
{
	DIR *d = fdopendir(fd);
	char **names;
	size_t k, i;
	int again;

	if (!d) {
		close(fd);
		return false;
	}
	again = dup(dirfd(d));
	names = dir_names(d, &k);   /* closes d and fd */
	*n = k;
	for (i = 0; i < k; i++) {
		struct stat es, ls;
		uint64_t sub = 0, nsub = 0;

		*h = fold(*h, fnv64((const unsigned char *)names[i], strlen(names[i])));
		if (again >= 0 && fstatat(again, names[i], &es, 0) == 0) {
			*h = fold(*h, (uint64_t)es.st_size);
			*h = fold(*h, (uint64_t)es.st_mtim.tv_sec * 1000000000ULL + (uint64_t)es.st_mtim.tv_nsec);
			*h = fold(*h, (uint64_t)es.st_ino);
			if (S_ISDIR(es.st_mode) && depth < FP_DIR_DEPTH &&
			    fstatat(again, names[i], &ls, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(ls.st_mode)) {
				int sfd = openat(again, names[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);

				sub = 0xcbf29ce484222325ULL;
				if (sfd < 0 || !dir_hash(sfd, depth + 1, &sub, &nsub))
					sub = 1;
				*h = fold(fold(*h, sub), nsub);
			}
		} else {
			*h = fold(fold(fold(*h, 0), 0), 0);
		}
		free(names[i]);
	}
	free(names);
	if (again < 0)
		return false;
	close(again);
	return true;
}

/* Fingerprint of a directory: size is its entry count, mtime and ino its
 * own (an entry added, removed or renamed moves the folder's time), head
 * the hash of its tree (dir_hash: a file rewritten in place moves its own
 * time, one added below moves its folder's), tail and mid 0.  An entry
 * that cannot be stat'ed (a dangling link) counts with zeros.
 * TD_ERR_NOENT / TD_ERR_IO when the folder cannot be read. */
static enum td_status
dir_take(const char *path, struct fingerprint *fp)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat sb;
	uint64_t h = 0xcbf29ce484222325ULL, n = 0;

	if (fd < 0)
		return TD_ERR_NOENT;
	if (fstat(fd, &sb) != 0) {
		close(fd);
		return TD_ERR_IO;
	}
	fp->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000LL + sb.st_mtim.tv_nsec;
	fp->ino = (uint64_t)sb.st_ino;
	if (!dir_hash(fd, 0, &h, &n))
		return TD_ERR_IO;
	fp->size = n;
	fp->head = h;
	fp->tail = fp->mid = 0;
	return TD_OK;
}

/* ---- folders of which a few files were read ---------------------------------- */

static int64_t
ts_ns(struct timespec t)
{
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* fstatat(fd, name) when fd is an open folder and dir NULL; else
 * "dir/name", relative to fd when it is open (the folder's parent), else
 * by path (one system call, where an open, fstatat and close of the
 * folder take three). */
static int
stat_in(int fd, const char *dir, const char *name, struct stat *st)
{
	char buf[4096];
	size_t d, n;

	if (fd >= 0 && !dir)
		return fstatat(fd, name, st, 0);
	/* "dir/name" without snprintf: once a folder at a reopen */
	d = strlen(dir);
	n = strlen(name);
	if (d + n + 2 > sizeof buf)
		return -1;
	memcpy(buf, dir, d);
	buf[d] = '/';
	memcpy(buf + d + 1, name, n + 1);
	return fd >= 0 ? fstatat(fd, buf, st, 0) : stat(buf, st);
}

/* The listed fingerprint of a folder whose own stat is sb: open as fd
 * (not consumed) with dir NULL, or dir by path (fd -1) or relative to
 * its parent open as fd. */
static void
listed_hash(int fd, const char *dir, const struct stat *sb, const char *const *read, size_t nread,
	    struct fingerprint *fp)
{
	uint64_t h = fold(0xcbf29ce484222325ULL, (uint64_t)ts_ns(sb->st_ctim));
	size_t i;

	for (i = 0; i < nread; i++) {
		struct stat es;

		h = fold(h, fnv64((const unsigned char *)read[i], strlen(read[i])));
		if (stat_in(fd, dir, read[i], &es) == 0) {
			h = fold(h, (uint64_t)es.st_size);
			h = fold(h, (uint64_t)ts_ns(es.st_mtim));
			h = fold(h, (uint64_t)ts_ns(es.st_ctim));
			h = fold(h, (uint64_t)es.st_ino);
		} else {
			h = fold(fold(fold(fold(h, UINT64_MAX), 0), 0), 0);
		}
	}
	fp->size = nread;
	fp->mtime_ns = ts_ns(sb->st_mtim);
	fp->ino = (uint64_t)sb->st_ino;
	fp->head = h;
	fp->tail = fp->mid = 0;
}

/* The newest status-change time among the entries of the folder open as
 * fd (not consumed), at least floor. */
static int64_t
newest_ctime(int fd, int64_t floor)
{
	int again = dup(fd);
	DIR *d = again >= 0 ? fdopendir(again) : NULL;
	char **names;
	size_t n = 0, i;
	int64_t best = floor;

	if (!d) {
		if (again >= 0)
			close(again);
		return INT64_MAX;   /* unknown: no decode is believed newer */
	}
	names = dir_names(d, &n);   /* closes d */
	for (i = 0; i < n; i++) {
		struct stat es;

		if (fstatat(fd, names[i], &es, AT_SYMLINK_NOFOLLOW) == 0)
			best = TD_MAX(best, ts_ns(es.st_ctim));
		free(names[i]);
	}
	free(names);
	return best;
}

enum td_status
fingerprint_take_listed(const char *path, const char *const *read, size_t nread,
			struct fingerprint *fp, int64_t *newest)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat sb;

	if (fd < 0)
		return TD_ERR_NOENT;
	if (fstat(fd, &sb) != 0) {
		close(fd);
		return TD_ERR_IO;
	}
	listed_hash(fd, NULL, &sb, read, nread, fp);
	if (newest)
		*newest = newest_ctime(fd, ts_ns(sb.st_ctim));
	close(fd);
	return TD_OK;
}

enum fingerprint_match
fingerprint_match_listed(const char *path, const char *const *read, size_t nread,
			 const struct fingerprint *old)
{
	struct fingerprint now;
	struct stat sb;

	/* stats by path: a reopen checks thousands of folders, two system
	 * calls each (the folder, its statistic.csv) */
	if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return FP_CHANGED;
	listed_hash(-1, path, &sb, read, nread, &now);
	return now.size == old->size && now.mtime_ns == old->mtime_ns && now.ino == old->ino &&
	       now.head == old->head && now.tail == old->tail && now.mid == old->mid ? FP_SAME
										 : FP_CHANGED;
}

void
fingerprint_parents_done(struct fingerprint_parents *pp)
{
	for (size_t i = 0; i < pp->dirs.n; i++)
		if (pp->fds[i] >= 0)
			close(pp->fds[i]);
	free(pp->fds);
	td_strpool_done(&pp->dirs);
	memset(pp, 0, sizeof(*pp));
}

/* The parent folder of path (n bytes of it) open in pp, or -1. */
static int
parent_fd(struct fingerprint_parents *pp, const char *path, size_t n)
{
	char buf[4096];
	bool added;
	size_t id;

	if (n >= sizeof buf)
		return -1;
	memcpy(buf, path, n);
	buf[n] = '\0';
	if (pp->dirs.n >= FP_PARENTS_MAX && td_strpool_find(&pp->dirs, buf) < 0)
		return -1;
	id = td_strpool_id(&pp->dirs, buf, &added);
	if (added) {
		TD_GROW(pp->fds, pp->cap, id + 1);
		/* O_PATH: a handle for the lookups below it, not a read */
		pp->fds[id] = open(buf, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	return pp->fds[id];
}

enum fingerprint_match
fingerprint_match_listed_in(struct fingerprint_parents *pp, const char *path,
			    const char *const *read, size_t nread, const struct fingerprint *old)
{
	const char *slash = strrchr(path, '/');
	struct fingerprint now;
	struct stat sb;
	int fd;

	if (!slash || slash == path || !slash[1] ||
	    (fd = parent_fd(pp, path, (size_t)(slash - path))) < 0)
		return fingerprint_match_listed(path, read, nread, old);
	if (fstatat(fd, slash + 1, &sb, 0) != 0 || !S_ISDIR(sb.st_mode))
		return FP_CHANGED;
	listed_hash(fd, slash + 1, &sb, read, nread, &now);
	return now.size == old->size && now.mtime_ns == old->mtime_ns && now.ino == old->ino &&
	       now.head == old->head && now.tail == old->tail && now.mid == old->mid ? FP_SAME
										 : FP_CHANGED;
}

static bool
is_dir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* ---- the fingerprint ------------------------------------------------------- */

enum td_status
fingerprint_take(const char *path, struct fingerprint *fp)
{
	enum td_status st = TD_OK;
	int fd;
	bool ok;

	if (is_dir(path))
		return dir_take(path, fp);
	if ((fd = open_stat(path, fp, &st)) < 0)
		return st;
	ok = hash_ends(fd, fp->size, &fp->head, &fp->tail, &fp->mid);
	close(fd);
	return ok ? TD_OK : TD_ERR_IO;
}

enum fingerprint_match
fingerprint_match(const char *path, const struct fingerprint *old)
{
	struct fingerprint now;
	enum td_status st = TD_OK;
	uint64_t head = 0, tail = 0, mid = 0;
	enum fingerprint_match res = FP_CHANGED;
	int fd;

	if (is_dir(path))           /* a folder is the same or changed, never grown */
		return dir_take(path, &now) == TD_OK && now.size == old->size &&
		       now.mtime_ns == old->mtime_ns && now.ino == old->ino && now.head == old->head &&
		       now.tail == old->tail && now.mid == old->mid ? FP_SAME : FP_CHANGED;
	if ((fd = open_stat(path, &now, &st)) < 0)
		return FP_CHANGED;
	if (now.ino == old->ino && now.size >= old->size &&
	    (now.size > old->size || now.mtime_ns == old->mtime_ns) &&
	    hash_ends(fd, old->size, &head, &tail, &mid) && head == old->head && tail == old->tail &&
	    mid == old->mid)
		res = now.size > old->size ? FP_GROWN : FP_SAME;
	close(fd);
	return res;
}
