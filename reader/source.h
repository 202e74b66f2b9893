/*
 * source.h - a read-only byte source: a file read with pread(), or a byte
 * array (tests build corrupt input byte by byte), in the spirit of redis's
 * rio.
 *
 * A source never writes: files are opened O_RDONLY.  Reads are positional and
 * keep no cursor, so one source may be read from several threads at once
 * (the index pass and decode()).  Not for: buffering (see tfrecord.h).
 */
#ifndef TD_SOURCE_H
#define TD_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

struct source;

/* Opens path read-only.  Returns NULL with TD_ERR_NOENT / TD_ERR_IO in *st
 * (and errno kept) on failure. */
struct source *source_open_file(const char *path, enum td_status *st);
/* A source over len bytes at data.  The bytes are copied: the caller may
 * free data after the call. */
struct source *source_from_bytes(const void *data, size_t len);
/* Closes the file or frees the copy.  NULL is accepted. */
void source_close(struct source *s);

/* Current size in bytes (files are re-stat'ed: they may grow). */
uint64_t source_size(struct source *s);
/* Reads up to len bytes at off into buf.  Returns the number of bytes read
 * (fewer at the end of the source, 0 past it) or -1 on an I/O error. */
ssize_t source_read(struct source *s, uint64_t off, void *buf, size_t len);
/* Path given to source_open_file(), or "<bytes>". */
const char *source_path(const struct source *s);

#endif
