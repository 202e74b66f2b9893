/*
 * model_origins_ctx.h - what the origin files share (model_origins.c
 * classifies rows and lists the roots, model_origin_steps.c maps rows to
 * their steps and calls, model_origin_carry.c words carried rows and
 * counts how far the roots' values went).  Private to the analysis floor.
 */
#ifndef MODEL_ORIGINS_CTX_H
#define MODEL_ORIGINS_CTX_H

#include "model/analysis/model_carry.h"
#include "reader/base/hashtab.h"

struct call {
	double wall;
	uint64_t exec;
	uint32_t host_sid;
	int32_t graph;
};

/* One question's context: built lazily, freed with octx_done(). */
struct octx {
	struct model *m;
	struct call *calls;         /* function-call executions by wall time */
	size_t ncalls;
	bool have_calls;
	struct carry *carry;        /* NULL until a row needs a carried link */
	uint64_t work;              /* rows and executions looked at */
	struct step_memo *steps;    /* rows' steps found so far (a row's step
				     * never changes within a context: its keys
				     * are fixed once indexed, the calls read
				     * once), NULL until the first */
	struct step_memo *calls_of; /* rows' calls found so far, the same way */
	uint64_t fill_block1;       /* block of the columns of the rows explained
				     * last + 1, 0 none (fill_row) */
	unsigned fill_n;            /* rows of it explained */
	uint64_t host_lo, host_n;   /* rows [host_lo, host_lo + host_n) have their */
	uint32_t *host;             /* host keys here (octx_row_host), NULL none */
	struct prev_memo *prev;     /* each op's latest output row as the rows are
				     * walked in order (model_origin_prev.c),
				     * NULL until the first question */
};

void octx_done(struct octx *c);
/* The step of row i (the reader's, else its execution's, else the function
 * call recorded after it), -1 unknown. */
int64_t octx_row_step(struct octx *c, uint64_t i);
/* The execution row i ran in (its own, else the function call recorded
 * after it, else its step), -1 unknown. */
int64_t octx_row_call(void *octx, uint64_t i);
/* The latest output row before i of (op, slot), -1 none: what
 * model_trace_of_op(m, op, slot, i, -1) answers, from a walk of the rows
 * in order kept in c (model_origin_prev.c) when the questions move
 * forward, as the listing's do. */
int64_t octx_prev_of_op(struct octx *c, uint32_t op, uint32_t slot, uint64_t i);
void octx_prev_free(struct prev_memo *p);
/* The carry context of c (made on first use). */
struct carry *octx_carry(struct octx *c);

/* Classifies row i into o (role, inputs, from, link; no path, no cause).
 * decode: the inputs' summaries. */
void origins_classify(struct octx *c, uint64_t i, struct model_origin *o, bool decode);
/* Explains row i into o (row facts, role, inputs, path, cause). */
void origins_explain_row(struct octx *c, uint64_t i, struct model_origin *o);
/* Words a carried row's cause and evidence (o->path and o->origin set). */
void origins_explain_carried(struct octx *c, struct model_origin *o);

/* An origin as a listing keeps it: numbers only, 24 bytes (the inputs,
 * path, cause and evidence are made when it is shown:
 * model_origin_list_get). */
struct origin_rec {
	uint64_t index;             /* trace row or execution */
	double wall_time;           /* the sort key: first in time first */
	uint32_t host;              /* host key (model_host_name) */
	uint8_t source;             /* enum model_table */
};

/* Explanations a run made, packed (model_origin_pack.c): shown from
 * here instead of made again.  Zeroed is empty. */
struct origin_packs {
	uint8_t *b;
	size_t n, cap;
	size_t max;                 /* bytes kept at most, 0: ORIGIN_PACK_MAX */
	struct hashtab_u64 at;      /* trace row -> offset in b + 1 */
};
/* Keeps o, the explanation of trace row `row`; false (nothing kept) past
 * the bytes a run keeps. */
bool origin_pack_put(struct origin_packs *p, uint64_t row, const struct model_origin *o);
/* Row's explanation into o (its arrays malloc'd: model_origin_done);
 * false when it was not kept. */
bool origin_pack_get(const struct origin_packs *p, uint64_t row, struct model_origin *o);
void origin_packs_done(struct origin_packs *p);

/* How far the roots' values went, counted while origins walks the rows in
 * order (each row's root is its earliest source's root). */
struct reach_acc {
	struct hashtab_u64 root;         /* row -> its root's entry + 1 */
	struct hashtab_u64 seen;         /* (entry, step or host) pairs counted */
	struct reach_ent *v;
	size_t n, cap;
};
/* Notes classified row j (role, from, link in t). */
void reach_note(struct reach_acc *a, struct octx *c, uint64_t j, const struct model_origin *t);
/* The reach of each origin of v (trace origins; zero for the others), a
 * malloc'd array of n, NULL when n is 0. */
struct model_reach *reach_take(struct reach_acc *a, const struct origin_rec *v, size_t n);
void reach_done(struct reach_acc *a);

/* Trace row j's host key (model_trace_keys' host: 0 none or past the
 * rows), read with the rows after it a window at a time
 * (model_trace_hosts: one lock, the host found once a file's rows):
 * the walks ask the rows in order. */
uint32_t octx_row_host(struct octx *c, uint64_t j);

#endif
