/*
 * model_where.c - answers the condition language's fields (model_expr.h)
 * for the model's rows: op fields from the op table, host and step from
 * the row's place, summary fields from the decoded summary.
 *
 * A summary field the row's summary does not carry is EXPR_ABSENT
 * (unknown), never 0: a FULL-HEALTH-like summary has counts but no mean.
 * Rows are decoded only when the expression reaches a summary field.
 * Not for: caching results (model_filter.c keeps those).
 */
#include "model/analysis/model_where.h"

#include <math.h>
#include <string.h>

static enum expr_avail
count(const struct td_summary *s, uint32_t bit, int64_t v, double *num)
{
	if (!(s->known & bit))
		return EXPR_ABSENT;
	*num = (double)v;
	return EXPR_KNOWN;
}

static enum expr_avail
real(const struct td_summary *s, uint32_t bit, double v, double *num)
{
	if (!(s->known & bit))
		return EXPR_ABSENT;
	*num = v;
	return EXPR_KNOWN;
}

enum expr_avail
where_summary_field(const struct td_summary *s, enum expr_field f, double *num, const char **str)
{
	switch (f) {
	case EXPR_F_NAN:      return count(s, SUM_NAN, s->nan, num);
	case EXPR_F_NEG_INF:  return count(s, SUM_NEG_INF, s->neg_inf, num);
	case EXPR_F_POS_INF:  return count(s, SUM_POS_INF, s->pos_inf, num);
	case EXPR_F_NEGATIVE: return count(s, SUM_NEGATIVE, s->negative, num);
	case EXPR_F_ZERO:     return count(s, SUM_ZERO, s->zero, num);
	case EXPR_F_POSITIVE: return count(s, SUM_POSITIVE, s->positive, num);
	case EXPR_F_ELEMENTS: return count(s, SUM_ELEMENTS, s->elements, num);
	case EXPR_F_RANK:     return count(s, SUM_RANK, s->rank, num);
	case EXPR_F_MIN:      return real(s, SUM_MINMAX, s->min, num);
	case EXPR_F_MAX:      return real(s, SUM_MINMAX, s->max, num);
	case EXPR_F_MEAN:     return real(s, SUM_MEAN, s->mean, num);
	case EXPR_F_ABS_MEAN: return real(s, SUM_ABS_MEAN, s->abs_mean, num);
	case EXPR_F_STD:      return real(s, SUM_STD, s->std, num);
	case EXPR_F_L2NORM:   return real(s, SUM_L2NORM, s->l2norm, num);
	case EXPR_F_MAX_ABS:
		if (!(s->known & SUM_MINMAX))
			return EXPR_ABSENT;
		*num = fmax(fabs(s->min), fabs(s->max));
		return EXPR_KNOWN;
	case EXPR_F_ZERO_FRACTION:
		if ((s->known & (SUM_ZERO | SUM_ELEMENTS)) != (SUM_ZERO | SUM_ELEMENTS) ||
		    s->elements <= 0)
			return EXPR_ABSENT;
		*num = (double)s->zero / (double)s->elements;
		return EXPR_KNOWN;
	case EXPR_F_ZERO_PERCENTAGE:
		if ((s->known & (SUM_ZERO | SUM_ELEMENTS)) != (SUM_ZERO | SUM_ELEMENTS) ||
		    s->elements <= 0)
			return EXPR_ABSENT;
		/* 100 * zero is exact (zero below 2^46) and the quotient is one
		 * rounding: "zero_percentage >= P" is "100 * zero >= P *
		 * elements" for whole P (and tensors below 10^13 elements),
		 * where a fraction times 0.01 is not (70 * 0.01 > 0.7). */
		*num = 100.0 * (double)s->zero / (double)s->elements;
		return EXPR_KNOWN;
	case EXPR_F_DTYPE:
		if (!(s->known & SUM_DTYPE) || s->dtype == DTYPE_INVALID)
			return EXPR_ABSENT;
		*str = td_dtype_name(s->dtype);
		return EXPR_KNOWN;
	case EXPR_F_DTYPE_MAX:
		if (!(s->known & SUM_DTYPE) || td_dtype_max(s->dtype) == 0)
			return EXPR_ABSENT;
		*num = td_dtype_max(s->dtype);
		return EXPR_KNOWN;
	default:
		return EXPR_ABSENT;
	}
}

/* The summary bits field f reads (0: none). */
static uint32_t
summary_bit(enum expr_field f)
{
	switch (f) {
	case EXPR_F_NAN:      return SUM_NAN;
	case EXPR_F_NEG_INF:  return SUM_NEG_INF;
	case EXPR_F_POS_INF:  return SUM_POS_INF;
	case EXPR_F_NEGATIVE: return SUM_NEGATIVE;
	case EXPR_F_ZERO:     return SUM_ZERO;
	case EXPR_F_POSITIVE: return SUM_POSITIVE;
	case EXPR_F_ELEMENTS: return SUM_ELEMENTS;
	case EXPR_F_RANK:     return SUM_RANK;
	case EXPR_F_MIN:
	case EXPR_F_MAX:
	case EXPR_F_MAX_ABS:  return SUM_MINMAX;
	case EXPR_F_MEAN:     return SUM_MEAN;
	case EXPR_F_ABS_MEAN: return SUM_ABS_MEAN;
	case EXPR_F_STD:      return SUM_STD;
	case EXPR_F_L2NORM:   return SUM_L2NORM;
	case EXPR_F_ZERO_FRACTION:
	case EXPR_F_ZERO_PERCENTAGE: return SUM_ZERO | SUM_ELEMENTS;
	case EXPR_F_DTYPE:
	case EXPR_F_DTYPE_MAX: return SUM_DTYPE;
	default:              return 0;
	}
}

/* ---- the row's own facts (role, requires_grad, prefix) ------------------ */

/* A dotted call name with a forward part ("Module.fc1.Linear.forward.0",
 * the way model_role.c reads "backward"): a call whose tensors a dump may
 * describe one by one, its parameters beside its activations. */
static bool
forward_call(const char *name)
{
	for (const char *p = name; (p = strstr(p, "forward")); p += 7)
		if (p > name && p[-1] == '.' && (p[7] == '.' || !p[7]))
			return true;
	return false;
}

/* The op's role decides at the op stage, but for a forward call that its
 * name does not call a gradient or a weight: a dump that states its rows'
 * roles may give each of its rows its own (asked per row), and states the
 * op's for the rest (a backward call's leaves are gradients). */
static enum expr_avail
role_of_op(const char *name, const char *type, const char **str)
{
	enum model_role r = model_role_of(name, type);

	if (r != ROLE_GRADIENT && r != ROLE_WEIGHT && forward_call(name))
		return EXPR_LATER;
	*str = model_role_name(r);
	return EXPR_KNOWN;
}

/* Field f from the trace row's facts (from the decode cache; no decode
 * when the dump states none); role falls back to the op's.  An execution
 * (row: its index) has its call's prefix, read from its first row; its
 * leaves' roles and requires_grad are theirs. */
static enum expr_avail
fact_field(struct model *m, uint64_t row, bool trace, const char *name, const char *type,
	   enum expr_field f, double *num, const char **str)
{
	struct model_row_facts k = { ROLE_NONE, -1, NULL };
	struct model_execution x;

	if (trace)
		model_trace_facts(m, row, f == EXPR_F_PREFIX, &k);
	else if (f == EXPR_F_PREFIX && model_execution_get(m, row, &x) == TD_OK && x.ntraces)
		model_trace_facts(m, x.first_trace, true, &k);
	switch (f) {
	case EXPR_F_ROLE:
		*str = model_role_name(k.role != ROLE_NONE ? k.role : model_role_of(name, type));
		return EXPR_KNOWN;
	case EXPR_F_REQUIRES_GRAD:
		if (k.requires_grad < 0)
			return EXPR_ABSENT;
		*num = k.requires_grad;
		return EXPR_KNOWN;
	default:
		if (!k.prefix)
			return EXPR_ABSENT;
		*str = k.prefix;
		return EXPR_KNOWN;
	}
}

/* ---- op stage ----------------------------------------------------------- */

static enum expr_avail
op_field(void *ctx, enum expr_field f, double *num, const char **str)
{
	struct where_op_ctx *c = ctx;

	(void)num;
	switch (f) {
	case EXPR_F_OP:   *str = c->name; return EXPR_KNOWN;
	case EXPR_F_TYPE: *str = c->type; return EXPR_KNOWN;
	case EXPR_F_ROLE:
		if (!c->role_done) {
			c->role = NULL;
			c->role_avail = role_of_op(c->name, c->type, &c->role);
			c->role_done = true;
		}
		if (c->role_avail == EXPR_KNOWN)
			*str = c->role;
		return c->role_avail;
	case EXPR_F_PREFIX:
		if (!c->prefix_done) {
			bool stated = false;

			/* the reader spells it from the name: decided per op */
			c->prefix = c->m && c->name ? model_op_prefix_str(c->m, c->name, &stated) : NULL;
			c->prefix_avail = !stated ? EXPR_LATER : c->prefix ? EXPR_KNOWN : EXPR_ABSENT;
			c->prefix_done = true;
		}
		if (c->prefix_avail == EXPR_KNOWN)
			*str = c->prefix;
		return c->prefix_avail;
	default:          return EXPR_LATER;
	}
}

enum expr_result
where_op_with(const struct expr *e, struct where_op_ctx *c)
{
	return expr_eval(e, op_field, c);
}

enum expr_result
where_op(const struct expr *e, struct model *m, const char *name, const char *type)
{
	struct where_op_ctx c = { .name = name, .type = type, .m = m };

	return expr_eval(e, op_field, &c);
}

/* ---- rows ---------------------------------------------------------------- */


/* Trace row c->row's summary in c->mf.s holding the fields of bits: from
 * the summary columns (model_trace_fields) for the fields a condition
 * reads (a step field's: STEP_SUMMARY_BITS), whole (model_trace_summary)
 * when asked. */
static void
row_summary(struct where_row *c, uint32_t bits, bool whole)
{
	if (c->s && (!c->have || (!whole && (c->have & bits) == bits)))
		return;
	if (!whole) {
		uint32_t need = (c->have | bits | c->want) & ~(uint32_t)MODEL_FIELDS_WALL;

		model_trace_fields(c->m, c->row, need, &c->mf);
		c->have = c->mf.from_columns ? need : 0;
	} else {
		model_trace_summary(c->m, c->row, &c->mf.s, &c->mf.from_values);
		c->have = 0;
	}
	c->s = &c->mf.s;
}

static enum expr_avail
row_field(void *ctx, enum expr_field f, double *num, const char **str)
{
	struct where_row *c = ctx;
	enum expr_stage stage = expr_field_stage(f);       /* asked once */

	if (c->names_later && f == EXPR_F_HOST && !c->host) {
		const char *name, *type;

		model_trace_names(c->m, c->row, &name, &type, &c->host);
	} else if (c->names_later && stage == EXPR_STAGE_OP && !c->name) {
		uint32_t flags;

		/* by op id: no host lookup (a role condition on every row) */
		model_op_names(c->m, model_trace_op_flags(c->m, c->row, &flags), &c->name, &c->type);
		if (!c->name)
			c->name = c->type = "";
	}
	if (f == EXPR_F_ROLE && c->role) {
		*str = c->role;
		return EXPR_KNOWN;
	}
	switch (f) {
	case EXPR_F_OP:   *str = c->name; return EXPR_KNOWN;
	case EXPR_F_TYPE: *str = c->type; return EXPR_KNOWN;
	case EXPR_F_ROLE:
	case EXPR_F_REQUIRES_GRAD:
	case EXPR_F_PREFIX:
		return fact_field(c->m, c->row, c->trace, c->name, c->type, f, num, str);
	case EXPR_F_HOST: *str = c->host; return EXPR_KNOWN;
	case EXPR_F_STEP: {
		int64_t s = c->trace ? model_trace_step(c->m, c->row) : c->step;
		if (s < 0)
			return EXPR_ABSENT;
		*num = (double)s;
		return EXPR_KNOWN;
	}
	default:
		break;
	}
	if (c->summary_later)
		return EXPR_LATER;
	if (c->trace && stage == EXPR_STAGE_STEP) {
		if (f != EXPR_F_FIRST_RECORD)   /* the fields step_field compares */
			row_summary(c, STEP_SUMMARY_BITS, false);
	} else if (c->trace) {
		row_summary(c, summary_bit(f), !summary_bit(f));
	}
	if (stage == EXPR_STAGE_STEP) {
		if (!c->trace)
			return EXPR_ABSENT;
		enum step_basis b = STEP_FROM_NONE;
		enum expr_avail r = step_field(c->m, c->row, c->s, f, c->opts ? c->opts->tol : NULL,
					       num, &b);
		if (c->opts && b != STEP_FROM_NONE && (c->opts->basis == STEP_FROM_NONE ||
						       b == STEP_FROM_STATISTICS))
			c->opts->basis = b;
		return r;
	}
	if (c->opts && c->s == &c->mf.s && (c->mf.from_values & summary_bit(f)))
		c->opts->from_values = true;
	return where_summary_field(c->s, f, num, str);
}


enum expr_result
where_trace_opts(struct model *m, const struct expr *e, uint64_t j, struct where_opts *opts)
{
	struct where_row c = { .m = m, .row = j, .trace = true, .opts = opts, .names_later = true };

	return expr_eval(e, row_field, &c);
}

void
where_row_init(struct where_row *r, struct model *m, uint64_t j)
{
	memset(r, 0, sizeof(*r));
	r->m = m;
	r->row = j;
	r->trace = true;
	r->names_later = true;
}

enum expr_result
where_row_eval(struct where_row *r, const struct expr *e, struct where_opts *opts)
{
	r->opts = opts;
	return expr_eval(e, row_field, r);
}

enum expr_result
where_trace(struct model *m, const struct expr *e, uint64_t j)
{
	return where_trace_opts(m, e, j, NULL);
}

enum expr_avail
where_trace_field(struct model *m, uint64_t j, enum expr_field f, const struct step_tol *tol,
		  double *num, const char **str)
{
	struct where_opts o = { .tol = tol };
	struct where_row c = { .m = m, .row = j, .trace = true, .opts = &o, .names_later = true };

	return row_field(&c, f, num, str);
}

void
where_exec_row_init(struct where_exec_row *w, struct model *m, uint64_t j)
{
	memset(w, 0, sizeof(*w));
	w->m = m;
	w->j = j;
	w->ok = model_execution_get(m, j, &w->x) == TD_OK;
}

void
where_exec_row_done(struct where_exec_row *w)
{
	if (w->outputs_done)
		model_detail_done(&w->d);
	w->outputs_done = false;
}

enum expr_result
where_exec_in(struct where_exec_row *w, const struct expr *e)
{
	struct td_summary none = {0};
	struct where_row c = { .m = w->m, .row = w->j, .summary_later = true };
	enum expr_result r, best = EXPR_FALSE;

	if (!w->ok)
		return EXPR_UNKNOWN;
	c.name = c.type = w->x.op_type;
	c.host = w->x.host ? w->x.host : "";
	c.step = w->x.step;
	/* fact_field's for an execution (no row of its own states one),
	 * worked out for the first condition that reads it */
	if (!w->role && (expr_fields(e) & UINT64_C(1) << EXPR_F_ROLE))
		w->role = model_role_name(model_role_of(w->x.op_type, w->x.op_type));
	c.role = w->role;
	if ((r = expr_eval(e, row_field, &c)) != EXPR_DEFER)
		return r;               /* decided without a summary */
	c.summary_later = false;
	c.s = &none;
	if (!w->outputs_done) {
		w->outputs_done = true;
		w->outputs_ok = model_execution_outputs(w->m, w->j, &w->d) == TD_OK &&
				w->d.noutputs;
	}
	if (!w->outputs_ok)
		return expr_eval(e, row_field, &c);
	for (size_t i = 0; i < w->d.noutputs && best != EXPR_TRUE; i++) {
		c.s = &w->d.summaries[i];
		r = expr_eval(e, row_field, &c);
		if (r == EXPR_TRUE || (r == EXPR_UNKNOWN && best == EXPR_FALSE))
			best = r;
	}
	return best;
}

/* An execution matches when one of its outputs does; unknown when none
 * does and one is unknown. */
enum expr_result
where_exec(struct model *m, const struct expr *e, uint64_t j)
{
	struct where_exec_row w;
	enum expr_result r;

	where_exec_row_init(&w, m, j);
	r = where_exec_in(&w, e);
	where_exec_row_done(&w);
	return r;
}
