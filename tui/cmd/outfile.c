/*
 * outfile.c - the checks before tdbg writes a file, the write itself, and
 * the "COMMAND > FILE" split of a prompt line (see outfile.h).
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "reader/base/safeio.h"

/* Opens the directory the file path would be in and sets *name to its last
 * component (a pointer into path).  Returns the descriptor, or -1 with err
 * when the directory does not exist or path names no file. */
static int
open_parent(const char *path, const char **name, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	*name = slash ? slash + 1 : path;
	if (!**name || strcmp(*name, ".") == 0 || strcmp(*name, "..") == 0) {
		snprintf(err, errlen, "%s: not a file name", path);
		return -1;
	}
	dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		snprintf(err, errlen, "%s: no such directory", path);
	free(dir);
	return fd;
}

/* Whether the directory open at dirfd is, or lies in, a folder one of the
 * dumps reads (by identity, taken when the dump was opened). */
static bool
in_a_dump(int dirfd, const char *path, struct model *const *dumps, size_t ndumps, char *err,
	  size_t errlen)
{
	for (size_t i = 0; i < ndumps; i++) {
		const struct safeio_id *ids;
		const char *real;
		size_t n;

		if (!dumps[i])
			continue;
		n = model_roots(dumps[i], &ids, &real);
		if (safeio_dir_within(dirfd, ids, n) >= 0) {
			snprintf(err, errlen, "%s is inside the dump directory %s: tdbg never writes into a dump",
				 path, real);
			return true;
		}
	}
	return false;
}

/* The checks of outfile_check on the directory open at dirfd. */
static enum td_status
check_at(int dirfd, const char *name, const char *path, struct model *const *dumps, size_t ndumps,
	 bool force, char *err, size_t errlen)
{
	struct stat st;

	if (in_a_dump(dirfd, path, dumps, ndumps, err, errlen))
		return TD_ERR_ARGS;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode)) {
			snprintf(err, errlen, "%s is a symbolic link: not written through", path);
			return TD_ERR_ARGS;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s exists and is not a regular file", path);
			return TD_ERR_ARGS;
		}
		if (!force) {
			snprintf(err, errlen, "%s exists (>| at the prompt, or --force, replaces it)", path);
			return TD_ERR_ARGS;
		}
	}
	return TD_OK;
}

enum td_status
outfile_check(const char *path, struct model *const *dumps, size_t ndumps, bool force,
	      char *err, size_t errlen)
{
	const char *name;
	enum td_status st;
	int dirfd;

	if (!path || !*path) {
		snprintf(err, errlen, "no file name");
		return TD_ERR_ARGS;
	}
	if ((dirfd = open_parent(path, &name, err, errlen)) < 0)
		return TD_ERR_ARGS;
	st = check_at(dirfd, name, path, dumps, ndumps, force, err, errlen);
	close(dirfd);
	return st;
}

enum td_status
outfile_write(const char *path, struct model *const *dumps, size_t ndumps, bool force,
	      const void *data, size_t len, char *err, size_t errlen)
{
	struct outfile o;
	enum td_status st = outfile_open(&o, path, dumps, ndumps, force, err, errlen);

	if (st != TD_OK)
		return st;
	outfile_add(&o, data, len);
	return outfile_close(&o, true, err, errlen);
}

enum td_status
outfile_open(struct outfile *o, const char *path, struct model *const *dumps, size_t ndumps,
	     bool force, char *err, size_t errlen)
{
	enum td_status st;

	memset(o, 0, sizeof(*o));
	o->dirfd = -1;
	if (!path || !*path) {
		snprintf(err, errlen, "no file name");
		return TD_ERR_ARGS;
	}
	/* the directory is checked once open and written through that
	 * descriptor: a link re-pointed or a folder renamed since the check
	 * cannot move the write elsewhere */
	if ((o->dirfd = open_parent(path, &o->name, err, errlen)) < 0)
		return TD_ERR_ARGS;
	o->path = path;
	o->force = force;
	st = check_at(o->dirfd, o->name, path, dumps, ndumps, force, err, errlen);
	if (st == TD_OK)
		st = safeio_tmp_open(o->dirfd, path, 0666, &o->tmp, err, errlen);
	o->open = st == TD_OK;
	if (st != TD_OK) {
		close(o->dirfd);
		o->dirfd = -1;
	}
	return st;
}

bool
outfile_add(struct outfile *o, const void *data, size_t len)
{
	if (o->failed || !o->open)
		return false;
	if (len && !safeio_tmp_write(&o->tmp, data, len, o->err, sizeof o->err))
		o->failed = true;
	return !o->failed;
}

enum td_status
outfile_close(struct outfile *o, bool commit, char *err, size_t errlen)
{
	enum td_status st = TD_OK;

	if (!o->open)
		return TD_ERR_ARGS;
	if (o->failed || !commit) {
		safeio_tmp_abort(&o->tmp);
		if (o->failed) {
			snprintf(err, errlen, "%s", o->err);
			st = TD_ERR_IO;
		}
	} else {
		st = safeio_tmp_commit(&o->tmp, o->name, o->force, o->path, err, errlen);
	}
	o->open = false;
	close(o->dirfd);
	o->dirfd = -1;
	return st;
}

/* The last '>' of line outside quotes, or NULL. */
static const char *
last_gt(const char *line)
{
	const char *gt = NULL;
	char q = 0;

	for (const char *p = line; *p; p++) {
		if (q) {
			if (*p == '\\' && q == '"' && p[1])
				p++;
			else if (*p == q)
				q = 0;
		} else if (*p == '\\' && p[1]) {
			p++;
		} else if (*p == '\'' || *p == '"') {
			q = *p;
		} else if (*p == '>') {
			gt = p;
		}
	}
	return gt;
}

bool
outfile_split_redirect(const char *line, char **cmd, char **file, bool *force,
		       char *err, size_t errlen)
{
	const char *gt = last_gt(line), *rest;
	char **w = NULL, *end;
	int n;

	*cmd = *file = NULL;
	*force = false;
	if (!gt)
		return false;
	rest = gt + 1;
	if (*rest == '|') {
		*force = true;
		rest++;
	}
	n = cmd_split(rest, &w, err, errlen);
	if (n == 1) {
		strtod(w[0], &end);
		if (end != w[0] && !*end) {         /* "> 1e3": a comparison */
			cmd_split_free(w, n);
			return false;
		}
	}
	if (gt > line && gt[-1] == '>') {        /* ">>" is no redirection we know */
		cmd_split_free(w, n);
		return false;
	}
	if (n != 1) {
		if (n >= 0)
			snprintf(err, errlen, "> wants one file name");
		cmd_split_free(w, n);
		return true;
	}
	*file = xstrdup(w[0]);
	*cmd = xstrndup(line, (size_t)(gt - line));
	cmd_split_free(w, n);
	return true;
}
