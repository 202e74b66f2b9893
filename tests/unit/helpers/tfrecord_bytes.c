/*
 * tfrecord_bytes.c - TFRecord framing for tests; see tfrecord_bytes.h.
 */
#include "tfrecord_bytes.h"

#include <string.h>

#include "reader/parse/crc32c.h"

static void
put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = v >> 24;
}

size_t
tfrecord_frame(unsigned char *out, const void *payload, size_t n)
{
	uint64_t len = n;

	memmove(out + 12, payload, n);
	for (int i = 0; i < 8; i++)
		out[i] = (unsigned char)(len >> (8 * i));
	tfrecord_sign_length(out);
	put_le32(out + 12 + n, crc32c_mask(crc32c(out + 12, n)));
	return n + 16;
}

size_t
tfrecord_offset(const unsigned char *buf, size_t k)
{
	size_t off = 0;

	while (k--) {
		uint64_t n = 0;

		for (int i = 0; i < 8; i++)
			n |= (uint64_t)buf[off + i] << (8 * i);
		off += 16 + (size_t)n;
	}
	return off;
}

void
tfrecord_sign_length(unsigned char *rec)
{
	put_le32(rec + 8, crc32c_mask(crc32c(rec, 8)));
}
