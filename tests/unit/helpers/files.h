/*
 * files.h - files and scratch directories for unit tests: read a whole
 * file, write one, copy a fixture directory somewhere writable, remove it
 * again.  Failures are cmocka assertions (the test stops there).  libc
 * only, so every layer's tests can link it.  Not for fixtures' contents:
 * tests read those from tests/fixtures/ by relative path.
 */
#ifndef TD_TEST_FILES_H
#define TD_TEST_FILES_H

#include <stddef.h>

/* The whole file at path, NUL-terminated (one byte past *len); free() it. */
unsigned char *test_slurp(const char *path, size_t *len);
/* Writes len bytes of buf to path, fopen mode "wb" or "ab". */
void test_spit(const char *path, const void *buf, size_t len, const char *mode);
/* A new empty directory /tmp/tdbg-test-<name>-XXXXXX; remove it with
 * test_rmtree(). */
char *test_tmpdir(const char *name);
/* A new scratch directory (test_tmpdir(name)) holding writable copies of
 * the regular files directly inside src (not its subdirectories). */
char *test_copy_dir(const char *src, const char *name);
/* Removes dir and everything below it, and frees dir. */
void test_rmtree(char *dir);

#endif
