/*
 * test_keys.c - the action table, key names and the binding table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>

#include "tui/keys.h"
#include "tui/keyseq.h"

static void
test_action_table_is_indexed_by_enum(void **state)
{
	(void)state;
	for (int i = 0; i < ACT_COUNT; i++)
		assert_int_equal(action_table[i].action, i);
	assert_string_equal(action_table[ACT_MOVE_DOWN].name, "move-down");
}

static void
test_action_from_name_unknown_is_count(void **state)
{
	(void)state;
	assert_int_equal(action_from_name("quit"), ACT_QUIT);
	assert_int_equal(action_from_name("no-such-thing"), ACT_COUNT);
}

static void
test_key_names_round_trip(void **state)
{
	const char *names[] = { "j", "?", "Tab", "S-Tab", "Enter", "Esc", "Backspace",
				"PgUp", "PgDn", "Up", "F1", "^L", "Space", "[" };
	char buf[16];

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		int key = keymap_key_from_name(names[i]);
		assert_true(key >= 0);
		assert_string_equal(keymap_key_name(key, buf, sizeof buf), names[i]);
	}
	assert_int_equal(keymap_key_from_name("^L"), 12);
	assert_int_equal(keymap_key_from_name("F1"), KEY_F(1));
	assert_int_equal(keymap_key_from_name("Nope"), -1);
	assert_int_equal(keymap_key_from_name("F13"), -1);
}

/* Issue 12 item 15: tig's key spellings, C-x, ^X, M-x and names in <>. */
static void
test_key_names_take_control_meta_and_tig_spellings(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(keymap_key_from_name("C-n"), 14);
	assert_int_equal(keymap_key_from_name("C-N"), 14);
	assert_int_equal(keymap_key_from_name("^N"), 14);
	assert_int_equal(keymap_key_from_name("^n"), 14);
	assert_int_equal(keymap_key_from_name("Ctrl-x"), 24);
	assert_int_equal(keymap_key_from_name("<C-n>"), 14);
	assert_int_equal(keymap_key_from_name("<Ctrl-f>"), 6);
	assert_int_equal(keymap_key_from_name("M-x"), KEYSEQ_META | 'x');
	assert_int_equal(keymap_key_from_name("Alt-j"), KEYSEQ_META | 'j');
	assert_int_equal(keymap_key_from_name("<M-Enter>"), KEYSEQ_META | '\n');
	assert_int_equal(keymap_key_from_name("<Esc>"), 27);
	assert_int_equal(keymap_key_from_name("Escape"), 27);
	assert_int_equal(keymap_key_from_name("PageDown"), KEY_NPAGE);
	assert_int_equal(keymap_key_from_name("pgup"), KEY_PPAGE);
	assert_int_equal(keymap_key_from_name("Delete"), KEY_DC);
	assert_int_equal(keymap_key_from_name("Insert"), KEY_IC);
	assert_int_equal(keymap_key_from_name("<Lt>"), '<');
	assert_string_equal(keymap_key_name(KEYSEQ_META | 'x', buf, sizeof buf), "M-x");
	assert_string_equal(keymap_key_name(14, buf, sizeof buf), "^N");
	assert_int_equal(keymap_key_from_name("C-"), -1);
	assert_int_equal(keymap_key_from_name("C-F13"), -1);
	assert_int_equal(keymap_key_from_name("Hyper-x"), -1);
}

/* Issue 12 item 15: every bad line is reported with its number; the good
 * lines around them still bind. */
static void
test_parse_text_reports_every_bad_line(void **state)
{
	struct keymap km;
	char err[512];

	(void)state;
	keymap_init(&km);
	assert_int_equal(keymap_parse_text(&km, "bind generic C-n move-down\n"
					   "bind generic Hyper-q quit\n"
					   "# comment\n"
					   "bind generic j fly\n"
					   "bind generic M-j move-up\n", err, sizeof err), 2);
	assert_non_null(strstr(err, "line 2: unknown key 'Hyper-q'"));
	assert_non_null(strstr(err, "line 4: unknown action 'fly'"));
	assert_int_equal(keymap_lookup(&km, NULL, 14), ACT_MOVE_DOWN);
	assert_int_equal(keymap_lookup(&km, NULL, KEYSEQ_META | 'j'), ACT_MOVE_UP);
	assert_true(keymap_has_meta(&km));
	keymap_done(&km);
}

/* Issue 23 item 18: a line is read whole (it was cut at 255 bytes: the
 * action past the cut was lost and the line called bad). */
static void
test_parse_text_reads_long_lines_whole(void **state)
{
	struct keymap km;
	char text[700], err[512];

	(void)state;
	keymap_init(&km);
	snprintf(text, sizeof text, "bind generic C-n%400s move-down\n", "");
	assert_int_equal(keymap_parse_text(&km, text, err, sizeof err), 0);
	assert_int_equal(keymap_lookup(&km, NULL, 14), ACT_MOVE_DOWN);
	keymap_done(&km);
}

static void
test_defaults_bind_the_documented_keys(void **state)
{
	struct keymap km;

	(void)state;
	keymap_init_defaults(&km);
	assert_int_equal(keymap_lookup(&km, NULL, 'j'), ACT_MOVE_DOWN);
	assert_int_equal(keymap_lookup(&km, NULL, KEY_DOWN), ACT_MOVE_DOWN);
	assert_int_equal(keymap_lookup(&km, NULL, 'k'), ACT_MOVE_UP);
	assert_int_equal(keymap_lookup(&km, NULL, '\t'), ACT_FOCUS_NEXT);
	assert_int_equal(keymap_lookup(&km, NULL, KEY_BTAB), ACT_FOCUS_PREV);
	assert_int_equal(keymap_lookup(&km, NULL, 'g'), ACT_MOVE_FIRST);
	assert_int_equal(keymap_lookup(&km, NULL, 'G'), ACT_MOVE_LAST);
	assert_int_equal(keymap_lookup(&km, NULL, KEY_NPAGE), ACT_PAGE_DOWN);
	assert_int_equal(keymap_lookup(&km, NULL, KEY_PPAGE), ACT_PAGE_UP);
	assert_int_equal(keymap_lookup(&km, NULL, '['), ACT_BACK);
	assert_int_equal(keymap_lookup(&km, NULL, ']'), ACT_FORWARD);
	assert_int_equal(keymap_lookup(&km, NULL, '/'), ACT_SEARCH);
	assert_int_equal(keymap_lookup(&km, NULL, 'n'), ACT_SEARCH_NEXT);
	assert_int_equal(keymap_lookup(&km, NULL, 'N'), ACT_SEARCH_PREV);
	assert_int_equal(keymap_lookup(&km, NULL, ':'), ACT_PROMPT);
	assert_int_equal(keymap_lookup(&km, NULL, '?'), ACT_HELP);
	assert_int_equal(keymap_lookup(&km, NULL, KEY_F(1)), ACT_HELP);
	assert_int_equal(keymap_lookup(&km, NULL, 27), ACT_CLOSE);
	assert_int_equal(keymap_lookup(&km, NULL, 'q'), ACT_QUIT);
	assert_int_equal(keymap_lookup(&km, NULL, '1'), ACT_PANE_ALERTS);
	assert_int_equal(keymap_lookup(&km, NULL, '6'), ACT_PANE_STACK);
	assert_int_equal(keymap_lookup(&km, NULL, 't'), ACT_TENSOR);
	assert_int_equal(keymap_lookup(&km, NULL, 'f'), ACT_FOLLOW);
	assert_int_equal(keymap_lookup(&km, NULL, 'Z'), ACT_NONE);
	keymap_done(&km);
}

static void
test_enter_and_backspace_variants_normalise(void **state)
{
	struct keymap km;

	(void)state;
	keymap_init_defaults(&km);
	assert_int_equal(keymap_lookup(&km, NULL, '\r'), ACT_ENTER);
	assert_int_equal(keymap_lookup(&km, NULL, KEY_ENTER), ACT_ENTER);
	assert_int_equal(keymap_lookup(&km, NULL, 127), ACT_BACK);
	assert_int_equal(keymap_lookup(&km, NULL, 8), ACT_BACK);
	keymap_done(&km);
}

static void
test_pane_scope_wins_over_generic(void **state)
{
	struct keymap km;

	(void)state;
	keymap_init_defaults(&km);
	assert_int_equal(keymap_lookup(&km, "source", 'L'), ACT_LOAD_SOURCE);
	assert_int_equal(keymap_lookup(&km, "alerts", 'L'), ACT_NONE);
	assert_true(keymap_parse_line(&km, "bind traces j move-up", NULL, 0));
	assert_int_equal(keymap_lookup(&km, "traces", 'j'), ACT_MOVE_UP);
	assert_int_equal(keymap_lookup(&km, "graph", 'j'), ACT_MOVE_DOWN);
	keymap_done(&km);
}

static void
test_rebinding_replaces_not_duplicates(void **state)
{
	struct keymap km;
	char buf[64];

	(void)state;
	keymap_init_defaults(&km);
	size_t n = km.n;
	assert_true(keymap_parse_line(&km, "bind generic q none", buf, sizeof buf));
	assert_int_equal(km.n, n);
	assert_int_equal(keymap_lookup(&km, NULL, 'q'), ACT_NONE);
	keymap_done(&km);
}

static void
test_bad_lines_report_and_leave_map_unchanged(void **state)
{
	struct keymap km;
	char err[128];

	(void)state;
	keymap_init(&km);
	assert_false(keymap_parse_line(&km, "bind generic j fly-away", err, sizeof err));
	assert_non_null(strstr(err, "unknown action 'fly-away'"));
	assert_false(keymap_parse_line(&km, "bind generic Hyper move-down", err, sizeof err));
	assert_non_null(strstr(err, "unknown key 'Hyper'"));
	assert_false(keymap_parse_line(&km, "bind generic j", err, sizeof err));
	assert_true(keymap_parse_line(&km, "  # comment", err, sizeof err));
	assert_true(keymap_parse_line(&km, "", err, sizeof err));
	assert_int_equal(km.n, 0);
	assert_int_equal(keymap_parse_text(&km, "bind generic x quit\nbind a b c\n", err, sizeof err), 1);
	assert_non_null(strstr(err, "line 2:"));
	assert_int_equal(keymap_lookup(&km, NULL, 'x'), ACT_QUIT);
	keymap_done(&km);
}

static void
test_keys_for_lists_every_key_of_an_action(void **state)
{
	struct keymap km;
	char buf[64];

	(void)state;
	keymap_init_defaults(&km);
	assert_int_equal(keymap_keys_for(&km, "generic", ACT_MOVE_DOWN, buf, sizeof buf), 2);
	assert_string_equal(buf, "j, Down");
	assert_int_equal(keymap_keys_for(&km, "generic", ACT_HELP, buf, sizeof buf), 2);
	assert_string_equal(buf, "?, F1");
	keymap_done(&km);
}

static void
test_every_action_but_none_has_a_default_key(void **state)
{
	struct keymap km;
	char buf[64];

	(void)state;
	keymap_init_defaults(&km);
	for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
		int n = keymap_keys_for(&km, "generic", a, buf, sizeof buf) +
			keymap_keys_for(&km, "source", a, buf, sizeof buf) +
			keymap_keys_for(&km, "graph", a, buf, sizeof buf) +
			keymap_keys_for(&km, "stack", a, buf, sizeof buf) +
			keymap_keys_for(&km, "overlay", a, buf, sizeof buf) +
			keymap_keys_for(&km, "traces", a, buf, sizeof buf);
		if (n == 0)
			fail_msg("action %s has no default key", action_table[a].name);
	}
	keymap_done(&km);
}

/* The pane table gives every pane a focus action "pane-NAME" bound to its
 * key, in table order. */
static void
test_pane_table_makes_focus_actions_and_keys(void **state)
{
	struct keymap km;

	(void)state;
	keymap_init_defaults(&km);
	for (int i = 0; i < PANE_COUNT; i++) {
		char want[64];
		enum action act = (enum action)(ACT_PANE_ALERTS + i);
		snprintf(want, sizeof want, "pane-%s", pane_info[i].name);
		assert_string_equal(action_table[act].name, want);
		assert_int_equal(action_from_name(want), act);
		assert_int_equal(keymap_lookup(&km, NULL, keymap_key_from_name(pane_info[i].key)), act);
		assert_non_null(strstr(action_table[act].help, pane_info[i].title));
	}
	assert_int_equal(ACT_PANE_STACK - ACT_PANE_ALERTS, PANE_STACK - PANE_ALERTS);
	keymap_done(&km);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_action_table_is_indexed_by_enum),
		cmocka_unit_test(test_action_from_name_unknown_is_count),
		cmocka_unit_test(test_key_names_round_trip),
		cmocka_unit_test(test_defaults_bind_the_documented_keys),
		cmocka_unit_test(test_enter_and_backspace_variants_normalise),
		cmocka_unit_test(test_pane_scope_wins_over_generic),
		cmocka_unit_test(test_rebinding_replaces_not_duplicates),
		cmocka_unit_test(test_bad_lines_report_and_leave_map_unchanged),
		cmocka_unit_test(test_keys_for_lists_every_key_of_an_action),
		cmocka_unit_test(test_every_action_but_none_has_a_default_key),
		cmocka_unit_test(test_pane_table_makes_focus_actions_and_keys),
		cmocka_unit_test(test_key_names_take_control_meta_and_tig_spellings),
		cmocka_unit_test(test_parse_text_reports_every_bad_line),
		cmocka_unit_test(test_parse_text_reads_long_lines_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
