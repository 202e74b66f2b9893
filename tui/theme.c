/*
 * theme.c - theme text parsing, the compiled-in themes and the search path.
 *
 * Curses-free (the terminal side is theme_apply.c), so the parser is
 * unit-tested without a terminal.  The compiled-in themes are written in
 * the same text format as the files and go through the same parser.
 */
#include "theme.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "reader/base/util.h"

#ifndef TDBG_DATADIR
#define TDBG_DATADIR "/usr/local/share/tdbg"
#endif

#define THEME_FILE_MAX (64 * 1024)

const char *const style_names[STYLE_COUNT] = {
#define TD_STYLE_NAME(id, name, help) name,
	STYLE_INFO(TD_STYLE_NAME)
#undef TD_STYLE_NAME
};

static const char dark_text[] =
	"default        default  default\n"
	"title-focus    black    cyan     bold\n"
	"title-blur     white    color238\n"
	"header         yellow   default  bold\n"
	"selected       white    blue     bold\n"
	"selected-blur  default  color238\n"
	"alert          red      default  bold\n"
	"nonfinite      bright-red default bold\n"
	"link           cyan     default  underline\n"
	"status         black    white\n"
	"status-error   bright-white red  bold\n"
	"prompt         default  default\n"
	"search-match   black    yellow\n"
	"line-number    color244 default\n"
	"highlight-line black    yellow   bold\n"
	"dim            color244 default\n"
	"escape         magenta  default  bold\n"
	"separator      blue     default\n"
	"overlay        default  default\n"
	"overlay-title  black    cyan     bold\n"
	"cell           default  color236\n"
	"histogram      green    default\n"
	"corrupt        magenta  default  bold\n"
	"range          black    green    bold\n";

static const char mono_text[] =
	"default        default default\n"
	"title-focus    default default reverse,bold\n"
	"title-blur     default default reverse\n"
	"header         default default bold\n"
	"selected       default default reverse,bold\n"
	"selected-blur  default default bold,underline\n"
	"alert          default default bold\n"
	"nonfinite      default default bold,underline\n"
	"link           default default underline\n"
	"status         default default reverse\n"
	"status-error   default default reverse,bold\n"
	"prompt         default default\n"
	"search-match   default default standout\n"
	"line-number    default default dim\n"
	"highlight-line default default reverse\n"
	"dim            default default dim\n"
	"escape         default default bold\n"
	"separator      default default\n"
	"overlay        default default\n"
	"overlay-title  default default reverse,bold\n"
	"cell           default default\n"
	"histogram      default default\n"
	"corrupt        default default bold\n"
	"range          default default reverse\n";

static const char *const color_names[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

bool
theme_parse_color(const char *s, short *out)
{
	const char *num = NULL;

	if (!strcasecmp(s, "default")) {
		*out = THEME_DEFAULT_COLOR;
		return true;
	}
	for (int i = 0; i < 8; i++) {
		if (!strcasecmp(s, color_names[i])) {
			*out = (short)i;
			return true;
		}
		if (!strncasecmp(s, "bright-", 7) && !strcasecmp(s + 7, color_names[i])) {
			*out = (short)(i + 8);
			return true;
		}
	}
	if (!strncasecmp(s, "color", 5))
		num = s + 5;
	else if (isdigit((unsigned char)s[0]))
		num = s;
	if (num && *num) {
		char *end;
		long v = strtol(num, &end, 10);
		if (!*end && v >= 0 && v <= 255) {
			*out = (short)v;
			return true;
		}
	}
	return false;
}

static bool
parse_attrs(char *s, unsigned *out, char *bad, size_t badlen)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{ "normal", 0 }, { "bold", THEME_BOLD }, { "dim", THEME_DIM },
		{ "reverse", THEME_REVERSE }, { "underline", THEME_UNDERLINE },
		{ "standout", THEME_STANDOUT },
	};
	char *save = NULL;

	*out = 0;
	for (char *a = strtok_r(s, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < TD_ARRAY_SIZE(names); i++)
			if (!strcasecmp(a, names[i].name))
				break;
		if (i == TD_ARRAY_SIZE(names)) {
			snprintf(bad, badlen, "%s", a);
			return false;
		}
		*out |= names[i].bit;
	}
	return true;
}

static int
slot_from_name(const char *name)
{
	for (int i = 0; i < STYLE_COUNT; i++)
		if (!strcmp(style_names[i], name))
			return i;
	return -1;
}

/* One "SLOT FG BG [ATTRS]" line; false with msg on error. */
static bool
parse_line(char *line, struct theme *t, char *msg, size_t msglen)
{
	char *w[5], *save = NULL, bad[64];
	int n = 0;
	struct style_spec spec = { THEME_DEFAULT_COLOR, THEME_DEFAULT_COLOR, 0 };

	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	for (char *p = strtok_r(line, " \t\r", &save); p && n < 5; p = strtok_r(NULL, " \t\r", &save))
		w[n++] = p;
	if (n == 0)
		return true;
	int slot = slot_from_name(w[0]);
	if (slot < 0)
		return snprintf(msg, msglen, "unknown slot '%s'", w[0]), false;
	if (n < 3 || n > 4)
		return snprintf(msg, msglen, "expected 'SLOT FG BG [ATTRS]'"), false;
	if (!theme_parse_color(w[1], &spec.fg))
		return snprintf(msg, msglen, "unknown colour '%s'", w[1]), false;
	if (!theme_parse_color(w[2], &spec.bg))
		return snprintf(msg, msglen, "unknown colour '%s'", w[2]), false;
	if (n == 4 && !parse_attrs(w[3], &spec.attrs, bad, sizeof bad))
		return snprintf(msg, msglen, "unknown attribute '%s'", bad), false;
	t->slot[slot] = spec;
	return true;
}

static bool
parse_one(void *t, char *line, char *msg, size_t msglen)
{
	return parse_line(line, t, msg, msglen);
}

int
theme_parse(const char *text, struct theme *t, char *err, size_t errlen)
{
	return td_parse_lines(text, parse_one, t, err, errlen);
}

bool
theme_builtin(const char *name, struct theme *t)
{
	char err[128];
	const char *text = !strcmp(name, "dark") ? dark_text : !strcmp(name, "mono") ? mono_text : NULL;

	if (!text)
		return false;
	memset(t, 0, sizeof *t);
	for (int i = 0; i < STYLE_COUNT; i++)
		t->slot[i].fg = t->slot[i].bg = THEME_DEFAULT_COLOR;
	snprintf(t->name, sizeof t->name, "%s", name);
	theme_parse(text, t, err, sizeof err);
	return true;
}

/* The theme directories in search order; returns how many were written. */
static int
theme_dirs(char dirs[][1024], int max)
{
	const char *env = getenv("TDBG_THEMES"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int n = 0;

	if (env && *env && n < max)
		snprintf(dirs[n++], 1024, "%s", env);
	if (n < max)
		snprintf(dirs[n++], 1024, "themes");
	if (xdg && *xdg && n < max)
		snprintf(dirs[n++], 1024, "%s/tdbg/themes", xdg);
	else if (home && *home && n < max)
		snprintf(dirs[n++], 1024, "%s/.local/share/tdbg/themes", home);
	if (n < max)
		snprintf(dirs[n++], 1024, "%s/themes", TDBG_DATADIR);
	return n;
}

static bool
is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool
theme_find(const char *name, char *path, size_t pathlen)
{
	char dirs[4][1024];
	int n;

	if (strchr(name, '/')) {
		snprintf(path, pathlen, "%s", name);
		return is_file(path);
	}
	n = theme_dirs(dirs, 4);
	for (int i = 0; i < n; i++) {
		snprintf(path, pathlen, "%s/%s.theme", dirs[i], name);
		if (is_file(path))
			return true;
	}
	return false;
}

static char *
read_small_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = xmalloc(THEME_FILE_MAX + 1);
	n = fread(buf, 1, THEME_FILE_MAX, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* theme_list's callback: appends name to a ", "-separated list (once). */
static void
add_name(const char *name, void *arg)
{
	struct strbuf *sb = arg;
	size_t n = strlen(name);

	for (const char *p = sb->buf; p && (p = strstr(p, name)); p += n)
		if ((p == sb->buf || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
			return;
	strbuf_addf(sb, "%s%s", sb->len ? ", " : "", name);
}

bool
theme_load(const char *name, struct theme *t, char *err, size_t errlen)
{
	char path[1200], msg[200];
	char *text;
	int bad;

	if (!theme_find(name, path, sizeof path)) {
		if (theme_builtin(name, t))
			return true;
		struct strbuf names = { 0 };
		theme_list(add_name, &names);
		snprintf(err, errlen, "theme '%s' not found; themes: %s (or a .theme file's path)", name,
			 names.buf ? names.buf : "dark, mono");
		strbuf_done(&names);
		return false;
	}
	if (!(text = read_small_file(path, err, errlen)))
		return false;
	theme_builtin(!strcmp(name, "mono") ? "mono" : "dark", t);
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	snprintf(t->name, sizeof t->name, "%.*s", (int)strcspn(base, "."), base);
	bad = theme_parse(text, t, msg, sizeof msg);
	free(text);
	if (bad) {
		snprintf(err, errlen, "%s: %s", path, msg);
		return false;
	}
	return true;
}

void
theme_list(void (*fn)(const char *name, void *arg), void *arg)
{
	char dirs[4][1024];
	int n = theme_dirs(dirs, 4);

	fn("dark", arg);
	fn("mono", arg);
	for (int i = 0; i < n; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			if (len > 6 && !strcmp(e->d_name + len - 6, ".theme")) {
				char name[256];
				snprintf(name, sizeof name, "%.*s", (int)(len - 6), e->d_name);
				fn(name, arg);
			}
		}
		closedir(d);
	}
}
