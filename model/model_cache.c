/*
 * model_cache.c - the persistent index (issue 18): the model's tables and
 * the reader's resume state saved after an index pass, and read back when
 * the same dump is opened again, so a dump indexed once opens at once.
 *
 * Where: one file per dump in $XDG_CACHE_HOME/tdbg/ (~/.cache/tdbg/
 * without it), never in the dump.  Its name is a hash of the dump's key
 * (real path, format, the options that change the index); the key is
 * stored inside and compared.  When: loaded in model_open before the
 * index thread starts; saved by the index thread after a pass that
 * changed the tables (at most every SAVE_EVERY seconds in follow mode),
 * written to a temporary file and renamed, so a reader never sees half a
 * file.  Trust: the header names the cache format, tdbg's version, the
 * byte order and word sizes; a checksum covers the payload; each dump file
 * the index read has a fingerprint (reader/base/fingerprint.h) that must
 * match (the file unchanged) or show the file grown (the resumed index
 * pass then reads only what was appended).  Anything else ignores the
 * file and indexes from scratch; the next save replaces it.  Size: after a
 * save, the least recently used files (modification time, touched on
 * every use) are removed until the directory holds at most cache_max
 * bytes.  Failures (no home, a read-only cache directory, a full disk)
 * mean no cache, silently: the dump still opens.
 * Not here: the sections' contents (model_cache_tables.c, _ops.c, _rows.c).
 */
#include "model_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reader/base/fingerprint.h"

#define MC_MAGIC "TDBGIDX"
#define MC_FORMAT 5u                /* 3: full trace chunks in place; 4: mc_sum; 5: op details */
#define MC_BOM 0x01020304u
#define MC_SUFFIX ".tdx"
#define MC_DEFAULT_MAX ((uint64_t)1 << 30)
#define SAVE_EVERY 30.0             /* seconds between saves of a live dump */
#define STALE_TMP_SECONDS 600       /* a temporary file older than this was abandoned */

struct mc_header {
	char magic[8];
	uint32_t format;            /* MC_FORMAT */
	uint32_t bom;               /* MC_BOM in the writer's byte order */
	uint8_t ptr_size, size_size, long_size, double_size;
	uint32_t payload_sum;       /* mc_sum() of the payload, folded to 32 bits */
	uint64_t payload_len;
	char version[32];           /* TDBG_VERSION */
};
_Static_assert(sizeof(struct mc_header) == MC_HEADER_BYTES, "the header is 64 bytes");

struct model_cache {
	char *dir;                  /* NULL: no cache directory */
	char *path;                 /* this dump's cache file */
	char *key;
	enum model_cache_state state;
	char why[200];
	uint64_t loaded_traces, loaded_execs, loaded_gen;
	bool grown;                 /* a fingerprint showed appended bytes */
	uint64_t saved_gen;
	double saved_at;
	bool saved;
	void *map;                  /* the loaded file, when rows use it in place */
	size_t map_len;
};

/* ---- the checksum --------------------------------------------------------- */

/* The payload's checksum: a multiply-rotate hash (xxhash64's round) over
 * 64 KiB blocks, each block's result seeding the next; mc_flush() hashes
 * the writer's buffer, which is always a whole block but for the last.
 * Four lanes keep it near memory speed (64 MB in about 10 ms). */
#define SUM_BLOCK (sizeof(((struct mc_out *)0)->buf))
#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL

static uint64_t
rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static uint64_t
round64(uint64_t acc, uint64_t v)
{
	return rotl(acc + v * P2, 31) * P1;
}

static uint64_t
sum_block(const unsigned char *p, size_t n, uint64_t seed)
{
	uint64_t a = seed + P1, b = seed ^ P2, c = seed, d = seed - P1, v;
	size_t i = 0;

	for (; i + 32 <= n; i += 32) {
		memcpy(&v, p + i, 8);
		a = round64(a, v);
		memcpy(&v, p + i + 8, 8);
		b = round64(b, v);
		memcpy(&v, p + i + 16, 8);
		c = round64(c, v);
		memcpy(&v, p + i + 24, 8);
		d = round64(d, v);
	}
	a = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18) + n;
	for (; i < n; i++)
		a = rotl(a ^ (p[i] * P1), 11) * P2;
	return a ^ (a >> 29);
}

/* The checksum of a whole payload, as the writer computed it. */
static uint32_t
mc_sum(const unsigned char *p, size_t n)
{
	uint64_t h = 0;
	size_t off;

	for (off = 0; off < n; off += SUM_BLOCK)
		h = sum_block(p + off, TD_MIN(n - off, SUM_BLOCK), h);
	return (uint32_t)(h ^ (h >> 32));
}

/* ---- the writer ---------------------------------------------------------- */

void
mc_flush(struct mc_out *o)
{
	size_t off = 0;

	if (o->blen)
		o->sum = sum_block(o->buf, o->blen, o->sum);
	while (!o->err && off < o->blen) {
		ssize_t n = write(o->fd, o->buf + off, o->blen - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			o->err = true;
		else
			off += (size_t)n;
	}
	o->blen = 0;
}

void
mc_write(struct mc_out *o, const void *p, size_t n)
{
	const unsigned char *b = p;

	if (!n)
		return;
	o->len += n;
	while (n && !o->err) {
		size_t k = TD_MIN(n, sizeof o->buf - o->blen);

		memcpy(o->buf + o->blen, b, k);
		o->blen += k;
		b += k;
		n -= k;
		if (o->blen == sizeof o->buf)
			mc_flush(o);
	}
}

void
mc_section_head(struct mc_out *o, enum mc_tag tag, uint64_t len)
{
	uint32_t t = (uint32_t)tag;

	mc_write(o, &t, sizeof t);
	mc_write(o, &len, sizeof len);
}

void
mc_section(struct mc_out *o, enum mc_tag tag, const struct strbuf *sb)
{
	mc_section_head(o, tag, sb->len);
	mc_write(o, sb->buf, sb->len);
}

bool
mc_section_in(struct ser_in *in, enum mc_tag tag, struct ser_in *sec)
{
	uint32_t t = ser_get_u32(in);
	uint64_t len = ser_get_u64(in);
	const void *p;

	if (in->bad || t != (uint32_t)tag || len > in->n - in->off) {
		in->bad = true;
		return false;
	}
	p = ser_get_bytes(in, (size_t)len);
	ser_in_init(sec, p, (size_t)len);
	return p != NULL || len == 0;
}

/* ---- where ------------------------------------------------------------------ */

static uint64_t
fnv64(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* mkdir -p of path (mode 0700); true when it is a directory now. */
static bool
make_dirs(char *path)
{
	struct stat st;
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) != 0 && errno != EEXIST) {
			*p = '/';
			return false;
		}
		*p = '/';
	}
	if (mkdir(path, 0700) != 0 && errno != EEXIST)
		return false;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The cache directory (malloc'd), or NULL when there is none. */
static char *
cache_dir(const struct model_options *opt)
{
	char dir[4096];

	if (opt->cache_dir)
		return xstrdup(opt->cache_dir);
	return td_xdg_dir("XDG_CACHE_HOME", ".cache", dir, sizeof dir) ? xstrdup(dir) : NULL;
}

/* TDBG_CACHE_MAX: bytes, with an optional K, M or G. */
static uint64_t
cache_max(const struct model_options *opt)
{
	const char *env = getenv("TDBG_CACHE_MAX");
	char *end;
	unsigned long long v;

	if (opt->cache_max)
		return opt->cache_max;
	if (!env || !*env)
		return MC_DEFAULT_MAX;
	v = strtoull(env, &end, 10);
	if (end == env)
		return MC_DEFAULT_MAX;
	switch (*end) {
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	default: break;
	}
	return v;
}

static void
cache_why(struct model_cache *c, enum model_cache_state st, const char *fmt, const char *arg)
{
	c->state = st;
	snprintf(c->why, sizeof c->why, fmt, arg ? arg : "");
}

bool
model_cache_init(struct model *m)
{
	struct model_cache *c;
	char *real;

	if (!m->opt.cache || !m->ops->save_state || !m->ops->load_state)
		return false;
	c = m->icache = xcalloc(1, sizeof(*c));
	c->state = MODEL_CACHE_NEW;
	c->saved_gen = UINT64_MAX;
	real = realpath(m->path, NULL);
	c->key = xasprintf("%s\n%s\n%d\n%s", real ? real : m->path, m->ops->name, m->opt.strict,
			   m->opt.source_root ? m->opt.source_root : "");
	free(real);
	c->dir = cache_dir(&m->opt);
	if (!c->dir) {
		cache_why(c, MODEL_CACHE_UNAVAILABLE, "no cache directory (HOME and XDG_CACHE_HOME unset)%s", NULL);
		return false;
	}
	c->path = xasprintf("%s/%016llx%s", c->dir, (unsigned long long)fnv64(c->key), MC_SUFFIX);
	return true;
}

void
model_cache_broken(struct model *m, const char *why)
{
	cache_why(m->icache, MODEL_CACHE_REBUILT, "%s", why);
}

bool
model_cache_owns(const struct model *m, const void *p)
{
	const struct model_cache *c = m->icache;

	return c && c->map && (const char *)p >= (const char *)c->map &&
	       (const char *)p < (const char *)c->map + c->map_len;
}

void
model_cache_free(struct model *m)
{
	if (!m->icache)
		return;
	if (m->icache->map)
		munmap(m->icache->map, m->icache->map_len);
	free(m->icache->dir);
	free(m->icache->path);
	free(m->icache->key);
	free(m->icache);
	m->icache = NULL;
}

/* ---- header ------------------------------------------------------------------ */

static void
header_make(struct mc_header *h, uint64_t len, uint32_t sum)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, MC_MAGIC, sizeof MC_MAGIC);
	h->format = MC_FORMAT;
	h->bom = MC_BOM;
	h->ptr_size = sizeof(void *);
	h->size_size = sizeof(size_t);
	h->long_size = sizeof(long);
	h->double_size = sizeof(double);
	h->payload_sum = sum;
	h->payload_len = len;
	snprintf(h->version, sizeof h->version, "%s", TDBG_VERSION);
}

/* NULL when h describes a file this build can read, else why not. */
static const char *
header_check(const struct mc_header *h, size_t file_len, bool check_sum)
{
	struct mc_header mine;

	header_make(&mine, 0, 0);
	if (file_len < sizeof(*h) || memcmp(h->magic, MC_MAGIC, sizeof MC_MAGIC) != 0)
		return "corrupt cache file (no header)";
	if (h->bom != MC_BOM || h->ptr_size != mine.ptr_size || h->size_size != mine.size_size ||
	    h->long_size != mine.long_size || h->double_size != mine.double_size)
		return "cache file of another architecture";
	if (h->format != MC_FORMAT || memcmp(h->version, mine.version, sizeof h->version) != 0)
		return "cache file of another tdbg version";
	if (h->payload_len != file_len - sizeof(*h))
		return "corrupt cache file (length)";
	if (check_sum &&
	    mc_sum((const unsigned char *)h + sizeof(*h), (size_t)h->payload_len) != h->payload_sum)
		return "corrupt cache file (checksum)";
	return NULL;
}

/* ---- the DUMP section: key and fingerprints ------------------------------------ */

/* The fingerprints of the model's files; false when one cannot be taken
 * (a file vanished: nothing worth saving). */
static bool
put_dump(struct model *m, struct strbuf *sb)
{
	size_t i, n;
	bool ok = true;

	ser_put_str(sb, m->icache->key);
	pthread_mutex_lock(&m->lock);
	n = m->nfiles;
	ser_put_u64(sb, n);
	for (i = 0; i < n && ok; i++) {
		struct fingerprint fp;

		ok = fingerprint_take(m->files[i].path, &fp) == TD_OK;
		ser_put_str(sb, m->files[i].path);
		ser_put_u64(sb, fp.size);
		ser_put_u64(sb, (uint64_t)fp.mtime_ns);
		ser_put_u64(sb, fp.ino);
		ser_put_u64(sb, fp.head);
		ser_put_u64(sb, fp.tail);
	}
	pthread_mutex_unlock(&m->lock);
	return ok;
}

/* Whether the dump is still the one saved: NULL if so (grown noted),
 * else why not. */
static const char *
check_dump(struct model_cache *c, struct ser_in *s, bool check_files, const char **file)
{
	const char *key = ser_get_str(s);
	uint64_t n = ser_get_count(s, 45), i;

	if (!key || strcmp(key, c->key) != 0)
		return "cache file of another dump";
	for (i = 0; i < n && !s->bad; i++) {
		const char *path = ser_get_str(s);
		struct fingerprint fp;

		fp.size = ser_get_u64(s);
		fp.mtime_ns = ser_get_i64(s);
		fp.ino = ser_get_u64(s);
		fp.head = ser_get_u64(s);
		fp.tail = ser_get_u64(s);
		if (!path || s->bad)
			break;
		if (!check_files)
			continue;
		switch (fingerprint_match(path, &fp)) {
		case FP_SAME:
			break;
		case FP_GROWN:
			c->grown = true;
			break;
		case FP_CHANGED:
			*file = path;
			return "the dump changed since it was indexed (%s)";
		}
	}
	return ser_in_done(s) ? NULL : "corrupt cache file (dump section)";
}

/* ---- saving ------------------------------------------------------------------- */

/* Removes the least recently used cache files until the directory holds
 * at most max bytes, and temporary files abandoned long ago. */
static void
evict(const char *dir, uint64_t max)
{
	struct ent { char *path; uint64_t size; int64_t used; } *v = NULL;  /* used: mtime, ns */
	size_t n = 0, cap = 0, i, j;
	uint64_t total = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	time_t now = time(NULL);

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		struct stat st;
		char *p;

		if (e->d_name[0] == '.' && strncmp(e->d_name, ".tmp.", 5) != 0)
			continue;
		if (len <= strlen(MC_SUFFIX) ||
		    (e->d_name[0] != '.' && strcmp(e->d_name + len - strlen(MC_SUFFIX), MC_SUFFIX)))
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(p);
		} else if (e->d_name[0] == '.') {
			if (now - st.st_mtime > STALE_TMP_SECONDS)
				unlink(p);
			free(p);
		} else {
			TD_GROW(v, cap, n + 1);
			/* nanoseconds: files used within one second keep their order */
			v[n++] = (struct ent){p, (uint64_t)st.st_size,
					      (int64_t)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec};
			total += (uint64_t)st.st_size;
		}
	}
	closedir(d);
	while (total > max && n) {
		for (i = 1, j = 0; i < n; i++)
			if (v[i].used < v[j].used)
				j = i;
		unlink(v[j].path);
		total -= v[j].size;
		free(v[j].path);
		v[j] = v[--n];
	}
	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

/* Writes the payload after the header; false on a write error or when a
 * fingerprint could not be taken. */
static bool
write_payload(struct model *m, struct mc_out *o)
{
	struct strbuf sb = {0};
	bool ok = put_dump(m, &sb);

	mc_section(o, MC_DUMP, &sb);
	strbuf_reset(&sb);
	m->ops->save_state(m->r, &sb);
	mc_section(o, MC_READER, &sb);
	strbuf_done(&sb);
	pthread_mutex_lock(&m->lock);
	mc_put_counts(m, o);
	mc_put_tables(m, o);
	pthread_mutex_unlock(&m->lock);
	mc_put_rows(m, o);
	mc_flush(o);
	return ok && !o->err;
}

static bool
save_file(struct model *m, const char *tmp)
{
	struct mc_out *o = xcalloc(1, sizeof(*o));
	struct mc_header h;
	bool ok;

	o->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (o->fd < 0) {
		free(o);
		return false;
	}
	header_make(&h, 0, 0);
	ok = lseek(o->fd, sizeof h, SEEK_SET) == (off_t)sizeof h && write_payload(m, o);
	header_make(&h, o->len, (uint32_t)(o->sum ^ (o->sum >> 32)));
	ok = ok && pwrite(o->fd, &h, sizeof h, 0) == (ssize_t)sizeof h;
	ok = close(o->fd) == 0 && ok;
	free(o);
	return ok;
}

void
model_cache_save(struct model *m)
{
	struct model_cache *c = m->icache;
	uint64_t gen = atomic_load(&m->generation);
	char *tmp;

	if (!c || !c->path || atomic_load(&m->stopping) || gen == c->saved_gen ||
	    (c->saved && td_now() - c->saved_at < SAVE_EVERY))
		return;
	{
		char *dir = xstrdup(c->dir);
		bool have = make_dirs(dir);

		free(dir);
		if (!have) {
			cache_why(c, MODEL_CACHE_UNAVAILABLE, "cannot create the cache directory %s",
				  c->dir);
			return;
		}
	}
	tmp = xasprintf("%s/.tmp.%016llx.%ld%s", c->dir, (unsigned long long)fnv64(c->key),
			(long)getpid(), MC_SUFFIX);
	if (save_file(m, tmp) && rename(tmp, c->path) == 0) {
		c->saved = true;
		c->saved_gen = gen;
		c->saved_at = td_now();
		evict(c->dir, cache_max(&m->opt));
	} else {
		unlink(tmp);
	}
	free(tmp);
}

/* ---- loading ------------------------------------------------------------------ */

/* Applies a payload to m (fresh, not indexed).  MC_LOAD_MISS: m untouched
 * (c->why says why); MC_LOAD_BROKEN: m was changed and must be thrown
 * away. */
static enum mc_load
apply_payload(struct model *m, const void *p, size_t n, bool check_files, bool in_place)
{
	struct model_cache *c = m->icache;
	struct ser_in in, s, rs;
	struct mc_counts counts;
	const char *why, *file = NULL;

	ser_in_init(&in, p, n);
	if (!mc_section_in(&in, MC_DUMP, &s)) {
		cache_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (dump section)%s", NULL);
		return MC_LOAD_MISS;
	}
	why = check_dump(c, &s, check_files, &file);
	if (why) {
		cache_why(c, MODEL_CACHE_REBUILT, why, file);
		return MC_LOAD_MISS;
	}
	if (!mc_section_in(&in, MC_READER, &rs) || !mc_get_counts(&in, &counts)) {
		cache_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (counts)%s", NULL);
		return MC_LOAD_MISS;
	}
	cache_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (tables)%s", NULL);
	if (!mc_get_tables(m, &in, &counts) || !mc_get_rows(m, &in, &counts, in_place) || !ser_in_done(&in))
		return MC_LOAD_BROKEN;
	cache_why(c, MODEL_CACHE_REBUILT, "the reader could not resume from the cached state%s", NULL);
	if (!m->ops->load_state(m->r, rs.p, rs.n))
		return MC_LOAD_BROKEN;
	c->state = MODEL_CACHE_USED;
	c->why[0] = '\0';
	c->loaded_traces = counts.traces;
	c->loaded_execs = counts.execs;
	model_bump(m);
	c->loaded_gen = c->saved_gen = atomic_load(&m->generation);
	return MC_LOAD_OK;
}

enum mc_load
model_cache_load(struct model *m)
{
	struct model_cache *c = m->icache;
	struct stat st;
	const char *why;
	enum mc_load res;
	void *map;
	int fd;

	if (!c || !c->path)
		return MC_LOAD_MISS;
	fd = open(c->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return MC_LOAD_MISS;    /* never saved (or evicted): state stays "new" */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct mc_header)) {
		close(fd);
		cache_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (no header)%s", NULL);
		return MC_LOAD_MISS;
	}
	/* private and writable: trace chunks are used in place (their
	 * non-finite counts are rewritten, later rows appended) */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return MC_LOAD_MISS;
	/* writable only now: populating a writable private mapping copies
	 * every page; this way only the pages written are copied */
	if (mprotect(map, (size_t)st.st_size, PROT_READ | PROT_WRITE) != 0) {
		munmap(map, (size_t)st.st_size);
		return MC_LOAD_MISS;
	}
	c->map = map;
	c->map_len = (size_t)st.st_size;
	why = header_check(map, (size_t)st.st_size, true);
	if (why) {
		cache_why(c, MODEL_CACHE_REBUILT, "%s", why);
		res = MC_LOAD_MISS;
	} else {
		res = apply_payload(m, (const char *)map + MC_HEADER_BYTES,
				    (size_t)st.st_size - MC_HEADER_BYTES, true, true);
	}
	if (res == MC_LOAD_MISS) {      /* nothing points into it */
		munmap(map, (size_t)st.st_size);
		c->map = NULL;
	}
	if (res == MC_LOAD_OK)
		utimensat(AT_FDCWD, c->path, NULL, 0);  /* used now (least recently used order) */
	return res;
}

enum mc_load
model_cache_apply(struct model *m, const void *data, size_t len)
{
	struct model_cache *c = m->icache;
	const char *why;

	if (!c) {
		c = m->icache = xcalloc(1, sizeof(*c));
		c->saved_gen = UINT64_MAX;
	}
	why = header_check(data, len, false);
	if (why) {
		cache_why(c, MODEL_CACHE_REBUILT, "%s", why);
		return MC_LOAD_MISS;
	}
	if (!c->key) {
		/* no key of our own: take the file's (checked by the fuzzer only) */
		struct ser_in in, s;

		ser_in_init(&in, (const char *)data + sizeof(struct mc_header), len - sizeof(struct mc_header));
		if (!mc_section_in(&in, MC_DUMP, &s) || !ser_get_str(&s))
			return MC_LOAD_MISS;
		ser_in_init(&s, s.p, s.n);
		c->key = xstrdup(ser_get_str(&s));
	}
	return apply_payload(m, (const char *)data + sizeof(struct mc_header),
			     len - sizeof(struct mc_header), false, false);
}

void
model_cache_note_pass(struct model *m)
{
	struct model_cache *c = m->icache;

	if (c && c->state == MODEL_CACHE_USED &&
	    (rows_ntraces(m) != c->loaded_traces || rows_nexecs(m) != c->loaded_execs ||
	     atomic_load(&m->generation) != c->loaded_gen))
		c->state = MODEL_CACHE_EXTENDED;
}

void
model_cache_get(struct model *m, const char **state, const char **why)
{
	static const char *const names[] = {
		[MODEL_CACHE_OFF] = "off", [MODEL_CACHE_UNAVAILABLE] = "unavailable",
		[MODEL_CACHE_NEW] = "new", [MODEL_CACHE_USED] = "used",
		[MODEL_CACHE_EXTENDED] = "extended", [MODEL_CACHE_REBUILT] = "rebuilt",
	};
	struct model_cache *c = m->icache;
	enum model_cache_state st = c ? c->state : MODEL_CACHE_OFF;

	*state = names[st];
	*why = c ? c->why : "";
}

const char *
model_cache_file(struct model *m)
{
	return m->icache && m->icache->state != MODEL_CACHE_UNAVAILABLE ? m->icache->path : NULL;
}
