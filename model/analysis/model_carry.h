/*
 * model_carry.h - the links that carry a value across a boundary the graph
 * edges do not show: a function call's inputs and outputs, a variable's
 * write before its read, an op's own input record.  Private to the
 * analysis floor (model_origins.c asks, model_carry.c answers).
 */
#ifndef MODEL_CARRY_H
#define MODEL_CARRY_H

#include "model/model.h"

struct carry;

/* The call (execution row) row i ran in, -1 unknown: how the asker maps a
 * row to its execution (model_origins.c: the row's own execution, else the
 * function call recorded after it). */
typedef int64_t (*carry_row_call_fn)(void *arg, uint64_t i);

/* A new carry context over m for one question (origins, why): it caches
 * the executions' tensor ids it reads.  work counts the executions and
 * rows it looked at (for the asker's budget).  Free with carry_free(). */
struct carry *carry_new(struct model *m, carry_row_call_fn row_call, void *arg, uint64_t *work);
void carry_free(struct carry *c);

struct carry_found {
	enum model_carry_link link;
	int64_t row;                /* trace row the value came from, -1 none */
	int64_t via;                /* execution that carried it, -1 none */
	const char *via_type;       /* its op type ("" none) */
	uint32_t position;          /* call input / variable write input position */
};

/* Whether non-finite row i (no non-finite input through the graph's edges)
 * got its value through a recorded link; fills *f when it did.  Only links
 * the dump records count: a function graph's input op and its call's input
 * at that position (the executions' tensor ids), a call op's output and the
 * inner graph's latest output row of the same call, a variable read and
 * the last write before it (the writer op's row in a graph, or the eager
 * write's inputs by tensor id), an input record and an earlier output row
 * of its step holding the same value. */
bool carry_find(struct carry *c, uint64_t i, struct carry_found *f);

/* For a row carry_find found no link for, whose value should have come
 * through one (a function's argument, a variable read, an input record):
 * which record of the dump is missing, in words, into buf; false when
 * nothing is missing (the link's far end is recorded and finite). */
bool carry_missing(struct carry *c, uint64_t i, char *buf, size_t size);

#endif
