/*
 * model_columns.c - the summary column file (see model_columns.h): its
 * header, the index thread's block being written, and the window a
 * question reads.
 *
 * Trust: the header names the format, a layout fingerprint (the column
 * list, the window, the meta word's packing, the SUM_* bits it keeps),
 * the byte order and the index key; its rows are believed only when the
 * file is long enough to hold them, so a file cut by a crash or a full
 * disk is refused and rebuilt, never read past its end.  The header's
 * row count is written after the rows it counts.  The file is one of
 * tdbg's own (reader/base/safeio.h): made through a temporary file and a
 * rename, then updated in place (safeio_update_own: not a link, the
 * user's, one link only).
 * Not here: when the model makes, opens or reads the file
 * (model_fields.c); how a row is packed into a block
 * (model_columns_pack.c).
 */
#include "model_columns.h"
#include "model_columns_block.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/safeio.h"
#include "reader/base/util.h"

#define COLS_MAGIC "TDBGCOL"
#define COLS_FORMAT 1u
#define COLS_BOM 0x01020304u
#define COLS_HEADER 64u

#define FOLD(h, v) (((h) ^ (uint64_t)(v)) * 0x100000001b3ULL)
#define COLS_LAYOUT                                                                       \
	FOLD(FOLD(FOLD(FOLD(FOLD(FOLD(FOLD(FOLD(0xcbf29ce484222325ULL, NCOL), COLS_WINDOW), \
	COLS_HEADER), COLS_FIELDS), M_FV_SHIFT), M_DTYPE_SHIFT), M_RANK_SHIFT), DTYPE_COUNT ^ 62u << 8)

struct cols_header {
	char magic[8];
	uint32_t format, bom;
	uint64_t layout, key, rows;
	uint32_t window, ncol;
	uint64_t check;             /* FOLD of the fields above */
	char pad[8];
};
_Static_assert(sizeof(struct cols_header) == COLS_HEADER, "the header is 64 bytes");

struct colstore {
	int fd;
	char path[512];
	uint64_t key;
	_Atomic uint64_t rows;      /* readable: rows below are on disk */
	char err[400];
	_Atomic bool claimed;       /* the first failure is writing err */
	_Atomic bool failed;        /* a write failed: nothing more is written */
	/* the index thread's block: rows [wfrom, wto) of block wblock pending */
	struct block *w;
	uint64_t wblock, wfrom, wto;
	bool wany;
	/* the read window, under lock */
	pthread_mutex_t lock;
	struct block *r;
	uint64_t rblock;            /* UINT64_MAX none */
	uint64_t rrows;             /* rows of the block readable when loaded (exclusive end) */
	uint32_t rloaded;           /* columns read (1 << enum col) */
	uint64_t dlo, dhi;          /* filled rows to write back, dlo == dhi none */
	uint32_t last_need, last_mask;  /* colstore_get's last need and its columns */
	uint64_t *meta;             /* colstore_get_window's meta words, under lock */
};

static uint64_t
header_check(const struct cols_header *h)
{
	uint64_t c = 0xcbf29ce484222325ULL;

	c = FOLD(FOLD(FOLD(FOLD(c, h->format), h->bom), h->layout), h->key);
	return FOLD(FOLD(FOLD(c, h->rows), h->window), h->ncol);
}

static uint64_t
size_for(uint64_t rows)
{
	uint64_t blocks = (rows + COLS_WINDOW - 1) / COLS_WINDOW;

	return COLS_HEADER + blocks * (uint64_t)sizeof(struct block);
}

static off_t
at(uint64_t row, enum col c)
{
	return (off_t)(COLS_HEADER + (row / COLS_WINDOW) * sizeof(struct block) +
		       (uint64_t)c * COLS_WINDOW * 8 + (row % COLS_WINDOW) * 8);
}

static void
fail(struct colstore *cs, const char *what, int e)
{
	/* err is written once, before failed says so: readers of failed read it */
	if (!atomic_exchange(&cs->claimed, true)) {
		snprintf(cs->err, sizeof cs->err, "%.300s: cannot %s the summary columns: %s", cs->path,
			 what, strerror(e));
		atomic_store(&cs->failed, true);
	}
}

static bool
pwrite_all(struct colstore *cs, const void *p, size_t n, off_t off)
{
	const char *b = p;

	while (n) {
		ssize_t k = pwrite(cs->fd, b, n, off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			fail(cs, "write", k < 0 ? errno : ENOSPC);
			return false;
		}
		b += k;
		n -= (size_t)k;
		off += k;
	}
	return true;
}

/* n bytes at off; a short read (a file cut under us) gives zeros, which
 * read as rows not filled. */
static void
pread_all(struct colstore *cs, void *p, size_t n, off_t off)
{
	char *b = p;

	while (n) {
		ssize_t k = pread(cs->fd, b, n, off);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			memset(b, 0, n);
			return;
		}
		b += k;
		n -= (size_t)k;
		off += k;
	}
}

static bool
write_header(struct colstore *cs, uint64_t rows)
{
	struct cols_header h;

	memset(&h, 0, sizeof h);
	memcpy(h.magic, COLS_MAGIC, sizeof COLS_MAGIC);
	h.format = COLS_FORMAT;
	h.bom = COLS_BOM;
	h.layout = COLS_LAYOUT;
	h.key = cs->key;
	h.rows = rows;
	h.window = COLS_WINDOW;
	h.ncol = NCOL;
	h.check = header_check(&h);
	return pwrite_all(cs, &h, sizeof h, 0);
}

static struct colstore *
store_new(int fd, const char *path, uint64_t key, uint64_t rows)
{
	struct colstore *cs = xcalloc(1, sizeof(*cs));

	cs->fd = fd;
	snprintf(cs->path, sizeof cs->path, "%s", path);
	cs->key = key;
	atomic_init(&cs->rows, rows);
	atomic_init(&cs->claimed, false);
	atomic_init(&cs->failed, false);
	cs->rblock = UINT64_MAX;
	cs->last_mask = 1u << C_META;   /* the columns of need 0 */
	cs->wblock = UINT64_MAX;
	pthread_mutex_init(&cs->lock, NULL);
	return cs;
}

struct colstore *
colstore_create(int dirfd, const char *name, const char *path, uint64_t key, char *err,
		size_t errlen)
{
	struct safeio_tmp t;
	struct colstore *cs;
	int fd;

	if (safeio_tmp_open(dirfd, name, 0600, &t, err, errlen) != TD_OK)
		return NULL;
	if (safeio_tmp_commit(&t, name, true, path, err, errlen) != TD_OK)
		return NULL;
	if ((fd = safeio_update_own(dirfd, name, path, err, errlen)) < 0)
		return NULL;
	cs = store_new(fd, path, key, 0);
	if (!write_header(cs, 0)) {
		snprintf(err, errlen, "%s", cs->err);
		colstore_close(cs);
		return NULL;
	}
	return cs;
}

/* NULL when h (of a file of size bytes) is a column file for key of this
 * build holding its rows, else why not. */
static const char *
refuse(const struct cols_header *h, uint64_t size, uint64_t key, char *buf, size_t buflen)
{
	if (size < COLS_HEADER || memcmp(h->magic, COLS_MAGIC, sizeof COLS_MAGIC) != 0)
		return "not a summary column file (no header)";
	if (h->check != header_check(h))
		return "its header is damaged (check word)";
	if (h->format != COLS_FORMAT || h->bom != COLS_BOM || h->layout != COLS_LAYOUT ||
	    h->window != COLS_WINDOW || h->ncol != NCOL)
		return "written by a build of another column layout";
	if (h->key != key)
		return "written for another dump";
	if (size < size_for(h->rows)) {
		snprintf(buf, buflen, "cut short: %llu bytes where its %llu rows need %llu",
			 (unsigned long long)size, (unsigned long long)h->rows,
			 (unsigned long long)size_for(h->rows));
		return buf;
	}
	return NULL;
}

struct colstore *
colstore_open(int dirfd, const char *name, const char *path, uint64_t key, uint64_t max_rows,
	      char *err, size_t errlen)
{
	struct cols_header h;
	struct stat st;
	const char *why;
	char buf[160];
	int fd = safeio_update_own(dirfd, name, path, err, errlen);

	if (fd < 0)
		return NULL;
	memset(&h, 0, sizeof h);
	if (fstat(fd, &st) != 0 || pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h)
		memset(&h, 0, sizeof h);
	why = refuse(&h, fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0, key, buf, sizeof buf);
	if (why) {
		snprintf(err, errlen, "%s refused: %s", path, why);
		close(fd);
		return NULL;
	}
	return store_new(fd, path, key, TD_MIN(h.rows, max_rows));
}

bool
colstore_extend(struct colstore *cs, uint64_t rows)
{
	static const uint64_t zero[COLS_WINDOW];
	uint64_t r = atomic_load(&cs->rows);

	if (rows <= r)
		return true;
	if (ftruncate(cs->fd, (off_t)size_for(rows)) != 0) {
		fail(cs, "extend", errno);
		return false;
	}
	/* the meta words of rows past the header's count may hold an older
	 * file's: they become "not filled" */
	while (r < rows) {
		uint64_t end = TD_MIN(rows, (r / COLS_WINDOW + 1) * COLS_WINDOW);

		if (!pwrite_all(cs, zero, (size_t)(end - r) * 8, at(r, C_META)))
			return false;
		r = end;
	}
	if (!write_header(cs, rows))
		return false;
	atomic_store(&cs->rows, rows);
	return true;
}

size_t
colstore_unfill_derived(struct colstore *cs, bool (*refuse)(void *ctx, uint64_t row), void *ctx)
{
	uint64_t rows = atomic_load(&cs->rows), meta[COLS_WINDOW];
	size_t n = 0;

	for (uint64_t first = 0; first < rows; first += COLS_WINDOW) {
		size_t len = (size_t)TD_MIN(rows - first, (uint64_t)COLS_WINDOW), k;
		bool changed = false;

		pread_all(cs, meta, len * 8, at(first, C_META));
		for (k = 0; k < len; k++)
			if ((meta[k] & M_FILLED) && (meta[k] >> M_FV_SHIFT & M_BITS) &&
			    refuse(ctx, first + k)) {
				meta[k] = 0;    /* not filled: decoded when asked */
				changed = true;
				n++;
			}
		if (changed && !pwrite_all(cs, meta, len * 8, at(first, C_META)))
			break;
	}
	return n;
}

uint64_t
colstore_rows(struct colstore *cs)
{
	return cs ? atomic_load(&cs->rows) : 0;
}

const char *
colstore_error(struct colstore *cs)
{
	return cs && atomic_load(&cs->failed) ? cs->err : "";
}

/* Rows [lo, hi) of block b (block number blk) to disk; a column no row
 * of them holds is not written (a reader never looks at it). */
static bool
write_rows(struct colstore *cs, const struct block *b, uint64_t blk, uint64_t lo, uint64_t hi)
{
	uint64_t base = blk * COLS_WINDOW;

	for (int c = 0; c < NCOL; c++) {
		bool any = c == C_META;

		for (uint64_t r = lo; r < hi && !any; r++) {
			uint64_t meta = b->v[C_META][r - base];

			any = c == C_WALL ? b->v[C_WALL][r - base] != 0 :
			      (meta >> M_KNOWN_SHIFT & cols_col_bit((enum col)c)) != 0;
		}
		if (any && !pwrite_all(cs, &b->v[c][lo - base], (hi - lo) * 8, at(lo, (enum col)c)))
			return false;
	}
	return true;
}

void
colstore_put(struct colstore *cs, uint64_t row, const struct td_summary *s, double wall_time,
	     bool filled, unsigned facts)
{
	if (!cs || atomic_load(&cs->failed))
		return;
	if (!cs->w)
		cs->w = xcalloc(1, sizeof(*cs->w));
	if (row / COLS_WINDOW != cs->wblock || row != cs->wto) {
		if (cs->wany && !colstore_flush(cs))
			return;
		cs->wblock = row / COLS_WINDOW;
		cs->wfrom = cs->wto = row;
	}
	cols_pack(cs->w, (unsigned)(row % COLS_WINDOW), s, 0, wall_time, filled, filled);
	if (filled && (facts & COLS_FACTS))
		cs->w->v[C_META][row % COLS_WINDOW] |= (uint64_t)(facts & 0x1f) << M_FACTS_SHIFT;
	cs->wto = row + 1;
	cs->wany = true;
	if (cs->wto % COLS_WINDOW == 0)
		colstore_flush(cs);
}

bool
colstore_flush(struct colstore *cs)
{
	uint64_t rows;

	if (!cs || atomic_load(&cs->failed))
		return false;
	if (!cs->wany)
		return true;
	rows = atomic_load(&cs->rows);
	/* readable rows stay contiguous: a run starting past them (rows the
	 * pass did not send) leaves the rows in between unreadable */
	if (!write_rows(cs, cs->w, cs->wblock, cs->wfrom, cs->wto))
		return false;
	if (cs->wfrom <= rows && cs->wto > rows) {
		if (ftruncate(cs->fd, (off_t)size_for(cs->wto)) != 0) {
			fail(cs, "extend", errno);
			return false;
		}
		if (!write_header(cs, cs->wto))
			return false;
		atomic_store(&cs->rows, cs->wto);
	}
	cs->wfrom = cs->wto;
	cs->wany = false;
	return true;
}

/* Writes back the window's filled rows.  Under lock. */
static void
window_write_back(struct colstore *cs)
{
	if (cs->dlo < cs->dhi && !atomic_load(&cs->failed))
		write_rows(cs, cs->r, cs->rblock, cs->dlo, cs->dhi);
	cs->dlo = cs->dhi = 0;
}

/* The SUM_* bits some row of the window knows (its meta column read). */
static uint32_t
window_known(const struct colstore *cs, uint64_t base)
{
	uint64_t any = 0;

	for (uint64_t k = 0; k < cs->rrows - base; k++)
		any |= cs->r->v[C_META][k];
	return (uint32_t)(any >> M_KNOWN_SHIFT & M_BITS);
}

/* The window holding row with the columns in mask read.  Under lock.  A
 * column of a field no row of the window knows is not read (write_rows
 * never wrote it: a hole, or bytes no row's meta lets be read): it is
 * zeroed as a hole reads, without a system call and a copy of 32 KiB
 * (a dump whose statistics hold no NaN or Inf counts: 3 of the 9
 * columns the diff's verdict asks for). */
static void
window_load(struct colstore *cs, uint64_t row, uint32_t mask)
{
	uint64_t blk = row / COLS_WINDOW, base = blk * COLS_WINDOW;
	uint64_t readable;
	uint32_t known = M_BITS;

	if (cs->rblock == blk && row < cs->rrows && !(mask & ~cs->rloaded))
		return;                 /* a scan's usual case: the window is there */
	readable = atomic_load(&cs->rows);
	if (!cs->r)
		cs->r = xmalloc(sizeof(*cs->r));
	if (cs->rblock != blk || row >= cs->rrows) {
		window_write_back(cs);
		cs->rblock = blk;
		cs->rloaded = 0;
		cs->rrows = TD_MIN(readable, base + COLS_WINDOW);
	}
	if (cs->rloaded & (1u << C_META))
		known = window_known(cs, base);
	for (int c = 0; c < NCOL; c++)
		if ((mask & ~cs->rloaded) & (1u << c)) {
			size_t n = (size_t)(cs->rrows - base) * 8;

			if (c != C_META && c != C_WALL && !(known & cols_col_bit((enum col)c)))
				memset(cs->r->v[c], 0, n);
			else
				pread_all(cs, cs->r->v[c], n, at(base, (enum col)c));
			cs->rloaded |= 1u << c;
			if (c == C_META)
				known = window_known(cs, base);
		}
}

bool
colstore_get(struct colstore *cs, uint64_t row, uint32_t need, struct model_fields *out)
{
	uint32_t mask;
	bool ok;

	if (!cs || row >= atomic_load(&cs->rows))
		return false;
	pthread_mutex_lock(&cs->lock);
	if (need != cs->last_need) {    /* a scan asks the same fields row after row */
		cs->last_need = need;
		cs->last_mask = cols_need_mask(need);
	}
	mask = cs->last_mask;
	window_load(cs, row, mask);
	ok = (cs->r->v[C_META][row % COLS_WINDOW] & M_FILLED) != 0;
	if (ok) {
		/* unpack reads every column: the ones not asked for may hold
		 * another window's values, masked out of known */
		cols_unpack(cs->r, (unsigned)(row % COLS_WINDOW), need, out);
		if (!(need & COLS_WALL))
			out->wall_time = 0;
	}
	pthread_mutex_unlock(&cs->lock);
	return ok;
}

_Static_assert(MODEL_FIELD_WINDOW == COLS_WINDOW, "a field window is a block");
_Static_assert(MODEL_FCOL_L2NORM + 1 == C_L2NORM && MODEL_FCOL_ELEMENTS + 1 == C_ELEMENTS,
	       "the window's columns are the file's, in order");

size_t
colstore_get_window(struct colstore *cs, uint64_t first, size_t n, uint32_t need,
		    struct model_field_window *w)
{
	uint64_t base = first / COLS_WINDOW * COLS_WINDOW, end, readable;
	uint32_t mask = cols_need_mask(need) & ~(1u << C_SHAPE | 1u << C_WALL);
	unsigned k0 = (unsigned)(first - base);
	bool direct, ranks = need & (SUM_DTYPE | SUM_RANK);
	const uint64_t *meta;

	w->first = first;
	w->n = 0;
	if (!cs || first >= (readable = atomic_load(&cs->rows)))
		return 0;
	n = (size_t)TD_MIN((uint64_t)n, base + COLS_WINDOW - first);
	pthread_mutex_lock(&cs->lock);
	/* the read window when it holds this block (it may hold rows filled
	 * since and not written back); else straight from the file into the
	 * caller's arrays (one copy, not two) */
	direct = cs->rblock != base / COLS_WINDOW;
	if (direct) {
		end = TD_MIN(first + n, readable);
		if (!cs->meta)
			cs->meta = xmalloc(COLS_WINDOW * sizeof(*cs->meta));
		pread_all(cs, cs->meta, (size_t)(end - first) * 8, at(first, C_META));
		meta = cs->meta;
	} else {
		window_load(cs, first, mask);
		end = TD_MIN(first + n, cs->rrows);
		meta = &cs->r->v[C_META][k0];
	}
	w->n = (size_t)(end - first);
	for (size_t k = 0; k < w->n; k++) {
		w->filled[k] = (meta[k] & M_FILLED) != 0;
		w->known[k] = (uint32_t)(meta[k] >> M_KNOWN_SHIFT & M_BITS) & need;
	}
	for (size_t k = 0; ranks && k < w->n; k++) {
		w->dtype[k] = (uint8_t)(meta[k] >> M_DTYPE_SHIFT);
		w->rank[k] = (uint8_t)(meta[k] >> M_RANK_SHIFT);
	}
	for (int c = C_ELEMENTS; c <= C_L2NORM; c++) {
		if (!(mask & (1u << c)))
			continue;
		if (direct)
			pread_all(cs, w->v[c - C_ELEMENTS], w->n * 8, at(first, (enum col)c));
		else
			memcpy(w->v[c - C_ELEMENTS], &cs->r->v[c][k0], w->n * 8);
	}
	pthread_mutex_unlock(&cs->lock);
	return w->n;
}

void
colstore_get_keys(struct colstore *cs, const uint64_t *rows, size_t n, uint32_t field,
		  double *val, uint8_t *state)
{
	enum col c = field == COLS_WALL ? C_WALL : C_ELEMENTS;
	uint64_t readable = cs ? atomic_load(&cs->rows) : 0;

	memset(state, COLS_KEY_NONE, n);
	if (!cs || !n)
		return;
	pthread_mutex_lock(&cs->lock);
	for (size_t i = 0; i < n && rows[i] < readable;) {
		uint64_t end = (rows[i] / COLS_WINDOW + 1) * COLS_WINDOW;
		const uint64_t *meta, *v;

		window_load(cs, rows[i], 1u << C_META | 1u << c);
		meta = cs->r->v[C_META];
		v = cs->r->v[c];
		/* the rows of this block, below what it held when loaded */
		end = TD_MIN(end, cs->rrows);
		for (; i < n && rows[i] < end; i++) {
			unsigned k = (unsigned)(rows[i] % COLS_WINDOW);

			if (!(meta[k] & M_FILLED))
				continue;
			if (c == C_WALL) {
				memcpy(&val[i], &v[k], 8);
				state[i] = COLS_KEY_KNOWN;
			} else if ((meta[k] >> M_KNOWN_SHIFT & M_BITS) & SUM_ELEMENTS) {
				val[i] = (double)(int64_t)v[k];
				state[i] = COLS_KEY_KNOWN;
			} else {
				state[i] = COLS_KEY_UNKNOWN;
			}
		}
	}
	pthread_mutex_unlock(&cs->lock);
}

void
colstore_get_briefs(struct colstore *cs, const uint64_t *rows, size_t n, uint32_t need,
		    struct model_brief *out, uint8_t *state)
{
	uint64_t readable = cs ? atomic_load(&cs->rows) : 0, meta;
	uint32_t mask;

	memset(state, COLS_ROW_NONE, n);
	if (!cs || !n)
		return;
	pthread_mutex_lock(&cs->lock);
	if (need != cs->last_need) {
		cs->last_need = need;
		cs->last_mask = cols_need_mask(need);
	}
	mask = cs->last_mask;
	for (size_t i = 0; i < n; i++) {
		unsigned k = (unsigned)(rows[i] % COLS_WINDOW);

		if (rows[i] >= readable)
			continue;
		window_load(cs, rows[i], mask);     /* returns at once within the block */
		meta = cs->r->v[C_META][k];
		if (!(meta & M_NOVALUES))
			state[i] = COLS_ROW_VALUES;
		else if (!(meta & M_FILLED))
			state[i] = COLS_ROW_UNFILLED;
		else {
			state[i] = COLS_ROW_FILLED;
			cols_unpack_brief(cs->r, k, need, &out[i]);
		}
	}
	pthread_mutex_unlock(&cs->lock);
}

bool
colstore_no_values(struct colstore *cs, uint64_t row)
{
	bool r;

	if (!cs || row >= atomic_load(&cs->rows))
		return false;
	pthread_mutex_lock(&cs->lock);
	window_load(cs, row, 1u << C_META);
	r = (cs->r->v[C_META][row % COLS_WINDOW] & M_NOVALUES) != 0;
	pthread_mutex_unlock(&cs->lock);
	return r;
}

bool
colstore_get_facts(struct colstore *cs, uint64_t row, unsigned *facts)
{
	uint64_t meta;

	if (!cs || row >= atomic_load(&cs->rows))
		return false;
	pthread_mutex_lock(&cs->lock);
	window_load(cs, row, 1u << C_META);
	meta = row < cs->rrows ? cs->r->v[C_META][row % COLS_WINDOW] : 0;
	pthread_mutex_unlock(&cs->lock);
	*facts = (unsigned)(meta >> M_FACTS_SHIFT & 0x1f);
	return (meta & M_FILLED) && (*facts & COLS_FACTS);
}

void
colstore_fill(struct colstore *cs, uint64_t row, const struct td_summary *s,
	      uint32_t from_values, double wall_time)
{
	if (!cs || row >= atomic_load(&cs->rows) || atomic_load(&cs->failed))
		return;
	pthread_mutex_lock(&cs->lock);
	window_load(cs, row, (1u << NCOL) - 1);     /* written back whole */
	if (row < cs->rrows) {
		unsigned k = (unsigned)(row % COLS_WINDOW);
		/* the index pass's mark that the record holds no values stays:
		 * it is the record's, not the decode's (a row it left unfilled,
		 * a shape that does not pack, is still read as holding none) */
		bool no_values = (cs->r->v[C_META][k] & M_NOVALUES) != 0;
		/* and so do the facts it stated (a decode states the same) */
		uint64_t facts = cs->r->v[C_META][k] & M_FACTS_MASK;

		cols_pack(cs->r, k, s, from_values, wall_time, true, no_values);
		cs->r->v[C_META][k] |= facts;
		if (cs->dlo == cs->dhi) {
			cs->dlo = row;
			cs->dhi = row + 1;
		} else {
			cs->dlo = TD_MIN(cs->dlo, row);
			cs->dhi = TD_MAX(cs->dhi, row + 1);
		}
	}
	pthread_mutex_unlock(&cs->lock);
}

uint64_t
colstore_beside(const char *index_path, bool remove)
{
	size_t n = strlen(index_path);
	struct stat st;
	uint64_t bytes = 0;
	char *p;

	if (n < 4 || strcmp(index_path + n - 4, ".tdx") != 0)
		return 0;
	p = xasprintf("%.*s%s", (int)(n - 4), index_path, COLS_SUFFIX);
	if (lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
		bytes = (uint64_t)st.st_blocks * 512;
		if (remove && unlink(p) != 0)
			bytes = 0;
	}
	free(p);
	return bytes;
}

void
colstore_close(struct colstore *cs)
{
	if (!cs)
		return;
	colstore_flush(cs);
	pthread_mutex_lock(&cs->lock);
	if (cs->r)
		window_write_back(cs);
	pthread_mutex_unlock(&cs->lock);
	if (cs->fd >= 0)
		close(cs->fd);
	pthread_mutex_destroy(&cs->lock);
	free(cs->w);
	free(cs->r);
	free(cs->meta);
	free(cs);
}
