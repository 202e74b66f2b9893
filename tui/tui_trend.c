/*
 * tui_trend.c - the trend view: a line chart of a trace row's op output
 * over the steps (key H on a trace row), the screen side of `history`.
 *
 * The series come from model_series_get() (one point per step and host);
 * a line is drawn per shown field and host, and in the two-dump diff
 * layout per dump too (A and B on one chart).  The arithmetic (scales,
 * braille or ASCII cells) is tui/chart.c; this file lays out the legend,
 * the y labels (the top and bottom values), the plot, the x axis with the
 * first and last step, a mark row ('!' under NaN/Inf steps, '^' under the
 * step cursor) and the cursor's values.  Keys: h/l (Left/Right) move the
 * step cursor, g/G the first/last step, Enter goes to the cursor step's
 * row, c shows the next field, v keeps the field shown while c moves on,
 * L switches the log scale, q/Esc closes.
 * Not for: rows of executions, or more than TREND_MAX_LINES lines.
 */
#include "tui_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "model/model_diff.h"
#include "model/model_series.h"
#include "tui/cmd/sanitize.h"

#define TREND_MAX_LINES 16
#define LABEL_W 10                  /* y label column, then the axis */

struct trend_line {
	int src;                    /* 0: A (the dump), 1: B (diff layout) */
	const char *host;
	enum model_series_field field;
	double *x, *y;
	bool *bad;
	uint64_t *row;
	size_t n;
};

struct tui_trend {
	struct model_series s[2];   /* the dump's series; the second dump's in the diff layout */
	int nsrc;
	char name[256];             /* "op:slot" */
	enum model_series_field fields[SERIES_FIELD_COUNT];
	size_t nfields, cur;        /* the fields the series carry; the one shown */
	uint32_t keep;              /* 1 << field: fields kept shown (v) */
	bool log;
	bool by_index;              /* some step unknown: x is the point's place */
	double *xs;                 /* the distinct x values, ascending */
	size_t nxs, cursor;
	double origin_x;            /* the step of the row H was pressed on */
	const char *origin_host;
	struct trend_line lines[TREND_MAX_LINES];
	size_t nlines;
	struct chart_grid g;        /* the frame being drawn (rebuilt at row 0) */
	struct chart_scale sc;
};

static const enum style_slot line_styles[] = {
	STYLE_LINK, STYLE_HISTOGRAM, STYLE_RANGE, STYLE_HEADER, STYLE_CELL, STYLE_ALERT,
};

static void
lines_free(struct tui_trend *v)
{
	for (size_t i = 0; i < v->nlines; i++) {
		free(v->lines[i].x);
		free(v->lines[i].y);
		free(v->lines[i].bad);
		free(v->lines[i].row);
	}
	v->nlines = 0;
}

static void
trend_free(struct tui_trend *v)
{
	if (!v)
		return;
	lines_free(v);
	chart_grid_done(&v->g);
	model_series_done(&v->s[0]);
	model_series_done(&v->s[1]);
	free(v->xs);
	free(v);
}

static double
point_x(const struct tui_trend *v, const struct model_series *s, size_t k)
{
	return v->by_index ? (double)k : (double)s->points[k].step;
}

static bool
shown(const struct tui_trend *v, enum model_series_field f)
{
	return f == v->fields[v->cur] || (v->keep & (1u << f));
}

/* One line per (dump, host, shown field), in that order. */
static void
lines_build(struct tui_trend *v)
{
	lines_free(v);
	for (int src = 0; src < v->nsrc; src++) {
		const struct model_series *s = &v->s[src];
		for (size_t k = 0; k < s->n; k++) {
			const char *host = s->points[k].host;
			size_t j;

			for (j = 0; j < k && strcmp(s->points[j].host, host) != 0; j++)
				;
			if (j < k)              /* this host has its lines already */
				continue;
			for (size_t fi = 0; fi < v->nfields; fi++) {
				enum model_series_field f = v->fields[fi];
				struct trend_line *l;

				if (!shown(v, f) || v->nlines == TREND_MAX_LINES)
					continue;
				l = &v->lines[v->nlines++];
				memset(l, 0, sizeof *l);
				l->src = src;
				l->host = host;
				l->field = f;
				l->x = xcalloc(s->n, sizeof *l->x);
				l->y = xcalloc(s->n, sizeof *l->y);
				l->bad = xcalloc(s->n, sizeof *l->bad);
				l->row = xcalloc(s->n, sizeof *l->row);
				for (size_t q = 0; q < s->n; q++) {
					const struct model_series_point *p = &s->points[q];
					if (strcmp(p->host, host) != 0)
						continue;
					l->x[l->n] = point_x(v, s, q);
					l->y[l->n] = (p->known & (1u << f)) ? p->v[f] : NAN;
					l->bad[l->n] = p->nonfinite;
					l->row[l->n++] = p->row;
				}
			}
		}
	}
}

static int
dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The distinct x values of both dumps' points, for the step cursor. */
static void
xs_build(struct tui_trend *v)
{
	size_t n = 0, cap = v->s[0].n + v->s[1].n;

	v->xs = xcalloc(cap ? cap : 1, sizeof *v->xs);
	for (int src = 0; src < v->nsrc; src++)
		for (size_t k = 0; k < v->s[src].n; k++)
			v->xs[n++] = point_x(v, &v->s[src], k);
	td_sort(v->xs, n, sizeof *v->xs, dbl_cmp);
	v->nxs = 0;
	for (size_t k = 0; k < n; k++)
		if (v->nxs == 0 || v->xs[v->nxs - 1] != v->xs[k])
			v->xs[v->nxs++] = v->xs[k];
}

/* The fields some point carries: the preferred ones first, then the rest. */
static void
fields_build(struct tui_trend *v)
{
	uint32_t known = v->s[0].known | v->s[1].known;

	v->nfields = model_series_default_fields(&v->s[0], v->fields, SERIES_FIELD_COUNT);
	if (v->nsrc > 1 && v->nfields == 0)
		v->nfields = model_series_default_fields(&v->s[1], v->fields, SERIES_FIELD_COUNT);
	for (int f = 0; f < SERIES_FIELD_COUNT; f++) {
		size_t k;
		for (k = 0; k < v->nfields && v->fields[k] != (enum model_series_field)f; k++)
			;
		if (k == v->nfields && (known & (1u << f)) && f != SERIES_ELEMENTS)
			v->fields[v->nfields++] = (enum model_series_field)f;
	}
	if (v->nfields == 0 && (known & (1u << SERIES_ELEMENTS)))   /* SHAPE: sizes only */
		v->fields[v->nfields++] = SERIES_ELEMENTS;
}

/* ---- drawing ------------------------------------------------------------ */

/* The plot's size in cells for a pane. */
static void
plot_size(struct pane *p, int *w, int *h)
{
	*w = p->r.w - 2 - LABEL_W - 1;
	*h = pane_height(p) - 5;
}

static void
draw_legend(struct pane *p, struct tui_trend *v, int y)
{
	int x = 1, right = p->r.w - 1;
	bool utf8 = sanitize_utf8();
	char text[160];

	for (size_t i = 0; i < v->nlines && x < right; i++) {
		const struct trend_line *l = &v->lines[i];
		bool hosts = v->s[l->src].nhosts > 1;

		snprintf(text, sizeof text, "%s%s%s%s", v->nsrc > 1 ? (l->src ? "B " : "A ") : "",
			 model_series_field_name(l->field), hosts ? " " : "", hosts ? l->host : "");
		enum style_slot st = line_styles[i % TD_ARRAY_SIZE(line_styles)];

		if (utf8)                       /* two heavy horizontal lines */
			x += pane_print(p, y, x, st, "\xe2\x94\x81\xe2\x94\x81 ", right - x);
		else                            /* the line's point glyph (chart_cell) */
			x += pane_printf(p, y, x, st, right - x, "%c ", "*+ox#@%&"[i % 8]);
		x += pane_print(p, y, x, STYLE_OVERLAY, text, right - x);
		x += pane_print(p, y, x, STYLE_OVERLAY, "   ", right - x);
	}
	if (v->log && x < right)
		pane_print(p, y, x, STYLE_DIM, "(log scale)", right - x);
}

/* The chart rows: y labels and the plot, the cursor's column marked. */
static void
draw_plot(struct pane *p, struct tui_trend *v, const struct chart_scale *sc,
	  const struct chart_grid *g, int row, int y)
{
	bool utf8 = sanitize_utf8();
	char label[32], cell[8];
	int ccol = v->nxs ? chart_x_pos(sc, v->xs[v->cursor], g->w) : -1, line;

	label[0] = '\0';
	if (!sc->have_y && row == g->h / 2) {
		pane_print(p, y, 2 + LABEL_W, STYLE_DIM, v->nfields ? "no value of this field at any step"
				: "the dump's mode records no statistics of this tensor", g->w);
		return;
	}
	if (sc->have_y && row == 0)
		chart_label(chart_y_edge(sc, 0), label, sizeof label);
	else if (sc->have_y && row == g->h - 1)
		chart_label(chart_y_edge(sc, 1), label, sizeof label);
	pane_printf(p, y, 1, STYLE_DIM, LABEL_W, "%*s", LABEL_W - 1, label);
	pane_print(p, y, 1 + LABEL_W, STYLE_DIM,
		   label[0] ? (utf8 ? "\xe2\x94\xa4" : "+") : (utf8 ? "\xe2\x94\x82" : "|"), 1);
	for (int cx = 0; cx < g->w; cx++) {
		chart_cell(g, cx, row, cell, sizeof cell, &line);
		if (line < 0 && cx == ccol)
			pane_print(p, y, 2 + LABEL_W + cx, STYLE_DIM, utf8 ? "\xe2\x94\x8a" : ":", 1);
		else if (line >= 0)
			pane_print(p, y, 2 + LABEL_W + cx, line_styles[line % (int)TD_ARRAY_SIZE(line_styles)],
				   cell, 1);
	}
}

/* Whether a point at the cursor's step holds NaN/Inf. */
static bool
cursor_bad(const struct tui_trend *v)
{
	for (size_t i = 0; i < v->nlines; i++)
		for (size_t k = 0; k < v->lines[i].n; k++)
			if (v->lines[i].bad[k] && v->lines[i].x[k] == v->xs[v->cursor])
				return true;
	return false;
}

/* The x axis ('+' / U+2534 under the row H was pressed on), the marks
 * ('!' NaN/Inf steps, '^' the cursor), the first and last step. */
static void
draw_axis(struct pane *p, struct tui_trend *v, const struct chart_scale *sc, int w, int row, int y)
{
	bool utf8 = sanitize_utf8();
	int x0 = 2 + LABEL_W, ccol = v->nxs ? chart_x_pos(sc, v->xs[v->cursor], w) : -1;
	char a[32], b[32];

	if (row == 0) {
		int ocol = chart_x_pos(sc, v->origin_x, w);
		pane_print(p, y, 1 + LABEL_W, STYLE_DIM, utf8 ? "\xe2\x94\x94" : "+", 1);
		for (int cx = 0; cx < w; cx++)
			pane_print(p, y, x0 + cx, STYLE_DIM,
				   cx == ocol ? (utf8 ? "\xe2\x94\xb4" : "+") : (utf8 ? "\xe2\x94\x80" : "-"), 1);
	} else if (row == 1) {
		for (size_t i = 0; i < v->nlines; i++)
			for (size_t k = 0; k < v->lines[i].n; k++)
				if (v->lines[i].bad[k])
					pane_print(p, y, x0 + chart_x_pos(sc, v->lines[i].x[k], w), STYLE_NONFINITE, "!", 1);
		if (ccol >= 0)                  /* a NaN/Inf step under the cursor stays '!' */
			pane_print(p, y, x0 + ccol, STYLE_SELECTED, cursor_bad(v) ? "!" : "^", 1);
	} else {
		const char *what = v->by_index ? "point" : "step";

		if (!v->nxs)
			return;
		snprintf(a, sizeof a, "%.0f", v->xs[0]);
		snprintf(b, sizeof b, "%.0f", v->xs[v->nxs - 1]);
		pane_printf(p, y, 1, STYLE_DIM, LABEL_W + 1, "%*s", LABEL_W, what);
		pane_print(p, y, x0, STYLE_DIM, a, w);
		if (w > (int)(strlen(a) + strlen(b)) + 1)
			pane_print(p, y, x0 + w - (int)strlen(b), STYLE_DIM, b, (int)strlen(b));
	}
}

/* The cursor step's values, line by line. */
static void
draw_cursor_info(struct pane *p, struct tui_trend *v, int y)
{
	int x = 1, right = p->r.w - 1;
	double cx = v->nxs ? v->xs[v->cursor] : 0;
	bool bad = false;
	char num[48];

	if (!v->nxs)
		return;
	x += pane_printf(p, y, x, STYLE_HEADER, right - x, "%s %.0f:", v->by_index ? "point" : "step", cx);
	for (size_t i = 0; i < v->nlines && x < right; i++) {
		const struct trend_line *l = &v->lines[i];
		for (size_t k = 0; k < l->n; k++) {
			if (l->x[k] != cx)
				continue;
			if (isnan(l->y[k]))
				snprintf(num, sizeof num, "-");
			else
				snprintf(num, sizeof num, "%.6g", l->y[k]);
			x += pane_printf(p, y, x, line_styles[i % TD_ARRAY_SIZE(line_styles)], right - x,
					 "  %s%s %s", v->nsrc > 1 ? (l->src ? "B:" : "A:") : "",
					 model_series_field_name(l->field), num);
			bad |= l->bad[k];
			break;
		}
	}
	if (bad && x < right)
		pane_print(p, y, x, STYLE_NONFINITE, "  NaN/Inf", right - x);
}

static uint64_t
trend_count(struct pane *p)
{
	return (uint64_t)pane_height(p);
}

/* Row 0 the legend, then the plot rows, the axis, marks, step labels and
 * the cursor's values.  The grid is rebuilt for each frame (row 0). */
static void
trend_draw_row(struct pane *p, uint64_t row, int y)
{
	struct tui_trend *v = p->tui->trend;
	struct chart_line cl[TREND_MAX_LINES];
	int w, h;

	if (!v)
		return;
	plot_size(p, &w, &h);
	if (w < 8 || h < 3) {
		if (row == 0)
			pane_print(p, y, 1, STYLE_OVERLAY, "the window is too small for the chart", -1);
		return;
	}
	if (row == 0) {
		for (size_t i = 0; i < v->nlines; i++)
			cl[i] = (struct chart_line){ v->lines[i].x, v->lines[i].y, v->lines[i].n };
		chart_grid_done(&v->g);
		chart_fit(cl, v->nlines, v->log, &v->sc);
		if (v->nxs > 1) {               /* every step, with or without a value */
			v->sc.x0 = v->xs[0];
			v->sc.x1 = v->xs[v->nxs - 1];
		} else if (v->nxs == 1) {
			v->sc.x0 = v->xs[0] - 1;
			v->sc.x1 = v->xs[0] + 1;
		}
		chart_grid_init(&v->g, w, h, sanitize_utf8());
		for (size_t i = 0; i < v->nlines; i++)
			chart_plot(&v->g, &v->sc, &cl[i], (int)i);
		draw_legend(p, v, y);
		return;
	}
	if (!v->g.dots || v->g.w != w || v->g.h != h)
		return;                         /* row 0 was not drawn with this size */
	if (row <= (uint64_t)h)
		draw_plot(p, v, &v->sc, &v->g, (int)row - 1, y);
	else if (row <= (uint64_t)h + 3)
		draw_axis(p, v, &v->sc, w, (int)(row - (uint64_t)h - 1), y);
	else if (row == (uint64_t)h + 4)
		draw_cursor_info(p, v, y);
}

/* ---- keys ------------------------------------------------------------- */

/* Enter: the row of the cursor step, on the host of the row H was pressed
 * on when it has one there, else the first line's. */
static void
trend_enter(struct tui *t, struct tui_trend *v)
{
	double cx = v->xs[v->cursor];
	int64_t row = -1;

	for (int pass = 0; pass < 2 && row < 0; pass++)
		for (size_t i = 0; i < v->nlines && row < 0; i++) {
			const struct trend_line *l = &v->lines[i];

			if (l->src != 0 || (pass == 0 && strcmp(l->host, v->origin_host) != 0))
				continue;
			for (size_t k = 0; k < l->n; k++)
				if (l->x[k] == cx)
					row = (int64_t)l->row[k];
		}
	if (row < 0) {
		tui_message(t, true, "step %.0f has no row of this op in the first dump", cx);
		return;
	}
	tui_close_overlay(t);
	if (tui_diff(t))
		tui_message(t, false, "step %.0f: trace %lld of the first dump", cx, (long long)row);
	else
		tui_jump_trace(t, (uint64_t)row, true);
}

static enum action
trend_request(struct pane *p, enum action act)
{
	struct tui *t = p->tui;
	struct tui_trend *v = t->trend;

	if (!v)
		return act;
	switch (act) {
	case ACT_QUIT:
	case ACT_CLOSE:
		tui_close_overlay(t);
		return ACT_NONE;
	case ACT_MOVE_LEFT:
	case ACT_MOVE_UP:
		if (v->cursor > 0)
			v->cursor--;
		return ACT_NONE;
	case ACT_MOVE_RIGHT:
	case ACT_MOVE_DOWN:
		if (v->cursor + 1 < v->nxs)
			v->cursor++;
		return ACT_NONE;
	case ACT_MOVE_FIRST:
	case ACT_PAGE_UP:
		v->cursor = 0;
		return ACT_NONE;
	case ACT_MOVE_LAST:
	case ACT_PAGE_DOWN:
		v->cursor = v->nxs ? v->nxs - 1 : 0;
		return ACT_NONE;
	case ACT_ENTER:
		if (v->nxs)
			trend_enter(t, v);
		return ACT_NONE;
	case ACT_TREND_FIELD:
		if (v->nfields)
			v->cur = (v->cur + 1) % v->nfields;
		lines_build(v);
		return ACT_NONE;
	case ACT_TREND_KEEP:
		if (v->nfields)
			v->keep ^= 1u << v->fields[v->cur];
		lines_build(v);
		return ACT_NONE;
	case ACT_TREND_LOG:
		v->log = !v->log;
		return ACT_NONE;
	default:
		return act;
	}
}

static void
trend_title(struct pane *p, char *buf, size_t size)
{
	struct tui_trend *v = p->tui->trend;

	snprintf(buf, size,
		 "Trend: %s over %zu %s%s   (h/l step, Enter: its row, c: field, v: keep, L: log, q closes)",
		 v ? v->name : "", v ? v->nxs : 0, v && v->by_index ? "points" : "steps",
		 v && v->log ? ", log" : "");
}

static const struct pane_ops pane_trend_ops = {
	.name = "overlay",
	.title = "Trend",
	.flags = PANE_NO_CURSOR | PANE_NO_POSITION,
	.row_count = trend_count,
	.draw_row = trend_draw_row,
	.request = trend_request,
	.title_extra = trend_title,
};

/* ---- opening ----------------------------------------------------------- */

/* The row the H key means: in the diff layout the pair under the trace
 * table's cursor (its first dump's row), else the trace table's row under
 * the cursor when it has the focus, else the selected trace. */
static bool
trend_target(struct tui *t, uint64_t *row)
{
	struct model_diff *d = tui_diff(t);
	struct model_diff_pair q;

	if (d && t->focus == PANE_TRACES) {
		if (model_diff_pair_get(d, t->panes[PANE_TRACES].cursor, &q) != TD_OK ||
		    q.a_index >= model_trace_count(t->m))
			return false;
		*row = (uint64_t)q.a_index;
		return true;
	}
	if (t->focus == PANE_TRACES && t->panes[PANE_TRACES].shown) {   /* the row under the cursor */
		int64_t r = tui_view_to_row(t, TABLE_TRACES, t->panes[PANE_TRACES].cursor);
		if (r >= 0) {
			*row = (uint64_t)r;
			return true;
		}
	}
	if (t->sel_trace < 0)
		return false;
	*row = (uint64_t)t->sel_trace;
	return true;
}

/* The x of row's step (the point of its step, or the row's own point). */
static double
origin_x(struct tui *t, const struct tui_trend *v, uint64_t row)
{
	int64_t st = v->by_index ? -1 : model_trace_step(t->m, row);

	for (size_t k = 0; k < v->s[0].n; k++)
		if (v->s[0].points[k].row == row || (st >= 0 && v->s[0].points[k].step == st))
			return point_x(v, &v->s[0], k);
	return v->nxs ? v->xs[0] : 0;
}

/* The log scale at first: for a magnitude (norm, abs_mean, std) whose
 * values span decades; never for signed values or counts. */
static bool
log_first(const struct tui_trend *v)
{
	struct chart_line cl[TREND_MAX_LINES];
	enum model_series_field f;

	if (!v->nfields)
		return false;
	f = v->fields[v->cur];
	if (f != SERIES_L2NORM && f != SERIES_ABS_MEAN && f != SERIES_STD)
		return false;
	for (size_t i = 0; i < v->nlines; i++)
		cl[i] = (struct chart_line){ v->lines[i].x, v->lines[i].y, v->lines[i].n };
	return chart_spans_decades(cl, v->nlines);
}

void
tui_show_trend(struct tui *t)
{
	struct model_diff *d = tui_diff(t);
	struct tui_trend *v;
	struct model_trace tr;
	uint64_t row;

	if (!trend_target(t, &row) || model_trace_get(t->m, row, &tr) != TD_OK) {
		tui_message(t, true, "no trace row selected (the trend view charts a trace row's op over the steps)");
		return;
	}
	if (tr.flags & ROW_INPUT) {
		tui_message(t, true, "trace %llu is an input of %s: select its producer's row for its trend",
			    (unsigned long long)row, tr.op_name);
		return;
	}
	v = xcalloc(1, sizeof *v);
	v->nsrc = 1;
	model_series_get(t->m, tr.op, tr.slot, NULL, &v->s[0]);
	if (d && model_diff_b(d) != t->m) {
		int64_t ob = model_op_find(model_diff_b(d), tr.op_name, NULL);
		v->nsrc = 2;
		if (ob >= 0)
			model_series_get(model_diff_b(d), (uint32_t)ob, tr.slot, NULL, &v->s[1]);
	}
	snprintf(v->name, sizeof v->name, "%s:%u", tr.op_name, tr.slot);
	for (int src = 0; src < v->nsrc; src++)
		for (size_t k = 0; k < v->s[src].n; k++)
			v->by_index |= v->s[src].points[k].step < 0;
	fields_build(v);
	xs_build(v);
	lines_build(v);
	v->origin_host = tr.host ? tr.host : "";
	v->origin_x = origin_x(t, v, row);
	for (size_t k = 0; k < v->nxs; k++)
		if (v->xs[k] == v->origin_x)
			v->cursor = k;
	v->log = log_first(v);
	trend_free(t->trend);
	t->trend = v;
	t->overlay = OVERLAY_TREND;
	t->overlay_pane.ops = &pane_trend_ops;
	t->overlay_pane.cursor = t->overlay_pane.top = 0;
	t->overlay_pane.match = -1;
	t->need_relayout = true;
}

void
tui_trend_done(struct tui *t)
{
	trend_free(t->trend);
	t->trend = NULL;
}
