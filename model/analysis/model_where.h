/*
 * model_where.h - the condition language's fields for the model's rows
 * (model_where.c) and the same tensor at the previous step (model_step.c),
 * on the model's public API.  Used by the filters and watches; included
 * by the model's private header for the analysis files still beside it.
 */
#ifndef TD_MODEL_WHERE_H
#define TD_MODEL_WHERE_H

#include "model/model.h"
#include "model/model_expr.h"

/* model_where.c: the condition language's fields for rows */
/* A summary field of s (counts, min/max, mean, abs_mean, dtype...). */
enum expr_avail where_summary_field(const struct td_summary *s, enum expr_field f, double *num,
				    const char **str);
/* e on an op alone (name, type, role, and the prefix where m's reader
 * spells it from the op's name; the rest deferred).  m may be NULL (no
 * prefix at this stage).  Any thread. */
enum expr_result where_op(const struct expr *e, struct model *m, const char *name,
			  const char *type);
/* An op for where_op_with: its role worked out (from its name and type
 * as text) the first time a condition asks, kept for the next ones (the
 * watches ask each op once per watch), the same for its prefix.  Start
 * with { name, type, m }. */
struct where_op_ctx {
	const char *name, *type;
	struct model *m;                /* NULL: the prefix is a row's */
	bool role_done, prefix_done;
	enum expr_avail role_avail, prefix_avail;
	const char *role, *prefix;
};
enum expr_result where_op_with(const struct expr *e, struct where_op_ctx *c);
/* e on trace row j, decoding it only if a summary field is reached. */
enum expr_result where_trace(struct model *m, const struct expr *e, uint64_t j);
/* e on execution j: true when one of its outputs matches. */
enum expr_result where_exec(struct model *m, const struct expr *e, uint64_t j);
/* Execution row j for several conditions (the watches): read once, its
 * role worked out the first time a condition reads it, its outputs
 * decoded the first time a condition reaches a summary field;
 * where_exec_in answers as where_exec. */
struct where_exec_row {
	struct model *m;
	uint64_t j;
	bool ok;                        /* the row was read */
	struct model_execution x;
	const char *role;
	bool outputs_done;
	bool outputs_ok;                /* decoded, with outputs */
	struct model_detail d;
};
void where_exec_row_init(struct where_exec_row *w, struct model *m, uint64_t j);
enum expr_result where_exec_in(struct where_exec_row *w, const struct expr *e);
void where_exec_row_done(struct where_exec_row *w);

/* model_where_window.c: a window of trace rows from the summary columns */
/* True when every field e reads is a summary field the columns hold
 * (counts, min .. l2norm, max_abs, zero_fraction, zero_percentage,
 * rank, dtype, dtype_max) or the row's op name or type (`op`, `type`):
 * where_trace_window can answer it. */
bool where_window_able(const struct expr *e);
/* where_trace_window's scratch: a window of the columns, and the op
 * names its rows read (kept while the model fills no placeholder op).
 * where_window_free accepts NULL. */
struct where_window;
struct where_window *where_window_new(void);
void where_window_free(struct where_window *w);
/* An answer where_trace_window leaves to where_trace (the row is not in
 * the columns). */
#define WHERE_ASK 0xffu
/* e (where_window_able) on trace rows [first, first + n) at once: out[k]
 * the enum expr_result where_trace gives row first + k, or WHERE_ASK.
 * Returns the rows answered (n cut at a block's end and at the rows
 * indexed; 0 past them). */
size_t where_trace_window(struct model *m, const struct expr *e, uint64_t first, size_t n,
			  struct where_window *w, uint8_t *out);

/* The SUM_* bits of the summary columns field f reads (zero_fraction:
 * zero and elements); 0 for a field the columns do not hold (op names,
 * role, host, step, step fields, the row's own facts). */
uint32_t where_field_bits(enum expr_field f);
/* Field f (where_field_bits(f) != 0) of rows [0, n) of w, read with
 * f's bits, as an expr_col_fn answers it: for a filled row exactly what
 * where_summary_field gives for the summary model_trace_fields reads;
 * a row whose fields the window does not know is absent, 0 and NULL
 * (its arrays are not read: the columns left them unwritten).  str:
 * static names. */
void where_field_col(const struct model_field_window *w, enum expr_field f, size_t n,
		     uint8_t *avail, double *num, const char **str);

/* The tolerance of "unchanged" (a watch's rtol/atol, else these). */
#define STEP_RTOL 1e-5
#define STEP_ATOL 1e-8
struct step_tol {
	double rtol, atol;
};
enum step_basis { STEP_FROM_NONE, STEP_FROM_VALUES, STEP_FROM_STATISTICS };

/* A trace row with its fields' context for the condition language: the
 * tolerance of `unchanged` (NULL: the defaults) and, after the
 * evaluation, where the step fields came from. */
struct where_opts {
	const struct step_tol *tol;
	enum step_basis basis;      /* out */
	bool from_values;           /* out: a summary field read was computed from
				     * the row's values (the dump's statistics lack it) */
};
/* e on trace row j as where_trace, with opts (may be NULL). */
enum expr_result where_trace_opts(struct model *m, const struct expr *e, uint64_t j,
				  struct where_opts *opts);
/* One field of trace row j (what a hit shows against its thresholds). */
enum expr_avail where_trace_field(struct model *m, uint64_t j, enum expr_field f,
				  const struct step_tol *tol, double *num, const char **str);

/* One trace row evaluated against several conditions (the watches): its
 * names, host and summary fields are read once, when the first condition
 * needs them, and serve the others.  Fill with where_row_init; the
 * fields are where_row_eval's. */
struct where_row {
	struct model *m;
	uint64_t row;
	bool trace;                     /* a trace row (step fields apply) */
	struct where_opts *opts;        /* NULL: defaults */
	const char *name, *type, *host;
	const char *role;               /* trace rows: the op's role, decided once
					 * per op by the caller when the dump states
					 * no row's own; NULL: worked out per row */
	bool names_later;               /* trace rows: name, type (NULL) and host
					 * (NULL) read when a field needs them (a
					 * condition on summary fields needs none) */
	int64_t step;                   /* executions: the row's step, -1 */
	bool summary_later;             /* answer summary fields EXPR_LATER */
	const struct td_summary *s;     /* executions: the output being tested */
	struct model_fields mf;         /* trace rows: the summary read (mf.s), its
					 * bits computed from values (mf.from_values) */
	uint32_t have;                  /* trace rows: the fields sum holds when it
					 * came from the summary columns, 0 whole */
	uint32_t want;                  /* trace rows: SUM_* bits read with the first
					 * summary field (several conditions' fields
					 * in one read of the columns), 0 none */
};
void where_row_init(struct where_row *r, struct model *m, uint64_t j);
/* e on r's row as where_trace_opts; opts (may be NULL) this condition's. */
enum expr_result where_row_eval(struct where_row *r, const struct expr *e,
				struct where_opts *opts);

/* model_step.c: the same tensor at the previous step */
/* The row of trace row's tensor (op, slot, host) at the previous step (its
 * last record of an earlier step, or its previous record when rows have
 * no step); -1 none.  Builds the index up to row on first use. */
int64_t step_prev(struct model *m, uint64_t row);
/* step_prev of trace rows [first, first + n) at once, into prev[k] (one
 * hold of the index's lock; -1 for rows past the indexed ones). */
void step_prev_window(struct model *m, uint64_t first, size_t n, int64_t *prev);
/* The summary fields the step fields compare (what `now` below holds). */
#define STEP_SUMMARY_BITS (SUM_MINMAX | SUM_MEAN | SUM_ABS_MEAN | SUM_NAN | SUM_ELEMENTS)
/* A record's STEP_SUMMARY_BITS fields (known: those bits only). */
struct step_stats {
	uint32_t known;
	int64_t nan, elements;
	double min, max, mean, abs_mean;
};
/* s's step fields into *out. */
void step_stats_of(const struct td_summary *s, struct step_stats *out);
/* delta_abs_mean, update_ratio or unchanged of a record whose fields are
 * now against its previous step's, was, from the statistics alone: what
 * step_field gives when either record holds no values (tol not NULL). */
enum expr_avail step_stats_field(const struct step_stats *now, const struct step_stats *was,
				 enum expr_field f, const struct step_tol *tol, double *num);
/* A STEP-stage field (delta_abs_mean, update_ratio, unchanged,
 * first_record) of trace row, whose summary is now (its STEP_SUMMARY_BITS
 * fields as model_trace_fields gives them; unread for first_record);
 * *basis (may be NULL) says whether values or statistics decided it. */
enum expr_avail step_field(struct model *m, uint64_t row, const struct td_summary *now,
			   enum expr_field f, const struct step_tol *tol, double *num,
			   enum step_basis *basis);

#endif
