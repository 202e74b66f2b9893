/*
 * files.c - files and scratch directories for unit tests; see files.h.
 */
#include "files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

unsigned char *
test_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	assert_true(n >= 0);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

void
test_spit(const char *path, const void *buf, size_t len, const char *mode)
{
	FILE *f = fopen(path, mode);

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

char *
test_tmpdir(const char *name)
{
	size_t n = strlen("/tmp/tdbg-test--XXXXXX") + strlen(name) + 1;
	char *dir = malloc(n);

	assert_non_null(dir);
	snprintf(dir, n, "/tmp/tdbg-test-%s-XXXXXX", name);
	assert_non_null(mkdtemp(dir));
	return dir;
}

char *
test_copy_dir(const char *src, const char *name)
{
	char *dir = test_tmpdir(name);
	DIR *d = opendir(src);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char from[1024], to[1024];
		struct stat st;
		unsigned char *buf;
		size_t len;

		snprintf(from, sizeof from, "%s/%s", src, e->d_name);
		if (stat(from, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
		buf = test_slurp(from, &len);
		test_spit(to, buf, len, "wb");
		free(buf);
	}
	closedir(d);
	return dir;
}

static int
remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

void
test_rmtree(char *dir)
{
	if (!dir)
		return;
	assert_int_equal(nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(dir);
}
