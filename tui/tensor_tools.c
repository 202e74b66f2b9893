/*
 * tensor_tools.c - element tools of the tensor overlay: the elements in
 * the --range ranges and the current search match drawn in their styles,
 * the heatmap in colours, '/' for a value (/0, /-3.46, /nan, /inf,
 * /nonfinite) with n and N, and '@' to go to an element ([3,7]).
 *
 * Works on the cells pane_tensor.c recorded (tensor_view.h): the elements
 * the overlay prints.  An element elided from a large tensor is not a
 * cell; '@' on it re-opens the view on a window around it.
 */
#include "tui_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_view.h"

/* The first cell on line or after it (cells are in text order). */
static size_t
first_cell(const struct tui_tensor_view *v, uint64_t line)
{
	size_t lo = 0, hi = v->ncells;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v->cells[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
draw_cells(struct pane *p, struct tui_tensor_view *v, uint64_t row, int y, int hscroll)
{
	const char *line = p->tui->tensor.lines[row];
	char buf[64];

	for (size_t k = first_cell(v, row); k < v->ncells && v->cells[k].line == row; k++) {
		const struct tv_cell *c = &v->cells[k];
		enum style_slot s;
		int x = 1 + (int)c->col - hscroll;

		if ((int64_t)k == v->cur)
			s = STYLE_SEARCH_MATCH;
		else if (v->has_ranges && value_ranges_contains(&v->ranges, td_tensor_get(v->x, c->idx)))
			s = STYLE_RANGE;
		else
			continue;
		if (x < 1 || x >= p->r.w - 1 || c->col + c->len > strlen(line))
			continue;
		snprintf(buf, sizeof buf, "%.*s", (int)c->len, line + c->col);
		pane_print(p, y, x, s, buf, p->r.w - 1 - x);
	}
}

static void
draw_heat(struct pane *p, struct tui_tensor_view *v, uint64_t row, int y, int hscroll)
{
	int r = (int)(row - v->heat_line);

	for (int c = 0; c < v->heat_cols; c++) {
		uint8_t l = v->heat[r * v->heat_cols + c];
		int x = 1 + v->heat_x + c - hscroll;
		unsigned attr = l < THEME_HEAT_LEVELS ? theme_heat(l) : 0;

		if (x < 1 || x >= p->r.w - 1)
			continue;
		if (l >= THEME_HEAT_LEVELS)
			pane_print(p, y, x, STYLE_NONFINITE, tui_heat_char(l), 1);
		else if (attr) {
			wattrset(p->win, attr);
			mvwaddstr(p->win, y, x, tui_heat_char(THEME_HEAT_LEVELS - 1));
		}
	}
}

/* The legend's swatches in the colours of the levels, low to high. */
static void
draw_legend(struct pane *p, struct tui_tensor_view *v, int y, int hscroll)
{
	for (int k = 0; k < v->legend_n; k++) {
		int level = k * (THEME_HEAT_LEVELS - 1) / (v->legend_n > 1 ? v->legend_n - 1 : 1);
		int x = 1 + v->legend_x + k - hscroll;
		unsigned attr = theme_heat(level);

		if (x < 1 || x >= p->r.w - 1 || !attr)
			continue;
		wattrset(p->win, attr);
		mvwaddstr(p->win, y, x, tui_heat_char(THEME_HEAT_LEVELS - 1));
	}
}

void
tui_tensor_draw_row(struct pane *p, uint64_t row, int y, int hscroll)
{
	struct tui_tensor_view *v = p->tui->tview;

	if (!v || !v->x || row >= p->tui->tensor.n)
		return;
	draw_cells(p, v, row, y, hscroll);
	if (v->heat && row >= v->heat_line && row < v->heat_line + (uint64_t)v->heat_rows)
		draw_heat(p, v, row, y, hscroll);
	if (v->legend_n && row == v->legend_line)
		draw_legend(p, v, y, hscroll);
}

/* Scrolls the overlay to cell k and makes it the current one. */
static void
show_cell(struct tui *t, struct tui_tensor_view *v, size_t k)
{
	const struct tv_cell *c = &v->cells[k];
	int w = t->overlay_pane.r.w - 2;

	v->cur = (int64_t)k;
	pane_goto(&t->overlay_pane, c->line > 3 ? c->line - 3 : 0, false, false);
	tui_text_hscroll_to((int)c->col, (int)c->len, w);
}

static void
cell_text(const struct tui_tensor_view *v, size_t k, char *buf, size_t size)
{
	struct strbuf sb = { 0 };
	double x = td_tensor_get(v->x, v->cells[k].idx);

	value_coords(v->x, v->cells[k].idx, &sb);
	if (isnan(x))
		strbuf_adds(&sb, " = nan");
	else if (isinf(x))
		strbuf_adds(&sb, x < 0 ? " = -inf" : " = inf");
	else
		strbuf_addf(&sb, " = %.9g", x);
	snprintf(buf, size, "%s", sb.buf);
	strbuf_done(&sb);
}

/* The view the search walks: its slice of x (NULL: all). */
static bool
domain_view(const struct tui_tensor_view *v, struct td_slice_view *out)
{
	struct td_slice sl;
	char err[256];

	if (v->domain && td_slice_parse(v->domain, &sl, err, sizeof err) != TD_OK)
		return false;
	return td_slice_view(v->x, v->domain ? &sl : NULL, out, err, sizeof err) == TD_OK;
}

static bool
matches(const struct tui_tensor_view *v, const struct td_slice_view *dv, int64_t k)
{
	return value_query_match(&v->q, td_tensor_get(v->x, td_slice_view_index(dv, k)));
}

/* The next match after (dir > 0) or before place `from` of the domain,
 * wrapping once; -1 none. */
static int64_t
next_match(const struct tui_tensor_view *v, const struct td_slice_view *dv, int64_t from, int dir)
{
	int64_t n = td_slice_view_elements(dv);

	for (int64_t i = 1; i <= n; i++) {
		int64_t k = ((from < 0 ? (dir > 0 ? -1 : 0) : from) + (dir > 0 ? i : -i)) % n;
		if (k < 0)
			k += n;
		if (matches(v, dv, k))
			return k;
	}
	return -1;
}

static void show_element(struct tui *t, int64_t idx, const char *what);

bool
tui_tensor_search_next(struct tui *t, int dir)
{
	struct tui_tensor_view *v = t->tview;
	struct td_slice_view dv;
	int64_t k, nth = 0, total = 0, n;
	char what[600];

	if (t->overlay != OVERLAY_TENSOR || !v || !v->searching)
		return false;
	if (!domain_view(v, &dv) || (k = next_match(v, &dv, v->found, dir)) < 0) {
		tui_message(t, true, "/%s: no element matches", t->search.text);
		return true;
	}
	n = td_slice_view_elements(&dv);
	for (int64_t i = 0; i < n; i++)
		if (matches(v, &dv, i)) {
			total++;
			nth += i <= k;
		}
	v->found = k;
	snprintf(what, sizeof what, "/%s: %%s (%lld of %lld)", t->search.text, (long long)nth,
		 (long long)total);
	show_element(t, td_slice_view_index(&dv, k), what);
	return true;
}

bool
tui_tensor_search(struct tui *t, const char *text)
{
	struct tui_tensor_view *v = t->tview;

	if (t->overlay != OVERLAY_TENSOR || !v)
		return false;
	v->searching = v->x && value_query_parse(text, &v->q);
	if (!v->searching)
		return false;
	free(v->domain);
	v->domain = v->slice ? xstrdup(v->slice) : NULL;
	v->found = -1;
	v->cur = -1;
	return tui_tensor_search_next(t, 1);
}

/* A window around element idx of x: 21 wide on the last two axes, one
 * index wide on the others, as a slice text. */
static char *
window_slice(const struct td_tensor *x, int64_t idx)
{
	struct strbuf sb = { 0 };
	int64_t c[TD_MAX_DIMS * 8];

	for (int a = x->rank - 1; a >= 0; a--) {
		c[a] = idx % (x->dims[a] > 0 ? x->dims[a] : 1);
		idx /= x->dims[a] > 0 ? x->dims[a] : 1;
	}
	strbuf_addc(&sb, '[');
	for (int a = 0; a < x->rank; a++) {
		int64_t lo = a >= x->rank - 2 ? TD_MAX(c[a] - 10, 0) : c[a];
		int64_t hi = a >= x->rank - 2 ? c[a] + 11 : c[a] + 1;
		strbuf_addf(&sb, "%s%lld:%lld", a ? ", " : "", (long long)lo, (long long)hi);
	}
	strbuf_addc(&sb, ']');
	return strbuf_take(&sb);
}

static int64_t
find_cell(const struct tui_tensor_view *v, int64_t idx)
{
	for (size_t k = 0; k < v->ncells; k++)
		if (v->cells[k].idx == idx)
			return (int64_t)k;
	return -1;
}

/* Shows element idx of x (re-slicing around it when it is elided or
 * outside the slice, keeping the search) and says what with fmt ("%s" is
 * "[3,7] = 0"). */
static void
show_element(struct tui *t, int64_t idx, const char *fmt)
{
	struct tui_tensor_view *v = t->tview;
	char where[96];
	int64_t k;

	if ((k = find_cell(v, idx)) < 0) {       /* elided or outside the slice */
		struct tui_tensor_view keep = *v;
		char *slice = window_slice(v->x, idx);
		char *ranges = v->range_text ? xstrdup(v->range_text) : NULL;

		v->domain = NULL;               /* moved to the new view */
		tui_show_tensor(t, v->kind, v->index, slice, ranges);
		free(slice);
		free(ranges);
		v = t->tview;
		if (!v || !v->x || (k = find_cell(v, idx)) < 0) {
			free(keep.domain);
			tui_message(t, true, "element not shown");
			return;
		}
		v->searching = keep.searching;
		v->q = keep.q;
		v->domain = keep.domain;
		v->found = keep.found;
	}
	show_cell(t, v, (size_t)k);
	cell_text(v, (size_t)k, where, sizeof where);
	tui_message(t, false, fmt, where);
}

void
tui_tensor_jump(struct tui *t, const char *text)
{
	struct tui_tensor_view *v = t->tview;
	char err[256];
	int64_t idx;

	if (!v || !v->x) {
		tui_message(t, true, "@: this row has no values to go to");
		return;
	}
	if (!value_coords_parse(v->x, text, &idx, err, sizeof err)) {
		tui_message(t, true, "@%s: %s", text, err);
		return;
	}
	show_element(t, idx, "@%s");
}

void
tui_tensor_jump_prompt(struct tui *t)
{
	char *line = prompt_read(t, "@", false);

	if (line && *line)
		tui_tensor_jump(t, line);
	free(line);
}
