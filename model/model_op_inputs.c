/*
 * model_op_inputs.c - an op's data inputs as the index pass files them:
 * each "op:slot" parsed into an interned name and a slot, the consumer
 * lists of the producers they name, and the lists of leaf labels shared.
 *
 * A reader whose inputs label the op's own leaves (reader_op.input_labels:
 * "input.0", "input.1") sends the same few lists for every op of a graph.
 * Such a list is kept once per graph, in ot.slab, and every op that has it
 * points at it (op_entry.inputs_shared): at 200,000 entries that was one
 * allocation of about 70 bytes per op.  Sharing changes no answer: an
 * input resolves by (graph, name) alone (op_resolve_inputs, model_ops.c),
 * so the ops of one graph holding one list resolve it alike.
 *
 * A persistent index's op section gives each op its inputs again; the
 * decode (model_cache_ops.c) keeps equal lists of one graph once as well
 * (ops_inputs_loaded): a warm reopen of a 200,000-entry statistics dump
 * gave each op a list of its own, 14 MB (issue 27).
 *
 * Not here: control inputs (model_ops.c, never shared).
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

/* "name:3" -> ("name", 3); "name" -> ("name", 0). */
static void
parse_tensor_name(struct model *m, const char *s, struct model_tensor_ref *ref)
{
	const char *colon = strrchr(s, ':');
	size_t len = strlen(s);
	uint32_t slot = 0;

	if (colon && colon[1]) {
		const char *p;

		for (p = colon + 1; *p >= '0' && *p <= '9'; p++)
			slot = slot * 10 + (uint32_t)(*p - '0');
		if (!*p)
			len = (size_t)(colon - s);
		else
			slot = 0;
	}
	{
		char *name = xstrndup(s, len);

		ref->op_name = intern_str(&m->str, intern_add(&m->str, name));
		free(name);
	}
	ref->slot = slot;
	ref->op = -1;
}

void
ops_consumers_add(struct model *m, struct hashtab_u64 *map, uint32_t graph_sid, const char *src,
		  uint32_t op, uint32_t input_slot, uint32_t output_slot)
{
	uint64_t key = (uint64_t)graph_sid << 32 | intern_add(&m->str, src);
	uint64_t *idx = hashtab_u64_put(map, key, UINT64_MAX);
	struct consumer_list *cl;

	if (*idx == UINT64_MAX) {
		TD_GROW(m->ot.cons, m->ot.capcons, m->ot.ncons + 1);
		memset(&m->ot.cons[m->ot.ncons], 0, sizeof(m->ot.cons[0]));
		*idx = m->ot.ncons++;
	}
	cl = &m->ot.cons[*idx];
	TD_GROW(cl->items, cl->cap, cl->n + 1);
	cl->items[cl->n].op = op;
	cl->items[cl->n].input_slot = input_slot;
	cl->items[cl->n].output_slot = output_slot;
	cl->n++;
}

/* A list to share: the graph and the parsed refs (names interned, so
 * equal names are equal pointers). */
struct label_key {
	uint32_t graph_sid;
	uint32_t n;
	const struct model_tensor_ref *refs;
};

static uint32_t
label_hash(const struct label_key *k)
{
	uint64_t h = (uint64_t)k->graph_sid * 0x9e3779b97f4a7c15ull ^ k->n;
	uint32_t i;

	for (i = 0; i < k->n; i++) {
		h ^= (uint64_t)(uintptr_t)k->refs[i].op_name + k->refs[i].slot;
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	return (uint32_t)(h ^ h >> 32);
}

static bool
label_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct model *m = ctx;
	const struct shared_inputs *s = &m->ot.shared[id];
	const struct label_key *k = key;
	uint32_t i;

	if (s->graph_sid != k->graph_sid || s->n != k->n)
		return false;
	for (i = 0; i < k->n; i++)
		if (s->refs[i].op_name != k->refs[i].op_name || s->refs[i].slot != k->refs[i].slot)
			return false;
	return true;
}

/* The id of the shared list equal to k (added from k when new). */
static uint32_t
label_list(struct model *m, const struct label_key *k)
{
	uint32_t h = label_hash(k), id = hashtab_find(&m->ot.shared_hash, h, label_eq, m, k), i;
	struct shared_inputs *s;

	if (id != HASHTAB_NONE)
		return id;
	TD_GROW(m->ot.shared, m->ot.capshared, m->ot.nshared + 1);
	s = &m->ot.shared[m->ot.nshared];
	s->graph_sid = k->graph_sid;
	s->n = k->n;
	s->refs = ops_slab_alloc(m, k->n * sizeof(*s->refs));
	memcpy(s->refs, k->refs, k->n * sizeof(*s->refs));
	s->plain = true;
	for (i = 0; i < k->n; i++)
		if (k->refs[i].slot || strchr(k->refs[i].op_name, ':'))
			s->plain = false;
	hashtab_add(&m->ot.shared_hash, h, (uint32_t)m->ot.nshared);
	return (uint32_t)m->ot.nshared++;
}

/* A shared list used lately whose labels are op's inputs as sent, or
 * NULL.  Only a plain list is taken: a label without ':' parses to
 * itself and slot 0 (parse_tensor_name), so text equal to a plain
 * list's names gives that list.  Every op of a graph sends one of a few
 * lists, and parsing, interning and hashing each label was 17% of the
 * index thread's instructions on a 20,000-entry statistics dump. */
static const struct model_tensor_ref *
label_list_recent(struct model *m, uint32_t graph_sid, const struct reader_op *op)
{
	uint32_t k, i;

	for (k = 0; k < LABEL_RECENT; k++) {
		const struct shared_inputs *s;

		if (m->ot.label_recent[k] >= m->ot.nshared)
			continue;
		s = &m->ot.shared[m->ot.label_recent[k]];
		if (!s->plain || s->graph_sid != graph_sid || s->n != op->ninputs)
			continue;
		for (i = 0; i < s->n && strcmp(s->refs[i].op_name, op->inputs[i]) == 0; i++)
			;
		if (i == s->n)
			return s->refs;
	}
	return NULL;
}

void
ops_inputs_fill(struct model *m, uint32_t id, const struct reader_op *op)
{
	struct op_entry *o = &m->ot.opv[id];
	struct model_tensor_ref *refs;
	uint32_t sid;
	size_t i;

	if (op->input_labels && op->ninputs <= UINT32_MAX) {
		const struct model_tensor_ref *recent = label_list_recent(m, o->graph_sid, op);

		if (recent) {
			o->ninputs = (uint32_t)op->ninputs;
			o->inputs = (struct model_tensor_ref *)recent;
			o->inputs_shared = true;
			return;
		}
	}
	refs = xcalloc(op->ninputs, sizeof(*refs));
	for (i = 0; i < op->ninputs; i++) {
		parse_tensor_name(m, op->inputs[i], &refs[i]);
		if (!op->input_labels)
			ops_consumers_add(m, &m->ot.consumer_idx, o->graph_sid, refs[i].op_name, id,
					  (uint32_t)i, refs[i].slot);
	}
	o->ninputs = (uint32_t)op->ninputs;
	if (!op->input_labels) {
		o->inputs = refs;
		return;
	}
	sid = label_list(m, &(struct label_key){ o->graph_sid, o->ninputs, refs });
	o->inputs = m->ot.shared[sid].refs;
	o->inputs_shared = true;
	m->ot.label_recent[m->ot.label_next++ % LABEL_RECENT] = sid;
	free(refs);
}

void
ops_inputs_done(struct model *m)
{
	free(m->ot.shared);
	m->ot.shared = NULL;
	m->ot.nshared = m->ot.capshared = 0;
	hashtab_done(&m->ot.shared_hash);
}

/* What a decode remembers: at most these, so the index stays small
 * (under 1.2 MB); past them, lists not found are copied as before. */
#define LOADED_INPUTS_MAX 4096
#define LOADED_KEYS_MAX (1u << 20)
/* A dump whose lists mostly differ (a graph's real inputs) stops looking
 * once this many lists are kept and more than half the lookups missed:
 * the rest of its lists are copied without a hash (a 20,000-op graph
 * section cost 300 instructions a list more with the lookup, 6% of the
 * reopen's `op` query). */
#define LOADED_INPUTS_TRIAL 64

struct loaded_list {
	struct model_tensor_ref *refs;  /* in ot.slab */
	uint32_t graph_sid;
	uint32_t len;               /* key bytes, at key_off in loaded_inputs.keys */
	size_t key_off;
};

struct loaded_key {
	uint32_t graph_sid;
	const void *key;
	size_t len;
};

static bool
loaded_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct loaded_inputs *li = ctx;
	const struct loaded_list *l = &li->v[id];
	const struct loaded_key *k = key;

	return l->graph_sid == k->graph_sid && l->len == k->len &&
	       memcmp(li->keys + l->key_off, k->key, k->len) == 0;
}

struct model_tensor_ref *
ops_inputs_loaded_find(struct loaded_inputs *li, uint32_t graph_sid, const void *key, size_t len)
{
	struct loaded_key k = { graph_sid, key, len };
	uint32_t id;

	if (li->off)
		return NULL;
	li->looked++;
	if (li->n && loaded_eq(li, li->last, &k))     /* ops in a row often have one list */
		return li->v[li->last].refs;
	li->hash = hashtab_mem_hash(key, len) ^ graph_sid * 0x9e3779b9u;
	if (!li->n || (id = hashtab_find(&li->h, li->hash, loaded_eq, li, &k)) == HASHTAB_NONE)
		return NULL;
	li->last = id;
	return li->v[id].refs;
}

struct model_tensor_ref *
ops_inputs_loaded_add(struct model *m, struct loaded_inputs *li, uint32_t graph_sid,
		      const void *key, size_t len, const struct model_tensor_ref *refs, uint32_t n)
{
	struct model_tensor_ref *copy = ops_slab_alloc(m, (size_t)n * sizeof(*copy));

	memcpy(copy, refs, (size_t)n * sizeof(*copy));
	if (!li->off && li->n < LOADED_INPUTS_MAX && len <= LOADED_KEYS_MAX - li->nkeys) {
		TD_GROW(li->keys, li->capkeys, li->nkeys + len);
		memcpy(li->keys + li->nkeys, key, len);
		TD_GROW(li->v, li->cap, li->n + 1);
		li->v[li->n] = (struct loaded_list){ copy, graph_sid, (uint32_t)len, li->nkeys };
		li->nkeys += len;
		li->last = (uint32_t)li->n;
		hashtab_add(&li->h, li->hash, (uint32_t)li->n++);
		li->off = li->n >= LOADED_INPUTS_TRIAL && li->n * 2 > li->looked;
	}
	return copy;
}

void
ops_inputs_loaded_done(struct loaded_inputs *li)
{
	if (!li)
		return;
	free(li->v);
	free(li->keys);
	free(li->tmp);
	hashtab_done(&li->h);
	memset(li, 0, sizeof(*li));
}
