/*
 * source.c - file (pread) and byte-array byte sources; see source.h.
 *
 * File sources share a bounded pool of descriptors: a dump of a thousand
 * hosts has six thousand files, and keeping each open would run into the
 * process's descriptor limit (1024 by default) long before the end.  The
 * pool keeps the most recently read files open (an LRU list); a read of a
 * closed one reopens it by path and checks that the path still names the
 * same file (device and inode), so a file renamed over is never read under
 * the old one's name.  A read pins its descriptor: eviction never closes a
 * descriptor another thread is reading from.
 *
 * Views map a file's pages.  A page past the end of a file that shrank
 * after it was mapped (a restarted job truncating its traces file) raises
 * SIGBUS when read; the handler here replaces such a page of one of our
 * views with zeros, so the record on it fails its CRC and the next pass
 * sees the shrink, instead of the process dying.  A SIGBUS anywhere else
 * keeps its default action.
 */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/fileio.h"

/* The pool's default share of the descriptor limit, and its bounds. */
#define POOL_SHARE 4
#define POOL_MIN 8
#define POOL_MAX 256

struct source {
	int fd;                 /* -1: a byte array, or a file closed by the pool */
	bool is_file;
	bool retired;           /* source_retire(): reads fail */
	bool replaced;          /* a reopen found another file at the path */
	unsigned pins;          /* reads in progress on fd (pool lock) */
	struct source *prev, *next; /* LRU list of open files, most recent first */
	dev_t dev;              /* identity at open */
	ino_t ino;
	unsigned char *bytes;   /* owned copy for a byte array */
	size_t nbytes;
	uint64_t size;          /* last size seen (atomic: read by any thread) */
	uint64_t serial;        /* source_serial() */
	char *path;
};

static uint64_t next_serial = 1;

static struct {
	pthread_mutex_t lock;
	struct source *head, *tail;
	size_t open, limit;     /* limit 0: not set yet */
	uint64_t reopens;
} pool = { .lock = PTHREAD_MUTEX_INITIALIZER };

static size_t
default_limit(void)
{
	struct rlimit rl;
	uint64_t n = 1024;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		n = (uint64_t)rl.rlim_cur;
	return (size_t)TD_MAX((uint64_t)POOL_MIN, TD_MIN((uint64_t)POOL_MAX, n / POOL_SHARE));
}

static void
lru_unlink(struct source *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		pool.head = s->next;
	if (s->next)
		s->next->prev = s->prev;
	else
		pool.tail = s->prev;
	s->prev = s->next = NULL;
}

static void
lru_push(struct source *s)
{
	s->prev = NULL;
	s->next = pool.head;
	if (pool.head)
		pool.head->prev = s;
	pool.head = s;
	if (!pool.tail)
		pool.tail = s;
}

/* Closes the least recently used unpinned descriptors until want more fit
 * under the limit (pool lock held). */
static void
pool_make_room(size_t want)
{
	struct source *s = pool.tail;

	if (!pool.limit)
		pool.limit = default_limit();
	while (s && pool.open + want > pool.limit) {
		struct source *prev = s->prev;

		if (!s->pins) {
			lru_unlink(s);
			close(s->fd);
			s->fd = -1;
			pool.open--;
		}
		s = prev;
	}
}

static void
pool_add(struct source *s)
{
	pool_make_room(1);
	lru_push(s);
	pool.open++;
}

void
source_set_fd_limit(size_t n)
{
	pthread_mutex_lock(&pool.lock);
	pool.limit = n ? n : default_limit();
	pool_make_room(0);
	pthread_mutex_unlock(&pool.lock);
}

size_t
source_open_fds(void)
{
	size_t n;

	pthread_mutex_lock(&pool.lock);
	n = pool.open;
	pthread_mutex_unlock(&pool.lock);
	return n;
}

/* fileio opens without blocking on a FIFO and refuses anything that is not
 * a regular file. */
struct source *
source_open_file(const char *path, enum td_status *st, char *why, size_t whylen)
{
	char err[512];
	struct source *s;
	struct stat sb;
	uint64_t size;
	int fd;

	pthread_mutex_lock(&pool.lock);
	pool_make_room(1);      /* the descriptor about to be opened counts */
	pthread_mutex_unlock(&pool.lock);
	fd = td_open_regular(path, &size, st, err, sizeof err);
	if (fd < 0) {
		if (why && whylen)
			snprintf(why, whylen, "%s", err);
		return NULL;
	}
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	s = xcalloc(1, sizeof(*s));
	s->serial = __atomic_fetch_add(&next_serial, 1, __ATOMIC_RELAXED);
	s->fd = fd;
	s->is_file = true;
	if (fstat(fd, &sb) == 0) {
		s->dev = sb.st_dev;
		s->ino = sb.st_ino;
	}
	s->size = size;
	s->path = xstrdup(path);
	pthread_mutex_lock(&pool.lock);
	pool_add(s);
	pthread_mutex_unlock(&pool.lock);
	*st = TD_OK;
	return s;
}

struct source *
source_from_bytes(const void *data, size_t len)
{
	struct source *s = xcalloc(1, sizeof(*s));

	s->serial = __atomic_fetch_add(&next_serial, 1, __ATOMIC_RELAXED);
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
	if (s->is_file) {
		pthread_mutex_lock(&pool.lock);
		if (s->fd >= 0) {
			lru_unlink(s);
			close(s->fd);
			pool.open--;
		}
		pthread_mutex_unlock(&pool.lock);
	}
	free(s->bytes);
	free(s->path);
	free(s);
}

/* Reopens a file the pool closed (pool lock held); false when it cannot
 * be opened or the path names another file now (errno ESTALE). */
static bool
reopen(struct source *s)
{
	char err[512];
	enum td_status st;
	struct stat sb;
	int fd;

	pool_make_room(1);
	fd = td_open_regular(s->path, NULL, &st, err, sizeof err);
	if (fd < 0)
		return false;
	if (fstat(fd, &sb) != 0 || sb.st_dev != s->dev || sb.st_ino != s->ino) {
		close(fd);
		s->replaced = true;
		errno = ESTALE;
		return false;
	}
	s->fd = fd;
	lru_push(s);
	pool.open++;
	pool.reopens++;
	return true;
}

/* The file's descriptor, pinned until unpin(); -1 when it cannot be had. */
static int
pin(struct source *s)
{
	int fd = -1;

	pthread_mutex_lock(&pool.lock);
	if (s->retired) {
		errno = ESTALE;
	} else if (s->fd >= 0 || reopen(s)) {
		if (s != pool.head) {
			lru_unlink(s);
			lru_push(s);
		}
		s->pins++;
		fd = s->fd;
	}
	pthread_mutex_unlock(&pool.lock);
	return fd;
}

static void
unpin(struct source *s)
{
	pthread_mutex_lock(&pool.lock);
	s->pins--;
	pthread_mutex_unlock(&pool.lock);
}

/* The descriptor pinned when the pool has it open, else -1 (no reopen). */
static int
pin_if_open(struct source *s)
{
	int fd = -1;

	pthread_mutex_lock(&pool.lock);
	if (!s->retired && s->fd >= 0) {
		s->pins++;
		fd = s->fd;
	}
	pthread_mutex_unlock(&pool.lock);
	return fd;
}

uint64_t
source_size(struct source *s)
{
	struct stat st;
	uint64_t size;
	int fd, rc;

	if (!s->is_file)
		return s->nbytes;
	/* a file the pool closed is stat'ed by path (no reopen: follow mode
	 * asks every file's size each pass) while the path names it */
	if ((fd = pin_if_open(s)) < 0 && stat(s->path, &st) == 0 && st.st_dev == s->dev &&
	    st.st_ino == s->ino) {
		rc = 0;
	} else {
		if (fd < 0 && (fd = pin(s)) < 0)
			return 0;
		rc = fstat(fd, &st);
		unpin(s);
	}
	if (rc != 0 || st.st_size < 0)
		return 0;
	size = (uint64_t)st.st_size;
	__atomic_store_n(&s->size, size, __ATOMIC_RELAXED);
	return size;
}

uint64_t
source_known_size(const struct source *s)
{
	if (!s->is_file)
		return s->nbytes;
	return __atomic_load_n(&s->size, __ATOMIC_RELAXED);
}

uint64_t
source_serial(const struct source *s)
{
	return s->serial;
}

ssize_t
source_read(struct source *s, uint64_t off, void *buf, size_t len)
{
	size_t done = 0;
	int fd;

	if (!s->is_file) {
		if (off >= s->nbytes)
			return 0;
		len = TD_MIN(len, s->nbytes - (size_t)off);
		memcpy(buf, s->bytes + off, len);
		return (ssize_t)len;
	}
	if ((fd = pin(s)) < 0)
		return -1;
	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			unpin(s);
			return -1;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	unpin(s);
	return (ssize_t)done;
}

void
source_prefetch(struct source *s, uint64_t off, uint64_t len)
{
	int fd;

	if (!s->is_file || (fd = pin_if_open(s)) < 0)
		return;
	(void)posix_fadvise(fd, (off_t)off, (off_t)len, POSIX_FADV_WILLNEED);
	unpin(s);
}

enum source_change
source_check(struct source *s, uint64_t *size, int64_t *mtime_ns)
{
	struct stat sb;
	bool replaced;

	if (size)
		*size = source_known_size(s);
	if (mtime_ns)
		*mtime_ns = 0;
	if (!s->is_file)
		return SOURCE_SAME;
	pthread_mutex_lock(&pool.lock);
	replaced = s->replaced;
	pthread_mutex_unlock(&pool.lock);
	if (replaced)
		return SOURCE_REPLACED;
	if (stat(s->path, &sb) != 0)
		return errno == ENOENT ? SOURCE_GONE : SOURCE_SAME;
	if (sb.st_dev != s->dev || sb.st_ino != s->ino)
		return SOURCE_REPLACED;
	if (size && sb.st_size >= 0)
		*size = (uint64_t)sb.st_size;
	if (mtime_ns)
		*mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	return SOURCE_SAME;
}

void
source_retire(struct source *s)
{
	if (!s || !s->is_file)
		return;
	pthread_mutex_lock(&pool.lock);
	s->retired = true;
	if (s->fd >= 0 && !s->pins) {
		lru_unlink(s);
		close(s->fd);
		s->fd = -1;
		pool.open--;
	}
	pthread_mutex_unlock(&pool.lock);
}

/* ---- views, and pages that vanish under them ------------------------------ */

#define VIEW_SLOTS 1024             /* views mapped at once (cursors, threads) */
static _Atomic uintptr_t view_lo[VIEW_SLOTS], view_hi[VIEW_SLOTS];
static _Atomic uint64_t sigbus_pages;
static long page_size;
static pthread_once_t sigbus_once = PTHREAD_ONCE_INIT;

static void
on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr;

	(void)ctx;
	for (size_t i = 0; i < VIEW_SLOTS; i++) {
		uintptr_t lo = atomic_load(&view_lo[i]), hi = atomic_load(&view_hi[i]);
		if (!lo || a < lo || a >= hi)
			continue;
		void *page = (void *)(a & ~(uintptr_t)(page_size - 1));
		if (mmap(page, (size_t)page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
			 0) != MAP_FAILED) {
			atomic_fetch_add(&sigbus_pages, 1);
			return;         /* the read goes on, on zeros */
		}
		break;
	}
	signal(sig, SIG_DFL);           /* not ours: the default action */
	raise(sig);
}

static void
install_sigbus(void)
{
	struct sigaction sa;

	page_size = sysconf(_SC_PAGESIZE);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* Registers [p, p + len) as a view; false when every slot is taken. */
static bool
view_register(void *p, size_t len)
{
	for (size_t i = 0; i < VIEW_SLOTS; i++) {
		uintptr_t zero = 0;
		if (atomic_load(&view_lo[i]))
			continue;
		atomic_store(&view_hi[i], (uintptr_t)p + len);
		if (atomic_compare_exchange_strong(&view_lo[i], &zero, (uintptr_t)p))
			return true;
	}
	return false;
}

static void
view_unregister(void *p)
{
	for (size_t i = 0; i < VIEW_SLOTS; i++)
		if (atomic_load(&view_lo[i]) == (uintptr_t)p) {
			atomic_store(&view_lo[i], 0);
			atomic_store(&view_hi[i], 0);
			return;
		}
}

uint64_t
source_zeroed_pages(void)
{
	return atomic_load(&sigbus_pages);
}

const unsigned char *
source_view(struct source *s, uint64_t off, size_t len, struct source_view *v)
{
	uint64_t start, page;
	void *m;
	int fd;

	v->map = NULL;
	v->maplen = 0;
	if (!s->is_file)
		return off <= s->nbytes && len <= s->nbytes - off ? s->bytes + off : NULL;
	if (off > source_known_size(s) || len > source_known_size(s) - off || len == 0)
		return NULL;
	pthread_once(&sigbus_once, install_sigbus);
	page = (uint64_t)page_size;
	if ((fd = pin(s)) < 0)          /* the pool may have closed it: reopen */
		return NULL;
	start = off - off % page;
	m = mmap(NULL, (size_t)(off - start) + len, PROT_READ, MAP_PRIVATE, fd, (off_t)start);
	unpin(s);                       /* the mapping outlives the descriptor */
	if (m == MAP_FAILED)
		return NULL;
	if (!view_register(m, (size_t)(off - start) + len)) {
		munmap(m, (size_t)(off - start) + len);
		return NULL;            /* the caller reads with pread instead */
	}
	v->map = m;
	v->maplen = (size_t)(off - start) + len;
	return (const unsigned char *)m + (off - start);
}

void
source_unview(struct source_view *v)
{
	if (v->map) {
		view_unregister(v->map);
		munmap(v->map, v->maplen);
	}
	v->map = NULL;
	v->maplen = 0;
}

