/*
 * reader_registry.c - the table of readers and format detection by content.
 */
#include "reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct reader_ops *const readers[] = {
	&tfdbg2_reader_ops,
	&tfdbg1_reader_ops,
	&mindspore_reader_ops,
};

static const char *const problem_names[] = {
#define TD_PROBLEM_NAME(id, name, text) name,
	PROBLEM_INFO(TD_PROBLEM_NAME)
#undef TD_PROBLEM_NAME
};

static const char *const problem_texts[] = {
#define TD_PROBLEM_TEXT(id, name, text) text,
	PROBLEM_INFO(TD_PROBLEM_TEXT)
#undef TD_PROBLEM_TEXT
};

static const char *const alert_names[] = {
#define TD_ALERT_NAME(id, name, text) name,
	READER_ALERT_INFO(TD_ALERT_NAME)
#undef TD_ALERT_NAME
};

static const char *const alert_texts[] = {
#define TD_ALERT_TEXT(id, name, text) text,
	READER_ALERT_INFO(TD_ALERT_TEXT)
#undef TD_ALERT_TEXT
};

const char *
reader_alert_name(enum reader_alert_kind kind)
{
	return (unsigned)kind < READER_ALERT_COUNT ? alert_names[kind] : "Alert";
}

const char *
reader_alert_text(enum reader_alert_kind kind)
{
	return (unsigned)kind < READER_ALERT_COUNT ? alert_texts[kind] : "unknown alert";
}

const char *
reader_problem_name(enum reader_problem_kind kind)
{
	return (unsigned)kind < PROBLEM_COUNT ? problem_names[kind] : "unknown";
}

const char *
reader_problem_text(enum reader_problem_kind kind)
{
	return (unsigned)kind < PROBLEM_COUNT ? problem_texts[kind] : "unknown problem";
}

const struct reader_ops *
reader_detect(const char *dir, char *why, size_t whylen)
{
	const struct reader_ops *best = NULL;
	int best_score = 0;
	struct stat st;
	size_t i;

	if (stat(dir, &st) != 0) {
		snprintf(why, whylen, "%s: no such file or directory", dir);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s: not a directory (tdbg opens a dump directory)", dir);
		return NULL;
	}
	for (i = 0; i < TD_ARRAY_SIZE(readers); i++) {
		int score = readers[i]->probe(dir);

		if (score > best_score) {
			best_score = score;
			best = readers[i];
		}
	}
	if (!best) {
		struct strbuf sb = {0};

		strbuf_addf(&sb, "%s: not a dump tdbg can read; looked for", dir);
		for (i = 0; i < TD_ARRAY_SIZE(readers); i++)
			strbuf_addf(&sb, "%s %s (%s)", i ? ";" : "",
				    readers[i]->looks_for, readers[i]->name);
		snprintf(why, whylen, "%s", sb.buf);
		strbuf_done(&sb);
	}
	return best;
}

const struct reader_ops *
reader_at(size_t i)
{
	return i < TD_ARRAY_SIZE(readers) ? readers[i] : NULL;
}

const struct reader_ops *
reader_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(readers); i++)
		if (strcmp(readers[i]->name, name) == 0)
			return readers[i];
	return NULL;
}

void
reader_detail_done(struct reader_detail *d)
{
	size_t i;

	if (!d)
		return;
	free(d->op_name);
	free(d->op_type);
	free(d->graph_id);
	free(d->device);
	free(d->host);
	free(d->mode);
	free(d->summaries);
	for (i = 0; i < d->noutputs; i++) {
		if (d->values)
			td_tensor_free(d->values[i]);
		if (d->debug_values)
			free(d->debug_values[i]);
	}
	free(d->values);
	free(d->debug_values);
	free(d->ndebug_values);
	for (i = 0; i < d->nframes; i++)
		free(d->frame_ids[i]);
	free(d->frame_ids);
	free(d->text);
	for (i = 0; i < d->nlines; i++)
		free(d->lines[i]);
	free(d->lines);
	free(d->input_tensor_ids);
	free(d->output_tensor_ids);
	memset(d, 0, sizeof(*d));
}
