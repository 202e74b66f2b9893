/*
 * test_tfdbg1_state.c - the tfdbg v1 reader's resume state (issue 25 item
 * 5): a reader loaded from another reader's saved state sends nothing
 * again and decodes every trace and execution as the indexing reader does;
 * a dump written into the last run since, or a run directory that sorts
 * after the others, is sent by the next pass alone; a run directory that
 * sorts among the indexed ones, a state of the other root kind and a
 * damaged state are refused.  The dump is a copy of mlp_nan (fixtures
 * README: 3 runs of 48 dumps).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reader/reader.h"
#include "tests/unit/helpers/record_sink.h"

#define V1 "tests/fixtures/tfdbg1/mlp_nan"
#define DEV "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0"

/* A reader on dir resumed from st, and what its next pass sent. */
static struct reader *
resume(const char *dir, const struct strbuf *st, struct record_sink *rs)
{
	struct reader_sink sink;
	struct reader *r = record_open(&tfdbg1_reader_ops, dir);

	assert_true(tfdbg1_reader_ops.load_state(r, st->buf, st->len));
	record_sink_init(rs, &sink);
	assert_int_equal(tfdbg1_reader_ops.index(r, &sink), TD_OK);
	return r;
}

static void
test_tfdbg1_state_resumes_without_resending_and_decodes_the_same(void **state)
{
	struct tmp_dump f;
	struct record_sink first, again;
	struct strbuf st = {0};
	struct reader *r;
	size_t i;

	(void)state;
	tmp_dump_make(&f, V1, NULL);
	record_index_and_save(&tfdbg1_reader_ops, f.dir, &first, &st);
	assert_int_equal(first.ntraces, 3 * 48);
	assert_int_equal(first.nexecutions, 3);
	r = resume(f.dir, &st, &again);
	assert_int_equal(again.ntraces + again.nexecutions + again.nops + again.nfiles, 0);
	assert_int_equal(again.nmeta + again.nproblems + again.ngraphs, 0);
	for (i = 0; i < first.ntraces; i++) {
		struct reader_detail d;

		assert_int_equal(tfdbg1_reader_ops.decode(r, READER_TRACE, &first.traces[i].loc, &d),
				 TD_OK);
		assert_string_equal(d.op_name, first.traces[i].op_name);
		assert_int_equal(d.slot, first.traces[i].slot);
		assert_int_equal(d.summaries[0].neg_inf, first.traces[i].summary.neg_inf);
		reader_detail_done(&d);
	}
	for (i = 0; i < first.nexecutions; i++) {
		struct reader_detail d;

		assert_int_equal(tfdbg1_reader_ops.decode(r, READER_EXECUTION,
							  &first.executions[i].loc, &d), TD_OK);
		assert_string_equal(d.op_type, first.executions[i].op_type);
		reader_detail_done(&d);
	}
	tfdbg1_reader_ops.close(r);
	record_sink_done(&again);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}

/* A dump written into the last run, then a later run: the next passes send
 * them alone, in that order. */
static void
test_tfdbg1_state_continues_the_last_run_and_later_runs(void **state)
{
	struct tmp_dump f;
	struct record_sink first, again;
	struct strbuf st = {0};
	struct reader *r;

	(void)state;
	tmp_dump_make(&f, V1, NULL);
	tmp_dump_sh(&f, "mv $T/d/run_*_2/" DEV "/dense/MatMul_0_DebugIdentity_* $T/");
	record_index_and_save(&tfdbg1_reader_ops, f.dir, &first, &st);
	assert_int_equal(first.ntraces, 3 * 48 - 1);
	tmp_dump_sh(&f, "mv $T/MatMul_0_DebugIdentity_* $T/d/run_*_2/" DEV "/dense/ && "
	       "cp -r $T/d/run_*_1 $T/d/run_1800000000000000_3");
	r = resume(f.dir, &st, &again);
	assert_int_equal(again.ntraces, 1 + 48);
	assert_string_equal(again.traces[0].op_name, "dense/MatMul");
	assert_int_equal(again.nexecutions, 1);
	tfdbg1_reader_ops.close(r);
	record_sink_done(&again);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}

static void
test_tfdbg1_state_refuses_an_earlier_run_another_root_and_damage(void **state)
{
	struct tmp_dump f;
	struct record_sink first;
	struct strbuf st = {0};
	struct reader *r;
	char *run2;

	(void)state;
	tmp_dump_make(&f, V1, NULL);
	record_index_and_save(&tfdbg1_reader_ops, f.dir, &first, &st);
	run2 = xasprintf("%s/run_1700000000491002_2", f.dir);
	r = record_open(&tfdbg1_reader_ops, run2);              /* a dump root, not a session root */
	assert_false(tfdbg1_reader_ops.load_state(r, st.buf, st.len));
	tfdbg1_reader_ops.close(r);
	r = record_open(&tfdbg1_reader_ops, f.dir);
	assert_false(tfdbg1_reader_ops.load_state(r, st.buf, st.len - 1));
	tfdbg1_reader_ops.close(r);
	tmp_dump_sh(&f, "cp -r $T/d/run_*_1 $T/d/run_1600000000000000_9");
	r = record_open(&tfdbg1_reader_ops, f.dir);
	assert_false(tfdbg1_reader_ops.load_state(r, st.buf, st.len));
	tfdbg1_reader_ops.close(r);
	free(run2);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg1_state_resumes_without_resending_and_decodes_the_same),
		cmocka_unit_test(test_tfdbg1_state_continues_the_last_run_and_later_runs),
		cmocka_unit_test(test_tfdbg1_state_refuses_an_earlier_run_another_root_and_damage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
