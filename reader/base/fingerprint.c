/*
 * fingerprint.c - file fingerprints: fstat plus a few short reads, hashed
 * with 64-bit FNV-1a (speed is not an issue at 32 KiB a file; what matters
 * is that a rewritten head, tail or sampled block shows).
 */
#include "fingerprint.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

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

enum td_status
fingerprint_take(const char *path, struct fingerprint *fp)
{
	enum td_status st = TD_OK;
	int fd = open_stat(path, fp, &st);
	bool ok;

	if (fd < 0)
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
	int fd = open_stat(path, &now, &st);

	if (fd < 0)
		return FP_CHANGED;
	if (now.ino == old->ino && now.size >= old->size &&
	    (now.size > old->size || now.mtime_ns == old->mtime_ns) &&
	    hash_ends(fd, old->size, &head, &tail, &mid) && head == old->head && tail == old->tail &&
	    mid == old->mid)
		res = now.size > old->size ? FP_GROWN : FP_SAME;
	close(fd);
	return res;
}
