/*
 * model_expr.c - lexer, recursive-descent parser and three-valued evaluator
 * of the condition language (see model_expr.h for the grammar).
 *
 * Expressions compile into a small tree held in one array; regexes are
 * compiled once at parse time.  Evaluation walks the tree and asks the
 * caller for each field it reaches, short-circuiting `and`/`or` as soon as
 * a side decides the result, so an op-level part that is false never makes
 * the caller decode a row.  Not for: arithmetic, functions, named
 * conditions (model_watch.c expands those into expressions).
 */
#include "model/model_expr.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_expr_tree.h"
#include "model/model_regex.h"
#include "reader/base/suggest.h"

static const struct {
	const char *name;
	enum expr_kind kind;
	enum expr_stage stage;
} fields[] = {
#define EXPR_FIELD_ROW(id, name, kind, stage) { name, EXPR_##kind, EXPR_STAGE_##stage },
	EXPR_FIELD_INFO(EXPR_FIELD_ROW)
#undef EXPR_FIELD_ROW
};

const char *
expr_field_name(enum expr_field f)
{
	return (unsigned)f < EXPR_F_COUNT ? fields[f].name : "?";
}

enum expr_kind
expr_field_kind(enum expr_field f)
{
	return fields[f].kind;
}

enum expr_stage
expr_field_stage(enum expr_field f)
{
	return fields[f].stage;
}

int
expr_field_find(const char *name)
{
	int i;

	for (i = 0; i < EXPR_F_COUNT; i++)
		if (strcmp(fields[i].name, name) == 0)
			return i;
	return -1;
}

/* ---- tokens ------------------------------------------------------------ */


static const char *const cmp_text[] = {
	[T_LT] = "<", [T_LE] = "<=", [T_GT] = ">", [T_GE] = ">=",
	[T_EQ] = "==", [T_NE] = "!=", [T_MATCH] = "~",
};

struct lexer {
	const char *text, *p;
	enum tok tok;
	size_t col;                 /* 1-based column of the current token */
	double num;
	int field;
	struct strbuf str;          /* T_STR contents; T_BAD: the word */
	char *err;
	size_t errlen;
	bool failed;
};

static void __attribute__((format(printf, 3, 4)))
lex_error(struct lexer *lx, size_t col, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (lx->failed)
		return;
	lx->failed = true;
	n = snprintf(lx->err, lx->errlen, "column %zu: ", col);
	if (n < 0 || (size_t)n >= lx->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(lx->err + n, lx->errlen - (size_t)n, fmt, ap);
	va_end(ap);
}

/* A number at p (sign, digits, fraction, exponent, or "inf"); NULL if none. */
static const char *
lex_number(const char *p, double *out)
{
	const char *q = p;
	char *end;

	if (*q == '-' || *q == '+')
		q++;
	if (strncmp(q, "inf", 3) == 0 && !isalnum((unsigned char)q[3]) && q[3] != '_') {
		*out = *p == '-' ? -INFINITY : INFINITY;
		return q + 3;
	}
	if (!isdigit((unsigned char)*q) && !(*q == '.' && isdigit((unsigned char)q[1])))
		return NULL;
	*out = strtod(p, &end);
	if (isalpha((unsigned char)*end) || *end == '_')
		return NULL;            /* "1e" or "12abc" */
	return end;
}

static void
lex_string(struct lexer *lx)
{
	char quote = *lx->p++;

	strbuf_reset(&lx->str);
	for (; *lx->p && *lx->p != quote; lx->p++) {
		if (*lx->p == '\\' && (lx->p[1] == quote || lx->p[1] == '\\'))
			lx->p++;
		strbuf_addc(&lx->str, *lx->p);
	}
	if (!*lx->p) {
		lex_error(lx, lx->col, "unterminated string");
		lx->tok = T_BAD;
		return;
	}
	lx->p++;
	lx->tok = T_STR;
}

static void
lex_word(struct lexer *lx)
{
	const char *s = lx->p;

	while (isalnum((unsigned char)*lx->p) || *lx->p == '_')
		lx->p++;
	strbuf_reset(&lx->str);
	strbuf_add(&lx->str, s, (size_t)(lx->p - s));
	if (strcmp(lx->str.buf, "and") == 0)
		lx->tok = T_AND;
	else if (strcmp(lx->str.buf, "or") == 0)
		lx->tok = T_OR;
	else if (strcmp(lx->str.buf, "not") == 0)
		lx->tok = T_NOT;
	else if ((lx->field = expr_field_find(lx->str.buf)) >= 0)
		lx->tok = T_FIELD;
	else
		lx->tok = T_BAD;
}

static void
lex_next(struct lexer *lx)
{
	static const struct { const char *s; enum tok t; } ops[] = {
		{ "<=", T_LE }, { ">=", T_GE }, { "==", T_EQ }, { "!=", T_NE },
		{ "<", T_LT }, { ">", T_GT }, { "=", T_EQ }, { "~", T_MATCH },
		{ "(", T_LP }, { ")", T_RP },
	};
	const char *end;
	size_t i;

	while (isspace((unsigned char)*lx->p))
		lx->p++;
	lx->col = (size_t)(lx->p - lx->text) + 1;
	if (!*lx->p) {
		lx->tok = T_END;
		return;
	}
	if ((end = lex_number(lx->p, &lx->num))) {
		lx->p = end;
		lx->tok = T_NUM;
		return;
	}
	if (isdigit((unsigned char)*lx->p) || *lx->p == '.') {
		size_t n = strspn(lx->p, "0123456789.eE+-abcdfghijklmnopqrstuvwxyz_");

		lex_error(lx, lx->col, "bad number \"%.*s\"", (int)n, lx->p);
		lx->tok = T_BAD;
		return;
	}
	if (*lx->p == '"' || *lx->p == '\'') {
		lex_string(lx);
		return;
	}
	if (isalpha((unsigned char)*lx->p) || *lx->p == '_') {
		lex_word(lx);
		return;
	}
	for (i = 0; i < TD_ARRAY_SIZE(ops); i++) {
		size_t n = strlen(ops[i].s);

		if (strncmp(lx->p, ops[i].s, n) == 0) {
			lx->p += n;
			lx->tok = ops[i].t;
			return;
		}
	}
	strbuf_reset(&lx->str);
	strbuf_addc(&lx->str, *lx->p++);
	lx->tok = T_BAD;
}

/* ---- tree ---------------------------------------------------------------- */

static int
node_new(struct expr *e, enum node_kind kind)
{
	TD_GROW(e->nodes, e->cap, e->n + 1);
	memset(&e->nodes[e->n], 0, sizeof(e->nodes[0]));
	e->nodes[e->n].kind = kind;
	return (int)e->n++;
}

struct parser {
	struct lexer lx;
	struct expr *e;
	int depth;
};

static int parse_or(struct parser *ps);

static const char *
tok_desc(struct lexer *lx)
{
	switch (lx->tok) {
	case T_END: return "the end";
	case T_RP: return "\")\"";
	case T_LP: return "\"(\"";
	case T_AND: return "\"and\"";
	case T_OR: return "\"or\"";
	case T_NOT: return "\"not\"";
	case T_NUM: return "a number";
	case T_STR: return "a string";
	case T_FIELD: return "a field";
	default: return cmp_text[lx->tok] ? cmp_text[lx->tok] : "this";
	}
}

/* An operand: a field, a number or a string.  false (error set) if none. */
static bool
parse_operand(struct parser *ps, struct operand *o)
{
	struct lexer *lx = &ps->lx;

	o->col = lx->col;
	switch (lx->tok) {
	case T_FIELD:
		o->kind = O_FIELD;
		o->field = lx->field;
		ps->e->fields |= 1ull << lx->field;
		break;
	case T_NUM:
		o->kind = O_NUM;
		o->num = lx->num;
		break;
	case T_STR:
		o->kind = O_STR;
		o->str = xstrdup(lx->str.buf);
		break;
	case T_BAD:
		if (!lx->failed) {
			struct td_suggest near;
			struct strbuf hint = { 0 };

			td_suggest_init(&near, lx->str.buf);
			for (int f = 0; f < EXPR_F_COUNT; f++)
				td_suggest_add(&near, expr_field_name(f));
			td_suggest_text(&near, &hint);
			lex_error(lx, lx->col, "unknown field \"%s\"%s", lx->str.buf,
				  hint.buf ? hint.buf : "");
			strbuf_done(&hint);
		}
		return false;
	default:
		lex_error(lx, lx->col, "expected a field, a number or a string, found %s",
			  tok_desc(lx));
		return false;
	}
	lex_next(lx);
	return true;
}

static bool
compile_regex(struct parser *ps, struct node *n)
{
	int code;
	PCRE2_SIZE off;
	PCRE2_UCHAR msg[160];

	if (n->r.kind != O_STR) {
		lex_error(&ps->lx, n->r.col, "\"~\" wants a pattern string on its right");
		return false;
	}
	if (expr_operand_kind(&n->l) != EXPR_STR) {
		lex_error(&ps->lx, n->l.col, "\"~\" wants a text field on its left");
		return false;
	}
	n->re = pcre2_compile((PCRE2_SPTR)n->r.str, PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
	if (!n->re) {
		pcre2_get_error_message(code, msg, sizeof msg);
		/* +1 for the opening quote */
		lex_error(&ps->lx, n->r.col + 1 + off, "pattern \"%s\": %s at offset %zu",
			  n->r.str, (char *)msg, (size_t)off);
		return false;
	}
	return true;
}

static int
parse_cmp(struct parser *ps)
{
	struct lexer *lx = &ps->lx;
	struct operand l = {0}, r = {0};
	enum tok op;
	int i;

	if (!parse_operand(ps, &l))
		return -1;
	op = lx->tok;
	if (op < T_LT || op > T_MATCH) {
		if (expr_operand_kind(&l) != EXPR_NUM || l.kind != O_FIELD) {
			lex_error(lx, l.col, "a %s alone is not a condition (compare it)",
				  l.kind == O_FIELD ? "text field" : "constant");
			free(l.str);
			return -1;
		}
		i = node_new(ps->e, N_TRUTH);
		ps->e->nodes[i].l = l;
		return i;
	}
	lex_next(lx);
	if (!parse_operand(ps, &r)) {
		free(l.str);
		return -1;
	}
	i = node_new(ps->e, op == T_MATCH ? N_MATCH : N_CMP);
	ps->e->nodes[i].op = op;
	ps->e->nodes[i].l = l;
	ps->e->nodes[i].r = r;
	if (op == T_MATCH)
		return compile_regex(ps, &ps->e->nodes[i]) ? i : -1;
	if (expr_operand_kind(&l) != expr_operand_kind(&r)) {
		lex_error(lx, r.col, "%s compares a %s with a %s", cmp_text[op],
			  expr_operand_kind(&l) == EXPR_NUM ? "number" : "text",
			  expr_operand_kind(&r) == EXPR_NUM ? "number" : "text");
		return -1;
	}
	return i;
}

static int
parse_primary(struct parser *ps)
{
	struct lexer *lx = &ps->lx;
	size_t col = lx->col;
	int i;

	if (lx->tok != T_LP)
		return parse_cmp(ps);
	if (++ps->depth > 64) {
		lex_error(lx, col, "too deeply nested");
		return -1;
	}
	lex_next(lx);
	i = parse_or(ps);
	if (i < 0)
		return -1;
	if (lx->tok != T_RP) {
		lex_error(lx, lx->col, "expected \")\" to close column %zu, found %s", col,
			  tok_desc(lx));
		return -1;
	}
	ps->depth--;
	lex_next(lx);
	return i;
}

static int
parse_not(struct parser *ps)
{
	int i, a;

	if (ps->lx.tok != T_NOT)
		return parse_primary(ps);
	if (++ps->depth > 64) {
		lex_error(&ps->lx, ps->lx.col, "too deeply nested");
		return -1;
	}
	lex_next(&ps->lx);
	if ((a = parse_not(ps)) < 0)
		return -1;
	ps->depth--;
	i = node_new(ps->e, N_NOT);
	ps->e->nodes[i].a = a;
	return i;
}

static int
parse_binary(struct parser *ps, enum tok t, enum node_kind kind, int (*sub)(struct parser *))
{
	int l = sub(ps), r, i;

	while (l >= 0 && ps->lx.tok == t) {
		lex_next(&ps->lx);
		if ((r = sub(ps)) < 0)
			return -1;
		i = node_new(ps->e, kind);
		ps->e->nodes[i].a = l;
		ps->e->nodes[i].b = r;
		l = i;
	}
	return l;
}

static int
parse_and(struct parser *ps)
{
	return parse_binary(ps, T_AND, N_AND, parse_not);
}

static int
parse_or(struct parser *ps)
{
	return parse_binary(ps, T_OR, N_OR, parse_and);
}

enum td_status
expr_parse(const char *text, struct expr **out, char *err, size_t errlen)
{
	struct parser ps = {0};
	struct expr *e = xcalloc(1, sizeof(*e));
	bool regex_error;

	*out = NULL;
	e->text = xstrdup(text ? text : "");
	ps.e = e;
	ps.lx.text = ps.lx.p = e->text;
	ps.lx.err = err;
	ps.lx.errlen = errlen;
	lex_next(&ps.lx);
	if (ps.lx.tok == T_END && !ps.lx.failed)
		lex_error(&ps.lx, ps.lx.col, "empty condition");
	else if ((e->root = parse_or(&ps)) >= 0 && ps.lx.tok != T_END)
		lex_error(&ps.lx, ps.lx.col, "expected \"and\", \"or\" or the end, found %s",
			  ps.lx.tok == T_BAD ? ps.lx.str.buf : tok_desc(&ps.lx));
	strbuf_done(&ps.lx.str);
	if (ps.lx.failed) {
		regex_error = strstr(err, ": pattern \"") != NULL;
		expr_free(e);
		return regex_error ? TD_ERR_REGEX : TD_ERR_ARGS;
	}
	e->md = pcre2_match_data_create(1, NULL);
	for (size_t i = 0; i < e->n && !e->rx; i++)
		if (e->nodes[i].kind == N_MATCH)
			e->rx = xcalloc(EXPR_RX_MEMO, sizeof(*e->rx));
	*out = e;
	return TD_OK;
}

void
expr_free(struct expr *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->n; i++) {
		free(e->nodes[i].l.str);
		free(e->nodes[i].r.str);
		pcre2_code_free(e->nodes[i].re);
	}
	pcre2_match_data_free(e->md);
	free(e->rx);
	free(e->nodes);
	free(e->text);
	free(e);
}

const char *
expr_text(const struct expr *e)
{
	return e->text;
}

uint64_t
expr_fields(const struct expr *e)
{
	return e->fields;
}

enum expr_stage
expr_max_stage(const struct expr *e)
{
	enum expr_stage s = EXPR_STAGE_OP;
	int f;

	for (f = 0; f < EXPR_F_COUNT; f++)
		if ((e->fields >> f & 1) && expr_field_stage((enum expr_field)f) > s)
			s = expr_field_stage((enum expr_field)f);
	return s;
}

/* ---- evaluation -------------------------------------------------------- */

struct value {
	enum expr_avail avail;
	double num;
	const char *str;
};

static void
operand_value(const struct operand *o, expr_get_fn get, void *ctx, struct value *v)
{
	v->avail = EXPR_KNOWN;
	v->num = o->num;
	v->str = o->str;
	if (o->kind == O_FIELD) {
		v->str = "";
		v->avail = get(ctx, (enum expr_field)o->field, &v->num, &v->str);
		if (v->avail == EXPR_KNOWN && !v->str)
			v->str = "";
	}
}

static enum expr_result
compare(enum tok op, const struct value *l, const struct value *r, enum expr_kind kind)
{
	int c;

	if (kind == EXPR_STR) {
		c = strcmp(l->str, r->str);
	} else {
		if (isnan(l->num) || isnan(r->num))
			return op == T_NE ? EXPR_TRUE : EXPR_FALSE;
		c = l->num < r->num ? -1 : l->num > r->num ? 1 : 0;
	}
	return expr_cmp_holds(op, c) ? EXPR_TRUE : EXPR_FALSE;
}

/* n's "~" on s: from the memo when a row before carried the same short
 * text, else matched (and kept).  The same answer either way: a match
 * depends on the pattern and the text alone. */
static enum expr_result
match_text(const struct expr *e, const struct node *n, const char *s)
{
	size_t len = strlen(s);
	int node1 = (int)(n - e->nodes) + 1;
	struct expr_rx_ent *ent = NULL;
	enum expr_result r;

	if (e->rx && len < EXPR_RX_SHORT) {
		uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)node1;

		for (size_t i = 0; i < len; i++)
			h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
		ent = &e->rx[(h >> 40) % EXPR_RX_MEMO];    /* FNV-1a's low bits mix poorly */
		if (ent->node1 == node1 && ent->len == len && !memcmp(ent->s, s, len))
			return (enum expr_result)ent->r;
	}
	switch (model_regex_match(n->re, s, len, e->md)) {
	case MODEL_REGEX_MATCH: r = EXPR_TRUE; break;
	case MODEL_REGEX_NO: r = EXPR_FALSE; break;
	default: r = EXPR_UNKNOWN; break;       /* a PCRE2 limit: cannot tell, not "no" */
	}
	if (ent) {
		ent->node1 = node1;
		ent->len = (uint8_t)len;
		ent->r = (uint8_t)r;
		memcpy(ent->s, s, len);
	}
	return r;
}

static enum expr_result
eval_leaf(const struct expr *e, const struct node *n, expr_get_fn get, void *ctx)
{
	struct value l, r;

	operand_value(&n->l, get, ctx, &l);
	if (n->kind == N_TRUTH) {
		if (l.avail != EXPR_KNOWN)
			return l.avail == EXPR_LATER ? EXPR_DEFER : EXPR_UNKNOWN;
		return l.num != 0 && !isnan(l.num);
	}
	if (n->kind == N_MATCH) {
		if (l.avail != EXPR_KNOWN)
			return l.avail == EXPR_LATER ? EXPR_DEFER : EXPR_UNKNOWN;
		return match_text(e, n, l.str);
	}
	operand_value(&n->r, get, ctx, &r);
	if (l.avail == EXPR_LATER || r.avail == EXPR_LATER)
		return EXPR_DEFER;
	if (l.avail != EXPR_KNOWN || r.avail != EXPR_KNOWN)
		return EXPR_UNKNOWN;
	return compare(n->op, &l, &r, expr_operand_kind(&n->l));
}

static enum expr_result
eval_node(const struct expr *e, int i, expr_get_fn get, void *ctx)
{
	const struct node *n = &e->nodes[i];
	enum expr_result a, b;
	enum expr_result stop, keep;

	switch (n->kind) {
	case N_NOT:
		a = eval_node(e, n->a, get, ctx);
		return a == EXPR_TRUE ? EXPR_FALSE : a == EXPR_FALSE ? EXPR_TRUE : a;
	case N_AND:
	case N_OR:
		/* the value that decides (false for and, true for or) wins over
		 * defer, defer over unknown, unknown over the other value */
		stop = n->kind == N_AND ? EXPR_FALSE : EXPR_TRUE;
		keep = n->kind == N_AND ? EXPR_TRUE : EXPR_FALSE;
		if ((a = eval_node(e, n->a, get, ctx)) == stop)
			return stop;
		if ((b = eval_node(e, n->b, get, ctx)) == stop)
			return stop;
		if (a == EXPR_DEFER || b == EXPR_DEFER)
			return EXPR_DEFER;
		if (a == EXPR_UNKNOWN || b == EXPR_UNKNOWN)
			return EXPR_UNKNOWN;
		return keep;
	default:
		return eval_leaf(e, n, get, ctx);
	}
}

enum expr_result
expr_eval(const struct expr *e, expr_get_fn get, void *ctx)
{
	return eval_node(e, e->root, get, ctx);
}

size_t
expr_thresholds(const struct expr *e, struct expr_threshold *out, size_t max)
{
	static const enum tok flip[] = {
		[T_LT] = T_GT, [T_LE] = T_GE, [T_GT] = T_LT, [T_GE] = T_LE,
		[T_EQ] = T_EQ, [T_NE] = T_NE,
	};
	size_t i, k = 0;

	/* nodes are stored children first, so array order is source order */
	for (i = 0; i < e->n; i++) {
		const struct node *n = &e->nodes[i];
		struct expr_threshold t;

		if (n->kind != N_CMP || expr_operand_kind(&n->l) != EXPR_NUM)
			continue;
		if (n->l.kind == O_FIELD && n->r.kind == O_NUM)
			t = (struct expr_threshold){ n->l.field, cmp_text[n->op], n->r.num };
		else if (n->r.kind == O_FIELD && n->l.kind == O_NUM)
			t = (struct expr_threshold){ n->r.field, cmp_text[flip[n->op]], n->l.num };
		else
			continue;
		if (k < max)
			out[k] = t;
		k++;
	}
	return k;
}
