/*
 * msp_index.c - the index pass over one rank folder's dump.json
 * (FORMAT.md §2-§4): one streaming scan under a shared flock, an op, an
 * execution and the trace rows per entry, in file order.  A JSON error
 * keeps the entries before it and is one problem naming the line and
 * column.  In follow mode a later pass over a rewritten file (a flush)
 * re-reads it under the lock, moves the entries it knows to their new
 * offsets and sends the new ones.  Not for: decode (msp_decode.c).
 */
#include "msp_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "reader/reader_report.h"

/* ---- the lock (FORMAT.md §2) ----------------------------------------------- */

int
msp_lock(const char *path, bool *busy)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW), k;

	*busy = false;
	if (fd < 0)
		return -1;
	for (k = 0; k < 10; k++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		if (flock(fd, LOCK_SH | LOCK_NB) == 0)
			return fd;
		if (errno != EWOULDBLOCK && errno != EINTR)
			break;   /* no locks on this file system: read without */
		*busy = errno == EWOULDBLOCK;
		nanosleep(&ts, NULL);
	}
	close(fd);
	return -1;
}

void
msp_unlock(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}

/* ---- one entry ---------------------------------------------------------------- */

struct leaf {
	struct td_summary sum;
	char path[96];              /* "input.2.1" (truncated past 95 bytes) */
	bool is_input;
	bool exact;                 /* sum is all decode gives (reader_trace.summary_exact) */
	uint32_t slot;
};

struct collect {
	struct leaf *leaves;
	size_t n, cap;
	uint32_t nin, nout;
	struct msp_arg *args;
	size_t nargs, argcap;
	bool dry;                   /* only check that the file is complete */
	const struct msp_unit *u;
};

static void
on_leaf(void *ctx, uint32_t k, const char *path, bool is_input, enum msp_role role,
	const struct msp_record *rec)
{
	struct collect *c = ctx;
	struct leaf *l;

	(void)k;
	(void)role;
	TD_GROW(c->leaves, c->cap, c->n + 1);
	l = &c->leaves[c->n++];
	{
		size_t n = TD_MIN(strlen(path), sizeof l->path - 1);

		memcpy(l->path, path, n);
		l->path[n] = '\0';
	}
	msp_record_summary(rec, &l->sum);
	if (!c->dry && c->u)
		msp_leaf_file_summary(c->u, rec, &l->sum);
	/* a leaf without a tensor file: decode() gives this same summary
	 * (msp_record_summary of the same record) and no values */
	l->exact = !*rec->data_name;
	l->is_input = is_input;
	l->slot = is_input ? c->nin++ : c->nout++;
}

static void
on_arg(void *ctx, const char *path, const char *text)
{
	struct collect *c = ctx;

	if (c->nargs >= 64)
		return;   /* the op's attributes list the first 64 */
	TD_GROW(c->args, c->argcap, c->nargs + 1);
	c->args[c->nargs].name = xstrdup(path);
	c->args[c->nargs].value = xstrdup(text);
	c->nargs++;
}

static void
collect_reset(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->nargs; i++) {
		free(c->args[i].name);
		free(c->args[i].value);
	}
	c->n = c->nargs = 0;
	c->nin = c->nout = 0;
}

/* The op of an entry: type, host, stack, attributes (non-tensor
 * arguments, direction, module parent). */
static void
send_op(struct msp_unit *u, const struct reader_sink *sink, const char *name, const char *type,
	const struct collect *c)
{
	struct reader_attr *attrs = xcalloc(c->nargs + 5, sizeof(*attrs));
	const char *parent = msp_side_parent(u, name);
	char *const *ids = NULL;
	size_t nf = msp_side_frames(u, name, &ids), na = 0, i;
	char **inputs = NULL;
	struct strbuf kids_text = { 0 };
	struct reader_op op = {
		.graph_id = u->host, .op_name = name, .op_type = type, .host = u->host,
		.num_outputs = c->nout, .frame_ids = (const char *const *)ids, .nframes = nf,
	};

	{
		char *const *kids = NULL;
		size_t nk = msp_side_children(u, name, &kids);

		for (i = 0; i < nk && i < 32; i++)
			strbuf_addf(&kids_text, "%s%s", i ? ", " : "", kids[i]);
		if (nk > 32)
			strbuf_addf(&kids_text, ", ... (%zu)", nk);
	}
	if (parent)
		attrs[na++] = (struct reader_attr){ "module", parent };
	if (kids_text.len)
		attrs[na++] = (struct reader_attr){ "children", kids_text.buf };
	for (i = 0; i < c->nargs; i++)
		attrs[na++] = (struct reader_attr){ c->args[i].name, c->args[i].value };
	op.attrs = attrs;
	op.nattrs = na;
	/* One input per input leaf, named by its leaf path ("input.2.1"): no
	 * op has that name (the producer is unknown), but the model pairs each
	 * output row with the entry's own input rows before it (origins: finite
	 * inputs, non-finite output, FORMAT.md §4).  The short names are the
	 * same for every entry: interned once. */
	if (c->nin) {
		inputs = xcalloc(c->nin, sizeof(*inputs));
		for (i = 0; i < c->n; i++)
			if (c->leaves[i].is_input)
				inputs[c->leaves[i].slot] = xstrdup(c->leaves[i].path);
		op.inputs = (const char *const *)inputs;
		op.ninputs = c->nin;
		op.input_labels = true;
	}
	if (sink->on_op)
		sink->on_op(sink->ctx, &op);
	free(attrs);
	strbuf_done(&kids_text);
	for (i = 0; inputs && i < c->nin; i++)
		free(inputs[i]);
	free(inputs);
}

/* Appends entry (offset, leaves) to u's table; returns its ordinal. */
static size_t
table_add(struct reader *r, struct msp_unit *u, const char *name, uint64_t off, size_t nleaves)
{
	size_t e;

	pthread_mutex_lock(&r->lock);
	if (u->nentries + 2 > u->cap) {
		u->cap = u->cap ? 2 * u->cap : 256;
		u->entry_off = xrealloc(u->entry_off, u->cap * sizeof(*u->entry_off));
		u->first_trace = xrealloc(u->first_trace, u->cap * sizeof(*u->first_trace));
		u->entry_hash = xrealloc(u->entry_hash, u->cap * sizeof(*u->entry_hash));
	}
	e = u->nentries;
	u->entry_off[e] = off;
	u->entry_hash[e] = msp_name_hash(name);
	u->first_trace[e] = u->ntraces;
	u->ntraces += nleaves;
	u->first_trace[e + 1] = u->ntraces;
	u->nentries++;
	pthread_mutex_unlock(&r->lock);
	return e;
}

static void
send_entry(struct reader *r, struct msp_unit *u, const struct reader_sink *sink, const char *name,
	   uint64_t off, const struct collect *c)
{
	char type[512];
	int64_t count;
	enum msp_dir dir = msp_name_parse(name, type, sizeof type, &count);
	size_t e = table_add(r, u, name, off, c->n), k;
	int pass;
	uint64_t first_row = r->nrows, key = reader_op_key(u->host, strlen(u->host), name, strlen(name));
	int64_t exec = r->nexec++;
	uint32_t bad = 0;
	struct reader_execution ex = {
		.loc = { .file = u->file_id, .offset = e }, .op_type = name, .graph_id = u->host,
		.host = u->host, .num_outputs = c->nout, .has_values = true, .step = u->step,
	};

	if (u->sent.cap || r->may_follow)
		msp_map_put(&u->sent, name, e);
	send_op(u, sink, name, type, c);
	for (k = 0; k < c->n; k++)
		if (!c->leaves[k].is_input && td_summary_nonfinite(&c->leaves[k].sum))
			bad++;
	ex.bad_outputs = bad;
	if (sink->on_execution)
		sink->on_execution(sink->ctx, &ex);
	/* inputs first, then outputs, each in file order: an output row
	 * follows the input rows it was computed from; row order is locator
	 * order (advance() counts positions) */
	for (pass = 0; pass < 2; pass++)
		for (k = 0; sink->on_trace && k < c->n; k++) {
			const struct leaf *l = &c->leaves[k];
			struct reader_trace t = {
				.loc = { .file = u->file_id,
					 .offset = u->first_trace[e] + (l->is_input ? 0 : c->nin) + l->slot },
				.graph_id = u->host, .op_name = name, .op_type = type,
				.slot = l->slot, .is_input = l->is_input,
				.execution = exec, .summary = l->sum, .step = u->step,
				.op_key = key, .summary_exact = l->exact,
			};

			if (l->is_input != (pass == 0))
				continue;
			sink->on_trace(sink->ctx, &t);
			/* parameter gradients are records of values a backward
			 * entry made: looked up like inputs */
			msp_bad_input_link(u, sink, &l->sum, l->is_input || dir == MSP_PARAM_GRAD,
					   r->nrows++);
		}
	msp_comm_note(r, u, name, type, first_row, c->nin, c->nout, c->args, c->nargs);
}

/* A flush seen again (follow): a known entry moves, a new one is sent. */
static void
entry_done(struct reader *r, struct msp_unit *u, const struct reader_sink *sink,
	   const char *name, uint64_t off, const struct collect *c)
{
	uint64_t *known = u->indexed ? msp_map_get(&u->sent, name) : NULL;

	if (!known) {
		send_entry(r, u, sink, name, off, c);
		return;
	}
	pthread_mutex_lock(&r->lock);
	if (u->first_trace[*known + 1] - u->first_trace[*known] == c->n)
		u->entry_off[*known] = off;
	pthread_mutex_unlock(&r->lock);
	if (u->first_trace[*known + 1] - u->first_trace[*known] != c->n)
		reader_report_problemf(sink, PROBLEM_INCONSISTENT, u->file_id, u->json, off, (int64_t)*known,
				       name, "entry has %zu tensor leaves now, %llu when first read",
				       c->n, (unsigned long long)(u->first_trace[*known + 1] -
								  u->first_trace[*known]));
}

/* ---- the file ------------------------------------------------------------------ */

/* A top-level string of the file ("task", "level", "framework") into dst
 * of len bytes, written under r->lock and only when it changed: a follow
 * pass reads the same text again while decode reads dst on another
 * thread.  A value that is not a string is skipped; false on a JSON
 * error. */
static bool
top_string(struct reader *r, struct jscan *js, char *dst, size_t len)
{
	enum jscan_tok t = jscan_next(js);
	char v[64];

	if (t != JSCAN_STRING)
		return jscan_skip(js, t);
	snprintf(v, TD_MIN(len, sizeof v), "%s", js->str);
	pthread_mutex_lock(&r->lock);
	if (strcmp(dst, v) != 0)
		memcpy(dst, v, strlen(v) + 1);
	pthread_mutex_unlock(&r->lock);
	return true;
}

/* The entries of "data"; false on a JSON error. */
static bool
scan_data(struct reader *r, struct msp_unit *u, const struct reader_sink *sink, struct jscan *js,
	  struct collect *c)
{
	struct msp_walk w = { .ctx = c, .on_leaf = on_leaf, .on_arg = on_arg };
	struct reader_progress pr = { .total = u->size, .step = 4 << 20 };
	enum jscan_tok t = jscan_next(js);
	char *name;
	size_t n = 0;

	if (t != JSCAN_OBJ_BEGIN) {
		if (t != JSCAN_ERROR)
			reader_report_problemf(sink, PROBLEM_DECODE_ERROR, u->file_id, u->json, js->tok_off,
					       -1, "dump.json", "line %llu: \"data\" is %s, not an object",
					       (unsigned long long)js->line, jscan_tok_name(t));
		return t != JSCAN_ERROR && jscan_skip(js, t);
	}
	while ((t = jscan_next(js)) == JSCAN_KEY) {
		uint64_t off = js->tok_off;

		if ((++n & 1023) == 0) {
			if (sink->should_stop && sink->should_stop(sink->ctx))
				return true;
			pr.done = off;
			reader_report_progress(sink, &pr, false);
		}
		name = xstrdup(js->str);
		collect_reset(c);
		if (!msp_walk_entry(js, name, &w)) {
			free(name);
			return false;
		}
		if (c->n > MSP_MAX_LEAVES) {
			reader_report_problemf(sink, PROBLEM_DECODE_ERROR, u->file_id, u->json, off, -1, name,
					       "%zu tensor leaves; the first %d are rows", c->n,
					       MSP_MAX_LEAVES);
			c->n = MSP_MAX_LEAVES;
		}
		if (!c->dry)
			entry_done(r, u, sink, name, off, c);
		free(name);
	}
	return t == JSCAN_OBJ_END;
}

/* One pass over the file; dry: nothing sent or reported, true when the
 * file is one complete JSON text. */
static bool
scan_file(struct reader *r, struct msp_unit *u, const struct reader_sink *sink, bool dry)
{
	struct collect c = { .dry = dry, .u = u };
	struct jscan js;
	enum jscan_tok t;
	bool ok = true;

	jscan_init(&js, u->src, 0, NULL);
	if ((t = jscan_next(&js)) != JSCAN_OBJ_BEGIN) {
		ok = false;
		if (t != JSCAN_ERROR)
			snprintf(js.err, sizeof js.err, "line 1: the file is not a JSON object");
	}
	while (ok && (t = jscan_next(&js)) == JSCAN_KEY) {
		if (strcmp(js.str, "task") == 0)
			ok = top_string(r, &js, u->task, sizeof u->task);
		else if (strcmp(js.str, "level") == 0)
			ok = top_string(r, &js, u->level, sizeof u->level);
		else if (strcmp(js.str, "framework") == 0)
			ok = top_string(r, &js, u->framework, sizeof u->framework);
		else if (strcmp(js.str, "data") == 0)
			ok = scan_data(r, u, sink, &js, &c);
		else
			ok = jscan_skip(&js, jscan_next(&js));
	}
	if (ok && t != JSCAN_OBJ_END && t != JSCAN_EOF)
		ok = false;
	if (!ok && !dry && !(sink->should_stop && sink->should_stop(sink->ctx))) {
		bool torn = strstr(js.err, "input ends") != NULL;

		reader_report_problemf(sink, torn ? PROBLEM_TORN_TAIL : PROBLEM_DECODE_ERROR, u->file_id,
				       u->json, js.tok_off, (int64_t)u->nentries, "dump.json", "%s%s",
				       js.err, torn ? " (a partial file: the entries before it are kept)"
						    : "");
		u->torn = torn;
	}
	if (js.bad_utf8 && !dry)
		reader_report_problem(sink, PROBLEM_DECODE_ERROR, u->file_id, u->json, 0, -1, "dump.json",
				      "invalid UTF-8 in strings, shown as U+FFFD");
	collect_reset(&c);
	free(c.leaves);
	free(c.args);
	jscan_done(&js);
	return ok;
}

void
msp_index_unit(struct reader *r, struct msp_unit *u, const struct reader_sink *sink)
{
	enum td_status st;
	char why[128] = "";
	uint64_t size = 0;
	int64_t mtime = 0;
	bool busy;
	int lock;

	if (!u->src) {
		if (!(u->src = source_open_file(u->json, &st, why, sizeof why))) {
			reader_report_problem(sink, st == TD_ERR_NOENT ? PROBLEM_MISSING_FILE
								       : PROBLEM_UNREADABLE,
					      u->file_id, u->json, 0, -1, "dump.json", why);
			u->indexed = true;
			return;
		}
	}
	if (u->indexed) {
		enum source_change ch = source_check(u->src, &size, &mtime);

		if (ch == SOURCE_SAME && size == u->size && mtime == u->mtime_ns)
			return;                         /* no flush since */
		if (ch == SOURCE_SAME && size == u->partial_size && mtime == u->partial_mtime_ns)
			return;                         /* the same partial file as last pass */
		if (ch == SOURCE_GONE)
			return;
		if (ch == SOURCE_REPLACED) {            /* written to a new file and renamed */
			struct source *fresh = source_open_file(u->json, &st, why, sizeof why);

			if (!fresh)
				return;
			pthread_mutex_lock(&r->lock);
			source_close(u->src);
			u->src = fresh;
			pthread_mutex_unlock(&r->lock);
		}
	}
	lock = msp_lock(u->json, &busy);
	if (lock < 0 && busy && u->indexed)
		return;                                 /* a flush is being written: next pass */
	if (lock < 0 && busy)
		reader_report_problem(sink, PROBLEM_INCONSISTENT, u->file_id, u->json, 0, -1, "dump.json",
				      "the dumper held its lock for over a second: read anyway");
	source_check(u->src, &size, &mtime);
	size = source_size(u->src);     /* the scanner reads up to the size known */
	if (u->indexed && !scan_file(r, u, sink, true)) {
		u->partial_size = size;
		u->partial_mtime_ns = mtime;
		/* a flush caught half written (msprobe truncates the file before
		 * it takes its lock): nothing of it shows until it is whole */
		msp_unlock(lock);
		return;
	}
	u->size = source_size(u->src);
	u->mtime_ns = mtime;
	scan_file(r, u, sink, false);
	msp_unlock(lock);
	u->indexed = true;
}
