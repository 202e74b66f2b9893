/*
 * pane_source.c - the Source pane: the selected frame's file at its line.
 *
 * Lines come from the dump (model_source_lines) or, only when the user
 * presses L, from disk (model_source_load_disk).  The frame's line is
 * highlighted and centred.  A file the dump does not hold says so instead
 * of showing anything.  When the dump knows only the lines its traces
 * recorded (the file itself was not found), those lines are marked, the
 * others are blank and grey, and a header line says how to get the file.
 * Lines that created ops (a frame of an op's creation stack) carry the
 * number of ops in a gutter; Enter on such a line filters the trace table
 * to those ops' rows (model_source_ops).
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/sanitize.h"

struct source {
	const char *const *lines;   /* borrowed from the model */
	size_t n;
	const char *path;
	int hscroll;                /* columns scrolled right (h/l) */
	int64_t index;              /* source shown, to reset hscroll on a new file */
	bool partial;               /* only the traced lines are known */
	uint32_t *ops;              /* ops created per line number, NULL none */
	size_t nops;                /* entries of ops */
	int64_t ops_index;          /* source and model generation ops[] is for */
	uint64_t ops_gen;
};

static struct source *
get(struct pane *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct source));
	return p->priv;
}

/* The op counts per line of the source shown, recounted when the file or
 * the model changed. */
static void
load_op_counts(struct tui *t, struct source *src)
{
	if (src->ops && src->ops_index == t->src_index && src->ops_gen == t->progress.generation)
		return;
	free(src->ops);
	src->ops = NULL;
	src->nops = 0;
	src->ops_index = t->src_index;
	src->ops_gen = t->progress.generation;
	if (t->src_index >= 0)
		src->nops = model_source_op_counts(t->m, (uint32_t)t->src_index, &src->ops);
}

static void
source_open(struct pane *p)
{
	struct tui *t = p->tui;
	struct source *src = get(p);
	struct model_source s;

	src->lines = NULL;
	src->n = 0;
	src->path = NULL;
	src->partial = false;
	if (src->index != t->src_index)
		src->hscroll = 0;
	src->index = t->src_index;
	if (t->src_index < 0 || !model_source_get(t->m, (uint32_t)t->src_index, &s))
		return;
	src->path = s.path;
	if (model_source_lines(t->m, (uint32_t)t->src_index, &src->lines, &src->n) != TD_OK) {
		src->lines = NULL;
		src->n = 0;
		if (!t->src_error[0])
			snprintf(t->src_error, sizeof t->src_error,
				 "%s: the dump holds no text for it: press L to read it from disk", s.path);
	} else if (model_source_get(t->m, (uint32_t)t->src_index, &s)) {
		src->partial = s.partial;      /* known once the lines are loaded */
	}
	load_op_counts(t, src);
}

/* Ops created at line (1-based), 0 none. */
static uint32_t
ops_at(const struct source *src, uint64_t line)
{
	return line < src->nops ? src->ops[line] : 0;
}

/* The gutter before the line number: the count of ops created at the
 * line, when the file created any.  Returns the columns used. */
static int
draw_op_count(struct pane *p, uint64_t row, int y)
{
	const struct source *src = get(p);
	uint32_t n = ops_at(src, row + 1);

	if (!src->nops)
		return 0;
	if (!n)
		return 4;
	if (n > 999)
		return pane_print(p, y, 0, STYLE_LINK, "999+", 4);
	pane_printf(p, y, 0, STYLE_LINK, 4, "%3u ", n);
	return 4;
}

static bool
source_header_shown(const struct pane *p)
{
	return p->priv && ((const struct source *)p->priv)->partial;
}

/* Says why most lines are blank, as long as the pane allows. */
static void
source_header(struct pane *p, int y)
{
	static const char *const why[] = {
		"traced lines only: file not found on this machine; --source-root DIR, or L to name it",
		"traced lines only: file not found here; L or --source-root DIR",
		"traced lines only; L: read the file",
	};
	const char *mark = sanitize_utf8() ? "\xe2\x80\xa2" : "*";
	size_t i = 0;

	while (i + 1 < TD_ARRAY_SIZE(why) && (int)strlen(why[i]) + 3 > p->r.w)
		i++;
	pane_printf(p, y, 0, STYLE_HEADER, -1, " %s %s", mark, why[i]);
}

static uint64_t
source_count(struct pane *p)
{
	return get(p)->n;
}

static void
source_draw_row(struct pane *p, uint64_t row, int y)
{
	struct strbuf sb = { 0 };
	bool hl = p->tui->src_line && row + 1 == p->tui->src_line;
	int x, g;

	/* the frame's line keeps its highlight unless the user is moving here */
	if (hl && !p->focused)
		p->drawing_cursor = false;
	g = draw_op_count(p, row, y);
	if (get(p)->partial && !model_source_line_known(p->tui->m, (uint32_t)p->tui->src_index, row)) {
		/* a line the dump did not record: its number, greyed, nothing else */
		pane_printf(p, y, g, STYLE_DIM, -1, "%5llu", (unsigned long long)row + 1);
		return;
	}
	x = g + pane_printf(p, y, g, STYLE_LINE_NUMBER, -1, "%5llu", (unsigned long long)row + 1);
	/* a recorded line of a partial file carries the header's mark */
	x += pane_print(p, y, x, STYLE_LINE_NUMBER,
			!get(p)->partial ? " " : sanitize_utf8() ? "\xe2\x80\xa2" : "*", -1);
	if (hl && !p->drawing_cursor) {
		wattrset(p->win, theme_style(STYLE_HIGHLIGHT_LINE));
		mvwhline(p->win, y, x, ' ', p->r.w - x);
	}
	const char *text = get(p)->lines[row];
	int skip = get(p)->hscroll;
	/* expand tabs first, then skip the scrolled columns (escapes are ASCII
	 * by then, so skipping characters is skipping columns but for wide ones) */
	sanitize(text, strlen(text), -1, SANITIZE_TABS, &sb);
	const char *shown = sb.buf ? sb.buf : "";
	while (*shown && skip > 0) {
		shown++;
		while (((unsigned char)*shown & 0xc0) == 0x80)
			shown++;
		skip--;
	}
	pane_print(p, y, x, hl ? STYLE_HIGHLIGHT_LINE : STYLE_DEFAULT, shown, -1);
	strbuf_done(&sb);
}

static bool
source_grep(struct pane *p, uint64_t row, const pcre2_code *re)
{
	return pane_match(re, get(p)->lines[row]);
}

/* Appends op name as a PCRE2 literal: every ASCII punctuation escaped. */
static void
add_literal(struct strbuf *sb, const char *name)
{
	for (; *name; name++) {
		unsigned char c = (unsigned char)*name;

		if (c < 0x80 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
				  (c >= 'A' && c <= 'Z') || c == '_'))
			strbuf_addc(sb, '\\');
		strbuf_addc(sb, (char)c);
	}
}

/* Enter on a line that created ops: the trace table shows their rows. */
static void
show_line_ops(struct pane *p, uint32_t line)
{
	struct tui *t = p->tui;
	struct model_filter_spec spec = { .graph = -1, .execution = -1 };
	struct model_filter *f = NULL;
	struct strbuf re = { 0 };
	struct model_op o;
	uint32_t *ops;
	size_t n = model_source_ops(t->m, (uint32_t)t->src_index, line, &ops);
	char err[256], first[128] = "";

	strbuf_adds(&re, "^(?:");
	for (size_t k = 0; k < n; k++) {
		if (!model_op_get(t->m, ops[k], &o))
			continue;
		if (!first[0])
			snprintf(first, sizeof first, "%s", o.name);
		if (k)
			strbuf_addc(&re, '|');
		add_literal(&re, o.name);
	}
	strbuf_adds(&re, ")$");
	free(ops);
	spec.op_regex = re.buf;
	if (n && model_filter_new(t->m, &spec, &f, err, sizeof err) == TD_OK) {
		tui_history_push(t);
		tui_set_filter(t, f);
		tui_focus(t, PANE_TRACES);
		tui_message(t, false, "line %u created %zu op%s (%s%s): the trace table shows their "
			    "rows (:filter off to clear)", line, n, n == 1 ? "" : "s", first,
			    n > 1 ? ", ..." : "");
	} else if (n) {
		tui_message(t, true, "line %u: %s", line, err);
	}
	strbuf_done(&re);
}

static enum action
source_request(struct pane *p, enum action act)
{
	if (act == ACT_LOAD_SOURCE) {
		tui_load_source(p->tui);
		return ACT_NONE;
	}
	if (act == ACT_ENTER && ops_at(get(p), p->cursor + 1)) {
		show_line_ops(p, (uint32_t)p->cursor + 1);
		return ACT_NONE;
	}
	if (act == ACT_ENTER) {
		tui_focus(p->tui, PANE_STACK);
		return ACT_NONE;
	}
	if (act == ACT_MOVE_LEFT || act == ACT_MOVE_RIGHT) {
		struct source *src = get(p);
		src->hscroll = act == ACT_MOVE_RIGHT ? src->hscroll + 8 : TD_MAX(src->hscroll - 8, 0);
		return ACT_NONE;
	}
	return act;
}

static void
source_title(struct pane *p, char *buf, size_t size)
{
	struct tui *t = p->tui;
	const char *path = get(p)->path ? get(p)->path : t->src_path[0] ? t->src_path : NULL;
	char tail[512];

	if (!path)
		return;
	pane_tail(path, p->r.w - 30, tail, sizeof tail);
	if (t->src_line)
		snprintf(buf, size, "%s:%u", tail, t->src_line);
	else
		snprintf(buf, size, "%s", tail);
}

static const char *
source_empty(struct pane *p)
{
	struct tui *t = p->tui;

	if (!t->progress.done && !t->src_path[0])
		return "indexing...";
	if (t->src_error[0])
		return t->src_error;
	if (model_source_count(t->m) == 0 && model_frame_count(t->m) == 0 && !t->src_path[0])
		return tui_no_stacks_why(t);
	if (model_source_count(t->m) == 0 && !t->src_path[0])
		return "the dump holds no source files: select a stack frame and press L "
		       "to read its file from disk";
	return "select a stack frame to see its source line";
}

static void
source_done(struct pane *p)
{
	if (p->priv)
		free(get(p)->ops);
	free(p->priv);
}

const struct pane_ops pane_source_ops = {
	.open = source_open,
	.row_count = source_count,
	.draw_row = source_draw_row,
	.grep = source_grep,
	.request = source_request,
	.header = source_header,
	.header_shown = source_header_shown,
	.title_extra = source_title,
	.empty = source_empty,
	.done = source_done,
};
