/*
 * model_diff_leaf.c - the diff's per-leaf renames (model_diff.h, "Leaf
 * maps"): a map whose rules name whole leaves ("{op}.{label}", the label
 * being the row's slot label) moves each row it names of B under the key
 * of A's row holding the golden leaf, whatever its op and slot; the other
 * rows of B keep their op's key.
 *
 * A golden leaf that continues the name B's op pairs by (a rule that
 * renumbers places only) is looked for under the op B's op pairs with, so
 * calls pair as without the map (a backward call by its rank); another
 * under the op it names.
 *
 * Only the rows of the ops the map names are decoded (for their labels),
 * and in A only the rows of the golden leaves' ops, each once (their
 * labels kept while the keys are made); a dump without leaf rules never
 * comes here.  Not the op-name maps (model_diff.c's
 * op_classes) nor the map's syntax (the reader's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_diff_state.h"

/* Row i's slot label into buf: its "slot:" detail line, else
 * "input.N" / "output.N"; false when the row does not decode. */
static bool
row_label(struct model *m, uint64_t i, char *buf, size_t len)
{
	struct model_detail det;
	const char *p;
	uint32_t f;
	bool ok = false;

	if (model_trace_detail(m, i, &det) != TD_OK)
		return false;
	for (p = det.text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, "slot: ", 6)) {
			size_t l = strcspn(p + 6, "\n");

			ok = l < len;
			if (ok)
				snprintf(buf, len, "%.*s", (int)l, p + 6);
			break;
		}
	model_detail_done(&det);
	if (!ok) {
		model_trace_op_flags(m, i, &f);
		snprintf(buf, len, "%s.%u", (f & ROW_INPUT) ? "input" : "output",
			 model_trace_slot(m, i));
	}
	return true;
}

/* The labels of A's ops asked so far, each op's rows decoded once (a map
 * that names every leaf of a call asks for each of the golden call's rows
 * in turn). */
struct op_labels {
	char **label;
	uint64_t *row;
	size_t n;
};

struct leaf_memo {
	struct hashtab_u64 ops;     /* op of A -> index into v */
	struct op_labels *v;
	size_t n, cap;
	struct hashtab names;       /* A's ops by exact name (the first of a name) */
	const char **name;          /* op id -> its name (borrowed), NULL until built */
};

static bool
name_eq(const void *ctx, uint32_t id, const void *key)
{
	return strcmp(((const struct leaf_memo *)ctx)->name[id], key) == 0;
}

/* The first op of A named exactly name, -1 none (a table of A's names made
 * on the first question: the model's lookup also tries suffixes, a scan of
 * every op for each name a golden leaf's prefixes spell). */
static int64_t
op_named(struct model_diff *d, struct leaf_memo *memo, const char *name)
{
	uint32_t n = model_op_count(d->a), y, id;
	struct model_op op;

	if (!memo->name) {
		memo->name = xcalloc(n ? n : 1, sizeof(*memo->name));
		hashtab_init(&memo->names, n + 8);
		for (y = 0; y < n; y++) {
			memo->name[y] = model_op_get(d->a, y, &op) && op.name ? op.name : "";
			if (hashtab_find(&memo->names, hashtab_str_hash(memo->name[y]), name_eq, memo,
					 memo->name[y]) == HASHTAB_NONE)
				hashtab_add(&memo->names, hashtab_str_hash(memo->name[y]), y);
		}
	}
	id = hashtab_find(&memo->names, hashtab_str_hash(name), name_eq, memo, name);
	return id == HASHTAB_NONE ? -1 : (int64_t)id;
}

/* Op y's rows and their labels (decoded on the first question). */
static const struct op_labels *
labels_of(struct model_diff *d, struct leaf_memo *memo, uint32_t y)
{
	char have[512];
	uint64_t first, last, i, *at = hashtab_u64_put(&memo->ops, y, memo->n);
	struct op_labels *ol;
	uint32_t f;

	if (*at < memo->n)
		return &memo->v[*at];
	TD_GROW(memo->v, memo->cap, memo->n + 1);
	ol = &memo->v[memo->n++];
	memset(ol, 0, sizeof(*ol));
	if (!model_op_rows(d->a, y, &first, &last))
		return ol;
	ol->label = xcalloc(last - first + 1, sizeof(*ol->label));
	ol->row = xcalloc(last - first + 1, sizeof(*ol->row));
	for (i = first; i <= last; i++)
		if (model_trace_op_flags(d->a, i, &f) == y && row_label(d->a, i, have, sizeof have)) {
			ol->label[ol->n] = xstrdup(have);
			ol->row[ol->n++] = i;
		}
	return ol;
}

static void
memo_done(struct leaf_memo *memo)
{
	size_t k, j;

	for (k = 0; k < memo->n; k++) {
		for (j = 0; j < memo->v[k].n; j++)
			free(memo->v[k].label[j]);
		free(memo->v[k].label);
		free(memo->v[k].row);
	}
	free(memo->v);
	hashtab_u64_done(&memo->ops);
	if (memo->name)
		hashtab_done(&memo->names);
	free(memo->name);
}

/* The key of A's row of op y (of host group g) labelled label; UINT64_MAX
 * when it has none. */
static uint64_t
op_leaf_key(struct model_diff *d, struct leaf_memo *memo, const uint32_t *cls_a,
	    uint32_t nops_a, uint32_t y, uint32_t g, const char *label)
{
	const struct op_labels *ol = labels_of(d, memo, y);
	size_t k;

	for (k = 0; k < ol->n; k++)
		if (diff_row_group(d, 0, ol->row[k]) == g && !strcmp(ol->label[k], label))
			return diff_row_key(d, 0, cls_a, nops_a, ol->row[k]);
	return UINT64_MAX;
}

/* The key of the golden leaf named leaf in host group g: its op name is
 * the longest part before a dot that A has an op of, its label the rest. */
static uint64_t
golden_key(struct model_diff *d, struct leaf_memo *memo, const uint32_t *cls_a, uint32_t nops_a,
	   char *leaf, uint32_t g)
{
	char *dot = NULL, *prev = NULL;
	uint64_t key = UINT64_MAX;

	while (key == UINT64_MAX && (dot = strrchr(leaf, '.'))) {
		uint32_t *same = NULL;
		int64_t y;
		size_t n, k;

		if (prev)
			*prev = '.';        /* the label runs to the end again */
		*dot = '\0';
		prev = dot;
		if ((y = op_named(d, memo, leaf)) < 0)
			continue;
		n = model_op_same_name(d->a, (uint32_t)y, &same);
		for (k = 0; k < n && key == UINT64_MAX; k++)
			key = op_leaf_key(d, memo, cls_a, nops_a, same[k], g, dot + 1);
		free(same);
	}
	return key;
}

/* class << 16 | host group -> an op of A of that class on a host of that
 * group, for every op of A that takes part. */
static void
class_ops(struct model_diff *d, const uint32_t *cls_a, uint32_t nops_a, struct hashtab_u64 *t)
{
	struct model_op op;
	uint32_t y;
	size_t h;

	for (y = 0; y < nops_a; y++) {
		uint32_t g = 0;

		if (cls_a[y] == UINT32_MAX || !model_op_get(d->a, y, &op))
			continue;
		if (!d->any_host) {
			for (h = 0; h < d->side[0].nhosts; h++)
				if (!strcmp(d->side[0].hosts[h], op.host ? op.host : ""))
					break;
			if (h == d->side[0].nhosts || (g = d->side[0].group[h]) == UINT32_MAX)
				continue;
		}
		hashtab_u64_put(t, (uint64_t)cls_a[y] << 16 | (g & 0xffff), y);
	}
}

/* The key of the golden leaf gold for row j of B (op x, named name, in
 * host group g): under the op B's op pairs with when gold continues the
 * name B's op pairs by (only the label changes: the calls pair as without
 * the map), else under the op gold names. */
static uint64_t
leaf_key(struct model_diff *d, struct leaf_memo *memo, const uint32_t *cls_a, uint32_t nops_a,
	 uint32_t cls_x, struct hashtab_u64 *byclass, const char *name, char *gold, uint32_t g)
{
	char buf[1024];
	const char *own = model_map_name(d->b, d->map, name, buf, sizeof buf);
	size_t n = own ? strlen(own) : 0;
	uint64_t y;

	if (own && cls_x != UINT32_MAX && !strncmp(gold, own, n) && gold[n] == '.') {
		if (!byclass->n)
			class_ops(d, cls_a, nops_a, byclass);
		if (!hashtab_u64_get(byclass, (uint64_t)cls_x << 16 | (g & 0xffff), &y))
			return UINT64_MAX;
		return op_leaf_key(d, memo, cls_a, nops_a, (uint32_t)y, g, gold + n + 1);
	}
	return golden_key(d, memo, cls_a, nops_a, gold, g);
}

uint64_t
diff_leaf_slot(uint32_t op, uint32_t slot, uint32_t flags)
{
	if (slot >= (1u << 20) - 1)
		slot = (1u << 20) - 1;      /* as row keys do: such slots share one */
	return (uint64_t)op << 21 | (uint64_t)slot << 1 | ((flags & ROW_INPUT) ? 1u : 0u);
}

void
diff_leaf_keys(struct model_diff *d, const uint32_t *cls_a, uint32_t nops_a,
	       const uint32_t *cls_b, uint32_t nops_b, struct hashtab_u64 *keys)
{
	char label[512], gold[2048];
	uint32_t x, f, g;
	uint64_t first, last, j;
	struct model_op op;
	struct hashtab_u64 byclass = {0};
	struct leaf_memo memo = {0};

	for (x = 0; x < nops_b; x++) {
		if (!model_op_get(d->b, x, &op) ||
		    !model_map_leaf(d->b, d->map, op.name, NULL, NULL, 0) ||
		    !model_op_rows(d->b, x, &first, &last))
			continue;
		for (j = first; j <= last; j++) {
			uint64_t sk, *v;

			/* an op's rows of later steps repeat its places: one
			 * decode a place (an op's rows are one host's) */
			if (model_trace_op_flags(d->b, j, &f) != x ||
			    hashtab_u64_get(keys, sk = diff_leaf_slot(x, model_trace_slot(d->b, j), f),
					    NULL))
				continue;
			v = hashtab_u64_put(keys, sk, DIFF_LEAF_KEEP);  /* valid: no put below */
			if (!row_label(d->b, j, label, sizeof label) ||
			    !model_map_leaf(d->b, d->map, op.name, label, gold, sizeof gold))
				continue;
			g = diff_row_group(d, 1, j);
			*v = g == UINT32_MAX ? UINT64_MAX
				: leaf_key(d, &memo, cls_a, nops_a, cls_b[x], &byclass, op.name, gold, g);
		}
	}
	hashtab_u64_done(&byclass);
	memo_done(&memo);
}
