/*
 * ms_stage.c - the MindSpore index pass on both cores (ms_stage.h): a
 * staging thread reads the runs' iteration directories (listing,
 * statistic.csv parsed) into a ring of ms_stage_window slots, at most
 * ms_stage_rows parsed rows ahead, while the index thread loads and sends
 * the runs before.  The index thread reports what the reads gave, so the
 * records and problems are those of the one-thread pass, in its order.
 *
 * Parsing is most of the work, so the staging thread is the slower one:
 * when the index thread reaches a folder the stage has not taken yet, it
 * takes and reads that folder itself instead of waiting (each folder is
 * read once, by whoever claims it first: the `next` counter).  When it
 * reaches the folder the stage is reading at that moment, it reads the
 * next unclaimed folders meanwhile and waits only when none is left in
 * the window: waiting there put a futex sleep and wake on every folder
 * once the index thread kept up, and left its core idle (the statistic-
 * only 10M pass: 10.8-12.3 s waiting, 6.3-8.6 s reading ahead, against a
 * warm cat of the CSVs of 6.0-6.5 s).  The stage, ahead by the whole
 * window, sleeps until half of it is free again.
 */
#include "ms_stage.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t ms_stage_min = 1;
/* a slot keeps a row array of up to 4,096 rows (ms_stat_clear): 16 slots
 * keep at most 20 MB beside the rows queued */
size_t ms_stage_window = 16;
size_t ms_stage_rows = (size_t)1 << 16;
void (*ms_stage_read_hook)(struct ms_stage *, size_t, bool);

static int
name_key_cmp(const void *key, const void *name)
{
	return strcmp(key, *(char *const *)name);
}

void
ms_stage_read_dir(const char *dir, bool note, struct ms_stat *stat, struct ms_staged *out)
{
	char *p;

	memset(out, 0, sizeof(*out));
	out->stat = stat;
	if (note) {         /* follow mode compares the directory later */
		out->noted = true;
		ms_dir_note(dir, &out->dir_mtime, &out->nnames);
	}
	errno = 0;
	out->names = ms_list_dir_typed(dir, &out->n, &out->types);
	if (!out->names) {
		out->list_errno = errno;
		out->is_dir = ms_is_dir(dir);
	}
	/* statistic.csv is opened only when the listing has it (a failed open
	 * per iteration directory is a round trip on a network file system);
	 * a folder that cannot be listed has its files tried by name */
	if (out->names && !bsearch("statistic.csv", out->names, out->n, sizeof(*out->names),
				   name_key_cmp))
		return;
	out->stat_read = true;
	p = ms_path_join(dir, "statistic.csv");
	out->stat_st = ms_stat_read(p, 0, stat, out->stat_err, sizeof out->stat_err);
	free(p);
}

struct slot {
	struct ms_staged s;
	struct ms_stat stat;        /* its row array and memos kept slot after slot */
	size_t rows;                /* rows counted in the stage's queued_rows */
	bool ready;                 /* read by the stage (under the lock) */
};

struct ms_stage {
	const char **paths;
	size_t n;
	bool note;
	size_t window;              /* ms_stage_window when started (>= 1) */
	size_t budget;              /* ms_stage_rows when started */
	struct slot *slots;         /* folder i in slots[i % window] */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t next;                /* folders before it are claimed (by either thread) */
	size_t consumed;            /* folders handed back by the index thread */
	size_t queued_rows;         /* parsed rows of the stage's folders not handed back */
	size_t main_wants;          /* the index thread waits for this folder + 1 (0: not) */
	bool stage_waits;           /* the stage waits for room */
	bool stop;
	size_t staged;              /* folders the staging thread took */
	size_t stolen;              /* folders the index thread read ahead while the stage read one */
	pthread_t th;
};

static bool
two_cores(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

/* Under sg->lock: folder g may be read now.  An empty queue always has
 * room, so a single big statistic.csv is read all the same. */
static bool
room_for(const struct ms_stage *sg, size_t g)
{
	return g == sg->consumed ||
	       (g < sg->consumed + sg->window && sg->queued_rows < sg->budget);
}

/* Reads folder g into its slot (the caller claimed it). */
static void
read_slot(struct ms_stage *sg, size_t g, bool stage)
{
	struct slot *sl = &sg->slots[g % sg->window];

	if (ms_stage_read_hook)
		ms_stage_read_hook(sg, g, stage);

	/* the listing of the slot's folder before was taken (ms_run_load) */
	ms_names_free(sl->s.names, sl->s.n);
	free(sl->s.types);
	ms_stage_read_dir(sg->paths[g], sg->note, &sl->stat, &sl->s);
}

static void *
stage_thread(void *arg)
{
	struct ms_stage *sg = arg;
	size_t g;

	pthread_mutex_lock(&sg->lock);
	for (;;) {
		while (!sg->stop && sg->next < sg->n && !room_for(sg, sg->next)) {
			sg->stage_waits = true;
			pthread_cond_wait(&sg->cond, &sg->lock);
		}
		sg->stage_waits = false;
		if (sg->stop || sg->next >= sg->n)
			break;
		g = sg->next++;
		sg->staged++;
		pthread_mutex_unlock(&sg->lock);
		read_slot(sg, g, true);
		pthread_mutex_lock(&sg->lock);
		sg->slots[g % sg->window].rows = sg->slots[g % sg->window].stat.n;
		sg->slots[g % sg->window].ready = true;
		sg->queued_rows += sg->slots[g % sg->window].rows;
		if (sg->main_wants == g + 1)
			pthread_cond_broadcast(&sg->cond);
	}
	pthread_mutex_unlock(&sg->lock);
	return NULL;
}

static void
free_stage(struct ms_stage *sg)
{
	size_t i;

	for (i = 0; i < sg->window; i++) {
		ms_names_free(sg->slots[i].s.names, sg->slots[i].s.n);
		free(sg->slots[i].s.types);
		ms_stat_done(&sg->slots[i].stat);
	}
	free(sg->slots);
	free(sg->paths);
	free(sg);
}

struct ms_stage *
ms_stage_start(const char *const *paths, size_t n, bool note)
{
	struct ms_stage *sg;

	if (n == 0 || n < ms_stage_min || !two_cores())
		return NULL;
	sg = xcalloc(1, sizeof(*sg));
	sg->paths = xmalloc(n * sizeof(*sg->paths));
	memcpy(sg->paths, paths, n * sizeof(*sg->paths));
	sg->n = n;
	sg->note = note;
	sg->window = ms_stage_window ? ms_stage_window : 1;
	sg->budget = ms_stage_rows;
	sg->slots = xcalloc(sg->window, sizeof(*sg->slots));
	pthread_mutex_init(&sg->lock, NULL);
	pthread_cond_init(&sg->cond, NULL);
	if (pthread_create(&sg->th, NULL, stage_thread, sg) != 0) {
		pthread_cond_destroy(&sg->cond);
		pthread_mutex_destroy(&sg->lock);
		free_stage(sg);
		return NULL;
	}
	return sg;
}

struct ms_staged *
ms_stage_get(struct ms_stage *sg, size_t i)
{
	struct slot *sl = &sg->slots[i % sg->window];

	pthread_mutex_lock(&sg->lock);
	if (i >= sg->next) {
		/* not taken by the stage: read it here rather than wait (its
		 * slot is free: the folder window runs before was handed back) */
		sg->next = i + 1;
		pthread_mutex_unlock(&sg->lock);
		read_slot(sg, i, false);
		return &sl->s;
	}
	/* the stage is reading it now: rather than sleep until it is done
	 * (a futex wait and wake a folder when this thread keeps up, the
	 * stage's reads then the whole pass's wall), this thread reads the
	 * next unclaimed folder whose slot is free, and asks again */
	while (!sl->ready && sg->next < sg->n && sg->next < i + sg->window) {
		size_t g = sg->next++;

		sg->stolen++;
		pthread_mutex_unlock(&sg->lock);
		read_slot(sg, g, false);
		pthread_mutex_lock(&sg->lock);
		sg->slots[g % sg->window].ready = true;     /* rows: not in the stage's budget */
	}
	if (!sl->ready) {           /* nothing left to read here: wait for it */
		sg->main_wants = i + 1;
		while (!sl->ready)
			pthread_cond_wait(&sg->cond, &sg->lock);
		sg->main_wants = 0;
	}
	pthread_mutex_unlock(&sg->lock);
	return &sl->s;
}

void
ms_stage_put(struct ms_stage *sg, size_t i)
{
	struct slot *sl;

	if (!sg)
		return;
	sl = &sg->slots[i % sg->window];
	pthread_mutex_lock(&sg->lock);
	sg->consumed = i + 1;
	sg->queued_rows -= sl->rows;
	sl->rows = 0;
	sl->ready = false;
	/* the stage sleeps until half the window and half the rows are free
	 * (or the queue is empty), then reads a batch */
	if (sg->stage_waits &&
	    (sg->next <= sg->consumed ||
	     (sg->next - sg->consumed <= sg->window / 2 && sg->queued_rows <= sg->budget / 2)))
		pthread_cond_broadcast(&sg->cond);
	pthread_mutex_unlock(&sg->lock);
}

void
ms_stage_counts(struct ms_stage *sg, size_t *staged, size_t *stolen)
{
	pthread_mutex_lock(&sg->lock);
	*staged = sg->staged;
	*stolen = sg->stolen;
	pthread_mutex_unlock(&sg->lock);
}

void
ms_stage_stop(struct ms_stage *sg)
{
	if (!sg)
		return;
	pthread_mutex_lock(&sg->lock);
	sg->stop = true;
	pthread_cond_broadcast(&sg->cond);
	pthread_mutex_unlock(&sg->lock);
	pthread_join(sg->th, NULL);
	pthread_cond_destroy(&sg->cond);
	pthread_mutex_destroy(&sg->lock);
	free_stage(sg);
}
