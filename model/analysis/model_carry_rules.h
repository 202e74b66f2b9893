/*
 * model_carry_rules.h - the rules model_carry.c applies: its search
 * bounds, the words of its links, which op types take a function's
 * argument, read or write a variable, make a value from nothing or call a
 * function (neutral names, no format), a binary op's arity, and when two
 * summaries show the same value.  Included by model_carry.c only.
 */
#ifndef MODEL_CARRY_RULES_H
#define MODEL_CARRY_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "model/model.h"
#include "reader/base/tensor.h"

/* Every search is bounded. */
#define CARRY_EXEC_WINDOW 4096      /* executions searched back for a tensor id */
#define CARRY_ROW_WINDOW 4096       /* rows searched back for a call's rows */
#define CARRY_SAME_WINDOW 256       /* rows searched back for an equal value */
#define CARRY_DEPTH 3               /* write -> value -> write ... */

/* The words of each enum model_carry_link (model_carry_link_name). */
static const char *const link_names[] = {
	[CARRY_NONE] = "", [CARRY_CALL_INPUT] = "call input", [CARRY_CALL_OUTPUT] = "call output",
	[CARRY_VARIABLE] = "variable", [CARRY_SAME_VALUE] = "same value",
	[CARRY_CALL_UNRECORDED] = "unrecorded input",
};

/* ---- op type classes -------------------------------------------------------- */

static inline bool
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static inline bool
ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* An op that takes a function's argument: no inputs of its own. */
static inline bool
graph_input_type(const char *t)
{
	return !strcmp(t, "Placeholder") || !strcmp(t, "_Arg") ||
	       !strcmp(t, "PlaceholderWithDefault");
}

/* An op that reads a variable's current value. */
static inline bool
read_type(const char *t)
{
	return !strcmp(t, "ReadVariableOp") || !strcmp(t, "ResourceGather") ||
	       !strcmp(t, "VariableV2") || !strcmp(t, "Variable") || !strcmp(t, "Parameter");
}

/* The variable itself (a read of it gives its value). */
static inline bool
variable_type(const char *t)
{
	return !strcmp(t, "VariableV2") || !strcmp(t, "Variable") || !strcmp(t, "VarHandleOp") ||
	       !strcmp(t, "Parameter");
}

/* An op that writes its input 0 (a variable, a handle, a parameter). */
static inline bool
write_type(const char *t)
{
	return starts(t, "ResourceApply") || starts(t, "ResourceSparseApply") ||
	       starts(t, "ResourceScatter") || starts(t, "Apply") || starts(t, "SparseApply") ||
	       !strcmp(t, "Assign") || !strcmp(t, "AssignAdd") || !strcmp(t, "AssignSub") ||
	       (starts(t, "Assign") && ends(t, "VariableOp"));
}

/* An op with no inputs of its own: its value is made or fed. */
static inline bool
source_type(const char *t)
{
	return graph_input_type(t) || variable_type(t) || !strcmp(t, "Const") ||
	       !strcmp(t, "Constant") || starts(t, "Random") || !strcmp(t, "TruncatedNormal") ||
	       starts(t, "Iterator") || !strcmp(t, "GetNext") || !strcmp(t, "Data");
}

/* The inputs a binary op reads (elementwise arithmetic, products): 2;
 * else 0 (not known here). */
static inline size_t
arity(const char *t)
{
	static const char *const binary[] = {
		"Mul", "Add", "AddV2", "Sub", "RealDiv", "Div", "DivNoNan", "MulNoNan", "FloorDiv",
		"Maximum", "Minimum", "Pow", "SquaredDifference", "MatMul", "BatchMatMul",
		"BatchMatMulV2", "BiasAdd", "Xdivy", "Xlogy", NULL,
	};
	const char *const *p;

	for (p = binary; *p; p++)
		if (!strcmp(t, *p))
			return 2;
	return 0;
}

/* An op that calls a function graph. */
static inline bool
call_type(const char *t)
{
	return ends(t, "PartitionedCall") || ends(t, "Call");
}

/* ---- same value -------------------------------------------------------------------------- */

/* Two summaries count the same NaN/-Inf/+Inf (all three known), elements
 * and min/max where both know them. */
static inline bool
same_counts(const struct td_summary *a, const struct td_summary *b)
{
	uint32_t need = SUM_NAN | SUM_NEG_INF | SUM_POS_INF;

	if ((a->known & need) != need || (b->known & need) != need)
		return false;
	if (a->nan != b->nan || a->neg_inf != b->neg_inf || a->pos_inf != b->pos_inf)
		return false;
	if (a->elements && b->elements && a->elements != b->elements)
		return false;
	return !((a->known & b->known & SUM_MINMAX) && (a->min != b->min || a->max != b->max));
}

#endif
