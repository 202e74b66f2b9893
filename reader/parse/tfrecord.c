/*
 * tfrecord.c - TFRecord framing with CRC checks, torn-tail detection and
 * resynchronisation after a corrupt header; see tfrecord.h.
 */
#include "tfrecord.h"

#include <stdlib.h>
#include <string.h>

#include "crc32c.h"

/* Bytes read ahead per refill of the cursor window when the file cannot be
 * mapped, and bytes mapped per view when it can (a view costs no copy: the
 * kernel's copy into a read buffer was the biggest single cost of the index
 * pass, tests/bench/NOTES.md). */
#define TFRECORD_CHUNK ((size_t)256 << 10)
#define TFRECORD_VIEW ((size_t)64 << 20)

/* Little-endian loads (x86 and arm64 hosts are little-endian). */
static inline uint64_t
get_u64le(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t
get_u32le(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* A possible length: below 2^31, so its high bytes are zero; rejects most
 * offsets of a resync scan before any CRC is computed. */
static inline bool
plausible_length(const unsigned char *h)
{
	return h[7] == 0 && h[6] == 0 && h[5] == 0 && h[4] == 0 && h[3] < 0x80;
}

static bool
header_crc_ok(const unsigned char *h)
{
	return crc32c_mask(crc32c(h, 8)) == get_u32le(h + 8);
}

static bool
data_crc_ok(const unsigned char *p, uint64_t len)
{
	return crc32c_mask(crc32c(p, (size_t)len)) == get_u32le(p + len);
}

const char *
tfrecord_status_name(enum tfrecord_status st)
{
	switch (st) {
	case TFRECORD_OK:             return "ok";
	case TFRECORD_END:            return "end of file";
	case TFRECORD_TORN:           return "incomplete record";
	case TFRECORD_BAD_DATA_CRC:   return "bad data CRC";
	case TFRECORD_BAD_LENGTH_CRC: return "bad length CRC";
	case TFRECORD_BAD_LENGTH:     return "impossible length";
	case TFRECORD_IO:             return "read error";
	}
	return "?";
}

void
tfrecord_cursor_init(struct tfrecord_cursor *c, struct source *src, uint64_t off)
{
	memset(c, 0, sizeof(*c));
	c->src = src;
	c->off = off;
	c->size = source_size(src);
}

void
tfrecord_cursor_refresh(struct tfrecord_cursor *c)
{
	c->size = source_size(c->src);
}

void
tfrecord_cursor_done(struct tfrecord_cursor *c)
{
	source_unview(&c->view);
	free(c->buf);
	c->buf = NULL;
	c->win = NULL;
	c->cap = c->buf_len = 0;
}

/* Views bytes [off, off + max(need, TFRECORD_VIEW)) below c->size. */
static const unsigned char *
cursor_view(struct tfrecord_cursor *c, uint64_t off, uint64_t need)
{
	size_t want = (size_t)TD_MIN(c->size - off, TD_MAX(need, (uint64_t)TFRECORD_VIEW));
	const unsigned char *p;

	source_unview(&c->view);
	c->win = NULL;
	c->buf_len = 0;
	p = source_view(c->src, off, want, &c->view);
	if (!p)
		return NULL;
	c->win = p;
	c->buf_off = off;
	c->buf_len = want;
	return p;
}

/* Makes bytes [off, off+need) of the source available in the window and
 * returns a pointer to them; NULL on a short read or no memory.  The
 * caller has checked that they lie below c->size. */
static const unsigned char *
cursor_bytes(struct tfrecord_cursor *c, uint64_t off, uint64_t need)
{
	const unsigned char *p;
	size_t want;
	ssize_t got;

	if (c->win && off >= c->buf_off && off + need <= c->buf_off + c->buf_len)
		return c->win + (off - c->buf_off);
	if ((p = cursor_view(c, off, need)))
		return p;
	want = (size_t)TD_MIN(c->size - off, TD_MAX(need, (uint64_t)TFRECORD_CHUNK));
	if (want > c->cap) {
		unsigned char *nb = realloc(c->buf, want);

		if (!nb)
			return NULL;
		c->buf = nb;
		c->cap = want;
	}
	c->buf_off = off;
	c->buf_len = 0;
	c->win = c->buf;
	got = source_read(c->src, off, c->buf, want);
	if (got < 0 || (uint64_t)got < need)
		return NULL;
	c->buf_len = (size_t)got;
	return c->buf;
}

/* Looks for the next offset after bad whose header has a good length CRC
 * and whose whole record fits in the file. */
static bool
resync(struct tfrecord_cursor *c, uint64_t bad, uint64_t *found)
{
	uint64_t o, end;

	if (c->size < TFRECORD_HEADER + TFRECORD_FOOTER)
		return false;
	end = TD_MIN(c->size - TFRECORD_HEADER - TFRECORD_FOOTER, bad + TFRECORD_RESYNC_WINDOW);
	for (o = bad + 1; o <= end; o++) {
		const unsigned char *h = cursor_bytes(c, o, TFRECORD_HEADER);
		uint64_t len;

		if (!h)
			return false;
		if (!plausible_length(h) || !header_crc_ok(h))
			continue;
		len = get_u64le(h);
		if (len <= TFRECORD_MAX_LENGTH &&
		    len <= c->size - o - TFRECORD_HEADER - TFRECORD_FOOTER) {
			*found = o;
			return true;
		}
	}
	return false;
}

/* Is there a whole record with both CRCs right at o? */
static bool
valid_record_at(struct tfrecord_cursor *c, uint64_t o, bool *unfit)
{
	const unsigned char *p = cursor_bytes(c, o, TFRECORD_HEADER);
	uint64_t len;

	if (!p || !plausible_length(p) || !header_crc_ok(p))
		return false;
	len = get_u64le(p);
	if (len > TFRECORD_MAX_LENGTH || len > c->size - o - TFRECORD_HEADER - TFRECORD_FOOTER) {
		*unfit = true;          /* may fit once the file grows: rescan it */
		return false;
	}
	p = cursor_bytes(c, o, TFRECORD_HEADER + len + TFRECORD_FOOTER);
	return p && data_crc_ok(p + TFRECORD_HEADER, len);
}

bool
tfrecord_find(struct tfrecord_cursor *c, uint64_t from, uint64_t limit, uint64_t *found)
{
	uint64_t o;

	for (o = from; o < limit && o < c->size; o++) {
		bool unfit = false;

		if (c->size - o < TFRECORD_HEADER + TFRECORD_FOOTER)
			return false;
		if (valid_record_at(c, o, &unfit)) {
			*found = o;
			return true;
		}
	}
	return false;
}

/* Looks for a valid record (length and payload CRCs right) after the header
 * at bad, whose good-CRC length runs past the end.  Bounded by the resync
 * window; offsets already scanned for the same header on an earlier pass
 * (a torn tail of a growing file) are not scanned again. */
static bool
find_valid_after(struct tfrecord_cursor *c, uint64_t bad, uint64_t *found)
{
	uint64_t o = bad + 1, end;
	bool unfit = false;

	if (c->size < bad + 1 + TFRECORD_HEADER + TFRECORD_FOOTER)
		return false;
	if (c->torn_at == bad + 1 && c->torn_scanned > o)
		o = c->torn_scanned;
	end = TD_MIN(c->size - TFRECORD_HEADER - TFRECORD_FOOTER, bad + TFRECORD_RESYNC_WINDOW);
	for (; o <= end; o++) {
		if (valid_record_at(c, o, &unfit)) {
			*found = o;
			return true;
		}
		if (unfit)
			break;
	}
	c->torn_at = bad + 1;
	c->torn_scanned = o;
	return false;
}

/* A length with a good CRC that runs past the end of the file: normally
 * the torn tail of a file still being written.  If a valid record follows
 * the header the length itself is corrupt: report it and resume there, so
 * the records after it are not lost. */
static enum tfrecord_status
past_end(struct tfrecord_cursor *c, struct tfrecord *rec)
{
	uint64_t next;

	if (!find_valid_after(c, c->off, &next))
		return TFRECORD_TORN;
	c->index++;
	c->off = next;
	rec->next = next;
	return TFRECORD_BAD_LENGTH;
}

static enum tfrecord_status
bad_header(struct tfrecord_cursor *c, struct tfrecord *rec, enum tfrecord_status st)
{
	uint64_t next;

	c->index++;
	if (resync(c, c->off, &next)) {
		c->off = next;
	} else {
		c->stopped = true;
		rec->stopped = true;
	}
	rec->next = c->off;
	return st;
}

enum tfrecord_status
tfrecord_next(struct tfrecord_cursor *c, struct tfrecord *rec)
{
	const unsigned char *p;
	uint64_t avail, len;

	rec->offset = rec->next = c->off;
	rec->length = 0;
	rec->data = NULL;
	rec->stopped = c->stopped;
	if (c->stopped || c->off >= c->size)
		return TFRECORD_END;
	avail = c->size - c->off;
	if (avail < TFRECORD_HEADER)
		return TFRECORD_TORN;
	p = cursor_bytes(c, c->off, TFRECORD_HEADER);
	if (!p)
		return TFRECORD_IO;
	len = get_u64le(p);
	rec->length = len;
	if (!header_crc_ok(p))
		return bad_header(c, rec, TFRECORD_BAD_LENGTH_CRC);
	if (len > TFRECORD_MAX_LENGTH)
		return bad_header(c, rec, TFRECORD_BAD_LENGTH);
	if (avail - TFRECORD_HEADER < len + TFRECORD_FOOTER)
		return past_end(c, rec);
	p = cursor_bytes(c, c->off, TFRECORD_HEADER + len + TFRECORD_FOOTER);
	if (!p)
		return TFRECORD_IO;
	rec->data = p + TFRECORD_HEADER;
	c->off += TFRECORD_HEADER + len + TFRECORD_FOOTER;
	c->index++;
	rec->next = c->off;
	return data_crc_ok(rec->data, len) ? TFRECORD_OK : TFRECORD_BAD_DATA_CRC;
}

bool
tfrecord_header(const unsigned char *h, uint64_t *len)
{
	*len = get_u64le(h);
	return header_crc_ok(h) && *len <= TFRECORD_MAX_LENGTH;
}

/* No stat here: the size known to the source (set at open and by the index
 * pass's refresh) bounds the record; decode and advance only ask for
 * records the index framed below it. */
enum td_status
tfrecord_skip(struct source *src, uint64_t off, uint64_t *next)
{
	unsigned char h[TFRECORD_HEADER];
	uint64_t size = source_known_size(src), len;
	ssize_t got;

	if (off >= size)
		return TD_ERR_RANGE;
	got = source_read(src, off, h, sizeof h);
	if (got < 0)
		return TD_ERR_IO;
	if ((size_t)got < sizeof h)
		return TD_ERR_TRUNCATED;
	if (!tfrecord_header(h, &len))
		return TD_ERR_CORRUPT;
	if (size - off - TFRECORD_HEADER < len + TFRECORD_FOOTER || size - off < TFRECORD_HEADER)
		return TD_ERR_TRUNCATED;
	*next = off + TFRECORD_HEADER + len + TFRECORD_FOOTER;
	return TD_OK;
}

/* One pread of TFRECORD_READ_GUESS bytes holds the header, payload and
 * footer of most records; a longer record costs one more. */
enum td_status
tfrecord_read_at(struct source *src, uint64_t off, unsigned char **data, size_t *len)
{
	unsigned char first[TFRECORD_READ_GUESS], *buf;
	uint64_t n, total;
	ssize_t got, more;
	enum td_status st;

	*data = NULL;
	*len = 0;
	got = source_read(src, off, first, sizeof first);
	if (got < 0)
		return TD_ERR_IO;
	if (got == 0)
		return TD_ERR_RANGE;
	st = tfrecord_take(first, (size_t)got, data, len);
	if (st != TD_ERR_TRUNCATED || (size_t)got < TFRECORD_HEADER)
		return st;
	tfrecord_header(first, &n);     /* whole and right: tfrecord_take said so */
	total = TFRECORD_HEADER + n + TFRECORD_FOOTER;
	buf = malloc((size_t)n + TFRECORD_FOOTER);
	if (!buf)
		return TD_ERR_NOMEM;
	memcpy(buf, first + TFRECORD_HEADER, (size_t)got - TFRECORD_HEADER);
	more = source_read(src, off + (uint64_t)got, buf + got - TFRECORD_HEADER,
			   (size_t)(total - (uint64_t)got));
	if (more < 0 || (uint64_t)more != total - (uint64_t)got) {
		free(buf);
		return more < 0 ? TD_ERR_IO : TD_ERR_TRUNCATED;
	}
	if (!data_crc_ok(buf, n)) {
		free(buf);
		return TD_ERR_CORRUPT;
	}
	*data = buf;
	*len = (size_t)n;
	return TD_OK;
}

enum td_status
tfrecord_take(const unsigned char *p, size_t avail, unsigned char **data, size_t *len)
{
	unsigned char *buf;
	uint64_t n;

	*data = NULL;
	*len = 0;
	if (avail < TFRECORD_HEADER)
		return TD_ERR_TRUNCATED;
	if (!tfrecord_header(p, &n))
		return TD_ERR_CORRUPT;
	if (avail - TFRECORD_HEADER < TFRECORD_FOOTER || n > avail - TFRECORD_HEADER - TFRECORD_FOOTER)
		return TD_ERR_TRUNCATED;
	buf = malloc((size_t)n + TFRECORD_FOOTER);
	if (!buf)
		return TD_ERR_NOMEM;
	memcpy(buf, p + TFRECORD_HEADER, (size_t)n + TFRECORD_FOOTER);
	if (!data_crc_ok(buf, n)) {
		free(buf);
		return TD_ERR_CORRUPT;
	}
	*data = buf;
	*len = (size_t)n;
	return TD_OK;
}
