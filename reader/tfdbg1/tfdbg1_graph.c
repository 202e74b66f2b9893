/*
 * tfdbg1_graph.c - tfdbg v1 partition graphs as the user wrote them.
 *
 * A _tfdbg_graph_* file is an Event whose graph_def holds the serialized
 * partition GraphDef (FORMAT.md §6).  The runtime has inserted, per watched
 * tensor, a "__copy_..." Copy node between the producer and its consumers
 * and one "__dbg_..." node per debug op (FORMAT.md §11).  This file hides
 * those nodes and rewires every data input that goes through a copy node to
 * the tensor the copy node reads, so the graph pane shows the user's graph.
 * Control inputs ("^x") are kept apart, as op names; attributes become text
 * (tfdbg1_attr.c).
 */
#include "tfdbg1_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/hashtab.h"
#include "tf_event.pb-c.h"

/* Hops followed through chained debugger nodes before giving up. */
#define MAX_HOPS 16

/* Name -> node index: the foundation's hash table over the GraphDef's
 * nodes (ids are node indexes). */
struct name_index {
	const Tensorflow__NodeDef *const *nodes;
	size_t nnodes;
	struct hashtab ids;         /* node indexes by hashtab_mem_hash of the name */
};

/* A name to look up: s[0, n), not NUL-terminated. */
struct name_key {
	const char *s;
	size_t n;
};

static bool
name_eq(const void *ctx, uint32_t id, const void *key)
{
	const char *name = ((const struct name_index *)ctx)->nodes[id]->name;
	const struct name_key *k = key;

	return name && strlen(name) == k->n && memcmp(name, k->s, k->n) == 0;
}

/* The first node named s[0, n), or -1. */
static int64_t
index_find(const struct name_index *ix, const char *s, size_t n)
{
	struct name_key k = { s, n };
	uint32_t id = hashtab_find(&ix->ids, hashtab_mem_hash(s, n), name_eq, ix, &k);

	return id == HASHTAB_NONE ? -1 : (int64_t)id;
}

/* Indexes the first node of each name: a later duplicate is not inserted,
 * so many nodes of one name cost no more than one (no long probe runs). */
static void
index_build(struct name_index *ix, Tensorflow__NodeDef *const *nodes, size_t n)
{
	size_t i;

	ix->nodes = (const Tensorflow__NodeDef *const *)nodes;
	ix->nnodes = n;
	hashtab_init(&ix->ids, n);
	for (i = 0; i < n && i < HASHTAB_NONE; i++) {
		const char *name = nodes[i]->name ? nodes[i]->name : "";
		size_t len = strlen(name);

		if (index_find(ix, name, len) < 0)
			hashtab_add(&ix->ids, hashtab_mem_hash(name, len), (uint32_t)i);
	}
}

/* The first data input of node i, or NULL. */
static const char *
first_data_input(const Tensorflow__NodeDef *nd)
{
	size_t k;

	for (k = 0; k < nd->n_input; k++)
		if (nd->input[k] && nd->input[k][0] && nd->input[k][0] != '^')
			return nd->input[k];
	return NULL;
}

/* Resolves a data input through hidden debugger nodes: the producing node
 * index (or -1 if not in the graph) and slot, and the producer's name in
 * *name / *name_len (pointing into the GraphDef's strings). */
static int64_t
resolve_input(const struct name_index *ix, const char *input, const char **name, size_t *name_len,
	      uint32_t *slot)
{
	int64_t at = -1;
	int hops;

	for (hops = 0; hops < MAX_HOPS; hops++) {
		if (!tfdbg1_parse_input(input, name_len, slot))
			return -1;
		*name = input;
		at = index_find(ix, input, *name_len);
		if (at < 0 || !tfdbg1_is_debug_node(ix->nodes[at]->name))
			return at;
		/* A debugger node forwards its input: follow it. */
		input = first_data_input(ix->nodes[at]);
		if (!input)
			return at;
	}
	return at;
}

static void
fill_node(const struct name_index *ix, const Tensorflow__NodeDef *nd, struct tfdbg1_graph_node *out)
{
	size_t k;

	out->name = xstrdup(nd->name ? nd->name : "");
	out->op = xstrdup(nd->op ? nd->op : "");
	out->device = xstrdup(nd->device ? nd->device : "");
	out->inputs = nd->n_input ? xcalloc(nd->n_input, sizeof(char *)) : NULL;
	out->controls = nd->n_input ? xcalloc(nd->n_input, sizeof(char *)) : NULL;
	for (k = 0; k < nd->n_input; k++) {
		const char *name;
		size_t len;
		uint32_t slot;

		if (nd->input[k] && nd->input[k][0] == '^' && nd->input[k][1]) {
			if (!tfdbg1_is_debug_node(nd->input[k] + 1))
				out->controls[out->ncontrols++] = xstrdup(nd->input[k] + 1);
			continue;
		}
		if (!nd->input[k] || !tfdbg1_parse_input(nd->input[k], &len, &slot))
			continue;
		resolve_input(ix, nd->input[k], &name, &len, &slot);
		out->inputs[out->ninputs++] = xasprintf("%.*s:%u", (int)len, name, slot);
	}
	out->attrs = nd->n_attr ? xcalloc(nd->n_attr, sizeof(*out->attrs)) : NULL;
	for (k = 0; k < nd->n_attr; k++) {
		if (!nd->attr[k] || !nd->attr[k]->key)
			continue;
		out->attrs[out->nattrs].name = xstrdup(nd->attr[k]->key);
		out->attrs[out->nattrs++].value = tfdbg1_attr_text(nd->attr[k]->value);
	}
}

/* Output counts: every data edge (also from hidden nodes, which read the
 * watched tensors) tells its producer that slot exists. */
static void
count_outputs(struct tfdbg1_graph *g, const struct name_index *ix, const int64_t *user_of)
{
	size_t i, k;

	for (i = 0; i < ix->nnodes; i++) {
		const Tensorflow__NodeDef *nd = ix->nodes[i];

		for (k = 0; k < nd->n_input; k++) {
			const char *name;
			size_t len;
			uint32_t slot;
			int64_t at;

			if (!nd->input[k])
				continue;
			at = resolve_input(ix, nd->input[k], &name, &len, &slot);
			if (at >= 0 && user_of[at] >= 0) {
				struct tfdbg1_graph_node *p = &g->nodes[user_of[at]];

				if (slot + 1 > p->num_outputs)
					p->num_outputs = slot + 1;
			}
		}
	}
}

/* qsort has no context argument: the graph being sorted. */
static _Thread_local const struct tfdbg1_graph *sorting;

static int
cmp_by_name(const void *a, const void *b)
{
	return strcmp(sorting->nodes[*(const size_t *)a].name,
		      sorting->nodes[*(const size_t *)b].name);
}

static void
sort_by_name(struct tfdbg1_graph *g)
{
	size_t i;

	g->by_name = xmalloc((g->nnodes + 1) * sizeof(*g->by_name));
	for (i = 0; i < g->nnodes; i++)
		g->by_name[i] = i;
	sorting = g;
	td_sort(g->by_name, g->nnodes, sizeof(*g->by_name), cmp_by_name);
	sorting = NULL;
}

static void
graph_build(struct tfdbg1_graph *g, const Tensorflow__GraphDef *gd)
{
	struct name_index ix;
	int64_t *user_of = xmalloc((gd->n_node + 1) * sizeof(*user_of));
	size_t i;

	index_build(&ix, gd->node, gd->n_node);
	g->nodes = xcalloc(gd->n_node + 1, sizeof(*g->nodes));
	for (i = 0; i < gd->n_node; i++) {
		const Tensorflow__NodeDef *nd = gd->node[i];
		const char *name = nd->name ? nd->name : "";

		user_of[i] = -1;
		if (strncmp(name, "__copy_", 7) == 0) {
			g->ncopy++;
			continue;
		}
		if (strncmp(name, "__dbg_", 6) == 0) {
			g->ndebug++;
			continue;
		}
		user_of[i] = (int64_t)g->nnodes;
		fill_node(&ix, nd, &g->nodes[g->nnodes++]);
	}
	count_outputs(g, &ix, user_of);
	sort_by_name(g);
	free(user_of);
	hashtab_done(&ix.ids);
}

enum td_status
tfdbg1_graph_decode(const uint8_t *data, size_t len, struct tfdbg1_graph *out, char *err,
		    size_t errlen)
{
	Tensorflow__Event *ev;
	Tensorflow__GraphDef *gd;

	memset(out, 0, sizeof(*out));
	ev = tensorflow__event__unpack(NULL, len, data);
	if (!ev) {
		snprintf(err, errlen, "not an Event protobuf (%zu bytes)", len);
		return TD_ERR_DECODE;
	}
	if (ev->what_case != TENSORFLOW__EVENT__WHAT_GRAPH_DEF) {
		snprintf(err, errlen, "Event holds no graph_def");
		tensorflow__event__free_unpacked(ev, NULL);
		return TD_ERR_DECODE;
	}
	gd = tensorflow__graph_def__unpack(NULL, ev->graph_def.len, ev->graph_def.data);
	if (!gd) {
		snprintf(err, errlen, "graph_def (%zu bytes) is not a GraphDef", ev->graph_def.len);
		tensorflow__event__free_unpacked(ev, NULL);
		return TD_ERR_DECODE;
	}
	out->wall_time_us = ev->wall_time;
	graph_build(out, gd);
	tensorflow__graph_def__free_unpacked(gd, NULL);
	tensorflow__event__free_unpacked(ev, NULL);
	return TD_OK;
}

void
tfdbg1_graph_done(struct tfdbg1_graph *g)
{
	size_t i, k;

	if (!g)
		return;
	if (g->refs && --*g->refs > 0) {
		memset(g, 0, sizeof(*g));
		return;
	}
	free(g->refs);
	for (i = 0; i < g->nnodes; i++) {
		struct tfdbg1_graph_node *n = &g->nodes[i];

		free(n->name);
		free(n->op);
		free(n->device);
		for (k = 0; k < n->ninputs; k++)
			free(n->inputs[k]);
		free(n->inputs);
		for (k = 0; k < n->ncontrols; k++)
			free(n->controls[k]);
		free(n->controls);
		for (k = 0; k < n->nattrs; k++) {
			free((char *)n->attrs[k].name);
			free((char *)n->attrs[k].value);
		}
		free(n->attrs);
	}
	free(g->nodes);
	free(g->by_name);
	memset(g, 0, sizeof(*g));
}

void
tfdbg1_graph_share(struct tfdbg1_graph *src, struct tfdbg1_graph *dst)
{
	if (!src->refs) {
		src->refs = xmalloc(sizeof(*src->refs));
		*src->refs = 1;
	}
	++*src->refs;
	*dst = *src;
}

const struct tfdbg1_graph_node *
tfdbg1_graph_find(const struct tfdbg1_graph *g, const char *name)
{
	size_t lo = 0, hi = g->nnodes;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(g->nodes[g->by_name[mid]].name, name);

		if (c == 0)
			return &g->nodes[g->by_name[mid]];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
