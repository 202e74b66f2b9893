/*
 * model_cache_rows.c - the rows in a cache file (model_cache.h): trace
 * rows (op references, flag bytes, non-finite counts per block and chunk)
 * with their checkpoints, execution rows with theirs, and the run, step
 * and segment lists with the writer's running state.
 *
 * Trace rows are the bulk (5 bytes a row, 50 MB at ten million): they
 * are written straight from the chunks and read back into new chunks with
 * one copy, checking each op reference.  Checkpoints are written as the
 * packed structs they are (the header rules out another byte order).
 */
#include "model_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- locators ------------------------------------------------------------ */

static uint64_t
locidx_bytes(const struct locidx *li)
{
	return 8 + atomic_load(&((struct locidx *)li)->n) * sizeof(struct ckpt) + 8 + 8 + 4 + 4;
}

static void
put_locidx(struct mc_out *o, const struct locidx *li)
{
	uint64_t n = atomic_load(&((struct locidx *)li)->n), k;
	uint64_t last_row = li->last_row;
	uint32_t last_file = li->last_file, every = (uint32_t)li->every;

	mc_write(o, &n, sizeof n);
	for (k = 0; k < n; k += CKPT_CHUNK)
		mc_write(o, li->dir[k >> CKPT_CHUNK_SHIFT],
			 (size_t)TD_MIN(n - k, (uint64_t)CKPT_CHUNK) * sizeof(struct ckpt));
	mc_write(o, &last_row, sizeof last_row);
	mc_write(o, &n, sizeof n);      /* the count again: a cheap framing check */
	mc_write(o, &last_file, sizeof last_file);
	mc_write(o, &every, sizeof every);
}

/* Checkpoints for rows below nrows, in row order. */
static bool
get_locidx(struct ser_in *s, struct locidx *li, uint64_t nrows)
{
	uint64_t n = ser_get_count(s, sizeof(struct ckpt)), k, prev = 0, n2;

	for (k = 0; k < n && !s->bad; k += CKPT_CHUNK) {
		size_t cnt = (size_t)TD_MIN(n - k, (uint64_t)CKPT_CHUNK), j;
		const struct ckpt *src = ser_get_bytes(s, cnt * sizeof(struct ckpt));
		struct ckpt *dst;

		if (!src)
			return false;
		dst = li->dir[k >> CKPT_CHUNK_SHIFT] = xmalloc(CKPT_CHUNK * sizeof(struct ckpt));
		memcpy(dst, src, cnt * sizeof(struct ckpt));
		for (j = 0; j < cnt; j++) {
			uint64_t row = dst[j].row;

			if (row >= nrows || row < prev)
				return false;
			prev = row;
		}
	}
	li->last_row = ser_get_u64(s);
	n2 = ser_get_u64(s);
	li->last_file = ser_get_u32(s);
	li->every = (int)ser_get_u32(s);
	if (s->bad || n2 != n || li->every < 1 || li->every > CKPT_EVERY)
		return false;
	li->have = n > 0;
	li->force = true;       /* the next row after a load starts a checkpoint */
	atomic_store(&li->n, n);
	return true;
}

/* ---- traces --------------------------------------------------------------- */

/* Full trace chunks are written whole, each at a file offset that is a
 * multiple of CHUNK_ALIGN (after a u32 count of the padding bytes), so the
 * loader can use them in place in its copy of the file; the last,
 * partial chunk is written as its rows' op references and flag bytes
 * (small dumps stay small) and copied. */
#define CHUNK_ALIGN 64u
_Static_assert(sizeof(struct trace_chunk) ==
	       MODEL_CHUNK * 5 + (MODEL_CHUNK >> NF_BLOCK_SHIFT) * sizeof(uint16_t),
	       "a trace chunk has no padding: it is written as it is");

static uint32_t
chunk_pad(uint64_t off)
{
	return (uint32_t)((CHUNK_ALIGN - off % CHUNK_ALIGN) % CHUNK_ALIGN);
}

/* Bytes of the TRACES section whose data starts at file offset start. */
static uint64_t
traces_bytes(struct model *m, uint64_t start)
{
	uint64_t n = rows_ntraces(m), off = start + 8, k;

	for (k = 0; k + MODEL_CHUNK <= n; k += MODEL_CHUNK) {
		off += 4;
		off += chunk_pad(off) + sizeof(struct trace_chunk);
	}
	off += (n - k) * 5;
	return off - start + locidx_bytes(&m->rows.tloc);
}

static void
put_zeros(struct mc_out *o, size_t n)
{
	static const unsigned char zeros[4096];

	while (n) {
		size_t k = TD_MIN(n, sizeof zeros);

		mc_write(o, zeros, k);
		n -= k;
	}
}

static void
put_traces(struct model *m, struct mc_out *o)
{
	uint64_t n = rows_ntraces(m), k;

	mc_section_head(o, MC_TRACES, traces_bytes(m, MC_HEADER_BYTES + o->len + 12));
	mc_write(o, &n, sizeof n);
	for (k = 0; k + MODEL_CHUNK <= n; k += MODEL_CHUNK) {
		uint32_t pad = chunk_pad(MC_HEADER_BYTES + o->len + 4);

		mc_write(o, &pad, sizeof pad);
		put_zeros(o, pad);
		mc_write(o, m->rows.tchunks[k >> MODEL_CHUNK_SHIFT], sizeof(struct trace_chunk));
	}
	if (k < n) {
		const struct trace_chunk *c = m->rows.tchunks[k >> MODEL_CHUNK_SHIFT];

		mc_write(o, c->op, (size_t)(n - k) * sizeof(c->op[0]));
		mc_write(o, c->flags, (size_t)(n - k));
	}
	put_locidx(o, &m->rows.tloc);
}

/* One chunk of cnt rows: a full one in place in the file's bytes when
 * in_place and it is aligned there, else copied.  The op references are checked and
 * the non-finite counts per block and chunk counted again from the flag
 * bytes. */
#define FLAG_BYTES(b) ((uint64_t)(b) * 0x0101010101010101ull)

/* The largest of op[0..n), 0 for none. */
static uint32_t
ops_max(const uint32_t *op, size_t n)
{
	u32x4 t0 = {0, 0, 0, 0}, t1 = t0, v0, v1, g0, g1;
	uint32_t best = 0;
	size_t j;

	for (j = 0; j + 8 <= n; j += 8) {
		memcpy(&v0, op + j, sizeof v0);
		memcpy(&v1, op + j + 4, sizeof v1);
		g0 = (u32x4)(v0 > t0);
		g1 = (u32x4)(v1 > t1);
		t0 = (v0 & g0) | (t0 & ~g0);
		t1 = (v1 & g1) | (t1 & ~g1);
	}
	for (int l = 0; l < 4; l++) {
		best = t0[l] > best ? t0[l] : best;
		best = t1[l] > best ? t1[l] : best;
	}
	for (; j < n; j++)
		best = op[j] > best ? op[j] : best;
	return best;
}

static bool
get_trace_chunk(struct model *m, struct ser_in *s, uint64_t k, size_t cnt, uint64_t nops,
		bool in_place)
{
	uint32_t nf = 0, top = 0;
	const unsigned char *img;
	struct trace_chunk *c;
	size_t j;
	bool bad;

	if (cnt == MODEL_CHUNK) {
		uint32_t pad = ser_get_u32(s);

		if (pad >= CHUNK_ALIGN || !ser_get_bytes(s, pad) ||
		    !(img = ser_get_bytes(s, sizeof(struct trace_chunk))))
			return false;
		if (in_place && (uintptr_t)img % CHUNK_ALIGN == 0) {
			c = (struct trace_chunk *)(uintptr_t)img;   /* the loaded copy, writable */
		} else {
			c = xmalloc(sizeof(*c));
			memcpy(c, img, sizeof(*c));
		}
	} else {
		if (!(img = ser_get_bytes(s, cnt * 5)))
			return false;
		c = xmalloc(sizeof(*c));
		memcpy(c->op, img, cnt * sizeof(c->op[0]));
		memcpy(c->flags, img + cnt * sizeof(c->op[0]), cnt);
	}
	m->rows.tchunks[k >> MODEL_CHUNK_SHIFT] = c;
	/* every warm open walks every row here (10M rows: 10M ops and flags):
	 * the largest op four at a time, the flags eight at a time (rows with
	 * neither bit are nearly all) */
	top = ops_max(c->op, cnt);
	bad = cnt && top >= nops;
	memset(c->nfblock, 0, sizeof c->nfblock);
	for (j = 0; j < cnt; j += 8) {
		size_t end = TD_MIN(cnt, j + 8);
		uint64_t w;

		if (end - j == 8) {
			memcpy(&w, c->flags + j, 8);
			if (!(w & FLAG_BYTES(TF_NONFINITE | TF_INPUT)))
				continue;
		}
		for (size_t l = j; l < end; l++) {
			if (c->flags[l] & TF_INPUT)
				atomic_store_explicit(&m->rows.input_rows, true, memory_order_relaxed);
			if (TF_IS_ALERT(c->flags[l])) {
				c->nfblock[l >> NF_BLOCK_SHIFT]++;
				nf++;
			}
		}
	}
	if (bad)
		return false;
	m->rows.tnonfinite[k >> MODEL_CHUNK_SHIFT] = nf;
	atomic_fetch_add(&m->rows.trace_alerts, nf);
	return true;
}

static bool
get_traces(struct model *m, struct ser_in *s, const struct mc_counts *c, bool in_place)
{
	uint64_t n = ser_get_u64(s), k;

	if (s->bad || n != c->traces)
		return false;
	for (k = 0; k < n; k += MODEL_CHUNK)
		if (!get_trace_chunk(m, s, k, (size_t)TD_MIN(n - k, (uint64_t)MODEL_CHUNK), c->ops,
				     in_place))
			return false;
	if (!get_locidx(s, &m->rows.tloc, n) || (n && !atomic_load(&m->rows.tloc.n)))
		return false;
	atomic_store(&m->rows.ntraces, n);
	return true;
}

/* ---- executions ------------------------------------------------------------ */

#define EXEC_BYTES 53    /* put_execs: f64, two u64, four u32, i64, u32, u8 */

/* The rows' part of MC_EXECS (its length is known first: fixed-size rows),
 * written a chunk at a time instead of built whole (11 MB at 200,000
 * executions). */
static void
put_execs(struct model *m, struct mc_out *o)
{
	uint64_t n = rows_nexecs(m), i, nchunks = (n + MODEL_CHUNK - 1) / MODEL_CHUNK;
	uint64_t rows_len = 8 + n * EXEC_BYTES + nchunks * 8, start;
	struct mc_chunks ck = { o, 0, false };
	struct strbuf sb = {0};

	mc_section_head(o, MC_EXECS, rows_len + locidx_bytes(&m->rows.eloc));
	start = o->len;
	ser_put_u64(&sb, n);
	for (i = 0; i < n; i++) {
		const struct exec_row *x = exec_row(m, i);

		ser_put_f64(&sb, x->wall_time);
		ser_put_u64(&sb, __atomic_load_n(&x->first_trace, __ATOMIC_RELAXED));
		ser_put_u64(&sb, __atomic_load_n(&x->ntraces, __ATOMIC_RELAXED));
		ser_put_u32(&sb, x->op_type);
		ser_put_u32(&sb, x->graph_sid);
		ser_put_u32(&sb, x->num_outputs);
		ser_put_u32(&sb, x->bad_outputs);
		ser_put_u64(&sb, (uint64_t)x->step);
		ser_put_u32(&sb, x->host);
		ser_put_u8(&sb, __atomic_load_n(&x->flags, __ATOMIC_RELAXED));
		mc_chunk(&ck, &sb, false);
	}
	for (i = 0; i < n; i += MODEL_CHUNK)
		ser_put_u64(&sb, m->rows.ebad[i >> MODEL_CHUNK_SHIFT]);
	mc_chunk(&ck, &sb, true);
	strbuf_done(&sb);
	if (o->len - start != rows_len && !o->err) {
		o->err = true;          /* the length written first would lie */
		o->errnum = EIO;
	}
	put_locidx(o, &m->rows.eloc);
}

/* One execution row from its EXEC_BYTES bytes (read as one run, each field
 * its bytes in this machine's order, as put_execs wrote them). */
static bool
get_exec(const unsigned char *p, struct exec_row *x, const struct mc_counts *c)
{
	uint64_t ntraces;
	uint32_t host;

	memcpy(&x->wall_time, p, 8);
	memcpy(&x->first_trace, p + 8, 8);
	memcpy(&ntraces, p + 16, 8);
	if (ntraces > UINT32_MAX)
		return false;
	x->ntraces = (uint32_t)ntraces;
	memcpy(&x->op_type, p + 24, 4);
	memcpy(&x->graph_sid, p + 28, 4);
	memcpy(&x->num_outputs, p + 32, 4);
	memcpy(&x->bad_outputs, p + 36, 4);
	memcpy(&x->step, p + 40, 8);
	memcpy(&host, p + 48, 4);
	x->host = (uint16_t)host;
	x->flags = p[52];
	return x->op_type < c->strings && (x->graph_sid < c->strings || x->graph_sid == NO_ID) &&
	       x->host < c->hosts && x->first_trace <= c->traces &&
	       x->ntraces <= c->traces - x->first_trace;
}

/* A chunk of executions for the load.  One the load fills whole (every
 * row written by get_exec, as model_rows.c fills an xmalloc'd one) starts
 * on a 2 MB boundary with huge pages asked for: its first 2 MB are one
 * page fault, wherever malloc would have put it (a 3 MB block at an
 * unaligned address may hold no whole 2 MB page).  The last, partial
 * one is zeroed memory as before. */
static struct exec_row *
exec_chunk_new(bool full)
{
	size_t size = MODEL_CHUNK * sizeof(struct exec_row);
	void *p = NULL;

	if (full && posix_memalign(&p, (size_t)1 << 21, size) == 0) {
		model_huge_inside(p, size);
		return p;
	}
	return xcalloc(MODEL_CHUNK, sizeof(struct exec_row));
}

/* Executions a piece of the rows holds (mc_load_piece). */
#define EXECS_PIECE (MC_LOAD_PIECE / EXEC_BYTES)

/* The section is not in the load's buffer (mc_load_section): its count
 * and its tail are read there, its rows a piece at a time. */
static bool
get_execs(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	const unsigned char *rows;
	uint64_t n, i;

	if (!mc_load_fill(s->p, TD_MIN(s->n, (size_t)8)))
		return false;
	n = ser_get_u64(s);
	if (s->bad || n != c->execs || n > (s->n - s->off) / EXEC_BYTES)
		return false;
	if (!(rows = ser_get_bytes(s, (size_t)n * EXEC_BYTES)))
		return false;
	for (i = 0; i < n; i += EXECS_PIECE) {
		size_t k = (size_t)TD_MIN(n - i, (uint64_t)EXECS_PIECE);
		const unsigned char *q = mc_load_piece(rows + i * EXEC_BYTES, k * EXEC_BYTES);

		if (!q)
			return false;
		for (size_t j = 0; j < k; j++) {
			struct exec_row **chunk = &m->rows.echunks[(i + j) >> MODEL_CHUNK_SHIFT];

			if (!*chunk)
				*chunk = exec_chunk_new(n - (i + j) >= MODEL_CHUNK);
			if (!get_exec(q + j * EXEC_BYTES, &(*chunk)[(i + j) & (MODEL_CHUNK - 1)], c))
				return false;
		}
	}
	if (!mc_load_fill(s->p + s->off, s->n - s->off))
		return false;
	for (i = 0; i < n; i += MODEL_CHUNK)
		m->rows.ebad[i >> MODEL_CHUNK_SHIFT] = ser_get_u64(s);
	if (!get_locidx(s, &m->rows.eloc, n) || (n && !atomic_load(&m->rows.eloc.n)))
		return false;
	atomic_store(&m->rows.nexecs, n);
	return true;
}

/* ---- runs, steps, segments, running state ------------------------------- */

/* MC_RUNS's bytes, a chunk at a time (mc_section_chunked: a run per
 * execution is 3.2 MB at 200,000). */
static void
put_runs_chunked(struct model *m, struct strbuf *sb, struct mc_chunks *ck)
{
	size_t i;

	ser_put_u64(sb, m->rows.nruns);
	for (i = 0; i < m->rows.nruns; i++) {
		ser_put_u64(sb, m->rows.runs[i].first);
		ser_put_u64(sb, (uint64_t)m->rows.runs[i].execution);
		mc_chunk(ck, sb, false);
	}
	ser_put_u64(sb, m->rows.nsteps);
	for (i = 0; i < m->rows.nsteps; i++) {
		ser_put_u64(sb, m->rows.steps[i].first);
		ser_put_u64(sb, (uint64_t)m->rows.steps[i].step);
		mc_chunk(ck, sb, false);
	}
	ser_put_u64(sb, m->rows.nsegs);
	for (i = 0; i < m->rows.nsegs; i++) {
		uint64_t key = m->rows.segs[i].key;

		/* a host segment is keyed by the host string's address */
		ser_put_u64(sb, key >> 63 ? key : mc_sid(m, (const char *)(uintptr_t)key));
		ser_put_u64(sb, (uint64_t)m->rows.segs[i].cand);
		ser_put_f64(sb, m->rows.segs[i].cand_wall);
	}
	ser_put_u64(sb, (uint64_t)m->wr.last_exec_of_trace);
	ser_put_u64(sb, (uint64_t)m->wr.last_step_of_trace);
	ser_put_u8(sb, atomic_load(&m->rows.containers));
	ser_put_u8(sb, atomic_load(&m->rows.split_runs));
	ser_put_u32(sb, m->wr.last_trace_op1);
	ser_put_u64(sb, (uint64_t)m->rows.first_bad_exec);
	ser_put_f64(sb, m->rows.first_bad_exec_wall);
	ser_put_u64(sb, atomic_load(&m->rows.exec_alerts));
	ser_put_u64(sb, m->rows.npeer_links);
	for (i = 0; i < m->rows.npeer_links; i++) {
		ser_put_u64(sb, m->rows.peer_links[i].from);
		ser_put_u64(sb, m->rows.peer_links[i].to);
	}
}

static void
put_runs(struct model *m, struct mc_out *o)
{
	mc_section_chunked(o, MC_RUNS, m, put_runs_chunked);
}

/* cnt (first row, value) pairs of s appended to a list, in row order
 * (from *prev on), values >= -1. */
static bool
row_pairs(struct ser_in *s, uint64_t cnt, uint64_t nrows, uint64_t *prev, void **arr, size_t *n,
	  size_t *cap, size_t elem)
{
	for (uint64_t i = 0; i < cnt && !s->bad; i++) {
		uint64_t first = ser_get_u64(s);
		int64_t v = ser_get_i64(s);

		if (first < *prev || first > nrows || v < -1)
			return false;
		*prev = first;
		td_grow(arr, cap, *n + 1, elem);
		/* struct run and struct step_run are both {u64 first; i64 value} */
		memcpy((char *)*arr + *n * elem, &first, 8);
		memcpy((char *)*arr + *n * elem + 8, &v, 8);
		(*n)++;
	}
	return !s->bad;
}

/* A list of (first row, value) in row order, values >= -1. */
static bool
get_row_list(struct ser_in *s, uint64_t nrows, void **arr, size_t *n, size_t *cap, size_t elem)
{
	uint64_t cnt = ser_get_count(s, 16), prev = 0;

	return row_pairs(s, cnt, nrows, &prev, arr, n, cap, elem);
}

/* Pairs a piece of a streamed row list holds (mc_load_piece). */
#define PAIRS_PIECE (MC_LOAD_PIECE / 16)

/* get_row_list at the start of a section the load left out of its
 * buffer (MC_RUNS: a run per execution, 3.2 MB at 200,000): its count
 * read there, its pairs a piece at a time, then the rest of the section
 * read there for what follows. */
static bool
get_row_list_streamed(struct ser_in *s, uint64_t nrows, void **arr, size_t *n, size_t *cap,
		      size_t elem)
{
	const unsigned char *pairs;
	uint64_t cnt, prev = 0;

	if (!mc_load_fill(s->p + s->off, TD_MIN(s->n - s->off, (size_t)8)))
		return false;
	cnt = ser_get_count(s, 16);
	if (s->bad || !(pairs = ser_get_bytes(s, (size_t)cnt * 16)))
		return false;
	if (cnt && *cap < *n + cnt) {
		/* sized once (the section says how many), written whole: not
		 * grown by doubling, each step copied into fresh pages */
		*arr = xrealloc(*arr, (*n + (size_t)cnt) * elem);
		*cap = *n + (size_t)cnt;
		model_huge_inside(*arr, *cap * elem);
	}
	for (uint64_t i = 0; i < cnt; i += PAIRS_PIECE) {
		size_t k = (size_t)TD_MIN(cnt - i, (uint64_t)PAIRS_PIECE);
		const unsigned char *q = mc_load_piece(pairs + i * 16, k * 16);
		struct ser_in piece;

		if (!q)
			return false;
		ser_in_init(&piece, q, k * 16);
		if (!row_pairs(&piece, k, nrows, &prev, arr, n, cap, elem))
			return false;
	}
	return mc_load_fill(s->p + s->off, s->n - s->off);
}

static bool
get_segs(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, 24), i;

	for (i = 0; i < n && !s->bad; i++) {
		uint64_t key = ser_get_u64(s);
		int64_t cand = ser_get_i64(s);
		double wall = ser_get_f64(s);
		const char *host;

		if (!(key >> 63)) {
			if (!mc_str(m, (uint32_t)TD_MIN(key, (uint64_t)NO_ID), c, false, &host))
				return false;
			key = (uint64_t)(uintptr_t)host;
		}
		if (cand < -1 || cand >= (int64_t)c->traces || hashtab_u64_get(&m->rows.seg_by_key, key, NULL))
			return false;
		TD_GROW(m->rows.segs, m->rows.capsegs, m->rows.nsegs + 1);
		m->rows.segs[m->rows.nsegs] = (struct segment){.key = key, .cand = cand, .cand_wall = wall};
		*hashtab_u64_put(&m->rows.seg_by_key, key, m->rows.nsegs) = m->rows.nsegs;
		m->rows.nsegs++;
	}
	return !s->bad;
}

static bool
get_runs(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	_Static_assert(sizeof(struct run) == 16 && sizeof(struct step_run) == 16,
		       "run lists are read as (u64, i64) pairs");
	if (!get_row_list_streamed(s, c->traces, (void **)&m->rows.runs, &m->rows.nruns,
				   &m->rows.capruns, sizeof(*m->rows.runs)) ||
	    !get_row_list(s, c->traces, (void **)&m->rows.steps, &m->rows.nsteps, &m->rows.capsteps,
			  sizeof(*m->rows.steps)) ||
	    !get_segs(m, s, c))
		return false;
	m->wr.last_exec_of_trace = ser_get_i64(s);
	m->wr.last_step_of_trace = ser_get_i64(s);
	atomic_store(&m->rows.containers, ser_get_u8(s) != 0);
	atomic_store(&m->rows.split_runs, ser_get_u8(s) != 0);
	m->wr.last_trace_op1 = ser_get_u32(s);
	m->rows.first_bad_exec = ser_get_i64(s);
	m->rows.first_bad_exec_wall = ser_get_f64(s);
	atomic_store(&m->rows.exec_alerts, ser_get_u64(s));
	{
		uint64_t n = ser_get_count(s, 16), i;

		for (i = 0; i < n && !s->bad; i++) {
			struct reader_link l = { .from = ser_get_u64(s), .to = ser_get_u64(s) };

			if (l.from >= c->traces || l.to >= c->traces)
				return false;
			TD_GROW(m->rows.peer_links, m->rows.cappeer_links, m->rows.npeer_links + 1);
			m->rows.peer_links[m->rows.npeer_links++] = l;
		}
	}
	return !s->bad && m->wr.last_trace_op1 <= c->ops && m->rows.first_bad_exec >= -1 &&
	       m->rows.first_bad_exec < (int64_t)c->execs;
}

/* ---- sections --------------------------------------------------------------- */

void
mc_put_rows(struct model *m, struct mc_out *o)
{
	put_traces(m, o);
	put_execs(m, o);
	put_runs(m, o);
}

bool
mc_get_rows(struct model *m, struct ser_in *in, const struct mc_counts *c, bool in_place)
{
	struct ser_in s;

	if (!mc_section_in(in, MC_TRACES, &s) || !get_traces(m, &s, c, in_place) || !ser_in_done(&s))
		return false;
	if (!mc_section_in(in, MC_EXECS, &s) || !get_execs(m, &s, c) || !ser_in_done(&s))
		return false;
	mc_release(m, s.p, s.n);                /* copied into execution chunks */
	if (!mc_section_in(in, MC_RUNS, &s) || !get_runs(m, &s, c) || !ser_in_done(&s))
		return false;
	mc_release(m, s.p, s.n);                /* copied into run lists */
	return true;
}
