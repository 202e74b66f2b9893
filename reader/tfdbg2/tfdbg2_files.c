/*
 * tfdbg2_files.c - the tfdbg v2 index pass's dump facts and files (FORMAT.md
 * §7.2): the meta keys sent once (format, hosts, versions, run id), the
 * files opened as they appear, announced, reported missing once and added
 * up for progress; and where a problem of a file is filed.
 */
#include "reader/reader.h"

#include <pthread.h>
#include <stdio.h>

#include "reader/reader_report.h"
#include "tfdbg2_internal.h"

static void
meta(const struct reader_sink *sink, const char *key, const char *value)
{
	if (sink->on_meta && value)
		sink->on_meta(sink->ctx, key, value);
}

int64_t
tf2_problem_file(const struct tf2_file *f)
{
	return f && f->announced ? (int64_t)f->id : -1;
}

const char *
tf2_problem_what(const struct tf2_file *f)
{
	return f ? tf2_role_what[f->role] : "dump";
}

void
tf2_send_problem(const struct reader_sink *sink, enum reader_problem_kind kind,
		 const struct tf2_file *f, uint64_t off, int64_t record, const char *detail)
{
	reader_report_problem(sink, kind, tf2_problem_file(f), f ? f->path : NULL, off, record,
			      tf2_problem_what(f), detail);
}

/* ---- dump facts and files --------------------------------------------- */

void
tf2_send_meta(struct reader *r, const struct reader_sink *sink)
{
	struct tf2_set *first = NULL;
	size_t i;

	if (!r->meta_sent)
		meta(sink, "format", "tfdbg2");
	for (i = 0; i < r->nsets; i++) {
		if (!r->sets[i]->usable)
			continue;       /* a problem, not a host */
		if (!r->sets[i]->host_sent)
			meta(sink, "host[]", r->sets[i]->host);
		r->sets[i]->host_sent = true;
		if (!first && r->sets[i]->usable)
			first = r->sets[i];
	}
	if (r->meta_sent || !first)
		return;
	r->meta_sent = true;
	if (first->tf_version[0])
		meta(sink, "tensorflow_version", first->tf_version);
	if (r->run_id[0])
		meta(sink, "run_id", r->run_id);
	if (first->file_version[0])
		meta(sink, "file_version", first->file_version);
}

static void
missing_file(const struct reader_sink *sink, struct tf2_set *s, struct tf2_file *f)
{
	if (f->open_st == TD_ERR_NOENT)
		tf2_problemf(sink, PROBLEM_MISSING_FILE, f, 0, -1,
			"the %s file of host %s is missing; its records are not shown",
			tf2_role_suffix[f->role], s->host);
	else
		tf2_problemf(sink, PROBLEM_UNREADABLE, f, 0, -1,
			"the %s file of host %s cannot be read (%s); its records are not shown",
			tf2_role_suffix[f->role], s->host, f->open_why);
}

void
tf2_send_files(struct reader *r, const struct reader_sink *sink, struct reader_progress *progress)
{
	size_t i;
	int k;

	for (i = 0; i < r->nsets; i++) {
		struct tf2_set *s = r->sets[i];

		if (!s->host_now)
			continue;
		for (k = 0; k < TF2_ROLE_COUNT; k++) {
			struct tf2_file *f = &s->files[k];
			struct reader_file rf;

			if (!f->src) {
				struct source *src = tf2_open_source(f);

				pthread_mutex_lock(&r->lock);
				f->src = src;
				pthread_mutex_unlock(&r->lock);
				if (src)
					tfrecord_cursor_init(&f->cur, src, 0);
			}
			if (!f->src) {
				if (!f->missing_reported)
					missing_file(sink, s, f);
				f->missing_reported = true;
				continue;
			}
			if (k != TF2_METADATA && tf2_check_change(r, sink, s, f) && !f->src)
				continue;
			tfrecord_cursor_refresh(&f->cur);
			progress->total += f->cur.size;
			progress->done += TD_MIN(f->cur.off, f->cur.size);
			if (f->announced)
				continue;
			f->announced = true;
			rf = (struct reader_file){ .id = f->id, .path = f->path, .size = f->cur.size,
						   .host = s->host, .role = tf2_role_suffix[k] };
			if (sink->on_file)
				sink->on_file(sink->ctx, &rf);
		}
	}
}
