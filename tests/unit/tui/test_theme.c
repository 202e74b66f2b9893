/*
 * test_theme.c - theme text parsing, compiled-in themes, the shipped theme
 * files, the search path and colour mapping for small palettes.
 * Run from the source tree root (as make does): the shipped files are read
 * from ./themes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tui/theme.h"

static void
test_parse_sets_named_slot_only(void **state)
{
	struct theme t;
	char err[128];

	(void)state;
	assert_true(theme_builtin("dark", &t));
	struct style_spec before = t.slot[STYLE_HEADER];
	assert_int_equal(theme_parse("alert yellow blue bold,underline\n", &t, err, sizeof err), 0);
	assert_int_equal(t.slot[STYLE_ALERT].fg, 3);
	assert_int_equal(t.slot[STYLE_ALERT].bg, 4);
	assert_int_equal(t.slot[STYLE_ALERT].attrs, THEME_BOLD | THEME_UNDERLINE);
	assert_memory_equal(&t.slot[STYLE_HEADER], &before, sizeof before);
}

static void
test_color_names_numbers_and_bright(void **state)
{
	short c;

	(void)state;
	assert_true(theme_parse_color("default", &c));
	assert_int_equal(c, THEME_DEFAULT_COLOR);
	assert_true(theme_parse_color("bright-red", &c));
	assert_int_equal(c, 9);
	assert_true(theme_parse_color("color238", &c));
	assert_int_equal(c, 238);
	assert_true(theme_parse_color("17", &c));
	assert_int_equal(c, 17);
	assert_false(theme_parse_color("color256", &c));
	assert_false(theme_parse_color("pink", &c));
	assert_false(theme_parse_color("color", &c));
}

static void
test_bad_lines_are_counted_and_skipped(void **state)
{
	struct theme t;
	char err[128];

	(void)state;
	theme_builtin("dark", &t);
	int bad = theme_parse("# comment\n\nnot-a-slot red blue\nalert pink default\n"
			      "status red\nlink red blue sparkly\nheader green default\n",
			      &t, err, sizeof err);
	assert_int_equal(bad, 4);
	assert_string_equal(err, "line 3: unknown slot 'not-a-slot'");
	assert_int_equal(t.slot[STYLE_HEADER].fg, 2);   /* the good line still applies */
	theme_parse("alert pink default\n", &t, err, sizeof err);
	assert_string_equal(err, "line 1: unknown colour 'pink'");
	theme_parse("link red blue sparkly\n", &t, err, sizeof err);
	assert_string_equal(err, "line 1: unknown attribute 'sparkly'");
}

static void
test_builtin_mono_has_no_colours_but_marks_selection(void **state)
{
	struct theme t;

	(void)state;
	assert_true(theme_builtin("mono", &t));
	for (int i = 0; i < STYLE_COUNT; i++) {
		assert_int_equal(t.slot[i].fg, THEME_DEFAULT_COLOR);
		assert_int_equal(t.slot[i].bg, THEME_DEFAULT_COLOR);
	}
	assert_true(t.slot[STYLE_SELECTED].attrs & THEME_REVERSE);
	assert_true(t.slot[STYLE_NONFINITE].attrs != 0);
	assert_false(theme_builtin("solarized", &t));
}

static void
test_shipped_theme_files_parse_and_name_every_slot(void **state)
{
	const char *names[] = { "dark", "light", "mono", "high-contrast" };

	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[256], buf[8192], err[128];
		snprintf(path, sizeof path, "themes/%s.theme", names[i]);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		buf[n] = '\0';
		fclose(f);
		struct theme t;
		memset(&t, 0, sizeof t);
		for (int s = 0; s < STYLE_COUNT; s++)
			t.slot[s].fg = 99, t.slot[s].bg = 99;   /* marks slots never set */
		assert_int_equal(theme_parse(buf, &t, err, sizeof err), 0);
		for (int s = 0; s < STYLE_COUNT; s++)
			if (t.slot[s].fg == 99 && t.slot[s].bg == 99)
				fail_msg("%s does not set slot %s", names[i], style_names[s]);
	}
}

static void
test_shipped_dark_file_matches_builtin(void **state)
{
	struct theme file, builtin;
	char err[128];

	(void)state;
	setenv("TDBG_THEMES", "themes", 1);
	assert_true(theme_load("dark", &file, err, sizeof err));
	theme_builtin("dark", &builtin);
	assert_memory_equal(file.slot, builtin.slot, sizeof file.slot);
}

static void
test_load_searches_tdbg_themes_first(void **state)
{
	char dir[] = "/tmp/tdbg-theme-XXXXXX", path[300], err[128];
	struct theme t;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/light.theme", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("alert green default\n", f);
	fclose(f);
	setenv("TDBG_THEMES", dir, 1);
	assert_true(theme_load("light", &t, err, sizeof err));
	assert_int_equal(t.slot[STYLE_ALERT].fg, 2);
	assert_string_equal(t.name, "light");
	unlink(path);
	rmdir(dir);
}

static void
test_load_unknown_theme_fails_with_message(void **state)
{
	struct theme t;
	char err[128];

	(void)state;
	setenv("TDBG_THEMES", "/nonexistent", 1);
	assert_false(theme_load("no-such-theme", &t, err, sizeof err));
	/* the error lists the themes there are, the built-in ones first */
	assert_non_null(strstr(err, "theme 'no-such-theme' not found; themes: dark, mono"));
	/* compiled-in themes need no file */
	setenv("XDG_DATA_HOME", "/nonexistent", 1);
	assert_true(theme_load("mono", &t, err, sizeof err));
}

static void
test_colours_map_down_to_small_palettes(void **state)
{
	(void)state;
	assert_int_equal(theme_map_color(238, 256), 238);
	assert_int_equal(theme_map_color(196, 16), 9);      /* pure red -> bright red */
	assert_int_equal(theme_map_color(196, 8), 1);       /* -> red */
	assert_int_equal(theme_map_color(236, 8), 0);       /* dark grey -> black */
	assert_int_equal(theme_map_color(9, 8), 1);
	assert_int_equal(theme_map_color(8, 8), 0);         /* bright black -> black */
	assert_int_equal(theme_map_color(244, 8), 0);       /* mid grey -> bright black -> black */
	assert_int_equal(theme_map_color(THEME_DEFAULT_COLOR, 8), THEME_DEFAULT_COLOR);
	assert_int_equal(theme_map_color(4, 8), 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_sets_named_slot_only),
		cmocka_unit_test(test_color_names_numbers_and_bright),
		cmocka_unit_test(test_bad_lines_are_counted_and_skipped),
		cmocka_unit_test(test_builtin_mono_has_no_colours_but_marks_selection),
		cmocka_unit_test(test_shipped_theme_files_parse_and_name_every_slot),
		cmocka_unit_test(test_shipped_dark_file_matches_builtin),
		cmocka_unit_test(test_load_searches_tdbg_themes_first),
		cmocka_unit_test(test_colours_map_down_to_small_palettes),
		cmocka_unit_test(test_load_unknown_theme_fails_with_message),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
