/*
 * safeio.h - how tdbg opens its own files and how it writes any file.
 *
 * Two promises hold here by construction rather than case by case:
 *
 * - tdbg's own files (the cache directory and its index files, the saved
 *   state, the watches, keys and history files) are opened without
 *   following a symbolic link at their last component, without blocking
 *   (a FIFO or device at their path is refused at once), and only used
 *   when they are regular files (or directories) owned by the user and not
 *   writable by group or others.  Anything else is refused with a reason
 *   the caller reports, and tdbg goes on without that file.
 * - Every file tdbg writes is written to a new temporary file (O_EXCL,
 *   never through a link) in the target's directory, then renamed into
 *   place: an existing file is replaced as a directory entry, never
 *   truncated in place, so a hard link to a dump file keeps its bytes.
 *   Directories are checked against the open dumps by device and inode,
 *   walking the parent chain from an open descriptor (openat ".."), so a
 *   re-pointed symbolic link, a rename or a second path cannot slip past.
 *
 * Not for reading dump files (fileio.h) nor for parsing anything.
 */
#ifndef TD_SAFEIO_H
#define TD_SAFEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util.h"

/* A file or directory by identity rather than by name. */
struct safeio_id {
	dev_t dev;
	ino_t ino;
};

/* The identity of path (symbolic links followed), taken now.  false when
 * path cannot be stat'd. */
bool safeio_id_of(const char *path, struct safeio_id *id);

/* The index in ids[0, n) of the directory that the directory open at dirfd
 * is, or lies below (any depth, parents found by openat(".."), mount
 * points crossed), or -1 when it is none of them or the walk fails.
 * dirfd stays open and unmoved. */
int safeio_dir_within(int dirfd, const struct safeio_id *ids, size_t n);

/* Whether st (of path, for the message) is the user's own: owned by the
 * effective user and not writable by group or others.  false with err
 * ("PATH is owned by uid N, not by you" / "PATH is writable by group or
 * others (mode 0777)"). */
bool safeio_is_own(const struct stat *st, const char *path, char *err, size_t errlen);

/* Opens tdbg's own file path read-only (O_NOFOLLOW, O_NONBLOCK,
 * O_CLOEXEC, O_NOCTTY) and requires a regular file of the user's own
 * (safeio_is_own).  Returns the descriptor, blocking mode restored, with
 * its size in *size (if not NULL); or -1 with *status (if not NULL)
 * TD_ERR_NOENT when path does not exist (err: "PATH: No such file...")
 * or TD_ERR_IO for any other refusal (err says why: a symbolic link, a
 * FIFO, another owner, a loose mode). */
int safeio_open_own(const char *path, uint64_t *size, enum td_status *status, char *err,
		    size_t errlen);

/* Opens tdbg's own file name in dirfd (path for messages) for reading
 * and writing in place: for a file tdbg made itself through
 * safeio_tmp_commit and updates by offset (the index's summary
 * columns).  As safeio_open_own (no link followed, no FIFO, a regular
 * file of the user's own) and it must have one link only, so a hard link
 * planted at its name is refused, never written.  The descriptor, or -1
 * with err. */
int safeio_update_own(int dirfd, const char *name, const char *path, char *err, size_t errlen);

/* Reads tdbg's own file (as safeio_open_own) of at most max bytes into a
 * malloc'd NUL-terminated buffer (*len without the NUL).  TD_OK,
 * TD_ERR_NOENT (no such file), TD_ERR_TOO_LARGE (err names the file, its
 * size and max; nothing read), TD_ERR_IO (a refusal or read error). */
enum td_status safeio_read_own(const char *path, uint64_t max, char **buf, size_t *len,
			       char *err, size_t errlen);

/* Opens one of tdbg's own directories, creating it (mode 0700) and its
 * missing parents when create.  The last component must not be a
 * symbolic link, must be a directory of the user's own (safeio_is_own),
 * and must not be or lie in any of avoid[0, navoid) (the open dumps).
 * Returns an O_DIRECTORY descriptor, or -1 with err saying why. */
int safeio_own_dir(const char *path, bool create, const struct safeio_id *avoid, size_t navoid,
		   char *err, size_t errlen);

/* A file being written: a temporary name beside its target. */
struct safeio_tmp {
	int dirfd;                  /* borrowed: the target's directory */
	int fd;                     /* the temporary file, -1 once closed */
	char name[64];              /* its name in dirfd */
};

/* Creates a new temporary file in dirfd (O_CREAT | O_EXCL | O_NOFOLLOW,
 * mode & ~umask), ".tmp.TARGET.tdbg-XXXXXXXX" for a target called target
 * (its last component, cut to 24 bytes).
 * TD_OK and t filled, or TD_ERR_IO with err. */
enum td_status safeio_tmp_open(int dirfd, const char *target, mode_t mode, struct safeio_tmp *t,
			       char *err, size_t errlen);

/* Writes len bytes to the temporary file (retrying short writes).  false
 * with err on an error. */
bool safeio_tmp_write(struct safeio_tmp *t, const void *data, size_t len, char *err,
		      size_t errlen);

/* Closes the temporary file and renames it to name in its directory.
 * replace: an existing name is replaced (a new directory entry: the old
 * file's other links keep their bytes); else an existing name is an error
 * ("exists") and nothing changes.  The temporary file is removed on any
 * failure.  TD_OK, or TD_ERR_IO / TD_ERR_ARGS (exists) with err; path is
 * for messages. */
enum td_status safeio_tmp_commit(struct safeio_tmp *t, const char *name, bool replace,
				 const char *path, char *err, size_t errlen);

/* Closes and removes the temporary file (after an error); accepts a t
 * already committed or aborted. */
void safeio_tmp_abort(struct safeio_tmp *t);

/* The three calls above at once: writes data to name in dirfd through a
 * temporary file.  Same results as safeio_tmp_commit. */
enum td_status safeio_write_at(int dirfd, const char *name, const void *data, size_t len,
			       mode_t mode, bool replace, const char *path, char *err, size_t errlen);

#endif
