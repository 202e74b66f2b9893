/*
 * cmd_diff_csv.h - diff --csv: the pairs of two dumps as the statistics,
 * tensor or md5 CSV of the dumps' own compare tool (cmd_diff_csv.c), and its number
 * spellings (for unit tests).  Curses-free.
 */
#ifndef TD_CMD_DIFF_CSV_H
#define TD_CMD_DIFF_CSV_H

#include <stdbool.h>

#include "cmd_internal.h"

/* Writes the CSV of env->diff (which must be set) to file: never into a
 * dump, never over a file without force (outfile.h).  With stack, the
 * NPU_Stack_Info column too (the tool's -s): cmd_csv_stack_cell on each
 * entry's first input row, from the decode its other cells come from.  Reports {"file",
 * "mode", "rows", "pass", "warning", "error", ("different" in md5 mode),
 * "verdict": {"unmatched",
 * "nonfinite_one_side", "golden_nonfinite_passed", "shape_differs"},
 * "arguments": {"rows", "unmatched", "differ"}} (the rows of calls'
 * non-tensor arguments, cmd_diff_args.c)
 * (tdbg's counts beside the tool's Result); errors go to env. */
enum td_status cmd_diff_csv(struct cmd_env *env, const char *file, bool force, bool stack);

/* NPU_Stack_Info of a row of m from its detail d (cmd_diff_cells.c): its creation stack as
 * the compare tool writes it, Python's repr of the list of the dump's
 * frame strings, innermost first ("['File a.py, line 3, in f, \\n y =
 * g(x)', ...]"; a frame without a file is its text alone); NULL when the
 * row has no stack.  Malloc'd. */
char *cmd_csv_stack_cell(struct model *m, const struct model_detail *d);
/* Appends s as Python's repr of a str writes it: single quotes unless s
 * holds a single quote and no double quote; backslash, the quote, \n,
 * \r, \t and other control bytes escaped. */
void cmd_csv_pyrepr(struct strbuf *sb, const char *s);

/* Appends v as Python's repr writes a float: the fewest digits that read
 * back, fixed notation for decimal exponents -4..15 ("1.0", "0.0001"),
 * else "1e-05", "1.5e+16"; "nan", "inf", "-inf". */
void cmd_csv_pyfloat(struct strbuf *sb, double v);
/* A "X diff" cell by the tool's statistics rules: "0" when the two are
 * the same value as Python prints them (NaN and NaN, inf and inf; -0.0
 * and 0.0 differ), else "Nan" with a NaN on either side, "inf" / "-inf"
 * (the sign of npu - bench) with an infinity, else npu - bench. */
void cmd_csv_diff_cell(struct strbuf *sb, double npu, double bench);
/* A "XRelativeErr" cell by the same rules: "0", "Nan", "inf" / "-inf" as
 * the diff cell; else "inf" when bench is 0, else |(npu - bench) / bench *
 * 100| with "%". */
void cmd_csv_rel_cell(struct strbuf *sb, double npu, double bench);

/* A non-tensor argument row's "X diff" and "XRelativeErr" cells (the same
 * for the four statistics: each is the value), n the target's, b its pair
 * (cmd_diff_args.c): "0" and "0" when the value texts are equal; for two
 * numbers the difference and |diff / b| * 100 with "%" ("inf" when b is
 * 0); else one word in both: "Nan" (a NaN against a number or an
 * infinity), "inf" / "-inf" (an infinity against a number or the other
 * infinity), "Diff" (text against anything but N/A), "N/A" (two device
 * names, or an N/A). */
void cmd_csv_arg_cells(struct strbuf *diff, struct strbuf *rel, const struct td_arg *n,
		       const struct td_arg *b);
/* The argument of args[0, n) at path, or NULL. */
const struct td_arg *cmd_csv_arg_find(const struct td_arg *args, size_t n, const char *path);

/* Tensor-mode metrics of a pair (cmd_diff_tensor.c) after the tool's
 * checks, in its order, the first failing one giving msg (its
 * Err_message) and, for all but 0-d and dtype, word (the one word the tool
 * writes in every metric): empty ("unsupported"), shapes differ ("shape
 * unmatched"), 0-d (scalar: MaxAbsErr and MaxRelativeErr only, the rest
 * "unsupported"), a NaN/Inf on one side where the other has a different
 * value ("N/A"; the same NaN or Inf on both sides counts as equal zeros),
 * dtypes differ (bfloat16 read as float32; metrics computed).  RE = |(N
 * - B) / B| in the arrays' float type (float32, or float16 when both are;
 * float64 when Bench's is no float), the eps of Bench's type added to
 * both where B is 0; the ratios count RE < 0.001 and < 0.005 (thresholds in the same
 * type); the cosine is unsupported for 0-d or
 * one-element tensors, 1 when both norms are at most float64's eps, NaN
 * when one is (with the tool's words for it in msg).  Every metric but eucdist is rounded to 12 decimals, a
 * cosine above 0.9999 to 6, as the tool writes them (its format_value).
 * No tensor on a side: every metric NaN, no word. */
struct cmd_csv_tmetrics {
	double cosine, eucdist, max_abs, max_rel, one, five;
	bool cosine_unsupported;
	bool scalar;                /* 0-d: only max_abs and max_rel */
	bool nonfinite_mismatch;    /* NaN/Inf positions differ between the sides */
	const char *word;           /* static: every metric's cell, or NULL */
	char msg[256];              /* the tool's Err_message ("" none) */
};
void cmd_csv_tensor_metrics(const struct td_tensor *n, const struct td_tensor *b,
			    struct cmd_csv_tmetrics *m);

#endif
