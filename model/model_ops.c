/*
 * model_ops.c - ops, graphs, hosts, the consumer map and row links.
 *
 * An op is keyed by (graph id, op name).  A trace naming an op the dump has
 * not described (yet) gets a placeholder op with type "" that a later
 * on_op fills in place, so the 4-byte op reference of a row never changes.
 * Inputs are kept as names and resolved in the op's own graph when asked
 * (an input from an outer graph may not resolve; it keeps op = -1).
 * Links from a row to its producers/consumers scan the op-reference array,
 * a plain memory scan (time order is the only link: the TensorFlow v2
 * reader's FORMAT.md, section Links).
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

/* The op hash is keyed by (graph id string id, op name); name_hash is
 * hashtab_str_hash(name). */
static uint32_t
op_key_hash(uint32_t graph_sid, uint32_t name_hash)
{
	return name_hash ^ (graph_sid * 0x9e3779b1u);
}

/* The key an op lookup compares: its graph's string id and its name. */
struct op_key {
	uint32_t graph_sid;
	const char *name;
};

static bool
op_key_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct model *m = ctx;
	const struct op_entry *o = &m->ot.opv[id];
	const struct op_key *k = key;

	return o->graph_sid == k->graph_sid && strcmp(ops_name(m, o), k->name) == 0;
}

static void ophash_build_locked(struct model *m);

static uint32_t
lookup_sid_hashed(struct model *m, uint32_t graph_sid, const char *name, uint32_t name_hash)
{
	struct op_key k = { graph_sid, name };

	/* Before the op hash exists (so under m->th.lock, the contract): a
	 * name no op has is answered without hashing every op.  Inputs named
	 * by argument ("input.0") name none: the diff's first divergence asks
	 * for them, and a reopen has no hash yet (issue 27). */
	if (!atomic_load_explicit(&m->ot.ophash_built, memory_order_acquire)) {
		uint32_t sid = intern_find_hashed(&m->str, name, name_hash);

		if (sid == NO_ID || ops_first_of_name(m, sid) == NO_ID)
			return NO_ID;
	}
	ophash_build_locked(m);
	return hashtab_find(&m->ot.ophash, op_key_hash(graph_sid, name_hash), op_key_eq, m, &k);
}

uint32_t
ops_lookup_sid(struct model *m, uint32_t graph_sid, const char *name)
{
	return lookup_sid_hashed(m, graph_sid, name, hashtab_str_hash(name));
}

uint32_t
ops_lookup_hashed(struct model *m, const char *graph_id, const char *name, uint32_t name_hash)
{
	uint32_t sid = intern_find(&m->str, graph_id);

	return sid == NO_ID ? NO_ID : lookup_sid_hashed(m, sid, name, name_hash);
}

uint32_t
ops_lookup(struct model *m, const char *graph_id, const char *name)
{
	return ops_lookup_hashed(m, graph_id, name, hashtab_str_hash(name));
}

static void
ophash_insert_hashed(struct model *m, uint32_t id, uint32_t name_hash)
{
	hashtab_add(&m->ot.ophash, op_key_hash(m->ot.opv[id].graph_sid, name_hash), id);
}

static void
ophash_insert(struct model *m, uint32_t id)
{
	ophash_insert_hashed(m, id, hashtab_str_hash(ops_name(m, &m->ot.opv[id])));
}

void
ops_rehash(struct model *m)
{
	hashtab_done(&m->ot.ophash);
	memset(&m->ot.ophash, 0, sizeof(m->ot.ophash));
	atomic_store_explicit(&m->ot.ophash_built, false, memory_order_release);
}

/* The op hash from opv, sized once, the first time a lookup or an added
 * op needs it (under m->th.lock, or on the writer once built). */
static void
ophash_build_locked(struct model *m)
{
	size_t i;

	if (atomic_load_explicit(&m->ot.ophash_built, memory_order_acquire))
		return;
	hashtab_done(&m->ot.ophash);
	hashtab_init(&m->ot.ophash, m->ot.nops + 1 > 512 ? m->ot.nops + 1 : 512);
	for (i = 0; i < m->ot.nops; i++)
		ophash_insert(m, (uint32_t)i);
	atomic_store_explicit(&m->ot.ophash_built, true, memory_order_release);
}

void
ops_hash_ready(struct model *m)
{
	if (atomic_load_explicit(&m->ot.ophash_built, memory_order_acquire))
		return;
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	ophash_build_locked(m);
	pthread_mutex_unlock(&m->th.lock);
}

uint16_t
hosts_index(struct model *m, const char *host)
{
	uint32_t sid = intern_add(&m->str, host ? host : "");
	size_t i;

	for (i = 0; i < m->src.nhosts; i++)
		if (m->src.hosts[i] == sid)
			return (uint16_t)i;
	if (m->src.nhosts >= UINT16_MAX)
		return 0;
	TD_GROW(m->src.hosts, m->src.caphosts, m->src.nhosts + 1);
	m->src.hosts[m->src.nhosts] = sid;
	return (uint16_t)m->src.nhosts++;
}

static const char *
arena_str(struct model *m, const char *s)
{
	return intern_str(&m->str, intern_add(&m->str, s ? s : ""));
}

struct op_more *
ops_more(struct model *m, struct op_entry *o)
{
	if (!o->more)
		o->more = o->lists_slab ? ops_slab_alloc(m, sizeof(*o->more)) :
					  xcalloc(1, sizeof(*o->more));
	return o->more;
}

struct op_writer *
ops_writer(struct model *m, uint32_t id)
{
	if (id >= m->wr.nopw) {
		size_t n = (size_t)id + 1;

		TD_GROW(m->wr.opw, m->wr.capopw, n);
		memset(m->wr.opw + m->wr.nopw, 0, (n - m->wr.nopw) * sizeof(*m->wr.opw));
		m->wr.nopw = n;
	}
	return &m->wr.opw[id];
}

/* Attributes and output types (under m->th.lock). */
static void
ops_fill_details(struct model *m, struct op_entry *o, const struct reader_op *op)
{
	size_t i;

	if (op->nattrs && op->attrs) {
		struct op_more *x = ops_more(m, o);

		x->attrs = xcalloc(op->nattrs, sizeof(*x->attrs));
		for (i = 0; i < op->nattrs; i++) {
			x->attrs[i].name = arena_str(m, op->attrs[i].name);
			x->attrs[i].value = arena_str(m, op->attrs[i].value);
		}
		x->nattrs = (uint32_t)op->nattrs;
	}
	if (op->noutput_types && op->output_types) {
		struct op_more *x = ops_more(m, o);

		x->out_types = xcalloc(op->noutput_types, sizeof(*x->out_types));
		for (i = 0; i < op->noutput_types; i++) {
			const struct reader_output_type *t = &op->output_types[i];
			int64_t *d = NULL;

			if (t->rank > 0 && t->dims) {
				d = xmalloc((size_t)t->rank * sizeof(*d));
				memcpy(d, t->dims, (size_t)t->rank * sizeof(*d));
			}
			x->out_types[i] = (struct model_output_type){ t->dtype,
								      t->rank > 0 && !d ? -1 : t->rank, d };
		}
		x->nout_types = (uint32_t)op->noutput_types;
	}
}

/* Copies the descriptive fields of op into entry id (under m->th.lock). */
void
ops_fill(struct model *m, uint32_t id, const struct reader_op *op)
{
	struct op_entry *o = &m->ot.opv[id];
	uint32_t old_type = o->type_sid;
	size_t i;

	if (o->lists_slab) {
		/* a loaded placeholder's lists (the writer gives it none): the
		 * fill replaces them, with lists of its own; its alert facts
		 * move to its own block */
		uint64_t nf = ops_nf_rows(o), first = ops_first_alert(o);

		if (o->more)
			model_graveyard(m, o->more->stack);
		o->inputs = NULL;
		o->more = NULL;
		o->ninputs = 0;
		o->lists_slab = false;
		if (nf || first) {
			ops_more(m, o)->nf_rows = nf;
			o->more->first_alert = first;
		}
	}
	o->type_sid = intern_add(&m->str, op->op_type ? op->op_type : "");
	if (o->placeholder && ops_nf_rows(o) && old_type != o->type_sid)
		alerts_group_retype(m, old_type, o->type_sid, ops_nf_rows(o), ops_first_alert(o));
	o->device_sid = intern_add(&m->str, op->device ? op->device : "");
	o->host_sid = intern_add(&m->str, op->host ? op->host : "");
	o->num_outputs = op->num_outputs;
	if (op->ninputs)
		ops_inputs_fill(m, id, op);
	if (op->ncontrol_inputs && op->control_inputs) {
		struct op_more *x = ops_more(m, o);

		x->ctrl = xcalloc(op->ncontrol_inputs, sizeof(*x->ctrl));
		for (i = 0; i < op->ncontrol_inputs; i++) {
			x->ctrl[i].op_name = arena_str(m, op->control_inputs[i]);
			x->ctrl[i].op = -1;
			ops_consumers_add(m, &m->ot.ctrl_consumer_idx, o->graph_sid, x->ctrl[i].op_name,
					  id, (uint32_t)i, 0);
		}
		x->nctrl = (uint32_t)op->ncontrol_inputs;
	}
	ops_fill_details(m, o, op);
	if (op->noutput_tensor_ids && op->output_tensor_ids) {
		struct op_more *x = ops_more(m, o);

		x->out_ids = xmalloc(op->noutput_tensor_ids * sizeof(*x->out_ids));
		memcpy(x->out_ids, op->output_tensor_ids, op->noutput_tensor_ids * sizeof(*x->out_ids));
		x->nout_ids = (uint32_t)op->noutput_tensor_ids;
	}
	if (op->nframes && op->frame_ids) {
		struct op_more *x = ops_more(m, o);

		x->frame_sids = xmalloc(op->nframes * sizeof(*x->frame_sids));
		for (i = 0; i < op->nframes; i++)
			x->frame_sids[i] = intern_add(&m->str, op->frame_ids[i] ? op->frame_ids[i] : "");
		x->nframes = (uint32_t)op->nframes;
	}
	for (i = 0; op->aliases && i < op->naliases; i++)
		if (op->aliases[i] && *op->aliases[i])
			hashtab_u64_put(&m->ot.op_by_alias, intern_add(&m->str, op->aliases[i]), id);
	if (o->placeholder) {
		o->placeholder = false;
		m->ot.fill_gen++;
	}
	m->ot.nops_filled++;
}

/* Name sid's first op is id (a name without one yet; under m->th.lock). */
static void
name_first_set(struct model *m, uint32_t sid, uint32_t id)
{
	if (sid >= m->ot.nname_first) {
		size_t n = m->ot.nname_first, cap = n ? n : 64;

		while (cap <= sid)
			cap *= 2;
		m->ot.name_first = xrealloc(m->ot.name_first, cap * sizeof(*m->ot.name_first));
		memset(m->ot.name_first + n, 0xff, (cap - n) * sizeof(*m->ot.name_first));  /* NO_ID */
		m->ot.nname_first = cap;
	}
	m->ot.name_first[sid] = id;
	m->ot.nnames++;
}

/* Adds an op (under m->th.lock); a placeholder has only its key. */
uint32_t
ops_add(struct model *m, const struct reader_op *op, bool placeholder)
{
	return ops_add_hashed(m, op, placeholder, hashtab_str_hash(op->op_name ? op->op_name : ""));
}

uint32_t
ops_add_hashed(struct model *m, const struct reader_op *op, bool placeholder, uint32_t name_hash)
{
	struct op_entry *o;
	uint32_t id = (uint32_t)m->ot.nops, first;
	uint64_t *n;

	ophash_build_locked(m);
	TD_GROW(m->ot.opv, m->ot.capops, m->ot.nops + 1);
	o = &m->ot.opv[id];
	memset(o, 0, sizeof(*o));
	o->graph_sid = intern_add(&m->str, op->graph_id ? op->graph_id : "");
	o->name_sid = intern_add_hashed(&m->str, op->op_name ? op->op_name : "", name_hash);
	o->placeholder = placeholder;
	o->next_same_name = NO_ID;
	o->last_same_name = id;
	first = ops_first_of_name(m, o->name_sid);
	if (first == NO_ID) {
		name_first_set(m, o->name_sid, id);
	} else {
		struct op_entry *head = &m->ot.opv[first];

		m->ot.opv[head->last_same_name].next_same_name = id;
		head->last_same_name = id;
	}
	n = hashtab_u64_put(&m->ot.graph_nops, o->graph_sid, 0);
	(*n)++;
	m->ot.nops++;
	ophash_insert_hashed(m, id, name_hash);
	if (!placeholder)
		ops_fill(m, id, op);
	return id;
}

#define OP_SLAB_BLOCK ((size_t)1 << 20)

struct op_slab {
	struct op_slab *next;
	size_t used, cap;
	max_align_t data[];
};

void *
ops_slab_alloc(struct model *m, size_t n)
{
	struct op_slab *b = m->ot.slab;
	void *p;

	n = (n + 7) & ~(size_t)7;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > OP_SLAB_BLOCK / 4 ? n : OP_SLAB_BLOCK;

		b = xcalloc(1, sizeof(*b) + cap);
		b->cap = cap;
		if (cap == n && m->ot.slab) {
			/* a big list gets its own block behind the current one */
			b->next = m->ot.slab->next;
			m->ot.slab->next = b;
		} else {
			b->next = m->ot.slab;
			m->ot.slab = b;
		}
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

/* Frees the lists an op owns one by one (not those in the slab; the
 * resolved stack always). */
static void
op_lists_free(struct op_entry *o)
{
	struct op_more *x = o->more;

	if (x)
		free(x->stack);
	if (o->lists_slab)
		return;
	if (!o->inputs_shared)
		free(o->inputs);
	if (!x)
		return;
	free(x->ctrl);
	free(x->attrs);
	for (size_t k = 0; k < x->nout_types; k++)
		free((void *)x->out_types[k].dims);
	free(x->out_types);
	free(x->out_ids);
	free(x->frame_sids);
	free(x);
}

void
ops_done(struct model *m)
{
	struct op_slab *b, *next;
	size_t i;

	for (i = 0; m->ot.opv && i < m->ot.nops; i++)          /* NULL: never decoded */
		op_lists_free(&m->ot.opv[i]);
	for (b = m->ot.slab; b; b = next) {
		next = b->next;
		free(b);
	}
	m->ot.slab = NULL;
	ops_inputs_done(m);
	free(m->ot.opv);
	hashtab_done(&m->ot.ophash);
	free(m->ot.name_first);
	hashtab_u64_done(&m->ot.op_by_alias);
	hashtab_u64_done(&m->ot.consumer_idx);
	hashtab_u64_done(&m->ot.ctrl_consumer_idx);
	for (i = 0; i < m->ot.ncons; i++)
		free(m->ot.cons[i].items);
	free(m->ot.cons);
	free(m->ot.graphs);
	hashtab_u64_done(&m->ot.graph_by_sid);
	hashtab_u64_done(&m->ot.graph_nops);
	free(m->ot.devices);
	free(m->src.hosts);
	free(m->wr.opw);
}

/* ---- graphs ------------------------------------------------------------ */

int32_t
graphs_index_of_sid(struct model *m, uint32_t graph_sid)
{
	uint64_t g;

	if (graph_sid == NO_ID || !hashtab_u64_get(&m->ot.graph_by_sid, graph_sid, &g))
		return -1;
	return (int32_t)g;
}

bool
graphs_is_inside(struct model *m, int32_t g, int32_t outer)
{
	size_t steps;

	for (steps = 0; g >= 0 && steps <= m->ot.ngraphs; steps++) {
		if (g == outer)
			return true;
		g = graphs_index_of_sid(m, m->ot.graphs[g].outer_sid);
	}
	return false;
}

uint32_t
model_graph_count(struct model *m)
{
	uint32_t n;

	pthread_mutex_lock(&m->th.lock);
	n = (uint32_t)m->ot.ngraphs;
	pthread_mutex_unlock(&m->th.lock);
	return n;
}

bool
model_graph_get(struct model *m, uint32_t i, struct model_graph *g)
{
	uint64_t nops = 0;
	bool ok;

	pthread_mutex_lock(&m->th.lock);
	ok = i < m->ot.ngraphs;
	if (ok) {
		const struct graph_entry *e = &m->ot.graphs[i];

		g->index = i;
		g->graph_id = intern_str(&m->str, e->id_sid);
		g->name = intern_str(&m->str, e->name_sid);
		g->outer = graphs_index_of_sid(m, e->outer_sid);
		hashtab_u64_get(&m->ot.graph_nops, e->id_sid, &nops);
		g->nops = (uint32_t)nops;
	}
	pthread_mutex_unlock(&m->th.lock);
	return ok;
}

static int32_t
graph_find_locked(struct model *m, const char *s)
{
	uint32_t sid = intern_find(&m->str, s);
	size_t i;

	if (sid == NO_ID)
		return -1;
	if (graphs_index_of_sid(m, sid) >= 0)
		return graphs_index_of_sid(m, sid);
	for (i = 0; i < m->ot.ngraphs; i++)
		if (m->ot.graphs[i].name_sid == sid)
			return (int32_t)i;
	return -1;
}

int32_t
model_graph_find(struct model *m, const char *graph_id_or_name)
{
	int32_t g;

	pthread_mutex_lock(&m->th.lock);
	g = graph_find_locked(m, graph_id_or_name);
	pthread_mutex_unlock(&m->th.lock);
	return g;
}

/* ---- op queries --------------------------------------------------------- */

uint32_t
model_op_count(struct model *m)
{
	uint32_t n;

	pthread_mutex_lock(&m->th.lock);
	n = (uint32_t)m->ot.nops;
	pthread_mutex_unlock(&m->th.lock);
	return n;
}

static void
op_resolve_inputs(struct model *m, struct op_entry *o)
{
	size_t i;

	/* written only when found: a list other ops share
	 * (op_entry.inputs_shared) is read by their callers without the lock,
	 * and an input that does not resolve stays -1 without a store */
	for (i = 0; i < o->ninputs; i++) {
		if (o->inputs[i].op < 0) {
			uint32_t id = ops_lookup_sid(m, o->graph_sid, o->inputs[i].op_name);

			if (id != NO_ID)
				o->inputs[i].op = (int64_t)id;
		}
	}
	for (i = 0; o->more && i < o->more->nctrl; i++) {
		struct model_tensor_ref *c = &o->more->ctrl[i];

		if (c->op < 0) {
			uint32_t id = ops_lookup_sid(m, o->graph_sid, c->op_name);

			c->op = id == NO_ID ? -1 : (int64_t)id;
		}
	}
}

bool
model_op_get(struct model *m, uint32_t id, struct model_op *op)
{
	struct op_entry *o;
	bool ok;

	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	ok = id < m->ot.nops;
	if (ok) {
		o = &m->ot.opv[id];
		op_resolve_inputs(m, o);
		frames_resolve_op(m, o);
		memset(op, 0, sizeof(*op));
		op->id = id;
		op->name = ops_name(m, o);
		op->type = ops_type(m, o);
		op->graph_id = ops_graph(m, o);
		op->graph = graphs_index_of_sid(m, o->graph_sid);
		op->graph_name = op->graph >= 0 ? intern_str(&m->str, m->ot.graphs[op->graph].name_sid) : "";
		op->device = ops_device(m, o);
		op->host = ops_host(m, o);
		op->num_outputs = o->num_outputs;
		op->inputs = o->inputs;
		op->ninputs = o->ninputs;
		if (o->more) {
			const struct op_more *x = o->more;

			op->control_inputs = x->ctrl;
			op->ncontrol_inputs = x->nctrl;
			op->attrs = x->attrs;
			op->nattrs = x->nattrs;
			op->output_types = x->out_types;
			op->noutput_types = x->nout_types;
			op->output_tensor_ids = x->out_ids;
			op->noutput_tensor_ids = x->nout_ids;
			op->stack = x->stack;
			op->nstack = x->nstack;
		}
	}
	pthread_mutex_unlock(&m->th.lock);
	return ok;
}

/* The op of name anywhere, preferring described ops over placeholders. */
static int64_t
op_by_name_locked(struct model *m, const char *name)
{
	uint32_t sid = intern_find(&m->str, name), j;
	int64_t any = -1;

	if (sid == NO_ID)
		return -1;
	for (j = ops_first_of_name(m, sid); j != NO_ID; j = m->ot.opv[j].next_same_name) {
		if (!m->ot.opv[j].placeholder)
			return j;
		if (any < 0)
			any = j;
	}
	return any;
}

/* The op a reader gave the alias name (the first one), -1 none. */
static int64_t
op_by_alias_locked(struct model *m, const char *name)
{
	uint32_t sid = intern_find(&m->str, name);
	uint64_t id;

	if (sid == NO_ID || !hashtab_u64_get(&m->ot.op_by_alias, sid, &id))
		return -1;
	return (int64_t)id;
}

/* The op whose scoped name ends in "/" + name, if only one name does. */
static int64_t
op_by_suffix_locked(struct model *m, const char *name)
{
	int64_t found = -1;
	size_t i, len = strlen(name);

	for (i = 0; i < m->ot.nops; i++) {
		const char *n = ops_name(m, &m->ot.opv[i]);
		size_t nl = strlen(n);

		if (nl > len && n[nl - len - 1] == '/' && strcmp(n + nl - len, name) == 0) {
			if (found >= 0 && strcmp(ops_name(m, &m->ot.opv[found]), n) != 0)
				return -1;      /* ambiguous */
			if (found < 0)
				found = (int64_t)i;
		}
	}
	return found;
}

int64_t
model_op_find(struct model *m, const char *name, const char *graph)
{
	int64_t id = -1;

	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	if (graph && *graph) {
		int32_t g = graph_find_locked(m, graph);

		if (g >= 0) {
			uint32_t r = ops_lookup(m, intern_str(&m->str, m->ot.graphs[g].id_sid), name);

			id = r == NO_ID ? -1 : (int64_t)r;
		}
	} else {
		id = op_by_name_locked(m, name);
		if (id < 0)
			id = op_by_alias_locked(m, name);
		if (id < 0)
			id = op_by_suffix_locked(m, name);
	}
	pthread_mutex_unlock(&m->th.lock);
	return id;
}

static size_t
consumers_of(struct model *m, struct hashtab_u64 *map, uint32_t op, struct model_consumer *out,
	     size_t max)
{
	uint64_t idx;
	size_t n = 0, i;

	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	if (op < m->ot.nops) {
		const struct op_entry *o = &m->ot.opv[op];

		if (hashtab_u64_get(map, (uint64_t)o->graph_sid << 32 | o->name_sid, &idx)) {
			n = m->ot.cons[idx].n;
			for (i = 0; i < n && i < max; i++)
				out[i] = m->ot.cons[idx].items[i];
		}
	}
	pthread_mutex_unlock(&m->th.lock);
	return n;
}

size_t
model_op_consumers(struct model *m, uint32_t op, struct model_consumer *out, size_t max)
{
	return consumers_of(m, &m->ot.consumer_idx, op, out, max);
}

size_t
model_op_control_consumers(struct model *m, uint32_t op, struct model_consumer *out, size_t max)
{
	return consumers_of(m, &m->ot.ctrl_consumer_idx, op, out, max);
}
