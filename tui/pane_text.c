/*
 * pane_text.c - text overlays: help, command output and tensor views.
 *
 * One pane over lines of text that scrolls like less (the top line is the
 * position); Esc or q closes it.  The help text is generated from the key
 * table and the action table, so it always shows the keys that work.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tui/cmd.h"

static struct tui_text *
current(struct tui *t)
{
	switch (t->overlay) {
	case OVERLAY_HELP:
		return &t->help;
	case OVERLAY_TENSOR:
		return &t->tensor;
	default:
		return &t->output;
	}
}

void
tui_text_append(struct tui_text *x, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		TD_GROW(x->lines, x->cap, x->n + 1);
		x->lines[x->n++] = xstrndup(p, len);
		p += len + (nl ? 1 : 0);
	}
}

void
tui_text_done(struct tui_text *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->lines[i]);
	free(x->lines);
	free(x->title);
	memset(x, 0, sizeof *x);
}

void
tui_text_set(struct tui_text *x, const char *title, const char *text)
{
	tui_text_done(x);
	x->title = xstrdup(title);
	tui_text_append(x, text);
}

static uint64_t
text_count(struct pane *p)
{
	return current(p->tui)->n;
}

/* Columns scrolled to the right (h/l), for wide tensors. */
static int hscroll;

/* line after skipping n characters (not bytes: UTF-8 stays whole). */
static const char *
skip_chars(const char *line, int n)
{
	while (*line && n > 0) {
		line++;
		while (((unsigned char)*line & 0xc0) == 0x80)
			line++;
		n--;
	}
	return line;
}

static void
text_draw_row(struct pane *p, uint64_t row, int y)
{
	const char *line = current(p->tui)->lines[row];
	enum style_slot s = STYLE_OVERLAY;

	if (line[0] == '#' && line[1] == ' ') {     /* section heading */
		s = STYLE_HEADER;
		line += 2;
	}
	pane_print(p, y, 1, s, skip_chars(line, hscroll), p->r.w - 2);
}

static bool
text_grep(struct pane *p, uint64_t row, const pcre2_code *re)
{
	return pane_match(re, current(p->tui)->lines[row]);
}

static enum action
text_request(struct pane *p, enum action act)
{
	switch (act) {
	case ACT_QUIT:
	case ACT_CLOSE:
	case ACT_ENTER:
		tui_close_overlay(p->tui);
		return ACT_NONE;
	case ACT_MOVE_LEFT:
		hscroll = hscroll > 8 ? hscroll - 8 : 0;
		return ACT_NONE;
	case ACT_MOVE_RIGHT:
		hscroll += 8;
		return ACT_NONE;
	default:
		return act;
	}
}

static void
text_title(struct pane *p, char *buf, size_t size)
{
	const struct tui_text *x = current(p->tui);

	snprintf(buf, size, "%s   (Esc or q closes)", x->title ? x->title : "");
}

static const char *
text_empty(struct pane *p)
{
	return p->tui->overlay == OVERLAY_OUTPUT ? "no command output yet (: runs a command)" : "";
}

const struct pane_ops pane_text_ops = {
	.name = "overlay",
	.title = "",
	.flags = PANE_NO_CURSOR,
	.row_count = text_count,
	.draw_row = text_draw_row,
	.grep = text_grep,
	.request = text_request,
	.title_extra = text_title,
	.empty = text_empty,
};

void
tui_open_overlay(struct tui *t, enum tui_overlay which)
{
	t->overlay = which;
	t->overlay_pane.cursor = t->overlay_pane.top = 0;
	hscroll = 0;
	if (which == OVERLAY_OUTPUT)                  /* from the latest command's output */
		t->overlay_pane.cursor = t->overlay_pane.top = t->output.mark;
	t->need_relayout = true;
}

void
tui_close_overlay(struct tui *t)
{
	t->overlay = OVERLAY_NONE;
	t->need_relayout = true;
}

static void
help_keys(struct tui *t, struct strbuf *sb, const char *scope)
{
	for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
		char keys[96];
		if (keymap_keys_for(&t->keys, scope, (enum action)a, keys, sizeof keys) == 0)
			continue;
		strbuf_addf(sb, "  %-22s %-16s %s\n", keys, action_table[a].name, action_table[a].help);
	}
}

void
tui_build_help(struct tui *t)
{
	struct strbuf sb = { 0 };
	static const char *const scopes[] = { "alerts", "timeline", "traces", "graph", "source",
					      "stack", "overlay" };
	const struct cmd_info *cmds;
	size_t ncmds;

	strbuf_adds(&sb, "Rebind keys in $XDG_CONFIG_HOME/tdbg/keys (~/.config/tdbg/keys) with lines like\n"
		    "  bind generic j move-down      (scope: generic or a pane name; key names as below)\n\n");
	strbuf_adds(&sb, "# Keys (generic)\n");
	help_keys(t, &sb, "generic");
	for (size_t i = 0; i < TD_ARRAY_SIZE(scopes); i++) {
		struct strbuf part = { 0 };
		help_keys(t, &part, scopes[i]);
		if (part.len)
			strbuf_addf(&sb, "\n# Keys in the %s pane\n%s", scopes[i], part.buf);
		strbuf_done(&part);
	}
	strbuf_adds(&sb, "\n# Commands (type : then the command; Tab completes)\n");
	cmds = cmd_table(&ncmds);
	for (size_t i = 0; i < ncmds; i++)
		if (cmds[i].flags & CMD_TUI)
			strbuf_addf(&sb, "  %-40s %s\n", cmds[i].usage, cmds[i].summary);
	tui_text_set(&t->help, "Help", sb.buf ? sb.buf : "");
	strbuf_done(&sb);
}
