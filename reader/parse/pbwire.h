/*
 * pbwire.h - a tiny bounds-checked protobuf wire-format scanner for the hot
 * index path (FORMAT.md §1).
 *
 * It walks the fields of one message buffer without allocating: each call
 * returns the next field's number, wire type and value (varint or fixed
 * value, or the bytes of a length-delimited field, which may be a nested
 * message to scan with another struct pbwire).  Every length is bounded by
 * the bytes left.  Not for: building messages, groups (wire types 3/4 are
 * reported as malformed), or anything that needs a schema (use protobuf-c).
 *
 *	struct pbwire r;
 *	struct pbwire_field f;
 *	pbwire_init(&r, buf, len);
 *	while (pbwire_next(&r, &f))
 *		if (f.num == 2 && f.type == PBWIRE_LEN) ...
 *	if (r.error) ... malformed
 */
#ifndef TD_PBWIRE_H
#define TD_PBWIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum pbwire_type {
	PBWIRE_VARINT = 0,
	PBWIRE_FIXED64 = 1,
	PBWIRE_LEN = 2,
	PBWIRE_FIXED32 = 5,
};

struct pbwire {
	const uint8_t *p, *end;
	bool error;             /* set when the buffer is malformed; next() then returns false */
};

struct pbwire_field {
	uint32_t num;
	enum pbwire_type type;
	uint32_t key;           /* num << 3 | type: compare with PBWIRE_KEY() in hot loops
				 * (one 4-byte load; testing num and type together makes the
				 * compiler load both as 8 bytes, a store-forwarding stall) */
	uint64_t v;             /* VARINT, FIXED64, FIXED32: the raw value */
	const uint8_t *data;    /* LEN: the bytes, inside the scanned buffer */
	size_t len;
};

#define PBWIRE_KEY(num, type) ((uint32_t)(num) << 3 | (uint32_t)(type))

static inline void pbwire_init(struct pbwire *r, const void *buf, size_t len);
/* Initialises r on the bytes of a LEN field (a nested message). */
static inline void pbwire_init_field(struct pbwire *r, const struct pbwire_field *f);
/* Reads the next field; false at the end or on malformed input (r->error). */
static inline bool pbwire_next(struct pbwire *r, struct pbwire_field *f);

/* Whether no chain of length-delimited fields that scan as messages nests
 * deeper than max (at most PBWIRE_DEPTH_MAX) levels.  Run before handing
 * bytes of a recursive message type (MindSpore's TypeProto) to protobuf-c,
 * whose unpacker recurses once per level: 5,000 levels overflow a thread's
 * stack.  Reads each byte about once; allocates nothing. */
#define PBWIRE_DEPTH_MAX 100
bool pbwire_depth_within(const void *buf, size_t len, int max);

/* Decodes a varint at *p (not past end) into *v and advances *p.  At most 10
 * bytes; false if truncated or longer. */
static inline bool pbwire_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

/* Field value helpers. */
double pbwire_double(const struct pbwire_field *f);    /* FIXED64 as a double */

/* Copies up to max little-endian doubles from a packed field's bytes (or one
 * unpacked FIXED64 value) into out; returns how many the field holds (which
 * may exceed max), or -1 if the bytes are not a whole number of doubles. */
long pbwire_packed_doubles(const struct pbwire_field *f, double *out, size_t max);
/* Reads the packed varints of a LEN field (or one unpacked VARINT) into out;
 * returns how many there are (may exceed max) or -1 if malformed. */
long pbwire_packed_varints(const struct pbwire_field *f, uint64_t *out, size_t max);

/* ---- inline implementations (the index hot path) ---- */

static inline void
pbwire_init(struct pbwire *r, const void *buf, size_t len)
{
	r->p = buf;
	r->end = r->p + len;
	r->error = false;
}

static inline void
pbwire_init_field(struct pbwire *r, const struct pbwire_field *f)
{
	pbwire_init(r, f->data, f->len);
}

static inline bool
pbwire_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t x = 0;
	int shift;

	/* keys, small ints and short lengths: one or two bytes */
	if (p < end && *p < 0x80) {
		*v = *p;
		*pp = p + 1;
		return true;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		*pp = p + 2;
		return true;
	}

	for (shift = 0; shift < 70 && p < end; shift += 7) {
		uint8_t b = *p++;

		if (shift == 63 && b > 1)
			return false;   /* more than 64 bits */
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			*pp = p;
			return true;
		}
	}
	return false;
}

static inline uint64_t
pbwire_get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	memcpy(&v, p, (size_t)n);     /* little-endian hosts (x86, arm64) */
	return v;
}

static inline bool
pbwire_next(struct pbwire *r, struct pbwire_field *f)
{
	uint64_t key, len;

	if (r->error || r->p >= r->end)
		return false;
	if (!pbwire_varint(&r->p, r->end, &key) || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
		goto bad;
	f->num = (uint32_t)(key >> 3);
	f->type = (enum pbwire_type)(key & 7);
	f->key = (uint32_t)key;
	f->data = NULL;
	f->len = 0;
	f->v = 0;
	switch (key & 7) {
	case PBWIRE_VARINT:
		if (!pbwire_varint(&r->p, r->end, &f->v))
			goto bad;
		return true;
	case PBWIRE_FIXED64:
		if (r->end - r->p < 8)
			goto bad;
		f->v = pbwire_get_le(r->p, 8);
		r->p += 8;
		return true;
	case PBWIRE_FIXED32:
		if (r->end - r->p < 4)
			goto bad;
		f->v = pbwire_get_le(r->p, 4);
		r->p += 4;
		return true;
	case PBWIRE_LEN:
		if (!pbwire_varint(&r->p, r->end, &len) || len > (uint64_t)(r->end - r->p))
			goto bad;
		f->data = r->p;
		f->len = (size_t)len;
		r->p += len;
		return true;
	default:
		goto bad;
	}
bad:
	r->error = true;
	return false;
}

#endif
