/*
 * json.h - a small streaming JSON writer into a strbuf.
 *
 * Batch mode prints exactly one JSON document per command on one line, so
 * the writer never emits a newline: control characters in strings are
 * escaped (\n, \t, \u001b ...), and bytes that are not valid UTF-8 become
 * U+FFFD.  Commas between members and elements are inserted automatically;
 * the caller only says where objects, arrays and keys begin and end.
 *
 * Numbers: integers are printed exactly.  A double is printed with the
 * fewest significant digits (up to 17) that read back to the same double;
 * json_float() does the same for values that were float32 in the dump (up
 * to 9 digits), so 0.1f prints as 0.1 rather than 0.10000000149011612.
 * As in Python's repr, decimal exponents -4..15 use fixed notation
 * (1586979375.124159, not 1.586979375124159e+09).
 * JSON has no NaN or infinity: they are written as the strings "NaN",
 * "Inf" and "-Inf", never as null, so an unknown value (null) and a
 * non-finite one stay distinguishable.
 *
 * Not a parser, not a pretty-printer.  Nesting is limited to JSON_MAX_DEPTH;
 * deeper begins are ignored (and json_ok() returns false).
 *
 *	struct strbuf sb = {0};
 *	struct json j;
 *	json_init(&j, &sb);
 *	json_object_begin(&j);
 *	json_key(&j, "total");  json_int(&j, 3);
 *	json_key(&j, "items");  json_array_begin(&j); ... json_array_end(&j);
 *	json_object_end(&j);    // sb.buf = {"total":3,"items":[...]}
 */
#ifndef TD_JSON_H
#define TD_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/util.h"

#define JSON_MAX_DEPTH 64

struct json {
	struct strbuf *out;
	int depth;
	bool first[JSON_MAX_DEPTH + 1];  /* no member written yet at this level */
	bool after_key;                  /* a key was written, its value is next */
	bool overflow;                   /* nesting went past JSON_MAX_DEPTH */
};

/* Starts writing into out (appends; out is not reset). */
void json_init(struct json *j, struct strbuf *out);
/* True when every begin had its end and nesting stayed within bounds. */
bool json_ok(const struct json *j);

void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
/* The key of the next member (inside an object). */
void json_key(struct json *j, const char *key);

void json_null(struct json *j);
void json_bool(struct json *j, bool v);
void json_int(struct json *j, int64_t v);
void json_uint(struct json *j, uint64_t v);
/* Shortest round-trip form of a double; NaN/Inf as strings (see above). */
void json_double(struct json *j, double v);
/* The same for a value that came from a float32: shortest form that reads
 * back to the same float. */
void json_float(struct json *j, float v);
/* A string (NULL writes null).  Escapes control characters, '"' and '\\';
 * invalid UTF-8 bytes become U+FFFD. */
void json_string(struct json *j, const char *s);
void json_string_n(struct json *j, const char *s, size_t len);
/* Writes text verbatim as a value (already valid JSON). */
void json_raw(struct json *j, const char *text);

/* Shortcuts: key then value. */
void json_kv_string(struct json *j, const char *key, const char *v);
void json_kv_int(struct json *j, const char *key, int64_t v);
void json_kv_uint(struct json *j, const char *key, uint64_t v);
void json_kv_double(struct json *j, const char *key, double v);
void json_kv_bool(struct json *j, const char *key, bool v);
void json_kv_null(struct json *j, const char *key);

/* Appends the escaped, quoted form of s[0..len) to sb (used by json_string). */
void json_escape(struct strbuf *sb, const char *s, size_t len);
/* Formats v into buf (at least 32 bytes) as json_double/json_float would,
 * without quotes for NaN/Inf ("NaN", "Inf", "-Inf"). */
void json_format_double(char *buf, size_t len, double v);
void json_format_float(char *buf, size_t len, float v);

#endif
