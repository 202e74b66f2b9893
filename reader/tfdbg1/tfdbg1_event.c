/*
 * tfdbg1_event.c - the contents of one tfdbg v1 file: a single serialized
 * Event, no framing (FORMAT.md §1).
 *
 * Tensor dump files carry the dumped tensor in summary.value[0].tensor; what
 * it means depends on the debug op in the file name (FORMAT.md §10):
 * DebugIdentity dumps the watched tensor, DebugNumericSummary a health
 * vector, DebugNanCount a NaN count.  This file turns each into a
 * td_summary of the *watched* tensor as far as the op tells, so alerts work
 * whichever op the user chose.  Core metadata, fetch and feed files carry a
 * log message.  Files are read whole (one tensor per file), opened O_RDONLY.
 */
#include "tfdbg1_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/parse/pbwire.h"
#include "reader/base/fileio.h"
#include "tf_event.pb-c.h"
#include "reader/parse/tf_tensor.h"

enum td_status
tfdbg1_read_file(const char *path, uint8_t **data, size_t *len, char *err, size_t errlen)
{
	/* fileio refuses FIFOs and other non-regular files without blocking. */
	return td_read_file(path, TFDBG1_MAX_FILE, (char **)data, len, err, errlen);
}

enum td_status
tfdbg1_log_message(const uint8_t *data, size_t len, char **message, double *wall_time_us, char *err,
		   size_t errlen)
{
	Tensorflow__Event *ev = tensorflow__event__unpack(NULL, len, data);

	*message = NULL;
	if (!ev) {
		snprintf(err, errlen, "not an Event protobuf (%zu bytes)", len);
		return TD_ERR_DECODE;
	}
	if (wall_time_us)
		*wall_time_us = ev->wall_time;
	if (ev->what_case != TENSORFLOW__EVENT__WHAT_LOG_MESSAGE || !ev->log_message) {
		snprintf(err, errlen, "Event holds no log_message");
		tensorflow__event__free_unpacked(ev, NULL);
		return TD_ERR_DECODE;
	}
	*message = xstrdup(ev->log_message->message ? ev->log_message->message : "");
	tensorflow__event__free_unpacked(ev, NULL);
	return TD_OK;
}

/* A count stored as a double in a health vector; garbage becomes 0. */
static int64_t
count_of(double v)
{
	if (!isfinite(v) || v < 0 || v > 9.0e18)
		return 0;
	return (int64_t)llround(v);
}

static void
numeric_counts(struct td_summary *s, int64_t nan, int64_t ninf, int64_t neg, int64_t zero,
	       int64_t pos, int64_t pinf)
{
	s->nan = nan;
	s->neg_inf = ninf;
	s->negative = neg;
	s->zero = zero;
	s->positive = pos;
	s->pos_inf = pinf;
	/* each count may be near 2^63 in a hostile file: no sum */
	s->has_inf_or_nan = nan > 0 || ninf > 0 || pinf > 0;
	s->known |= SUM_NAN | SUM_NEG_INF | SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE | SUM_POS_INF |
		    SUM_NONFINITE;
}

/* min, max and mean are over finite values; with none the vector holds
 * +inf, -inf and NaN there, which are not values of the tensor. */
static void
numeric_moments(struct td_summary *s, double min, double max, double mean, double variance)
{
	if (s->negative == 0 && s->zero == 0 && s->positive == 0)   /* no sum: hostile counts */
		return;
	s->min = min;
	s->max = max;
	s->mean = mean;
	s->known |= SUM_MINMAX | SUM_MEAN;
	if (isfinite(variance) && variance >= 0) {
		s->std = sqrt(variance);
		s->known |= SUM_STD;
	}
}

static void
numeric_shape(struct td_summary *s, const double *v, size_t rank)
{
	size_t i, first = rank > TD_MAX_DIMS ? rank - TD_MAX_DIMS : 0;

	/* a dtype number outside int is garbage: an unknown dtype */
	s->dtype = tf_dtype_to_td(isfinite(v[12]) && fabs(v[12]) < 1e6 ? (int)v[12] : -1);
	s->rank = (int)rank;
	s->ndims = (int)(rank - first);
	s->dims_truncated = first > 0;
	for (i = first; i < rank; i++)
		s->dims[i - first] = count_of(v[14 + i]);
	s->known |= SUM_DTYPE | SUM_RANK | SUM_SHAPE;
}

const char *
tfdbg1_numeric_summary(const double *v, size_t n, struct td_summary *out)
{
	bool current =
		n >= 14 && isfinite(v[13]) && v[13] >= 0 && v[13] <= 64 && n == 14 + (size_t)v[13];

	memset(out, 0, sizeof(*out));
	if (!current && n != 12)
		return NULL;
	if (current)
		numeric_shape(out, v, (size_t)v[13]);
	if (v[0] == 0) {
		/* is_initialized == 0: nothing else in the vector is a value */
		out->known |= SUM_UNINITIALIZED;
		return current ? "DebugNumericSummary (14 + rank)"
			       : "DebugNumericSummary (12, old)";
	}
	out->elements = count_of(v[1]);
	out->known |= SUM_ELEMENTS;
	if (current) {
		numeric_counts(out, count_of(v[2]), count_of(v[3]), count_of(v[4]), count_of(v[5]),
			       count_of(v[6]), count_of(v[7]));
	} else {
		/* old layout: NaN sits at index 7 (FORMAT.md §10) */
		numeric_counts(out, count_of(v[7]), count_of(v[2]), count_of(v[3]), count_of(v[4]),
			       count_of(v[5]), count_of(v[6]));
	}
	numeric_moments(out, v[8], v[9], v[10], v[11]);
	return current ? "DebugNumericSummary (14 + rank)" : "DebugNumericSummary (12, old)";
}

static bool
is_identity_op(const char *op)
{
	return !strcmp(op, "DebugIdentity") || !strcmp(op, "DebugIdentityV3");
}

/* Dtype and shape of a TensorProto into s (for values that are not decoded). */
static void
proto_shape(const Tensorflow__TensorProto *tp, struct td_summary *s)
{
	const Tensorflow__TensorShapeProto *sh = tp->tensor_shape;
	size_t rank = sh ? sh->n_dim : 0, i, first = rank > TD_MAX_DIMS ? rank - TD_MAX_DIMS : 0;
	int64_t n = 1;

	s->dtype = tf_dtype_to_td(tp->dtype);
	s->rank = (int)rank;
	s->ndims = (int)(rank - first);
	s->dims_truncated = first > 0;
	s->known |= SUM_DTYPE | SUM_RANK | SUM_SHAPE;
	for (i = 0; i < rank; i++) {
		int64_t d = sh->dim[i]->size;

		if (i >= first)
			s->dims[i - first] = d;
		if (d < 0 || (d && n > INT64_MAX / d))
			return; /* unknown size: no element count */
		n *= d;
	}
	s->elements = n;
	s->known |= SUM_ELEMENTS;
}

/* The dumped tensor as a vector of doubles (health vectors, NaN counts). */
static void
take_vector(struct tfdbg1_datum *d, const struct td_tensor *t)
{
	int64_t i, n = t && t->data ? TD_MIN(t->n, 4096) : 0;

	if (n <= 0)
		return;         /* no numbers (strings, resources...): no vector */
	d->vector = xmalloc((size_t)n * sizeof(double));
	for (i = 0; i < n; i++)
		d->vector[i] = td_tensor_get(t, i);
	d->nvector = (size_t)n;
}

static void
summarize_debug_op(struct tfdbg1_datum *d, const char *op, const Tensorflow__TensorProto *tp,
		   struct td_tensor *t, bool uninit)
{
	if (is_identity_op(op)) {
		if (uninit || !t) {
			/* no value in memory: a value past TD_TENSOR_MAX_BYTES is
			 * still summarised, without materialising it */
			if (uninit || tf_tensor_summarize(tp, &d->summary) != TD_OK ||
			    !(d->summary.known & SUM_ELEMENTS))
				proto_shape(tp, &d->summary);
			if (uninit)
				d->summary.known |= SUM_UNINITIALIZED;
		} else {
			td_tensor_summarize(t, &d->summary);
			d->value = t;
			return;
		}
	} else if (!strcmp(op, "DebugNumericSummary")) {
		take_vector(d, t);
		d->layout = tfdbg1_numeric_summary(d->vector, d->nvector, &d->summary);
		if (!d->layout)
			proto_shape(tp, &d->summary);
	} else if (!strcmp(op, "DebugNanCount")) {
		take_vector(d, t);
		if (d->nvector >= 1) {
			d->summary.nan = count_of(d->vector[0]);
			d->summary.known |= SUM_NAN;
			if (d->summary.nan > 0) {
				d->summary.has_inf_or_nan = true;
				d->summary.known |= SUM_NONFINITE;
			}
			d->layout = "DebugNanCount";
		}
	} else {
		/* an op tdbg does not know: show what it dumped, claim nothing */
		proto_shape(tp, &d->summary);
		d->value = t;
		return;
	}
	td_tensor_free(t);
}

static void
copy_value_strings(struct tfdbg1_datum *d, const Tensorflow__Summary__Value *v)
{
	if (v->tag && v->tag[0])
		d->tag = xstrdup(v->tag);
	if (v->node_name && v->node_name[0])
		d->debug_node = xstrdup(v->node_name);
	if (v->metadata && v->metadata->plugin_data && v->metadata->plugin_data->content.len)
		d->plugin_content = xstrndup((const char *)v->metadata->plugin_data->content.data,
					     v->metadata->plugin_data->content.len);
}

enum td_status
tfdbg1_datum_decode(const uint8_t *data, size_t len, const char *debug_op, struct tfdbg1_datum *out,
		    char *err, size_t errlen)
{
	Tensorflow__Event *ev;
	const Tensorflow__Summary__Value *v;
	struct td_tensor *t = NULL;
	bool uninit = false;
	enum td_status st;

	memset(out, 0, sizeof(*out));
	ev = tensorflow__event__unpack(NULL, len, data);
	if (!ev) {
		snprintf(err, errlen, "not an Event protobuf (%zu bytes)", len);
		return TD_ERR_DECODE;
	}
	if (ev->what_case != TENSORFLOW__EVENT__WHAT_SUMMARY || !ev->summary ||
	    ev->summary->n_value == 0 ||
	    ev->summary->value[0]->value_case != TENSORFLOW__SUMMARY__VALUE__VALUE_TENSOR) {
		snprintf(err, errlen, "Event holds no summary value with a tensor");
		tensorflow__event__free_unpacked(ev, NULL);
		return TD_ERR_DECODE;
	}
	v = ev->summary->value[0];
	out->wall_time_us = ev->wall_time;
	out->tf_dtype = v->tensor->dtype;
	copy_value_strings(out, v);
	st = tfdbg1_tensor_decode(v->tensor, &t, &uninit, err, errlen);
	if (st != TD_OK) {
		tensorflow__event__free_unpacked(ev, NULL);
		tfdbg1_datum_done(out);
		return st;
	}
	summarize_debug_op(out, debug_op, v->tensor, t, uninit);
	tensorflow__event__free_unpacked(ev, NULL);
	return TD_OK;
}

/* The bytes of the first field num (LEN) of the message at f, or false. */
static bool
find_len_field(const uint8_t *data, size_t len, uint32_t num, bool last, struct pbwire_field *out)
{
	struct pbwire r;
	struct pbwire_field f;
	bool found = false;

	pbwire_init(&r, data, len);
	while (pbwire_next(&r, &f)) {
		if (f.num != num || f.type != PBWIRE_LEN)
			continue;
		*out = f;
		found = true;
		if (!last)
			break;
	}
	return found && !r.error;
}

bool
tfdbg1_fast_summary(const uint8_t *data, size_t len, const char *debug_op, struct td_summary *out)
{
	struct pbwire_field summary, value, tensor;

	if (!is_identity_op(debug_op))
		return false;
	/* Event.summary (5, the oneof: last wins) -> value[0] (1) -> tensor (8) */
	if (!find_len_field(data, len, 5, true, &summary) ||
	    !find_len_field(summary.data, summary.len, 1, false, &value) ||
	    !find_len_field(value.data, value.len, 8, true, &tensor))
		return false;
	return tf_tensor_summarize_bytes(tensor.data, tensor.len, out);
}

void
tfdbg1_datum_done(struct tfdbg1_datum *d)
{
	if (!d)
		return;
	free(d->tag);
	free(d->debug_node);
	free(d->plugin_content);
	td_tensor_free(d->value);
	free(d->vector);
	memset(d, 0, sizeof(*d));
}
