/*
 * emit.c - the emitter's two backends (see emit.h for the layout rules).
 *
 * JSON calls go straight to json.c.  The text backend keeps a stack of
 * frames: an object collects its "label value" pairs until a line of
 * something else (a nested block, a note, its end) must follow them, then
 * writes them aligned; a table row collects its cells and is written when
 * it ends; a list joins its items and hands the result to its parent as
 * one value.  Every piece of dump text is sanitized when it is stored.
 * The emit_kv_* shorthands (a key and its value) are in emit_kv.c.
 */
#include "emit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmd_internal.h"
#include "sanitize.h"

#define CELL_GAP "  "

void
emit_init(struct emit *e, struct strbuf *out, bool json)
{
	memset(e, 0, sizeof(*e));
	e->json = json;
	e->out = out;
	e->f[0].kind = EMIT_ROOT;
	if (json)
		json_init(&e->j, out);
}

/* ---- text: frames and lines ---------------------------------------------- */

static struct emit_frame *
top(struct emit *e)
{
	return &e->f[e->depth];
}

static const struct emit_field *
field_of(const struct emit_field *schema, const char *key)
{
	for (; schema && schema->key; schema++)
		if (strcmp(schema->key, key) == 0)
			return schema;
	return NULL;
}

/* Writes the headings frames 1..upto still owe, then the indent of upto. */
static void
line_begin(struct emit *e, int upto)
{
	for (int i = 1; i <= upto; i++) {
		struct emit_frame *f = &e->f[i];

		if (!f->heading)
			continue;
		f->heading = false;
		for (int k = 0; k < f->indent - 2; k++)
			strbuf_addc(e->out, ' ');
		strbuf_add(e->out, f->head.buf, f->head.len);
		strbuf_addc(e->out, '\n');
	}
	for (int k = 0; k < e->f[upto].indent; k++)
		strbuf_addc(e->out, ' ');
}

/* Walks "a\0b\0" pairs in sb. */
static const char *
pair_next(const struct strbuf *sb, size_t *pos, const char **value)
{
	const char *a;

	if (*pos >= sb->len)
		return NULL;
	a = sb->buf + *pos;
	*value = a + strlen(a) + 1;
	*pos += strlen(a) + 1 + strlen(*value) + 1;
	return a;
}

static void
pair_add(struct strbuf *sb, const char *a, const char *b, size_t blen)
{
	strbuf_add(sb, a, strlen(a) + 1);
	strbuf_add(sb, b, blen);
	strbuf_addc(sb, '\0');
}

/* Writes the object's pending pairs, labels padded to one column. */
static void
flush_pairs(struct emit *e, int idx)
{
	struct emit_frame *f = &e->f[idx];
	const char *label, *value;
	size_t pos = 0;
	int w = 0;

	if (!f->buf.len)
		return;
	while ((label = pair_next(&f->buf, &pos, &value)))
		w = TD_MAX(w, sanitize_width(label) + 2);
	w = TD_MAX(w, f->label_width);
	pos = 0;
	while ((label = pair_next(&f->buf, &pos, &value))) {
		line_begin(e, idx);
		strbuf_adds(e->out, label);
		if (*value) {
			for (int k = sanitize_width(label); k < w; k++)
				strbuf_addc(e->out, ' ');
			strbuf_adds(e->out, value);
		}
		strbuf_addc(e->out, '\n');
	}
	strbuf_reset(&f->buf);
}

/* The display label of key in frame f (schema label, else the key made
 * safe).  NULL when the member is hidden. */
static const char *
label_of(struct emit_frame *f, const char *key, struct strbuf *tmp)
{
	const struct emit_field *fd = field_of(f->schema, key);

	if (fd && (fd->flags & EMIT_HIDE))
		return NULL;
	if (fd && fd->label)
		return fd->label;
	sanitize_str(key, -1, tmp);
	return tmp->buf ? tmp->buf : "";
}

/* A finished value (display text) arrives in the top frame. */
static void
put(struct emit *e, const char *text, size_t len)
{
	struct emit_frame *f = top(e);
	struct strbuf tmp = {0};
	const char *label;
	bool keyed = f->have_key;

	f->have_key = false;
	if (e->over || f->hidden)
		return;
	switch (f->kind) {
	case EMIT_ROOT:
		if (!keyed) {
			line_begin(e, e->depth);
			strbuf_add(e->out, text, len);
			strbuf_addc(e->out, '\n');
			break;
		}
		/* root pairs are an object block */
		__attribute__((fallthrough));
	case EMIT_OBJECT:
		if (keyed && (label = label_of(f, f->key.buf, &tmp)))
			pair_add(&f->buf, label, text, len);
		break;
	case EMIT_ROW:
		if (keyed)
			pair_add(&f->buf, f->key.buf, text, len);
		break;
	case EMIT_LIST:
		if (f->count++)
			strbuf_adds(&f->buf, ", ");
		strbuf_add(&f->buf, text, len);
		break;
	case EMIT_TABLE:
		break;
	}
	strbuf_done(&tmp);
}

/* Flags of the pending key's field (EMIT_TABS for source text). */
static unsigned
pending_flags(struct emit *e)
{
	struct emit_frame *f = top(e);
	const struct emit_field *fd;

	if (!f->have_key)
		return 0;
	fd = field_of(f->schema, f->key.buf);
	return fd ? fd->flags : 0;
}

static void
put_str(struct emit *e, const char *s)
{
	struct strbuf tmp = {0};
	unsigned flags = pending_flags(e) & EMIT_TABS ? SANITIZE_TABS : 0;

	if (!s || !*s)
		s = "-";
	sanitize(s, strlen(s), -1, flags, &tmp);
	put(e, tmp.buf ? tmp.buf : "", tmp.len);
	strbuf_done(&tmp);
}

/* Text: whether the pending value is dropped (a hidden frame, a member
 * the schema hides, a row member no column shows); a dropped value's key
 * is cleared, so callers skip formatting it (a long listing has many). */
static bool
dropped(struct emit *e)
{
	struct emit_frame *f = top(e);
	const struct emit_field *fd;

	if (e->over)
		return true;
	if (f->hidden)
		goto drop;
	if (!f->have_key || (f->kind != EMIT_ROW && f->kind != EMIT_OBJECT && f->kind != EMIT_ROOT))
		return false;
	fd = field_of(f->schema, f->key.buf);
	if (fd ? !(fd->flags & EMIT_HIDE) : f->kind != EMIT_ROW)
		return false;
drop:
	f->have_key = false;
	return true;
}

static void
putf(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
putf(struct emit *e, const char *fmt, ...)
{
	struct strbuf tmp = {0};
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&tmp, fmt, ap);
	va_end(ap);
	put(e, tmp.buf, tmp.len);
	strbuf_done(&tmp);
}

/* ---- text: containers ------------------------------------------------------ */

static void
push(struct emit *e, enum emit_frame_kind kind, const struct emit_field *schema)
{
	struct emit_frame *p = top(e), *c;
	bool keyed = p->have_key;
	const struct emit_field *fd = NULL;
	const char *label = NULL;

	if (e->over || e->depth + 1 >= EMIT_MAX_DEPTH) {
		e->over++;
		return;
	}
	c = &e->f[++e->depth];
	strbuf_reset(&c->buf);
	strbuf_reset(&c->key);
	strbuf_reset(&c->head);
	c->kind = kind;
	c->schema = schema;
	c->hidden = p->hidden || schema == emit_json_only;
	c->have_key = c->heading = false;
	c->indent = p->indent;
	c->label_width = 0;
	c->count = 0;
	if (kind != EMIT_LIST)
		p->have_key = false;      /* a list's text is its parent's value */
	if (c->hidden)
		return;
	switch (p->kind) {
	case EMIT_ROOT:
	case EMIT_OBJECT:
		if (!keyed) {
			c->hidden = p->kind != EMIT_ROOT;
			break;
		}
		fd = field_of(p->schema, p->key.buf);
		if (fd && (fd->flags & EMIT_HIDE)) {
			c->hidden = true;
			p->have_key = false;
			break;
		}
		if (kind == EMIT_LIST)
			break;
		flush_pairs(e, e->depth - 1);
		label = fd && fd->label ? fd->label : NULL;
		if (!label)
			sanitize_str(p->key.buf, -1, &c->head);
		else
			strbuf_adds(&c->head, label);
		c->heading = c->head.len > 0;
		c->indent = p->indent + (c->heading ? 2 : 0);
		break;
	case EMIT_TABLE:
		if (kind == EMIT_OBJECT) {
			c->kind = EMIT_ROW;
			c->schema = p->schema;
		} else {
			c->hidden = true;
		}
		break;
	case EMIT_ROW:
		fd = keyed ? field_of(p->schema, p->key.buf) : NULL;
		c->hidden = kind != EMIT_LIST || !fd || (fd->flags & EMIT_HIDE);
		if (c->hidden)
			p->have_key = false;
		break;
	case EMIT_LIST:
		c->hidden = true;
		break;
	}
}

/* Writes one cell: cut/padded to the column's width. */
static void
cell(struct strbuf *out, const struct emit_field *col, const char *text)
{
	const char *label = col->label ? col->label : col->key;
	int width = col->width < 0 ? -col->width : col->width, used;
	struct strbuf tmp = {0};

	if (width)                  /* the header is never cut */
		width = TD_MAX(width, sanitize_width(label));

	if (width == 0) {
		strbuf_adds(out, text);
		return;
	}
	if ((col->flags & EMIT_SCOPE) && col->width > 0 && *text) {
		cmd_cell_name(&tmp, text, width);       /* cut or padded to width */
		used = width;
	} else if (col->flags & EMIT_TAIL)
		used = sanitize_tail(text, width, &tmp);
	else
		used = sanitize_str(text, width, &tmp);
	if (col->width > 0 && tmp.len)
		strbuf_add(out, tmp.buf, tmp.len);
	for (; used < width; used++)
		strbuf_addc(out, ' ');
	if (col->width < 0 && tmp.len)
		strbuf_add(out, tmp.buf, tmp.len);
	strbuf_done(&tmp);
}

static void
strip_trailing_spaces(struct strbuf *sb, size_t from)
{
	while (sb->len > from && sb->buf[sb->len - 1] == ' ')
		sb->len--;
	if (sb->buf)
		sb->buf[sb->len] = '\0';
}

static void
table_header(struct emit *e, int idx, const struct emit_field *schema)
{
	const struct emit_field *c;
	size_t start;
	bool first = true;

	line_begin(e, idx);
	start = e->out->len;
	for (c = schema; c && c->key; c++) {
		if (c->flags & EMIT_HIDE)
			continue;
		if (!first)
			strbuf_adds(e->out, CELL_GAP);
		cell(e->out, c, c->label ? c->label : c->key);
		first = false;
	}
	strip_trailing_spaces(e->out, start);
	strbuf_addc(e->out, '\n');
}

static void
row_end(struct emit *e)
{
	struct emit_frame *r = top(e), *t = &e->f[e->depth - 1];
	const struct emit_field *c;
	const char *key, *value;
	size_t pos, start;
	bool first = true;

	if (t->count++ == 0)
		table_header(e, e->depth - 1, t->schema);
	line_begin(e, e->depth);
	start = e->out->len;
	for (c = r->schema; c && c->key; c++) {
		if (c->flags & EMIT_HIDE)
			continue;
		pos = 0;
		while ((key = pair_next(&r->buf, &pos, &value)) && strcmp(key, c->key) != 0)
			;
		if (!first)
			strbuf_adds(e->out, CELL_GAP);
		cell(e->out, c, key ? value : "");
		first = false;
	}
	strip_trailing_spaces(e->out, start);
	strbuf_addc(e->out, '\n');
}

static void
pop(struct emit *e)
{
	struct emit_frame *f = top(e);
	struct strbuf list = {0};

	if (e->over) {
		e->over--;
		return;
	}
	if (e->depth == 0)
		return;
	if (!f->hidden) {
		if (f->kind == EMIT_OBJECT)
			flush_pairs(e, e->depth);
		else if (f->kind == EMIT_ROW)
			row_end(e);
		else if (f->kind == EMIT_LIST)
			strbuf_add(&list, f->count ? f->buf.buf : "-", f->count ? f->buf.len : 1);
	}
	e->depth--;
	if (f->kind == EMIT_LIST) {
		if (f->hidden)
			top(e)->have_key = false;
		else
			put(e, list.buf ? list.buf : "", list.len);
	}
	strbuf_done(&list);
}

/* ---- containers ---------------------------------------------------------- */

void
emit_object_begin(struct emit *e, const struct emit_field *schema)
{
	if (e->json)
		json_object_begin(&e->j);
	else
		push(e, EMIT_OBJECT, schema);
}

void
emit_object_end(struct emit *e)
{
	if (e->json)
		json_object_end(&e->j);
	else
		pop(e);
}

void
emit_table_begin(struct emit *e, const struct emit_field *schema)
{
	if (e->json)
		json_array_begin(&e->j);
	else
		push(e, EMIT_TABLE, schema);
}

void
emit_table_end(struct emit *e)
{
	if (e->json)
		json_array_end(&e->j);
	else
		pop(e);
}

void
emit_list_begin(struct emit *e)
{
	if (e->json)
		json_array_begin(&e->j);
	else
		push(e, EMIT_LIST, NULL);
}

void
emit_list_end(struct emit *e)
{
	if (e->json)
		json_array_end(&e->j);
	else
		pop(e);
}

/* ---- keys and values ------------------------------------------------------ */

void
emit_key(struct emit *e, const char *key)
{
	struct emit_frame *f;

	if (e->json) {
		json_key(&e->j, key);
		return;
	}
	if (e->over)
		return;
	f = top(e);
	strbuf_reset(&f->key);
	strbuf_adds(&f->key, key);
	f->have_key = true;
}

void
emit_null(struct emit *e)
{
	if (e->json)
		json_null(&e->j);
	else if (e->depth > 0 || top(e)->have_key)
		put(e, "-", 1);
}

void
emit_bool(struct emit *e, bool v)
{
	if (e->json)
		json_bool(&e->j, v);
	else if (!dropped(e))
		putf(e, "%s", v ? "yes" : "no");
}

void
emit_int(struct emit *e, int64_t v)
{
	if (e->json)
		json_int(&e->j, v);
	else if (!dropped(e))
		putf(e, "%lld", (long long)v);
}

void
emit_uint(struct emit *e, uint64_t v)
{
	if (e->json)
		json_uint(&e->j, v);
	else if (!dropped(e))
		putf(e, "%llu", (unsigned long long)v);
}

void
emit_double(struct emit *e, double v)
{
	char buf[40];

	if (e->json) {
		json_double(&e->j, v);
		return;
	}
	if (dropped(e))
		return;
	json_format_double(buf, sizeof buf, v);
	putf(e, "%s", buf);
}

void
emit_str(struct emit *e, const char *s)
{
	if (e->json)
		json_string(&e->j, s);
	else if (!dropped(e))
		put_str(e, s);
}

void
emit_summary(struct emit *e, const struct td_summary *s)
{
	struct strbuf tmp = {0};

	if (e->json) {
		cmd_json_summary(&e->j, s);
		return;
	}
	if (dropped(e))
		return;
	cmd_text_summary(&tmp, s);
	put(e, tmp.buf, tmp.len);
	strbuf_done(&tmp);
}

void
emit_counts(struct emit *e, const struct td_summary *s)
{
	if (e->json)
		cmd_json_counts(&e->j, s);
	else
		emit_kv_summary(e, "summary", s);
}

/* ---- text only --------------------------------------------------------------- */

/* Writes the pending pairs of the innermost object so a line can follow. */
static bool
text_line_ok(struct emit *e)
{
	struct emit_frame *f = top(e);

	if (e->json || e->over || f->hidden || f->kind == EMIT_ROW || f->kind == EMIT_LIST)
		return false;
	flush_pairs(e, e->depth);
	return true;
}

/* The same for emit_textf, from the innermost frame text shows. */
struct strbuf *
emit_text(struct emit *e)
{
	int i = e->depth;

	while (i > 0 && e->f[i].hidden)
		i--;
	if (e->json || e->over || e->f[i].kind == EMIT_ROW || e->f[i].kind == EMIT_LIST)
		return NULL;
	flush_pairs(e, i);
	return e->out;
}

void
emit_note(struct emit *e, const char *fmt, ...)
{
	struct strbuf raw = {0};
	va_list ap;

	if (!text_line_ok(e))
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&raw, fmt, ap);
	va_end(ap);
	line_begin(e, e->depth);
	sanitize(raw.buf ? raw.buf : "", raw.len, -1, 0, e->out);
	strbuf_addc(e->out, '\n');
	strbuf_done(&raw);
}

void
emit_text_kv(struct emit *e, const char *label, const char *fmt, ...)
{
	struct strbuf raw = {0}, safe = {0};
	struct emit_frame *f = top(e);
	va_list ap;

	if (e->json || e->over || f->hidden ||
	    (f->kind != EMIT_OBJECT && f->kind != EMIT_ROOT && f->kind != EMIT_ROW))
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&raw, fmt, ap);
	va_end(ap);
	sanitize(raw.buf ? raw.buf : "", raw.len, -1, 0, &safe);
	pair_add(&f->buf, label, safe.buf ? safe.buf : "", safe.len);
	strbuf_done(&raw);
	strbuf_done(&safe);
}

void
emit_lines(struct emit *e, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;

	if (!text_line_ok(e))
		return;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		line_begin(e, e->depth);
		sanitize(p, nl ? (size_t)(nl - p) : (size_t)(end - p), -1, SANITIZE_TABS, e->out);
		strbuf_addc(e->out, '\n');
		if (!nl)
			break;
		p = nl + 1;
	}
}

bool
emit_done(struct emit *e)
{
	bool ok;

	if (e->json) {
		ok = json_ok(&e->j);
	} else {
		ok = e->depth == 0 && e->over == 0;
		e->depth = 0;
		e->over = 0;
		flush_pairs(e, 0);
	}
	for (int i = 0; i < EMIT_MAX_DEPTH; i++) {
		strbuf_done(&e->f[i].buf);
		strbuf_done(&e->f[i].key);
		strbuf_done(&e->f[i].head);
	}
	return ok;
}
