/*
 * csv.c - one-line CSV splitting (see csv.h).  Not a general CSV library:
 * no multi-line fields, no other separators.
 */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

static void
row_reset(struct csv_row *row)
{
	row->n = 0;
	row->used = 0;
}

/* Ends the field that starts at byte start of row->buf (its NUL written). */
static void
row_push(struct csv_row *row, size_t start)
{
	if (row->n == row->cap)
		TD_GROW(row->fields, row->cap, row->n + 1);
	row->buf[row->used++] = '\0';
	row->fields[row->n++] = row->buf + start;
}

enum td_status
csv_split(const char *line, size_t len, struct csv_row *row)
{
	size_t i = 0, start;

	row_reset(row);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	/* a field's bytes plus its NUL take at most its bytes and the ',' (or
	 * the line's end) after it: len + 1 bytes hold them all, so the
	 * buffer never moves under the fields */
	if (len + 1 > row->bufcap)
		td_grow((void **)&row->buf, &row->bufcap, len + 1, 1);
	for (;;) {
		start = row->used;
		if (i < len && line[i] == '"') {
			for (i++;; i++) {
				if (i >= len) {
					row_push(row, start);
					return TD_ERR_CORRUPT;
				}
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						row->buf[row->used++] = '"';
						i++;
						continue;
					}
					i++;
					break;
				}
				row->buf[row->used++] = line[i];
			}
			if (i < len && line[i] != ',') {
				row_push(row, start);
				return TD_ERR_CORRUPT;
			}
		} else {
			const char *comma = memchr(line + i, ',', len - i);
			size_t end = comma ? (size_t)(comma - line) : len;

			memcpy(row->buf + row->used, line + i, end - i);
			row->used += end - i;
			i = end;
		}
		row_push(row, start);
		if (i >= len)
			return TD_OK;
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
