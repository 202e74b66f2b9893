/*
 * model_diff_calls.c - which execution of A a call of B pairs with as a
 * whole (model_diff_execution_pair): for the calls that have no trace row
 * (nothing for the row alignment of model_diff.c to pair), whose
 * non-tensor arguments still make rows in the compare tool's CSV.
 *
 * An op of B pairs with an op of A of the same class (its name as the
 * rows pair it: the map's renames, the call counts as model_diff.h
 * "Calls" reads them) on a host of the same group, the k-th op of a class
 * and group in B with the k-th in A (op ids grow in the readers' file
 * order); an execution of B then pairs with the execution of that op of A
 * at the same step.  The table is built on the first question (a pass
 * over both sides' ops and A's executions) and freed with the diff; a
 * diff nobody asks never builds it.  Not for rows (model_diff.c pairs
 * those, leaf maps included).
 */
#include "model/model_diff.h"

#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_diff_state.h"
#include "reader/base/hashtab.h"

#define NONE32 UINT32_MAX
#define RANK_BITS 20

struct diff_calls {
	int64_t *b_op;              /* B's op id -> A's op id, -1 none, -2 host not compared */
	uint32_t nops_b;
	struct hashtab_u64 a_exec;  /* A's (op, step) -> its execution */
};

/* The group of host on side s, NONE32 when it takes no part. */
static uint32_t
group_of(const struct model_diff *d, int s, const char *host)
{
	const struct diff_side *sd = &d->side[s];
	size_t i;

	if (d->any_host)
		return 0;
	for (i = 0; i < sd->nhosts; i++)
		if (strcmp(sd->hosts[i], host ? host : "") == 0)
			return sd->group[i];
	return NONE32;
}

/* The key of op (class c, group g, its rank among the ops of both), or
 * UINT64_MAX when it takes no part; counts the rank in ranks. */
static uint64_t
op_key(struct hashtab_u64 *ranks, uint32_t c, uint32_t g)
{
	uint64_t cg, *rank;

	if (c == NONE32 || g == NONE32)
		return UINT64_MAX;
	cg = (uint64_t)c << 16 | (g & 0xffff);
	rank = hashtab_u64_put(ranks, cg, 0);
	if (*rank >= (1u << RANK_BITS))
		return UINT64_MAX;
	return cg << RANK_BITS | (*rank)++;
}

/* The op execution x of m ran (its op_type in its graph), -1 none. */
static int64_t
exec_op(struct model *m, const struct model_execution *x)
{
	struct model_graph g;

	if (!x->op_type)
		return -1;
	if (x->graph >= 0 && model_graph_get(m, (uint32_t)x->graph, &g))
		return model_op_find(m, x->op_type, g.graph_id);
	return model_op_find(m, x->op_type, NULL);
}

static uint64_t
exec_key(int64_t op, int64_t step)
{
	return (uint64_t)op << 32 | (uint32_t)(step + 1);
}

static struct diff_calls *
calls_build(struct model_diff *d)
{
	struct diff_calls *c = xcalloc(1, sizeof(*c));
	struct hashtab_u64 ranks = { 0 }, a_ops = { 0 };   /* key -> A's op */
	uint32_t *cls_a, *cls_b, nops_a, i;
	uint8_t *wanted;
	uint64_t nx = model_execution_count(d->a), x, key, a;
	struct model_op op;
	struct model_execution ex;

	diff_call_classes(d, &cls_a, &nops_a, &cls_b, &c->nops_b);
	for (i = 0; i < nops_a; i++)
		if (model_op_get(d->a, i, &op) &&
		    (key = op_key(&ranks, cls_a[i], group_of(d, 0, op.host))) != UINT64_MAX)
			*hashtab_u64_put(&a_ops, key, 0) = i;
	hashtab_u64_done(&ranks);
	c->b_op = xcalloc(c->nops_b ? c->nops_b : 1, sizeof(*c->b_op));
	wanted = xcalloc(nops_a ? nops_a : 1, 1);
	for (i = 0; i < c->nops_b; i++) {
		c->b_op[i] = -1;
		if (!model_op_get(d->b, i, &op))
			continue;
		if (group_of(d, 1, op.host) == NONE32) {
			c->b_op[i] = -2;
			continue;
		}
		key = op_key(&ranks, cls_b[i], group_of(d, 1, op.host));
		if (key != UINT64_MAX && hashtab_u64_get(&a_ops, key, &a)) {
			c->b_op[i] = (int64_t)a;
			wanted[a] = 1;
		}
	}
	for (x = 0; x < nx; x++) {
		int64_t o;

		if (model_execution_get(d->a, x, &ex) == TD_OK && (o = exec_op(d->a, &ex)) >= 0 &&
		    (uint64_t)o < nops_a && wanted[o])
			hashtab_u64_put(&c->a_exec, exec_key(o, ex.step), x);
	}
	hashtab_u64_done(&ranks);
	hashtab_u64_done(&a_ops);
	free(wanted);
	free(cls_a);
	free(cls_b);
	return c;
}

void
diff_calls_free(struct diff_calls *c)
{
	if (!c)
		return;
	free(c->b_op);
	hashtab_u64_done(&c->a_exec);
	free(c);
}

int64_t
model_diff_execution_pair(struct model_diff *d, uint64_t b_exec)
{
	struct model_execution ex;
	int64_t op, a;
	uint64_t x;

	if (model_execution_get(d->b, b_exec, &ex) != TD_OK || (op = exec_op(d->b, &ex)) < 0)
		return -1;
	if (!d->calls)
		d->calls = calls_build(d);
	if ((uint64_t)op >= d->calls->nops_b)
		return -1;
	if ((a = d->calls->b_op[op]) < 0)
		return a;
	return hashtab_u64_get(&d->calls->a_exec, exec_key(a, ex.step), &x) ? (int64_t)x : -1;
}
