/*
 * tfdbg2_follow.c - the tfdbg v2 reader in follow mode: file sets and
 * files that change between index passes (issue 13).
 *
 * A set whose metadata record cannot be read (an empty file its writer
 * has just created) is a problem, not a host, until the record is there.
 * A file read before that is truncated (a restarted job reopening it),
 * renamed over (the path names another inode) or rewritten in place (its
 * first 4 KiB changed) is retired: its rows stay, marked stale (decode
 * says TD_ERR_STALE rather than decoding other bytes under their names),
 * a problem says what happened, and the file is read again from its start
 * under a new file id.  Appending is the normal case and costs one stat
 * per file and pass.  Not here: the index pass itself (tfdbg2_index.c).
 */
#include "reader/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/crc32c.h"
#include "tfdbg2_internal.h"

/* A file set whose metadata record cannot be read is a problem, not a
 * host: only its metadata file is announced, and the reason is reported
 * once (again when it changes).  Follow mode retries the record each pass;
 * once it reads, the set's files are opened.  Returns true when s is a
 * host to index. */
bool
tf2_set_is_host(struct reader *r, const struct reader_sink *sink, struct tf2_set *s)
{
	struct tf2_file *m = &s->files[TF2_METADATA];
	int k;

	if (!s->usable && !s->unusable_why && !s->foreign)
		tf2_retry_metadata(s);
	if (s->usable && s->run_id[0] && r->run_id[0] && strcmp(s->run_id, r->run_id)) {
		s->usable = false;
		s->foreign = true;
		s->unusable_why = xstrdup("file set of another tfdbg run; ignored");
	}
	if (s->usable) {
		for (k = 0; !s->opened && k < TF2_ROLE_COUNT; k++)
			if (!s->files[k].src)
				tf2_open_file(&s->files[k]);
		s->opened = true;
		return true;
	}
	if (m->src && !m->announced) {
		struct reader_file rf = { .id = m->id, .path = m->path, .size = source_known_size(m->src),
					  .role = tf2_role_suffix[TF2_METADATA] };

		m->announced = true;
		if (sink->on_file)
			sink->on_file(sink->ctx, &rf);
	}
	if (s->unusable_why && (!s->unusable_said || strcmp(s->unusable_said, s->unusable_why))) {
		char detail[512];

		snprintf(detail, sizeof detail, "%s; this file set is not read", s->unusable_why);
		tf2_send_problem(sink, !m->src && m->open_st == TD_ERR_NOENT ? PROBLEM_MISSING_FILE :
				 PROBLEM_UNREADABLE, m, 0, 0, detail);
		free(s->unusable_said);
		s->unusable_said = s->unusable_why;
	} else {
		free(s->unusable_why);
	}
	s->unusable_why = NULL;
	return false;
}

/* ---- files that change under the index --------------------------------- */

/* Bytes of a file's start whose CRC tells a rewrite from growth: the first
 * records (a FULL_HEALTH trace is ~240 bytes). */
#define SIG_BYTES 4096

/* CRC32C of the first len bytes of src; false when they cannot be read. */
static bool
head_sig(struct source *src, uint64_t len, uint32_t *sig)
{
	unsigned char buf[SIG_BYTES];
	ssize_t got = source_read(src, 0, buf, (size_t)len);

	if (got != (ssize_t)len)
		return false;
	*sig = crc32c(buf, (size_t)len);
	return true;
}

void
tf2_take_sig(struct tf2_file *f)
{
	uint64_t want = TD_MIN((uint64_t)SIG_BYTES, f->indexed_end);

	if (f->src && want > f->sig_len && head_sig(f->src, want, &f->sig))
		f->sig_len = want;
}

bool
tf2_check_change(struct reader *r, const struct reader_sink *sink, struct tf2_set *s,
		 struct tf2_file *f)
{
	uint64_t size, end = __atomic_load_n(&f->indexed_end, __ATOMIC_ACQUIRE);
	enum source_change ch;
	char what[160], detail[512];
	int64_t mtime;
	uint32_t sig;

	if (!f->announced || !f->src)
		return false;
	ch = source_check(f->src, &size, &mtime);
	if (ch == SOURCE_SAME && size == f->seen_size && mtime == f->seen_mtime)
		return false;   /* untouched since the last pass: nothing read */
	f->seen_size = size;
	f->seen_mtime = mtime;
	if (ch == SOURCE_REPLACED)
		snprintf(what, sizeof what, "file replaced (another file renamed over it)");
	else if (ch == SOURCE_SAME && size < end)
		snprintf(what, sizeof what, "file truncated from %llu indexed bytes to %llu",
			 (unsigned long long)end, (unsigned long long)size);
	else if (ch == SOURCE_SAME && f->sig_len &&
		 (!head_sig(f->src, f->sig_len, &sig) || sig != f->sig))
		snprintf(what, sizeof what, "file rewritten (its first %llu bytes changed)",
			 (unsigned long long)f->sig_len);
	else
		return false;   /* growing, unchanged, or deleted (the open file still reads) */
	snprintf(detail, sizeof detail, "%s: its %llu earlier records are stale (kept, values "
		 "gone); read again from the start; the %s file of host %s", what, (unsigned long long)f->cur.index, tf2_role_suffix[f->role], s->host);
	tf2_send_problem(sink, PROBLEM_INCONSISTENT, f, 0, -1, detail);
	tf2_torn_resolved(sink, f, UINT64_MAX);
	tf2_retire_file(r, s, f);
	return true;
}

void
tf2_retire_file(struct reader *r, struct tf2_set *s, struct tf2_file *f)
{
	struct tf2_file *old = xmalloc(sizeof(*old));
	struct source *src;
	size_t i;

	if (f->role == TF2_SOURCE_FILES) {
		/* read again from the start: file_index counts from 0 again */
		for (i = 0; i < s->nsources; i++)
			free(s->source_paths[i]);
		s->nsources = 0;
	}
	tfrecord_cursor_done(&f->cur);
	source_retire(f->src);          /* in-flight decodes of old rows fail */
	pthread_mutex_lock(&r->lock);
	*old = *f;
	old->stale = true;
	old->path = xstrdup(f->path);
	r->files[f->id] = old;
	TD_GROW(r->files, r->filecap, r->nfiles + 1);
	f->id = (uint32_t)r->nfiles;
	r->files[r->nfiles++] = f;
	f->src = NULL;
	f->skips = NULL;
	f->nskips = f->skipcap = 0;
	f->indexed_end = 0;
	pthread_mutex_unlock(&r->lock);
	f->announced = f->missing_reported = false;
	f->torn_reported = 0;
	f->sig = 0;
	f->seen_size = 0;
	f->seen_mtime = 0;
	f->sig_len = 0;
	memset(&f->cur, 0, sizeof f->cur);
	src = tf2_open_source(f);
	pthread_mutex_lock(&r->lock);
	f->src = src;
	pthread_mutex_unlock(&r->lock);
	if (src)
		tfrecord_cursor_init(&f->cur, src, 0);
}
