/*
 * ms_follow.c - follow mode: the parts of a MindSpore dump that change
 * after they were first seen.
 *
 * A job writes one iteration directory at a time, file by file.  An
 * iteration still being written is held back (ms_run_settled) rather than
 * sent half done, since what the sink got cannot be taken back: it goes
 * out whole once a later iteration of its rank and graph exists or its
 * files have not changed for MS_SETTLE_SEC.  What was sent and changes
 * later (a directory deleted, files added or removed, a tensor file
 * deleted, truncated or rewritten) is reported once as a problem
 * (ms_follow_check); the rows stay listed.  New rank directories are found
 * by ms_sync_rescan, new ACL directories by ms_acl_scan.
 */
#include "ms_internal.h"
#include "ms_stage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define NS_PER_SEC 1000000000LL

static int64_t
ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * NS_PER_SEC + t->tv_nsec;
}

int64_t
ms_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return ts_ns(&t);
}

/* dir's files, their bytes and the newest time; false if dir is gone. */
static bool
take_sig(const char *dir, struct ms_sig *s)
{
	struct stat st;
	size_t n, i;
	char **names;

	memset(s, 0, sizeof(*s));
	if (stat(dir, &st) != 0)
		return false;
	s->newest = ts_ns(&st.st_mtim);
	names = ms_list_dir(dir, &n);
	for (i = 0; i < n; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		if (stat(p, &st) == 0) {
			s->files++;
			s->bytes += (uint64_t)st.st_size;
			s->newest = TD_MAX(s->newest, ts_ns(&st.st_mtim));
		}
		free(p);
	}
	ms_names_free(names, n);
	return true;
}

static bool
later_iteration_exists(const struct reader *r, const struct ms_run *run)
{
	size_t i;

	for (i = 0; i < r->nruns; i++) {
		const struct ms_run *o = &r->runs[i];

		if (o->iteration > run->iteration && strcmp(o->host, run->host) == 0 &&
		    strcmp(o->graph_id, run->graph_id) == 0)
			return true;
	}
	return false;
}

bool
ms_run_settled(const struct reader *r, struct ms_run *run, int64_t now)
{
	const int64_t settle = MS_SETTLE_SEC * NS_PER_SEC;
	struct stat st;
	struct ms_sig sig;

	if (stat(run->path, &st) != 0)
		return true;               /* gone: reading it says so */
	if (!run->looked && ts_ns(&st.st_mtim) <= now - settle) {
		/* no file added or removed for a while: not being written (a
		 * file still growing in it is a torn tail, said when read) */
		return true;
	}
	if (later_iteration_exists(r, run))
		return true;
	if (!take_sig(run->path, &sig))
		return true;
	if (!run->looked || memcmp(&sig, &run->sig, sizeof sig) != 0) {
		run->sig = sig;
		run->looked = true;
		run->quiet_since = TD_MIN(now, sig.newest);   /* a clock ahead waits */
	}
	return now - run->quiet_since >= settle;
}

void
ms_dir_note(const char *dir, int64_t *mtime, size_t *nnames)
{
	struct stat st;
	char **names;

	*mtime = stat(dir, &st) == 0 ? ts_ns(&st.st_mtim) : 0;
	names = ms_list_dir(dir, nnames);
	ms_names_free(names, *nnames);
}

void
ms_run_note_dir(struct ms_run *run)
{
	ms_dir_note(run->path, &run->dir_mtime, &run->nnames);
}

static void
check_dir(struct ms_run *run, const struct reader_sink *sink)
{
	struct stat st;
	size_t n;
	char **names;

	if (run->gone)
		return;
	if (stat(run->path, &st) != 0) {
		char *d;

		if (errno != ENOENT)
			return;
		run->gone = true;
		d = xasprintf("deleted after it was read: its %zu rows stay listed, their values "
			      "cannot be read", run->n);
		ms_problem(sink, PROBLEM_MISSING_FILE, run->path, "iteration directory", d);
		free(d);
		return;
	}
	if (run->changed || ts_ns(&st.st_mtim) == run->dir_mtime)
		return;
	run->dir_mtime = ts_ns(&st.st_mtim);
	names = ms_list_dir(run->path, &n);
	ms_names_free(names, n);
	if (n != run->nnames) {
		char *d = xasprintf("changed after it was read (%zu entries then, %zu now): its rows "
				    "are those of the first read; reopen the dump to read it again",
				    run->nnames, n);

		run->changed = true;
		ms_problem(sink, PROBLEM_INCONSISTENT, run->path, "iteration directory", d);
		free(d);
	}
}

/* Remembers the size of entry k's data file (run->sizes made on first use:
 * a run read before follow mode has none). */
static void
note_size(struct ms_run *run, size_t k, uint64_t size)
{
	size_t i;

	if (!run->sizes) {
		run->sizes = xcalloc(run->n, sizeof(*run->sizes));
		for (i = 0; i < run->n; i++)
			run->sizes[i] = MS_SIZE_UNKNOWN;
	}
	run->sizes[k] = size;
}

/* A tensor file deleted, truncated or rewritten since it was read. */
static void
check_entry(struct ms_run *run, size_t k, const struct reader_sink *sink)
{
	struct ms_entry *e = &run->entries[k];
	struct stat st;
	char *d, *path;
	uint64_t size;
	int rc;

	if (e->name == MS_NO_NAME || e->flagged || run->gone)
		return;
	if (k > 0 && e->name != MS_NAME_REBUILT && run->entries[k - 1].name == e->name &&
	    run->entries[k - 1].in_const == e->in_const) {
		e->flagged = run->entries[k - 1].flagged;   /* one bin file, several rows */
		return;
	}
	if (!(path = ms_entry_path(run, e)))
		return;
	rc = stat(path, &st);
	size = run->sizes ? run->sizes[k] : MS_SIZE_UNKNOWN;
	if ((rc == 0 && size == MS_SIZE_UNKNOWN) || (rc == 0 && (uint64_t)st.st_size == size) ||
	    (rc != 0 && errno != ENOENT)) {
		if (rc == 0 && size == MS_SIZE_UNKNOWN)
			note_size(run, k, (uint64_t)st.st_size);   /* read before follow mode:
								    * from now on */
		free(path);
		return;                    /* unchanged, or cannot look now: nothing to name */
	}
	e->flagged = true;
	if (rc != 0)
		d = xstrdup("deleted after it was read: its row stays listed, its value cannot be read");
	else
		d = xasprintf("%s after it was read (%llu bytes then, %llu now): its row shows the "
			      "first read", (uint64_t)st.st_size < size ? "truncated" : "rewritten",
			      (unsigned long long)size, (unsigned long long)st.st_size);
	ms_problem(sink, PROBLEM_INCONSISTENT, path, "tensor file", d);
	free(d);
	free(path);
}

void
ms_follow_check(struct reader *r, const struct reader_sink *sink)
{
	size_t i, budget = MS_CHECK_BUDGET, start_run;

	for (i = 0; i < r->nemitted; i++)
		check_dir(&r->runs[i], sink);
	if (!r->nemitted)
		return;
	if (r->check_run >= r->nemitted)
		r->check_run = r->check_entry = 0;
	start_run = r->check_run;
	while (budget) {
		struct ms_run *run = &r->runs[r->check_run];
		bool have;

		pthread_mutex_lock(&r->lock);   /* a resumed run's entries, once */
		have = ms_run_unpack(r, run);
		pthread_mutex_unlock(&r->lock);
		for (; have && r->check_entry < run->n && budget; r->check_entry++, budget--)
			check_entry(run, r->check_entry, sink);
		if (have && r->check_entry < run->n)
			break;
		r->check_entry = 0;
		r->check_run = (r->check_run + 1) % r->nemitted;
		if (r->check_run == start_run)
			break;             /* every file looked at this pass */
	}
}
