/*
 * model_cache_opcheck.c - the op section of a loaded cache file, checked at
 * the load and decoded on first use (issue 26: a reopen that only asks
 * `info` never builds the op table).
 *
 * The load walks the section once and applies every check the decode
 * (model_cache_ops.c) makes: string ids below the string count, op ids in
 * range, rows inside the trace table, output ranks, list lengths inside
 * the section, each name's same-name chain and op_by_name against the op
 * table, the consumer lists.  A file that fails is refused at the load,
 * with the reason the decode gives ("op chains" or "tables"), as before.
 * What passes is kept where it is: in the loaded file's private buffer
 * (model_cache.c reads the file, it does not map it), so the bytes the
 * decode reads later are the bytes checked; a file cut short or replaced
 * under the session does not reach them.  The first reader of the op
 * table calls ops_ready() (model_internal.h), which decodes the section
 * under m->th.lock with the usual code and gives its pages back.  The op
 * count, the op count per graph and the fill counters are set at the load,
 * so counts need no decode.  Not here: bytes applied by
 * model_cache_apply (not ours to keep: decoded at once), the other
 * sections.
 */
#include "model_cache.h"

#include <stdlib.h>
#include <string.h>

/* A cursor over the section, read field by field with the bounds checked
 * inline (a serial.h call per field was most of the walk: 200,000 ops of
 * about 30 fields).  Past the end, reads give 0 and bad is set. */
struct cur {
	const unsigned char *p, *end;
	bool bad;
};

static inline bool
cur_take(struct cur *c, void *out, size_t n)
{
	if ((size_t)(c->end - c->p) < n) {
		c->bad = true;
		memset(out, 0, n);
		return false;
	}
	memcpy(out, c->p, n);
	c->p += n;
	return true;
}

static inline uint32_t
cur_u32(struct cur *c)
{
	uint32_t v;

	cur_take(c, &v, sizeof v);
	return v;
}

static inline uint64_t
cur_u64(struct cur *c)
{
	uint64_t v;

	cur_take(c, &v, sizeof v);
	return v;
}

static inline void
cur_skip(struct cur *c, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		c->bad = true;
	else
		c->p += n;
}

/* serial.h's ser_get_count: a count of items of at least min bytes each
 * that fit in what is left (else bad). */
static inline uint64_t
cur_count(struct cur *c, size_t min)
{
	uint64_t n = cur_u64(c);

	if (c->bad || n > (uint64_t)(c->end - c->p) / min) {
		c->bad = true;
		return 0;
	}
	return n;
}

/* The op fields the chains check needs, kept while walking the section. */
struct opwalk {
	const struct mc_counts *c;
	uint32_t *name;             /* name sid per op */
	uint32_t *next;             /* next_same_name per op */
};

/* n bytes at the cursor, moved past them; NULL (bad) when fewer are left.
 * A run of fixed-size fields is checked once and read from the run. */
static inline const unsigned char *
cur_run(struct cur *c, size_t n)
{
	const unsigned char *p = c->p;

	if ((size_t)(c->end - p) < n) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return p;
}

static inline uint32_t
at_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

static inline uint64_t
at_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof v);
	return v;
}

/* A present list's count (u32, not 0) of items of min bytes that fit in
 * what is left (model_cache_ops.c get_n32). */
static inline uint32_t
cur_n32(struct cur *c, size_t min)
{
	uint32_t n = cur_u32(c);

	if (c->bad || !n || n > (size_t)(c->end - c->p) / min) {
		c->bad = true;
		return 0;
	}
	return n;
}

/* A detail list's count (u32, may be 0), the same bound. */
static inline uint32_t
cur_d32(struct cur *c, size_t min)
{
	uint32_t n = cur_u32(c);

	if (c->bad || n > (size_t)(c->end - c->p) / min) {
		c->bad = true;
		return 0;
	}
	return n;
}

/* An op id as written: NO_ID (none) or below the op count. */
static inline bool
op_ref_ok(uint32_t v, const struct mc_counts *c)
{
	return v == NO_ID || v < c->ops;
}

/* The section's per-op flags (model_cache_ops.c put_op). */
enum {
	OPF_ROWS = 2, OPF_ALERTS = 4, OPF_INPUTS = 8, OPF_OUT_IDS = 16, OPF_FRAMES = 32,
	OPF_DETAILS = 64,
};

/* Inputs, output ids, frame ids (model_cache_ops.c get_op_lists). */
static bool
walk_lists(struct cur *s, uint8_t f, const struct mc_counts *c)
{
	const unsigned char *p;
	uint32_t n, i;

	if (f & OPF_INPUTS) {
		n = cur_n32(s, 12);
		p = cur_run(s, (size_t)n * 12);                 /* string id, slot, op id */
		for (i = 0; p && i < n; i++, p += 12)
			if (at_u32(p) >= c->strings || !op_ref_ok(at_u32(p + 8), c))
				return false;
	}
	if (f & OPF_OUT_IDS) {
		n = cur_n32(s, 8);
		cur_skip(s, (size_t)n * 8);                     /* output ids */
	}
	if (f & OPF_FRAMES) {
		n = cur_n32(s, 4);
		p = cur_run(s, (size_t)n * 4);
		for (i = 0; p && i < n; i++, p += 4)
			if (at_u32(p) >= c->strings)
				return false;
	}
	return !s->bad;
}

/* Control inputs, attributes, output types (get_op_details). */
static bool
walk_details(struct cur *s, const struct mc_counts *c)
{
	uint32_t n = cur_d32(s, 8), i;
	const unsigned char *p = cur_run(s, (size_t)n * 8);    /* string id, op id */

	for (i = 0; p && i < n; i++, p += 8)
		if (at_u32(p) >= c->strings || !op_ref_ok(at_u32(p + 4), c))
			return false;
	n = cur_d32(s, 8);
	p = cur_run(s, (size_t)n * 8);                          /* two string ids, or NO_ID */
	for (i = 0; p && i < 2 * n; i++, p += 4)
		if (at_u32(p) >= c->strings && at_u32(p) != NO_ID)
			return false;
	n = cur_d32(s, 12);
	for (i = 0; i < n && !s->bad; i++) {
		int32_t rank;
		uint32_t nd;

		cur_skip(s, 4);                                 /* dtype */
		rank = (int32_t)cur_u32(s);
		nd = cur_u32(s);
		if (s->bad || rank < -1 || rank > 64 || nd > 64 || (nd && (int32_t)nd != rank) ||
		    nd > (size_t)(s->end - s->p) / 8)
			return false;
		cur_skip(s, (size_t)nd * 8);
	}
	return !s->bad;
}

#define OP_FIXED 29     /* name, graph, type, device, host ids; flags; outputs; next */

/* One op (put_op's layout); its name and next_same_name into w. */
static bool
walk_op(struct cur *s, struct opwalk *w, uint64_t i, uint32_t *graph)
{
	const struct mc_counts *c = w->c;
	const unsigned char *p = cur_run(s, OP_FIXED);
	uint32_t next;
	uint8_t f;

	if (!p)
		return false;
	w->name[i] = at_u32(p);
	*graph = at_u32(p + 4);
	f = p[20];
	w->next[i] = next = at_u32(p + 25);
	if (w->name[i] >= c->strings || *graph >= c->strings || at_u32(p + 8) >= c->strings ||
	    at_u32(p + 12) >= c->strings || at_u32(p + 16) >= c->strings || f >= OPF_DETAILS << 1 ||
	    !(next == NO_ID || next < c->ops))
		return false;
	if (f & OPF_ROWS) {
		uint64_t first1 = cur_u64(s), last = cur_u64(s);

		if (!first1 || first1 - 1 > last || last >= c->traces)
			return false;
	}
	if (f & OPF_ALERTS) {
		uint64_t nf = cur_u64(s);

		cur_skip(s, 8);                                 /* first_alert */
		if (nf > c->traces)
			return false;
	}
	return !s->bad && walk_lists(s, f, c) && (!(f & OPF_DETAILS) || walk_details(s, c));
}

size_t
mc_op_walk_len(const unsigned char *p, size_t avail, const struct mc_counts *c)
{
	struct cur cs = { p, p + avail, false };
	uint32_t name, next, graph;
	struct opwalk w = { c, &name, &next };

	return walk_op(&cs, &w, 0, &graph) ? (size_t)(cs.p - p) : 0;
}

/* model_cache_ops.c's check_chains on the walked arrays, with op_by_name's
 * pairs as they are in the file: each name's ops chained in id order to
 * NO_ID, one pair per name giving its first op, no other pair. */
static bool
walk_chains(struct cur *s, const struct opwalk *w)
{
	uint64_t nstr = w->c->strings, nops = w->c->ops, names = 0, n, i;
	uint32_t *head = xmalloc(nstr * sizeof(*head)), *last = xmalloc(nstr * sizeof(*last));
	bool ok = true;

	memset(head, 0xff, nstr * sizeof(*head));               /* NO_ID */
	for (i = 0; i < nops && ok; i++) {
		uint32_t k = w->name[i];

		if (head[k] == NO_ID) {
			head[k] = (uint32_t)i;
			names++;
		} else {
			ok = w->next[last[k]] == (uint32_t)i;
		}
		last[k] = (uint32_t)i;
	}
	for (i = 0; i < nops && ok; i++)
		if (head[w->name[i]] == i)
			ok = w->next[last[w->name[i]]] == NO_ID;
	n = cur_count(s, 16);
	ok = ok && !s->bad && n == names;
	for (i = 0; i < n && ok; i++) {
		uint64_t k = cur_u64(s), v = cur_u64(s);

		/* a key twice would leave a name out of the map: refused */
		ok = !s->bad && k < nstr && v < nops && head[k] == v;
		if (ok)
			head[k] = NO_ID;
	}
	free(head);
	free(last);
	return ok;
}

/* A (key, value) map as mc_get_map reads it, values below vmax. */
static bool
walk_map(struct cur *s, uint64_t vmax)
{
	uint64_t n = cur_count(s, 16), i;

	for (i = 0; i < n && !s->bad; i++) {
		uint64_t k = cur_u64(s), v = cur_u64(s);

		if (k == UINT64_MAX || v >= vmax)
			return false;
	}
	return !s->bad;
}

static bool
walk_cons(struct cur *s, const struct mc_counts *c)
{
	uint64_t n = cur_count(s, 8), i, j;

	if (s->bad || n != c->cons)
		return false;
	for (i = 0; i < n && !s->bad; i++) {
		uint64_t k = cur_count(s, 12);

		for (j = 0; j < k && !s->bad; j++) {
			if (cur_u32(s) >= c->ops)
				return false;
			cur_skip(s, 8);         /* input and output slots */
		}
	}
	return !s->bad;
}

/* The op count per graph, one update per run of ops of a graph. */
static void
count_graph(struct model *m, uint32_t *run_graph, uint64_t *run, uint32_t g)
{
	if (*run && *run_graph != g) {
		*hashtab_u64_put(&m->ot.graph_nops, *run_graph, 0) += *run;
		*run = 0;
	}
	*run_graph = g;
	(*run)++;
}

enum mc_opcheck
mc_check_ops(struct model *m, struct ser_in *sec, const struct mc_counts *c)
{
	struct cur cs = { sec->p, sec->p + sec->n, false }, *s = &cs;
	struct opwalk w = { c, NULL, NULL };
	uint64_t n = cur_count(s, OP_FIXED), i, run = 0, filled, fill_gen;
	uint32_t g = 0, run_graph = 0;
	enum mc_opcheck res = MC_OPS_BAD;

	if (s->bad || n != c->ops)
		return MC_OPS_BAD;
	w.name = xmalloc((n ? n : 1) * sizeof(*w.name));
	w.next = xmalloc((n ? n : 1) * sizeof(*w.next));
	for (i = 0; i < n; i++) {
		if (!walk_op(s, &w, i, &g))
			goto out;
		count_graph(m, &run_graph, &run, g);
	}
	filled = cur_u64(s);
	fill_gen = cur_u64(s);
	if (s->bad || filled > n)
		goto out;
	res = MC_OPS_CHAINS;
	if (!walk_chains(s, &w))
		goto out;
	res = MC_OPS_BAD;
	if (!walk_map(s, n) || !walk_map(s, c->cons) || !walk_map(s, c->cons) || !walk_cons(s, c) ||
	    s->p != s->end)
		goto out;
	count_graph(m, &run_graph, &run, run_graph ^ 1);        /* the last run */
	m->ot.nops = n;
	m->ot.nops_filled = filled;
	m->ot.fill_gen = fill_gen;
	m->icache->ops_counts = *c;
	m->icache->ops_p = sec->p;
	m->icache->ops_n = sec->n;
	atomic_store_explicit(&m->ot.ops_pending, true, memory_order_release);
	res = MC_OPS_OK;
out:
	if (res != MC_OPS_OK)
		hashtab_u64_done(&m->ot.graph_nops);
	free(w.name);
	free(w.next);
	return res;
}

/* The checked section decoded (under th.lock).  It passed the same checks
 * at the load and its bytes have not changed since (our own memory), so
 * the decode cannot fail; if it did (a check above forgot one the decode
 * makes), the op table is completed with empty ops, so every op id the
 * rows hold still names an op, and the file is marked for a rebuild. */
static void
decode_pending(struct model *m)
{
	struct model_cache *mc = m->icache;
	struct ser_in s;
	size_t n = m->ot.nops, i;

	m->ot.nops = 0;
	hashtab_u64_done(&m->ot.graph_nops);   /* counted again by the decode */
	ser_in_init(&s, mc->ops_p, mc->ops_n);
	if (!mc_get_ops(m, &s, &mc->ops_counts) || !ser_in_done(&s)) {
		if (m->ot.nops)
			m->ot.nops--;           /* the op being read may be half filled */
		if (!m->ot.opv) {
			m->ot.opv = xcalloc(n ? n : 1, sizeof(*m->ot.opv));
			m->ot.capops = n ? n : 1;
		}
		for (i = m->ot.nops; i < n; i++) {
			struct op_entry *o = &m->ot.opv[i];

			memset(o, 0, sizeof(*o));   /* string id 0 is "" */
			o->next_same_name = o->last_same_name = NO_ID;
		}
		m->ot.nops = n;
		mc_mark_stale(m, "the cached op table could not be decoded after the load: the cache "
			      "file is dropped and the next open indexes afresh");
	}
	mc_release(m, mc->ops_p, mc->ops_n);
	mc->ops_p = NULL;
	mc->ops_n = 0;
}

void
ops_ready_locked(struct model *m)
{
	if (!atomic_load_explicit(&m->ot.ops_pending, memory_order_acquire))
		return;
	decode_pending(m);
	atomic_store_explicit(&m->ot.ops_pending, false, memory_order_release);
}

void
ops_ready(struct model *m)
{
	if (!atomic_load_explicit(&m->ot.ops_pending, memory_order_acquire))
		return;
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	pthread_mutex_unlock(&m->th.lock);
}
