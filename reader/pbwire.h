/*
 * pbwire.h - a tiny bounds-checked protobuf wire-format scanner for the hot
 * index path (shared/formats/tensorflow.md section 1).
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
	uint64_t v;             /* VARINT, FIXED64, FIXED32: the raw value */
	const uint8_t *data;    /* LEN: the bytes, inside the scanned buffer */
	size_t len;
};

void pbwire_init(struct pbwire *r, const void *buf, size_t len);
/* Initialises r on the bytes of a LEN field (a nested message). */
void pbwire_init_field(struct pbwire *r, const struct pbwire_field *f);
/* Reads the next field; false at the end or on malformed input (r->error). */
bool pbwire_next(struct pbwire *r, struct pbwire_field *f);

/* Decodes a varint at *p (not past end) into *v and advances *p.  At most 10
 * bytes; false if truncated or longer. */
bool pbwire_varint(const uint8_t **p, const uint8_t *end, uint64_t *v);

/* Field value helpers. */
double pbwire_double(const struct pbwire_field *f);    /* FIXED64 as a double */
float pbwire_float(const struct pbwire_field *f);      /* FIXED32 as a float */

/* Copies up to max little-endian doubles from a packed field's bytes (or one
 * unpacked FIXED64 value) into out; returns how many the field holds (which
 * may exceed max), or -1 if the bytes are not a whole number of doubles. */
long pbwire_packed_doubles(const struct pbwire_field *f, double *out, size_t max);
/* Reads the packed varints of a LEN field (or one unpacked VARINT) into out;
 * returns how many there are (may exceed max) or -1 if malformed. */
long pbwire_packed_varints(const struct pbwire_field *f, uint64_t *out, size_t max);

#endif
