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

/* What msp_record_summary reads of a record: the JSON side keeps it, the
 * sink side makes the summary of it (leaves_sum), as that thread waits for
 * the other about a third of the time. */
struct leaf_stats {
	char dtype[sizeof(((struct msp_record *)0)->dtype)];
	bool has_shape, has_max, has_min, has_mean, has_norm;
	int rank;
	int64_t dims[TD_MAX_DIMS];
	double max, min, mean, norm;
	uint8_t pending;            /* the record's pending statistics (msp_record_resolve) */
	struct decnum_dec pend[4];
};

struct leaf {
	union {
		struct td_summary sum;  /* the leaf's summary: made of st on the sink side
					 * (leaves_sum, over st) unless summed */
		struct leaf_stats st;   /* what the JSON side kept of the record */
	} u;                        /* one of the two: a slot of the ring is smaller */
	bool summed;                /* sum made on the JSON side (statistics from a tensor file) */
	char path[96];              /* "input.2.1" (truncated past 95 bytes) */
	bool is_input;
	bool exact;                 /* sum is all decode gives (reader_trace.summary_exact) */
	uint32_t slot;
	uint8_t role, grad;         /* what decode states (reader_trace.role, requires_grad) */
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
	TD_GROW(c->leaves, c->cap, c->n + 1);
	l = &c->leaves[c->n++];
	l->role = (uint8_t)msp_reader_role(role);
	l->grad = (uint8_t)msp_reader_grad(rec);
	{
		size_t n = TD_MIN(strlen(path), sizeof l->path - 1);

		memcpy(l->path, path, n);
		l->path[n] = '\0';
	}
	l->summed = !c->dry && c->u && *rec->data_name;
	if (l->summed) {
		struct msp_record made = *rec;

		msp_record_resolve(&made);
		msp_record_summary(&made, &l->u.sum);
		msp_leaf_file_summary(c->u, &made, &l->u.sum);
	} else {
		memcpy(l->u.st.dtype, rec->dtype, sizeof l->u.st.dtype);
		l->u.st.has_shape = rec->has_shape;
		l->u.st.rank = rec->rank;
		memcpy(l->u.st.dims, rec->dims, sizeof l->u.st.dims);
		l->u.st.has_max = rec->has_max;
		l->u.st.has_min = rec->has_min;
		l->u.st.has_mean = rec->has_mean;
		l->u.st.has_norm = rec->has_norm;
		l->u.st.max = rec->max;
		l->u.st.min = rec->min;
		l->u.st.mean = rec->mean;
		l->u.st.norm = rec->norm;
		l->u.st.pending = rec->pending;
		if (rec->pending)
			memcpy(l->u.st.pend, rec->pend, sizeof l->u.st.pend);
	}
	/* a leaf without a tensor file: decode() gives this same summary
	 * (msp_record_summary of the same record) and no values */
	l->exact = !*rec->data_name;
	l->is_input = is_input;
	l->slot = is_input ? c->nin++ : c->nout++;
}

/* Sink side: the summaries of the leaves the JSON side kept stats of
 * (msp_record_summary reads no other field of the record). */
static void
leaves_sum(struct collect *c)
{
	struct msp_record r;
	size_t k;

	for (k = 0; k < c->n; k++) {
		struct leaf *l = &c->leaves[k];

		if (l->summed)
			continue;
		memcpy(r.dtype, l->u.st.dtype, sizeof r.dtype);
		r.has_shape = l->u.st.has_shape;
		r.rank = l->u.st.rank;
		memcpy(r.dims, l->u.st.dims, sizeof r.dims);
		r.has_max = l->u.st.has_max;
		r.has_min = l->u.st.has_min;
		r.has_mean = l->u.st.has_mean;
		r.has_norm = l->u.st.has_norm;
		r.max = l->u.st.max;
		r.min = l->u.st.min;
		r.mean = l->u.st.mean;
		r.norm = l->u.st.norm;
		r.pending = l->u.st.pending;
		if (r.pending) {
			/* the statistics the JSON side left pending (the 17-digit
			 * Norms of a float32 dump), made here: the JSON side is the
			 * pass's longer thread */
			memcpy(r.pend, l->u.st.pend, sizeof r.pend);
			msp_record_resolve(&r);
		}
		msp_record_summary(&r, &l->u.sum);
	}
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
	const char **inputs = NULL;
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
				inputs[c->leaves[i].slot] = c->leaves[i].path;
		op.inputs = inputs;
		op.ninputs = c->nin;
		op.input_labels = true;
	}
	if (sink->on_op)
		sink->on_op(sink->ctx, &op);
	free(attrs);
	strbuf_done(&kids_text);
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
	struct reader_trace t;
	struct reader_execution ex = {
		.loc = { .file = u->file_id, .offset = e }, .op_type = name, .graph_id = u->host,
		.host = u->host, .num_outputs = c->nout, .has_values = true, .step = u->step,
	};

	if (u->sent.cap || r->may_follow)
		msp_map_put(&u->sent, name, e);
	send_op(u, sink, name, type, c);
	for (k = 0; k < c->n; k++)
		if (!c->leaves[k].is_input && td_summary_nonfinite(&c->leaves[k].u.sum))
			bad++;
	ex.bad_outputs = bad;
	if (sink->on_execution)
		sink->on_execution(sink->ctx, &ex);
	/* inputs first, then outputs, each in file order: an output row
	 * follows the input rows it was computed from; row order is locator
	 * order (advance() counts positions).  One trace made for the entry
	 * and its leaf fields set per row (a struct of 400 bytes zeroed and
	 * filled per row was most of this function's time). */
	t = (struct reader_trace){
		.loc = { .file = u->file_id }, .graph_id = u->host, .op_name = name,
		.op_type = type, .execution = exec, .step = u->step, .op_key = key,
	};
	for (pass = 0; pass < 2; pass++)
		for (k = 0; sink->on_trace && k < c->n; k++) {
			const struct leaf *l = &c->leaves[k];

			if (l->is_input != (pass == 0))
				continue;
			t.loc.offset = u->first_trace[e] + (l->is_input ? 0 : c->nin) + l->slot;
			t.slot = l->slot;
			t.is_input = l->is_input;
			t.summary = l->u.sum;
			t.summary_exact = l->exact;
			t.role = l->role;
			t.requires_grad = l->grad;
			sink->on_trace(sink->ctx, &t);
			/* parameter gradients are records of values a backward
			 * entry made: looked up like inputs */
			msp_bad_input_link(u, sink, &l->u.sum, l->is_input || dir == MSP_PARAM_GRAD,
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

/* One pass over a file: the JSON side (the scanner, the entries parsed)
 * and the sink side (the entries sent).  With an ahead ring the JSON side
 * runs on a second thread and hands each entry over in file order; the
 * index thread sends them, reports progress and asks should_stop, as the
 * one-thread pass does between entries. */
struct parsed {
	char *name;                 /* nbuf, or NULL: "data" is no object (below) */
	char *nbuf;                 /* the slot's name, kept from entry to entry (no
				     * allocation and free per entry) */
	size_t ncap;
	uint64_t off;               /* the key's byte offset (the value's) */
	size_t bytes;               /* what it holds (the ring's budget) */
	struct collect c;
	uint64_t line;              /* "data" that is no object: its line and */
	enum jscan_tok tok;         /* first token, a problem in file order */
};

/* Entries parsed ahead: a ring of AHEAD slots, put and got counting the
 * entries handed over and sent (slot = count % AHEAD).  Each side sleeps
 * on cond only when it cannot go on and is woken when the other has done
 * a batch (half the ring), so that a handover is not a wake-up each. */
#define AHEAD 256
#define AHEAD_BYTES ((size_t)1 << 20)   /* beside one entry, whatever its size */
#define AHEAD_KEEP 16                   /* leaves a sent slot keeps room for */
#define AHEAD_NAME_KEEP 1024            /* name bytes a sent slot keeps room for */

struct ahead {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th;
	struct parsed slot[AHEAD];
	size_t put, got, bytes;
	bool put_waits, get_waits;
	bool over;                  /* the JSON side is done (pass->ok says how) */
	bool stop;                  /* the sink side wants no more */
};

struct pass {
	struct reader *r;
	struct msp_unit *u;
	const struct reader_sink *sink;
	bool dry;                   /* only check that the file is complete */
	struct jscan js;
	bool ok;                    /* the JSON side's result */
	struct parsed one;          /* the entry of a one-thread pass */
	struct ahead *ah;           /* NULL: one thread */
	struct reader_progress pr;
	size_t nsent;
	bool stopped;               /* should_stop said so: the JSON side ends */
};

size_t msp_ahead_min = (size_t)1 << 20;

/* Sink side: one entry parsed (sent unless dry); false when the pass
 * should stop. */
static bool
consume(struct pass *p, struct parsed *e)
{
	if (!e->name) {
		reader_report_problemf(p->sink, PROBLEM_DECODE_ERROR, p->u->file_id, p->u->json, e->off,
				       -1, "dump.json", "line %llu: \"data\" is %s, not an object",
				       (unsigned long long)e->line, jscan_tok_name(e->tok));
		return true;
	}
	if ((++p->nsent & 1023) == 0) {
		if (p->sink->should_stop && p->sink->should_stop(p->sink->ctx))
			return false;
		p->pr.done = e->off;
		reader_report_progress(p->sink, &p->pr, false);
	}
	if (e->c.n > MSP_MAX_LEAVES) {
		reader_report_problemf(p->sink, PROBLEM_DECODE_ERROR, p->u->file_id, p->u->json, e->off,
				       -1, e->name, "%zu tensor leaves; the first %d are rows", e->c.n,
				       MSP_MAX_LEAVES);
		e->c.n = MSP_MAX_LEAVES;
	}
	if (!p->dry) {
		leaves_sum(&e->c);
		entry_done(p->r, p->u, p->sink, e->name, e->off, &e->c);
	}
	return true;
}

/* JSON side: the slot the next entry is parsed into, NULL when the sink
 * side stopped. */
static struct parsed *
entry_slot(struct pass *p)
{
	struct ahead *ah = p->ah;
	struct parsed *e;

	if (!ah)
		return &p->one;
	pthread_mutex_lock(&ah->lock);
	while (!ah->stop && (ah->put - ah->got == AHEAD || (ah->put != ah->got && ah->bytes > AHEAD_BYTES))) {
		if (ah->get_waits) {
			ah->get_waits = false;
			pthread_cond_signal(&ah->cond);
		}
		ah->put_waits = true;
		pthread_cond_wait(&ah->cond, &ah->lock);
	}
	e = ah->stop ? NULL : &ah->slot[ah->put % AHEAD];
	pthread_mutex_unlock(&ah->lock);
	return e;
}

/* JSON side: entry e is parsed; false when the pass should stop. */
static bool
entry_parsed(struct pass *p, struct parsed *e)
{
	struct ahead *ah = p->ah;

	if (!ah)
		return consume(p, e);
	e->bytes = e->c.n * sizeof(*e->c.leaves) + (e->name ? strlen(e->name) : 0);
	pthread_mutex_lock(&ah->lock);
	ah->put++;
	ah->bytes += e->bytes;
	if (ah->get_waits && ah->put - ah->got >= AHEAD / 2) {
		ah->get_waits = false;
		pthread_cond_signal(&ah->cond);
	}
	pthread_mutex_unlock(&ah->lock);
	return true;
}

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

/* JSON side: the entries of "data"; false on a JSON error (or a stop:
 * p->stopped).  "data" that is no object is handed over as an entry
 * without a name, for the sink side to report. */
static bool
scan_data(struct pass *p, struct jscan *js)
{
	struct msp_walk w = { .on_leaf = on_leaf, .on_arg = on_arg, .pending_ok = true };
	enum jscan_tok t = jscan_next(js);
	struct parsed *e;

	if (t != JSCAN_OBJ_BEGIN) {
		if (t == JSCAN_ERROR)
			return false;
		if (!(e = entry_slot(p)))
			return !(p->stopped = true);
		e->name = NULL;
		e->off = js->tok_off;
		e->line = js->line;
		e->tok = t;
		collect_reset(&e->c);
		if (!entry_parsed(p, e))
			return !(p->stopped = true);
		return jscan_skip(js, t);
	}
	while ((t = jscan_next(js)) == JSCAN_KEY) {
		if (!(e = entry_slot(p)))
			return !(p->stopped = true);
		e->off = js->tok_off;
		{
			size_t n = strlen(js->str);

			if (n >= e->ncap) {
				e->ncap = n < 64 ? 128 : 2 * n;
				free(e->nbuf);
				e->nbuf = xmalloc(e->ncap);
			}
			memcpy(e->nbuf, js->str, n + 1);
			e->name = e->nbuf;
		}
		collect_reset(&e->c);
		e->c.dry = p->dry;
		e->c.u = p->u;
		w.ctx = &e->c;
		if (!msp_walk_entry(js, e->name, &w))
			return false;
		if (!entry_parsed(p, e))
			return !(p->stopped = true);
	}
	return t == JSCAN_OBJ_END;
}

/* JSON side: the whole file; p->ok and p->js say how it ended. */
static void
scan_json(struct pass *p)
{
	struct msp_unit *u = p->u;
	struct jscan *js = &p->js;
	enum jscan_tok t;
	bool ok = true;

	if ((t = jscan_next(js)) != JSCAN_OBJ_BEGIN) {
		ok = false;
		if (t != JSCAN_ERROR)
			snprintf(js->err, sizeof js->err, "line 1: the file is not a JSON object");
	}
	while (ok && !p->stopped && (t = jscan_next(js)) == JSCAN_KEY) {
		if (strcmp(js->str, "task") == 0)
			ok = top_string(p->r, js, u->task, sizeof u->task);
		else if (strcmp(js->str, "level") == 0)
			ok = top_string(p->r, js, u->level, sizeof u->level);
		else if (strcmp(js->str, "framework") == 0)
			ok = top_string(p->r, js, u->framework, sizeof u->framework);
		else if (strcmp(js->str, "data") == 0)
			ok = scan_data(p, js);
		else
			ok = jscan_skip(js, jscan_next(js));
	}
	if (ok && !p->stopped && t != JSCAN_OBJ_END && t != JSCAN_EOF)
		ok = false;
	p->ok = ok;
}

static void *
ahead_thread(void *arg)
{
	struct pass *p = arg;
	struct ahead *ah = p->ah;

	scan_json(p);
	pthread_mutex_lock(&ah->lock);
	ah->over = true;
	if (ah->get_waits) {
		ah->get_waits = false;
		pthread_cond_signal(&ah->cond);
	}
	pthread_mutex_unlock(&ah->lock);
	return NULL;
}

/* Sink side of an ahead pass: every entry the JSON side hands over, in
 * order, until it is done or should_stop says so; then the thread is
 * joined. */
static void
ahead_drain(struct pass *p)
{
	struct ahead *ah = p->ah;
	bool go = true;

	pthread_mutex_lock(&ah->lock);
	while (go) {
		struct parsed *e;

		while (ah->got == ah->put && !ah->over) {
			ah->get_waits = true;
			pthread_cond_wait(&ah->cond, &ah->lock);
		}
		if (ah->got == ah->put)
			break;
		e = &ah->slot[ah->got % AHEAD];
		pthread_mutex_unlock(&ah->lock);
		go = consume(p, e);
		collect_reset(&e->c);
		e->name = NULL;
		if (e->c.cap > AHEAD_KEEP) {    /* a big entry's arrays are not kept */
			free(e->c.leaves);
			e->c.leaves = NULL;
			e->c.cap = 0;
		}
		if (e->ncap > AHEAD_NAME_KEEP) {        /* nor a long name's buffer */
			free(e->nbuf);
			e->nbuf = NULL;
			e->ncap = 0;
		}
		pthread_mutex_lock(&ah->lock);
		ah->got++;
		ah->bytes -= e->bytes;
		if (!go)
			ah->stop = true;
		if (ah->put_waits && (!go || ah->put - ah->got <= AHEAD / 2)) {
			ah->put_waits = false;
			pthread_cond_signal(&ah->cond);
		}
	}
	pthread_mutex_unlock(&ah->lock);
	pthread_join(ah->th, NULL);
}

/* Starts the JSON side of p on a second thread when the file is big
 * enough and there is a core for it; false: the caller runs it itself. */
static bool
ahead_start(struct pass *p)
{
	struct ahead *ah;

	if (p->dry || p->u->size < msp_ahead_min || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return false;
	ah = xcalloc(1, sizeof(*ah));
	pthread_mutex_init(&ah->lock, NULL);
	pthread_cond_init(&ah->cond, NULL);
	p->ah = ah;
	if (pthread_create(&ah->th, NULL, ahead_thread, p) != 0) {
		p->ah = NULL;
		pthread_cond_destroy(&ah->cond);
		pthread_mutex_destroy(&ah->lock);
		free(ah);
		return false;
	}
	return true;
}

static void
parsed_done(struct parsed *e)
{
	collect_reset(&e->c);
	free(e->c.leaves);
	free(e->c.args);
	free(e->nbuf);
}

/* One pass over the file; dry: nothing sent or reported, true when the
 * file is one complete JSON text. */
static bool
scan_file(struct reader *r, struct msp_unit *u, const struct reader_sink *sink, bool dry)
{
	struct pass p = { .r = r, .u = u, .sink = sink, .dry = dry,
			  .pr = { .total = u->size, .step = 4 << 20 } };
	struct jscan *js = &p.js;
	size_t i;

	jscan_init(js, u->src, 0, NULL);
	js->flat_defer = true;          /* the statistics made by leaves_sum */
	if (ahead_start(&p))
		ahead_drain(&p);
	else
		scan_json(&p);
	if (!p.ok && !dry && !(sink->should_stop && sink->should_stop(sink->ctx))) {
		bool torn = strstr(js->err, "input ends") != NULL;

		reader_report_problemf(sink, torn ? PROBLEM_TORN_TAIL : PROBLEM_DECODE_ERROR, u->file_id,
				       u->json, js->tok_off, (int64_t)u->nentries, "dump.json", "%s%s",
				       js->err, torn ? " (a partial file: the entries before it are kept)"
						     : "");
		u->torn = torn;
	}
	if (js->bad_utf8 && !dry)
		reader_report_problem(sink, PROBLEM_DECODE_ERROR, u->file_id, u->json, 0, -1, "dump.json",
				      "invalid UTF-8 in strings, shown as U+FFFD");
	if (p.ah) {
		for (i = 0; i < AHEAD; i++)
			parsed_done(&p.ah->slot[i]);
		pthread_cond_destroy(&p.ah->cond);
		pthread_mutex_destroy(&p.ah->lock);
		free(p.ah);
	}
	parsed_done(&p.one);
	jscan_done(js);
	return p.ok;
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
