/*
 * model_base.h - the model of one open dump: open, close, progress, formats
 * and the dump's facts (info, meta, roots).  Part of model.h (the umbrella);
 * the areas above it: model_rows.h, model_alerts.h, model_analysis.h.
 */
#ifndef TD_MODEL_BASE_H
#define TD_MODEL_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/safeio.h"
#include "reader/base/tensor.h"
#include "reader/base/util.h"

struct model;

struct model_options {
	const char *source_root;    /* remap producer source paths (may be NULL) */
	const char *format;         /* force a reader by name, NULL = detect */
	bool strict;                /* make corrupt records an error (model_open fails) */
	bool no_thread;             /* index synchronously inside model_open (tests) */
	size_t cache_rows;          /* decoded-row cache size, 0 = default */
	bool follow;                /* follow mode from the start (reader_options.follow) */
	bool may_follow;            /* an interactive session (reader_options.may_follow) */
	/* The persistent index (issue 18): keep the index of a dump in a
	 * cache file and open it from there next time (when the format's
	 * reader can resume).  Off unless set: the command line sets it
	 * unless --no-cache. */
	bool cache;
	const char *cache_dir;      /* NULL: $XDG_CACHE_HOME/tdbg or ~/.cache/tdbg */
	uint64_t cache_max;         /* bytes the directory may hold; 0: $TDBG_CACHE_MAX or 1 GiB */
	/* An op table loaded from the persistent index is decoded inside
	 * model_open, on the calling thread, instead of on its first use: for
	 * a caller that will read every op (a diff opening its two dumps on
	 * two threads).  No answer changes. */
	bool ops_at_open;
};

/* What became of the persistent index of an open dump. */
enum model_cache_state {
	MODEL_CACHE_OFF,            /* not asked for, or the format cannot resume */
	MODEL_CACHE_UNAVAILABLE,    /* no cache directory could be made: indexed, not kept */
	MODEL_CACHE_NEW,            /* no cache file yet: indexed, then saved */
	MODEL_CACHE_USED,           /* opened from the cache: the dump was unchanged */
	MODEL_CACHE_EXTENDED,       /* opened from the cache, then the appended records indexed */
	MODEL_CACHE_REBUILT,        /* a cache file was there but not usable (why): indexed anew */
	MODEL_CACHE_STALE,          /* used, then a decoded row contradicted it (why): the
				     * file is dropped, the next open indexes afresh */
};

/* tdbg --clear-cache (model_cache_clear.c): removes the persistent index
 * of the dump at path (opened with opt, cache on, to learn its file), or,
 * path NULL, every index file in the cache directory (opt->cache_dir, else
 * $XDG_CACHE_HOME/tdbg): only regular files named as tdbg names them
 * (16 hex digits and ".tdx"), nothing else there.  *files and *bytes count
 * what went; *dir is the directory (malloc'd; NULL when there is none).
 * TD_ERR_NOENT and friends with err when the dump cannot be opened;
 * TD_ERR_IO with err when a file could not be removed (the others are). */
enum td_status model_cache_clear(const char *path, const struct model_options *opt,
				 uint64_t *files, uint64_t *bytes, char **dir, char *err,
				 size_t errlen);

/* Opens the dump at path.  Returns TD_ERR_FORMAT (with err naming what was
 * looked for) when no reader recognises it, TD_ERR_NOENT / TD_ERR_IO when it
 * cannot be read.  On success *out is ready for queries at once. */
enum td_status model_open(const char *path, const struct model_options *opt,
			  struct model **out, char *err, size_t errlen);
struct reader_ops;
/* Like model_open() with a given reader (tests, tools): no probing. */
enum td_status model_open_with(const struct reader_ops *ops, const char *path,
			       const struct model_options *opt, struct model **out,
			       char *err, size_t errlen);
/* For the fuzzer and tests: opens path with ops like model_open_with()
 * with no_thread, but takes the index from data, the bytes of a cache file
 * (model_cache.c), with no checksum and no fingerprint check, then runs
 * the (resumed) index pass.  TD_ERR_CORRUPT (nothing opened) when the
 * bytes are refused, err ending in the reason ("cache file of another
 * layout ..."). */
enum td_status model_open_cache_bytes(const struct reader_ops *ops, const char *path,
				      const void *data, size_t len, struct model **out,
				      char *err, size_t errlen);
/* Stops the index thread and frees everything.  NULL is fine.  Readers
 * poll the sink's should_stop() and give a running pass up; if one is still
 * running after a short wait (100 ms), the thread finishes it in the
 * background, dropping records, and frees the model then.  m is invalid on
 * return. */
void model_close(struct model *m);
/* Blocks until the current index pass is finished. */
void model_wait(struct model *m);
/* Follow mode: runs another index pass over what was appended since (in the
 * background thread).  Returns at once. */
void model_refresh(struct model *m);

struct model_progress {
	bool done;                  /* the index pass is finished */
	uint64_t bytes_done, bytes_total;
	uint64_t executions, traces;
	uint64_t generation;        /* increases whenever rows or alerts change */
};
void model_progress(struct model *m, struct model_progress *p);

/* ---- formats ---------------------------------------------------------- */

struct model_format {
	const char *name;           /* what model_options.format takes */
	const char *description;    /* one line for --help and the man page */
	const char *values_in;      /* the dumps of it that keep full tensor values, or NULL */
};
/* The i-th format tdbg reads, in detection order; false past the last.
 * Help text and messages name formats from here, never from code above
 * the readers. */
bool model_format_at(size_t i, struct model_format *f);

/* ---- dump facts ---------------------------------------------------- */

struct model_meta {
	const char *key;            /* without the "[]" list marker */
	bool list;                  /* the reader sent "key[]": always a JSON list */
	const char *const *values;  /* one or more values, in arrival order */
	size_t nvalues;
};

struct model_info {
	const char *path;
	const char *format;             /* the reader's "format" meta, else its name */
	const char *tensor_debug_mode;  /* "FULL_HEALTH", or NULL */
	const char *const *hosts;
	size_t nhosts;
	uint64_t executions, traces, ops, graphs, devices, source_files, stack_frames;
	uint64_t alerts;
	uint64_t corrupt_records;       /* problems other than a torn tail / missing file */
	uint64_t torn_files;            /* files whose tail is torn now (a tail the
					 * writer completed since is not counted) */
	uint64_t missing_files;
	uint64_t problems_by_kind[16];  /* indexed by enum reader_problem_kind */
	const struct model_meta *meta;  /* every on_meta key, for extras (runs, ranks...) */
	size_t nmeta;
	const char *no_stacks_why;      /* why dumps of this format never hold source or
					 * stacks (the reader's words), or NULL */
	const char *no_control_why;     /* why its ops never list control inputs, or NULL */
	const char *no_attrs_why;       /* why its ops never carry attributes, or NULL */
	const char *index_cache;        /* the persistent index: "off", "unavailable", "new",
					 * "used", "extended", "rebuilt" or "stale" (enum model_cache_state) */
	const char *index_cache_why;    /* why rebuilt or unavailable, else "" */
	const char *index_cache_path;   /* its file, NULL when there is none to have
					 * (off, unavailable); lives as long as the model */
	int64_t index_cache_bytes;      /* the file's size, -1 when not written (yet) */
};
/* True when the dump has corrupt records (problems other than a torn tail
 * or a missing file) among what is indexed: --strict callers check it after
 * model_wait().  With no_thread, model_open() itself fails in strict mode. */
bool model_has_problems(struct model *m);
/* Bytes the model holds for what grows with the dump (rows, locators,
 * names, ops, frames, sources), not counting the bounded decode cache. */
size_t model_memory_bytes(struct model *m);
/* Fills info; pointers are valid until the next model_info() call. */
void model_info(struct model *m, struct model_info *info);
/* The folders the dump is read from, identified by device and inode when
 * the dump was opened (the folder given, and the one above it a format
 * reads whole), so that a symbolic link re-pointed or a folder renamed
 * since changes nothing: tdbg writes into none of them nor below them.
 * Sets *ids (valid until model_close) and returns their count (0 to 2).
 * *real (if not NULL) gets the outermost one's real path at open, for
 * messages (the path given when it could not be resolved). */
size_t model_roots(struct model *m, const struct safeio_id **ids, const char **real);
/* The values of one meta key, NULL if absent.  Valid until model_close(). */
const struct model_meta *model_meta_get(struct model *m, const char *key);

#endif
