/*
 * fileio.c - read-only, non-blocking, regular-files-only file access.
 */
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *
td_file_kind_name(mode_t mode)
{
	if (S_ISDIR(mode))  return "a directory";
	if (S_ISFIFO(mode)) return "a FIFO";
	if (S_ISSOCK(mode)) return "a socket";
	if (S_ISCHR(mode))  return "a character device";
	if (S_ISBLK(mode))  return "a block device";
	return "a special file";
}

int
td_open_regular(const char *path, uint64_t *size, enum td_status *status,
		char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);

	if (fd < 0) {
		if (status)
			*status = errno == ENOENT ? TD_ERR_NOENT : TD_ERR_IO;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		if (status)
			*status = TD_ERR_IO;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		if (status)
			*status = TD_ERR_IO;
		snprintf(err, errlen, "%s: %s, not a regular file", path, td_file_kind_name(st.st_mode));
		close(fd);
		return -1;
	}
	/* O_NONBLOCK stays: it changes nothing for a regular file (reads of
	 * file data never return EAGAIN), and clearing it cost two system
	 * calls per file, which a dump of a million files on a network file
	 * system pays in round trips (issue 18). */
	if (size)
		*size = (uint64_t)st.st_size;
	return fd;
}

bool
td_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

enum td_status
td_read_file(const char *path, uint64_t max, char **buf, size_t *len, char *err, size_t errlen)
{
	enum td_status st = TD_OK;
	uint64_t size;
	size_t got = 0;
	char *p;
	int fd = td_open_regular(path, &size, &st, err, errlen);

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return st;
	if (size > max || !(p = malloc((size_t)size + 1))) {
		snprintf(err, errlen, "%s: file of %llu bytes is too large", path,
			 (unsigned long long)size);
		close(fd);
		return TD_ERR_NOMEM;
	}
	while (got < size) {
		ssize_t r = pread(fd, p + got, (size_t)size - got, (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			free(p);
			close(fd);
			return TD_ERR_IO;
		}
		if (r == 0)
			break;   /* the file shrank: keep what was there */
		got += (size_t)r;
	}
	close(fd);
	p[got] = '\0';
	*buf = p;
	*len = got;
	return TD_OK;
}
