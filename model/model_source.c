/*
 * model_source.c - stack frames, source files and decoded row details.
 *
 * Frames are interned by their id string; an op names its creation stack by
 * those ids, and since a reader may send frames after the ops that use them,
 * the ids are resolved when asked (model_op_get, model_*_detail).  Source
 * text is decoded from the dump once, on first use, and kept; text from disk
 * is read only on request (model_source_load_disk), never while indexing.
 */
#include "model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model_cache.h"
#include "reader/base/fileio.h"

#define SOURCE_MAX_BYTES TD_SIDE_FILE_MAX   /* the side-file limit (README: Limits) */

void
frames_done(struct model *m)
{
	size_t i, j;

	free(m->src.frames);
	hashtab_u64_done(&m->src.frame_by_sid);
	for (i = 0; i < m->src.nsources; i++) {
		for (j = 0; j < m->src.sources[i].nline_ptrs; j++)
			free(m->src.sources[i].lines[j]);
		free(m->src.sources[i].lines);
		free(m->src.sources[i].known);
	}
	free(m->src.sources);
	hashtab_u64_done(&m->src.source_by_rid);
}

static bool
frame_index(struct model *m, uint32_t sid, uint32_t *out)
{
	uint64_t v;

	if (!hashtab_u64_get(&m->src.frame_by_sid, sid, &v))
		return false;
	*out = (uint32_t)v;
	return true;
}

void
frames_resolve_op(struct model *m, struct op_entry *o)
{
	struct op_more *x = o->more;
	uint32_t *stack;
	size_t i, n = 0;

	if (!x || x->nstack == x->nframes)
		return;
	stack = xmalloc((x->nframes + 1) * sizeof(*stack));
	for (i = 0; i < x->nframes; i++)
		if (frame_index(m, x->frame_sids[i], &stack[n]))
			n++;
	if (n <= x->nstack) {
		free(stack);
		return;
	}
	model_graveyard(m, x->stack);   /* a caller may still hold the old one */
	x->stack = stack;
	x->nstack = (uint32_t)n;
}

void
frames_resolve_sids(struct model *m, char *const *ids, size_t n, uint32_t **out, size_t *nout)
{
	size_t i, k = 0;

	*out = xmalloc((n + 1) * sizeof(**out));
	for (i = 0; i < n; i++) {
		uint32_t sid = intern_find(&m->str, ids[i] ? ids[i] : "");

		if (sid != NO_ID && frame_index(m, sid, &(*out)[k]))
			k++;
	}
	*nout = k;
}

uint32_t
model_frame_count(struct model *m)
{
	uint32_t n;

	pthread_mutex_lock(&m->th.lock);
	n = (uint32_t)m->src.nframes;
	pthread_mutex_unlock(&m->th.lock);
	return n;
}

static int64_t
source_find_locked(struct model *m, const char *path, const char *host);

bool
model_frame_get(struct model *m, uint32_t id, struct model_frame *f)
{
	bool ok;
	uint64_t s;

	pthread_mutex_lock(&m->th.lock);
	ok = id < m->src.nframes;
	if (ok) {
		const struct frame_entry *e = &m->src.frames[id];

		memset(f, 0, sizeof(*f));
		f->id = id;
		f->file = e->file;
		f->host = e->host;
		f->func = e->func;
		f->code = e->code;
		f->line = e->line;
		f->user_code = e->user_code;
		if (e->source_id >= 0 && hashtab_u64_get(&m->src.source_by_rid, (uint64_t)e->source_id, &s))
			f->source = (int64_t)s;
		else
			f->source = source_find_locked(m, e->file, *e->host ? e->host : NULL);
	}
	pthread_mutex_unlock(&m->th.lock);
	return ok;
}

/* ---- sources ----------------------------------------------------------- */

uint32_t
model_source_count(struct model *m)
{
	uint32_t n;

	pthread_mutex_lock(&m->th.lock);
	n = (uint32_t)m->src.nsources;
	pthread_mutex_unlock(&m->th.lock);
	return n;
}

bool
model_source_get(struct model *m, uint32_t i, struct model_source *s)
{
	bool ok;

	pthread_mutex_lock(&m->th.lock);
	ok = i < m->src.nsources;
	if (ok) {
		const struct source_entry *e = &m->src.sources[i];

		s->index = i;
		s->host = e->host;
		s->path = e->path;
		s->nlines = e->loaded ? e->nline_ptrs : e->nlines;
		s->in_dump = e->in_dump;
		s->partial = e->known != NULL;
	}
	pthread_mutex_unlock(&m->th.lock);
	return ok;
}

/* a ends with b at a path boundary */
static bool
path_suffix(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (!lb || lb > la || strcmp(a + la - lb, b) != 0)
		return false;
	return la == lb || b[0] == '/' || a[la - lb - 1] == '/';
}

static int64_t
source_find_locked(struct model *m, const char *path, const char *host)
{
	int64_t found = -1;
	size_t i;

	for (i = 0; i < m->src.nsources; i++)
		if (strcmp(m->src.sources[i].path, path) == 0 &&
		    (!host || strcmp(m->src.sources[i].host, host) == 0))
			return (int64_t)i;
	for (i = 0; i < m->src.nsources; i++) {
		const char *p = m->src.sources[i].path;

		if (host && strcmp(m->src.sources[i].host, host) != 0)
			continue;
		if (!path_suffix(p, path) && !path_suffix(path, p))
			continue;
		if (found >= 0 && strcmp(m->src.sources[found].path, p) != 0)
			return -1;      /* ambiguous */
		if (found < 0)
			found = (int64_t)i;
	}
	return found;
}

int64_t
model_source_find(struct model *m, const char *path, const char *host)
{
	int64_t i;

	pthread_mutex_lock(&m->th.lock);
	i = source_find_locked(m, path, host && *host ? host : NULL);
	pthread_mutex_unlock(&m->th.lock);
	return i;
}

/* A partial text: remembers which lines are known and fills the gaps
 * with "" (callers get a line for every number). */
static void
source_mark_known(struct source_entry *e, char **lines, size_t n)
{
	e->known = xcalloc(n ? n : 1, 1);
	for (size_t k = 0; k < n; k++) {
		e->known[k] = lines[k] != NULL;
		if (!lines[k])
			lines[k] = xstrdup("");
	}
}

bool
model_source_line_known(struct model *m, uint32_t i, uint64_t line)
{
	bool known = false;

	pthread_mutex_lock(&m->th.lock);
	if (i < m->src.nsources) {
		const struct source_entry *e = &m->src.sources[i];

		known = e->loaded && line < e->nline_ptrs && (!e->known || e->known[line]);
	}
	pthread_mutex_unlock(&m->th.lock);
	return known;
}

enum td_status
model_source_lines(struct model *m, uint32_t i, const char *const **lines, size_t *n)
{
	struct reader_detail d = {0};
	struct td_locator loc;
	struct source_entry *e;
	enum td_status st;

	pthread_mutex_lock(&m->th.lock);
	if (i >= m->src.nsources) {
		pthread_mutex_unlock(&m->th.lock);
		return TD_ERR_RANGE;
	}
	e = &m->src.sources[i];
	if (!e->loaded && (!e->in_dump || e->failed)) {
		pthread_mutex_unlock(&m->th.lock);
		return TD_ERR_NOTFOUND;
	}
	if (!e->loaded) {
		loc = e->loc;
		pthread_mutex_unlock(&m->th.lock);
		st = m->ops->decode(m->r, READER_SOURCE, &loc, &d);
		pthread_mutex_lock(&m->th.lock);
		e = &m->src.sources[i];
		if (st != TD_OK) {
			e->failed = true;
			pthread_mutex_unlock(&m->th.lock);
			reader_detail_done(&d);
			return TD_ERR_NOTFOUND;
		}
		if (!e->loaded) {
			if (d.lines_partial)
				source_mark_known(e, d.lines, d.nlines);
			e->lines = d.lines;
			e->nline_ptrs = d.nlines;
			e->loaded = true;
			d.lines = NULL;
			d.nlines = 0;
		}
		reader_detail_done(&d);
	}
	*lines = (const char *const *)e->lines;
	*n = e->nline_ptrs;
	pthread_mutex_unlock(&m->th.lock);
	return TD_OK;
}

/* Reads a whole file into lines; TD_ERR_* with err set. */
static enum td_status
read_lines(const char *file, char ***out, size_t *n, char *err, size_t errlen)
{
	char *buf, *p, *end;
	size_t cap = 0, got;
	enum td_status st;

	*out = NULL;
	*n = 0;
	/* read-only, non-blocking on a FIFO, regular files only */
	if ((st = td_read_file(file, SOURCE_MAX_BYTES, &buf, &got, err, errlen)) != TD_OK)
		return st;
	end = buf + got;
	for (p = buf; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (len && p[len - 1] == '\r')
			len--;
		TD_GROW(*out, cap, *n + 1);
		(*out)[(*n)++] = xstrndup(p, len);
		p = nl ? nl + 1 : end;
	}
	free(buf);
	return TD_OK;
}

/* Tries root + each suffix of path; TD_ERR_NOENT if none is there. */
static enum td_status
read_under(const char *root, const char *path, char ***lines, size_t *n, char *err, size_t errlen)
{
	const char *p;
	char *cand;

	for (p = path; p; p = strchr(p + 1, '/')) {
		const char *suffix = *p == '/' ? p + 1 : p;

		if (!*suffix)
			break;
		cand = xasprintf("%s/%s", root, suffix);
		enum td_status st = read_lines(cand, lines, n, err, errlen);
		free(cand);
		if (st == TD_OK)
			return st;
	}
	snprintf(err, errlen, "%s: no file of that name under %s", path, root);
	return TD_ERR_NOENT;
}

/* Tries source_root + each suffix of path, then path itself. */
static enum td_status
read_remapped(struct model *m, const char *path, char ***lines, size_t *n, char *err, size_t errlen)
{
	if (m->source_root && *m->source_root &&
	    read_under(m->source_root, path, lines, n, err, errlen) == TD_OK)
		return TD_OK;
	return read_lines(path, lines, n, err, errlen);
}

/* Puts lines in source e, handing its old text to the graveyard (callers
 * may hold it); the lock is held. */
static void
source_replace_locked(struct model *m, struct source_entry *e, char **lines, size_t n)
{
	if (e->loaded) {
		for (size_t k = 0; k < e->nline_ptrs; k++)
			model_graveyard(m, e->lines[k]);
		model_graveyard(m, e->lines);
	}
	free(e->known);
	e->known = NULL;
	e->lines = lines;
	e->nline_ptrs = e->nlines = n;
	e->loaded = true;
	e->failed = false;
}

enum td_status
model_source_load_from(struct model *m, const char *path, const char *from, uint32_t *index,
		       char *err, size_t errlen)
{
	struct stat st;
	char **lines;
	size_t n, i;
	enum td_status rc;

	if (stat(from, &st) == 0 && S_ISDIR(st.st_mode))
		rc = read_under(from, path, &lines, &n, err, errlen);
	else
		rc = read_lines(from, &lines, &n, err, errlen);
	if (rc != TD_OK)
		return rc;
	pthread_mutex_lock(&m->th.lock);
	for (i = 0; i < m->src.nsources && strcmp(m->src.sources[i].path, path) != 0; i++)
		;
	if (i == m->src.nsources) {
		TD_GROW(m->src.sources, m->src.capsources, m->src.nsources + 1);
		memset(&m->src.sources[i], 0, sizeof(m->src.sources[i]));
		m->src.sources[i].host = "";
		m->src.sources[i].path = intern_str(&m->str, intern_add(&m->str, path));
		m->src.sources[i].reader_id = UINT32_MAX;
		m->src.nsources++;
	}
	source_replace_locked(m, &m->src.sources[i], lines, n);
	*index = (uint32_t)i;
	pthread_mutex_unlock(&m->th.lock);
	return TD_OK;
}

enum td_status
model_source_load_disk(struct model *m, const char *path, uint32_t *index, char *err, size_t errlen)
{
	char **lines;
	size_t n, i;
	enum td_status st;
	struct source_entry *e;

	pthread_mutex_lock(&m->th.lock);
	for (i = 0; i < m->src.nsources; i++) {
		if (strcmp(m->src.sources[i].path, path) == 0 && m->src.sources[i].loaded) {
			*index = (uint32_t)i;
			pthread_mutex_unlock(&m->th.lock);
			return TD_OK;
		}
	}
	pthread_mutex_unlock(&m->th.lock);
	st = read_remapped(m, path, &lines, &n, err, errlen);
	if (st != TD_OK)
		return st;
	pthread_mutex_lock(&m->th.lock);
	TD_GROW(m->src.sources, m->src.capsources, m->src.nsources + 1);
	e = &m->src.sources[m->src.nsources];
	memset(e, 0, sizeof(*e));
	e->host = "";
	e->path = intern_str(&m->str, intern_add(&m->str, path));
	e->reader_id = UINT32_MAX;
	e->lines = lines;
	e->nline_ptrs = e->nlines = n;
	e->loaded = true;
	*index = (uint32_t)m->src.nsources++;
	pthread_mutex_unlock(&m->th.lock);
	return TD_OK;
}

/* ---- details ----------------------------------------------------------------- */

/* Moves what d owns into md and resolves its stack. */
static void
detail_take(struct model *m, struct reader_detail *d, struct model_detail *md)
{
	md->mode = d->mode;
	md->device = d->device;
	md->host = d->host;
	md->wall_time = d->wall_time;
	md->noutputs = d->noutputs;
	md->summaries = d->summaries;
	md->values = d->values;
	md->debug_values = d->debug_values;
	md->ndebug_values = d->ndebug_values;
	md->text = d->text;
	md->input_tensor_ids = d->input_tensor_ids;
	md->output_tensor_ids = d->output_tensor_ids;
	md->ninput_ids = d->ninput_ids;
	md->noutput_ids = d->noutput_ids;
	md->call_parent = d->call_parent;
	md->call_children = d->call_children;
	md->ncall_children = d->ncall_children;
	d->call_parent = NULL;
	d->call_children = NULL;
	d->ncall_children = 0;
	md->args = d->args;
	md->nargs = d->nargs;
	d->args = NULL;
	d->nargs = 0;
	md->stats.stats = d->stats.stats;
	memcpy(md->stats.written, d->stats.written, sizeof md->stats.written);
	memcpy(md->stats.v, d->stats.v, sizeof md->stats.v);
	pthread_mutex_lock(&m->th.lock);
	frames_resolve_sids(m, d->frame_ids, d->nframes, &md->stack, &md->nstack);
	pthread_mutex_unlock(&m->th.lock);
	d->mode = d->device = d->host = d->text = NULL;
	d->summaries = NULL;
	d->values = NULL;
	d->debug_values = NULL;
	d->ndebug_values = NULL;
	d->input_tensor_ids = d->output_tensor_ids = NULL;
	d->noutputs = d->ninput_ids = d->noutput_ids = 0;
	reader_detail_done(d);
}

static void
detail_op_stack(struct model *m, uint32_t op, struct model_detail *md)
{
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	if (op < m->ot.nops) {
		const struct op_more *x = m->ot.opv[op].more;
		size_t n;

		frames_resolve_op(m, &m->ot.opv[op]);
		n = x ? x->nstack : 0;
		free(md->stack);
		md->stack = xmalloc((n + 1) * sizeof(*md->stack));
		if (n)                          /* stack is NULL when empty */
			memcpy(md->stack, x->stack, n * sizeof(*md->stack));
		md->nstack = n;
	}
	pthread_mutex_unlock(&m->th.lock);
}

/* Why a row could not be read: TD_ERR_STALE when the reader says the file
 * changed since the row was indexed (follow mode; loc is the row's, or a
 * row's before it in the same file when the step to it failed), else
 * TD_ERR_CORRUPT. */
static enum td_status
row_failure(struct model *m, enum reader_kind kind, const struct td_locator *loc,
	    enum td_status st)
{
	struct reader_detail d = {0};

	if (st == TD_ERR_STALE)
		return st;
	if (st == TD_OK)        /* the row was not located: ask about its file */
		st = m->ops->decode(m->r, kind, loc, &d);
	reader_detail_done(&d);
	return st == TD_ERR_STALE ? TD_ERR_STALE : TD_ERR_CORRUPT;
}

enum td_status
model_trace_detail(struct model *m, uint64_t i, struct model_detail *md)
{
	enum td_status st = TD_OK;
	struct reader_detail d = {0};
	struct td_locator loc;

	memset(md, 0, sizeof(*md));
	if (i >= rows_ntraces(m))
		return TD_ERR_RANGE;
	loc = (struct td_locator){ UINT32_MAX, 0 };
	if (!rows_locate(m, &m->rows.tloc, READER_TRACE, i, &loc) ||
	    (st = m->ops->decode(m->r, READER_TRACE, &loc, &d)) != TD_OK) {
		reader_detail_done(&d);
		rows_mark_corrupt(m, i);
		return row_failure(m, READER_TRACE, &loc, st);
	}
	model_cache_check_data(m, i, loc.file, d.data_ctime_ns);
	detail_take(m, &d, md);
	if (!md->nstack)
		detail_op_stack(m, trace_op(m, i), md);
	if (!md->host || !*md->host) {
		free(md->host);
		pthread_mutex_lock(&m->th.lock);
		md->host = xstrdup(rows_trace_host(m, i));
		pthread_mutex_unlock(&m->th.lock);
	}
	return TD_OK;
}

static enum td_status
execution_detail(struct model *m, uint64_t i, struct model_detail *md, bool outputs_only)
{
	enum td_status st = TD_OK;
	struct reader_detail d = {0};
	struct td_locator loc;

	memset(md, 0, sizeof(*md));
	if (i >= rows_nexecs(m))
		return TD_ERR_RANGE;
	loc = (struct td_locator){ UINT32_MAX, 0 };
	if (!rows_locate(m, &m->rows.eloc, READER_EXECUTION, i, &loc) ||
	    (st = outputs_only && m->ops->decode_outputs ?
	     m->ops->decode_outputs(m->r, &loc, &d) :
	     m->ops->decode(m->r, READER_EXECUTION, &loc, &d)) != TD_OK) {
		reader_detail_done(&d);
		__atomic_fetch_or(&exec_row(m, i)->flags, ROW_CORRUPT, __ATOMIC_RELAXED);
		return row_failure(m, READER_EXECUTION, &loc, st);
	}
	detail_take(m, &d, md);
	if (!md->host || !*md->host) {
		free(md->host);
		pthread_mutex_lock(&m->th.lock);
		md->host = xstrdup(intern_str(&m->str, m->src.hosts[exec_row(m, i)->host]));
		pthread_mutex_unlock(&m->th.lock);
	}
	return TD_OK;
}

enum td_status
model_execution_detail(struct model *m, uint64_t i, struct model_detail *md)
{
	return execution_detail(m, i, md, false);
}

enum td_status
model_execution_outputs(struct model *m, uint64_t i, struct model_detail *md)
{
	return execution_detail(m, i, md, true);
}

void
model_detail_done(struct model_detail *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->noutputs; i++) {
		if (d->values)
			td_tensor_free(d->values[i]);
		if (d->debug_values)
			free(d->debug_values[i]);
	}
	free(d->values);
	free(d->debug_values);
	free(d->ndebug_values);
	free(d->summaries);
	free(d->mode);
	free(d->device);
	free(d->host);
	free(d->stack);
	free(d->text);
	free(d->input_tensor_ids);
	free(d->output_tensor_ids);
	free(d->call_parent);
	for (i = 0; i < d->ncall_children; i++)
		free(d->call_children[i]);
	free(d->call_children);
	td_args_free(d->args, d->nargs);
	memset(d, 0, sizeof(*d));
}
