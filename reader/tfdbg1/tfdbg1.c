/*
 * tfdbg1.c - the tfdbg v1 reader: DumpingDebugWrapperSession session roots
 * (run_<us>_<counter> directories) and plain v1 dump roots
 * (_tfdbg_device_* directories directly inside).
 *
 * What it sends (FORMAT.md):
 *   - one execution per run directory, in (<us>, counter) order, labelled
 *     "Session.run #<counter>" ("Session.run <token>" for the old UUID
 *     names, "Session.run" for a plain dump root); num_outputs = fetched
 *     tensors + target ops from the core metadata (0 without it); graph_id
 *     = the run's partition graph when the run has one device; its detail
 *     (decode) has the fetch/feed/core-metadata text and one output per
 *     fetch: each fetched tensor with the value of its last DebugIdentity
 *     dump in the run (the loss of a training step), then the target ops,
 *     which have no value; bad_outputs stays 0 (the alerts are the traces);
 *   - one graph per (run, device), id "<run dir><device>", e.g.
 *     "run_1700000000491002_2/job:localhost/replica:0/task:0/device:CPU:0",
 *     with the partition graph's ops (debugger nodes hidden);
 *   - one trace per tensor dump file, in dump-time order within its run,
 *     execution = the run's row, op_type from the partition graph;
 *   - meta: "format" tfdbg1, "layout" ("session root" / "dump root"),
 *     "runs", and "tensor_debug_mode" = the debug ops seen, comma-separated
 *     ("DebugIdentity,DebugNumericSummary,DebugNanCount").  No "host[]":
 *     v1 dumps name no host (the job name in a device is not one).
 * Every file gets a file id; a locator is (file id, 0).  v1 dumps hold no
 * source files and no stacks: this reader sends none.
 *
 * This file holds the reader_ops (probe, open, decode, advance, close) and
 * the file tables; the index pass is in tfdbg1_index.c, directory listing in
 * tfdbg1_scan.c, names in tfdbg1_names.c, the core metadata JSON in
 * tfdbg1_meta.c, file contents in tfdbg1_event.c and tfdbg1_tensor.c,
 * partition graphs in tfdbg1_graph.c.
 */
#include "tfdbg1_internal.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "reader/reader_listing.h"

/* Run directories a probe looks into before giving up. */
#define PROBE_RUNS 8

/* Whether a listed name is a v1 dump root's own entry (a device directory
 * or the core metadata file), or any _tfdbg_ entry with dump_root_only
 * false. */
static bool
is_tfdbg_entry(const char *name, bool dump_root_only)
{
	if (!strncmp(name, TFDBG1_DEVICE_PREFIX, strlen(TFDBG1_DEVICE_PREFIX)) ||
	    !strncmp(name, TFDBG1_CORE_PREFIX, strlen(TFDBG1_CORE_PREFIX)))
		return true;
	return !dump_root_only && !strncmp(name, "_tfdbg_", 7);
}

static bool
dir_has_tfdbg_entry(const char *path, bool dump_root_only)
{
	DIR *d = opendir(path);
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && (de = readdir(d)))
		found = is_tfdbg_entry(de->d_name, dump_root_only);
	closedir(d);
	return found;
}

static bool
listing_has_tfdbg_entry(const struct reader_listing *ls)
{
	size_t i;

	for (i = 0; i < ls->n; i++)
		if (is_tfdbg_entry(ls->v[i].name, true))
			return true;
	return false;
}

static bool
is_run_name(const char *name)
{
	uint64_t us;
	const char *token;
	int64_t counter;

	return tfdbg1_parse_run_dir(name, &us, &token, &counter);
}

/* 0: not v1; 60: a plain dump root; 70: a session root (a run directory,
 * among the first PROBE_RUNS in listing order, holding a _tfdbg_ entry). */
static int
probe_list(const char *dir, const struct reader_listing *ls)
{
	int tried = 0, score = 0;
	size_t i;

	if (listing_has_tfdbg_entry(ls))
		return 60;
	for (i = 0; i < ls->n && score == 0 && tried < PROBE_RUNS; i++) {
		char *sub;

		if (!is_run_name(ls->v[i].name))
			continue;
		tried++;
		sub = xasprintf("%s/%s", dir, ls->v[i].name);
		if (dir_has_tfdbg_entry(sub, false))
			score = 70;
		free(sub);
	}
	return score;
}

static int
probe(const char *dir)
{
	return reader_listing_probe(dir, probe_list);
}

/* Entries a legacy-layout search (dump files below the root, no device
 * directory) looks at before giving up, and how deep it goes. */
#define LEGACY_BUDGET 4096
#define LEGACY_DEPTH 8

/* True when a regular file named like a tensor dump lies at most depth
 * directories below path (rel is path relative to the root). */
static bool
has_legacy_dump(const char *path, const char *rel, int depth, int *budget)
{
	DIR *d = opendir(path);
	struct dirent *de;
	bool found = false;

	if (!d)
		return false;
	while (!found && *budget > 0 && (de = readdir(d))) {
		struct tfdbg1_dump_name n;
		struct stat st;
		char *full, *sub;

		if (de->d_name[0] == '.')
			continue;
		(*budget)--;
		full = xasprintf("%s/%s", path, de->d_name);
		sub = *rel ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
			found = tfdbg1_parse_dump_name(sub, &n);
			tfdbg1_dump_name_done(&n);
		} else if (stat(full, &st) == 0 && S_ISDIR(st.st_mode) && depth > 0) {
			found = has_legacy_dump(full, sub, depth - 1, budget);
		}
		free(full);
		free(sub);
	}
	closedir(d);
	return found;
}

/* What dir is: a session root when it holds a run directory (even an
 * empty one: a session that has just started), a dump root when it holds a
 * v1 metadata or device entry or dump files in the old layout, else not a
 * v1 dump at all, however it was chosen. */
enum v1_root { V1_NONE, V1_SESSION, V1_DUMP_ROOT };

/* From ls, the listing of dir (reader_options.root_listing), or from one
 * listing of its own when ls is NULL. */
static enum v1_root
v1_root_kind(const char *dir, const struct reader_listing *ls)
{
	struct reader_listing own;
	bool tfdbg = false, run = false;
	int budget = LEGACY_BUDGET;
	size_t i;

	if (!ls) {
		if (!reader_listing_make(dir, &own))
			return V1_NONE;
		ls = &own;
	}
	tfdbg = listing_has_tfdbg_entry(ls);
	for (i = 0; i < ls->n && !run; i++)
		run = is_run_name(ls->v[i].name);
	if (ls == &own)
		reader_listing_done(&own);
	if (tfdbg)
		return V1_DUMP_ROOT;
	if (run)
		return V1_SESSION;
	return has_legacy_dump(dir, "", LEGACY_DEPTH, &budget) ? V1_DUMP_ROOT : V1_NONE;
}

static enum td_status
open_reader(const char *dir, const struct reader_options *opt, struct reader **out, char *err,
	    size_t errlen)
{
	struct reader *r;
	struct stat st;
	enum v1_root kind;

	*out = NULL;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a directory", dir);
		return TD_ERR_NOENT;
	}
	kind = v1_root_kind(dir, opt ? opt->root_listing : NULL);
	if (kind == V1_NONE) {
		snprintf(err, errlen, "%s: no run_* directory, _tfdbg_* file or v1 tensor dump file "
			 "(not a tfdbg v1 dump)", dir);
		return TD_ERR_NOENT;
	}
	r = xcalloc(1, sizeof(*r));
	r->root = xstrdup(dir);
	r->session = kind == V1_SESSION;
	pthread_mutex_init(&r->lock, NULL);
	*out = r;
	return TD_OK;
}

static void
close_reader(struct reader *r)
{
	size_t i, k;

	if (!r)
		return;
	for (i = 0; i < r->nruns; i++) {
		for (k = 0; k < r->runs[i].nfetched; k++)
			free(r->runs[i].fetched[k]);
		free(r->runs[i].fetched);
		free(r->runs[i].dir);
		free(r->runs[i].label);
		free(r->runs[i].text);
	}
	for (i = 0; i < r->ndevices; i++)
		free(r->devices[i]);
	for (i = 0; i < r->ndebug_ops; i++)
		free(r->debug_ops[i]);
	tfdbg1_live_done(&r->live);
	for (i = 0; i < r->nseen; i++)
		free(r->seen[i]);
	free(r->seen);
	free(r->files);
	free(r->trace_files);
	free(r->runs);
	free(r->devices);
	free(r->debug_ops);
	td_strpool_done(&r->strs);
	pthread_mutex_destroy(&r->lock);
	free(r->root);
	free(r);
}

uint32_t
tfdbg1_add_file(struct reader *r, const struct tfdbg1_file *f, const char *path)
{
	uint32_t id;

	pthread_mutex_lock(&r->lock);
	TD_GROW(r->files, r->filecap, r->nfiles + 1);
	id = (uint32_t)r->nfiles;
	r->files[r->nfiles] = *f;
	r->files[r->nfiles].node = td_strpool_add(&r->strs, f->node);
	r->files[r->nfiles].debug_op = td_strpool_add(&r->strs, f->debug_op);
	r->files[r->nfiles].op_type = td_strpool_add(&r->strs, f->op_type);
	tfdbg1_file_set_path(&r->strs, &r->files[r->nfiles], path);
	r->nfiles++;
	if (f->role == TFDBG1_DUMP) {
		TD_GROW(r->trace_files, r->tracecap, r->ntraces + 1);
		r->files[id].row = (int64_t)r->ntraces;
		r->trace_files[r->ntraces++] = id;
	}
	pthread_mutex_unlock(&r->lock);
	return id;
}

char *
tfdbg1_graph_id(const char *run_dir, const char *device)
{
	if (device[0] == '/' || device[0] == '\0')
		return xasprintf("%s%s", run_dir, device);
	return xasprintf("%s/%s", run_dir, device);
}

/* A copy of what decode needs about one dump, taken under the lock. */
struct dump_ref {
	char *path, *node, *debug_op, *device, *graph_id, *op_type, *run_dir;
	uint32_t slot, collision;
	uint64_t timestamp;
};

static enum td_status
dump_ref_get(struct reader *r, uint32_t file, struct dump_ref *ref)
{
	const struct tfdbg1_file *f;
	enum td_status st = TD_OK;

	memset(ref, 0, sizeof(*ref));
	pthread_mutex_lock(&r->lock);
	if (file >= r->nfiles || r->files[file].role != TFDBG1_DUMP) {
		st = TD_ERR_RANGE;
	} else {
		f = &r->files[file];
		ref->path = tfdbg1_file_path(f);
		ref->node = xstrdup(f->node);
		ref->debug_op = xstrdup(f->debug_op);
		ref->device = xstrdup(r->devices[f->device]);
		ref->run_dir = xstrdup(r->runs[f->run].dir);
		ref->graph_id = tfdbg1_graph_id(ref->run_dir, ref->device);
		ref->op_type = f->op_type ? xstrdup(f->op_type) : NULL;
		ref->slot = f->slot;
		ref->collision = f->collision;
		ref->timestamp = f->timestamp;
	}
	pthread_mutex_unlock(&r->lock);
	return st;
}

static void
dump_ref_done(struct dump_ref *ref)
{
	free(ref->path);
	free(ref->node);
	free(ref->debug_op);
	free(ref->device);
	free(ref->graph_id);
	free(ref->op_type);
	free(ref->run_dir);
}

static void
add_time_line(struct strbuf *sb, const char *label, uint64_t us)
{
	time_t secs = (time_t)(us / 1000000);
	struct tm tm;
	char when[32] = "";

	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	strbuf_addf(sb, "%s: %" PRIu64 " us (%s.%06u UTC)\n", label, us, when,
		    (unsigned)(us % 1000000));
}

static char *
trace_text(const struct dump_ref *ref, const struct tfdbg1_datum *d)
{
	struct strbuf sb = { 0 };

	strbuf_addf(&sb, "debug op: %s\n", ref->debug_op);
	strbuf_addf(&sb, "watch key: %s:%u:%s\n", ref->node, ref->slot, ref->debug_op);
	strbuf_addf(&sb, "run: %s\n", ref->run_dir);
	strbuf_addf(&sb, "file: %s\n", ref->path);
	add_time_line(&sb, "dump time", ref->timestamp);
	if (ref->collision)
		strbuf_addf(&sb, "collision index: %u\n", ref->collision);
	if (d->wall_time_us != 0 && d->wall_time_us != (double)ref->timestamp)
		strbuf_addf(&sb, "event wall_time: %.0f us\n", d->wall_time_us);
	if (d->debug_node)
		strbuf_addf(&sb, "debug node: %s\n", d->debug_node);
	if (d->layout)
		strbuf_addf(&sb, "layout: %s\n", d->layout);
	if (d->layout && d->nvector >= 12 && !strncmp(d->layout, "DebugNumericSummary", 19))
		strbuf_addf(&sb, "variance: %.9g\n", d->vector[11]);
	if (d->summary.known & SUM_UNINITIALIZED)
		strbuf_adds(&sb, "value: uninitialized (the tensor had no value when dumped)\n");
	if (d->plugin_content)
		strbuf_addf(&sb, "plugin metadata: %s\n", d->plugin_content);
	return strbuf_take(&sb);
}

static void
fill_trace_detail(const struct dump_ref *ref, struct tfdbg1_datum *d, struct reader_detail *out)
{
	out->text = trace_text(ref, d);
	out->wall_time = (double)ref->timestamp / 1e6;
	out->op_name = xstrdup(ref->node);
	out->op_type = ref->op_type ? xstrdup(ref->op_type) : NULL;
	out->graph_id = xstrdup(ref->graph_id);
	out->device = xstrdup(ref->device);
	out->slot = ref->slot;
	out->mode = xstrdup(ref->debug_op);
	out->debug_op = xstrdup(ref->debug_op);
	out->noutputs = 1;
	out->summaries = xmalloc(sizeof(*out->summaries));
	out->summaries[0] = d->summary;
	out->values = xcalloc(1, sizeof(*out->values));
	out->values[0] = d->value;
	d->value = NULL;
	out->debug_values = xcalloc(1, sizeof(*out->debug_values));
	out->ndebug_values = xcalloc(1, sizeof(*out->ndebug_values));
	out->debug_values[0] = d->vector;
	out->ndebug_values[0] = d->nvector;
	d->vector = NULL;
	d->nvector = 0;
}

static enum td_status
decode_trace(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	struct dump_ref ref;
	struct tfdbg1_datum d;
	uint8_t *data;
	size_t len;
	char err[256];
	enum td_status st;

	st = dump_ref_get(r, loc->file, &ref);
	if (st != TD_OK)
		return st;
	st = tfdbg1_read_file(ref.path, &data, &len, err, sizeof(err));
	if (st == TD_OK) {
		st = tfdbg1_datum_decode(data, len, ref.debug_op, &d, err, sizeof(err));
		free(data);
	}
	if (st == TD_OK) {
		fill_trace_detail(&ref, &d, out);
		tfdbg1_datum_done(&d);
	}
	dump_ref_done(&ref);
	return st;
}

/* The last DebugIdentity dump of tensor "node:slot" in run, -1 if none.
 * Called with the lock held. */
static int64_t
fetch_dump(const struct reader *r, uint32_t run, const char *tensor)
{
	int64_t found = -1;
	size_t i, len;
	uint32_t slot;

	if (!tfdbg1_parse_input(tensor, &len, &slot))
		return -1;
	for (i = 0; i < r->ntraces; i++) {
		const struct tfdbg1_file *f = &r->files[r->trace_files[i]];

		if (f->run == run && f->slot == slot && strlen(f->node) == len &&
		    !strncmp(f->node, tensor, len) &&
		    (!strcmp(f->debug_op, "DebugIdentity") ||
		     !strcmp(f->debug_op, "DebugIdentityV3")))
			found = r->trace_files[i];
	}
	return found;
}

/* Outputs of a run: its fetched tensors (the value of their last
 * DebugIdentity dump in the run, if watched), then its target ops, which
 * have no value. */
static void
fill_run_outputs(struct reader *r, const int64_t *files, size_t nfiles, uint32_t ntargets,
		 struct reader_detail *out)
{
	size_t i;

	out->noutputs = nfiles + ntargets;
	if (!out->noutputs)
		return;
	out->summaries = xcalloc(out->noutputs, sizeof(*out->summaries));
	out->values = xcalloc(out->noutputs, sizeof(*out->values));
	for (i = 0; i < nfiles; i++) {
		struct td_locator loc = { (uint32_t)files[i], 0 };
		struct reader_detail d = {0};

		if (files[i] >= 0 && decode_trace(r, &loc, &d) == TD_OK) {
			out->summaries[i] = d.summaries[0];
			out->values[i] = d.values[0];
			d.values[0] = NULL;
		}
		reader_detail_done(&d);
	}
}

static enum td_status
decode_execution(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	const struct tfdbg1_run *run;
	int64_t *files = NULL;
	size_t nfiles = 0, i;
	uint32_t ntargets = 0;

	pthread_mutex_lock(&r->lock);
	if (loc->file >= r->nfiles || r->files[loc->file].role != TFDBG1_RUN) {
		pthread_mutex_unlock(&r->lock);
		return TD_ERR_RANGE;
	}
	run = &r->runs[r->files[loc->file].run];
	out->wall_time = run->wall_time;
	out->op_type = xstrdup(run->label);
	out->op_name = xstrdup(run->dir);
	out->text = xstrdup(run->text ? run->text : "");
	nfiles = run->nfetched;
	ntargets = run->ntargets;
	files = xcalloc(nfiles + 1, sizeof(*files));
	for (i = 0; i < nfiles; i++)
		files[i] = fetch_dump(r, r->files[loc->file].run, run->fetched[i]);
	pthread_mutex_unlock(&r->lock);
	fill_run_outputs(r, files, nfiles, ntargets, out);
	free(files);
	return TD_OK;
}

static enum td_status
decode(struct reader *r, enum reader_kind kind, const struct td_locator *loc,
       struct reader_detail *out)
{
	memset(out, 0, sizeof(*out));
	switch (kind) {
	case READER_TRACE: return decode_trace(r, loc, out);
	case READER_EXECUTION: return decode_execution(r, loc, out);
	case READER_SOURCE: break;
	}
	return TD_ERR_UNSUPPORTED;
}

/* Trace rows are files with consecutive row numbers, runs likewise: moving
 * by n rows goes through the row tables. */
static enum td_status
advance(struct reader *r, enum reader_kind kind, struct td_locator *loc, uint64_t n)
{
	enum td_status st = TD_ERR_RANGE;
	const struct tfdbg1_file *f;

	pthread_mutex_lock(&r->lock);
	if (loc->file < r->nfiles) {
		f = &r->files[loc->file];
		if (kind == READER_TRACE && f->role == TFDBG1_DUMP &&
		    (uint64_t)f->row + n < r->ntraces) {
			loc->file = r->trace_files[(uint64_t)f->row + n];
			st = TD_OK;
		} else if (kind == READER_EXECUTION && f->role == TFDBG1_RUN &&
			   (uint64_t)f->run + n < r->nruns) {
			loc->file = r->runs[(uint64_t)f->run + n].file;
			st = TD_OK;
		}
	}
	loc->offset = 0;
	pthread_mutex_unlock(&r->lock);
	return st;
}

const struct reader_ops tfdbg1_reader_ops = {
	.name = "tfdbg1",
	.looks_for = "run_* directories or _tfdbg_device_* directories (tfdbg v1)",
	.description = "TensorFlow debugger v1 (tfdbg): run_* session roots and v1 dump roots",
	.no_stacks = "this dump holds no source or stack information: tfdbg v1 records "
		     "tensors and graphs, not Python stacks (tfdbg v2 and MindSpore do)",
	.flags = READER_ROWS_TIME_ORDERED,
	.probe = probe,
	.probe_list = probe_list,
	.open = open_reader,
	.index = tfdbg1_index,
	.decode = decode,
	.advance = advance,
	.close = close_reader,
	.save_state = tfdbg1_save_state,
	.load_state = tfdbg1_load_state,
};
