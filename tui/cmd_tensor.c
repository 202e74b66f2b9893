/*
 * cmd_tensor.c - tensor values for "print", "trace N --slice" and
 * "execution N --slice": numpy slicing (td_slice_parse), text through
 * td_tensor_format, JSON as nested lists.
 *
 * JSON: {"dtype", "shape" (the whole tensor), "slice" (text or null),
 * "selected_shape", "elements" (selected), "truncated", "data"}.  data is
 * nested lists in the selected shape, or null when more than the limit
 * of elements are selected (truncated true; slice further to see them).
 * Floats use json_float/json_double (NaN/Inf as strings), 64-bit integers
 * are exact, bool is true/false, complex is [re, im], strings are strings.
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A resolved view: element offset of the first selected element, and for
 * each kept axis its count and stride (numpy semantics, as tensor.c). */
struct view {
	int ndims;
	int64_t base;
	int64_t count[TD_MAX_DIMS];
	int64_t stride[TD_MAX_DIMS];
};

static void
resolve(const struct td_slice_dim *d, int64_t n, int64_t *start, int64_t *count)
{
	int64_t step = d->step, a, b;

	if (step > 0) {
		a = d->has_start ? d->start : 0;
		b = d->has_stop ? d->stop : n;
		a = a < 0 ? TD_MAX(a + n, 0) : TD_MIN(a, n);
		b = b < 0 ? TD_MAX(b + n, 0) : TD_MIN(b, n);
		*count = b > a ? (b - a + step - 1) / step : 0;
	} else {
		a = d->has_start ? d->start : n - 1;
		b = d->has_stop ? d->stop : -1 - n;
		a = a < 0 ? TD_MAX(a + n, -1) : TD_MIN(a, n - 1);
		b = b < 0 ? TD_MAX(b + n, -1) : TD_MIN(b, n - 1);
		*count = a > b ? (a - b + (-step) - 1) / (-step) : 0;
	}
	*start = a;
}

static enum td_status
make_view(struct cmd_env *env, const struct td_tensor *t, const struct td_slice *s,
	  struct view *v)
{
	int64_t strides[TD_MAX_DIMS], stride = 1;
	int k, ns = s ? s->ndims : 0;

	memset(v, 0, sizeof(*v));
	if (t->rank > TD_MAX_DIMS)
		return cmd_fail(env, TD_ERR_UNSUPPORTED, "rank %d is more than %d", t->rank, TD_MAX_DIMS);
	if (ns > t->rank)
		return cmd_fail(env, TD_ERR_ARGS, "too many indices: the tensor has %d dimensions",
				t->rank);
	for (k = t->rank - 1; k >= 0; k--) {
		strides[k] = stride;
		stride *= t->dims[k];
	}
	for (k = 0; k < t->rank; k++) {
		const struct td_slice_dim *d = k < ns ? &s->dims[k] : NULL;
		int64_t n = t->dims[k], start = 0, count = n;

		if (d && d->index) {
			int64_t i = d->start < 0 ? d->start + n : d->start;

			if (i < 0 || i >= n)
				return cmd_fail(env, TD_ERR_RANGE, "index %lld is out of bounds for axis %d with size %lld",
						(long long)d->start, k, (long long)n);
			v->base += i * strides[k];
			continue;
		}
		if (d)
			resolve(d, n, &start, &count);
		v->base += start * strides[k];
		v->count[v->ndims] = count;
		v->stride[v->ndims++] = (d ? d->step : 1) * strides[k];
	}
	return TD_OK;
}

static void
json_elem(struct json *j, const struct td_tensor *t, int64_t i)
{
	const char *p = t->data;

	switch (t->dtype) {
	case DTYPE_FLOAT64:   json_double(j, ((const double *)p)[i]); return;
	case DTYPE_FLOAT32:
	case DTYPE_FLOAT16:
	case DTYPE_BFLOAT16:  json_float(j, (float)td_tensor_get(t, i)); return;
	case DTYPE_INT8:      json_int(j, ((const int8_t *)p)[i]); return;
	case DTYPE_INT16:     json_int(j, ((const int16_t *)p)[i]); return;
	case DTYPE_INT32:     json_int(j, ((const int32_t *)p)[i]); return;
	case DTYPE_INT64:     json_int(j, ((const int64_t *)p)[i]); return;
	case DTYPE_UINT8:     json_uint(j, ((const uint8_t *)p)[i]); return;
	case DTYPE_UINT16:    json_uint(j, ((const uint16_t *)p)[i]); return;
	case DTYPE_UINT32:    json_uint(j, ((const uint32_t *)p)[i]); return;
	case DTYPE_UINT64:    json_uint(j, ((const uint64_t *)p)[i]); return;
	case DTYPE_BOOL:      json_bool(j, ((const uint8_t *)p)[i] != 0); return;
	case DTYPE_COMPLEX64:
		json_array_begin(j);
		json_float(j, ((const float *)p)[2 * i]);
		json_float(j, ((const float *)p)[2 * i + 1]);
		json_array_end(j);
		return;
	case DTYPE_COMPLEX128:
		json_array_begin(j);
		json_double(j, ((const double *)p)[2 * i]);
		json_double(j, ((const double *)p)[2 * i + 1]);
		json_array_end(j);
		return;
	case DTYPE_STRING:
		json_string(j, t->strings ? t->strings[i] : NULL);
		return;
	default:
		json_null(j);
	}
}

static void
json_axis(struct json *j, const struct td_tensor *t, const struct view *v, int axis, int64_t off)
{
	int64_t k;

	if (axis == v->ndims) {
		json_elem(j, t, off);
		return;
	}
	json_array_begin(j);
	for (k = 0; k < v->count[axis]; k++)
		json_axis(j, t, v, axis + 1, off + k * v->stride[axis]);
	json_array_end(j);
}

static bool
value_printable(const struct td_tensor *t)
{
	if (t->dtype == DTYPE_STRING)
		return t->strings != NULL || t->n == 0;
	return t->data != NULL && td_dtype_size(t->dtype) > 0;
}

enum td_status
cmd_json_value(struct cmd_env *env, struct json *j, const struct td_tensor *t,
	       const char *slice_text, uint64_t limit)
{
	struct td_slice slice;
	struct view v;
	int64_t selected = 1;
	char err[256];
	int k;
	enum td_status st;

	if (slice_text && td_slice_parse(slice_text, &slice, err, sizeof err) != TD_OK)
		return cmd_fail(env, TD_ERR_ARGS, "%s", err);
	if ((st = make_view(env, t, slice_text ? &slice : NULL, &v)) != TD_OK)
		return st;
	for (k = 0; k < v.ndims; k++)
		selected *= v.count[k];
	json_object_begin(j);
	json_kv_string(j, "dtype", td_dtype_name(t->dtype));
	json_key(j, "shape");
	json_array_begin(j);
	for (k = 0; k < t->rank; k++)
		json_int(j, t->dims[k]);
	json_array_end(j);
	json_kv_string(j, "slice", slice_text);
	json_key(j, "selected_shape");
	json_array_begin(j);
	for (k = 0; k < v.ndims; k++)
		json_int(j, v.count[k]);
	json_array_end(j);
	json_kv_int(j, "elements", selected);
	json_kv_bool(j, "truncated", (uint64_t)selected > limit);
	json_key(j, "data");
	if ((uint64_t)selected > limit || !value_printable(t))
		json_null(j);
	else
		json_axis(j, t, &v, 0, v.base);
	json_object_end(j);
	return TD_OK;
}

enum td_status
cmd_text_value(struct cmd_env *env, const struct td_tensor *t, const char *slice_text,
	       uint64_t limit)
{
	struct td_slice slice;
	char err[256];
	enum td_status st;
	int k;

	if (slice_text && td_slice_parse(slice_text, &slice, err, sizeof err) != TD_OK)
		return cmd_fail(env, TD_ERR_ARGS, "%s", err);
	strbuf_addf(env->out, "%s[", td_dtype_name(t->dtype));
	for (k = 0; k < t->rank; k++)
		strbuf_addf(env->out, "%s%lld", k ? "," : "", (long long)t->dims[k]);
	strbuf_addf(env->out, "]%s%s\n", slice_text ? " " : "", slice_text ? slice_text : "");
	st = td_tensor_format(t, slice_text ? &slice : NULL, limit, env->out, err, sizeof err);
	if (st != TD_OK)
		return cmd_fail(env, st, "%s", err);
	strbuf_addc(env->out, '\n');
	return TD_OK;
}
