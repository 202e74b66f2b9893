/*
 * tfdbg1_state.c - the tfdbg v1 reader's resume state (reader.h
 * save_state / load_state), kept by the model with its cached index
 * (issue 25 item 5).
 *
 * Saved: the reader's tables as the passes left them: every file it
 * announced (path below the dump, role, run, row, the parsed dump name,
 * device, op type), the runs (directory, label, detail text, time, fetched
 * tensors), the device and debug op names, the run directories looked at,
 * and the last run (follow mode adds dumps written into it: its devices and
 * the files it sent or reported).  Loaded: the tables as they were, the
 * trace rows rebuilt from the files' order, the last run's partition
 * graphs read again (op types of dumps added to it later).  A state fits
 * only a reader opened on the same kind of root (session or dump root)
 * that has not indexed yet, when every run directory that appeared since
 * sorts after the runs indexed (else a fresh pass numbers rows otherwise).  Not here: whether the files are unchanged
 * (the model compares the fingerprints of every file announced).
 */
#include "tfdbg1_internal.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/serial.h"

/* 1: the first; bump on any change below. */
#define TFDBG1_STATE_VERSION 1u

/* ---- helpers ------------------------------------------------------------------ */

/* Paths are saved below the dump's root ("." the root itself), so that
 * the same dump opened by another path (relative, absolute, a link: one
 * cache file) resumes with the paths this open reads. */
static const char *
rel_path(const struct reader *r, const char *p)
{
	size_t n = strlen(r->root);

	if (strcmp(p, r->root) == 0)
		return ".";
	return strncmp(p, r->root, n) == 0 && p[n] == '/' ? p + n + 1 : p;
}

static char *
abs_path(const struct reader *r, const char *p)
{
	if (strcmp(p, ".") == 0)
		return xstrdup(r->root);
	return p[0] == '/' ? xstrdup(p) : xasprintf("%s/%s", r->root, p);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A string that may be NULL: a presence byte, then the string. */
static void
put_opt(struct strbuf *o, const char *s)
{
	ser_put_u8(o, s != NULL);
	if (s)
		ser_put_str(o, s);
}

/* The string written by put_opt, a new copy (NULL when absent); false when
 * the input is bad. */
static bool
get_opt(struct ser_in *in, char **out)
{
	const char *s;

	*out = NULL;
	if (!ser_get_u8(in))
		return !in->bad;
	if (!(s = ser_get_str(in)))
		return false;
	*out = xstrdup(s);
	return true;
}

static void
put_strs(struct strbuf *o, char *const *v, size_t n)
{
	size_t i;

	ser_put_u64(o, n);
	for (i = 0; i < n; i++)
		ser_put_str(o, v[i]);
}

/* n strings into a new array (*v, *n); false when the input is bad (what
 * was read is in *v for the caller's close). */
static bool
get_strs(struct ser_in *in, char ***v, size_t *n)
{
	uint64_t k = ser_get_count(in, 4), i;

	*n = 0;
	*v = NULL;
	if (in->bad)
		return false;
	*v = xcalloc(k ? k : 1, sizeof(**v));
	for (i = 0; i < k; i++) {
		const char *s = ser_get_str(in);

		if (!s)
			return false;
		(*v)[(*n)++] = xstrdup(s);
	}
	return true;
}

/* ---- saving ------------------------------------------------------------------ */

static void
save_file(const struct reader *r, const struct tfdbg1_file *f, struct strbuf *o)
{
	char *path = tfdbg1_file_path(f);

	ser_put_str(o, rel_path(r, path));
	free(path);
	ser_put_u8(o, (uint8_t)f->role);
	ser_put_u32(o, f->run);
	ser_put_u64(o, (uint64_t)f->row);
	put_opt(o, f->node);
	ser_put_u32(o, f->slot);
	put_opt(o, f->debug_op);
	ser_put_u64(o, f->timestamp);
	ser_put_u32(o, f->collision);
	ser_put_u32(o, f->device);
	put_opt(o, f->op_type);
}

static void
save_run(const struct tfdbg1_run *run, struct strbuf *o)
{
	ser_put_str(o, run->dir);
	put_opt(o, run->label);
	put_opt(o, run->text);
	ser_put_u64(o, run->us);
	ser_put_u64(o, (uint64_t)run->counter);
	ser_put_u32(o, run->file);
	ser_put_u32(o, run->ndumps);
	ser_put_f64(o, run->wall_time);
	put_strs(o, run->fetched, run->nfetched);
	ser_put_u32(o, run->ntargets);
}

static void
save_live(const struct reader *r, const struct tfdbg1_live *l, struct strbuf *o)
{
	size_t i;

	ser_put_u8(o, l->valid);
	if (!l->valid)
		return;
	ser_put_u32(o, l->run);
	ser_put_str(o, l->dir);
	ser_put_str(o, rel_path(r, l->path));
	ser_put_u64(o, l->ndevs);
	for (i = 0; i < l->ndevs; i++) {
		ser_put_str(o, l->devs[i].name);
		ser_put_str(o, l->devs[i].graph_id);
		ser_put_u32(o, l->devs[i].dev_id);
		put_opt(o, l->devs[i].graph_path ? rel_path(r, l->devs[i].graph_path) : NULL);
	}
	ser_put_u64(o, l->npaths);
	for (i = 0; i < l->npaths; i++)
		ser_put_str(o, rel_path(r, l->paths[i]));
}

void
tfdbg1_save_state(struct reader *r, struct strbuf *out)
{
	size_t i;

	pthread_mutex_lock(&r->lock);
	ser_put_u32(out, TFDBG1_STATE_VERSION);
	ser_put_u8(out, r->session);
	ser_put_u8(out, r->sent_format);
	put_strs(out, r->devices, r->ndevices);
	put_strs(out, r->debug_ops, r->ndebug_ops);
	put_strs(out, r->seen, r->nseen);
	ser_put_u64(out, r->nruns);
	for (i = 0; i < r->nruns; i++)
		save_run(&r->runs[i], out);
	ser_put_u64(out, r->nfiles);
	for (i = 0; i < r->nfiles; i++)
		save_file(r, &r->files[i], out);
	save_live(r, &r->live, out);
	pthread_mutex_unlock(&r->lock);
}

/* ---- loading ----------------------------------------------------------------- */

/* Reads the names of a file record into f, interned in r's pool; false
 * when the input is bad. */
static bool
load_names(struct reader *r, struct ser_in *in, struct tfdbg1_file *f)
{
	char *node, *debug_op;
	bool ok;

	if (!get_opt(in, &node))
		return false;
	f->slot = ser_get_u32(in);
	ok = get_opt(in, &debug_op);
	f->node = td_strpool_add(&r->strs, node);
	f->debug_op = td_strpool_add(&r->strs, debug_op);
	free(node);
	free(debug_op);
	return ok;
}

static bool
load_file(struct reader *r, struct ser_in *in, struct tfdbg1_file *f)
{
	const char *path = ser_get_str(in);
	char *full, *op_type;

	if (!path)
		return false;
	full = abs_path(r, path);
	f->role = (enum tfdbg1_role)ser_get_u8(in);
	f->run = ser_get_u32(in);
	f->row = ser_get_i64(in);
	if (!load_names(r, in, f)) {
		free(full);
		return false;
	}
	f->timestamp = ser_get_u64(in);
	f->collision = ser_get_u32(in);
	f->device = ser_get_u32(in);
	tfdbg1_file_set_path(&r->strs, f, full);
	free(full);
	if (!get_opt(in, &op_type))
		return false;
	f->op_type = td_strpool_add(&r->strs, op_type);
	free(op_type);
	if (in->bad || f->role > TFDBG1_UNPARSED || f->run >= r->nruns)
		return false;
	/* decode() reads a dump's name and device */
	return f->role != TFDBG1_DUMP || (f->node && f->debug_op && f->device < r->ndevices);
}

static bool
load_run(struct ser_in *in, struct tfdbg1_run *run)
{
	const char *dir = ser_get_str(in);

	if (!dir)
		return false;
	run->dir = xstrdup(dir);
	if (!get_opt(in, &run->label) || !get_opt(in, &run->text))
		return false;
	run->us = ser_get_u64(in);
	run->counter = ser_get_i64(in);
	run->file = ser_get_u32(in);
	run->ndumps = ser_get_u32(in);
	run->wall_time = ser_get_f64(in);
	if (!get_strs(in, &run->fetched, &run->nfetched))
		return false;
	run->ntargets = ser_get_u32(in);
	return !in->bad;
}

/* The partition graph at path into g (left empty when it cannot be read:
 * the dumps added later then take their op types from the model's ops). */
static void
reload_graph(const char *path, struct tfdbg1_graph *g)
{
	uint8_t *data;
	size_t len;
	char err[256];

	memset(g, 0, sizeof(*g));
	if (!path || tfdbg1_read_file(path, &data, &len, err, sizeof err) != TD_OK)
		return;
	if (tfdbg1_graph_decode(data, len, g, err, sizeof err) != TD_OK)
		memset(g, 0, sizeof(*g));
	free(data);
}

static bool
load_live(struct reader *r, struct ser_in *in, struct tfdbg1_live *l)
{
	const char *dir, *path;
	uint64_t n, i;

	if (!ser_get_u8(in))
		return !in->bad;
	l->run = ser_get_u32(in);
	dir = ser_get_str(in);
	path = ser_get_str(in);
	if (!dir || !path || l->run >= r->nruns)
		return false;
	l->dir = xstrdup(dir);
	l->path = abs_path(r, path);
	n = ser_get_count(in, 16);
	if (in->bad)
		return false;
	l->devs = xcalloc(n ? n : 1, sizeof(*l->devs));
	l->devcap = n ? n : 1;
	for (i = 0; i < n; i++) {
		struct tfdbg1_live_dev *d = &l->devs[i];
		const char *name = ser_get_str(in), *gid = ser_get_str(in);
		char *gpath;

		if (!name || !gid)
			return false;
		l->ndevs++;
		d->name = xstrdup(name);
		d->graph_id = xstrdup(gid);
		d->dev_id = ser_get_u32(in);
		if (!get_opt(in, &gpath) || d->dev_id >= r->ndevices) {
			free(gpath);
			return false;
		}
		d->graph_path = gpath ? abs_path(r, gpath) : NULL;
		free(gpath);
		reload_graph(d->graph_path, &d->graph);
	}
	if (!get_strs(in, &l->paths, &l->npaths))
		return false;
	l->pathcap = l->npaths ? l->npaths : 1;
	for (i = 0; i < l->npaths; i++) {   /* a rescan compares its paths with these */
		char *p = abs_path(r, l->paths[i]);

		free(l->paths[i]);
		l->paths[i] = p;
	}
	if (l->npaths > 1)
		td_sort(l->paths, l->npaths, sizeof(*l->paths), cmp_str);
	l->valid = true;
	return true;
}

/* Trace rows from the files' order (tfdbg1_add_file numbers them so);
 * false when a dump's saved row is not its place. */
static bool
rebuild_traces(struct reader *r)
{
	size_t i;

	for (i = 0; i < r->nfiles; i++) {
		if (r->files[i].role != TFDBG1_DUMP)
			continue;
		if (r->files[i].row != (int64_t)r->ntraces)
			return false;
		TD_GROW(r->trace_files, r->tracecap, r->ntraces + 1);
		r->trace_files[r->ntraces++] = (uint32_t)i;
	}
	return true;
}

/* (us, counter, dir) order of run directories, as one pass sorts them. */
static int
run_order(uint64_t us, int64_t counter, const char *dir, const struct tfdbg1_run *b)
{
	if (us != b->us)
		return us < b->us ? -1 : 1;
	if (counter != b->counter)
		return counter < b->counter ? -1 : 1;
	return strcmp(dir, b->dir);
}

/* Whether every run directory of a session root not indexed yet sorts
 * after every run indexed: a resumed pass appends the new runs' rows, which
 * is a fresh pass's order only then (a run that sorts among the old ones
 * means a fresh index, so row numbers do not depend on the cache). */
static bool
new_runs_sort_last(struct reader *r)
{
	const struct tfdbg1_run *last = NULL;
	struct dirent *de;
	bool ok = true;
	size_t i;
	DIR *d;

	if (!r->session)
		return true;
	for (i = 0; i < r->nruns; i++)
		if (!last || run_order(r->runs[i].us, r->runs[i].counter, r->runs[i].dir, last) > 0)
			last = &r->runs[i];
	if (!last || !(d = opendir(r->root)))
		return true;            /* nothing to compare; an unreadable root is the pass's to report */
	while (ok && (de = readdir(d))) {
		uint64_t us;
		const char *token;
		int64_t counter;
		bool seen = false;

		if (!tfdbg1_parse_run_dir(de->d_name, &us, &token, &counter))
			continue;
		seen = r->nseen && bsearch(&(const char *){ de->d_name }, r->seen, r->nseen,
					   sizeof(*r->seen), cmp_str);
		ok = seen || run_order(us, counter, de->d_name, last) > 0;
	}
	closedir(d);
	return ok;
}

bool
tfdbg1_load_state(struct reader *r, const void *data, size_t len)
{
	struct ser_in in;
	uint64_t n, i;
	bool ok;

	ser_in_init(&in, data, len);
	if (ser_get_u32(&in) != TFDBG1_STATE_VERSION || r->nfiles || r->nruns || r->nseen ||
	    (ser_get_u8(&in) != 0) != r->session)
		return false;
	r->sent_format = ser_get_u8(&in) != 0;
	pthread_mutex_lock(&r->lock);
	ok = get_strs(&in, &r->devices, &r->ndevices) && get_strs(&in, &r->debug_ops, &r->ndebug_ops) &&
	     get_strs(&in, &r->seen, &r->nseen);
	r->devcap = r->ndevices;
	r->opcap = r->ndebug_ops;
	r->seencap = r->nseen;
	n = ok ? ser_get_count(&in, 40) : 0;
	if (ok && !in.bad) {
		r->runs = xcalloc(n ? n : 1, sizeof(*r->runs));
		r->runcap = n ? n : 1;
		for (i = 0; ok && i < n; i++) {
			r->nruns++;
			ok = load_run(&in, &r->runs[i]);
		}
	}
	n = ok ? ser_get_count(&in, 40) : 0;
	if (ok && !in.bad) {
		r->files = xcalloc(n ? n : 1, sizeof(*r->files));
		r->filecap = n ? n : 1;
		for (i = 0; ok && i < n; i++) {
			r->nfiles++;
			ok = load_file(r, &in, &r->files[i]);
		}
	}
	for (i = 0; ok && i < r->nruns; i++)
		ok = r->runs[i].file < r->nfiles;
	ok = ok && !in.bad && rebuild_traces(r) && load_live(r, &in, &r->live) && ser_in_done(&in);
	pthread_mutex_unlock(&r->lock);
	ok = ok && new_runs_sort_last(r);
	r->resumed = ok;
	return ok;
}
