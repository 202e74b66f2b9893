/*
 * cmd_module.c - "module N" / "module --op NAME": the call tree around
 * an op where the dump records one (a module's parent and children from
 * its construct file), each with the first row of its call nearest N in
 * N's step, from model_calls_of().
 *
 * Not the data links: inputs and consumers say where a value came from
 * and went; this says which call encloses which.  JSON shape: README,
 * Commands (module).
 */
#include "cmd_internal.h"

#include <stdlib.h>
#include <string.h>

static const struct emit_field call_cols[] = {
	{ "op_name", NULL, 44, EMIT_SCOPE },
	{ "op_type", NULL, 24, 0 },
	{ "trace_index", "trace", -7, 0 },
	{ "nonfinite", "nan/inf", 0, 0 },
	{ "in_dump", NULL, 0, EMIT_HIDE },
	{ NULL, NULL, 0, 0 },
};

static const struct emit_field module_fields[] = {
	{ "known", NULL, 0, EMIT_HIDE },
	{ "note", NULL, 0, EMIT_HIDE },
	{ NULL, NULL, 0, 0 },
};

static void
emit_call(struct emit *e, const struct model_call *c)
{
	emit_object_begin(e, NULL);
	emit_kv_str(e, "op_name", c->op_name);
	emit_kv_str(e, "op_type", cmd_nz(c->op_type));
	emit_kv_index(e, "trace_index", c->trace_index);
	emit_kv_bool(e, "nonfinite", c->nonfinite);
	emit_kv_bool(e, "in_dump", c->op >= 0);
	emit_object_end(e);
}

enum td_status
cmd_module(struct cmd_env *env, int argc, char **argv)
{
	const char *op_name = NULL, *graph = NULL;
	const struct cmd_opt opts[] = { { "op", &op_name, NULL }, { "graph", &graph, NULL },
					{ NULL, NULL, NULL } };
	struct model_calls c;
	struct model_op o;
	char *pos[1];
	int npos;
	uint32_t op = 0;
	int64_t row = -1;
	bool known;
	struct emit e;
	size_t i;
	enum td_status st;

	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 1)) != TD_OK)
		return st;
	if (op_name && npos)
		return cmd_fail(env, TD_ERR_ARGS, "give a trace row or --op NAME, not both");
	if (graph && !op_name)
		return cmd_fail(env, TD_ERR_ARGS, "--graph goes with --op NAME");
	if ((st = cmd_op_or_row(env, npos ? pos[0] : NULL, op_name, graph, &op, &row)) != TD_OK)
		return st;
	known = model_calls_of(env->m, op, row, &c);
	model_op_get(env->m, op, &o);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, module_fields);
	emit_kv_index(&e, "trace_index", known ? c.trace_index : row);
	emit_kv_str(&e, "op_name", o.name);
	emit_kv_str(&e, "op_type", cmd_nz(o.type));
	emit_kv_bool(&e, "known", known);
	if (known)
		emit_kv_null(&e, "note");
	else
		emit_kv_str(&e, "note", model_has_call_tree(env->m) ?
			    "the op has no row to read its calls from" :
			    "this dump's format records no module tree");
	emit_key(&e, "parent");
	if (c.has_parent)
		emit_call(&e, &c.parent);
	else
		emit_null(&e);
	emit_key(&e, "children");
	emit_table_begin(&e, call_cols);
	for (i = 0; i < c.nchildren; i++)
		emit_call(&e, &c.children[i]);
	emit_table_end(&e);
	emit_object_end(&e);
	if (!known)
		emit_note(&e, "%s: %s", o.name ? o.name : "?", model_has_call_tree(env->m) ?
			  "the op has no row to read its calls from" :
			  "this dump's format records no module tree");
	else if (!c.has_parent && !c.nchildren)
		emit_note(&e, "no enclosing module, no calls inside");
	emit_done(&e);
	model_calls_done(&c);
	return TD_OK;
}
