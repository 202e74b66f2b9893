/*
 * prompt_complete.c - Tab in the ':' prompt: completes the word before the
 * cursor from what the command before it takes (enum cmd_complete in the
 * command table): command names, op names, source paths, theme names.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
			if (model_source_get(t->m, i, &s))
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

/* What the word under the cursor completes to, from the words before it. */
static enum cmd_complete
complete_kind(struct prompt *p, const struct line *l)
{
	char head[PROMPT_MAX];
	int argc = 0;
	const char **argv = NULL;
	enum cmd_complete kind = COMPLETE_NONE;

	snprintf(head, sizeof head, "%.*s", (int)l->pos, l->buf);
	if (!prompt_words(p, head, &argc, &argv))
		return COMPLETE_NONE;
	bool new_word = l->pos == 0 || l->buf[l->pos - 1] == ' ';
	int word = new_word ? argc : argc - 1;
	if (word <= 0)
		return COMPLETE_COMMAND;
	const struct cmd_info *ci = cmd_find(argv[0]);
	if (ci)
		kind = ci->complete;
	return kind;
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
	gather(t, complete_kind(t->prompt, l), &c);
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
		if (c.n == 1)
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
