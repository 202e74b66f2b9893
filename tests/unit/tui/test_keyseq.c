/*
 * test_keyseq.c - escape sequences of the usual terminals decode to keys
 * whatever terminfo says (issue 12 item 6: Home as ESC [ 1 ~ in tmux with
 * TERM=xterm-256color read as Esc, '[', '1').
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>

#include "tui/keyseq.h"

/* Decodes the bytes of s (final: no more codes come); returns the key and
 * sets *used. */
static int
decode(const char *s, bool final, size_t *used)
{
	int buf[KEYSEQ_MAX], key = 12345;
	size_t n = 0;

	for (; s[n] && n < KEYSEQ_MAX; n++)
		buf[n] = (unsigned char)s[n];
	*used = keyseq_decode(buf, n, final, &key);
	return key;
}

static void
expect_key(const char *s, int want)
{
	size_t used;
	int key = decode(s, false, &used);

	assert_int_equal(key, want);
	assert_int_equal(used, strlen(s));
}

static void
test_home_end_in_every_form(void **state)
{
	(void)state;
	expect_key("\033[1~", KEY_HOME);        /* vt220, tmux, screen */
	expect_key("\033[4~", KEY_END);
	expect_key("\033[H", KEY_HOME);         /* xterm normal mode */
	expect_key("\033[F", KEY_END);
	expect_key("\033OH", KEY_HOME);         /* xterm application mode */
	expect_key("\033OF", KEY_END);
	expect_key("\033[7~", KEY_HOME);        /* rxvt */
	expect_key("\033[8~", KEY_END);
	expect_key("\033[1;5H", KEY_HOME);      /* with a modifier */
	expect_key("\033[4;2~", KEY_END);
}

static void
test_pages_insert_delete(void **state)
{
	(void)state;
	expect_key("\033[5~", KEY_PPAGE);
	expect_key("\033[6~", KEY_NPAGE);
	expect_key("\033[2~", KEY_IC);
	expect_key("\033[3~", KEY_DC);
	expect_key("\033[5;5~", KEY_PPAGE);
}

static void
test_function_keys_xterm_vt220_linux(void **state)
{
	(void)state;
	expect_key("\033OP", KEY_F(1));
	expect_key("\033OS", KEY_F(4));
	expect_key("\033[1;2P", KEY_F(1));
	expect_key("\033[11~", KEY_F(1));
	expect_key("\033[15~", KEY_F(5));
	expect_key("\033[17~", KEY_F(6));
	expect_key("\033[21~", KEY_F(10));
	expect_key("\033[23~", KEY_F(11));
	expect_key("\033[24~", KEY_F(12));
	expect_key("\033[[A", KEY_F(1));
	expect_key("\033[[E", KEY_F(5));
}

static void
test_arrows_and_shift_tab(void **state)
{
	(void)state;
	expect_key("\033[A", KEY_UP);
	expect_key("\033OB", KEY_DOWN);
	expect_key("\033[C", KEY_RIGHT);
	expect_key("\033[1;3D", KEY_LEFT);
	expect_key("\033[Z", KEY_BTAB);
}

static void
test_prefix_waits_for_more(void **state)
{
	size_t used;

	(void)state;
	decode("\033", false, &used);
	assert_int_equal(used, 0);
	decode("\033[", false, &used);
	assert_int_equal(used, 0);
	decode("\033[1", false, &used);
	assert_int_equal(used, 0);
	decode("\033[1;5", false, &used);
	assert_int_equal(used, 0);
	decode("\033O", false, &used);
	assert_int_equal(used, 0);
}

static void
test_lone_esc_and_meta(void **state)
{
	size_t used;

	(void)state;
	assert_int_equal(decode("\033", true, &used), 27);
	assert_int_equal(used, 1);
	assert_int_equal(decode("\033x", false, &used), KEYSEQ_META | 'x');
	assert_int_equal(used, 2);
	/* Alt-[ is only known once nothing else comes */
	assert_int_equal(decode("\033[", true, &used), KEYSEQ_META | '[');
	assert_int_equal(used, 2);
	/* Esc Esc: the first is a lone Esc, the second starts again */
	assert_int_equal(decode("\033\033[4~", false, &used), 27);
	assert_int_equal(used, 1);
	/* Esc then a control character: Esc alone */
	assert_int_equal(decode("\033\n", false, &used), 27);
	assert_int_equal(used, 1);
}

static void
test_codes_after_the_sequence_are_not_taken(void **state)
{
	size_t used;

	(void)state;
	assert_int_equal(decode("\033[4~jk", false, &used), KEY_END);
	assert_int_equal(used, 4);
}

static void
test_unknown_and_mouse_sequences_are_dropped_whole(void **state)
{
	size_t used;

	(void)state;
	assert_int_equal(decode("\033[99~", false, &used), KEYSEQ_NONE);
	assert_int_equal(used, 5);
	assert_int_equal(decode("\033[M !!", false, &used), KEYSEQ_NONE);
	assert_int_equal(used, 6);
	assert_int_equal(decode("\033[<0;3;4M", false, &used), KEYSEQ_NONE);
	assert_int_equal(used, 9);
	/* a torn sequence, nothing more coming: dropped, not typed */
	assert_int_equal(decode("\033[12", true, &used), KEYSEQ_NONE);
	assert_int_equal(used, 4);
}

/* ---- keyseq_next over a scripted input ---------------------------------- */

struct script {
	const int *codes;
	size_t n, pos;
	int more_calls;             /* get(ctx, true) calls */
};

static int
script_get(void *ctx, bool more)
{
	struct script *s = ctx;

	if (more)
		s->more_calls++;
	return s->pos < s->n ? s->codes[s->pos++] : ERR;
}

static void
test_next_splits_keys_and_keeps_the_rest(void **state)
{
	/* End, j, Alt-x, a lone Esc at the end */
	static const int in[] = { 27, '[', '4', '~', 'j', 27, 'x', 27 };
	struct script s = { in, sizeof in / sizeof in[0], 0, 0 };
	struct keyseq_reader r = { { 0 }, 0, true };

	(void)state;
	assert_int_equal(keyseq_next(&r, script_get, &s), KEY_END);
	assert_int_equal(keyseq_next(&r, script_get, &s), 'j');
	assert_int_equal(keyseq_next(&r, script_get, &s), KEYSEQ_META | 'x');
	assert_int_equal(keyseq_next(&r, script_get, &s), 27);
	assert_int_equal(keyseq_next(&r, script_get, &s), ERR);
}

static void
test_next_without_meta_keeps_esc_then_key(void **state)
{
	/* Esc q sent at once (a script, quick hands): Esc, then q */
	static const int in[] = { 27, 'q', 27, '[' };
	struct script s = { in, sizeof in / sizeof in[0], 0, 0 };
	struct keyseq_reader r = { { 0 }, 0, false };

	(void)state;
	assert_int_equal(keyseq_next(&r, script_get, &s), 27);
	assert_int_equal(keyseq_next(&r, script_get, &s), 'q');
	assert_int_equal(keyseq_next(&r, script_get, &s), 27);
	assert_int_equal(keyseq_next(&r, script_get, &s), '[');
	assert_int_equal(keyseq_next(&r, script_get, &s), ERR);
}

static void
test_next_pushes_back_what_followed_an_esc(void **state)
{
	/* Esc then KEY_DOWN (already decoded by curses): two keys */
	static const int in[] = { 27, KEY_DOWN, 'q' };
	struct script s = { in, sizeof in / sizeof in[0], 0, 0 };
	struct keyseq_reader r = { { 0 }, 0, false };

	(void)state;
	assert_int_equal(keyseq_next(&r, script_get, &s), 27);
	assert_int_equal(keyseq_next(&r, script_get, &s), KEY_DOWN);
	assert_int_equal(keyseq_next(&r, script_get, &s), 'q');
}

static void
test_next_skips_sequences_without_a_key(void **state)
{
	static const int in[] = { 27, '[', '9', '9', '~', 'k' };
	struct script s = { in, sizeof in / sizeof in[0], 0, 0 };
	struct keyseq_reader r = { { 0 }, 0, false };

	(void)state;
	assert_int_equal(keyseq_next(&r, script_get, &s), 'k');
}

static void
test_plain_keys_never_wait(void **state)
{
	static const int in[] = { 'a', KEY_HOME, 'b' };
	struct script s = { in, sizeof in / sizeof in[0], 0, 0 };
	struct keyseq_reader r = { { 0 }, 0, false };

	(void)state;
	assert_int_equal(keyseq_next(&r, script_get, &s), 'a');
	assert_int_equal(keyseq_next(&r, script_get, &s), KEY_HOME);
	assert_int_equal(keyseq_next(&r, script_get, &s), 'b');
	assert_int_equal(s.more_calls, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_home_end_in_every_form),
		cmocka_unit_test(test_pages_insert_delete),
		cmocka_unit_test(test_function_keys_xterm_vt220_linux),
		cmocka_unit_test(test_arrows_and_shift_tab),
		cmocka_unit_test(test_prefix_waits_for_more),
		cmocka_unit_test(test_lone_esc_and_meta),
		cmocka_unit_test(test_codes_after_the_sequence_are_not_taken),
		cmocka_unit_test(test_unknown_and_mouse_sequences_are_dropped_whole),
		cmocka_unit_test(test_next_splits_keys_and_keeps_the_rest),
		cmocka_unit_test(test_next_without_meta_keeps_esc_then_key),
		cmocka_unit_test(test_next_pushes_back_what_followed_an_esc),
		cmocka_unit_test(test_next_skips_sequences_without_a_key),
		cmocka_unit_test(test_plain_keys_never_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
