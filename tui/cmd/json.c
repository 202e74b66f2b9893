/*
 * json.c - streaming JSON writer (see json.h for the number and string
 * conventions).  It only appends to a strbuf; it neither parses nor
 * validates what json_raw() is given.
 */
#include "json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/shortest.h"
#include "reader/base/utf8.h"

void
json_init(struct json *j, struct strbuf *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->first[0] = true;
}

bool
json_ok(const struct json *j)
{
	return j->depth == 0 && !j->overflow && !j->after_key;
}

/* Writes the separator a new value needs at the current level. */
static void
value_prefix(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		strbuf_addc(j->out, ',');
	j->first[j->depth] = false;
}

static void
begin(struct json *j, char c)
{
	value_prefix(j);
	strbuf_addc(j->out, c);
	if (j->depth >= JSON_MAX_DEPTH) {
		j->overflow = true;
		return;
	}
	j->depth++;
	j->first[j->depth] = true;
}

static void
end(struct json *j, char c)
{
	strbuf_addc(j->out, c);
	if (j->depth > 0)
		j->depth--;
}

void
json_object_begin(struct json *j)
{
	begin(j, '{');
}

void
json_object_end(struct json *j)
{
	end(j, '}');
}

void
json_array_begin(struct json *j)
{
	begin(j, '[');
}

void
json_array_end(struct json *j)
{
	end(j, ']');
}

void
json_key(struct json *j, const char *key)
{
	value_prefix(j);
	json_escape(j->out, key, strlen(key));
	strbuf_addc(j->out, ':');
	j->after_key = true;
}

void
json_null(struct json *j)
{
	value_prefix(j);
	strbuf_adds(j->out, "null");
}

void
json_bool(struct json *j, bool v)
{
	value_prefix(j);
	strbuf_adds(j->out, v ? "true" : "false");
}

/* v in decimal, as "%llu" writes it (without printf's parsing: a listing
 * writes millions of them); minus: a '-' first. */
static void
add_decimal(struct strbuf *sb, uint64_t v, bool minus)
{
	char buf[24];
	size_t k = sizeof buf;

	do {
		buf[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (minus)
		buf[--k] = '-';
	strbuf_add(sb, buf + k, sizeof buf - k);
}

void
json_int(struct json *j, int64_t v)
{
	value_prefix(j);
	add_decimal(j->out, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void
json_uint(struct json *j, uint64_t v)
{
	value_prefix(j);
	add_decimal(j->out, v, false);
}

static bool
format_nonfinite(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "NaN");
	else if (isinf(v))
		snprintf(buf, len, v < 0 ? "-Inf" : "Inf");
	else
		return false;
	return true;
}

/* %g switches to an exponent once the exponent reaches the precision, so
 * the shortest form of a wall time is "1.70000001e+09".  Like Python's
 * repr, write decimal exponents -4..15 in fixed notation instead. */
static void
prefer_fixed(char *buf, size_t len, double v, int prec)
{
	char *e = strchr(buf, 'e');
	int exp, decimals;

	if (!e)
		return;
	exp = atoi(e + 1);
	if (exp < -4 || exp > 15)
		return;
	decimals = prec - 1 - exp;
	snprintf(buf, len, "%.*f", decimals > 0 ? decimals : 0, v);
}

void
json_format_double(char *buf, size_t len, double v)
{
	int prec;

	if (format_nonfinite(buf, len, v))
		return;
	/* one printf, not a printf and a strtod for each count up to 17
	 * (the JSON of a big listing was mostly that) */
	if ((prec = shortest_g_precision(v)) > 0) {
		snprintf(buf, len, "%.*g", prec, v);
		prefer_fixed(buf, len, v, prec);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	prefer_fixed(buf, len, v, prec > 17 ? 17 : prec);
}

void
json_format_float(char *buf, size_t len, float v)
{
	int prec;

	if (format_nonfinite(buf, len, v))
		return;
	if ((prec = shortest_g_precision_float(v)) > 0) {      /* as for a double */
		snprintf(buf, len, "%.*g", prec, (double)v);
		prefer_fixed(buf, len, (double)v, prec);
		return;
	}
	for (prec = 1; prec <= 9; prec++) {
		snprintf(buf, len, "%.*g", prec, (double)v);
		if (strtof(buf, NULL) == v)
			break;
	}
	prefer_fixed(buf, len, (double)v, prec > 9 ? 9 : prec);
}

/* %g of a finite value ("1e+20", "-0.5") is always a valid JSON number;
 * only NaN and Inf need the quotes that make them strings. */
static void
number(struct json *j, const char *text, bool finite)
{
	value_prefix(j);
	if (!finite)
		strbuf_addc(j->out, '"');
	strbuf_adds(j->out, text);
	if (!finite)
		strbuf_addc(j->out, '"');
}

void
json_double(struct json *j, double v)
{
	char buf[40];

	json_format_double(buf, sizeof buf, v);
	number(j, buf, isfinite(v));
}

void
json_float(struct json *j, float v)
{
	char buf[40];

	json_format_float(buf, sizeof buf, v);
	number(j, buf, isfinite(v));
}

static void
escape_byte(struct strbuf *sb, unsigned char c)
{
	switch (c) {
	case '"':  strbuf_adds(sb, "\\\""); break;
	case '\\': strbuf_adds(sb, "\\\\"); break;
	case '\n': strbuf_adds(sb, "\\n"); break;
	case '\r': strbuf_adds(sb, "\\r"); break;
	case '\t': strbuf_adds(sb, "\\t"); break;
	case '\b': strbuf_adds(sb, "\\b"); break;
	case '\f': strbuf_adds(sb, "\\f"); break;
	default:
		if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\u%04x", c);
		else
			strbuf_addc(sb, (char)c);
	}
}

void
json_escape(struct strbuf *sb, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;
	uint32_t cp;

	strbuf_addc(sb, '"');
	while (i < len) {
		/* a run of printable ASCII that needs no escape, added at once */
		for (n = 0; i + n < len && p[i + n] >= 0x20 && p[i + n] < 0x7f && p[i + n] != '"' &&
			    p[i + n] != '\\'; n++)
			;
		if (n) {
			strbuf_add(sb, s + i, n);
			i += n;
			continue;
		}
		n = td_utf8_decode(p + i, len - i, &cp);
		if (n == 0) {
			strbuf_adds(sb, "\\ufffd");
			i++;
		} else if (n == 1) {
			escape_byte(sb, p[i]);
			i++;
		} else {
			strbuf_add(sb, s + i, n);
			i += n;
		}
	}
	strbuf_addc(sb, '"');
}

void
json_string_n(struct json *j, const char *s, size_t len)
{
	value_prefix(j);
	json_escape(j->out, s, len);
}

void
json_string(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_string_n(j, s, strlen(s));
}

void
json_raw(struct json *j, const char *text)
{
	value_prefix(j);
	strbuf_adds(j->out, text);
}

void
json_kv_string(struct json *j, const char *key, const char *v)
{
	json_key(j, key);
	json_string(j, v);
}

void
json_kv_int(struct json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_int(j, v);
}

void
json_kv_uint(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_uint(j, v);
}

void
json_kv_double(struct json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}

void
json_kv_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void
json_kv_null(struct json *j, const char *key)
{
	json_key(j, key);
	json_null(j);
}
