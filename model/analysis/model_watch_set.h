/*
 * model_watch_set.h - a model's watches as model_watch.c keeps them
 * (compiled conditions, their tolerance and scope), shared with
 * model_watch_check.c, which checks rows against them, and
 * model_watch_window.c, which checks a window of rows at a time.
 * Private to these files (and watch_free, which model.c calls at
 * close).  On the model's public API: the set hangs from
 * model_watch_slot().
 */
#ifndef TD_MODEL_WATCH_SET_H
#define TD_MODEL_WATCH_SET_H

#include "model/model.h"
#include "model/analysis/model_where.h"

struct watch {
	char *name, *text, *expr_text;
	struct expr *e;             /* NULL: operator_overflow (the dump's alerts) */
	struct step_tol tol;
	bool recommended;
	enum model_watch_scope scope;
};

struct watch_set {
	struct watch *v;
	size_t n, cap;
	bool loaded;                /* the recommended set was added once */
	bool recommended_off;
};

/* An op's fields as a row's context reads them (model_where.c's
 * row_field), read once for every row and watch of the op. */
struct model_watch_op {
	bool ready;
	const char *raw_name, *raw_type;    /* model_op_names' */
	const char *name, *type;    /* the row context's: "" for no name */
	const char *role;           /* NULL: the dump states its rows' roles */
	struct where_op_ctx wop;    /* the op stage's, its role worked out once */
	uint64_t may;               /* watches (bit k) its rows may hit, when may_n */
	size_t may_n;               /* the watch count may is for, 0 not made */
};

/* Watches a set's op masks hold (more: each row asks op_may_match). */
#define MAY_WATCHES 64

/* model_watch_check.c */
/* Op's fields for its rows (row j one of them), read the first time;
 * r->row_facts asked on the first call.  Valid until r grows its ops. */
struct model_watch_op *watch_op_info(struct model *m, struct model_watch_run *r, uint32_t op,
				     uint64_t j);
/* The watches (bit k) that can hold on rows of op, o its info: decided
 * by the op's fields once per op and watch count (at most MAY_WATCHES). */
uint64_t watch_op_may(struct model *m, struct model_watch_run *r, struct model_watch_op *o,
		      uint32_t op);
/* One more row watch k could not decide (of nwatches). */
void watch_count_unknown(struct model_watch_run *r, size_t nwatches, size_t k);
/* Checks trace row j, of step step (asked only when the run keeps one
 * step), row by row: its hits, unknowns and count. */
void watch_check_trace(struct model *m, struct model_watch_run *r, uint64_t j, int64_t step);

/* model_watch_window.c */
/* Checks trace rows from first, up to n of them, a window of the summary
 * columns at a time, with the answers watch_check_trace gives them (rows
 * the window cannot answer, and rows that hit, are checked by it); steps[k]
 * row first + k's step when r->step >= 0.  Returns the rows checked: 0
 * when the watches read a field the window does not hold (host, step,
 * the row's own facts...) or no row is indexed there. */
size_t watch_check_window(struct model *m, struct model_watch_run *r, uint64_t first, size_t n,
			  const int64_t *steps);
/* Frees a run's window state (NULL accepted). */
void watch_window_free(struct watch_window *w);

/* The model's watch set, made on first use (the recommended set added
 * once unless switched off before). */
struct watch_set *watch_set(struct model *m);
/* Frees m's watches (model_close). */
void watch_free(struct model *m);

#endif
