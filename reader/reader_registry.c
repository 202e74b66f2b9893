/*
 * reader_registry.c - the table of readers and format detection by content.
 */
#include "reader.h"
#include "reader_listing.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Where a hint looks: dumps at most HINT_DEPTH levels below a directory
 * (HINT_DIRS directories probed at most, HINT_SHOW named), the enclosing
 * dump of a file at most HINT_UP levels up. */
#define HINT_DEPTH 2
#define HINT_DIRS 256
#define HINT_SHOW 8
#define HINT_UP 8

static const struct reader_ops *const readers[] = {
	&tfdbg2_reader_ops,
	&tfdbg1_reader_ops,
	&mindspore_reader_ops,
	&msprobe_reader_ops,
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

/* Reader i's score for dir, from ls, the listing of dir (empty when dir
 * could not be listed), when the reader takes one. */
static int
probe_one(size_t i, const char *dir, const struct reader_listing *ls)
{
	if (readers[i]->probe_list)
		return readers[i]->probe_list(dir, ls);
	return readers[i]->probe(dir);
}

static bool
probe_any(const char *dir)
{
	struct reader_listing ls;
	struct stat st;
	bool hit = false;
	size_t i;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return false;
	reader_listing_make(dir, &ls);
	for (i = 0; i < TD_ARRAY_SIZE(readers) && !hit; i++)
		hit = probe_one(i, dir, &ls) > 0;
	reader_listing_done(&ls);
	return hit;
}

struct found {
	char **v;
	size_t n, cap;
	int probed;
};

/* Collects the dumps found below dir (depth levels at most). */
static void
find_below(const char *dir, int depth, struct found *f)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while (f->probed < HINT_DIRS && (de = readdir(d))) {
		struct stat st;
		char *sub;

		if (de->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", dir, de->d_name);
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			f->probed++;
			if (probe_any(sub)) {
				TD_GROW(f->v, f->cap, f->n + 1);
				f->v[f->n++] = sub;
				continue;
			}
			if (depth > 1)
				find_below(sub, depth - 1, f);
		}
		free(sub);
	}
	closedir(d);
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The outermost directory that opens as a dump among the nearest run of
 * ancestors of file that do; NULL if none within HINT_UP levels. */
static char *
enclosing_dump(const char *file)
{
	char *p = xstrdup(file), *best = NULL, *slash;
	int up;

	for (up = 0; up < HINT_UP && (slash = strrchr(p, '/')); up++) {
		if (slash == p)
			slash[1] = '\0';       /* "/" */
		else
			*slash = '\0';
		if (probe_any(p)) {
			free(best);
			best = xstrdup(p);
		} else if (best) {
			break;
		}
		if (!strcmp(p, "/"))
			break;
	}
	if (!best && !strchr(file, '/') && probe_any("."))
		best = xstrdup(".");
	free(p);
	return best;
}

void
reader_open_hint(const char *path, char *hint, size_t hintlen)
{
	struct stat st;
	struct strbuf sb = {0};
	struct found f = {0};
	size_t i;

	hint[0] = '\0';
	if (stat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		char *dump = enclosing_dump(path);

		if (dump)
			snprintf(hint, hintlen, "it is a file of the dump in %s: open that directory",
				 dump);
		free(dump);
		return;
	}
	find_below(path, HINT_DEPTH, &f);
	td_sort(f.v, f.n, sizeof(*f.v), cmp_path);
	for (i = 0; i < f.n && i < HINT_SHOW; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", f.v[i]);
	if (f.n == 1)
		snprintf(hint, hintlen, "a dump is below it: open %s", sb.buf);
	else if (f.n > HINT_SHOW)
		snprintf(hint, hintlen, "%zu dumps are below it (%s, ...): open one of them", f.n,
			 sb.buf);
	else if (f.n)
		snprintf(hint, hintlen, "%zu dumps are below it (%s): open one of them", f.n, sb.buf);
	for (i = 0; i < f.n; i++)
		free(f.v[i]);
	free(f.v);
	strbuf_done(&sb);
}

/* why += "; " + the hint for path, if there is one. */
static void
add_hint(const char *path, char *why, size_t whylen)
{
	char hint[2048];
	size_t n = strlen(why);

	reader_open_hint(path, hint, sizeof hint);
	if (*hint && n + 2 < whylen)
		snprintf(why + n, whylen - n, "; %s", hint);
}

const struct reader_ops *
reader_detect(const char *dir, char *why, size_t whylen)
{
	struct reader_listing ls;
	const struct reader_ops *ops = reader_detect_listed(dir, &ls, why, whylen);

	reader_listing_done(&ls);
	return ops;
}

const struct reader_ops *
reader_detect_listed(const char *dir, struct reader_listing *ls, char *why, size_t whylen)
{
	const struct reader_ops *best = NULL;
	int best_score = 0;
	struct stat st;
	size_t i;

	memset(ls, 0, sizeof(*ls));
	if (stat(dir, &st) != 0) {
		snprintf(why, whylen, "%s: no such file or directory", dir);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s: not a directory (tdbg opens a dump directory)", dir);
		add_hint(dir, why, whylen);
		return NULL;
	}
	reader_listing_make(dir, ls);   /* empty when dir cannot be listed */
	for (i = 0; i < TD_ARRAY_SIZE(readers); i++) {
		int score = probe_one(i, dir, ls);

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
		add_hint(dir, why, whylen);
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
	free(d->debug_op);
	free(d->prefix);
	free(d->call_parent);
	for (i = 0; i < d->ncall_children; i++)
		free(d->call_children[i]);
	free(d->call_children);
	td_args_free(d->args, d->nargs);
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
