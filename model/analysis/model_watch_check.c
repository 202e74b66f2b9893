/*
 * model_watch_check.c - checking the rows against a model's watches and
 * describing a hit: a run walks trace rows, executions and the dump's
 * overflow records in order, a budget of rows at a time, and collects the
 * hits with the values of the fields each condition read and its
 * thresholds.  The watches themselves are kept by model_watch.c.
 */
#include "model_watch_set.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- checking -------------------------------------------------------------- */

#define STEP_CHUNK 4096             /* rows whose steps are asked at once */
/* The summary fields a row's first read takes for every watch: a row's
 * watches read several of them (dtype, the NaN/Inf counts, magnitudes). */
#define WATCH_FIELDS (TD_SUMMARY_VALUE_FIELDS & ~(uint32_t)(SUM_PERCENTILES | SUM_SHAPE))

void
model_watch_run_init(struct model_watch_run *r, int64_t step)
{
	memset(r, 0, sizeof *r);
	r->step = step;
	r->row_facts = -1;
}

void
model_watch_run_done(struct model_watch_run *r)
{
	free(r->ops);
	free(r->op_stage);
	free(r->hits);
	free(r->unknown_by);
	watch_window_free(r->win);
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

struct model_watch_op *
watch_op_info(struct model *m, struct model_watch_run *r, uint32_t op, uint64_t j)
{
	struct model_row_facts k;

	if (r->row_facts < 0)           /* whether the reader states any: its flag */
		r->row_facts = model_trace_facts(m, j, false, &k);
	if (op >= r->nops) {
		size_t n = TD_MAX((size_t)op + 1, r->nops * 2);
		r->ops = xrealloc(r->ops, n * sizeof *r->ops);
		memset(r->ops + r->nops, 0, (n - r->nops) * sizeof *r->ops);
		r->nops = n;
	}
	struct model_watch_op *o = &r->ops[op];
	if (!o->ready) {
		model_op_names(m, op, &o->raw_name, &o->raw_type);
		o->name = o->raw_name;
		o->type = o->raw_type;
		if (!o->name)
			o->name = o->type = "";
		/* model_where.c's fact_field with no stated role */
		o->wop = (struct where_op_ctx){ .name = o->raw_name,
						.type = o->raw_type ? o->raw_type : "", .m = m };
		o->role = r->row_facts ? NULL : model_role_name(model_role_of(o->name, o->type));
		o->ready = true;
	}
	return o;
}

/* Whether watch k can hold on rows of op (its op fields decided once per
 * op: most conditions name a role, and most ops are not of it). */
static bool
op_may_match(struct model *m, struct model_watch_run *r, struct model_watch_op *o,
	     uint32_t op, size_t k)
{
	struct watch_set *s = *model_watch_slot(m);
	const char *name = o->raw_name;

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
		*v = name && where_op_with(s->v[k].e, &o->wop) == EXPR_FALSE ? 1 : 2;
	}
	return *v == 2;
}

uint64_t
watch_op_may(struct model *m, struct model_watch_run *r, struct model_watch_op *o, uint32_t op)
{
	struct watch_set *s = *model_watch_slot(m);

	if (o->may_n != s->n) {
		o->may = 0;
		for (size_t k = 0; k < s->n; k++)
			if (s->v[k].e && op_may_match(m, r, o, op, k))
				o->may |= UINT64_C(1) << k;
		o->may_n = s->n;
	}
	return o->may;
}

void
watch_count_unknown(struct model_watch_run *r, size_t nwatches, size_t k)
{
	if (r->n_unknown_by < nwatches) {
		r->unknown_by = xrealloc(r->unknown_by, nwatches * sizeof *r->unknown_by);
		memset(r->unknown_by + r->n_unknown_by, 0,
		       (nwatches - r->n_unknown_by) * sizeof *r->unknown_by);
		r->n_unknown_by = nwatches;
	}
	r->unknown_by[k]++;
}

void
watch_check_trace(struct model *m, struct model_watch_run *r, uint64_t j, int64_t step)
{
	struct watch_set *s = *model_watch_slot(m);
	uint32_t flags, op = model_trace_op_flags(m, j, &flags);
	bool unknown = false;
	struct where_row wr;

	if (r->step >= 0 && step != r->step)
		return;
	r->checked++;
	struct model_watch_op *o = watch_op_info(m, r, op, j);
	bool masked = s->n <= MAY_WATCHES;
	uint64_t may = masked ? watch_op_may(m, r, o, op) : 0;

	where_row_init(&wr, m, j);      /* one row read for every watch */
	wr.name = o->name;              /* the op's fields: no per-row lookup */
	wr.type = o->type;
	wr.role = o->role;
	wr.want = WATCH_FIELDS;         /* one read of the columns for all the watches */
	for (size_t k = 0; k < s->n; k++) {
		/* the watches the op leaves to its rows */
		if (masked ? !(may >> k & 1) : !s->v[k].e || !op_may_match(m, r, o, op, k))
			continue;
		struct where_opts o = { .tol = &s->v[k].tol };
		enum expr_result res = where_row_eval(&wr, s->v[k].e, &o);
		if (res == EXPR_UNKNOWN) {
			unknown = true;
			watch_count_unknown(r, s->n, k);
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
	struct watch_set *s = *model_watch_slot(m);
	struct where_exec_row w;        /* read, its role and outputs, once for every watch */
	bool unknown = false;

	where_exec_row_init(&w, m, j);
	if (!w.ok || (r->step >= 0 && w.x.step != r->step)) {
		where_exec_row_done(&w);
		return;
	}
	r->checked++;
	for (size_t k = 0; k < s->n; k++) {
		if (!s->v[k].e)
			continue;
		enum expr_result res = where_exec_in(&w, s->v[k].e);
		if (res == EXPR_UNKNOWN) {
			unknown = true;
			watch_count_unknown(r, s->n, k);
		}
		if (res != EXPR_TRUE)
			continue;
		struct model_watch_hit *h = new_hit(r, k, TABLE_EXECUTIONS, j);
		struct model_detail d = {0};
		const struct td_summary *sum = NULL;
		if (model_execution_outputs(m, j, &d) == TD_OK && d.noutputs)
			sum = &d.summaries[0];
		fill_hit(m, &s->v[k], h, sum);
		model_detail_done(&d);
	}
	where_exec_row_done(&w);
	r->unknown += unknown;
}

/* operator_overflow: the dump's own overflow records, once the index is done. */
static void
check_overflow(struct model *m, struct model_watch_run *r)
{
	struct watch_set *s = *model_watch_slot(m);
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
		/* the rows' steps a chunk at a time: a step may need the list
		 * of function calls, made once a chunk (model_trace_steps) */
		uint64_t rows[STEP_CHUNK];
		int64_t steps[STEP_CHUNK];
		size_t n = (size_t)TD_MIN((uint64_t)STEP_CHUNK, TD_MIN(budget - spent, nt - r->next_trace));

		for (size_t k = 0; k < n; k++) {
			rows[k] = r->next_trace + k;
			steps[k] = -1;
		}
		if (r->step >= 0)
			model_trace_steps(m, rows, n, steps);
		for (size_t k = 0, got; k < n; k += got) {
			/* a window at a time where the columns answer, else row by row */
			got = watch_check_window(m, r, r->next_trace, n - k, steps + k);
			r->next_trace += got;
			if (!got)
				for (; k < n; k++)
					watch_check_trace(m, r, r->next_trace++, steps[k]);
		}
		spent += n;
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
