/*
 * tfrecord_bytes.h - TFRecord framing written byte by byte for tests
 * (reader/parse/FORMAT.md §2): frame a payload, find record k in a file's
 * bytes, re-sign a length that a test changed.  The CRCs come from the
 * reader's own crc32c.c, which test_crc32c.c checks against the format's
 * published vectors.
 */
#ifndef TD_TEST_TFRECORD_BYTES_H
#define TD_TEST_TFRECORD_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Writes one record to out: the 8-byte length n, its masked CRC, the n
 * payload bytes (payload may be out + 12: it is moved, not copied over
 * itself), the payload's masked CRC.  Returns n + 16, the bytes written. */
size_t tfrecord_frame(unsigned char *out, const void *payload, size_t n);
/* Byte offset of record k in buf, a file of good records (k records are
 * stepped over by their lengths; no CRC is checked). */
size_t tfrecord_offset(const unsigned char *buf, size_t k);
/* Rewrites the masked CRC of the 8 length bytes at rec (after a test
 * changed the length on purpose). */
void tfrecord_sign_length(unsigned char *rec);

#endif
