/*
 * cmd_source.c - "sources" and "source PATH [LINE | A:B]".
 *
 * Source text comes from the dump when it holds the file (a dump's source
 * files record); otherwise the file is read from disk, only because the
 * user asked for it (after --source-root remapping, done by the model).
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct emit_field source_cols[] = {
	{ "index", NULL, -4, 0 },
	{ "host", NULL, 18, 0 },
	{ "lines", NULL, -6, 0 },
	{ "in_dump", "in dump", 7, 0 },
	{ "partial", NULL, 7, 0 },
	{ "path", NULL, 0, 0 },
	{ NULL, NULL, 0, 0 },
};

/* A source the dump knows only in part: the lines its trace records name
 * (model_source.partial), the others unknown, not empty. */
#define PARTIAL_NOTE "partial: only the traced lines are known (file not found on this machine; " \
		     "--source-root DIR)"

static bool
any_partial(struct cmd_env *env)
{
	struct model_source s;

	for (uint32_t i = 0; i < model_source_count(env->m); i++)
		if (model_source_get(env->m, i, &s) && s.partial)
			return true;
	return false;
}

enum td_status
cmd_sources(struct cmd_env *env, int argc, char **argv)
{
	uint32_t i, n = model_source_count(env->m);
	struct model_source s;
	struct emit e;

	(void)argc;
	(void)argv;
	emit_init(&e, env->out, env->json);
	emit_table_begin(&e, source_cols);
	for (i = 0; i < n; i++) {
		const char *const *lines;
		size_t nl;

		model_source_lines(env->m, i, &lines, &nl);    /* loads it: partial is known then */
		if (!model_source_get(env->m, i, &s))
			continue;
		emit_object_begin(&e, NULL);
		emit_kv_uint(&e, "index", s.index);
		emit_kv_str(&e, "path", s.path);
		emit_kv_str(&e, "host", cmd_nz(s.host));
		emit_kv_uint(&e, "lines", s.nlines);
		emit_kv_bool(&e, "in_dump", s.in_dump);
		emit_kv_bool(&e, "partial", s.partial);
		emit_object_end(&e);
	}
	emit_table_end(&e);
	if (n == 0)
		emit_note(&e, "the dump holds no source files");
	else if (any_partial(env))
		emit_note(&e, PARTIAL_NOTE);
	emit_done(&e);
	return TD_OK;
}

enum td_status
cmd_source_open(struct cmd_env *env, const char *path, uint32_t *index,
	    const char *const **lines, size_t *n)
{
	char err[512] = "";
	int64_t i = model_source_find(env->m, path, env->host);
	struct model_source s;
	enum td_status st;

	if (i < 0 && env->host)
		i = model_source_find(env->m, path, NULL);
	if (i >= 0) {
		*index = (uint32_t)i;
		if (model_source_lines(env->m, *index, lines, n) == TD_OK)
			return TD_OK;
		if (model_source_get(env->m, *index, &s))
			path = s.path;
	}
	st = model_source_load_disk(env->m, path, index, err, sizeof err);
	if (st != TD_OK)
		return cmd_fail(env, st, "%s: %s", path,
				*err ? err : "not in the dump and not readable on disk");
	st = model_source_lines(env->m, *index, lines, n);
	if (st != TD_OK)
		return cmd_fail(env, st, "%s: no text", path);
	return TD_OK;
}

static void
one_line(struct cmd_env *env, const struct model_source *s, uint64_t line, const char *text)
{
	struct emit e;
	bool known = line > 0 && model_source_line_known(env->m, s->index, line - 1);   /* 0-based */

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_str(&e, "path", s->path);
	emit_kv_str(&e, "host", cmd_nz(s->host));
	emit_kv_uint(&e, "line", line);
	emit_kv_str(&e, "text", text);
	emit_kv_bool(&e, "known", known);
	emit_kv_bool(&e, "partial", s->partial);
	if (known)
		emit_textf(&e, "%s:%llu: %s\n", s->path, (unsigned long long)line, text);
	else
		emit_textf(&e, "%s:%llu: (not known: %s)\n", s->path, (unsigned long long)line,
			   PARTIAL_NOTE + strlen("partial: "));
	emit_object_end(&e);
	emit_done(&e);
}

static void
many_lines(struct cmd_env *env, const struct model_source *s, const char *const *lines,
	   const struct cmd_range *r)
{
	struct emit e;
	bool gap = false, known;
	uint64_t i;

	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, emit_json_only);
	emit_kv_str(&e, "path", s->path);
	emit_kv_str(&e, "host", cmd_nz(s->host));
	emit_kv_bool(&e, "partial", s->partial);
	emit_textf(&e, "%s%s%s\n", s->path, s->partial ? "  " : "", s->partial ? PARTIAL_NOTE : "");
	emit_key(&e, "lines");
	emit_table_begin(&e, NULL);
	for (i = r->start; i < r->stop; i += r->step) {
		known = model_source_line_known(env->m, s->index, i);
		emit_object_begin(&e, NULL);
		emit_kv_uint(&e, "line", i + 1);
		emit_kv_str(&e, "text", lines[i]);
		emit_kv_bool(&e, "known", known);
		emit_object_end(&e);
		if (known)
			emit_textf(&e, "%6llu  %s\n", (unsigned long long)i + 1, lines[i]);
		else if (!gap)          /* a run of unknown lines: one mark */
			emit_textf(&e, "     ~  (lines not known)\n");
		gap = !known;
	}
	emit_table_end(&e);
	emit_object_end(&e);
	emit_done(&e);
}

/* "216" (one line) or "210:220" (1-based, inclusive-exclusive like python
 * over line numbers). */
enum td_status
cmd_source(struct cmd_env *env, int argc, char **argv)
{
	const char *const *lines;
	struct model_source s;
	struct cmd_range r = { 0, 0, 1 };
	uint32_t index;
	uint64_t line;
	size_t n;
	enum td_status st;

	if ((st = cmd_source_open(env, argv[1], &index, &lines, &n)) != TD_OK)
		return st;
	if (!model_source_get(env->m, index, &s))
		return cmd_fail(env, TD_ERR_NOTFOUND, "%s: not found", argv[1]);
	if (argc > 2 && !strchr(argv[2], ':')) {
		if (!cmd_parse_u64(argv[2], &line) || line == 0)
			return cmd_fail(env, TD_ERR_ARGS, "\"%s\" is not a line number", argv[2]);
		if (line > n)
			return cmd_fail(env, TD_ERR_RANGE, "%s has %zu lines, not %llu", s.path, n,
					(unsigned long long)line);
		if (env->ui && env->ui->show_source)
			env->ui->show_source(env->ui->ctx, index, (uint32_t)line);
		one_line(env, &s, line, lines[line - 1]);
		return TD_OK;
	}
	r.stop = n;
	if (argc > 2) {
		/* line numbers are 1-based: shift "A:B" to 0-based rows */
		if (!cmd_parse_range(argv[2], n + 1, &r))
			return cmd_fail(env, TD_ERR_ARGS, "\"%s\" is not a line range", argv[2]);
		r.start = r.start ? r.start - 1 : 0;
		r.stop = r.stop ? r.stop - 1 : 0;
		if (r.stop < r.start)
			r.stop = r.start;
	}
	many_lines(env, &s, lines, &r);
	return TD_OK;
}
