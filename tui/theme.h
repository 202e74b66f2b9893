/*
 * theme.h - themes: text files mapping style slots to colours.
 *
 * A theme file has one line per slot, "SLOT FG BG [ATTR[,ATTR...]]", e.g.
 * "title-focus black cyan bold".  Colours: default, black, red, green,
 * yellow, blue, magenta, cyan, white, bright-<colour>, colorN or N
 * (0..255).  Attributes: normal, bold, dim, reverse, underline, standout.
 * '#' starts a comment.  Slots a file does not name keep the built-in dark
 * theme's style.  "dark" and "mono" are compiled in, so a missing file,
 * NO_COLOR or a terminal without colours still give a usable screen.
 *
 * Files are searched in $TDBG_THEMES, ./themes, $XDG_DATA_HOME/tdbg/themes
 * (default ~/.local/share/tdbg/themes) and TDBG_DATADIR/themes, as
 * NAME.theme; a name holding a '/' is a path.
 */
#ifndef TD_THEME_H
#define TD_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "style.h"

enum theme_attr {
	THEME_BOLD      = 1u << 0,
	THEME_DIM       = 1u << 1,
	THEME_REVERSE   = 1u << 2,
	THEME_UNDERLINE = 1u << 3,
	THEME_STANDOUT  = 1u << 4,
};

#define THEME_DEFAULT_COLOR (-1)

struct style_spec {
	short fg, bg;               /* 0..255 or THEME_DEFAULT_COLOR */
	unsigned attrs;             /* enum theme_attr */
};

struct theme {
	char name[64];
	struct style_spec slot[STYLE_COUNT];
};

/* Slot names as written in theme files ("title-focus"). */
extern const char *const style_names[STYLE_COUNT];

/* Fills t with a compiled-in theme ("dark" or "mono"); false if name is
 * neither. */
bool theme_builtin(const char *name, struct theme *t);

/* Parses theme text over t (slots not named keep their style).  Returns the
 * number of bad lines; the first is described in err ("line 3: unknown
 * colour 'pink'").  Good lines are applied even when others are bad. */
int theme_parse(const char *text, struct theme *t, char *err, size_t errlen);

/* Parses one colour name; returns false if unknown. */
bool theme_parse_color(const char *s, short *out);

/* Finds NAME.theme on the search path (or the path itself); writes the
 * file's path to path.  Returns false if none is found. */
bool theme_find(const char *name, char *path, size_t pathlen);

/* Loads theme name: a compiled-in one when no file is found for "dark" or
 * "mono", else the file parsed over the dark theme.  Returns false with a
 * message in err when the theme does not exist or has bad lines (bad lines
 * are skipped: t is still usable). */
bool theme_load(const char *name, struct theme *t, char *err, size_t errlen);

/* Calls fn with every theme name found on the search path plus the
 * compiled-in ones (names may repeat). */
void theme_list(void (*fn)(const char *name, void *arg), void *arg);

/* ---- curses side (theme_apply.c) ------------------------------------ */

/* Turns t into colour pairs and attributes for the current terminal:
 * colours above what the terminal has are mapped down (256 -> 16 -> 8);
 * without colours or with no_color only the mono attributes are used. */
void theme_apply(const struct theme *t, bool no_color);
/* The curses attributes of a slot (as attr_t), valid after theme_apply(). */
unsigned theme_style(enum style_slot slot);
/* Heatmap colours: the attributes of level 0 (lowest) .. THEME_HEAT_LEVELS-1
 * on a 256-colour terminal with a colour theme; 0 when there are none
 * (mono, NO_COLOR, fewer colours): draw shade characters alone then. */
#define THEME_HEAT_LEVELS 24
unsigned theme_heat(int level);
/* Maps a 256-colour index to the nearest colour of a palette of ncolors
 * (8, 16 or 256); pure, for the tests.  (theme_apply() falls back to the
 * mono attributes where a background is lost on 8 colours.) */
short theme_map_color(short c, int ncolors);

#endif
