/*
 * test_state.c - the per-dump state file: where it lives (XDG_STATE_HOME,
 * else ~/.local/state), a save read back, marks, a file of another dump
 * (NOENT), corrupt files refused as a whole with the line named, and a
 * state directory inside the dump refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tui/cmd/rowsort.h"
#include "tui/cmd/state.h"

static char dir[64];

static int
setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/tdbg-state.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	setenv("XDG_STATE_HOME", dir, 1);
	return 0;
}

static int
teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void
write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
test_file_under_xdg_state_home_per_path(void **state)
{
	char a[4096], b[4096], prefix[128];

	(void)state;
	assert_true(state_file("/data/dump1", a, sizeof a));
	assert_true(state_file("/data/dump2", b, sizeof b));
	snprintf(prefix, sizeof prefix, "%s/tdbg/", dir);
	assert_memory_equal(a, prefix, strlen(prefix));
	assert_string_not_equal(a, b);
	unsetenv("XDG_STATE_HOME");
	setenv("HOME", "/home/u", 1);
	assert_true(state_file("/data/dump1", a, sizeof a));
	assert_memory_equal(a, "/home/u/.local/state/tdbg/", 26);
	setenv("XDG_STATE_HOME", dir, 1);
}

static void
test_save_reads_back(void **state)
{
	struct ui_state s, r;
	char file[4096], err[256];

	(void)state;
	state_init(&s);
	snprintf(s.focus, sizeof s.focus, "traces");
	snprintf(s.filter, sizeof s.filter, "op=^(Log|probs)$ where=nan > 0");
	snprintf(s.sort, sizeof s.sort, "nonfinite desc");
	s.columns = ROWCOL_TIME | ROWCOL_SIZE;
	s.has_columns = true;
	s.trace = 88;
	assert_true(state_mark_set(&s, 'a', false, 88));
	assert_true(state_mark_set(&s, 'Z', true, 3));
	assert_true(state_mark_set(&s, 'a', false, 85));       /* moved */
	assert_false(state_mark_set(&s, '1', false, 1));
	assert_true(state_file("/data/dump", file, sizeof file));
	assert_int_equal(state_save(file, "/data/dump", NULL, 0, &s, err, sizeof err), TD_OK);
	assert_int_equal(state_load(file, "/data/dump", &r, err, sizeof err), TD_OK);
	assert_string_equal(r.focus, "traces");
	assert_string_equal(r.filter, "op=^(Log|probs)$ where=nan > 0");
	assert_string_equal(r.sort, "nonfinite desc");
	assert_int_equal(r.columns, ROWCOL_TIME | ROWCOL_SIZE);
	assert_int_equal(r.trace, 88);
	assert_int_equal(r.execution, -1);
	assert_int_equal(r.nmarks, 2);
	assert_int_equal(state_mark_get(&r, 'a')->row, 85);
	assert_true(state_mark_get(&r, 'Z')->execution);
	assert_null(state_mark_get(&r, 'b'));
	/* another dump with the same file (a hash collision) gets nothing */
	assert_int_equal(state_load(file, "/data/other", &r, err, sizeof err), TD_ERR_NOENT);
}

static void
test_corrupt_files_are_refused_whole(void **state)
{
	static const char *const bad[][2] = {
		{ "garbage\n", "line 1" },
		{ "# tdbg state 1\ndump /d\nfocus traces\nwat 3\n", "line 4: unknown key" },
		{ "# tdbg state 1\ndump /d\ntrace -3\n", "line 3: not a row number" },
		{ "# tdbg state 1\ndump /d\nmark 1 trace 3\n", "line 3" },
		{ "# tdbg state 1\ndump /d\nsort sideways\n", "line 3: unknown sort field" },
		{ "# tdbg state 1\nfocus traces\n", "no dump line" },
	};
	struct ui_state r;
	char file[4096], err[256];

	(void)state;
	snprintf(file, sizeof file, "%s/bad.state", dir);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		write_text(file, bad[i][0]);
		assert_int_equal(state_load(file, "/d", &r, err, sizeof err), TD_ERR_CORRUPT);
		assert_non_null(strstr(err, bad[i][1]));
		assert_int_equal(r.nmarks, 0);
		assert_int_equal(r.trace, -1);
		assert_string_equal(r.focus, "");
	}
}

static void
test_state_dir_inside_the_dump_is_refused(void **state)
{
	struct ui_state s;
	char file[4096], err[256], dump[128];

	(void)state;
	state_init(&s);
	snprintf(dump, sizeof dump, "%s/dump", dir);
	assert_int_equal(mkdir(dump, 0700), 0);
	snprintf(file, sizeof file, "%s/dump/state/x.state", dir);
	struct safeio_id id;
	assert_true(safeio_id_of(dump, &id));
	assert_int_not_equal(state_save(file, dump, &id, 1, &s, err, sizeof err), TD_OK);
	assert_non_null(strstr(err, "inside the dump"));
	assert_int_not_equal(access(file, F_OK), 0);
	snprintf(file, sizeof file, "%s/dump/state", dir);
	assert_int_not_equal(access(file, F_OK), 0);      /* nothing created in it */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_file_under_xdg_state_home_per_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_reads_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_files_are_refused_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_state_dir_inside_the_dump_is_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
