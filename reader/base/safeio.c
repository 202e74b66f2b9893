/*
 * safeio.c - tdbg's own files opened safely, and every write through a
 * temporary file and a rename (see safeio.h).
 */
#include "safeio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"

/* Parent chains longer than this are not walked (a loop the kernel should
 * never show, or a tree deeper than any PATH_MAX path). */
#define WALK_MAX 4096

bool
safeio_id_of(const char *path, struct safeio_id *id)
{
	struct stat st;

	if (!path || stat(path, &st) != 0)
		return false;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	return true;
}

static int
match(const struct stat *st, const struct safeio_id *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i].dev == st->st_dev && ids[i].ino == st->st_ino)
			return (int)i;
	return -1;
}

int
safeio_dir_within(int dirfd, const struct safeio_id *ids, size_t n)
{
	struct stat st, up;
	int cur = dirfd, hit = -1;

	if (n == 0 || fstat(dirfd, &st) != 0)
		return -1;
	for (int depth = 0; depth < WALK_MAX; depth++) {
		int parent;

		if ((hit = match(&st, ids, n)) >= 0)
			break;
		parent = openat(cur, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (parent < 0 || fstat(parent, &up) != 0) {
			if (parent >= 0)
				close(parent);
			break;
		}
		if (cur != dirfd)
			close(cur);
		cur = parent;
		if (up.st_dev == st.st_dev && up.st_ino == st.st_ino)
			break;                  /* "/": its own parent */
		st = up;
	}
	if (cur != dirfd)
		close(cur);
	return hit;
}

bool
safeio_is_own(const struct stat *st, const char *path, char *err, size_t errlen)
{
	if (st->st_uid != geteuid()) {
		snprintf(err, errlen, "%s is owned by uid %ld, not by you (uid %ld)", path,
			 (long)st->st_uid, (long)geteuid());
		return false;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen, "%s is writable by group or others (mode %04o)", path,
			 (unsigned)(st->st_mode & 07777));
		return false;
	}
	return true;
}

/* Why path could not be opened with O_NOFOLLOW: a link says so plainly
 * (ELOOP reads "Too many levels of symbolic links"). */
static void
open_error(const char *path, int e, char *err, size_t errlen)
{
	struct stat st;

	if ((e == ELOOP || e == ENOTDIR) && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		snprintf(err, errlen, "%s is a symbolic link: tdbg does not follow it to its own files", path);
	else
		snprintf(err, errlen, "%s: %s", path, strerror(e));
}

int
safeio_open_own(const char *path, uint64_t *size, enum td_status *status, char *err,
		size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (status)
		*status = TD_ERR_IO;
	if (fd < 0) {
		if (status && errno == ENOENT)
			*status = TD_ERR_NOENT;
		open_error(path, errno, err, errlen);
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is %s, not a regular file", path, td_file_kind_name(st.st_mode));
		close(fd);
		return -1;
	}
	if (!safeio_is_own(&st, path, err, errlen)) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (size)
		*size = (uint64_t)st.st_size;
	if (status)
		*status = TD_OK;
	return fd;
}

int
safeio_update_own(int dirfd, const char *name, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		open_error(path, errno, err, errlen);
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1) {
		snprintf(err, errlen, "%s is %s, not a regular file of one link", path,
			 S_ISREG(st.st_mode) ? "hard-linked" : td_file_kind_name(st.st_mode));
		close(fd);
		return -1;
	}
	if (!safeio_is_own(&st, path, err, errlen)) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

enum td_status
safeio_read_own(const char *path, uint64_t max, char **buf, size_t *len, char *err,
		size_t errlen)
{
	enum td_status st;
	uint64_t size;
	size_t got = 0;
	char *b;
	int fd = safeio_open_own(path, &size, &st, err, errlen);

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return st;
	if (size > max) {
		snprintf(err, errlen, "%s is %llu bytes, more than the %llu tdbg reads", path,
			 (unsigned long long)size, (unsigned long long)max);
		close(fd);
		return TD_ERR_TOO_LARGE;
	}
	b = xmalloc((size_t)size + 1);
	while (got < size) {
		ssize_t r = read(fd, b + got, (size_t)size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(b);
			close(fd);
			return TD_ERR_IO;
		}
		if (r == 0)
			break;              /* shrank while read: what was there */
		got += (size_t)r;
	}
	close(fd);
	b[got] = '\0';
	*buf = b;
	*len = got;
	return TD_OK;
}

/* mkdir -p of path's missing components (mode 0700), after checking that
 * the deepest one that exists is not in avoid: nothing is created inside a
 * dump.  false with err when it is. */
static bool
make_parents(const char *path, const struct safeio_id *avoid, size_t navoid, char *err,
	     size_t errlen)
{
	char *p = xstrdup(path), *slash;
	struct stat st;
	int fd;

	while (stat(p, &st) != 0 && (slash = strrchr(p, '/')) && slash != p)
		*slash = '\0';
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 && safeio_dir_within(fd, avoid, navoid) >= 0) {
		snprintf(err, errlen, "%s is inside the dump: tdbg never writes into a dump", path);
		close(fd);
		free(p);
		return false;
	}
	if (fd >= 0)
		close(fd);
	free(p);
	p = xstrdup(path);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		mkdir(p, 0700);
		*s = '/';
	}
	mkdir(p, 0700);
	free(p);
	return true;
}

int
safeio_own_dir(const char *path, bool create, const struct safeio_id *avoid, size_t navoid,
	       char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (create && !make_parents(path, avoid, navoid, err, errlen))
		return -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		open_error(path, errno, err, errlen);
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!safeio_is_own(&st, path, err, errlen)) {
		close(fd);
		return -1;
	}
	if (safeio_dir_within(fd, avoid, navoid) >= 0) {
		snprintf(err, errlen, "%s is inside the dump: tdbg never writes into a dump", path);
		close(fd);
		return -1;
	}
	return fd;
}

enum td_status
safeio_tmp_open(int dirfd, const char *target, mode_t mode, struct safeio_tmp *t, char *err,
		size_t errlen)
{
	static unsigned counter;
	const char *base = strrchr(target, '/');
	struct timespec ts;

	base = base ? base + 1 : target;
	t->dirfd = dirfd;
	t->fd = -1;
	clock_gettime(CLOCK_REALTIME, &ts);
	for (int tries = 0; tries < 100; tries++) {
		unsigned long r = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^
				  (__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) * 2654435761u);

		/* ".tmp." first: the cache's eviction removes stale ones */
		snprintf(t->name, sizeof t->name, ".tmp.%.24s.tdbg-%08lx", base, r & 0xffffffffUL);
		t->fd = openat(dirfd, t->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			       mode);
		if (t->fd >= 0)
			return TD_OK;
		if (errno != EEXIST)
			break;
	}
	snprintf(err, errlen, "%s: cannot create a temporary file beside it: %s", target,
		 strerror(errno));
	t->name[0] = '\0';
	return TD_ERR_IO;
}

bool
safeio_tmp_write(struct safeio_tmp *t, const void *data, size_t len, char *err, size_t errlen)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(t->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen, "%s: %s", t->name, strerror(n < 0 ? errno : EIO));
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}

void
safeio_tmp_abort(struct safeio_tmp *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->name[0])
		unlinkat(t->dirfd, t->name, 0);
	t->name[0] = '\0';
}

/* renameat without replacing: renameat2's RENAME_NOREPLACE, or a hard
 * link where a file system lacks it. */
static int
rename_noreplace(int dirfd, const char *from, const char *to)
{
	if (renameat2(dirfd, from, dirfd, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (linkat(dirfd, from, dirfd, to, 0) != 0)
		return -1;
	unlinkat(dirfd, from, 0);
	return 0;
}

enum td_status
safeio_tmp_commit(struct safeio_tmp *t, const char *name, bool replace, const char *path,
		  char *err, size_t errlen)
{
	int rc = close(t->fd);

	t->fd = -1;
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		safeio_tmp_abort(t);
		return TD_ERR_IO;
	}
	rc = replace ? renameat(t->dirfd, t->name, t->dirfd, name) : rename_noreplace(t->dirfd, t->name, name);
	if (rc != 0) {
		int e = errno;

		safeio_tmp_abort(t);
		if (e == EEXIST) {
			snprintf(err, errlen, "%s exists (>| at the prompt, or --force, replaces it)", path);
			return TD_ERR_ARGS;
		}
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return TD_ERR_IO;
	}
	t->name[0] = '\0';
	return TD_OK;
}

enum td_status
safeio_write_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
		bool replace, const char *path, char *err, size_t errlen)
{
	struct safeio_tmp t;
	enum td_status st = safeio_tmp_open(dirfd, path, mode, &t, err, errlen);

	if (st != TD_OK)
		return st;
	if (!safeio_tmp_write(&t, data, len, err, errlen)) {
		safeio_tmp_abort(&t);
		return TD_ERR_IO;
	}
	return safeio_tmp_commit(&t, name, replace, path, err, errlen);
}
