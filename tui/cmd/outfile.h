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

/* Splits a prompt line "COMMAND > FILE" or "COMMAND >| FILE" (replace) at
 * its last '>' outside quotes.  A '>' followed by a number is a comparison
 * (where abs_mean > 1e3), not a redirection.  Returns false when line has
 * no redirection; else *cmd and *file are malloc'd (caller frees), or
 * false with err set when the file name is missing. */
bool outfile_split_redirect(const char *line, char **cmd, char **file, bool *force,
			    char *err, size_t errlen);

#endif
