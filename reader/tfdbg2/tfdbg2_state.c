/*
 * tfdbg2_state.c - the tfdbg v2 reader's resume state (reader.h
 * save_state / load_state), which the model keeps with its cached index.
 *
 * The state is what the index pass keeps between passes: per file set its
 * source list, pending frames and devices; per file its cursor (offset,
 * record count, torn-tail bookkeeping), the records it skipped and how far
 * rows exist; for the reader what dump facts it sent.  A state fits a
 * freshly opened reader when that reader lists the saved file sets first,
 * in the same order (sets that appeared since sort after them, being newer)
 * and every file that was open still is, at least as long.  Not here: the
 * decision whether the files are unchanged (the model compares
 * fingerprints before it asks for load_state).
 *
 * The state starts with its own version (TF2_STATE_VERSION), apart from
 * the cache file's: a change of what is saved here is bumped here, and a
 * state of another version is refused (the model then indexes afresh).
 */
#include "reader/reader.h"

#include <stdlib.h>
#include <string.h>

#include "reader/base/serial.h"
#include "tfdbg2_internal.h"

/* 1: the first with a version (issue 23); bump on any change below. */
#define TF2_STATE_VERSION 1u

/* A file set's path as the state holds it: below the dump's folder, so
 * the same dump opened by another path (relative, absolute, through a
 * link) resumes from the same state. */
static const char *
rel_path(const struct reader *r, const char *p)
{
	size_t n = strlen(r->dir);

	return strncmp(p, r->dir, n) == 0 && p[n] == '/' ? p + n + 1 : p;
}

static void
save_file(const struct tf2_file *f, struct strbuf *o)
{
	size_t i;

	ser_put_u8(o, f->src != NULL);
	ser_put_u64(o, f->cur.off);
	ser_put_u64(o, f->cur.index);
	ser_put_u8(o, f->cur.stopped);
	ser_put_u64(o, f->cur.torn_at);
	ser_put_u64(o, f->cur.torn_scanned);
	ser_put_u8(o, f->announced);
	ser_put_u8(o, f->missing_reported);
	ser_put_u64(o, f->torn_reported);
	ser_put_u64(o, f->indexed_end);
	ser_put_u64(o, f->nskips);
	for (i = 0; i < f->nskips; i++) {
		ser_put_u64(o, f->skips[i].from);
		ser_put_u64(o, f->skips[i].to);
	}
}

static void
save_set(const struct reader *r, const struct tf2_set *s, struct strbuf *o)
{
	size_t i;
	int k;

	ser_put_str(o, rel_path(r, s->files[TF2_METADATA].path));
	ser_put_u8(o, s->host_sent);
	ser_put_u64(o, s->nsources);
	for (i = 0; i < s->nsources; i++) {
		ser_put_u32(o, s->source_ids[i]);
		ser_put_str(o, s->source_paths[i]);
	}
	ser_put_u64(o, s->npending);
	for (i = 0; i < s->npending; i++) {
		ser_put_str(o, s->pending[i].id);
		ser_put_u32(o, (uint32_t)s->pending[i].file_index);
		ser_put_u32(o, s->pending[i].line);
		ser_put_str(o, s->pending[i].func);
	}
	ser_put_u64(o, s->ndevices);
	for (i = 0; i < s->ndevices; i++) {
		ser_put_u32(o, (uint32_t)s->devices[i].id);
		ser_put_str(o, s->devices[i].name);
	}
	for (k = 0; k < TF2_ROLE_COUNT; k++)
		save_file(&s->files[k], o);
}

void
tf2_save_state(struct reader *r, struct strbuf *o)
{
	size_t i;

	pthread_mutex_lock(&r->lock);
	ser_put_u32(o, TF2_STATE_VERSION);
	ser_put_str(o, r->run_id);
	ser_put_u32(o, r->next_source_id);
	ser_put_u8(o, r->meta_sent);
	ser_put_u8(o, r->mode_sent);
	ser_put_u64(o, r->nsets);
	for (i = 0; i < r->nsets; i++)
		save_set(r, r->sets[i], o);
	pthread_mutex_unlock(&r->lock);
}

/* The skips of a file: sorted, each a forward step inside end. */
static bool
load_skips(struct ser_in *in, struct tf2_file *f, uint64_t end)
{
	uint64_t n = ser_get_count(in, 16), i, last = 0;

	if (in->bad)
		return false;
	f->nskips = 0;
	for (i = 0; i < n; i++) {
		uint64_t from = ser_get_u64(in), to = ser_get_u64(in);

		if (in->bad || from < last || to <= from || to > end)
			return false;
		TD_GROW(f->skips, f->skipcap, f->nskips + 1);
		f->skips[f->nskips].from = from;
		f->skips[f->nskips].to = to;
		f->nskips++;
		last = to;
	}
	return true;
}

/* Whether every record the saved passes skipped is still no whole valid
 * record.  A torn last record whose length ran past the end may have had
 * whole records inside the part written (a tensor holding TFRecord
 * frames): the pass then took those as the next records.  Once the file
 * grew and the record is whole, a fresh index reads it as one row, so the
 * saved rows would differ: the state is refused (the model indexes
 * afresh). */
static bool
skips_still_bad(struct tf2_file *f)
{
	struct tfrecord_cursor c;
	uint64_t found;
	bool ok = true;
	size_t i;

	tfrecord_cursor_init(&c, f->src, 0);
	for (i = 0; i < f->nskips && ok; i++)
		ok = !tfrecord_find(&c, f->skips[i].from, f->skips[i].from + 1, &found);
	tfrecord_cursor_done(&c);
	return ok;
}

static bool
load_file(struct ser_in *in, struct tf2_file *f)
{
	bool had_src = ser_get_u8(in) != 0;
	uint64_t off = ser_get_u64(in), index = ser_get_u64(in);
	bool stopped = ser_get_u8(in) != 0;
	uint64_t torn_at = ser_get_u64(in), torn_scanned = ser_get_u64(in);
	bool announced = ser_get_u8(in) != 0, missing = ser_get_u8(in) != 0;
	uint64_t torn_reported = ser_get_u64(in), indexed_end = ser_get_u64(in);

	if (in->bad || (had_src && !f->src))
		return false;
	if (had_src) {
		uint64_t size = source_size(f->src);

		if (off > size || indexed_end > off || torn_reported > size + 1)
			return false;
		tfrecord_cursor_init(&f->cur, f->src, off);
		f->cur.index = index;
		f->cur.stopped = stopped;
		f->cur.torn_at = torn_at;
		f->cur.torn_scanned = torn_scanned;
		f->announced = announced;
		f->torn_reported = torn_reported;
		f->indexed_end = indexed_end;
	} else if (off || announced || indexed_end) {
		return false;           /* a file never opened has no position */
	}
	f->missing_reported = missing;
	return load_skips(in, f, had_src ? f->cur.size : 0) && (!had_src || skips_still_bad(f));
}

static bool
load_sources(struct ser_in *in, struct tf2_set *s, uint32_t next_id)
{
	uint64_t n = ser_get_count(in, 9), i;

	for (i = 0; i < n && !in->bad; i++) {
		uint32_t id = ser_get_u32(in);
		const char *path = ser_get_str(in);
		size_t was = s->sourcecap;

		if (!path || id >= next_id)
			return false;
		TD_GROW(s->source_ids, s->sourcecap, s->nsources + 1);
		if (s->sourcecap != was)
			s->source_paths = xrealloc(s->source_paths, s->sourcecap * sizeof(*s->source_paths));
		s->source_ids[s->nsources] = id;
		s->source_paths[s->nsources++] = xstrdup(path);
	}
	return !in->bad;
}

static bool
load_pending(struct ser_in *in, struct tf2_set *s)
{
	uint64_t n = ser_get_count(in, 18), i;

	for (i = 0; i < n && !in->bad; i++) {
		const char *id = ser_get_str(in);
		int32_t idx = (int32_t)ser_get_u32(in);
		uint32_t line = ser_get_u32(in);
		const char *func = ser_get_str(in);

		if (!id || !func || idx < 0)
			return false;
		TD_GROW(s->pending, s->pendingcap, s->npending + 1);
		s->pending[s->npending++] = (struct tf2_pending_frame){
			.id = xstrdup(id), .file_index = idx, .line = line, .func = xstrdup(func),
		};
	}
	return !in->bad;
}

static bool
load_devices(struct ser_in *in, struct tf2_set *s)
{
	uint64_t n = ser_get_count(in, 9), i;

	for (i = 0; i < n && !in->bad; i++) {
		int32_t id = (int32_t)ser_get_u32(in);
		const char *name = ser_get_str(in);

		if (!name)
			return false;
		TD_GROW(s->devices, s->devicecap, s->ndevices + 1);
		s->devices[s->ndevices].id = id;
		s->devices[s->ndevices++].name = xstrdup(name);
	}
	return !in->bad;
}

static bool
load_set(const struct reader *r, struct ser_in *in, struct tf2_set *s, uint32_t next_id)
{
	const char *meta_path = ser_get_str(in);
	int k;

	if (!meta_path || strcmp(meta_path, rel_path(r, s->files[TF2_METADATA].path)) != 0 ||
	    s->nsources || s->npending || s->ndevices)
		return false;
	s->host_sent = ser_get_u8(in) != 0;
	/* the saved passes reported an unusable set already */
	free(s->unusable_why);
	s->unusable_why = NULL;
	if (!load_sources(in, s, next_id) || !load_pending(in, s) || !load_devices(in, s))
		return false;
	for (k = 0; k < TF2_ROLE_COUNT; k++)
		if (!load_file(in, &s->files[k]))
			return false;
	return true;
}

bool
tf2_load_state(struct reader *r, const void *data, size_t len)
{
	struct ser_in in;
	const char *run_id;
	uint64_t nsets, i;
	bool ok;

	ser_in_init(&in, data, len);
	if (ser_get_u32(&in) != TF2_STATE_VERSION)
		return false;
	run_id = ser_get_str(&in);
	r->next_source_id = ser_get_u32(&in);
	r->meta_sent = ser_get_u8(&in) != 0;
	r->mode_sent = ser_get_u8(&in) != 0;
	nsets = ser_get_count(&in, 1);
	if (in.bad || !run_id || strcmp(run_id, r->run_id) != 0 || nsets > r->nsets)
		return false;
	pthread_mutex_lock(&r->lock);
	ok = true;
	for (i = 0; i < nsets && ok; i++)
		ok = load_set(r, &in, r->sets[i], r->next_source_id);
	pthread_mutex_unlock(&r->lock);
	return ok && ser_in_done(&in);
}
