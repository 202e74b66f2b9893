/*
 * pane_text.c - text overlays: help, command output and tensor views.
 *
 * One pane over lines of text that scrolls like less (the top line is the
 * position); Esc or q closes it.  The help text is generated from the key
 * table and the action table, so it always shows the keys that work.
 */
#include "tui_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/cmd.h"

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

/* The length of a non-finite value at s ("nan", "inf", "-inf", "+inf" as
 * the values print, lower case: the summary's labels "NaN", "-Inf" are
 * not values) standing alone; 0 if none. */
static size_t
nonfinite_at(const char *line, const char *s)
{
	static const char *const words[] = { "-inf", "+inf", "inf", "nan" };

	if (s > line && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '.'))
		return 0;
	for (size_t i = 0; i < TD_ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i]);
		if (!strncmp(s, words[i], n) && !isalnum((unsigned char)s[n]) && s[n] != '_' && s[n] != '=')
			return n;
	}
	return 0;
}

/* A tensor view's line with its NaN and +-Inf values in the alert style. */
static void
draw_values(struct pane *p, int y, const char *line)
{
	int x = 1, right = p->r.w - 1;
	const char *s = line, *start = line;
	char part[512];

	while (*s && x < right) {
		size_t n = nonfinite_at(line, s);
		if (!n) {
			s++;
			continue;
		}
		if (s > start) {
			snprintf(part, sizeof part, "%.*s", (int)(s - start), start);
			x += pane_print(p, y, x, STYLE_OVERLAY, part, right - x);
		}
		snprintf(part, sizeof part, "%.*s", (int)n, s);
		x += pane_print(p, y, x, STYLE_NONFINITE, part, right - x);
		s += n;
		start = s;
	}
	if (*start && x < right)
		pane_print(p, y, x, STYLE_OVERLAY, start, right - x);
}

static void
text_draw_row(struct pane *p, uint64_t row, int y)
{
	const char *line = current(p->tui)->lines[row];
	enum style_slot s = STYLE_OVERLAY;

	if (line[0] == '#' && line[1] == ' ') {     /* section heading */
		s = STYLE_HEADER;
		line += 2;
	} else if (p->tui->overlay == OVERLAY_TENSOR && !p->drawing_match) {
		draw_values(p, y, skip_chars(line, hscroll));   /* NaN/Inf stand out */
		tui_tensor_draw_row(p, row, y, hscroll);        /* ranges, heatmap, the cell */
		return;
	}
	pane_print(p, y, 1, s, skip_chars(line, hscroll), p->r.w - 2);
	if (p->tui->overlay == OVERLAY_TENSOR)
		tui_tensor_draw_row(p, row, y, hscroll);
}

void
tui_text_hscroll_to(int col, int len, int width)
{
	if (col < hscroll)
		hscroll = col > 8 ? col - 8 : 0;
	else if (col + len > hscroll + width)
		hscroll = col + len - width + 8;
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
	case ACT_JUMP_ELEMENT:
		if (p->tui->overlay != OVERLAY_TENSOR)
			return act;
		tui_tensor_jump_prompt(p->tui);
		return ACT_NONE;
	default:
		return act;
	}
}

static void
text_title(struct pane *p, char *buf, size_t size)
{
	const struct tui_text *x = current(p->tui);

	snprintf(buf, size, "%s   (%sEsc or q closes)", x->title ? x->title : "",
		 p->tui->overlay == OVERLAY_OUTPUT ? "Enter follows the line's row, op or frame; " : "");
}

/* The output pane has a cursor: Enter follows the row, op or frame its
 * line names (tui_output.c), else closes as in the other overlays. */
static enum action
output_request(struct pane *p, enum action act)
{
	if (act == ACT_ENTER && tui_output_follow(p->tui, p->cursor))
		return ACT_NONE;
	return text_request(p, act);
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

/* The command output: the same text view with a cursor on a line. */
static const struct pane_ops pane_output_ops = {
	.name = "overlay",
	.title = "",
	.row_count = text_count,
	.draw_row = text_draw_row,
	.grep = text_grep,
	.request = output_request,
	.title_extra = text_title,
	.empty = text_empty,
};

void
tui_open_overlay(struct tui *t, enum tui_overlay which)
{
	t->overlay = which;
	t->overlay_pane.ops = which == OVERLAY_OUTPUT ? &pane_output_ops : &pane_text_ops;
	t->overlay_pane.cursor = t->overlay_pane.top = 0;
	t->overlay_pane.match = -1;
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

/* Appends prefix then text word-wrapped to width columns, continuation
 * lines indented by indent; a prefix already past the width puts the text
 * on the next line.  Help text is ASCII, so bytes are columns. */
static void
add_wrapped(struct strbuf *sb, const char *prefix, int indent, const char *text, int width)
{
	int col = (int)strlen(prefix);

	strbuf_adds(sb, prefix);
	if (width < indent + 10)
		width = indent + 10;            /* too narrow to wrap usefully: h/l scroll */
	while (*text) {
		int room = width - col, len = (int)strlen(text), cut = len;
		if (room < 10 && col > indent) {        /* the prefix took the line */
			strbuf_addf(sb, "\n%*s", indent, "");
			col = indent;
			continue;
		}
		if (len > room) {
			for (cut = room; cut > 0 && text[cut] != ' '; cut--)
				;
			if (cut == 0)
				cut = room;
		}
		strbuf_addf(sb, "%.*s", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		if (*text) {
			strbuf_addf(sb, "\n%*s", indent, "");
			col = indent;
		}
	}
	strbuf_adds(sb, "\n");
}

/* Wide screens: keys, action and help on one line (help wrapped under its
 * column); narrow ones: keys and action, the help indented below. */
static void
help_keys(struct tui *t, struct strbuf *sb, const char *scope, int width)
{
	for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
		char keys[96], prefix[160];
		if (keymap_keys_for(&t->keys, scope, (enum action)a, keys, sizeof keys) == 0)
			continue;
		if (width >= 70) {
			snprintf(prefix, sizeof prefix, "  %-22s %-16s ", keys, action_table[a].name);
			add_wrapped(sb, prefix, 42, action_table[a].help, width);
		} else {
			strbuf_addf(sb, "  %s  %s\n", keys, action_table[a].name);
			add_wrapped(sb, "      ", 6, action_table[a].help, width);
		}
	}
}

/* The help for the screen's width (rebuilt when the width changes). */
void
tui_build_help(struct tui *t)
{
	struct strbuf sb = { 0 };
	const char *scopes[PANE_COUNT + 1];
	const struct cmd_info *cmds;
	size_t ncmds;
	int width = COLS - 2;                   /* the overlay prints from column 1 */

	for (int i = 0; i < PANE_COUNT; i++)
		scopes[i] = pane_info[i].name;
	scopes[PANE_COUNT] = pane_text_ops.name;
	t->help_width = COLS;
	add_wrapped(&sb, "", 0, "j/k, PgDn/PgUp, g/G scroll this help; / searches it; Esc or q closes.", width);
	add_wrapped(&sb, "", 0, "Rebind keys in $XDG_CONFIG_HOME/tdbg/keys (~/.config/tdbg/keys) with lines "
		    "like \"bind generic j move-down\" (scope: generic or a pane name; key names as below).",
		    width);
	add_wrapped(&sb, "", 0, t->opt->mouse ? "Mouse (on; --no-mouse turns it off): a click focuses a pane and "
		    "selects the row under it, a click on a link of the Graph pane follows it, the wheel scrolls. "
		    "Most terminals still select text with Shift held." : "Mouse: off (--no-mouse); --mouse turns it on: a "
		    "click selects a row or follows a link, the wheel scrolls.", width);
	strbuf_adds(&sb, "\n# Keys (generic)\n");
	help_keys(t, &sb, "generic", width);
	for (size_t i = 0; i < TD_ARRAY_SIZE(scopes); i++) {
		struct strbuf part = { 0 };
		help_keys(t, &part, scopes[i], width);
		if (part.len)
			strbuf_addf(&sb, "\n# Keys in the %s pane\n%s", scopes[i], part.buf);
		strbuf_done(&part);
	}
	strbuf_adds(&sb, "\n# Commands (type : then the command; Tab completes)\n");
	cmds = cmd_table(&ncmds);
	for (size_t i = 0; i < ncmds; i++) {
		if (!(cmds[i].flags & CMD_TUI))
			continue;
		char prefix[256];
		if (width >= 70 && strlen(cmds[i].usage) <= 40) {
			snprintf(prefix, sizeof prefix, "  %-40s ", cmds[i].usage);
			add_wrapped(&sb, prefix, 43, cmds[i].summary, width);
		} else {
			add_wrapped(&sb, "  ", 4, cmds[i].usage, width);
			add_wrapped(&sb, "      ", 6, cmds[i].summary, width);
		}
	}
	strbuf_adds(&sb, "\n# Aliases (the verbs of the older debugger CLI)\n");
	const struct cmd_alias *al = cmd_aliases(&ncmds);
	for (size_t i = 0; i < ncmds; i++) {
		char line[128];
		snprintf(line, sizeof line, "  %-4s %-12s %s", al[i].alias, al[i].command, al[i].what);
		add_wrapped(&sb, "", 0, line, width);
	}
	tui_text_set(&t->help, "Help", sb.buf ? sb.buf : "");
	strbuf_done(&sb);
}
