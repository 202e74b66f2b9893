/*
 * test_model_watch_paths.c - the fast paths of `watches check` give the
 * per-row answers (issue 25): an op's name, type and role read once for
 * all its rows and watches (model_watch_check.c) against each row
 * evaluated on its own (where_trace_opts: the op looked up and the role
 * worked out per row), on a generated fake dump (roles, float16 and int
 * tensors, NaN, rows without statistics, a first step with no previous
 * one, a zero abs_mean); and the step fields read from the summary
 * columns (model_step.c) against the test's own previous-step scan over
 * decoded rows, on real fixtures opened warm and with no cache, and the
 * watch check on them against each row evaluated on its own.  The
 * generator's own numbers give the update ratios the watches must find.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_where.h"
#include "model/model.h"
#include "tests/unit/helpers/fake_model.h"
#include "tests/unit/helpers/files.h"

/* ---- the op stage once per op ---------------------------------------------- */

#define NOPS 30
#define NSTEPS 4

/* The op's kind: weight, gradient, activation, a forward call, a bias. */
static int
kind_of(int op)
{
	return op % 5;
}

static void
op_name(int op, char *buf, size_t len, const char **type)
{
	switch (kind_of(op)) {
	case 0: snprintf(buf, len, "layer%d/kernel", op); *type = "VariableV2"; break;
	case 1: snprintf(buf, len, "gradients/layer%d/MatMul_grad/MatMul", op); *type = "MatMul"; break;
	case 2: snprintf(buf, len, "layer%d/Relu", op); *type = "Relu"; break;
	case 3: snprintf(buf, len, "Module.layer%d.Linear.forward.0", op); *type = "Linear"; break;
	default: snprintf(buf, len, "layer%d/bias", op); *type = "VariableV2"; break;
	}
}

/* Whether op's row at step holds statistics (else health counts only,
 * some with a NaN). */
static bool
has_stats(int op, int step)
{
	return (op * 7 + step * 3) % 6 > 1;
}

/* The generator's abs_mean of op at step: grows by a factor per op (1:
 * unchanged; 1.2: too large a change; 1.00001: too small), op 10 starts
 * at zero (no ratio at step 1). */
static double
abs_mean_of(int op, int step)
{
	static const double growth[] = { 1.0, 1.2, 1.00001, 0.5 };
	double base = op == 10 && step == 0 ? 0 : 0.01 * (op + 1);

	return base * pow(growth[op % 4], step);
}

static struct td_summary
row_summary_of(int op, int step)
{
	struct td_summary s = fake_full_health(8, 0, 0, (op * 7 + step * 3) % 6 == 1);
	double am = abs_mean_of(op, step);

	if (op % 7 == 3)
		s.dtype = DTYPE_FLOAT16;
	if (op % 11 == 5)
		s.dtype = DTYPE_INT32;
	if (!has_stats(op, step))
		return s;
	s.known |= SUM_MINMAX | SUM_MEAN | SUM_ABS_MEAN;
	s.abs_mean = am;
	s.mean = op % 3 ? am : -am;
	s.min = -am * 2;
	s.max = op % 7 == 3 ? 40000 : am * 2;
	if (op == 17 && step == 2)
		s.mean = NAN;
	return s;
}

static struct fake *
generated(void)
{
	struct fake *f = fake_new();
	char name[96];
	const char *type;

	fake_file(f, 1, "f1", "rank_0");
	fake_graph(f, "G", "train", NULL);
	for (int op = 0; op < NOPS; op++) {
		op_name(op, name, sizeof name, &type);
		fake_op(f, "G", name, type, NULL, NULL);
	}
	for (int step = 0; step < NSTEPS; step++)
		for (int op = 0; op < NOPS; op++) {
			struct td_summary s = row_summary_of(op, step);

			op_name(op, name, sizeof name, &type);
			fake_trace(f, 1, "G", name, 0, 1 + step * NOPS + op, &s);
			fake_step(f, step);
		}
	return f;
}

static const char *const extra[][2] = {
	{ "same", "unchanged" },
	{ "grew", "delta_abs_mean > 0" },
	{ "first", "first_record" },
	{ "act", "role == \"activation\" and max > 0.1" },
	{ "some", "op ~ \"layer1\" and update_ratio > 0" },
	{ "mm", "type == \"MatMul\" or nan > 0" },
	{ "notw", "not (role == \"weight\") and unchanged" },
	{ "tight", "weight_not_changed(rtol=0.5, atol=0)" },
};

static const char *
basis_str(enum step_basis b, bool from_values)
{
	if (b == STEP_FROM_VALUES)
		return "values";
	if (b == STEP_FROM_STATISTICS)
		return "statistics";
	return from_values ? "values" : NULL;
}

/* m's watches (the recommended set and extra) run to the end in r, with
 * every row and watch evaluated on its own beside: the same hits in the
 * run's order (row by row, watch by watch), bases and unknowns. */
static void
run_per_row(struct model *m, struct model_watch_run *r)
{
	char err[256];
	size_t nhit = 0;

	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		assert_int_equal(model_watch_add(m, extra[i][0], extra[i][1], err, sizeof err), TD_OK);
	model_watch_run_init(r, -1);
	while (!model_watch_run_step(m, r, 7))
		;
	for (uint64_t j = 0; j < model_trace_count(m); j++) {
		struct model_watch w;
		for (size_t k = 0; model_watch_at(m, k, &w); k++) {
			struct expr *e;
			if (!w.expr)
				continue;
			assert_int_equal(expr_parse(w.expr, &e, err, sizeof err), TD_OK);
			struct step_tol tol = { w.rtol, w.atol };
			struct where_opts o = { .tol = &tol };
			enum expr_result res = where_trace_opts(m, e, j, &o);
			expr_free(e);
			if (res != EXPR_TRUE)
				continue;
			while (nhit < r->nhits && r->hits[nhit].source != TABLE_TRACES)
				nhit++;
			assert_true(nhit < r->nhits);
			const struct model_watch_hit *h = &r->hits[nhit++];
			assert_int_equal(h->index, j);
			assert_int_equal(h->watch, k);
			const char *b = basis_str(o.basis, o.from_values);
			if (b)
				assert_string_equal(h->basis, b);
			else
				assert_null(h->basis);
		}
	}
	while (nhit < r->nhits && r->hits[nhit].source != TABLE_TRACES)
		nhit++;
	assert_int_equal(nhit, r->nhits);
}

static void
test_op_once_gives_the_per_row_answers(void **state)
{
	struct fake *f = generated();
	struct model *m = fake_model_open(f, NULL);
	struct model_watch_run r;
	char err[256];
	size_t nratio = 0;

	(void)state;
	model_wait(m);
	run_per_row(m, &r);
	assert_int_equal(r.checked, NOPS * NSTEPS);
	/* the rows no watch could decide, per watch, as each row says */
	for (size_t k = 0; k < r.n_unknown_by; k++) {
		struct model_watch w;
		uint64_t unknown = 0;
		struct expr *e;

		assert_true(model_watch_at(m, k, &w));
		if (!w.expr)
			continue;
		assert_int_equal(expr_parse(w.expr, &e, err, sizeof err), TD_OK);
		struct step_tol tol = { w.rtol, w.atol };
		for (uint64_t j = 0; j < model_trace_count(m); j++) {
			struct where_opts o = { .tol = &tol };
			unknown += where_trace_opts(m, e, j, &o) == EXPR_UNKNOWN;
		}
		expr_free(e);
		assert_int_equal(r.unknown_by[k], unknown);
	}
	/* the generator's truth: a float32 weight's change is too large when
	 * its abs_mean grew by 1.2, from the statistics of both steps */
	for (size_t i = 0; i < r.nhits; i++) {
		struct model_watch w;
		const struct model_watch_hit *h = &r.hits[i];
		int op = (int)(h->index % NOPS), step = (int)(h->index / NOPS);

		assert_true(model_watch_at(m, h->watch, &w));
		if (strcmp(w.name, "weight_change_too_large") != 0)
			continue;
		double want = fabs(abs_mean_of(op, step) - abs_mean_of(op, step - 1)) /
			      abs_mean_of(op, step - 1);
		assert_true(step > 0 && has_stats(op, step) && has_stats(op, step - 1));
		assert_true(kind_of(op) == 0 || kind_of(op) == 4);
		assert_string_equal(h->values[0].field, "update_ratio");
		assert_true(fabs(h->values[0].value - want) < 1e-12);
		assert_string_equal(h->basis, "statistics");
		nratio++;
	}
	for (int op = 0; op < NOPS; op++)
		for (int step = 1; step < NSTEPS; step++) {
			bool want = (kind_of(op) == 0 || kind_of(op) == 4) && op % 4 == 1 &&
				    op % 7 != 3 && op % 11 != 5 && has_stats(op, step) &&
				    has_stats(op, step - 1);
			nratio -= want;
		}
	assert_int_equal(nratio, 0);     /* every one found, no other */
	model_watch_run_done(&r);
	model_close(m);
	fake_free(f);
}

/* ---- step fields from the columns ------------------------------------------- */

static bool
close_to(double a, double b, double rtol, double atol)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return a == b;
	return fabs(a - b) <= atol + rtol * fabs(b);
}

/* Whether row u (before row t) records row t's tensor: the same op, slot
 * and host, or an op of the same name, slot and host whose rows all come
 * before the first row of t's op, in an earlier step (another step's copy
 * of the graph: a tfdbg v1 run's partition graph has ops of its own). */
static bool
same_tensor(struct model *m, const struct model_trace *t, const struct model_trace *u)
{
	struct model_op_brief a, b;
	struct model_trace first;
	uint64_t tf, tl, uf, ul;

	if (u->slot != t->slot || strcmp(u->host, t->host))
		return false;
	if (u->op == t->op)
		return true;
	assert_true(model_op_brief(m, t->op, &a) && model_op_brief(m, u->op, &b));
	if (strcmp(a.name, b.name) || !model_op_rows(m, t->op, &tf, &tl) ||
	    !model_op_rows(m, u->op, &uf, &ul) || ul >= tf)
		return false;
	assert_int_equal(model_trace_get(m, tf, &first), TD_OK);
	return u->step >= 0 && first.step >= 0 && u->step < first.step;
}

/* The test's own previous step of row i: the same tensor in an earlier
 * step, its last record there (or the previous record when rows have no
 * step). */
static int64_t
prev_of(struct model *m, uint64_t i)
{
	struct model_trace t, u;
	int64_t best = -1, best_step = 0;

	assert_int_equal(model_trace_get(m, i, &t), TD_OK);
	for (uint64_t k = 0; k < i; k++) {
		assert_int_equal(model_trace_get(m, k, &u), TD_OK);
		if (!same_tensor(m, &t, &u))
			continue;
		if (t.step < 0 || u.step < 0 || u.step != t.step) {
			best = (int64_t)k;
			best_step = u.step;
		}
	}
	/* the last record of that earlier step */
	if (best >= 0 && t.step >= 0 && best_step >= 0)
		for (uint64_t k = (uint64_t)best + 1; k < i; k++) {
			assert_int_equal(model_trace_get(m, k, &u), TD_OK);
			if (same_tensor(m, &t, &u) && u.step == best_step)
				best = (int64_t)k;
		}
	return best;
}

/* Step field f of row i as the test works it out from decoded rows. */
static enum expr_avail
expect_step(struct model *m, uint64_t i, enum expr_field f, double *num)
{
	int64_t p = prev_of(m, i);
	struct model_trace now, was;
	struct model_detail da, db;
	enum expr_avail r = EXPR_ABSENT;

	if (f == EXPR_F_FIRST_RECORD) {
		*num = p < 0;
		return EXPR_KNOWN;
	}
	if (p < 0)
		return EXPR_ABSENT;
	assert_int_equal(model_trace_get(m, i, &now), TD_OK);
	assert_int_equal(model_trace_get(m, (uint64_t)p, &was), TD_OK);
	if (f == EXPR_F_DELTA_ABS_MEAN) {
		if (!(now.summary.known & was.summary.known & SUM_ABS_MEAN))
			return EXPR_ABSENT;
		*num = now.summary.abs_mean - was.summary.abs_mean;
		return EXPR_KNOWN;
	}
	bool va = model_trace_detail(m, i, &da) == TD_OK && da.noutputs && da.values && da.values[0];
	bool vb = model_trace_detail(m, (uint64_t)p, &db) == TD_OK && db.noutputs && db.values &&
		  db.values[0];
	if (va && vb && da.values[0]->n == db.values[0]->n && da.values[0]->n > 0 &&
	    !da.values[0]->strings && !db.values[0]->strings) {
		double diff = 0, base = 0;
		bool same = true;
		for (int64_t k = 0; k < da.values[0]->n; k++) {
			double x = td_tensor_get(da.values[0], k), y = td_tensor_get(db.values[0], k);
			same = same && close_to(x, y, STEP_RTOL, STEP_ATOL);
			diff += fabs(x - y);
			base += fabs(y);
		}
		if (f == EXPR_F_UNCHANGED) {
			*num = same;
			r = EXPR_KNOWN;
		} else if (isfinite(diff) && isfinite(base) && base != 0) {
			*num = diff / base;
			r = EXPR_KNOWN;
		}
	} else if (f == EXPR_F_UPDATE_RATIO) {
		if (now.summary.known & was.summary.known & SUM_ABS_MEAN && was.summary.abs_mean != 0) {
			*num = fabs(now.summary.abs_mean - was.summary.abs_mean) / was.summary.abs_mean;
			r = EXPR_KNOWN;
		}
	} else {
		const struct td_summary *a = &now.summary, *b = &was.summary;
		uint32_t both = a->known & b->known;
		if (both & (SUM_MINMAX | SUM_MEAN | SUM_ABS_MEAN)) {
			bool same = true;
			if (both & SUM_MINMAX)
				same = same && close_to(a->min, b->min, STEP_RTOL, STEP_ATOL) &&
				       close_to(a->max, b->max, STEP_RTOL, STEP_ATOL);
			if (both & SUM_MEAN)
				same = same && close_to(a->mean, b->mean, STEP_RTOL, STEP_ATOL);
			if (both & SUM_ABS_MEAN)
				same = same && close_to(a->abs_mean, b->abs_mean, STEP_RTOL, STEP_ATOL);
			if (both & SUM_NAN)
				same = same && a->nan == b->nan;
			if (both & SUM_ELEMENTS)
				same = same && a->elements == b->elements;
			*num = same;
			r = EXPR_KNOWN;
		}
	}
	model_detail_done(&da);
	model_detail_done(&db);
	return r;
}

static struct model *
open_cached(const char *path, const char *cache)
{
	struct model_options opt = { .no_thread = true, .cache = cache != NULL, .cache_dir = cache };
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(path, &opt, &m, err, sizeof err), TD_OK);
	model_wait(m);
	return m;
}

/* Every row's step fields on m against the test's; the count of rows
 * the step fields knew. */
static uint64_t
step_fields_agree(struct model *m)
{
	static const enum expr_field fs[] = { EXPR_F_DELTA_ABS_MEAN, EXPR_F_UPDATE_RATIO,
					      EXPR_F_UNCHANGED, EXPR_F_FIRST_RECORD };
	uint64_t known = 0;

	/* backwards first: a row's previous step is not read yet */
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t n = model_trace_count(m), k = 0; k < n; k++) {
			uint64_t i = pass ? k : n - 1 - k;
			for (size_t q = 0; q < sizeof fs / sizeof fs[0]; q++) {
				double got = 0, want = 0;
				const char *str = NULL;
				enum expr_avail a = where_trace_field(m, i, fs[q], NULL, &got, &str);
				enum expr_avail b = expect_step(m, i, fs[q], &want);
				if (a != b)
					fail_msg("row %llu %s: %d, want %d", (unsigned long long)i,
						 expr_field_name(fs[q]), a, b);
				if (a == EXPR_KNOWN && memcmp(&got, &want, sizeof got) != 0 &&
				    !(isnan(got) && isnan(want)))
					fail_msg("row %llu %s: %.17g, want %.17g", (unsigned long long)i,
						 expr_field_name(fs[q]), got, want);
				known += a == EXPR_KNOWN && fs[q] != EXPR_F_FIRST_RECORD;
			}
		}
	return known;
}

static void
test_step_fields_from_columns(void **state)
{
	/* whether a step field knows some rows (mlp_nan: each run's graph
	 * has ops of its own; runs 1 and 2 follow run 0's tensors by name) */
	static const struct {
		const char *path;
		bool knows;
	} dumps[] = {
		{ "tests/fixtures/tfdbg1/mlp_nan", true },
		{ "tests/fixtures/mindspore/sync_lenet", true },      /* values, statistic.csv */
		{ "tests/fixtures/tfdbg2/modes/full_tensor", true },  /* values */
		{ "tests/fixtures/msprobe/pt_stats_2rank", true },    /* statistics only */
	};

	(void)state;
	for (size_t d = 0; d < sizeof dumps / sizeof dumps[0]; d++) {
		char *cache = test_tmpdir("stepcols");
		struct model *m = open_cached(dumps[d].path, cache);
		uint64_t cols = 0;

		for (uint64_t i = 0; i < model_trace_count(m); i++) {
			struct model_fields mf;    /* rows the pass did not fill: kept now */
			assert_true(model_trace_fields(m, i, STEP_SUMMARY_BITS, &mf));
		}
		model_close(m);                 /* the index and its columns written */
		m = open_cached(dumps[d].path, cache);
		for (uint64_t i = 0; i < model_trace_count(m); i++) {
			struct model_fields mf;
			assert_true(model_trace_fields(m, i, STEP_SUMMARY_BITS, &mf));
			cols += mf.from_columns;
		}
		if (cols != model_trace_count(m))   /* the warm model reads columns */
			fail_msg("%s: %llu of %llu rows from the columns", dumps[d].path,
				 (unsigned long long)cols, (unsigned long long)model_trace_count(m));
		uint64_t warm = step_fields_agree(m);
		assert_int_equal(warm > 0, dumps[d].knows);
		struct model_watch_run r;      /* the watch check reading the columns */
		run_per_row(m, &r);
		model_watch_run_done(&r);
		model_close(m);
		m = open_cached(dumps[d].path, NULL);
		assert_int_equal(step_fields_agree(m), warm);
		run_per_row(m, &r);
		model_watch_run_done(&r);
		model_close(m);
		test_rmtree(cache);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_op_once_gives_the_per_row_answers),
		cmocka_unit_test(test_step_fields_from_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
