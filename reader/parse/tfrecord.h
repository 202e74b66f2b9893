/*
 * tfrecord.h - TFRecord framing (FORMAT.md §2):
 * an 8-byte little-endian length, its masked CRC32C, the payload, the
 * payload's masked CRC32C.
 *
 * A cursor walks one source front to back through a reusable read-ahead
 * buffer (no allocation per record).  It reports what it finds and never
 * gives up on the file early:
 *  - a bad payload CRC with a good length CRC skips exactly that record;
 *  - a bad length CRC (or an impossible length) means the framing cannot be
 *    trusted: the cursor scans forward (bounded) for the next header whose
 *    length CRC is right and whose record fits, and continues there;
 *  - a length with a good CRC that runs past the end of the file is a torn
 *    tail (below) unless a valid record (both CRCs right) follows its
 *    header within the resync window: then it is BAD_LENGTH and the cursor
 *    continues at that record;
 *  - an incomplete last record is TORN: not an error (the file may still be
 *    growing); the cursor stays on it so a later call can read it.
 * Not for: compressed TFRecord files (tfdbg never writes them).
 */
#ifndef TD_TFRECORD_H
#define TD_TFRECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "source.h"
#include "reader/base/util.h"

#define TFRECORD_HEADER 12
#define TFRECORD_FOOTER 4
/* protobuf cannot serialise a message of 2 GiB or more, so no DebugEvent
 * payload is that long: a longer length with a good CRC is corrupt. */
#define TFRECORD_MAX_LENGTH ((uint64_t)INT32_MAX)
/* How far past a bad header the cursor looks for the next good one. */
#define TFRECORD_RESYNC_WINDOW ((uint64_t)64 << 20)

enum tfrecord_status {
	TFRECORD_OK,             /* rec holds a good record */
	TFRECORD_END,            /* clean end: no bytes after the last record */
	TFRECORD_TORN,           /* incomplete record at rec->offset; cursor stays there */
	TFRECORD_BAD_DATA_CRC,   /* rec->offset..rec->next skipped; continue */
	TFRECORD_BAD_LENGTH_CRC, /* header at rec->offset bad; resumed at rec->next, or stopped */
	TFRECORD_BAD_LENGTH,     /* length CRC good but impossible or past the end; as above */
	TFRECORD_IO,             /* read error or no memory for the record; cursor stays */
};

struct tfrecord {
	uint64_t offset;                /* first byte of the record */
	uint64_t length;                /* payload bytes (as claimed by the header) */
	const unsigned char *data;      /* payload; valid until the next cursor call */
	uint64_t next;                  /* where the cursor continues */
	bool stopped;                   /* BAD_*: no trustworthy header found after it */
};

struct tfrecord_cursor {
	struct source *src;             /* borrowed */
	uint64_t off;                   /* next record to read */
	uint64_t size;                  /* bytes considered this pass (see _refresh) */
	uint64_t index;                 /* records framed so far (good or skipped) */
	bool stopped;                   /* framing lost for good: no more records */
	uint64_t torn_at;               /* torn header offset + 1 whose tail was scanned, or 0 */
	uint64_t torn_scanned;          /* offsets below this were scanned for it */
	const unsigned char *win;       /* bytes [buf_off, buf_off + buf_len): in view or buf */
	struct source_view view;        /* the file's pages mapped, when they could be */
	unsigned char *buf;             /* read-ahead copy when they could not */
	size_t cap;
	uint64_t buf_off;
	size_t buf_len;
};

/* Starts a cursor at offset off of src; the buffer is allocated lazily. */
void tfrecord_cursor_init(struct tfrecord_cursor *c, struct source *src, uint64_t off);
/* Re-reads the source size: bytes appended since become readable. */
void tfrecord_cursor_refresh(struct tfrecord_cursor *c);
void tfrecord_cursor_done(struct tfrecord_cursor *c);
/* Frames the record at c->off (see the statuses). */
enum tfrecord_status tfrecord_next(struct tfrecord_cursor *c, struct tfrecord *rec);

/* The first offset in [from, limit) where a whole record with both CRCs
 * right lies below c->size; false when there is none.  For readers that
 * index byte ranges of one file in parallel: a range's records start at
 * the first such offset, and the caller checks that the range before it
 * ended there (a payload may hold bytes that look like a record). */
bool tfrecord_find(struct tfrecord_cursor *c, uint64_t from, uint64_t limit, uint64_t *found);

/* Bytes the first read of tfrecord_read_at() asks for. */
#define TFRECORD_READ_GUESS 4096

/* Reads the record at off of src into a malloc'd buffer (*data, *len) with
 * one positional read when it is short (two when longer), no stat;
 * thread-safe.  TD_ERR_RANGE at or past the end, TD_ERR_TRUNCATED for a
 * torn record, TD_ERR_CORRUPT for a CRC mismatch or an impossible length,
 * TD_ERR_NOMEM, TD_ERR_IO. */
enum td_status tfrecord_read_at(struct source *src, uint64_t off, unsigned char **data, size_t *len);
/* The record at the start of the avail bytes at p (a window some other
 * read filled), as tfrecord_read_at gives it: TD_OK with a malloc'd copy
 * of its payload and footer when the whole record lies in the window and
 * both CRCs are right, TD_ERR_CORRUPT for a CRC mismatch or an impossible
 * length, TD_ERR_TRUNCATED when the window ends inside the record (read it
 * from the source then), TD_ERR_NOMEM. */
enum td_status tfrecord_take(const unsigned char *p, size_t avail, unsigned char **data, size_t *len);
/* Reads only the header at off and returns the offset of the next record in
 * *next.  TD_ERR_RANGE at the end, TD_ERR_CORRUPT for a bad length CRC.
 * The end is the size source_known_size() reports (no stat). */
enum td_status tfrecord_skip(struct source *src, uint64_t off, uint64_t *next);
/* Parses the 12-byte header at h: the payload length in *len; true when
 * the length CRC is right and the length possible. */
bool tfrecord_header(const unsigned char *h, uint64_t *len);

/* Human readable name of a status ("bad data CRC"). */
const char *tfrecord_status_name(enum tfrecord_status st);

#endif
