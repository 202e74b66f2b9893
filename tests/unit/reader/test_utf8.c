/*
 * test_utf8.c - reader/base/utf8.c: every code point encodes and decodes
 * back, and what is not UTF-8 (overlong forms, surrogates, past U+10FFFF,
 * stray continuations, sequences cut short) is refused, as the sanitizer,
 * the JSON writer and the JSON scanner rely on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "reader/base/utf8.h"

static void
test_every_code_point_round_trips(void **state)
{
	char buf[4];
	uint32_t cp, back;

	(void)state;
	for (cp = 0; cp < 0x110000; cp++) {
		size_t n, want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;

		if (cp >= 0xD800 && cp <= 0xDFFF)
			continue;
		n = td_utf8_encode(cp, buf);
		assert_int_equal(n, want);
		assert_int_equal(td_utf8_decode((const unsigned char *)buf, n, &back), n);
		assert_int_equal(back, cp);
		assert_int_equal(n == 1 ? 0 : td_utf8_lead_len((unsigned char)buf[0]), n == 1 ? 0 : (int)n);
		/* one byte short is refused */
		if (n > 1)
			assert_int_equal(td_utf8_decode((const unsigned char *)buf, n - 1, &back), 0);
	}
}

static void
test_not_utf8_is_refused(void **state)
{
	static const char *const bad[] = {
		"\x80", "\xBF", "\xC0\x80", "\xC1\xBF", "\xE0\x80\x80", "\xE0\x9F\xBF",
		"\xF0\x80\x80\x80", "\xF0\x8F\xBF\xBF", "\xED\xA0\x80", "\xED\xBF\xBF",
		"\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF", "\xC3\x28", "\xE2\x82\x28",
	};
	uint32_t cp;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_int_equal(td_utf8_decode((const unsigned char *)bad[i], strlen(bad[i]), &cp), 0);
	assert_int_equal(td_utf8_lead_len(0xC1), 0);
	assert_int_equal(td_utf8_lead_len(0xF5), 0);
	assert_int_equal(td_utf8_lead_len(0x80), 0);
	assert_int_equal(td_utf8_decode((const unsigned char *)"\xEF\xBF\xBD", 3, &cp), 3);
	assert_int_equal(cp, 0xFFFD);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code_point_round_trips),
		cmocka_unit_test(test_not_utf8_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
