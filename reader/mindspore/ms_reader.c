/*
 * ms_reader.c - the MindSpore dump reader (FORMAT.md): the
 * reader_ops table, close and the index driver that pushes records in
 * dependency order (detection and open are in ms_detect.c).  Directory walking lives in ms_sync.c (rank
 * layout) and ms_async.c (ACL layout, bin and overflow files), one run's
 * tensors in ms_run.c, decode() and sources/frames in ms_decode.c, the
 * interner in ms_strs.c; parsing in ms_*.c, npy.c and csv.c.
 *
 * Rows: one execution per graph run (iteration directory), labelled
 * "graph G iter I" (ACL: "model M iter I [step S]"), host "rank_N" (ACL:
 * "device_N"), ordered by the global execution order file (else by
 * iteration), then rank, then graph id.  Its traces are the op inputs and
 * outputs in kernel execution order (ms_sync.c says exactly how), with the
 * scoped op name of the graph node whose file-name form matches.
 * Summaries: the statistic.csv row when there is one; else the index pass
 * computes them from the data, streamed in chunks (so every NaN/Inf tensor
 * is an alert; a bin file that cannot be read keeps what its header says).
 * A row keeps none (struct ms_entry): decode() reads it again, the same way.
 * Locators: a trace is (file = run number, offset = entry number), an
 * execution (run number, 0), a source (0, source number).
 * Follow mode: a later index() call adds the iteration directories that
 * appeared since; a run is read once, when first seen.
 */
#include "ms_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader/reader_report.h"

#include "ms_opmemo.h"
#include "ms_stage.h"

static void
run_free(struct ms_run *run)
{
	free(run->entries);
	free(run->pend);
	free(run->wide);
	free(run->sizes);
	free(run->names);
	ms_run_read_free(run);
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
	td_strpool_done(&rk->file_forms);
	ms_op_memos_free(rk);
	free(rk->form_full);
	free(rk->form_type);
	for (i = 0; i < rk->norders; i++) {
		free(rk->orders[i].graph_id);
		td_strpool_done(&rk->orders[i].kernels);
		td_strpool_done(&rk->orders[i].iters);
	}
	free(rk->orders);
	free(rk->dir);
}

static void
ms_close(struct reader *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nruns; i++)
		run_free(&r->runs[i]);
	free(r->runs);
	for (i = 0; i < r->nranks; i++)
		rank_free(&r->ranks[i]);
	free(r->ranks);
	for (i = 0; i < r->nsources; i++) {
		free(r->sources[i].lines);
		free(r->sources[i].path);
	}
	free(r->sources);
	free(r->frames);
	td_strpool_done(&r->frame_keys);
	td_strpool_done(&r->unreadable);
	td_strpool_done(&r->run_paths);
	td_strpool_done(&r->const_dirs);
	td_strpool_done(&r->ops_sent);
	ms_stat_done(&r->stat);
	td_strpool_done(&r->source_keys);
	td_strpool_done(&r->strs);
	pthread_mutex_destroy(&r->lock);
	pthread_mutex_destroy(&r->layout_lock);
	ms_deps_free(r);
	free(r->state_copy);
	free(r->state_names);
	free(r->net_name);
	free(r->source_root);
	free(r->only);
	free(r->top);
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

/* Sources and frames not sent yet (a new rank's in follow mode). */
static void
emit_sources_frames(struct reader *r, const struct reader_sink *sink)
{
	size_t i;

	for (i = r->nsources_sent; sink->on_source && i < r->nsources; i++) {
		struct reader_source s = {
			.id = (uint32_t)i, .host = r->sources[i].host, .path = r->sources[i].path,
			.loc = { .file = 0, .offset = i }, .nlines = r->sources[i].maxline,
		};

		sink->on_source(sink->ctx, &s);
	}
	for (i = r->nframes_sent; sink->on_frame && i < r->nframes; i++) {
		const struct ms_frame_rec *f = &r->frames[i];
		struct reader_frame rf = {
			.id = f->id, .host = f->host, .file = f->file, .source_id = f->source,
			.line = f->line, .func = "", .code = f->code,
			.framework = reader_path_is_framework(f->file),
		};

		sink->on_frame(sink->ctx, &rf);
	}
	r->nsources_sent = r->nsources;
	r->nframes_sent = r->nframes;
}

bool
ms_note_op_sent(struct reader *r, const char *graph_id, const char *op)
{
	/* once per row of a run: the key built without printf, on the
	 * stack when it is short */
	char buf[256], *key = buf;
	size_t g = strlen(graph_id), o = strlen(op);
	bool added;

	if (g + o + 2 > sizeof buf)
		key = xmalloc(g + o + 2);
	memcpy(key, graph_id, g);
	key[g] = '\t';
	memcpy(key + g + 1, op, o + 1);
	td_strpool_id(&r->ops_sent, key, &added);
	if (key != buf)
		free(key);
	return added;
}

/* Sends op with its older file-name spelling as an alias (§5.2). */
static void
send_op(const struct reader_sink *sink, struct reader_op *op)
{
	char *dash = ms_name_dash_form(op->op_name);
	const char *aliases[1] = { dash };

	if (dash) {
		op->aliases = aliases;
		op->naliases = 1;
	}
	sink->on_op(sink->ctx, op);
	op->aliases = NULL;
	op->naliases = 0;
	free(dash);
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
		.control_inputs = (const char *const *)n->controls, .ncontrol_inputs = n->ncontrols,
		.attrs = n->attrs, .nattrs = n->nattrs, .output_types = n->otypes,
		.noutput_types = n->notypes,
		.frame_ids = ids, .nframes = nf,
	};

	send_op(sink, &op);
	ms_note_op_sent(r, graph_id, n->full_name);
	free(ids);
}

/* Parameters and constants: ops without inputs that other ops read. */
static void
emit_leaves(struct reader *r, const struct reader_sink *sink, const struct ms_rank *rk,
	    const char *graph_id, char *const *names, size_t n, const char *type)
{
	size_t k;

	for (k = 0; sink->on_op && k < n; k++) {
		struct reader_op op = {
			.graph_id = graph_id, .op_name = names[k], .op_type = type,
			.host = rk->host, .num_outputs = 1,
		};

		send_op(sink, &op);
		ms_note_op_sent(r, graph_id, names[k]);
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
			emit_leaves(r, sink, rk, rk->graph_ids[g], gr->params, gr->nparams, "Parameter");
			emit_leaves(r, sink, rk, rk->graph_ids[g], gr->consts, gr->nconsts, "Constant");
		}
		rk->ngraphs_sent = rk->ngraphs;
	}
}

void
ms_register_frames(struct reader *r)
{
	size_t i, g, k;

	pthread_mutex_lock(&r->lock);
	for (i = r->nranks_framed; i < r->nranks; i++)
		for (g = 0; g < r->ranks[i].ngraphs; g++)
			for (k = 0; k < r->ranks[i].graphs[g].nnodes; k++) {
				const char **ids;

				ms_node_frames(r, r->ranks[i].host, &r->ranks[i].graphs[g].nodes[k], &ids);
				free(ids);
			}
	r->nranks_framed = r->nranks;
	pthread_mutex_unlock(&r->lock);
}

int
ms_run_cmp(const void *a, const void *b)
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

/* The iteration number as a step (one beyond INT64_MAX is not a step). */
static int64_t
ms_run_step(const struct ms_run *run)
{
	return run->iteration <= INT64_MAX ? (int64_t)run->iteration : -1;
}

/* m: the run's op memos (ms_opmemo.h), or NULL. */
static void
emit_trace(const struct reader_sink *sink, const struct ms_run *run, size_t k,
	   const struct ms_op_memos *m)
{
	const struct ms_entry *e = &run->entries[k];
	struct reader_trace t = {
		.loc = { .file = run->file_id, .offset = k },
		.graph_id = run->graph_id, .op_name = e->op_name, .op_type = e->op_type,
		.slot = e->slot, .is_input = e->is_input, .execution = run->execution,
		.wall_time = (double)e->ts / 1e6, .summary = run->pend[k].summary,
		.step = ms_run_step(run),
		/* a statistic-only row: decode() gives this line's summary and
		 * holds no values (ms_decode.c) */
		.summary_exact = e->kind == MS_ENTRY_STAT,
		/* the model knows the op by it, without comparing the names */
		.op_key = m && run->pend[k].memo >= 0 ? m->v[run->pend[k].memo].key : 0,
	};

	sink->on_trace(sink->ctx, &t);
}

/* The overflow record ov as an alert: the op is the run's entry of the same
 * (task, stream); the alert locates that op's first output row. */
static void
emit_overflow(const struct reader_sink *sink, const struct ms_run *run,
	      const struct ms_overflow *ov)
{
	struct reader_alert a = { .kind = READER_ALERT_OVERFLOW, .execution = run->execution,
				  .slot = -1 };
	const char *op = NULL;
	size_t j;
	char *detail;

	for (j = 0; j < run->n; j++) {
		const struct ms_entry *e = &run->entries[j];

		if (ms_entry_task(run, j) != ov->task_id || ms_entry_stream(run, j) != ov->stream_id)
			continue;
		if (!op)
			op = e->op_name;
		if (!e->is_input && strcmp(e->op_name, op) == 0) {
			a.has_trace = true;
			a.trace.file = run->file_id;
			a.trace.offset = j;
			break;
		}
	}
	detail = xasprintf("%s overflow: status 0x%llx, stream %llu, task %llu%s (%s)",
			   ov->section, (unsigned long long)ov->status,
			   (unsigned long long)ov->stream_id, (unsigned long long)ov->task_id,
			   op ? "" : ", no dumped op has these ids", run->label);
	a.op_name = op ? op : "";
	a.detail = detail;
	if (sink->on_alert)
		sink->on_alert(sink->ctx, &a);
	free(detail);
}

/* Overflow files of a run: find the op by (stream_id, task_id), §12. */
static void
emit_overflows(const struct reader_sink *sink, const struct ms_run *run, char **files,
	       size_t nfiles)
{
	size_t i, k;

	for (i = 0; i < nfiles; i++) {
		struct ms_overflow ov[3];
		char err[256] = "";
		size_t len = strlen(files[i]);
		bool json = len > 5 && strcmp(files[i] + len - 5, ".json") == 0;
		size_t n = ms_overflow_read(files[i], json, ov, err, sizeof err);

		if (!n)
			ms_problem(sink, PROBLEM_DECODE_ERROR, files[i], "Opdebug overflow record", err);
		for (k = 0; k < n; k++)
			if (ov[k].status)
				emit_overflow(sink, run, &ov[k]);
	}
}

/* Ops only the tensor files name (no graph file, Parameter files,
 * constants): sent once with their type so rows and alerts have one. */
static void
emit_unlisted_ops(struct reader *r, const struct reader_sink *sink, const struct ms_run *run)
{
	/* the run's ops memoized (ms_opmemo.c): "sent" asked once each */
	struct ms_op_memos *m = (size_t)run->rank_order < r->nranks && run->graph_id ?
				ms_op_memos_of(&r->ranks[run->rank_order], run->graph_id) : NULL;
	size_t k;

	for (k = 0; sink->on_op && k < run->n; k++) {
		const struct ms_entry *e = &run->entries[k];
		struct reader_op op = {
			.graph_id = run->graph_id, .op_name = e->op_name, .op_type = e->op_type,
			.host = run->host, .num_outputs = 1,
		};

		struct ms_op_memo *mo = m && run->pend[k].memo >= 0 ? &m->v[run->pend[k].memo] : NULL;

		/* the op of the row before (names are interned): noted already */
		if (k && e->op_name == run->entries[k - 1].op_name)
			continue;
		if (mo && mo->sent)
			continue;   /* noted for this graph before */
		if (ms_note_op_sent(r, run->graph_id, e->op_name))
			send_op(sink, &op);
		if (mo)
			mo->sent = true;
	}
}

/* The run's folder as one dump file, after its load: listed only when
 * its statistic.csv gave the summaries (reader_file.listed_only), with
 * the names of the files whose bytes were read (then forgotten). */
static void
announce_run(const struct reader_sink *sink, struct ms_run *run)
{
	struct reader_file f = {
		.id = run->file_id, .path = run->path, .host = run->host, .role = "iteration",
		.listed_only = run->listed_only, .read = (const char *const *)run->read,
		.nread = run->nread,
	};

	if (sink->on_file)
		sink->on_file(sink->ctx, &f);
	ms_run_read_free(run);
}

/* ahead: the run's folder read ahead (ms_stage.h), or NULL. */
static void
emit_run(struct reader *r, const struct reader_sink *sink, struct ms_run *run, int64_t exec,
	 struct ms_staged *ahead)
{
	char **over = NULL;
	size_t nover = 0, k;
	uint64_t first_ts = UINT64_MAX;
	struct reader_execution e = {0};
	const struct ms_op_memos *m;

	run->execution = exec;
	ms_run_load(r, run, sink, ahead, &over, &nover);
	announce_run(sink, run);
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
	e.step = ms_run_step(run);
	emit_unlisted_ops(r, sink, run);
	if (sink->on_execution)
		sink->on_execution(sink->ctx, &e);
	m = (size_t)run->rank_order < r->nranks && run->graph_id ?
	    ms_op_memos_of(&r->ranks[run->rank_order], run->graph_id) : NULL;
	for (k = 0; sink->on_trace && k < run->n; k++)
		emit_trace(sink, run, k, m);
	r->tensors += run->n;
	emit_overflows(sink, run, over, nover);
	pthread_mutex_lock(&r->lock);
	free(run->pend);            /* sent: decode() reads the sources again */
	run->pend = NULL;
	pthread_mutex_unlock(&r->lock);
	for (k = 0; k < nover; k++)
		free(over[k]);
	free(over);
}

static void
emit_meta_counts(struct reader *r, const struct reader_sink *sink)
{
	struct td_strpool graphs = {0}, iters = {0};
	size_t i;

	for (i = 0; i < r->nruns; i++) {
		char buf[32];

		snprintf(buf, sizeof buf, "%llu", (unsigned long long)r->runs[i].iteration);
		td_strpool_add(&iters, buf);
		td_strpool_add(&graphs, r->runs[i].graph_id);
	}
	for (i = 0; i < r->nranks; i++) {
		size_t g;

		for (g = 0; g < r->ranks[i].ngraphs; g++)
			td_strpool_add(&graphs, r->ranks[i].graph_ids[g]);
	}
	meta_u64(sink, "graphs", graphs.n);
	meta_u64(sink, "iterations", iters.n);
	meta_u64(sink, "tensors", r->tensors);
	td_strpool_done(&graphs);
	td_strpool_done(&iters);
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

/* Sorts the runs not sent yet (found by this pass or held back); their
 * file ids are their places.  Nothing is announced before it is sent. */
static void
order_new_runs(struct reader *r)
{
	size_t i, first = r->nemitted;

	pthread_mutex_lock(&r->lock);
	if (r->nruns > first)
		td_sort(r->runs + first, r->nruns - first, sizeof(*r->runs), ms_run_cmp);
	for (i = first; i < r->nruns; i++)
		r->runs[i].file_id = (uint32_t)i;
	pthread_mutex_unlock(&r->lock);
}


/* A staging thread that reads the folders of runs first.. ahead (every
 * run is sent in this pass: none is held back), or NULL. */
static struct ms_stage *
stage_runs(const struct reader *r, size_t first)
{
	const char **paths;
	struct ms_stage *sg;
	size_t i, n = r->nruns - first;

	if (n == 0)
		return NULL;
	paths = xmalloc(n * sizeof(*paths));
	for (i = 0; i < n; i++)
		paths[i] = r->runs[first + i].path;     /* runs[] does not move in the pass */
	sg = ms_stage_start(paths, n, r->may_follow);
	free(paths);
	return sg;
}

/* Sends the runs in order up to the first still being written (follow
 * mode: ms_follow.c); returns false when the consumer gave the pass up. */
static bool
emit_runs(struct reader *r, const struct reader_sink *sink)
{
	/* a pass resumed from a saved state reads like a first one */
	bool hold = r->follow || (r->indexed && !r->resumed);
	int64_t now = ms_now_ns();
	struct reader_progress progress = { .done = r->nemitted, .total = r->nruns };  /* runs */
	size_t i, first = r->nemitted;
	struct ms_stage *sg = hold ? NULL : stage_runs(r, first);

	for (i = first; i < r->nruns; i++) {
		/* reader.h should_stop: the consumer gives the pass up */
		if (sink->should_stop && sink->should_stop(sink->ctx)) {
			ms_stage_stop(sg);
			return false;
		}
		if (hold && !ms_run_settled(r, &r->runs[i], now))
			break;             /* it and the runs after it wait */
		emit_run(r, sink, &r->runs[i], (int64_t)i, sg ? ms_stage_get(sg, i - first) : NULL);
		ms_stage_put(sg, i - first);
		r->nemitted = i + 1;
		progress.done = i + 1;
		reader_report_progress(sink, &progress, true);
	}
	ms_stage_stop(sg);
	if (hold)   /* 0 once everything is in: a scalar, the last value wins */
		meta_u64(sink, "incomplete_iterations", r->nruns - r->nemitted);
	return true;
}

/* First pass: everything (in follow mode, up to an iteration still being
 * written).  Later passes (follow mode) add the ranks and iteration
 * directories that appeared since and the iterations that settled, and
 * report what changed after it was read; a run is read once. */
static enum td_status
ms_index(struct reader *r, const struct reader_sink *sink)
{
	bool first = !r->indexed, lazy;
	size_t before;

	pthread_mutex_lock(&r->layout_lock);   /* a decode may have made it whole */
	lazy = r->lazy;
	pthread_mutex_unlock(&r->layout_lock);
	if (lazy) {
		/* resumed from a layout unchanged at the load (ms_layout.c):
		 * a pass would find nothing new and send nothing; the graphs
		 * are loaded when a pass has work (follow mode, runs held back
		 * by a follow pass before the save, a later pass) */
		if (r->resumed && !r->follow && r->nemitted == r->nruns) {
			r->resumed = false;
			return TD_OK;
		}
		ms_layout_materialize(r);
	}
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
	order_new_runs(r);
	ms_register_frames(r);
	emit_sources_frames(r, sink);
	emit_graphs(r, sink);
	if (!first && !r->resumed)   /* resumed: the model found the folders unchanged */
		ms_follow_check(r, sink);
	before = r->nemitted;
	if (!emit_runs(r, sink))
		return TD_OK;
	if (!r->resumed || r->nemitted > before)
		emit_meta_counts(r, sink);
	r->indexed = true;
	r->resumed = false;
	return TD_OK;
}

/* Opened at a net, graph or iteration folder, the reader reads the whole
 * rank (§2); a rank_N folder whose parent holds the rank_* folders belongs
 * to that dump: that is the folder tdbg must not write into. */
static const char *
ms_read_root(struct reader *r)
{
	return r->top ? r->top : r->root;
}


const struct reader_ops mindspore_reader_ops = {
	.name = "mindspore",
	.looks_for = "rank_* directories or 14-digit time directories (MindSpore dump)",
	.description = "MindSpore Dump: synchronous (.npy, statistic.csv) and asynchronous (bin) dumps",
	.values_in = ".npy",
	.flags = READER_ROWS_TIME_ORDERED,
	.probe = ms_probe,
	.probe_list = ms_probe_list,
	.open = ms_open,
	.index = ms_index,
	.decode = ms_decode,
	.advance = ms_advance,
	.close = ms_close,
	.read_root = ms_read_root,
	.save_state = ms_save_state,
	.load_state = ms_load_state,
};
