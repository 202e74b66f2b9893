/*
 * jsonread.h - a small JSON reader for one line of text (a node answer,
 * tdbg --node), into a tree of values that remember where in the text they
 * were, so a member can be copied out verbatim (json_raw) without being
 * written again.
 *
 * Strict RFC 8259 syntax; strings are unescaped into UTF-8 (\uXXXX and
 * surrogate pairs; a lone surrogate becomes U+FFFD).  Nesting is limited
 * to JSONREAD_MAX_DEPTH.  Not a streaming parser, not for large documents
 * (a node line is at most 64 KiB).  Curses-free, no model.
 *
 *	struct jsonread_value *v;
 *	if (jsonread_parse(line, len, &v, err, sizeof err) == 0) {
 *		const struct jsonread_value *r = jsonread_get(v, "rank");
 *		if (r && r->type == JSONREAD_NUMBER) ... r->num ...
 *		jsonread_free(v);
 *	}
 */
#ifndef TD_JSONREAD_H
#define TD_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

#define JSONREAD_MAX_DEPTH 64

enum jsonread_type {
	JSONREAD_NULL, JSONREAD_FALSE, JSONREAD_TRUE, JSONREAD_NUMBER, JSONREAD_STRING,
	JSONREAD_ARRAY, JSONREAD_OBJECT,
};

struct jsonread_value {
	enum jsonread_type type;
	char *key;                  /* member name inside an object, else NULL */
	char *str;                  /* STRING: the unescaped text (NUL-terminated;
				     * an embedded \u0000 ends it early) */
	double num;                 /* NUMBER */
	struct jsonread_value *child; /* ARRAY / OBJECT: the first element/member */
	struct jsonread_value *next;  /* the next sibling */
	size_t nchild;
	size_t start, end;          /* the value's bytes in the parsed text */
};

/* Parses text[0..len) (one value, blanks around it allowed).  Returns 0
 * with *out (free with jsonread_free), or -1 with *out NULL and err
 * ("column 12: expected ':'"). */
int jsonread_parse(const char *text, size_t len, struct jsonread_value **out, char *err,
		   size_t errlen);
void jsonread_free(struct jsonread_value *v);

/* The member key of object v (the first one of that name), NULL when v is
 * not an object or has none. */
const struct jsonread_value *jsonread_get(const struct jsonread_value *v, const char *key);
/* The member's string, or NULL when absent or not a string. */
const char *jsonread_str(const struct jsonread_value *v, const char *key);
/* The member's number into *out; false when absent or not a number. */
bool jsonread_num(const struct jsonread_value *v, const char *key, double *out);

#endif
