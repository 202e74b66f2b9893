/*
 * test_model_query.c - the analysis floor's narrow API (model_query.h) on
 * a fake dump whose facts the script states: rows' keys in a batch, a row
 * past the end, hosts by key, an op's input producer, ops of one name,
 * executions' keys, the next non-finite row across chunks, the link scans
 * where executions interleave, the per-dump state slot, and rows' hosts
 * a window at a time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "tests/unit/helpers/fake_model.h"

/* Graph G: a (no input), b reads a:0, c reads "nowhere:0"; graph H: a
 * again.  Row 0 a (h1, step 3), row 1 b (h2, step 3), row 2 an input row
 * of b, slot 0 (h1, step 4), row 3 H's a (h2, no step). */
static struct fake *
script(void)
{
	static const char *const b_in[] = { "a:0", NULL }, *const c_in[] = { "nowhere:0", NULL };
	struct fake *f = fake_new();
	struct td_summary s = fake_full_health(4, 0, 0, 0);

	fake_file(f, 1, "f1", "h1");
	fake_file(f, 2, "f2", "h2");
	fake_graph(f, "G", "g", NULL);
	fake_graph(f, "H", "h", NULL);
	fake_op(f, "G", "a", "Const", NULL, NULL);
	fake_op(f, "G", "b", "Log", b_in, NULL);
	fake_op(f, "G", "c", "Exp", c_in, NULL);
	fake_op(f, "H", "a", "Const", NULL, NULL);
	fake_trace(f, 1, "G", "a", 0, 1, &s);
	fake_step(f, 3);
	fake_trace(f, 2, "G", "b", 0, 2, &s);
	fake_step(f, 3);
	fake_trace_ex(f, 1, "G", "b", 0, 3, &s, -1, true);
	fake_step(f, 4);
	fake_trace(f, 2, "H", "a", 0, 4, &s);
	return f;
}

static void
test_keys_of_a_batch(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	const uint64_t rows[] = { 3, 0, 2, 1, 99 };
	struct model_row_keys k[5];
	int64_t a = model_op_find(m, "a", "G"), b = model_op_find(m, "b", "G");

	(void)state;
	model_wait(m);
	model_trace_keys(m, rows, 5, k);
	assert_int_equal(k[1].op, a);
	assert_int_equal(k[3].op, b);
	assert_int_equal(k[2].op, b);
	assert_int_equal(k[0].op, model_op_find(m, "a", "H"));
	assert_string_equal(model_host_name(m, k[1].host), "h1");
	assert_string_equal(model_host_name(m, k[3].host), "h2");
	assert_int_equal(k[1].step, 3);
	assert_int_equal(k[2].step, 4);
	assert_int_equal(k[0].step, -1);
	assert_true(k[2].flags & ROW_INPUT);
	assert_false(k[1].flags & (ROW_INPUT | ROW_NONFINITE));
	assert_int_equal(k[1].graph, model_graph_find(m, "G"));
	assert_int_equal(k[0].graph, model_graph_find(m, "H"));
	assert_int_equal(k[1].execution, -1);
	/* past the rows: nothing */
	assert_int_equal(k[4].op, UINT32_MAX);
	assert_int_equal(k[4].host, 0);
	assert_int_equal(k[4].step, -1);
	/* hosts by name */
	assert_int_equal(model_host_key(m, "h2"), k[3].host);
	assert_int_equal(model_host_key(m, "nohost"), MODEL_NO_HOST);
	assert_string_equal(model_host_name(m, 0), "");
	model_close(m);
	fake_free(f);
}

static void
test_ops_inputs_and_names(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	int64_t a = model_op_find(m, "a", "G"), b = model_op_find(m, "b", "G");
	int64_t c = model_op_find(m, "c", "G"), ha = model_op_find(m, "a", "H");
	struct model_op_brief br[8];
	const char *name = NULL;
	uint32_t slot = 7, *same = NULL;
	uint64_t first, last;

	(void)state;
	model_wait(m);
	assert_int_equal(model_op_input(m, (uint32_t)b, 0, &slot, &name), a);
	assert_int_equal(slot, 0);
	assert_string_equal(name, "a");
	assert_int_equal(model_op_input(m, (uint32_t)b, 1, NULL, NULL), -2);
	assert_int_equal(model_op_input(m, (uint32_t)c, 0, NULL, &name), -1);
	assert_string_equal(name, "nowhere");
	/* ops named a: the asked one first */
	assert_int_equal(model_op_same_name(m, (uint32_t)ha, &same), 2);
	assert_int_equal(same[0], ha);
	assert_int_equal(same[1], a);
	free(same);
	assert_int_equal(model_op_same_name(m, 1000, &same), 0);
	assert_null(same);
	/* briefs of every op, one call */
	assert_int_equal(model_op_briefs(m, 0, 8, br), model_op_count(m));
	assert_string_equal(br[b].type, "Log");
	assert_int_equal(br[b].ninputs, 1);
	assert_int_equal(br[ha].graph, model_graph_find(m, "H"));
	assert_true(br[a].described);
	/* b's rows: 1 (output) and 2 (input row) */
	assert_true(model_op_rows(m, (uint32_t)b, &first, &last));
	assert_int_equal(first, 1);
	assert_int_equal(last, 2);
	assert_false(model_op_rows(m, (uint32_t)c, &first, &last));
	model_close(m);
	fake_free(f);
}

static void
test_execution_keys(void **state)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0), bad = fake_full_health(4, 1, 0, 0);
	struct td_summary two[2] = { ok, bad };
	struct model_exec_keys x[4];
	struct model *m;

	(void)state;
	fake_file(f, 1, "f1", "h1");
	fake_graph(f, "F", "f", NULL);
	fake_exec(f, 1, "Add", NULL, "h1", 5, two, 2);
	fake_exec(f, 1, "__inference_f", "F", "h1", 6, &ok, 1);
	m = fake_model_open(f, NULL);
	model_wait(m);
	assert_int_equal(model_execution_keys(m, 0, 4, x), 2);
	assert_string_equal(x[0].op_type, "Add");
	assert_int_equal(x[0].bad_outputs, 1);
	assert_false(x[0].flags & ROW_FUNCTION);
	assert_int_equal(x[0].graph, -1);
	assert_string_equal(model_host_name(m, x[0].host), "h1");
	assert_true(x[1].wall_time == 6);
	assert_true(x[1].flags & ROW_FUNCTION);
	assert_int_equal(x[1].graph, model_graph_find(m, "F"));
	assert_int_equal(x[1].bad_outputs, 0);
	assert_int_equal(model_execution_keys(m, 2, 4, x), 0);
	model_close(m);
	fake_free(f);
}

/* Every start and several ends (the scan reads eight flags a step from an
 * 8-aligned row: starts and ends at every offset), against the rows' own
 * flags: every 13th row non-finite. */
static void
test_next_nonfinite_every_start_and_end(void **state)
{
	static const uint64_t ends[] = { 0, 1, 7, 8, 9, 13, 14, 100 };
	struct fake *f = fake_new();
	struct model *m;

	(void)state;
	fake_synth(f, 3000, 13);
	m = fake_model_open(f, NULL);
	model_wait(m);
	assert_int_equal(model_trace_count(m), 3000);
	for (uint64_t i = 0; i <= 3000; i++)
		for (size_t e = 0; e <= sizeof ends / sizeof ends[0]; e++) {
			uint64_t end = e < sizeof ends / sizeof ends[0] ? TD_MIN(i + ends[e], 3000) : 3000;
			uint64_t want = i;
			uint32_t fl;

			while (want < end && (model_trace_op_flags(m, want, &fl), !(fl & ROW_NONFINITE)))
				want++;
			assert_int_equal(model_trace_next_nonfinite(m, i, end), want);
		}
	assert_int_equal(model_trace_next_nonfinite(m, 0, UINT64_MAX), 12);
	model_close(m);
	fake_free(f);
}

static void
test_next_nonfinite_skips_clean_chunks(void **state)
{
	struct fake *f = fake_new();
	struct model *m;

	(void)state;
	/* rows 99999 and 199999 are non-finite (every 100000th, counting
	 * from 1); the chunks of 65536 rows before 99999 hold none */
	fake_synth(f, 250000, 100000);
	m = fake_model_open(f, NULL);
	model_wait(m);
	assert_int_equal(model_trace_count(m), 250000);
	assert_int_equal(model_trace_next_nonfinite(m, 0, UINT64_MAX), 99999);
	assert_int_equal(model_trace_next_nonfinite(m, 99999, UINT64_MAX), 99999);
	assert_int_equal(model_trace_next_nonfinite(m, 100000, UINT64_MAX), 199999);
	assert_int_equal(model_trace_next_nonfinite(m, 200000, UINT64_MAX), 250000);
	assert_int_equal(model_trace_next_nonfinite(m, 0, 5000), 5000);
	model_close(m);
	fake_free(f);
}

/* Executions 0 and 1 interleave: a (exec 0), a (exec 1), b (exec 0). */
/* scan_back against a walk back one row at a time, from every row and two
 * lower bounds, for ops scattered over 300 rows (the scan steps over 16
 * rows of other ops at a time: finds at every offset in those steps). */
static void
test_scan_back_as_a_walk_back(void **state)
{
	static const char *const names[] = { "a", "b", "c", "d", "e" };
	struct fake *f = fake_new();
	struct td_summary s = {0};
	struct model *m;
	uint32_t x = 12345, fl;
	int64_t ops[5];

	(void)state;
	fake_file(f, 1, "f1", "h1");
	fake_graph(f, "G", "g", NULL);
	for (size_t k = 0; k < 5; k++)
		fake_op(f, "G", names[k], "Identity", NULL, NULL);
	for (uint32_t r = 0; r < 300; r++) {
		x = x * 1103515245u + 12345u;
		/* mostly "a", the others now and then: long stretches without them */
		fake_trace(f, 1, "G", names[(x >> 16) % 13 < 9 ? 0 : 1 + (x >> 16) % 4], 0, r + 1, &s);
	}
	m = fake_model_open(f, NULL);
	model_wait(m);
	assert_int_equal(model_trace_count(m), 300);
	for (size_t k = 0; k < 5; k++) {
		ops[k] = model_op_find(m, names[k], "G");
		assert_true(ops[k] >= 0);
	}
	for (size_t k = 0; k < 5; k++)
		for (uint64_t from = 0; from <= 300; from++)
			for (uint64_t lo = 0; lo <= from; lo += from / 2 + 1) {
				int64_t want = -1;

				for (uint64_t j = from; j > lo; j--)
					if (model_trace_op_flags(m, j - 1, &fl) == (uint32_t)ops[k]) {
						want = (int64_t)(j - 1);
						break;
					}
				assert_int_equal(model_trace_scan_back(m, (uint32_t)ops[k], 0, from, lo,
								       -1, false), want);
			}
	model_close(m);
	fake_free(f);
}

static void
test_scans_stay_in_their_execution(void **state)
{
	static const char *const b_in[] = { "a:0", NULL };
	struct fake *f = fake_new();
	struct td_summary s = fake_full_health(4, 0, 0, 0);
	struct model *m;
	int64_t a, b;

	(void)state;
	fake_file(f, 1, "f1", "h1");
	fake_graph(f, "G", "g", NULL);
	fake_op(f, "G", "a", "Const", NULL, NULL);
	fake_op(f, "G", "b", "Log", b_in, NULL);
	fake_exec(f, 1, "run", NULL, "h1", 1, NULL, 0);
	fake_exec(f, 1, "run", NULL, "h1", 2, NULL, 0);
	fake_trace_ex(f, 1, "G", "a", 0, 3, &s, 0, false);
	fake_trace_ex(f, 1, "G", "a", 0, 4, &s, 1, false);
	fake_trace_ex(f, 1, "G", "b", 0, 5, &s, 0, false);
	m = fake_model_open(f, NULL);
	model_wait(m);
	a = model_op_find(m, "a", "G");
	b = model_op_find(m, "b", "G");
	assert_true(model_traces_split_runs(m));
	assert_int_equal(model_trace_scan_back(m, (uint32_t)a, 0, 2, 0, 0, false), 0);
	assert_int_equal(model_trace_scan_back(m, (uint32_t)a, 0, 2, 0, 1, false), 1);
	assert_int_equal(model_trace_scan_back(m, (uint32_t)a, 0, 2, 0, -1, false), 1);
	assert_int_equal(model_trace_scan_fwd(m, (uint32_t)a, UINT32_MAX, 0, 3, 1), 1);
	assert_int_equal(model_trace_scan_fwd(m, (uint32_t)b, UINT32_MAX, 0, 3, 1), -1);
	assert_int_equal(model_trace_scan_fwd(m, (uint32_t)b, UINT32_MAX, 0, 3, 0), 2);
	model_close(m);
	fake_free(f);
}

static int made, freed;

static void *
make_state(void)
{
	made++;
	return xcalloc(1, 16);
}

static void
free_state(void *p)
{
	freed++;
	free(p);
}

static void
test_state_is_made_once_and_freed_at_close(void **state)
{
	struct fake *f = script();
	struct model *m = fake_model_open(f, NULL);
	void *p;

	(void)state;
	made = freed = 0;
	p = model_state(m, MODEL_STATE_STEP_INDEX, make_state, free_state);
	assert_non_null(p);
	assert_ptr_equal(model_state(m, MODEL_STATE_STEP_INDEX, make_state, free_state), p);
	assert_int_equal(made, 1);
	assert_int_equal(freed, 0);
	model_close(m);
	assert_int_equal(freed, 1);
	fake_free(f);
}

/* Hosts a window at a time: runs of rows in files with a host (h1, h2)
 * and in one without (no host: ""), asked from every start and length,
 * are the hosts the script gave, and model_trace_host's. */
static void
test_trace_hosts_by_file(void **state)
{
	static const char *const want[] = { "h1", "h1", "h1", "", "", "h2", "h2", "h1", "",
					    "h2", "h2", "h2", "h1" };
	struct fake *f = fake_new();
	struct td_summary s = fake_full_health(4, 0, 0, 0);
	uint32_t host[16];
	struct model *m;
	size_t n = sizeof want / sizeof want[0];

	(void)state;
	fake_file(f, 1, "f1", "h1");
	fake_file(f, 2, "f2", "h2");
	fake_file(f, 3, "f3", "");
	fake_op(f, "G", "a", "Const", NULL, NULL);
	for (size_t i = 0; i < n; i++)
		fake_trace(f, !*want[i] ? 3 : want[i][1] == '1' ? 1 : 2, "G", "a", 0, (double)i, &s);
	m = fake_model_open(f, NULL);
	assert_int_equal(model_trace_count(m), n);
	for (size_t first = 0; first <= n; first++)
		for (size_t len = 1; len <= n - first + 1; len++) {
			size_t got = model_trace_hosts(m, first, len, host, NULL);

			assert_int_equal(got, len < n - first ? len : n - first);
			for (size_t k = 0; k < got; k++) {
				assert_string_equal(model_host_name(m, host[k]), want[first + k]);
				assert_int_equal(host[k], model_trace_host(m, first + k));
			}
		}
	model_close(m);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_of_a_batch),
		cmocka_unit_test(test_ops_inputs_and_names),
		cmocka_unit_test(test_execution_keys),
		cmocka_unit_test(test_next_nonfinite_skips_clean_chunks),
		cmocka_unit_test(test_next_nonfinite_every_start_and_end),
		cmocka_unit_test(test_scan_back_as_a_walk_back),
		cmocka_unit_test(test_scans_stay_in_their_execution),
		cmocka_unit_test(test_state_is_made_once_and_freed_at_close),
		cmocka_unit_test(test_trace_hosts_by_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
