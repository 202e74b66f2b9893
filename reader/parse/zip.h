/*
 * zip.h - the directory of a ZIP archive whose entries are stored.
 *
 * Enough of the ZIP format to find an entry by name and the byte range of
 * its data inside the archive: the end-of-central-directory record (and its
 * ZIP64 locator and record), the central directory, and each local header
 * (whose extra field is where writers pad data to an alignment).  Reads
 * through pread on a descriptor or from a buffer, never more than the
 * directory, so a multi-gigabyte archive costs a few KiB.  Not for:
 * compressed entries (their method is reported, their data is not
 * inflated), encryption, multi-disk archives.  FORMAT.md §7.
 */
#ifndef TD_ZIP_H
#define TD_ZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/util.h"

/* Limits on what an archive may make us read or hold. */
#define ZIP_MAX_ENTRIES 4096
#define ZIP_MAX_CDIR ((uint64_t)4 << 20)   /* central directory bytes */
#define ZIP_MAX_NAME 1024

/* Where the archive's bytes are: a descriptor (fd >= 0, read with pread)
 * or a buffer (fd < 0). */
struct zip_src {
	int fd;
	const uint8_t *buf;
	uint64_t size;                  /* of the archive */
};

struct zip_entry {
	char *name;                     /* NUL-terminated copy */
	uint16_t method;                /* 0 stored, 8 deflated, ... */
	uint64_t size;                  /* uncompressed size */
	uint64_t csize;                 /* bytes in the archive */
	uint64_t local_off;             /* of its local header */
};

struct zip_archive {
	struct zip_src src;
	struct zip_entry *entries;      /* in central directory order */
	size_t n;
};

/* Reads the directory of the archive in src into *za (zip_close frees
 * it).  TD_ERR_CORRUPT when there is no end record or a record lies (an
 * offset or size past the archive, a name past its record),
 * TD_ERR_TOO_LARGE past ZIP_MAX_ENTRIES or ZIP_MAX_CDIR, TD_ERR_UNSUPPORTED
 * for a multi-disk archive, TD_ERR_IO on a read error; err says which. */
enum td_status zip_open(const struct zip_src *src, struct zip_archive *za,
			char *err, size_t errlen);
void zip_close(struct zip_archive *za);

/* The entry named name exactly, or NULL. */
const struct zip_entry *zip_find(const struct zip_archive *za, const char *name);

/* The offset in the archive of e's data, from its local header, checked to
 * lie with its csize bytes inside the archive.  TD_ERR_UNSUPPORTED when e
 * is not stored (method 0), TD_ERR_CORRUPT for a bad local header. */
enum td_status zip_data_offset(const struct zip_archive *za, const struct zip_entry *e,
			       uint64_t *off, char *err, size_t errlen);

/* Reads e's data (stored, at most max bytes) into a new malloc'd buffer
 * with a NUL after it (*len excludes it).  Errors as zip_data_offset plus
 * TD_ERR_TOO_LARGE past max and TD_ERR_IO. */
enum td_status zip_read_entry(const struct zip_archive *za, const struct zip_entry *e,
			      size_t max, uint8_t **data, size_t *len, char *err, size_t errlen);

/* Reads len bytes at off of the archive.  false past its end or on error. */
bool zip_src_read(const struct zip_src *src, void *dst, size_t len, uint64_t off);

#endif
