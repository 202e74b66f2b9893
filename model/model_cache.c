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
 * in the state's why: the dump still opens.  Here: the header and its
 * layout fingerprint, the state, loading (the file read into memory, its
 * dump checked, growth allowed only where it keeps row numbers) and a
 * loaded index found stale by a decode.
 * Not here: writing (model_cache_save.c), the sections' contents
 * (model_cache_tables.c, _ops.c, _rows.c), the directory (_dir.c).
 */
#include "model_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/fingerprint.h"
#include "reader/base/safeio.h"

#define MC_MAGIC "TDBGIDX"
#define MC_STALE_MAGIC "TDBGSTL"    /* written over the magic of a file found stale */
#define MC_FORMAT 9u                /* 3: full trace chunks in place; 4: mc_sum; 5: op details;
				     * 6: the layout fingerprint; 7: reader links; 8: an op
				     * writes only the parts it has (flags); 9: a kind per
				     * fingerprint (folders listed only) */
#define MC_BOM 0x01020304u

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

static void mc_listed_free(struct model_cache *c);

/* ---- where ------------------------------------------------------------------ */

void
mc_why(struct model_cache *c, enum model_cache_state st, const char *fmt, const char *arg)
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
		mc_why(c, MODEL_CACHE_UNAVAILABLE, "no cache directory (HOME and XDG_CACHE_HOME unset)%s", NULL);
		return false;
	}
	c->path = xasprintf("%s/%016llx%s", c->dir, (unsigned long long)mc_key_hash(c->key), MC_SUFFIX);
	return true;
}

void
mc_refuse(struct model *m, const char *what)
{
	mc_why(m->icache, MODEL_CACHE_REBUILT, "corrupt cache file (%s)", what);
}

void
model_cache_broken(struct model *m, const char *why)
{
	mc_why(m->icache, MODEL_CACHE_REBUILT, "%s", why);
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
		munmap(m->icache->map, m->icache->map_len ? m->icache->map_len : 1);
	for (size_t i = 0; i < m->icache->ngrown; i++)
		free(m->icache->grown_paths[i]);
	free(m->icache->grown_paths);
	mc_listed_free(m->icache);
	if (m->icache->have_newest)
		hashtab_u64_done(&m->icache->newest_by_id);
	if (m->icache->have_rewritten) {
		hashtab_u64_done(&m->icache->rewritten_by_id);
		hashtab_u64_done(&m->icache->file_at);
	}
	free(m->icache->dir);
	free(m->icache->path);
	free(m->icache->key);
	free(m->icache);
	m->icache = NULL;
}

/* ---- header ------------------------------------------------------------------ */

void
mc_header_make(void *out, uint64_t len, uint32_t sum)
{
	struct mc_header *h = out;

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

void
mc_header_restamp(void *hdr)
{
	struct mc_header *h = hdr, mine;

	mc_header_make(&mine, h->payload_len, h->payload_sum);
	memcpy(mine.magic, h->magic, sizeof mine.magic);
	memcpy(h, &mine, sizeof mine);
}

/* NULL when h describes a file this build can read, else why not. */
static const char *
header_check(const struct mc_header *h, size_t file_len, bool check_sum)
{
	struct mc_header mine;

	mc_header_make(&mine, 0, 0);
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

/* Frees the listed-only folders check_dump kept. */
static void
mc_listed_free(struct model_cache *c)
{
	for (size_t i = 0; i < c->nlisted; i++) {
		for (size_t k = 0; k < c->listed[i].nread; k++)
			free(c->listed[i].read[k]);
		free(c->listed[i].read);
	}
	free(c->listed);
	c->listed = NULL;
	c->nlisted = 0;
}

/* A listed-only folder's part of a DUMP entry (after its fingerprint):
 * the newest status-change time and the names read, into l; false when
 * the section does not hold them. */
static bool
get_listed(struct ser_in *s, struct mc_listed *l)
{
	uint64_t n;

	l->newest = ser_get_i64(s);
	n = ser_get_count(s, 1);
	if (s->bad)
		return false;
	l->read = xcalloc(n ? n : 1, sizeof(*l->read));
	for (l->nread = 0; l->nread < n; l->nread++) {
		const char *name = ser_get_str(s);

		if (!name || strchr(name, '/'))
			return false;
		l->read[l->nread] = xstrdup(name);
	}
	l->on = true;
	return true;
}

/* A file of the DUMP section to check: its path (an offset in the paths
 * read), the fingerprint saved, and what the disk says now. */
struct fp_check {
	size_t path;
	struct fingerprint fp;
	const struct mc_listed *l;
	enum fingerprint_match res;
};

struct fp_range {
	const char *paths;
	struct fp_check *v;
	size_t lo, hi;
};

/* Checks files [lo, hi) of a range, their folders' parents opened once
 * (its own fingerprint_parents: one a thread). */
static void *
check_range(void *arg)
{
	const struct fp_range *r = arg;
	struct fingerprint_parents parents = {0};
	size_t i;

	for (i = r->lo; i < r->hi; i++) {
		struct fp_check *k = &r->v[i];
		const char *path = r->paths + k->path;

		k->res = k->l->on ? fingerprint_match_listed_in(&parents, path,
								(const char *const *)k->l->read,
								k->l->nread, &k->fp)
				  : fingerprint_match(path, &k->fp);
	}
	fingerprint_parents_done(&parents);
	return NULL;
}

/* Files from which the check is split between two threads: a dump of
 * many folders listed only (200,000 of them in the bench's 10M-row
 * statistic-only dump: two stats each, 40% of its reopen) or many run
 * folders.  Each file's check is a few stats, independent of the others. */
size_t model_cache_split_min = 1024;

/* Whether the dump is still the one saved: true if so (grown noted),
 * else false with the state "rebuilt" and why.  The files' paths are
 * read under this open's path of the dump (mc_get_path).  The section is
 * read whole first, then its files checked (on two threads when there are
 * many), then the answers taken in its order: the first changed file is
 * the one named, the grown ones noted in order. */
static bool
check_dump(struct model *m, struct ser_in *s, bool check_files)
{
	struct model_cache *c = m->icache;
	const char *key = ser_get_str(s);
	uint64_t n = ser_get_count(s, 61), i;   /* a path, a kind, six u64 */
	struct strbuf buf = {0}, paths = {0};
	struct fp_check *v;
	size_t nv = 0;
	bool same = true;

	if (!key || strcmp(key, c->key) != 0) {
		mc_why(c, MODEL_CACHE_REBUILT, "cache file of another dump%s", NULL);
		return false;
	}
	mc_listed_free(c);
	c->listed = xcalloc(n ? n : 1, sizeof(*c->listed));
	v = xcalloc(n ? n : 1, sizeof(*v));
	for (i = 0; i < n && !s->bad; i++) {
		const char *path = mc_get_path(s, m, &buf);
		uint64_t kind = ser_get_u64(s);
		struct mc_listed *l = &c->listed[i];
		struct fp_check *k = &v[nv];

		c->nlisted = i + 1;
		k->fp.size = ser_get_u64(s);
		k->fp.mtime_ns = ser_get_i64(s);
		k->fp.ino = ser_get_u64(s);
		k->fp.head = ser_get_u64(s);
		k->fp.tail = ser_get_u64(s);
		k->fp.mid = ser_get_u64(s);
		if (kind > 1 || (kind == 1 && !get_listed(s, l)))
			s->bad = true;
		if (!path || s->bad)
			break;
		k->path = paths.len;
		strbuf_add(&paths, path, strlen(path) + 1);
		k->l = l;
		nv++;
	}
	if (check_files && nv) {
		struct fp_range lo = { paths.buf, v, 0, nv }, hi = lo;
		pthread_t th;
		bool two = nv >= model_cache_split_min && nv >= 2;

		if (two) {
			lo.hi = hi.lo = nv / 2;
			two = pthread_create(&th, NULL, check_range, &hi) == 0;
			if (!two)
				lo.hi = nv;
		}
		check_range(&lo);
		if (two)
			pthread_join(th, NULL);
		for (i = 0; i < nv && same; i++) {
			const char *path = paths.buf + v[i].path;

			switch (v[i].res) {
			case FP_SAME:
				break;
			case FP_GROWN:
				c->grown = true;
				TD_GROW(c->grown_paths, c->capgrown, c->ngrown + 1);
				c->grown_paths[c->ngrown++] = xstrdup(path);
				break;
			case FP_CHANGED:
				mc_why(c, MODEL_CACHE_REBUILT, "the dump changed since it was indexed (%s)",
				       path);
				same = false;
				break;
			}
		}
	}
	free(v);
	strbuf_done(&paths);
	strbuf_done(&buf);
	if (same && !ser_in_done(s)) {
		mc_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (dump section)%s", NULL);
		same = false;
	}
	return same;
}

/* The loaded files take the listed-only folders check_dump found (the
 * DUMP section holds the files in the table's order): their read names,
 * for the next save, and their newest status-change times, for the
 * decodes (model_cache_check_data). */
static void
apply_listed(struct model *m)
{
	struct model_cache *c = m->icache;

	for (size_t i = 0; c->nlisted == m->src.nfiles && i < c->nlisted; i++) {
		struct mc_listed *l = &c->listed[i];
		struct file_entry *f = &m->src.files[i];

		if (!l->on)
			continue;
		f->listed_only = true;
		f->nread = l->nread;
		f->read = xmalloc((l->nread ? l->nread : 1) * sizeof(*f->read));
		for (size_t k = 0; k < l->nread; k++)
			f->read[k] = intern_str(&m->str, intern_add(&m->str, l->read[k]));
		if (!c->have_newest) {
			hashtab_u64_init(&c->newest_by_id, 16);
			c->have_newest = true;
		}
		*hashtab_u64_put(&c->newest_by_id, f->id, 0) = (uint64_t)l->newest;
	}
	mc_listed_free(c);
}

/* The host string id of the file with reader id id; false if none. */
static bool
file_host(struct model *m, uint32_t id, uint32_t *host)
{
	for (size_t i = 0; i < m->src.nfiles; i++)
		if (m->src.files[i].id == id) {
			*host = m->src.files[i].host_sid;
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

	if (rows_ntraces(m) && file_host(m, m->rows.tloc.last_file, &h))
		last = h;
	if (rows_nexecs(m) && file_host(m, m->rows.eloc.last_file, &h)) {
		if (last != NO_ID && h != last)
			return false;
		last = h;
	}
	for (i = 0; i < c->ngrown; i++) {
		for (j = 0; j < m->src.nfiles && strcmp(m->src.files[j].path, c->grown_paths[i]) != 0; j++)
			;
		if (j == m->src.nfiles || (last != NO_ID && m->src.files[j].host_sid != last))
			return false;
	}
	return true;
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
		mc_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (dump section)%s", NULL);
		return MC_LOAD_MISS;
	}
	if (!check_dump(m, &s, check_files))
		return MC_LOAD_MISS;
	if (!mc_section_in(&in, MC_READER, &rs) || !mc_get_counts(&in, &counts)) {
		mc_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (counts)%s", NULL);
		return MC_LOAD_MISS;
	}
	mc_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (tables)%s", NULL);
	if (!mc_get_tables(m, &in, &counts, in_place) || !mc_get_rows(m, &in, &counts, in_place) ||
	    !ser_in_done(&in))
		return MC_LOAD_BROKEN;
	if (!growth_keeps_order(m)) {
		mc_why(c, MODEL_CACHE_REBUILT,
			  "the dump grew in files read before others: indexed afresh so rows keep their numbers%s",
			  NULL);
		return MC_LOAD_BROKEN;
	}
	mc_why(c, MODEL_CACHE_REBUILT, "the reader could not resume from the cached state%s", NULL);
	if (!m->ops->load_state(m->r, rs.p, rs.n))
		return MC_LOAD_BROKEN;
	apply_listed(m);
	c->state = MODEL_CACHE_USED;
	c->why[0] = '\0';
	c->loaded_traces = counts.traces;
	c->loaded_execs = counts.execs;
	model_bump(m);
	c->loaded_gen = c->saved_gen = atomic_load(&m->th.generation);
	return MC_LOAD_OK;
}

/* n bytes of private anonymous pages (page aligned, so trace chunks are
 * used in place and a section copied out is given back by mc_release;
 * munmap), NULL when they cannot be had.  Nothing is read into them yet.
 * Not malloc: a block malloc hands out by mmap raises its threshold for
 * mmap when freed, and later tables of that size would stay in the heap. */
static void *
map_anon(size_t n)
{
	void *buf = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return buf == MAP_FAILED ? NULL : buf;
}

/* The n bytes of fd at off into p; false when they cannot all be read. */
static bool
read_at(int fd, void *p, size_t n, uint64_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = pread(fd, (char *)p + got, n - got, (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		got += (size_t)k;
	}
	return true;
}

/* ---- the file a section at a time (mc_load_fill, mc_load_section) ---------------- */

/* A load from a file in progress on this thread (model_cache_load). */
struct mc_reading {
	int fd;
	const char *map;            /* the buffer: the file's bytes at their offsets */
	size_t len;
	unsigned char *scratch;     /* the checksum's reads (SUM_READ bytes) */
	bool stream_ops;            /* MC_OPS read a piece at a time (mc_load_streamed) */
	size_t filled;              /* bytes read into the buffer (mc_load_fill) */
};
static _Thread_local struct mc_reading *reading;

static bool
reading_has(const struct mc_reading *r, const void *p)
{
	return r && (const char *)p >= r->map && (const char *)p < r->map + r->len;
}

/* Bytes of the file read once more through the scratch buffer, for the
 * checksum (the file is in the page cache: a copy into pages already
 * touched, not the whole file in fresh pages). */
#define SUM_READ MC_LOAD_PIECE

/* The payload's checksum from the file; false when it cannot be read. */
static bool
reading_sum(struct mc_reading *r, uint32_t *sum)
{
	uint64_t h = 0, off;

	if (!(r->scratch = map_anon(SUM_READ)))
		return false;
	for (off = MC_HEADER_BYTES; off < r->len; off += SUM_READ) {
		size_t n = (size_t)TD_MIN((uint64_t)SUM_READ, r->len - off);

		if (!read_at(r->fd, r->scratch, n, off))
			return false;
		h = mc_sum_step(h, r->scratch, n);
	}
	*sum = mc_sum_fold(h);
	return true;
}

bool
mc_load_fill(const void *p, size_t n)
{
	struct mc_reading *r = reading;

	if (!reading_has(r, p) || !n)
		return true;
	n = TD_MIN(n, (size_t)(r->map + r->len - (const char *)p));
	r->filled += n;
	return read_at(r->fd, (void *)p, n, (uint64_t)((const char *)p - r->map));
}

const unsigned char *
mc_load_piece(const void *p, size_t n)
{
	struct mc_reading *r = reading;

	if (!reading_has(r, p) || !n)
		return p;
	if (n > SUM_READ || !r->scratch || n > (size_t)(r->map + r->len - (const char *)p) ||
	    !read_at(r->fd, r->scratch, n, (uint64_t)((const char *)p - r->map)))
		return NULL;
	return r->scratch;
}

bool
mc_load_streamed(const void *p)
{
	return reading_has(reading, p) && reading->stream_ops;
}

bool
mc_load_section(enum mc_tag tag, struct ser_in *sec)
{
	if (!reading_has(reading, sec->p) || !sec->n)
		return true;
	if (tag == MC_STRINGS || tag == MC_EXECS || tag == MC_RUNS ||
	    (tag == MC_OPS && reading->stream_ops))
		return true;    /* streamed by its reader (mc_load_piece) */
	/* huge pages for the sections used in place (the op section until its
	 * decode, the trace chunks, the reader's state), not for the ones
	 * copied into tables and given back at once (mc_release) */
	if (tag != MC_STRINGS && tag != MC_EXECS && tag != MC_RUNS)
		model_huge_inside(sec->p, sec->n);
	return mc_load_fill(sec->p, sec->n);
}

void
mc_release(struct model *m, const void *p, size_t n)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;

	if (!n || !model_cache_owns(m, p))
		return;
	lo = ((uintptr_t)p + page - 1) & ~(page - 1);
	hi = ((uintptr_t)p + n) & ~(page - 1);
	if (lo < hi)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);    /* zero pages if touched again */
}

void
mc_release_read(struct model *m, const struct ser_in *s, size_t *done)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t hi = ((uintptr_t)s->p + s->off) & ~(page - 1);

	if (s->off <= *done || hi <= (uintptr_t)s->p + *done)
		return;
	mc_release(m, s->p + *done, hi - ((uintptr_t)s->p + *done));
	*done = hi - (uintptr_t)s->p;
}

enum mc_load
model_cache_load(struct model *m)
{
	struct model_cache *c = m->icache;
	struct stat st;
	const char *why;
	char why_own[sizeof c->why - 32];
	enum td_status ost;
	enum mc_load res;
	struct mc_reading rd;
	uint32_t sum;
	void *map;
	int fd;

	if (!c || !c->path)
		return MC_LOAD_MISS;
	if ((fd = mc_open_dir(m, false)) < 0)
		return MC_LOAD_MISS;    /* missing ("new") or refused ("unavailable") */
	close(fd);
	/* one of tdbg's own files: no link, no FIFO (O_NONBLOCK), the user's,
	 * not group/other-writable; else rebuilt (and replaced by rename) */
	fd = safeio_open_own(c->path, NULL, &ost, why_own, sizeof why_own);
	if (fd < 0) {
		if (ost != TD_ERR_NOENT)
			mc_why(c, MODEL_CACHE_REBUILT, "cache file not used: %s", why_own);
		return MC_LOAD_MISS;    /* never saved (or evicted): state stays "new" */
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(struct mc_header)) {
		close(fd);
		mc_why(c, MODEL_CACHE_REBUILT, "corrupt cache file (no header)%s", NULL);
		return MC_LOAD_MISS;
	}
	/* read, not mapped: a file cut short under a session (another tdbg
	 * replacing it, a user's truncate) must not SIGBUS a row read; the
	 * buffer is page aligned so full trace chunks are used in place in it
	 * (their offsets in the file are multiples of CHUNK_ALIGN).  The
	 * checksum is taken first, through a small buffer; then each section
	 * is read when the load reaches it (mc_load_section), and the ones
	 * copied into tables are given back once copied (mc_release): the
	 * file is never whole in memory, only the sections used in place,
	 * the tables made so far and the section being copied */
	map = map_anon((size_t)st.st_size);
	if (!map || !read_at(fd, map, MC_HEADER_BYTES, 0)) {
		if (map)
			munmap(map, (size_t)st.st_size);
		close(fd);
		mc_why(c, MODEL_CACHE_REBUILT, "cannot read the cache file (cut short?)%s", NULL);
		return MC_LOAD_MISS;
	}
	c->map = map;
	c->map_len = (size_t)st.st_size;
	c->loaded_ino = (uint64_t)st.st_ino;
	rd = (struct mc_reading){ .fd = fd, .map = map, .len = (size_t)st.st_size,
				  .stream_ops = m->opt.ops_at_open };
	why = header_check(map, (size_t)st.st_size, false);
	if (!why && !reading_sum(&rd, &sum))
		why = "cannot read the cache file (cut short?)";
	else if (!why && sum != ((const struct mc_header *)map)->payload_sum)
		why = "corrupt cache file (checksum)";
	if (why) {
		mc_why(c, MODEL_CACHE_REBUILT, "%s", why);
		res = MC_LOAD_MISS;
	} else {
		reading = &rd;
		res = apply_payload(m, (const char *)map + MC_HEADER_BYTES,
				    (size_t)st.st_size - MC_HEADER_BYTES, true, true);
		reading = NULL;
	}
	c->map_filled = MC_HEADER_BYTES + rd.filled;
	if (rd.scratch)
		munmap(rd.scratch, SUM_READ);
	close(fd);
	if (res == MC_LOAD_MISS) {      /* nothing points into it */
		munmap(map, c->map_len ? c->map_len : 1);
		c->map = NULL;
	}
	if (res == MC_LOAD_OK)
		utimensat(AT_FDCWD, c->path, NULL, AT_SYMLINK_NOFOLLOW);  /* used now (LRU order) */
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
		mc_why(c, MODEL_CACHE_REBUILT, "%s", why);
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
	     atomic_load(&m->th.generation) != c->loaded_gen))
		c->state = MODEL_CACHE_EXTENDED;
}

/* Marks the file the index was loaded from (not one saved since by
 * another tdbg) as stale: its magic is overwritten, so every tdbg that
 * opens it next refuses it with that reason.  An index applied from
 * bytes (model_open_cache_bytes) has no file to mark. */
static void
mark_stale(struct model_cache *c)
{
	struct stat st;
	int fd;

	if (!c->path)
		return;
	fd = open(c->path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
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
	char why[sizeof c->stale_why];

	if (!c || indexed_nf == decoded_nf || row >= c->loaded_traces)
		return;
	snprintf(why, sizeof why,
		 "trace %llu decodes %s but the cached index holds it %s: the dump changed in a way "
		 "its fingerprint missed; the cache file is dropped and the next open indexes afresh",
		 (unsigned long long)row, decoded_nf ? "non-finite" : "finite",
		 indexed_nf ? "non-finite" : "finite");
	mc_mark_stale(m, why);
}

void
model_cache_check_data(struct model *m, uint64_t row, uint32_t file, int64_t ctime_ns)
{
	struct model_cache *c = m->icache;
	char why[sizeof c->stale_why];
	uint64_t newest;

	if (!c || !c->have_newest || ctime_ns <= 0 || row >= c->loaded_traces ||
	    !hashtab_u64_get(&c->newest_by_id, file, &newest) || ctime_ns <= (int64_t)newest)
		return;
	snprintf(why, sizeof why,
		 "trace %llu's data file changed after the dump was indexed (a rewrite its folder's "
		 "fingerprint does not see); the cache file is dropped and the next open indexes afresh",
		 (unsigned long long)row);
	mc_mark_stale(m, why);
}

/* Whether an entry of the listed-only folder that is file (reader id)
 * changed status after newest (ns), or the folder cannot be read now. */
static bool
folder_rewritten(struct model *m, uint32_t file, int64_t newest)
{
	struct model_cache *c = m->icache;
	const struct file_entry *f;
	struct fingerprint fp;
	int64_t now = 0;
	uint64_t at;

	if (!hashtab_u64_get(&c->file_at, file, &at))
		return true;
	f = &m->src.files[at];
	return fingerprint_take_listed(f->path, f->read, f->nread, &fp, &now) != TD_OK || now > newest;
}

bool
model_cache_row_rewritten(struct model *m, uint64_t row)
{
	struct model_cache *c = m->icache;
	uint64_t newest, verdict;
	uint32_t file;

	if (!c || !c->have_newest || row >= c->loaded_traces)
		return false;
	file = rows_trace_file(m, row);
	if (file == NO_ID || !hashtab_u64_get(&c->newest_by_id, file, &newest))
		return false;
	if (!c->have_rewritten) {
		hashtab_u64_init(&c->rewritten_by_id, 16);
		hashtab_u64_init(&c->file_at, 16);
		for (size_t i = 0; i < m->src.nfiles; i++)
			*hashtab_u64_put(&c->file_at, m->src.files[i].id, 0) = i;
		c->have_rewritten = true;
	}
	if (!hashtab_u64_get(&c->rewritten_by_id, file, &verdict)) {
		verdict = folder_rewritten(m, file, (int64_t)newest) ? 2 : 1;
		*hashtab_u64_put(&c->rewritten_by_id, file, 0) = verdict;
	}
	return verdict == 2;
}

void
mc_mark_stale(struct model *m, const char *why)
{
	struct model_cache *c = m->icache;

	if (!c || atomic_exchange(&c->stale_claimed, true))
		return;
	snprintf(c->stale_why, sizeof c->stale_why, "%s", why);
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
	if (c && atomic_load_explicit(&c->save_failed, memory_order_acquire))
		*why = c->save_why;     /* a failed save: why it failed */
	else
		*why = c ? c->why : "";
}

const char *
model_cache_file(struct model *m)
{
	return m->icache && m->icache->state != MODEL_CACHE_UNAVAILABLE ? m->icache->path : NULL;
}
