/*
 * test_model_origin_row.c - what an origin shows of its own row (op name
 * and type, slot, host, wall time, summary: model_origins.c's fill_row,
 * which reads the summary and time from the summary columns instead of
 * decoding the record past a block's first rows) is what model_trace_get
 * gives for that row, on dumps opened through the persistent index (the
 * columns read) and without it (decoded), for every row `why` is asked
 * of (the non-finite rows and a few finite ones) and every origin a
 * listing explains (the columns read), of tfdbg v2 (health modes and full
 * tensors, a corrupt record), tfdbg v1, MindSpore and msprobe fixtures
 * and a generated dump of two hosts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "model/model.h"
#include "tests/unit/helpers/cache_tmp.h"
#include "tests/unit/helpers/summary_assert.h"

static const char *const fixtures[] = {
	"tests/fixtures/tfdbg2/mnist_nan",
	"tests/fixtures/tfdbg2/modes/full_tensor",
	"tests/fixtures/tfdbg2/modes/curt_health",
	"tests/fixtures/robust/bad_crc",
	"tests/fixtures/tfdbg1/mlp_nan",
	"tests/fixtures/mindspore/async_small",
	"tests/fixtures/mindspore/sync_lenet",
	"tests/fixtures/msprobe/pt_stats_2rank",
	"tests/fixtures/msprobe/pt_tensor_pt",
	"@gen",
};

/* The summary fields an answer shows, as model_trace_get has them. */
static void
same_summary(const struct td_summary *a, const struct td_summary *b)
{
	assert_same_summary(a, b, SUM_TENSOR_ID | SUM_PERCENTILES);
}

/* o's row facts are model_trace_get's. */
static void
same_row(struct model *m, const struct model_origin *o)
{
	struct model_trace t;

	assert_int_equal(model_trace_get(m, o->index, &t), TD_OK);
	assert_string_equal(o->op_name, t.op_name);
	assert_string_equal(o->op_type, t.op_type);
	assert_int_equal(o->slot, t.slot);
	assert_string_equal(o->host, t.host);
	assert_memory_equal(&o->wall_time, &t.wall_time, sizeof o->wall_time);
	same_summary(&o->summary, &t.summary);
}

/* The listing's origins (one run: past a block's first rows, from the
 * columns); returns how many rows it listed. */
static size_t
check_listing(struct model *m)
{
	struct model_origin *v;
	size_t n = model_origins(m, NULL, &v), rows = 0;

	for (size_t k = 0; k < n; k++)
		if (v[k].source == TABLE_TRACES) {
			same_row(m, &v[k]);
			rows++;
		}
	model_origins_free(v, n);
	return rows;
}

/* Every non-finite row's and every 97th row's why: its row facts. */
static void
check_rows(struct model *m)
{
	uint64_t n = model_trace_count(m), asked = 0;

	assert_true(n > 0);
	for (uint64_t i = 0; i < n; i++) {
		struct model_origin o;
		uint32_t f;

		model_trace_op_flags(m, i, &f);
		if (!(f & ROW_NONFINITE) && i % 97)
			continue;
		asked++;
		assert_int_equal(model_why(m, i, &o), TD_OK);
		same_row(m, &o);
		model_origin_done(&o);
	}
	assert_true(asked > 0);
}

static void
test_origin_row_facts_are_the_decodes(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof fixtures / sizeof *fixtures; k++) {
		struct tmp t;
		struct model *m;
		size_t listed;

		if (strcmp(fixtures[k], "@gen") == 0) {
			tmp_init_tagged(&t, "tests/fixtures/tfdbg2/mnist_nan", "orow");
			sh("rm -rf %s && \"$(tests/gen/build.sh)\" -q -n 9000 --hosts 2 --ops 300 "
			   "-m FULL_HEALTH --nan-at 4000 --nan-every 1 %s", t.dump, t.dump);
		} else {
			tmp_init_tagged(&t, fixtures[k], "orow");
		}
		m = open_cached(&t, true, "new");   /* the columns written by the pass */
		check_rows(m);
		listed = check_listing(m);
		model_close(m);
		m = open_cached(&t, true, "used");  /* read back from the file */
		check_rows(m);
		assert_int_equal(check_listing(m), listed);
		model_close(m);
		m = open_cached(&t, false, "off");  /* no columns: decoded */
		check_rows(m);
		assert_int_equal(check_listing(m), listed);
		model_close(m);
		/* the generated dump lists more rows than a block's decoded ones */
		if (strcmp(fixtures[k], "@gen") == 0)
			assert_true(listed > 100);
		tmp_done(&t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_origin_row_facts_are_the_decodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
