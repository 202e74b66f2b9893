/*
 * decnum.h - decimal text to double, exactly rounded, fast for the short
 * numbers dumps write.
 *
 * A JSON number whose significant digits fit in 19 decimal digits, whose
 * value of those digits is at most 2^53 and whose power of ten is within
 * 10^-22 .. 10^22 is converted with 64-bit integer arithmetic and at most
 * one multiply or divide by an exactly representable power of ten: both
 * operands are exact, so IEEE round-to-nearest gives the correctly rounded
 * result, bit for bit what strtod gives (Clinger's fast path).  On x86
 * the same is done for mantissas up to 19 digits and powers up to 10^+-27
 * through long double, whose 64-bit mantissa holds them exactly (decnum.c
 * says why the double rounding is safe there and which one pattern is not).
 * Every other text goes to strtod.  Not for: validating syntax (jscan.c checks it
 * first), or the bare words NaN and Infinity (jscan.c maps them).  The fast
 * path always reads '.' as the decimal point; strtod reads LC_NUMERIC's, so
 * the two agree in the C numeric locale (batch mode; the TUI sets LC_ALL
 * from the environment, tui.c, where a ',' locale would make strtod stop
 * at the '.': a known gap, tests/bench/NOTES.md).
 */
#ifndef TD_DECNUM_H
#define TD_DECNUM_H

#include <stdbool.h>
#include <stdint.h>

/* The double of text, a NUL-terminated number in JSON's grammar
 * (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), bit for bit what
 * strtod(text, NULL) returns in the C numeric locale (including -0.0, 0
 * for underflow, +-HUGE_VAL for overflow).  Text outside the grammar gives
 * strtod's answer too. */
double decnum_parse(const char *text);

/* The fast path alone: true and *out set when text is in the grammar and
 * exactly convertible as the file comment says; false (out untouched)
 * otherwise.  For tests (which check it is taken) and for decnum_parse. */
bool decnum_fast(const char *text, double *out);

/* True when the long double path (19 digits, powers to 10^+-27) is on: x86
 * whose x87 arithmetic keeps its 64-bit mantissa, checked once (false
 * under valgrind, which emulates it with 53 bits, and on other targets). */
bool decnum_wide(void);

/* The value neg? -m * 10^e10 : m * 10^e10 when the fast path may compute it
 * exactly (m: the number's first 19 significant digits or fewer, all of
 * them; e10: the power of ten those digits take): true and *out set, else
 * false.  For a scanner that gathers the digits as it reads (jscan.c,
 * statistic.csv's plain decimals in ms_stat.c); it keeps the text for
 * strtod when this says false. */
bool decnum_exact(bool neg, uint64_t m, int e10, double *out);

/* A number's sign, digits and power of ten, all its significant digits
 * (at most 19): its value made later, perhaps on another thread. */
struct decnum_dec {
	uint64_t m;
	int32_t e10;
	bool neg;
};

/* The double of d, bit for bit what strtod gives any text of the same
 * digits and power of ten: decnum_exact's, else strtod of "MeE" (the
 * correctly rounded value of the same decimal number). */
double decnum_dec_value(const struct decnum_dec *d);

#endif
