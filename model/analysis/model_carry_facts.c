/*
 * model_carry_facts.c - what the carry searches (model_carry.c) read of
 * the model, on its public API (model_query.h): the executions' tensor
 * ids and output summaries (decoded on demand, kept per question), their
 * types and graphs, rows' flags and ops, op facts and walks over every op
 * (briefs read a batch at a time, one lock a batch).  Not for: deciding
 * a link (model_carry.c does).
 */
#include "model/analysis/model_carry_ctx.h"

#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_carry_rules.h"
#include "reader/base/hashtab.h"

struct carry *
carry_new(struct model *m, carry_row_call_fn row_call, void *arg, uint64_t *work)
{
	struct carry *c = xcalloc(1, sizeof(*c));

	c->m = m;
	c->row_call = row_call;
	c->arg = arg;
	c->work = work;
	return c;
}

void
carry_free(struct carry *c)
{
	uint64_t k;

	if (!c)
		return;
	for (k = 0; k < c->nx; k++) {
		free(c->x[k].in);
		free(c->x[k].out);
		free(c->x[k].sums);
	}
	free(c->x);
	free(c->position);
	free(c->wr_start);
	free(c->wr_ops);
	free(c->call_ops);
	free(c);
}

void
carry_tick(struct carry *c)
{
	if (c->work)
		(*c->work)++;
}

/* ---- executions' tensor ids ---------------------------------------------------- */

struct xids *
carry_xids(struct carry *c, uint64_t e)
{
	struct model_detail d = {0};
	struct xids *x;
	size_t k;

	if (e >= c->nx) {
		uint64_t n = model_execution_count(c->m);

		if (e >= n)
			return NULL;
		c->x = xrealloc(c->x, n * sizeof(*c->x));
		memset(c->x + c->nx, 0, (n - c->nx) * sizeof(*c->x));
		c->nx = n;
	}
	x = &c->x[e];
	if (x->read)
		return x;
	x->read = true;
	carry_tick(c);
	if (model_execution_outputs(c->m, e, &d) != TD_OK)
		return x;
	if (d.ninput_ids) {
		x->in = xcalloc(d.ninput_ids, sizeof(*x->in));
		memcpy(x->in, d.input_tensor_ids, d.ninput_ids * sizeof(*x->in));
		x->nin = (uint32_t)d.ninput_ids;
	}
	if (d.noutput_ids) {
		x->out = xcalloc(d.noutput_ids, sizeof(*x->out));
		memcpy(x->out, d.output_tensor_ids, d.noutput_ids * sizeof(*x->out));
		x->nout = (uint32_t)d.noutput_ids;
	}
	for (k = 0; d.summaries && k < d.noutputs && k < 64; k++)
		if (td_summary_nonfinite(&d.summaries[k]))
			x->bad |= 1ull << k;
	if (d.summaries && d.noutputs) {
		x->sums = xcalloc(d.noutputs, sizeof(*x->sums));
		memcpy(x->sums, d.summaries, d.noutputs * sizeof(*x->sums));
		x->nsums = (uint32_t)d.noutputs;
	}
	model_detail_done(&d);
	return x;
}

const char *
carry_exec_type(struct model *m, uint64_t e, bool *function)
{
	struct model_exec_keys k;

	if (!model_execution_keys(m, e, 1, &k)) {
		*function = false;
		return "";
	}
	*function = k.flags & ROW_FUNCTION;
	return k.op_type ? k.op_type : "";
}

/* Trace row j's flags (ROW_*). */
uint32_t
carry_row_flags(struct model *m, uint64_t j)
{
	uint32_t f;

	model_trace_op_flags(m, j, &f);
	return f;
}

/* Trace row j's op. */
uint32_t
carry_row_op(struct model *m, uint64_t j)
{
	uint32_t f;

	return model_trace_op_flags(m, j, &f);
}


/* Calls fn(arg, id, brief) on every op, the briefs read a batch at a time;
 * stops early when fn returns false. */
void
carry_each_op(struct model *m, uint32_t end, bool (*fn)(void *arg, uint32_t id,
						  const struct model_op_brief *b), void *arg)
{
	struct model_op_brief b[OP_BATCH];
	uint32_t k = 0;
	size_t n;

	while (k < end && (n = model_op_briefs(m, k, TD_MIN((uint32_t)OP_BATCH, end - k), b))) {
		for (size_t j = 0; j < n; j++)
			if (!fn(arg, k + (uint32_t)j, &b[j]))
				return;
		k += (uint32_t)n;
	}
}


/* Each op's position among its graph's input ops (a function's arguments
 * are its input ops in creation order), counted in one walk. */
struct position_walk {
	struct carry *c;
	struct hashtab_u64 seen;    /* graph key -> graph input ops so far */
};

static bool
count_graph_input(void *arg, uint32_t id, const struct model_op_brief *b)
{
	struct position_walk *w = arg;
	uint64_t *n = hashtab_u64_put(&w->seen, b->graph_key, 0);

	w->c->position[id] = (uint32_t)*n;
	if (!b->ninputs && graph_input_type(b->type))
		(*n)++;
	return true;
}

/* The position of op (0 past the ops): walks the ops on first use, again
 * when the ops grew past it. */
static uint32_t
op_position(struct carry *c, uint32_t op)
{
	if (op >= c->npositions) {
		struct position_walk w = { c, {0} };
		uint32_t n = model_op_count(c->m);

		if (op >= n)
			return 0;
		c->position = xrealloc(c->position, n * sizeof(*c->position));
		c->npositions = n;
		carry_each_op(c->m, n, count_graph_input, &w);
		hashtab_u64_done(&w.seen);
	}
	return c->position[op];
}

/* ---- the writers of each variable ---------------------------------------------- */

struct writer_walk {
	struct model *m;
	uint32_t *var, *op;         /* (variable, writer) pairs */
	size_t n, cap;
	uint32_t *calls;            /* call ops */
	size_t ncalls, capcalls;
};

static bool
note_writer(void *arg, uint32_t id, const struct model_op_brief *b)
{
	struct writer_walk *w = arg;
	int64_t v;

	if (call_type(b->type)) {
		TD_GROW(w->calls, w->capcalls, w->ncalls + 1);
		w->calls[w->ncalls++] = id;
	}
	if (!b->ninputs || !write_type(b->type))
		return true;
	v = model_op_input(w->m, id, 0, NULL, NULL);
	if (v < 0 || v > UINT32_MAX)
		return true;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->var = xrealloc(w->var, w->cap * sizeof(*w->var));
		w->op = xrealloc(w->op, w->cap * sizeof(*w->op));
	}
	w->var[w->n] = (uint32_t)v;
	w->op[w->n++] = id;
	return true;
}

/* One walk over the ops: each variable's writers, grouped by variable in
 * op id order (a counting sort of the pairs the walk found in that
 * order), and the call ops. */
static void
walk_ops(struct carry *c, uint32_t nops, uint64_t gen)
{
	struct writer_walk w = { c->m, NULL, NULL, 0, 0, NULL, 0, 0 };
	uint32_t *next;
	size_t k;

	carry_each_op(c->m, nops, note_writer, &w);
	free(c->wr_start);
	free(c->wr_ops);
	c->wr_start = xcalloc((size_t)nops + 1, sizeof(*c->wr_start));
	c->wr_ops = xmalloc(TD_MAX(w.n, (size_t)1) * sizeof(*c->wr_ops));
	for (k = 0; k < w.n; k++)
		if (w.var[k] < nops)
			c->wr_start[w.var[k] + 1]++;
	for (k = 0; k < nops; k++)
		c->wr_start[k + 1] += c->wr_start[k];
	next = xmalloc(((size_t)nops + 1) * sizeof(*next));
	memcpy(next, c->wr_start, ((size_t)nops + 1) * sizeof(*next));
	for (k = 0; k < w.n; k++)
		if (w.var[k] < nops)
			c->wr_ops[next[w.var[k]]++] = w.op[k];
	free(next);
	free(w.var);
	free(w.op);
	free(c->call_ops);
	c->call_ops = w.calls;
	c->ncall_ops = (uint32_t)w.ncalls;
	c->wr_nops = nops;
	c->wr_gen = gen;
	c->wr_made = true;
}

/* The op walk's answers, made again when the ops grew or an op was
 * described since they were made. */
static void
op_walk_fresh(struct carry *c)
{
	uint64_t gen;
	uint32_t nops = model_ops_filled(c->m, &gen);

	if (!c->wr_made || nops != c->wr_nops || gen != c->wr_gen)
		walk_ops(c, nops, gen);
}

uint32_t
carry_call_ops(struct carry *c, const uint32_t **ops)
{
	op_walk_fresh(c);
	*ops = c->call_ops;
	return c->ncall_ops;
}

uint32_t
carry_writers(struct carry *c, uint32_t var, const uint32_t **ops)
{
	op_walk_fresh(c);
	*ops = c->wr_ops;
	if (var >= c->wr_nops)
		return 0;
	*ops = c->wr_ops + c->wr_start[var];
	return c->wr_start[var + 1] - c->wr_start[var];
}

void
carry_op_facts(struct carry *c, uint64_t i, struct opf *f)
{
	struct model *m = c->m;
	struct model_op_brief b;
	struct model_graph g;

	memset(f, 0, sizeof(*f));
	f->op = carry_row_op(m, i);
	f->type = "";
	f->graph = f->outer = -1;
	if (model_op_brief(m, f->op, &b)) {
		f->type = b.type;
		f->ninputs = b.ninputs;
		f->graph = b.graph;
		if (f->graph >= 0 && model_graph_get(m, (uint32_t)f->graph, &g))
			f->outer = g.outer;
		f->position = op_position(c, f->op);
	}
}

int32_t
carry_row_graph(struct model *m, uint64_t j)
{
	struct model_op_brief b;

	return model_op_brief(m, carry_row_op(m, j), &b) ? b.graph : -1;
}

bool
carry_inside(struct model *m, int32_t g, int32_t outer)
{
	return model_graph_inside(m, g, outer);
}

/* The op id of op's input k producer, NO_OP unknown; its type in *type. */
uint32_t
carry_producer(struct model *m, uint32_t op, uint32_t k, const char **type)
{
	struct model_op_brief b;
	int64_t id = model_op_input(m, op, k, NULL, NULL);

	*type = "";
	if (id < 0)
		return NO_OP;
	if (model_op_brief(m, (uint32_t)id, &b))
		*type = b.type;
	return (uint32_t)id;
}

/* A nested function's argument at position o->position: what the call ops
 * of the enclosing graph pass there (their recorded input at that
 * position), the latest non-finite such row of the same call; a call op
 * passing another call op's output passes the inner graph's output. */
int32_t
carry_exec_graph(struct model *m, int64_t x)
{
	struct model_exec_keys k;

	if (x < 0 || !model_execution_keys(m, (uint64_t)x, 1, &k))
		return -1;
	return k.graph;
}

