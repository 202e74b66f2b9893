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
	size_t i;

	for (i = 0; i < row->n; i++)
		free(row->fields[i]);
	row->n = 0;
}

static void
row_push(struct csv_row *row, struct strbuf *sb)
{
	TD_GROW(row->fields, row->cap, row->n + 1);
	row->fields[row->n++] = sb->buf ? strbuf_take(sb) : xstrdup("");
}

enum td_status
csv_split(const char *line, size_t len, struct csv_row *row)
{
	struct strbuf sb = {0};
	size_t i = 0;

	row_reset(row);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	for (;;) {
		if (i < len && line[i] == '"') {
			for (i++;; i++) {
				if (i >= len) {
					row_push(row, &sb);
					return TD_ERR_CORRUPT;
				}
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						strbuf_addc(&sb, '"');
						i++;
						continue;
					}
					i++;
					break;
				}
				strbuf_addc(&sb, line[i]);
			}
			if (i < len && line[i] != ',') {
				row_push(row, &sb);
				return TD_ERR_CORRUPT;
			}
		} else {
			size_t start = i;

			while (i < len && line[i] != ',')
				i++;
			strbuf_add(&sb, line + start, i - start);
		}
		row_push(row, &sb);
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
	row->fields = NULL;
	row->cap = 0;
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
