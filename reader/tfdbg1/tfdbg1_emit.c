/*
 * tfdbg1_emit.c - what the tfdbg v1 index pass sends to the sink: files,
 * problems, devices, partition graphs and their ops, run metadata text, and
 * one trace per tensor dump.
 *
 * Listing reads names; a trace's summary needs the value, so every dump
 * file is read once here (v1 dumps are one file per tensor): DebugIdentity
 * numbers are summarised in place, other dumps decoded fully.  Bad files
 * are reported and skipped; a dump whose name parses but whose content does
 * not still gets its row, with an empty summary (decode() then reports it
 * corrupt).
 *
 * Alert rows: a trace's summary describes the *watched* tensor, whatever
 * the debug op: a DebugIdentity value with NaN/Inf, a DebugNumericSummary
 * with NaN/Inf counts and a DebugNanCount above zero all prove a bad tensor,
 * so each is an alert row.  The same tensor watched by two ops is two rows.
 */
#include "tfdbg1_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
tfdbg1_problem(struct tfdbg1_pass *p, enum reader_problem_kind kind, int64_t file, const char *path,
	       const char *what, const char *detail)
{
	reader_report_problem(p->sink, kind, file, path, 0, -1, what, detail);
}

void
tfdbg1_progress(struct tfdbg1_pass *p, uint64_t bytes)
{
	p->progress.done += bytes;
	reader_report_progress(p->sink, &p->progress, true);
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

/* A file listed by the scan is gone by the time it is read: missing;
 * anything else: unreadable. */
static enum reader_problem_kind
read_problem(enum td_status st)
{
	return st == TD_ERR_NOENT ? PROBLEM_MISSING_FILE : PROBLEM_UNREADABLE;
}

/* Adds f (its strings copied into the reader's pool) and announces it;
 * returns its id. */
static uint32_t
announce_file(struct tfdbg1_pass *p, struct tfdbg1_file *f, const char *path, uint64_t size)
{
	uint32_t id;
	struct reader_file rf = {0};  /* listed_only and read: none */

	f->row = -1;
	id = tfdbg1_add_file(p->r, f, path);
	rf.id = id;
	rf.path = path;
	rf.size = size;
	rf.host = NULL;
	rf.role = role_name(f->role);
	if (p->sink->on_file)
		p->sink->on_file(p->sink->ctx, &rf);
	return id;
}

uint32_t
tfdbg1_announce_path(struct tfdbg1_pass *p, const char *path, enum tfdbg1_role role, uint32_t run,
		     uint64_t size)
{
	struct tfdbg1_file f = { 0 };

	f.role = role;
	f.run = run;
	return announce_file(p, &f, path, size);
}

uint32_t
tfdbg1_device_id(struct tfdbg1_pass *p, const char *name)
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
read_message(struct tfdbg1_pass *p, const char *path, enum tfdbg1_role role, uint32_t run)
{
	uint8_t *data;
	size_t len;
	char err[256], *msg = NULL;
	enum td_status st;
	uint32_t id;

	st = tfdbg1_read_file(path, &data, &len, err, sizeof(err));
	id = tfdbg1_announce_path(p, path, role, run, st == TD_OK ? len : 0);
	if (st != TD_OK) {
		tfdbg1_problem(p, read_problem(st), id, path, role_name(role), err);
		return NULL;
	}
	tfdbg1_progress(p, len);
	if (tfdbg1_log_message(data, len, &msg, NULL, err, sizeof(err)) != TD_OK)
		tfdbg1_problem(p, PROBLEM_DECODE_ERROR, id, path, role_name(role), err);
	free(data);
	return msg;
}

static void
add_list_line(struct strbuf *sb, const char *label, char **items, size_t n)
{
	size_t i;

	strbuf_addf(sb, "%s: ", label);
	for (i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i ? ", " : "", td_oneline(items[i]));
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
/* The run's fetched tensor names, taken from m, for decode(EXECUTION). */
static void
keep_fetches(struct reader *r, uint32_t run, struct tfdbg1_core_meta *m)
{
	pthread_mutex_lock(&r->lock);
	r->runs[run].fetched = m->output_names;
	r->runs[run].nfetched = m->noutputs;
	r->runs[run].ntargets = (uint32_t)m->ntargets;
	pthread_mutex_unlock(&r->lock);
	m->output_names = NULL;
	m->noutputs = 0;
}

uint32_t
tfdbg1_read_core(struct tfdbg1_pass *p, const struct tfdbg1_scan *s, uint32_t run,
		 struct strbuf *text)
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
		strbuf_addf(text, "core metadata: %s\n", td_oneline(base ? base + 1 : s->core_paths[i]));
		add_number_line(text, "global step", m.global_step);
		add_number_line(text, "session run index", m.session_run_index);
		add_number_line(text, "executor step index", m.executor_step_index);
		add_list_line(text, "input names", m.input_names, m.ninputs);
		add_list_line(text, "output names", m.output_names, m.noutputs);
		add_list_line(text, "target nodes", m.target_nodes, m.ntargets);
		if (i == 0) {
			fetches = (uint32_t)(m.noutputs + m.ntargets);
			keep_fetches(p->r, run, &m);
		}
		tfdbg1_core_meta_done(&m);
		free(json);
	}
	return fetches;
}

void
tfdbg1_read_info(struct tfdbg1_pass *p, const char *path, enum tfdbg1_role role, uint32_t run,
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
send_ops(struct tfdbg1_pass *p, const struct tfdbg1_graph *g, const char *graph_id, const char *dev)
{
	size_t i;

	if (!p->sink->on_op)
		return;
	for (i = 0; i < g->nnodes; i++) {
		const struct tfdbg1_graph_node *n = &g->nodes[i];
		struct reader_op op = { 0 };

		op.graph_id = graph_id;
		op.op_name = n->name;
		op.op_type = n->op;
		op.device = n->device[0] ? n->device : dev;
		op.inputs = (const char *const *)n->inputs;
		op.ninputs = n->ninputs;
		op.control_inputs = (const char *const *)n->controls;
		op.ncontrol_inputs = n->ncontrols;
		op.attrs = n->attrs;
		op.nattrs = n->nattrs;
		op.num_outputs = n->num_outputs;
		op.wall_time = g->wall_time_us / 1e6;
		p->sink->on_op(p->sink->ctx, &op);
	}
}

/* Decodes a partition graph's file bytes (taking data), or shares the last
 * graph decoded when the bytes are the same. */
static enum td_status
decode_graph(struct tfdbg1_pass *p, uint8_t *data, size_t len, struct tfdbg1_graph *g,
	     char *err, size_t errlen)
{
	enum td_status st;

	if (p->graph_bytes && len == p->graph_len && memcmp(data, p->graph_bytes, len) == 0) {
		free(data);
		tfdbg1_graph_share(&p->graph, g);
		return TD_OK;
	}
	st = tfdbg1_graph_decode(data, len, g, err, errlen);
	if (st != TD_OK) {
		free(data);
		return st;
	}
	tfdbg1_pass_done(p);
	p->graph_bytes = data;
	p->graph_len = len;
	tfdbg1_graph_share(g, &p->graph);
	return TD_OK;
}

void
tfdbg1_pass_done(struct tfdbg1_pass *p)
{
	free(p->graph_bytes);
	p->graph_bytes = NULL;
	p->graph_len = 0;
	tfdbg1_graph_done(&p->graph);
}

/* Announces the partition of one device in a run and decodes its graph
 * into *g (left empty when there is none or it does not decode). */
void
tfdbg1_send_graph(struct tfdbg1_pass *p, const char *run_dir, const struct tfdbg1_scan_dev *dev,
		  uint32_t run, struct tfdbg1_graph *g)
{
	char *graph_id = tfdbg1_graph_id(run_dir, dev->name);
	struct reader_graph rg = { graph_id, graph_id, "", NULL };
	uint8_t *data;
	size_t len;
	char err[256];
	enum td_status st;
	uint32_t id;

	memset(g, 0, sizeof(*g));
	tfdbg1_device_id(p, dev->name);
	if (p->sink->on_graph)
		p->sink->on_graph(p->sink->ctx, &rg);
	if (dev->graph_path) {
		id = tfdbg1_announce_path(p, dev->graph_path, TFDBG1_GRAPH, run, dev->graph_size);
		st = tfdbg1_read_file(dev->graph_path, &data, &len, err, sizeof(err));
		if (st != TD_OK) {
			tfdbg1_problem(p, read_problem(st), id, dev->graph_path, "partition graph",
				       err);
		} else {
			tfdbg1_progress(p, len);
			if (decode_graph(p, data, len, g, err, sizeof(err)) != TD_OK)
				tfdbg1_problem(p, PROBLEM_DECODE_ERROR, id, dev->graph_path,
					       "partition graph", err);
			else
				send_ops(p, g, graph_id, dev->name);
		}
	}
	free(graph_id);
}

/* The summary a trace row carries (tfdbg1_stage_read: DebugIdentity
 * numbers summarised in place, everything else through the full decode),
 * read here unless the staging thread read it ahead. */
static void
read_summary(struct tfdbg1_pass *p, const struct tfdbg1_file *f, const char *path,
	     const struct tfdbg1_staged *staged, struct reader_trace *t)
{
	struct tfdbg1_staged own;

	if (!staged) {
		tfdbg1_stage_read(path, f->debug_op, &own);
		staged = &own;
	}
	if (staged->st != TD_OK) {
		tfdbg1_problem(p, read_problem(staged->st), t->loc.file, path, "tensor dump",
			       staged->err);
	} else {
		tfdbg1_progress(p, staged->len);
		t->summary = staged->summary;
		if (staged->decode_failed)
			tfdbg1_problem(p, PROBLEM_DECODE_ERROR, t->loc.file, path, "tensor dump",
				       staged->err);
	}
	if (staged == &own)
		tfdbg1_staged_done(&own);
}

void
tfdbg1_send_trace(struct tfdbg1_pass *p, struct tfdbg1_scan_dump *sd, uint32_t run,
		  const char *graph_id, const struct tfdbg1_graph *g, uint32_t dev, bool repeat,
		  const struct tfdbg1_staged *staged)
{
	struct tfdbg1_file f = { 0 };
	const struct tfdbg1_graph_node *node;
	struct reader_trace t = { 0 };

	f.node = sd->name.node;
	f.debug_op = sd->name.debug_op;
	f.slot = sd->name.slot;
	f.timestamp = sd->name.timestamp;
	f.collision = sd->name.collision;
	f.role = TFDBG1_DUMP;
	f.run = run;
	f.device = dev;
	node = tfdbg1_graph_find(g, f.node);
	f.op_type = node ? node->op : NULL;
	note_debug_op(p->r, f.debug_op);
	t.loc.file = announce_file(p, &f, sd->path, sd->size);
	t.graph_id = graph_id;
	t.op_name = f.node;
	t.op_type = f.op_type;
	t.slot = f.slot;
	t.execution = run;
	t.repeat = repeat;
	pthread_mutex_lock(&p->r->lock);
	t.step = p->r->runs[run].counter;
	pthread_mutex_unlock(&p->r->lock);
	t.wall_time = (double)f.timestamp / 1e6;
	read_summary(p, &f, sd->path, staged, &t);
	if (p->sink->on_trace)
		p->sink->on_trace(p->sink->ctx, &t);
}
