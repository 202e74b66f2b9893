/*
 * cmd_util.c - helpers the command handlers share: errors, number, option
 * and slice parsing, and the JSON/text forms of summaries, stacks and ops.
 */
#include "cmd_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/suggest.h"
#include "sanitize.h"

enum td_status
cmd_fail(struct cmd_env *env, enum td_status st, const char *fmt, ...)
{
	va_list ap;

	strbuf_reset(env->err);
	va_start(ap, fmt);
	strbuf_vaddf(env->err, fmt, ap);
	va_end(ap);
	return st;
}

bool
cmd_parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

bool
cmd_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

static const struct cmd_opt *
find_opt(const struct cmd_opt *opts, const char *name, size_t len)
{
	for (; opts && opts->name; opts++)
		if (strlen(opts->name) == len && strncmp(opts->name, name, len) == 0)
			return opts;
	return NULL;
}

static bool
is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* "-r": a short flag the command does not take; name its options and, when
 * the flag is an alias's ("li -r"), what it is called here. */
static enum td_status
unknown_flag(struct cmd_env *env, const char *command, const char *flag,
	     const struct cmd_opt *opts)
{
	const struct cmd_info *c = cmd_find(command);
	struct strbuf sb = { 0 };
	const char *sep = "";
	enum td_status st;

	for (; opts->name; opts++) {
		strbuf_addf(&sb, "%s--%s", sep, opts->name);
		sep = ", ";
	}
	if (c)
		cmd_alias_hint(&sb, c->name, flag);
	st = cmd_fail(env, TD_ERR_ARGS, "unknown flag %s (options: %s)", flag,
		      sb.len ? sb.buf : "none");
	strbuf_done(&sb);
	return st;
}

enum td_status
cmd_parse_opts(struct cmd_env *env, int argc, char **argv,
	       const struct cmd_opt *opts, char **pos, int *npos, int maxpos)
{
	bool only_pos = false;
	int i;

	*npos = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq;
		const struct cmd_opt *o;
		size_t len;

		if (!only_pos && a[0] == '-' && a[1] != '-' && is_letter(a[1]))
			return unknown_flag(env, argv[0], a, opts);
		if (only_pos || strncmp(a, "--", 2) != 0) {
			if (*npos >= maxpos)
				return cmd_fail(env, TD_ERR_ARGS, "unexpected argument \"%s\"", a);
			pos[(*npos)++] = argv[i];
			continue;
		}
		if (!a[2]) {
			only_pos = true;
			continue;
		}
		eq = strchr(a + 2, '=');
		len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		if (!(o = find_opt(opts, a + 2, len)))
			return cmd_fail(env, TD_ERR_ARGS, "unknown option %.*s", (int)len + 2, a);
		if (o->flag) {
			if (eq)
				return cmd_fail(env, TD_ERR_ARGS, "--%s takes no value", o->name);
			*o->flag = true;
		} else if (eq) {
			*o->value = eq + 1;
		} else if (i + 1 < argc) {
			*o->value = argv[++i];
		} else {
			return cmd_fail(env, TD_ERR_ARGS, "--%s needs a value", o->name);
		}
	}
	return TD_OK;
}

/* One end of a slice: empty keeps dflt; negative counts from n; clamped. */
static bool
range_end(const char *s, size_t len, uint64_t n, uint64_t dflt, uint64_t *out)
{
	char buf[32];
	int64_t v;

	if (len == 0) {
		*out = dflt;
		return true;
	}
	if (len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!cmd_parse_i64(buf, &v))
		return false;
	if (v < 0)
		v = (int64_t)n + v < 0 ? 0 : (int64_t)n + v;
	*out = (uint64_t)v > n ? n : (uint64_t)v;
	return true;
}

bool
cmd_parse_range(const char *text, uint64_t n, struct cmd_range *r)
{
	const char *c1 = strchr(text, ':'), *c2;
	uint64_t step = 1;

	if (!c1) {
		if (!range_end(text, strlen(text), n, 0, &r->start) || !*text)
			return false;
		r->stop = r->start < n ? r->start + 1 : n;
		r->step = 1;
		return true;
	}
	c2 = strchr(c1 + 1, ':');
	if (c2 && c2[1] && (!cmd_parse_u64(c2 + 1, &step) || step == 0))
		return false;
	if (!range_end(text, (size_t)(c1 - text), n, 0, &r->start))
		return false;
	if (!range_end(c1 + 1, c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1), n, n, &r->stop))
		return false;
	if (r->stop < r->start)
		r->stop = r->start;
	r->step = step;
	return true;
}

static enum td_status
row_arg(struct cmd_env *env, const char *arg, uint64_t count, const char *what, uint64_t *row)
{
	if (!arg) {
		int64_t cur = env->ui && env->ui->current_trace ?
			env->ui->current_trace(env->ui->ctx) : -1;

		if (cur < 0)
			return cmd_fail(env, TD_ERR_ARGS, "which %s? give a row number", what);
		*row = (uint64_t)cur;
		return TD_OK;
	}
	if (!cmd_parse_u64(arg, row))
		return cmd_fail(env, TD_ERR_ARGS, "\"%s\" is not a %s row number", arg, what);
	if (*row >= count)
		return cmd_fail(env, TD_ERR_RANGE, "%s row %s out of range (the dump has %llu)",
				what, arg, (unsigned long long)count);
	return TD_OK;
}

enum td_status
cmd_trace_arg(struct cmd_env *env, const char *arg, uint64_t *row)
{
	return row_arg(env, arg, model_trace_count(env->m), "trace", row);
}

enum td_status
cmd_execution_arg(struct cmd_env *env, const char *arg, uint64_t *row)
{
	if (!arg)
		return cmd_fail(env, TD_ERR_ARGS, "which execution? give a row number");
	return row_arg(env, arg, model_execution_count(env->m), "execution", row);
}

char *
cmd_join(int argc, char **argv, int from)
{
	struct strbuf sb = {0};
	int i;

	for (i = from; i < argc; i++) {
		if (i > from)
			strbuf_addc(&sb, ' ');
		strbuf_adds(&sb, argv[i]);
	}
	return strbuf_take(&sb);
}

const char *
cmd_graph_id(struct cmd_env *env, int32_t g)
{
	struct model_graph mg;

	if (g < 0 || !model_graph_get(env->m, (uint32_t)g, &mg))
		return NULL;
	return mg.graph_id;
}

#define SAFE_RING 16

const char *
cmd_safe(const char *s)
{
	static _Thread_local struct strbuf ring[SAFE_RING];
	static _Thread_local unsigned next;
	struct strbuf *sb = &ring[next++ % SAFE_RING];

	strbuf_reset(sb);
	sanitize_str(s, -1, sb);
	return sb->buf ? sb->buf : "";
}

void
cmd_cell(struct strbuf *sb, const char *s, int width)
{
	int used = sanitize_str(s && *s ? s : "-", width, sb);

	for (; used < width; used++)
		strbuf_addc(sb, ' ');
}

void
cmd_cell_name(struct strbuf *sb, const char *s, int width)
{
	size_t n = s ? strlen(s) : 0, head = 0, keep;
	const char *base;

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			n = 0;          /* not plain ASCII: the sanitizer cuts it */
	if (n <= (size_t)width || width < 8) {
		cmd_cell(sb, s, width);
		return;
	}
	base = strrchr(s, '/');
	base = base ? base + 1 : s;
	/* the first scope, then an ellipsis, then the rest that fits: the
	 * op's own name whole when it can be */
	if (base > s && (head = strcspn(s, "/") + 1) + 1 + strlen(base) > (size_t)width)
		head = 0;
	keep = (size_t)width - head - 1;
	strbuf_addf(sb, "%.*s%s%s", (int)head, s, sanitize_utf8() ? "\xe2\x80\xa6" : "~", s + n - keep);
}

/* Trailing decimal number of s ("rank_3" -> 3, "worker-host-1" -> 1). */
static bool
trailing_number(const char *s, int64_t *v)
{
	size_t n = strlen(s), i = n;

	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	return i < n && cmd_parse_i64(s + i, v);
}

/* The host matching arg: an exact host name, else a rank number matching
 * the trailing number of exactly one host. */
const char *
cmd_host_find(struct model *m, const char *arg)
{
	struct model_info info, *in = &info;
	const char *found = NULL;
	int64_t want, have;
	size_t i;

	model_info(m, &info);
	for (i = 0; i < in->nhosts; i++)
		if (strcmp(in->hosts[i], arg) == 0)
			return in->hosts[i];
	if (!cmd_parse_i64(arg, &want))
		return NULL;
	for (i = 0; i < in->nhosts; i++) {
		if (!trailing_number(in->hosts[i], &have) || have != want)
			continue;
		if (found)
			return NULL;
		found = in->hosts[i];
	}
	return found;
}

enum td_status
cmd_host_arg(struct cmd_env *env, const char *arg, const char **host)
{
	struct model_info in;
	struct strbuf names = { 0 }, hint = { 0 };
	struct td_suggest near;

	if ((*host = cmd_host_find(env->m, arg)))
		return TD_OK;
	model_info(env->m, &in);
	for (size_t i = 0; i < in.nhosts && i < 8; i++)
		strbuf_addf(&names, "%s%s", i ? ", " : "", in.hosts[i]);
	td_suggest_init(&near, arg);
	for (size_t i = 0; i < in.nhosts; i++)
		td_suggest_add(&near, in.hosts[i]);
	td_suggest_text(&near, &hint);
	cmd_fail(env, TD_ERR_NOTFOUND, "no host or rank \"%s\" (the dump has %zu%s%s%s)%s", arg,
		 in.nhosts, in.nhosts ? ": " : "", names.buf ? names.buf : "", in.nhosts > 8 ? ", ..." : "",
		 hint.buf ? hint.buf : "");
	strbuf_done(&names);
	strbuf_done(&hint);
	return TD_ERR_NOTFOUND;
}

/* ---- did you mean ----------------------------------------------------- */

void
cmd_suggest_op(struct model *m, const char *name, struct strbuf *sb)
{
	uint32_t i, n = model_op_count(m);
	struct td_suggest s;
	struct model_op o;

	td_suggest_init(&s, name);
	for (i = 0; i < n; i++)
		if (model_op_get(m, i, &o) && o.name)
			td_suggest_add(&s, o.name);
	td_suggest_text(&s, sb);
}

void
cmd_suggest_graph(struct model *m, const char *name, struct strbuf *sb)
{
	uint32_t i, n = model_graph_count(m);
	struct td_suggest s;
	struct model_graph g;

	td_suggest_init(&s, name);
	for (i = 0; i < n; i++) {
		if (!model_graph_get(m, i, &g))
			continue;
		if (g.name && *g.name)
			td_suggest_add(&s, g.name);
		if (g.graph_id && *g.graph_id)
			td_suggest_add(&s, g.graph_id);
	}
	td_suggest_text(&s, sb);
}
