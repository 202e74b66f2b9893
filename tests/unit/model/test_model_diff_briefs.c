/*
 * test_model_diff_briefs.c - the diff's batch verdicts read compact
 * briefs (model_trace_briefs_novalues) whose shape is one packed word;
 * a shape that does not pack (a rank past TD_MAX_DIMS, a dim too large
 * for its share of the word) must still be compared dim by dim.  Two
 * hand-written msprobe statistics dumps (leaves without tensor files:
 * their records hold no values, so the batches settle them), with and
 * without the persistent index's summary columns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/model.h"
#include "model/model_diff.h"
#include "reader/base/util.h"
#include "tests/unit/helpers/files.h"

/* A leaf of the given shape, statistics alike on both sides. */
#define LEAF(shape) "{\"type\": \"torch.Tensor\", \"dtype\": \"torch.float32\", \"shape\": " \
	shape ", \"Max\": 1, \"Min\": 0, \"Mean\": 0.5, \"Norm\": 1}"

#define RANK9_A "[2, 1, 1, 1, 1, 1, 1, 1, 3]"
#define RANK9_B "[3, 1, 1, 1, 1, 1, 1, 1, 2]"
#define WIDE_A "[1073741824, 2]"        /* 2^30: past rank 2's 30 bits a dim */
#define WIDE_B "[2, 1073741824]"

/* rows: 0 a input.0 (rank 9, dims apart), 1 a output.0 (rank 9, the
 * same), 2 b input.0 (a dim too large, apart: the same element count),
 * 3 b output.0 (rank 2, [2, 3] against [3, 2]), 4 c output.0 (the same) */
static char *
dump_of(bool target)
{
	return xasprintf("{\"task\": \"statistics\", \"level\": \"L1\", \"data\": {\n"
			 "\"Torch.a.0.forward\": {\"input_args\": [%s], \"output\": [%s]},\n"
			 "\"Torch.b.0.forward\": {\"input_args\": [%s], \"output\": [%s]},\n"
			 "\"Torch.c.0.forward\": {\"input_args\": [], \"output\": [%s]}\n"
			 "}}\n",
			 target ? LEAF(RANK9_B) : LEAF(RANK9_A), LEAF(RANK9_A),
			 target ? LEAF(WIDE_B) : LEAF(WIDE_A),
			 target ? LEAF("[3, 2]") : LEAF("[2, 3]"), LEAF("[4, 5]"));
}

static struct model *
open_side(const char *root, const char *name, bool target, const char *cache)
{
	struct model_options opt = { .no_thread = true, .cache = cache != NULL, .cache_dir = cache };
	struct model *m = NULL;
	char err[256], *p, *json = dump_of(target);

	p = xasprintf("%s/%s", root, name);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/%s/step0", root, name);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/%s/step0/rank0", root, name);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/%s/step0/rank0/dump.json", root, name);
	test_spit(p, json, strlen(json), "wb");
	free(p);
	free(json);
	p = xasprintf("%s/%s", root, name);
	assert_int_equal(model_open(p, &opt, &m, err, sizeof err), TD_OK);
	free(p);
	assert_int_equal(model_trace_count(m), 5);
	return m;
}

static void
test_batch_verdicts_compare_unpacked_shapes_dim_by_dim(void **state)
{
	static const bool want[5] = { true, false, true, true, false };
	char *root = test_tmpdir("diff_briefs"), *cache = xasprintf("%s/cache", root);

	(void)state;
	mkdir(cache, 0755);
	/* without columns, then with fresh ones, then reused */
	for (int pass = 0; pass < 3; pass++) {
		const char *c = pass ? cache : NULL;
		struct model *a = open_side(root, "golden", false, c), *b = open_side(root, "target", true, c);
		struct model_diff_options o;
		struct model_diff *d = NULL;
		struct model_diff_counts n;
		char err[256] = "";

		model_diff_options_init(&o);
		assert_int_equal(model_diff_new(a, b, &o, &d, err, sizeof err), TD_OK);

		model_diff_counts(d, &n);
		assert_int_equal(n.aligned, 5);
		for (uint64_t k = 0; k < 5; k++) {
			uint64_t ra, rb;

			assert_true(model_diff_rows(d, k, &ra, &rb));
			assert_int_equal(ra, k);
			assert_int_equal(rb, k);
			assert_true(model_trace_no_values(a, k));
			assert_int_equal(model_diff_diverged(d, k), want[k]);
		}
		assert_int_equal(model_diff_first(d), 0);
		model_diff_free(d);
		model_close(b);
		model_close(a);
	}
	free(cache);
	test_rmtree(root);
}

/* The threads of this process (/proc/self/status), 0 when unknown. */
static int
threads_now(void)
{
	char line[128];
	int n = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

/* A dump of n calls of one input and one output each, as both sides. */
static struct model *
open_many(const char *root, const char *name, int n)
{
	struct model_options opt = { .no_thread = true };
	struct model *m = NULL;
	size_t cap = (size_t)n * 400 + 256, len = 0;
	char err[256], *json = xmalloc(cap), *p;

	len += (size_t)snprintf(json + len, cap - len, "{\"task\": \"statistics\", \"level\": \"L1\", \"data\": {\n");
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(json + len, cap - len,
					"%s\"Torch.f.%d.forward\": {\"input_args\": [%s], \"output\": [%s]}\n",
					i ? "," : "", i, LEAF("[2, 3]"), LEAF("[4]"));
	snprintf(json + len, cap - len, "}}\n");
	p = xasprintf("%s/%s", root, name);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/%s/step0", root, name);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/%s/step0/rank0", root, name);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/%s/step0/rank0/dump.json", root, name);
	test_spit(p, json, strlen(json), "wb");
	free(p);
	free(json);
	p = xasprintf("%s/%s", root, name);
	assert_int_equal(model_open(p, &opt, &m, err, sizeof err), TD_OK);
	free(p);
	assert_int_equal(model_trace_count(m), (uint64_t)n * 2);
	return m;
}

/* The lockstep walk's blocks and the batches (64, 128, 256, ... pairs)
 * run their second half on one thread the diff keeps until
 * model_diff_free, not on a thread started and joined for each (300 a
 * compare of 800,000 rows). */
static void
test_one_helper_thread_for_every_batch(void **state)
{
	char *root = test_tmpdir("diff_worker");
	struct model *a, *b;
	struct model_diff *d = NULL;
	struct model_diff_counts n;
	char err[256] = "";
	int base;
	uint64_t k, div = 0;

	(void)state;
	a = open_many(root, "golden", 400);
	b = open_many(root, "target", 400);
	base = threads_now();
	assert_true(base > 0);
	assert_int_equal(model_diff_new(a, b, NULL, &d, err, sizeof err), TD_OK);
	assert_int_equal(threads_now(), base + 1);      /* lockstep's, kept */
	model_diff_counts(d, &n);
	assert_int_equal(n.aligned, 800);
	for (k = 0; k < n.aligned; k++) {
		div += model_diff_diverged(d, k);
		assert_int_equal(threads_now(), base + 1);
	}
	assert_int_equal(div, 0);
	model_diff_free(d);
	assert_int_equal(threads_now(), base);
	model_close(b);
	model_close(a);
	test_rmtree(root);
}

/* model_brief_of says when its shape word is exact; the brief's
 * non-finite answer is td_summary_nonfinite's. */
static void
test_brief_of_exact_shape_word_and_nonfinite(void **state)
{
	struct td_summary s;
	struct model_brief b;

	(void)state;
	memset(&s, 0, sizeof s);
	s.known = SUM_SHAPE | SUM_RANK | SUM_NAN;
	s.rank = s.ndims = 2;
	s.dims[0] = 3, s.dims[1] = 4;
	assert_true(model_brief_of(&s, ~0u, &b));
	assert_true(b.shape != 0);
	assert_int_equal(b.rank, 2);
	s.dims[1] = 5;
	{
		struct model_brief c;

		assert_true(model_brief_of(&s, ~0u, &c));
		assert_true(c.shape != b.shape);
	}
	s.rank = s.ndims = 0;
	assert_true(model_brief_of(&s, ~0u, &b));
	assert_true(b.shape != 0);
	s.rank = 9, s.ndims = 8, s.dims_truncated = true;
	assert_false(model_brief_of(&s, ~0u, &b));
	assert_true(model_brief_of(&s, ~(uint32_t)SUM_SHAPE, &b));  /* shape not asked */
	s.rank = s.ndims = 2, s.dims_truncated = false;
	s.dims[0] = 1ll << 30;
	assert_false(model_brief_of(&s, ~0u, &b));
	s.known &= ~(uint32_t)SUM_SHAPE;
	assert_true(model_brief_of(&s, ~0u, &b));
	assert_true(b.shape == 0);
	/* the non-finite rule */
	for (int k = 0; k < 16; k++) {
		memset(&s, 0, sizeof s);
		s.known = (k & 1 ? SUM_NONFINITE : 0) | (k & 2 ? SUM_NAN : 0) | SUM_NEG_INF | SUM_POS_INF;
		s.has_inf_or_nan = k & 4;
		s.nan = k & 8 ? 2 : 0;
		s.pos_inf = k == 6;
		model_brief_of(&s, ~0u, &b);
		assert_int_equal(model_brief_nonfinite(&b), td_summary_nonfinite(&s));
		model_brief_of(&s, ~(uint32_t)SUM_NAN, &b);
		s.known &= ~(uint32_t)SUM_NAN;
		assert_int_equal(model_brief_nonfinite(&b), td_summary_nonfinite(&s));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_verdicts_compare_unpacked_shapes_dim_by_dim),
		cmocka_unit_test(test_brief_of_exact_shape_word_and_nonfinite),
		cmocka_unit_test(test_one_helper_thread_for_every_batch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
