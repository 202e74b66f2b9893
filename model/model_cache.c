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
 * file and indexes from scratch; the next save replaces it.  Size
 * (model_cache_dir.c): before a save (room for it) and after it, the
 * least recently used files (modification time, touched on every use)
 * are removed until the directory holds at most cache_max bytes; a full
 * disk removes the others and tries once more.  Failures (no home, a
 * read-only cache directory, a full disk) mean no cache, with the reason
 * in the state's why: the dump still opens.
 * Not here: the sections' contents (model_cache_tables.c, _ops.c, _rows.c).
 */
#include "model_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/fingerprint.h"

#define MC_MAGIC "TDBGIDX"
#define MC_STALE_MAGIC "TDBGSTL"    /* written over the magic of a file found stale */
#define MC_FORMAT 6u                /* 3: full trace chunks in place; 4: mc_sum; 5: op details;
				     * 6: the layout fingerprint */
#define MC_BOM 0x01020304u
#define SAVE_EVERY 30.0             /* seconds between saves of a live dump */

struct mc_header {
	char magic[8];
	uint32_t format;            /* MC_FORMAT */
	uint32_t bom;               /* MC_BOM in the writer's byte order */
	uint8_t ptr_size, size_size, long_size, double_size;
	uint32_t payload_sum;       /* mc_sum() of the payload, folded to 32 bits */
	uint64_t payload_len;
	uint64_t layout;            /* MC_LAYOUT */
	char version[24];           /* TDBG_VERSION (cut to 23 bytes) */
};
_Static_assert(sizeof(struct mc_header) == MC_HEADER_BYTES, "the header is 64 bytes");

/* The layout fingerprint (issue 21): the sizes and offsets of every
 * struct the file holds as raw bytes (the header, trace chunks, locator
 * checkpoints, the run lists read as pairs), the constants that shape
 * them and the flag bits stored in rows, folded into one number at
 * compile time.  A change to any of them gives files of another layout,
 * refused for that reason, without anyone bumping MC_FORMAT (which stays
 * for changes of the sections' serial contents). */
#define MC_FOLD(h, v) (((h) ^ (uint64_t)(v)) * 0x100000001b3ULL)
#define MC_LAYOUT_CHUNK(h)                                                            \
	MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(h, sizeof(struct trace_chunk)), \
	offsetof(struct trace_chunk, op)), offsetof(struct trace_chunk, flags)),        \
	offsetof(struct trace_chunk, nfblock)), MODEL_CHUNK), NF_BLOCK_SHIFT)
#define MC_LAYOUT_CKPT(h)                                                             \
	MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(h, sizeof(struct ckpt)),         \
	offsetof(struct ckpt, row)), offsetof(struct ckpt, offset)),                    \
	offsetof(struct ckpt, file)), CKPT_CHUNK), CKPT_EVERY)
#define MC_LAYOUT_RUNS(h)                                                             \
	MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(h, sizeof(struct run)),          \
	offsetof(struct run, execution)), sizeof(struct step_run)),                     \
	offsetof(struct step_run, step)), MC_BOM), 0)
#define MC_LAYOUT_HEADER(h)                                                           \
	MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(h, sizeof(struct mc_header)),                    \
	offsetof(struct mc_header, payload_len)), offsetof(struct mc_header, layout)),  \
	offsetof(struct mc_header, version))
#define MC_LAYOUT_FLAGS(h)                                                            \
	MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(MC_FOLD(h, TF_NONFINITE), TF_INPUT), TF_CORRUPT), \
	TF_SLOT_SHIFT), TF_REPEAT)
#define MC_LAYOUT MC_LAYOUT_FLAGS(MC_LAYOUT_HEADER(MC_LAYOUT_RUNS(MC_LAYOUT_CKPT(         \
	MC_LAYOUT_CHUNK(0xcbf29ce484222325ULL)))))
_Static_assert(MC_LAYOUT != 0, "the layout fingerprint is a constant expression");

struct model_cache {
	char *dir;                  /* NULL: no cache directory */
	char *path;                 /* this dump's cache file */
	char *key;
	enum model_cache_state state;
	char why[200];
	uint64_t loaded_traces, loaded_execs, loaded_gen;
	bool grown;                 /* a fingerprint showed appended bytes */
	char **grown_paths;         /* those files (this open's paths) */
	size_t ngrown, capgrown;
	uint64_t saved_gen;
	double saved_at;
	bool saved;
	uint64_t max;               /* bytes the directory may hold */
	uint64_t loaded_ino;        /* the file the index was loaded from */
	atomic_bool stale_claimed;  /* a decode contradicted the loaded index ... */
	atomic_bool stale;          /* ... and stale_why is written */
	char stale_why[200];
	void *map;                  /* the loaded file's bytes, when rows use them in place */
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
		if (n <= 0) {
			o->err = true;
			o->errnum = n < 0 ? errno : ENOSPC;
		}
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
	if (!mc_cache_max(&m->opt, &c->max, c->why, sizeof c->why)) {
		c->state = MODEL_CACHE_UNAVAILABLE;
		return false;
	}
	c->dir = mc_cache_dir(&m->opt);
	if (!c->dir) {
		cache_why(c, MODEL_CACHE_UNAVAILABLE, "no cache directory (HOME and XDG_CACHE_HOME unset)%s", NULL);
		return false;
	}
	c->path = xasprintf("%s/%016llx%s", c->dir, (unsigned long long)mc_key_hash(c->key), MC_SUFFIX);
	return true;
}

void
mc_refuse(struct model *m, const char *what)
{
	cache_why(m->icache, MODEL_CACHE_REBUILT, "corrupt cache file (%s)", what);
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
	free(m->icache->map);
	for (size_t i = 0; i < m->icache->ngrown; i++)
		free(m->icache->grown_paths[i]);
	free(m->icache->grown_paths);
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
	h->layout = MC_LAYOUT;
	snprintf(h->version, sizeof h->version, "%s", TDBG_VERSION);
}

/* NULL when h describes a file this build can read, else why not. */
static const char *
header_check(const struct mc_header *h, size_t file_len, bool check_sum)
{
	struct mc_header mine;

	header_make(&mine, 0, 0);
	if (file_len >= sizeof(*h) && memcmp(h->magic, MC_STALE_MAGIC, sizeof MC_STALE_MAGIC) == 0)
		return "the cached index was found stale (a decoded row contradicted it)";
	if (file_len < sizeof(*h) || memcmp(h->magic, MC_MAGIC, sizeof MC_MAGIC) != 0)
		return "corrupt cache file (no header)";
	if (h->bom != MC_BOM || h->ptr_size != mine.ptr_size || h->size_size != mine.size_size ||
	    h->long_size != mine.long_size || h->double_size != mine.double_size)
		return "cache file of another architecture";
	if (h->format != MC_FORMAT || memcmp(h->version, mine.version, sizeof h->version) != 0)
		return "cache file of another tdbg version";
	if (h->layout != MC_LAYOUT)
		return "cache file of another layout (a record struct changed)";
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
		mc_put_path(sb, m, m->files[i].path);
		ser_put_u64(sb, fp.size);
		ser_put_u64(sb, (uint64_t)fp.mtime_ns);
		ser_put_u64(sb, fp.ino);
		ser_put_u64(sb, fp.head);
		ser_put_u64(sb, fp.tail);
		ser_put_u64(sb, fp.mid);
	}
	pthread_mutex_unlock(&m->lock);
	return ok;
}

/* Whether the dump is still the one saved: true if so (grown noted),
 * else false with the state "rebuilt" and why.  The files' paths are
 * read under this open's path of the dump (mc_get_path). */
static bool
check_dump(struct model *m, struct ser_in *s, bool check_files)
{
	struct model_cache *c = m->icache;
	const char *key = ser_get_str(s);
	uint64_t n = ser_get_count(s, 53), i;   /* a path, six u64 */
	struct strbuf buf = {0};
	bool same = true;

	if (!key || strcmp(key, c->key) != 0) {
		cache_why(c, MODEL_CACHE_REBUILT, "cache file of another dump%s", NULL);
		return false;
	}
	for (i = 0; i < n && !s->bad && same; i++) {
		const char *path = mc_get_path(s, m, &buf);
		struct fingerprint fp;

		fp.size = ser_get_u64(s);
		fp.mtime_ns = ser_get_i64(s);
		fp.ino = ser_get_u64(s);
		fp.head = ser_get_u64(s);
		fp.tail = ser_get_u64(s);
		fp.mid = ser_get_u64(s);
		if (!path || s->bad)
			break;
		if (!check_files)
			continue;
		switch (fingerprint_match(path, &fp)) {
		case FP_SAME:
			break;
		case FP_GROWN:
			c->grown = true;
			TD_GROW(c->grown_paths, c->capgrown, c->ngrown + 1);
			c->grown_paths[c->ngrown++] = xstrdup(path);
			break;
		case FP_CHANGED:
			cache_why(c, MODEL_CACHE_REBUILT, "the dump changed since it was indexed (%s)",
				  path);
			same = false;
			break;
		}
	}
	strbuf_done(&buf);
	if (same && !ser_in_done(s)) {
		cache_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (dump section)%s", NULL);
		same = false;
	}
	return same;
}

/* The host string id of the file with reader id id; false if none. */
static bool
file_host(struct model *m, uint32_t id, uint32_t *host)
{
	for (size_t i = 0; i < m->nfiles; i++)
		if (m->files[i].id == id) {
			*host = m->files[i].host_sid;
			return true;
		}
	return false;
}

/* Whether appending what grew keeps the row numbers a fresh index gives.
 * Rows (and ops) are numbered in the order the reader reads files, host
 * after host (reader.h); a resumed pass adds the new records after every
 * old row, which is that order only when all that grew belongs to the
 * host whose rows come last (the host of the last trace row and of the
 * last execution row).  Anything else (two hosts of a live job both
 * growing) is indexed afresh, so `trace N` is the same tensor whatever the
 * cache saw before.  A host that appeared since is the reader's to place
 * (its load_state refuses a new file set that does not sort last). */
static bool
growth_keeps_order(struct model *m)
{
	struct model_cache *c = m->icache;
	uint32_t last = NO_ID, h;
	size_t i, j;

	if (rows_ntraces(m) && file_host(m, m->tloc.last_file, &h))
		last = h;
	if (rows_nexecs(m) && file_host(m, m->eloc.last_file, &h)) {
		if (last != NO_ID && h != last)
			return false;
		last = h;
	}
	for (i = 0; i < c->ngrown; i++) {
		for (j = 0; j < m->nfiles && strcmp(m->files[j].path, c->grown_paths[i]) != 0; j++)
			;
		if (j == m->nfiles || (last != NO_ID && m->files[j].host_sid != last))
			return false;
	}
	return true;
}

/* ---- saving ------------------------------------------------------------------- */

/* Writes the payload after the header; 0, the errno of a failed write,
 * or ESTALE when a fingerprint could not be taken (a file vanished:
 * nothing worth saving). */
static int
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
	return o->err ? o->errnum : ok ? 0 : ESTALE;
}

/* Writes the file tmp; 0 when done, else the errno of the failure
 * (write_payload's ESTALE included), tmp then removed.  *len:
 * the bytes it holds or would have held. */
static int
save_file(struct model *m, const char *tmp, uint64_t *len)
{
	struct mc_out *o = xcalloc(1, sizeof(*o));
	struct mc_header h;
	int err = 0;

	o->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (o->fd < 0) {
		err = errno;
		free(o);
		return err;
	}
	header_make(&h, 0, 0);
	if (lseek(o->fd, sizeof h, SEEK_SET) != (off_t)sizeof h)
		err = errno;
	else
		err = write_payload(m, o);
	header_make(&h, o->len, (uint32_t)(o->sum ^ (o->sum >> 32)));
	if (!err && pwrite(o->fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
		err = errno;
	if (close(o->fd) != 0 && !err)
		err = errno;
	*len = sizeof h + o->len;
	free(o);
	if (err)
		unlink(tmp);
	return err;
}

/* One save of the cache file; 0 or the errno of the failure. */
static int
save_once(struct model *m, uint64_t *len)
{
	struct model_cache *c = m->icache;
	char *tmp = xasprintf("%s/.tmp.%016llx.%ld%s", c->dir, (unsigned long long)mc_key_hash(c->key),
			      (long)getpid(), MC_SUFFIX);
	int err = save_file(m, tmp, len);

	if (!err && rename(tmp, c->path) != 0) {
		err = errno;
		unlink(tmp);
	}
	free(tmp);
	return err;
}

/* The size the next file will about have: the last one's, or 6.4 bytes a
 * trace (README) when there is none. */
static uint64_t
size_guess(struct model *m)
{
	struct stat st;

	if (stat(m->icache->path, &st) == 0 && S_ISREG(st.st_mode))
		return (uint64_t)st.st_size;
	return rows_ntraces(m) * 7 + rows_nexecs(m) * 48;
}

void
model_cache_save(struct model *m)
{
	struct model_cache *c = m->icache;
	uint64_t gen = atomic_load(&m->generation), len = 0, guess;
	int err;

	if (!c || !c->path || atomic_load(&m->stopping) || atomic_load(&c->stale) || gen == c->saved_gen ||
	    (c->saved && td_now() - c->saved_at < SAVE_EVERY))
		return;
	if (!mc_make_dirs(c->dir)) {
		cache_why(c, MODEL_CACHE_UNAVAILABLE, "cannot create the cache directory %s", c->dir);
		return;
	}
	/* room first: old files must not keep the new one out for good */
	guess = size_guess(m);
	mc_evict(c->dir, c->max > guess ? c->max - guess : 0, c->path);
	err = save_once(m, &len);
	if ((err == ENOSPC || err == EDQUOT) && mc_evict(c->dir, 0, c->path))
		err = save_once(m, &len);   /* a full disk: the others go, once */
	if (err == ESTALE)
		return;                 /* the dump changes under the pass: next time */
	if (err) {
		/* said, not silent: "new" at every open would hide a full disk */
		snprintf(c->why, sizeof c->why, "cannot save the index in %.100s: %s", c->dir,
			 strerror(err));
		if (c->state == MODEL_CACHE_NEW)
			c->state = MODEL_CACHE_UNAVAILABLE;
		return;
	}
	c->saved = true;
	c->saved_gen = gen;
	c->saved_at = td_now();
	mc_evict(c->dir, c->max, NULL);
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

	ser_in_init(&in, p, n);
	if (!mc_section_in(&in, MC_DUMP, &s)) {
		cache_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (dump section)%s", NULL);
		return MC_LOAD_MISS;
	}
	if (!check_dump(m, &s, check_files))
		return MC_LOAD_MISS;
	if (!mc_section_in(&in, MC_READER, &rs) || !mc_get_counts(&in, &counts)) {
		cache_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (counts)%s", NULL);
		return MC_LOAD_MISS;
	}
	cache_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (tables)%s", NULL);
	if (!mc_get_tables(m, &in, &counts) || !mc_get_rows(m, &in, &counts, in_place) || !ser_in_done(&in))
		return MC_LOAD_BROKEN;
	if (!growth_keeps_order(m)) {
		cache_why(c, MODEL_CACHE_REBUILT,
			  "the dump grew in files read before others: indexed afresh so rows keep their numbers%s",
			  NULL);
		return MC_LOAD_BROKEN;
	}
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

/* The n bytes of fd from its start in a buffer aligned for trace chunks
 * (free()), NULL when they cannot all be read or n is too big. */
static void *
read_whole(int fd, size_t n)
{
	void *buf;
	size_t off = 0;

	if (posix_memalign(&buf, 4096, n ? n : 1) != 0)
		return NULL;
	while (off < n) {
		ssize_t k = pread(fd, (char *)buf + off, n - off, (off_t)off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			free(buf);
			return NULL;
		}
		off += (size_t)k;
	}
	return buf;
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
	/* read, not mapped: a file cut short under a session (another tdbg
	 * replacing it, a user's truncate) must not SIGBUS a row read; the
	 * buffer is aligned so full trace chunks are used in place in it
	 * (their offsets in the file are multiples of CHUNK_ALIGN) */
	map = read_whole(fd, (size_t)st.st_size);
	close(fd);
	if (!map) {
		cache_why(c, MODEL_CACHE_REBUILT, "cannot read the cache file (cut short?)%s", NULL);
		return MC_LOAD_MISS;
	}
	c->map = map;
	c->map_len = (size_t)st.st_size;
	c->loaded_ino = (uint64_t)st.st_ino;
	why = header_check(map, (size_t)st.st_size, true);
	if (why) {
		cache_why(c, MODEL_CACHE_REBUILT, "%s", why);
		res = MC_LOAD_MISS;
	} else {
		res = apply_payload(m, (const char *)map + MC_HEADER_BYTES,
				    (size_t)st.st_size - MC_HEADER_BYTES, true, true);
	}
	if (res == MC_LOAD_MISS) {      /* nothing points into it */
		free(map);
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

/* Marks the file the index was loaded from (not one saved since by
 * another tdbg) as stale: its magic is overwritten, so every tdbg that
 * opens it next refuses it with that reason. */
static void
mark_stale(struct model_cache *c)
{
	struct stat st;
	int fd = open(c->path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_ino == c->loaded_ino &&
	    pwrite(fd, MC_STALE_MAGIC, sizeof MC_STALE_MAGIC, 0) != (ssize_t)sizeof MC_STALE_MAGIC)
		unlink(c->path);        /* could not mark it: no file is better than this one */
	close(fd);
}

void
model_cache_check_row(struct model *m, uint64_t row, bool indexed_nf, bool decoded_nf)
{
	struct model_cache *c = m->icache;

	/* loaded_traces is set at the load, before any query runs */
	if (!c || indexed_nf == decoded_nf || row >= c->loaded_traces ||
	    atomic_exchange(&c->stale_claimed, true))
		return;
	snprintf(c->stale_why, sizeof c->stale_why,
		 "trace %llu decodes %s but the cached index holds it %s: the dump changed in a way "
		 "its fingerprint missed; the cache file is dropped and the next open indexes afresh",
		 (unsigned long long)row, decoded_nf ? "non-finite" : "finite",
		 indexed_nf ? "non-finite" : "finite");
	mark_stale(c);
	atomic_store(&c->stale, true);
}

void
model_cache_get(struct model *m, const char **state, const char **why)
{
	static const char *const names[] = {
		[MODEL_CACHE_OFF] = "off", [MODEL_CACHE_UNAVAILABLE] = "unavailable",
		[MODEL_CACHE_NEW] = "new", [MODEL_CACHE_USED] = "used",
		[MODEL_CACHE_EXTENDED] = "extended", [MODEL_CACHE_REBUILT] = "rebuilt",
		[MODEL_CACHE_STALE] = "stale",
	};
	struct model_cache *c = m->icache;
	enum model_cache_state st = c ? c->state : MODEL_CACHE_OFF;

	if (c && atomic_load(&c->stale)) {
		*state = names[MODEL_CACHE_STALE];
		*why = c->stale_why;
		return;
	}
	*state = names[st];
	*why = c ? c->why : "";
}
