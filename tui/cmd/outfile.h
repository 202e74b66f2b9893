/*
 * outfile.h - files tdbg writes on request (export, COMMAND > FILE,
 * save-display): never inside a dump directory, never over an existing
 * file unless asked, never through a symbolic link.
 *
 * The check compares real paths (symbolic links and .. resolved): the
 * target's directory must exist, and neither it nor the file may lie in
 * (or be) the real path of a dump that is open.  Curses-free.
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

/* Checks path as above, then writes len bytes of data to it (created with
 * mode 0666 & ~umask, or replaced when force; a symbolic link is never
 * followed).  TD_OK, or an error with the reason in err. */
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
