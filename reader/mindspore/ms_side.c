/*
 * ms_side.c - a MindSpore dump's side files, read within tdbg's limits.
 *
 * Files read whole (graph .pb and .ir, .dump_metadata JSON, Opdebug JSON,
 * source files a trace names) go through ms_read_side(), which refuses a
 * file larger than TD_SIDE_FILE_MAX and says so once per file.  The CSVs
 * (statistic.csv through ms_stat_read, mapping.csv, the execution orders
 * through ms_read_lines) are streamed line by line through one buffer, so a
 * huge or sparse file costs time in proportion to its size, never memory.
 * Not here: what the files mean (ms_stat.c, ms_names.c, ms_sync.c).
 */
#include "ms_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/fileio.h"
#include "reader/parse/csv.h"

enum td_status
ms_read_side(const struct reader_sink *sink, const char *path, const char *what,
	     uint8_t **buf, size_t *len)
{
	char err[512];
	enum td_status st = td_read_file(path, TD_SIDE_FILE_MAX, (char **)buf, len, err,
					 sizeof err);

	if (st == TD_ERR_TOO_LARGE) {
		char *detail = xasprintf("larger than tdbg's side-file limit of %llu MiB: not read",
					 (unsigned long long)(TD_SIDE_FILE_MAX >> 20));

		ms_problem(sink, PROBLEM_UNREADABLE, path, what, detail);
		free(detail);
	} else if (st != TD_OK && st != TD_ERR_NOENT) {   /* a FIFO, no permission ... */
		ms_problem(sink, PROBLEM_UNREADABLE, path, what, err);
	}
	return st;
}

void
ms_report_long_lines(const struct reader_sink *sink, const char *path, const char *what,
		     uint64_t long_lines)
{
	char *detail;

	if (!long_lines)
		return;
	detail = xasprintf("%llu line%s longer than %zu KiB skipped",
			   (unsigned long long)long_lines, long_lines == 1 ? "" : "s",
			   TD_LINE_MAX >> 10);
	ms_problem(sink, PROBLEM_DECODE_ERROR, path, what, detail);
	free(detail);
}

bool
ms_read_lines(const struct reader_sink *sink, const char *path, const char *what,
	      void (*fn)(void *ctx, const char *line, size_t len), void *ctx)
{
	struct td_lines l;
	const char *line;
	size_t len;
	char err[512];
	enum td_status st = td_lines_open(&l, path, 0, err, sizeof err);
	bool ok = st == TD_OK;

	if (!ok && st != TD_ERR_NOENT)   /* a FIFO, a directory, no permission */
		ms_problem(sink, PROBLEM_UNREADABLE, path, what, err);
	while (ok && (line = td_lines_next(&l, &len)))
		fn(ctx, line, len);
	if (ok && l.error)
		ms_problem(sink, PROBLEM_UNREADABLE, path, what, "read error: the rest is not read");
	if (ok)
		ms_report_long_lines(sink, path, what, l.long_lines);
	td_lines_close(&l);
	return ok;
}

/* A header row (column 0 not digits, §13) or junk is skipped. */
static void
mapping_line(void *ctx, const char *line, size_t len)
{
	struct ms_mapping *m = ctx;
	struct csv_row row = {0};

	if (csv_split(line, len, &row) == TD_OK && row.n >= 2 && ms_all_digits(row.fields[0])) {
		bool added;
		size_t id = td_strpool_id(&m->ix, row.fields[0], &added);

		if (added) {   /* lookups by hash: no scan per numbered file */
			TD_GROW(m->row_of, m->caprow, id + 1);
			m->row_of[id] = m->n;
		}
		size_t was = m->cap;

		TD_GROW(m->numbers, m->cap, m->n + 1);
		if (m->cap != was)   /* not per row: a realloc may copy the array */
			m->names = xrealloc(m->names, m->cap * sizeof(*m->names));
		m->numbers[m->n] = xstrdup(row.fields[0]);
		m->names[m->n] = xstrdup(row.fields[1]);
		m->n++;
	}
	csv_row_done(&row);
}

void
ms_mapping_parse(const char *text, size_t len, struct ms_mapping *m)
{
	size_t pos = 0, llen;
	const char *line;

	memset(m, 0, sizeof(*m));
	while ((line = csv_next_line(text, len, &pos, &llen)))
		mapping_line(m, line, llen);
}

void
ms_mapping_read(const struct reader_sink *sink, const char *path, struct ms_mapping *m)
{
	memset(m, 0, sizeof(*m));
	ms_read_lines(sink, path, "mapping.csv", mapping_line, m);
}
