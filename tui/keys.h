/*
 * keys.h - the key table: which key runs which action, per scope.
 *
 * A binding is {scope, key, action}; scope is "generic" or a pane name
 * ("alerts", "traces", ...).  The defaults are text ("bind generic j
 * move-down") parsed at start, and more lines can be parsed later to
 * override them, so the help overlay (which walks this table) always shows
 * what the keys really do.  Keys are curses key codes (KEY_DOWN, 'j', 9 for
 * Tab); this module only uses the constants and needs no terminal.
 */
#ifndef TD_KEYS_H
#define TD_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "action.h"

#define KEYMAP_SCOPE_MAX 16

struct keybinding {
	char scope[KEYMAP_SCOPE_MAX];  /* "generic" or a pane name */
	int key;                       /* normalised curses key code */
	enum action action;
};

struct keymap {
	struct keybinding *items;      /* in binding order; owned */
	size_t n, cap;
};

/* The default bindings, one "bind SCOPE KEY ACTION" per line. */
extern const char keymap_default_text[];

/* An empty map; keymap_done() frees it. */
void keymap_init(struct keymap *km);
void keymap_done(struct keymap *km);
/* keymap_init() plus the default bindings. */
void keymap_init_defaults(struct keymap *km);

/* Binds key in scope to action, replacing an earlier binding of the same
 * scope and key. */
void keymap_bind(struct keymap *km, const char *scope, int key, enum action act);

/* Parses one line "bind SCOPE KEY ACTION" (blank lines and '#' comments are
 * accepted and do nothing).  Returns false with a one-line message in err
 * ("unknown action 'foo'") on a bad line; the map is then unchanged. */
bool keymap_parse_line(struct keymap *km, const char *line, char *err, size_t errlen);
/* Parses every line of text; returns the number of bad lines, each named
 * in err on a line of its own ("line 3: unknown key 'C-q'\nline 7: ..."),
 * as many as fit. */
int keymap_parse_text(struct keymap *km, const char *text, char *err, size_t errlen);
/* Whether a key with Meta (M-x) is bound: the reader then gives Esc + x as
 * one key. */
bool keymap_has_meta(const struct keymap *km);

/* The action of key in scope: the scope's own binding first, then the
 * generic one; ACT_NONE if unbound.  scope may be NULL (generic only). */
enum action keymap_lookup(const struct keymap *km, const char *scope, int key);

/* Maps the codes terminals send for the same key to one (Enter: '\r',
 * KEY_ENTER -> '\n'; Backspace: 127, 8 -> KEY_BACKSPACE). */
int keymap_normalize(int key);

/* Parses a key name: a printable character ("j", "?"), "Space", "Tab",
 * "S-Tab", "Enter", "Esc", "Backspace", "Del", "Ins", "Up", "Down", "Left",
 * "Right", "PgUp", "PgDn", "Home", "End", "F1".."F12" (case does not matter;
 * tig's spellings too: "Escape", "PageDown", "Delete", "Insert", "BackTab",
 * "Return", "Lt", "Gt", "Hash"); a control key "^X", "C-x", "Ctrl-x"; a
 * Meta (Alt) key "M-x", "Alt-x" (KEYSEQ_META | x); any of them in <> as
 * tig writes them ("<C-n>").  Returns -1 if unknown. */
int keymap_key_from_name(const char *name);
/* Writes the name of key into buf (always NUL-terminated); returns buf. */
const char *keymap_key_name(int key, char *buf, size_t size);

/* Writes the names of every key bound to act in exactly scope, separated by
 * ", ", into buf; returns the number of keys. */
int keymap_keys_for(const struct keymap *km, const char *scope, enum action act,
		    char *buf, size_t size);

#endif
