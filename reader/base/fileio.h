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

/* Reads exactly len bytes at off, retrying short reads and EINTR.
 * false on an error or end of file before len bytes. */
bool td_pread_full(int fd, void *buf, size_t len, uint64_t off);

/* Reads a whole regular file of at most max bytes into a malloc'd,
 * NUL-terminated buffer (*len excludes the NUL).  A file that shrinks while
 * read gives what was there.  TD_ERR_NOENT, TD_ERR_IO (with err), or
 * TD_ERR_NOMEM for a file larger than max or than memory allows. */
enum td_status td_read_file(const char *path, uint64_t max, char **buf, size_t *len,
			    char *err, size_t errlen);

#endif
