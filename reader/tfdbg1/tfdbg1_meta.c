/*
 * tfdbg1_meta.c - the core metadata JSON of a tfdbg v1 run (FORMAT.md §7).
 *
 * TensorFlow builds this JSON by hand: one flat object of integers and
 * lists of strings.  This is a small lenient walker for exactly that shape,
 * not a general JSON parser: unknown keys and value kinds are skipped, and a
 * malformed object yields whatever was read before the damage.  Both key
 * spellings are accepted (session_run_index / session_run_count,
 * executor_step_index / executor_step_count).
 */
#include "tfdbg1_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *p;
};

static void
skip_ws(struct cursor *c)
{
	while (*c->p && isspace((unsigned char)*c->p))
		c->p++;
}

/* Reads a JSON string at c (after optional whitespace) into a malloc'd
 * copy, resolving the simple escapes.  NULL if there is none. */
static char *
read_string(struct cursor *c)
{
	struct strbuf sb = { 0 };

	skip_ws(c);
	if (*c->p != '"')
		return NULL;
	c->p++;
	while (*c->p && *c->p != '"') {
		if (*c->p == '\\' && c->p[1]) {
			c->p++;
			strbuf_addc(&sb, *c->p == 'n' ? '\n' : *c->p == 't' ? '\t' : *c->p);
		} else {
			strbuf_addc(&sb, *c->p);
		}
		c->p++;
	}
	if (*c->p != '"') {
		strbuf_done(&sb);
		return NULL;
	}
	c->p++;
	return sb.buf ? strbuf_take(&sb) : xstrdup("");
}

static bool
read_int(struct cursor *c, int64_t *out)
{
	char *end;
	long long v;

	skip_ws(c);
	v = strtoll(c->p, &end, 10);
	if (end == c->p)
		return false;
	c->p = end;
	*out = (int64_t)v;
	return true;
}

static bool
read_string_list(struct cursor *c, char ***items, size_t *n)
{
	size_t cap = 0;
	char *s;

	skip_ws(c);
	if (*c->p != '[')
		return false;
	c->p++;
	for (;;) {
		skip_ws(c);
		if (*c->p == ']') {
			c->p++;
			return true;
		}
		s = read_string(c);
		if (!s)
			return false;
		TD_GROW(*items, cap, *n + 1);
		(*items)[(*n)++] = s;
		skip_ws(c);
		if (*c->p == ',')
			c->p++;
	}
}

/* Skips one value of a kind this parser does not keep. */
static bool
skip_value(struct cursor *c)
{
	int depth = 0;

	skip_ws(c);
	while (*c->p) {
		if (*c->p == '"') {
			free(read_string(c));
			if (depth == 0)
				return true;
			continue;
		}
		if (*c->p == '[' || *c->p == '{')
			depth++;
		else if (*c->p == ']' || *c->p == '}')
			depth--;
		if (depth < 0)
			return true;
		if (depth == 0 && *c->p == ',')
			return true;
		c->p++;
	}
	return false;
}

static bool
read_member(struct cursor *c, struct tfdbg1_core_meta *m)
{
	char *key = read_string(c);
	bool ok;

	if (!key)
		return false;
	skip_ws(c);
	if (*c->p != ':') {
		free(key);
		return false;
	}
	c->p++;
	if (!strcmp(key, "global_step"))
		ok = read_int(c, &m->global_step);
	else if (!strcmp(key, "session_run_index") || !strcmp(key, "session_run_count"))
		ok = read_int(c, &m->session_run_index);
	else if (!strcmp(key, "executor_step_index") || !strcmp(key, "executor_step_count"))
		ok = read_int(c, &m->executor_step_index);
	else if (!strcmp(key, "input_names"))
		ok = read_string_list(c, &m->input_names, &m->ninputs);
	else if (!strcmp(key, "output_names"))
		ok = read_string_list(c, &m->output_names, &m->noutputs);
	else if (!strcmp(key, "target_nodes"))
		ok = read_string_list(c, &m->target_nodes, &m->ntargets);
	else
		ok = skip_value(c);
	free(key);
	return ok;
}

void
tfdbg1_core_meta_parse(const char *json, struct tfdbg1_core_meta *out)
{
	struct cursor c = { json ? json : "" };

	memset(out, 0, sizeof(*out));
	out->global_step = out->session_run_index = out->executor_step_index = INT64_MIN;
	skip_ws(&c);
	if (*c.p != '{')
		return;
	c.p++;
	for (;;) {
		skip_ws(&c);
		if (*c.p == '}' || !*c.p)
			return;
		if (!read_member(&c, out))
			return;
		skip_ws(&c);
		if (*c.p == ',')
			c.p++;
	}
}

static void
free_list(char **items, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(items[i]);
	free(items);
}

void
tfdbg1_core_meta_done(struct tfdbg1_core_meta *m)
{
	if (!m)
		return;
	free_list(m->input_names, m->ninputs);
	free_list(m->output_names, m->noutputs);
	free_list(m->target_nodes, m->ntargets);
	memset(m, 0, sizeof(*m));
}
