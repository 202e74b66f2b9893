/*
 * tfdbg2.c - the tfdbg v2 reader: a dump root of DebugEvent TFRecord file
 * sets, one per host (FORMAT.md §1-§4 and §7).
 *
 * This file finds the file sets (by the literal "tfdbg_events." prefix and
 * the known suffixes, never by splitting on '.': host names contain dots),
 * reads each set's metadata record, orders the sets by its wall_time,
 * refuses mixed runs, and implements probe, open, advance and close.  The
 * index pass is in tfdbg2_index.c, decode() in tfdbg2_decode.c.  Files are
 * only ever opened read-only.
 */
#include "reader/reader.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader_listing.h"
#include "reader/reader_report.h"
#include "tf_debug_event.pb-c.h"
#include "tfdbg2_internal.h"

#define TF2_PREFIX "tfdbg_events."
#define TF2_META_SUFFIX ".metadata"
/* advance() reads headers through a window of about 256 bytes per record
 * to step over (a FULL_HEALTH trace is ~240), within these bounds. */
#define ADVANCE_WINDOW_MIN 1024
#define ADVANCE_WINDOW_MAX 65536
/* ... and about one record more, so that the record stepped onto is
 * usually in the window too (the hand-over below). */
#define ADVANCE_WINDOW_MORE 512
#define HANDOFF_MAX 1024        /* longer records are read again */

const char *const tf2_role_suffix[TF2_ROLE_COUNT] = {
	"metadata", "source_files", "stack_frames", "graphs", "execution",
	"graph_execution_traces",
};

/* True when name is tfdbg_events.<something>.metadata. */
static bool
is_metadata_name(const char *name)
{
	size_t len = strlen(name), pl = strlen(TF2_PREFIX), sl = strlen(TF2_META_SUFFIX);

	return len > pl + sl && strncmp(name, TF2_PREFIX, pl) == 0 &&
	       strcmp(name + len - sl, TF2_META_SUFFIX) == 0;
}

static int
tfdbg2_probe_list(const char *dir, const struct reader_listing *ls)
{
	size_t i;

	(void)dir;
	for (i = 0; i < ls->n; i++)
		if (is_metadata_name(ls->v[i].name))
			return 100;
	return 0;
}

static int
tfdbg2_probe(const char *dir)
{
	return reader_listing_probe(dir, tfdbg2_probe_list);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The metadata file names in dir, sorted; NULL-terminated, caller frees. */
static char **
list_metadata(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (!is_metadata_name(e->d_name))
			continue;
		TD_GROW(names, cap, *n + 1);
		names[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		td_sort(names, *n, sizeof(*names), cmp_str);
	return names;
}

/* Host part of tfdbg_events.<T>.<H>.metadata: the text after the digits of
 * T and one dot (H may contain dots). */
static char *
host_of(const char *name)
{
	const char *p = name + strlen(TF2_PREFIX), *end = name + strlen(name) - strlen(TF2_META_SUFFIX);
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q > p && q < end && *q == '.')
		p = q + 1;
	return xstrndup(p, (size_t)(end - p));
}

/* Reads record 0 of the metadata file into the set. */
static void
read_metadata(struct tf2_set *s)
{
	struct tf2_file *f = &s->files[TF2_METADATA];
	Tensorflow__DebugEvent *ev;
	unsigned char *buf;
	enum td_status st;
	size_t len;

	if (!f->src) {
		s->unusable_why = xasprintf("cannot open the metadata file: %s", f->open_why);
		return;
	}
	st = tfrecord_read_at(f->src, 0, &buf, &len);
	if (st == TD_ERR_RANGE) {
		s->unusable_why = xstrdup("the metadata file is empty (no DebugMetadata record): "
					  "not a host until its writer writes one");
		return;
	}
	if (st != TD_OK) {
		s->unusable_why = xasprintf("metadata record 0: %s", td_strerror(st));
		return;
	}
	ev = tensorflow__debug_event__unpack(NULL, len, buf);
	free(buf);
	if (!ev || ev->what_case != TENSORFLOW__DEBUG_EVENT__WHAT_DEBUG_METADATA) {
		s->unusable_why = xstrdup(ev ? "record 0 is not a DebugMetadata event"
					     : "record 0 does not decode as a DebugEvent");
		if (ev)
			tensorflow__debug_event__free_unpacked(ev, NULL);
		return;
	}
	s->wall_time = ev->wall_time;
	s->run_id = xstrdup(ev->debug_metadata->tfdbg_run_id);
	s->tf_version = xstrdup(ev->debug_metadata->tensorflow_version);
	s->file_version = xstrdup(ev->debug_metadata->file_version);
	s->usable = true;
	tensorflow__debug_event__free_unpacked(ev, NULL);
}

struct source *
tf2_open_source(struct tf2_file *f)
{
	struct source *src = source_open_file(f->path, &f->open_st, f->open_why, sizeof f->open_why);

	if (src)
		f->open_why[0] = '\0';
	return src;
}

void
tf2_open_file(struct tf2_file *f)
{
	f->src = tf2_open_source(f);
	if (f->src)
		tfrecord_cursor_init(&f->cur, f->src, 0);
}

void
tf2_retry_metadata(struct tf2_set *s)
{
	struct tf2_file *f = &s->files[TF2_METADATA];

	if (s->usable)
		return;
	if (!f->src)
		tf2_open_file(f);
	free(s->unusable_why);
	s->unusable_why = NULL;
	read_metadata(s);
}

/* A set for metadata file name: paths of the six files, opened when they
 * exist.  File ids are assigned later by register_set(). */
static struct tf2_set *
make_set(const char *dir, const char *name)
{
	struct tf2_set *s = xcalloc(1, sizeof(*s));
	size_t plen = strlen(name) - strlen(TF2_META_SUFFIX);
	int k;

	s->host = host_of(name);
	for (k = 0; k < TF2_ROLE_COUNT; k++) {
		struct tf2_file *f = &s->files[k];
		f->role = (enum tf2_role)k;
		f->path = xasprintf("%s/%.*s.%s", dir, (int)plen, name, tf2_role_suffix[k]);
	}
	tf2_open_file(&s->files[TF2_METADATA]);
	read_metadata(s);
	/* a set without its metadata record is no host (yet): its other files
	 * are opened by the index pass once the record is there */
	for (k = 0; s->usable && k < TF2_ROLE_COUNT; k++)
		if (k != TF2_METADATA)
			tf2_open_file(&s->files[k]);
	return s;
}

static void
free_set(struct tf2_set *s)
{
	size_t i;
	int k;

	if (!s)
		return;
	for (k = 0; k < TF2_ROLE_COUNT; k++) {
		tfrecord_cursor_done(&s->files[k].cur);
		source_close(s->files[k].src);
		free(s->files[k].path);
		free(s->files[k].skips);
	}
	for (i = 0; i < s->nsources; i++)
		free(s->source_paths[i]);
	free(s->source_paths);
	free(s->source_ids);
	for (i = 0; i < s->npending; i++) {
		free(s->pending[i].id);
		free(s->pending[i].func);
	}
	free(s->pending);
	for (i = 0; i < s->ndevices; i++)
		free(s->devices[i].name);
	free(s->devices);
	free(s->host);
	free(s->run_id);
	free(s->tf_version);
	free(s->file_version);
	free(s->unusable_why);
	free(s->unusable_said);
	free(s);
}

/* Appends s to the reader and gives its files ids (under the lock). */
static void
register_set(struct reader *r, struct tf2_set *s)
{
	int k;

	pthread_mutex_lock(&r->lock);
	TD_GROW(r->sets, r->setcap, r->nsets + 1);
	r->sets[r->nsets++] = s;
	TD_GROW(r->files, r->filecap, r->nfiles + TF2_ROLE_COUNT);
	for (k = 0; k < TF2_ROLE_COUNT; k++) {
		s->files[k].id = (uint32_t)r->nfiles;
		r->files[r->nfiles++] = &s->files[k];
	}
	pthread_mutex_unlock(&r->lock);
}

static int
cmp_set_time(const void *a, const void *b)
{
	const struct tf2_set *x = *(struct tf2_set *const *)a, *y = *(struct tf2_set *const *)b;

	/* sets without readable metadata go last */
	if (x->usable != y->usable)
		return x->usable ? -1 : 1;
	return (x->wall_time > y->wall_time) - (x->wall_time < y->wall_time);
}

/* FORMAT.md §7.1: several sets must share one run id.  Empty ids (older TF)
 * are tolerated; two different non-empty ids are a mixed directory. */
static bool
check_run_ids(struct tf2_set **sets, size_t n, char **run_id, char *err, size_t errlen)
{
	size_t i;

	*run_id = NULL;
	for (i = 0; i < n; i++) {
		if (!sets[i]->usable || !sets[i]->run_id[0])
			continue;
		if (*run_id && strcmp(*run_id, sets[i]->run_id) != 0) {
			snprintf(err, errlen, "file sets of different runs in one directory "
				 "(tfdbg run ids \"%s\" and \"%s\", host %s); open one run's files at a time",
				 *run_id, sets[i]->run_id, sets[i]->host);
			return false;
		}
		*run_id = sets[i]->run_id;
	}
	return true;
}

static bool
set_known(struct reader *r, const char *path)
{
	size_t i;

	for (i = 0; i < r->nsets; i++)
		if (strcmp(r->sets[i]->files[TF2_METADATA].path, path) == 0)
			return true;
	return false;
}

void
tf2_discover(struct reader *r, const struct reader_sink *sink)
{
	size_t n, i;
	char **names = list_metadata(r->dir, &n);

	for (i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", r->dir, names[i]);
		struct tf2_set *s;

		if (!set_known(r, path)) {
			s = make_set(r->dir, names[i]);
			if (s->usable && s->run_id[0] && r->run_id[0] && strcmp(s->run_id, r->run_id)) {
				reader_report_problem(sink, PROBLEM_INCONSISTENT, -1, path, 0, 0,
						      "debug_metadata",
						      "file set of another tfdbg run; ignored");
				free_set(s);
			} else {
				register_set(r, s);
			}
		}
		free(path);
		free(names[i]);
	}
	free(names);
}

static enum td_status
tfdbg2_open(const char *dir, const struct reader_options *opt, struct reader **out,
	    char *err, size_t errlen)
{
	struct tf2_set **sets;
	struct reader *r;
	char **names, *run_id;
	size_t n, i;

	(void)opt;
	*out = NULL;
	names = list_metadata(dir, &n);
	if (!n) {
		snprintf(err, errlen, "%s: no tfdbg_events.*.metadata file (not a tfdbg v2 dump)", dir);
		free(names);
		return TD_ERR_FORMAT;
	}
	sets = xcalloc(n, sizeof(*sets));
	for (i = 0; i < n; i++) {
		sets[i] = make_set(dir, names[i]);
		free(names[i]);
	}
	free(names);
	td_sort(sets, n, sizeof(*sets), cmp_set_time);
	if (!check_run_ids(sets, n, &run_id, err, errlen)) {
		for (i = 0; i < n; i++)
			free_set(sets[i]);
		free(sets);
		return TD_ERR_FORMAT;
	}
	r = xcalloc(1, sizeof(*r));
	pthread_mutex_init(&r->lock, NULL);
	r->dir = xstrdup(dir);
	r->run_id = xstrdup(run_id ? run_id : "");
	for (i = 0; i < n; i++)
		register_set(r, sets[i]);
	free(sets);
	*out = r;
	return TD_OK;
}

static void
tfdbg2_close(struct reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nfiles; i++) {
		struct tf2_file *f = r->files[i];

		if (f->stale) {         /* retired copies are the reader's own */
			source_close(f->src);
			free(f->path);
			free(f->skips);
			free(f);
		}
	}
	for (i = 0; i < r->nsets; i++)
		free_set(r->sets[i]);
	free(r->sets);
	free(r->files);
	free(r->run_id);
	free(r->dir);
	pthread_mutex_destroy(&r->lock);
	free(r);
}

struct tf2_file *
tf2_file_by_id(struct reader *r, uint32_t id)
{
	struct tf2_file *f = NULL;

	pthread_mutex_lock(&r->lock);
	if (id < r->nfiles)
		f = r->files[id];
	pthread_mutex_unlock(&r->lock);
	return f;
}

struct tf2_set *
tf2_set_of_file(struct reader *r, const struct tf2_file *f)
{
	struct tf2_set *s = NULL;
	size_t i;

	pthread_mutex_lock(&r->lock);
	for (i = 0; i < r->nsets && !s; i++)
		if (f >= r->sets[i]->files && f < r->sets[i]->files + TF2_ROLE_COUNT)
			s = r->sets[i];
	pthread_mutex_unlock(&r->lock);
	return s;
}

void
tf2_add_skip(struct reader *r, struct tf2_file *f, uint64_t from, uint64_t to)
{
	pthread_mutex_lock(&r->lock);
	/* the index pass moves forward, so entries arrive in order */
	TD_GROW(f->skips, f->skipcap, f->nskips + 1);
	f->skips[f->nskips].from = from;
	f->skips[f->nskips].to = to;
	f->nskips++;
	pthread_mutex_unlock(&r->lock);
}

/* Past the records the index skipped (bad CRC, undecodable) that start at
 * next: where the next row really starts. */
static uint64_t
past_skips(struct reader *r, struct tf2_file *f, uint64_t next)
{
	size_t lo, hi;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		lo = 0;
		hi = f->nskips;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (f->skips[mid].from < next)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == f->nskips || f->skips[lo].from != next)
			break;
		next = f->skips[lo].to;
	}
	pthread_mutex_unlock(&r->lock);
	return next;
}

uint64_t
tf2_next_row(struct reader *r, struct tf2_file *f, uint64_t record_end)
{
	uint64_t next = past_skips(r, f, record_end);

	return next < __atomic_load_n(&f->indexed_end, __ATOMIC_ACQUIRE) ? next : 0;
}

/* The record the last advance() on this thread stepped onto, when its
 * window held all of it: the model decodes a row right after advancing a
 * locator to it (model_rows.c rows_locate), and takes its bytes from here
 * instead of a second read.  Keyed by the source's serial (never reused)
 * and the offset, and given up by the next tf2_read_record() or advance
 * on the thread, used or not: bytes that young are no older than the read
 * they replace. */
static _Thread_local struct {
	uint64_t serial, off;
	size_t len;                     /* 0: none */
	unsigned char rec[HANDOFF_MAX];
} handoff;

static void
handoff_put(const struct source *src, uint64_t off, const unsigned char *p, size_t avail)
{
	uint64_t n;

	handoff.len = 0;
	if (avail < TFRECORD_HEADER || !tfrecord_header(p, &n) ||
	    n > HANDOFF_MAX - TFRECORD_HEADER - TFRECORD_FOOTER ||
	    n + TFRECORD_HEADER + TFRECORD_FOOTER > avail)
		return;
	handoff.serial = source_serial(src);
	handoff.off = off;
	handoff.len = (size_t)n + TFRECORD_HEADER + TFRECORD_FOOTER;
	memcpy(handoff.rec, p, handoff.len);
}

enum td_status
tf2_read_record(struct source *src, uint64_t off, unsigned char **data, size_t *len)
{
	bool mine = handoff.len && handoff.serial == source_serial(src) && handoff.off == off;
	size_t n = handoff.len;

	handoff.len = 0;
	if (mine && tfrecord_take(handoff.rec, n, data, len) == TD_OK)
		return TD_OK;
	return tfrecord_read_at(src, off, data, len);
}

/* Steps *off over n rows of f, reading the headers through one window of
 * about n records (one pread for a short step, no stat): only rows the
 * index framed (below indexed_end) are walked.  The record stepped onto is
 * handed to the next tf2_read_record() of this thread when the window
 * holds it. */
static enum td_status
advance_file(struct reader *r, struct tf2_file *f, struct source *src, uint64_t *offp, uint64_t n)
{
	unsigned char win[ADVANCE_WINDOW_MAX];
	uint64_t off = *offp, end = __atomic_load_n(&f->indexed_end, __ATOMIC_ACQUIRE);
	uint64_t wbase = 0, len;
	size_t wlen = 0;

	handoff.len = 0;
	while (n > 0) {
		if (off >= end || end - off < TFRECORD_HEADER)
			return TD_ERR_RANGE;
		if (off < wbase || off + TFRECORD_HEADER > wbase + wlen) {
			uint64_t want = TD_MIN(n, (uint64_t)ADVANCE_WINDOW_MAX / 256) * 256 + TFRECORD_HEADER +
					ADVANCE_WINDOW_MORE;
			ssize_t got;

			want = TD_MIN(TD_MAX(want, (uint64_t)ADVANCE_WINDOW_MIN), (uint64_t)sizeof win);
			got = source_read(src, off, win, (size_t)TD_MIN(want, end - off));

			if (got < (ssize_t)TFRECORD_HEADER)
				return got < 0 ? TD_ERR_IO : TD_ERR_RANGE;
			wbase = off;
			wlen = (size_t)got;
		}
		if (!tfrecord_header(win + (off - wbase), &len))
			return TD_ERR_CORRUPT;
		off = past_skips(r, f, off + TFRECORD_HEADER + len + TFRECORD_FOOTER);
		if (off >= end)
			return TD_ERR_RANGE;
		n--;
	}
	if (off >= wbase && off < wbase + wlen)
		handoff_put(src, off, win + (off - wbase), wlen - (size_t)(off - wbase));
	*offp = off;
	return TD_OK;
}

static enum td_status
tfdbg2_advance(struct reader *r, enum reader_kind kind, struct td_locator *loc, uint64_t n)
{
	struct tf2_file *f = tf2_file_by_id(r, loc->file);
	struct source *src;

	if (!f)
		return TD_ERR_RANGE;
	if (f->stale)
		return TD_ERR_STALE;
	if ((kind == READER_TRACE && f->role != TF2_TRACES) ||
	    (kind == READER_EXECUTION && f->role != TF2_EXECUTION) || kind == READER_SOURCE)
		return TD_ERR_ARGS;
	pthread_mutex_lock(&r->lock);
	src = f->id == loc->file ? f->src : NULL;
	pthread_mutex_unlock(&r->lock);
	if (!src)
		return f->id == loc->file ? TD_ERR_RANGE : TD_ERR_STALE;
	return advance_file(r, f, src, &loc->offset, n);
}

static enum td_status
tfdbg2_index(struct reader *r, const struct reader_sink *sink)
{
	return tf2_index(r, sink);
}

static enum td_status
tfdbg2_decode(struct reader *r, enum reader_kind kind, const struct td_locator *loc,
	      struct reader_detail *out)
{
	return tf2_decode(r, kind, loc, out);
}

const struct reader_ops tfdbg2_reader_ops = {
	.name = "tfdbg2",
	.looks_for = "tfdbg_events.*.metadata files (tfdbg v2)",
	.description = "TensorFlow Debugger V2 (tfdbg v2): tfdbg_events.* DebugEvent file sets",
	.values_in = "FULL_TENSOR",
	.no_control_inputs = "tfdbg v2 op creation records list data inputs only, "
			     "not control inputs",
	.no_op_attrs = "tfdbg v2 op creation records carry no attributes or output types "
		       "(type, device, inputs, outputs and stack only)",
	.flags = READER_ROWS_TIME_ORDERED,
	.probe = tfdbg2_probe,
	.probe_list = tfdbg2_probe_list,
	.open = tfdbg2_open,
	.index = tfdbg2_index,
	.decode = tfdbg2_decode,
	.decode_summary = tf2_decode_summary,
	.decode_outputs = tf2_decode_outputs,
	.advance = tfdbg2_advance,
	.close = tfdbg2_close,
	.save_state = tf2_save_state,
	.load_state = tf2_load_state,
};
