/*
 * test_tfrecord.c - TFRecord framing over byte sources built in the test:
 * good records, the worked example and zero-length record of
 * reader/parse/FORMAT.md §2.5, flipped CRC bytes, cut tails, lying
 * lengths; each test checks the report and that the good records survive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "reader/parse/source.h"
#include "reader/parse/tfrecord.h"
#include "tests/unit/helpers/tfrecord_bytes.h"

static const unsigned char worked_example[59] = {
	0x2b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x86, 0x1b, 0xc3, 0x4b, 0x09, 0x00, 0x00, 0x20,
	0x00, 0x84, 0xd7, 0xd7, 0x41, 0x1a, 0x20, 0x0a, 0x05, 0x32, 0x2e, 0x34, 0x2e, 0x30, 0x12, 0x0d,
	0x64, 0x65, 0x62, 0x75, 0x67, 0x2e, 0x45, 0x76, 0x65, 0x6e, 0x74, 0x3a, 0x31, 0x1a, 0x08, 0x61,
	0x62, 0x63, 0x64, 0x31, 0x32, 0x33, 0x34, 0xc9, 0xa3, 0x23, 0x47,
};

static const unsigned char zero_length_record[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0x29, 0x03, 0x98, 0x07, 0xd8, 0xea, 0x82, 0xa2,
};

/* Frames a payload of 20 + i letters; returns bytes written. */
static size_t
put_record(unsigned char *out, int i)
{
	size_t n = 20 + (size_t)i, k;

	for (k = 0; k < n; k++)
		out[12 + k] = (unsigned char)('a' + (i + k) % 26);
	return tfrecord_frame(out, out + 12, n);
}

struct built {
	unsigned char bytes[1024];
	size_t len;
	size_t off[8];
};

static void
build(struct built *b, int nrec)
{
	int i;

	b->len = 0;
	for (i = 0; i < nrec; i++) {
		b->off[i] = b->len;
		b->len += put_record(b->bytes + b->len, i);
	}
	b->off[nrec] = b->len;
}

/* Runs a cursor over the bytes and writes a letter per result:
 * o ok, t torn, d bad data CRC, l bad length CRC, L bad length, e end. */
static void
scan(const unsigned char *bytes, size_t len, char *out, uint64_t *offs)
{
	struct source *src = source_from_bytes(bytes, len);
	struct tfrecord_cursor c;
	struct tfrecord rec;
	enum tfrecord_status st;
	int guard = 0;

	tfrecord_cursor_init(&c, src, 0);
	do {
		st = tfrecord_next(&c, &rec);
		*out++ = "otdlLie"[st == TFRECORD_OK ? 0 : st == TFRECORD_TORN ? 1 :
				   st == TFRECORD_BAD_DATA_CRC ? 2 : st == TFRECORD_BAD_LENGTH_CRC ? 3 :
				   st == TFRECORD_BAD_LENGTH ? 4 : st == TFRECORD_IO ? 5 : 6];
		if (offs)
			*offs++ = rec.offset;
	} while (st != TFRECORD_END && st != TFRECORD_TORN && st != TFRECORD_IO && ++guard < 20);
	*out = '\0';
	tfrecord_cursor_done(&c);
	source_close(src);
}

static void
test_tfrecord_worked_example_frames(void **state)
{
	struct source *src = source_from_bytes(worked_example, sizeof worked_example);
	struct tfrecord_cursor c;
	struct tfrecord rec;

	(void)state;
	tfrecord_cursor_init(&c, src, 0);
	assert_int_equal(tfrecord_next(&c, &rec), TFRECORD_OK);
	assert_int_equal(rec.length, 43);
	assert_memory_equal(rec.data, worked_example + 12, 43);
	assert_int_equal(rec.next, 59);
	assert_int_equal(tfrecord_next(&c, &rec), TFRECORD_END);
	tfrecord_cursor_done(&c);
	source_close(src);
}

static void
test_tfrecord_zero_length_record(void **state)
{
	struct source *src = source_from_bytes(zero_length_record, sizeof zero_length_record);
	struct tfrecord_cursor c;
	struct tfrecord rec;

	(void)state;
	tfrecord_cursor_init(&c, src, 0);
	assert_int_equal(tfrecord_next(&c, &rec), TFRECORD_OK);
	assert_int_equal(rec.length, 0);
	assert_int_equal(rec.next, 16);
	assert_int_equal(tfrecord_next(&c, &rec), TFRECORD_END);
	tfrecord_cursor_done(&c);
	source_close(src);
}

static void
test_tfrecord_empty_file_is_clean_end(void **state)
{
	char r[32];

	(void)state;
	scan((const unsigned char *)"", 0, r, NULL);
	assert_string_equal(r, "e");
}

static void
test_tfrecord_good_records(void **state)
{
	struct built b;
	char r[32];

	(void)state;
	build(&b, 4);
	scan(b.bytes, b.len, r, NULL);
	assert_string_equal(r, "ooooe");
}

static void
test_tfrecord_bad_data_crc_skips_record(void **state)
{
	struct built b;
	uint64_t offs[32];
	char r[32];

	(void)state;
	build(&b, 4);
	b.bytes[b.off[2] - 1] ^= 0x01;          /* last CRC byte of record 1 */
	scan(b.bytes, b.len, r, offs);
	assert_string_equal(r, "odooe");
	assert_int_equal(offs[1], b.off[1]);
	assert_int_equal(offs[2], b.off[2]);
}

static void
test_tfrecord_flipped_payload_byte_skips_record(void **state)
{
	struct built b;
	char r[32];

	(void)state;
	build(&b, 4);
	b.bytes[b.off[2] + 14] ^= 0x40;
	scan(b.bytes, b.len, r, NULL);
	assert_string_equal(r, "oodoe");
}

static void
test_tfrecord_torn_tail_serves_what_came_before(void **state)
{
	struct built b;
	uint64_t offs[32];
	char r[32];
	size_t cut;

	(void)state;
	build(&b, 3);
	for (cut = 1; cut < b.off[3] - b.off[2]; cut++) {
		scan(b.bytes, b.len - cut, r, offs);
		assert_string_equal(r, "oot");
		assert_int_equal(offs[2], b.off[2]);    /* cursor stays on the torn record */
	}
}

static void
test_tfrecord_torn_record_completes_after_growth(void **state)
{
	struct built b;
	struct source *torn, *whole;
	struct tfrecord_cursor c;
	struct tfrecord rec;

	(void)state;
	build(&b, 2);
	torn = source_from_bytes(b.bytes, b.len - 5);
	tfrecord_cursor_init(&c, torn, 0);
	assert_int_equal(tfrecord_next(&c, &rec), TFRECORD_OK);
	assert_int_equal(tfrecord_next(&c, &rec), TFRECORD_TORN);
	/* the same cursor position on the grown file reads the record */
	whole = source_from_bytes(b.bytes, b.len);
	c.src = whole;
	tfrecord_cursor_refresh(&c);
	c.buf_len = 0;
	assert_int_equal(tfrecord_next(&c, &rec), TFRECORD_OK);
	assert_int_equal(rec.offset, b.off[1]);
	assert_int_equal(tfrecord_next(&c, &rec), TFRECORD_END);
	tfrecord_cursor_done(&c);
	source_close(torn);
	source_close(whole);
}

static void
test_tfrecord_bad_length_crc_resyncs(void **state)
{
	struct built b;
	uint64_t offs[32];
	char r[32];

	(void)state;
	build(&b, 4);
	b.bytes[b.off[1] + 9] ^= 0x10;          /* length CRC of record 1 */
	scan(b.bytes, b.len, r, offs);
	assert_string_equal(r, "olooe");
	assert_int_equal(offs[1], b.off[1]);
	assert_int_equal(offs[2], b.off[2]);
	assert_int_equal(offs[3], b.off[3]);
}

static void
test_tfrecord_lying_length_without_crc_resyncs(void **state)
{
	struct built b;
	char r[32];

	(void)state;
	build(&b, 4);
	b.bytes[b.off[2]] += 7;                 /* length of record 2, CRC not fixed */
	scan(b.bytes, b.len, r, NULL);
	assert_string_equal(r, "ooloe");
}

static void
test_tfrecord_lying_length_with_crc_loses_neighbour_only(void **state)
{
	struct built b;
	uint64_t offs[32];
	char r[32];

	(void)state;
	build(&b, 5);
	b.bytes[b.off[1]] += 30;                /* record 1 claims to cover record 2's header */
	tfrecord_sign_length(b.bytes + b.off[1]);
	scan(b.bytes, b.len, r, offs);
	assert_string_equal(r, "odlooe");
	assert_int_equal(offs[3], b.off[3]);
	assert_int_equal(offs[4], b.off[4]);
}

static void
test_tfrecord_impossible_length_with_good_crc(void **state)
{
	struct built b;
	char r[32];

	(void)state;
	build(&b, 3);
	b.bytes[b.off[1] + 4] = 0x01;           /* length >= 2^32 */
	tfrecord_sign_length(b.bytes + b.off[1]);
	scan(b.bytes, b.len, r, NULL);
	assert_string_equal(r, "oLoe");
}

/* A good-CRC length of 1 MiB in the middle of the file: not a torn tail,
 * because valid records follow; only that record is lost. */
static void
test_tfrecord_length_past_end_mid_file_resumes_at_next_record(void **state)
{
	struct built b;
	uint64_t offs[32];
	char r[32];

	(void)state;
	build(&b, 5);
	b.bytes[b.off[1] + 2] = 0x10;           /* record 1 claims 1 MiB */
	tfrecord_sign_length(b.bytes + b.off[1]);
	scan(b.bytes, b.len, r, offs);
	assert_string_equal(r, "oLoooe");
	assert_int_equal(offs[1], b.off[1]);
	assert_int_equal(offs[2], b.off[2]);
	assert_int_equal(offs[4], b.off[4]);
}

/* The same lie in the last record is a torn tail: nothing valid follows. */
static void
test_tfrecord_length_past_end_in_last_record_is_torn(void **state)
{
	struct built b;
	uint64_t offs[32];
	char r[32];

	(void)state;
	build(&b, 3);
	b.bytes[b.off[2] + 2] = 0x10;
	tfrecord_sign_length(b.bytes + b.off[2]);
	scan(b.bytes, b.len, r, offs);
	assert_string_equal(r, "oot");
	assert_int_equal(offs[2], b.off[2]);
}

/* A record whose header CRC is right but payload CRC wrong is no place to
 * resume: the past-end length stays a torn tail. */
static void
test_tfrecord_length_past_end_needs_payload_crc_to_resume(void **state)
{
	struct built b;
	char r[32];

	(void)state;
	build(&b, 3);
	b.bytes[b.off[1] + 2] = 0x10;
	tfrecord_sign_length(b.bytes + b.off[1]);
	b.bytes[b.off[2] + 14] ^= 0x01;         /* payload of record 2 */
	scan(b.bytes, b.len, r, NULL);
	assert_string_equal(r, "ot");
}

/* A record longer than the first read of tfrecord_read_at() is read whole
 * (header, payload and footer across two reads); cut short it is torn. */
static void
test_tfrecord_read_at_long_record(void **state)
{
	size_t n = TFRECORD_READ_GUESS * 2 + 7, k;
	unsigned char *rec = malloc(n + 16), *data;
	struct source *src;
	size_t len;

	(void)state;
	assert_non_null(rec);
	for (k = 0; k < n; k++)
		rec[12 + k] = (unsigned char)(k * 7);
	tfrecord_frame(rec, rec + 12, n);
	src = source_from_bytes(rec, n + 16);
	assert_int_equal(tfrecord_read_at(src, 0, &data, &len), TD_OK);
	assert_int_equal(len, n);
	assert_memory_equal(data, rec + 12, n);
	free(data);
	source_close(src);
	src = source_from_bytes(rec, n + 15);
	assert_int_equal(tfrecord_read_at(src, 0, &data, &len), TD_ERR_TRUNCATED);
	assert_null(data);
	source_close(src);
	free(rec);
}

/* tfrecord_take: the record at the start of a window of bytes, whole and
 * right, else why not (the window ends in it, or a CRC is wrong). */
static void
test_tfrecord_take_from_a_window(void **state)
{
	struct built b;
	unsigned char *data;
	size_t len, whole;

	(void)state;
	build(&b, 3);
	whole = b.off[2] - b.off[1];
	assert_int_equal(tfrecord_take(b.bytes + b.off[1], whole, &data, &len), TD_OK);
	assert_int_equal(len, whole - 16);
	assert_memory_equal(data, b.bytes + b.off[1] + 12, len);
	free(data);
	/* more bytes after it change nothing */
	assert_int_equal(tfrecord_take(b.bytes + b.off[1], b.len - b.off[1], &data, &len), TD_OK);
	assert_int_equal(len, whole - 16);
	free(data);
	/* a window that ends one byte early, or inside the header */
	assert_int_equal(tfrecord_take(b.bytes + b.off[1], whole - 1, &data, &len),
			 TD_ERR_TRUNCATED);
	assert_null(data);
	assert_int_equal(tfrecord_take(b.bytes + b.off[1], 11, &data, &len), TD_ERR_TRUNCATED);
	/* a wrong data CRC, a wrong length CRC */
	b.bytes[b.off[2] - 2] ^= 1;
	assert_int_equal(tfrecord_take(b.bytes + b.off[1], whole, &data, &len), TD_ERR_CORRUPT);
	assert_null(data);
	b.bytes[b.off[2] - 2] ^= 1;
	b.bytes[b.off[1] + 9] ^= 1;
	assert_int_equal(tfrecord_take(b.bytes + b.off[1], whole, &data, &len), TD_ERR_CORRUPT);
}

static void
test_tfrecord_garbage_tail_stops_file(void **state)
{
	struct built b;
	char r[32];

	(void)state;
	build(&b, 2);
	memset(b.bytes + b.len, 0x5a, 100);
	scan(b.bytes, b.len + 100, r, NULL);
	assert_string_equal(r, "oole");
}

static void
test_tfrecord_short_header_is_torn(void **state)
{
	struct built b;
	char r[32];

	(void)state;
	build(&b, 1);
	memset(b.bytes + b.len, 0, 7);
	scan(b.bytes, b.len + 7, r, NULL);
	assert_string_equal(r, "ot");
}

static void
test_tfrecord_read_at_and_skip(void **state)
{
	struct built b;
	struct source *src;
	unsigned char *data;
	uint64_t next;
	size_t len;

	(void)state;
	build(&b, 3);
	b.bytes[b.off[2] - 2] ^= 1;             /* data CRC of record 1 */
	src = source_from_bytes(b.bytes, b.len);
	assert_int_equal(tfrecord_read_at(src, b.off[2], &data, &len), TD_OK);
	assert_int_equal(len, 22);
	assert_memory_equal(data, b.bytes + b.off[2] + 12, 22);
	free(data);
	assert_int_equal(tfrecord_read_at(src, b.off[1], &data, &len), TD_ERR_CORRUPT);
	assert_null(data);
	assert_int_equal(tfrecord_read_at(src, b.off[1] + 1, &data, &len), TD_ERR_CORRUPT);
	assert_int_equal(tfrecord_skip(src, b.off[0], &next), TD_OK);
	assert_int_equal(next, b.off[1]);
	assert_int_equal(tfrecord_skip(src, b.off[3], &next), TD_ERR_RANGE);
	source_close(src);
	src = source_from_bytes(b.bytes, b.len - 3);
	assert_int_equal(tfrecord_read_at(src, b.off[2], &data, &len), TD_ERR_TRUNCATED);
	source_close(src);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfrecord_worked_example_frames),
		cmocka_unit_test(test_tfrecord_zero_length_record),
		cmocka_unit_test(test_tfrecord_empty_file_is_clean_end),
		cmocka_unit_test(test_tfrecord_good_records),
		cmocka_unit_test(test_tfrecord_bad_data_crc_skips_record),
		cmocka_unit_test(test_tfrecord_flipped_payload_byte_skips_record),
		cmocka_unit_test(test_tfrecord_torn_tail_serves_what_came_before),
		cmocka_unit_test(test_tfrecord_torn_record_completes_after_growth),
		cmocka_unit_test(test_tfrecord_bad_length_crc_resyncs),
		cmocka_unit_test(test_tfrecord_lying_length_without_crc_resyncs),
		cmocka_unit_test(test_tfrecord_lying_length_with_crc_loses_neighbour_only),
		cmocka_unit_test(test_tfrecord_impossible_length_with_good_crc),
		cmocka_unit_test(test_tfrecord_length_past_end_mid_file_resumes_at_next_record),
		cmocka_unit_test(test_tfrecord_length_past_end_in_last_record_is_torn),
		cmocka_unit_test(test_tfrecord_length_past_end_needs_payload_crc_to_resume),
		cmocka_unit_test(test_tfrecord_read_at_long_record),
		cmocka_unit_test(test_tfrecord_take_from_a_window),
		cmocka_unit_test(test_tfrecord_garbage_tail_stops_file),
		cmocka_unit_test(test_tfrecord_short_header_is_torn),
		cmocka_unit_test(test_tfrecord_read_at_and_skip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
