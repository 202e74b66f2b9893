/*
 * cmd_show.c - the things several commands print: tensor summaries, stacks
 * and ops, each built once through the emitter (members for JSON, lines
 * for text).  One place, so "trace", "op", "stack" and "alerts" cannot
 * drift apart.
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
cmd_emit_frames(struct cmd_env *env, struct emit *e, const uint32_t *ids, size_t n,
		const char *title)
{
	bool text = title != NULL;
	struct model_frame f;
	size_t i;

	if (text)
		emit_textf(e, "%s", title);
	if (text && n == 0)
		emit_textf(e, "  (no stack recorded)\n");
	emit_table_begin(e, emit_json_only);
	for (i = 0; i < n; i++) {
		if (!model_frame_get(env->m, ids[i], &f))
			continue;
		emit_object_begin(e, NULL);
		emit_kv_str(e, "file", f.file);
		emit_kv_index(e, "line", f.line ? (int64_t)f.line : -1);
		emit_kv_str(e, "function", f.func);
		emit_kv_str(e, "host", cmd_nz(f.host));
		if (f.code)
			emit_kv_str(e, "code", f.code);
		emit_kv_bool(e, "user_code", f.user_code);
		emit_object_end(e);
		if (text)
			emit_textf(e, "  #%-3zu %s:%u in %s\n", i, cmd_txt(f.file), f.line,
				   cmd_txt(f.func));
		if (text && f.code)
			emit_textf(e, "        %s\n", cmd_safe(f.code));
	}
	emit_table_end(e);
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
emit_op_inputs(struct cmd_env *env, struct emit *e, const struct model_op *o)
{
	size_t i;

	emit_textf(e, "inputs    %zu\n", o->ninputs);
	emit_key(e, "inputs");
	emit_table_begin(e, NULL);
	for (i = 0; i < o->ninputs; i++) {
		const char *type = op_type_of(env, o->inputs[i].op);

		emit_object_begin(e, NULL);
		emit_kv_str(e, "op_name", o->inputs[i].op_name);
		emit_kv_uint(e, "output_slot", o->inputs[i].slot);
		emit_kv_str(e, "op_type", type);
		emit_object_end(e);
		emit_textf(e, "  %s:%u  %s\n", cmd_txt(o->inputs[i].op_name), o->inputs[i].slot,
			   cmd_txt(type));
	}
	emit_table_end(e);
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
emit_op_consumers(struct cmd_env *env, struct emit *e, uint32_t op)
{
	struct model_consumer *c;
	struct model_op co;
	size_t i, n = op_consumers(env, op, &c);

	emit_textf(e, "consumers %zu\n", n);
	emit_key(e, "consumers");
	emit_table_begin(e, NULL);
	for (i = 0; i < n; i++) {
		if (!model_op_get(env->m, c[i].op, &co))
			continue;
		emit_object_begin(e, NULL);
		emit_kv_str(e, "op_name", co.name);
		emit_kv_str(e, "op_type", cmd_nz(co.type));
		emit_kv_uint(e, "input_slot", c[i].input_slot);
		emit_kv_uint(e, "output_slot", c[i].output_slot);
		emit_object_end(e);
		emit_textf(e, "  %s (input %u <- output %u)  %s\n", cmd_txt(co.name),
			   c[i].input_slot, c[i].output_slot, cmd_txt(co.type));
	}
	emit_table_end(e);
	free(c);
}

void
cmd_emit_op(struct cmd_env *env, struct emit *e, uint32_t op)
{
	struct model_op o;

	if (!model_op_get(env->m, op, &o)) {
		emit_null(e);
		return;
	}
	emit_object_begin(e, emit_json_only);
	cmd_emit_op_members(env, e, op);
	emit_object_end(e);
}

void
cmd_emit_op_members(struct cmd_env *env, struct emit *e, uint32_t op)
{
	struct model_op o;
	const char *gname;
	size_t i;

	if (!model_op_get(env->m, op, &o))
		return;
	gname = o.graph_name && o.graph_id && strcmp(o.graph_name, o.graph_id) != 0 ? o.graph_name : "";
	emit_kv_uint(e, "id", o.id);
	emit_kv_str(e, "name", o.name);
	emit_kv_str(e, "type", cmd_nz(o.type));
	emit_kv_str(e, "graph_id", cmd_nz(o.graph_id));
	emit_kv_str(e, "graph_name", cmd_nz(o.graph_name));
	emit_kv_str(e, "device", cmd_nz(o.device));
	emit_kv_str(e, "host", cmd_nz(o.host));
	emit_textf(e, "op        %s\ntype      %s\ngraph     %s%s%s%s\ndevice    %s\n",
		   cmd_txt(o.name), cmd_txt(o.type), cmd_txt(o.graph_id),
		   *gname ? " (" : "", cmd_safe(gname), *gname ? ")" : "", cmd_txt(o.device));
	if (o.host && *o.host)
		emit_textf(e, "host      %s\n", cmd_safe(o.host));
	emit_kv_uint(e, "num_outputs", o.num_outputs);
	emit_op_inputs(env, e, &o);
	emit_op_consumers(env, e, op);
	emit_key(e, "output_tensor_ids");
	emit_list_begin(e);
	for (i = 0; i < o.noutput_tensor_ids; i++)
		emit_int(e, o.output_tensor_ids[i]);
	emit_list_end(e);
	if (o.noutput_tensor_ids) {
		emit_textf(e, "tensor ids");
		for (i = 0; i < o.noutput_tensor_ids; i++)
			emit_textf(e, " %lld", (long long)o.output_tensor_ids[i]);
		emit_textf(e, "\n");
	}
	cmd_emit_op_details(env, e, &o);
	emit_key(e, "stack");
	cmd_emit_frames(env, e, o.stack, o.nstack, "stack\n");
}
