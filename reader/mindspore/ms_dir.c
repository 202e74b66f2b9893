/*
 * ms_dir.c - directory listings for the MindSpore layouts: a folder's
 * entries sorted by name with their types (without a stat per entry where
 * readdir tells), reported as a problem when the folder cannot be read,
 * and whether a path is a folder.
 */
#include "ms_internal.h"
#include "ms_stage.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct listed {
	char *name;
	unsigned char type;
};

static int
listed_cmp(const void *a, const void *b)
{
	return strcmp(((const struct listed *)a)->name, ((const struct listed *)b)->name);
}

static unsigned char
entry_type(const struct dirent *de)
{
#ifdef _DIRENT_HAVE_D_TYPE
	if (de->d_type == DT_DIR)
		return MS_DT_DIR;
	if (de->d_type == DT_REG)
		return MS_DT_REG;
#else
	(void)de;
#endif
	return MS_DT_OTHER;
}

/* One directory read (getdents) and no stat per entry: the entry types come
 * from the directory itself (issue 18: system calls per file). */
char **
ms_list_dir_typed(const char *dir, size_t *n, unsigned char **types)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct listed *ls = NULL;
	char **names;
	size_t cap = 0, i;

	*n = 0;
	if (types)
		*types = NULL;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		TD_GROW(ls, cap, *n + 1);
		ls[*n].name = xstrdup(de->d_name);
		ls[(*n)++].type = entry_type(de);
	}
	closedir(d);
	if (*n == 0) {                  /* as before: an empty directory lists NULL */
		free(ls);
		return NULL;
	}
	td_sort(ls, *n, sizeof(*ls), listed_cmp);
	names = xmalloc(*n * sizeof(*names));
	if (types)
		*types = xmalloc(*n);
	for (i = 0; i < *n; i++) {
		names[i] = ls[i].name;
		if (types)
			(*types)[i] = ls[i].type;
	}
	free(ls);
	return names;
}

char **
ms_list_dir(const char *dir, size_t *n)
{
	return ms_list_dir_typed(dir, n, NULL);
}

void
ms_report_unlisted(struct reader *r, const char *dir, int e, const struct reader_sink *sink,
		   const char *what)
{
	bool added;

	if (e && e != ENOENT && e != ENOTDIR) {
		td_strpool_id(&r->unreadable, dir, &added);
		if (added)
			ms_problem(sink, PROBLEM_UNREADABLE, dir, what, strerror(e));
	}
}

char **
ms_list_dir_report_typed(struct reader *r, const char *dir, size_t *n, unsigned char **types,
			 const struct reader_sink *sink, const char *what)
{
	char **names;
	int e;

	errno = 0;
	names = ms_list_dir_typed(dir, n, types);
	e = errno;
	if (!names && *n == 0)
		ms_report_unlisted(r, dir, e, sink, what);
	return names;
}

char **
ms_list_dir_report(struct reader *r, const char *dir, size_t *n, const struct reader_sink *sink,
		   const char *what)
{
	return ms_list_dir_report_typed(r, dir, n, NULL, sink, what);
}

void
ms_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

char *
ms_path_join(const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name) + 1;
	char *p = xmalloc(d + 1 + n);

	memcpy(p, dir, d);
	p[d] = '/';
	memcpy(p + d + 1, name, n);
	return p;
}

bool
ms_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
