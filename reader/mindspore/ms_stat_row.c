/*
 * ms_stat_row.c - one statistic.csv row read again by its locator (a
 * decode, ms_stat_read_row): the header mapped again and the line parsed
 * by ms_stat.c's code, so an unchanged file gives the row the index pass
 * took.  Not for: the pass's parse (ms_stat.c).
 */
#include "ms_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/fileio.h"
#include "reader/parse/csv.h"

void
ms_stat_row_done(struct ms_stat_row *row)
{
	if (!row)
		return;
	free(row->own);
	memset(row, 0, sizeof(*row));
}

/* The line that starts at byte off of fd (a file of size bytes), without
 * its line end, into *line (malloc'd, *len bytes); false when it cannot be
 * read or is longer than the pass reads (TD_LINE_MAX: such lines are never
 * rows). */
static bool
line_at(int fd, uint64_t off, uint64_t size, char **line, size_t *len)
{
	size_t cap = 4096, got = 0;
	char *buf = NULL, *nl = NULL;

	while (off + got < size && !nl) {
		ssize_t n;

		if (got == cap && cap > TD_LINE_MAX + 1)
			break;
		if (got == cap || !buf)
			buf = xrealloc(buf, cap = buf ? cap * 2 : cap);
		n = pread(fd, buf + got, cap - got, (off_t)(off + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		nl = memchr(buf + got, '\n', (size_t)n);
		got += (size_t)n;
	}
	*len = nl ? (size_t)(nl - buf) : got;
	if (*len && buf[*len - 1] == '\r')
		(*len)--;
	if (!buf || (!nl && off + got < size) || *len > TD_LINE_MAX) {
		free(buf);
		return false;
	}
	*line = buf;
	return true;
}

/* The header of fd mapped into colmap, its column count in *ncolumns. */
static enum td_status
header_at(int fd, uint64_t size, int *colmap, size_t *ncolumns, char *err, size_t errlen)
{
	struct csv_row row = {0};
	char *line;
	size_t len;
	enum td_status rc;

	if (!line_at(fd, 0, size, &line, &len)) {
		snprintf(err, errlen, "statistic.csv: its header line cannot be read again");
		return TD_ERR_CORRUPT;
	}
	csv_split(line, len, &row);
	*ncolumns = row.n;
	rc = ms_stat_map_header(&row, colmap, err, errlen);
	csv_row_done(&row);
	free(line);
	return rc;
}

/* The row of line (off) in out, by colmap; false when it is no row. */
static bool
row_at(int fd, uint64_t size, uint64_t off, const int *colmap, size_t ncolumns,
       struct ms_stat_row *out)
{
	struct csv_row row = {0};
	char *line;
	size_t len;
	bool ok = false;

	if (!line_at(fd, off, size, &line, &len))
		return false;
	if (csv_split(line, len, &row) == TD_OK && row.n == ncolumns) {
		if ((ok = ms_stat_fill_split(colmap, &row, out))) {
			size_t nt = strlen(out->op_type) + 1, nn = strlen(out->op_name) + 1;

			out->own = xmalloc(nt + nn);
			memcpy(out->own, out->op_type, nt);
			memcpy(out->own + nt, out->op_name, nn);
			out->op_type = out->own;
			out->op_name = out->own + nt;
		}
	}
	csv_row_done(&row);
	free(line);
	return ok;
}

enum td_status
ms_stat_read_row(const char *path, uint64_t size, int64_t mtime_ns, uint64_t off,
		 struct ms_stat_row *out, char *err, size_t errlen)
{
	int colmap[MS_STAT_NCOLS];
	struct stat sb;
	size_t ncolumns;
	enum td_status rc = TD_OK;
	int fd = td_open_regular_stat(path, &sb, &rc, err, errlen);

	memset(out, 0, sizeof(*out));
	if (fd < 0)
		return rc;
	if ((uint64_t)sb.st_size != size ||
	    (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec != mtime_ns) {
		snprintf(err, errlen, "%s: rewritten since it was read (%llu bytes then, %llu now)",
			 path, (unsigned long long)size, (unsigned long long)sb.st_size);
		rc = TD_ERR_CORRUPT;
	} else if ((rc = header_at(fd, size, colmap, &ncolumns, err, errlen)) == TD_OK) {
		if (row_at(fd, size, off, colmap, ncolumns, out)) {
			out->off = off;
		} else {
			snprintf(err, errlen, "%s: no statistic row at byte %llu: changed since it "
				 "was read", path, (unsigned long long)off);
			rc = TD_ERR_CORRUPT;
		}
	}
	close(fd);
	return rc;
}
