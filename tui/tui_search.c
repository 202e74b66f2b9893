/*
 * tui_search.c - the search: '/' text, n and N, in every pane and overlay.
 *
 * The regex is compiled once per '/' with smart case (caseless when the
 * text has no capital, as less -i does).  n/N ask the focused pane's find
 * op first (the trace table and the timeline, below), else walk the pane's
 * rows with its grep op (pane_search), resuming a search that ran out of
 * time where it stopped.
 *
 * The trace table and the timeline search through the model's filters.
 * Decoding every row to match its name costs seconds per million rows; the
 * model's filter evaluates a regex once per distinct op and then scans a
 * few bytes per row, so a search over op names and op types (the text
 * these two panes show that can be searched) answers at once even on tens
 * of millions of rows.  The filters are built on the first n after a new
 * search text and kept until the next one.  The search runs inside the
 * current :filter: a match the filter hides is skipped.  A search text
 * "where EXPR" (or "where=EXPR") searches with a condition instead
 * (model_expr.h): the next row it holds for.
 * Not for the other panes: they hold few rows and use pane_search().
 */
#include "tui_internal.h"

#include <stdio.h>
#include <string.h>

#include "reader/base/util.h"

static bool
has_upper(const char *re)
{
	for (const char *s = re; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			return true;
	return false;
}

static pcre2_code *
compile(struct tui *t, const char *re)
{
	int errcode;
	PCRE2_SIZE off;
	uint32_t opts = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;

	if (!has_upper(re))
		opts |= PCRE2_CASELESS;         /* smart case, as less -i does */
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, opts, &errcode, &off, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(errcode, msg, sizeof msg);
		tui_message(t, true, "search: %s at offset %zu", (char *)msg, (size_t)off);
	}
	return code;
}

void
tui_search_next(struct tui *t, int dir)
{
	struct pane *p = t->overlay != OVERLAY_NONE ? &t->overlay_pane : &t->panes[t->focus];
	bool stopped;

	if (t->alert_walk && t->overlay == OVERLAY_NONE && t->focus != PANE_ALERTS) {
		tui_alerts_step(t, dir);        /* after Enter on an alert, until the next '/' */
		return;
	}
	if (tui_tensor_search_next(t, dir))     /* a value in the tensor view */
		return;
	if (!t->search.re) {
		tui_message(t, true, "no search yet: / starts one");
		return;
	}
	if (!p->ops->grep) {
		tui_message(t, true, "the %s pane cannot be searched", p->name);
		return;
	}
	int64_t view;
	uint64_t total;
	if (t->overlay == OVERLAY_NONE && p->ops->find && p->ops->find(p, dir, &view, &total)) {
		if (view < 0)
			tui_message(t, true, "/%s: not found in %s", t->search.text, p->title);
		else
			tui_message(t, false, "/%s: %lld/%llu", t->search.text, (long long)view + 1,
				    (unsigned long long)total);
		return;
	}
	uint64_t n = pane_count(p), scanned;
	uint64_t limit = t->search.scanned < n ? n - t->search.scanned : 0;
	int64_t row = limit ? pane_search(p, t->search.re, dir, limit, &stopped, &scanned) : -1;
	if (row < 0) {
		t->search.scanned = 0;
		p->match = -1;
		tui_message(t, true, "/%s: not found in %s", t->search.text, p->title[0] ? p->title : "this view");
		return;
	}
	pane_goto(p, (uint64_t)row, true, false);
	if (p->ops->flags & PANE_NO_CURSOR)
		p->match = stopped ? -1 : row;
	t->search.scanned = stopped ? t->search.scanned + scanned : 0;
	if (stopped)
		tui_message(t, true, "/%s: still searching, stopped at row %lld (n continues)",
			    t->search.text, (long long)row + 1);
	else
		tui_message(t, false, "/%s: %lld/%llu", t->search.text, (long long)row + 1,
			    (unsigned long long)pane_count(p));
}

void
tui_search_start(struct tui *t, const char *re)
{
	pcre2_code *code = compile(t, re);

	if (!code)
		return;
	tui_search_reset(t);
	t->alert_walk = false;
	pcre2_code_free(t->search.re);
	t->search.re = code;
	t->search.scanned = 0;
	snprintf(t->search.text, sizeof t->search.text, "%s", re);
	t->search.caseless = !has_upper(re);
	if (tui_tensor_search(t, re))
		return;
	tui_search_next(t, 1);
}

void
tui_search_done(struct tui *t)
{
	tui_search_reset(t);
	pcre2_code_free(t->search.re);
	t->search.re = NULL;
}

void
tui_search_reset(struct tui *t)
{
	for (int tab = 0; tab < 2; tab++)
		for (int k = 0; k < SEARCH_FIELDS; k++) {
			model_filter_free(t->search.f[tab][k]);
			t->search.f[tab][k] = NULL;
		}
	t->search.f_failed = false;
}

/* The model compiles without flags: smart case becomes an inline (?i). */
static bool
build(struct tui *t, enum model_table tab)
{
	struct model_filter_spec spec = { .graph = -1, .execution = -1 };
	char re[sizeof t->search.text + 8], err[512];
	int nk = tab == TABLE_TRACES ? SEARCH_FIELDS : 1;   /* executions: the label only */
	bool where = strncmp(t->search.text, "where", 5) == 0 &&
		     (t->search.text[5] == ' ' || t->search.text[5] == '=');

	if (t->search.f[tab][SEARCH_OP_NAME])
		return true;
	if (t->search.f_failed)
		return false;
	snprintf(re, sizeof re, "%s%s", t->search.caseless ? "(?i)" : "", t->search.text);
	if (where)
		nk = 1;
	for (int k = 0; k < nk; k++) {
		spec.op_regex = k == SEARCH_OP_NAME && !where ? re : NULL;
		spec.type_regex = k == SEARCH_OP_TYPE ? re : NULL;
		spec.where = where ? t->search.text + 6 : NULL;
		if (model_filter_new(t->m, &spec, &t->search.f[tab][k], err, sizeof err) != TD_OK) {
			tui_search_reset(t);
			t->search.f_failed = true;
			return false;
		}
	}
	return true;
}

static uint64_t
table_rows(struct tui *t, enum model_table tab)
{
	return tab == TABLE_TRACES ? model_trace_count(t->m) : model_execution_count(t->m);
}

/* Whether r lies past `from` in direction dir, counting the wrap. */
static bool
beyond(int64_t r, int64_t from, int dir, bool wrapped)
{
	if (!wrapped)
		return false;
	return dir > 0 ? r > from : r < from;
}

/* The first row after `from` in direction dir that f matches and the
 * current filter shows, wrapping once; -1 none. */
static int64_t
next_in(struct tui *t, enum model_table tab, struct model_filter *f, int64_t from, int dir)
{
	int64_t n = (int64_t)table_rows(t, tab), pos = from + (dir > 0 ? 1 : -1);
	bool wrapped = false;
	struct model_filter *walk = f, *check = t->filter;

	if (n == 0)
		return -1;
	/* walk the rarer of the two (a search for a common op inside
	 * :filter nonfinite walks the few non-finite rows) */
	if (check && model_filter_count(t->m, check, tab) < model_filter_count(t->m, f, tab)) {
		walk = t->filter;
		check = f;
	}
	for (;;) {
		if (pos >= n || pos < 0) {
			if (wrapped)
				return -1;
			wrapped = true;
			pos = dir > 0 ? 0 : n - 1;
		}
		if (beyond(pos, from, dir, wrapped))
			return -1;
		int64_t r = model_filter_next(t->m, walk, tab, (uint64_t)pos, dir);
		if (r < 0) {
			pos = dir > 0 ? n : -1;
			continue;
		}
		if (beyond(r, from, dir, wrapped))
			return -1;
		if (!check || model_filter_match(t->m, check, tab, (uint64_t)r))
			return r;
		pos = r + (dir > 0 ? 1 : -1);
	}
}

/* Steps from `from` to r in direction dir, going round the table. */
static uint64_t
distance(int64_t r, int64_t from, int dir, uint64_t n)
{
	int64_t d = dir > 0 ? r - from : from - r;
	return d > 0 ? (uint64_t)d : (uint64_t)(d + (int64_t)n);
}

int64_t
tui_search_rows(struct tui *t, enum model_table tab, int64_t from, int dir, bool *ok)
{
	uint64_t n = table_rows(t, tab);
	int64_t best = -1;

	*ok = build(t, tab);
	if (!*ok || n == 0)
		return -1;
	if (from < 0 || (uint64_t)from >= n)
		from = dir > 0 ? -1 : (int64_t)n;
	for (int k = 0; k < SEARCH_FIELDS && t->search.f[tab][k]; k++) {
		int64_t r = next_in(t, tab, t->search.f[tab][k], from, dir);
		if (r >= 0 && (best < 0 || distance(r, from, dir, n) < distance(best, from, dir, n)))
			best = r;
	}
	return best;
}

void
tui_search_restart(struct tui *t)
{
	t->search.scanned = 0;
}
