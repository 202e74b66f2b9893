/*
 * emit_kv.c - the emitter's shorthands for a key and its value in one call
 * (emit_kv_null ... emit_kv_index, see emit.h): each is emit_key followed
 * by the value's call, for both backends; and the calls for one backend
 * only (emit_json, emit_textf, the emit_json_only schema), emit_label_width.
 */
#include "emit.h"

#include <stdarg.h>

const struct emit_field emit_json_only[] = {
	{ NULL, NULL, 0, 0 },       /* push() hides what uses it */
};

struct json *
emit_json(struct emit *e)
{
	return e->json ? &e->j : NULL;
}

void
emit_label_width(struct emit *e, int width)
{
	if (!e->json)
		e->f[e->depth].label_width = width;
}

void
emit_textf(struct emit *e, const char *fmt, ...)
{
	struct strbuf *out = emit_text(e);
	va_list ap;

	if (!out)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(out, fmt, ap);
	va_end(ap);
}

void
emit_kv_null(struct emit *e, const char *key)
{
	emit_key(e, key);
	emit_null(e);
}

void
emit_kv_bool(struct emit *e, const char *key, bool v)
{
	emit_key(e, key);
	emit_bool(e, v);
}

void
emit_kv_int(struct emit *e, const char *key, int64_t v)
{
	emit_key(e, key);
	emit_int(e, v);
}

void
emit_kv_uint(struct emit *e, const char *key, uint64_t v)
{
	emit_key(e, key);
	emit_uint(e, v);
}

void
emit_kv_double(struct emit *e, const char *key, double v)
{
	emit_key(e, key);
	emit_double(e, v);
}

void
emit_kv_str(struct emit *e, const char *key, const char *s)
{
	emit_key(e, key);
	emit_str(e, s);
}

void
emit_kv_summary(struct emit *e, const char *key, const struct td_summary *s)
{
	emit_key(e, key);
	emit_summary(e, s);
}

void
emit_kv_index(struct emit *e, const char *key, int64_t v)
{
	emit_key(e, key);
	if (v >= 0)
		emit_int(e, v);
	else
		emit_null(e);
}
