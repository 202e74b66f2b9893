/*
 * model_analysis.h - analysis over the tables: link trees, filters, watches,
 * origins and causes (model/analysis/ and the files still beside it).
 * Part of model.h.
 */
#ifndef TD_MODEL_ANALYSIS_H
#define TD_MODEL_ANALYSIS_H

#include "model_alerts.h"
#include "model_query.h"     /* the narrow API the analysis floor asks through */

/* ---- link trees (the debugger CLI's `li -r -d N` and `lo -r`) ---------- */

/* What a trace row shows of NaN/Inf. */
enum model_health { HEALTH_UNKNOWN, HEALTH_FINITE, HEALTH_NONFINITE };
/* "unknown", "finite", "nonfinite". */
const char *model_health_name(enum model_health h);
/* The health of trace row r (decoded through the cache when its flags do
 * not tell); HEALTH_UNKNOWN for r < 0, past the rows, a corrupt row or a
 * mode without NaN/Inf counts. */
enum model_health model_trace_health(struct model *m, int64_t r);

enum model_tree_dir { TREE_INPUTS, TREE_CONSUMERS };

struct model_tree_node {
	uint32_t depth;             /* 1: a direct input / consumer of the root */
	int64_t parent;             /* index of the parent node, -1: the root */
	int64_t op;                 /* op id, -1 not in the dump's graphs */
	const char *op_name;
	const char *op_type;        /* "" unknown */
	uint32_t slot;              /* inputs: the producer's output slot; consumers:
				     * the consumer's input slot (control: which
				     * control input) */
	bool control;               /* a control edge: runs first, no tensor flows */
	int64_t trace_index;        /* inputs: the latest row of the tensor before the
				     * parent's row; consumers: the first row of the
				     * consumer after it; -1 none */
	int64_t bound;              /* the row the search started from (the parent's
				     * row, else its bound), -1 none: for expanding */
	enum model_health health;   /* of trace_index (model_tree_children: from the
				     * row's flags only, NONFINITE or UNKNOWN; call
				     * model_trace_health for the rest) */
	bool repeat;                /* the op was expanded above: not again */
};

/* One level: the inputs (data, then control) or consumers of op, seen
 * from its trace row row (-1: no row; then the rows are searched from
 * bound, the latest before it / the first after it, or over all rows when
 * bound < 0).  A row that is an op's input row (ROW_INPUT) has its
 * producer as its one input and no control inputs.  health is only what
 * the rows' flags tell (no decoding).  Returns the count and a malloc'd
 * array in *out (depth 1, parent -1); free() it. */
size_t model_tree_children(struct model *m, uint32_t op, int64_t row, int64_t bound,
			   enum model_tree_dir dir, struct model_tree_node **out);

/* The nodes a tree holds at most; past it *truncated is set. */
#define MODEL_TREE_MAX 2000
/* The tree of inputs / consumers of op (seen from row, -1 none) down to
 * depth levels (>= 1), in pre-order (each node followed by its subtree):
 * an op met a second time is listed with repeat set and not expanded, so
 * a graph with shared producers stays linear.  health is decoded
 * (model_trace_health).  Returns the count and a malloc'd array in *out
 * (free()). */
size_t model_tree(struct model *m, uint32_t op, int64_t row, enum model_tree_dir dir,
		  unsigned depth, struct model_tree_node **out, bool *truncated);

/* ---- the call tree (model/analysis/model_calls.c) ---------------------- */

struct model_call {
	int64_t op;                 /* op id, -1 not an op of the dump */
	char *op_name;              /* as the dump names it (owned) */
	const char *op_type;        /* "" unknown */
	int64_t trace_index;        /* the first row of its call nearest the row
				     * asked about (by output rows, either side),
				     * in the same step; -1 none */
	bool nonfinite;             /* that row's flags say NaN/Inf */
};
struct model_calls {
	int64_t trace_index;        /* the row the tree was read from, -1 none */
	bool has_parent;
	struct model_call parent;   /* the call enclosing the op (has_parent) */
	struct model_call *children;/* the calls it encloses, in the dump's order */
	size_t nchildren;
};
/* The call tree around op (a module's parent and children), read from
 * its trace row row (-1, or a row of another op: the op's first row) by
 * one decode.  false, out empty, when the dump's format records no call
 * tree (no decode then: model_has_call_tree), the op has no row or the
 * row cannot be decoded.  Free with model_calls_done(). */
bool model_calls_of(struct model *m, uint32_t op, int64_t row, struct model_calls *out);
void model_calls_done(struct model_calls *c);

/* ---- filters ----------------------------------------------------------- */

struct model_filter_spec {
	const char *op_regex;       /* PCRE2 over op name (executions: op type / function name) */
	const char *type_regex;     /* PCRE2 over op type */
	bool nonfinite;             /* only NaN/Inf rows */
	int32_t graph;              /* only ops of this graph and its inner graphs, -1 any */
	int64_t execution;          /* only traces of this execution (timeline: that row), -1 any */
	const char *host;           /* only rows of this host / rank, NULL any */
	const char *where;          /* a condition (model_expr.h), NULL none */
};
struct model_filter;
/* Compiles spec.  TD_ERR_REGEX with PCRE2's message and offset in err. */
enum td_status model_filter_new(struct model *m, const struct model_filter_spec *spec,
				struct model_filter **out, char *err, size_t errlen);
void model_filter_free(struct model_filter *f);
/* Text form for the status bar ("op=dense type=MatMul nonfinite"). */
const char *model_filter_describe(const struct model_filter *f);

/* Rows of table that match (over what is indexed now). */
uint64_t model_filter_count(struct model *m, struct model_filter *f, enum model_table t);
/* Row number of the k-th match, -1 if none. */
int64_t model_filter_nth(struct model *m, struct model_filter *f, enum model_table t, uint64_t k);
/* Position k of row among the matches (matches before it). */
uint64_t model_filter_rank(struct model *m, struct model_filter *f, enum model_table t, uint64_t row);
/* First matching row >= from (dir > 0) or <= from (dir < 0); -1 none. */
int64_t model_filter_next(struct model *m, struct model_filter *f, enum model_table t,
			  uint64_t from, int dir);
bool model_filter_match(struct model *m, struct model_filter *f, enum model_table t, uint64_t row);
/* Rows of table whose `where` condition is unknown (a field the row does
 * not carry decides it), or whose op name or type the op/type regex could
 * not decide within PCRE2's match limits (model_regex.h): neither matched
 * nor counted by model_filter_count.  0 when neither happens. */
uint64_t model_filter_unknown(struct model *m, struct model_filter *f, enum model_table t);
/* Names and types the op/type regexes could not decide (a PCRE2 limit
 * hit) in the counts and scans so far: their rows are unknown. */
uint64_t model_filter_undecided(const struct model_filter *f);

/* ---- watches: named numerical checks (model_watch.c) ------------------- */

/* A named condition: a shorthand for an expression, with MindInsight's
 * names and parameters. */
struct model_condition {
	const char *name;           /* "gradient_vanishing" */
	const char *base;           /* the expression its parameters extend; NULL
				     * when built otherwise (operator_overflow:
				     * the dump's overflow records; fp16_overflow_risk) */
	const char *params;         /* the parameters it takes, space-separated */
	const char *defaults;       /* "abs_mean_lt=1e-09", "" none */
	bool recommended;           /* in the recommended set */
	const char *summary;        /* one line for help */
	const char *dtypes;         /* the dtypes it looks at: "float16, bfloat16,
				     * float32, float64" (value conditions) or
				     * "any" (NaN/Inf, the dump's own records) */
};
/* The i-th named condition; false past the last. */
bool model_condition_at(size_t i, struct model_condition *c);

/* Where a watch lives (the command layer keeps it there). */
enum model_watch_scope {
	WATCH_SCOPE_SESSION,        /* this run only (added in batch mode) */
	WATCH_SCOPE_DUMP,           /* the open dump's: kept with its saved state */
	WATCH_SCOPE_GLOBAL,         /* every dump: the user's watches file, the
				     * recommended set */
};

struct model_watch {
	const char *name;
	const char *text;           /* as given: "gradient_vanishing(abs_mean_lt=1e-7)" */
	const char *expr;           /* the expression it stands for; NULL for
				     * the dump's own overflow records */
	bool recommended;           /* added by the recommended set */
	double rtol, atol;          /* the tolerance of `unchanged` */
	enum model_watch_scope scope;
};
/* Adds (or replaces) watch name: text is a named condition, optionally
 * with "(name=value, ...)", or an expression (model_expr.h).  TD_ERR_ARGS
 * or TD_ERR_REGEX with err ("NAME: column 7: ...") when it does not
 * compile.  The recommended set is added on first use unless switched off. */
enum td_status model_watch_add(struct model *m, const char *name, const char *text, char *err,
			       size_t errlen);
/* TD_ERR_NOTFOUND when there is no such watch. */
enum td_status model_watch_rm(struct model *m, const char *name);
/* Says where watch name lives (model_watch_add makes it a session's; the
 * recommended set is global).  TD_ERR_NOTFOUND when there is none. */
enum td_status model_watch_set_scope(struct model *m, const char *name,
				     enum model_watch_scope scope);
/* Switches the recommended set (the conditions marked so, with their
 * defaults) on or off; on by default. */
void model_watch_recommended(struct model *m, bool on);
bool model_watch_recommended_on(struct model *m);
size_t model_watch_count(struct model *m);
/* The i-th watch; strings borrowed until it is removed or replaced. */
bool model_watch_at(struct model *m, size_t i, struct model_watch *w);

#define MODEL_WATCH_VALUES 8
struct model_watch_hit {
	size_t watch;               /* model_watch_at index */
	enum model_table source;
	uint64_t index;             /* trace or execution row */
	struct { const char *field; double value; } values[MODEL_WATCH_VALUES];
	size_t nvalues;             /* the numeric fields the condition read, as found */
	struct { const char *field; const char *op; double value; } thresholds[MODEL_WATCH_VALUES];
	size_t nthresholds;         /* its comparisons with numbers */
	const char *basis;          /* step fields from "values" or "statistics"; else
				     * "values" when a summary field it read was computed
				     * from the row's values; NULL none */
	/* The dump's own record (operator_overflow): its op and what it says,
	 * borrowed from the model; NULL for the other conditions. */
	const char *op_name, *op_type, *detail;
};
/* A check of every watch over the rows (traces, then executions), run a
 * budget of rows at a time.  Watches must not change while it runs. */
struct model_watch_run {
	int64_t step;               /* only rows of this step, -1 all */
	uint64_t next_trace, next_exec; /* the next rows to check */
	uint64_t checked;           /* rows checked */
	uint64_t unknown;           /* rows some condition could not decide */
	uint64_t *unknown_by;       /* per watch (model_watch_at index): the rows
				     * it could not decide; n_unknown_by entries */
	size_t n_unknown_by;
	struct model_watch_hit *hits;
	size_t nhits, cap;
	bool done;
	/* per (op, watch): 0 not asked yet, 1 the op alone rules the watch out
	 * (a "role == weight" on a gradient), 2 rows must be checked */
	uint8_t *op_stage;
	size_t op_stage_ops, op_stage_watches;
	/* per op: its name, type and role, read once for all its rows */
	struct model_watch_op *ops;
	size_t nops;
	int row_facts;              /* the dump states rows' roles: -1 not asked yet */
	struct watch_window *win;   /* the window check's state (model_watch_window.c) */
	uint64_t by_window;         /* rows answered from the summary columns a window
				     * at a time (the rest were checked row by row) */
};
void model_watch_run_init(struct model_watch_run *r, int64_t step);
/* Checks up to budget more rows; true once every row is checked and the
 * index pass is done (the dump's overflow records are added then). */
bool model_watch_run_step(struct model *m, struct model_watch_run *r, uint64_t budget);
void model_watch_run_done(struct model_watch_run *r);
/* "abs_mean 3.2e+04 > 1000, max 7 > 5 (from values)": the comparisons of
 * the hit that hold, with the row's values (all of them when none can be
 * shown so), into buf. */
void model_watch_hit_describe(const struct model_watch_hit *h, char *buf, size_t size);

/* ---- origins: where NaN/Inf started, and why --------------------------- */

/* What a trace row is for the bad values (model_why):
 *   ORIGIN_FINITE       the row holds no NaN/Inf (as far as its summary says);
 *   ORIGIN_ORIGIN       NaN/Inf that its op made: every input was finite
 *                       when it ran, or unknown (never traced), or the op has
 *                       no inputs (a source: placeholder, parameter, data);
 *   ORIGIN_PROPAGATION  an input was already non-finite: the op carried it;
 *   ORIGIN_REPEAT       another record of the same value an earlier row
 *                       holds (equal NaN/Inf counts, equal values where the
 *                       rows have them; no new input since);
 *   ORIGIN_CARRIED      the value came through a recorded link, not a graph
 *                       edge: a function call's input or output, a variable
 *                       written before the read, an op's input record
 *                       (model_origin.link says which; from[0] is the row
 *                       it came from, via the execution that carried it). */
enum model_origin_role {
	ORIGIN_FINITE, ORIGIN_ORIGIN, ORIGIN_PROPAGATION, ORIGIN_REPEAT, ORIGIN_CARRIED,
};

/* The link a carried row came through (model_origin.link). */
enum model_carry_link {
	CARRY_NONE,
	CARRY_CALL_INPUT,           /* a function graph's input: its call's input */
	CARRY_CALL_OUTPUT,          /* a call op's output: the inner graph's output */
	CARRY_VARIABLE,             /* a variable read: the last write before it */
	CARRY_SAME_VALUE,           /* an input record: the equal value an earlier
				     * output row of the step holds */
	CARRY_CALL_UNRECORDED,      /* an op whose inputs are not all recorded, in a
				     * function whose call's input held NaN/Inf:
				     * the only recorded way in */
};
/* "call input", "call output", "variable", "same value", "unrecorded input";
 * "" for CARRY_NONE. */
const char *model_carry_link_name(enum model_carry_link k);

/* What an op's input held when it ran. */
enum model_input_state { INPUT_FINITE, INPUT_NONFINITE, INPUT_UNKNOWN };

struct model_origin_input {
	const char *op_name;        /* producer */
	const char *op_type;        /* "" unknown */
	uint32_t slot;              /* producer output slot */
	int64_t trace_index;        /* row holding the value the op read, -1 none */
	enum model_input_state state;
	struct td_summary summary;  /* of trace_index (known == 0 when none) */
};

#define MODEL_CAUSE_LEN 200
#define MODEL_EVIDENCE_MAX 8

struct model_origin {
	enum model_origin_role role;
	enum model_table source; /* a trace row, or an execution's output */
	uint64_t index;
	const char *op_name;
	const char *op_type;
	uint32_t slot;
	int32_t via;                /* carried: the execution that carried the value
				     * (the call, the variable's writer), -1 none */
	const char *host;           /* "" unknown */
	int64_t step;               /* training step / top-level call, -1 unknown */
	double wall_time;
	struct td_summary summary;
	bool source_op;             /* the op has no inputs: the value came from outside */
	uint8_t link;               /* carried: enum model_carry_link */
	struct model_origin_input *inputs;
	size_t ninputs;
	char cause[MODEL_CAUSE_LEN];
	char evidence[MODEL_EVIDENCE_MAX][MODEL_CAUSE_LEN];
	size_t nevidence;
	/* Origin: the consumers that carried the bad values to the last alert
	 * of its step, origin first.  Propagation / repeat: the rows from its
	 * origin to this row.  Trace rows. */
	uint64_t *path;
	size_t npath;
	int64_t origin;             /* the origin row this one goes back to, -1 */
	int64_t *from;              /* propagation: the non-finite input rows;
				     * repeat / carried: the row it came from
				     * (carried: -1 when the link ends at an
				     * execution, via) */
	size_t nfrom;
};

/* Explains trace row i (role, inputs, cause, evidence, path).  TD_ERR_RANGE
 * past the indexed rows.  Free with model_origin_done(). */
enum td_status model_why(struct model *m, uint64_t i, struct model_origin *o);
void model_origin_done(struct model_origin *o);

/* How far an origin's values were carried: the non-finite rows that go
 * back to it and the boundaries they crossed (counts saturate). */
struct model_reach {
	uint32_t rows;              /* rows that go back to it, itself included */
	uint16_t calls;             /* function-call boundaries (inputs, outputs) */
	uint16_t variables;         /* variable write -> read links */
	uint16_t steps;             /* steps past its own */
	uint16_t hosts;             /* hosts past its own */
	uint16_t records;           /* input records of the same value */
};

struct model_origins_query {
	int64_t step;               /* only this step, -1 any */
	const char *host;           /* only this host / rank, NULL any */
	size_t per_host;            /* at most this many per host, the first in
				     * row order (0: all); the headline is still
				     * the first in time */
	uint64_t budget;            /* units of work (rows, inputs, executions
				     * looked at) at most, 0: the default
				     * (MODEL_ORIGINS_BUDGET) */
	bool want_reach;            /* fill reach */
	/* Out: */
	struct model_reach *reach;  /* with want_reach: one per origin, in its
				     * order (malloc'd: free() it), NULL when
				     * none; else left NULL */
	bool partial;               /* the budget ran out: the answer covers the
				     * rows before partial_row only */
	uint64_t partial_row;
};
#define MODEL_ORIGINS_BUDGET 200000u
/* The origins of the NaN/Inf in the dump (among what is indexed), first in
 * time first (wall time when the rows have one, else row order; the first
 * is the headline): the roots only (no carried, propagated or repeated
 * row).  Returns the count and a malloc'd array in *out: free each with
 * model_origin_done() and the array with free(), or use
 * model_origins_free().  q (may be NULL) selects; its out members say
 * whether the work budget cut the answer and give each origin's reach
 * (free q->reach).  Runs at once: model_origins_run_* in steps. */
size_t model_origins(struct model *m, struct model_origins_query *q, struct model_origin **out);

/* The same listing in steps (the TUI between keys): new, step until it
 * returns true (all rows looked at, or the query's total budget spent:
 * partial), take the answer, free.  q is copied at new (its host too). */
struct model_origins_run;
struct model_origins_run *model_origins_run_new(struct model *m,
						const struct model_origins_query *q);
/* Looks at rows until about budget more units of work are spent (0: no
 * limit but the total); true when the run is over. */
bool model_origins_run_step(struct model_origins_run *r, uint64_t budget);
/* The next row to look at and the rows indexed (progress). */
void model_origins_run_where(const struct model_origins_run *r, uint64_t *next, uint64_t *total);
/* The answer as model_origins gives it (q's out members filled when q is
 * not NULL); the run keeps nothing of it.  Call once, after the last step. */
size_t model_origins_run_take(struct model_origins_run *r, struct model_origins_query *q,
			      struct model_origin **out);
void model_origins_run_free(struct model_origins_run *r);

/* The origins kept compact: per origin its row (table, index), time and
 * host, numbers only; each is explained (summary, inputs, path, cause,
 * evidence) when shown, so a listing of many origins holds a few bytes
 * each, not a struct model_origin each. */
struct model_origin_list;
/* The answer of a finished run as a list, in model_origins' order (q's out
 * members filled as model_origins_run_take does); the run keeps nothing
 * of it.  Free with model_origin_list_free() (before model_close()). */
struct model_origin_list *model_origins_run_list(struct model_origins_run *r,
						 struct model_origins_query *q);
/* model_origins() as a list. */
struct model_origin_list *model_origins_list(struct model *m, struct model_origins_query *q);
size_t model_origin_list_count(const struct model_origin_list *l);
/* Origin k's table, index and host ("" unknown) without explaining it;
 * false past the end. */
bool model_origin_list_at(const struct model_origin_list *l, size_t k, enum model_table *source,
			  uint64_t *index, const char **host);
/* Origin k explained into o as model_origins gives it (free with
 * model_origin_done()); false past the end (o zeroed). */
bool model_origin_list_get(struct model_origin_list *l, size_t k, struct model_origin *o);
void model_origin_list_free(struct model_origin_list *l);
void model_origins_free(struct model_origin *v, size_t n);
/* The step of trace row i (see model_origin.step), -1 unknown. */
int64_t model_trace_step(struct model *m, uint64_t i);
/* model_trace_step() of n rows into steps[] (the function calls are
 * gathered once, not per row). */
void model_trace_steps(struct model *m, const uint64_t *rows, size_t n, int64_t *steps);

/* ---- for the analysis floor (model/analysis/) ------------------------- */

/* The summary proves the value finite (no NaN/Inf counted, or the
 * has_inf_or_nan bit known and clear).  Pure. */
bool origins_summary_finite(const struct td_summary *s);
/* Words o->cause and o->evidence from its role, inputs and summaries
 * (model/analysis/model_cause.c).  Pure: reads o only. */
void origin_explain(struct model_origin *o);
/* Adds one line of evidence to o (printf rules, cut at MODEL_CAUSE_LEN);
 * nothing past MODEL_EVIDENCE_MAX lines. */
void origin_add_evidence(struct model_origin *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- the watches' handles (model_handles.c; issue 25, `columns`) ------- */
struct watch_set;
/* The slot m's watch set hangs from (model/analysis/model_watch.c owns
 * what it points to; NULL until the first use; freed at model_close
 * through watch_free).  Lives as long as m; callers serialise its use as
 * the watch functions do (one thread at a time). */
struct watch_set **model_watch_slot(struct model *m);
/* Op id op's name and type ("" unknown type) into *name and *type,
 * borrowed for m's life; false (both NULL) when op is not in the table.
 * Takes the model's lock: not for a caller holding it. */
bool model_op_names(struct model *m, uint32_t op, const char **name, const char **type);

#endif
