/*
 * test_safeio.c - tdbg's own files and its writes (reader/base/safeio.h):
 * a FIFO, a symbolic link, a loose mode are refused at once; a directory
 * inside a dump is found by identity whatever the path; a replaced file
 * that is a hard link to a dump file keeps its bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "reader/base/safeio.h"
#include "tests/unit/helpers/files.h"

static char *dir;

static int
setup(void **state)
{
	(void)state;
	dir = test_tmpdir("safeio");
	return dir ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	test_rmtree(dir);
	return 0;
}

static char *
at(const char *name)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

static void
test_safeio_fifo_refused_without_blocking(void **state)
{
	char err[256], *buf;
	size_t len;

	(void)state;
	assert_int_equal(mkfifo(at("keys"), 0600), 0);
	/* a blocking open would never return: no writer */
	alarm(5);
	assert_int_equal(safeio_read_own(at("keys"), 1 << 20, &buf, &len, err, sizeof err), TD_ERR_IO);
	alarm(0);
	assert_non_null(strstr(err, "a FIFO"));
}

static void
test_safeio_symlink_refused(void **state)
{
	char err[256];
	enum td_status st;

	(void)state;
	test_spit(at("target"), "x\n", 2, "wb");
	chmod(at("target"), 0600);
	assert_int_equal(symlink(at("target"), at("link")), 0);
	assert_int_equal(safeio_open_own(at("link"), NULL, &st, err, sizeof err), -1);
	assert_int_equal(st, TD_ERR_IO);
	assert_non_null(strstr(err, "symbolic link"));
	/* a directory link too */
	assert_int_equal(mkdir(at("real"), 0700), 0);
	assert_int_equal(symlink(at("real"), at("dirlink")), 0);
	assert_int_equal(safeio_own_dir(at("dirlink"), false, NULL, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "symbolic link"));
}

/* A file updated in place (the summary columns): the user's own regular
 * file of one link opens read-write; a link at its name, a hard link (a
 * second name for a file someone wants written) or a loose mode does not. */
static void
test_safeio_update_own_refuses_links(void **state)
{
	char err[256];
	int dfd = open(dir, O_RDONLY | O_DIRECTORY), fd;

	(void)state;
	assert_true(dfd >= 0);
	test_spit(at("cols"), "x", 1, "wb");
	chmod(at("cols"), 0600);
	fd = safeio_update_own(dfd, "cols", at("cols"), err, sizeof err);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, "y", 1, 0), 1);
	close(fd);
	assert_int_equal(symlink(at("cols"), at("cols-link")), 0);
	assert_int_equal(safeio_update_own(dfd, "cols-link", at("cols-link"), err, sizeof err), -1);
	assert_non_null(strstr(err, "symbolic link"));
	assert_int_equal(link(at("cols"), at("cols-hard")), 0);
	assert_int_equal(safeio_update_own(dfd, "cols", at("cols"), err, sizeof err), -1);
	assert_non_null(strstr(err, "hard-linked"));
	unlink(at("cols-hard"));
	chmod(at("cols"), 0666);
	assert_int_equal(safeio_update_own(dfd, "cols", at("cols"), err, sizeof err), -1);
	assert_non_null(strstr(err, "writable by group or others"));
	close(dfd);
}

static void
test_safeio_loose_mode_refused(void **state)
{
	char err[256], *buf;
	size_t len;
	int fd;

	(void)state;
	test_spit(at("watches"), "a b\n", 4, "wb");
	chmod(at("watches"), 0620);
	assert_int_equal(safeio_read_own(at("watches"), 100, &buf, &len, err, sizeof err), TD_ERR_IO);
	assert_non_null(strstr(err, "writable by group or others (mode 0620)"));
	chmod(at("watches"), 0644);
	assert_int_equal(safeio_read_own(at("watches"), 100, &buf, &len, err, sizeof err), TD_OK);
	assert_string_equal(buf, "a b\n");
	free(buf);
	assert_int_equal(safeio_read_own(at("watches"), 3, &buf, &len, err, sizeof err),
			 TD_ERR_TOO_LARGE);
	assert_int_equal(mkdir(at("shared"), 0700), 0);
	chmod(at("shared"), 0777);
	fd = safeio_own_dir(at("shared"), false, NULL, 0, err, sizeof err);
	assert_int_equal(fd, -1);
	assert_non_null(strstr(err, "mode 0777"));
}

/* Another user's file or folder: only root can forge one (chown); as
 * another user the test is skipped, the mode tests above still run. */
static void
test_safeio_other_owner_refused(void **state)
{
	char err[256], *buf;
	size_t len;

	(void)state;
	if (geteuid() != 0) {
		skip();
		return;
	}
	test_spit(at("state"), "x\n", 2, "wb");
	chmod(at("state"), 0600);
	assert_int_equal(chown(at("state"), 65534, 65534), 0);
	assert_int_equal(safeio_read_own(at("state"), 100, &buf, &len, err, sizeof err), TD_ERR_IO);
	assert_non_null(strstr(err, "is owned by uid 65534, not by you"));
	assert_int_equal(mkdir(at("cache"), 0700), 0);
	assert_int_equal(chown(at("cache"), 65534, 65534), 0);
	assert_int_equal(safeio_own_dir(at("cache"), false, NULL, 0, err, sizeof err), -1);
	assert_non_null(strstr(err, "is owned by uid 65534"));
}

static void
test_safeio_missing_file_is_noent(void **state)
{
	char err[256];
	enum td_status st;

	(void)state;
	assert_int_equal(safeio_open_own(at("none"), NULL, &st, err, sizeof err), -1);
	assert_int_equal(st, TD_ERR_NOENT);
}

static void
test_safeio_dir_within_by_identity(void **state)
{
	struct safeio_id dump;
	char err[256];
	int fd;

	(void)state;
	assert_int_equal(mkdir(at("run_a"), 0700), 0);
	assert_int_equal(mkdir(at("run_a/sub"), 0700), 0);
	assert_int_equal(mkdir(at("run_b"), 0700), 0);
	assert_int_equal(symlink("run_a", at("latest")), 0);
	assert_true(safeio_id_of(at("latest"), &dump));
	/* the link re-pointed after the identity was taken */
	unlink(at("latest"));
	assert_int_equal(symlink("run_b", at("latest")), 0);
	fd = open(at("run_a/sub"), O_RDONLY | O_DIRECTORY);
	assert_int_equal(safeio_dir_within(fd, &dump, 1), 0);
	close(fd);
	fd = open(at("latest"), O_RDONLY | O_DIRECTORY);
	assert_int_equal(safeio_dir_within(fd, &dump, 1), -1);
	close(fd);
	/* renamed: still the same directory */
	assert_int_equal(rename(at("run_a"), at("moved")), 0);
	fd = open(at("moved"), O_RDONLY | O_DIRECTORY);
	assert_int_equal(safeio_dir_within(fd, &dump, 1), 0);
	close(fd);
	assert_int_equal(safeio_own_dir(at("moved/sub/cache/tdbg"), true, &dump, 1, err, sizeof err), -1);
	assert_non_null(strstr(err, "inside the dump"));
	/* refused before anything was created */
	assert_int_equal(access(at("moved/sub/cache"), F_OK), -1);
}

static void
test_safeio_replace_keeps_hard_linked_file(void **state)
{
	char err[256];
	unsigned char *got;
	size_t len;
	int fd;

	(void)state;
	test_spit(at("dumpfile"), "0123456789", 10, "wb");
	assert_int_equal(link(at("dumpfile"), at("snap")), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_int_equal(safeio_write_at(fd, "snap", "new", 3, 0644, false, at("snap"), err, sizeof err),
			 TD_ERR_ARGS);
	assert_non_null(strstr(err, "exists"));
	assert_int_equal(safeio_write_at(fd, "snap", "new", 3, 0644, true, at("snap"), err, sizeof err),
			 TD_OK);
	close(fd);
	got = test_slurp(at("dumpfile"), &len);
	assert_int_equal(len, 10);
	assert_memory_equal(got, "0123456789", 10);
	free(got);
	got = test_slurp(at("snap"), &len);
	assert_int_equal(len, 3);
	free(got);
}

static void
test_safeio_write_never_follows_planted_link(void **state)
{
	char err[256];
	unsigned char *got;
	size_t len;
	int fd;

	(void)state;
	test_spit(at("victim"), "keep", 4, "wb");
	assert_int_equal(symlink(at("victim"), at("watches")), 0);
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_int_equal(safeio_write_at(fd, "watches", "w", 1, 0600, true, at("watches"), err, sizeof err),
			 TD_OK);
	close(fd);
	got = test_slurp(at("victim"), &len);
	assert_int_equal(len, 4);
	free(got);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_safeio_fifo_refused_without_blocking, setup, teardown),
		cmocka_unit_test_setup_teardown(test_safeio_symlink_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_safeio_update_own_refuses_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_safeio_loose_mode_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_safeio_other_owner_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_safeio_missing_file_is_noent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_safeio_dir_within_by_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_safeio_replace_keeps_hard_linked_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_safeio_write_never_follows_planted_link, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
