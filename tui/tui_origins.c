/*
 * tui_origins.c - where the NaN/Inf started, on screen.
 *
 * The Alerts pane leads with the origins (model_origins): one line per
 * origin, first in time first ("Origin: Log:0 at row 88, step 74: log of a
 * zero in probs:0"); a dump of several hosts or ranks gets one line per
 * host instead, its first origin (a small per-rank table: host, first bad
 * step, origin op).  Enter on a line (or the go-origin key from any row)
 * selects the origin's trace row, so the graph pane shows its inputs, and
 * marks the propagation path in the trace table.
 *
 * The origins are asked once per model generation and filter, after the
 * index pass (they need every row), and computed off the event loop's
 * critical path: a budget of work per poll (tui_origins_poll, as the
 * watches are checked), so keys stay quick on a dump whose every row is
 * costly; the pane says how far the look got meanwhile.  A filter or rank
 * hides the origins whose rows it hides.  Dump strings
 * are sanitized where they are drawn (pane_print, the message line).
 * Not for: the diff layout (pane_diff.c leads the Alerts pane with the first divergence).
 */
#include "tui_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORIGIN_LINES 8          /* hosts listed at most */
#define ORIGIN_LINES_ONE_HOST 3 /* origins listed at most on one host */
#define ORIGIN_POLL_BUDGET 20000 /* units of work (rows, inputs) per poll */

struct origin_line {
	uint64_t row;               /* the origin's trace row */
	char text[256];             /* raw: pane_print sanitizes */
};

struct tui_origins {
	uint64_t generation;        /* of the model when computed, 0 never */
	uint64_t filter_serial;     /* t->filter_serial they were listed under */
	struct origin_line lines[ORIGIN_LINES];
	size_t n;                   /* lines held */
	size_t total;               /* origins (or hosts) found */
	bool more;                  /* a last line: "N origins in all" */
	bool by_host;
	bool partial;               /* the work budget cut the answer */
	struct model_origins_run *run;  /* the look in progress, NULL none */
	uint64_t *path;             /* marked rows, origin first (owned) */
	size_t npath;
	int64_t marked;             /* the origin whose path is marked, -1 */
};

static struct tui_origins *
get(struct tui *t)
{
	if (!t->origins) {
		t->origins = xcalloc(1, sizeof *t->origins);
		t->origins->marked = -1;
	}
	return t->origins;
}

static void
format_line(const struct model_origin *o, bool by_host, char *buf, size_t size)
{
	char step[32] = "";
	const char *host = o->host && *o->host ? o->host : "?";

	if (o->step >= 0)
		snprintf(step, sizeof step, ", step %lld", (long long)o->step);
	if (by_host)                /* one line of the per-host table */
		snprintf(buf, size, "%s%s: %s:%u (%s) at row %llu: %s", host, step, o->op_name, o->slot,
			 o->op_type, (unsigned long long)o->index, o->cause);
	else
		snprintf(buf, size, "Origin: %s:%u at row %llu%s: %s", o->op_name, o->slot,
			 (unsigned long long)o->index, step, o->cause);
}

/* Starts a new look when the model or the filter changed since the last. */
static void
origins_refresh(struct tui *t)
{
	struct tui_origins *s = get(t);
	struct model_info info;

	if (!t->progress.done ||
	    (s->generation == t->progress.generation + 1 && s->filter_serial == t->filter_serial))
		return;
	s->generation = t->progress.generation + 1;
	s->filter_serial = t->filter_serial;
	s->n = s->total = 0;
	s->more = s->partial = false;
	model_info(t->m, &info);
	s->by_host = info.nhosts > 1;
	struct model_origins_query q = { .step = -1, .per_host = s->by_host ? 1 : 0 };
	model_origins_run_free(s->run);
	s->run = model_origins_run_new(t->m, &q);
}

/* The look is over: its origins become the pane's lines. */
static void
origins_collect(struct tui *t)
{
	struct tui_origins *s = get(t);
	struct model_origins_query q = { .step = -1 };
	struct model_origin_list *l;
	size_t n, max = s->by_host ? ORIGIN_LINES : ORIGIN_LINES_ONE_HOST;

	l = model_origins_run_list(s->run, &q);
	model_origins_run_free(s->run);
	s->run = NULL;
	free(q.reach);
	s->partial = q.partial;
	n = model_origin_list_count(l);
	for (size_t i = 0; i < n; i++) {
		struct model_origin o;
		enum model_table source;
		uint64_t index;
		const char *host;

		model_origin_list_at(l, i, &source, &index, &host);
		if (source != TABLE_TRACES ||
		    (t->filter && !model_filter_match(t->m, t->filter, TABLE_TRACES, index)))
			continue;   /* a filter or rank hides its row */
		s->total++;
		if (s->n == max)
			continue;
		/* only the lines shown are explained (the list keeps numbers) */
		model_origin_list_get(l, i, &o);
		s->lines[s->n].row = index;
		format_line(&o, s->by_host, s->lines[s->n].text, sizeof s->lines[s->n].text);
		model_origin_done(&o);
		s->n++;
	}
	model_origin_list_free(l);
	s->more = s->total > s->n || s->partial;
}

bool
tui_origins_poll(struct tui *t)
{
	struct tui_origins *s = get(t);

	if (tui_diff(t))
		return false;
	origins_refresh(t);
	if (!s->run)
		return false;
	if (model_origins_run_step(s->run, ORIGIN_POLL_BUDGET))
		origins_collect(t);
	return s->run != NULL;
}

uint64_t
tui_origins_lines(struct tui *t)
{
	if (tui_diff(t))
		return 0;
	origins_refresh(t);
	return get(t)->n + (get(t)->more || get(t)->run);
}

void
tui_origins_draw(struct pane *p, uint64_t i, int y)
{
	struct tui_origins *s = get(p->tui);
	char buf[96];

	if (i < s->n) {
		pane_print(p, y, 1, STYLE_ALERT, s->lines[i].text, p->r.w - 2);
	} else if (s->run) {
		uint64_t next, total;

		model_origins_run_where(s->run, &next, &total);
		snprintf(buf, sizeof buf, "origins: looking at row %llu of %llu",
			 (unsigned long long)next, (unsigned long long)total);
		pane_print(p, y, 1, STYLE_DIM, buf, p->r.w - 2);
	} else if (s->more) {
		snprintf(buf, sizeof buf, "%zu %s%s (Enter: list)", s->total,
			 s->by_host ? "hosts with origins" : "origins",
			 s->partial ? ", partial: the work budget ran out" : " in all");
		pane_print(p, y, 1, STYLE_DIM, buf, p->r.w - 2);
	}
}

/* Marks the path of the origin of row in the trace table: from an origin,
 * the rows that carried its bad values on; from any other row, the chain
 * from its origin to the row itself (through calls and variables).
 * Returns the origin row, -1 none. */
static int64_t
mark_path(struct tui *t, uint64_t row, struct model_origin *o)
{
	struct tui_origins *s = get(t);

	free(s->path);
	s->path = NULL;
	s->npath = 0;
	s->marked = -1;
	if (o->role == ORIGIN_FINITE)
		return -1;
	int64_t origin = o->role == ORIGIN_ORIGIN ? (int64_t)row : o->origin;
	struct model_origin oo = {0};
	const struct model_origin *src = o;
	if (origin >= 0 && (uint64_t)origin != row && !o->npath) {
		if (model_why(t->m, (uint64_t)origin, &oo) == TD_OK)
			src = &oo;
	}
	if (src->npath) {
		s->path = xmalloc(src->npath * sizeof *s->path);
		memcpy(s->path, src->path, src->npath * sizeof *s->path);
		s->npath = src->npath;
	}
	s->marked = origin;
	model_origin_done(&oo);
	return origin;
}

static const char *
role_word(enum model_origin_role r)
{
	return r == ORIGIN_CARRIED ? "carried" : r == ORIGIN_REPEAT ? "a repeat" : "a propagation";
}

/* Jumps to the origin of trace row `row`, marking its path. */
static void
goto_origin_of(struct tui *t, uint64_t row)
{
	struct model_origin o = {0};

	if (model_why(t->m, row, &o) != TD_OK) {
		tui_message(t, true, "row %llu cannot be explained yet", (unsigned long long)row);
		return;
	}
	int64_t origin = mark_path(t, row, &o);
	const char *name = o.op_name ? o.op_name : "";
	if (origin < 0 && o.role != ORIGIN_FINITE) {
		tui_message(t, false, "trace %llu (%s): %s; no origin row (%s)", (unsigned long long)row,
			    name, role_word(o.role), o.cause);
	} else if (origin < 0) {
		tui_message(t, false, "trace %llu (%s) holds no NaN/Inf", (unsigned long long)row, name);
	} else if (o.role == ORIGIN_ORIGIN) {
		tui_jump_trace(t, row, true);
		tui_focus(t, PANE_TRACES);
		tui_message(t, false, "origin: %s at row %llu: %s (path marked >)", name,
			    (unsigned long long)row, o.cause);
	} else {
		tui_jump_trace(t, (uint64_t)origin, true);
		tui_focus(t, PANE_TRACES);
		tui_message(t, false, "trace %llu (%s) %s; its origin is row %lld (path marked >)",
			    (unsigned long long)row, name,
			    o.role == ORIGIN_REPEAT ? "repeats a value dumped before" :
			    o.role == ORIGIN_CARRIED ? "holds a value carried in (why: the chain)" :
			    "carries bad inputs",
			    (long long)origin);
	}
	model_origin_done(&o);
}

void
tui_origins_enter(struct tui *t, uint64_t i)
{
	struct tui_origins *s = get(t);

	if (i < s->n)
		goto_origin_of(t, s->lines[i].row);
	else if (s->more && !s->run)
		tui_run_command(t, s->by_host ? "origins --by-host --all" : "origins --all");
}

void
tui_goto_origin(struct tui *t, int64_t trace_row)
{
	if (tui_diff(t)) {
		tui_message(t, false, "go-origin: not in the diff layout (the first divergence leads the Alerts pane)");
		return;
	}
	if (trace_row < 0) {
		tui_message(t, false, "go-origin: select a trace row or an alert first");
		return;
	}
	goto_origin_of(t, (uint64_t)trace_row);
}

char
tui_origins_mark(struct tui *t, uint64_t row)
{
	struct tui_origins *s = t->origins;

	if (!s || !s->npath)
		return 0;
	if (s->marked >= 0 && (uint64_t)s->marked == row)
		return '>';
	for (size_t i = 0; i < s->npath; i++)   /* a path is a few rows long */
		if (s->path[i] == row)
			return '>';
	return 0;
}

void
tui_origins_done(struct tui *t)
{
	if (!t->origins)
		return;
	free(t->origins->path);
	model_origins_run_free(t->origins->run);
	free(t->origins);
	t->origins = NULL;
}
