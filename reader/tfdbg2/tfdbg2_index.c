/*
 * tfdbg2_index.c - the tfdbg v2 index pass (FORMAT.md §7.2): dump facts, files, source files, stack frames, graphs/ops/devices,
 * then graph execution traces of every set, then executions (the dump
 * facts, files and problems' addresses are in tfdbg2_files.c).
 *
 * The pass is resumable: every file keeps its cursor (next offset) between
 * calls, so a second call reads only what was appended, including the files
 * of hosts that appeared since.  Traces and executions, the bulk of a dump,
 * are scanned with pbwire and reusable buffers: no protobuf-c unpack and no
 * allocation per record.  The small files are unpacked with protobuf-c.
 * Every bad record is reported through on_problem and skipped.
 */
#include "reader/reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/pbwire.h"
#include "reader/reader_report.h"
#include "tf_debug_event.pb-c.h"
#include "reader/parse/tf_tensor.h"
#include "tfdbg2_internal.h"

#define PROGRESS_STEP ((uint64_t)4 << 20)
#define MAX_VECTOR 16

struct pass {
	struct reader *r;
	const struct reader_sink *sink;
	struct reader_progress progress;        /* bytes: of all files now, indexed */
	struct strbuf a, b;             /* reusable strings of the hot path */
	char detail[512];
};

const char *const tf2_role_what[TF2_ROLE_COUNT] = {
	"debug_metadata", "source_file", "stack_frame_with_id", "graphs record",
	"execution", "graph_execution_trace",
};

/* problem(ps, kind, f, off, record, fmt, ...): a problem of file f (NULL:
 * the dump), its detail from fmt. */
#define problem(ps, ...) tf2_problemf((ps)->sink, __VA_ARGS__)

static void
meta(struct pass *ps, const char *key, const char *value)
{
	if (ps->sink->on_meta && value)
		ps->sink->on_meta(ps->sink->ctx, key, value);
}

static void
progress(struct pass *ps, bool force)
{
	reader_report_progress(ps->sink, &ps->progress, force);
}

/* ---- the record loop -------------------------------------------------- */

/* Handles one good record; returns false (with a reason in ps->detail) when
 * the record does not decode: it is then reported and skipped. */
typedef bool (*record_fn)(struct pass *ps, struct tf2_set *s, struct tf2_file *f,
			  const struct tfrecord *rec);

static void
framing_problem(struct pass *ps, struct tf2_file *f, enum tfrecord_status st,
		const struct tfrecord *rec, int64_t recno)
{
	enum reader_problem_kind kind = st == TFRECORD_BAD_DATA_CRC ? PROBLEM_BAD_DATA_CRC :
					st == TFRECORD_BAD_LENGTH ? PROBLEM_BAD_LENGTH : PROBLEM_BAD_LENGTH_CRC;

	if (st == TFRECORD_BAD_DATA_CRC)
		problem(ps, kind, f, rec->offset, recno,
			"payload of %llu bytes fails its CRC; record skipped",
			(unsigned long long)rec->length);
	else if (st == TFRECORD_BAD_LENGTH && rec->length <= TFRECORD_MAX_LENGTH)
		problem(ps, kind, f, rec->offset, recno,
			"length %llu runs past the end of the file, but a valid record follows at "
			"offset %llu: %llu bytes skipped", (unsigned long long)rec->length,
			(unsigned long long)rec->next, (unsigned long long)(rec->next - rec->offset));
	else if (rec->stopped)
		problem(ps, kind, f, rec->offset, recno,
			"%s (length %llu); no trustworthy record follows: the last %llu bytes are ignored",
			tfrecord_status_name(st), (unsigned long long)rec->length,
			(unsigned long long)(f->cur.size - rec->offset));
	else
		problem(ps, kind, f, rec->offset, recno,
			"%s (length %llu); skipped %llu bytes to the next record at offset %llu",
			tfrecord_status_name(st), (unsigned long long)rec->length,
			(unsigned long long)(rec->next - rec->offset), (unsigned long long)rec->next);
	if (!rec->stopped)
		tf2_add_skip(ps->r, f, rec->offset, rec->next);
}

static void
torn(struct pass *ps, struct tf2_file *f, const struct tfrecord *rec, int64_t recno)
{
	if (f->torn_reported == rec->offset + 1)
		return;
	f->torn_reported = rec->offset + 1;
	problem(ps, PROBLEM_TORN_TAIL, f, rec->offset, recno,
		"incomplete last record: %llu bytes of it present; everything before it is read",
		(unsigned long long)(f->cur.size - rec->offset));
}

void
tf2_torn_resolved(const struct reader_sink *sink, struct tf2_file *f, uint64_t off)
{
	struct reader_problem p = {
		.kind = PROBLEM_TORN_TAIL, .file = f->announced ? (int64_t)f->id : -1,
		.path = f->path, .record = -1, .what = tf2_role_what[f->role], .detail = "",
	};

	if (!f->torn_reported || off < f->torn_reported)
		return;
	p.offset = f->torn_reported - 1;
	f->torn_reported = 0;
	if (sink->on_resolved)
		sink->on_resolved(sink->ctx, &p);
}

/* Returns false when the file cannot be read further this pass. */
static bool
one_record(struct pass *ps, struct tf2_set *s, struct tf2_file *f, record_fn fn)
{
	int64_t recno = (int64_t)f->cur.index;
	uint64_t before = f->cur.off;
	struct tfrecord rec;
	enum tfrecord_status st = tfrecord_next(&f->cur, &rec);
	bool more = true;

	/* framed before it is announced: a row the sink hears of is one
	 * advance() and decode() can reach at once (the TUI reads rows while
	 * this pass runs) */
	__atomic_store_n(&f->indexed_end, f->cur.off, __ATOMIC_RELEASE);
	switch (st) {
	case TFRECORD_OK:
		ps->detail[0] = '\0';
		if (!fn(ps, s, f, &rec)) {
			char why[sizeof ps->detail];

			memcpy(why, ps->detail, sizeof why);
			problem(ps, PROBLEM_DECODE_ERROR, f, rec.offset, recno, "%s", why);
			tf2_add_skip(ps->r, f, rec.offset, rec.next);
		}
		break;
	case TFRECORD_BAD_DATA_CRC:
	case TFRECORD_BAD_LENGTH_CRC:
	case TFRECORD_BAD_LENGTH:
		framing_problem(ps, f, st, &rec, recno);
		break;
	case TFRECORD_TORN:
		torn(ps, f, &rec, recno);
		more = false;
		break;
	case TFRECORD_IO:
		problem(ps, PROBLEM_UNREADABLE, f, rec.offset, recno, "read error or no memory");
		more = false;
		break;
	case TFRECORD_END:
		more = false;
		break;
	}
	tf2_torn_resolved(ps->sink, f, f->cur.off);
	ps->progress.done += f->cur.off - before;
	progress(ps, false);
	return more;
}

static void
scan_file(struct pass *ps, struct tf2_set *s, enum tf2_role role, record_fn fn)
{
	struct tf2_file *f = &s->files[role];

	uint64_t n = 0;

	if (!f->src)
		return;
	while (one_record(ps, s, f, fn))
		/* reader.h should_stop: the consumer gives the pass up */
		if ((++n & 4095) == 0 && ps->sink->should_stop &&
		    ps->sink->should_stop(ps->sink->ctx))
			break;
	tfrecord_cursor_done(&f->cur);     /* drop the window; the offset stays */
}

static Tensorflow__DebugEvent *
unpack(struct pass *ps, const struct tfrecord *rec, int want)
{
	Tensorflow__DebugEvent *ev = tensorflow__debug_event__unpack(NULL, rec->length, rec->data);

	if (!ev) {
		snprintf(ps->detail, sizeof ps->detail, "payload does not decode as a DebugEvent");
		return NULL;
	}
	if (want && (int)ev->what_case != want) {
		snprintf(ps->detail, sizeof ps->detail, "unexpected DebugEvent kind %d in this file",
			 (int)ev->what_case);
		tensorflow__debug_event__free_unpacked(ev, NULL);
		return NULL;
	}
	return ev;
}

/* ---- source files and stack frames ------------------------------------ */

static bool
on_source_record(struct pass *ps, struct tf2_set *s, struct tf2_file *f, const struct tfrecord *rec)
{
	Tensorflow__DebugEvent *ev = unpack(ps, rec, TENSORFLOW__DEBUG_EVENT__WHAT_SOURCE_FILE);
	const Tensorflow__SourceFile *sf;
	struct reader_source src;
	size_t was;

	if (!ev)
		return false;
	sf = ev->source_file;
	src = (struct reader_source){
		.id = ps->r->next_source_id++, .host = sf->host_name[0] ? sf->host_name : s->host,
		.path = sf->file_path, .loc = { f->id, rec->offset }, .nlines = sf->n_lines,
	};
	was = s->sourcecap;
	TD_GROW(s->source_ids, s->sourcecap, s->nsources + 1);
	if (s->sourcecap != was)
		s->source_paths = xrealloc(s->source_paths, s->sourcecap * sizeof(*s->source_paths));
	s->source_ids[s->nsources] = src.id;
	s->source_paths[s->nsources] = xstrdup(sf->file_path);
	s->nsources++;
	if (ps->sink->on_source)
		ps->sink->on_source(ps->sink->ctx, &src);
	tensorflow__debug_event__free_unpacked(ev, NULL);
	return true;
}

/* A frame whose file_index names no source file of the host (the
 * .source_files file is missing or lacks it) is still sent, with the file
 * unknown, so a stack keeps its lines and functions. */
static void
send_frame(struct pass *ps, struct tf2_set *s, const char *id, int32_t file_index,
	   uint32_t line, const char *func)
{
	struct reader_frame fr = {
		.id = id, .host = s->host, .source_id = -1, .line = line, .func = func ? func : "",
	};
	char unknown[64 + 256];

	if (file_index >= 0 && (size_t)file_index < s->nsources) {
		fr.file = s->source_paths[file_index];
		fr.source_id = s->source_ids[file_index];
	} else {
		snprintf(unknown, sizeof unknown, "<source file #%d of host %.256s>", (int)file_index,
			 s->host);
		fr.file = unknown;
	}
	fr.framework = reader_path_is_framework(fr.file);
	if (ps->sink->on_frame)
		ps->sink->on_frame(ps->sink->ctx, &fr);
}

/* True when the host's source list is as complete as it will get this
 * pass: its file is missing or read to its end (no torn tail to wait for). */
static bool
sources_settled(const struct tf2_set *s)
{
	const struct tf2_file *f = &s->files[TF2_SOURCE_FILES];

	return !f->src || f->cur.stopped || f->cur.off >= f->cur.size;
}

/* Frames whose source file was not known yet wait here (a robust reader
 * keeps them pending instead of dropping them, 7.2 step 2).  With settle,
 * at the end of a pass, those the source list cannot resolve are sent with
 * the file unknown. */
static void
retry_pending(struct pass *ps, struct tf2_set *s, bool settle)
{
	size_t i, kept = 0;

	settle = settle && sources_settled(s);
	for (i = 0; i < s->npending; i++) {
		struct tf2_pending_frame *p = &s->pending[i];

		if ((size_t)p->file_index < s->nsources || settle) {
			send_frame(ps, s, p->id, p->file_index, p->line, p->func);
			free(p->id);
			free(p->func);
		} else {
			s->pending[kept++] = *p;
		}
	}
	s->npending = kept;
}

static bool
on_frame_record(struct pass *ps, struct tf2_set *s, struct tf2_file *f, const struct tfrecord *rec)
{
	Tensorflow__DebugEvent *ev = unpack(ps, rec, TENSORFLOW__DEBUG_EVENT__WHAT_STACK_FRAME_WITH_ID);
	const Tensorflow__StackFrameWithId *sf;
	const Tensorflow__GraphDebugInfo__FileLineCol *flc;
	int32_t idx;
	uint32_t line;

	(void)f;
	if (!ev)
		return false;
	sf = ev->stack_frame_with_id;
	flc = sf->file_line_col;
	idx = flc ? flc->file_index : -1;
	line = flc && flc->line > 0 ? (uint32_t)flc->line : 0;
	if (idx < 0) {
		snprintf(ps->detail, sizeof ps->detail, "stack frame %s has no file index", sf->id);
		tensorflow__debug_event__free_unpacked(ev, NULL);
		return false;
	}
	if ((size_t)idx < s->nsources) {
		send_frame(ps, s, sf->id, idx, line, flc->func);
	} else {
		TD_GROW(s->pending, s->pendingcap, s->npending + 1);
		s->pending[s->npending++] = (struct tf2_pending_frame){
			.id = xstrdup(sf->id), .file_index = idx, .line = line, .func = xstrdup(flc->func),
		};
	}
	tensorflow__debug_event__free_unpacked(ev, NULL);
	return true;
}

/* ---- graphs, ops, devices --------------------------------------------- */

static void
send_op(struct pass *ps, struct tf2_set *s, const Tensorflow__GraphOpCreation *oc, double wall_time)
{
	const Tensorflow__CodeLocation *cl = oc->code_location;
	int64_t *ids = NULL;
	struct reader_op op;
	size_t i;

	if (oc->n_output_tensor_ids) {
		ids = xcalloc(oc->n_output_tensor_ids, sizeof(*ids));
		for (i = 0; i < oc->n_output_tensor_ids; i++)
			ids[i] = oc->output_tensor_ids[i];
	}
	op = (struct reader_op){
		.graph_id = oc->graph_id, .op_name = oc->op_name, .op_type = oc->op_type,
		.device = oc->device_name[0] ? oc->device_name : NULL,
		.host = cl && cl->host_name[0] ? cl->host_name : s->host,
		.inputs = (const char *const *)oc->input_names, .ninputs = oc->n_input_names,
		.num_outputs = oc->num_outputs > 0 ? (uint32_t)oc->num_outputs : 0,
		.output_tensor_ids = ids, .noutput_tensor_ids = oc->n_output_tensor_ids,
		.frame_ids = cl ? (const char *const *)cl->stack_frame_ids : NULL,
		.nframes = cl ? cl->n_stack_frame_ids : 0, .wall_time = wall_time,
	};
	if (ps->sink->on_op)
		ps->sink->on_op(ps->sink->ctx, &op);
	free(ids);
}

static void
send_device(struct pass *ps, struct tf2_set *s, const Tensorflow__DebuggedDevice *dd)
{
	struct reader_device dev = { .id = dd->device_id, .name = dd->device_name, .host = s->host };

	pthread_mutex_lock(&ps->r->lock);
	TD_GROW(s->devices, s->devicecap, s->ndevices + 1);
	s->devices[s->ndevices].id = dd->device_id;
	s->devices[s->ndevices].name = xstrdup(dd->device_name);
	s->ndevices++;
	pthread_mutex_unlock(&ps->r->lock);
	if (ps->sink->on_device)
		ps->sink->on_device(ps->sink->ctx, &dev);
}

static bool
on_graph_record(struct pass *ps, struct tf2_set *s, struct tf2_file *f, const struct tfrecord *rec)
{
	Tensorflow__DebugEvent *ev = unpack(ps, rec, 0);
	struct reader_graph g;
	bool ok = true;

	(void)f;
	if (!ev)
		return false;
	switch (ev->what_case) {
	case TENSORFLOW__DEBUG_EVENT__WHAT_DEBUGGED_GRAPH:
		g = (struct reader_graph){
			.graph_id = ev->debugged_graph->graph_id, .name = ev->debugged_graph->graph_name,
			.outer_id = ev->debugged_graph->outer_context_id, .host = s->host,
		};
		if (ps->sink->on_graph)
			ps->sink->on_graph(ps->sink->ctx, &g);
		break;
	case TENSORFLOW__DEBUG_EVENT__WHAT_GRAPH_OP_CREATION:
		send_op(ps, s, ev->graph_op_creation, ev->wall_time);
		break;
	case TENSORFLOW__DEBUG_EVENT__WHAT_DEBUGGED_DEVICE:
		send_device(ps, s, ev->debugged_device);
		break;
	default:
		snprintf(ps->detail, sizeof ps->detail, "unexpected DebugEvent kind %d in the graphs file",
			 (int)ev->what_case);
		ok = false;
		break;
	}
	tensorflow__debug_event__free_unpacked(ev, NULL);
	return ok;
}

/* ---- traces and executions: the hot path ------------------------------ */

static void
set_mode(struct pass *ps, int mode)
{
	if (ps->r->mode_sent || mode <= 0)
		return;
	ps->r->mode_sent = true;
	meta(ps, "tensor_debug_mode", tf2_mode_name(mode));
}

static void
clear_str(struct strbuf *sb)
{
	if (sb->buf)
		sb->buf[0] = '\0';
	sb->len = 0;
}

/* Copies a LEN field into a reusable NUL-terminated buffer (no strbuf
 * bookkeeping on the hot path: it grows only for a longer string). */
static void
copy_str(struct strbuf *sb, const struct pbwire_field *f)
{
	if (f->len + 1 > sb->cap) {
		sb->cap = f->len + 64;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf, f->data, f->len);
	sb->buf[f->len] = '\0';
	sb->len = f->len;
}

/* Sends the trace of a staged entry (a good, decoded record). */
static void
emit_trace(struct pass *ps, struct tf2_file *f, const struct tf2_stage_block *b,
	   struct tf2_stage_entry *e, int64_t recno)
{
	e->t.loc.file = f->id;
	e->t.graph_id = b->arena + e->graph_id;
	e->t.op_name = b->arena + e->op_name;
	set_mode(ps, e->mode);
	if (!e->summary_ok)
		problem(ps, PROBLEM_DECODE_ERROR, f, e->offset, recno,
			"%s (op %s); the trace is kept without a summary", b->arena + e->why, e->t.op_name);
	if (ps->sink->on_trace)
		ps->sink->on_trace(ps->sink->ctx, &e->t);
}

/* One staged entry, as one_record() handles a record; false at the end. */
static bool
emit_entry(struct pass *ps, struct tf2_file *f, const struct tf2_stage_block *b,
	   struct tf2_stage_entry *e, uint64_t *before)
{
	struct tfrecord rec = { .offset = e->offset, .length = e->length, .next = e->next,
				.stopped = e->stopped };
	int64_t recno = e->recno + b->recno_base;
	bool more = true;

	__atomic_store_n(&f->indexed_end, e->cur_off, __ATOMIC_RELEASE);   /* as one_record() */
	switch (e->st) {
	case TFRECORD_OK:
		if (e->decoded) {
			emit_trace(ps, f, b, e, recno);
		} else {
			problem(ps, PROBLEM_DECODE_ERROR, f, e->offset, recno, "%s", b->arena + e->why);
			tf2_add_skip(ps->r, f, e->offset, e->next);
		}
		break;
	case TFRECORD_BAD_DATA_CRC:
	case TFRECORD_BAD_LENGTH_CRC:
	case TFRECORD_BAD_LENGTH:
		framing_problem(ps, f, e->st, &rec, recno);
		break;
	case TFRECORD_TORN:
		torn(ps, f, &rec, recno);
		more = false;
		break;
	case TFRECORD_IO:
		problem(ps, PROBLEM_UNREADABLE, f, e->offset, recno, "read error or no memory");
		more = false;
		break;
	case TFRECORD_END:
		more = false;
		break;
	}
	tf2_torn_resolved(ps->sink, f, e->cur_off);
	ps->progress.done += e->cur_off - *before;
	*before = e->cur_off;
	progress(ps, false);
	return more;
}

/* The traces file of a set, through the stage pipeline. */
static void
scan_traces(struct pass *ps, struct tf2_set *s)
{
	struct tf2_file *f = &s->files[TF2_TRACES];
	struct tf2_stage_block *b;
	struct tf2_stage *sg;
	uint64_t before = f->cur.off, index = f->cur.index;
	bool more = true, stopped = false;
	size_t i;

	if (!f->src)
		return;
	sg = tf2_stage_start(&f->cur);
	while (more && (b = tf2_stage_next(sg))) {
		for (i = 0; i < b->n && more; i++) {
			more = emit_entry(ps, f, b, &b->e[i], &before);
			index = (uint64_t)(b->e[i].recno + b->recno_base) + 1;
		}
		tf2_stage_release(sg);
		/* reader.h should_stop: the consumer gives the pass up */
		if (more && ps->sink->should_stop && ps->sink->should_stop(ps->sink->ctx)) {
			stopped = true;
			break;
		}
	}
	tf2_stage_stop(sg);
	if (stopped) {
		/* the stage read ahead of what was sent: a later pass resumes
		 * after the last record sent, not after the last one staged */
		f->cur.off = before;
		f->cur.index = index;
		f->cur.stopped = false;
	}
	tfrecord_cursor_done(&f->cur);
}

/* Does output i (tensor proto tp) make an InfNanMonitor alert (7.5)? */
static bool
output_alerts(struct pass *ps, int mode, const uint8_t *tp, size_t len, bool *has_value)
{
	struct td_summary s;
	double vec[MAX_VECTOR];
	long n;

	if (mode == 7) {
		if (!tf2_full_tensor_summary(tp, len, &s))
			return false;
		*has_value |= (s.known & SUM_DTYPE) != 0;
		return td_dtype_is_float(s.dtype) && s.elements > 0 &&
		       (s.nan > 0 || s.neg_inf > 0 || s.pos_inf > 0);
	}
	(void)ps;
	n = tf2_wire_vector(tp, len, vec, MAX_VECTOR);
	if (n <= 0)
		return false;
	*has_value = true;
	return n <= MAX_VECTOR && tf2_vector_alerts(mode, vec, n);
}

static bool
on_execution_record(struct pass *ps, struct tf2_set *s, struct tf2_file *f, const struct tfrecord *rec)
{
	/* step -1: the records carry no step number (the model places traces by
	 * wall time when it needs one) */
	struct reader_execution e = { .loc = { f->id, rec->offset }, .host = s->host, .step = -1 };
	struct pbwire_field ev, fl;
	struct pbwire r;
	int mode = 0;

	if (!tf2_event_payload(rec->data, rec->length, 9, &ev, &e.wall_time, ps->detail,
			       sizeof ps->detail))
		return false;
	clear_str(&ps->a);
	clear_str(&ps->b);
	pbwire_init_field(&r, &ev);
	while (pbwire_next(&r, &fl)) {
		if (fl.num == 1 && fl.type == PBWIRE_LEN)
			copy_str(&ps->a, &fl);
		else if (fl.num == 2 && fl.type == PBWIRE_VARINT)
			e.num_outputs = (uint32_t)fl.v;
		else if (fl.num == 3 && fl.type == PBWIRE_LEN)
			copy_str(&ps->b, &fl);
		else if (fl.num == 6 && fl.type == PBWIRE_VARINT)
			mode = (int)(int32_t)fl.v;
	}
	if (r.error) {
		snprintf(ps->detail, sizeof ps->detail, "malformed Execution");
		return false;
	}
	/* second look for the outputs: the mode may follow them on the wire */
	pbwire_init_field(&r, &ev);
	while (pbwire_next(&r, &fl))
		if (fl.num == 7 && fl.type == PBWIRE_LEN &&
		    output_alerts(ps, mode, fl.data, fl.len, &e.has_values))
			e.bad_outputs++;
	set_mode(ps, mode);
	e.op_type = ps->a.buf ? ps->a.buf : "";
	e.graph_id = ps->b.buf ? ps->b.buf : "";
	if (ps->sink->on_execution)
		ps->sink->on_execution(ps->sink->ctx, &e);
	return true;
}

/* ---- the pass --------------------------------------------------------- */

enum td_status
tf2_index(struct reader *r, const struct reader_sink *sink)
{
	struct pass ps = { .r = r, .sink = sink, .progress.step = PROGRESS_STEP };
	size_t i;

	tf2_discover(r, sink);
	for (i = 0; i < r->nsets; i++)
		r->sets[i]->host_now = tf2_set_is_host(r, sink, r->sets[i]);
	tf2_send_meta(r, sink);
	tf2_send_files(r, sink, &ps.progress);
	progress(&ps, true);
	for (i = 0; i < r->nsets; i++)
		scan_file(&ps, r->sets[i], TF2_SOURCE_FILES, on_source_record);
	for (i = 0; i < r->nsets; i++) {
		retry_pending(&ps, r->sets[i], false);
		scan_file(&ps, r->sets[i], TF2_STACK_FRAMES, on_frame_record);
		retry_pending(&ps, r->sets[i], true);
	}
	for (i = 0; i < r->nsets; i++)
		scan_file(&ps, r->sets[i], TF2_GRAPHS, on_graph_record);
	/* reader.h should_stop: skip the rest once the consumer gave up */
	for (i = 0; i < r->nsets && !(sink->should_stop && sink->should_stop(sink->ctx)); i++)
		scan_traces(&ps, r->sets[i]);
	for (i = 0; i < r->nsets && !(sink->should_stop && sink->should_stop(sink->ctx)); i++)
		scan_file(&ps, r->sets[i], TF2_EXECUTION, on_execution_record);
	/* the metadata file holds one record, read at open; mark it done */
	for (i = 0; i < r->nsets; i++) {
		for (int k = TF2_SOURCE_FILES; k < TF2_ROLE_COUNT; k++)
			tf2_take_sig(&r->sets[i]->files[k]);
		struct tf2_file *m = &r->sets[i]->files[TF2_METADATA];

		if (m->src && m->cur.off < m->cur.size) {
			ps.progress.done += m->cur.size - m->cur.off;
			m->cur.off = m->cur.size;
		}
	}
	progress(&ps, true);
	strbuf_done(&ps.a);
	strbuf_done(&ps.b);
	return TD_OK;
}
