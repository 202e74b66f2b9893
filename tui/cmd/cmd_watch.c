/*
 * cmd_watch.c - watch and watches: named numerical checks (the model does
 * the checking, model_watch.c); the user's watches file.
 *
 *	watch add NAME 'CONDITION'  a named condition (with "(k=v, ...)") or
 *	                            an expression of the condition language
 *	                            (quoted as one word when it holds strings)
 *	watch rm NAME | watch list | watch conditions
 *	watch recommended on|off    the recommended set (on by default)
 *	watches check [--step S]    every watch over every row
 *
 * At the prompt, watch add/rm/recommended also rewrite the watches file
 * ($XDG_CONFIG_HOME/tdbg/watches, never in the dump), so the next run has
 * them; in batch mode they last for the run.  The file holds one watch per
 * line, "NAME CONDITION", and "recommended off" to switch the set off;
 * '#' starts a comment.
 */
#include "cmd_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/safeio.h"

#define WATCH_CHECK_BUDGET 4096     /* rows per model_watch_run_step call */
#define WATCHES_FILE_MAX (1 << 20)  /* a larger watches file is not read (an error) */

/* ---- the watches file ------------------------------------------------------- */

static bool
config_dir(char *buf, size_t size)
{
	return td_xdg_dir("XDG_CONFIG_HOME", ".config", buf, size);
}

bool
cmd_watches_path(char *buf, size_t size)
{
	char dir[1024];

	if (!config_dir(dir, sizeof dir))
		return false;
	snprintf(buf, size, "%s/watches", dir);
	return true;
}

struct load_ctx {
	struct model *m;
};

static bool
load_line(void *ctx, char *line, char *msg, size_t msglen)
{
	struct load_ctx *c = ctx;
	char *name = line + strspn(line, " \t"), *rest;

	if (!*name || *name == '#')
		return true;
	rest = name + strcspn(name, " \t");
	if (*rest)
		*rest++ = '\0';
	rest += strspn(rest, " \t");
	if (!strcmp(name, "recommended")) {
		if (strcmp(rest, "on") && strcmp(rest, "off")) {
			snprintf(msg, msglen, "recommended on|off, not '%s'", rest);
			return false;
		}
		model_watch_recommended(c->m, !strcmp(rest, "on"));
		return true;
	}
	if (!*rest) {
		snprintf(msg, msglen, "expected NAME CONDITION");
		return false;
	}
	if (model_watch_add(c->m, name, rest, msg, msglen) != TD_OK)
		return false;
	model_watch_set_scope(c->m, name, WATCH_SCOPE_GLOBAL);
	return true;
}

int
cmd_watches_load(struct model *m, char *err, size_t errlen)
{
	char path[1100], why[1300];
	struct load_ctx c = { m };
	char *text = NULL;
	size_t len = 0;
	enum td_status st;
	int bad;

	err[0] = '\0';
	if (!cmd_watches_path(path, sizeof path))
		return 0;
	/* one of tdbg's own files: no link, no FIFO, the user's, not
	 * group/other-writable, at most WATCHES_FILE_MAX */
	st = safeio_read_own(path, WATCHES_FILE_MAX, &text, &len, why, sizeof why);
	if (st == TD_ERR_NOENT)
		return 0;               /* no file: the defaults */
	if (st != TD_OK) {
		snprintf(err, errlen, "%s: watches file not read (the recommended set only)", why);
		return 1;
	}
	bad = td_parse_lines(text, load_line, &c, err, errlen);
	if (bad) {
		char first[256];
		snprintf(first, sizeof first, "%s", err);
		snprintf(err, errlen, "%s: %d bad line%s (%s)", path, bad, bad == 1 ? "" : "s", first);
	}
	free(text);
	return bad;
}

/* Rewrites the watches file with the user's global watches (not the
 * recommended ones, not the dump's) and the recommended switch: a new
 * file (O_EXCL, mode 0600, never through a link) renamed over the old one
 * in the checked folder. */
static enum td_status
save(struct cmd_env *env)
{
	char dir[1024], path[1100], err[1300];
	struct model_watch w;
	struct strbuf sb = { 0 };
	const struct safeio_id *ids;
	size_t nids = model_roots(env->m, &ids, NULL);
	enum td_status st;
	int dirfd;

	if (!config_dir(dir, sizeof dir) || !cmd_watches_path(path, sizeof path))
		return cmd_fail(env, TD_ERR_IO, "no $XDG_CONFIG_HOME or $HOME to keep watches in");
	if ((dirfd = safeio_own_dir(dir, true, ids, nids, err, sizeof err)) < 0)
		return cmd_fail(env, TD_ERR_IO, "watches not saved: %s", err);
	strbuf_addf(&sb, "# tdbg watches: NAME CONDITION per line (written by tdbg's watch command)\n");
	if (!model_watch_recommended_on(env->m))
		strbuf_addf(&sb, "recommended off\n");
	for (size_t i = 0; model_watch_at(env->m, i, &w); i++)
		if (!w.recommended && w.scope == WATCH_SCOPE_GLOBAL)
			strbuf_addf(&sb, "%s %s\n", w.name, w.text);
	st = safeio_write_at(dirfd, "watches", sb.buf ? sb.buf : "", sb.len, 0600, true, path, err,
			     sizeof err);
	close(dirfd);
	strbuf_done(&sb);
	if (st != TD_OK)
		return cmd_fail(env, TD_ERR_IO, "watches not saved: %s", err);
	return TD_OK;
}

/* ---- watch ------------------------------------------------------------------ */

static const struct emit_field watch_cols[] = {
	{ "name", NULL, 26, 0 },
	{ "recommended", NULL, 11, 0 },
	{ "scope", NULL, 7, 0 },
	{ "condition", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static const char *
scope_name(enum model_watch_scope s)
{
	return s == WATCH_SCOPE_GLOBAL ? "global" : s == WATCH_SCOPE_DUMP ? "dump" : "session";
}

static void
list(struct cmd_env *env)
{
	struct model_watch w;
	struct emit e;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, NULL);
	emit_kv_bool(&e, "recommended", model_watch_recommended_on(env->m));
	emit_key(&e, "watches");
	emit_table_begin(&e, watch_cols);
	for (size_t i = 0; model_watch_at(env->m, i, &w); i++) {
		emit_object_begin(&e, NULL);
		emit_kv_str(&e, "name", w.name);
		emit_kv_str(&e, "condition", w.text);
		emit_kv_str(&e, "expr", w.expr);
		emit_kv_bool(&e, "recommended", w.recommended);
		emit_kv_str(&e, "scope", scope_name(w.scope));
		emit_object_end(&e);
	}
	emit_table_end(&e);
	emit_object_end(&e);
	emit_done(&e);
}

static const struct emit_field cond_cols[] = {
	{ "name", NULL, 24, 0 },
	{ "recommended", NULL, 11, 0 },
	{ "defaults", NULL, 32, 0 },
	{ "dtypes", NULL, 36, 0 },
	{ "summary", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

static void
conditions(struct cmd_env *env)
{
	struct model_condition c;
	struct emit e;

	emit_init(&e, env->out, env->json);
	emit_table_begin(&e, cond_cols);
	for (size_t i = 0; model_condition_at(i, &c); i++) {
		emit_object_begin(&e, NULL);
		emit_kv_str(&e, "name", c.name);
		emit_kv_str(&e, "params", c.params);
		emit_kv_str(&e, "defaults", c.defaults);
		emit_kv_bool(&e, "recommended", c.recommended);
		emit_kv_str(&e, "dtypes", c.dtypes);
		emit_kv_str(&e, "summary", c.summary);
		emit_object_end(&e);
	}
	emit_table_end(&e);
	emit_done(&e);
}

/* The scope of watch name, WATCH_SCOPE_SESSION when there is none. */
static enum model_watch_scope
find_scope(struct model *m, const char *name)
{
	struct model_watch w;

	for (size_t i = 0; model_watch_at(m, i, &w); i++)
		if (!strcmp(w.name, name))
			return w.scope;
	return WATCH_SCOPE_SESSION;
}

enum td_status
cmd_watch(struct cmd_env *env, int argc, char **argv)
{
	const char *sub = argv[1];
	char err[512];
	enum td_status st;
	enum model_watch_scope scope = env->ui ? WATCH_SCOPE_DUMP : WATCH_SCOPE_SESSION;
	bool global = false, write_file = false;

	/* "--global" anywhere after add: the watch is every dump's (the word
	 * moves past the end of argc, so the caller still frees it) */
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], "--global")) {
			char *g = argv[i];

			global = true;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i - 1) * sizeof *argv);
			argv[--argc] = g;
			break;
		}
	if (global && strcmp(sub, "add"))
		return cmd_fail(env, TD_ERR_ARGS, "--global goes with watch add");
	if (global && env->ui)
		scope = WATCH_SCOPE_GLOBAL;

	if (!strcmp(sub, "list") && argc == 2) {
		list(env);
		return TD_OK;
	}
	if (!strcmp(sub, "conditions") && argc == 2) {
		conditions(env);
		return TD_OK;
	}
	if (!strcmp(sub, "add") && argc >= 4) {
		char *text = cmd_join(argc, argv, 3);
		bool was_global = find_scope(env->m, argv[2]) == WATCH_SCOPE_GLOBAL;
		st = model_watch_add(env->m, argv[2], text, err, sizeof err);
		free(text);
		if (st != TD_OK)
			return cmd_fail(env, st, "%s", err);
		model_watch_set_scope(env->m, argv[2], scope);
		/* the file changes when a global watch comes or goes */
		write_file = scope == WATCH_SCOPE_GLOBAL || was_global;
	} else if (!strcmp(sub, "rm") && argc == 3) {
		write_file = find_scope(env->m, argv[2]) == WATCH_SCOPE_GLOBAL;
		if (model_watch_rm(env->m, argv[2]) != TD_OK)
			return cmd_fail(env, TD_ERR_NOTFOUND, "no watch named '%s' (watch list)", argv[2]);
	} else if (!strcmp(sub, "recommended") && argc == 3 &&
		   (!strcmp(argv[2], "on") || !strcmp(argv[2], "off"))) {
		model_watch_recommended(env->m, !strcmp(argv[2], "on"));
		write_file = true;
	} else {
		return cmd_fail(env, TD_ERR_ARGS, "usage: watch add NAME 'CONDITION' [--global] | watch rm NAME | "
			       "watch list | watch conditions | watch recommended on|off");
	}
	if (env->ui && write_file && (st = save(env)) != TD_OK)
		return st;
	if (env->ui && env->ui->watches_changed)
		env->ui->watches_changed(env->ui->ctx);
	if (env->json) {
		list(env);
		return TD_OK;
	}
	/* one line, so the TUI shows it on the message line */
	strbuf_addf(env->out, "%s%s: %zu watch%s%s (watch list shows them)\n",
		    !strcmp(sub, "add") ? "added" : !strcmp(sub, "rm") ? "removed" : "recommended set switched",
		    strcmp(sub, "add") ? "" : scope == WATCH_SCOPE_GLOBAL ? " for every dump (the watches file)"
		    : scope == WATCH_SCOPE_DUMP ? " for this dump (--global: every dump)" : " for this run",
		    model_watch_count(env->m), model_watch_count(env->m) == 1 ? "" : "es",
		    model_watch_recommended_on(env->m) ? ", the recommended set on" : "");
	return TD_OK;
}

/* ---- watches check ---------------------------------------------------------- */

static const struct emit_field hit_cols[] = {
	{ "condition", NULL, 24, 0 },
	{ "source", NULL, 9, 0 },
	{ "index", "row", -7, 0 },
	{ "op_name", NULL, 36, EMIT_TAIL },
	{ "check", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* Hit h, whose trace row's step (model_trace_steps) is trace_step. */
static void
emit_hit(struct cmd_env *env, struct emit *e, const struct model_watch_hit *h, int64_t trace_step)
{
	struct model_watch w;
	const char *op_name = NULL, *op_type = NULL, *host = NULL;
	int64_t step = -1;
	uint32_t slot = 0;
	struct model_trace t;
	struct model_execution x;

	model_watch_at(env->m, h->watch, &w);
	if (h->source == TABLE_TRACES && model_trace_get(env->m, h->index, &t) == TD_OK) {
		op_name = t.op_name;
		op_type = t.op_type;
		host = t.host;
		slot = t.slot;
		step = trace_step;
	} else if (h->source == TABLE_EXECUTIONS && model_execution_get(env->m, h->index, &x) == TD_OK) {
		op_name = op_type = x.op_type;
		host = x.host;
		step = x.step;
	}
	if (h->op_name) {               /* the dump's own record names its op */
		op_name = h->op_name;
		op_type = h->op_type;
	}
	emit_object_begin(e, NULL);
	emit_kv_str(e, "condition", w.name);
	emit_kv_str(e, "source", h->source == TABLE_TRACES ? "trace" : "execution");
	emit_kv_uint(e, "index", h->index);
	emit_kv_str(e, "op_name", op_name);
	emit_kv_str(e, "op_type", op_type);
	emit_kv_uint(e, "output_slot", slot);
	emit_kv_str(e, "host", cmd_nz(host));
	emit_kv_index(e, "step", step);
	if (env->json) {
		emit_key(e, "values");
		emit_object_begin(e, NULL);
		for (size_t i = 0; i < h->nvalues; i++)
			emit_kv_double(e, h->values[i].field, h->values[i].value);
		emit_object_end(e);
		emit_key(e, "thresholds");
		emit_object_begin(e, NULL);
		for (size_t i = 0; i < h->nthresholds; i++) {
			size_t k;
			for (k = 0; k < i && strcmp(h->thresholds[k].field, h->thresholds[i].field); k++)
				;
			if (k == i)     /* the first comparison of a field */
				emit_kv_double(e, h->thresholds[i].field, h->thresholds[i].value);
		}
		emit_object_end(e);
		emit_kv_str(e, "basis", h->basis);
		if (h->detail)
			emit_kv_str(e, "detail", h->detail);
	} else {
		char check[512];
		model_watch_hit_describe(h, check, sizeof check);
		emit_kv_str(e, "check", check);
	}
	emit_object_end(e);
}

/* Runs every watch over the rows: batch waits for the whole index, the
 * prompt checks what is indexed now. */
static void
run_check(struct cmd_env *env, int64_t step, struct model_watch_run *r)
{
	model_watch_run_init(r, step);
	if (!env->ui)
		model_wait(env->m);
	for (;;) {
		uint64_t before = r->next_trace + r->next_exec;
		if (model_watch_run_step(env->m, r, WATCH_CHECK_BUDGET))
			break;
		if (env->ui && r->next_trace + r->next_exec == before)
			break;      /* the rest is not indexed yet */
	}
}

static bool
host_ok(struct cmd_env *env, const struct model_watch_hit *h)
{
	struct model_trace t;
	struct model_execution x;

	if (!env->host)
		return true;
	if (h->source == TABLE_TRACES)
		return model_trace_get(env->m, h->index, &t) == TD_OK && t.host && !strcmp(t.host, env->host);
	return model_execution_get(env->m, h->index, &x) == TD_OK && x.host && !strcmp(x.host, env->host);
}

enum td_status
cmd_watches(struct cmd_env *env, int argc, char **argv)
{
	const char *step_arg = NULL;
	struct cmd_opt opts[] = { { "step", &step_arg, NULL }, { NULL, NULL, NULL } };
	char *pos[2];
	int npos = 0;
	int64_t step = -1;
	enum td_status st;
	struct model_watch_run r;
	struct model_watch w;
	struct emit e;
	uint64_t hits = 0;

	if ((st = cmd_parse_opts(env, argc, argv, opts, pos, &npos, 1)) != TD_OK)
		return st;
	if (npos != 1 || strcmp(pos[0], "check"))
		return cmd_fail(env, TD_ERR_ARGS, "usage: watches check [--step S]");
	if (step_arg && (!cmd_parse_i64(step_arg, &step) || step < 0))
		return cmd_fail(env, TD_ERR_ARGS, "--step wants a step number, got '%s'", step_arg);
	run_check(env, step, &r);
	for (size_t i = 0; i < r.nhits; i++)
		hits += host_ok(env, &r.hits[i]);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, NULL);
	emit_key(&e, "conditions");
	emit_list_begin(&e);
	for (size_t i = 0; model_watch_at(env->m, i, &w); i++)
		emit_str(&e, w.name);
	emit_list_end(&e);
	emit_kv_uint(&e, "checked", r.checked);
	emit_kv_uint(&e, "hits", hits);
	emit_kv_uint(&e, "unknown", r.unknown);
	emit_key(&e, "unknown_by_condition");
	emit_object_begin(&e, NULL);
	for (size_t i = 0; model_watch_at(env->m, i, &w); i++)
		emit_kv_uint(&e, w.name, i < r.n_unknown_by ? r.unknown_by[i] : 0);
	emit_object_end(&e);
	if (!env->json && r.unknown)
		emit_note(&e, "%llu rows could not be decided: the dump does not carry a field "
			  "their condition reads (unknown, not a hit; unknown_by_condition says whose)",
			  (unsigned long long)r.unknown);
	/* the hits' steps at once: a row's step may need the list of function
	 * calls, made once for all of them, not once a hit */
	uint64_t *rows = xcalloc(r.nhits + 1, sizeof *rows);
	int64_t *steps = xcalloc(r.nhits + 1, sizeof *steps);
	for (size_t i = 0; i < r.nhits; i++)
		rows[i] = r.hits[i].source == TABLE_TRACES ? r.hits[i].index : UINT64_MAX;
	model_trace_steps(env->m, rows, r.nhits, steps);
	emit_key(&e, "items");
	emit_table_begin(&e, hit_cols);
	for (size_t i = 0; i < r.nhits; i++) {
		if (!host_ok(env, &r.hits[i]))
			continue;
		emit_hit(env, &e, &r.hits[i], steps[i]);
		cmd_maybe_flush(env);
	}
	emit_table_end(&e);
	free(rows);
	free(steps);
	emit_object_end(&e);
	emit_done(&e);
	model_watch_run_done(&r);
	return TD_OK;
}

uint64_t
cmd_watch_hits(struct model *m, uint64_t *unknown)
{
	struct model_watch_run r;
	uint64_t n;

	model_watch_run_init(&r, -1);
	model_wait(m);
	while (!model_watch_run_step(m, &r, WATCH_CHECK_BUDGET))
		;
	n = r.nhits;
	if (unknown)
		*unknown = r.unknown;
	model_watch_run_done(&r);
	return n;
}
