/*
 * tui_watches.c - the watches' hits in the Alerts pane.
 *
 * The check (model_watch_run) runs in the background of the event loop: a
 * budget of rows per poll, as the index fills the panes, so keys stay
 * quick.  Hits are grouped by watch, then op type, and listed after the
 * NaN/Inf groups ("gradient_vanishing  MatMul  12"); the pane's title
 * shows the check's progress.  Enter on a group goes to its first hit,
 * n/N walk the group's hits, each saying its values against the
 * thresholds.  A change of the watches (the watch command) starts over.
 * Not for: deciding rows (model_watch.c), the text of `watches check`.
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WATCH_POLL_BUDGET 2000      /* rows checked per poll */
#define WATCH_GROUPS_MAX 256

struct watch_group {
	size_t watch;               /* model_watch_at index */
	const char *op_type;        /* borrowed from the model */
	uint64_t count;
	size_t first;               /* index of its first hit in run.hits */
};

struct tui_watches {
	struct model_watch_run run;
	size_t grouped;             /* hits grouped so far */
	struct watch_group groups[WATCH_GROUPS_MAX];
	size_t ngroups;
	int64_t walk_group;         /* group walked with n/N, -1 none */
	size_t walk_hit;            /* current hit in run.hits */
	uint64_t filter_serial;     /* t->filter_serial the groups were made under */
	uint64_t walk_nth;          /* its position in the group, 0-based */
};

static struct tui_watches *
get(struct tui *t)
{
	if (!t->watches) {
		t->watches = xcalloc(1, sizeof *t->watches);
		model_watch_run_init(&t->watches->run, -1);
		t->watches->walk_group = -1;
	}
	return t->watches;
}

static const char *
hit_op_type(struct tui *t, const struct model_watch_hit *h)
{
	struct model_op op;
	struct model_execution x;
	uint32_t id, flags;

	if (h->op_type)
		return h->op_type;
	/* a trace row's op from the index: grouping decodes no row */
	if (h->source == TABLE_TRACES && model_trace_quick(t->m, h->index, &id, &flags) &&
	    model_op_get(t->m, id, &op))
		return op.type ? op.type : "";
	if (h->source == TABLE_EXECUTIONS && model_execution_get(t->m, h->index, &x) == TD_OK)
		return x.op_type;
	return "";
}

/* Whether the current filter (or rank) shows the hit's row. */
static bool
hit_shown(struct tui *t, const struct model_watch_hit *h)
{
	return !t->filter || model_filter_match(t->m, t->filter, h->source, h->index);
}

/* Adds the hits found since the last call to their groups; all of them
 * again when the filter changed. */
static void
group_new_hits(struct tui *t, struct tui_watches *w)
{
	if (w->filter_serial != t->filter_serial) {
		w->filter_serial = t->filter_serial;
		w->grouped = w->ngroups = 0;
		w->walk_group = -1;
	}
	for (; w->grouped < w->run.nhits; w->grouped++) {
		const struct model_watch_hit *h = &w->run.hits[w->grouped];
		const char *type;
		size_t g;

		if (!hit_shown(t, h))
			continue;
		type = hit_op_type(t, h);
		for (g = 0; g < w->ngroups; g++)
			if (w->groups[g].watch == h->watch && !strcmp(w->groups[g].op_type, type))
				break;
		if (g == w->ngroups) {
			if (w->ngroups == WATCH_GROUPS_MAX)
				continue;       /* counted in the title, not listed */
			/* keep watch order, then first-seen op type order */
			for (g = w->ngroups; g > 0 && w->groups[g - 1].watch > h->watch; g--)
				w->groups[g] = w->groups[g - 1];
			w->groups[g] = (struct watch_group){ h->watch, type, 0, w->grouped };
			w->ngroups++;
		}
		w->groups[g].count++;
	}
}

bool
tui_watches_poll(struct tui *t)
{
	struct tui_watches *w = get(t);
	size_t before = w->run.nhits;

	if (tui_diff(t) || w->run.done)
		return false;
	model_watch_run_step(t->m, &w->run, WATCH_POLL_BUDGET);
	if (w->run.nhits != before)
		group_new_hits(t, w);
	return !w->run.done;
}

void
tui_watches_restart(struct tui *t)
{
	struct tui_watches *w = get(t);

	model_watch_run_done(&w->run);
	model_watch_run_init(&w->run, -1);
	w->grouped = w->ngroups = 0;
	w->walk_group = -1;
	w->filter_serial = t->filter_serial;
}

uint64_t
tui_watches_groups(struct tui *t)
{
	if (tui_diff(t))
		return 0;
	group_new_hits(t, get(t));      /* regroups when the filter changed */
	return get(t)->ngroups;
}

void
tui_watches_draw(struct pane *p, uint64_t i, int y)
{
	struct tui_watches *w = get(p->tui);
	struct model_watch mw;
	char count[32];

	if (i >= w->ngroups || !model_watch_at(p->tui->m, w->groups[i].watch, &mw))
		return;
	int cw = snprintf(count, sizeof count, "%llu", (unsigned long long)w->groups[i].count);
	int x = pane_print(p, y, 1, STYLE_ALERT, mw.name, TD_MAX(p->r.w - cw - 12, p->r.w / 2));
	pane_print(p, y, x + 2, STYLE_DEFAULT, *w->groups[i].op_type ? w->groups[i].op_type : "(unknown op)",
		   p->r.w - x - cw - 5);
	pane_print(p, y, p->r.w - cw - 1, STYLE_ALERT, count, cw);
}

bool
tui_watches_grep(struct tui *t, uint64_t i, const pcre2_code *re)
{
	struct tui_watches *w = get(t);
	struct model_watch mw;

	return i < w->ngroups && model_watch_at(t->m, w->groups[i].watch, &mw) &&
	       (pane_match(re, mw.name) || pane_match(re, w->groups[i].op_type));
}

/* "gradient_vanishing MatMul: hit 2 of 12 (trace row 40): abs_mean 3e-12 < 1e-09" */
static void
goto_hit(struct tui *t, struct tui_watches *w, size_t hit, uint64_t nth)
{
	const struct model_watch_hit *h = &w->run.hits[hit];
	const struct watch_group *g = &w->groups[w->walk_group];
	struct model_watch mw;
	char check[512];

	w->walk_hit = hit;
	w->walk_nth = nth;
	model_watch_at(t->m, h->watch, &mw);
	model_watch_hit_describe(h, check, sizeof check);
	if (h->source == TABLE_TRACES) {
		tui_jump_trace(t, h->index, true);
		tui_focus(t, PANE_TRACES);
	} else {
		tui_jump_execution(t, h->index, true);
		tui_focus(t, PANE_TIMELINE);
	}
	tui_message(t, false, "%s %s: hit %llu of %llu (%s row %llu)%s%s", mw.name, g->op_type,
		    (unsigned long long)nth + 1, (unsigned long long)g->count,
		    h->source == TABLE_TRACES ? "trace" : "execution", (unsigned long long)h->index,
		    *check ? ": " : "", check);
}

static bool
in_group(struct tui *t, const struct watch_group *g, const struct model_watch_hit *h)
{
	return h->watch == g->watch && hit_shown(t, h) && !strcmp(hit_op_type(t, h), g->op_type);
}

void
tui_watches_enter(struct tui *t, uint64_t i)
{
	struct tui_watches *w = get(t);

	if (i >= w->ngroups)
		return;
	w->walk_group = (int64_t)i;
	goto_hit(t, w, w->groups[i].first, 0);
	t->alert_walk = true;       /* n/N go on with the group where we land */
}

bool
tui_watches_step(struct tui *t, int dir)
{
	struct tui_watches *w = get(t);

	if (w->walk_group < 0 || (size_t)w->walk_group >= w->ngroups)
		return false;
	const struct watch_group *g = &w->groups[w->walk_group];
	int64_t found = -1;

	if (dir > 0) {
		for (size_t k = w->walk_hit + 1; k < w->run.nhits && found < 0; k++)
			if (in_group(t, g, &w->run.hits[k]))
				found = (int64_t)k;
	} else {
		for (size_t k = w->walk_hit; k-- > g->first && found < 0;)
			if (in_group(t, g, &w->run.hits[k]))
				found = (int64_t)k;
	}
	if (found < 0) {
		tui_message(t, false, dir > 0 ? "last hit of the group" : "first hit of the group");
		return true;
	}
	goto_hit(t, w, (size_t)found, dir > 0 ? w->walk_nth + 1 : w->walk_nth - 1);
	return true;
}

void
tui_watches_title(struct tui *t, char *buf, size_t size)
{
	struct tui_watches *w = get(t);
	uint64_t total = model_trace_count(t->m) + model_execution_count(t->m);
	uint64_t at = w->run.next_trace + w->run.next_exec;

	if (tui_diff(t) || !model_watch_count(t->m))
		buf[0] = '\0';
	else if (!w->run.done)
		snprintf(buf, size, ", watch %llu%%",
			 (unsigned long long)(total ? at * 100 / total : 0));
	else {
		uint64_t n = 0;
		for (size_t g = 0; g < w->ngroups; g++)
			n += w->groups[g].count;
		if (n)
			snprintf(buf, size, ", %llu hit%s", (unsigned long long)n, n == 1 ? "" : "s");
		else
			buf[0] = '\0';  /* no hit (the filter may hide them): nothing */
	}
}

void
tui_watches_done(struct tui *t)
{
	if (!t->watches)
		return;
	model_watch_run_done(&t->watches->run);
	free(t->watches);
	t->watches = NULL;
}
