/*
 * theme_apply.c - turns a theme into curses colour pairs and attributes.
 *
 * One colour pair per slot.  Colours beyond what the terminal offers are
 * mapped to the nearest of the 16 (or 8) xterm colours; with NO_COLOR or a
 * terminal without colours the compiled-in mono theme's attributes are
 * used instead, so selection and alerts stay visible.
 */
#include "theme.h"

#include <curses.h>
#include <limits.h>
#include <string.h>

static attr_t slot_attr[STYLE_COUNT];
static attr_t heat_attr[THEME_HEAT_LEVELS];   /* 0: no colour heatmap */

/* A dark-blue -> cyan -> green -> yellow -> red ramp of the xterm 256
 * palette, low values first. */
static const short heat_ramp[THEME_HEAT_LEVELS] = {
	17, 18, 19, 20, 21, 27, 33, 39, 45, 51, 50, 49,
	48, 47, 46, 82, 118, 154, 190, 226, 220, 214, 208, 196,
};

/* One pair per heat level after the slots' pairs, on 256-colour terminals
 * with colours on and a theme that has colours (not mono). */
static void
heat_apply(const struct theme *t, int ncolors)
{
	for (int k = 0; k < THEME_HEAT_LEVELS; k++)
		heat_attr[k] = 0;
	if (ncolors < 256 || strcmp(t->name, "mono") == 0 ||
	    STYLE_COUNT + 1 + THEME_HEAT_LEVELS >= COLOR_PAIRS)
		return;
	for (int k = 0; k < THEME_HEAT_LEVELS; k++) {
		short pair = (short)(STYLE_COUNT + 1 + k);
		init_pair(pair, heat_ramp[k], theme_map_color(t->slot[STYLE_OVERLAY].bg, ncolors));
		heat_attr[k] = COLOR_PAIR(pair);
	}
}

/* The xterm palette of the first 16 colours. */
static const unsigned char basic_rgb[16][3] = {
	{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
	{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
	{ 127, 127, 127 }, { 255, 0, 0 }, { 0, 255, 0 }, { 255, 255, 0 },
	{ 92, 92, 255 }, { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
};

static void
color_rgb(short c, int rgb[3])
{
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };

	if (c < 16) {
		for (int i = 0; i < 3; i++)
			rgb[i] = basic_rgb[c][i];
	} else if (c < 232) {
		rgb[0] = level[(c - 16) / 36];
		rgb[1] = level[(c - 16) / 6 % 6];
		rgb[2] = level[(c - 16) % 6];
	} else {
		rgb[0] = rgb[1] = rgb[2] = 8 + 10 * (c - 232);
	}
}

short
theme_map_color(short c, int ncolors)
{
	int rgb[3], best = 0, best_d = INT_MAX;

	if (c < 0 || ncolors >= 256 || c < ncolors)
		return c;
	if (ncolors < 16 && c < 16)
		return (short)(c - 8);
	color_rgb(c, rgb);
	for (int i = 0; i < 16; i++) {
		int d = 0;
		for (int k = 0; k < 3; k++)
			d += (rgb[k] - basic_rgb[i][k]) * (rgb[k] - basic_rgb[i][k]);
		if (d < best_d) {
			best_d = d;
			best = i;
		}
	}
	return ncolors < 16 ? theme_map_color((short)best, ncolors) : (short)best;
}

static attr_t
curses_attrs(unsigned a)
{
	attr_t r = A_NORMAL;

	if (a & THEME_BOLD)
		r |= A_BOLD;
	if (a & THEME_DIM)
		r |= A_DIM;
	if (a & THEME_REVERSE)
		r |= A_REVERSE;
	if (a & THEME_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & THEME_STANDOUT)
		r |= A_STANDOUT;
	return r;
}

void
theme_apply(const struct theme *t, bool no_color)
{
	struct theme mono;
	int ncolors;

	if (no_color || !has_colors() || COLORS < 8) {
		theme_builtin("mono", &mono);
		for (int i = 0; i < STYLE_COUNT; i++)
			slot_attr[i] = curses_attrs(mono.slot[i].attrs);
		heat_apply(t, 0);
		return;
	}
	ncolors = COLORS >= 256 ? 256 : COLORS >= 16 ? 16 : 8;
	theme_builtin("mono", &mono);
	for (int i = 0; i < STYLE_COUNT && i + 1 < COLOR_PAIRS; i++) {
		short fg = theme_map_color(t->slot[i].fg, ncolors);
		short bg = theme_map_color(t->slot[i].bg, ncolors);
		unsigned attrs = t->slot[i].attrs;
		/* a grey background that became black (or the text's own colour)
		 * no longer marks anything: use the mono attributes instead */
		if (ncolors < 16 && t->slot[i].bg > 0 && (bg == 0 || bg == fg)) {
			bg = THEME_DEFAULT_COLOR;
			attrs |= mono.slot[i].attrs;
			if (fg == 0 || fg == 7)
				fg = THEME_DEFAULT_COLOR;
		}
		/* grey text that became black on the default background: the
		 * terminal's own colour with the mono attributes (dim) */
		if (ncolors < 16 && t->slot[i].fg > 0 && fg == 0 && bg <= 0) {
			fg = THEME_DEFAULT_COLOR;
			attrs |= mono.slot[i].attrs;
		}
		init_pair((short)(i + 1), fg, bg);
		slot_attr[i] = COLOR_PAIR(i + 1) | curses_attrs(attrs);
	}
	heat_apply(t, ncolors);
}

unsigned
theme_heat(int level)
{
	return level >= 0 && level < THEME_HEAT_LEVELS ? (unsigned)heat_attr[level] : 0;
}

unsigned
theme_style(enum style_slot slot)
{
	return (unsigned)slot_attr[slot < STYLE_COUNT ? slot : STYLE_DEFAULT];
}
