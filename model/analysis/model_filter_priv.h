/*
 * model_filter_priv.h - what the filter's files share (model_filter.c:
 * op states, row matching, counts; model_filter_window.c: a condition
 * on summary fields answered a window at a time).  Private to them; the
 * contract is model_analysis.h's model_filter_*.
 */
#ifndef TD_MODEL_FILTER_PRIV_H
#define TD_MODEL_FILTER_PRIV_H

#include "model/model.h"
#include "model/model_query.h"
#include "model/model_regex.h"

/* Matches are counted per block of FBLOCK rows: nth walks the counts
 * (5000 for 10 million rows) and scans one block. */
#define FBLOCK_SHIFT 11
#define FBLOCK (1u << FBLOCK_SHIFT)

/* op states: ST_ROWS = the where condition needs each row; flags:
 * ST_PROVISIONAL (a placeholder's), ST_UNDECIDED (a regex hit its limit:
 * a row that passes the rest is unknown) */
enum { ST_UNKNOWN = 0, ST_MATCH = 1, ST_NO = 2, ST_ROWS = 3, ST_PROVISIONAL = 4, ST_UNDECIDED = 8 };

/* row answers (2 bits per row, W_NONE = not evaluated yet) */
enum { W_NONE = 0, W_NO = 1, W_MATCH = 2, W_UNKNOWN = 3 };

/* What row_state() says of a row. */
enum { R_NO = 0, R_MATCH = 1, R_UNKNOWN = 2 };

struct fcount {
	uint64_t rows;              /* rows of the chunk counted */
	uint64_t count;             /* matches among them */
	uint64_t unknown;           /* rows whose where answer is unknown */
};

struct host_cursor {
	bool valid;                 /* [row, next_row) is a file span */
	uint64_t row;               /* its first row */
	uint64_t next_row;          /* first row of the next span */
	uint32_t file;
	int file_match;             /* -1 unknown, 0/1, 2 = file has no host */
};

/* Executions' keys, a window of EXWIN at a time (one lock a window). */
#define EXWIN 64
struct exec_window {
	uint64_t first;             /* first execution held */
	size_t n;                   /* executions held, 0 none */
	struct model_exec_keys k[EXWIN];
};

/* What a filter keeps per table (trace rows, executions). */
struct filter_table {
	uint8_t *wrow;              /* 2-bit answers, 4 rows a byte */
	size_t capw;
	struct fcount *cnt;         /* matches per chunk, NULL until the first count */
	size_t capcnt;
	bool memo_valid;            /* the last nth answer */
	uint64_t memo_k;
	int64_t memo_row;
};

struct model_filter {
	struct model *m;
	pcre2_code *op_re, *type_re;
	pcre2_match_data *md;
	bool nonfinite;
	int32_t graph;
	int64_t execution;
	char *host;
	char *desc;
	struct expr *where;
	bool where_window;          /* where_window_able: answered a window at a time */
	struct where_window *fwin;  /* its scratch, NULL until used */
	uint8_t *op_state;
	size_t nop_state, capop;
	int same_state;             /* the four low bits every op's state has,
				     * -1 when they differ (update_counts) */
	bool same_dirty;            /* an op state changed since same_state */
	/* every op below nop_state evaluated (none ST_UNKNOWN) and whether
	 * one leaves its rows to the condition (ST_ROWS): ensure_ops and
	 * update_counts then walk no op (a pane or a listing asks per row) */
	bool ops_all_known, any_rows_op;
	uint64_t op_walks;          /* ensure_ops' walks over the ops (tests) */
	uint64_t fill_gen;
	uint8_t *str_state;
	size_t nstr_state, capstr;
	uint64_t undecided;         /* names and types a regex could not decide */
	struct filter_table tab[2];    /* indexed by enum model_table */
};

struct trace_bounds {
	uint64_t lo, hi;
	bool split_runs;            /* rows of executions interleave */
};

/* model_filter.c */
/* The 2-bit answers of table tb hold room up to row j. */
void filter_wrow_reserve(struct filter_table *tb, uint64_t j);
/* R_MATCH, R_NO or R_UNKNOWN for trace row j (its answer cached). */
int filter_trace_match(struct model_filter *f, uint64_t j, const struct trace_bounds *b,
		       struct host_cursor *hc);

/* model_filter_window.c */
/* The four low bits of the op states when every op has the same as far
 * as a row's match goes (its answer and undecided bits), else -1; the
 * ops are f's after ensure_ops (every row counted names one of them). */
int filter_same_state(const struct model_filter *f);
/* Counts trace rows [lo, hi) (within one block of counts, none counted
 * yet) into cnt, for a where_window_able condition: the answers from
 * the summary columns a window at a time, the rows the columns do not
 * hold (and every row under a host or execution bound) one by one.
 * cnt->rows is left to the caller. */
void filter_window_count(struct model_filter *f, const struct trace_bounds *b,
			 struct host_cursor *hc, uint64_t lo, uint64_t hi, struct fcount *cnt);

#endif
