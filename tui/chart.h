/*
 * chart.h - the arithmetic of the trend view's line chart, without curses:
 * scaling values to rows and steps to columns, a grid of dots (braille
 * cells of 2x4 dots in a UTF-8 locale, one dot per character cell
 * otherwise), lines between points, and the text of each cell.
 *
 * The caller (tui_trend.c) fits a scale to its lines, plots each line into
 * the grid with its index, then prints cell by cell with the style of the
 * line that drew the cell last.  Not for: axes, legends, colours (the
 * view draws those).
 *
 *	struct chart_scale sc;
 *	struct chart_grid g;
 *	chart_fit(lines, n, log, &sc);
 *	chart_grid_init(&g, 60, 12, utf8);
 *	for (i = 0; i < n; i++)
 *		chart_plot(&g, &sc, &lines[i], i);
 *	... chart_cell(&g, x, y, buf, sizeof buf, &line) per cell ...
 *	chart_grid_done(&g);
 */
#ifndef TD_CHART_H
#define TD_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One line: n points (x ascending); a y that is not finite (or not
 * positive on a log scale) is not drawn and breaks the line. */
struct chart_line {
	const double *x, *y;
	size_t n;
};

struct chart_scale {
	double x0, x1;              /* the x range (first and last step) */
	double y0, y1;              /* the y range (log: of log10 of the values) */
	bool log;                   /* y on a log10 scale */
	bool have_y;                /* some point is drawable */
};

/* Fits the scale to the lines: x over every point, y over the drawable
 * values (log: the positive ones, as log10).  A flat range is widened so
 * that its points sit in the middle.  Returns sc->have_y. */
bool chart_fit(const struct chart_line *lines, size_t n, bool log, struct chart_scale *sc);
/* Whether the positive values span at least two decades (max/min >= 100):
 * a log scale shows them better. */
bool chart_spans_decades(const struct chart_line *lines, size_t n);
/* The column (0..cols-1) of x, rounded to the nearest. */
int chart_x_pos(const struct chart_scale *sc, double x, int cols);
/* The row (0 top .. rows-1 bottom) of y, -1 when it is not drawable. */
int chart_y_pos(const struct chart_scale *sc, double y, int rows);
/* The value at the top (edge 0) or bottom (edge 1) of the scale, for the
 * axis labels (log: 10 to the power). */
double chart_y_edge(const struct chart_scale *sc, int edge);

/* The braille dot bit of dot (dx 0..1, dy 0..3) in a cell (U+2800 + bits:
 * dots 1-2-3 and 7 down the left column, 4-5-6 and 8 down the right). */
uint8_t chart_braille_bit(int dx, int dy);
/* The UTF-8 text of braille cell bits into buf (at least 4 bytes). */
void chart_braille_text(uint8_t bits, char *buf);

struct chart_grid {
	int w, h;                   /* cells */
	int dx, dy;                 /* dots per cell: 2x4 (utf8) or 1x1 */
	bool utf8;
	uint8_t *dots;              /* per cell: braille bits (ASCII: nonzero = a dot) */
	int16_t *line;              /* per cell: the line that drew last, -1 none */
	uint8_t *point;             /* per cell: a point of the data lies in it */
};

/* A grid of w x h cells (at least 1 each), all blank. */
void chart_grid_init(struct chart_grid *g, int w, int h, bool utf8);
void chart_grid_done(struct chart_grid *g);
/* Sets dot (x, y) of the dot plane (0,0 top left) for line; outside is ignored. */
void chart_grid_dot(struct chart_grid *g, int x, int y, int line);
/* Dots from (x0, y0) to (x1, y1) (Bresenham). */
void chart_grid_segment(struct chart_grid *g, int x0, int y0, int x1, int y1, int line);
/* Plots l as line number index: segments between consecutive drawable
 * points; each point's cell is marked (ASCII always; braille while the
 * line has at most a point per two cells, so a handful of steps still
 * shows its points). */
void chart_plot(struct chart_grid *g, const struct chart_scale *sc, const struct chart_line *l,
		int index);
/* The text of cell (x, y) into buf: a space when blank; UTF-8: the braille
 * character, a point's cell all eight dots; ASCII: the line's glyph for a
 * point ("*+ox#@%&" by line), '.' for a dot.  *line gets the line that
 * drew the cell (-1 blank). */
void chart_cell(const struct chart_grid *g, int x, int y, char *buf, size_t size, int *line);

/* A short label for an axis value: "%.3g" ("1.23e+04", "0.5", "-3"). */
void chart_label(double v, char *buf, size_t size);

#endif
