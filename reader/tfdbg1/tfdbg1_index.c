/*
 * tfdbg1_index.c - the tfdbg v1 index pass.
 *
 * Finds the run directories not indexed yet (a plain dump root is one run),
 * sorts them by (<us>, counter) and, per run, sends: the run's files, its
 * devices and partition graphs with their ops, the run as one execution,
 * then one trace per tensor dump in dump-time order (tfdbg1_emit.c sends
 * the records).  A later pass (follow mode) first picks up dumps written
 * since into the last run, which keeps each run's rows together, then the
 * new runs.  The runs are scanned on two threads and their dump files read
 * ahead by a staging thread (tfdbg1_stage.c); only this thread sends.
 */
#include "tfdbg1_internal.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
add_run(struct tfdbg1_pass *p, const struct tfdbg1_scan *s)
{
	struct reader *r = p->r;
	struct tfdbg1_run run = { 0 };
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
	file = tfdbg1_announce_path(p, s->path, TFDBG1_RUN, idx, 0);
	pthread_mutex_lock(&r->lock);
	r->runs[idx].file = file;
	pthread_mutex_unlock(&r->lock);
	return idx;
}

static void
run_text_head(const struct tfdbg1_scan *s, struct strbuf *text)
{
	size_t i;

	strbuf_addf(text, "run: %s\n", td_oneline(s->dir));
	if (s->is_run) {
		strbuf_addf(text, "run counter: %s\n", td_oneline(s->token));
		strbuf_addf(text, "run start: %" PRIu64 " us\n", s->us);
	}
	strbuf_addf(text, "dump root: %s\n", td_oneline(s->path));
	for (i = 0; i < s->ndevs; i++)
		strbuf_addf(text, "device: %s%s\n", s->devs[i].name[0] ? td_oneline(s->devs[i].name) : "(none)",
			    s->devs[i].graph_path ? "" : " (no partition graph)");
}

static void
send_execution(struct tfdbg1_pass *p, const struct tfdbg1_scan *s, uint32_t run, uint32_t fetches)
{
	struct reader_execution e = { 0 };
	char *graph_id = s->ndevs == 1 ? tfdbg1_graph_id(s->dir, s->devs[0].name) : NULL;

	pthread_mutex_lock(&p->r->lock);
	e.loc.file = p->r->runs[run].file;
	e.op_type = p->r->runs[run].label;
	e.wall_time = p->r->runs[run].wall_time;
	e.has_values = p->r->runs[run].nfetched > 0;     /* decode gives the fetched values */
	e.step = p->r->runs[run].counter;                /* Session.run #counter, -1 unknown */
	pthread_mutex_unlock(&p->r->lock);
	e.graph_id = graph_id ? graph_id : "";
	e.num_outputs = fetches;
	if (p->sink->on_execution)
		p->sink->on_execution(p->sink->ctx, &e);
	free(graph_id);
}

/* ---- the live run: the last one, which may still be growing ---------- */

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
live_has(const struct tfdbg1_live *l, const char *path)
{
	return l->npaths && bsearch(&path, l->paths, l->npaths, sizeof(char *), cmp_str);
}

/* Notes path as sent; live_sort() restores the order after a batch. */
static void
live_note(struct tfdbg1_live *l, const char *path)
{
	TD_GROW(l->paths, l->pathcap, l->npaths + 1);
	l->paths[l->npaths++] = xstrdup(path);
}

static void
live_sort(struct tfdbg1_live *l)
{
	if (l->npaths > 1)
		td_sort(l->paths, l->npaths, sizeof(char *), cmp_str);
}

void
tfdbg1_live_done(struct tfdbg1_live *l)
{
	size_t i;

	for (i = 0; i < l->ndevs; i++) {
		free(l->devs[i].name);
		free(l->devs[i].graph_id);
		free(l->devs[i].graph_path);
		tfdbg1_graph_done(&l->devs[i].graph);
	}
	for (i = 0; i < l->npaths; i++)
		free(l->paths[i]);
	free(l->devs);
	free(l->paths);
	free(l->dir);
	free(l->path);
	memset(l, 0, sizeof(*l));
}

/* The live device called name, announcing it (and its partition graph)
 * the first time. */
static struct tfdbg1_live_dev *
live_dev(struct tfdbg1_pass *p, const struct tfdbg1_scan_dev *sd)
{
	struct tfdbg1_live *l = &p->r->live;
	struct tfdbg1_live_dev *d;
	size_t i;

	for (i = 0; i < l->ndevs; i++)
		if (!strcmp(l->devs[i].name, sd->name))
			return &l->devs[i];
	TD_GROW(l->devs, l->devcap, l->ndevs + 1);
	d = &l->devs[l->ndevs++];
	memset(d, 0, sizeof(*d));
	d->name = xstrdup(sd->name);
	d->graph_id = tfdbg1_graph_id(l->dir, sd->name);
	d->dev_id = tfdbg1_device_id(p, sd->name);
	tfdbg1_send_graph(p, l->dir, sd, l->run, &d->graph);
	if (sd->graph_path) {
		live_note(l, sd->graph_path);
		d->graph_path = xstrdup(sd->graph_path);
	}
	return d;
}

/* Problems of a scan not reported before. */
static void
report_scan_problems(struct tfdbg1_pass *p, const struct tfdbg1_scan *s)
{
	struct tfdbg1_live *l = &p->r->live;
	size_t i;

	for (i = 0; i < s->nunreadable; i++) {
		if (live_has(l, s->unreadable[i]))
			continue;
		tfdbg1_problem(p, PROBLEM_UNREADABLE, -1, s->unreadable[i], "directory",
			       "cannot list the directory");
		live_note(l, s->unreadable[i]);
	}
	for (i = 0; i < s->nbroken; i++) {
		if (live_has(l, s->broken[i]))
			continue;
		tfdbg1_problem(p, PROBLEM_MISSING_FILE, -1, s->broken[i], "tensor dump",
			       "the entry cannot be read (a dangling link?)");
		live_note(l, s->broken[i]);
	}
	for (i = 0; i < s->nskipped; i++) {
		char *path, *why;

		if (live_has(l, s->skipped[i]))
			continue;
		path = xstrdup(s->skipped[i]);
		why = strchr(path, '\t');
		*why++ = '\0';
		tfdbg1_problem(p, PROBLEM_UNREADABLE, -1, path, "tensor dump", why);
		live_note(l, s->skipped[i]);
		free(path);
	}
	for (i = 0; i < s->nunparsed; i++) {
		uint32_t id;

		if (live_has(l, s->unparsed[i]))
			continue;
		id = tfdbg1_announce_path(p, s->unparsed[i], TFDBG1_UNPARSED, l->run, 0);
		tfdbg1_problem(p, PROBLEM_UNPARSED_NAME, id, s->unparsed[i], "tensor dump",
			       "expected <node>_<slot>_<debug_op>_<timestamp>[-<n>]");
		live_note(l, s->unparsed[i]);
	}
}

#define IDENTITY_OP "DebugIdentity"

/* Dumps of one tensor together: (device, node, slot), then scan (time)
 * order, which is their order in the scan's array. */
static int
cmp_tensor(const void *a, const void *b)
{
	const struct tfdbg1_scan_dump *x = *(const struct tfdbg1_scan_dump *const *)a;
	const struct tfdbg1_scan_dump *y = *(const struct tfdbg1_scan_dump *const *)b;
	int c;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if ((c = strcmp(x->name.node, y->name.node)))
		return c;
	if (x->name.slot != y->name.slot)
		return x->name.slot < y->name.slot ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* Marks the dumps that repeat a tensor another dump of the run holds: when
 * one tensor has several debug ops, the DebugIdentity dumps (the values)
 * carry it, else the debug op of its first dump; dumps of that op are
 * distinct tensors (a node run twice in one step), the others repeats.
 * Returns a malloc'd flag per dump. */
static bool *
mark_repeats(const struct tfdbg1_scan *s)
{
	bool *rep = xcalloc(s->ndumps ? s->ndumps : 1, sizeof(*rep));
	const struct tfdbg1_scan_dump **ix = xcalloc(s->ndumps ? s->ndumps : 1, sizeof(*ix));
	size_t i, j, k;

	for (i = 0; i < s->ndumps; i++)
		ix[i] = &s->dumps[i];
	td_sort(ix, s->ndumps, sizeof(*ix), cmp_tensor);
	for (i = 0; i < s->ndumps; i = j) {
		const char *keep = ix[i]->name.debug_op;

		for (j = i + 1; j < s->ndumps; j++) {
			if (ix[j]->dev != ix[i]->dev || ix[j]->name.slot != ix[i]->name.slot ||
			    strcmp(ix[j]->name.node, ix[i]->name.node))
				break;
			if (!strcmp(ix[j]->name.debug_op, IDENTITY_OP))
				keep = IDENTITY_OP;
		}
		for (k = i; k < j; k++)
			rep[ix[k] - s->dumps] = strcmp(ix[k]->name.debug_op, keep) != 0;
	}
	free(ix);
	return rep;
}

/* The scan's dumps not sent before, in the scan's (time) order. */
static void
send_new_dumps(struct tfdbg1_pass *p, struct tfdbg1_scan *s)
{
	struct tfdbg1_live *l = &p->r->live;
	size_t i, before = l->npaths;
	bool *repeat = mark_repeats(s);

	for (i = 0; i < s->ndumps; i++) {
		struct tfdbg1_scan_dump *sd = &s->dumps[i];
		struct tfdbg1_live_dev *d;

		/* reader.h should_stop: the consumer gives the pass up */
		if ((i & 1023) == 1023 && p->sink->should_stop && p->sink->should_stop(p->sink->ctx))
			break;
		if (before && live_has(l, sd->path))
			continue;
		d = live_dev(p, &s->devs[sd->dev]);
		live_note(l, sd->path);
		tfdbg1_send_trace(p, sd, l->run, d->graph_id, &d->graph, d->dev_id, repeat[i],
				  p->stage ? tfdbg1_stage_get(p->stage, p->stage_run, i) : NULL);
	}
	free(repeat);
	live_sort(l);
}

static void
index_run(struct tfdbg1_pass *p, struct tfdbg1_scan *s)
{
	struct tfdbg1_live *l = &p->r->live;
	struct strbuf text = { 0 };
	uint32_t fetches;
	size_t i;

	tfdbg1_live_done(l);
	l->run = add_run(p, s);
	l->dir = xstrdup(s->dir);
	l->path = xstrdup(s->path);
	run_text_head(s, &text);
	tfdbg1_read_info(p, s->fetches_path, TFDBG1_FETCHES, l->run, "fetches", &text);
	tfdbg1_read_info(p, s->feeds_path, TFDBG1_FEEDS, l->run, "feed keys", &text);
	fetches = tfdbg1_read_core(p, s, l->run, &text);
	for (i = 0; i < s->ndevs; i++)
		live_dev(p, &s->devs[i]);
	report_scan_problems(p, s);
	live_sort(l);
	pthread_mutex_lock(&p->r->lock);
	p->r->runs[l->run].text = strbuf_take(&text);
	pthread_mutex_unlock(&p->r->lock);
	send_execution(p, s, l->run, fetches);
	send_new_dumps(p, s);
	l->valid = true;
}

/* Follow mode: dumps written into the last run since it was indexed.  They
 * go right after that run's rows, before any newer run. */
static void
rescan_live(struct tfdbg1_pass *p)
{
	struct tfdbg1_live *l = &p->r->live;
	struct tfdbg1_scan s;
	size_t i;

	if (!l->valid)
		return;
	tfdbg1_scan_root(l->path, l->dir, &s);
	for (i = 0; i < s.ndumps; i++)
		if (!live_has(l, s.dumps[i].path))
			p->progress.total += s.dumps[i].size;
	report_scan_problems(p, &s);
	live_sort(l);
	send_new_dumps(p, &s);
	tfdbg1_scan_done(&s);
}

/* ---- the pass ---------------------------------------------------------- */

/* True if name was looked at by an earlier pass; else remembers it.  The
 * list is kept sorted: a follow-mode pass checks every run directory. */
static bool
seen_before(struct reader *r, const char *name)
{
	size_t lo = 0, hi = r->nseen;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(r->seen[mid], name);

		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	TD_GROW(r->seen, r->seencap, r->nseen + 1);
	memmove(r->seen + lo + 1, r->seen + lo, (r->nseen - lo) * sizeof(*r->seen));
	r->seen[lo] = xstrdup(name);
	r->nseen++;
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
collect(struct tfdbg1_pass *p, struct tfdbg1_scan **out, size_t *n)
{
	struct reader *r = p->r;
	size_t pathcap = 0, namecap = 0, i;
	char **paths = NULL, **names = NULL;
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
		tfdbg1_problem(p, PROBLEM_UNREADABLE, -1, r->root, "session root",
			       "cannot list the directory");
		return TD_ERR_IO;
	}
	while ((de = readdir(d))) {
		uint64_t us;
		const char *token;
		int64_t counter;

		if (!tfdbg1_parse_run_dir(de->d_name, &us, &token, &counter) ||
		    seen_before(r, de->d_name))
			continue;
		TD_GROW(paths, pathcap, *n + 1);
		TD_GROW(names, namecap, *n + 1);
		paths[*n] = xasprintf("%s/%s", r->root, de->d_name);
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	/* the runs are scanned on both cores (tfdbg1_stage.c) */
	if (*n) {
		*out = xcalloc(*n, sizeof(**out));
		tfdbg1_scan_roots(paths, names, *n, *out);
	}
	for (i = 0; i < *n; i++) {
		free(paths[i]);
		free(names[i]);
	}
	free(paths);
	free(names);
	if (*n > 1)
		td_sort(*out, *n, sizeof(**out), cmp_scan);
	return TD_OK;
}

/* "tensor_debug_mode": the debug ops seen, the usual three first. */
static void
send_debug_ops(struct tfdbg1_pass *p)
{
	static const char *const known[] = { "DebugIdentity", "DebugNumericSummary",
					     "DebugNanCount" };
	struct reader *r = p->r;
	struct strbuf sb = { 0 };
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
	struct tfdbg1_pass p = { .r = r, .sink = sink };
	struct tfdbg1_scan *scans;
	size_t n, i, files_before = r->nfiles;
	enum td_status st;
	char buf[32];
	bool resumed = r->resumed;

	if (!r->sent_format && sink->on_meta) {
		sink->on_meta(sink->ctx, "format", "tfdbg1");
		sink->on_meta(sink->ctx, "layout", r->session ? "session root" : "dump root");
	}
	r->sent_format = true;
	rescan_live(&p);
	st = collect(&p, &scans, &n);
	for (i = 0; i < n; i++)
		p.progress.total += scans[i].bytes;
	p.stage = tfdbg1_stage_start(scans, n);
	for (i = 0; i < n; i++) {
		/* reader.h should_stop: skip the rest once the consumer gave up */
		if (!(sink->should_stop && sink->should_stop(sink->ctx))) {
			p.stage_run = i;
			index_run(&p, &scans[i]);
			tfdbg1_stage_run_done(p.stage, i);
		} else {
			tfdbg1_stage_stop(p.stage);   /* before any scan it reads goes */
			p.stage = NULL;
		}
		tfdbg1_scan_done(&scans[i]);
	}
	tfdbg1_stage_stop(p.stage);
	p.stage = NULL;
	free(scans);
	r->resumed = false;
	if (resumed && r->nfiles == files_before) {   /* nothing new since the saved state */
		tfdbg1_pass_done(&p);
		return st;
	}
	if (sink->on_meta) {
		snprintf(buf, sizeof(buf), "%zu", r->nruns);
		sink->on_meta(sink->ctx, "runs", buf);
	}
	send_debug_ops(&p);
	tfdbg1_pass_done(&p);
	return st;
}
