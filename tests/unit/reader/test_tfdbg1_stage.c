/*
 * test_tfdbg1_stage.c - the tfdbg v1 index pass on two threads (run
 * directories scanned by two threads, dump files read by a staging thread)
 * sends exactly what the pass on one thread sends: the same files with the
 * same ids, traces with the same summaries, problems with the same words,
 * in the same order, on the fixture and on copies of it with damaged,
 * torn, vanished and unreadable dump files; and a pass given up half-way
 * stops its threads cleanly (issue 25).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader.h"
#include "reader/tfdbg1/tfdbg1_internal.h"

#include "tests/unit/helpers/record_sink.h"

#define FIXTURE "tests/fixtures/tfdbg1/mlp_nan"
#define RUN2 "run_1700000000491002_2/_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0"
#define MLP_DUMPS (3 * 48)   /* README: 48 tensor dump files in each of the three runs */

/* Indexes dir on one thread, then with the threads forced on, and checks
 * both passes sent the same; returns the one-thread pass in *one. */
static void
check_threads_match_one(const char *dir, struct recorded *one)
{
	struct recorded two;

	tfdbg1_stage_min = SIZE_MAX;
	record_sink_index(&tfdbg1_reader_ops, dir, one);
	tfdbg1_stage_min = 0;
	record_sink_index(&tfdbg1_reader_ops, dir, &two);
	record_sink_assert_same(&one->rs, &two.rs);
	record_sink_index_done(&two);
	/* a stage that often waits for room, and an index thread that often
	 * waits for the stage */
	tfdbg1_stage_window = 2;
	record_sink_index(&tfdbg1_reader_ops, dir, &two);
	record_sink_assert_same(&one->rs, &two.rs);
	record_sink_index_done(&two);
	tfdbg1_stage_window = 4096;
	tfdbg1_stage_min = 1;
}

static void
test_tfdbg1_stage_fixture_same_as_one_thread(void **state)
{
	struct recorded one;

	(void)state;
	check_threads_match_one(FIXTURE, &one);
	assert_int_equal(one.rs.ntraces, MLP_DUMPS);
	assert_int_equal(one.rs.nexecutions, 3);
	assert_int_equal(one.rs.nproblems, 0);
	record_sink_index_done(&one);
}

/* Dumps of the last run damaged four ways: garbage bytes (no Event),
 * a torn file (half its bytes), a file gone (a dangling link) and one that
 * is a directory where a file was: each is reported, the rest kept. */
static void
test_tfdbg1_stage_damaged_same_as_one_thread(void **state)
{
	struct tmp_dump f;
	struct recorded one;
	char *script = xasprintf(
		"cd \"$T/d/" RUN2 "\" && set -- $(find . -type f ! -name '_tfdbg_graph_*' | sort) && "
		"printf 'not an event' > \"$1\" && "
		"head -c 20 \"$2\" > t && mv t \"$2\" && "
		"rm \"$3\" && ln -s nowhere \"$3\" && "
		"rm \"$4\" && mkdir \"$4\"");

	(void)state;
	tmp_dump_make(&f, FIXTURE, NULL);
	tmp_dump_sh(&f, script);
	check_threads_match_one(f.dir, &one);
	/* the link is reported and has no row; the directory is walked (an
	 * empty node scope): two rows fewer, the other two rows kept */
	assert_int_equal(one.rs.ntraces, MLP_DUMPS - 2);
	assert_int_equal(record_sink_problems(&one.rs, PROBLEM_MISSING_FILE), 1);
	assert_true(record_sink_problems(&one.rs, PROBLEM_DECODE_ERROR) >= 1);
	record_sink_index_done(&one);
	tmp_dump_done(&f);
	free(script);
}

static bool
stop_after_ten_traces(void *ctx)
{
	const struct record_sink *rs = ctx;

	return rs->ntraces >= 10;
}

/* A pass given up (should_stop, asked before each run) while the staging
 * thread reads ahead: the runs before are sent whole, the threads stop
 * and the scans they read are freed after (ASan/TSan runs of this test). */
static void
test_tfdbg1_stage_stopped_pass_stops_threads(void **state)
{
	struct recorded a = { .ops = &tfdbg1_reader_ops };
	char err[256];

	(void)state;
	tfdbg1_stage_min = 0;
	tfdbg1_stage_window = 2;        /* the stage waits for room when stopped */
	assert_int_equal(tfdbg1_reader_ops.open(FIXTURE, &(struct reader_options){ 0 }, &a.r, err,
						sizeof err), TD_OK);
	record_sink_init(&a.rs, &a.sink);
	a.sink.should_stop = stop_after_ten_traces;
	assert_int_equal(tfdbg1_reader_ops.index(a.r, &a.sink), TD_OK);
	tfdbg1_stage_min = 1;
	tfdbg1_stage_window = 4096;
	assert_true(a.rs.ntraces >= 10 && a.rs.ntraces < MLP_DUMPS);
	assert_int_equal(a.rs.nexecutions, 1);
	record_sink_index_done(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg1_stage_fixture_same_as_one_thread),
		cmocka_unit_test(test_tfdbg1_stage_damaged_same_as_one_thread),
		cmocka_unit_test(test_tfdbg1_stage_stopped_pass_stops_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
