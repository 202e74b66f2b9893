/*
 * model_cache_ops.c - ops in a cache file (model_cache.h): the op table
 * with its inputs, output ids and frame ids, the name and alias maps, the
 * consumer lists (data and control), each op's control inputs, attributes
 * and output types.  The problems and alerts: model_cache_problems.c.
 *
 * The op hash and the op count per graph are rebuilt from the op table;
 * the rest is written as it is and checked when read back (every op id
 * below the op count, every string id below the string count).
 */
#include "model_cache.h"

#include <stdlib.h>
#include <string.h>

/* A list of n items of o's (n > 0, bounded by the bytes left): carved
 * from the op table's slab, one allocation per 1 MB of lists instead of
 * one per list (a 200,000-op file has about half a million). */
static void *
op_list(struct model *m, struct op_entry *o, uint64_t n, size_t size)
{
	o->lists_slab = true;
	return ops_slab_alloc(m, (size_t)n * size);
}

/* o's list block, from the slab too (a loaded op's lists_slab). */
static struct op_more *
op_more(struct model *m, struct op_entry *o)
{
	if (!o->more)
		o->more = op_list(m, o, 1, sizeof(*o->more));
	return o->more;
}

/* An empty list block for an op without one: what put_op writes for it. */
static const struct op_more no_more;

/* A list count (u32) of items of at least min bytes each that fit in what
 * is left of s; 0 with s bad if not.  A list a flag says present is not
 * empty (put_op writes no empty list). */
static uint32_t
get_n32(struct ser_in *s, size_t min)
{
	uint32_t n = ser_get_u32(s);

	if (s->bad || !n || n > (s->n - s->off) / min) {
		s->bad = true;
		return 0;
	}
	return n;
}

/* Control inputs, attributes and output types (op details). */
static void
put_op_details(struct model *m, const struct op_more *x, struct strbuf *sb)
{
	size_t i;

	ser_put_u32(sb, x->nctrl);
	for (i = 0; i < x->nctrl; i++) {
		mc_put_sp(sb, m, x->ctrl[i].op_name);
		ser_put_u32(sb, x->ctrl[i].op < 0 ? NO_ID : (uint32_t)x->ctrl[i].op);
	}
	ser_put_u32(sb, x->nattrs);
	for (i = 0; i < x->nattrs; i++) {
		mc_put_sp(sb, m, x->attrs[i].name);
		mc_put_sp(sb, m, x->attrs[i].value);
	}
	ser_put_u32(sb, x->nout_types);
	for (i = 0; i < x->nout_types; i++) {
		const struct model_output_type *t = &x->out_types[i];
		size_t nd = t->rank > 0 && t->dims ? (size_t)t->rank : 0;

		ser_put_u32(sb, (uint32_t)t->dtype);
		ser_put_u32(sb, (uint32_t)(int32_t)t->rank);
		ser_put_u32(sb, (uint32_t)nd);
		for (size_t k = 0; k < nd; k++)
			ser_put_u64(sb, (uint64_t)t->dims[k]);
	}
}

/* An op id as the section writes it: NO_ID for -1 (none). */
static int64_t
op_ref(uint32_t v)
{
	return v == NO_ID ? -1 : (int64_t)v;
}

static bool
get_op_details(struct model *m, struct op_entry *o, struct ser_in *s, const struct mc_counts *c)
{
	uint32_t n = ser_get_u32(s), i;         /* the three counts may be 0 here */
	struct op_more *x;

	if (n > (s->n - s->off) / 8)            /* string id, op id */
		s->bad = true;
	if (n && !s->bad) {
		x = op_more(m, o);
		x->ctrl = op_list(m, o, n, sizeof(*x->ctrl));
		for (i = 0; i < n && !s->bad; i++) {
			mc_get_sp(s, m, c, false, &x->ctrl[i].op_name);
			x->ctrl[i].op = op_ref(ser_get_u32(s));
			if (x->ctrl[i].op >= (int64_t)c->ops)
				s->bad = true;
		}
		x->nctrl = n;
	}
	n = ser_get_u32(s);
	if (n > (s->n - s->off) / 8)            /* two string ids */
		s->bad = true;
	if (n && !s->bad) {
		x = op_more(m, o);
		x->attrs = op_list(m, o, n, sizeof(*x->attrs));
		for (i = 0; i < n && !s->bad; i++) {
			mc_get_sp(s, m, c, true, &x->attrs[i].name);
			mc_get_sp(s, m, c, true, &x->attrs[i].value);
		}
		x->nattrs = n;
	}
	n = ser_get_u32(s);
	if (n > (s->n - s->off) / 12)
		s->bad = true;
	if (n && !s->bad) {
		x = op_more(m, o);
		x->out_types = op_list(m, o, n, sizeof(*x->out_types));
		x->nout_types = n;
		for (i = 0; i < n && !s->bad; i++) {
			struct model_output_type *t = &x->out_types[i];
			uint32_t dt = ser_get_u32(s);
			int32_t rank = (int32_t)ser_get_u32(s);
			uint32_t nd = ser_get_u32(s);
			int64_t *d = NULL;

			if (s->bad || rank < -1 || rank > 64 || nd > 64 || (nd && (int32_t)nd != rank) ||
			    nd > (s->n - s->off) / 8) {
				s->bad = true;
				break;
			}
			if (nd) {
				d = op_list(m, o, nd, sizeof(*d));
				for (uint32_t k = 0; k < nd; k++)
					d[k] = ser_get_i64(s);
			}
			*t = (struct model_output_type){ (enum td_dtype)dt, (int)rank, d };
		}
	}
	return !s->bad;
}

/* The section's per-op flags: which optional parts follow the fixed ones
 * (an op writes only what it has: a 200,000-entry statistics dump's op
 * record took 169 bytes with every count and row field written, 85 now). */
enum {
	OPF_PLACEHOLDER = 1, OPF_ROWS = 2, OPF_ALERTS = 4, OPF_INPUTS = 8, OPF_OUT_IDS = 16,
	OPF_FRAMES = 32, OPF_DETAILS = 64,
};

static uint8_t
op_flags(const struct op_entry *o, const struct op_more *x)
{
	return (uint8_t)((o->placeholder ? OPF_PLACEHOLDER : 0) | (o->first_row1 ? OPF_ROWS : 0) |
			 (x->nf_rows || x->first_alert ? OPF_ALERTS : 0) |
			 (o->ninputs ? OPF_INPUTS : 0) | (x->nout_ids ? OPF_OUT_IDS : 0) |
			 (x->nframes ? OPF_FRAMES : 0) |
			 (x->nctrl || x->nattrs || x->nout_types ? OPF_DETAILS : 0));
}

/* String ids of input names by the name's address, direct-mapped: the
 * same few labels ("input.0" of every op of a reader that labels its
 * leaves) would be hashed again for every op, in both passes of the
 * chunked save. */
#define SID_MEMO 64
struct sid_memo {
	const char *p[SID_MEMO];
	uint32_t sid[SID_MEMO];
};

static uint32_t
memo_sid(struct model *m, struct sid_memo *memo, const char *s)
{
	size_t k = ((uintptr_t)s >> 3) % SID_MEMO;

	if (memo->p[k] != s) {
		memo->p[k] = s;
		memo->sid[k] = mc_sid(m, s);
	}
	return memo->sid[k];
}

/* Op id's entry (the layout: model_cache_opcheck.c's walk_op).  The
 * writer's guesses (wr.opw) are not written: a loaded op has none until
 * the writer meets it again. */
static void
put_op(struct model *m, uint32_t id, struct strbuf *sb, struct sid_memo *memo)
{
	const struct op_entry *o = &m->ot.opv[id];
	const struct op_more *x = o->more ? o->more : &no_more;
	uint8_t f = op_flags(o, x);
	size_t i;

	ser_put_u32(sb, o->name_sid);
	ser_put_u32(sb, o->graph_sid);
	ser_put_u32(sb, o->type_sid);
	ser_put_u32(sb, o->device_sid);
	ser_put_u32(sb, o->host_sid);
	ser_put_u8(sb, f);
	ser_put_u32(sb, o->num_outputs);
	ser_put_u32(sb, o->next_same_name);
	if (f & OPF_ROWS) {
		ser_put_u64(sb, o->first_row1);
		ser_put_u64(sb, o->last_row);
	}
	if (f & OPF_ALERTS) {
		ser_put_u64(sb, x->nf_rows);
		ser_put_u64(sb, x->first_alert);
	}
	if (f & OPF_INPUTS) {
		ser_put_u32(sb, o->ninputs);
		for (i = 0; i < o->ninputs; i++) {
			ser_put_u32(sb, o->inputs[i].op_name ?
					    memo_sid(m, memo, o->inputs[i].op_name) : NO_ID);
			ser_put_u32(sb, o->inputs[i].slot);
			ser_put_u32(sb, o->inputs[i].op < 0 ? NO_ID : (uint32_t)o->inputs[i].op);
		}
	}
	if (f & OPF_OUT_IDS) {
		ser_put_u32(sb, x->nout_ids);
		for (i = 0; i < x->nout_ids; i++)
			ser_put_u64(sb, (uint64_t)x->out_ids[i]);
	}
	if (f & OPF_FRAMES) {
		ser_put_u32(sb, x->nframes);
		for (i = 0; i < x->nframes; i++)
			ser_put_u32(sb, x->frame_sids[i]);
	}
	if (f & OPF_DETAILS)
		put_op_details(m, x, sb);
}

/* One op's fixed fields are read as one run of bytes (put_op wrote them
 * one after the other, each as its bytes in this machine's order), not a
 * serial call per field. */
static uint32_t
take_u32(const unsigned char **p)
{
	uint32_t v;

	memcpy(&v, *p, sizeof v);
	*p += sizeof v;
	return v;
}

/* The n inputs at p (string id, slot, op id each) as o's list: the list
 * of an earlier op of its graph read from the same bytes, else read,
 * checked and kept (ops_inputs_loaded_add), or read straight into the
 * slab once li has stopped looking. */
static bool
get_op_inputs(struct model *m, struct op_entry *o, const unsigned char *p, uint32_t n,
	      const struct mc_counts *c, struct loaded_inputs *li)
{
	const unsigned char *key = p;
	struct model_tensor_ref *refs = ops_inputs_loaded_find(li, o->graph_sid, key, (size_t)n * 12);
	uint32_t i;

	if (!refs) {
		if (li->off) {
			refs = ops_slab_alloc(m, (size_t)n * sizeof(*refs));
		} else {
			TD_GROW(li->tmp, li->captmp, n);
			refs = li->tmp;
		}
		for (i = 0; i < n; i++) {
			struct model_tensor_ref *in = &refs[i];

			if (!mc_str(m, take_u32(&p), c, false, &in->op_name))
				return false;
			in->slot = take_u32(&p);
			in->op = op_ref(take_u32(&p));
			if (in->op >= (int64_t)c->ops)
				return false;
		}
		if (!li->off)
			refs = ops_inputs_loaded_add(m, li, o->graph_sid, key, (size_t)n * 12, refs, n);
	}
	o->lists_slab = true;
	o->inputs = refs;
	o->ninputs = n;
	return true;
}

static bool
get_op_lists(struct model *m, struct op_entry *o, uint8_t f, struct ser_in *s,
	     const struct mc_counts *c, struct loaded_inputs *li)
{
	const unsigned char *p;
	struct op_more *x;
	uint32_t n, i;

	if (f & OPF_INPUTS) {
		n = get_n32(s, 12);
		if (!(p = ser_get_bytes(s, (size_t)n * 12)) ||  /* string id, slot, op id */
		    !get_op_inputs(m, o, p, n, c, li))
			return false;
	}
	if (f & OPF_OUT_IDS) {
		n = get_n32(s, 8);
		if (!(p = ser_get_bytes(s, (size_t)n * 8)))
			return false;
		x = op_more(m, o);
		x->out_ids = op_list(m, o, n, sizeof(*x->out_ids));
		memcpy(x->out_ids, p, (size_t)n * 8);
		x->nout_ids = n;
	}
	if (f & OPF_FRAMES) {
		n = get_n32(s, 4);
		if (!(p = ser_get_bytes(s, (size_t)n * 4)))
			return false;
		x = op_more(m, o);
		x->frame_sids = op_list(m, o, n, sizeof(*x->frame_sids));
		x->nframes = n;
		for (i = 0; i < n; i++)
			if ((x->frame_sids[i] = take_u32(&p)) >= c->strings)
				return false;
	}
	return !s->bad;
}

#define OP_FIXED 29     /* name, graph, type, device, host ids; flags; outputs; next */

static bool
get_op(struct model *m, struct op_entry *o, struct ser_in *s, const struct mc_counts *c,
       struct loaded_inputs *li)
{
	const unsigned char *p = ser_get_bytes(s, OP_FIXED);
	uint8_t f;

	if (!p)
		return false;
	o->name_sid = take_u32(&p);
	o->graph_sid = take_u32(&p);
	o->type_sid = take_u32(&p);
	o->device_sid = take_u32(&p);
	o->host_sid = take_u32(&p);
	if (o->name_sid >= c->strings || o->graph_sid >= c->strings || o->type_sid >= c->strings ||
	    o->device_sid >= c->strings || o->host_sid >= c->strings)
		return false;
	f = *p++;
	o->placeholder = (f & OPF_PLACEHOLDER) != 0;
	o->num_outputs = take_u32(&p);
	o->next_same_name = take_u32(&p);
	if (f & OPF_ROWS) {
		o->first_row1 = ser_get_u64(s);
		o->last_row = ser_get_u64(s);
		if (!o->first_row1 || o->first_row1 - 1 > o->last_row || o->last_row >= c->traces)
			return false;
	}
	if (f & OPF_ALERTS) {
		struct op_more *x = op_more(m, o);

		x->nf_rows = ser_get_u64(s);
		x->first_alert = ser_get_u64(s);
		if (x->nf_rows > c->traces)
			return false;
	}
	if (f >= OPF_DETAILS << 1 || !get_op_lists(m, o, f, s, c, li) ||
	    ((f & OPF_DETAILS) && !get_op_details(m, o, s, c)))
		return false;
	return !s->bad && (o->next_same_name == NO_ID || o->next_same_name < c->ops);
}

void
mc_put_ops_chunked(struct model *m, struct strbuf *sb, struct mc_chunks *ck)
{
	struct sid_memo memo = {0};
	size_t i, j;

	ser_put_u64(sb, m->ot.nops);
	for (i = 0; i < m->ot.nops; i++) {
		put_op(m, (uint32_t)i, sb, &memo);
		mc_chunk(ck, sb, false);
	}
	ser_put_u64(sb, m->ot.nops_filled);
	ser_put_u64(sb, m->ot.fill_gen);
	/* the name map as (name sid, first op) pairs, as a hash map's were */
	ser_put_u64(sb, m->ot.nnames);
	for (i = 0; i < m->ot.nname_first; i++) {
		if (m->ot.name_first[i] != NO_ID) {
			ser_put_u64(sb, i);
			ser_put_u64(sb, m->ot.name_first[i]);
			mc_chunk(ck, sb, false);
		}
	}
	mc_put_map(sb, &m->ot.op_by_alias);
	mc_chunk(ck, sb, false);
	mc_put_map(sb, &m->ot.consumer_idx);
	mc_chunk(ck, sb, false);
	mc_put_map(sb, &m->ot.ctrl_consumer_idx);
	ser_put_u64(sb, m->ot.ncons);
	for (i = 0; i < m->ot.ncons; i++) {
		ser_put_u64(sb, m->ot.cons[i].n);
		for (j = 0; j < m->ot.cons[i].n; j++) {
			ser_put_u32(sb, m->ot.cons[i].items[j].op);
			ser_put_u32(sb, m->ot.cons[i].items[j].input_slot);
			ser_put_u32(sb, m->ot.cons[i].items[j].output_slot);
			mc_chunk(ck, sb, false);
		}
	}
}

void
mc_put_ops(struct model *m, struct strbuf *sb)
{
	mc_put_ops_chunked(m, sb, NULL);
}

static bool
get_cons(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, 8), i, j;

	if (n != c->cons)
		return false;
	m->ot.cons = xcalloc(n ? n : 1, sizeof(*m->ot.cons));
	m->ot.capcons = n ? n : 1;
	for (i = 0; i < n && !s->bad; i++) {
		struct consumer_list *cl = &m->ot.cons[m->ot.ncons++];
		uint64_t k = ser_get_count(s, 12);

		if (!k)
			continue;
		cl->items = xcalloc(k, sizeof(*cl->items));
		cl->cap = cl->n = k;
		for (j = 0; j < k; j++) {
			cl->items[j].op = ser_get_u32(s);
			cl->items[j].input_slot = ser_get_u32(s);
			cl->items[j].output_slot = ser_get_u32(s);
			if (cl->items[j].op >= c->ops)
				s->bad = true;
		}
	}
	return !s->bad;
}

/* The same-name chains checked against the op table, which alone decides
 * them: the name map gives each name's first op, each op's next_same_name
 * is the next op of its name (a higher id) and the last op's is NO_ID.  A
 * chain that loops or skips (a forged file: op_by_name_locked would spin)
 * refuses the file.  Each head's last_same_name is set, so an op added
 * after the load is chained after its name's last op, not after op 0.
 * An array by name sid (nstrings: every name sid is below it) gives each
 * name's head: it becomes the model's name map (ot.name_first), once the
 * file's pairs (read from s) are found to be exactly those heads: as many
 * pairs as names, each name once, each pair's op its name's head. */
/* Name-map pairs a piece holds when they are streamed (mc_load_piece). */
#define CHAIN_PAIRS_PIECE (MC_LOAD_PIECE / 16)

static bool
check_chains(struct model *m, struct ser_in *s, uint64_t nstrings, bool streamed)
{
	uint32_t *head = xmalloc((nstrings ? nstrings : 1) * sizeof(*head));
	uint8_t *seen = NULL;
	const unsigned char *pairs;
	uint64_t names = 0, k, v, n;
	size_t i;
	bool ok = true;

	memset(head, 0xff, (nstrings ? nstrings : 1) * sizeof(*head));     /* NO_ID */
	for (i = 0; i < m->ot.nops && ok; i++) {
		struct op_entry *o = &m->ot.opv[i];
		uint32_t *h = &head[o->name_sid];

		if (*h == NO_ID) {
			*h = (uint32_t)i;
			names++;
		} else {
			struct op_entry *first = &m->ot.opv[*h];

			ok = m->ot.opv[first->last_same_name].next_same_name == (uint32_t)i;
		}
		m->ot.opv[*h].last_same_name = (uint32_t)i;
	}
	n = ser_get_count(s, 16);
	ok = ok && !s->bad && n == names;       /* no name without an op */
	pairs = ok ? ser_get_bytes(s, (size_t)n * 16) : NULL;
	ok = ok && (pairs || !n);
	if (ok)
		seen = xcalloc(nstrings / 8 + 1, 1);
	/* streamed: the pairs a piece at a time, not in the load's buffer,
	 * then what follows them read there */
	for (i = 0; i < n && ok; i += CHAIN_PAIRS_PIECE) {
		size_t np = (size_t)TD_MIN(n - i, (uint64_t)CHAIN_PAIRS_PIECE);
		const unsigned char *q = streamed ? mc_load_piece(pairs + i * 16, np * 16) : pairs + i * 16;

		if (!q) {
			s->bad = true;          /* cut short: not the chains' fault */
			ok = false;
		}
		for (size_t j = 0; j < np && ok; j++, q += 16) {
			memcpy(&k, q, 8);
			memcpy(&v, q + 8, 8);
			ok = k < nstrings && head[k] == v && !(seen[k / 8] & (1u << (k % 8)));
			if (ok)
				seen[k / 8] |= (uint8_t)(1u << (k % 8));
		}
	}
	free(seen);
	if (ok && streamed && !mc_load_fill(s->p + s->off, s->n - s->off)) {
		s->bad = true;
		ok = false;
	}
	for (i = 0; i < m->ot.nops && ok; i++) {
		struct op_entry *o = &m->ot.opv[i];

		if (head[o->name_sid] == i)
			ok = m->ot.opv[o->last_same_name].next_same_name == NO_ID;
	}
	if (!ok) {
		free(head);
		if (!s->bad)
			mc_refuse(m, "op chains");
		return false;
	}
	free(m->ot.name_first);
	m->ot.name_first = head;
	m->ot.nname_first = nstrings ? nstrings : 1;
	m->ot.nnames = names;
	return true;
}

/* The op count per graph: one count per run of ops of the same graph (a
 * dump's ops come graph by graph), not a hash update per op. */
static void
count_graph_ops(struct model *m)
{
	size_t i, j;

	for (i = 0; i < m->ot.nops; i = j) {
		uint32_t g = m->ot.opv[i].graph_sid;

		for (j = i + 1; j < m->ot.nops && m->ot.opv[j].graph_sid == g; j++)
			;
		*hashtab_u64_put(&m->ot.graph_nops, g, 0) += j - i;
	}
}

static bool get_ops_tail(struct model *m, struct ser_in *s, const struct mc_counts *c, uint64_t n,
			 bool streamed);

bool
mc_get_ops(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	uint64_t n = ser_get_count(s, OP_FIXED), i;
	size_t done = 0;
	struct loaded_inputs li = {0};
	bool ok = true;

	if (n != c->ops)
		return false;
	m->ot.opv = xcalloc(n ? n : 1, sizeof(*m->ot.opv));
	m->ot.capops = n ? n : 1;
	for (i = 0; i < n; i++) {
		struct op_entry *o = &m->ot.opv[m->ot.nops++];

		if (!(ok = get_op(m, o, s, c, &li)))
			break;
		if (i % 4096 == 4095)
			mc_release_read(m, s, &done);   /* the ops copied so far */
	}
	ops_inputs_loaded_done(&li);
	return ok && get_ops_tail(m, s, c, n, false);
}

/* The op window of mc_get_ops_streamed: the section's bytes [at, at + n)
 * in the load's scratch (p), NULL before the first read or after a read
 * that failed. */
struct op_window {
	const unsigned char *p;
	size_t at, n;
};

/* The length of the op at the section's offset off, its bytes in the
 * window (slid there if the op runs past it); 0 when the op is not whole
 * and valid in a window that starts at it (longer than a piece, the
 * section's end reached, bad bytes, or a read that failed). */
static size_t
op_in_window(const struct ser_in *s, struct op_window *w, size_t off, const struct mc_counts *c)
{
	size_t len;

	for (;;) {
		if (w->p && off >= w->at && off < w->at + w->n &&
		    (len = mc_op_walk_len(w->p + (off - w->at), w->n - (off - w->at), c)))
			return len;
		if (w->p && off == w->at)
			return 0;
		w->at = off;
		w->n = TD_MIN(s->n - off, (size_t)MC_LOAD_PIECE);
		if (!w->n || !(w->p = mc_load_piece(s->p + off, w->n)))
			return 0;
	}
}

bool
mc_get_ops_streamed(struct model *m, struct ser_in *s, const struct mc_counts *c)
{
	struct op_window w = { NULL, 0, 0 };
	struct loaded_inputs li = {0};
	uint64_t n, i;
	size_t off = 8, len;
	bool ok = true, in_buffer = false;

	if (s->n < 8 || !mc_load_fill(s->p, 8))
		return false;
	n = ser_get_count(s, OP_FIXED);
	if (s->bad || n != c->ops)
		return false;
	m->ot.opv = xcalloc(n ? n : 1, sizeof(*m->ot.opv));
	m->ot.capops = n ? n : 1;
	model_huge_inside(m->ot.opv, (size_t)n * sizeof(*m->ot.opv));
	for (i = 0; i < n && ok; i++) {
		struct op_entry *o = &m->ot.opv[m->ot.nops++];
		struct ser_in one;

		if (!in_buffer && !(len = op_in_window(s, &w, off, c))) {
			/* the rest read at its place, as a section the load reads */
			in_buffer = true;
			s->off = off;
			if (!mc_load_fill(s->p + off, s->n - off)) {
				ok = false;
				break;
			}
		}
		if (in_buffer) {
			ok = get_op(m, o, s, c, &li);
			continue;
		}
		/* the walk found len bytes: the decode reads exactly those */
		ser_in_init(&one, w.p + (off - w.at), len);
		ok = get_op(m, o, &one, c, &li) && one.off == len;
		off += len;
	}
	ops_inputs_loaded_done(&li);
	if (ok && !in_buffer) {
		/* the fill counters and the name map's count read at their
		 * place; the map's pairs streamed (check_chains) */
		s->off = off;
		ok = mc_load_fill(s->p + off, TD_MIN(s->n - off, (size_t)24));
	}
	return ok && get_ops_tail(m, s, c, n, !in_buffer);
}

/* What follows the ops: the fill counters, the name map (checked against
 * the chains), the alias and consumer maps, the consumer lists. */
static bool
get_ops_tail(struct model *m, struct ser_in *s, const struct mc_counts *c, uint64_t n, bool streamed)
{
	count_graph_ops(m);
	m->ot.nops_filled = ser_get_u64(s);
	m->ot.fill_gen = ser_get_u64(s);
	if (s->bad || m->ot.nops_filled > n)
		return false;
	ops_rehash(m);
	return check_chains(m, s, c->strings, streamed) &&
	       mc_get_map(s, &m->ot.op_by_alias, n) && mc_get_map(s, &m->ot.consumer_idx, c->cons) &&
	       mc_get_map(s, &m->ot.ctrl_consumer_idx, c->cons) && get_cons(m, s, c);
}
