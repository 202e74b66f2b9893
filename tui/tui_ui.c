/*
 * tui_ui.c - struct cmd_ui for the TUI: how prompt commands (cmd*.c, which
 * know no curses) move the panes: jumps, filters, themes, source, tensors,
 * follow mode, :save-display and :quit.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <string.h>

#include "tui/cmd/cmd.h"

static void
ui_jump(void *ctx, enum model_table kind, uint64_t index)
{
	((struct tui *)ctx)->ui_acted = true;
	struct tui *t = ctx;

	if (kind == TABLE_TRACES) {
		tui_jump_trace(t, index, true);
		tui_focus(t, PANE_TRACES);
	} else {
		tui_jump_execution(t, index, true);
		tui_focus(t, PANE_TIMELINE);
	}
}

static void
ui_show_op(void *ctx, uint32_t op)
{
	((struct tui *)ctx)->ui_acted = true;
	struct tui *t = ctx;

	tui_history_push(t);
	tui_select_op(t, op);
	tui_focus(t, PANE_GRAPH);
}

static void
ui_set_filter(void *ctx, struct model_filter *f)
{
	((struct tui *)ctx)->ui_acted = true;
	tui_set_filter(ctx, f);
}

static bool
ui_set_theme(void *ctx, const char *name, char *err, size_t errlen)
{
	struct tui *t = ctx;
	struct theme th;

	if (!theme_load(name, &th, err, errlen))
		return false;
	t->theme = th;
	theme_apply(&t->theme, t->opt->no_color);
	tui_message(t, false, "theme %s%s", th.name, t->opt->no_color ? " (NO_COLOR: colours off)" : "");
	return true;
}

static void
ui_show_source(void *ctx, uint32_t source, uint32_t line)
{
	((struct tui *)ctx)->ui_acted = true;
	struct tui *t = ctx;
	struct model_source s;

	tui_history_push(t);
	tui_show_source(t, source, line, model_source_get(t->m, source, &s) ? s.path : NULL);
	tui_focus(t, PANE_SOURCE);
}

static void
ui_show_tensor(void *ctx, enum model_table kind, uint64_t index, const char *slice,
	       const char *ranges)
{
	((struct tui *)ctx)->ui_acted = true;
	tui_show_tensor(ctx, kind, index, slice, ranges);
}

static void
ui_follow(void *ctx, bool on)
{
	struct tui *t = ctx;

	t->follow = on;
	tui_message(t, false, "follow mode %s", on ? "on" : "off");
}

static void
ui_save_display(void *ctx, const char *path, char *err, size_t errlen)
{
	struct tui *t = ctx;

	screen_draw(t);
	if (screen_save(t, path, err, errlen))
		tui_message(t, false, "screen saved to %s", path);
}

static void
ui_quit(void *ctx)
{
	((struct tui *)ctx)->quit = true;
}

static void
ui_watches_changed(void *ctx)
{
	tui_watches_restart(ctx);
}

static void
ui_sort(void *ctx, int field, bool desc)
{
	((struct tui *)ctx)->ui_acted = true;
	tui_sort_set(ctx, field, desc);
}

static unsigned
ui_columns(void *ctx, bool set, unsigned mask)
{
	struct tui *t = ctx;

	if (set) {
		t->trace_cols = mask;
		t->ui_acted = true;
	}
	return t->trace_cols;
}

static int64_t
ui_current_trace(void *ctx)
{
	return ((struct tui *)ctx)->sel_trace;
}

const struct cmd_ui *
tui_cmd_ui(struct tui *t)
{
	static struct cmd_ui ui = {
		.jump = ui_jump,
		.show_op = ui_show_op,
		.set_filter = ui_set_filter,
		.set_theme = ui_set_theme,
		.show_source = ui_show_source,
		.show_tensor = ui_show_tensor,
		.follow = ui_follow,
		.save_display = ui_save_display,
		.quit = ui_quit,
		.current_trace = ui_current_trace,
		.watches_changed = ui_watches_changed,
		.sort = ui_sort,
		.columns = ui_columns,
	};

	ui.ctx = t;
	return &ui;
}
