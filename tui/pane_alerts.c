/*
 * pane_alerts.c - the Alerts pane: alert kinds with counts.
 *
 * One row per (kind, op type) group, as Debugger V2 lists "InfNan: Log x1".
 * Enter jumps to the first row that raised the group's alert; n/N walk the
 * group's other alerts (instead of searching), here and in the pane the
 * jump went to, until the next '/'.  The groups are asked again when the
 * model grows.  With a filter on (:filter, :rank) the groups count only
 * the alerts whose rows the filter shows, so Enter never lands on a hidden
 * row.  The origins of the NaN/Inf lead the list (tui_origins.c) and the
 * watches' hits follow it (tui_watches.c); with two dumps compared, a
 * first line leads with the first divergence instead (pane_diff.c); Enter
 * on such a line goes there.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALERTS_MAX_GROUPS 256
/* Above this many alerts a filter does not recount the groups (a walk over
 * every alert on each change); the title says the counts are unfiltered. */
#define ALERTS_FILTER_MAX 500000

struct alerts {
	struct model_alert_group groups[ALERTS_MAX_GROUPS];
	size_t n;                   /* groups held (total may be larger) */
	size_t total;
	uint64_t shown;             /* alerts the groups count */
	bool filtered;              /* the groups count what the filter shows */
	bool too_many;              /* a filter is on but too many alerts to recount */
	uint64_t for_serial, for_count; /* filter and alert count the groups are for */
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

/* Whether the current filter shows the row of alert al. */
static bool
alert_shown(struct tui *t, const struct model_alert *al)
{
	if (!t->filter || tui_diff(t))
		return true;
	return model_filter_match(t->m, t->filter, al->source == TABLE_TRACES ? TABLE_TRACES : TABLE_EXECUTIONS,
				  al->index);
}

/* The group of (kind, type), looking from hint on; -1 none. */
static int64_t
group_of(const struct alerts *a, const struct model_alert *al, size_t hint)
{
	for (size_t k = 0; k < a->n; k++) {
		const struct model_alert_group *g = &a->groups[(hint + k) % a->n];
		if (!strcmp(g->kind, al->kind) && !strcmp(g->op_type ? g->op_type : "",
							   al->op_type ? al->op_type : ""))
			return (int64_t)((hint + k) % a->n);
	}
	return -1;
}

/* Recounts the groups over the alerts the filter shows; groups left empty
 * go.  One walk over the alerts (model_alert_locate decodes nothing). */
static void
filter_groups(struct pane *p)
{
	struct alerts *a = get(p);
	struct tui *t = p->tui;
	uint64_t na = model_alert_count(t->m), cnt[ALERTS_MAX_GROUPS] = { 0 };
	int64_t first[ALERTS_MAX_GROUPS];
	struct model_alert al;
	size_t hint = 0, n = 0;

	for (size_t g = 0; g < a->n; g++)
		first[g] = -1;
	a->shown = 0;
	for (uint64_t k = 0; k < na; k++) {
		if (!model_alert_locate(t->m, k, &al) || !alert_shown(t, &al))
			continue;
		int64_t g = group_of(a, &al, hint);
		if (g < 0)
			continue;
		hint = (size_t)g;
		if (cnt[g]++ == 0)
			first[g] = (int64_t)k;
		a->shown++;
	}
	for (size_t g = 0; g < a->n; g++) {
		if (!cnt[g])
			continue;
		a->groups[n] = a->groups[g];
		a->groups[n].count = cnt[g];
		a->groups[n++].first = (uint64_t)first[g];
	}
	a->n = n;
	a->filtered = true;
}

static void
alerts_open(struct pane *p)
{
	struct alerts *a = get(p);
	struct tui *t = p->tui;
	uint64_t na = model_alert_count(t->m);

	if (a->filtered && a->for_serial == t->filter_serial && a->for_count == na && t->filter)
		return;                 /* recounted for this filter and these alerts */
	a->total = model_alert_groups(t->m, a->groups, ALERTS_MAX_GROUPS);
	a->n = TD_MIN(a->total, (size_t)ALERTS_MAX_GROUPS);
	a->shown = na;
	a->filtered = a->too_many = false;
	a->for_serial = t->filter_serial;
	a->for_count = na;
	if (t->filter && !tui_diff(t)) {
		if (na <= ALERTS_FILTER_MAX)
			filter_groups(p);
		else
			a->too_many = true;
	}
	if (a->group >= (int64_t)a->n)
		a->group = a->alert = -1;
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

/* The trace row of the op a reader's alert names (an overflow): its output
 * row among the rows the alert's execution owns, else the op's first output
 * row; -1 when the op has no row (issue 12 item 9: the alert then lands on
 * the op with its graph, stack and source, as a NaN alert does). */
static int64_t
alert_op_row(struct tui *t, const struct model_alert *al)
{
	struct model_execution ex;
	struct model_trace tr;
	int64_t op;

	if (al->source != TABLE_EXECUTIONS || !al->detail || !al->op_name || !*al->op_name ||
	    (op = model_op_find(t->m, al->op_name, NULL)) < 0)
		return -1;
	if (model_execution_get(t->m, al->index, &ex) == TD_OK)
		for (uint64_t r = ex.first_trace; r < ex.first_trace + ex.ntraces; r++)
			if (model_trace_get(t->m, r, &tr) == TD_OK && tr.op == (uint32_t)op &&
			    !(tr.flags & ROW_INPUT) && tr.slot == al->slot)
				return (int64_t)r;
	if (model_trace_get(t->m, 0, &tr) == TD_OK && tr.op == (uint32_t)op && !(tr.flags & ROW_INPUT) &&
	    tr.slot == al->slot)
		return 0;
	return model_trace_of_op(t->m, (uint32_t)op, al->slot, 0, 1);      /* the first row > 0 */
}

/* Shows alert number `alert` of the current group in its pane. */
static void
goto_alert(struct pane *p, uint64_t alert)
{
	struct alerts *a = get(p);
	struct model_alert al;
	struct tui *t = p->tui;
	bool shown;

	if (model_alert_get(t->m, alert, &al) != TD_OK) {
		tui_message(t, true, "alert %llu cannot be read", (unsigned long long)alert);
		return;
	}
	a->alert = (int64_t)alert;
	int64_t oprow = alert_op_row(t, &al);
	if (oprow >= 0) {           /* a reader's alert on an op: its row */
		al.source = TABLE_TRACES;
		al.index = (uint64_t)oprow;
	}
	if (al.source == TABLE_TRACES) {
		if ((shown = tui_jump_trace(t, al.index, true)))
			tui_focus(t, PANE_TRACES);
	} else {
		if ((shown = tui_jump_execution(t, al.index, true)))
			tui_focus(t, PANE_TIMELINE);
	}
	t->alert_walk = true;       /* n/N go on with the group where we land */
	if (!shown)                 /* the jump said why (hidden by the filter) */
		return;
	tui_message(t, false, "%s %s: alert %llu of %llu (%s row %llu)%s", al.kind, al.op_type,
		    (unsigned long long)a->nth + 1,
		    (unsigned long long)a->groups[a->group].count,
		    model_table_name(al.source), (unsigned long long)al.index,
		    a->groups[a->group].count > 1 ? "; n/N: next/previous of the group" : "");
}

static void
start_group(struct pane *p, uint64_t row)
{
	struct alerts *a = get(p);

	a->group = (int64_t)row;
	a->nth = 0;
	goto_alert(p, a->groups[row].first);
}

/* The next alert of the group after (dir > 0) or before alert i that the
 * filter shows; -1 none. */
static int64_t
next_shown(struct pane *p, uint64_t i, int dir)
{
	struct tui *t = p->tui;
	struct model_alert al;
	int64_t next = (int64_t)i;

	do {
		next = model_alert_next_in_group(t->m, (uint64_t)next, dir);
	} while (next >= 0 && get(p)->filtered &&
		 (!model_alert_locate(t->m, (uint64_t)next, &al) || !alert_shown(t, &al)));
	return next;
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
	int64_t next = next_shown(p, (uint64_t)a->alert, dir);
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

void
tui_alerts_step(struct tui *t, int dir)
{
	if (get(&t->panes[PANE_ALERTS])->group < 0 && tui_watches_step(t, dir))
		return;                 /* a watch group is walked */
	alerts_step(&t->panes[PANE_ALERTS], dir);
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
	struct alerts *a = get(p);
	uint64_t na = model_alert_count(p->tui->m);
	char w[64];

	if (a->filtered) { /* "of" when it fits beside "[1] Alerts  " */
		int n = snprintf(buf, size, "(%llu of %llu)", (unsigned long long)a->shown, (unsigned long long)na);
		if (n > p->r.w - 12)
			snprintf(buf, size, "(%llu/%llu)", (unsigned long long)a->shown, (unsigned long long)na);
	}
	else if (a->too_many)
		snprintf(buf, size, "(%llu, filter not applied)", (unsigned long long)na);
	else
		snprintf(buf, size, "(%llu)", (unsigned long long)na);
	/* ", 12 hits" only where it fits beside "[1] Alerts  " and the pane's
	 * position: the alert count is never the part cut */
	tui_watches_title(p->tui, w, sizeof w);
	if (*w && strlen(buf) > 1 && strlen(buf) + strlen(w) < size &&
	    (int)(strlen(buf) + strlen(w)) <= p->r.w - 12 - 8) {
		buf[strlen(buf) - 1] = '\0';
		strncat(buf, w, size - strlen(buf) - 2);
		strcat(buf, ")");
	}
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
	if (get(p)->filtered && model_alert_count(p->tui->m))
		return "no alerts in the rows the filter shows (:filter off, :rank all)";
	return "no alerts: no NaN or Inf found";
}

static void
alerts_done(struct pane *p)
{
	free(p->priv);
}

const struct pane_ops pane_alerts_ops = {
	.flags = PANE_EXTRA_FIRST,
	.open = alerts_open,
	.row_count = alerts_count,
	.draw_row = alerts_draw_row,
	.grep = alerts_grep,
	.request = alerts_request,
	.done = alerts_done,
	.title_extra = alerts_title,
	.empty = alerts_empty,
};
