/*
 * model_origin_prev.c - an op's latest earlier output row of one slot,
 * for the origins' repeat rule (previous_same in model_origins.c),
 * answered from a walk of the rows in order instead of a scan back per
 * question.
 *
 * The origins classify the non-finite rows in row order, and a row's
 * previous row of its op is about a step back: a scan back from each row
 * (model_trace_of_op) reads the op references of a whole step per
 * question, which was the largest part of `origins` on a dump whose rows
 * are non-finite from some row on.  Here a cursor walks the rows once,
 * as the questions move forward, and keeps each op's latest output row
 * (any slot; input rows and repeated views are not outputs, as for the
 * scan) in a table by op id.  A question at the cursor is then a look-up
 * and, for a slot other than that row's, a scan back from that row (an
 * op's outputs lie together); an op the walk has not met yet is scanned
 * for once, from where the walk began.  The answer is the scan's, always.
 *
 * A row walked costs about what PREV_WALK_ROWS rows of a scan do, and a
 * question answered from the table saves a scan of about a step, so each
 * question earns the walk PREV_WALK_ROWS rows: a question further past
 * the cursor than the walk has earned (few non-finite rows, far apart)
 * starts a new walk there instead of reading the rows in between, and a
 * question behind the cursor (a path walked back) is a plain scan.  The
 * walk thus reads at most PREV_WALK_ROWS rows a question.
 * Not for questions with an execution bound: previous_same checks that
 * on the answer, as before.
 */
#include "model/analysis/model_origins_ctx.h"

#include <stdlib.h>
#include <string.h>

#define PREV_WALK_ROWS 256          /* rows each question lets the walk read */

struct prev_ent {
	uint32_t gen;               /* the walk that set it; another: not set */
	int64_t row;                /* latest output row of the op below `at`, -1 none */
};

struct prev_memo {
	uint64_t from;              /* where this walk began */
	uint64_t at;                /* rows [from, at) walked */
	uint64_t credit;            /* rows the walk may still read */
	uint32_t gen;               /* this walk's number (0: none yet) */
	struct prev_ent *v;         /* by op id; unset: no output row in [from, at) */
	size_t cap;
};

/* Op's entry, the table grown to hold it. */
static struct prev_ent *
prev_slot(struct prev_memo *p, uint32_t op)
{
	if (op >= p->cap) {
		size_t old = p->cap;

		TD_GROW(p->v, p->cap, (size_t)op + 1);
		memset(p->v + old, 0, (p->cap - old) * sizeof(*p->v));
	}
	return &p->v[op];
}

/* A new walk from row i: every entry unset. */
static void
prev_restart(struct prev_memo *p, uint64_t i)
{
	if (++p->gen == 0) {        /* wrapped: clear the stamps once */
		memset(p->v, 0, p->cap * sizeof(*p->v));
		p->gen = 1;
	}
	p->from = p->at = i;
	p->credit = 0;
}

/* Walks rows [at, i): each output row becomes its op's latest. */
static void
prev_walk(struct model *m, struct prev_memo *p, uint64_t i)
{
	for (uint64_t j = p->at; j < i; j++) {
		uint32_t f, op = model_trace_op_flags(m, j, &f);
		struct prev_ent *e;

		if (f & (ROW_INPUT | ROW_REPEAT))
			continue;
		e = prev_slot(p, op);
		e->gen = p->gen;
		e->row = (int64_t)j;
	}
	p->credit -= i - p->at;
	p->at = i;
}

int64_t
octx_prev_of_op(struct octx *c, uint32_t op, uint32_t slot, uint64_t i)
{
	struct prev_memo *p = c->prev;
	struct prev_ent *e;

	if (!p)
		p = c->prev = xcalloc(1, sizeof(*p));
	if (p->gen && i < p->at)
		return model_trace_of_op(c->m, op, slot, i, -1);
	if (!p->gen || i - p->at > p->credit + PREV_WALK_ROWS)
		prev_restart(p, i);
	p->credit += PREV_WALK_ROWS;
	if (i > p->at)
		prev_walk(c->m, p, i);
	e = prev_slot(p, op);
	if (e->gen != p->gen) {     /* none in [from, at): the latest before from */
		e->gen = p->gen;
		e->row = model_trace_of_op(c->m, op, UINT32_MAX, p->from, -1);
	}
	/* no output row of op in (e->row, i): the slot's is at or before it */
	return e->row < 0 ? -1 : model_trace_of_op(c->m, op, slot, (uint64_t)e->row + 1, -1);
}

void
octx_prev_free(struct prev_memo *p)
{
	if (!p)
		return;
	free(p->v);
	free(p);
}
