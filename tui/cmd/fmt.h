/*
 * fmt.h - short text forms of model values for the panes.
 *
 * Curses-free and unit-tested: tensor summaries in the compact form of the
 * trace table, shapes, and function names shortened the way TensorBoard's
 * Debugger V2 labels its timeline.
 */
#ifndef TD_FMT_H
#define TD_FMT_H

#include <stddef.h>

#include "reader/base/tensor.h"

/* "float32[10,1000]", "float32", "[10,1000]" or "" from what s knows;
 * without the shape the rank and element count ("float32 rank 2, 1000 el",
 * "float32 1000 el"), never a shape made up from them. */
const char *fmt_shape(const struct td_summary *s, char *buf, size_t size);

/* The breakdown for the trace table:
 *   all six counts known (FULL_HEALTH):  "1/0/0/0/1/998"  (-Inf/NaN/+Inf/-/0/+)
 *   Inf/NaN counts only (CONCISE_HEALTH): "-Inf:1 NaN:0 +Inf:0" (an unknown
 *                                          count is "-": "-Inf:- NaN:8 +Inf:-")
 *   a flag only (CURT_HEALTH):            "Inf/NaN" or "finite"
 *   values (FULL_TENSOR):                 "min -1 max 3.2 mean 0.5"
 *   nothing:                              "-" */
const char *fmt_summary(const struct td_summary *s, char *buf, size_t size);
/* Header text of the fmt_summary column when all six counts are known. */
#define FMT_BREAKDOWN_HEADER "-Inf/NaN/+Inf/-/0/+"

/* Shortens a function name as Debugger V2 does: "__inference_train_step_123"
 * -> "train_step", "__forward_loss_45" -> "loss (fwd)", "__backward_loss_45_67"
 * -> "loss (bwd)"; other names are copied. */
const char *fmt_function_name(const char *name, char *buf, size_t size);

/* Op names are scoped paths ("Default/network-WithLossCell/_backbone-LeNet5/
 * fc3-Dense/MatMul-op10").  fmt_scope_len() is the length of
 * name's scope with its final '/', 0 when it has none.
 * fmt_scope_relative() writes name relative to base's scope: the leading
 * scope components the two share become ".../" ("Default/a/b/Relu-op1"
 * relative to "Default/a/c/MatMul-op2" -> ".../b/Relu-op1"), a name in
 * base's own scope loses it entirely ("Default/a/c/Add-op3" -> "Add-op3"),
 * and a name sharing no component is copied.  Returns buf. */
size_t fmt_scope_len(const char *name);
const char *fmt_scope_relative(const char *name, const char *base, char *buf, size_t size);

/* A status line made of segments that give way on narrow screens: each
 * has a priority (higher stays longer) and may have a shorter form (the
 * dump's base name for its path).  fmt_fit_segments() joins them as " a  b
 * c", and while the line is wider than width columns it first switches the
 * lowest-priority segment that has one to its shorter form, then drops the
 * lowest-priority segment (the later one on a tie), keeping at least one.
 * The result may still be wider (the caller cuts it).  Returns buf. */
struct fmt_seg {
	const char *text;
	const char *shorter;        /* NULL: none */
	int prio;
};
const char *fmt_fit_segments(const struct fmt_seg *segs, size_t n, int width, char *buf, size_t size);

/* A timeline cell label of at most width columns: a longer label whose
 * last word is short (a run or iteration number) keeps it after the
 * ellipsis string (one column: "\xe2\x80\xa6", or "~" on terminals without
 * UTF-8): "Session.run #1234" in 14 -> "Session… #1234"; others are cut at
 * the end by the caller.  Returns buf. */
const char *fmt_cell_label(const char *label, int width, const char *ellipsis, char *buf, size_t size);

/* Text for people prints numbers with FMT_PRECISION significant digits
 * (JSON keeps every digit); fmt_set_precision (--precision N, 1..17)
 * changes it for fmt_double and the text summaries. */
#define FMT_PRECISION 6
void fmt_set_precision(int digits);

/* A double the way people read them in a table: 6 significant digits, "nan",
 * "inf", "-inf". */
const char *fmt_double(double v, char *buf, size_t size);
/* A wall time (seconds since the epoch) as a date in UTC with its
 * milliseconds, "2020-04-15 19:22:55.123 UTC"; the number as fmt_double
 * when it is not a plausible time.  Returns buf. */
const char *fmt_wall_time(double wall, char *buf, size_t size);

#endif
