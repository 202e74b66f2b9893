/*
 * values.h - element-level tools over a tensor value, shared by the tensor
 * command (batch) and the TUI's tensor view: value ranges as the TensorFlow debugger's
 * `print_tensor -r` takes them ("[[-inf,-1],[1,inf]]"), a value to look
 * for ("0", "-3.46", "nan", "inf", "-inf", "nonfinite"), and element
 * coordinates ("[3,7]") both ways.
 *
 * Curses-free and pure: nothing here reads a dump.  Not for slicing (that
 * is td_slice_* in reader/base/tensor.h).
 */
#ifndef TD_VALUES_H
#define TD_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/tensor.h"
#include "reader/base/util.h"

#define VALUES_MAX_RANGES 16

/* Closed intervals [lo, hi] (as TensorFlow's debugger takes them); NaN is in none. */
struct value_ranges {
	int n;
	double lo[VALUES_MAX_RANGES], hi[VALUES_MAX_RANGES];
};

/* Parses "[[a,b],[c,d],...]" or a single "[a,b]"; a and b are numbers or
 * inf/-inf.  false with a message in err (a bound missing, lo > hi, more
 * than VALUES_MAX_RANGES ranges). */
bool value_ranges_parse(const char *text, struct value_ranges *r, char *err, size_t errlen);
/* Whether v lies in one of the ranges. */
bool value_ranges_contains(const struct value_ranges *r, double v);
/* "[[-inf, -1], [1, inf]]" appended to sb. */
void value_ranges_format(const struct value_ranges *r, struct strbuf *sb);

/* A value to look for in a tensor. */
enum value_query_kind {
	VQ_NUMBER,                  /* equal at the printed precision (%.6g) */
	VQ_NAN,
	VQ_INF,                     /* either sign */
	VQ_POS_INF,
	VQ_NEG_INF,
	VQ_NONFINITE,               /* NaN or either Inf */
};
struct value_query {
	enum value_query_kind kind;
	double v;
};
/* Parses "0", "-3.46068", "1e-3", "nan", "inf", "+inf", "-inf",
 * "nonfinite" (case-insensitive).  false when text is none of these (the
 * caller then treats it as a regex). */
bool value_query_parse(const char *text, struct value_query *q);
/* Whether x is what q looks for: a number matches when both print the
 * same with 6 significant digits (what the tensor view shows), or are
 * equal. */
bool value_query_match(const struct value_query *q, double x);

/* The coordinates of t's element at storage index idx: "[3,7]" ("[]" for a
 * scalar), appended to sb. */
void value_coords(const struct td_tensor *t, int64_t idx, struct strbuf *sb);
/* Parses "[3,7]", "3,7" or "@[3,7]" into the storage index of that element
 * of t (negative indices count from the end, as numpy).  false with a
 * message in err on bad text, a wrong number of indices, or one out of
 * bounds. */
bool value_coords_parse(const struct td_tensor *t, const char *text, int64_t *idx,
			char *err, size_t errlen);

#endif
