/*
 * pane_source.c - the Source pane: the selected frame's file at its line.
 *
 * Lines come from the dump (model_source_lines) or, only when the user
 * presses L, from disk (model_source_load_disk).  The frame's line is
 * highlighted and centred.  A file the dump does not hold says so instead
 * of showing anything.
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
};

static struct source *
get(struct pane *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct source));
	return p->priv;
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
	}
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
	int x;

	/* the frame's line keeps its highlight unless the user is moving here */
	if (hl && !p->focused)
		p->drawing_cursor = false;
	x = pane_printf(p, y, 0, STYLE_LINE_NUMBER, -1, "%5llu ", (unsigned long long)row + 1);
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

static enum action
source_request(struct pane *p, enum action act)
{
	if (act == ACT_LOAD_SOURCE) {
		tui_load_source(p->tui);
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
	free(p->priv);
}

const struct pane_ops pane_source_ops = {
	.open = source_open,
	.row_count = source_count,
	.draw_row = source_draw_row,
	.grep = source_grep,
	.request = source_request,
	.title_extra = source_title,
	.empty = source_empty,
	.done = source_done,
};
