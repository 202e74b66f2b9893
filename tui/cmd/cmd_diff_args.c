/*
 * cmd_diff_args.c - the statistics-difference cells of a non-tensor
 * argument's row in "diff --csv" (cmd_diff_csv.h): the compare tool
 * compares the text of the four statistics cells, each side classed as a
 * number, NaN, inf, -inf, a device name, N/A or other text, and writes
 * "0" when the texts are equal, the difference and the relative error
 * for two numbers, and a fixed word otherwise (README, the compare
 * section, has the table).
 * The cells' text itself comes from the reader (util.h struct td_arg).
 * Also where the arguments go among an entry's rows, and the rows of a
 * call that has no tensor row, its arguments alone (cmd_diff_rows.h).
 * Curses-free.
 */
#include "cmd_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd_diff_csv.h"
#include "cmd_diff_rows.h"
#include "model/model_diff.h"

enum vclass { V_NUM, V_NAN, V_INF, V_NEG_INF, V_DEVICE, V_NA, V_OTHER };

static bool
has_device(const char *s)
{
	for (; *s; s++)
		if (strncasecmp(s, "npu", 3) == 0 || strncasecmp(s, "cpu", 3) == 0 ||
		    strncasecmp(s, "cuda", 4) == 0)
			return true;
	return false;
}

/* A number as text: what strtod reads whole (the reader gives numbers
 * their own kind; peer ranks come as text). */
static bool
text_number(const char *s, double *v)
{
	char *end;

	if (!*s || strcasecmp(s, "true") == 0 || strcasecmp(s, "false") == 0)
		return false;
	*v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	return *end == '\0';
}

static enum vclass
classify(const char *text, enum td_arg_num num, double *v)
{
	bool numeric = num != TD_ARG_TEXT || text_number(text, v);

	if (num != TD_ARG_TEXT)
		*v = strtod(text, NULL);
	if (strcasecmp(text, "nan") == 0 || (numeric && isnan(*v)))
		return V_NAN;
	if (strcasecmp(text, "inf") == 0 || (numeric && isinf(*v) && *v > 0))
		return V_INF;
	if (strcasecmp(text, "-inf") == 0 || (numeric && isinf(*v)))
		return V_NEG_INF;
	if (numeric)
		return V_NUM;
	if (has_device(text))
		return V_DEVICE;
	return strcmp(text, "N/A") == 0 ? V_NA : V_OTHER;
}

/* The word both cells get for two unequal values that are not two
 * numbers. */
static const char *
word_of(enum vclass n, enum vclass b)
{
	if (n == V_NA || b == V_NA || (n == V_DEVICE && b == V_DEVICE))
		return "N/A";
	if (n == V_DEVICE || b == V_DEVICE || n == V_OTHER || b == V_OTHER)
		return "Diff";
	if (n == V_NAN || b == V_NAN)
		return "Nan";
	if (n == V_INF || b == V_NEG_INF)
		return "inf";
	return "-inf";              /* -inf against a number or inf, a number against inf */
}

void
cmd_csv_arg_cells(struct strbuf *diff, struct strbuf *rel, const struct td_arg *n,
		  const struct td_arg *b)
{
	double nv = 0, bv = 0, d;
	enum vclass nc, bc;

	if (strcmp(n->value, b->value) == 0) {
		strbuf_adds(diff, "0");
		strbuf_adds(rel, "0");
		return;
	}
	nc = classify(n->value, n->num, &nv);
	bc = classify(b->value, b->num, &bv);
	if (nc != V_NUM || bc != V_NUM) {
		strbuf_adds(diff, word_of(nc, bc));
		strbuf_adds(rel, word_of(nc, bc));
		return;
	}
	d = nv - bv;
	cmd_csv_pyfloat(diff, d);
	if (bv == 0) {
		strbuf_adds(rel, "inf");
	} else {
		cmd_csv_pyfloat(rel, fabs(d / bv * 100));
		strbuf_addc(rel, '%');
	}
}

const struct td_arg *
cmd_csv_arg_find(const struct td_arg *args, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(args[i].path, path) == 0)
			return &args[i];
	return NULL;
}

/* ---- the arguments among an entry's rows ----------------------------- */


/* Keeps the call's arguments l was decoded with (the first time). */
void
cmd_csv_call_take(struct csv_call *c, struct leaf *l)
{
	if (c->found || !l->args)
		return;
	c->found = true;
	snprintf(c->l.name, sizeof c->l.name, "%s", l->name);
	c->l.oplen = l->oplen;
	c->args = l->args, c->nargs = l->nargs;
	l->args = NULL, l->nargs = 0;
}

void
cmd_csv_call_done(struct csv_call *c)
{
	td_args_free(c->args, c->nargs);
	memset(c, 0, sizeof(*c));
}

/* A leaf of argument a of call c. */
static void
arg_leaf(const struct csv_call *c, const struct td_arg *a, struct leaf *l)
{
	int k;

	memset(l, 0, sizeof(*l));
	l->requires_grad = -1;
	l->dt = DTYPE_INVALID;
	l->arg = a;
	snprintf(l->name, sizeof l->name, "%.*s.%s", (int)c->l.oplen, c->l.name, a->path);
	snprintf(l->dtype, sizeof l->dtype, "%s", a->dtype ? a->dtype : "N/A");
	snprintf(l->shape, sizeof l->shape, "%s", a->shape ? a->shape : "N/A");
	snprintf(l->md5, sizeof l->md5, "%s", a->md5 ? a->md5 : "");
	for (k = 0; k < 4; k++) {
		l->has[k] = a->num != TD_ARG_TEXT;
		l->st[k] = l->has[k] ? a->v : NAN;
	}
}

/* The entry's rows g[0, n) with B's arguments put at their places among
 * them (the tool's order), each paired by its path with A's argument when
 * both have a dtype and it is the same; the stack cell moves to the new
 * first input row.  Returns the new count. */
size_t
cmd_csv_with_args(struct csv_row **g, size_t *cap, size_t n, const struct csv_call *cb,
	  const struct csv_call *ca, bool tensor)
{
	struct csv_row *out, *stack_row = NULL;
	size_t t, k, m = 0;

	if (!cb->nargs)
		return n;
	out = xcalloc(n + cb->nargs, sizeof(*out));
	for (t = 0; t <= n; t++) {
		for (k = 0; k < cb->nargs; k++) {
			const struct td_arg *a = &cb->args[k];
			const struct td_arg *b = cmd_csv_arg_find(ca->args, ca->nargs, a->path);
			struct csv_row *r = &out[m];

			if (a->place != t && !(t == n && a->place > n))
				continue;
			m++;
			r->is_input = a->is_input;
			arg_leaf(cb, a, &r->n);
			r->matched = b && a->dtype && b->dtype && strcmp(a->dtype, b->dtype) == 0;
			if (b)
				arg_leaf(ca, b, &r->b);
			r->t.cosine = r->t.eucdist = r->t.max_abs = r->t.max_rel = NAN;
			r->t.one = r->t.five = NAN;
			if (tensor && r->matched)
				snprintf(r->err, sizeof r->err, "NPU does not have data file.");
		}
		if (t < n)
			out[m++] = (*g)[t];
	}
	for (k = 0; k < m && !stack_row; k++)
		if (out[k].stack)
			stack_row = &out[k];
	for (k = 0; k < m && stack_row; k++)
		if (out[k].is_input) {
			out[k].stack = stack_row->stack;
			if (stack_row != &out[k])
				stack_row->stack = NULL;
			break;
		}
	free(*g);
	*g = out;
	*cap = n + cb->nargs;
	return m;
}

/* ---- calls without tensor rows --------------------------------------- */

/* Execution x's arguments into c (its op name as the call's name); with
 * stack, *stack gets its stack cell (NULL none). */
static void
exec_call(struct model *m, uint64_t x, struct csv_call *c, char **stack)
{
	struct model_execution ex;
	struct model_detail d = { 0 };

	if (model_execution_get(m, x, &ex) != TD_OK || !ex.op_type ||
	    model_execution_detail(m, x, &d) != TD_OK) {
		model_detail_done(&d);
		return;
	}
	if (stack)
		*stack = cmd_csv_stack_cell(m, &d);
	c->found = true;
	snprintf(c->l.name, sizeof c->l.name, "%s", ex.op_type);
	c->l.oplen = strlen(c->l.name);
	c->args = d.args, c->nargs = d.nargs;
	d.args = NULL, d.nargs = 0;
	model_detail_done(&d);
}

size_t
cmd_csv_call_rows(struct model_diff *d, uint64_t x, struct csv_row **g, size_t *cap,
		  struct csv_call *cb, struct csv_call *ca, bool tensor, bool stack)
{
	struct model_execution ex;
	char *nstack = NULL, *bstack = NULL;
	int64_t ax;
	size_t n;

	if (model_execution_get(model_diff_b(d), x, &ex) != TD_OK || ex.ntraces)
		return 0;
	if ((ax = model_diff_execution_pair(d, x)) == -2)
		return 0;       /* a host the diff leaves out */
	exec_call(model_diff_b(d), x, cb, stack ? &nstack : NULL);
	if (!cb->nargs) {
		free(nstack);
		return 0;
	}
	if (ax >= 0)
		exec_call(model_diff_a(d), (uint64_t)ax, ca, stack ? &bstack : NULL);
	n = cmd_csv_with_args(g, cap, 0, cb, ca, tensor);
	/* the tool's rule, as for tensor rows: the stack on the call's first
	 * row when it is an input and the golden's call recorded one too */
	if (n && (*g)[0].is_input && (ax < 0 || bstack)) {
		(*g)[0].stack = nstack;
		nstack = NULL;
	}
	free(nstack);
	free(bstack);
	return n;
}
