/*
 * model_watch.c - watches: named numerical checks over every tensor row.
 *
 * A watch is a name and a condition: an expression of the condition
 * language (model_expr.h) or one of the named conditions below, which are
 * shorthands for expressions with MindInsight's names and parameters
 * (weight_too_large(abs_mean_gt=100) is `role == "weight" and (abs_mean >
 * 100)`).  The recommended set (the conditions marked so, with their
 * defaults) is on until switched off.  A check walks the rows in order, a
 * budget of rows at a time (the TUI checks in the background of its poll,
 * batch runs it to the end), and collects the hits with the values of the
 * fields each condition read and its thresholds.
 *
 * Not for: saving watches (the command layer writes the config file);
 * deciding rows (model_where.c); the previous step (model_step.c).
 */
#include "model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/suggest.h"

#define WATCH_PARAMS_MAX 8

/* A parameter of a named condition: `field op value * scale`. */
struct cond_param {
	const char *name;
	const char *field;          /* NULL: not a comparison (tolerances, factor) */
	const char *op;
	double scale;
};

static const struct cond_param params[] = {
	{ "abs_mean_gt", "abs_mean", ">", 1 },
	{ "abs_mean_lt", "abs_mean", "<", 1 },
	{ "max_gt", "max", ">", 1 },
	{ "max_lt", "max", "<", 1 },
	{ "min_gt", "min", ">", 1 },
	{ "min_lt", "min", "<", 1 },
	{ "mean_gt", "mean", ">", 1 },
	{ "mean_lt", "mean", "<", 1 },
	{ "zero_percentage_ge", "zero_percentage", ">=", 1 },
	{ "abs_mean_update_ratio_gt", "update_ratio", ">", 1 },
	{ "abs_mean_update_ratio_lt", "update_ratio", "<", 1 },
	{ "range_start_inclusive", "min", "<", 1 },
	{ "range_end_inclusive", "max", ">", 1 },
	{ "rtol", NULL, NULL, 1 },
	{ "atol", NULL, NULL, 1 },
	{ "factor", NULL, NULL, 1 },
};

#define NONFINITE "(nan > 0 or neg_inf > 0 or pos_inf > 0)"
/* Value conditions look at floating-point tensors: an int32 OneHot, a
 * uint8 mask or an argmax is not "too large" (README, Watches). */
#define FLOAT "dtype ~ \"float\""
#define FLOATS "float16, bfloat16, float32, float64"

/* The named conditions: base expression, the parameters it takes (their
 * comparisons are or-ed and and-ed with the base), its defaults, whether
 * it is in the recommended set, the dtypes it looks at. */
static const struct model_condition conditions[] = {
	{ "weight_initialization", FLOAT " and role == \"weight\" and first_record",
	  "zero_percentage_ge max_gt min_lt", "zero_percentage_ge=100", false,
	  "a weight's first record is all zeros (or past max/min)", FLOATS },
	{ "weight_overflow", "role == \"weight\" and " NONFINITE, "", "", true,
	  "a weight holds NaN or Inf", "any" },
	{ "weight_too_large", FLOAT " and role == \"weight\"", "abs_mean_gt max_gt min_lt mean_gt",
	  "abs_mean_gt=100", true, "a weight's magnitude is too large", FLOATS },
	{ "weight_too_small", FLOAT " and role == \"weight\"", "abs_mean_lt max_lt min_gt mean_lt",
	  "abs_mean_lt=1e-05", false, "a weight's magnitude is too small", FLOATS },
	{ "gradient_vanishing", FLOAT " and role == \"gradient\"", "abs_mean_lt max_lt min_gt mean_lt",
	  "abs_mean_lt=1e-09", true, "a gradient is vanishing", FLOATS },
	{ "gradient_too_large", FLOAT " and role == \"gradient\"", "abs_mean_gt max_gt min_lt mean_gt",
	  "abs_mean_gt=1000", true, "a gradient is too large", FLOATS },
	{ "gradient_exploding", "role == \"gradient\" and " NONFINITE, "", "", true,
	  "a gradient holds NaN or Inf", "any" },
	{ "tensor_overflow", NONFINITE, "", "", false, "a tensor holds NaN or Inf", "any" },
	{ "operator_overflow", NULL, "", "", true,
	  "the dump's own overflow records (overflow dumps)", "any" },
	{ "tensor_too_large", FLOAT, "abs_mean_gt max_gt min_lt mean_gt", "", false,
	  "a tensor's magnitude is too large", FLOATS },
	{ "tensor_too_small", FLOAT, "abs_mean_lt max_lt min_gt mean_lt", "", false,
	  "a tensor's magnitude is too small", FLOATS },
	{ "tensor_all_zero", FLOAT, "zero_percentage_ge", "zero_percentage_ge=100", false,
	  "a tensor is (mostly) zeros", FLOATS },
	{ "weight_not_changed", FLOAT " and role == \"weight\" and unchanged", "rtol atol",
	  "rtol=1e-05 atol=1e-08", true, "a weight did not change since the previous step", FLOATS },
	{ "weight_change_too_large", FLOAT " and role == \"weight\"", "abs_mean_update_ratio_gt",
	  "abs_mean_update_ratio_gt=0.1", true, "a weight changed too much in one step", FLOATS },
	{ "weight_change_too_small", FLOAT " and role == \"weight\"", "abs_mean_update_ratio_lt",
	  "abs_mean_update_ratio_lt=0.0001", true, "a weight changed too little in one step", FLOATS },
	{ "activation_range", FLOAT " and role == \"activation\"",
	  "range_start_inclusive range_end_inclusive", "", false,
	  "an activation has values outside [start, end]", FLOATS },
	{ "tensor_range", FLOAT, "range_start_inclusive range_end_inclusive", "", false,
	  "a tensor has values outside [start, end]", FLOATS },
	{ "fp16_overflow_risk", NULL, "factor", "factor=2", true,
	  "a float16/bfloat16 tensor's max |x| is within factor of the dtype's limit",
	  "float16, bfloat16" },
};

struct watch {
	char *name, *text, *expr_text;
	struct expr *e;             /* NULL: operator_overflow (the dump's alerts) */
	struct step_tol tol;
	bool recommended;
	enum model_watch_scope scope;
};

struct watch_set {
	struct watch *v;
	size_t n, cap;
	bool loaded;                /* the recommended set was added once */
	bool recommended_off;
};

bool
model_condition_at(size_t i, struct model_condition *c)
{
	if (i >= TD_ARRAY_SIZE(conditions))
		return false;
	*c = conditions[i];
	return true;
}

static const struct model_condition *
condition_find(const char *name, size_t len)
{
	for (size_t i = 0; i < TD_ARRAY_SIZE(conditions); i++)
		if (strlen(conditions[i].name) == len && !strncmp(conditions[i].name, name, len))
			return &conditions[i];
	return NULL;
}

static const struct cond_param *
param_find(const char *name)
{
	for (size_t i = 0; i < TD_ARRAY_SIZE(params); i++)
		if (!strcmp(params[i].name, name))
			return &params[i];
	return NULL;
}

/* Whether word is in the space-separated list. */
static bool
in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

struct param_val {
	const struct cond_param *p;
	double v;
};

/* Parses "k=v k=v" or "k=v, k=v" into vals (a later key replaces an
 * earlier one); err names a bad one. */
static bool
parse_params(const struct model_condition *c, const char *text, struct param_val *vals, size_t *n,
	     char *err, size_t errlen)
{
	char buf[512], *save = NULL;

	snprintf(buf, sizeof buf, "%s", text);
	for (char *tok = strtok_r(buf, " ,\t", &save); tok; tok = strtok_r(NULL, " ,\t", &save)) {
		char *eq = strchr(tok, '='), *end;
		if (!eq) {
			snprintf(err, errlen, "%s: expected name=value, not '%s'", c->name, tok);
			return false;
		}
		*eq = '\0';
		const struct cond_param *p = param_find(tok);
		if (!p || !in_list(c->params, tok)) {
			snprintf(err, errlen, "%s takes %s%s, not '%s'", c->name,
				 *c->params ? "" : "no parameters", c->params, tok);
			return false;
		}
		double v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || isnan(v)) {
			snprintf(err, errlen, "%s: %s wants a number, not '%s'", c->name, tok, eq + 1);
			return false;
		}
		size_t k;
		for (k = 0; k < *n && vals[k].p != p; k++)
			;
		if (k == *n) {
			if (*n == WATCH_PARAMS_MAX) {
				snprintf(err, errlen, "%s: too many parameters", c->name);
				return false;
			}
			(*n)++;
		}
		vals[k] = (struct param_val){ p, v };
	}
	return true;
}

/* The expression of condition c with its parameters; tol and factor set
 * from them. */
static bool
expand(const struct model_condition *c, const char *args, struct strbuf *out,
       struct step_tol *tol, char *err, size_t errlen)
{
	struct param_val vals[WATCH_PARAMS_MAX];
	size_t n = 0, ncmp = 0;
	double factor = 2;

	if (!parse_params(c, c->defaults, vals, &n, err, errlen) ||
	    (args && !parse_params(c, args, vals, &n, err, errlen)))
		return false;
	*tol = (struct step_tol){ STEP_RTOL, STEP_ATOL };
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(vals[i].p->name, "rtol"))
			tol->rtol = vals[i].v;
		else if (!strcmp(vals[i].p->name, "atol"))
			tol->atol = vals[i].v;
		else if (!strcmp(vals[i].p->name, "factor"))
			factor = vals[i].v;
		else
			ncmp++;
	}
	if (!strcmp(c->name, "fp16_overflow_risk")) {
		if (!(factor >= 1)) {
			snprintf(err, errlen, "fp16_overflow_risk: factor must be >= 1");
			return false;
		}
		strbuf_adds(out, "(dtype == \"float16\" and max_abs > ");
		strbuf_add_double(out, td_dtype_max(DTYPE_FLOAT16) / factor);
		strbuf_adds(out, ") or (dtype == \"bfloat16\" and max_abs > ");
		strbuf_add_double(out, td_dtype_max(DTYPE_BFLOAT16) / factor);
		strbuf_adds(out, ")");
		return true;
	}
	bool comparisons = strstr(c->params, "_gt") || strstr(c->params, "_lt") ||
			   strstr(c->params, "_ge") || strstr(c->params, "inclusive");
	if (comparisons && !ncmp) {
		snprintf(err, errlen, "%s needs one of: %s", c->name, c->params);
		return false;
	}
	strbuf_addf(out, "%s", c->base);
	if (!ncmp)
		return true;
	strbuf_adds(out, " and (");
	for (size_t i = 0, k = 0; i < n; i++) {
		if (!vals[i].p->field)
			continue;
		strbuf_addf(out, "%s%s %s ", k++ ? " or " : "", vals[i].p->field, vals[i].p->op);
		strbuf_add_double(out, vals[i].v * vals[i].p->scale);
	}
	strbuf_adds(out, ")");
	return true;
}

/* "; did you mean tensor_too_large?" for a first word that is no
 * condition (a typo the expression parser then fails on). */
static void
suggest_condition(const char *text, size_t len, struct strbuf *hint)
{
	char word[64];
	struct td_suggest near;

	snprintf(word, sizeof word, "%.*s", (int)len, text);
	td_suggest_init(&near, word);
	for (size_t i = 0; i < TD_ARRAY_SIZE(conditions); i++)
		td_suggest_add(&near, conditions[i].name);
	td_suggest_text(&near, hint);
}

/* Compiles text (a named condition, with "(k=v, ...)" or not, or an
 * expression) into w. */
static enum td_status
watch_compile(const char *name, const char *text, struct watch *w, char *err, size_t errlen)
{
	struct strbuf ex = { 0 };
	size_t len = strcspn(text, "( \t");
	const struct model_condition *c = condition_find(text, len);
	enum td_status st = TD_OK;

	memset(w, 0, sizeof *w);
	w->tol = (struct step_tol){ STEP_RTOL, STEP_ATOL };
	if (c) {
		const char *rest = text + len;
		char args[512] = "";
		rest += strspn(rest, " \t");
		if (*rest == '(') {
			const char *close = strrchr(rest, ')');
			if (!close || close[1 + strspn(close + 1, " \t")]) {
				snprintf(err, errlen, "%s: expected %s(name=value, ...)", name, c->name);
				return TD_ERR_ARGS;
			}
			if ((size_t)(close - rest - 1) >= sizeof args) {   /* never cut */
				snprintf(err, errlen, "%s: %s's parameters are longer than %zu bytes", name,
					 c->name, sizeof args - 1);
				return TD_ERR_ARGS;
			}
			snprintf(args, sizeof args, "%.*s", (int)(close - rest - 1), rest + 1);
		} else if (*rest) {
			c = NULL;           /* "tensor_overflow and ..." is an expression */
		}
		if (c && !c->base && strcmp(c->name, "fp16_overflow_risk")) {
			struct param_val vals[WATCH_PARAMS_MAX];
			size_t n = 0;

			/* operator_overflow: no parameters, refused like
			 * any condition's unknown one */
			if (args[strspn(args, " \t")] && !parse_params(c, args, vals, &n, err, errlen))
				return TD_ERR_ARGS;
			w->expr_text = xstrdup("");     /* operator_overflow */
		} else if (c) {
			char why[256];
			if (!expand(c, args, &ex, &w->tol, why, sizeof why)) {
				snprintf(err, errlen, "%s: %s", name, why);
				strbuf_done(&ex);
				return TD_ERR_ARGS;
			}
			w->expr_text = strbuf_take(&ex);
		}
	}
	if (!w->expr_text)
		w->expr_text = xstrdup(text);
	if (*w->expr_text) {
		char why[256];
		st = expr_parse(w->expr_text, &w->e, why, sizeof why);
		if (st != TD_OK) {
			struct strbuf hint = { 0 };

			if (!c && !strstr(why, "did you mean"))
				suggest_condition(text, len, &hint);
			snprintf(err, errlen, "%s: %s%s", name, why, hint.buf ? hint.buf : "");
			strbuf_done(&hint);
			free(w->expr_text);
			w->expr_text = NULL;
			return st;
		}
	}
	w->name = xstrdup(name);
	w->text = xstrdup(text);
	return TD_OK;
}

static void
watch_clear(struct watch *w)
{
	free(w->name);
	free(w->text);
	free(w->expr_text);
	expr_free(w->e);
}

static struct watch_set *
watch_set(struct model *m)
{
	if (!m->watches)
		m->watches = xcalloc(1, sizeof *m->watches);
	struct watch_set *s = m->watches;
	if (!s->loaded) {
		s->loaded = true;
		if (!s->recommended_off)
			model_watch_recommended(m, true);
	}
	return s;
}

static int64_t
watch_index(struct watch_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return (int64_t)i;
	return -1;
}

static enum td_status
set_add(struct watch_set *s, const char *name, const char *text, bool recommended, char *err,
	size_t errlen)
{
	struct watch w;
	enum td_status st = watch_compile(name, text, &w, err, errlen);
	int64_t i;

	if (st != TD_OK)
		return st;
	w.recommended = recommended;
	w.scope = recommended ? WATCH_SCOPE_GLOBAL : WATCH_SCOPE_SESSION;
	if ((i = watch_index(s, name)) >= 0) {
		watch_clear(&s->v[i]);
		s->v[i] = w;
		return TD_OK;
	}
	if (s->n == s->cap)
		td_grow((void **)&s->v, &s->cap, s->n + 1, sizeof *s->v);
	s->v[s->n++] = w;
	return TD_OK;
}

enum td_status
model_watch_add(struct model *m, const char *name, const char *text, char *err, size_t errlen)
{
	if (!*name || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") !=
	    strlen(name)) {
		snprintf(err, errlen, "watch names are letters, digits, '_', '-' and '.', not '%s'", name);
		return TD_ERR_ARGS;
	}
	return set_add(watch_set(m), name, text, false, err, errlen);
}

enum td_status
model_watch_rm(struct model *m, const char *name)
{
	struct watch_set *s = watch_set(m);
	int64_t i = watch_index(s, name);

	if (i < 0)
		return TD_ERR_NOTFOUND;
	watch_clear(&s->v[i]);
	memmove(&s->v[i], &s->v[i + 1], (s->n - (size_t)i - 1) * sizeof *s->v);
	s->n--;
	return TD_OK;
}

void
model_watch_recommended(struct model *m, bool on)
{
	if (!m->watches)
		m->watches = xcalloc(1, sizeof *m->watches);
	struct watch_set *s = m->watches;
	char err[256];

	s->recommended_off = !on;
	if (!s->loaded)                 /* watch_set() adds them on first use */
		return;
	for (size_t i = 0; i < TD_ARRAY_SIZE(conditions); i++) {
		const struct model_condition *c = &conditions[i];
		int64_t k = watch_index(s, c->name);
		if (!c->recommended)
			continue;
		if (on && k < 0)
			set_add(s, c->name, c->name, true, err, sizeof err);
		else if (!on && k >= 0 && s->v[k].recommended)
			model_watch_rm(m, c->name);
	}
}

bool
model_watch_recommended_on(struct model *m)
{
	return !m->watches || !m->watches->recommended_off;
}

size_t
model_watch_count(struct model *m)
{
	return watch_set(m)->n;
}

bool
model_watch_at(struct model *m, size_t i, struct model_watch *w)
{
	struct watch_set *s = watch_set(m);

	if (i >= s->n)
		return false;
	*w = (struct model_watch){ s->v[i].name, s->v[i].text,
				   s->v[i].e ? s->v[i].expr_text : NULL, s->v[i].recommended,
				   s->v[i].tol.rtol, s->v[i].tol.atol, s->v[i].scope };
	return true;
}

enum td_status
model_watch_set_scope(struct model *m, const char *name, enum model_watch_scope scope)
{
	struct watch_set *s = watch_set(m);
	int64_t i = watch_index(s, name);

	if (i < 0)
		return TD_ERR_NOTFOUND;
	s->v[i].scope = scope;
	return TD_OK;
}

void
watch_free(struct model *m)
{
	struct watch_set *s = m->watches;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		watch_clear(&s->v[i]);
	free(s->v);
	free(s);
	m->watches = NULL;
}

/* ---- checking -------------------------------------------------------------- */

void
model_watch_run_init(struct model_watch_run *r, int64_t step)
{
	memset(r, 0, sizeof *r);
	r->step = step;
}

void
model_watch_run_done(struct model_watch_run *r)
{
	free(r->op_stage);
	free(r->hits);
	free(r->unknown_by);
	memset(r, 0, sizeof *r);
}

static struct model_watch_hit *
new_hit(struct model_watch_run *r, size_t watch, enum model_table src, uint64_t index)
{
	if (r->nhits == r->cap)
		td_grow((void **)&r->hits, &r->cap, r->nhits + 1, sizeof *r->hits);
	struct model_watch_hit *h = &r->hits[r->nhits++];
	memset(h, 0, sizeof *h);
	h->watch = watch;
	h->source = src;
	h->index = index;
	return h;
}

/* The values of the numeric fields w reads (summary and step fields), and
 * its thresholds. */
static void
fill_hit(struct model *m, const struct watch *w, struct model_watch_hit *h,
	 const struct td_summary *exec_summary)
{
	uint64_t fields = expr_fields(w->e);
	struct expr_threshold th[MODEL_WATCH_VALUES];
	size_t nth = expr_thresholds(w->e, th, MODEL_WATCH_VALUES);

	for (int f = 0; f < EXPR_F_COUNT && h->nvalues < MODEL_WATCH_VALUES; f++) {
		double v;
		const char *str = NULL;
		enum expr_avail a;
		if (!(fields & (UINT64_C(1) << f)) || expr_field_kind(f) != EXPR_NUM ||
		    f == EXPR_F_FIRST_RECORD)
			continue;
		if (h->source == TABLE_TRACES)
			a = where_trace_field(m, h->index, f, &w->tol, &v, &str);
		else if (exec_summary && expr_field_stage(f) == EXPR_STAGE_ROW && f != EXPR_F_STEP)
			a = where_summary_field(exec_summary, f, &v, &str);
		else
			a = EXPR_ABSENT;
		if (a != EXPR_KNOWN)
			continue;
		h->values[h->nvalues].field = expr_field_name(f);
		h->values[h->nvalues++].value = v;
	}
	for (size_t i = 0; i < nth && i < MODEL_WATCH_VALUES; i++) {
		h->thresholds[h->nthresholds].field = expr_field_name(th[i].field);
		h->thresholds[h->nthresholds].op = th[i].op;
		h->thresholds[h->nthresholds++].value = th[i].value;
	}
}

static const char *
basis_name(enum step_basis b)
{
	return b == STEP_FROM_VALUES ? "values" : b == STEP_FROM_STATISTICS ? "statistics" : NULL;
}

/* Whether watch k can hold on rows of op (its op fields decided once per
 * op: most conditions name a role, and most ops are not of it). */
static bool
op_may_match(struct model *m, struct model_watch_run *r, uint32_t op, size_t k)
{
	struct watch_set *s = m->watches;
	const char *name = NULL, *type = NULL;

	if (r->op_stage_watches != s->n) {          /* first use */
		free(r->op_stage);
		r->op_stage = NULL;
		r->op_stage_ops = 0;
		r->op_stage_watches = s->n;
	}
	if (op >= r->op_stage_ops) {
		size_t n = TD_MAX((size_t)op + 1, r->op_stage_ops * 2);
		r->op_stage = xrealloc(r->op_stage, n * s->n);
		memset(r->op_stage + r->op_stage_ops * s->n, 0, (n - r->op_stage_ops) * s->n);
		r->op_stage_ops = n;
	}
	uint8_t *v = &r->op_stage[(size_t)op * s->n + k];
	if (!*v) {
		pthread_mutex_lock(&m->lock);
		if (op < m->nops) {
			name = m->opv[op].name;
			type = m->opv[op].type;
		}
		pthread_mutex_unlock(&m->lock);
		*v = name && where_op(s->v[k].e, name, type ? type : "") == EXPR_FALSE ? 1 : 2;
	}
	return *v == 2;
}

/* One more row watch k could not decide (of nwatches). */
static void
count_unknown(struct model_watch_run *r, size_t nwatches, size_t k)
{
	if (r->n_unknown_by < nwatches) {
		r->unknown_by = xrealloc(r->unknown_by, nwatches * sizeof *r->unknown_by);
		memset(r->unknown_by + r->n_unknown_by, 0,
		       (nwatches - r->n_unknown_by) * sizeof *r->unknown_by);
		r->n_unknown_by = nwatches;
	}
	r->unknown_by[k]++;
}

static void
check_trace(struct model *m, struct model_watch_run *r, uint64_t j)
{
	struct watch_set *s = m->watches;
	uint32_t op = trace_op(m, j);
	bool unknown = false;

	if (r->step >= 0 && model_trace_step(m, j) != r->step)
		return;
	r->checked++;
	for (size_t k = 0; k < s->n; k++) {
		if (!s->v[k].e || !op_may_match(m, r, op, k))
			continue;
		struct where_opts o = { .tol = &s->v[k].tol };
		enum expr_result res = where_trace_opts(m, s->v[k].e, j, &o);
		if (res == EXPR_UNKNOWN) {
			unknown = true;
			count_unknown(r, s->n, k);
		}
		if (res != EXPR_TRUE)
			continue;
		struct model_watch_hit *h = new_hit(r, k, TABLE_TRACES, j);
		h->basis = basis_name(o.basis);
		if (!h->basis && o.from_values)
			h->basis = "values";    /* a summary field from the values */
		fill_hit(m, &s->v[k], h, NULL);
	}
	r->unknown += unknown;
}

static void
check_exec(struct model *m, struct model_watch_run *r, uint64_t j)
{
	struct watch_set *s = m->watches;
	struct model_execution x;
	bool unknown = false;

	if (model_execution_get(m, j, &x) != TD_OK || (r->step >= 0 && x.step != r->step))
		return;
	r->checked++;
	for (size_t k = 0; k < s->n; k++) {
		if (!s->v[k].e)
			continue;
		enum expr_result res = where_exec(m, s->v[k].e, j);
		if (res == EXPR_UNKNOWN) {
			unknown = true;
			count_unknown(r, s->n, k);
		}
		if (res != EXPR_TRUE)
			continue;
		struct model_watch_hit *h = new_hit(r, k, TABLE_EXECUTIONS, j);
		struct model_detail d = {0};
		const struct td_summary *sum = NULL;
		if (model_execution_detail(m, j, &d) == TD_OK && d.noutputs)
			sum = &d.summaries[0];
		fill_hit(m, &s->v[k], h, sum);
		model_detail_done(&d);
	}
	r->unknown += unknown;
}

/* operator_overflow: the dump's own overflow records, once the index is done. */
static void
check_overflow(struct model *m, struct model_watch_run *r)
{
	struct watch_set *s = m->watches;
	uint64_t n = model_alert_count(m);

	for (size_t k = 0; k < s->n; k++) {
		if (s->v[k].e)
			continue;
		/* the reader's alerts come last, with a detail (model_alert_get) */
		uint64_t first = n;
		struct model_alert a;
		while (first > 0 && model_alert_get(m, first - 1, &a) == TD_OK && a.detail)
			first--;
		for (uint64_t i = first; i < n; i++) {
			if (model_alert_get(m, i, &a) != TD_OK)
				continue;
			if (r->step >= 0 && a.source == TABLE_TRACES && model_trace_step(m, a.index) != r->step)
				continue;
			struct model_watch_hit *h = new_hit(r, k, a.source, a.index);
			h->op_name = a.op_name;
			h->op_type = a.op_type;
			h->detail = a.detail;
		}
	}
}

bool
model_watch_run_step(struct model *m, struct model_watch_run *r, uint64_t budget)
{
	struct model_progress p;
	uint64_t nt, ne, spent = 0;

	watch_set(m);
	model_progress(m, &p);
	nt = model_trace_count(m);
	ne = model_execution_count(m);
	while (spent < budget && r->next_trace < nt) {
		check_trace(m, r, r->next_trace++);
		spent++;
	}
	while (spent < budget && r->next_exec < ne) {
		check_exec(m, r, r->next_exec++);
		spent++;
	}
	if (r->next_trace < nt || r->next_exec < ne || !p.done)
		return false;
	if (!r->done) {
		check_overflow(m, r);
		r->done = true;
	}
	return true;
}

/* ---- describing a hit ------------------------------------------------------- */

static bool
holds(double v, const char *op, double t)
{
	if (!strcmp(op, "<"))  return v < t;
	if (!strcmp(op, "<=")) return v <= t;
	if (!strcmp(op, ">"))  return v > t;
	if (!strcmp(op, ">=")) return v >= t;
	if (!strcmp(op, "==")) return v == t;
	return v != t;
}

void
model_watch_hit_describe(const struct model_watch_hit *h, char *buf, size_t size)
{
	struct strbuf s = { 0 }, *sb = &s;

	for (int pass = 0; pass < 2 && !sb->len; pass++) {
		for (size_t i = 0; i < h->nthresholds; i++) {
			const char *f = h->thresholds[i].field;
			size_t k;
			for (k = 0; k < h->nvalues && strcmp(h->values[k].field, f); k++)
				;
			bool known = k < h->nvalues;
			if (!pass && (!known || !holds(h->values[k].value, h->thresholds[i].op,
							h->thresholds[i].value)))
				continue;
			strbuf_addf(sb, "%s%s ", sb->len ? ", " : "", f);
			if (known)
				strbuf_addf(sb, "%.6g ", h->values[k].value);
			else
				strbuf_adds(sb, "? ");
			strbuf_addf(sb, "%s %.6g", h->thresholds[i].op, h->thresholds[i].value);
		}
	}
	if (!h->nthresholds)
		for (size_t k = 0; k < h->nvalues; k++)
			strbuf_addf(sb, "%s%s %.6g", sb->len ? ", " : "", h->values[k].field,
				    h->values[k].value);
	if (h->basis)
		strbuf_addf(sb, " (from %s)", h->basis);
	if (h->detail)
		strbuf_addf(sb, "%s%s", sb->len ? "; " : "", h->detail);
	snprintf(buf, size, "%s", s.buf ? s.buf : "");
	strbuf_done(&s);
}
