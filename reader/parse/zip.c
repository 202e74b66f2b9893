/*
 * zip.c - a ZIP archive's directory and its stored entries (FORMAT.md §7).
 *
 * Every number read from the archive is checked against the archive's size
 * before it is used as an offset or a length; nothing is allocated from a
 * declared size beyond the limits in zip.h.
 */
#include "zip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/base/fileio.h"

#define SIG_LOCAL   0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_END     0x06054b50u
#define SIG_END64   0x06064b50u
#define SIG_LOC64   0x07064b50u

#define END_LEN     22
#define LOC64_LEN   20
#define END64_LEN   56
#define CENTRAL_LEN 46
#define LOCAL_LEN   30

static uint16_t
le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t
le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

bool
zip_src_read(const struct zip_src *src, void *dst, size_t len, uint64_t off)
{
	if (off > src->size || len > src->size - off)
		return false;
	if (src->fd < 0) {
		memcpy(dst, src->buf + off, len);
		return true;
	}
	return td_pread_full(src->fd, dst, len, off);
}

static enum td_status
fail(char *err, size_t errlen, enum td_status st, const char *what)
{
	snprintf(err, errlen, "%s", what);
	return st;
}

/* Finds the end-of-central-directory record in the last 64 KiB + 22 bytes
 * (its comment may be up to 65535 bytes): the last signature whose comment
 * length reaches exactly to the end of the archive. */
static enum td_status
find_end(const struct zip_src *src, uint8_t end[END_LEN], uint64_t *end_off,
	 char *err, size_t errlen)
{
	uint64_t tail_len = src->size < END_LEN + 65535 ? src->size : END_LEN + 65535;
	uint64_t base = src->size - tail_len;
	uint8_t *tail;
	size_t i;

	if (src->size < END_LEN)
		return fail(err, errlen, TD_ERR_CORRUPT, "shorter than a ZIP end record");
	if (!(tail = malloc((size_t)tail_len)))
		return fail(err, errlen, TD_ERR_NOMEM, "cannot allocate the archive's tail");
	if (!zip_src_read(src, tail, (size_t)tail_len, base)) {
		free(tail);
		return fail(err, errlen, TD_ERR_IO, "cannot read the archive's tail");
	}
	for (i = (size_t)tail_len - END_LEN + 1; i-- > 0;) {
		if (le32(tail + i) == SIG_END && i + END_LEN + le16(tail + i + 20) == tail_len) {
			memcpy(end, tail + i, END_LEN);
			*end_off = base + i;
			free(tail);
			return TD_OK;
		}
	}
	free(tail);
	return fail(err, errlen, TD_ERR_CORRUPT, "no ZIP end-of-central-directory record");
}

/* Where the central directory is and how many entries it has, from the
 * end record or, when that says 0xffff/0xffffffff, the ZIP64 end record. */
static enum td_status
locate_cdir(const struct zip_src *src, uint64_t *cd_off, uint64_t *cd_len, uint64_t *count,
	    char *err, size_t errlen)
{
	uint8_t end[END_LEN], loc[LOC64_LEN], end64[END64_LEN];
	uint64_t end_off;
	enum td_status st;

	if ((st = find_end(src, end, &end_off, err, errlen)) != TD_OK)
		return st;
	if (le16(end + 4) != 0 || le16(end + 6) != 0)
		return fail(err, errlen, TD_ERR_UNSUPPORTED, "a multi-disk ZIP archive");
	*count = le16(end + 10);
	*cd_len = le32(end + 12);
	*cd_off = le32(end + 16);
	if (*count == 0xffff || *cd_len == 0xffffffffu || *cd_off == 0xffffffffu) {
		uint64_t off64;

		if (end_off < LOC64_LEN || !zip_src_read(src, loc, LOC64_LEN, end_off - LOC64_LEN) ||
		    le32(loc) != SIG_LOC64)
			return fail(err, errlen, TD_ERR_CORRUPT, "ZIP64 sizes without a ZIP64 locator");
		off64 = le64(loc + 8);
		if (!zip_src_read(src, end64, END64_LEN, off64) || le32(end64) != SIG_END64)
			return fail(err, errlen, TD_ERR_CORRUPT, "the ZIP64 locator points at no ZIP64 end record");
		*count = le64(end64 + 32);
		*cd_len = le64(end64 + 40);
		*cd_off = le64(end64 + 48);
	}
	if (*cd_off > src->size || *cd_len > src->size - *cd_off)
		return fail(err, errlen, TD_ERR_CORRUPT, "the central directory lies past the archive's end");
	if (*count > ZIP_MAX_ENTRIES || *cd_len > ZIP_MAX_CDIR)
		return fail(err, errlen, TD_ERR_TOO_LARGE, "more ZIP entries than tdbg reads");
	return TD_OK;
}

/* Applies a ZIP64 extra field (id 1) to the sizes and offset the central
 * header saturated, in the order the format gives them. */
static bool
apply_zip64(const uint8_t *extra, size_t len, uint32_t usize, uint32_t csize, uint32_t loff,
	    struct zip_entry *e)
{
	size_t i = 0;

	while (i + 4 <= len) {
		uint16_t id = le16(extra + i), n = le16(extra + i + 2);
		size_t p = i + 4;

		if (p + n > len)
			return false;
		if (id == 1) {
			if (usize == 0xffffffffu) {
				if (p + 8 > i + 4 + n)
					return false;
				e->size = le64(extra + p);
				p += 8;
			}
			if (csize == 0xffffffffu) {
				if (p + 8 > i + 4 + n)
					return false;
				e->csize = le64(extra + p);
				p += 8;
			}
			if (loff == 0xffffffffu) {
				if (p + 8 > i + 4 + n)
					return false;
				e->local_off = le64(extra + p);
			}
			return true;
		}
		i = p + n;
	}
	return usize != 0xffffffffu && csize != 0xffffffffu && loff != 0xffffffffu;
}

static enum td_status
parse_cdir(const uint8_t *cd, uint64_t cd_len, uint64_t count, struct zip_archive *za,
	   char *err, size_t errlen)
{
	uint64_t p = 0, k;

	za->entries = xcalloc(count ? (size_t)count : 1, sizeof(*za->entries));
	for (k = 0; k < count; k++) {
		struct zip_entry *e = &za->entries[k];
		uint32_t usize, csize, loff;
		size_t nlen, xlen, clen;

		if (cd_len - p < CENTRAL_LEN || le32(cd + p) != SIG_CENTRAL)
			return fail(err, errlen, TD_ERR_CORRUPT, "a bad central directory header");
		nlen = le16(cd + p + 28);
		xlen = le16(cd + p + 30);
		clen = le16(cd + p + 32);
		if (CENTRAL_LEN + nlen + xlen + clen > cd_len - p)
			return fail(err, errlen, TD_ERR_CORRUPT, "a central directory name past its record");
		if (nlen > ZIP_MAX_NAME)
			return fail(err, errlen, TD_ERR_TOO_LARGE, "a ZIP entry name longer than tdbg reads");
		e->method = le16(cd + p + 10);
		csize = le32(cd + p + 20);
		usize = le32(cd + p + 24);
		loff = le32(cd + p + 42);
		e->size = usize;
		e->csize = csize;
		e->local_off = loff;
		if (!apply_zip64(cd + p + CENTRAL_LEN + nlen, xlen, usize, csize, loff, e))
			return fail(err, errlen, TD_ERR_CORRUPT, "a bad ZIP64 extra field");
		if (e->local_off > za->src.size || e->csize > za->src.size - e->local_off)
			return fail(err, errlen, TD_ERR_CORRUPT, "a ZIP entry past the archive's end");
		e->name = xmalloc(nlen + 1);
		memcpy(e->name, cd + p + CENTRAL_LEN, nlen);
		e->name[nlen] = '\0';
		za->n = (size_t)k + 1;
		p += CENTRAL_LEN + nlen + xlen + clen;
	}
	return TD_OK;
}

enum td_status
zip_open(const struct zip_src *src, struct zip_archive *za, char *err, size_t errlen)
{
	uint64_t cd_off, cd_len, count;
	enum td_status st;
	uint8_t *cd;

	memset(za, 0, sizeof(*za));
	za->src = *src;
	if ((st = locate_cdir(src, &cd_off, &cd_len, &count, err, errlen)) != TD_OK)
		return st;
	if (!(cd = malloc(cd_len ? (size_t)cd_len : 1)))
		return fail(err, errlen, TD_ERR_NOMEM, "cannot allocate the central directory");
	if (!zip_src_read(src, cd, (size_t)cd_len, cd_off))
		st = fail(err, errlen, TD_ERR_IO, "cannot read the central directory");
	else
		st = parse_cdir(cd, cd_len, count, za, err, errlen);
	free(cd);
	if (st != TD_OK)
		zip_close(za);
	return st;
}

void
zip_close(struct zip_archive *za)
{
	size_t i;

	if (!za)
		return;
	for (i = 0; i < za->n; i++)
		free(za->entries[i].name);
	free(za->entries);
	za->entries = NULL;
	za->n = 0;
}

const struct zip_entry *
zip_find(const struct zip_archive *za, const char *name)
{
	size_t i;

	for (i = 0; i < za->n; i++)
		if (strcmp(za->entries[i].name, name) == 0)
			return &za->entries[i];
	return NULL;
}

enum td_status
zip_data_offset(const struct zip_archive *za, const struct zip_entry *e, uint64_t *off,
		char *err, size_t errlen)
{
	uint8_t lh[LOCAL_LEN];
	uint64_t start;

	if (e->method != 0) {
		snprintf(err, errlen, "ZIP entry %s is compressed (method %u); tdbg reads stored entries",
			 e->name, e->method);
		return TD_ERR_UNSUPPORTED;
	}
	if (e->csize != e->size)
		return fail(err, errlen, TD_ERR_CORRUPT, "a stored ZIP entry whose sizes differ");
	if (!zip_src_read(&za->src, lh, LOCAL_LEN, e->local_off) || le32(lh) != SIG_LOCAL)
		return fail(err, errlen, TD_ERR_CORRUPT, "a bad ZIP local header");
	start = e->local_off + LOCAL_LEN + le16(lh + 26) + le16(lh + 28);
	if (start > za->src.size || e->csize > za->src.size - start)
		return fail(err, errlen, TD_ERR_CORRUPT, "a ZIP entry's data past the archive's end");
	*off = start;
	return TD_OK;
}

enum td_status
zip_read_entry(const struct zip_archive *za, const struct zip_entry *e, size_t max,
	       uint8_t **data, size_t *len, char *err, size_t errlen)
{
	enum td_status st;
	uint64_t off;

	*data = NULL;
	*len = 0;
	if ((st = zip_data_offset(za, e, &off, err, errlen)) != TD_OK)
		return st;
	if (e->size > max) {
		snprintf(err, errlen, "ZIP entry %s is %llu bytes, more than tdbg reads (%zu)",
			 e->name, (unsigned long long)e->size, max);
		return TD_ERR_TOO_LARGE;
	}
	*data = xmalloc((size_t)e->size + 1);
	if (!zip_src_read(&za->src, *data, (size_t)e->size, off)) {
		free(*data);
		*data = NULL;
		return fail(err, errlen, TD_ERR_IO, "cannot read a ZIP entry's data");
	}
	(*data)[e->size] = '\0';
	*len = (size_t)e->size;
	return TD_OK;
}
