/*
 * fuzz_tfrecord.c - libFuzzer target: TFRecord framing (reader/tfrecord.c).
 *
 * The input is the bytes of one record file.  A cursor walks it to the end
 * the way the index pass does (refresh included), and every record it
 * frames is read again by offset with tfrecord_read_at() and stepped over
 * with tfrecord_skip(), as decode() and advance() do.  The checks are the
 * sanitizers' plus a few invariants: offsets only move forward, a record
 * lies inside the input, read_at agrees with the cursor on length.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/source.h"
#include "reader/parse/tfrecord.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source *src = source_from_bytes(data, size);
	struct tfrecord_cursor c;
	struct tfrecord rec;
	uint64_t last = 0;
	int steps = 0;

	tfrecord_cursor_init(&c, src, 0);
	tfrecord_cursor_refresh(&c);
	for (;;) {
		enum tfrecord_status st = tfrecord_next(&c, &rec);
		if (st == TFRECORD_END || st == TFRECORD_TORN || st == TFRECORD_IO)
			break;
		CHECK(rec.offset >= last);
		CHECK(rec.next > rec.offset || rec.stopped);
		last = rec.offset;
		if (st == TFRECORD_OK) {
			unsigned char *buf = NULL;
			size_t len = 0;
			uint64_t next = 0;
			CHECK(rec.offset + TFRECORD_HEADER + rec.length + TFRECORD_FOOTER <= size);
			CHECK(!rec.length || (rec.data && memcmp(rec.data, data + rec.offset + TFRECORD_HEADER,
							       (size_t)rec.length) == 0));
			CHECK(tfrecord_read_at(src, rec.offset, &buf, &len) == TD_OK);
			CHECK(len == rec.length);
			free(buf);
			CHECK(tfrecord_skip(src, rec.offset, &next) == TD_OK && next == rec.next);
		}
		if (rec.stopped || c.stopped || ++steps > 100000)
			break;
	}
	tfrecord_cursor_done(&c);
	/* Positional reads at arbitrary offsets must fail cleanly too. */
	for (uint64_t off = 0; off < size && off < 64; off += 7) {
		unsigned char *buf = NULL;
		size_t len;
		uint64_t next;
		if (tfrecord_read_at(src, off, &buf, &len) == TD_OK)
			free(buf);
		(void)tfrecord_skip(src, off, &next);
	}
	source_close(src);
	return 0;
}
