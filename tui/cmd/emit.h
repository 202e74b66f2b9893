/*
 * emit.h - one result, two forms: a command builds its answer once through
 * the emitter, which writes it as JSON (batch --json) or as aligned text for
 * people, the way redis writes one reply for both of its protocols.
 *
 * The calls describe JSON: objects, arrays, keys and values.  The JSON
 * backend passes them to json.h unchanged (byte for byte what json.c
 * writes).  The text backend lays the same tree out for a terminal:
 *
 *   object     a block of "label  value" lines, labels padded to the widest
 *              label of the run of lines plus two spaces
 *   table      an array of objects shown as columns, one row per object,
 *              a header line before the first row; rows stream (each is
 *              written when it ends), so tables may be millions of rows
 *   list       an array of scalars: "a, b, c" on the line of its label
 *   scalar     a string from the dump passes through sanitize() on its own
 *              (a newline in an op name becomes "^J": it can never start a
 *              row of its own); NULL and "" show as "-", null as "-",
 *              booleans as yes/no, numbers as json.h writes them; a
 *              null result on its own (no key, not nested) shows nothing:
 *              say why with emit_note()
 *
 * A container nested in an object (an object, or a table) starts on a line
 * of its own: its label as a heading, then its lines indented two columns
 * (a label "" in the schema drops the heading and the indent).  A list
 * nested in a table row becomes that row's cell; an object nested in a row
 * or in a scalar list is JSON only.
 *
 * What text shows is declared, not coded twice: an object or table takes
 * a schema, a list of fields { key, label, width, flags } terminated by a
 * { NULL } entry.  In an object the schema only renames (label) or hides
 * (EMIT_HIDE: JSON only) members; members it does not list show under
 * their key.  In a table the schema is the columns, in order; members it
 * does not list are JSON only.  Text-only lines (a count, "... 12 more")
 * come from emit_note(), emit_text_kv() and emit_lines(); they write
 * nothing in JSON.  A column no JSON member fills (a mark such as "!")
 * takes its cell from emit_text_kv() in the row.
 *
 * A result whose text is prose rather than blocks and tables ("trace",
 * "op", "stack", "help") takes the schema emit_json_only: its members are
 * JSON only, and its text comes from emit_textf() lines written in the
 * same pass, at the point of the member they show.
 *
 * Worked example (the graphs command, shortened):
 *
 *	static const struct emit_field graph_cols[] = {
 *		{ "index", NULL, -5, 0 },        // right-aligned, 5 columns
 *		{ "graph_id", NULL, 38, 0 },
 *		{ "ops", NULL, 0, 0 },           // width 0: last column, not padded
 *		{ NULL },
 *	};
 *	struct emit e;
 *
 *	emit_init(&e, env->out, env->json);
 *	emit_table_begin(&e, graph_cols);
 *	for (each graph g) {
 *		emit_object_begin(&e, NULL);     // a row: uses the table's schema
 *		emit_kv_uint(&e, "index", g.index);
 *		emit_kv_str(&e, "graph_id", g.graph_id);
 *		emit_kv_uint(&e, "ops", g.nops);
 *		emit_object_end(&e);
 *		cmd_maybe_flush(env);            // rows are in env->out already
 *	}
 *	emit_table_end(&e);
 *	emit_done(&e);
 *
 * JSON: [{"index":0,"graph_id":"bcfb...","ops":9},...]
 * text: index  graph_id                                ops
 *           0  bcfbb050-acab-1a6b-c69d-4bd8b3fa7aa7    9
 *
 * Keys and strings are copied when needed: nothing passed in must outlive
 * the call.  Misuse (a value without a key in an object, unbalanced ends)
 * never crashes: it is dropped in text and json_ok() says so in JSON.
 * Curses-free.
 */
#ifndef TD_EMIT_H
#define TD_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"
#include "reader/base/tensor.h"
#include "reader/base/util.h"

enum emit_field_flags {
	EMIT_HIDE = 1u << 0,        /* JSON only: text shows nothing of it */
	EMIT_TAIL = 1u << 1,        /* a cut cell keeps its end (scoped op names) */
	EMIT_TABS = 1u << 2,        /* text: tabs expand to 8-column stops (source lines) */
	EMIT_SCOPE = 1u << 3,       /* a cut cell keeps its first scope and its end
				       ("Default/…/MatMul-op10", cmd_cell_name) */
};

/* One member as text shows it.  A table column's width: > 0 pads and cuts
 * to that many columns (at least the label's), < 0 the same right-aligned,
 * 0 neither (the last column).  Objects ignore width. */
struct emit_field {
	const char *key;            /* JSON key */
	const char *label;          /* text label / column header; NULL: the key */
	int width;
	unsigned flags;             /* enum emit_field_flags */
};

#define EMIT_MAX_DEPTH 32

enum emit_frame_kind {
	EMIT_ROOT,
	EMIT_OBJECT,                /* label/value block */
	EMIT_TABLE,                 /* rows as columns */
	EMIT_ROW,                   /* an object inside a table */
	EMIT_LIST,                  /* scalars joined */
};

struct emit_frame {
	enum emit_frame_kind kind;
	bool hidden;                /* text: everything inside is dropped */
	bool have_key;              /* a key was given, its value is next */
	bool heading;               /* object: the heading line is owed */
	int indent;                 /* text: columns before each line */
	int label_width;            /* object: minimum label column */
	size_t count;               /* values / rows so far */
	const struct emit_field *schema;
	struct strbuf head;         /* the heading line owed (display text) */
	struct strbuf key;          /* the pending key */
	struct strbuf buf;          /* object: "label\0value\0" pairs; row:
				       "key\0value\0" pairs; list: joined text */
};

struct emit {
	bool json;                  /* which backend */
	struct json j;              /* JSON backend */
	struct strbuf *out;
	int depth;                  /* f[0] is the root */
	int over;                   /* text: begins past EMIT_MAX_DEPTH not yet ended */
	struct emit_frame f[EMIT_MAX_DEPTH];
};

/* The schema of an object or table that is JSON only: nothing of it shows
 * in text but the emit_textf() lines written inside it. */
extern const struct emit_field emit_json_only[];

/* Starts a result appended to out: JSON when json, else text. */
void emit_init(struct emit *e, struct strbuf *out, bool json);
/* Frees what the emitter holds (out is not touched).  Returns true when every
 * begin had its end (and, in JSON, json_ok()). */
bool emit_done(struct emit *e);

/* The JSON writer in JSON mode (for values the emitter has no call for,
 * such as tensor data), NULL in text mode. */
struct json *emit_json(struct emit *e);

/* ---- containers ------------------------------------------------------- */

/* An object; schema may be NULL.  Inside a table it is a row and uses the
 * table's schema (schema is ignored). */
void emit_object_begin(struct emit *e, const struct emit_field *schema);
void emit_object_end(struct emit *e);
/* An array of objects shown as the columns of schema. */
void emit_table_begin(struct emit *e, const struct emit_field *schema);
void emit_table_end(struct emit *e);
/* An array of scalars. */
void emit_list_begin(struct emit *e);
void emit_list_end(struct emit *e);

/* The minimum label column of the current object's text block (label plus
 * spaces), for a block whose layout scripts rely on ("info"). */
void emit_label_width(struct emit *e, int width);

/* ---- keys and values -------------------------------------------------- */

/* The key of the next member of an object. */
void emit_key(struct emit *e, const char *key);

void emit_null(struct emit *e);
void emit_bool(struct emit *e, bool v);
void emit_int(struct emit *e, int64_t v);
void emit_uint(struct emit *e, uint64_t v);
/* Shortest round-trip form (json_double / json_float); NaN, Inf as json.h. */
void emit_double(struct emit *e, double v);
/* A string, usually from the dump: JSON string (NULL is null); text
 * sanitized, NULL or "" as "-". */
void emit_str(struct emit *e, const char *s);
/* A tensor summary: JSON the summary object (see cmd_json_summary), text
 * the compact form ("float32[1000] -inf=1 nan=0 ..."). */
void emit_summary(struct emit *e, const struct td_summary *s);

/* Shortcuts: key, then value. */
void emit_kv_null(struct emit *e, const char *key);
void emit_kv_bool(struct emit *e, const char *key, bool v);
void emit_kv_int(struct emit *e, const char *key, int64_t v);
void emit_kv_uint(struct emit *e, const char *key, uint64_t v);
void emit_kv_double(struct emit *e, const char *key, double v);
void emit_kv_str(struct emit *e, const char *key, const char *s);
void emit_kv_summary(struct emit *e, const char *key, const struct td_summary *s);
/* An integer, or null when v < 0 (row numbers that may be missing). */
void emit_kv_index(struct emit *e, const char *key, int64_t v);
/* The counts nan, neg_inf, pos_inf, elements as members (null when not
 * known); text shows the compact summary under the key "summary" instead. */
void emit_counts(struct emit *e, const struct td_summary *s);

/* ---- text only -------------------------------------------------------- */

/* One line for people at the current indent (after the object lines so
 * far); the formatted text is sanitized as one field.  Nothing in JSON. */
void emit_note(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A "label  value" line of the current object's block, aligned with the
 * others; in a table row, the cell of the column whose key is label (a
 * mark such as "!").  The value is sanitized as one field.  Nothing in
 * JSON. */
void emit_text_kv(struct emit *e, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Text written as given, for results laid out as prose (emit_json_only):
 * no indent and no newline added, dump strings made safe by the caller
 * (cmd_txt(), cmd_safe(); batch mode and the Output pane sanitize each
 * line once more).  Written at once, also inside members text hides (so
 * one loop builds a JSON array and its lines), after the pending lines of
 * the innermost object text shows.  Nothing in JSON, nor when that
 * innermost shown frame is a table row or a list (cells, not lines). */
void emit_textf(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Where emit_textf() writes, for a text helper that appends to a strbuf
 * (summary_text, a tensor's values): out, or NULL when emit_textf() would
 * write nothing. */
struct strbuf *emit_text(struct emit *e);
/* Several lines of text (a run's details, numpy-style values): each line
 * is sanitized on its own (tabs expanded) and indented.  Nothing in JSON. */
void emit_lines(struct emit *e, const char *text, size_t len);

#endif
