/*
 * model_expr.h - the condition language of --where, filters and watches.
 *
 * An expression is a test on one tensor row: its summary (counts, min, max,
 * mean, ...), its op (name, type, role), where it ran (host, step), how
 * it changed since the previous step, and what the dump states of the row
 * itself where it does (role, requires_grad, prefix).  Examples:
 *
 *	type ~ "MatMul" and abs_mean > 1e3
 *	role == "gradient" and (nan > 0 or max >= inf)
 *	not (zero_fraction < 1) or dtype == "float16"
 *
 * Grammar (lowest precedence first):
 *
 *	expr  := and ("or" and)*
 *	and   := not ("and" not)*
 *	not   := "not" not | cmp
 *	cmp   := term [("<" | "<=" | ">" | ">=" | "==" | "!=" | "~") term]
 *	term  := "(" expr ")" | FIELD | NUMBER | STRING
 *
 * NUMBER is a decimal with an optional sign, fraction and exponent, or
 * "inf"; STRING is "..." or '...' (backslash escapes the quote); "~" takes
 * a PCRE2 pattern on its right and a text field on its left.  A field alone
 * is true when it is non-zero (`nan or unchanged`).
 *
 * Logic is three-valued as in SQL: a field the row does not carry is
 * unknown, a comparison with unknown is unknown, `true or unknown` is true,
 * `false and unknown` is false, `not unknown` is unknown.
 *
 * Fields are resolved through a callback, so the same compiled expression
 * can be decided in stages: the caller first answers only the op fields
 * (name, type, role) and gets EXPR_DEFER when the rest matters, then
 * evaluates rows of the ops that were not decided.  Nothing here knows a
 * dump format or the model's tables.
 */
#ifndef TD_MODEL_EXPR_H
#define TD_MODEL_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/util.h"

/* Kinds of values and when they are known: OP fields depend on the op
 * alone, ROW fields on the row (most need its summary decoded), STEP fields
 * on the same tensor at the previous step. */
enum expr_kind { EXPR_NUM, EXPR_STR };
enum expr_stage { EXPR_STAGE_OP, EXPR_STAGE_ROW, EXPR_STAGE_STEP };

#define EXPR_FIELD_INFO(_) \
	_(NAN,            "nan",            NUM, ROW) \
	_(NEG_INF,        "neg_inf",        NUM, ROW) \
	_(POS_INF,        "pos_inf",        NUM, ROW) \
	_(NEGATIVE,       "negative",       NUM, ROW) \
	_(ZERO,           "zero",           NUM, ROW) \
	_(POSITIVE,       "positive",       NUM, ROW) \
	_(ELEMENTS,       "elements",       NUM, ROW) \
	_(MIN,            "min",            NUM, ROW) \
	_(MAX,            "max",            NUM, ROW) \
	_(MEAN,           "mean",           NUM, ROW) \
	_(ABS_MEAN,       "abs_mean",       NUM, ROW) \
	_(STD,            "std",            NUM, ROW) \
	_(L2NORM,         "l2norm",         NUM, ROW) \
	_(ZERO_FRACTION,  "zero_fraction",  NUM, ROW) \
	_(ZERO_PERCENTAGE, "zero_percentage", NUM, ROW) \
	_(RANK,           "rank",           NUM, ROW) \
	_(DTYPE,          "dtype",          STR, ROW) \
	_(OP,             "op",             STR, OP) \
	_(TYPE,           "type",           STR, OP) \
	_(ROLE,           "role",           STR, OP) \
	_(HOST,           "host",           STR, ROW) \
	_(STEP,           "step",           NUM, ROW) \
	_(MAX_ABS,        "max_abs",        NUM, ROW) \
	_(DTYPE_MAX,      "dtype_max",      NUM, ROW) \
	_(DELTA_ABS_MEAN, "delta_abs_mean", NUM, STEP) \
	_(UPDATE_RATIO,   "update_ratio",   NUM, STEP) \
	_(UNCHANGED,      "unchanged",      NUM, STEP) \
	_(FIRST_RECORD,   "first_record",   NUM, STEP) \
	_(REQUIRES_GRAD,  "requires_grad",  NUM, ROW) \
	_(PREFIX,         "prefix",         STR, ROW)

enum expr_field {
#define EXPR_FIELD_ENUM(id, name, kind, stage) EXPR_F_##id,
	EXPR_FIELD_INFO(EXPR_FIELD_ENUM)
#undef EXPR_FIELD_ENUM
	EXPR_F_COUNT
};

/* Name, kind and stage of a field; expr_field_find() returns -1 for an
 * unknown name. */
const char *expr_field_name(enum expr_field f);
enum expr_kind expr_field_kind(enum expr_field f);
enum expr_stage expr_field_stage(enum expr_field f);
int expr_field_find(const char *name);

/* What a field resolver answers for one field of one row. */
enum expr_avail {
	EXPR_KNOWN,                 /* *num or *str holds the value */
	EXPR_ABSENT,                /* the row does not carry it: unknown */
	EXPR_LATER,                 /* not answered at this stage: defer */
};
/* Resolves field f; sets *num (EXPR_NUM fields) or *str (EXPR_STR fields,
 * borrowed until the evaluation returns). */
typedef enum expr_avail (*expr_get_fn)(void *ctx, enum expr_field f, double *num,
				       const char **str);

enum expr_result {
	EXPR_FALSE = 0,
	EXPR_TRUE = 1,
	EXPR_UNKNOWN = 2,
	EXPR_DEFER = 3,             /* some field answered EXPR_LATER and it matters */
};

struct expr;

/* Compiles text.  On error returns TD_ERR_ARGS (TD_ERR_REGEX for a bad
 * pattern) with err as "column N: what" (N counts bytes from 1, pointing
 * at the offending token; PCRE2's message and offset for patterns). */
enum td_status expr_parse(const char *text, struct expr **out, char *err, size_t errlen);
void expr_free(struct expr *e);

/* The text it was compiled from (borrowed until expr_free). */
const char *expr_text(const struct expr *e);
/* Bit (1 << field) for every field the expression reads. */
uint64_t expr_fields(const struct expr *e);
/* The latest stage of the fields it reads (EXPR_STAGE_OP: decided per op). */
enum expr_stage expr_max_stage(const struct expr *e);

/* Evaluates e with get(ctx, ...) answering fields. */
enum expr_result expr_eval(const struct expr *e, expr_get_fn get, void *ctx);

/* A window of rows at once (model_expr_window.c): field f of rows
 * [0, n) as columns, avail[k] (enum expr_avail) and num[k] (EXPR_NUM
 * fields) or str[k] (EXPR_STR fields, borrowed until the evaluation
 * returns; NULL reads as "") for each row k. */
typedef void (*expr_col_fn)(void *ctx, enum expr_field f, size_t n, uint8_t *avail, double *num,
			    const char **str);
/* The answers of "~" by text, remembered across windows: the texts get
 * answers must then stay unchanged at their address while the memo is
 * used (interned names, static dtype names).  expr_memo_free accepts
 * NULL. */
struct expr_memo;
struct expr_memo *expr_memo_new(void);
void expr_memo_free(struct expr_memo *mm);
/* e on n rows at once: out[k] is the enum expr_result expr_eval gives
 * for row k when get's columns answer row k's fields.  get is called
 * once per field operand for the n rows (no short cut: it must have no
 * effect but its answers).  n up to EXPR_WINDOW.  mm (NULL: none)
 * remembers each "~" answer by text address, for one expression. */
#define EXPR_WINDOW 4096u
void expr_eval_window(const struct expr *e, size_t n, expr_col_fn get, void *ctx,
		      struct expr_memo *mm, uint8_t *out);

/* Leaves shared between the expressions evaluated over one window (a
 * watch set): a leaf with the same field, operator and literal as one
 * evaluated before over the same window takes its answers instead of
 * being evaluated again, so get must answer a field the same way for
 * every expression of the window -- but for fields of the step stage,
 * which are never shared (their answers may depend on the expression's
 * own context: a watch's tolerance).  expr_leaves_reset before each
 * window; the nodes are borrowed from the expressions, which must
 * outlive the window.  expr_leaves_free accepts NULL. */
struct expr_leaves;
struct expr_leaves *expr_leaves_new(void);
void expr_leaves_reset(struct expr_leaves *lv);
void expr_leaves_free(struct expr_leaves *lv);
/* expr_eval_window with lv (NULL: none) sharing the leaves' answers. */
void expr_eval_window_shared(const struct expr *e, size_t n, expr_col_fn get, void *ctx,
			     struct expr_memo *mm, struct expr_leaves *lv, uint8_t *out);

/* The numeric literals each field is compared with, as "name op value"
 * pairs in source order, for showing a hit against its thresholds
 * ("abs_mean > 1000").  Returns the number found, fills up to max. */
struct expr_threshold {
	enum expr_field field;
	const char *op;             /* "<", ">=", ... (static) */
	double value;
};
size_t expr_thresholds(const struct expr *e, struct expr_threshold *out, size_t max);

#endif
