/*
 * ms_graph.c - the debugger graph .pb (FORMAT.md §8) into a
 * struct ms_graph, plus the helpers every graph source shares.
 *
 * The file is a ModelProto in real dumps and a bare GraphProto in
 * MindInsight's test data (lenet_graph.pb); both are accepted (§8).
 * protobuf-c messages are unpacked, copied and freed inside one call.
 * Not for: attributes, constant values, MindIR files.
 */
#include "ms_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/pbwire.h"

#include "ms_graph.pb-c.h"

#define MS_DT_TUPLE 31   /* DataType DT_TUPLE, §8 */

static int
name_ix_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ms_name_ix *)a)->name, ((const struct ms_name_ix *)b)->name);
}

struct ms_name_ix *
ms_name_index(const struct ms_graph *g, size_t first, bool full)
{
	size_t n = g->nnodes > first ? g->nnodes - first : 0, i;
	struct ms_name_ix *ix = xcalloc(n ? n : 1, sizeof(*ix));

	for (i = 0; i < n; i++) {
		ix[i].name = full ? g->nodes[first + i].full_name : g->nodes[first + i].name;
		ix[i].node = first + i;
	}
	td_sort(ix, n, sizeof(*ix), name_ix_cmp);
	return ix;
}

const struct ms_name_ix *
ms_name_find(const struct ms_name_ix *ix, size_t n, const char *name)
{
	struct ms_name_ix key = { .name = name };

	return name ? bsearch(&key, ix, n, sizeof(*ix), name_ix_cmp) : NULL;
}

static uint32_t
count_outputs(const Debugger__TypeProto *t)
{
	if (t && t->has_data_type && t->data_type == MS_DT_TUPLE && t->sequence_type &&
	    t->sequence_type->n_elem_types > 0)
		return (uint32_t)t->sequence_type->n_elem_types;
	return 1;
}

/* source_address: one "      # In file ..." text per frame (§8). */
static void
add_source_frames(struct ms_node *n, const char *text)
{
	const char *p = strstr(text, "# In file ");

	while (p) {
		const char *next = strstr(p + 1, "# In file ");
		size_t len = next ? (size_t)(next - p) : strlen(p);
		struct ms_frame f;

		while (len && (p[len - 1] == '\n' || p[len - 1] == ' ' || p[len - 1] == '\r'))
			len--;
		if (ms_ir_parse_trace(p, len, &f)) {
			n->frames = xrealloc(n->frames, (n->nframes + 1) * sizeof(*n->frames));
			n->frames[n->nframes++] = f;
		}
		p = next;
	}
}

static void
copy_node(struct ms_node *n, const Debugger__NodeProto *np)
{
	size_t i;

	memset(n, 0, sizeof(*n));
	n->name = xstrdup(np->name ? np->name : "");
	n->op_type = xstrdup(np->op_type ? np->op_type : "");
	n->scope = xstrdup(np->scope ? np->scope : "");
	n->full_name = xstrdup(np->full_name && *np->full_name ? np->full_name : n->name);
	n->num_outputs = count_outputs(np->output_type);
	n->inputs = xcalloc(np->n_input ? np->n_input : 1, sizeof(*n->inputs));
	n->controls = xcalloc(np->n_input ? np->n_input : 1, sizeof(*n->controls));
	for (i = 0; i < np->n_input; i++) {
		const Debugger__InputProto *in = np->input[i];

		if (in->has_type && in->type == 1) {    /* control edge: not a data input */
			n->controls[n->ncontrols++] = xstrdup(in->name ? in->name : "");
			continue;
		}
		n->inputs[n->ninputs++] = xstrdup(in->name ? in->name : "");
	}
	ms_node_pb_details(n, np);
	if (np->source_address) {
		add_source_frames(n, np->source_address);
		ms_node_orient_frames(n);
	}
}

static void
resolve_names(struct ms_graph *g, const struct ms_name_ix *ix, char **names, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const struct ms_name_ix *hit = ms_name_find(ix, g->nnodes, names[k]);

		if (hit) {
			char *full = xstrdup(g->nodes[hit->node].full_name);

			free(names[k]);
			names[k] = full;
		}
	}
}

/* Rewrites inputs (and control edges) that name another node ("5") to its
 * full name. */
static void
resolve_inputs(struct ms_graph *g)
{
	struct ms_name_ix *ix = ms_name_index(g, 0, false);
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		resolve_names(g, ix, g->nodes[i].inputs, g->nodes[i].ninputs);
		resolve_names(g, ix, g->nodes[i].controls, g->nodes[i].ncontrols);
	}
	free(ix);
}

/* The integer value of constant `name` ("cst3"), or -1. */
static int64_t
const_int(const Debugger__GraphProto *gp, const char *name)
{
	size_t i;

	for (i = 0; i < gp->n_const_vals; i++) {
		const Debugger__NamedValueProto *c = gp->const_vals[i];

		if (!c->key || strcmp(c->key, name) != 0)
			continue;
		if (c->value && c->value->has_int_val && c->value->int_val >= 0)
			return c->value->int_val;
		if (c->value && c->value->has_uint_val && c->value->uint_val <= INT32_MAX)
			return (int64_t)c->value->uint_val;
		return -1;
	}
	return -1;
}

/* A consumer of tuple_getitem(producer, cstK) reads producer's output K:
 * its input becomes "producer:K" (the getitem node itself stays). */
static void
resolve_getitems(struct ms_graph *g, const Debugger__GraphProto *gp)
{
	struct ms_name_ix *ix = ms_name_index(g, 0, true);
	size_t i, k;

	for (i = 0; i < g->nnodes; i++)
		for (k = 0; k < g->nodes[i].ninputs; k++) {
			const struct ms_name_ix *hit = ms_name_find(ix, g->nnodes, g->nodes[i].inputs[k]);
			const struct ms_node *gi;
			int64_t idx;

			if (!hit)
				continue;
			gi = &g->nodes[hit->node];
			if (strcmp(gi->op_type, "tuple_getitem") == 0 && gi->ninputs == 2 &&
			    (idx = const_int(gp, gi->inputs[1])) >= 0) {
				char *to = xasprintf("%s:%lld", gi->inputs[0], (long long)idx);

				free(g->nodes[i].inputs[k]);
				g->nodes[i].inputs[k] = to;
			}
		}
	free(ix);
}

static void
copy_graph(struct ms_graph *g, const Debugger__GraphProto *gp)
{
	size_t i;

	g->name = xstrdup(gp->name ? gp->name : "");
	g->nodes = xcalloc(gp->n_node ? gp->n_node : 1, sizeof(*g->nodes));
	g->cap = gp->n_node;
	for (i = 0; i < gp->n_node; i++)
		copy_node(&g->nodes[g->nnodes++], gp->node[i]);
	g->params = xcalloc(gp->n_parameters ? gp->n_parameters : 1, sizeof(*g->params));
	g->pcap = gp->n_parameters;
	for (i = 0; i < gp->n_parameters; i++)
		g->params[g->nparams++] = xstrdup(gp->parameters[i]->name ? gp->parameters[i]->name : "");
	g->consts = xcalloc(gp->n_const_vals ? gp->n_const_vals : 1, sizeof(*g->consts));
	for (i = 0; i < gp->n_const_vals; i++)
		g->consts[g->nconsts++] = xstrdup(gp->const_vals[i]->key ? gp->const_vals[i]->key : "");
	resolve_inputs(g);
	resolve_getitems(g, gp);
}

enum td_status
ms_graph_decode(const uint8_t *buf, size_t len, struct ms_graph *g, char *err, size_t errlen)
{
	Debugger__ModelProto *mp;
	Debugger__GraphProto *gp;

	memset(g, 0, sizeof(*g));
	if (!pbwire_depth_within(buf, len, PBWIRE_DEPTH_MAX)) {
		snprintf(err, errlen, "messages nested deeper than %d levels (%zu bytes): not decoded",
			 PBWIRE_DEPTH_MAX, len);
		return TD_ERR_DECODE;
	}
	mp = debugger__model_proto__unpack(NULL, len, buf);
	if (mp && mp->graph) {
		g->model_proto = true;
		copy_graph(g, mp->graph);
		debugger__model_proto__free_unpacked(mp, NULL);
		return TD_OK;
	}
	if (mp)
		debugger__model_proto__free_unpacked(mp, NULL);
	/* §8: MindInsight's lenet.pb is a bare GraphProto. */
	gp = debugger__graph_proto__unpack(NULL, len, buf);
	if (!gp || gp->n_node == 0) {
		if (gp)
			debugger__graph_proto__free_unpacked(gp, NULL);
		snprintf(err, errlen, "neither a ModelProto with a graph nor a GraphProto (%zu bytes)",
			 len);
		return TD_ERR_DECODE;
	}
	copy_graph(g, gp);
	debugger__graph_proto__free_unpacked(gp, NULL);
	return TD_OK;
}

int64_t
ms_graph_find(const struct ms_graph *g, const char *full_name)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++)
		if (strcmp(g->nodes[i].full_name, full_name) == 0)
			return (int64_t)i;
	return -1;
}

static void
copy_frames(struct ms_node *dst, const struct ms_node *src)
{
	size_t i;

	dst->frames = xcalloc(src->nframes, sizeof(*dst->frames));
	for (i = 0; i < src->nframes; i++) {
		dst->frames[i].file = xstrdup(src->frames[i].file);
		dst->frames[i].line = src->frames[i].line;
		dst->frames[i].code = src->frames[i].code ? xstrdup(src->frames[i].code) : NULL;
	}
	dst->nframes = src->nframes;
}

void
ms_graph_merge_frames(struct ms_graph *g, const struct ms_graph *src)
{
	struct ms_name_ix *ix = ms_name_index(src, 0, true);
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		const struct ms_name_ix *hit = ms_name_find(ix, src->nnodes, g->nodes[i].full_name);

		if (!hit)
			continue;
		if (!g->nodes[i].nframes && src->nodes[hit->node].nframes)
			copy_frames(&g->nodes[i], &src->nodes[hit->node]);
		g->nodes[i].num_outputs = TD_MAX(g->nodes[i].num_outputs,
						 src->nodes[hit->node].num_outputs);
	}
	free(ix);
}

void
ms_frame_done(struct ms_frame *f)
{
	if (!f)
		return;
	free(f->file);
	free(f->code);
	memset(f, 0, sizeof(*f));
}

void
ms_graph_done(struct ms_graph *g)
{
	size_t i, k;

	if (!g)
		return;
	for (i = 0; i < g->nnodes; i++) {
		struct ms_node *n = &g->nodes[i];

		free(n->name);
		free(n->full_name);
		free(n->op_type);
		free(n->scope);
		for (k = 0; k < n->ninputs; k++)
			free(n->inputs[k]);
		free(n->inputs);
		for (k = 0; k < n->ncontrols; k++)
			free(n->controls[k]);
		free(n->controls);
		ms_node_details_done(n);
		for (k = 0; k < n->nframes; k++)
			ms_frame_done(&n->frames[k]);
		free(n->frames);
	}
	free(g->nodes);
	for (i = 0; i < g->nparams; i++)
		free(g->params[i]);
	free(g->params);
	for (i = 0; i < g->nconsts; i++)
		free(g->consts[i]);
	free(g->consts);
	free(g->name);
	memset(g, 0, sizeof(*g));
}
