/*
 * ms_names.c - MindSpore tensor file names (FORMAT.md §5) and
 * mapping.csv (§13).
 *
 * Names are parsed from the right with a fixed tail, so an op name holding
 * dots (never written by MindSpore, possible from other tools) survives.
 * Anything that does not fit is rejected, never guessed.
 */
#include "ms_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "reader/parse/csv.h"

struct dtype_word {
	const char *word;
	enum td_dtype dtype;
};

/* §5.1 DTYPE words; bfloat16/int4/uint1 are stored as float32/int8/uint8,
 * the hint tells the npy reader what a "V2" descr means. */
static const struct dtype_word dtype_words[] = {
	{ "bool", DTYPE_BOOL }, { "int8", DTYPE_INT8 }, { "int16", DTYPE_INT16 },
	{ "int32", DTYPE_INT32 }, { "int64", DTYPE_INT64 }, { "uint8", DTYPE_UINT8 },
	{ "uint16", DTYPE_UINT16 }, { "uint32", DTYPE_UINT32 }, { "uint64", DTYPE_UINT64 },
	{ "float16", DTYPE_FLOAT16 }, { "float32", DTYPE_FLOAT32 }, { "float64", DTYPE_FLOAT64 },
	{ "bfloat16", DTYPE_BFLOAT16 }, { "int4", DTYPE_INT8 }, { "uint1", DTYPE_UINT8 },
	{ "complex64", DTYPE_COMPLEX64 }, { "complex128", DTYPE_COMPLEX128 },
};

enum td_dtype
ms_dtype_from_word(const char *word)
{
	size_t i;

	for (i = 0; i < TD_ARRAY_SIZE(dtype_words); i++)
		if (strcmp(word, dtype_words[i].word) == 0)
			return dtype_words[i].dtype;
	return DTYPE_INVALID;
}

bool
ms_all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* msaccucmp shape field: \d+(x\d+)* */
static bool
is_shape_field(const char *s)
{
	if (!isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s) && !(*s == 'x' && isdigit((unsigned char)s[1])))
			return false;
	return true;
}

static bool
is_io(const char *s)
{
	return strcmp(s, "input") == 0 || strcmp(s, "output") == 0;
}

static bool
ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && memcmp(s + len - n, suffix, n) == 0;
}

/* Splits s on '.' in place; returns the field count. */
static size_t
split_dots(char *s, char ***fields)
{
	size_t n = 1, i = 0;
	char *p;

	for (p = s; *p; p++)
		n += *p == '.';
	*fields = xmalloc(n * sizeof(**fields));
	(*fields)[i++] = s;
	for (p = s; *p; p++)
		if (*p == '.') {
			*p = '\0';
			(*fields)[i++] = p + 1;
		}
	return n;
}

/* OPTYPE . OPNAME... . TASK . STREAM . TS followed by `tail` fields. */
static bool
parse_head(char **f, size_t n, size_t tail, struct ms_name *out)
{
	struct strbuf sb = {0};
	size_t k, ts;

	if (n < tail + 5)
		return false;
	ts = n - tail - 1;
	if (!ms_all_digits(f[ts]) || !ms_all_digits(f[ts - 1]) || !ms_all_digits(f[ts - 2]) || !*f[0])
		return false;
	out->ts = strtoull(f[ts], NULL, 10);
	out->stream = strtoull(f[ts - 1], NULL, 10);
	out->task = strtoull(f[ts - 2], NULL, 10);
	for (k = 1; k < ts - 2; k++) {
		if (k > 1)
			strbuf_addc(&sb, '.');
		strbuf_adds(&sb, f[k]);
	}
	if (!sb.buf || !*sb.buf) {
		strbuf_done(&sb);
		return false;
	}
	out->op_type = xstrdup(f[0]);
	out->op_name = strbuf_take(&sb);
	return true;
}

static void
set_io(struct ms_name *out, const char *io, const char *slot)
{
	out->has_io = true;
	out->is_input = strcmp(io, "input") == 0;
	out->slot = (uint32_t)strtoul(slot, NULL, 10);
}

/* The npy tails of §5.3 step 4: IO SLOT FORMAT DTYPE, then IO SLOT FORMAT
 * (FORMAT may be an msaccucmp shape). */
static bool
parse_npy(char **f, size_t n, struct ms_name *out)
{
	out->kind = MS_NAME_NPY;
	if (n >= 9 && is_io(f[n - 4]) && ms_all_digits(f[n - 3]) &&
	    ms_dtype_from_word(f[n - 1]) != DTYPE_INVALID && parse_head(f, n, 4, out)) {
		set_io(out, f[n - 4], f[n - 3]);
		out->format = xstrdup(f[n - 2]);
		out->dtype_word = xstrdup(f[n - 1]);
		out->dtype = ms_dtype_from_word(f[n - 1]);
		return true;
	}
	if (n >= 8 && is_io(f[n - 3]) && ms_all_digits(f[n - 2]) && parse_head(f, n, 3, out)) {
		set_io(out, f[n - 3], f[n - 2]);
		if (is_shape_field(f[n - 1]))
			out->shape = xstrdup(f[n - 1]);
		else
			out->format = xstrdup(f[n - 1]);
		return true;
	}
	return false;
}

static bool
parse_fields(char **f, size_t n, bool npy, bool json, struct ms_name *out)
{
	bool opdebug = n >= 2 && strcmp(f[0], "Opdebug") == 0 && strcmp(f[1], "Node_OpDebug") == 0;

	if (npy)
		return parse_npy(f, n, out);
	if (json && opdebug && n == 7 && strcmp(f[n - 2], "output") == 0 &&
	    ms_all_digits(f[n - 1]) && parse_head(f, n, 2, out)) {
		out->kind = MS_NAME_OVERFLOW_JSON;
		set_io(out, f[n - 2], f[n - 1]);
		return true;
	}
	if (json) {
		struct strbuf sb = {0};
		size_t k;

		if (n < 2 || opdebug)
			return false;
		for (k = 1; k < n; k++) {
			if (k > 1)
				strbuf_addc(&sb, '.');
			strbuf_adds(&sb, f[k]);
		}
		out->kind = MS_NAME_KERNEL_ARGS;
		out->op_type = xstrdup(f[0]);
		out->op_name = strbuf_take(&sb);
		return true;
	}
	if (parse_head(f, n, 0, out)) {
		out->kind = opdebug ? MS_NAME_OVERFLOW_BIN : MS_NAME_BIN;
		return true;
	}
	return false;
}

bool
ms_name_parse(const char *base, const struct ms_mapping *map, struct ms_name *out)
{
	size_t len = strlen(base), n, first;
	bool npy = ends_with(base, len, ".npy"), json = ends_with(base, len, ".json");
	char *stem, **f;
	const char *mapped;
	bool ok;

	memset(out, 0, sizeof(*out));
	if (npy || json)
		len -= npy ? 4 : 5;
	else if (ends_with(base, len, ".csv") || ends_with(base, len, ".txt"))
		return false;
	stem = xstrndup(base, len);
	/* §5.3 step 2: a numbered file (or a converted "NUMBER.io.slot.shape")
	 * takes its name from mapping.csv. */
	first = strcspn(stem, ".");
	if (first && first <= 32 && map) {
		char num[33];

		memcpy(num, stem, first);
		num[first] = '\0';
		if (ms_all_digits(num) && (mapped = ms_mapping_lookup(map, num))) {
			char *m = xasprintf("%s%s", mapped, stem + first);

			free(stem);
			stem = m;
			out->number = xstrdup(num);
		}
	}
	n = split_dots(stem, &f);
	ok = parse_fields(f, n, npy, json, out);
	free(f);
	free(stem);
	if (!ok) {
		ms_name_done(out);
		memset(out, 0, sizeof(*out));
	}
	return ok;
}

void
ms_name_done(struct ms_name *n)
{
	if (!n)
		return;
	free(n->op_type);
	free(n->op_name);
	free(n->format);
	free(n->shape);
	free(n->dtype_word);
	free(n->number);
	memset(n, 0, sizeof(*n));
}

static char
file_form_char(char c)
{
	return c == '/' || c == '\\' || c == '.' || c == ' ' ? '_' : c;
}

char *
ms_name_file_form(const char *full_name)
{
	char *s = xstrdup(full_name), *p;

	for (p = s; *p; p++)
		*p = file_form_char(*p);
	return s;
}

void
ms_name_add_file_form(struct strbuf *sb, const char *full_name)
{
	size_t at = sb->len, i;

	strbuf_adds(sb, full_name);
	for (i = at; i < sb->len; i++)
		sb->buf[i] = file_form_char(sb->buf[i]);
}

char *
ms_name_dash_form(const char *full_name)
{
	struct strbuf sb = {0};
	const char *p;

	if (!strchr(full_name, '/'))
		return NULL;
	for (p = full_name; *p; p++) {
		if (*p == '/')
			strbuf_adds(&sb, "--");
		else
			strbuf_addc(&sb, *p);
	}
	return strbuf_take(&sb);
}

const char *
ms_name_op_tail(const char *name)
{
	size_t len = strlen(name), d = len;
	const char *op, *start;

	/* "-op<digits>" at the very end, then back to the separator ('/' or
	 * '_') that starts a non-empty type; linear in the name. */
	while (d > 0 && isdigit((unsigned char)name[d - 1]))
		d--;
	if (d == len || d < 4 || memcmp(name + d - 3, "-op", 3) != 0)
		return NULL;
	op = name + d - 3;
	for (start = op; start > name && start[-1] != '/' && start[-1] != '_'; start--)
		;
	while (start == op && start > name) {   /* "x_-op3": the type is empty */
		for (start--; start > name && start[-1] != '/' && start[-1] != '_'; start--)
			;
	}
	return start == op ? NULL : start;
}

const char *
ms_mapping_lookup(const struct ms_mapping *m, const char *number)
{
	int64_t id = m ? td_strpool_find(&m->ix, number) : -1;

	return id >= 0 ? m->names[m->row_of[id]] : NULL;
}

void
ms_mapping_done(struct ms_mapping *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++) {
		free(m->numbers[i]);
		free(m->names[i]);
	}
	free(m->numbers);
	free(m->names);
	td_strpool_done(&m->ix);
	free(m->row_of);
	memset(m, 0, sizeof(*m));
}
