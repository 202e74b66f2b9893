/*
 * outfile.h - files tdbg writes on request (export, COMMAND > FILE,
 * save-display): never inside a dump directory, never over an existing
 * file unless asked, never through a symbolic link.
 *
 * The check is by identity: the target's directory is opened and must not
 * be, or lie below, a folder an open dump reads (device and inode taken
 * when the dump was opened: model_roots), whatever path leads there now.
 * The file is written to a temporary file beside it and renamed into
 * place through the directory's descriptor (reader/base/safeio.h), so an
 * existing file is replaced, never truncated: its other hard links keep
 * their bytes.  Curses-free.
 */
#ifndef TD_OUTFILE_H
#define TD_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "reader/base/safeio.h"
#include "reader/base/util.h"

struct model;

/* Whether path may be written: TD_OK, or an error with the reason in err
 * ("FILE is inside the dump directory DIR: tdbg never writes into a dump",
 * "FILE exists (>| or --force replaces it)", "no such directory ...").
 * dumps: the open dumps (NULL entries skipped). */
enum td_status outfile_check(const char *path, struct model *const *dumps, size_t ndumps,
			     bool force, char *err, size_t errlen);

/* Checks path as above, then writes len bytes of data to a new temporary
 * file beside it and renames that to path (mode 0666 & ~umask; an
 * existing path is an error unless force, and is then replaced as a
 * directory entry; a symbolic link is never followed).  TD_OK, or an
 * error with the reason in err. */
enum td_status outfile_write(const char *path, struct model *const *dumps, size_t ndumps,
			     bool force, const void *data, size_t len, char *err, size_t errlen);

/* A file written a piece at a time, for an output too large to build in
 * memory first (diff --csv of a million rows): outfile_open checks path
 * as outfile_write does and creates the temporary file beside it;
 * outfile_add appends; outfile_close renames it into place (commit) or
 * removes it.  After a failed outfile_add the file is only closed
 * (outfile_close then removes it and returns the first error). */
struct outfile {
	int dirfd;
	const char *name;           /* in path */
	const char *path;
	bool force, failed, open;
	struct safeio_tmp tmp;
	char err[512];
};
enum td_status outfile_open(struct outfile *o, const char *path, struct model *const *dumps,
			    size_t ndumps, bool force, char *err, size_t errlen);
bool outfile_add(struct outfile *o, const void *data, size_t len);
enum td_status outfile_close(struct outfile *o, bool commit, char *err, size_t errlen);

/* Splits a prompt line "COMMAND > FILE" or "COMMAND >| FILE" (replace) at
 * its last '>' outside quotes.  A '>' followed by a number is a comparison
 * (where abs_mean > 1e3), not a redirection.  Returns false when line has
 * no redirection; else *cmd and *file are malloc'd (caller frees), or
 * false with err set when the file name is missing. */
bool outfile_split_redirect(const char *line, char **cmd, char **file, bool *force,
			    char *err, size_t errlen);

#endif
