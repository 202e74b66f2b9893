/*
 * cmd_show.c - the JSON and text forms of the things several commands
 * print: tensor summaries, stacks and ops.  One place, so "trace", "op",
 * "stack" and "alerts" cannot drift apart.
 */
#include "cmd_internal.h"
#include "fmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

void
cmd_json_counts(struct json *j, const struct td_summary *s)
{
	summary_json_counts(j, s);
}

void
cmd_json_summary(struct json *j, const struct td_summary *s)
{
	summary_json(j, s);
}

void
cmd_text_summary(struct strbuf *sb, const struct td_summary *s)
{
	summary_text(sb, s);
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
			strbuf_addf(env->out, "        %s\n", cmd_safe(f.code));
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
	cmd_json_op_details(env, j, &o);
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
		    cmd_txt(o.name), cmd_txt(o.type), cmd_txt(o.graph_id),
		    *gname ? " (" : "", cmd_safe(gname), *gname ? ")" : "", cmd_txt(o.device));
	if (o.host && *o.host)
		strbuf_addf(out, "host      %s\n", cmd_safe(o.host));
	strbuf_addf(out, "inputs    %zu\n", o.ninputs);
	for (i = 0; i < o.ninputs; i++)
		strbuf_addf(out, "  %s:%u  %s\n", cmd_txt(o.inputs[i].op_name), o.inputs[i].slot,
			    cmd_txt(op_type_of(env, o.inputs[i].op)));
	n = op_consumers(env, op, &c);
	strbuf_addf(out, "consumers %zu\n", n);
	for (i = 0; i < n; i++)
		if (model_op_get(env->m, c[i].op, &co))
			strbuf_addf(out, "  %s (input %u <- output %u)  %s\n", cmd_txt(co.name),
				    c[i].input_slot, c[i].output_slot, cmd_txt(co.type));
	free(c);
	if (o.noutput_tensor_ids) {
		strbuf_adds(out, "tensor ids");
		for (i = 0; i < o.noutput_tensor_ids; i++)
			strbuf_addf(out, " %lld", (long long)o.output_tensor_ids[i]);
		strbuf_addc(out, '\n');
	}
	cmd_text_op_details(env, &o);
	strbuf_adds(out, "stack\n");
	cmd_text_frames(env, o.stack, o.nstack);
}
