/*
 * ms_decode.c - what the MindSpore reader gives back on demand: decode()
 * of trace rows (the .npy / bin value and its summary), executions and
 * source files (from disk, remapped by --source-root, else the lines the
 * .ir trace lines recorded), advance(); and the index-time bookkeeping of
 * sources and frames those rely on.  Problems are reported through
 * ms_problem().
 */
#include "ms_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader/base/fileio.h"
#include "reader/parse/npy.h"
#include "reader/reader_report.h"

/* ---- problems, sources, frames ------------------------------------------ */

void
ms_problem(const struct reader_sink *sink, enum reader_problem_kind kind, const char *path,
	   const char *what, const char *detail)
{
	reader_report_problem(sink, kind, -1, path, 0, -1, what, detail);
}

static int64_t
source_for(struct reader *r, const char *host, const char *path)
{
	char *key = xasprintf("%s\t%s", host, path);
	bool added;
	size_t id = td_strpool_id(&r->source_keys, key, &added);

	free(key);
	if (added) {
		TD_GROW(r->sources, r->capsources, r->nsources + 1);
		memset(&r->sources[r->nsources], 0, sizeof(r->sources[0]));
		r->sources[r->nsources].host = host;
		r->sources[r->nsources].path = xstrdup(path);
		r->nsources++;
	}
	return (int64_t)id;
}

/* Remembers the code the .ir recorded for a line of a source (interned,
 * sparse; the per-dump budget bounds the memory whatever the numbers). */
static void
source_note_line(struct reader *r, struct ms_source *s, uint32_t line, const char *code)
{
	if (!line || !code || line > MS_SOURCE_LINE_MAX || r->nsource_lines >= MS_SOURCE_LINES_MAX)
		return;
	TD_GROW(s->lines, s->caplines, s->nlines + 1);
	s->lines[s->nlines++] = (struct ms_src_line){ line, code };
	s->maxline = TD_MAX(s->maxline, line);
	r->nsource_lines++;
}

static const char *
frame_for(struct reader *r, const char *host, const struct ms_frame *f)
{
	char *key = xasprintf("%s\t%s\t%u\t%s", host, f->file, f->line, f->code ? f->code : "");
	bool added;
	size_t id = td_strpool_id(&r->frame_keys, key, &added);
	struct ms_frame_rec *rec;
	char idbuf[32];

	free(key);
	if (!added)
		return r->frames[id].id;
	TD_GROW(r->frames, r->capframes, r->nframes + 1);
	rec = &r->frames[r->nframes++];
	snprintf(idbuf, sizeof idbuf, "ms%zu", id);
	rec->id = td_strpool_add(&r->strs, idbuf);
	rec->host = host;
	rec->file = td_strpool_add(&r->strs, f->file);
	rec->code = f->code ? td_strpool_add(&r->strs, f->code) : NULL;
	rec->line = f->line;
	rec->source = source_for(r, host, f->file);
	source_note_line(r, &r->sources[rec->source], f->line, rec->code);
	return rec->id;
}

size_t
ms_node_frames(struct reader *r, const char *host, const struct ms_node *n, const char ***ids)
{
	size_t i;

	*ids = xcalloc(n->nframes ? n->nframes : 1, sizeof(**ids));
	for (i = 0; i < n->nframes; i++)
		(*ids)[i] = frame_for(r, host, &n->frames[i]);
	return n->nframes;
}

/* ---- decode ------------------------------------------------------------ */

/* What decode needs of one entry, copied under the lock. */
struct entry_copy {
	struct ms_entry e;
	uint64_t task, stream;
	char *path;                 /* its data file, or NULL */
	char *stat_path;            /* its run's statistic.csv */
	uint64_t stat_size;         /* ms_run.stat_size, .stat_mtime */
	int64_t stat_mtime;
	const char *host, *graph_id;
	char *label;
};

static bool
entry_copy(struct reader *r, const struct td_locator *loc, struct entry_copy *c)
{
	bool ok = false;

	memset(c, 0, sizeof(*c));
	pthread_mutex_lock(&r->lock);
	if (loc->file < r->nruns && loc->offset < r->runs[loc->file].n &&
	    ms_run_unpack(r, &r->runs[loc->file])) {
		const struct ms_run *src = &r->runs[loc->file];

		c->e = src->entries[loc->offset];
		c->task = ms_entry_task(src, (size_t)loc->offset);
		c->stream = ms_entry_stream(src, (size_t)loc->offset);
		c->path = ms_entry_path(src, &c->e);
		c->stat_path = xasprintf("%s/statistic.csv", src->path);
		c->stat_size = src->stat_size;
		c->stat_mtime = src->stat_mtime;
		c->host = src->host;
		c->graph_id = src->graph_id;
		c->label = xstrdup(src->label);
		ok = true;
	}
	pthread_mutex_unlock(&r->lock);
	return ok;
}

static void
entry_copy_done(struct entry_copy *c)
{
	free(c->path);
	free(c->stat_path);
	free(c->label);
}

/* The summary of the row's statistic.csv line, read again; the line must
 * still be the row's (§7 join keys), else the file changed since. */
static enum td_status
summary_from_line(const struct entry_copy *c, struct td_summary *s)
{
	struct ms_stat_row row;
	char err[512] = "";
	enum td_status rc = ms_stat_read_row(c->stat_path, c->stat_size, c->stat_mtime,
					     ms_entry_line(&c->e), &row, err, sizeof err);

	if (rc != TD_OK)
		return rc;
	if (row.ts != c->e.ts || row.is_input != c->e.is_input || row.slot != c->e.slot ||
	    (c->e.kind == MS_ENTRY_STAT && (row.task != c->task || row.stream != c->stream)))
		rc = TD_ERR_CORRUPT;
	else
		*s = row.summary;
	ms_stat_row_done(&row);
	return rc;
}

/* The summary the index pass had for the row, from the same source by the
 * same code (ms_run.c): the statistic.csv line, else the data file. */
static enum td_status
entry_summary(const struct entry_copy *c, struct td_summary *s)
{
	char err[256];

	memset(s, 0, sizeof(*s));
	if (ms_entry_line(&c->e) != MS_NO_LINE)
		return summary_from_line(c, s);
	if (!c->path)
		return TD_ERR_CORRUPT;
	if (c->e.kind == MS_ENTRY_NPY) {
		npy_summarize_file(c->path, (enum td_dtype)c->e.hint, s, err, sizeof err);
	} else {
		struct ms_bin b;
		size_t i;

		if (ms_bin_read(c->path, &b, err, sizeof err) != TD_OK)
			return TD_OK;       /* unreadable now: nothing known */
		for (i = 0; i < b.n; i++)
			if (b.t[i].is_input == c->e.is_input && b.t[i].slot == c->e.slot)
				ms_bin_summary(c->path, &b.t[i], s);
		ms_bin_done(&b);
	}
	return TD_OK;                /* a data file unreadable now: as the pass had it */
}

/* The full value of an entry, when the file is small enough; *ctime_ns
 * gets the file's status-change time from the stat that sizes it (0 when
 * it cannot be had, or for a file of the constants/ folder, which is not
 * the run's announced folder): reader_detail.data_ctime_ns. */
static struct td_tensor *
entry_value(const struct ms_entry *e, const char *path, struct strbuf *text, int64_t *ctime_ns)
{
	struct td_tensor *t = NULL;
	char err[256] = "";
	struct stat st;
	enum td_status rc = TD_ERR_NOENT;

	*ctime_ns = 0;
	if (!path)
		return NULL;
	if (stat(path, &st) != 0)
		memset(&st, 0, sizeof st);
	else if (!e->in_const)  /* constants/ is not the announced folder */
		*ctime_ns = (int64_t)st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec;
	if ((uint64_t)st.st_size > MS_VALUE_MAX) {
		strbuf_addf(text, "value: not loaded (%lld bytes)\n", (long long)st.st_size);
		return NULL;
	}
	if (e->kind == MS_ENTRY_NPY) {
		rc = npy_read_file(path, (enum td_dtype)e->hint, &t, err, sizeof err);
	} else if (e->kind == MS_ENTRY_BIN) {
		struct ms_bin b;

		if ((rc = ms_bin_read(path, &b, err, sizeof err)) == TD_OK) {
			size_t i;

			rc = TD_ERR_NOTFOUND;
			for (i = 0; i < b.n; i++)
				if (b.t[i].is_input == e->is_input && b.t[i].slot == e->slot)
					rc = ms_bin_tensor_value(path, &b.t[i], &t, err, sizeof err);
			ms_bin_done(&b);
		}
	}
	if (rc != TD_OK)
		strbuf_addf(text, "value: %s%s%s\n", td_strerror(rc), *err ? ": " : "", td_oneline(err));
	return t;
}

static enum td_status
decode_trace(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	struct entry_copy c;
	struct td_summary sum;
	struct strbuf text = {0};
	struct td_tensor *t;
	const struct ms_entry *e = &c.e;
	enum td_status rc;

	if (!entry_copy(r, loc, &c))
		return TD_ERR_RANGE;
	if ((rc = entry_summary(&c, &sum)) != TD_OK) {
		entry_copy_done(&c);
		return rc;
	}
	out->op_name = xstrdup(e->op_name);
	out->op_type = xstrdup(e->op_type);
	out->graph_id = xstrdup(c.graph_id);
	out->host = xstrdup(c.host);
	out->slot = e->slot;
	out->wall_time = (double)e->ts / 1e6;
	out->noutputs = 1;
	out->summaries = xcalloc(1, sizeof(*out->summaries));
	out->values = xcalloc(1, sizeof(*out->values));
	out->summaries[0] = sum;
	/* one "key: value" line each: a newline in a folder's or file's name
	 * must not start a line of its own */
	strbuf_addf(&text, "run: %s\nio: %s %u\nfile: %s\ntask: %llu\nstream: %llu\ntimestamp: %llu\n",
		    td_oneline(c.label), e->is_input ? "input" : "output", e->slot,
		    td_oneline(c.path ? c.path : "(statistic.csv only)"), (unsigned long long)c.task,
		    (unsigned long long)c.stream, (unsigned long long)e->ts);
	if (e->hint != DTYPE_INVALID && e->hint != sum.dtype)
		strbuf_addf(&text, "original dtype: %s (file name; stored as %s)\n",
			    td_dtype_name((enum td_dtype)e->hint), td_dtype_name(sum.dtype));
	t = entry_value(e, c.path, &text, &out->data_ctime_ns);
	/* statistic.csv counts win; otherwise the data gives them (lazily, §7) */
	if (t && !(sum.known & SUM_NONFINITE))
		td_tensor_summarize(t, &out->summaries[0]);
	out->values[0] = t;
	out->text = strbuf_take(&text);
	entry_copy_done(&c);
	return TD_OK;
}

static enum td_status
decode_execution(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	enum td_status rc = TD_ERR_RANGE;

	pthread_mutex_lock(&r->lock);
	if (loc->file < r->nruns) {
		const struct ms_run *run = &r->runs[loc->file];

		out->op_type = xstrdup(run->label);
		out->graph_id = xstrdup(run->graph_id);
		out->host = xstrdup(run->host);
		out->text = xasprintf("directory: %s\niteration: %llu\ntensors: %zu\n", run->path,
				      (unsigned long long)run->iteration, run->n);
		rc = TD_OK;
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}

/* --source-root: DIR + path, then DIR + each shorter tail of path. */
static char *
source_on_disk(const struct reader *r, const char *path)
{
	struct stat st;
	const char *p = path;

	if (!r->source_root)
		return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? xstrdup(path) : NULL;
	while (p && *p) {
		char *cand;

		while (*p == '/' || *p == '\\')
			p++;
		cand = xasprintf("%s/%s", r->source_root, p);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode))
			return cand;
		free(cand);
		p = strpbrk(p, "/\\");
	}
	return NULL;
}

/* The file's lines into out; the ms_read_side status (gone, unreadable or
 * over the limit: the traced lines serve). */
static enum td_status
lines_from_file(const char *path, struct reader_detail *out)
{
	uint8_t *buf;
	size_t len, pos = 0, cap = 0;
	enum td_status st = ms_read_side(NULL, path, "source file", &buf, &len);

	if (st != TD_OK)
		return st;
	while (pos < len) {
		const char *s = (const char *)buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		TD_GROW(out->lines, cap, out->nlines + 1);
		out->lines[out->nlines++] = xstrndup(s, n && s[n - 1] == '\r' ? n - 1 : n);
		pos += n + 1;
	}
	free(buf);
	return TD_OK;
}

/* The lines the trace lines recorded for source s, at their line numbers
 * (the first code seen for a line wins); the others are unknown (NULL),
 * not empty. */
static void
recorded_lines(const struct ms_source *s, struct reader_detail *out)
{
	size_t i;

	out->lines = xcalloc(s->maxline ? s->maxline : 1, sizeof(*out->lines));
	for (i = 0; i < s->nlines; i++)
		if (!out->lines[s->lines[i].line - 1])
			out->lines[s->lines[i].line - 1] = xstrdup(s->lines[i].code);
	out->nlines = s->maxline;
	out->lines_partial = true;
}

static enum td_status
decode_source(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	struct reader_detail rec = {0};
	char *path, *disk;
	enum td_status st = TD_ERR_NOENT;

	/* a reopen loads the graphs that name the sources when first asked */
	ms_layout_materialize(r);
	/* the index thread adds sources (a new rank in follow mode) */
	pthread_mutex_lock(&r->lock);
	if (loc->offset >= r->nsources) {
		pthread_mutex_unlock(&r->lock);
		return TD_ERR_RANGE;
	}
	path = xstrdup(r->sources[loc->offset].path);
	recorded_lines(&r->sources[loc->offset], &rec);
	pthread_mutex_unlock(&r->lock);
	disk = source_on_disk(r, path);
	free(path);
	if (disk && (st = lines_from_file(disk, out)) == TD_OK) {
		out->text = xasprintf("read from %s", disk);
		free(disk);
		reader_detail_done(&rec);
		return TD_OK;
	}
	free(disk);
	rec.text = st == TD_ERR_TOO_LARGE ?
		   xasprintf("lines recorded in the graph's trace lines (the file is larger than "
			     "tdbg's side-file limit of %llu MiB)",
			     (unsigned long long)(TD_SIDE_FILE_MAX >> 20)) :
		   xstrdup("lines recorded in the graph's trace lines (file not on disk)");
	*out = rec;
	return TD_OK;
}

enum td_status
ms_decode(struct reader *r, enum reader_kind kind, const struct td_locator *loc,
	  struct reader_detail *out)
{
	memset(out, 0, sizeof(*out));
	switch (kind) {
	case READER_TRACE:
		return decode_trace(r, loc, out);
	case READER_EXECUTION:
		return decode_execution(r, loc, out);
	case READER_SOURCE:
		return decode_source(r, loc, out);
	}
	return TD_ERR_ARGS;
}

enum td_status
ms_advance(struct reader *r, enum reader_kind kind, struct td_locator *loc, uint64_t n)
{
	enum td_status rc = TD_ERR_RANGE;

	if (kind != READER_TRACE)
		return n == 0 ? TD_OK : TD_ERR_RANGE;
	pthread_mutex_lock(&r->lock);
	if (loc->file < r->nruns && loc->offset + n < r->runs[loc->file].n) {
		loc->offset += n;
		rc = TD_OK;
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}
