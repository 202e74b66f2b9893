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

/* Resolves the slice with the same rules the text printer uses. */
static enum td_status
make_view(struct cmd_env *env, const struct td_tensor *t, const struct td_slice *s,
	  struct td_slice_view *v)
{
	char err[256];
	enum td_status st = td_slice_view(t, s, v, err, sizeof err);

	return st == TD_OK ? TD_OK : cmd_fail(env, st, "%s", err);
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
json_axis(struct json *j, const struct td_tensor *t, const struct td_slice_view *v, int axis, int64_t off)
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
	struct td_slice_view v;
	int64_t selected = 1;
	char err[256];
	int k;
	enum td_status st;

	if (slice_text && td_slice_parse(slice_text, &slice, err, sizeof err) != TD_OK)
		return cmd_fail(env, TD_ERR_ARGS, "%s", err);
	if ((st = make_view(env, t, slice_text ? &slice : NULL, &v)) != TD_OK)
		return st;
	selected = td_slice_view_elements(&v);
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
	json_kv_bool(j, "truncated", (uint64_t)td_slice_view_cost(&v) > limit);
	json_key(j, "data");
	/* the cost, not the element count: (4e9, 0) would be 4e9 "[]" */
	if ((uint64_t)td_slice_view_cost(&v) > limit || !value_printable(t))
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
