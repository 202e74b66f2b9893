/*
 * serial.h - a little binary encoding for state tdbg saves and reads back
 * (the model's index cache, a reader's resume state).
 *
 * Values are written in the machine's own byte order and word size: the
 * files are caches for this machine, and their header records the byte
 * order and word size so another machine's file is ignored, not misread.
 * Writing appends to a struct strbuf.  Reading goes through a struct
 * ser_in that never reads past its end: a short or malformed input sets
 * in->bad and every later read returns zero / NULL, so a caller checks
 * in->bad once after a group of reads.  Not for: anything meant to be
 * portable or long-lived.
 */
#ifndef TD_SERIAL_H
#define TD_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Marks a NULL string in ser_put_str / ser_get_str. */
#define SER_NULL_STR UINT32_MAX

void ser_put_u8(struct strbuf *o, uint8_t v);
void ser_put_u32(struct strbuf *o, uint32_t v);
void ser_put_u64(struct strbuf *o, uint64_t v);
void ser_put_f64(struct strbuf *o, double v);
void ser_put_bytes(struct strbuf *o, const void *p, size_t n);
/* A length (u32), the bytes and a NUL; s may be NULL. */
void ser_put_str(struct strbuf *o, const char *s);
/* v as a LEB128 varint (7 bits a byte, low first: 1 byte below 128). */
void ser_put_varint(struct strbuf *o, uint64_t v);
/* The change from prev to v (wrapping), zigzag-coded as a varint: small
 * steps either way take a byte or two (ser_get_delta undoes it). */
void ser_put_delta(struct strbuf *o, uint64_t prev, uint64_t v);

struct ser_in {
	const uint8_t *p;
	size_t n, off;
	bool bad;                   /* a read ran past the end or a check failed */
};

void ser_in_init(struct ser_in *in, const void *p, size_t n);
uint8_t ser_get_u8(struct ser_in *in);
uint32_t ser_get_u32(struct ser_in *in);
uint64_t ser_get_u64(struct ser_in *in);
/* A ser_put_varint value; bad past ten bytes or the end. */
uint64_t ser_get_varint(struct ser_in *in);
/* prev plus a ser_put_delta change. */
uint64_t ser_get_delta(struct ser_in *in, uint64_t prev);
int64_t ser_get_i64(struct ser_in *in);
double ser_get_f64(struct ser_in *in);
/* n bytes in place (borrowed from the input), NULL (and bad) when short. */
const void *ser_get_bytes(struct ser_in *in, size_t n);
/* A string ser_put_str wrote, borrowed from the input and NUL-terminated;
 * NULL for a NULL string (bad stays false) or a malformed one (bad set).
 * A string with a NUL inside reads as its first part. */
const char *ser_get_str(struct ser_in *in);
/* A count of items of at least min_item bytes each that can still be in
 * the input: n, or 0 with bad set when the rest is too short for n (so
 * an allocation sized by a corrupt count cannot be huge). */
uint64_t ser_get_count(struct ser_in *in, size_t min_item);
/* True when every byte was read and nothing was bad. */
bool ser_in_done(const struct ser_in *in);

#endif
