/*
 * test_crc32c.c - CRC-32C vectors (reader/parse/FORMAT.md §2.2, §2.5) on
 * both the SSE4.2 and the table path, and TFRecord masking.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "reader/parse/crc32c.h"

/* The 43-byte DebugEvent payload of the worked example in FORMAT.md §2.5. */
static const unsigned char example_payload[43] = {
	0x09, 0x00, 0x00, 0x20, 0x00, 0x84, 0xd7, 0xd7, 0x41, 0x1a, 0x20, 0x0a,
	0x05, 0x32, 0x2e, 0x34, 0x2e, 0x30, 0x12, 0x0d, 0x64, 0x65, 0x62, 0x75,
	0x67, 0x2e, 0x45, 0x76, 0x65, 0x6e, 0x74, 0x3a, 0x31, 0x1a, 0x08, 0x61,
	0x62, 0x63, 0x64, 0x31, 0x32, 0x33, 0x34,
};

static int
use_table(void **state)
{
	(void)state;
	crc32c_force_table(true);
	return 0;
}

static int
use_auto(void **state)
{
	(void)state;
	crc32c_force_table(false);
	return 0;
}

static void
test_crc32c_check_value(void **state)
{
	(void)state;
	assert_int_equal(crc32c("123456789", 9), 0xE3069283u);
}

static void
test_crc32c_32_zero_bytes(void **state)
{
	unsigned char z[32] = {0};

	(void)state;
	assert_int_equal(crc32c(z, sizeof z), 0x8A9136AAu);
}

static void
test_crc32c_empty_is_zero(void **state)
{
	(void)state;
	assert_int_equal(crc32c("", 0), 0);
}

static void
test_crc32c_worked_example(void **state)
{
	unsigned char len[8] = { 0x2b };

	(void)state;
	assert_int_equal(crc32c(len, 8), 0x185754A0u);
	assert_int_equal(crc32c_mask(0x185754A0u), 0x4BC31B86u);
	assert_int_equal(crc32c(example_payload, sizeof example_payload), 0x5C78D250u);
	assert_int_equal(crc32c_mask(0x5C78D250u), 0x4723A3C9u);
}

static void
test_crc32c_zero_length_record_masks(void **state)
{
	unsigned char z[8] = {0};

	(void)state;
	assert_int_equal(crc32c_mask(crc32c(z, 8)), 0x07980329u);
	assert_int_equal(crc32c_mask(0), 0xA282EAD8u);
}

static void
test_crc32c_unmask_inverts_mask(void **state)
{
	uint32_t v[] = { 0, 1, 0xE3069283u, 0xffffffffu, 0x80000000u };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof v / sizeof v[0]; i++)
		assert_int_equal(crc32c_unmask(crc32c_mask(v[i])), v[i]);
}

/* Misaligned starts and split updates agree with one call on both paths. */
static void
test_crc32c_split_and_unaligned_agree(void **state)
{
	unsigned char buf[1031];
	uint32_t whole, parts;
	size_t i, cut;

	(void)state;
	for (i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 131 + 7);
	for (cut = 0; cut < 20; cut++) {
		whole = crc32c(buf + cut, sizeof buf - cut);
		parts = crc32c_update(crc32c(buf + cut, 13), buf + cut + 13, sizeof buf - cut - 13);
		assert_int_equal(whole, parts);
		crc32c_force_table(true);
		assert_int_equal(crc32c(buf + cut, sizeof buf - cut), whole);
		crc32c_force_table(false);
	}
}

/* Every length from 0 to 1100 at three alignments (the three-stream path
 * starts at 192 bytes) gives the table's answer. */
static void
test_crc32c_hw_matches_table_at_every_length(void **state)
{
	static unsigned char buf[1104];
	uint32_t hw[3][1101];
	size_t i, len, a;

	(void)state;
	for (i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 13);
	for (a = 0; a < 3; a++)
		for (len = 0; len <= 1100; len++)
			hw[a][len] = crc32c(buf + a, len);
	crc32c_force_table(true);
	for (a = 0; a < 3; a++)
		for (len = 0; len <= 1100; len++)
			assert_int_equal(crc32c(buf + a, len), hw[a][len]);
	crc32c_force_table(false);
}

static void
test_crc32c_impl_names_path(void **state)
{
	bool hw;

	(void)state;
	hw = crc32c_force_table(true);
	assert_string_equal(crc32c_impl(), "table");
	crc32c_force_table(false);
	assert_string_equal(crc32c_impl(), hw ? "sse4.2" : "table");
}

#define BOTH(t) cmocka_unit_test_setup_teardown(t, use_auto, use_auto), \
	cmocka_unit_test_setup_teardown(t, use_table, use_auto)

int
main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_crc32c_check_value),
		BOTH(test_crc32c_32_zero_bytes),
		BOTH(test_crc32c_empty_is_zero),
		BOTH(test_crc32c_worked_example),
		BOTH(test_crc32c_zero_length_record_masks),
		cmocka_unit_test(test_crc32c_unmask_inverts_mask),
		cmocka_unit_test(test_crc32c_split_and_unaligned_agree),
		cmocka_unit_test(test_crc32c_hw_matches_table_at_every_length),
		cmocka_unit_test(test_crc32c_impl_names_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
