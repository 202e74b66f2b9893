/*
 * model.c - opening a dump, the index thread, progress, dump facts,
 * meta and problems.
 *
 * model_open() probes the directory, opens the reader and starts one
 * background thread that runs the reader's index pass into the sink
 * (model_sink.c); it returns before any record is read.  The thread sleeps
 * between passes; model_refresh() wakes it for another (follow mode, the
 * reader's index is resumable).  Not here: the tables themselves.
 */
#include "model_internal.h"
#include "model_cache.h"
#include "model/analysis/model_watch_set.h"
#include "reader/reader_listing.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void
model_bump(struct model *m)
{
	uint64_t g = atomic_load_explicit(&m->th.generation, memory_order_relaxed);

	atomic_store_explicit(&m->th.generation, g + 1, memory_order_release);
}

/* Keeps p (an array once handed out) until model_close (under m->th.lock). */
void
model_graveyard(struct model *m, void *p)
{
	if (!p)
		return;
	TD_GROW(m->graveyard, m->capgrave, m->ngrave + 1);
	m->graveyard[m->ngrave++] = p;
}

static void
run_pass(struct model *m)
{
	struct reader_sink sink;
	enum td_status st;

	model_sink_init(m, &sink);
	do
		st = m->ops->index(m->r, &sink);
	while (st == TD_ERR_AGAIN && !atomic_load(&m->th.stopping));
	m->th.last_status = st;
	pthread_mutex_lock(&m->th.lock);
	alerts_groups_rebuild(m);
	pthread_mutex_unlock(&m->th.lock);
	fields_flush(m);
	model_cache_note_pass(m);
	if (st == TD_OK)
		model_cache_save(m);
	model_bump(m);
}

static void model_free(struct model *m);

static void *
index_thread(void *arg)
{
	struct model *m = arg;
	bool orphaned;

	pthread_mutex_lock(&m->th.lock);
	for (;;) {
		while (!m->th.requested && !m->th.stop)
			pthread_cond_wait(&m->th.cond, &m->th.lock);
		if (m->th.stop)
			break;
		m->th.requested = false;
		m->th.running = true;
		atomic_store(&m->th.done, false);
		pthread_mutex_unlock(&m->th.lock);
		run_pass(m);
		pthread_mutex_lock(&m->th.lock);
		m->th.running = false;
		if (!m->th.requested)
			atomic_store(&m->th.done, true);
		pthread_cond_broadcast(&m->th.cond);
	}
	m->th.exited = true;
	orphaned = m->th.orphaned;
	pthread_mutex_unlock(&m->th.lock);
	if (orphaned)
		model_free(m);  /* model_close() left the model to us */
	return NULL;
}

static void
model_free(struct model *m)
{
	size_t i;

	if (m->r)
		m->ops->close(m->r);
	rows_done(m);
	ops_done(m);
	frames_done(m);
	alerts_done(m);
	for (i = 0; i < m->md.nmeta; i++) {
		free(m->md.meta[i]->values);
		free(m->md.meta[i]->snap);
		free(m->md.meta[i]);
	}
	free(m->md.meta);
	free(m->md.info_meta);
	free(m->md.info_hosts);
	for (i = 0; i < m->ngrave; i++)
		free(m->graveyard[i]);
	free(m->graveyard);
	free(m->pr.problems);
	free(m->pr.torn);
	hashtab_u64_done(&m->pr.problem_seen);
	for (i = 0; i < m->src.nfiles; i++)
		free(m->src.files[i].read);
	free(m->src.files);
	hashtab_u64_done(&m->src.file_by_id);
	model_state_free(m);
	watch_free(m);
	intern_done(&m->str);
	fields_close(m);
	model_cache_free(m);
	pthread_mutex_destroy(&m->th.lock);
	pthread_cond_destroy(&m->th.cond);
	free(m->source_root);
	free(m->root_real);
	free(m->path);
	free(m);
}

/* A one-line description of the first corrupt-record problem. */
static void
describe_first_problem(struct model *m, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < m->pr.nproblems; i++) {
		const struct problem_entry *p = &m->pr.problems[i];

		if (p->kind == PROBLEM_TORN_TAIL || p->kind == PROBLEM_MISSING_FILE)
			continue;
		snprintf(err, errlen, "%s: %s at offset %llu (%s%s%s)", p->path,
			 reader_problem_text(p->kind), (unsigned long long)p->offset, p->what,
			 *p->detail ? ": " : "", p->detail);
		return;
	}
	snprintf(err, errlen, "%s: corrupt records", m->path);
}

/* The dump's folders by identity, once (model_roots): the one given and
 * the one the reader reads above it. */
static void
take_roots(struct model *m)
{
	const char *up = m->ops->read_root ? m->ops->read_root(m->r) : NULL;

	if (safeio_id_of(m->path, &m->roots[m->nroots]))
		m->nroots++;
	if (up && safeio_id_of(up, &m->roots[m->nroots]) &&
	    (m->nroots == 0 || m->roots[0].dev != m->roots[1].dev || m->roots[0].ino != m->roots[1].ino))
		m->nroots++;
	m->root_real = realpath(up ? up : m->path, NULL);
}

/* A model on path with its reader open, nothing indexed; NULL (and *st,
 * err) when the reader cannot open the dump.  ls: the listing of path
 * detection made (handed to the reader's open), or NULL. */
static struct model *
model_new(const struct reader_ops *ops, const char *path, const struct reader_listing *ls,
	  const struct model_options *opt, enum td_status *st, char *err, size_t errlen)
{
	struct reader_options ropt = {0};
	struct model *m = calloc(1, sizeof(*m));

	if (!m) {
		snprintf(err, errlen, "%s: %s", path, td_strerror(TD_ERR_NOMEM));
		*st = TD_ERR_NOMEM;
		return NULL;
	}
	if (opt)
		m->opt = *opt;
	m->opt.format = NULL;
	m->source_root = opt && opt->source_root ? xstrdup(opt->source_root) : NULL;
	m->opt.source_root = m->source_root;
	m->path = xstrdup(path);
	m->ops = ops;
	ropt.source_root = m->source_root;
	ropt.strict = m->opt.strict;
	ropt.follow = m->opt.follow;
	ropt.may_follow = m->opt.may_follow;
	ropt.root_listing = ls;
	pthread_mutex_init(&m->th.lock, NULL);
	pthread_cond_init(&m->th.cond, NULL);
	intern_init(&m->str);
	rows_init(m);
	hosts_index(m, "");
	*st = ops->open(path, &ropt, &m->r, err, errlen);
	if (*st != TD_OK) {
		m->r = NULL;
		model_free(m);
		return NULL;
	}
	take_roots(m);
	return m;
}

size_t
model_roots(struct model *m, const struct safeio_id **ids, const char **real)
{
	*ids = m->roots;
	if (real)
		*real = m->root_real ? m->root_real : m->path;
	return m->nroots;
}

/* The persistent index: m from the cache file when it fits the dump.  A
 * file that failed half way leaves m unusable: a new model replaces it,
 * keeping the reason for model_info. */
static struct model *
model_from_cache(struct model *m, const struct model_options *opt, enum td_status *st,
		 char *err, size_t errlen)
{
	const char *state, *why;
	char reason[200];
	struct model *fresh;

	if (!model_cache_init(m) || model_cache_load(m) != MC_LOAD_BROKEN)
		return m;
	model_cache_get(m, &state, &why);
	snprintf(reason, sizeof reason, "%s", why);
	fresh = model_new(m->ops, m->path, NULL, opt, st, err, errlen);
	model_free(m);
	if (fresh && model_cache_init(fresh))
		model_cache_broken(fresh, reason);
	return fresh;
}

/* model_open_with() with the listing of path detection made, or NULL. */
static enum td_status
open_listed(const struct reader_ops *ops, const char *path, const struct reader_listing *ls,
	    const struct model_options *opt, struct model **out, char *err, size_t errlen)
{
	struct model *m;
	enum td_status st;

	*out = NULL;
	m = model_new(ops, path, ls, opt, &st, err, errlen);
	if (m)
		m = model_from_cache(m, opt, &st, err, errlen);
	if (!m)
		return st;
	if (m->opt.ops_at_open)
		ops_ready(m);   /* no thread runs yet: the lock is uncontended */
	fields_open(m);
	if (m->opt.no_thread) {
		run_pass(m);
		atomic_store(&m->th.done, true);
		if (m->opt.strict && model_has_problems(m)) {
			describe_first_problem(m, err, errlen);
			model_free(m);
			return TD_ERR_CORRUPT;
		}
	} else {
		m->th.requested = true;
		if (pthread_create(&m->th.thread, NULL, index_thread, m) != 0) {
			snprintf(err, errlen, "%s: cannot start the index thread", path);
			model_free(m);
			return TD_ERR_NOMEM;
		}
		m->th.have_thread = true;
	}
	*out = m;
	return TD_OK;
}

enum td_status
model_open_with(const struct reader_ops *ops, const char *path, const struct model_options *opt,
		struct model **out, char *err, size_t errlen)
{
	return open_listed(ops, path, NULL, opt, out, err, errlen);
}

enum td_status
model_open_cache_bytes(const struct reader_ops *ops, const char *path, const void *data,
		       size_t len, struct model **out, char *err, size_t errlen)
{
	struct model_options opt = { .no_thread = true, .cache_rows = 1024 };
	enum td_status st;
	struct model *m = model_new(ops, path, NULL, &opt, &st, err, errlen);

	*out = NULL;
	if (!m)
		return st;
	if (model_cache_apply(m, data, len) != MC_LOAD_OK) {
		const char *state, *why;

		model_cache_get(m, &state, &why);
		snprintf(err, errlen, "%s: cache bytes refused: %s", path, *why ? why : state);
		model_free(m);
		return TD_ERR_CORRUPT;
	}
	run_pass(m);
	atomic_store(&m->th.done, true);
	*out = m;
	return TD_OK;
}

enum td_status
model_open(const char *path, const struct model_options *opt, struct model **out, char *err,
	   size_t errlen)
{
	const struct reader_ops *ops;
	struct reader_listing ls;
	enum td_status rc;
	struct stat st;

	*out = NULL;
	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return errno == ENOENT ? TD_ERR_NOENT : TD_ERR_IO;
	}
	if (opt && opt->format) {
		ops = reader_by_name(opt->format);
		if (!ops) {
			snprintf(err, errlen, "%s: unknown format \"%s\"", path, opt->format);
			return TD_ERR_FORMAT;
		}
		return model_open_with(ops, path, opt, out, err, errlen);
	}
	/* one listing of path for every reader's probe and the chosen open */
	ops = reader_detect_listed(path, &ls, err, errlen);
	rc = ops ? open_listed(ops, path, &ls, opt, out, err, errlen) : TD_ERR_FORMAT;
	reader_listing_done(&ls);
	return rc;
}

/* Waits up to CLOSE_WAIT_MS for a running pass: readers poll the sink's
 * should_stop() between records and give the pass up.  A reader that does
 * not (or is stuck in one long read) must not make quitting wait for ten
 * million records, so past that the thread is detached and frees the
 * model itself when its pass ends (the sink drops records meanwhile). */
#define CLOSE_WAIT_MS 100

void
model_close(struct model *m)
{
	struct timespec until;

	if (!m)
		return;
	if (m->th.have_thread) {
		atomic_store(&m->th.stopping, true);
		pthread_mutex_lock(&m->th.lock);
		m->th.stop = true;
		pthread_cond_broadcast(&m->th.cond);
		pthread_mutex_unlock(&m->th.lock);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += CLOSE_WAIT_MS * 1000000L;
		until.tv_sec += until.tv_nsec / 1000000000L;
		until.tv_nsec %= 1000000000L;
		if (pthread_timedjoin_np(m->th.thread, NULL, &until) != 0) {
			pthread_mutex_lock(&m->th.lock);
			if (!m->th.exited) {
				/* the thread frees m once it sees orphaned: its id is
				 * read before the unlock, never from m after it */
				pthread_t t = m->th.thread;

				m->th.orphaned = true;
				pthread_mutex_unlock(&m->th.lock);
				pthread_detach(t);
				return;
			}
			pthread_mutex_unlock(&m->th.lock);
			pthread_join(m->th.thread, NULL);
		}
	}
	model_free(m);
}

void
model_wait(struct model *m)
{
	if (!m->th.have_thread)
		return;
	pthread_mutex_lock(&m->th.lock);
	while (m->th.requested || m->th.running)
		pthread_cond_wait(&m->th.cond, &m->th.lock);
	pthread_mutex_unlock(&m->th.lock);
}

void
model_refresh(struct model *m)
{
	if (!m->th.have_thread) {
		run_pass(m);
		return;
	}
	pthread_mutex_lock(&m->th.lock);
	m->th.requested = true;
	atomic_store(&m->th.done, false);
	pthread_cond_broadcast(&m->th.cond);
	pthread_mutex_unlock(&m->th.lock);
}

void
model_progress(struct model *m, struct model_progress *p)
{
	memset(p, 0, sizeof(*p));
	p->done = atomic_load(&m->th.done);
	p->bytes_done = atomic_load_explicit(&m->th.bytes_done, memory_order_relaxed);
	p->bytes_total = atomic_load_explicit(&m->th.bytes_total, memory_order_relaxed);
	p->executions = rows_nexecs(m);
	p->traces = rows_ntraces(m);
	p->generation = atomic_load_explicit(&m->th.generation, memory_order_acquire);
}

size_t
model_memory_bytes(struct model *m)
{
	size_t bytes = rows_memory(m), i;

	pthread_mutex_lock(&m->th.lock);
	for (i = 0; i < MODEL_MAX_CHUNKS && m->rows.echunks[i]; i++)
		bytes += MODEL_CHUNK * sizeof(struct exec_row);
	for (i = 0; i < CKPT_MAX_CHUNKS && m->rows.eloc.dir[i]; i++)
		bytes += CKPT_CHUNK * sizeof(struct ckpt);
	bytes += m->str.bytes + m->str.ids.cap * sizeof(struct hashtab_slot);
	bytes += m->ot.capops * sizeof(struct op_entry) + m->ot.ophash.cap * sizeof(struct hashtab_slot);
	bytes += m->src.capframes * sizeof(struct frame_entry);
	bytes += m->src.capsources * sizeof(struct source_entry);
	pthread_mutex_unlock(&m->th.lock);
	return bytes;
}

/* ---- dump facts ---------------------------------------------------------- */

static struct meta_entry *
meta_find(struct model *m, const char *key)
{
	size_t i;

	for (i = 0; i < m->md.nmeta; i++)
		if (strcmp(m->md.meta[i]->key, key) == 0)
			return m->md.meta[i];
	return NULL;
}

/* Copies e into snapshot *s whose values live in vals. */
static void
meta_copy(const struct meta_entry *e, struct model_meta *s, const char **vals)
{
	memcpy(vals, e->values, e->n * sizeof(*vals));
	s->key = e->key;
	s->list = e->list;
	s->values = vals;
	s->nvalues = e->n;
}

const struct model_meta *
model_meta_get(struct model *m, const char *key)
{
	struct meta_entry *e;
	struct model_meta *snap = NULL;

	pthread_mutex_lock(&m->th.lock);
	e = meta_find(m, key);
	if (e) {
		/* a scalar's value is replaced in place: compare the values too */
		if (!e->snap || e->snap->nvalues != e->n ||
		    memcmp(e->snap->values, e->values, e->n * sizeof(*e->values)) != 0) {
			model_graveyard(m, e->snap);
			e->snap = xmalloc(sizeof(*e->snap) + e->n * sizeof(char *));
			meta_copy(e, e->snap, (const char **)(e->snap + 1));
		}
		snap = e->snap;
	}
	pthread_mutex_unlock(&m->th.lock);
	return snap;
}

static const char *
meta_scalar(struct model *m, const char *key)
{
	struct meta_entry *e = meta_find(m, key);

	return e && e->n ? e->values[e->n - 1] : NULL;
}

/* The meta snapshot for model_info (under m->th.lock). */
static void
info_meta(struct model *m, struct model_info *info)
{
	size_t nvals = 0, i, used = 0;
	const char **vals;
	struct meta_entry *hosts = meta_find(m, "host");

	for (i = 0; i < m->md.nmeta; i++)
		nvals += m->md.meta[i]->n;
	free(m->md.info_meta);
	m->md.info_meta = xmalloc(m->md.nmeta * sizeof(struct model_meta) + (nvals + 1) * sizeof(char *));
	vals = (const char **)(m->md.info_meta + m->md.nmeta);
	for (i = 0; i < m->md.nmeta; i++) {
		meta_copy(m->md.meta[i], &m->md.info_meta[i], vals + used);
		used += m->md.meta[i]->n;
	}
	info->meta = m->md.info_meta;
	info->nmeta = m->md.nmeta;
	info->hosts = NULL;
	info->nhosts = 0;
	for (i = 0; hosts && i < m->md.nmeta; i++) {
		if (m->md.meta[i] == hosts) {
			info->hosts = m->md.info_meta[i].values;
			info->nhosts = m->md.info_meta[i].nvalues;
		}
	}
	if (!hosts) {
		/* no "host[]" meta: the hosts files and executions named */
		free(m->md.info_hosts);
		m->md.info_hosts = xcalloc(m->src.nhosts + 1, sizeof(*m->md.info_hosts));
		for (i = 1; i < m->src.nhosts; i++)
			m->md.info_hosts[info->nhosts++] = intern_str(&m->str, m->src.hosts[i]);
		info->hosts = m->md.info_hosts;
	}
}

void
model_info(struct model *m, struct model_info *info)
{
	struct stat st;
	size_t k;

	memset(info, 0, sizeof(*info));
	info->path = m->path;
	info->executions = rows_nexecs(m);
	info->traces = rows_ntraces(m);
	info->alerts = model_alert_count(m);
	pthread_mutex_lock(&m->th.lock);
	info->format = meta_scalar(m, "format");
	if (!info->format)
		info->format = m->ops->name;
	info->tensor_debug_mode = meta_scalar(m, "tensor_debug_mode");
	info->ops = m->ot.nops_filled;
	info->graphs = m->ot.ngraphs;
	info->devices = m->ot.ndevices;
	info->source_files = m->src.nsources;
	info->stack_frames = m->src.nframes;
	for (k = 0; k < PROBLEM_COUNT && k < TD_ARRAY_SIZE(info->problems_by_kind); k++)
		info->problems_by_kind[k] = m->pr.problems_by_kind[k];
	info->torn_files = m->pr.ntorn;
	info->missing_files = m->pr.problems_by_kind[PROBLEM_MISSING_FILE];
	info->corrupt_records = m->pr.problem_total - m->pr.problems_by_kind[PROBLEM_TORN_TAIL] -
				info->missing_files;
	info_meta(m, info);
	pthread_mutex_unlock(&m->th.lock);
	info->no_stacks_why = m->ops->no_stacks;
	info->no_control_why = m->ops->no_control_inputs;
	info->no_attrs_why = m->ops->no_op_attrs;
	model_cache_get(m, &info->index_cache, &info->index_cache_why);
	info->index_cache_path = model_cache_file(m);
	info->index_cache_bytes = -1;
	if (info->index_cache_path && stat(info->index_cache_path, &st) == 0 && S_ISREG(st.st_mode))
		info->index_cache_bytes = (int64_t)st.st_size;
}

bool
model_format_at(size_t i, struct model_format *f)
{
	const struct reader_ops *ops = reader_at(i);

	if (!ops)
		return false;
	f->name = ops->name;
	f->description = ops->description ? ops->description : "";
	f->values_in = ops->values_in;
	return true;
}

bool
model_has_problems(struct model *m)
{
	bool bad;

	pthread_mutex_lock(&m->th.lock);
	bad = m->pr.problem_total > m->pr.problems_by_kind[PROBLEM_TORN_TAIL] +
				 m->pr.problems_by_kind[PROBLEM_MISSING_FILE];
	pthread_mutex_unlock(&m->th.lock);
	return bad;
}

size_t
model_problem_count(struct model *m)
{
	size_t n;

	pthread_mutex_lock(&m->th.lock);
	n = m->pr.nproblems;
	pthread_mutex_unlock(&m->th.lock);
	return n;
}

bool
model_problem_get(struct model *m, size_t i, struct model_problem *p)
{
	bool ok;

	pthread_mutex_lock(&m->th.lock);
	ok = i < m->pr.nproblems;
	if (ok) {
		const struct problem_entry *e = &m->pr.problems[i];

		p->kind = reader_problem_name(e->kind);
		p->path = e->path;
		p->offset = e->offset;
		p->record = e->record;
		p->what = e->what;
		p->detail = e->detail;
	}
	pthread_mutex_unlock(&m->th.lock);
	return ok;
}
