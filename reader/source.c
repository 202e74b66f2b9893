/*
 * source.c - file (pread) and byte-array byte sources; see source.h.
 */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct source {
	int fd;                 /* -1 for a byte array */
	unsigned char *bytes;   /* owned copy for a byte array */
	size_t nbytes;
	uint64_t size;          /* last size seen (atomic: read by any thread) */
	char *path;
};

static const char *
kind_name(mode_t mode)
{
	if (S_ISDIR(mode))  return "a directory";
	if (S_ISFIFO(mode)) return "a FIFO";
	if (S_ISSOCK(mode)) return "a socket";
	if (S_ISCHR(mode))  return "a character device";
	if (S_ISBLK(mode))  return "a block device";
	return "a special file";
}

static struct source *
open_failed(int fd, char *why, size_t whylen, const char *fmt, const char *arg)
{
	if (why && whylen)
		snprintf(why, whylen, fmt, arg);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* O_NONBLOCK: opening a FIFO for reading must not wait for a writer; the
 * flag is cleared once fstat() says the file is a regular one. */
struct source *
source_open_file(const char *path, enum td_status *st, char *why, size_t whylen)
{
	struct source *s;
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		*st = errno == ENOENT ? TD_ERR_NOENT : TD_ERR_IO;
		return open_failed(-1, why, whylen, "%s", strerror(errno));
	}
	if (fstat(fd, &sb) != 0) {
		*st = TD_ERR_IO;
		return open_failed(fd, why, whylen, "%s", strerror(errno));
	}
	if (!S_ISREG(sb.st_mode)) {
		*st = TD_ERR_UNSUPPORTED;
		return open_failed(fd, why, whylen, "%s, not a regular file", kind_name(sb.st_mode));
	}
	(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	s = xcalloc(1, sizeof(*s));
	s->fd = fd;
	s->size = sb.st_size > 0 ? (uint64_t)sb.st_size : 0;
	s->path = xstrdup(path);
	*st = TD_OK;
	return s;
}

struct source *
source_from_bytes(const void *data, size_t len)
{
	struct source *s = xcalloc(1, sizeof(*s));

	s->fd = -1;
	s->bytes = xmalloc(len);
	if (len)
		memcpy(s->bytes, data, len);
	s->nbytes = len;
	s->path = xstrdup("<bytes>");
	return s;
}

void
source_close(struct source *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	free(s->bytes);
	free(s->path);
	free(s);
}

uint64_t
source_size(struct source *s)
{
	struct stat st;
	uint64_t size;

	if (s->fd < 0)
		return s->nbytes;
	if (fstat(s->fd, &st) != 0 || st.st_size < 0)
		return 0;
	size = (uint64_t)st.st_size;
	__atomic_store_n(&s->size, size, __ATOMIC_RELAXED);
	return size;
}

uint64_t
source_known_size(const struct source *s)
{
	if (s->fd < 0)
		return s->nbytes;
	return __atomic_load_n(&s->size, __ATOMIC_RELAXED);
}

ssize_t
source_read(struct source *s, uint64_t off, void *buf, size_t len)
{
	size_t done = 0;

	if (s->fd < 0) {
		if (off >= s->nbytes)
			return 0;
		len = TD_MIN(len, s->nbytes - (size_t)off);
		memcpy(buf, s->bytes + off, len);
		return (ssize_t)len;
	}
	while (done < len) {
		ssize_t n = pread(s->fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}


const char *
source_path(const struct source *s)
{
	return s->path;
}
