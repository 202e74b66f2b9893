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
 * deciding rows (model_where.c); the previous step (model_step.c);
 * checking rows and describing hits (model_watch_check.c).
 */
#include "model_watch_set.h"

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

struct watch_set *
watch_set(struct model *m)
{
	struct watch_set **slot = model_watch_slot(m);
	if (!*slot)
		*slot = xcalloc(1, sizeof **slot);
	struct watch_set *s = *slot;
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
	struct watch_set **slot = model_watch_slot(m);
	if (!*slot)
		*slot = xcalloc(1, sizeof **slot);
	struct watch_set *s = *slot;
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
	struct watch_set *s = *model_watch_slot(m);

	return !s || !s->recommended_off;
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
	struct watch_set **slot = model_watch_slot(m), *s = *slot;

	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		watch_clear(&s->v[i]);
	free(s->v);
	free(s);
	*slot = NULL;
}
