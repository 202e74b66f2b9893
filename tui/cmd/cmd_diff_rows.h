/*
 * cmd_diff_rows.h - the rows diff --csv builds (private to cmd_diff_csv.c
 * and cmd_diff_args.c): one side of a row (a tensor leaf, or a non-tensor
 * argument of its call), a row with its pair and its Result, and the
 * entry's non-tensor arguments put among its rows.  Curses-free.
 */
#ifndef TD_CMD_DIFF_ROWS_H
#define TD_CMD_DIFF_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd_diff_csv.h"

struct model_diff;

/* One side of a row: what the CSV shows of a leaf. */
struct leaf {
	char name[700];
	char dtype[48];
	char shape[200];
	int requires_grad;          /* -1 unknown */
	double st[4];               /* Max, Min, Mean, Norm; NaN also when null */
	bool has[4];
	bool bool_stats;            /* Max and Min are booleans (st 1 / 0) */
	bool none[4];               /* the dump wrote null (the tool's None) */
	enum td_dtype dt;
	char data_name[400];        /* the saved tensor file, "" none */
	char md5[40];               /* the checksum as written, "" none */
	struct td_tensor *values;   /* owned; NULL without values */
	char *stack;                /* NPU_Stack_Info when asked for, NULL no stack (owned) */
	size_t oplen;               /* name's call part: name[0, oplen) */
	const struct td_arg *arg;   /* a non-tensor argument's row: its cells (borrowed) */
	struct td_arg *args;        /* asked for: the call's arguments (owned) */
	size_t nargs;
};

/* The tool's Result: pass < warning < error (statistics, tensor); md5
 * mode's pass, Different; N/A for a row without a pair (every mode). */
enum result { RES_PASS, RES_WARNING, RES_ERROR, RES_DIFFERENT, RES_NONE, RES_COUNT };

struct csv_row {
	struct leaf n, b;
	char *stack;                /* --stack: NPU_Stack_Info, NULL "None" (owned) */
	bool matched, is_input;
	struct cmd_csv_tmetrics t;  /* tensor mode */
	enum result res;
	char err[512];              /* Err_message: the tool's words, then the rules' */
};

/* A raw statistic cell (cmd_diff_cells.c): " inf" / " -inf" (the tool's
 * spelling), Python's repr of the float, "N/A" without one (has false). */
void cmd_csv_raw_cell(struct strbuf *sb, bool has, double v);
/* Whether a leaf's statistics hold a value the tool does not read as a
 * number: a bool tensor's Max or Min, or a null. */
bool cmd_csv_leaf_textual(const struct leaf *l);
/* Statistic k's difference and relative-error cells of a pair where one
 * side is textual, by the rules of the tool's statistics comparison that
 * argument rows follow (cmd_csv_arg_cells; FORMAT.md §10): equal values
 * "0", True against False "Diff", a null (None, NaN to the tool) against
 * a number "Nan", two numbers their difference. */
void cmd_csv_stat_cells(struct strbuf *diff, struct strbuf *rel, const struct leaf *n,
			const struct leaf *b, int k);

/* One side's call of an entry: its arguments and the leaf they were taken
 * with (its name gives the call's name). */
struct csv_call {
	bool found;
	struct leaf l;              /* name and oplen only */
	struct td_arg *args;        /* owned */
	size_t nargs;
};

/* Keeps the call's arguments l was decoded with, the first time (moves
 * l's args into c). */
void cmd_csv_call_take(struct csv_call *c, struct leaf *l);
/* Frees c's arguments and clears it. */
void cmd_csv_call_done(struct csv_call *c);
/* The entry's rows (*g)[0, n) with B's arguments (cb) put at their
 * places among them (the tool's order), each paired by its path with A's
 * argument (ca) when both have a dtype and it is the same; the stack cell
 * moves to the new first input row.  *g is replaced (and *cap set);
 * returns the new count.  tensor: the tensor CSV's cells ("N/A" metrics,
 * the tool's "NPU does not have data file." on a paired argument). */
size_t cmd_csv_with_args(struct csv_row **g, size_t *cap, size_t n, const struct csv_call *cb,
			 const struct csv_call *ca, bool tensor);

/* The rows of B's execution x (diff d) when it has no trace row: its
 * non-tensor arguments, each paired as cmd_csv_with_args pairs them with
 * the arguments of the execution of A the call pairs with
 * (model_diff_execution_pair), into *g (replaced, *cap set).  cb and ca
 * (cleared ones) get the two calls' arguments, which the rows borrow:
 * cmd_csv_call_done both once the rows are written.  0 rows for an
 * execution with trace rows, without arguments, or of a host the diff
 * leaves out.  stack: the first row, an input, gets the call's stack cell
 * (owned by the row) when the golden's call has one or none pairs. */
size_t cmd_csv_call_rows(struct model_diff *d, uint64_t x, struct csv_row **g, size_t *cap,
			 struct csv_call *cb, struct csv_call *ca, bool tensor, bool stack);

#endif
