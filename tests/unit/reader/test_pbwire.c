/*
 * test_pbwire.c - the protobuf wire scanner: varints (incl. 10-byte
 * negatives and truncation), fixed fields, length-delimited fields, lengths
 * past the end, packed doubles and varints, skipping unknown fields.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "reader/parse/pbwire.h"

static void
test_pbwire_varint_values(void **state)
{
	static const uint8_t one[] = { 0x01 }, big[] = { 0xac, 0x02 };
	static const uint8_t neg1[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	const uint8_t *p;
	uint64_t v;

	(void)state;
	p = one;
	assert_true(pbwire_varint(&p, one + 1, &v));
	assert_int_equal(v, 1);
	p = big;
	assert_true(pbwire_varint(&p, big + 2, &v));
	assert_int_equal(v, 300);
	assert_ptr_equal(p, big + 2);
	p = neg1;
	assert_true(pbwire_varint(&p, neg1 + 10, &v));
	assert_int_equal((int64_t)v, -1);
	assert_int_equal((int32_t)v, -1);   /* a negative int32 is sign-extended to 10 bytes */
}

static void
test_pbwire_truncated_varint_fails(void **state)
{
	static const uint8_t t[] = { 0xff, 0xff, 0x80 };
	const uint8_t *p = t;
	uint64_t v;

	(void)state;
	assert_false(pbwire_varint(&p, t + 3, &v));
	assert_ptr_equal(p, t);
	p = t;
	assert_false(pbwire_varint(&p, t, &v));
}

static void
test_pbwire_overlong_varint_fails(void **state)
{
	static const uint8_t eleven[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };
	static const uint8_t ten_big[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02 };
	const uint8_t *p;
	uint64_t v;

	(void)state;
	p = eleven;
	assert_false(pbwire_varint(&p, eleven + 11, &v));
	p = ten_big;
	assert_false(pbwire_varint(&p, ten_big + 10, &v));
}

static void
test_pbwire_fields_of_worked_example(void **state)
{
	/* DebugEvent of reader/parse/FORMAT.md §2.5 */
	static const uint8_t ev[] = {
		0x09, 0x00, 0x00, 0x20, 0x00, 0x84, 0xd7, 0xd7, 0x41, 0x1a, 0x20, 0x0a,
		0x05, 0x32, 0x2e, 0x34, 0x2e, 0x30, 0x12, 0x0d, 0x64, 0x65, 0x62, 0x75,
		0x67, 0x2e, 0x45, 0x76, 0x65, 0x6e, 0x74, 0x3a, 0x31, 0x1a, 0x08, 0x61,
		0x62, 0x63, 0x64, 0x31, 0x32, 0x33, 0x34,
	};
	struct pbwire r, sub;
	struct pbwire_field f;

	(void)state;
	pbwire_init(&r, ev, sizeof ev);
	assert_true(pbwire_next(&r, &f));
	assert_int_equal(f.num, 1);
	assert_int_equal(f.type, PBWIRE_FIXED64);
	assert_true(pbwire_double(&f) == 1600000000.5);
	assert_true(pbwire_next(&r, &f));
	assert_int_equal(f.num, 3);
	assert_int_equal(f.len, 32);
	pbwire_init_field(&sub, &f);
	assert_true(pbwire_next(&sub, &f));
	assert_int_equal(f.num, 1);
	assert_memory_equal(f.data, "2.4.0", 5);
	assert_true(pbwire_next(&sub, &f));
	assert_true(pbwire_next(&sub, &f));
	assert_int_equal(f.num, 3);
	assert_memory_equal(f.data, "abcd1234", 8);
	assert_false(pbwire_next(&sub, &f));
	assert_false(sub.error);
	assert_false(pbwire_next(&r, &f));
	assert_false(r.error);
}

static void
test_pbwire_length_past_end_is_error(void **state)
{
	static const uint8_t m[] = { 0x12, 0x05, 'a', 'b' };
	struct pbwire r;
	struct pbwire_field f;

	(void)state;
	pbwire_init(&r, m, sizeof m);
	assert_false(pbwire_next(&r, &f));
	assert_true(r.error);
}

static void
test_pbwire_huge_length_is_error(void **state)
{
	static const uint8_t m[] = { 0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 'a' };
	struct pbwire r;
	struct pbwire_field f;

	(void)state;
	pbwire_init(&r, m, sizeof m);
	assert_false(pbwire_next(&r, &f));
	assert_true(r.error);
}

static void
test_pbwire_truncated_fixed_is_error(void **state)
{
	static const uint8_t m64[] = { 0x09, 1, 2, 3 }, m32[] = { 0x0d, 1, 2 };
	struct pbwire r;
	struct pbwire_field f;

	(void)state;
	pbwire_init(&r, m64, sizeof m64);
	assert_false(pbwire_next(&r, &f));
	assert_true(r.error);
	pbwire_init(&r, m32, sizeof m32);
	assert_false(pbwire_next(&r, &f));
	assert_true(r.error);
}

static void
test_pbwire_group_and_zero_field_are_errors(void **state)
{
	static const uint8_t group[] = { 0x0b, 0x0c }, zero[] = { 0x00, 0x01 };
	struct pbwire r;
	struct pbwire_field f;

	(void)state;
	pbwire_init(&r, group, sizeof group);
	assert_false(pbwire_next(&r, &f));
	assert_true(r.error);
	pbwire_init(&r, zero, sizeof zero);
	assert_false(pbwire_next(&r, &f));
	assert_true(r.error);
}

static void
test_pbwire_skips_unknown_fields(void **state)
{
	/* field 99 varint, field 50 fixed32, field 7 bytes "xy", then field 2 varint 5 */
	static const uint8_t m[] = { 0x98, 0x06, 0x2a, 0x95, 0x03, 1, 2, 3, 4,
				     0x3a, 0x02, 'x', 'y', 0x10, 0x05 };
	struct pbwire r;
	struct pbwire_field f;
	uint64_t want = 0;

	(void)state;
	pbwire_init(&r, m, sizeof m);
	while (pbwire_next(&r, &f))
		if (f.num == 2)
			want = f.v;
	assert_false(r.error);
	assert_int_equal(want, 5);
}

static void
test_pbwire_packed_doubles(void **state)
{
	/* the CURT_HEALTH content of reader/tfdbg2/FORMAT.md §7.6: doubles 2.0 and 1.0 */
	static const uint8_t content[] = { 0x22, 0x10, 0, 0, 0, 0, 0, 0, 0, 0x40,
					   0, 0, 0, 0, 0, 0, 0xf0, 0x3f };
	struct pbwire r;
	struct pbwire_field f;
	double out[4];

	(void)state;
	pbwire_init(&r, content, sizeof content);
	assert_true(pbwire_next(&r, &f));
	assert_int_equal(pbwire_packed_doubles(&f, out, 4), 2);
	assert_true(out[0] == 2.0 && out[1] == 1.0);
	assert_int_equal(pbwire_packed_doubles(&f, out, 1), 2);   /* count even past max */
	f.len = 15;
	assert_int_equal(pbwire_packed_doubles(&f, out, 4), -1);
}

static void
test_pbwire_packed_varints(void **state)
{
	static const uint8_t m[] = { 0x4a, 0x04, 0x01, 0xac, 0x02, 0x07 };
	static const uint8_t bad[] = { 0x4a, 0x02, 0x01, 0x80 };
	struct pbwire r;
	struct pbwire_field f;
	uint64_t out[4];

	(void)state;
	pbwire_init(&r, m, sizeof m);
	assert_true(pbwire_next(&r, &f));
	assert_int_equal(pbwire_packed_varints(&f, out, 4), 3);
	assert_int_equal(out[1], 300);
	pbwire_init(&r, bad, sizeof bad);
	assert_true(pbwire_next(&r, &f));
	assert_int_equal(pbwire_packed_varints(&f, out, 4), -1);
}

/* Wraps buf[*start, end) in `levels` messages of field 1, building
 * backwards from the end of buf. */
static void
nest(uint8_t *buf, size_t *start, size_t end, int levels)
{
	int i;

	for (i = 0; i < levels; i++) {
		size_t len = end - *start;
		uint8_t v[10];
		int nv = 0;

		do {
			v[nv++] = (uint8_t)((len & 0x7f) | (len > 0x7f ? 0x80 : 0));
			len >>= 7;
		} while (len);
		*start -= (size_t)nv;
		memcpy(buf + *start, v, (size_t)nv);
		buf[--*start] = 0x0a;
	}
}

/* issue 13: nesting is checked before protobuf-c recurses into it */
static void
test_depth_within_counts_nested_messages(void **state)
{
	static uint8_t buf[8192];
	size_t end = sizeof buf, start;

	(void)state;
	start = end - 2;
	buf[start] = 0x08;          /* innermost: field 1 varint 1 */
	buf[start + 1] = 0x01;
	nest(buf, &start, end, 100);
	assert_true(pbwire_depth_within(buf + start, end - start, 100));
	nest(buf, &start, end, 1);
	assert_false(pbwire_depth_within(buf + start, end - start, 100));
	nest(buf, &start, end, 1000);
	assert_false(pbwire_depth_within(buf + start, end - start, 100));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depth_within_counts_nested_messages),
		cmocka_unit_test(test_pbwire_varint_values),
		cmocka_unit_test(test_pbwire_truncated_varint_fails),
		cmocka_unit_test(test_pbwire_overlong_varint_fails),
		cmocka_unit_test(test_pbwire_fields_of_worked_example),
		cmocka_unit_test(test_pbwire_length_past_end_is_error),
		cmocka_unit_test(test_pbwire_huge_length_is_error),
		cmocka_unit_test(test_pbwire_truncated_fixed_is_error),
		cmocka_unit_test(test_pbwire_group_and_zero_field_are_errors),
		cmocka_unit_test(test_pbwire_skips_unknown_fields),
		cmocka_unit_test(test_pbwire_packed_doubles),
		cmocka_unit_test(test_pbwire_packed_varints),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
