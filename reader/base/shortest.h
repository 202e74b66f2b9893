/*
 * shortest.h - the shortest decimal digits that read back as a double, the
 * nearest of them to it (Python's repr, JavaScript's Number.toString): a
 * fast exact path (Grisu3: 64-bit arithmetic, 87 cached powers of ten)
 * that says when it cannot be sure, and the caller's slower one then.
 */
#ifndef TD_SHORTEST_H
#define TD_SHORTEST_H

#include <stdbool.h>

/* For a finite v > 0: its shortest round-trip digits into digits (no
 * leading or trailing zero, NUL-terminated, at most 17 and the NUL) and
 * *exp10 such that v reads back from 0.DIGITS x 10^(*exp10 + ndigits)...
 * that is, v = DIGITS x 10^*exp10 with DIGITS an integer.  Returns the
 * number of digits, or 0 when the fast path cannot vouch for its answer
 * (about 0.5% of doubles): the caller then finds them another way. */
int shortest_digits(double v, char digits[18], int *exp10);
/* The same for a float: the fewest digits (at most 9) that read back
 * (strtof) as v. */
int shortest_digits_float(float v, char digits[10], int *exp10);

/* The precision printf's %g needs for v to read back (strtod, strtof),
 * the fewest: what counting %.1g, %.2g ... up finds, without the count;
 * 0 where the caller must count: v not finite, zero, the fast way
 * declined, or a power of two (its lower boundary is the nearer: the
 * nearest decimal of the shortest length may not read back while another
 * of that length does, and the count then takes one digit more).  The
 * JSON's numbers and strbuf_add_double: the same bytes either way. */
int shortest_g_precision(double v);
int shortest_g_precision_float(float v);

#endif
