/*
 * pane_alerts.c - the Alerts pane: alert kinds with counts.
 *
 * One row per (kind, op type) group, as Debugger V2 lists "InfNan: Log x1".
 * Enter jumps to the first row that raised the group's alert; n/N walk the
 * group's other alerts (instead of searching).  The groups are asked again
 * when the model grows.  The origins of the NaN/Inf lead the list
 * (tui_origins.c); with two dumps compared, a first line leads with the
 * first divergence instead (pane_diff.c); Enter on such a line goes there.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALERTS_MAX_GROUPS 256

struct alerts {
	struct model_alert_group groups[ALERTS_MAX_GROUPS];
	size_t n;                   /* groups held (total may be larger) */
	size_t total;
	int64_t group;              /* group being walked with n/N, -1 none */
	int64_t alert;              /* current alert number in it */
	uint64_t nth;               /* its position in the group, 0-based */
};

static struct alerts *
get(struct pane *p)
{
	if (!p->priv) {
		struct alerts *a = xcalloc(1, sizeof *a);
		a->group = a->alert = -1;
		p->priv = a;
	}
	return p->priv;
}

/* Rows before the groups: the first divergence's line in the diff layout,
 * else the origins (tui_origins.c). */
static uint64_t
lead(struct pane *p)
{
	return tui_diff(p->tui) ? 1 : tui_origins_lines(p->tui);
}

static void
alerts_open(struct pane *p)
{
	struct alerts *a = get(p);

	a->total = model_alert_groups(p->tui->m, a->groups, ALERTS_MAX_GROUPS);
	a->n = TD_MIN(a->total, (size_t)ALERTS_MAX_GROUPS);
}

static uint64_t
alerts_count(struct pane *p)
{
	return lead(p) + get(p)->n + tui_watches_groups(p->tui);
}

/* The watch group of view row `row`, -1 when the row is not one (the
 * watches' groups follow the NaN/Inf groups). */
static int64_t
watch_group(struct pane *p, uint64_t row)
{
	uint64_t first = lead(p) + get(p)->n;

	return row >= first ? (int64_t)(row - first) : -1;
}

static void
alerts_draw_row(struct pane *p, uint64_t row, int y)
{
	if (row < lead(p)) {
		if (tui_diff(p->tui))
			pane_diff_alert_draw(p, y);
		else
			tui_origins_draw(p, row, y);
		return;
	}
	if (watch_group(p, row) >= 0) {
		tui_watches_draw(p, (uint64_t)watch_group(p, row), y);
		return;
	}
	const struct model_alert_group *g = &get(p)->groups[row - lead(p)];
	char count[32];
	int cw = snprintf(count, sizeof count, "%llu", (unsigned long long)g->count);
	int x = pane_print(p, y, 1, STYLE_ALERT, g->kind, p->r.w / 2);

	pane_print(p, y, x + 2, STYLE_DEFAULT, g->op_type && *g->op_type ? g->op_type : "(unknown op)",
		   p->r.w - x - cw - 5);
	pane_print(p, y, p->r.w - cw - 1, STYLE_ALERT, count, cw);
}

static bool
alerts_grep(struct pane *p, uint64_t row, const pcre2_code *re)
{
	if (row < lead(p))
		return false;
	if (watch_group(p, row) >= 0)
		return tui_watches_grep(p->tui, (uint64_t)watch_group(p, row), re);
	const struct model_alert_group *g = &get(p)->groups[row - lead(p)];
	return pane_match(re, g->kind) || pane_match(re, g->op_type);
}

/* Shows alert number `alert` of the current group in its pane. */
static void
goto_alert(struct pane *p, uint64_t alert)
{
	struct alerts *a = get(p);
	struct model_alert al;
	struct tui *t = p->tui;

	if (model_alert_get(t->m, alert, &al) != TD_OK) {
		tui_message(t, true, "alert %llu cannot be read", (unsigned long long)alert);
		return;
	}
	a->alert = (int64_t)alert;
	if (al.source == TABLE_TRACES) {
		tui_jump_trace(t, al.index, true);
		tui_focus(t, PANE_TRACES);
	} else {
		tui_jump_execution(t, al.index, true);
		tui_focus(t, PANE_TIMELINE);
	}
	tui_message(t, false, "%s %s: alert %llu of %llu (%s row %llu)%s", al.kind, al.op_type,
		    (unsigned long long)a->nth + 1,
		    (unsigned long long)a->groups[a->group].count,
		    model_table_name(al.source), (unsigned long long)al.index,
		    a->nth + 1 < a->groups[a->group].count ? "; n: next" : "");
}

static void
start_group(struct pane *p, uint64_t row)
{
	struct alerts *a = get(p);

	a->group = (int64_t)row;
	a->nth = 0;
	goto_alert(p, a->groups[row].first);
}

/* n/N: the next or previous alert of the walked group (the selected one if
 * none is walked yet), wrapping at the ends. */
static void
alerts_step(struct pane *p, int dir)
{
	struct alerts *a = get(p);
	struct tui *t = p->tui;

	if (a->n == 0)
		return;
	if (a->group < 0 || a->alert < 0) {
		if (p->cursor >= lead(p))
			start_group(p, p->cursor - lead(p));
		return;
	}
	int64_t next = model_alert_next_in_group(t->m, (uint64_t)a->alert, dir);
	const struct model_alert_group *g = &a->groups[a->group];
	if (next < 0) {
		if (dir > 0) {
			a->nth = 0;
			goto_alert(p, g->first);
		} else {
			tui_message(t, false, "first alert of the group");
		}
		return;
	}
	a->nth = dir > 0 ? a->nth + 1 : a->nth - 1;
	goto_alert(p, (uint64_t)next);
}

static enum action
alerts_request(struct pane *p, enum action act)
{
	struct alerts *a = get(p);

	switch (act) {
	case ACT_ENTER:
		if (p->cursor < lead(p) && tui_diff(p->tui))
			tui_diff_goto_first(p->tui);
		else if (p->cursor < lead(p))
			tui_origins_enter(p->tui, p->cursor);
		else if (watch_group(p, p->cursor) >= 0) {
			a->group = -1;      /* n/N walk the watch group now */
			tui_watches_enter(p->tui, (uint64_t)watch_group(p, p->cursor));
		}
		else if (a->n)
			start_group(p, p->cursor - lead(p));
		return ACT_NONE;
	case ACT_GO_ORIGIN:             /* from the selected group's first alert */
		if (p->cursor >= lead(p) && a->n) {
			struct model_alert al;
			if (model_alert_get(p->tui->m, a->groups[p->cursor - lead(p)].first, &al) == TD_OK &&
			    al.source == TABLE_TRACES) {
				tui_goto_origin(p->tui, (int64_t)al.index);
				return ACT_NONE;
			}
		}
		return act;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		if (watch_group(p, p->cursor) >= 0) {
			if (!tui_watches_step(p->tui, act == ACT_SEARCH_NEXT ? 1 : -1))
				tui_watches_enter(p->tui, (uint64_t)watch_group(p, p->cursor));
			return ACT_NONE;
		}
		if (a->group + (int64_t)lead(p) != (int64_t)p->cursor)
			a->alert = -1;
		alerts_step(p, act == ACT_SEARCH_NEXT ? 1 : -1);
		return ACT_NONE;
	default:
		return act;
	}
}

static void
alerts_title(struct pane *p, char *buf, size_t size)
{
	char w[64];

	tui_watches_title(p->tui, w, sizeof w);
	snprintf(buf, size, "(%llu%s)", (unsigned long long)model_alert_count(p->tui->m), w);
}

static const char *
alerts_empty(struct pane *p)
{
	struct model_info info;

	model_info(p->tui->m, &info);
	if (!p->tui->progress.done)
		return "indexing...";
	if (info.tensor_debug_mode && (!strcmp(info.tensor_debug_mode, "SHAPE") ||
				       !strcmp(info.tensor_debug_mode, "NO_TENSOR"))) {
		static char why[128];
		snprintf(why, sizeof why, "no alerts: this dump's mode (%s) records no NaN/Inf",
			 info.tensor_debug_mode);
		return why;
	}
	return "no alerts: no NaN or Inf found";
}

static void
alerts_done(struct pane *p)
{
	free(p->priv);
}

const struct pane_ops pane_alerts_ops = {
	.open = alerts_open,
	.row_count = alerts_count,
	.draw_row = alerts_draw_row,
	.grep = alerts_grep,
	.request = alerts_request,
	.done = alerts_done,
	.title_extra = alerts_title,
	.empty = alerts_empty,
};
