/*
 * cmd_tree.c - "inputs N --depth D" and "consumers N --depth D" (and
 * "--op NAME" for an op without a trace row): the recursive trees of
 * the debugger CLI's `li -r -d N` / `lo -r`, from model_tree().
 *
 * Text is an indented tree as that CLI prints it ("|- (1) name"), control
 * edges marked [ctrl], each node with its linked trace row and health;
 * JSON is one object with the nodes in pre-order (README: inputs).
 */
#include "cmd_internal.h"

#include <stdlib.h>
#include <string.h>

static void
tree_json(struct json *jp, const struct model_tree_node *v, size_t n, bool consumers)
{
	struct json j = *jp;
	size_t i;

	json_key(&j, "nodes");
	json_array_begin(&j);
	for (i = 0; i < n; i++) {
		json_object_begin(&j);
		json_kv_uint(&j, "depth", v[i].depth);
		json_key(&j, "parent");
		if (v[i].parent >= 0)
			json_int(&j, v[i].parent);
		else
			json_null(&j);
		json_kv_string(&j, "op_name", v[i].op_name);
		json_kv_string(&j, "op_type", cmd_nz(v[i].op_type));
		json_kv_uint(&j, consumers ? "input_slot" : "output_slot", v[i].slot);
		json_kv_bool(&j, "control", v[i].control);
		json_key(&j, "trace_index");
		if (v[i].trace_index >= 0)
			json_int(&j, v[i].trace_index);
		else
			json_null(&j);
		json_kv_string(&j, "health", model_health_name(v[i].health));
		json_kv_bool(&j, "in_graph", v[i].op >= 0);
		json_kv_bool(&j, "repeat", v[i].repeat);
		json_object_end(&j);
	}
	json_array_end(&j);
	*jp = j;
}

static void
tree_text(struct cmd_env *env, const struct model_tree_node *v, size_t n, bool consumers)
{
	size_t i;
	uint32_t d;

	for (i = 0; i < n; i++) {
		strbuf_adds(env->out, "  ");
		for (d = 1; d < v[i].depth; d++)
			strbuf_adds(env->out, "|  ");
		strbuf_addf(env->out, "|- (%u) %s", v[i].depth, v[i].control ? "[ctrl] " : "");
		cmd_cell(env->out, v[i].op_name, -1);
		if (!v[i].control)
			strbuf_addf(env->out, consumers ? " (input %u)" : ":%u", v[i].slot);
		strbuf_addf(env->out, "  %s  ", cmd_txt(v[i].op_type));
		if (v[i].trace_index >= 0)
			strbuf_addf(env->out, "trace %lld %s", (long long)v[i].trace_index,
				    model_health_name(v[i].health));
		else
			strbuf_adds(env->out, v[i].op < 0 ? "(not in the graph)" : "(no trace row)");
		strbuf_adds(env->out, v[i].repeat ? "  (listed above)\n" : "\n");
	}
}

/* Where the tree starts: trace row N, or --op NAME. */
static enum td_status
tree_root(struct cmd_env *env, const char *row_arg, const char *op_name, const char *graph,
	  uint32_t *op, int64_t *row)
{
	struct model_trace t;
	uint64_t r;
	int64_t id;
	enum td_status st;

	if (op_name) {
		if ((id = model_op_find(env->m, op_name, graph)) < 0) {
			struct strbuf hint = { 0 };

			cmd_suggest_op(env->m, op_name, &hint);
			st = cmd_fail(env, TD_ERR_NOTFOUND, "no op \"%s\"%s%s%s", op_name,
				      graph ? " in graph " : "", graph ? graph : "",
				      hint.buf ? hint.buf : "");
			strbuf_done(&hint);
			return st;
		}
		*op = (uint32_t)id;
		*row = -1;
		return TD_OK;
	}
	if ((st = cmd_trace_arg(env, row_arg, &r)) != TD_OK)
		return st;
	if ((st = model_trace_get(env->m, r, &t)) != TD_OK)
		return cmd_fail(env, st, "trace %llu: %s", (unsigned long long)r, td_strerror(st));
	*op = t.op;
	*row = (int64_t)r;
	return TD_OK;
}

enum td_status
cmd_tree(struct cmd_env *env, const char *row_arg, const char *op_name, const char *graph,
	 unsigned depth, bool consumers)
{
	struct model_tree_node *v = NULL;
	struct model_info info;
	struct model_op o;
	bool truncated = false;
	uint32_t op = 0;
	int64_t row = -1;
	size_t n;
	struct json j;
	enum td_status st;

	if ((st = tree_root(env, row_arg, op_name, graph, &op, &row)) != TD_OK)
		return st;
	n = model_tree(env->m, op, row, consumers ? TREE_CONSUMERS : TREE_INPUTS, depth, &v, &truncated);
	model_op_get(env->m, op, &o);
	model_info(env->m, &info);
	if (env->json) {
		json_init(&j, env->out);
		json_object_begin(&j);
		json_kv_string(&j, "direction", consumers ? "consumers" : "inputs");
		json_key(&j, "trace_index");
		if (row >= 0)
			json_int(&j, row);
		else
			json_null(&j);
		json_kv_string(&j, "op_name", o.name);
		json_kv_string(&j, "op_type", cmd_nz(o.type));
		json_kv_string(&j, "health", model_health_name(model_trace_health(env->m, row)));
		json_kv_uint(&j, "depth", depth);
		json_kv_bool(&j, "truncated", truncated);
		json_kv_bool(&j, "control_known", info.no_control_why == NULL);
		json_key(&j, "control_note");
		if (info.no_control_why)
			json_string(&j, info.no_control_why);
		else
			json_null(&j);
		tree_json(&j, v, n, consumers);
		json_object_end(&j);
	} else {
		strbuf_addf(env->out, "%s of ", consumers ? "Consumers" : "Inputs");
		if (row >= 0)
			strbuf_addf(env->out, "trace %lld ", (long long)row);
		cmd_cell(env->out, o.name, -1);
		strbuf_addf(env->out, " (depth %u%s):\n", depth, truncated ? ", truncated" : "");
		if (!n)
			strbuf_addf(env->out, "  (no %s)\n", consumers ? "consumers" : "inputs");
		tree_text(env, v, n, consumers);
		if (info.no_control_why)
			strbuf_addf(env->out, "note: %s\n", info.no_control_why);
	}
	free(v);
	return TD_OK;
}
