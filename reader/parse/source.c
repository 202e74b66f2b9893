/*
 * source.c - file (pread) and byte-array byte sources; see source.h.
 */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/fileio.h"

struct source {
	int fd;                 /* -1 for a byte array */
	unsigned char *bytes;   /* owned copy for a byte array */
	size_t nbytes;
	uint64_t size;          /* last size seen (atomic: read by any thread) */
	char *path;
};

/* fileio opens without blocking on a FIFO and refuses anything that is not
 * a regular file. */
struct source *
source_open_file(const char *path, enum td_status *st, char *why, size_t whylen)
{
	char err[512];
	struct source *s;
	uint64_t size;
	int fd = td_open_regular(path, &size, st, err, sizeof err);

	if (fd < 0) {
		if (why && whylen)
			snprintf(why, whylen, "%s", err);
		return NULL;
	}
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	s = xcalloc(1, sizeof(*s));
	s->fd = fd;
	s->size = size;
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

const unsigned char *
source_view(struct source *s, uint64_t off, size_t len, struct source_view *v)
{
	uint64_t start, page = (uint64_t)sysconf(_SC_PAGESIZE);
	void *m;

	v->map = NULL;
	v->maplen = 0;
	if (s->fd < 0)
		return off <= s->nbytes && len <= s->nbytes - off ? s->bytes + off : NULL;
	if (off > source_known_size(s) || len > source_known_size(s) - off || len == 0)
		return NULL;
	start = off - off % page;
	m = mmap(NULL, (size_t)(off - start) + len, PROT_READ, MAP_PRIVATE, s->fd, (off_t)start);
	if (m == MAP_FAILED)
		return NULL;
	v->map = m;
	v->maplen = (size_t)(off - start) + len;
	return (const unsigned char *)m + (off - start);
}

void
source_unview(struct source_view *v)
{
	if (v->map)
		munmap(v->map, v->maplen);
	v->map = NULL;
	v->maplen = 0;
}

const char *
source_path(const struct source *s)
{
	return s->path;
}
