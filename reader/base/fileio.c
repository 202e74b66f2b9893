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
	int fd = td_open_regular_stat(path, &st, status, err, errlen);

	if (fd >= 0 && size)
		*size = (uint64_t)st.st_size;
	return fd;
}

int
td_open_regular_stat(const char *path, struct stat *out, enum td_status *status,
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
	*out = st;
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
	if (size > max) {
		snprintf(err, errlen, "%s: file of %llu bytes is larger than the limit of %llu",
			 path, (unsigned long long)size, (unsigned long long)max);
		close(fd);
		return TD_ERR_TOO_LARGE;
	}
	if (!(p = malloc((size_t)size + 1))) {
		snprintf(err, errlen, "%s: file of %llu bytes is too large for memory", path,
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

/* ---- line by line -------------------------------------------------------- */

#define LINES_READ ((size_t)256 << 10)   /* bytes asked of one read() */

enum td_status
td_lines_open(struct td_lines *l, const char *path, size_t max_line, char *err, size_t errlen)
{
	enum td_status st = TD_OK;
	struct stat sb;

	memset(l, 0, sizeof(*l));
	l->max_line = max_line ? max_line : TD_LINE_MAX;
	l->fd = td_open_regular_stat(path, &sb, &st, err, errlen);
	if (l->fd < 0)
		return st;
	l->size = (uint64_t)sb.st_size;
	l->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	l->cap = l->max_line + 1 + LINES_READ;
	l->buf = xmalloc(l->cap);
	return TD_OK;
}

/* Appends up to the buffer's room at buf[end]; false at end of file or on
 * an error (l->eof / l->error set). */
static bool
lines_fill(struct td_lines *l)
{
	if (l->eof)
		return false;
	for (;;) {
		ssize_t r = pread(l->fd, l->buf + l->end, l->cap - l->end, (off_t)l->off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			l->error = true;
		if (r <= 0) {
			l->eof = true;
			return false;
		}
		l->end += (size_t)r;
		l->off += (uint64_t)r;
		return true;
	}
}

/* A hole of a sparse file reads as zeros, never a "\n": an overlong line
 * goes on to the next data (SEEK_DATA), so a 4 GB sparse file costs what
 * its data costs.  Without SEEK_DATA support the bytes are read. */
static void
lines_past_hole(struct td_lines *l)
{
#ifdef SEEK_DATA
	off_t next = lseek(l->fd, (off_t)l->off, SEEK_DATA);

	if (next >= 0 && (uint64_t)next > l->off)
		l->off = (uint64_t)next;
	else if (next < 0 && errno == ENXIO)
		l->eof = true;        /* only a hole is left */
#endif
}

/* Drops the rest of an overlong line: reads on past the next "\n" or to
 * the end of the file. */
static void
lines_skip(struct td_lines *l)
{
	l->long_lines++;
	for (;;) {
		char *nl = memchr(l->buf + l->start, '\n', l->end - l->start);

		if (nl) {
			l->start = (size_t)(nl - l->buf) + 1;
			return;
		}
		l->start = l->end = 0;
		lines_past_hole(l);
		if (!lines_fill(l))
			return;
	}
}

const char *
td_lines_next(struct td_lines *l, size_t *len)
{
	while (l->fd >= 0) {
		char *s = l->buf + l->start;
		char *nl = memchr(s, '\n', l->end - l->start);

		if (nl || (l->eof && l->start < l->end)) {
			size_t n = nl ? (size_t)(nl - s) : l->end - l->start;

			l->start += n + (nl ? 1 : 0);
			if (n > l->max_line + 1 || (n == l->max_line + 1 && s[n - 1] != '\r')) {
				l->long_lines++;   /* whole overlong last line */
				continue;
			}
			*len = n && s[n - 1] == '\r' ? n - 1 : n;
			l->lines++;
			return s;
		}
		if (l->eof)
			return NULL;
		if (l->end - l->start > l->max_line + 1) {
			lines_skip(l);
			continue;
		}
		memmove(l->buf, s, l->end - l->start);
		l->end -= l->start;
		l->start = 0;
		lines_fill(l);
	}
	return NULL;
}

void
td_lines_close(struct td_lines *l)
{
	if (l->buf)            /* allocated once the file is open */
		close(l->fd);
	free(l->buf);
	l->buf = NULL;
	l->fd = -1;
}
