/*
 * test_model_watch_window.c - `watches check` a window of rows at a time
 * (model_watch_window.c, issue 25) gives the row by row check's answers:
 * on dumps opened warm (their persistent index and summary columns), the
 * recommended watches and a few more with step fields, op names and
 * roles are run once the window way and once with a watch on `host`
 * added last (a field no window holds: the whole run goes row by row),
 * and the two runs' rows checked, unknowns (in all and per watch), hits
 * (row, watch, basis, values and thresholds) must be the same, for the
 * whole dump and for one step.  The dumps: a MindSpore statistic-only
 * dump (step fields from the statistics: unchanged, first_record), a
 * tfdbg v2 FULL_TENSOR dump of two hosts with one row in three filled in
 * the columns by an earlier question (the others not filled: decoded row
 * by row; values to compare), a FULL_HEALTH one with NaN rows, and the
 * tfdbg v1 and MindSpore fixtures with steps.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_where.h"
#include "model/model.h"
#include "tests/unit/helpers/files.h"

/* Watches beside the recommended set: step fields, op fields, dtype,
 * leaves like the set's but for their operator or literal. */
static const char *const extra[][2] = {
	{ "same", "unchanged" },
	{ "grew", "delta_abs_mean > 0 and not first_record" },
	{ "ratio", "update_ratio > 0.01" },
	{ "act", "role == \"activation\" and max > 0.1" },
	{ "conv", "op ~ \"conv\" and not unchanged" },
	{ "mm", "type == \"MatMul\" or nan > 0" },
	{ "notw", "not (role == \"weight\") and (unchanged or zero_fraction > 0.5)" },
	{ "tight", "weight_not_changed(rtol=0.5, atol=0)" },
	{ "f32", "dtype == \"float32\" and min < 0" },
	/* the recommended set's "nan > 0" with another operator: not its leaf */
	{ "fin", "nan <= 0 and elements < 3" },
};

static struct model *
open_warm(const char *path, const char *cache)
{
	struct model_options opt = { .no_thread = true, .cache = true, .cache_dir = cache };
	struct model *m = NULL;
	char err[512];

	assert_int_equal(model_open(path, &opt, &m, err, sizeof err), TD_OK);
	model_wait(m);
	return m;
}

/* Adds the extra watches (alone: no recommended set, whose roles a
 * dump stating its rows' roles leaves row by row) and, when row_by_row,
 * a watch on the host (never true: no host is named so). */
static void
add_watches(struct model *m, bool alone, bool row_by_row)
{
	char err[256];

	if (alone)
		model_watch_recommended(m, false);
	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		if (!alone || (!strstr(extra[i][1], "role") && !strstr(extra[i][1], "weight_")))
			assert_int_equal(model_watch_add(m, extra[i][0], extra[i][1], err, sizeof err),
					 TD_OK);
	if (row_by_row)
		assert_int_equal(model_watch_add(m, "zz_host", "host == \"no such host\"", err,
						 sizeof err), TD_OK);
}

static void
run(struct model *m, int64_t step, uint64_t budget, struct model_watch_run *r)
{
	model_watch_run_init(r, step);
	while (!model_watch_run_step(m, r, budget))
		;
}

/* a (the window way) against b (row by row): the same answers. */
static void
same_runs(const char *what, const struct model_watch_run *a, const struct model_watch_run *b,
	  size_t nwatches)
{
	if (a->checked != b->checked || a->unknown != b->unknown || a->nhits != b->nhits)
		fail_msg("%s: checked %llu/%llu unknown %llu/%llu hits %zu/%zu", what,
			 (unsigned long long)a->checked, (unsigned long long)b->checked,
			 (unsigned long long)a->unknown, (unsigned long long)b->unknown, a->nhits,
			 b->nhits);
	for (size_t k = 0; k < nwatches; k++) {
		uint64_t x = k < a->n_unknown_by ? a->unknown_by[k] : 0;
		uint64_t y = k < b->n_unknown_by ? b->unknown_by[k] : 0;

		if (x != y)
			fail_msg("%s: watch %zu unknown %llu, row by row %llu", what, k,
				 (unsigned long long)x, (unsigned long long)y);
	}
	for (size_t i = 0; i < a->nhits; i++) {
		const struct model_watch_hit *h = &a->hits[i], *g = &b->hits[i];
		char da[512], db[512];

		model_watch_hit_describe(h, da, sizeof da);
		model_watch_hit_describe(g, db, sizeof db);
		if (h->watch != g->watch || h->source != g->source || h->index != g->index ||
		    strcmp(da, db) || (h->basis == NULL) != (g->basis == NULL) ||
		    (h->basis && strcmp(h->basis, g->basis)))
			fail_msg("%s: hit %zu: watch %zu row %llu '%s', row by row watch %zu row %llu "
				 "'%s'", what, i, h->watch, (unsigned long long)h->index, da, g->watch,
				 (unsigned long long)g->index, db);
	}
}

/* The dump at path, warm from cache: the window way and row by row agree
 * (whole and step 1, budgets that cut windows); returns the rows the
 * window way answered from the columns. */
static uint64_t
check_dump(const char *path, const char *cache, bool alone)
{
	static const uint64_t budgets[] = { 1000000, 777 };
	uint64_t windowed = 0;

	for (size_t bi = 0; bi < 2; bi++)
		for (int64_t step = -1; step <= 1; step += 2) {
			struct model *m = open_warm(path, cache), *n;
			struct model_watch_run a, b;
			char what[800];
			size_t nw;

			add_watches(m, alone, false);
			nw = model_watch_count(m);
			run(m, step, budgets[bi], &a);
			model_close(m);
			n = open_warm(path, cache);
			add_watches(n, alone, true);
			run(n, step, budgets[bi], &b);
			snprintf(what, sizeof what, "%s (step %lld, budget %llu)", path, (long long)step,
				 (unsigned long long)budgets[bi]);
			assert_int_equal(b.by_window, 0);       /* the host watch: row by row */
			same_runs(what, &a, &b, nw);
			windowed += a.by_window;
			model_watch_run_done(&a);
			model_watch_run_done(&b);
			model_close(n);
		}
	return windowed;
}

/* A generated tfdbg v2 dump of mode (two hosts, NaN rows) into tmp. */
static void
gen_tfdbg2(const char *mode, const char *dir)
{
	char cmd[1200];

	snprintf(cmd, sizeof cmd, "\"$(tests/gen/build.sh)\" -q -n 9000 --hosts 2 --ops 300 -m %s "
		 "--nan-every 600 %s", mode, dir);
	assert_int_equal(system(cmd), 0);
}

/* Opens path once with cache (the index and the columns written), with
 * every fill_every-th row's fields read (filled in the columns) first. */
static void
warm_up(const char *path, const char *cache, uint64_t fill_every)
{
	struct model *m = open_warm(path, cache);

	for (uint64_t i = 0; fill_every && i < model_trace_count(m); i += fill_every) {
		struct model_fields mf;

		assert_true(model_trace_fields(m, i, STEP_SUMMARY_BITS, &mf));
	}
	model_close(m);
}

/* ms-stat's iterations are copies of one: each row's Max, Min and Avg
 * times 1 + 0.1 * ((iteration * 7 + line) % 5), so a tensor changes by
 * up to 40% a step (a tolerance of 50% finds it unchanged, the default
 * does not), the Shape kept quoted as MindSpore writes it. */
static void
vary_statistics(const char *dir)
{
	char cmd[2000];

	snprintf(cmd, sizeof cmd, "python3 - '%s' <<'EOF'\n"
		 "import csv, glob, sys\n"
		 "for p in glob.glob(sys.argv[1] + '/rank_*/*/0/*/statistic.csv'):\n"
		 "    it = int(p.split('/')[-2])\n"
		 "    rows = list(csv.reader(open(p)))\n"
		 "    out = [','.join(rows[0])]\n"
		 "    for i, r in enumerate(rows[1:], 1):\n"
		 "        f = 1 + ((it * 7 + i) %% 5) * 0.1\n"
		 "        for c in (10, 11, 12):\n"
		 "            r[c] = repr(float(r[c]) * f)\n"
		 "        r[9] = '\"' + r[9] + '\"'\n"
		 "        out.append(','.join(r))\n"
		 "    open(p, 'w').write('\\n'.join(out) + '\\n')\n"
		 "EOF\n", dir);
	assert_int_equal(system(cmd), 0);
}

static void
test_window_answers_are_the_row_by_rows(void **state)
{
	static const struct {
		const char *path;       /* "@..." generated */
		uint64_t fill_every;    /* rows read before (FULL_TENSOR: filled then) */
		bool alone;             /* the extra watches without roles alone */
	} dumps[] = {
		{ "@ms-stat", 0, false },
		{ "@FULL_TENSOR", 3, false },
		{ "@FULL_HEALTH", 0, false },
		{ "@msprobe", 0, true },        /* roles per row; statistics, no values */
		{ "tests/fixtures/tfdbg1/mlp_nan", 0, false },
		{ "tests/fixtures/mindspore/sync_lenet", 0, false },
		{ "tests/fixtures/tfdbg2/mnist_nan", 0, false },
		{ "tests/fixtures/msprobe/pt_stats_2rank", 0, true },
	};
	char *tmp = test_tmpdir("wwin");

	(void)state;
	for (size_t d = 0; d < sizeof dumps / sizeof dumps[0]; d++) {
		char path[700], cache[700], cmd[1600];

		snprintf(cache, sizeof cache, "%s/cache%zu", tmp, d);
		if (dumps[d].path[0] != '@') {
			snprintf(path, sizeof path, "%s", dumps[d].path);
		} else if (!strcmp(dumps[d].path, "@ms-stat")) {
			snprintf(path, sizeof path, "%s/ms_stat", tmp);
			snprintf(cmd, sizeof cmd, "python3 tests/gen/gen_scale.py ms-stat %s --rows 12000 "
				 "--ranks 2 >/dev/null", path);
			assert_int_equal(system(cmd), 0);
			vary_statistics(path);
		} else if (!strcmp(dumps[d].path, "@msprobe")) {
			snprintf(path, sizeof path, "%s/msprobe", tmp);
			snprintf(cmd, sizeof cmd, "python3 tests/gen/gen_msprobe.py %s --ranks 2 --steps 6 "
				 "--nan-rank 1 --nan-step 4 >/dev/null", path);
			assert_int_equal(system(cmd), 0);
		} else {
			snprintf(path, sizeof path, "%s/%s", tmp, dumps[d].path + 1);
			gen_tfdbg2(dumps[d].path + 1, path);
		}
		warm_up(path, cache, dumps[d].fill_every);
		uint64_t windowed = check_dump(path, cache, dumps[d].alone);
		if (!windowed)      /* every dump has rows the columns answer */
			fail_msg("%s: %llu rows answered a window at a time", path,
				 (unsigned long long)windowed);
	}
	test_rmtree(tmp);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window_answers_are_the_row_by_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
