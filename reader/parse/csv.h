/*
 * csv.h - a small RFC 4180-ish CSV line splitter.
 *
 * Fields are separated by ','; a field may be quoted with '"', inside which
 * ',' is literal and '""' is one '"'.  One call handles one line (no
 * newlines inside quotes: MindSpore's files never have them).  Used for
 * statistic.csv, mapping.csv and the execution-order files.
 */
#ifndef TD_CSV_H
#define TD_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "reader/base/util.h"

struct csv_row {
	char **fields;          /* n NUL-terminated copies, in buf */
	size_t n, cap;
	char *buf;              /* the line, cut into the fields in place; */
	size_t bufcap;          /* reused by the next csv_split */
};

/* Splits line[0..len) (a trailing "\r" or "\n" is ignored) into row, which
 * is reset first (its fields stop being valid; no allocation once the row
 * has held a line as long).  Returns TD_ERR_CORRUPT for an unterminated quote or text
 * after a closing quote; row then holds the fields read so far. */
enum td_status csv_split(const char *line, size_t len, struct csv_row *row);
/* Bytes past a line's end that csv_next_comma may read: a sentinel ','
 * and the rest of a word, zeroed (csv_split's copy has them, and so must
 * any buffer a caller scans). */
#define CSV_PAD 8

/* The index of the first ',' at or after b[i]; a ',' must follow at or
 * before the end, and the CSV_PAD bytes from it be readable.  Eight bytes
 * a step where a word's byte order is known: a byte equal to ',' becomes
 * 0 after the xor, and the lowest byte flagged by (x - 0x01..) & ~x &
 * 0x80.. is the first zero (a borrow only reaches the bytes above it). */
static inline size_t
csv_next_comma(const char *b, size_t i)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;

	for (;; i += 8) {
		uint64_t w, x, t;

		memcpy(&w, b + i, sizeof w);
		x = w ^ (ones * (uint64_t)',');
		t = (x - ones) & ~x & highs;
		if (t)
			return i + (size_t)(__builtin_ctzll(t) >> 3);
	}
#else
	while (b[i] != ',')
		i++;
	return i;
#endif
}

/* Frees the fields; the row may be reused after csv_split. */
void csv_row_done(struct csv_row *row);

/* Iterates over the lines of a text buffer: returns the next line start and
 * its length in *len (without the line end), advancing *pos; NULL at the
 * end. */
const char *csv_next_line(const char *text, size_t textlen, size_t *pos, size_t *len);

#endif
