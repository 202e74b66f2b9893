/*
 * model_carry_ctx.h - what model_carry.c (the searches) and
 * model_carry_facts.c (what they read of the model: executions' tensor
 * ids, op facts, walks over every op) share.  Private to the carry files.
 */
#ifndef MODEL_CARRY_CTX_H
#define MODEL_CARRY_CTX_H

#include "model/analysis/model_carry.h"

#define NO_OP UINT32_MAX            /* carry_producer(): no such op */

struct xids {
	int64_t *in, *out;
	uint32_t nin, nout;
	uint64_t bad;               /* outputs 0..63 holding NaN/Inf */
	struct td_summary *sums;    /* the outputs' summaries (nsums) */
	uint32_t nsums;
	bool read;
};

struct carry {
	struct model *m;
	carry_row_call_fn row_call;
	void *arg;
	uint64_t *work;
	struct xids *x;             /* per execution row, read on demand */
	uint64_t nx;
	uint32_t *position;         /* per op: graph input ops before it in its
				     * graph (one walk over the ops, on first use) */
	uint32_t npositions;
	/* the ops writing each variable op (CSR: writers of op v are
	 * wr_ops[wr_start[v] .. wr_start[v + 1]), by op id), made in one walk
	 * over the ops on first use and again when the ops grew or an op was
	 * described since (wr_nops, wr_gen) */
	uint32_t *wr_start, *wr_ops;
	uint32_t wr_nops;
	uint64_t wr_gen;
	bool wr_made;
	/* the ops of a call type, by op id (made in the same walk) */
	uint32_t *call_ops;
	uint32_t ncall_ops;
};

struct opf {
	uint32_t op;
	const char *type;
	int32_t graph, outer;
	size_t ninputs;
	uint32_t position;          /* graph input ops before it in its graph */
};

#define OP_BATCH 256                /* op briefs read at once */

/* One unit of work for the asker's budget. */
void carry_tick(struct carry *c);
/* Execution e's tensor ids and output summaries (read once, kept); NULL
 * past the executions. */
struct xids *carry_xids(struct carry *c, uint64_t e);
/* Execution e's type ("" unknown); *function: a function call. */
const char *carry_exec_type(struct model *m, uint64_t e, bool *function);
/* Execution x's called graph, -1 none or x < 0. */
int32_t carry_exec_graph(struct model *m, int64_t x);
/* Trace row j's flags (ROW_*) and op. */
uint32_t carry_row_flags(struct model *m, uint64_t j);
uint32_t carry_row_op(struct model *m, uint64_t j);
/* Calls fn(arg, id, brief) on ops [0, end), the briefs read a batch at a
 * time; stops early when fn returns false. */
void carry_each_op(struct model *m, uint32_t end,
		   bool (*fn)(void *arg, uint32_t id, const struct model_op_brief *b), void *arg);
/* The ops that write variable op var (input 0 produced by it, a write
 * type), by op id, into *ops; returns how many. */
uint32_t carry_writers(struct carry *c, uint32_t var, const uint32_t **ops);
/* The ops of a call type (a function graph's call), by op id, into *ops;
 * returns how many. */
uint32_t carry_call_ops(struct carry *c, const uint32_t **ops);
/* Row i's op facts (type, inputs, graph, its outer graph, its position
 * among its graph's input ops). */
void carry_op_facts(struct carry *c, uint64_t i, struct opf *f);
/* Row j's op's graph, -1 none. */
int32_t carry_row_graph(struct model *m, uint64_t j);
/* Whether graph g is outer or inside it. */
bool carry_inside(struct model *m, int32_t g, int32_t outer);
/* The op id of op's input k producer, NO_OP unknown; its type in *type. */
uint32_t carry_producer(struct model *m, uint32_t op, uint32_t k, const char **type);

#endif
