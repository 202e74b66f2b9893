/*
 * jsonread.c - a recursive-descent JSON reader (jsonread.h).
 */
#include "tui/cmd/jsonread.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/utf8.h"
#include "reader/base/util.h"

struct jr {
	const char *s;
	size_t len, pos;
	char *err;
	size_t errlen;
	bool failed;
};

static struct jsonread_value *parse_value(struct jr *p, int depth);

static void
fail(struct jr *p, const char *what)
{
	if (!p->failed)
		snprintf(p->err, p->errlen, "column %zu: %s", p->pos + 1, what);
	p->failed = true;
}

static void
skip_blanks(struct jr *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->s[p->pos]) && p->s[p->pos])
		p->pos++;
}

static bool
eat(struct jr *p, char c)
{
	skip_blanks(p);
	if (p->pos < p->len && p->s[p->pos] == c) {
		p->pos++;
		return true;
	}
	return false;
}

static int
hex4(struct jr *p)
{
	int v = 0, i;

	if (p->pos + 4 > p->len)
		return -1;
	for (i = 0; i < 4; i++) {
		char c = p->s[p->pos + (size_t)i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	p->pos += 4;
	return v;
}

static void
add_utf8(struct strbuf *sb, uint32_t c)
{
	char u[4];

	strbuf_add(sb, u, td_utf8_encode(c, u));
}

/* \uXXXX (and a following low surrogate) after the backslash-u. */
static bool
unicode_escape(struct jr *p, struct strbuf *sb)
{
	int hi = hex4(p), lo;

	if (hi < 0)
		return false;
	if (hi >= 0xd800 && hi < 0xdc00 && p->pos + 6 <= p->len && p->s[p->pos] == '\\' &&
	    p->s[p->pos + 1] == 'u') {
		size_t back = p->pos;

		p->pos += 2;
		lo = hex4(p);
		if (lo >= 0xdc00 && lo < 0xe000) {
			add_utf8(sb, 0x10000 + (((uint32_t)hi - 0xd800) << 10) + ((uint32_t)lo - 0xdc00));
			return true;
		}
		p->pos = back;
	}
	add_utf8(sb, hi >= 0xd800 && hi < 0xe000 ? 0xfffd : (uint32_t)hi);
	return true;
}

static char *
parse_string(struct jr *p)
{
	struct strbuf sb = {0};
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";

	if (!eat(p, '"')) {
		fail(p, "expected a string");
		return NULL;
	}
	strbuf_add(&sb, "", 0);
	while (p->pos < p->len && p->s[p->pos] != '"') {
		unsigned char c = (unsigned char)p->s[p->pos++];
		const char *e;

		if (c < 0x20) {
			fail(p, "control character in a string");
			break;
		}
		if (c != '\\') {
			strbuf_addc(&sb, (char)c);
			continue;
		}
		if (p->pos >= p->len) {
			fail(p, "unfinished escape");
			break;
		}
		c = (unsigned char)p->s[p->pos++];
		if (c == 'u') {
			if (!unicode_escape(p, &sb))
				fail(p, "bad \\u escape");
		} else if (c && (e = strchr(from, c))) {
			strbuf_addc(&sb, to[e - from]);
		} else {
			fail(p, "bad escape");
		}
		if (p->failed)
			break;
	}
	if (!p->failed && !eat(p, '"'))
		fail(p, "unterminated string");
	if (p->failed) {
		strbuf_done(&sb);
		return NULL;
	}
	return strbuf_take(&sb);
}

static bool
parse_number(struct jr *p, struct jsonread_value *v)
{
	size_t i = p->pos, digits = 0;
	char buf[64];

	if (i < p->len && p->s[i] == '-')
		i++;
	while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
		i++, digits++;
	if (!digits || (p->s[p->pos + (p->s[p->pos] == '-')] == '0' && digits > 1))
		return false;
	if (i < p->len && p->s[i] == '.') {
		for (i++, digits = 0; i < p->len && p->s[i] >= '0' && p->s[i] <= '9'; i++)
			digits++;
		if (!digits)
			return false;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		for (digits = 0; i < p->len && p->s[i] >= '0' && p->s[i] <= '9'; i++)
			digits++;
		if (!digits)
			return false;
	}
	if (i - p->pos >= sizeof buf)
		return false;
	memcpy(buf, p->s + p->pos, i - p->pos);
	buf[i - p->pos] = '\0';
	v->num = strtod(buf, NULL);
	p->pos = i;
	return true;
}

static bool
parse_word(struct jr *p, const char *w, enum jsonread_type t, struct jsonread_value *v)
{
	size_t n = strlen(w);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n) != 0)
		return false;
	p->pos += n;
	v->type = t;
	return true;
}

/* Elements or members up to close, appended as v's children. */
static void
parse_children(struct jr *p, struct jsonread_value *v, char close, int depth)
{
	struct jsonread_value **tail = &v->child;

	if (eat(p, close))
		return;
	do {
		char *key = NULL;
		struct jsonread_value *c;

		if (v->type == JSONREAD_OBJECT) {
			skip_blanks(p);
			if (!(key = parse_string(p)))
				return;
			if (!eat(p, ':')) {
				free(key);
				fail(p, "expected ':'");
				return;
			}
		}
		if (!(c = parse_value(p, depth + 1))) {
			free(key);
			return;
		}
		c->key = key;
		*tail = c;
		tail = &c->next;
		v->nchild++;
	} while (eat(p, ','));
	if (!eat(p, close))
		fail(p, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
}

static struct jsonread_value *
parse_value(struct jr *p, int depth)
{
	struct jsonread_value *v;
	bool ok = true;

	if (depth > JSONREAD_MAX_DEPTH) {
		fail(p, "nested too deeply");
		return NULL;
	}
	skip_blanks(p);
	if (p->pos >= p->len) {
		fail(p, "expected a value");
		return NULL;
	}
	v = xcalloc(1, sizeof *v);
	v->start = p->pos;
	switch (p->s[p->pos]) {
	case '{':
	case '[':
		v->type = p->s[p->pos] == '{' ? JSONREAD_OBJECT : JSONREAD_ARRAY;
		p->pos++;
		parse_children(p, v, v->type == JSONREAD_OBJECT ? '}' : ']', depth);
		break;
	case '"':
		v->type = JSONREAD_STRING;
		ok = (v->str = parse_string(p)) != NULL;
		break;
	case 't': ok = parse_word(p, "true", JSONREAD_TRUE, v); break;
	case 'f': ok = parse_word(p, "false", JSONREAD_FALSE, v); break;
	case 'n': ok = parse_word(p, "null", JSONREAD_NULL, v); break;
	default:
		v->type = JSONREAD_NUMBER;
		ok = parse_number(p, v);
		break;
	}
	if (!ok)
		fail(p, "expected a value");
	if (p->failed) {
		jsonread_free(v);
		return NULL;
	}
	v->end = p->pos;
	return v;
}

int
jsonread_parse(const char *text, size_t len, struct jsonread_value **out, char *err, size_t errlen)
{
	struct jr p = { .s = text, .len = len, .err = err, .errlen = errlen };
	struct jsonread_value *v = parse_value(&p, 0);

	if (v) {
		skip_blanks(&p);
		if (p.pos < p.len)
			fail(&p, "text after the value");
	}
	if (p.failed) {
		jsonread_free(v);
		*out = NULL;
		return -1;
	}
	*out = v;
	return 0;
}

void
jsonread_free(struct jsonread_value *v)
{
	while (v) {
		struct jsonread_value *next = v->next;

		jsonread_free(v->child);
		free(v->key);
		free(v->str);
		free(v);
		v = next;
	}
}

const struct jsonread_value *
jsonread_get(const struct jsonread_value *v, const char *key)
{
	const struct jsonread_value *c;

	if (!v || v->type != JSONREAD_OBJECT)
		return NULL;
	for (c = v->child; c; c = c->next)
		if (strcmp(c->key, key) == 0)
			return c;
	return NULL;
}

const char *
jsonread_str(const struct jsonread_value *v, const char *key)
{
	const struct jsonread_value *c = jsonread_get(v, key);

	return c && c->type == JSONREAD_STRING ? c->str : NULL;
}

bool
jsonread_num(const struct jsonread_value *v, const char *key, double *out)
{
	const struct jsonread_value *c = jsonread_get(v, key);

	if (!c || c->type != JSONREAD_NUMBER)
		return false;
	*out = c->num;
	return true;
}
