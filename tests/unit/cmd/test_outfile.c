/*
 * test_outfile.c - the prompt's "COMMAND > FILE" split (quotes, a
 * comparison, >|, a missing name) and the refusals of outfile_check that
 * need no dump (existing files, links, missing directories).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "tui/cmd/outfile.h"

static void
test_split_redirect_forms(void **state)
{
	char *cmd, *file, err[128];
	bool force;

	(void)state;
	assert_true(outfile_split_redirect("traces --op Log > out.txt", &cmd, &file, &force, err, sizeof err));
	assert_string_equal(cmd, "traces --op Log ");
	assert_string_equal(file, "out.txt");
	assert_false(force);
	free(cmd);
	free(file);
	assert_true(outfile_split_redirect("info >| 'my file'", &cmd, &file, &force, err, sizeof err));
	assert_string_equal(file, "my file");
	assert_true(force);
	free(cmd);
	free(file);
}

static void
test_split_redirect_leaves_comparisons_and_quotes(void **state)
{
	char *cmd, *file, err[128];
	bool force;

	(void)state;
	assert_false(outfile_split_redirect("filter where=nan > 0", &cmd, &file, &force, err, sizeof err));
	assert_false(outfile_split_redirect("traces --where 'abs_mean > x'", &cmd, &file, &force, err, sizeof err));
	assert_false(outfile_split_redirect("traces --where \"a > b\"", &cmd, &file, &force, err, sizeof err));
	assert_false(outfile_split_redirect("info", &cmd, &file, &force, err, sizeof err));
	assert_true(outfile_split_redirect("info >", &cmd, &file, &force, err, sizeof err));
	assert_null(file);
	assert_non_null(strstr(err, "file name"));
}

static void
test_check_refuses_existing_links_and_missing_dirs(void **state)
{
	char dir[] = "/tmp/tdbg-outfile.XXXXXX", path[256], link[256], err[512];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/a.txt", dir);
	snprintf(link, sizeof link, "%s/l.txt", dir);
	assert_int_equal(outfile_check(path, NULL, 0, false, err, sizeof err), TD_OK);
	f = fopen(path, "w");
	fclose(f);
	assert_int_not_equal(outfile_check(path, NULL, 0, false, err, sizeof err), TD_OK);
	assert_non_null(strstr(err, "exists"));
	assert_int_equal(outfile_check(path, NULL, 0, true, err, sizeof err), TD_OK);
	assert_int_equal(symlink(path, link), 0);
	assert_int_not_equal(outfile_check(link, NULL, 0, true, err, sizeof err), TD_OK);
	assert_non_null(strstr(err, "symbolic link"));
	snprintf(path, sizeof path, "%s/no/such/a.txt", dir);
	assert_int_not_equal(outfile_check(path, NULL, 0, false, err, sizeof err), TD_OK);
	assert_non_null(strstr(err, "no such directory"));
	snprintf(path, sizeof path, "%s/a.txt", dir);
	assert_int_equal(outfile_write(path, NULL, 0, true, "x\n", 2, err, sizeof err), TD_OK);
	unlink(link);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_redirect_forms),
		cmocka_unit_test(test_split_redirect_leaves_comparisons_and_quotes),
		cmocka_unit_test(test_check_refuses_existing_links_and_missing_dirs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
