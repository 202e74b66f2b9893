/*
 * pane_stack.c - the Stack pane: where the selected row's op or execution
 * was created, outermost frame first.
 *
 * Frames of user code are drawn normally, framework frames dimmed; u hides
 * the framework's frames (the user's code only) and shows them again.
 * Moving onto a frame shows its line in the source pane; Enter focuses the
 * source pane; L reads a file the dump does not hold from disk.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct stackv {
	bool user_only;             /* u: the framework's frames are hidden */
};

static struct stackv *
get(struct pane *p)
{
	if (!p->priv)
		p->priv = xcalloc(1, sizeof(struct stackv));
	return p->priv;
}

static bool
is_user(struct tui *t, size_t i)
{
	struct model_frame f;

	return model_frame_get(t->m, t->stack[i], &f) && f.user_code;
}

/* The index in t->stack of view row row, -1 past the end. */
static int64_t
frame_of_row(struct pane *p, uint64_t row)
{
	struct tui *t = p->tui;

	if (!get(p)->user_only)
		return row < t->nstack ? (int64_t)row : -1;
	for (size_t i = 0; i < t->nstack; i++)
		if (is_user(t, i) && row-- == 0)
			return (int64_t)i;
	return -1;
}

uint64_t
pane_stack_row_of(struct pane *p, size_t i)
{
	uint64_t row = 0;

	if (!get(p)->user_only)
		return i;
	for (size_t k = 0; k < i && k < p->tui->nstack; k++)
		row += is_user(p->tui, k);
	return row;
}

static uint64_t
stack_count(struct pane *p)
{
	return pane_stack_row_of(p, p->tui->nstack);
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
	int64_t i = frame_of_row(p, row);
	int x;

	if (i < 0)
		return;
	if (!model_frame_get(p->tui->m, p->tui->stack[i], &f)) {
		pane_printf(p, y, 1, STYLE_CORRUPT, -1, "frame %u is not in the dump", p->tui->stack[i]);
		return;
	}
	enum style_slot s = f.user_code ? STYLE_DEFAULT : STYLE_DIM;
	x = 1 + pane_printf(p, y, 1, STYLE_LINE_NUMBER, -1, "%2lld ", (long long)i);
	x += pane_printf(p, y, x, f.source >= 0 ? STYLE_LINK : s, p->r.w * 2 / 3 - x, "%s:%u",
			 base_name(f.file), f.line);
	if (f.func && *f.func)
		pane_printf(p, y, x + 1, s, -1, "in %s", f.func);
}

static bool
stack_grep(struct pane *p, uint64_t row, const pcre2_code *re)
{
	struct model_frame f;
	int64_t i = frame_of_row(p, row);

	if (i < 0 || !model_frame_get(p->tui->m, p->tui->stack[i], &f))
		return false;
	return pane_match(re, f.file) || pane_match(re, f.func);
}

static void
stack_select(struct pane *p, uint64_t row)
{
	int64_t i = frame_of_row(p, row);

	if (i >= 0)
		tui_show_frame(p->tui, p->tui->stack[i]);
}

/* u: hides or shows the framework's frames, staying on the same frame
 * (or the nearest user frame before it). */
static void
toggle_user(struct pane *p)
{
	struct stackv *v = get(p);
	int64_t i = frame_of_row(p, p->cursor);

	v->user_only = !v->user_only;
	tui_message(p->tui, false, v->user_only ? "stack: the user's code only (u: all frames)"
				   : "stack: all frames (u: the user's code only)");
	if (i < 0)
		return;
	if (v->user_only)
		while (i > 0 && !is_user(p->tui, (size_t)i))
			i--;
	p->cursor = pane_stack_row_of(p, (size_t)i);
	pane_clamp(p);
	pane_goto(p, p->cursor, false, true);
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
	case ACT_USER_CODE:
		toggle_user(p);
		return ACT_NONE;
	default:
		return act;
	}
}

static void
stack_title(struct pane *p, char *buf, size_t size)
{
	struct model_frame f;
	int64_t i = frame_of_row(p, p->cursor);
	const char *only = get(p)->user_only ? "[user code] " : "";

	if (p->tui->nstack && i >= 0 && model_frame_get(p->tui->m, p->tui->stack[i], &f))
		snprintf(buf, size, "%s%s  %s:%u", only, p->tui->stack_origin, base_name(f.file), f.line);
	else
		snprintf(buf, size, "%s%s", only, p->tui->stack_origin);
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
	if (p->tui->nstack && get(p)->user_only)
		return "no frame of user code in this stack (u: all frames)";
	if (p->tui->stack_origin[0])
		return "no stack recorded for this row";
	return "select a row to see where it was created";
}

static void
stack_done(struct pane *p)
{
	free(p->priv);
}

const struct pane_ops pane_stack_ops = {
	.done = stack_done,
	.row_count = stack_count,
	.draw_row = stack_draw_row,
	.grep = stack_grep,
	.request = stack_request,
	.select = stack_select,
	.title_extra = stack_title,
	.empty = stack_empty,
};
