/*
 * cmd_op.c - graph links: "op NAME", "inputs N", "consumers N", "stack ...".
 *
 * inputs N: the inputs of trace row N's op, each with the latest trace row
 * of that producer tensor before N (the step from Log:0 to probs:0).
 * consumers N: the ops that read row N's tensor, each with the first trace
 * row the consumer produced after N.  trace_index is null when none.
 * With --depth D or --op NAME both print a tree instead (cmd_tree.c).
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static enum td_status
find_op(struct cmd_env *env, const char *name, const char *graph, uint32_t *op)
{
	int64_t id = model_op_find(env->m, name, graph);
	struct strbuf hint = { 0 };
	enum td_status st;

	if (id < 0) {
		cmd_suggest_op(env->m, name, &hint);
		st = cmd_fail(env, TD_ERR_NOTFOUND, "no op \"%s\"%s%s%s", name,
			      graph ? " in graph " : "", graph ? graph : "", hint.buf ? hint.buf : "");
		strbuf_done(&hint);
		return st;
	}
	*op = (uint32_t)id;
	return TD_OK;
}

/* The graphs of the other ops named like op (pick one with --graph). */
static void
other_graphs(struct cmd_env *env, struct emit *e, uint32_t op)
{
	uint32_t i, n = model_op_count(env->m);
	struct model_op o, x;
	bool any = false;

	if (!model_op_get(env->m, op, &o))
		return;
	for (i = 0; i < n; i++) {
		if (i == op || !model_op_get(env->m, i, &x) || strcmp(x.name, o.name) != 0)
			continue;
		emit_str(e, cmd_nz(x.graph_id));
		emit_textf(e, "%s%s", any ? ", " : "also in graphs (--graph): ", cmd_txt(x.graph_id));
		any = true;
	}
	if (any)
		emit_textf(e, "\n");
}

enum td_status
cmd_op(struct cmd_env *env, int argc, char **argv)
{
	const char *graph = NULL;
	const struct cmd_opt opts[] = { { "graph", &graph, NULL }, { NULL, NULL, NULL } };
	char *pos[1];
	int npos;
	uint32_t op = 0;
	struct emit e;
	enum td_status st;

	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 1)) != TD_OK)
		return st;
	if (npos != 1)
		return cmd_fail(env, TD_ERR_ARGS, "usage: op NAME [--graph ID]");
	if ((st = find_op(env, pos[0], graph, &op)) != TD_OK)
		return st;
	if (env->ui && env->ui->show_op)
		env->ui->show_op(env->ui->ctx, op);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	cmd_emit_op_members(env, &e, op);
	emit_key(&e, "other_graphs");
	emit_list_begin(&e);
	if (!graph)
		other_graphs(env, &e, op);
	emit_list_end(&e);
	emit_object_end(&e);
	emit_done(&e);
	return TD_OK;
}

bool
cmd_describe_op(struct cmd_env *env, uint32_t op)
{
	struct model_op o;
	struct emit e;

	if (!model_op_get(env->m, op, &o))
		return false;
	emit_init(&e, env->out, false);
	cmd_emit_op(env, &e, op);
	emit_done(&e);
	return true;
}

/* inputs and consumers print the same list; slot_key names what slot is. */
static const struct emit_field input_cols[] = {
	{ "op_name", NULL, 40, EMIT_SCOPE },
	{ "op_type", NULL, 18, 0 },
	{ "output_slot", "slot", -4, 0 },
	{ "trace_index", "trace", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static const struct emit_field consumer_cols[] = {
	{ "op_name", NULL, 40, EMIT_SCOPE },
	{ "op_type", NULL, 18, 0 },
	{ "input_slot", "input", -5, 0 },
	{ "trace_index", "trace", 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static enum td_status
links(struct cmd_env *env, int argc, char **argv, bool consumers)
{
	const char *slot_key = consumers ? "input_slot" : "output_slot";
	const char *depth_s = NULL, *op_name = NULL, *graph = NULL;
	const struct cmd_opt opts[] = { { "depth", &depth_s, NULL }, { "op", &op_name, NULL },
					{ "graph", &graph, NULL }, { NULL, NULL, NULL } };
	struct model_link *l = NULL;
	char *pos[1];
	int npos;
	uint64_t depth = 1;
	struct emit e;
	uint64_t row;
	size_t i, n;
	enum td_status st;

	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 1)) != TD_OK)
		return st;
	if (depth_s && (!cmd_parse_u64(depth_s, &depth) || depth < 1 || depth > 100))
		return cmd_fail(env, TD_ERR_ARGS, "--depth takes a number from 1 to 100, not \"%s\"",
				depth_s);
	if (op_name && npos)
		return cmd_fail(env, TD_ERR_ARGS, "give a trace row or --op NAME, not both");
	if (graph && !op_name)
		return cmd_fail(env, TD_ERR_ARGS, "--graph goes with --op NAME");
	if (depth_s || op_name)
		return cmd_tree(env, npos ? pos[0] : NULL, op_name, graph, (unsigned)depth, consumers);
	if ((st = cmd_trace_arg(env, npos ? pos[0] : NULL, &row)) != TD_OK)
		return st;
	n = consumers ? model_trace_consumers(env->m, row, &l) : model_trace_inputs(env->m, row, &l);
	emit_init(&e, env->out, env->json);
	emit_table_begin(&e, consumers ? consumer_cols : input_cols);
	for (i = 0; i < n; i++) {
		emit_object_begin(&e, NULL);
		emit_kv_str(&e, "op_name", l[i].op_name);
		emit_kv_str(&e, "op_type", cmd_nz(l[i].op_type));
		emit_kv_uint(&e, slot_key, l[i].slot);
		emit_kv_index(&e, "trace_index", l[i].trace_index);
		emit_object_end(&e);
	}
	emit_table_end(&e);
	if (n == 0)
		emit_note(&e, "trace %llu has no %s", (unsigned long long)row,
			  consumers ? "consumers" : "inputs");
	emit_done(&e);
	free(l);
	return TD_OK;
}

enum td_status
cmd_inputs(struct cmd_env *env, int argc, char **argv)
{
	return links(env, argc, argv, false);
}

enum td_status
cmd_consumers(struct cmd_env *env, int argc, char **argv)
{
	return links(env, argc, argv, true);
}

/* ---- stack ---------------------------------------------------------------- */

/* user: only the user's frames (stack ... --user, the Stack pane's u). */
static void
print_frames(struct cmd_env *env, const uint32_t *ids, size_t n, bool user)
{
	uint32_t *mine = NULL;
	struct model_frame f;
	struct emit e;
	size_t i, k = 0;

	if (user && n) {
		mine = xcalloc(n, sizeof(*mine));
		for (i = 0; i < n; i++)
			if (model_frame_get(env->m, ids[i], &f) && f.user_code)
				mine[k++] = ids[i];
		ids = mine;
		n = k;
	}
	emit_init(&e, env->out, env->json);
	cmd_emit_frames(env, &e, ids, n, "");
	emit_done(&e);
	free(mine);
}

/* A trace's stack is its op's creation stack unless the record has its own. */
static enum td_status
stack_trace(struct cmd_env *env, const char *arg, bool user)
{
	struct model_detail d = {0};
	struct model_trace t;
	struct model_op o;
	uint64_t row;
	enum td_status st;

	if ((st = cmd_trace_arg(env, arg, &row)) != TD_OK)
		return st;
	if ((st = model_trace_get(env->m, row, &t)) != TD_OK)
		return cmd_fail(env, st, "trace %llu: %s", (unsigned long long)row, td_strerror(st));
	if (model_trace_detail(env->m, row, &d) == TD_OK && d.nstack)
		print_frames(env, d.stack, d.nstack, user);
	else if (model_op_get(env->m, t.op, &o))
		print_frames(env, o.stack, o.nstack, user);
	else
		print_frames(env, NULL, 0, user);
	model_detail_done(&d);
	return TD_OK;
}

static enum td_status
stack_execution(struct cmd_env *env, const char *arg, bool user)
{
	struct model_detail d = {0};
	uint64_t row;
	enum td_status st;

	if ((st = cmd_execution_arg(env, arg, &row)) != TD_OK)
		return st;
	if ((st = model_execution_detail(env->m, row, &d)) != TD_OK)
		return cmd_fail(env, st, "execution %llu: %s", (unsigned long long)row, td_strerror(st));
	print_frames(env, d.stack, d.nstack, user);
	model_detail_done(&d);
	return TD_OK;
}

static enum td_status
stack_of(struct cmd_env *env, int argc, char **argv, bool user)
{
	struct model_op o;
	uint32_t op = 0;
	enum td_status st;

	if (argc == 1)
		return stack_trace(env, NULL, user);
	if (argc == 2 && cmd_parse_u64(argv[1], &(uint64_t){0}))
		return stack_trace(env, argv[1], user);
	if (strcmp(argv[1], "trace") == 0)
		return stack_trace(env, argc > 2 ? argv[2] : NULL, user);
	if (strcmp(argv[1], "execution") == 0)
		return stack_execution(env, argc > 2 ? argv[2] : NULL, user);
	if (strcmp(argv[1], "op") != 0 || argc < 3)
		return cmd_fail(env, TD_ERR_ARGS, "usage: stack trace N | stack execution N | stack op NAME");
	if ((st = find_op(env, argv[2], NULL, &op)) != TD_OK)
		return st;
	if (!model_op_get(env->m, op, &o))
		return cmd_fail(env, TD_ERR_NOTFOUND, "no op \"%s\"", argv[2]);
	print_frames(env, o.stack, o.nstack, user);
	return TD_OK;
}

/* "--user" anywhere keeps the user's frames only. */
enum td_status
cmd_stack(struct cmd_env *env, int argc, char **argv)
{
	char *rest[8] = { 0 };
	int n = 0, i;
	bool user = false;

	for (i = 0; i < argc && n < (int)TD_ARRAY_SIZE(rest); i++) {
		if (i > 0 && strcmp(argv[i], "--user") == 0)
			user = true;
		else
			rest[n++] = argv[i];
	}
	return stack_of(env, n, rest, user);
}
