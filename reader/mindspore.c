/*
 * mindspore.c - the MindSpore dump reader (formats/mindspore.md): the
 * reader_ops table, detection, the index driver that pushes records in
 * dependency order, sources and frames from the graphs' trace lines, and
 * decode().  Directory walking lives in ms_sync.c (rank layout) and
 * ms_async.c (ACL layout, bin and overflow files), one run's tensors in
 * ms_run.c; parsing in ms_*.c, npy.c and csv.c.
 *
 * Rows: one execution per graph run (iteration directory), labelled
 * "graph G iter I" (ACL: "model M iter I [step S]"), host "rank_N" (ACL:
 * "device_N"), ordered by the global execution order file (else by
 * iteration), then rank, then graph id.  Its traces are the op inputs and
 * outputs in kernel execution order (ms_sync.c says exactly how), with the
 * scoped op name of the graph node whose file-name form matches.
 * Summaries: the statistic.csv row when there is one; else the index pass
 * computes them from the data, streamed in chunks (so every NaN/Inf tensor
 * is an alert); a file that cannot be read keeps what its header says and
 * decode() tries again.
 * Locators: a trace is (file = run number, offset = entry number), an
 * execution (run number, 0), a source (0, source number).
 * Follow mode: a later index() call adds the iteration directories that
 * appeared since; a run is read once, when first seen.
 */
#include "ms_reader.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "npy.h"

/* ---- string interning ------------------------------------------------ */

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Slots hold the string followed by its insertion number. */
struct strs_slot {
	size_t id;
	char s[];
};

static void
strs_grow(struct ms_strs *s)
{
	size_t cap = s->cap ? s->cap * 2 : 256, i;
	char **slots = xcalloc(cap, sizeof(*slots));

	for (i = 0; i < s->cap; i++) {
		struct strs_slot *e = (struct strs_slot *)s->slots[i];
		size_t j;

		if (!e)
			continue;
		for (j = hash_str(e->s) & (cap - 1); slots[j]; j = (j + 1) & (cap - 1))
			;
		slots[j] = (char *)e;
	}
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
}

static struct strs_slot *
strs_lookup(struct ms_strs *s, const char *str, bool *added)
{
	size_t j, len;
	struct strs_slot *e;

	if (s->n * 2 >= s->cap)
		strs_grow(s);
	for (j = hash_str(str) & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1)) {
		e = (struct strs_slot *)s->slots[j];
		if (strcmp(e->s, str) == 0) {
			*added = false;
			return e;
		}
	}
	len = strlen(str);
	e = xmalloc(sizeof(*e) + len + 1);
	memcpy(e->s, str, len + 1);
	e->id = s->n++;
	s->slots[j] = (char *)e;
	*added = true;
	return e;
}

const char *
ms_strs_add(struct ms_strs *s, const char *str)
{
	bool added;

	return strs_lookup(s, str, &added)->s;
}

size_t
ms_strs_id(struct ms_strs *s, const char *str, bool *added)
{
	return strs_lookup(s, str, added)->id;
}

int64_t
ms_strs_find(const struct ms_strs *s, const char *str)
{
	size_t j;

	if (!s->cap)
		return -1;
	for (j = hash_str(str) & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1)) {
		const struct strs_slot *e = (const struct strs_slot *)s->slots[j];

		if (strcmp(e->s, str) == 0)
			return (int64_t)e->id;
	}
	return -1;
}

void
ms_strs_done(struct ms_strs *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->slots[i]);
	free(s->slots);
	memset(s, 0, sizeof(*s));
}

/* ---- problems, sources, frames ------------------------------------------ */

void
ms_problem(const struct reader_sink *sink, enum reader_problem_kind kind, const char *path,
	   const char *what, const char *detail)
{
	struct reader_problem p = {
		.kind = kind, .file = -1, .path = path, .record = -1, .what = what, .detail = detail,
	};

	if (sink && sink->on_problem)
		sink->on_problem(sink->ctx, &p);
}

static int64_t
source_for(struct reader *r, const char *host, const char *path)
{
	char *key = xasprintf("%s\t%s", host, path);
	bool added;
	size_t id = ms_strs_id(&r->source_keys, key, &added);

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

/* Remembers the code the .ir recorded for a line of a source. */
static void
source_note_line(struct ms_source *s, uint32_t line, const char *code)
{
	if (!line || !code || line > 10000000)
		return;
	if (line > s->nlines) {
		s->lines = xrealloc(s->lines, line * sizeof(*s->lines));
		memset(s->lines + s->nlines, 0, (line - s->nlines) * sizeof(*s->lines));
		s->nlines = line;
	}
	if (!s->lines[line - 1])
		s->lines[line - 1] = xstrdup(code);
}

static const char *
frame_for(struct reader *r, const char *host, const struct ms_frame *f)
{
	char *key = xasprintf("%s\t%s\t%u\t%s", host, f->file, f->line, f->code ? f->code : "");
	bool added;
	size_t id = ms_strs_id(&r->frame_keys, key, &added);
	struct ms_frame_rec *rec;
	char idbuf[32];

	free(key);
	if (!added)
		return r->frames[id].id;
	TD_GROW(r->frames, r->capframes, r->nframes + 1);
	rec = &r->frames[r->nframes++];
	snprintf(idbuf, sizeof idbuf, "ms%zu", id);
	rec->id = ms_strs_add(&r->strs, idbuf);
	rec->host = host;
	rec->file = ms_strs_add(&r->strs, f->file);
	rec->code = f->code ? ms_strs_add(&r->strs, f->code) : NULL;
	rec->line = f->line;
	rec->source = source_for(r, host, f->file);
	source_note_line(&r->sources[rec->source], f->line, f->code);
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

/* ---- detection and open ------------------------------------------------ */

static bool
is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A directory that looks like one rank: graphs/, execution_order/ or
 * .dump_metadata/ next to net directories. */
static bool
looks_like_rank(const char *dir)
{
	static const char *const marks[] = { "graphs", "execution_order", ".dump_metadata" };
	size_t i;
	bool hit = false;

	for (i = 0; i < TD_ARRAY_SIZE(marks) && !hit; i++) {
		char *p = xasprintf("%s/%s", dir, marks[i]);

		hit = is_dir(p);
		free(p);
	}
	return hit;
}

/* A net, graph or iteration directory inside a rank (§2: the user may open
 * any level): the rank directory up to three levels up, or NULL. */
static char *
rank_ancestor(const char *dir)
{
	char *path = realpath(dir, NULL), *slash;
	int up;

	for (up = 0; path && up < 3; up++) {
		if (!(slash = strrchr(path, '/')) || slash == path)
			break;
		*slash = '\0';
		if (looks_like_rank(path))
			return path;
	}
	free(path);
	return NULL;
}

static int
probe(const char *dir)
{
	char *anc;

	if (ms_sync_has_ranks(dir))
		return 60;
	if (ms_acl_detect(dir))
		return 50;
	if (looks_like_rank(dir))
		return 40;
	if ((anc = rank_ancestor(dir))) {
		free(anc);
		return 30;
	}
	return 0;
}

static enum td_status
ms_open(const char *dir, const struct reader_options *opt, struct reader **out, char *err,
	size_t errlen)
{
	struct reader *r;

	*out = NULL;
	if (!is_dir(dir)) {
		snprintf(err, errlen, "%s: not a directory", dir);
		return TD_ERR_NOENT;
	}
	if (!probe(dir)) {
		snprintf(err, errlen, "%s: no rank_* or 14-digit time directories (MindSpore dump)", dir);
		return TD_ERR_FORMAT;
	}
	r = xcalloc(1, sizeof(*r));
	r->root = xstrdup(dir);
	if (!ms_sync_has_ranks(dir) && !looks_like_rank(dir) && !ms_acl_detect(dir) &&
	    (r->only = realpath(dir, NULL))) {
		free(r->root);
		r->root = rank_ancestor(dir);   /* probe() found it */
	}
	r->source_root = opt && opt->source_root ? xstrdup(opt->source_root) : NULL;
	r->acl = !ms_sync_has_ranks(dir) && !looks_like_rank(dir) && ms_acl_detect(dir);
	pthread_mutex_init(&r->lock, NULL);
	*out = r;
	return TD_OK;
}

static void
run_free(struct ms_run *run)
{
	size_t i;

	for (i = 0; i < run->n; i++)
		free(run->entries[i].path);
	free(run->entries);
	free(run->path);
	free(run->label);
	free(run->const_dir);
}

static void
rank_free(struct ms_rank *rk)
{
	size_t i;

	for (i = 0; i < rk->ngraphs; i++) {
		ms_graph_done(&rk->graphs[i]);
		free(rk->graph_ids[i]);
	}
	free(rk->graphs);
	free(rk->graph_ids);
	ms_strs_done(&rk->file_forms);
	free(rk->form_full);
	free(rk->form_type);
	for (i = 0; i < rk->norders; i++) {
		free(rk->orders[i].graph_id);
		ms_strs_done(&rk->orders[i].kernels);
		ms_strs_done(&rk->orders[i].iters);
	}
	free(rk->orders);
	free(rk->dir);
}

static void
ms_close(struct reader *r)
{
	size_t i, k;

	if (!r)
		return;
	for (i = 0; i < r->nruns; i++)
		run_free(&r->runs[i]);
	free(r->runs);
	for (i = 0; i < r->nranks; i++)
		rank_free(&r->ranks[i]);
	free(r->ranks);
	for (i = 0; i < r->nsources; i++) {
		for (k = 0; k < r->sources[i].nlines; k++)
			free(r->sources[i].lines[k]);
		free(r->sources[i].lines);
		free(r->sources[i].path);
	}
	free(r->sources);
	free(r->frames);
	ms_strs_done(&r->frame_keys);
	ms_strs_done(&r->run_paths);
	ms_strs_done(&r->source_keys);
	ms_strs_done(&r->strs);
	pthread_mutex_destroy(&r->lock);
	free(r->net_name);
	free(r->source_root);
	free(r->only);
	free(r->root);
	free(r);
}

/* ---- index ----------------------------------------------------------- */

static void
meta(const struct reader_sink *sink, const char *key, const char *value)
{
	if (sink->on_meta)
		sink->on_meta(sink->ctx, key, value);
}

static void
meta_u64(const struct reader_sink *sink, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	meta(sink, key, buf);
}

static void
emit_sources_frames(struct reader *r, const struct reader_sink *sink)
{
	size_t i;

	for (i = 0; sink->on_source && i < r->nsources; i++) {
		struct reader_source s = {
			.id = (uint32_t)i, .host = r->sources[i].host, .path = r->sources[i].path,
			.loc = { .file = 0, .offset = i }, .nlines = r->sources[i].nlines,
		};

		sink->on_source(sink->ctx, &s);
	}
	for (i = 0; sink->on_frame && i < r->nframes; i++) {
		const struct ms_frame_rec *f = &r->frames[i];
		struct reader_frame rf = {
			.id = f->id, .host = f->host, .file = f->file, .source_id = f->source,
			.line = f->line, .func = "", .code = f->code,
		};

		sink->on_frame(sink->ctx, &rf);
	}
}

static void
emit_node(struct reader *r, const struct reader_sink *sink, const struct ms_rank *rk,
	  const char *graph_id, const struct ms_node *n)
{
	const char **ids;
	size_t nf = ms_node_frames(r, rk->host, n, &ids);
	struct reader_op op = {
		.graph_id = graph_id, .op_name = n->full_name, .op_type = n->op_type,
		.host = rk->host, .inputs = (const char *const *)n->inputs,
		.ninputs = n->ninputs, .num_outputs = n->num_outputs,
		.frame_ids = ids, .nframes = nf,
	};

	sink->on_op(sink->ctx, &op);
	free(ids);
}

/* Parameters and constants: ops without inputs that other ops read. */
static void
emit_leaves(const struct reader_sink *sink, const struct ms_rank *rk, const char *graph_id,
	    char *const *names, size_t n, const char *type)
{
	size_t k;

	for (k = 0; sink->on_op && k < n; k++) {
		struct reader_op op = {
			.graph_id = graph_id, .op_name = names[k], .op_type = type,
			.host = rk->host, .num_outputs = 1,
		};

		sink->on_op(sink->ctx, &op);
	}
}

static void
emit_graphs(struct reader *r, const struct reader_sink *sink)
{
	size_t i, g, k;

	for (i = 0; i < r->nranks; i++) {
		struct ms_rank *rk = &r->ranks[i];

		for (g = rk->ngraphs_sent; g < rk->ngraphs; g++) {
			const struct ms_graph *gr = &rk->graphs[g];
			struct reader_graph rg = {
				.graph_id = rk->graph_ids[g], .name = gr->name, .outer_id = "",
				.host = rk->host,
			};

			if (sink->on_graph)
				sink->on_graph(sink->ctx, &rg);
			for (k = 0; sink->on_op && k < gr->nnodes; k++)
				emit_node(r, sink, rk, rk->graph_ids[g], &gr->nodes[k]);
			emit_leaves(sink, rk, rk->graph_ids[g], gr->params, gr->nparams, "Parameter");
			emit_leaves(sink, rk, rk->graph_ids[g], gr->consts, gr->nconsts, "Constant");
		}
		rk->ngraphs_sent = rk->ngraphs;
	}
}

/* Frames of every node are registered before anything is sent, so that
 * sources and frames go out before the ops that use them. */
static void
register_frames(struct reader *r)
{
	size_t i, g, k;

	for (i = 0; i < r->nranks; i++)
		for (g = 0; g < r->ranks[i].ngraphs; g++)
			for (k = 0; k < r->ranks[i].graphs[g].nnodes; k++) {
				const char **ids;

				ms_node_frames(r, r->ranks[i].host, &r->ranks[i].graphs[g].nodes[k], &ids);
				free(ids);
			}
}

static int
run_cmp(const void *a, const void *b)
{
	const struct ms_run *x = a, *y = b;
	unsigned long long gx = strtoull(x->graph_id, NULL, 10), gy = strtoull(y->graph_id, NULL, 10);
	int c;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if (x->iteration != y->iteration)
		return x->iteration < y->iteration ? -1 : 1;
	if (x->rank_order != y->rank_order)
		return x->rank_order < y->rank_order ? -1 : 1;
	if (gx != gy)
		return gx < gy ? -1 : 1;
	c = strcmp(x->graph_id, y->graph_id);
	return c ? c : strcmp(x->path, y->path);
}

static void
emit_trace(const struct reader_sink *sink, const struct ms_run *run, size_t k)
{
	const struct ms_entry *e = &run->entries[k];
	struct reader_trace t = {
		.loc = { .file = run->file_id, .offset = k },
		.graph_id = run->graph_id, .op_name = e->op_name, .op_type = e->op_type,
		.slot = e->slot, .is_input = e->is_input, .execution = run->execution,
		.wall_time = (double)e->ts / 1e6, .summary = e->summary,
	};

	sink->on_trace(sink->ctx, &t);
}

/* Overflow files of a run: find the op by (stream_id, task_id), §12. */
static void
emit_overflows(const struct reader_sink *sink, const struct ms_run *run, char **files,
	       size_t nfiles)
{
	size_t i, k, j;

	for (i = 0; i < nfiles; i++) {
		struct ms_overflow ov[3];
		char err[256] = "";
		size_t len = strlen(files[i]);
		bool json = len > 5 && strcmp(files[i] + len - 5, ".json") == 0;
		size_t n = ms_overflow_read(files[i], json, ov, err, sizeof err);

		if (!n)
			ms_problem(sink, PROBLEM_DECODE_ERROR, files[i], "Opdebug overflow record", err);
		for (k = 0; k < n; k++) {
			const char *op = NULL;
			char *detail;

			if (!ov[k].status)
				continue;
			for (j = 0; j < run->n && !op; j++)
				if (run->entries[j].task == ov[k].task_id &&
				    run->entries[j].stream == ov[k].stream_id)
					op = run->entries[j].op_name;
			detail = xasprintf("%s overflow: status 0x%llx, stream %llu, task %llu%s (%s)",
					   ov[k].section, (unsigned long long)ov[k].status,
					   (unsigned long long)ov[k].stream_id,
					   (unsigned long long)ov[k].task_id,
					   op ? "" : ", no dumped op has these ids", run->label);
			if (sink->on_overflow)
				sink->on_overflow(sink->ctx, op ? op : "", run->execution, detail);
			free(detail);
		}
	}
}

static void
emit_run(struct reader *r, const struct reader_sink *sink, struct ms_run *run, int64_t exec)
{
	char **over = NULL;
	size_t nover = 0, k;
	uint64_t first_ts = UINT64_MAX;
	struct reader_execution e = {0};

	run->execution = exec;
	ms_run_load(r, run, sink, &over, &nover);
	for (k = 0; k < run->n; k++)
		if (run->entries[k].ts)
			first_ts = TD_MIN(first_ts, run->entries[k].ts);
	e.loc.file = run->file_id;
	e.op_type = run->label;
	e.graph_id = run->graph_id;
	e.host = run->host;
	e.num_outputs = (uint32_t)run->n;
	e.wall_time = first_ts == UINT64_MAX ? 0 : (double)first_ts / 1e6;
	e.has_values = true;   /* bad_outputs stays 0: the traces carry the alerts */
	if (sink->on_execution)
		sink->on_execution(sink->ctx, &e);
	for (k = 0; sink->on_trace && k < run->n; k++)
		emit_trace(sink, run, k);
	r->tensors += run->n;
	emit_overflows(sink, run, over, nover);
	for (k = 0; k < nover; k++)
		free(over[k]);
	free(over);
}

static void
emit_meta_counts(struct reader *r, const struct reader_sink *sink)
{
	struct ms_strs graphs = {0}, iters = {0};
	size_t i;

	for (i = 0; i < r->nruns; i++) {
		char buf[32];

		snprintf(buf, sizeof buf, "%llu", (unsigned long long)r->runs[i].iteration);
		ms_strs_add(&iters, buf);
		ms_strs_add(&graphs, r->runs[i].graph_id);
	}
	for (i = 0; i < r->nranks; i++) {
		size_t g;

		for (g = 0; g < r->ranks[i].ngraphs; g++)
			ms_strs_add(&graphs, r->ranks[i].graph_ids[g]);
	}
	meta_u64(sink, "graphs", graphs.n);
	meta_u64(sink, "iterations", iters.n);
	meta_u64(sink, "tensors", r->tensors);
	ms_strs_done(&graphs);
	ms_strs_done(&iters);
}

static void
emit_rank_meta(struct reader *r, const struct reader_sink *sink)
{
	size_t i;

	meta_u64(sink, "ranks", r->nranks);
	for (i = r->nranks_sent; i < r->nranks; i++) {
		char buf[16];

		snprintf(buf, sizeof buf, "%d", r->ranks[i].id);
		meta(sink, "rank_ids[]", buf);
		meta(sink, "host[]", r->ranks[i].host);
	}
	r->nranks_sent = r->nranks;
}

/* Sorts the runs found by this pass and announces them as files. */
static void
order_new_runs(struct reader *r, const struct reader_sink *sink)
{
	size_t i, first = r->nemitted;

	pthread_mutex_lock(&r->lock);
	if (r->nruns > first)
		qsort(r->runs + first, r->nruns - first, sizeof(*r->runs), run_cmp);
	for (i = first; i < r->nruns; i++)
		r->runs[i].file_id = (uint32_t)i;
	pthread_mutex_unlock(&r->lock);
	for (i = first; sink->on_file && i < r->nruns; i++) {
		struct reader_file f = {
			.id = (uint32_t)i, .path = r->runs[i].path, .host = r->runs[i].host,
			.role = "iteration",
		};

		sink->on_file(sink->ctx, &f);
	}
}

/* First pass: everything.  Later passes (follow mode) add the iteration
 * directories that appeared since; a run is read once, when first seen. */
static enum td_status
ms_index(struct reader *r, const struct reader_sink *sink)
{
	bool first = !r->indexed;
	size_t i;

	if (r->acl)
		ms_acl_scan(r, sink);
	else if (first)
		ms_sync_scan(r, sink);
	else
		ms_sync_rescan(r, sink);
	if (first) {
		meta(sink, "format", r->async ? "mindspore-async" : "mindspore-sync");
		if (r->net_name)
			meta(sink, "net_name", r->net_name);
	}
	if (first || r->nranks > r->nranks_sent)
		emit_rank_meta(r, sink);
	order_new_runs(r, sink);
	if (first) {
		register_frames(r);
		emit_sources_frames(r, sink);
	}
	emit_graphs(r, sink);
	for (i = r->nemitted; i < r->nruns; i++) {
		emit_run(r, sink, &r->runs[i], (int64_t)i);
		r->nemitted = i + 1;
		if (sink->on_progress)
			sink->on_progress(sink->ctx, i + 1, r->nruns);
	}
	emit_meta_counts(r, sink);
	r->indexed = true;
	return TD_OK;
}

/* ---- decode ------------------------------------------------------------ */

/* Copies what decode needs of one entry under the lock. */
static bool
entry_copy(struct reader *r, const struct td_locator *loc, struct ms_entry *e, struct ms_run *run)
{
	bool ok = false;

	pthread_mutex_lock(&r->lock);
	if (loc->file < r->nruns && loc->offset < r->runs[loc->file].n) {
		const struct ms_run *src = &r->runs[loc->file];

		*e = src->entries[loc->offset];
		e->path = e->path ? xstrdup(e->path) : NULL;
		memset(run, 0, sizeof(*run));
		run->host = src->host;
		run->graph_id = src->graph_id;
		run->label = xstrdup(src->label);
		ok = true;
	}
	pthread_mutex_unlock(&r->lock);
	return ok;
}

/* The full value of an entry, when the file is small enough. */
static struct td_tensor *
entry_value(const struct ms_entry *e, struct strbuf *text)
{
	struct td_tensor *t = NULL;
	char err[256] = "";
	struct stat st;
	enum td_status rc = TD_ERR_NOENT;

	if (!e->path)
		return NULL;
	if (stat(e->path, &st) == 0 && (uint64_t)st.st_size > MS_VALUE_MAX) {
		strbuf_addf(text, "value: not loaded (%lld bytes)\n", (long long)st.st_size);
		return NULL;
	}
	if (e->kind == MS_ENTRY_NPY) {
		rc = npy_read_file(e->path, e->hint, &t, err, sizeof err);
	} else if (e->kind == MS_ENTRY_BIN) {
		struct ms_bin b;

		if ((rc = ms_bin_read(e->path, &b, err, sizeof err)) == TD_OK) {
			size_t i;

			rc = TD_ERR_NOTFOUND;
			for (i = 0; i < b.n; i++)
				if (b.t[i].is_input == e->is_input && b.t[i].slot == e->slot)
					rc = ms_bin_tensor_value(e->path, &b.t[i], &t, err, sizeof err);
			ms_bin_done(&b);
		}
	}
	if (rc != TD_OK)
		strbuf_addf(text, "value: %s%s%s\n", td_strerror(rc), *err ? ": " : "", err);
	return t;
}

static enum td_status
decode_trace(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	struct ms_entry e;
	struct ms_run run;
	struct strbuf text = {0};
	struct td_tensor *t;

	if (!entry_copy(r, loc, &e, &run))
		return TD_ERR_RANGE;
	out->op_name = xstrdup(e.op_name);
	out->op_type = xstrdup(e.op_type);
	out->graph_id = xstrdup(run.graph_id);
	out->host = xstrdup(run.host);
	out->slot = e.slot;
	out->wall_time = (double)e.ts / 1e6;
	out->noutputs = 1;
	out->summaries = xcalloc(1, sizeof(*out->summaries));
	out->values = xcalloc(1, sizeof(*out->values));
	out->summaries[0] = e.summary;
	strbuf_addf(&text, "run: %s\nio: %s %u\nfile: %s\ntask: %llu\nstream: %llu\ntimestamp: %llu\n",
		    run.label, e.is_input ? "input" : "output", e.slot,
		    e.path ? e.path : "(statistic.csv only)", (unsigned long long)e.task,
		    (unsigned long long)e.stream, (unsigned long long)e.ts);
	if (e.hint != DTYPE_INVALID && e.hint != e.summary.dtype)
		strbuf_addf(&text, "original dtype: %s (file name; stored as %s)\n",
			    td_dtype_name(e.hint), td_dtype_name(e.summary.dtype));
	t = entry_value(&e, &text);
	/* statistic.csv counts win; otherwise the data gives them (lazily, §7) */
	if (t && !(e.summary.known & SUM_NONFINITE))
		td_tensor_summarize(t, &out->summaries[0]);
	out->values[0] = t;
	out->text = strbuf_take(&text);
	free(e.path);
	free(run.label);
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

static bool
lines_from_file(const char *path, struct reader_detail *out)
{
	uint8_t *buf;
	size_t len, pos = 0, cap = 0;

	if (npy_slurp(path, &buf, &len) != TD_OK)
		return false;
	while (pos < len) {
		const char *s = (const char *)buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		TD_GROW(out->lines, cap, out->nlines + 1);
		out->lines[out->nlines++] = xstrndup(s, n && s[n - 1] == '\r' ? n - 1 : n);
		pos += n + 1;
	}
	free(buf);
	return true;
}

static enum td_status
decode_source(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	const struct ms_source *s;
	char *disk;
	size_t i;

	if (loc->offset >= r->nsources)
		return TD_ERR_RANGE;
	s = &r->sources[loc->offset];
	disk = source_on_disk(r, s->path);
	if (disk && lines_from_file(disk, out)) {
		out->text = xasprintf("read from %s", disk);
		free(disk);
		return TD_OK;
	}
	free(disk);
	/* Only the lines the trace lines recorded, at their line numbers. */
	out->lines = xcalloc(s->nlines ? s->nlines : 1, sizeof(*out->lines));
	for (i = 0; i < s->nlines; i++)
		out->lines[i] = xstrdup(s->lines[i] ? s->lines[i] : "");
	out->nlines = s->nlines;
	out->text = xstrdup("lines recorded in the graph's trace lines (file not on disk)");
	return TD_OK;
}

static enum td_status
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

static enum td_status
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

const struct reader_ops mindspore_reader_ops = {
	.name = "mindspore",
	.looks_for = "rank_* directories or 14-digit time directories (MindSpore dump)",
	.flags = READER_ROWS_TIME_ORDERED,
	.probe = probe,
	.open = ms_open,
	.index = ms_index,
	.decode = ms_decode,
	.advance = ms_advance,
	.close = ms_close,
};
