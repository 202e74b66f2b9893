/*
 * tfdbg2_decode.c - the tfdbg v2 debug-vector rules (FORMAT.md
 * §6 and §7.5) and decode(): re-reading one trace,
 * execution or source file by locator with protobuf-c.
 *
 * decode() may run on another thread than the index pass: it reads with
 * pread through the file's source and takes the reader lock only to look
 * the file and the device names up.
 */
#include "reader/reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/pbwire.h"
#include "tf_debug_event.pb-c.h"
#include "reader/parse/tf_tensor.h"
#include "tfdbg2_internal.h"

enum {
	MODE_NO_TENSOR = 1, MODE_CURT_HEALTH = 2, MODE_CONCISE_HEALTH = 3,
	MODE_FULL_HEALTH = 4, MODE_SHAPE = 5, MODE_FULL_TENSOR = 7,
};

const char *
tf2_mode_name(int mode)
{
	static const char *const names[] = {
		"UNSPECIFIED", "NO_TENSOR", "CURT_HEALTH", "CONCISE_HEALTH", "FULL_HEALTH",
		"SHAPE", "FULL_NUMERICS", "FULL_TENSOR", "REDUCE_INF_NAN_THREE_SLOTS",
	};

	return mode >= 0 && (size_t)mode < TD_ARRAY_SIZE(names) ? names[mode] : "UNKNOWN";
}

/* A count or id stored as a double, clamped: a corrupt vector may hold any
 * double, and converting one out of range to an integer is undefined. */
static inline int64_t
d2i(double v)
{
	if (v > -9.2e18 && v < 9.2e18)  /* false for NaN too */
		return (int64_t)v;
	return isnan(v) ? 0 : v > 0 ? INT64_MAX : INT64_MIN;
}

static inline int
d2int(double v)
{
	int64_t i = d2i(v);

	return i > INT32_MAX ? INT32_MAX : i < INT32_MIN ? INT32_MIN : (int)i;
}

static void
set_counts(struct td_summary *s, double neg_inf, double pos_inf, double nan)
{
	s->neg_inf = d2i(neg_inf);
	s->pos_inf = d2i(pos_inf);
	s->nan = d2i(nan);
	s->has_inf_or_nan = neg_inf != 0 || pos_inf != 0 || nan != 0;
	s->known |= SUM_NEG_INF | SUM_POS_INF | SUM_NAN | SUM_NONFINITE;
}

/* SHAPE: six dimension slots, right-padded; rank > 6 keeps the last six. */
static void
shape_dims(const double *v, struct td_summary *s)
{
	int i;

	s->ndims = TD_MIN(s->rank, 6);
	s->dims_truncated = s->rank > 6;
	for (i = 0; i < s->ndims; i++)
		s->dims[i] = d2i(v[4 + i]);
	s->known |= SUM_SHAPE;
}

/* Copying a zero summary compiles to a few vector stores; memset() of the
 * same size to a slow "rep stos" (a tenth of the index pass). */
static const struct td_summary summary_zero;

bool
tf2_summary_from_vector(int mode, const double *v, long n, struct td_summary *s)
{
	*s = summary_zero;
	switch (mode) {
	case MODE_CURT_HEALTH:
		if (n != 2)
			return false;
		s->has_inf_or_nan = v[1] != 0;
		s->known = SUM_NONFINITE;
		break;
	case MODE_CONCISE_HEALTH:
		if (n != 5)
			return false;
		s->elements = d2i(v[1]);
		s->known = SUM_ELEMENTS;
		set_counts(s, v[2], v[3], v[4]);
		break;
	case MODE_FULL_HEALTH:
		if (n != 11)
			return false;
		s->dtype = tf_dtype_to_td(d2int(v[2]));
		s->rank = d2int(v[3]);
		s->elements = d2i(v[4]);
		s->negative = d2i(v[8]);
		s->zero = d2i(v[9]);
		s->positive = d2i(v[10]);
		s->known = SUM_DTYPE | SUM_RANK | SUM_ELEMENTS | SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE;
		set_counts(s, v[5], v[6], v[7]);
		break;
	case MODE_SHAPE:
		if (n != 10)
			return false;
		s->dtype = tf_dtype_to_td(d2int(v[1]));
		s->rank = d2int(v[2]);
		s->elements = d2i(v[3]);
		s->known = SUM_DTYPE | SUM_RANK | SUM_ELEMENTS;
		if (s->rank >= 0)
			shape_dims(v, s);
		break;
	default:
		return n == 0 || mode != MODE_NO_TENSOR;
	}
	s->tensor_id = d2i(v[0]);
	s->known |= SUM_TENSOR_ID;
	return true;
}

bool
tf2_vector_alerts(int mode, const double *v, long n)
{
	switch (mode) {
	case MODE_CURT_HEALTH:
		return n == 2 && v[1] != 0;
	case MODE_CONCISE_HEALTH:
		return n == 5 && (v[2] != 0 || v[3] != 0 || v[4] != 0);
	case MODE_FULL_HEALTH:
		return n == 11 && (v[5] != 0 || v[6] != 0 || v[7] != 0);
	default:
		return false;   /* SHAPE and the rest never alert (7.5) */
	}
}

/* Float values (content or packed float_val) as doubles. */
static long
floats_to_doubles(const uint8_t *p, size_t len, double *out, size_t max)
{
	size_t n = len / 4, i;

	if (len % 4)
		return -1;
	for (i = 0; i < n && i < max; i++) {
		float f;

		memcpy(&f, p + 4 * i, 4);
		out[i] = f;
	}
	return (long)n;
}

long
tf2_wire_vector(const void *tp, size_t len, double *out, size_t max)
{
	struct pbwire r;
	struct pbwire_field f, content = {0}, dvals = {0}, fvals = {0};
	int dtype = 0;

	pbwire_init(&r, tp, len);
	while (pbwire_next(&r, &f)) {
		switch (f.key) {
		case PBWIRE_KEY(1, PBWIRE_VARINT): dtype = (int)(int32_t)f.v; break;
		case PBWIRE_KEY(4, PBWIRE_LEN):    content = f; break;
		case PBWIRE_KEY(6, PBWIRE_LEN):    dvals = f; break;
		case PBWIRE_KEY(5, PBWIRE_LEN):    fvals = f; break;
		default: break;
		}
	}
	if (r.error)
		return -1;
	if (dtype == 0)
		return 0;       /* the DT_INVALID placeholder: no vector */
	if (dtype == 2 && content.len)
		return content.len % 8 ? -1 : pbwire_packed_doubles(&(struct pbwire_field){
			.type = PBWIRE_LEN, .data = content.data, .len = content.len }, out, max);
	if (dtype == 1 && content.len)
		return floats_to_doubles(content.data, content.len, out, max);
	if (dtype == 2)
		return dvals.data ? pbwire_packed_doubles(&dvals, out, max) : 0;
	if (dtype == 1)
		return fvals.data ? floats_to_doubles(fvals.data, fvals.len, out, max) : 0;
	return -1;
}

/* ---- decode ----------------------------------------------------------- */

/* Reads and unpacks the DebugEvent at loc of a file of the given role. */
static enum td_status
read_event(struct reader *r, const struct td_locator *loc, enum tf2_role role,
	   Tensorflow__DebugEvent **ev, struct tf2_set **set, uint64_t *next)
{
	struct tf2_file *f = tf2_file_by_id(r, loc->file);
	struct source *src = NULL;
	unsigned char *buf;
	enum td_status st;
	size_t len;

	*ev = NULL;
	if (!f || f->role != role)
		return TD_ERR_ARGS;
	pthread_mutex_lock(&r->lock);
	/* f->id moves on when the file is retired (tf2_retire_file) */
	st = f->stale || f->id != loc->file ? TD_ERR_STALE : TD_OK;
	src = f->src;
	pthread_mutex_unlock(&r->lock);
	if (st != TD_OK)
		return st;
	if (!src)
		return TD_ERR_NOENT;
	st = tf2_read_record(src, loc->offset, &buf, &len);
	if (st != TD_OK)
		return st;
	if (next)
		*next = tf2_next_row(r, f, loc->offset + TFRECORD_HEADER + len + TFRECORD_FOOTER);
	*ev = tensorflow__debug_event__unpack(NULL, len, buf);
	free(buf);
	if (!*ev)
		return TD_ERR_DECODE;
	*set = tf2_set_of_file(r, f);
	return *set ? TD_OK : TD_ERR_ARGS;
}

static char *
dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

/* The debug vector of a proto as doubles (NULL and 0 for a placeholder). */
static void
proto_vector(const Tensorflow__TensorProto *tp, double **out, size_t *n)
{
	struct td_tensor *t = NULL;
	int64_t i;

	*out = NULL;
	*n = 0;
	if (!tp || tf_tensor_decode(tp, &t) != TD_OK || !t || !td_dtype_size(t->dtype))
		goto done;
	*out = xcalloc(t->n ? (size_t)t->n : 1, sizeof(double));
	for (i = 0; i < t->n; i++)
		(*out)[i] = td_tensor_get(t, i);
	*n = (size_t)t->n;
done:
	td_tensor_free(t);
}

/* Output i of a trace or execution: full value or debug vector, and the
 * summary either gives.  Notes what could not be decoded in text. */
static void
decode_output(int mode, const Tensorflow__TensorProto *tp, struct reader_detail *d, size_t i,
	      struct strbuf *text)
{
	enum td_status st;

	if (!tp)
		return;
	if (mode == MODE_FULL_TENSOR) {
		st = tf_tensor_decode(tp, &d->values[i]);
		if (st == TD_ERR_TOO_LARGE && tf_tensor_summarize(tp, &d->summaries[i]) == TD_OK)
			strbuf_addf(text, "output %zu: value of %lld elements is larger than the "
				    "%llu MiB tdbg decodes: summary only\n", i,
				    (long long)d->summaries[i].elements,
				    (unsigned long long)(TD_TENSOR_MAX_BYTES >> 20));
		else if (st != TD_OK)
			strbuf_addf(text, "output %zu: value does not decode: %s\n", i, td_strerror(st));
		else if (d->values[i])
			td_tensor_summarize(d->values[i], &d->summaries[i]);
		return;
	}
	proto_vector(tp, &d->debug_values[i], &d->ndebug_values[i]);
	if (d->debug_values[i] &&
	    !tf2_summary_from_vector(mode, d->debug_values[i], (long)d->ndebug_values[i], &d->summaries[i]))
		strbuf_addf(text, "output %zu: debug vector of %zu values does not fit %s\n",
			    i, d->ndebug_values[i], tf2_mode_name(mode));
}

static void
alloc_outputs(struct reader_detail *d, size_t n)
{
	d->noutputs = n;
	d->summaries = xcalloc(n ? n : 1, sizeof(*d->summaries));
	d->values = xcalloc(n ? n : 1, sizeof(*d->values));
	d->debug_values = xcalloc(n ? n : 1, sizeof(*d->debug_values));
	d->ndebug_values = xcalloc(n ? n : 1, sizeof(*d->ndebug_values));
}

static void
copy_frames(const Tensorflow__CodeLocation *cl, struct reader_detail *d)
{
	size_t i;

	if (!cl || !cl->n_stack_frame_ids)
		return;
	d->frame_ids = xcalloc(cl->n_stack_frame_ids, sizeof(*d->frame_ids));
	for (i = 0; i < cl->n_stack_frame_ids; i++)
		d->frame_ids[i] = xstrdup(cl->stack_frame_ids[i]);
	d->nframes = cl->n_stack_frame_ids;
}

/* A TensorShapeProto's (depth 0) or a Dim's (depth 1) bytes: whether
 * they unpack (every field of proto/tf_tensor.proto of its wire type),
 * and the product of the dims' sizes into *elements (-1 when one is
 * negative or the product overflows). */
static bool
shape_ok(const struct pbwire_field *f, int depth, int64_t *elements)
{
	struct pbwire w;
	struct pbwire_field g;

	pbwire_init_field(&w, f);
	while (pbwire_next(&w, &g)) {
		if (depth == 0 && g.num == 2 && (g.type != PBWIRE_LEN || !shape_ok(&g, 1, elements)))
			return false;
		if (depth == 0 && g.num == 3 && g.type != PBWIRE_VARINT)
			return false;
		if (depth == 1 && ((g.num == 1 && g.type != PBWIRE_VARINT) ||
				   (g.num == 2 && g.type != PBWIRE_LEN)))
			return false;
		if (depth == 1 && g.num == 1 && *elements >= 0) {
			int64_t size = (int64_t)g.v;

			if (size < 0 || (size && *elements > INT64_MAX / size))
				*elements = -1;
			else
				*elements *= size;
		}
	}
	return !w.error;
}

/* Whether a TensorProto is one the wire scanner's summary
 * (tf2_output_summary, tf2_wire_vector) reads as the unpacker and
 * tf_tensor_decode do: its bytes unpack as proto/tf_tensor.proto says
 * (each known field of its wire type, packed lists whole, the shape's
 * messages whole), and it is plain: a float or double vector in
 * tensor_content or in the value list of its own type (each at most
 * once, no other value list), as many values as its shape has elements,
 * or the placeholder (DT_INVALID, no values).  Anything else goes to the
 * full decode. */
static bool
tensor_proto_plain(const uint8_t *p, size_t len)
{
	struct pbwire w;
	struct pbwire_field f;
	int64_t dtype = 0, elements = 1, values = 0;
	int lists = 0;
	bool shaped = false;

	pbwire_init(&w, p, len);
	while (pbwire_next(&w, &f)) {
		switch (f.num) {
		case 1: case 3:                         /* dtype, version_number */
			if (f.type != PBWIRE_VARINT)
				return false;
			if (f.num == 1)
				dtype = (int32_t)f.v;
			break;
		case 2:                                 /* tensor_shape */
			if (f.type != PBWIRE_LEN || shaped || !shape_ok(&f, 0, &elements))
				return false;
			shaped = true;
			break;
		case 4: case 5: case 6:                 /* tensor_content, float_val, double_val */
			if (f.type != PBWIRE_LEN || lists++)
				return false;
			values = f.num == 4 ? -(int64_t)f.len : (int64_t)(f.len / (f.num == 5 ? 4 : 8));
			if ((f.num == 5 && (f.len % 4 || dtype == 2)) ||
			    (f.num == 6 && (f.len % 8 || dtype == 1)))
				return false;
			break;
		default:
			if (f.num <= 17)                /* another value list */
				return false;
			break;
		}
	}
	if (w.error || (dtype != 1 && dtype != 2 && !(dtype == 0 && !lists)))
		return false;
	if (values < 0)                                 /* tensor_content: bytes */
		values = -values / (dtype == 2 ? 8 : 4);
	return dtype == 0 || (shaped ? elements == values : values == 1);
}

/* Whether the unpacker takes the DebugEvent in data as the event whose
 * oneof member is field num, from that field alone: every known field of
 * its wire type (another fails the unpack), num the last member of the
 * oneof present (a later one replaces it) and present once (twice, the
 * unpacker merges the two). */
static bool
event_plain(const uint8_t *data, size_t len, uint32_t num)
{
	struct pbwire r;
	struct pbwire_field f;
	uint32_t last = 0, seen = 0;

	pbwire_init(&r, data, len);
	while (pbwire_next(&r, &f)) {
		if (f.num == 1 || f.num == 2) {
			if (f.type != (f.num == 1 ? PBWIRE_FIXED64 : PBWIRE_VARINT))
				return false;
		} else if (f.num >= 3 && f.num <= 12 && f.num != 5) {
			if (f.type != PBWIRE_LEN)
				return false;
			last = f.num;
			seen += f.num == num;
		}
	}
	return !r.error && last == num && seen == 1;
}

/* The record at loc of a file of the given role, read for a cheaper decode
 * (the wire scanner): its payload in *buf (freed by the caller) and the
 * DebugEvent's field num in *ev.  False when the file is stale or gone or
 * the record is not such an event: the caller then decodes in full, which
 * says why. */
static bool
fast_event(struct reader *r, const struct td_locator *loc, enum tf2_role role, uint32_t num,
	   struct tf2_file **file, unsigned char **buf, size_t *len, struct pbwire_field *ev,
	   double *wall_time)
{
	struct tf2_file *f = tf2_file_by_id(r, loc->file);
	struct source *src;
	char why[256];
	bool stale;

	*buf = NULL;
	if (!f || f->role != role)
		return false;
	pthread_mutex_lock(&r->lock);
	stale = f->stale || f->id != loc->file;
	src = f->src;
	pthread_mutex_unlock(&r->lock);
	if (stale || !src || tf2_read_record(src, loc->offset, buf, len) != TD_OK)
		return false;
	*file = f;
	return event_plain(*buf, *len, num) &&
	       tf2_event_payload(*buf, *len, num, ev, wall_time, why, sizeof why);
}

/* The fields the model's row cache keeps (decode_summary), read with the
 * index's wire scanner instead of unpacking the record: a health-mode
 * trace's summary, slot, device and wall time.  False when the record
 * needs the full decode (FULL_TENSOR values, or something odd: the full
 * decode then says what). */
static bool
decode_trace_fast(struct reader *r, const struct td_locator *loc, struct reader_detail *d)
{
	struct tf2_file *f = NULL;
	struct pbwire_field ev, fl, tp = {0}, dev = {0};
	struct pbwire w;
	unsigned char *buf;
	size_t len = 0;
	int mode = 0;
	uint32_t slot = 0;
	char why[256];
	bool ok = false;

	if (!fast_event(r, loc, TF2_TRACES, 10, &f, &buf, &len, &ev, &d->wall_time))
		goto out;
	pbwire_init_field(&w, &ev);
	/* a known field of another wire type fails the unpacker, and a
	 * second tensor_proto is merged by it: both are left to decode() */
	while (pbwire_next(&w, &fl)) {
		uint32_t want = fl.num == 3 || fl.num == 4 ? PBWIRE_VARINT : PBWIRE_LEN;

		if (fl.num >= 1 && fl.num <= 6 && fl.type != want)
			goto out;
		switch (fl.num) {
		case 3: slot = (uint32_t)fl.v; break;
		case 4: mode = (int)(int32_t)fl.v; break;
		case 5:
			if (tp.data)
				goto out;
			tp = fl;
			break;
		case 6: dev = fl; break;
		default: break;
		}
	}
	if (w.error || mode == MODE_FULL_TENSOR || (int32_t)slot < 0)
		goto out;
	if (tp.data && !tensor_proto_plain(tp.data, tp.len))
		goto out;
	alloc_outputs(d, 1);
	if (!tp.data) {
		d->summaries[0] = (struct td_summary){0};
	} else if (!tf2_output_summary(mode, tp.data, tp.len, &d->summaries[0], why, sizeof why)) {
		reader_detail_done(d);
		goto out;
	}
	d->slot = slot;
	d->device = dev.len ? xstrndup((const char *)dev.data, dev.len) : NULL;
	d->next_offset = tf2_next_row(r, f, loc->offset + TFRECORD_HEADER + len + TFRECORD_FOOTER);
	ok = true;
out:
	free(buf);
	return ok;
}

static enum td_status
decode_trace(struct reader *r, const struct td_locator *loc, struct reader_detail *d)
{
	const Tensorflow__GraphExecutionTrace *t;
	Tensorflow__DebugEvent *ev;
	struct strbuf text = {0};
	struct tf2_set *set;
	enum td_status st = read_event(r, loc, TF2_TRACES, &ev, &set, &d->next_offset);

	if (st != TD_OK)
		return st;
	if (ev->what_case != TENSORFLOW__DEBUG_EVENT__WHAT_GRAPH_EXECUTION_TRACE) {
		tensorflow__debug_event__free_unpacked(ev, NULL);
		return TD_ERR_DECODE;
	}
	t = ev->graph_execution_trace;
	d->wall_time = ev->wall_time;
	d->op_name = xstrdup(t->op_name);
	d->graph_id = xstrdup(t->tfdbg_context_id);
	d->device = dup_or_null(t->device_name);
	d->host = xstrdup(set->host);
	d->slot = t->output_slot > 0 ? (uint32_t)t->output_slot : 0;
	d->mode = xstrdup(tf2_mode_name(t->tensor_debug_mode));
	alloc_outputs(d, 1);
	decode_output(t->tensor_debug_mode, t->tensor_proto, d, 0, &text);
	strbuf_addf(&text, "graph id: %s\ndevice: %s\nhost: %s\ntensor debug mode: %s\n",
		    td_oneline(t->tfdbg_context_id), td_oneline(t->device_name), td_oneline(set->host),
		    d->mode);
	d->text = strbuf_take(&text);
	tensorflow__debug_event__free_unpacked(ev, NULL);
	return TD_OK;
}

static const char *
device_name(struct reader *r, struct tf2_set *set, int32_t id, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "device %d", id);
	pthread_mutex_lock(&r->lock);
	for (i = 0; i < set->ndevices; i++)
		if (set->devices[i].id == id)
			snprintf(buf, len, "%s", set->devices[i].name);
	pthread_mutex_unlock(&r->lock);
	return buf;
}

static void
execution_text(struct reader *r, struct tf2_set *set, const Tensorflow__Execution *e,
	       struct reader_detail *d, struct strbuf *text)
{
	char buf[256];
	size_t i;

	strbuf_addf(text, "op type: %s\n", td_oneline(e->op_type));
	if (e->graph_id[0])
		strbuf_addf(text, "graph id: %s\n", td_oneline(e->graph_id));
	strbuf_addf(text, "host: %s\ntensor debug mode: %s\noutputs: %d\n", td_oneline(d->host), d->mode,
		    e->num_outputs);
	if (e->n_output_tensor_device_ids) {
		strbuf_adds(text, "output devices:");
		for (i = 0; i < e->n_output_tensor_device_ids; i++)
			strbuf_addf(text, "%s %s", i ? "," : "",
				    td_oneline(device_name(r, set, e->output_tensor_device_ids[i], buf,
							       sizeof buf)));
		strbuf_addc(text, '\n');
	}
}

/* Outputs shown for an execution whose record carries no tensor and no
 * output id (NO_TENSOR mode): up to this many of those it declares. */
#define EXEC_MAX_BARE_OUTPUTS 4096

static int64_t *
copy_ids(const int64_t *ids, size_t n, size_t *nout)
{
	int64_t *out = NULL;

	*nout = n;
	if (n) {
		out = xcalloc(n, sizeof(*out));
		memcpy(out, ids, n * sizeof(*out));
	}
	return out;
}

static enum td_status
decode_execution(struct reader *r, const struct td_locator *loc, struct reader_detail *d)
{
	const Tensorflow__Execution *e;
	Tensorflow__DebugEvent *ev;
	struct strbuf text = {0};
	struct tf2_set *set;
	enum td_status st = read_event(r, loc, TF2_EXECUTION, &ev, &set, &d->next_offset);
	size_t i, n;

	if (st != TD_OK)
		return st;
	if (ev->what_case != TENSORFLOW__DEBUG_EVENT__WHAT_EXECUTION) {
		tensorflow__debug_event__free_unpacked(ev, NULL);
		return TD_ERR_DECODE;
	}
	e = ev->execution;
	d->wall_time = ev->wall_time;
	d->op_type = xstrdup(e->op_type);
	d->graph_id = xstrdup(e->graph_id);
	d->host = xstrdup(e->code_location && e->code_location->host_name[0] ?
			  e->code_location->host_name : set->host);
	d->mode = xstrdup(tf2_mode_name(e->tensor_debug_mode));
	/* outputs the record holds, not what it declares: num_outputs is
	 * only believed up to the tensors and ids it carries */
	n = TD_MAX(e->n_tensor_protos, e->n_output_tensor_ids);
	if (n == 0 && e->num_outputs > 0)
		n = TD_MIN((size_t)e->num_outputs, EXEC_MAX_BARE_OUTPUTS);
	alloc_outputs(d, n);
	execution_text(r, set, e, d, &text);
	for (i = 0; i < e->n_tensor_protos; i++)
		decode_output(e->tensor_debug_mode, e->tensor_protos[i], d, i, &text);
	copy_frames(e->code_location, d);
	d->input_tensor_ids = copy_ids(e->input_tensor_ids, e->n_input_tensor_ids, &d->ninput_ids);
	d->output_tensor_ids = copy_ids(e->output_tensor_ids, e->n_output_tensor_ids, &d->noutput_ids);
	d->text = strbuf_take(&text);
	tensorflow__debug_event__free_unpacked(ev, NULL);
	return TD_OK;
}

/* Whether a CodeLocation's bytes unpack (host_name and stack frame ids,
 * both strings): the full decode fails on one that does not, and the
 * cheaper path must not answer where it fails. */
static bool
code_location_ok(const struct pbwire_field *cl)
{
	struct pbwire w;
	struct pbwire_field f;

	pbwire_init_field(&w, cl);
	while (pbwire_next(&w, &f))
		if ((f.num == 1 || f.num == 2) && f.type != PBWIRE_LEN)
			return false;
	return !w.error;
}

/* Appends the ids of one input_tensor_ids / output_tensor_ids field
 * (packed, or one unpacked varint) to ids[*n]; false when malformed. */
static bool
add_ids(const struct pbwire_field *f, int64_t *ids, size_t *n)
{
	long k = pbwire_packed_varints(f, ids ? (uint64_t *)(ids + *n) : NULL, ids ? SIZE_MAX : 0);

	if (k < 0)
		return false;
	*n += (size_t)k;
	return true;
}

/* What the carry, `--where` and watches read of an execution (its tensor
 * ids and its outputs' summaries), read with the wire scanner instead of
 * unpacking the record and writing its text, frames and names: about a
 * tenth of the full decode's instructions (`origins` on a 10M dump
 * decodes thousands).  False when the record needs the full decode
 * (FULL_TENSOR values, or anything the scanner does not take as the
 * unpacker would: the full decode then says what).  Fills what
 * decode_execution fills of those fields, the same way. */
static bool
decode_execution_fast(struct reader *r, const struct td_locator *loc, struct reader_detail *d)
{
	struct tf2_file *f = NULL;
	struct pbwire_field ev, fl;
	struct pbwire w;
	unsigned char *buf;
	size_t len = 0, nin = 0, nout = 0, nprotos = 0, n;
	int64_t num_outputs = 0;
	int mode = 0, pass;
	char why[256];
	bool ok = false;

	if (!fast_event(r, loc, TF2_EXECUTION, 9, &f, &buf, &len, &ev, &d->wall_time))
		goto out;
	/* pass 0 checks every field and counts; pass 1 fills */
	for (pass = 0; pass < 2; pass++) {
		size_t kin = 0, kout = 0, kproto = 0;

		pbwire_init_field(&w, &ev);
		while (pbwire_next(&w, &fl)) {
			switch (fl.num) {
			case 1: case 3:         /* op_type, graph_id */
				if (fl.type != PBWIRE_LEN)
					goto out;
				break;
			case 2: case 6:         /* num_outputs, tensor_debug_mode: int32 */
				if (fl.type != PBWIRE_VARINT)
					goto out;
				if (pass)
					break;  /* the last one counts, also for protos before it */
				if (fl.num == 2)
					num_outputs = (int32_t)fl.v;
				else
					mode = (int)(int32_t)fl.v;
				break;
			case 4:
				if ((fl.type != PBWIRE_LEN && fl.type != PBWIRE_VARINT) ||
				    !add_ids(&fl, pass ? d->input_tensor_ids : NULL, &kin))
					goto out;
				break;
			case 5:
				if ((fl.type != PBWIRE_LEN && fl.type != PBWIRE_VARINT) ||
				    !add_ids(&fl, pass ? d->output_tensor_ids : NULL, &kout))
					goto out;
				break;
			case 7:
				if (fl.type != PBWIRE_LEN || (!pass && !tensor_proto_plain(fl.data, fl.len)))
					goto out;
				if (pass && !tf2_output_summary(mode, fl.data, fl.len, &d->summaries[kproto],
								why, sizeof why))
					goto out;
				kproto++;
				break;
			case 8:
				if (fl.type != PBWIRE_LEN || (!pass && !code_location_ok(&fl)))
					goto out;
				break;
			case 9:                 /* output_tensor_device_ids: int32 */
				if ((fl.type != PBWIRE_LEN && fl.type != PBWIRE_VARINT) ||
				    (!pass && pbwire_packed_varints(&fl, NULL, 0) < 0))
					goto out;
				break;
			default:
				break;
			}
		}
		if (w.error)
			goto out;
		if (!pass) {
			if (mode == MODE_FULL_TENSOR)
				goto out;
			nin = kin;
			nout = kout;
			nprotos = kproto;
			/* as decode_execution: the outputs the record holds */
			n = TD_MAX(nprotos, nout);
			if (n == 0 && num_outputs > 0)
				n = TD_MIN((size_t)num_outputs, EXEC_MAX_BARE_OUTPUTS);
			alloc_outputs(d, n);
			d->input_tensor_ids = nin ? xcalloc(nin, sizeof(int64_t)) : NULL;
			d->output_tensor_ids = nout ? xcalloc(nout, sizeof(int64_t)) : NULL;
			d->ninput_ids = nin;
			d->noutput_ids = nout;
		}
	}
	d->next_offset = tf2_next_row(r, f, loc->offset + TFRECORD_HEADER + len + TFRECORD_FOOTER);
	ok = true;
out:
	if (!ok)
		reader_detail_done(d);
	free(buf);
	return ok;
}

static enum td_status
decode_source(struct reader *r, const struct td_locator *loc, struct reader_detail *d)
{
	const Tensorflow__SourceFile *sf;
	Tensorflow__DebugEvent *ev;
	struct tf2_set *set;
	enum td_status st = read_event(r, loc, TF2_SOURCE_FILES, &ev, &set, NULL);
	size_t i;

	if (st != TD_OK)
		return st;
	if (ev->what_case != TENSORFLOW__DEBUG_EVENT__WHAT_SOURCE_FILE) {
		tensorflow__debug_event__free_unpacked(ev, NULL);
		return TD_ERR_DECODE;
	}
	sf = ev->source_file;
	d->wall_time = ev->wall_time;
	d->host = xstrdup(sf->host_name[0] ? sf->host_name : set->host);
	d->nlines = sf->n_lines;
	d->lines = xcalloc(sf->n_lines ? sf->n_lines : 1, sizeof(*d->lines));
	for (i = 0; i < sf->n_lines; i++)
		d->lines[i] = xstrdup(sf->lines[i]);
	d->text = xasprintf("host: %s\npath: %s\nlines: %zu\n", d->host, sf->file_path, sf->n_lines);
	tensorflow__debug_event__free_unpacked(ev, NULL);
	return TD_OK;
}

enum td_status
tf2_decode(struct reader *r, enum reader_kind kind, const struct td_locator *loc,
	   struct reader_detail *out)
{
	enum td_status st;

	memset(out, 0, sizeof(*out));
	switch (kind) {
	case READER_TRACE:     st = decode_trace(r, loc, out); break;
	case READER_EXECUTION: st = decode_execution(r, loc, out); break;
	case READER_SOURCE:    st = decode_source(r, loc, out); break;
	default:               st = TD_ERR_ARGS; break;
	}
	if (st != TD_OK)
		reader_detail_done(out);
	return st;
}

enum td_status
tf2_decode_outputs(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	enum td_status st;

	memset(out, 0, sizeof(*out));
	if (decode_execution_fast(r, loc, out))
		return TD_OK;
	memset(out, 0, sizeof(*out));
	if ((st = decode_execution(r, loc, out)) != TD_OK)
		reader_detail_done(out);
	return st;
}

enum td_status
tf2_decode_summary(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	enum td_status st;

	memset(out, 0, sizeof(*out));
	if (decode_trace_fast(r, loc, out))
		return TD_OK;
	if ((st = decode_trace(r, loc, out)) != TD_OK)
		reader_detail_done(out);
	return st;
}
