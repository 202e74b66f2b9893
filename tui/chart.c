/*
 * chart.c - the trend view's chart arithmetic (chart.h): scales, dot
 * grids, braille packing, cell text.  Pure functions over numbers and
 * buffers; the curses side is tui_trend.c.
 */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/util.h"

static bool
drawable(double y, bool log)
{
	return isfinite(y) && (!log || y > 0);
}

static double
yval(double y, bool log)
{
	return log ? log10(y) : y;
}

bool
chart_fit(const struct chart_line *lines, size_t n, bool log, struct chart_scale *sc)
{
	bool have_x = false;

	memset(sc, 0, sizeof *sc);
	sc->log = log;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < lines[i].n; k++) {
			double x = lines[i].x[k], y = lines[i].y[k];

			if (isfinite(x)) {
				sc->x0 = have_x ? fmin(sc->x0, x) : x;
				sc->x1 = have_x ? fmax(sc->x1, x) : x;
				have_x = true;
			}
			if (!drawable(y, log))
				continue;
			y = yval(y, log);
			sc->y0 = sc->have_y ? fmin(sc->y0, y) : y;
			sc->y1 = sc->have_y ? fmax(sc->y1, y) : y;
			sc->have_y = true;
		}
	if (sc->x1 <= sc->x0) {                 /* one step: in the middle */
		sc->x0 -= 1;
		sc->x1 += 1;
	}
	if (sc->have_y && sc->y1 <= sc->y0) {   /* a flat line: in the middle */
		double pad = log ? 1 : fabs(sc->y0) > 0 ? fabs(sc->y0) / 2 : 1;
		sc->y0 -= pad;
		sc->y1 += pad;
	}
	return sc->have_y;
}

bool
chart_spans_decades(const struct chart_line *lines, size_t n)
{
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < lines[i].n; k++) {
			double y = lines[i].y[k];
			if (isfinite(y) && y > 0) {
				lo = fmin(lo, y);
				hi = fmax(hi, y);
			}
		}
	return hi > 0 && hi / lo >= 100;
}

int
chart_x_pos(const struct chart_scale *sc, double x, int cols)
{
	double t = (x - sc->x0) / (sc->x1 - sc->x0);
	long c;

	if (cols <= 1 || !isfinite(t))
		return 0;
	c = lround(t * (cols - 1));
	return (int)TD_MAX(0, TD_MIN(c, (long)cols - 1));
}

int
chart_y_pos(const struct chart_scale *sc, double y, int rows)
{
	double t;
	long r;

	if (!sc->have_y || !drawable(y, sc->log) || rows <= 0)
		return -1;
	t = (yval(y, sc->log) - sc->y0) / (sc->y1 - sc->y0);
	if (!isfinite(t))
		return -1;
	r = (rows - 1) - lround(t * (rows - 1));
	return (int)TD_MAX(0, TD_MIN(r, (long)rows - 1));
}

double
chart_y_edge(const struct chart_scale *sc, int edge)
{
	double v = edge ? sc->y0 : sc->y1;

	return sc->log ? pow(10, v) : v;
}

uint8_t
chart_braille_bit(int dx, int dy)
{
	static const uint8_t bits[2][4] = { { 0x01, 0x02, 0x04, 0x40 }, { 0x08, 0x10, 0x20, 0x80 } };

	if (dx < 0 || dx > 1 || dy < 0 || dy > 3)
		return 0;
	return bits[dx][dy];
}

void
chart_braille_text(uint8_t bits, char *buf)
{
	unsigned cp = 0x2800u + bits;

	buf[0] = (char)(0xe0 | (cp >> 12));
	buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	buf[2] = (char)(0x80 | (cp & 0x3f));
	buf[3] = '\0';
}

void
chart_grid_init(struct chart_grid *g, int w, int h, bool utf8)
{
	size_t n;

	g->w = TD_MAX(w, 1);
	g->h = TD_MAX(h, 1);
	g->utf8 = utf8;
	g->dx = utf8 ? 2 : 1;
	g->dy = utf8 ? 4 : 1;
	n = (size_t)g->w * (size_t)g->h;
	g->dots = xcalloc(n, 1);
	g->point = xcalloc(n, 1);
	g->line = xmalloc(n * sizeof *g->line);
	for (size_t i = 0; i < n; i++)
		g->line[i] = -1;
}

void
chart_grid_done(struct chart_grid *g)
{
	free(g->dots);
	free(g->point);
	free(g->line);
	memset(g, 0, sizeof *g);
}

void
chart_grid_dot(struct chart_grid *g, int x, int y, int line)
{
	int cx, cy;
	size_t i;

	if (x < 0 || y < 0 || x >= g->w * g->dx || y >= g->h * g->dy)
		return;
	cx = x / g->dx;
	cy = y / g->dy;
	i = (size_t)cy * (size_t)g->w + (size_t)cx;
	g->dots[i] |= g->utf8 ? chart_braille_bit(x % g->dx, y % g->dy) : 1;
	g->line[i] = (int16_t)line;
}

void
chart_grid_segment(struct chart_grid *g, int x0, int y0, int x1, int y1, int line)
{
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;

	for (;;) {
		chart_grid_dot(g, x0, y0, line);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

void
chart_plot(struct chart_grid *g, const struct chart_scale *sc, const struct chart_line *l, int index)
{
	int cols = g->w * g->dx, rows = g->h * g->dy, px = 0, py = -1;
	/* braille points are whole cells only while they are few (a handful
	 * of steps); dense lines stay thin */
	bool mark = !g->utf8 || l->n * 2 <= (size_t)g->w;

	for (size_t k = 0; k < l->n; k++) {
		int x = chart_x_pos(sc, l->x[k], cols), y = chart_y_pos(sc, l->y[k], rows);

		if (y < 0) {                    /* a gap: the line breaks */
			py = -1;
			continue;
		}
		if (py >= 0)
			chart_grid_segment(g, px, py, x, y, index);
		else
			chart_grid_dot(g, x, y, index);
		size_t i = (size_t)(y / g->dy) * (size_t)g->w + (size_t)(x / g->dx);
		if (mark) {
			g->point[i] = 1;
			g->line[i] = (int16_t)index;
		}
		px = x;
		py = y;
	}
}

void
chart_cell(const struct chart_grid *g, int x, int y, char *buf, size_t size, int *line)
{
	static const char glyphs[] = "*+ox#@%&";
	size_t i;

	*line = -1;
	if (size < 4)
		return;
	snprintf(buf, size, " ");
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return;
	i = (size_t)y * (size_t)g->w + (size_t)x;
	if (!g->dots[i] && !g->point[i])
		return;
	*line = g->line[i];
	if (g->utf8)
		chart_braille_text(g->point[i] ? 0xff : g->dots[i], buf);
	else if (g->point[i])
		snprintf(buf, size, "%c", glyphs[(*line < 0 ? 0 : *line) % (int)(sizeof glyphs - 1)]);
	else
		snprintf(buf, size, ".");
}

void
chart_label(double v, char *buf, size_t size)
{
	if (v == 0)
		v = 0;                          /* no "-0" */
	snprintf(buf, size, "%.3g", v);
}
