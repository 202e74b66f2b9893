/*
 * pane_stack.c - the Stack pane: where the selected row's op or execution
 * was created, outermost frame first.
 *
 * Frames of user code are drawn normally, framework frames dimmed.  Moving
 * onto a frame shows its line in the source pane; Enter focuses the source
 * pane; L reads a file the dump does not hold from disk.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <string.h>

static uint64_t
stack_count(struct pane *p)
{
	return p->tui->nstack;
}

static const char *
base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path ? path : "?";
}

static void
stack_draw_row(struct pane *p, uint64_t row, int y)
{
	struct model_frame f;
	int x;

	if (!model_frame_get(p->tui->m, p->tui->stack[row], &f)) {
		pane_printf(p, y, 1, STYLE_CORRUPT, -1, "frame %u is not in the dump", p->tui->stack[row]);
		return;
	}
	enum style_slot s = f.user_code ? STYLE_DEFAULT : STYLE_DIM;
	x = 1 + pane_printf(p, y, 1, STYLE_LINE_NUMBER, -1, "%2llu ", (unsigned long long)row);
	x += pane_printf(p, y, x, f.source >= 0 ? STYLE_LINK : s, p->r.w * 2 / 3 - x, "%s:%u",
			 base_name(f.file), f.line);
	if (f.func && *f.func)
		pane_printf(p, y, x + 1, s, -1, "in %s", f.func);
}

static bool
stack_grep(struct pane *p, uint64_t row, const pcre2_code *re)
{
	struct model_frame f;

	if (!model_frame_get(p->tui->m, p->tui->stack[row], &f))
		return false;
	return pane_match(re, f.file) || pane_match(re, f.func);
}

static void
stack_select(struct pane *p, uint64_t row)
{
	if (row < p->tui->nstack)
		tui_show_frame(p->tui, p->tui->stack[row]);
}

static enum action
stack_request(struct pane *p, enum action act)
{
	switch (act) {
	case ACT_ENTER:
		if (p->tui->nstack) {
			stack_select(p, p->cursor);
			tui_focus(p->tui, PANE_SOURCE);
		}
		return ACT_NONE;
	case ACT_LOAD_SOURCE:
		tui_load_source(p->tui);
		return ACT_NONE;
	default:
		return act;
	}
}

static void
stack_title(struct pane *p, char *buf, size_t size)
{
	struct model_frame f;

	if (p->tui->nstack && p->cursor < p->tui->nstack &&
	    model_frame_get(p->tui->m, p->tui->stack[p->cursor], &f))
		snprintf(buf, size, "%s  %s:%u", p->tui->stack_origin, base_name(f.file), f.line);
	else
		snprintf(buf, size, "%s", p->tui->stack_origin);
}

const char *
tui_no_stacks_why(struct tui *t)
{
	struct model_info info;

	model_info(t->m, &info);
	if (info.no_stacks_why)
		return info.no_stacks_why;   /* the reader's words, valid until close */
	if (model_source_count(t->m) == 0)
		return "this dump holds no source files or stack frames";
	return "this dump holds no stack frames";
}

bool
tui_no_source(struct tui *t)
{
	struct model_info info;

	model_info(t->m, &info);
	if (info.no_stacks_why)
		return true;
	return t->progress.done && model_frame_count(t->m) == 0 && model_source_count(t->m) == 0;
}

static const char *
stack_empty(struct pane *p)
{
	if (!p->tui->progress.done)
		return "indexing...";
	if (model_frame_count(p->tui->m) == 0)
		return tui_no_stacks_why(p->tui);
	if (p->tui->stack_origin[0])
		return "no stack recorded for this row";
	return "select a row to see where it was created";
}

const struct pane_ops pane_stack_ops = {
	.row_count = stack_count,
	.draw_row = stack_draw_row,
	.grep = stack_grep,
	.request = stack_request,
	.select = stack_select,
	.title_extra = stack_title,
	.empty = stack_empty,
};
