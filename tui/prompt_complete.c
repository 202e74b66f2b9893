/*
 * prompt_complete.c - Tab in the ':' prompt: completes the word before the
 * cursor from what the command before it takes.  The command table says
 * what a command's arguments are (enum cmd_complete: op names, source
 * paths, theme names); its usage text gives the rest, so they cannot
 * drift: "--option" names, the literal words a command takes ("goto
 * [trace | execution] N", "follow on|off") and filter keys ("op=",
 * "host=").  The values of --host / host= / rank are the dump's hosts,
 * of --graph / graph= its graphs, of --op ops, of --field (history) the
 * series fields; a source path completes
 * from its file name as well as from its start.
 */
#include "tui_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_series.h"
#include "prompt_line.h"
#include "tui/cmd/cmd.h"

#define COMPLETE_MAX 256
#define COMPLETE_OPS_SCAN 500000   /* ops looked at for one Tab */

struct cands {
	char *items[COMPLETE_MAX];
	size_t n;
	bool more;
	const char *prefix;
};

static void
cand_add(const char *name, void *arg)
{
	struct cands *c = arg;

	if (!name || strncmp(name, c->prefix, strlen(c->prefix)))
		return;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->items[i], name))
			return;
	if (c->n == COMPLETE_MAX) {
		c->more = true;
		return;
	}
	c->items[c->n++] = xstrdup(name);
}

static void
gather(struct tui *t, enum cmd_complete kind, struct cands *c)
{
	size_t n;
	const struct cmd_info *cmds;

	switch (kind) {
	case COMPLETE_COMMAND: {
		const struct cmd_alias *al;
		size_t na;

		cmds = cmd_table(&n);
		for (size_t i = 0; i < n; i++)
			if (cmds[i].flags & CMD_TUI)
				cand_add(cmds[i].name, c);
		al = cmd_aliases(&na);
		for (size_t i = 0; i < na; i++)
			cand_add(al[i].alias, c);
		break;
	}
	case COMPLETE_OP: {
		uint32_t nops = model_op_count(t->m);
		for (uint32_t i = 0; i < nops && i < COMPLETE_OPS_SCAN && !c->more; i++) {
			struct model_op op;
			if (model_op_get(t->m, i, &op))
				cand_add(op.name, c);
		}
		break;
	}
	case COMPLETE_SOURCE: {
		uint32_t ns = model_source_count(t->m);
		for (uint32_t i = 0; i < ns && !c->more; i++) {
			struct model_source s;
			if (!model_source_get(t->m, i, &s))
				continue;
			const char *base = strrchr(s.path, '/');
			/* the file name ("debug_mn" -> debug_mnist_v2.py), else the path */
			if (base && !strncmp(base + 1, c->prefix, strlen(c->prefix)))
				cand_add(base + 1, c);
			else
				cand_add(s.path, c);
		}
		break;
	}
	case COMPLETE_THEME:
		theme_list(cand_add, c);
		break;
	default:
		break;
	}
}

/* Where the cursor is: the command, the word's position and the word
 * before it (copied: prompt_words' array lives until its next call). */
struct where {
	const struct cmd_info *cmd;
	int word;                   /* 0: the command name */
	char prev[128];
};

static void
complete_where(struct prompt *p, const struct line *l, struct where *w)
{
	char head[PROMPT_MAX];
	int argc = 0;
	const char **argv = NULL;

	memset(w, 0, sizeof *w);
	snprintf(head, sizeof head, "%.*s", (int)l->pos, l->buf);
	if (!prompt_words(p, head, &argc, &argv))
		return;
	bool new_word = l->pos == 0 || l->buf[l->pos - 1] == ' ';
	w->word = new_word ? argc : argc - 1;
	if (w->word > 0) {
		w->cmd = cmd_find(argv[0]);
		snprintf(w->prev, sizeof w->prev, "%s", argv[w->word - 1]);
	}
}

/* The words of cmd's usage text that complete the current word: its
 * "--options" (prefix "--"), else for the first argument the literal
 * words ("trace", "on") and filter keys ("op=", "nonfinite"): lower-case
 * tokens that are not the command's name; upper case are placeholders. */
static void
usage_words(const struct cmd_info *ci, int word, struct cands *c)
{
	char tok[64];
	const char *u = ci->usage;
	bool options = !strncmp(c->prefix, "--", 2);

	while (*u) {
		size_t n = strcspn(u, " |[]()");
		if (n && n < sizeof tok) {
			snprintf(tok, sizeof tok, "%.*s", (int)n, u);
			char *eq = strchr(tok, '=');
			if (options && !strncmp(tok, "--", 2))
				cand_add(tok, c);
			else if (!options && word == 1 && islower((unsigned char)tok[0]) &&
				 strcmp(tok, ci->name) && strncmp(tok, "--", 2)) {
				if (eq)
					eq[1] = '\0';  /* "op=REGEX" -> "op=" */
				cand_add(tok, c);
			}
		}
		u += n ? n : 1;
	}
}

/* The dump's hosts, or its graphs (ids and names), each after `lead`
 * ("host=" in a filter). */
static void
values(struct tui *t, bool hosts, const char *lead, struct cands *c)
{
	char buf[512];
	struct model_info in;
	struct model_graph g;

	if (hosts) {
		model_info(t->m, &in);
		for (size_t i = 0; i < in.nhosts; i++) {
			snprintf(buf, sizeof buf, "%s%s", lead, in.hosts[i]);
			cand_add(buf, c);
		}
		return;
	}
	for (uint32_t i = 0; i < model_graph_count(t->m) && !c->more; i++) {
		if (!model_graph_get(t->m, i, &g))
			continue;
		snprintf(buf, sizeof buf, "%s%s", lead, g.name && *g.name ? g.name : g.graph_id);
		cand_add(buf, c);
	}
}

/* Gathers the candidates for the word at w. */
static void
gather_at(struct tui *t, const struct where *w, struct cands *c)
{
	if (w->word <= 0) {
		gather(t, COMPLETE_COMMAND, c);
		return;
	}
	if (!w->cmd)
		return;
	if (!strcmp(w->prev, "--host")) {
		values(t, true, "", c);
	} else if (!strcmp(w->prev, "--graph")) {
		values(t, false, "", c);
	} else if (!strcmp(w->prev, "--field")) {        /* history's fields */
		for (int f = 0; f < SERIES_FIELD_COUNT; f++)
			cand_add(model_series_field_name((enum model_series_field)f), c);
	} else if (!strcmp(w->prev, "--op") || (!strcmp(w->prev, "op") && !strcmp(w->cmd->name, "stack"))) {
		gather(t, COMPLETE_OP, c);
	} else if (!strncmp(c->prefix, "host=", 5) || !strncmp(c->prefix, "graph=", 6)) {
		values(t, c->prefix[0] == 'h', c->prefix[0] == 'h' ? "host=" : "graph=", c);
	} else {
		usage_words(w->cmd, w->word, c);
		if (!strcmp(w->cmd->name, "rank") && w->word == 1)
			values(t, true, "", c);
		if (!strncmp(c->prefix, "--", 2))
			return;
		if (w->cmd->complete != COMPLETE_NONE && (c->n == 0 || w->word > 1))
			gather(t, w->cmd->complete, c);
	}
}

void
prompt_complete(struct tui *t, struct line *l)
{
	struct cands c = { .n = 0 };
	size_t start = l->pos;
	char prefix[PROMPT_MAX];

	while (start > 0 && l->buf[start - 1] != ' ')
		start--;
	snprintf(prefix, sizeof prefix, "%.*s", (int)(l->pos - start), l->buf + start);
	c.prefix = prefix;
	struct where w;
	complete_where(t->prompt, l, &w);
	gather_at(t, &w, &c);
	if (c.n == 0) {
		tui_message(t, true, "no completion for '%s'", prefix);
	} else {
		size_t common = strlen(c.items[0]);
		for (size_t i = 1; i < c.n; i++) {
			size_t k = 0;
			while (k < common && c.items[i][k] == c.items[0][k])
				k++;
			common = k;
		}
		line_erase(l, start, l->pos);
		line_insert(l, c.items[0], common);
		if (c.n == 1 && c.items[0][common - (common > 0)] != '=')     /* "op=" goes on */
			line_insert(l, " ", 1);
		struct strbuf sb = { 0 };
		if (c.n > 1) {
			strbuf_addf(&sb, "%zu%s matches:", c.n, c.more ? "+" : "");
			for (size_t i = 0; i < c.n && sb.len < 400; i++)
				strbuf_addf(&sb, " %s", c.items[i]);
			tui_message(t, false, "%s", sb.buf);
		}
		strbuf_done(&sb);
	}
	for (size_t i = 0; i < c.n; i++)
		free(c.items[i]);
}
