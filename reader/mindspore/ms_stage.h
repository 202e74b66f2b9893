/*
 * ms_stage.h - the MindSpore index pass on both cores: a staging thread
 * lists the runs' iteration directories and parses their statistic.csv
 * files (ms_stat_read) a few runs ahead of the index thread, which loads
 * each run from what was read (ms_run_load) and sends every record,
 * problem and progress count in the order of the pass on one thread.
 * When it catches up with the stage, the index thread reads the next
 * folder itself.
 *
 * What the staging thread does is pure (no sink, no reader table): a
 * directory listing, its errno, and a parsed statistic.csv with its status
 * and message.  The problems they give are reported by the index thread
 * when it loads the run, where the one-thread pass reports them.  Not for:
 * mapping.csv, the tensor files, constants/ (read by the index thread as
 * before), follow passes (a held-back run is read when it settles).
 */
#ifndef TD_MS_STAGE_H
#define TD_MS_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ms_internal.h"

/* One iteration directory as read for its load. */
struct ms_staged {
	char **names;               /* ms_list_dir_typed(): sorted; NULL when not listed */
	unsigned char *types;       /* MS_DT_* of each name */
	size_t n;
	int list_errno;             /* errno after an empty listing (0: none) */
	bool is_dir;                /* the path is a folder (asked when names is NULL) */
	bool noted;                 /* dir_mtime, nnames taken (follow mode's note) */
	int64_t dir_mtime;          /* ms_dir_note() before the listing */
	size_t nnames;
	bool stat_read;             /* statistic.csv read: listed, or the folder unlisted */
	enum td_status stat_st;     /* ms_stat_read's status, and its message */
	char stat_err[512];
	struct ms_stat *stat;       /* where it was parsed (not owned) */
};

/* Reads the iteration directory dir for its load: with note, first what
 * follow mode records (ms_dir_note); then the listing, and statistic.csv
 * into stat when the listing has it (or the folder cannot be listed).
 * Pure and thread-safe for distinct stat; out's listing belongs to the
 * caller (ms_run_load frees it), stat is left for ms_stat_clear. */
void ms_stage_read_dir(const char *dir, bool note, struct ms_stat *stat, struct ms_staged *out);

/* What ms_run_note_dir records (ms_follow.c), for the folder dir. */
void ms_dir_note(const char *dir, int64_t *mtime, size_t *nnames);
/* The report of ms_list_dir_report() (ms_dir.c) for a listing of dir that
 * gave no names and left errno e. */
void ms_report_unlisted(struct reader *r, const char *dir, int e, const struct reader_sink *sink,
			const char *what);

/* Runs from which a pass reads ahead on a second thread (tests set it to
 * SIZE_MAX for the one-thread pass, 0 to force the thread); and the most
 * runs, and parsed statistic.csv rows, read ahead of the index thread. */
extern size_t ms_stage_min;
extern size_t ms_stage_window;
extern size_t ms_stage_rows;

/* Starts reading the n folders paths[0..n) ahead in that order (note as
 * for ms_stage_read_dir), or NULL when there is no second core, fewer than
 * ms_stage_min folders or no thread: then the caller reads each itself.
 * paths (copied) must stay valid until ms_stage_stop. */
struct ms_stage;
struct ms_stage *ms_stage_start(const char *const *paths, size_t n, bool note);
/* Folder i, once read: read here when the stage has not taken it yet
 * (the index thread does not wait for a stage that is behind); when the
 * stage is reading it, the next folders nobody took yet are read here
 * meanwhile (into their free slots), and only then is i waited for.  Ask in order 0, 1, ... and hand
 * each back with ms_stage_put(sg, i) before asking for the next; the
 * returned struct (its listing taken, its stat cleared by ms_run_load) is
 * the caller's until then. */
struct ms_staged *ms_stage_get(struct ms_stage *sg, size_t i);
/* The caller is done with folder i: its room goes to a folder ahead. */
void ms_stage_put(struct ms_stage *sg, size_t i);
/* Tests: called on the thread about to read folder g (stage: the staging
 * thread), NULL otherwise; and how many folders the staging thread took,
 * and how many the index thread read ahead while the stage read one it
 * wanted. */
extern void (*ms_stage_read_hook)(struct ms_stage *sg, size_t g, bool stage);
void ms_stage_counts(struct ms_stage *sg, size_t *staged, size_t *stolen);
/* Stops and joins the thread (a pass given up may stop half-way), frees
 * what it read and the stage.  NULL is fine. */
void ms_stage_stop(struct ms_stage *sg);

#endif
