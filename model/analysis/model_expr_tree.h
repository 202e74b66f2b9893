/*
 * model_expr_tree.h - the compiled form of a condition (model_expr.h),
 * private to the files that build and walk it: the parser and the row
 * by row evaluator (model_expr.c) and the window evaluator
 * (model_expr_window.c).  Not for other files: they see struct expr as
 * an opaque handle.
 */
#ifndef TD_MODEL_EXPR_TREE_H
#define TD_MODEL_EXPR_TREE_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "model/model_expr.h"

enum tok {
	T_END, T_LP, T_RP, T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, T_MATCH,
	T_AND, T_OR, T_NOT, T_FIELD, T_NUM, T_STR, T_BAD,
};

enum node_kind { N_OR, N_AND, N_NOT, N_CMP, N_MATCH, N_TRUTH };
enum operand_kind { O_FIELD, O_NUM, O_STR };

struct operand {
	enum operand_kind kind;
	int field;
	double num;
	char *str;
	size_t col;
};

struct node {
	enum node_kind kind;
	enum tok op;                /* N_CMP */
	int a, b;                   /* children (N_OR, N_AND, N_NOT: a only) */
	struct operand l, r;        /* N_CMP, N_MATCH (l only with re), N_TRUTH (l) */
	pcre2_code *re;
};

/* A "~" answer kept by its text (model_expr.c): the row by row walk
 * matches a short text once per node, however many rows carry it (a
 * dtype name, a role). */
#define EXPR_RX_SHORT 40            /* texts kept: shorter than this */
#define EXPR_RX_MEMO 256            /* entries, direct-mapped by hash */
struct expr_rx_ent {
	int node1;                  /* node index + 1; 0 empty */
	uint8_t len;
	uint8_t r;                  /* enum expr_result */
	char s[EXPR_RX_SHORT];
};

struct expr {
	char *text;
	struct node *nodes;
	size_t n, cap;
	int root;
	uint64_t fields;
	pcre2_match_data *md;
	struct expr_rx_ent *rx;     /* EXPR_RX_MEMO entries when a node is "~", else NULL */
};

/* The kind of value an operand gives (a field's, or a literal's). */
static inline enum expr_kind
expr_operand_kind(const struct operand *o)
{
	if (o->kind == O_FIELD)
		return expr_field_kind((enum expr_field)o->field);
	return o->kind == O_NUM ? EXPR_NUM : EXPR_STR;
}

/* Comparison op applied to c, a three-way comparison (<0, 0, >0). */
static inline bool
expr_cmp_holds(enum tok op, int c)
{
	switch (op) {
	case T_LT: return c < 0;
	case T_LE: return c <= 0;
	case T_GT: return c > 0;
	case T_GE: return c >= 0;
	case T_EQ: return c == 0;
	default:   return c != 0;
	}
}

#endif
