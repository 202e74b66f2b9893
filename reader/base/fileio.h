/*
 * fileio.h - safe read-only file access shared by the readers and the model.
 *
 * Every file a dump names is opened through here: read-only, close-on-exec,
 * non-blocking so that a FIFO or device node planted in a dump cannot hang
 * tdbg, and refused unless it is a regular file.  Nothing here writes.
 */
#ifndef TD_FILEIO_H
#define TD_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util.h"

/* Opens path read-only and checks it is a regular file.  Returns the
 * descriptor (blocking mode restored) or -1 with a message in err;
 * *status (if not NULL) gets TD_ERR_NOENT or TD_ERR_IO. */
/* "a directory", "a FIFO", "a socket", ... for a message about a file that
 * is not a regular one. */
const char *td_file_kind_name(mode_t mode);

int td_open_regular(const char *path, uint64_t *size, enum td_status *status,
		    char *err, size_t errlen);
/* td_open_regular, giving the file's stat data (the fstat it makes). */
int td_open_regular_stat(const char *path, struct stat *st, enum td_status *status,
			 char *err, size_t errlen);

/* Reads exactly len bytes at off, retrying short reads and EINTR.
 * false on an error or end of file before len bytes. */
bool td_pread_full(int fd, void *buf, size_t len, uint64_t off);

/* Reads a whole regular file of at most max bytes into a malloc'd,
 * NUL-terminated buffer (*len excludes the NUL).  A file that shrinks while
 * read gives what was there.  TD_ERR_NOENT, TD_ERR_IO (with err),
 * TD_ERR_TOO_LARGE for a file larger than max (err names the file, its size
 * and max) or TD_ERR_NOMEM when memory does not allow it. */
enum td_status td_read_file(const char *path, uint64_t max, char **buf, size_t *len,
			    char *err, size_t errlen);

/* The largest side file read whole (a MindSpore graph .pb or .ir, JSON
 * metadata, an Opdebug JSON file, a source file a trace names): larger ones
 * are not read and the reader reports a problem.  The README's Limits
 * section lists it; the model's source loader uses the same number. */
#define TD_SIDE_FILE_MAX ((uint64_t)64 << 20)

/* The longest line of a streamed text file (statistic.csv, mapping.csv,
 * execution orders): a longer one is skipped and counted. */
#define TD_LINE_MAX ((size_t)1 << 20)

/* A text file read line by line through one buffer of about max_line
 * bytes, whatever the file's size: the streamed CSVs of a dump. */
struct td_lines {
	int fd;
	char *buf;
	size_t cap;                 /* max_line + one read's room */
	size_t start, end;          /* unread bytes: buf[start, end) */
	uint64_t off;               /* file offset of buf[end] */
	uint64_t size;              /* the file's size and modification time (ns) */
	int64_t mtime_ns;           /* when it was opened */
	size_t max_line;
	bool eof, error;
	uint64_t long_lines;        /* lines longer than max_line, skipped */
	uint64_t lines;             /* lines returned so far */
};

/* Opens path (a regular file, as td_open_regular) for td_lines_next with
 * lines up to max_line bytes (0 means TD_LINE_MAX).  TD_OK, or the
 * td_open_regular status with err set; l needs td_lines_close either way. */
enum td_status td_lines_open(struct td_lines *l, const char *path, size_t max_line,
			     char *err, size_t errlen);
/* The next line (without its "\n" or "\r\n"; not NUL-terminated) and its
 * length in *len, or NULL at the end of the file or on a read error
 * (l->error).  A line longer than max_line is skipped whole and counted in
 * l->long_lines; NUL bytes are returned as they are.  The pointer is valid
 * until the next call. */
const char *td_lines_next(struct td_lines *l, size_t *len);
/* Closes the file and frees the buffer; accepts a zeroed or closed l. */
void td_lines_close(struct td_lines *l);

#endif
