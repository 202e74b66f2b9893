/*
 * test_reader_listing.c - format detection lists a directory once
 * (issue 25: a 20,000-run tfdbg v1 session root was listed nine times
 * before the first screen): every reader's probe and the chosen reader's
 * open read the one listing reader_detect_listed() made, the hint path
 * lists each directory it probes once, and the reader chosen for every
 * fixture is the one its README names.
 *
 * The listings are counted at opendir() itself: this test is linked with
 * -Wl,--wrap=opendir (Makefile), so every opendir() of the readers comes
 * through __wrap_opendir() below, whoever calls it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/reader.h"
#include "reader/reader_listing.h"
#include "tests/unit/helpers/files.h"

/* ---- counting opendir() ---------------------------------------------- */

#define WATCH_MAX 4

static struct {
	const char *path;
	int opens;
} watch[WATCH_MAX];

DIR *__real_opendir(const char *name);
DIR *__wrap_opendir(const char *name);

DIR *
__wrap_opendir(const char *name)
{
	size_t i;

	for (i = 0; i < WATCH_MAX; i++)
		if (watch[i].path && strcmp(watch[i].path, name) == 0)
			watch[i].opens++;
	return __real_opendir(name);
}

/* Counts the opendir() calls on path from now on, in slot i. */
static void
watch_path(size_t i, const char *path)
{
	watch[i].path = path;
	watch[i].opens = 0;
}

static void
watch_none(void)
{
	memset(watch, 0, sizeof watch);
}

/* ---- tests --------------------------------------------------------------- */

/* The fixtures and the format each README states. */
static const struct {
	const char *dir;
	const char *format;
} fixtures[] = {
	{ "tests/fixtures/tfdbg2/mnist_nan", "tfdbg2" },
	{ "tests/fixtures/tfdbg2/torn", "tfdbg2" },
	{ "tests/fixtures/tfdbg1/mlp_nan", "tfdbg1" },
	{ "tests/fixtures/mindspore/sync_lenet", "mindspore" },
	{ "tests/fixtures/mindspore/async_small", "mindspore" },
	{ "tests/fixtures/mindspore/async_npy", "mindspore" },
	{ "tests/fixtures/msprobe/pt_stats_2rank", "msprobe" },
	{ "tests/fixtures/msprobe/ms_tensor_npy", "msprobe" },
};

static void
test_detect_lists_each_fixture_once(void **state)
{
	char why[4096];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
		const struct reader_ops *ops;

		watch_path(0, fixtures[i].dir);
		ops = reader_detect(fixtures[i].dir, why, sizeof why);
		print_message("%s: %s, listed %d times\n", fixtures[i].dir, ops ? ops->name : why,
			      watch[0].opens);
		assert_non_null(ops);
		assert_string_equal(ops->name, fixtures[i].format);
		assert_int_equal(watch[0].opens, 1);
	}
	watch_none();
}

/* The tfdbg v1 session root of the fixture: detection and open together
 * list it once (the open asked which kind of root it is from the
 * listing), and the reader reads all three runs of the README. */
static void
test_detect_and_open_of_a_session_root_list_it_once(void **state)
{
	static const char dir[] = "tests/fixtures/tfdbg1/mlp_nan";
	struct reader_options opt = { 0 };
	struct reader_listing ls;
	const struct reader_ops *ops;
	struct reader *r = NULL;
	char why[4096];

	(void)state;
	watch_path(0, dir);
	ops = reader_detect_listed(dir, &ls, why, sizeof why);
	assert_ptr_equal(ops, &tfdbg1_reader_ops);
	assert_int_equal(ls.n, 3);      /* three run directories */
	opt.root_listing = &ls;
	assert_int_equal(ops->open(dir, &opt, &r, why, sizeof why), TD_OK);
	assert_int_equal(watch[0].opens, 1);
	reader_listing_done(&ls);
	ops->close(r);
	/* without a listing the open lists the root itself, once */
	watch_path(0, dir);
	assert_int_equal(ops->open(dir, NULL, &r, why, sizeof why), TD_OK);
	assert_int_equal(watch[0].opens, 1);
	ops->close(r);
	watch_none();
}

/* A folder of dumps is no dump: the hint probes each folder below it with
 * one listing of that folder. */
static void
test_hint_probes_each_folder_below_with_one_listing(void **state)
{
	char *top = test_tmpdir("listing");
	char cwd[PATH_MAX], *a, *b, *target, why[4096];
	const struct reader_ops *ops;

	(void)state;
	assert_non_null(getcwd(cwd, sizeof cwd));
	a = xasprintf("%s/a", top);
	b = xasprintf("%s/b", top);
	target = xasprintf("%s/tests/fixtures/tfdbg1/mlp_nan", cwd);
	assert_int_equal(symlink(target, a), 0);
	free(target);
	target = xasprintf("%s/tests/fixtures/tfdbg2/mnist_nan", cwd);
	assert_int_equal(symlink(target, b), 0);
	free(target);
	watch_path(0, top);
	watch_path(1, a);
	watch_path(2, b);
	ops = reader_detect(top, why, sizeof why);
	print_message("%s\n", why);
	assert_null(ops);
	assert_non_null(strstr(why, "2 dumps are below it"));
	assert_non_null(strstr(why, a));
	assert_non_null(strstr(why, b));
	/* detection's listing, then the hint's walk of the folder */
	assert_int_equal(watch[0].opens, 2);
	assert_int_equal(watch[1].opens, 1);
	assert_int_equal(watch[2].opens, 1);
	watch_none();
	free(a);
	free(b);
	test_rmtree(top);
}

/* The listing itself: every name once, no "." or "..", types from the
 * directory entry; a missing directory gives an empty listing. */
static void
test_listing_names_and_types(void **state)
{
	char *top = test_tmpdir("listing");
	char *p;
	struct reader_listing ls;
	bool seen_dir = false, seen_file = false;
	size_t i;

	(void)state;
	p = xasprintf("%s/sub", top);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = xasprintf("%s/file", top);
	test_spit(p, "x", 1, "wb");
	free(p);
	assert_true(reader_listing_make(top, &ls));
	assert_int_equal(ls.n, 2);
	for (i = 0; i < ls.n; i++) {
		if (!strcmp(ls.v[i].name, "sub")) {
			seen_dir = true;
			assert_true(ls.v[i].type == DT_DIR || ls.v[i].type == DT_UNKNOWN);
		} else {
			assert_string_equal(ls.v[i].name, "file");
			seen_file = true;
			assert_true(ls.v[i].type == DT_REG || ls.v[i].type == DT_UNKNOWN);
		}
	}
	assert_true(seen_dir && seen_file);
	reader_listing_done(&ls);
	assert_null(ls.v);
	p = xasprintf("%s/missing", top);
	assert_false(reader_listing_make(p, &ls));
	assert_int_equal(ls.n, 0);
	reader_listing_done(&ls);
	free(p);
	test_rmtree(top);
}

/* check_list's answer, with the listing it was given. */
static size_t checked_n;

static bool
has_file_named_file(const char *dir, const struct reader_listing *ls)
{
	size_t i;

	(void)dir;
	checked_n = ls->n;
	for (i = 0; i < ls->n; i++)
		if (!strcmp(ls->v[i].name, "file"))
			return true;
	return false;
}

/* reader_listing_check asks its question of a listing made for the call
 * (one opendir), and of an empty listing when the folder cannot be listed
 * (the MindSpore detection helpers' answer for such a folder). */
static void
test_listing_check_lists_once_missing_is_empty(void **state)
{
	char *top = test_tmpdir("check");
	char *p = xasprintf("%s/file", top), *missing = xasprintf("%s/missing", top);

	(void)state;
	test_spit(p, "x", 1, "wb");
	watch_path(0, top);
	checked_n = 99;
	assert_true(reader_listing_check(top, has_file_named_file));
	assert_int_equal(checked_n, 1);
	assert_int_equal(watch[0].opens, 1);
	checked_n = 99;
	assert_false(reader_listing_check(missing, has_file_named_file));
	assert_int_equal(checked_n, 0);
	watch_none();
	free(p);
	free(missing);
	test_rmtree(top);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect_lists_each_fixture_once),
		cmocka_unit_test(test_detect_and_open_of_a_session_root_list_it_once),
		cmocka_unit_test(test_hint_probes_each_folder_below_with_one_listing),
		cmocka_unit_test(test_listing_names_and_types),
		cmocka_unit_test(test_listing_check_lists_once_missing_is_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
