/*
 * model_cache_clear.c - tdbg --clear-cache [DUMP]: removes one dump's
 * persistent index, or all of them, from tdbg's cache directory.
 *
 * One dump: the dump is opened as any open would (cache on), so its cache
 * file is the one model_cache.c computes for it, and that file goes after
 * the model is closed (a save the index thread made meanwhile goes too).
 * All: only the regular files named as model_cache.c names them, 16 hex
 * digits and ".tdx", are removed; anything else in the directory (a file
 * of the user's, a subdirectory, a symbolic link) is left alone.
 *
 * Not for: what a cache file holds or when it is written (model_cache.c).
 */
#include "model_internal.h"
#include "model_columns.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CLEAR_SUFFIX ".tdx"
#define CLEAR_HEX 16

/* "0123456789abcdef.tdx": a name model_cache.c gives its files. */
static bool
is_index_name(const char *name)
{
	size_t i;

	for (i = 0; i < CLEAR_HEX; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return false;
	return strcmp(name + CLEAR_HEX, CLEAR_SUFFIX) == 0;
}

/* Removes path when it is a regular file; counts it.  false on a failed
 * unlink (err set). */
static bool
remove_one(const char *path, uint64_t *files, uint64_t *bytes, char *err, size_t errlen)
{
	struct stat st;

	colstore_beside(path, true);    /* its summary columns go with it */
	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return true;
	if (unlink(path) != 0) {
		if (errno == ENOENT)
			return true;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return false;
	}
	(*files)++;
	*bytes += (uint64_t)st.st_size;
	return true;
}

/* A summary column file (HEX.tdc) whose index file is gone goes too
 * (not counted: the counts are of index files). */
static void
remove_orphan_columns(const char *dir, const char *name)
{
	size_t n = strlen(name);
	char *p;

	if (n != CLEAR_HEX + strlen(COLS_SUFFIX) || strcmp(name + CLEAR_HEX, COLS_SUFFIX) != 0)
		return;
	for (size_t i = 0; i < CLEAR_HEX; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return;
	p = xasprintf("%s/%.*s%s", dir, (int)CLEAR_HEX, name, CLEAR_SUFFIX);
	colstore_beside(p, true);
	free(p);
}

static enum td_status
clear_all(const char *dir, uint64_t *files, uint64_t *bytes, char *err, size_t errlen)
{
	enum td_status st = TD_OK;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return errno == ENOENT ? TD_OK : (snprintf(err, errlen, "%s: %s", dir, strerror(errno)),
						  TD_ERR_IO);
	while ((e = readdir(d))) {
		char *p;

		if (!is_index_name(e->d_name)) {
			remove_orphan_columns(dir, e->d_name);
			continue;
		}
		p = xasprintf("%s/%s", dir, e->d_name);
		if (!remove_one(p, files, bytes, err, errlen))
			st = TD_ERR_IO;
		free(p);
	}
	closedir(d);
	return st;
}

static enum td_status
clear_dump(const char *path, const struct model_options *opt, uint64_t *files, uint64_t *bytes,
	   char **dir, char *err, size_t errlen)
{
	struct model_options o = *opt;
	struct model_info info;
	struct model *m = NULL;
	char *file = NULL, *slash;
	enum td_status st;

	o.cache = true;
	o.follow = o.may_follow = false;
	if ((st = model_open(path, &o, &m, err, errlen)) != TD_OK)
		return st;
	model_info(m, &info);
	if (info.index_cache_path)
		file = xstrdup(info.index_cache_path);
	model_close(m);
	if (!file) {
		snprintf(err, errlen, "%s: its format keeps no index file (%s)", path, info.index_cache);
		return TD_ERR_UNSUPPORTED;
	}
	if ((slash = strrchr(file, '/')))
		*dir = xstrndup(file, (size_t)(slash - file));
	st = remove_one(file, files, bytes, err, errlen) ? TD_OK : TD_ERR_IO;
	free(file);
	return st;
}

enum td_status
model_cache_clear(const char *path, const struct model_options *opt, uint64_t *files,
		  uint64_t *bytes, char **dir, char *err, size_t errlen)
{
	char buf[4096];

	*files = *bytes = 0;
	*dir = NULL;
	if (path)
		return clear_dump(path, opt, files, bytes, dir, err, errlen);
	if (opt->cache_dir)
		*dir = xstrdup(opt->cache_dir);
	else if (td_xdg_dir("XDG_CACHE_HOME", ".cache", buf, sizeof buf))
		*dir = xstrdup(buf);
	if (!*dir)
		return TD_OK;
	return clear_all(*dir, files, bytes, err, errlen);
}
