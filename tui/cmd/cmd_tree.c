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
node_text(struct strbuf *out, const struct model_tree_node *v, bool consumers)
{
	strbuf_adds(out, "  ");
	for (uint32_t d = 1; d < v->depth; d++)
		strbuf_adds(out, "|  ");
	strbuf_addf(out, "|- (%u) %s", v->depth, v->control ? "[ctrl] " : "");
	cmd_cell(out, v->op_name, -1);
	if (!v->control)
		strbuf_addf(out, consumers ? " (input %u)" : ":%u", v->slot);
	strbuf_addf(out, "  %s  ", cmd_txt(v->op_type));
	if (v->trace_index >= 0)
		strbuf_addf(out, "trace %lld %s", (long long)v->trace_index, model_health_name(v->health));
	else
		strbuf_adds(out, v->op < 0 ? "(not in the graph)" : "(no trace row)");
	strbuf_adds(out, v->repeat ? "  (listed above)\n" : "\n");
}

static void
tree_nodes(struct emit *e, const struct model_tree_node *v, size_t n, bool consumers)
{
	struct strbuf *text;
	size_t i;

	emit_key(e, "nodes");
	emit_table_begin(e, NULL);
	for (i = 0; i < n; i++) {
		emit_object_begin(e, NULL);
		emit_kv_uint(e, "depth", v[i].depth);
		emit_kv_index(e, "parent", v[i].parent);
		emit_kv_str(e, "op_name", v[i].op_name);
		emit_kv_str(e, "op_type", cmd_nz(v[i].op_type));
		emit_kv_uint(e, consumers ? "input_slot" : "output_slot", v[i].slot);
		emit_kv_bool(e, "control", v[i].control);
		emit_kv_index(e, "trace_index", v[i].trace_index);
		emit_kv_str(e, "health", model_health_name(v[i].health));
		emit_kv_bool(e, "in_graph", v[i].op >= 0);
		emit_kv_bool(e, "repeat", v[i].repeat);
		emit_object_end(e);
		if ((text = emit_text(e)))
			node_text(text, &v[i], consumers);
	}
	emit_table_end(e);
}

/* Where a question about an op starts (inputs/consumers --depth, module):
 * trace row N (*op its op, *row N), or --op NAME [--graph G] (*row -1). */
enum td_status
cmd_op_or_row(struct cmd_env *env, const char *row_arg, const char *op_name, const char *graph,
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
	struct strbuf *text;
	struct emit e;
	enum td_status st;

	if ((st = cmd_op_or_row(env, row_arg, op_name, graph, &op, &row)) != TD_OK)
		return st;
	n = model_tree(env->m, op, row, consumers ? TREE_CONSUMERS : TREE_INPUTS, depth, &v, &truncated);
	model_op_get(env->m, op, &o);
	model_info(env->m, &info);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_str(&e, "direction", consumers ? "consumers" : "inputs");
	emit_kv_index(&e, "trace_index", row);
	emit_kv_str(&e, "op_name", o.name);
	emit_kv_str(&e, "op_type", cmd_nz(o.type));
	emit_kv_str(&e, "health", model_health_name(model_trace_health(env->m, row)));
	emit_kv_uint(&e, "depth", depth);
	emit_kv_bool(&e, "truncated", truncated);
	emit_kv_bool(&e, "control_known", info.no_control_why == NULL);
	emit_kv_str(&e, "control_note", info.no_control_why);
	if ((text = emit_text(&e))) {
		strbuf_addf(text, "%s of ", consumers ? "Consumers" : "Inputs");
		if (row >= 0)
			strbuf_addf(text, "trace %lld ", (long long)row);
		cmd_cell(text, o.name, -1);
		strbuf_addf(text, " (depth %u%s):\n", depth, truncated ? ", truncated" : "");
		if (!n)
			strbuf_addf(text, "  (no %s)\n", consumers ? "consumers" : "inputs");
	}
	tree_nodes(&e, v, n, consumers);
	if (info.no_control_why)
		emit_textf(&e, "note: %s\n", info.no_control_why);
	emit_object_end(&e);
	emit_done(&e);
	free(v);
	return TD_OK;
}
