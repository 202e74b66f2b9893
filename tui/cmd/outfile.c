/*
 * outfile.c - the checks before tdbg writes a file, the write itself, and
 * the "COMMAND > FILE" split of a prompt line (see outfile.h).
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

/* Whether real path p is dir or lies below it. */
static bool
under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(p, dir, n) == 0 && (p[n] == '\0' || p[n] == '/');
}

/* The real path the file would have: its directory's real path plus its
 * name.  false with err when the directory does not exist. */
static bool
real_target(const char *path, char *out, size_t size, char *err, size_t errlen)
{
	char *a = xstrdup(path), *b = xstrdup(path), dir[PATH_MAX];
	const char *name = basename(b);
	bool ok = realpath(dirname(a), dir) != NULL;

	if (!ok)
		snprintf(err, errlen, "%s: no such directory", path);
	else if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || path[strlen(path) - 1] == '/')
		ok = false, snprintf(err, errlen, "%s: not a file name", path);
	else
		snprintf(out, size, "%s/%s", strcmp(dir, "/") ? dir : "", name);
	free(a);
	free(b);
	return ok;
}

enum td_status
outfile_check(const char *path, struct model *const *dumps, size_t ndumps, bool force,
	      char *err, size_t errlen)
{
	char target[PATH_MAX + NAME_MAX + 2], real[PATH_MAX], dump[PATH_MAX];
	struct stat st;

	if (!path || !*path) {
		snprintf(err, errlen, "no file name");
		return TD_ERR_ARGS;
	}
	if (!real_target(path, target, sizeof target, err, errlen))
		return TD_ERR_ARGS;
	for (size_t i = 0; i < ndumps; i++) {
		struct model_info in;

		if (!dumps[i])
			continue;
		model_info(dumps[i], &in);
		if (!in.path || !realpath(in.path, dump))
			continue;
		/* the name as given, and where a link at that name points */
		if (under(target, dump) || (realpath(path, real) && under(real, dump))) {
			snprintf(err, errlen, "%s is inside the dump directory %s: tdbg never writes into a dump",
				 path, dump);
			return TD_ERR_ARGS;
		}
	}
	if (lstat(path, &st) == 0) {
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
outfile_write(const char *path, struct model *const *dumps, size_t ndumps, bool force,
	      const void *data, size_t len, char *err, size_t errlen)
{
	enum td_status st = outfile_check(path, dumps, ndumps, force, err, errlen);
	const char *p = data;
	int fd;

	if (st != TD_OK)
		return st;
	/* O_EXCL / O_NOFOLLOW: a file or link that appeared since the check
	 * is not written through */
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (force ? O_TRUNC : O_EXCL), 0666);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return TD_ERR_IO;
	}
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(n < 0 ? errno : EIO));
			close(fd);
			return TD_ERR_IO;
		}
		p += n;
		len -= (size_t)n;
	}
	if (close(fd) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return TD_ERR_IO;
	}
	return TD_OK;
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
