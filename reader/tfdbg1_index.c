/*
 * tfdbg1_index.c - the tfdbg v1 index pass.
 *
 * Finds the run directories not indexed yet (a plain dump root is one run),
 * sorts them by (<us>, counter) and, per run, sends: the run's files, its
 * devices and partition graphs with their ops, the run as one execution,
 * then one trace per tensor dump in dump-time order.  Listing reads names;
 * the trace summaries need the values, so every dump file is read once here
 * (v1 dumps are one small file per tensor).  Bad files are reported and
 * skipped; a dump whose name parses but whose content does not still gets
 * its row, with an empty summary (decode() then reports it corrupt).
 *
 * Alert rows: a trace's summary describes the *watched* tensor, whatever
 * the debug op: a DebugIdentity value with NaN/Inf, a DebugNumericSummary
 * with NaN/Inf counts and a DebugNanCount above zero all prove a bad tensor,
 * so each is an alert row.  The same tensor watched by two ops is two rows.
 */
#include "tfdbg1.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per-pass state: the sink and progress counters. */
struct pass {
	struct reader *r;
	const struct reader_sink *sink;
	uint64_t done, total;
};

static void
problem(struct pass *p, enum reader_problem_kind kind, int64_t file, const char *path,
	const char *what, const char *detail)
{
	struct reader_problem pr = { kind, file, path, 0, -1, what, detail };

	if (p->sink->on_problem)
		p->sink->on_problem(p->sink->ctx, &pr);
}

static void
progress(struct pass *p, uint64_t bytes)
{
	p->done += bytes;
	if (p->sink->on_progress)
		p->sink->on_progress(p->sink->ctx, p->done, p->total);
}

static const char *
role_name(enum tfdbg1_role role)
{
	switch (role) {
	case TFDBG1_RUN: return "run";
	case TFDBG1_DUMP: return "tensor_dump";
	case TFDBG1_GRAPH: return "partition_graph";
	case TFDBG1_CORE: return "core_metadata";
	case TFDBG1_FETCHES: return "fetches_info";
	case TFDBG1_FEEDS: return "feed_keys_info";
	case TFDBG1_UNPARSED: return "unparsed";
	}
	return "other";
}

/* Adds f (taking its strings) and announces it; returns its id. */
static uint32_t
announce_file(struct pass *p, struct tfdbg1_file *f, uint64_t size)
{
	uint32_t id;
	struct reader_file rf;

	f->row = -1;
	id = tfdbg1_add_file(p->r, f);
	rf.id = id;
	rf.path = f->path;
	rf.size = size;
	rf.host = NULL;
	rf.role = role_name(f->role);
	if (p->sink->on_file)
		p->sink->on_file(p->sink->ctx, &rf);
	return id;
}

static uint32_t
announce_path(struct pass *p, const char *path, enum tfdbg1_role role, uint32_t run,
	      uint64_t size)
{
	struct tfdbg1_file f = {0};

	f.path = xstrdup(path);
	f.role = role;
	f.run = run;
	return announce_file(p, &f, size);
}

static uint32_t
device_id(struct pass *p, const char *name)
{
	struct reader *r = p->r;
	struct reader_device d;
	size_t i;

	for (i = 0; i < r->ndevices; i++)
		if (!strcmp(r->devices[i], name))
			return (uint32_t)i;
	pthread_mutex_lock(&r->lock);
	TD_GROW(r->devices, r->devcap, r->ndevices + 1);
	r->devices[r->ndevices++] = xstrdup(name);
	pthread_mutex_unlock(&r->lock);
	d.id = (int32_t)i;
	d.name = name;
	d.host = NULL;
	if (p->sink->on_device)
		p->sink->on_device(p->sink->ctx, &d);
	return (uint32_t)i;
}

static void
note_debug_op(struct reader *r, const char *op)
{
	size_t i;

	for (i = 0; i < r->ndebug_ops; i++)
		if (!strcmp(r->debug_ops[i], op))
			return;
	TD_GROW(r->debug_ops, r->opcap, r->ndebug_ops + 1);
	r->debug_ops[r->ndebug_ops++] = xstrdup(op);
}

/* ---- metadata files ------------------------------------------------- */

/* Reads a log-message file; NULL (reported) when it does not decode. */
static char *
read_message(struct pass *p, const char *path, enum tfdbg1_role role, uint32_t run)
{
	uint8_t *data;
	size_t len;
	char err[256], *msg = NULL;
	enum td_status st;
	uint32_t id;

	st = tfdbg1_read_file(path, &data, &len, err, sizeof(err));
	id = announce_path(p, path, role, run, st == TD_OK ? len : 0);
	if (st != TD_OK) {
		problem(p, PROBLEM_UNREADABLE, id, path, role_name(role), err);
		return NULL;
	}
	progress(p, len);
	if (tfdbg1_log_message(data, len, &msg, NULL, err, sizeof(err)) != TD_OK)
		problem(p, PROBLEM_DECODE_ERROR, id, path, role_name(role), err);
	free(data);
	return msg;
}

static void
add_list_line(struct strbuf *sb, const char *label, char **items, size_t n)
{
	size_t i;

	strbuf_addf(sb, "%s: ", label);
	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", items[i]);
	strbuf_addc(sb, '\n');
}

static void
add_number_line(struct strbuf *sb, const char *label, int64_t v)
{
	if (v != INT64_MIN)
		strbuf_addf(sb, "%s: %" PRId64 "\n", label, v);
}

/* Core metadata into the run's text; returns the number of fetches
 * (output tensors and target ops) of the first file, 0 if none. */
static uint32_t
read_core(struct pass *p, const struct tfdbg1_scan *s, uint32_t run, struct strbuf *text)
{
	uint32_t fetches = 0;
	size_t i;

	for (i = 0; i < s->ncore; i++) {
		struct tfdbg1_core_meta m;
		char *json = read_message(p, s->core_paths[i], TFDBG1_CORE, run);
		const char *base = strrchr(s->core_paths[i], '/');

		if (!json)
			continue;
		tfdbg1_core_meta_parse(json, &m);
		strbuf_addf(text, "core metadata: %s\n", base ? base + 1 : s->core_paths[i]);
		add_number_line(text, "global step", m.global_step);
		add_number_line(text, "session run index", m.session_run_index);
		add_number_line(text, "executor step index", m.executor_step_index);
		add_list_line(text, "input names", m.input_names, m.ninputs);
		add_list_line(text, "output names", m.output_names, m.noutputs);
		add_list_line(text, "target nodes", m.target_nodes, m.ntargets);
		if (i == 0)
			fetches = (uint32_t)(m.noutputs + m.ntargets);
		tfdbg1_core_meta_done(&m);
		free(json);
	}
	return fetches;
}

static void
read_info(struct pass *p, const char *path, enum tfdbg1_role role, uint32_t run,
	  const char *label, struct strbuf *text)
{
	char *msg;

	if (!path)
		return;
	msg = read_message(p, path, role, run);
	if (msg)
		strbuf_addf(text, "%s: %s\n", label, msg);
	free(msg);
}

/* ---- graphs ----------------------------------------------------------- */

static void
send_ops(struct pass *p, const struct tfdbg1_graph *g, const char *graph_id, const char *dev)
{
	size_t i;

	if (!p->sink->on_op)
		return;
	for (i = 0; i < g->nnodes; i++) {
		const struct tfdbg1_graph_node *n = &g->nodes[i];
		struct reader_op op = {0};

		op.graph_id = graph_id;
		op.op_name = n->name;
		op.op_type = n->op;
		op.device = n->device[0] ? n->device : dev;
		op.inputs = (const char *const *)n->inputs;
		op.ninputs = n->ninputs;
		op.num_outputs = n->num_outputs;
		op.wall_time = g->wall_time_us / 1e6;
		p->sink->on_op(p->sink->ctx, &op);
	}
}

/* Announces the partition of one device in a run and decodes its graph
 * into *g (left empty when there is none or it does not decode). */
static void
send_graph(struct pass *p, const struct tfdbg1_scan *s, const struct tfdbg1_scan_dev *dev,
	   uint32_t run, struct tfdbg1_graph *g)
{
	char *graph_id = tfdbg1_graph_id(s->dir, dev->name);
	struct reader_graph rg = { graph_id, graph_id, "", NULL };
	uint8_t *data;
	size_t len;
	char err[256];
	uint32_t id;

	memset(g, 0, sizeof(*g));
	device_id(p, dev->name);
	if (p->sink->on_graph)
		p->sink->on_graph(p->sink->ctx, &rg);
	if (dev->graph_path) {
		id = announce_path(p, dev->graph_path, TFDBG1_GRAPH, run, dev->graph_size);
		if (tfdbg1_read_file(dev->graph_path, &data, &len, err, sizeof(err)) != TD_OK) {
			problem(p, PROBLEM_UNREADABLE, id, dev->graph_path, "partition graph", err);
		} else {
			progress(p, len);
			if (tfdbg1_graph_decode(data, len, g, err, sizeof(err)) != TD_OK)
				problem(p, PROBLEM_DECODE_ERROR, id, dev->graph_path,
					"partition graph", err);
			else
				send_ops(p, g, graph_id, dev->name);
			free(data);
		}
	}
	free(graph_id);
}

/* ---- runs and dumps ------------------------------------------------- */

static char *
run_label(const struct tfdbg1_scan *s)
{
	if (s->is_run && s->counter >= 0)
		return xasprintf("Session.run #%" PRId64, s->counter);
	if (s->is_run)
		return xasprintf("Session.run %s", s->token);
	return xstrdup("Session.run");
}

/* Adds the run to the table and announces its directory; returns its
 * execution row. */
static uint32_t
add_run(struct pass *p, const struct tfdbg1_scan *s)
{
	struct reader *r = p->r;
	struct tfdbg1_run run = {0};
	uint32_t idx, file;

	run.dir = xstrdup(s->dir);
	run.label = run_label(s);
	run.us = s->us;
	run.counter = s->counter;
	run.ndumps = (uint32_t)s->ndumps;
	if (s->is_run)
		run.wall_time = (double)s->us / 1e6;
	else if (s->ndumps)
		run.wall_time = (double)s->dumps[0].name.timestamp / 1e6;
	pthread_mutex_lock(&r->lock);
	TD_GROW(r->runs, r->runcap, r->nruns + 1);
	idx = (uint32_t)r->nruns;
	r->runs[r->nruns++] = run;
	pthread_mutex_unlock(&r->lock);
	file = announce_path(p, s->path, TFDBG1_RUN, idx, 0);
	pthread_mutex_lock(&r->lock);
	r->runs[idx].file = file;
	pthread_mutex_unlock(&r->lock);
	return idx;
}

static void
run_text_head(const struct tfdbg1_scan *s, struct strbuf *text)
{
	size_t i;

	strbuf_addf(text, "run: %s\n", s->dir);
	if (s->is_run) {
		strbuf_addf(text, "run counter: %s\n", s->token);
		strbuf_addf(text, "run start: %" PRIu64 " us\n", s->us);
	}
	strbuf_addf(text, "dump root: %s\n", s->path);
	for (i = 0; i < s->ndevs; i++)
		strbuf_addf(text, "device: %s%s\n", s->devs[i].name[0] ? s->devs[i].name : "(none)",
			    s->devs[i].graph_path ? "" : " (no partition graph)");
	strbuf_addf(text, "tensor dumps: %zu\n", s->ndumps);
}

/* The summary a trace row carries: DebugIdentity numbers are summarised in
 * place (no unpacking); everything else goes through the full decode. */
static void
read_summary(struct pass *p, const struct tfdbg1_file *f, struct reader_trace *t)
{
	struct tfdbg1_datum d;
	uint8_t *data;
	size_t len;
	char err[256];

	if (tfdbg1_read_file(f->path, &data, &len, err, sizeof(err)) != TD_OK) {
		problem(p, PROBLEM_UNREADABLE, t->loc.file, f->path, "tensor dump", err);
		return;
	}
	progress(p, len);
	if (!tfdbg1_fast_summary(data, len, f->name.debug_op, &t->summary)) {
		if (tfdbg1_datum_decode(data, len, f->name.debug_op, &d, err, sizeof(err)) == TD_OK)
			t->summary = d.summary;
		else
			problem(p, PROBLEM_DECODE_ERROR, t->loc.file, f->path, "tensor dump", err);
		tfdbg1_datum_done(&d);
	}
	free(data);
}

static void
send_trace(struct pass *p, struct tfdbg1_scan_dump *sd, uint32_t run, const char *graph_id,
	   const struct tfdbg1_graph *g, uint32_t dev)
{
	struct tfdbg1_file f = {0};
	const struct tfdbg1_graph_node *node;
	struct reader_trace t = {0};

	f.path = sd->path;
	f.name = sd->name;
	sd->path = NULL;
	memset(&sd->name, 0, sizeof(sd->name));
	f.role = TFDBG1_DUMP;
	f.run = run;
	f.device = dev;
	node = tfdbg1_graph_find(g, f.name.node);
	f.op_type = node ? xstrdup(node->op) : NULL;
	note_debug_op(p->r, f.name.debug_op);
	t.loc.file = announce_file(p, &f, sd->size);
	t.graph_id = graph_id;
	t.op_name = f.name.node;
	t.op_type = f.op_type;
	t.slot = f.name.slot;
	t.execution = run;
	t.wall_time = (double)f.name.timestamp / 1e6;
	read_summary(p, &f, &t);
	if (p->sink->on_trace)
		p->sink->on_trace(p->sink->ctx, &t);
}

static void
send_execution(struct pass *p, const struct tfdbg1_scan *s, uint32_t run, uint32_t fetches)
{
	struct reader_execution e = {0};
	char *graph_id = s->ndevs == 1 ? tfdbg1_graph_id(s->dir, s->devs[0].name) : NULL;

	pthread_mutex_lock(&p->r->lock);
	e.loc.file = p->r->runs[run].file;
	e.op_type = p->r->runs[run].label;
	e.wall_time = p->r->runs[run].wall_time;
	pthread_mutex_unlock(&p->r->lock);
	e.graph_id = graph_id ? graph_id : "";
	e.num_outputs = fetches;
	if (p->sink->on_execution)
		p->sink->on_execution(p->sink->ctx, &e);
	free(graph_id);
}

static void
report_scan_problems(struct pass *p, const struct tfdbg1_scan *s, uint32_t run)
{
	size_t i;

	for (i = 0; i < s->nunreadable; i++)
		problem(p, PROBLEM_UNREADABLE, -1, s->unreadable[i], "directory",
			"cannot list the directory");
	for (i = 0; i < s->nunparsed; i++) {
		uint32_t id = announce_path(p, s->unparsed[i], TFDBG1_UNPARSED, run, 0);

		problem(p, PROBLEM_UNPARSED_NAME, id, s->unparsed[i], "tensor dump",
			"expected <node>_<slot>_<debug_op>_<timestamp>[-<n>]");
	}
}

static void
index_run(struct pass *p, struct tfdbg1_scan *s)
{
	struct strbuf text = {0};
	struct tfdbg1_graph *graphs = xcalloc(s->ndevs + 1, sizeof(*graphs));
	char **graph_ids = xcalloc(s->ndevs + 1, sizeof(*graph_ids));
	uint32_t *dev_ids = xcalloc(s->ndevs + 1, sizeof(*dev_ids));
	uint32_t run = add_run(p, s), fetches;
	size_t i;

	run_text_head(s, &text);
	read_info(p, s->fetches_path, TFDBG1_FETCHES, run, "fetches", &text);
	read_info(p, s->feeds_path, TFDBG1_FEEDS, run, "feed keys", &text);
	fetches = read_core(p, s, run, &text);
	for (i = 0; i < s->ndevs; i++) {
		dev_ids[i] = device_id(p, s->devs[i].name);
		graph_ids[i] = tfdbg1_graph_id(s->dir, s->devs[i].name);
		send_graph(p, s, &s->devs[i], run, &graphs[i]);
	}
	report_scan_problems(p, s, run);
	pthread_mutex_lock(&p->r->lock);
	p->r->runs[run].text = strbuf_take(&text);
	pthread_mutex_unlock(&p->r->lock);
	send_execution(p, s, run, fetches);
	for (i = 0; i < s->ndumps; i++)
		send_trace(p, &s->dumps[i], run, graph_ids[s->dumps[i].dev],
			   &graphs[s->dumps[i].dev], dev_ids[s->dumps[i].dev]);
	for (i = 0; i < s->ndevs; i++) {
		tfdbg1_graph_done(&graphs[i]);
		free(graph_ids[i]);
	}
	free(graphs);
	free(graph_ids);
	free(dev_ids);
}

/* ---- the pass ---------------------------------------------------------- */

static bool
seen_before(struct reader *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nseen; i++)
		if (!strcmp(r->seen[i], name))
			return true;
	TD_GROW(r->seen, r->seencap, r->nseen + 1);
	r->seen[r->nseen++] = xstrdup(name);
	return false;
}

static int
cmp_scan(const void *a, const void *b)
{
	const struct tfdbg1_scan *x = a, *y = b;

	if (x->us != y->us)
		return x->us < y->us ? -1 : 1;
	if (x->counter != y->counter)
		return x->counter < y->counter ? -1 : 1;
	return strcmp(x->dir, y->dir);
}

static const char *
base_name(const char *path)
{
	size_t n = strlen(path);
	const char *slash;

	while (n > 1 && path[n - 1] == '/')
		n--;
	for (slash = path + n; slash > path && slash[-1] != '/'; slash--)
		;
	return slash;
}

/* The dump roots not indexed yet, scanned and sorted by (us, counter). */
static enum td_status
collect(struct pass *p, struct tfdbg1_scan **out, size_t *n)
{
	struct reader *r = p->r;
	size_t cap = 0;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (!r->session) {
		if (seen_before(r, "."))
			return TD_OK;
		char *dir = xstrndup(base_name(r->root), strcspn(base_name(r->root), "/"));

		*out = xcalloc(1, sizeof(**out));
		tfdbg1_scan_root(r->root, dir, *out);
		*n = 1;
		free(dir);
		return TD_OK;
	}
	d = opendir(r->root);
	if (!d) {
		problem(p, PROBLEM_UNREADABLE, -1, r->root, "session root", "cannot list the directory");
		return TD_ERR_IO;
	}
	while ((de = readdir(d))) {
		uint64_t us;
		const char *token;
		int64_t counter;
		char *path;

		if (!tfdbg1_parse_run_dir(de->d_name, &us, &token, &counter) ||
		    seen_before(r, de->d_name))
			continue;
		TD_GROW(*out, cap, *n + 1);
		path = xasprintf("%s/%s", r->root, de->d_name);
		tfdbg1_scan_root(path, de->d_name, &(*out)[(*n)++]);
		free(path);
	}
	closedir(d);
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), cmp_scan);
	return TD_OK;
}

/* "tensor_debug_mode": the debug ops seen, the usual three first. */
static void
send_debug_ops(struct pass *p)
{
	static const char *const known[] = { "DebugIdentity", "DebugNumericSummary", "DebugNanCount" };
	struct reader *r = p->r;
	struct strbuf sb = {0};
	size_t i, k;

	for (k = 0; k < TD_ARRAY_SIZE(known); k++)
		for (i = 0; i < r->ndebug_ops; i++)
			if (!strcmp(r->debug_ops[i], known[k]))
				strbuf_addf(&sb, "%s%s", sb.len ? "," : "", known[k]);
	for (i = 0; i < r->ndebug_ops; i++) {
		for (k = 0; k < TD_ARRAY_SIZE(known); k++)
			if (!strcmp(r->debug_ops[i], known[k]))
				break;
		if (k == TD_ARRAY_SIZE(known))
			strbuf_addf(&sb, "%s%s", sb.len ? "," : "", r->debug_ops[i]);
	}
	if (sb.len && p->sink->on_meta)
		p->sink->on_meta(p->sink->ctx, "tensor_debug_mode", sb.buf);
	strbuf_done(&sb);
}

enum td_status
tfdbg1_index(struct reader *r, const struct reader_sink *sink)
{
	struct pass p = { r, sink, 0, 0 };
	struct tfdbg1_scan *scans;
	size_t n, i;
	enum td_status st;
	char buf[32];

	if (!r->sent_format && sink->on_meta) {
		sink->on_meta(sink->ctx, "format", "tfdbg1");
		sink->on_meta(sink->ctx, "layout", r->session ? "session root" : "dump root");
	}
	r->sent_format = true;
	st = collect(&p, &scans, &n);
	for (i = 0; i < n; i++)
		p.total += scans[i].bytes;
	for (i = 0; i < n; i++) {
		index_run(&p, &scans[i]);
		tfdbg1_scan_done(&scans[i]);
	}
	free(scans);
	if (sink->on_meta) {
		snprintf(buf, sizeof(buf), "%zu", r->nruns);
		sink->on_meta(sink->ctx, "runs", buf);
	}
	send_debug_ops(&p);
	return st;
}
