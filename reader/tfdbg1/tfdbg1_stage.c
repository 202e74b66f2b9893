/*
 * tfdbg1_stage.c - the tfdbg v1 index pass on both cores: the run
 * directories scanned by two threads at once, then the tensor dump files
 * of the runs read and summarised by a staging thread a little ahead of
 * the index thread, which sends the records in the same order as a pass
 * on one thread (tfdbg1_index.c, tfdbg1_emit.c).
 *
 * What is done off the index thread is pure: listing a run (tfdbg1_scan.c)
 * and reading one dump file into a summary (no sink, no reader table).
 * Everything the sink sees (files, problems, progress, traces) is still
 * sent by the index thread, in the order of the runs and their dumps, so
 * the records, file ids and problems are those of the one-thread pass.
 * Not for: the metadata and partition graph files (four a run), read on
 * the index thread as before.
 */
#include "tfdbg1_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t tfdbg1_stage_min = 1;
size_t tfdbg1_stage_window = 4096;

static bool
two_cores(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

void
tfdbg1_stage_read(const char *path, const char *debug_op, struct tfdbg1_staged *out)
{
	struct tfdbg1_datum d;
	uint8_t *data;
	size_t len;
	char err[256];

	memset(out, 0, sizeof(*out));
	out->st = tfdbg1_read_file(path, &data, &len, err, sizeof(err));
	if (out->st != TD_OK) {
		out->err = xstrdup(err);
		return;
	}
	out->len = len;
	/* the summary as read_summary() always made it: a fast summary that
	 * gives up may have set fields, which the full decode then replaces */
	if (!tfdbg1_fast_summary(data, len, debug_op, &out->summary)) {
		if (tfdbg1_datum_decode(data, len, debug_op, &d, err, sizeof(err)) == TD_OK) {
			out->summary = d.summary;
		} else {
			out->decode_failed = true;
			out->err = xstrdup(err);
		}
		tfdbg1_datum_done(&d);
	}
	free(data);
}

void
tfdbg1_staged_done(struct tfdbg1_staged *s)
{
	if (!s)
		return;
	free(s->err);
	s->err = NULL;
}

/* ---- scanning the runs ---------------------------------------------- */

struct scan_job {
	char *const *paths, *const *dirs;
	struct tfdbg1_scan *out;
	size_t n;
	atomic_size_t next;
};

static void
scan_some(struct scan_job *j)
{
	size_t i;

	while ((i = atomic_fetch_add(&j->next, 1)) < j->n)
		tfdbg1_scan_root(j->paths[i], j->dirs[i], &j->out[i]);
}

static void *
scan_helper(void *arg)
{
	scan_some(arg);
	return NULL;
}

void
tfdbg1_scan_roots(char *const *paths, char *const *dirs, size_t n, struct tfdbg1_scan *out)
{
	struct scan_job j = { paths, dirs, out, n, 0 };
	pthread_t th;
	bool helper = n >= 2 && tfdbg1_stage_min != SIZE_MAX && two_cores() &&
		      pthread_create(&th, NULL, scan_helper, &j) == 0;

	scan_some(&j);
	if (helper)
		pthread_join(th, NULL);
}

/* ---- reading the dumps ahead ---------------------------------------- */

struct tfdbg1_stage {
	struct tfdbg1_scan *scans;
	size_t n, total;
	size_t *base;                   /* dumps of the runs before run i */
	struct tfdbg1_staged **runs;    /* run i's dumps, once the thread reached it */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t done;                    /* dumps read, counted over the runs in order */
	size_t consumed;                /* dumps the index thread is past */
	/* Who sleeps, and till when: each side wakes the other only then, so
	 * the two threads do not wake each other once per dump (a futex pair
	 * a file under strace before) when they run at about the same pace. */
	size_t main_wants;              /* the index thread waits for done >= this (0: not) */
	size_t stage_resumes;           /* the stage waits for consumed >= this (0: not) */
	bool stop;
	pthread_t th;
};

/* Under sg->lock: dump g may be read (waiting for room when the thread is
 * tfdbg1_stage_window ahead); false once the index thread stops the stage. */
static bool
wait_room(struct tfdbg1_stage *sg, size_t g)
{
	while (!sg->stop && g >= sg->consumed + tfdbg1_stage_window) {
		sg->stage_resumes = g - tfdbg1_stage_window / 2 + 1;
		pthread_cond_wait(&sg->cond, &sg->lock);
	}
	sg->stage_resumes = 0;
	return !sg->stop;
}

/* Under sg->lock: dumps before g are read. */
static void
publish(struct tfdbg1_stage *sg, size_t g)
{
	sg->done = g;
	if (sg->main_wants && g >= sg->main_wants)
		pthread_cond_broadcast(&sg->cond);
}

/* Under sg->lock: the index thread is past dumps before g. */
static void
consume(struct tfdbg1_stage *sg, size_t g)
{
	if (g <= sg->consumed)
		return;
	sg->consumed = g;
	if (sg->stage_resumes && g >= sg->stage_resumes)
		pthread_cond_broadcast(&sg->cond);
}

static void *
stage_thread(void *arg)
{
	struct tfdbg1_stage *sg = arg;
	size_t i, k;
	bool go;

	for (i = 0; i < sg->n; i++) {
		const struct tfdbg1_scan *s = &sg->scans[i];
		struct tfdbg1_staged *st = xcalloc(s->ndumps ? s->ndumps : 1, sizeof(*st));

		pthread_mutex_lock(&sg->lock);
		sg->runs[i] = st;
		go = wait_room(sg, sg->base[i]);
		pthread_mutex_unlock(&sg->lock);
		for (k = 0; go && k < s->ndumps; k++) {
			tfdbg1_stage_read(s->dumps[k].path, s->dumps[k].name.debug_op, &st[k]);
			pthread_mutex_lock(&sg->lock);
			publish(sg, sg->base[i] + k + 1);
			go = wait_room(sg, sg->base[i] + k + 1);
			pthread_mutex_unlock(&sg->lock);
		}
		if (!go)
			return NULL;
	}
	return NULL;
}

struct tfdbg1_stage *
tfdbg1_stage_start(struct tfdbg1_scan *scans, size_t n)
{
	struct tfdbg1_stage *sg;
	size_t i, total = 0;

	for (i = 0; i < n; i++)
		total += scans[i].ndumps;
	if (total == 0 || total < tfdbg1_stage_min || !two_cores())
		return NULL;
	sg = xcalloc(1, sizeof(*sg));
	sg->scans = scans;
	sg->n = n;
	sg->base = xcalloc(n, sizeof(*sg->base));
	sg->runs = xcalloc(n, sizeof(*sg->runs));
	for (i = 1; i < n; i++)
		sg->base[i] = sg->base[i - 1] + scans[i - 1].ndumps;
	sg->total = total;
	pthread_mutex_init(&sg->lock, NULL);
	pthread_cond_init(&sg->cond, NULL);
	if (pthread_create(&sg->th, NULL, stage_thread, sg) != 0) {
		pthread_cond_destroy(&sg->cond);
		pthread_mutex_destroy(&sg->lock);
		free(sg->runs);
		free(sg->base);
		free(sg);
		return NULL;
	}
	return sg;
}

/* Dumps the index thread waits for at once when it catches up with the
 * stage: then it sleeps once per batch, not once per dump. */
#define STAGE_BATCH 64

const struct tfdbg1_staged *
tfdbg1_stage_get(struct tfdbg1_stage *sg, size_t run, size_t dump)
{
	const struct tfdbg1_staged *st;
	size_t g = sg->base[run] + dump;

	pthread_mutex_lock(&sg->lock);
	consume(sg, g);   /* first: the stage may wait for room */
	if (sg->done <= g) {
		/* no further than the stage may go ahead of g */
		sg->main_wants = TD_MIN(g + TD_MIN(STAGE_BATCH, tfdbg1_stage_window), sg->total);
		while (sg->done < sg->main_wants)
			pthread_cond_wait(&sg->cond, &sg->lock);
		sg->main_wants = 0;
	}
	st = &sg->runs[run][dump];
	pthread_mutex_unlock(&sg->lock);
	return st;
}

static void
free_run(struct tfdbg1_staged *st, size_t n)
{
	size_t k;

	if (!st)
		return;
	for (k = 0; k < n; k++)
		tfdbg1_staged_done(&st[k]);
	free(st);
}

void
tfdbg1_stage_run_done(struct tfdbg1_stage *sg, size_t run)
{
	struct tfdbg1_staged *st;
	size_t end;

	if (!sg)
		return;
	end = sg->base[run] + sg->scans[run].ndumps;
	pthread_mutex_lock(&sg->lock);
	/* the thread may still be reading this run (the pass skipped its
	 * last dumps): the array goes once the thread is past it */
	consume(sg, end);
	if (sg->done < end) {
		sg->main_wants = end;
		while (sg->done < end)
			pthread_cond_wait(&sg->cond, &sg->lock);
		sg->main_wants = 0;
	}
	st = sg->runs[run];
	sg->runs[run] = NULL;
	pthread_mutex_unlock(&sg->lock);
	free_run(st, sg->scans[run].ndumps);
}

void
tfdbg1_stage_stop(struct tfdbg1_stage *sg)
{
	size_t i;

	if (!sg)
		return;
	pthread_mutex_lock(&sg->lock);
	sg->stop = true;
	pthread_cond_broadcast(&sg->cond);
	pthread_mutex_unlock(&sg->lock);
	pthread_join(sg->th, NULL);
	for (i = 0; i < sg->n; i++)
		free_run(sg->runs[i], sg->scans[i].ndumps);
	pthread_cond_destroy(&sg->cond);
	pthread_mutex_destroy(&sg->lock);
	free(sg->runs);
	free(sg->base);
	free(sg);
}
