/*
 * model_cache_save.c - writing the persistent index (model_cache.h): the
 * payload's checksum, the buffered writer the section files write
 * through, the DUMP section (the dump's key and each file's fingerprint)
 * and the save itself: a temporary file beside the cache file, renamed
 * over it, with room made first (least recently used files evicted, once
 * more on a full disk) and a failure said in the state.  Saved by the
 * index thread after a pass that changed the tables, at most every
 * SAVE_EVERY seconds for a live dump.  Not here: reading a file back
 * (model_cache.c) or the sections' contents.
 */
#include "model_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/fingerprint.h"
#include "reader/base/safeio.h"

#define SAVE_EVERY 30.0             /* seconds between saves of a live dump */

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
uint32_t
mc_sum(const unsigned char *p, size_t n)
{
	return mc_sum_fold(mc_sum_step(0, p, n));
}

_Static_assert(SUM_BLOCK == MC_SUM_BLOCK, "the load sums the file in the writer's blocks");

uint64_t
mc_sum_step(uint64_t h, const unsigned char *p, size_t n)
{
	size_t off;

	for (off = 0; off < n; off += SUM_BLOCK)
		h = sum_block(p + off, TD_MIN(n - off, SUM_BLOCK), h);
	return h;
}

uint32_t
mc_sum_fold(uint64_t h)
{
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

void
mc_chunk(struct mc_chunks *ck, struct strbuf *sb, bool last)
{
	if (!ck || (!last && sb->len < MC_CHUNK_BYTES))
		return;
	ck->len += sb->len;
	if (!ck->measure)
		mc_write(ck->o, sb->buf, sb->len);
	strbuf_reset(sb);
}

void
mc_section_chunked(struct mc_out *o, enum mc_tag tag, struct model *m, mc_put_fn *put)
{
	struct mc_chunks ck = { o, 0, true };
	struct strbuf sb = {0};
	uint64_t measured;

	put(m, &sb, &ck);
	mc_chunk(&ck, &sb, true);
	measured = ck.len;
	mc_section_head(o, tag, measured);
	ck = (struct mc_chunks){ o, 0, false };
	put(m, &sb, &ck);
	mc_chunk(&ck, &sb, true);
	strbuf_done(&sb);
	if (ck.len != measured && !o->err) {
		o->err = true;
		o->errnum = EIO;
	}
}

bool
mc_section_in(struct ser_in *in, enum mc_tag tag, struct ser_in *sec)
{
	uint32_t t;
	uint64_t len;
	const void *p;

	/* a load reading its file as it goes (model_cache.c): the head first */
	if (!in->bad && !mc_load_fill(in->p + in->off, TD_MIN(in->n - in->off, (size_t)12)))
		in->bad = true;
	t = ser_get_u32(in);
	len = ser_get_u64(in);
	if (in->bad || t != (uint32_t)tag || len > in->n - in->off) {
		in->bad = true;
		return false;
	}
	p = ser_get_bytes(in, (size_t)len);
	ser_in_init(sec, p, (size_t)len);
	if (p && !mc_load_section(tag, sec)) {
		in->bad = true;
		return false;
	}
	return p != NULL || len == 0;
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
	/* Not under the model's lock: a fingerprint is a stat and reads of a
	 * file (a dump of one file per tensor has a million of them), and a
	 * screen drawing rows meanwhile must not wait for them.  The files are appended by
	 * the pass only (on_file), and the save runs after it on its thread:
	 * nothing changes them under this loop. */
	pthread_mutex_lock(&m->th.lock);
	n = m->src.nfiles;
	pthread_mutex_unlock(&m->th.lock);
	ser_put_u64(sb, n);
	for (i = 0; i < n && ok; i++) {
		const struct file_entry *f = &m->src.files[i];
		struct fingerprint fp;
		int64_t newest = 0;

		/* a folder whose files were only listed: its own stat data and
		 * the read files' (fingerprint.h), and the newest status-change
		 * time of its entries for the decodes */
		ok = (f->listed_only ? fingerprint_take_listed(f->path, f->read, f->nread, &fp, &newest)
				     : fingerprint_take(f->path, &fp)) == TD_OK;
		mc_put_path(sb, m, f->path);
		ser_put_u64(sb, f->listed_only ? 1 : 0);
		ser_put_u64(sb, fp.size);
		ser_put_u64(sb, (uint64_t)fp.mtime_ns);
		ser_put_u64(sb, fp.ino);
		ser_put_u64(sb, fp.head);
		ser_put_u64(sb, fp.tail);
		ser_put_u64(sb, fp.mid);
		if (f->listed_only) {
			ser_put_u64(sb, (uint64_t)newest);
			ser_put_u64(sb, f->nread);
			for (size_t k = 0; k < f->nread; k++)
				ser_put_str(sb, f->read[k]);
		}
	}
	return ok;
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
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);    /* the consumer count and the op section */
	mc_put_counts(m, o);
	mc_put_tables(m, o);
	pthread_mutex_unlock(&m->th.lock);
	mc_put_rows(m, o);
	mc_flush(o);
	return o->err ? o->errnum : ok ? 0 : ESTALE;
}

/* Writes the cache file to fd (a new temporary file); 0 when done, else
 * the errno of the failure (write_payload's ESTALE included).  *len: the
 * bytes it holds or would have held. */
static int
save_file(struct model *m, int fd, uint64_t *len)
{
	struct mc_out *o = xcalloc(1, sizeof(*o));
	unsigned char h[MC_HEADER_BYTES];
	int err = 0;

	o->fd = fd;
	if (lseek(o->fd, sizeof h, SEEK_SET) != (off_t)sizeof h)
		err = errno;
	else
		err = write_payload(m, o);
	mc_header_make(h, o->len, (uint32_t)(o->sum ^ (o->sum >> 32)));
	if (!err && pwrite(o->fd, h, sizeof h, 0) != (ssize_t)sizeof h)
		err = errno;
	*len = sizeof h + o->len;
	free(o);
	return err;
}

/* One save of the cache file: a new file (O_EXCL, mode 0600) in the
 * checked directory dirfd, renamed over the old one through it; 0 or the
 * errno of the failure. */
static int
save_once(struct model *m, int dirfd, uint64_t *len)
{
	struct model_cache *c = m->icache;
	const char *name = strrchr(c->path, '/') + 1;
	struct safeio_tmp t;
	char why[256];
	int err;

	if (safeio_tmp_open(dirfd, name, 0600, &t, why, sizeof why) != TD_OK)
		return errno ? errno : EIO;
	if ((err = save_file(m, t.fd, len)) != 0) {
		safeio_tmp_abort(&t);
		return err;
	}
	errno = 0;
	if (safeio_tmp_commit(&t, name, true, c->path, why, sizeof why) != TD_OK)
		return errno ? errno : EIO;
	return 0;
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
	uint64_t gen = atomic_load(&m->th.generation), len = 0, guess;
	int err, dirfd;

	/* a folder refused once ("unavailable") is not tried again */
	if (!c || !c->path || c->state == MODEL_CACHE_UNAVAILABLE || atomic_load(&m->th.stopping) ||
	    atomic_load(&c->stale) || gen == c->saved_gen ||
	    (c->saved && td_now() - c->saved_at < SAVE_EVERY))
		return;
	if ((dirfd = mc_open_dir(m, true)) < 0)
		return;
	/* room first: old files must not keep the new one out for good */
	guess = size_guess(m);
	mc_evict(c->dir, c->max > guess ? c->max - guess : 0, c->path);
	err = save_once(m, dirfd, &len);
	if ((err == ENOSPC || err == EDQUOT) && mc_evict(c->dir, 0, c->path))
		err = save_once(m, dirfd, &len);   /* a full disk: the others go, once */
	close(dirfd);
	if (err == ESTALE)
		return;                 /* the dump changes under the pass: next time */
	if (err) {
		/* said, not silent: "new" at every open would hide a full disk;
		 * written once, then published (the status bar reads it) */
		if (!atomic_exchange(&c->save_claimed, true)) {
			snprintf(c->save_why, sizeof c->save_why, "cannot save the index in %.100s: %s",
				 c->dir, strerror(err));
			atomic_store_explicit(&c->save_failed, true, memory_order_release);
		}
		if (c->state == MODEL_CACHE_NEW)
			c->state = MODEL_CACHE_UNAVAILABLE;
		return;
	}
	c->saved = true;
	c->saved_gen = gen;
	c->saved_at = td_now();
	mc_evict(c->dir, c->max, NULL);
}
