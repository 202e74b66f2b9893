/*
 * model_expr_window.c - the condition language evaluated over a window
 * of rows at once: each leaf of the tree is a loop over the window's
 * column of a field, and `and`, `or`, `not` combine whole answer arrays
 * with the three-valued rules of expr_eval (model_expr.c), so a row's
 * answer is the one expr_eval gives it.
 *
 * Where the row by row walk stops at a side that decides, this one
 * evaluates both sides for every row: the same answer, given fields
 * that have no effect when read (a column, not a decode).  Several
 * expressions over one window (a watch set) may share their leaves'
 * answers (struct expr_leaves): a leaf that another expression already
 * evaluated over the window is copied, not evaluated again.  Not for
 * fields read by a callback with side effects (a decode, the watches'
 * basis): those stay with expr_eval.
 */
#include "model/model_expr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_expr_tree.h"
#include "model/model_regex.h"

/* An operand's column over the window. */
struct col {
	uint8_t *avail;
	double *num;
	const char **str;
};

struct window {
	const struct expr *e;
	size_t n;
	expr_col_fn get;
	void *ctx;
	struct expr_memo *mm;
	struct expr_leaves *lv;     /* NULL: no leaf shared */
};

/* A leaf's answers over the window, kept for the other expressions of
 * the window (the same field, operator and literal). */
#define LEAVES_MAX 64
struct expr_leaves {
	size_t n;
	struct leaf_ent {
		const struct node *nd; /* its expression's node (the key's fields) */
		uint8_t *ans;       /* EXPR_WINDOW answers */
	} v[LEAVES_MAX];
};

struct expr_leaves *
expr_leaves_new(void)
{
	return xcalloc(1, sizeof(struct expr_leaves));
}

void
expr_leaves_reset(struct expr_leaves *lv)
{
	if (lv)
		lv->n = 0;          /* the answer arrays are kept for the next window */
}

void
expr_leaves_free(struct expr_leaves *lv)
{
	if (!lv)
		return;
	for (size_t i = 0; i < LEAVES_MAX; i++)
		free(lv->v[i].ans);
	free(lv);
}

static bool
same_operand(const struct operand *a, const struct operand *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == O_FIELD)
		return a->field == b->field;
	if (a->kind == O_NUM)
		return memcmp(&a->num, &b->num, sizeof(a->num)) == 0;
	return !strcmp(a->str, b->str);
}

/* Whether leaf a answers as b does: the same test of the same fields.
 * A step-stage field is never shared: its answer may depend on the
 * expression's own context (a watch's tolerance). */
static bool
same_leaf(const struct node *a, const struct node *b)
{
	const struct operand *o[2] = { &a->l, &a->r };

	if (a->kind != b->kind || !same_operand(&a->l, &b->l))
		return false;
	if (a->kind != N_TRUTH && (a->op != b->op || !same_operand(&a->r, &b->r)))
		return false;
	for (int i = 0; i < (a->kind == N_TRUTH ? 1 : 2); i++)
		if (o[i]->kind == O_FIELD &&
		    expr_field_stage((enum expr_field)o[i]->field) == EXPR_STAGE_STEP)
			return false;
	return true;
}

static void
col_alloc(struct col *c, size_t n)
{
	c->avail = xmalloc(n);
	c->num = xmalloc(n * sizeof(*c->num));
	c->str = xmalloc(n * sizeof(*c->str));
}

static void
col_free(struct col *c)
{
	free(c->avail);
	free(c->num);
	free(c->str);
}

/* The operand's values for the window (a literal's, repeated). */
static void
operand_col(struct window *w, const struct operand *o, struct col *c)
{
	bool text = expr_operand_kind(o) == EXPR_STR;   /* only num or str is read */
	size_t k;

	if (o->kind != O_FIELD) {
		memset(c->avail, EXPR_KNOWN, w->n);
		for (k = 0; k < w->n; k++) {
			if (text)
				c->str[k] = o->str;
			else
				c->num[k] = o->num;
		}
		return;
	}
	for (k = 0; text && k < w->n; k++)
		c->str[k] = "";
	w->get(w->ctx, (enum expr_field)o->field, w->n, c->avail, c->num, c->str);
	for (k = 0; text && k < w->n; k++)
		if (!c->str[k])
			c->str[k] = "";
}

/* A field that is not known: defer (answered later) or unknown. */
static inline uint8_t
not_known(uint8_t avail)
{
	return avail == EXPR_LATER ? EXPR_DEFER : EXPR_UNKNOWN;
}

/* Numbers as compare() in model_expr.c: NaN on either side makes only
 * "!=" true, which is what IEEE comparisons give, so each operator is
 * its C comparison, in a loop of its own. */
#define CMP_LOOP(test)                                                                   \
	for (k = 0; k < n; k++) {                                                        \
		double a = l->num[k], b = r->num[k];                                     \
		uint8_t la = l->avail[k], ra = r->avail[k];                              \
                                                                                         \
		out[k] = la == EXPR_LATER || ra == EXPR_LATER ? EXPR_DEFER :             \
			 la != EXPR_KNOWN || ra != EXPR_KNOWN ? EXPR_UNKNOWN : (test);    \
	}

static void
cmp_num(enum tok op, const struct col *l, const struct col *r, size_t n, uint8_t *out)
{
	size_t k;

	switch (op) {
	case T_LT: CMP_LOOP(a < b) break;
	case T_LE: CMP_LOOP(a <= b) break;
	case T_GT: CMP_LOOP(a > b) break;
	case T_GE: CMP_LOOP(a >= b) break;
	case T_EQ: CMP_LOOP(a == b) break;
	default:   CMP_LOOP(a != b) break;
	}
}

/* The same against a number literal b (the usual "field > 0.5"): only
 * the field's column is read, its availability decides as above. */
#define LIT_LOOP(test)                                                                   \
	for (k = 0; k < n; k++) {                                                        \
		double a = l->num[k];                                                    \
		uint8_t la = l->avail[k], t = (uint8_t)(test);                           \
                                                                                         \
		out[k] = la == EXPR_KNOWN ? t : not_known(la);                           \
	}

static void
cmp_num_lit(enum tok op, const struct col *l, double b, size_t n, uint8_t *out)
{
	size_t k;

	switch (op) {
	case T_LT: LIT_LOOP(a < b) break;
	case T_LE: LIT_LOOP(a <= b) break;
	case T_GT: LIT_LOOP(a > b) break;
	case T_GE: LIT_LOOP(a >= b) break;
	case T_EQ: LIT_LOOP(a == b) break;
	default:   LIT_LOOP(a != b) break;
	}
}

/* Texts are compared once per pair of addresses (64 kept a window): a
 * field's texts are few (dtype and role names, an op's names) and a
 * literal's is one. */
static void
cmp_str(enum tok op, const struct col *l, const struct col *r, size_t n, uint8_t *out)
{
	struct { const char *l, *r; uint8_t v; } seen[64] = { { NULL, NULL, 0 } };

	for (size_t k = 0; k < n; k++) {
		if (l->avail[k] == EXPR_LATER || r->avail[k] == EXPR_LATER) {
			out[k] = EXPR_DEFER;
		} else if (l->avail[k] != EXPR_KNOWN || r->avail[k] != EXPR_KNOWN) {
			out[k] = EXPR_UNKNOWN;
		} else {
			const char *a = l->str[k], *b = r->str[k];
			unsigned h = (unsigned)(((uintptr_t)a ^ (uintptr_t)b >> 4) >> 3) & 63;

			if (seen[h].l != a || seen[h].r != b) {
				seen[h].l = a;
				seen[h].r = b;
				seen[h].v = (uint8_t)expr_cmp_holds(op, strcmp(a, b));
			}
			out[k] = seen[h].v;
		}
	}
}

/* The same against a text literal (the usual `role == "weight"`): only
 * the field's column is read, each text compared once per address (16
 * kept a window, the last one first). */
static void
cmp_str_lit(enum tok op, const struct col *l, const char *lit, size_t n, uint8_t *out)
{
	struct { const char *s; uint8_t v; } seen[16] = { { NULL, 0 } };
	const char *last = NULL;
	uint8_t v = 0;

	for (size_t k = 0; k < n; k++) {
		const char *a = l->str[k];

		if (l->avail[k] != EXPR_KNOWN) {
			out[k] = not_known(l->avail[k]);
			continue;
		}
		if (a != last) {
			unsigned h = (unsigned)((uintptr_t)a >> 3) & 15;

			if (seen[h].s != a) {
				seen[h].s = a;
				seen[h].v = (uint8_t)expr_cmp_holds(op, strcmp(a, lit));
			}
			last = a;
			v = seen[h].v;
		}
		out[k] = v;
	}
}

struct memo_ent {
	const char *s;              /* NULL empty */
	int node;
	uint8_t r;
};
struct expr_memo {
	struct memo_ent *v;
	size_t cap, n;              /* cap a power of two */
};

struct expr_memo *
expr_memo_new(void)
{
	return xcalloc(1, sizeof(struct expr_memo));
}

void
expr_memo_free(struct expr_memo *mm)
{
	if (mm)
		free(mm->v);
	free(mm);
}

static size_t
memo_slot(const struct expr_memo *mm, int node, const char *s)
{
	uint64_t h = ((uint64_t)(uintptr_t)s ^ (uint64_t)node << 56) * 0x9e3779b97f4a7c15ULL;
	size_t i = (size_t)(h >> 20) & (mm->cap - 1);

	while (mm->v[i].s && (mm->v[i].s != s || mm->v[i].node != node))
		i = (i + 1) & (mm->cap - 1);
	return i;
}

static void
memo_put(struct expr_memo *mm, int node, const char *s, uint8_t r)
{
	size_t i;

	if (2 * (mm->n + 1) > mm->cap) {
		struct expr_memo old = *mm;

		mm->cap = old.cap ? 2 * old.cap : 256;
		mm->v = xcalloc(mm->cap, sizeof(*mm->v));
		mm->n = 0;
		for (i = 0; i < old.cap; i++)
			if (old.v[i].s)
				memo_put(mm, old.v[i].node, old.v[i].s, old.v[i].r);
		free(old.v);
	}
	i = memo_slot(mm, node, s);
	mm->v[i] = (struct memo_ent){ s, node, r };
	mm->n++;
}

static uint8_t
match_text(const struct expr *e, const struct node *nd, const char *s)
{
	switch (model_regex_match(nd->re, s, strlen(s), e->md)) {
	case MODEL_REGEX_MATCH: return EXPR_TRUE;
	case MODEL_REGEX_NO: return EXPR_FALSE;
	default: return EXPR_UNKNOWN;   /* a PCRE2 limit: cannot tell, not "no" */
	}
}

/* "~": one match per distinct text, remembered by its address (a
 * field's texts are few and borrowed for the whole evaluation: dtype
 * names, op names and types), across windows in mm. */
static void
match_col(struct window *w, const struct node *nd, const struct col *l, uint8_t *out)
{
	struct { const char *s; uint8_t r; } last[64] = { { NULL, 0 } };
	int node = (int)(nd - w->e->nodes);

	for (size_t k = 0; k < w->n; k++) {
		const char *s = l->str[k];
		unsigned h = (unsigned)((uintptr_t)s >> 3) & 63;

		if (l->avail[k] != EXPR_KNOWN) {
			out[k] = not_known(l->avail[k]);
			continue;
		}
		if (last[h].s != s) {
			size_t i = w->mm && w->mm->cap ? memo_slot(w->mm, node, s) : 0;

			last[h].s = s;
			if (w->mm && w->mm->cap && w->mm->v[i].s) {
				last[h].r = w->mm->v[i].r;
			} else {
				last[h].r = match_text(w->e, nd, s);
				if (w->mm)
					memo_put(w->mm, node, s, last[h].r);
			}
		}
		out[k] = last[h].r;
	}
}

static void
eval_leaf_cols(struct window *w, const struct node *nd, uint8_t *out);

/* A leaf's answers: another expression's of this window when it has the
 * same leaf, else evaluated (and kept when there is room). */
static void
eval_leaf(struct window *w, const struct node *nd, uint8_t *out)
{
	struct expr_leaves *lv = w->lv;
	size_t i;

	if (!lv) {
		eval_leaf_cols(w, nd, out);
		return;
	}
	for (i = 0; i < lv->n; i++)
		if (same_leaf(lv->v[i].nd, nd)) {
			memcpy(out, lv->v[i].ans, w->n);
			return;
		}
	eval_leaf_cols(w, nd, out);
	if (lv->n < LEAVES_MAX && same_leaf(nd, nd)) {  /* a step field's is its own */
		struct leaf_ent *le = &lv->v[lv->n++];

		if (!le->ans)
			le->ans = xmalloc(EXPR_WINDOW);
		le->nd = nd;
		memcpy(le->ans, out, w->n);
	}
}

static void
eval_leaf_cols(struct window *w, const struct node *nd, uint8_t *out)
{
	struct col l, r;
	size_t k;

	col_alloc(&l, w->n);
	operand_col(w, &nd->l, &l);
	if (nd->kind == N_TRUTH) {
		for (k = 0; k < w->n; k++)
			out[k] = l.avail[k] != EXPR_KNOWN ? not_known(l.avail[k]) :
				 l.num[k] != 0 && !isnan(l.num[k]);
	} else if (nd->kind == N_MATCH) {
		match_col(w, nd, &l, out);
	} else if (nd->r.kind == O_NUM && expr_operand_kind(&nd->l) == EXPR_NUM) {
		cmp_num_lit(nd->op, &l, nd->r.num, w->n, out);
	} else if (nd->r.kind == O_STR && expr_operand_kind(&nd->l) == EXPR_STR) {
		cmp_str_lit(nd->op, &l, nd->r.str, w->n, out);
	} else {
		col_alloc(&r, w->n);
		operand_col(w, &nd->r, &r);
		if (expr_operand_kind(&nd->l) == EXPR_STR)
			cmp_str(nd->op, &l, &r, w->n, out);
		else
			cmp_num(nd->op, &l, &r, w->n, out);
		col_free(&r);
	}
	col_free(&l);
}

/* and, or of two answers (enum expr_result: FALSE, TRUE, UNKNOWN, DEFER) */
#define F_ EXPR_FALSE
#define T_ EXPR_TRUE
#define U_ EXPR_UNKNOWN
#define D_ EXPR_DEFER
static const uint8_t and_tab[4][4] = {
	{ F_, F_, F_, F_ }, { F_, T_, U_, D_ }, { F_, U_, U_, D_ }, { F_, D_, D_, D_ },
};
static const uint8_t or_tab[4][4] = {
	{ F_, T_, U_, D_ }, { T_, T_, T_, T_ }, { U_, T_, U_, D_ }, { D_, T_, D_, D_ },
};
#undef F_
#undef T_
#undef U_
#undef D_

static void
eval_node(struct window *w, int i, uint8_t *out)
{
	const struct node *nd = &w->e->nodes[i];
	const uint8_t (*tab)[4];
	uint8_t *b;
	size_t k;

	switch (nd->kind) {
	case N_NOT:
		eval_node(w, nd->a, out);
		for (k = 0; k < w->n; k++)
			out[k] = out[k] == EXPR_TRUE ? EXPR_FALSE :
				 out[k] == EXPR_FALSE ? EXPR_TRUE : out[k];
		return;
	case N_AND:
	case N_OR:
		/* as eval_node in model_expr.c: the deciding value wins over
		 * defer, defer over unknown, unknown over the other value */
		tab = nd->kind == N_AND ? and_tab : or_tab;
		b = xmalloc(w->n);
		eval_node(w, nd->a, out);
		eval_node(w, nd->b, b);
		for (k = 0; k < w->n; k++)
			out[k] = tab[out[k] & 3][b[k] & 3];
		free(b);
		return;
	default:
		eval_leaf(w, nd, out);
		return;
	}
}

void
expr_eval_window(const struct expr *e, size_t n, expr_col_fn get, void *ctx,
		 struct expr_memo *mm, uint8_t *out)
{
	expr_eval_window_shared(e, n, get, ctx, mm, NULL, out);
}

void
expr_eval_window_shared(const struct expr *e, size_t n, expr_col_fn get, void *ctx,
			struct expr_memo *mm, struct expr_leaves *lv, uint8_t *out)
{
	struct window w = { e, TD_MIN(n, (size_t)EXPR_WINDOW), get, ctx, mm, lv };

	if (w.n)
		eval_node(&w, e->root, out);
}
