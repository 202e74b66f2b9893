/*
 * source.h - a read-only byte source: a file read with pread(), or a byte
 * array (tests build corrupt input byte by byte), in the spirit of redis's
 * rio.
 *
 * A source never writes: files are opened O_RDONLY.  Reads are positional and
 * keep no cursor, so one source may be read from several threads at once
 * (the index pass and decode()).  Not for: buffering (see tfrecord.h).
 *
 * File sources share a bounded pool of descriptors (a quarter of the
 * descriptor limit, at most 256): the least recently read file is closed
 * when the pool is full and reopened by path on its next read, which fails
 * (errno ESTALE) when the path names another file by then.
 */
#ifndef TD_SOURCE_H
#define TD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "reader/base/util.h"

struct source;

/* Opens path read-only, without blocking (a FIFO never makes it wait), and
 * only if it is a regular file.  Returns NULL on failure with TD_ERR_NOENT
 * (no such file), TD_ERR_UNSUPPORTED (a directory, FIFO, socket or device)
 * or TD_ERR_IO (permission, I/O) in *st and, when why is not NULL, a short
 * reason ("a FIFO, not a regular file", "Permission denied") in why. */
struct source *source_open_file(const char *path, enum td_status *st, char *why, size_t whylen);
/* A source over len bytes at data.  The bytes are copied: the caller may
 * free data after the call. */
struct source *source_from_bytes(const void *data, size_t len);
/* Closes the file or frees the copy.  NULL is accepted. */
void source_close(struct source *s);

/* Current size in bytes (files are re-stat'ed: they may grow); also
 * updates the size source_known_size() returns. */
uint64_t source_size(struct source *s);
/* The size seen at open or at the last source_size() call, without a system
 * call; any thread. */
uint64_t source_known_size(const struct source *s);
/* A number no other source of this process had or will have (a freed
 * source's address may be reused; its serial is not): for a cache of a
 * source's bytes to know whose they are.  Any thread. */
uint64_t source_serial(const struct source *s);
/* Reads up to len bytes at off into buf.  Returns the number of bytes read
 * (fewer at the end of the source, 0 past it) or -1 on an I/O error. */
ssize_t source_read(struct source *s, uint64_t off, void *buf, size_t len);
/* Asks the kernel to read [off, off + len) of a file into the page cache
 * now, without waiting (posix_fadvise WILLNEED): a streaming reader calls
 * it ahead of its reads so that a cold file is read while it parses.
 * Nothing for a byte array or a closed or retired file. */
void source_prefetch(struct source *s, uint64_t off, uint64_t len);
/* A read-only view of bytes [off, off + len) without a copy: the file's
 * pages mapped (mmap) or, for a byte array, a pointer into the copy.
 * Returns a pointer to byte off, or NULL when the range is not inside the
 * source (for a file: below the size last seen) or cannot be mapped; the
 * caller then falls back on source_read().  Release with source_unview()
 * (the view stays valid until then, whatever other threads do with the
 * source).  For a file, the bytes must not be truncated away while the
 * view is used (tdbg never writes a dump; a writer that truncates a file
 * under the index is not supported). */
struct source_view {
	void *map;              /* mapping to release, NULL for a byte array */
	size_t maplen;
};
const unsigned char *source_view(struct source *s, uint64_t off, size_t len, struct source_view *v);
void source_unview(struct source_view *v);
/* Pages of views that were replaced with zeros because their file shrank
 * under them (a SIGBUS caught; see source.c).  For tests and problems. */
uint64_t source_zeroed_pages(void);

enum source_change {
	SOURCE_SAME,            /* the path still names the file opened */
	SOURCE_REPLACED,        /* the path names another file (renamed over) */
	SOURCE_GONE,            /* the path names nothing now */
};
/* Whether the path still names the file that was opened (one stat, no
 * read; a byte array is always SOURCE_SAME).  With SOURCE_SAME, *size and
 * *mtime_ns (either may be NULL) get the file's size and modification time
 * (ns) now.  Changes of content in place (truncation, a rewrite) are the
 * caller's to detect, by size, time and content. */
enum source_change source_check(struct source *s, uint64_t *size, int64_t *mtime_ns);
/* Makes every later read fail (-1, errno ESTALE) and gives the descriptor
 * back: the caller found the file changed and stops trusting it.  The
 * source is still freed with source_close().  NULL is accepted. */
void source_retire(struct source *s);

/* Caps the descriptors file sources keep open at once (0: the default,
 * a quarter of RLIMIT_NOFILE within 8..256); closes the excess now. */
void source_set_fd_limit(size_t n);
/* Descriptors the pool holds open now (tests). */
size_t source_open_fds(void);

#endif
