/*
 * keys.c - the action table and the key table with its text defaults.
 *
 * Parsing and lookup only; reading keys from the terminal is the event
 * loop's job (tui.c).  The curses header is included for the KEY_*
 * constants alone.
 */
#include "keys.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "keyseq.h"
#include "reader/base/util.h"

const struct action_info action_table[ACT_COUNT] = {
#define TD_ACTION_ROW(id, name, help) { ACT_##id, name, help },
	ACTION_INFO(TD_ACTION_ROW)
#undef TD_ACTION_ROW
};

const char keymap_default_text[] =
	"# Moving\n"
	"bind generic j move-down\n"
	"bind generic Down move-down\n"
	"bind generic k move-up\n"
	"bind generic Up move-up\n"
	"bind generic h move-left\n"
	"bind generic Left move-left\n"
	"bind generic l move-right\n"
	"bind generic Right move-right\n"
	"bind generic PgDn page-down\n"
	"bind generic Space page-down\n"
	"bind generic ^F page-down\n"
	"bind generic PgUp page-up\n"
	"bind generic ^B page-up\n"
	"bind generic g move-first\n"
	"bind generic Home move-first\n"
	"bind generic G move-last\n"
	"bind generic End move-last\n"
	"# Panes\n"
	"bind generic Tab focus-next\n"
	"bind generic S-Tab focus-prev\n"
	"bind generic w cycle-panes\n"
#define TD_PANE_BIND(id, name, key, title, page) "bind generic " key " pane-" #name "\n"
	PANE_INFO(TD_PANE_BIND)
#undef TD_PANE_BIND
	"# Links and history\n"
	"bind generic Enter enter\n"
	"bind generic Backspace back\n"
	"bind generic [ back\n"
	"bind generic ] forward\n"
	"# Search, prompt, overlays\n"
	"bind generic / search\n"
	"bind generic n search-next\n"
	"bind generic N search-prev\n"
	"bind generic : prompt\n"
	"bind generic ? help\n"
	"bind generic F1 help\n"
	"bind generic Esc close\n"
	"bind generic t tensor\n"
	"bind generic O go-origin\n"
	"bind generic H trend\n"
	"bind generic o output\n"
	"bind generic f follow\n"
	"bind generic ^L redraw\n"
	"bind generic q quit\n"
	"bind source L load-source\n"
	"bind stack L load-source\n"
	"bind stack u user-code\n"
	"bind graph z toggle-scopes\n"
	"bind graph x expand\n"
	"bind graph i op-info\n"
	"bind overlay @ jump-element\n"
	"bind overlay c trend-field\n"
	"bind overlay v trend-keep\n"
	"bind overlay L trend-log\n"
	"bind generic m mark\n"
	"bind generic ' mark-jump\n"
	"bind traces s sort-next\n"
	"bind traces S sort-reverse\n";

enum action
action_from_name(const char *name)
{
	for (int i = 0; i < ACT_COUNT; i++)
		if (!strcmp(action_table[i].name, name))
			return (enum action)i;
	return ACT_COUNT;
}

void
keymap_init(struct keymap *km)
{
	memset(km, 0, sizeof *km);
}

void
keymap_done(struct keymap *km)
{
	if (!km)
		return;
	free(km->items);
	memset(km, 0, sizeof *km);
}

void
keymap_init_defaults(struct keymap *km)
{
	char err[128];

	keymap_init(km);
	keymap_parse_text(km, keymap_default_text, err, sizeof err);
}

void
keymap_bind(struct keymap *km, const char *scope, int key, enum action act)
{
	for (size_t i = 0; i < km->n; i++) {
		if (km->items[i].key == key && !strcmp(km->items[i].scope, scope)) {
			km->items[i].action = act;
			return;
		}
	}
	TD_GROW(km->items, km->cap, km->n + 1);
	struct keybinding *b = &km->items[km->n++];
	snprintf(b->scope, sizeof b->scope, "%s", scope);
	b->key = key;
	b->action = act;
}

/* Key names, the first of a key's names is the one shown; the others are
 * tig's and the usual spellings. */
static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Space", ' ' }, { "Tab", '\t' }, { "S-Tab", KEY_BTAB }, { "Enter", '\n' },
	{ "Esc", 27 }, { "Backspace", KEY_BACKSPACE }, { "Del", KEY_DC },
	{ "Up", KEY_UP }, { "Down", KEY_DOWN }, { "Left", KEY_LEFT }, { "Right", KEY_RIGHT },
	{ "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE }, { "Home", KEY_HOME }, { "End", KEY_END },
	{ "Ins", KEY_IC },
	{ "BackTab", KEY_BTAB }, { "ShiftTab", KEY_BTAB }, { "Return", '\n' },
	{ "Escape", 27 }, { "BS", KEY_BACKSPACE }, { "Delete", KEY_DC }, { "Insert", KEY_IC },
	{ "PageUp", KEY_PPAGE }, { "PageDown", KEY_NPAGE }, { "PgDown", KEY_NPAGE },
	{ "Lt", '<' }, { "Gt", '>' }, { "Hash", '#' },
};

/* The key of a name without modifiers: one printable character, a name of
 * key_names, F1..F12; -1 unknown. */
static int
plain_key(const char *name, size_t len)
{
	if (len == 1 && isgraph((unsigned char)name[0]))
		return (unsigned char)name[0];
	for (size_t i = 0; i < TD_ARRAY_SIZE(key_names); i++)
		if (strlen(key_names[i].name) == len && !strncasecmp(key_names[i].name, name, len))
			return key_names[i].key;
	if ((name[0] == 'F' || name[0] == 'f') && len >= 2 && len <= 3) {
		char *end;
		long n = strtol(name + 1, &end, 10);
		if (end == name + len && n >= 1 && n <= 12)
			return KEY_F(n);
	}
	return -1;
}

/* The modifier at the start of name ("C-", "Ctrl-", "M-", "Alt-", "Meta-",
 * "S-" is a name's own): 'C', 'M' or 0; *skip its length. */
static char
modifier(const char *name, size_t *skip)
{
	static const struct { const char *p; char m; } mods[] = {
		{ "C-", 'C' }, { "Ctrl-", 'C' }, { "Control-", 'C' },
		{ "M-", 'M' }, { "Alt-", 'M' }, { "Meta-", 'M' },
	};
	for (size_t i = 0; i < TD_ARRAY_SIZE(mods); i++) {
		size_t n = strlen(mods[i].p);
		if (!strncasecmp(name, mods[i].p, n) && name[n]) {
			*skip = n;
			return mods[i].m;
		}
	}
	return 0;
}

int
keymap_key_from_name(const char *name)
{
	size_t len = strlen(name), skip = 0;
	char mod;
	int key;

	if (len > 2 && name[0] == '<' && name[len - 1] == '>') {  /* tig's <C-x>, <Esc> */
		name++;
		len -= 2;
	}
	if (len == 2 && name[0] == '^' && isalpha((unsigned char)name[1]))
		return toupper((unsigned char)name[1]) - '@';
	if (len == 2 && name[0] == '^' && strchr("@[\\]^_", name[1]))
		return name[1] - '@';
	if (!(mod = modifier(name, &skip)))
		return plain_key(name, len);
	if ((key = plain_key(name + skip, len - skip)) < 0)
		return -1;
	if (mod == 'M')
		return key < 256 ? KEYSEQ_META | key : -1;
	if (key >= 'a' && key <= 'z')          /* C-x, C-X: the control code */
		return key - 'a' + 1;
	if (key >= '@' && key <= '_')
		return key - '@';
	return key == ' ' ? 0 : -1;
}

const char *
keymap_key_name(int key, char *buf, size_t size)
{
	if (key & KEYSEQ_META) {
		char base[16];
		keymap_key_name(key & ~KEYSEQ_META, base, sizeof base);
		snprintf(buf, size, "M-%s", base);
		return buf;
	}
	for (size_t i = 0; i < TD_ARRAY_SIZE(key_names); i++) {
		if (key_names[i].key == key) {
			snprintf(buf, size, "%s", key_names[i].name);
			return buf;
		}
	}
	if (key > ' ' && key < 127)
		snprintf(buf, size, "%c", key);
	else if (key >= 1 && key < 27)
		snprintf(buf, size, "^%c", key + '@');
	else if (key >= KEY_F(1) && key <= KEY_F(12))
		snprintf(buf, size, "F%d", key - KEY_F0);
	else
		snprintf(buf, size, "<%d>", key);
	return buf;
}

int
keymap_normalize(int key)
{
	if (key == '\r' || key == KEY_ENTER)
		return '\n';
	if (key == 127 || key == 8)
		return KEY_BACKSPACE;
	return key;
}

/* Splits line into at most max words separated by blanks. */
static int
split_words(char *line, char **words, int max)
{
	int n = 0;
	char *save = NULL;

	for (char *w = strtok_r(line, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == max)
			return max + 1;
		words[n++] = w;
	}
	return n;
}

/* keymap_parse_line on copy, a writable copy of line (whole: never cut). */
static bool
parse_words(struct keymap *km, char *copy, const char *line, char **w, char *err, size_t errlen)
{
	int n = split_words(copy, w, 4);

	if (n == 0 || w[0][0] == '#')
		return true;
	if (n != 4 || strcmp(w[0], "bind")) {
		snprintf(err, errlen, "expected 'bind SCOPE KEY ACTION': %.80s%s", line,
			 strlen(line) > 80 ? "..." : "");
		return false;
	}
	if (strlen(w[1]) >= KEYMAP_SCOPE_MAX) {
		snprintf(err, errlen, "scope name too long '%s'", w[1]);
		return false;
	}
	int key = keymap_key_from_name(w[2]);
	if (key < 0) {
		snprintf(err, errlen, "unknown key '%s'", w[2]);
		return false;
	}
	enum action act = action_from_name(w[3]);
	if (act == ACT_COUNT) {
		snprintf(err, errlen, "unknown action '%s'", w[3]);
		return false;
	}
	keymap_bind(km, w[1], keymap_normalize(key), act);
	return true;
}

bool
keymap_parse_line(struct keymap *km, const char *line, char *err, size_t errlen)
{
	char *copy = xstrdup(line), *w[5];
	bool ok = parse_words(km, copy, line, w, err, errlen);

	free(copy);
	return ok;
}

int
keymap_parse_text(struct keymap *km, const char *text, char *err, size_t errlen)
{
	int bad = 0, lineno = 0;
	size_t used = 0;

	if (errlen)
		err[0] = '\0';
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len), msg[200];

		lineno++;
		if (!keymap_parse_line(km, line, msg, sizeof msg)) {
			if (used < errlen)
				used += (size_t)snprintf(err + used, errlen - used, "%sline %d: %s",
							 bad ? "\n" : "", lineno, msg);
			bad++;
		}
		free(line);
		p += len + (nl ? 1 : 0);
	}
	return bad;
}

bool
keymap_has_meta(const struct keymap *km)
{
	for (size_t i = 0; i < km->n; i++)
		if (km->items[i].key & KEYSEQ_META)
			return true;
	return false;
}

static const struct keybinding *
find_binding(const struct keymap *km, const char *scope, int key)
{
	for (size_t i = 0; i < km->n; i++)
		if (km->items[i].key == key && !strcmp(km->items[i].scope, scope))
			return &km->items[i];
	return NULL;
}

enum action
keymap_lookup(const struct keymap *km, const char *scope, int key)
{
	const struct keybinding *b = NULL;

	key = keymap_normalize(key);
	if (scope)
		b = find_binding(km, scope, key);
	if (!b)
		b = find_binding(km, "generic", key);
	return b ? b->action : ACT_NONE;
}

int
keymap_keys_for(const struct keymap *km, const char *scope, enum action act,
		char *buf, size_t size)
{
	int n = 0;
	size_t used = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < km->n; i++) {
		const struct keybinding *b = &km->items[i];
		char name[16];

		if (b->action != act || strcmp(b->scope, scope))
			continue;
		keymap_key_name(b->key, name, sizeof name);
		if (used < size)
			used += snprintf(buf + used, size - used, "%s%s", n ? ", " : "", name);
		n++;
	}
	return n;
}
