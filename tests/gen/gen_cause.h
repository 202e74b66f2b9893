/*
 * gen_cause.h - the root-cause programs of the generator (--cause NAME):
 * one small program per way of making NaN/Inf, with real values.
 */
#ifndef GEN_CAUSE_H
#define GEN_CAUSE_H

#include <stdint.h>
#include <stdio.h>

#include "gen_prog.h"
#include "gen_wire.h"

/* Builds the program of cause name into p (two steps of p->ntens traced
 * tensors; step 1 holds the bad value).  -1 when name is unknown. */
int gen_cause_build(struct gen_prog *p, const char *name);
/* Lists the causes with one line each. */
void gen_cause_list(FILE *fp);
/* The debug tensor of trace row (TensorProto bytes) in TensorDebugMode mode. */
void gen_cause_tensor(struct gen_buf *b, const struct gen_prog *p, int mode, uint64_t row);
/* Whether trace row's value holds NaN/Inf. */
int gen_cause_bad(const struct gen_prog *p, uint64_t row);
/* "cause", "origin_row", "origin_op", "origin_type", "origin_input" lines. */
void gen_cause_facts(FILE *fp, const struct gen_prog *p);

#endif
