/*
 * csv.c - one-line CSV splitting (see csv.h).  Not a general CSV library:
 * no multi-line fields, no other separators.
 */
#include "csv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes past a line's end that csv_next_comma may read: a sentinel ','
 * and the rest of a word, zeroed (csv_split's copy has them). */
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

static void
row_reset(struct csv_row *row)
{
	row->n = 0;
}

/* Ends the field that starts at byte start of row->buf (its NUL written
 * at byte end; csv_split made room for every field the line can hold). */
static inline void
row_push(struct csv_row *row, size_t start, size_t end)
{
	row->buf[end] = '\0';
	row->fields[row->n++] = row->buf + start;
}

/* The quoted field whose '"' is at b[*i]: unquoted in place (a field
 * only shrinks), *i past its closing quote; false when the quote is not
 * closed or text follows it. */
static bool
unquote(struct csv_row *row, size_t *i, size_t len)
{
	char *b = row->buf;
	size_t start = *i, w = *i, r = *i + 1;

	for (;; r++) {
		if (r >= len) {
			row_push(row, start, w);
			return false;
		}
		if (b[r] == '"') {
			if (r + 1 < len && b[r + 1] == '"') {
				b[w++] = '"';
				r++;
				continue;
			}
			r++;
			break;
		}
		b[w++] = b[r];
	}
	row_push(row, start, w);
	*i = r;
	return r >= len || b[r] == ',';
}

enum td_status
csv_split(const char *line, size_t len, struct csv_row *row)
{
	size_t i = 0, n = 0;
	char *b, **fields;
	bool ok;

	row_reset(row);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	/* the line is copied once and cut into its fields in place: each
	 * field's NUL takes the ',' after it (or the byte past the line,
	 * where a ',' stops the scan) */
	if (len + CSV_PAD + 1 > row->bufcap)
		td_grow((void **)&row->buf, &row->bufcap, len + CSV_PAD + 1, 1);
	/* and at most len + 1 fields (one more than its commas) */
	TD_GROW(row->fields, row->cap, len + 1);
	b = row->buf;
	memcpy(b, line, len);
	memset(b + len, 0, CSV_PAD + 1);
	b[len] = ',';
	fields = row->fields;
	for (;;) {
		if (i < len && b[i] == '"') {
			row->n = n;
			ok = unquote(row, &i, len);
			n = row->n;
			if (!ok)
				return TD_ERR_CORRUPT;
		} else {
			size_t start = i;

			/* row_push with the count in a register */
			i = csv_next_comma(b, i);
			b[i] = '\0';
			fields[n++] = b + start;
		}
		if (i >= len) {
			row->n = n;
			return TD_OK;
		}
		i++;   /* the ',' */
	}
}

void
csv_row_done(struct csv_row *row)
{
	if (!row)
		return;
	row_reset(row);
	free(row->fields);
	free(row->buf);
	memset(row, 0, sizeof(*row));
}

const char *
csv_next_line(const char *text, size_t textlen, size_t *pos, size_t *len)
{
	const char *start, *nl;

	if (*pos >= textlen)
		return NULL;
	start = text + *pos;
	nl = memchr(start, '\n', textlen - *pos);
	*len = nl ? (size_t)(nl - start) : textlen - *pos;
	*pos += *len + (nl ? 1 : 0);
	if (*len && start[*len - 1] == '\r')
		(*len)--;
	return start;
}
