/*
 * cmd_show.c - the JSON and text forms of the things several commands
 * print: tensor summaries, stacks and ops.  One place, so "trace", "op",
 * "stack" and "alerts" cannot drift apart.
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
kv_count(struct json *j, const struct td_summary *s, uint32_t bit, const char *key, int64_t v)
{
	json_key(j, key);
	if (s->known & bit)
		json_int(j, v);
	else
		json_null(j);
}

void
cmd_json_counts(struct json *j, const struct td_summary *s)
{
	kv_count(j, s, SUM_NAN, "nan", s->nan);
	kv_count(j, s, SUM_NEG_INF, "neg_inf", s->neg_inf);
	kv_count(j, s, SUM_POS_INF, "pos_inf", s->pos_inf);
	kv_count(j, s, SUM_ELEMENTS, "elements", s->elements);
}

static void
json_shape(struct json *j, const struct td_summary *s)
{
	int i;

	json_key(j, "shape");
	if (!(s->known & SUM_SHAPE)) {
		json_null(j);
		return;
	}
	json_array_begin(j);
	for (i = 0; i < s->ndims && i < TD_MAX_DIMS; i++)
		json_int(j, s->dims[i]);
	json_array_end(j);
	if (s->dims_truncated)
		json_kv_bool(j, "shape_truncated", true);
}

/* A min/max of a float32 (or narrower) tensor is a float: print it with
 * float precision (-0.9274042, not -0.9274041652679443). */
static bool
float_origin(const struct td_summary *s, double v)
{
	return (s->known & SUM_DTYPE) && td_dtype_is_float(s->dtype) && s->dtype != DTYPE_FLOAT64 &&
	       (double)(float)v == v;
}

static void
kv_real(struct json *j, const struct td_summary *s, uint32_t bit, const char *key, double v)
{
	json_key(j, key);
	if (!(s->known & bit))
		json_null(j);
	else if (float_origin(s, v))
		json_float(j, (float)v);
	else
		json_double(j, v);
}

static void
text_real(struct strbuf *sb, const struct td_summary *s, const char *label, double v)
{
	char buf[40];

	if (float_origin(s, v))
		json_format_float(buf, sizeof buf, (float)v);
	else
		json_format_double(buf, sizeof buf, v);
	strbuf_addf(sb, " %s=%s", label, buf);
}

void
cmd_json_summary(struct json *j, const struct td_summary *s)
{
	json_object_begin(j);
	json_kv_string(j, "dtype", (s->known & SUM_DTYPE) ? td_dtype_name(s->dtype) : NULL);
	kv_count(j, s, SUM_RANK, "rank", s->rank);
	json_shape(j, s);
	cmd_json_counts(j, s);
	kv_count(j, s, SUM_NEGATIVE, "negative", s->negative);
	kv_count(j, s, SUM_ZERO, "zero", s->zero);
	kv_count(j, s, SUM_POSITIVE, "positive", s->positive);
	json_key(j, "has_inf_or_nan");
	if (s->known & (SUM_NONFINITE | SUM_NAN | SUM_NEG_INF | SUM_POS_INF))
		json_bool(j, td_summary_nonfinite(s));
	else
		json_null(j);
	kv_real(j, s, SUM_MINMAX, "min", s->min);
	kv_real(j, s, SUM_MINMAX, "max", s->max);
	kv_real(j, s, SUM_MEAN, "mean", s->mean);
	kv_real(j, s, SUM_ABS_MEAN, "abs_mean", s->abs_mean);
	kv_real(j, s, SUM_STD, "std", s->std);
	kv_real(j, s, SUM_L2NORM, "l2norm", s->l2norm);
	kv_count(j, s, SUM_TENSOR_ID, "tensor_id", s->tensor_id);
	if (s->known & SUM_UNINITIALIZED)
		json_kv_bool(j, "uninitialized", true);
	json_object_end(j);
}

static void
text_count(struct strbuf *sb, const struct td_summary *s, uint32_t bit, const char *label, int64_t v)
{
	if (s->known & bit)
		strbuf_addf(sb, " %s=%lld", label, (long long)v);
}

void
cmd_text_summary(struct strbuf *sb, const struct td_summary *s)
{
	size_t start = sb->len;
	int i;

	if (s->known & SUM_DTYPE)
		strbuf_adds(sb, td_dtype_name(s->dtype));
	if (s->known & SUM_SHAPE) {
		strbuf_addc(sb, '[');
		if (s->dims_truncated)
			strbuf_adds(sb, "...,");
		for (i = 0; i < s->ndims && i < TD_MAX_DIMS; i++)
			strbuf_addf(sb, "%s%lld", i ? "," : "", (long long)s->dims[i]);
		strbuf_addc(sb, ']');
	} else if (s->known & SUM_ELEMENTS) {
		strbuf_addf(sb, " n=%lld", (long long)s->elements);
	}
	text_count(sb, s, SUM_NEG_INF, "-inf", s->neg_inf);
	text_count(sb, s, SUM_NAN, "nan", s->nan);
	text_count(sb, s, SUM_POS_INF, "+inf", s->pos_inf);
	text_count(sb, s, SUM_NEGATIVE, "-", s->negative);
	text_count(sb, s, SUM_ZERO, "0", s->zero);
	text_count(sb, s, SUM_POSITIVE, "+", s->positive);
	if ((s->known & SUM_NONFINITE) && !(s->known & (SUM_NAN | SUM_NEG_INF | SUM_POS_INF)))
		strbuf_adds(sb, s->has_inf_or_nan ? " inf/nan" : " finite");
	if (s->known & SUM_MINMAX) {
		text_real(sb, s, "min", s->min);
		text_real(sb, s, "max", s->max);
	}
	if (s->known & SUM_MEAN)
		text_real(sb, s, "mean", s->mean);
	if (sb->len == start) {
		strbuf_adds(sb, "(no summary)");
	} else if (sb->buf[start] == ' ') {
		memmove(sb->buf + start, sb->buf + start + 1, sb->len - start);
		sb->len--;
	}
}

/* ---- stacks ---------------------------------------------------------- */

void
cmd_json_frames(struct cmd_env *env, struct json *j, const uint32_t *ids, size_t n)
{
	struct model_frame f;
	size_t i;

	json_array_begin(j);
	for (i = 0; i < n; i++) {
		if (!model_frame_get(env->m, ids[i], &f))
			continue;
		json_object_begin(j);
		json_kv_string(j, "file", f.file);
		json_key(j, "line");
		if (f.line)
			json_uint(j, f.line);
		else
			json_null(j);
		json_kv_string(j, "function", f.func);
		json_kv_string(j, "host", cmd_nz(f.host));
		if (f.code)
			json_kv_string(j, "code", f.code);
		json_kv_bool(j, "user_code", f.user_code);
		json_object_end(j);
	}
	json_array_end(j);
}

void
cmd_text_frames(struct cmd_env *env, const uint32_t *ids, size_t n)
{
	struct model_frame f;
	size_t i;

	if (n == 0) {
		strbuf_adds(env->out, "  (no stack recorded)\n");
		return;
	}
	for (i = 0; i < n; i++) {
		if (!model_frame_get(env->m, ids[i], &f))
			continue;
		strbuf_addf(env->out, "  #%-3zu %s:%u in %s\n", i, cmd_txt(f.file), f.line,
			    cmd_txt(f.func));
		if (f.code)
			strbuf_addf(env->out, "        %s\n", f.code);
	}
}

/* ---- ops --------------------------------------------------------------- */

static const char *
op_type_of(struct cmd_env *env, int64_t id)
{
	struct model_op o;

	if (id < 0 || !model_op_get(env->m, (uint32_t)id, &o))
		return NULL;
	return cmd_nz(o.type);
}

static void
json_op_inputs(struct cmd_env *env, struct json *j, const struct model_op *o)
{
	size_t i;

	json_key(j, "inputs");
	json_array_begin(j);
	for (i = 0; i < o->ninputs; i++) {
		json_object_begin(j);
		json_kv_string(j, "op_name", o->inputs[i].op_name);
		json_kv_uint(j, "output_slot", o->inputs[i].slot);
		json_kv_string(j, "op_type", op_type_of(env, o->inputs[i].op));
		json_object_end(j);
	}
	json_array_end(j);
}

/* Consumers, fetched in one go: the model says how many there are. */
static size_t
op_consumers(struct cmd_env *env, uint32_t op, struct model_consumer **out)
{
	size_t n = model_op_consumers(env->m, op, NULL, 0);

	*out = n ? xcalloc(n, sizeof(**out)) : NULL;
	if (n)
		n = TD_MIN(n, model_op_consumers(env->m, op, *out, n));
	return n;
}

static void
json_op_consumers(struct cmd_env *env, struct json *j, uint32_t op)
{
	struct model_consumer *c;
	struct model_op co;
	size_t i, n = op_consumers(env, op, &c);

	json_key(j, "consumers");
	json_array_begin(j);
	for (i = 0; i < n; i++) {
		if (!model_op_get(env->m, c[i].op, &co))
			continue;
		json_object_begin(j);
		json_kv_string(j, "op_name", co.name);
		json_kv_string(j, "op_type", cmd_nz(co.type));
		json_kv_uint(j, "input_slot", c[i].input_slot);
		json_kv_uint(j, "output_slot", c[i].output_slot);
		json_object_end(j);
	}
	json_array_end(j);
	free(c);
}

void
cmd_json_op(struct cmd_env *env, struct json *j, uint32_t op)
{
	struct model_op o;

	if (!model_op_get(env->m, op, &o)) {
		json_null(j);
		return;
	}
	json_object_begin(j);
	cmd_json_op_members(env, j, op);
	json_object_end(j);
}

void
cmd_json_op_members(struct cmd_env *env, struct json *j, uint32_t op)
{
	struct model_op o;
	size_t i;

	if (!model_op_get(env->m, op, &o))
		return;
	json_kv_uint(j, "id", o.id);
	json_kv_string(j, "name", o.name);
	json_kv_string(j, "type", cmd_nz(o.type));
	json_kv_string(j, "graph_id", cmd_nz(o.graph_id));
	json_kv_string(j, "graph_name", cmd_nz(o.graph_name));
	json_kv_string(j, "device", cmd_nz(o.device));
	json_kv_string(j, "host", cmd_nz(o.host));
	json_kv_uint(j, "num_outputs", o.num_outputs);
	json_op_inputs(env, j, &o);
	json_op_consumers(env, j, op);
	json_key(j, "output_tensor_ids");
	json_array_begin(j);
	for (i = 0; i < o.noutput_tensor_ids; i++)
		json_int(j, o.output_tensor_ids[i]);
	json_array_end(j);
	json_key(j, "stack");
	cmd_json_frames(env, j, o.stack, o.nstack);
}

void
cmd_text_op(struct cmd_env *env, uint32_t op)
{
	struct strbuf *out = env->out;
	struct model_consumer *c;
	struct model_op o, co;
	const char *gname;
	size_t i, n;

	if (!model_op_get(env->m, op, &o))
		return;
	gname = o.graph_name && o.graph_id && strcmp(o.graph_name, o.graph_id) != 0 ? o.graph_name : "";
	strbuf_addf(out, "op        %s\ntype      %s\ngraph     %s%s%s%s\ndevice    %s\n",
		    o.name, cmd_txt(o.type), cmd_txt(o.graph_id),
		    *gname ? " (" : "", gname, *gname ? ")" : "", cmd_txt(o.device));
	if (o.host && *o.host)
		strbuf_addf(out, "host      %s\n", o.host);
	strbuf_addf(out, "inputs    %zu\n", o.ninputs);
	for (i = 0; i < o.ninputs; i++)
		strbuf_addf(out, "  %s:%u  %s\n", o.inputs[i].op_name, o.inputs[i].slot,
			    cmd_txt(op_type_of(env, o.inputs[i].op)));
	n = op_consumers(env, op, &c);
	strbuf_addf(out, "consumers %zu\n", n);
	for (i = 0; i < n; i++)
		if (model_op_get(env->m, c[i].op, &co))
			strbuf_addf(out, "  %s (input %u <- output %u)  %s\n", co.name,
				    c[i].input_slot, c[i].output_slot, cmd_txt(co.type));
	free(c);
	if (o.noutput_tensor_ids) {
		strbuf_adds(out, "tensor ids");
		for (i = 0; i < o.noutput_tensor_ids; i++)
			strbuf_addf(out, " %lld", (long long)o.output_tensor_ids[i]);
		strbuf_addc(out, '\n');
	}
	strbuf_adds(out, "stack\n");
	cmd_text_frames(env, o.stack, o.nstack);
}
