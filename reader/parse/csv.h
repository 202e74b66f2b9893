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
/* Frees the fields; the row may be reused after csv_split. */
void csv_row_done(struct csv_row *row);

/* Iterates over the lines of a text buffer: returns the next line start and
 * its length in *len (without the line end), advancing *pos; NULL at the
 * end. */
const char *csv_next_line(const char *text, size_t textlen, size_t *pos, size_t *len);

#endif
