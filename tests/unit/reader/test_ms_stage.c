/*
 * test_ms_stage.c - the MindSpore index pass on two threads (the runs'
 * folders listed and their statistic.csv parsed by a staging thread ahead
 * of the index thread, issue 25) sends exactly what the pass on one thread
 * sends: the same files, traces with the same summaries, problems with the
 * same words, in the same order, on a statistic-only copy of sync_lenet
 * with ten iterations and on copies with a torn statistic.csv, a vanished
 * one (a dangling link), one that is a folder, one that is empty and rows
 * with bad cells; with a window of one or two runs and a row budget
 * smaller than one run's file as well; and a pass given up half-way stops
 * the thread cleanly.  Facts: sync_lenet's README (iterations 0 and 1, two
 * Parameter files in constants/) and its statistic.csv files, 50 rows each
 * (one per .npy file of the iteration).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reader/mindspore/ms_internal.h"
#include "reader/mindspore/ms_stage.h"
#include "reader/reader.h"

#include "tests/unit/helpers/record_sink.h"

#define SYNC "tests/fixtures/mindspore/sync_lenet"
#define IT "$T/d/rank_0/Lenet/0"
#define ROWS 50             /* statistic.csv rows of each iteration */
#define CONSTANTS 2         /* Parameter files in constants/ */
#define RUNS 10
/* iterations 2..9 copies of iteration 0; every iteration but 1 without
 * its .npy files (statistic.csv alone: saved_data "statistic") */
#define TEN_RUNS \
	"for i in 2 3 4 5 6 7 8 9; do cp -r " IT "/0 " IT "/$i; done && " \
	"for i in 0 2 3 4 5 6 7 8 9; do rm " IT "/$i/*.npy; done"

/* One pass over dir with the stage settings given (min SIZE_MAX: one
 * thread), back to the defaults after. */
static void
pass(const char *dir, size_t min, size_t window, size_t rows, struct recorded *out)
{
	ms_stage_min = min;
	ms_stage_window = window;
	ms_stage_rows = rows;
	record_sink_index(&mindspore_reader_ops, dir, out);
	ms_stage_min = 1;
	ms_stage_window = 16;
	ms_stage_rows = (size_t)1 << 16;
}

/* Indexes dir on one thread, then with the stage forced on (its default
 * window, a window of two runs, one run with a row budget below one file)
 * and checks every pass sent the same; returns the one-thread pass. */
static void
check_threads_match_one(const char *dir, struct recorded *one)
{
	static const size_t settings[][2] = {
		{ 16, (size_t)1 << 16 }, { 2, (size_t)1 << 16 }, { 1, 1 }, { 4, 10 },
	};
	struct recorded two;
	size_t i;

	pass(dir, SIZE_MAX, 16, (size_t)1 << 16, one);
	for (i = 0; i < sizeof(settings) / sizeof(settings[0]); i++) {
		pass(dir, 0, settings[i][0], settings[i][1], &two);
		record_sink_assert_same(&one->rs, &two.rs);
		record_sink_index_done(&two);
	}
}

static void
test_ms_stage_statistic_only_same_as_one_thread(void **state)
{
	struct tmp_dump f;
	struct recorded one;

	(void)state;
	tmp_dump_make(&f, SYNC, TEN_RUNS);
	check_threads_match_one(f.dir, &one);
	assert_int_equal(one.rs.nexecutions, RUNS);
	assert_int_equal(one.rs.ntraces, RUNS * ROWS + CONSTANTS);
	assert_int_equal(one.rs.nproblems, 0);
	record_sink_index_done(&one);
	tmp_dump_done(&f);
}

/* statistic.csv damaged five ways: torn in its last row (iteration 3),
 * gone (a dangling link, 4), a folder (5), empty (6), and two rows with a
 * bad cell and a missing cell (7); each is reported (or, for the dangling
 * link, its rows are missing), the other iterations kept whole. */
static void
test_ms_stage_damaged_same_as_one_thread(void **state)
{
	struct tmp_dump f;
	struct recorded one;

	(void)state;
	tmp_dump_make(&f, SYNC, TEN_RUNS " && "
		      "head -c -40 " IT "/3/statistic.csv > " IT "/t && mv " IT "/t " IT "/3/statistic.csv && "
		      "rm " IT "/4/statistic.csv && ln -s nowhere " IT "/4/statistic.csv && "
		      "rm " IT "/5/statistic.csv && mkdir " IT "/5/statistic.csv && "
		      ": > " IT "/6/statistic.csv && "
		      "sed -i -e '2s/,int32,/,int32,\"(2\",/' -e '4s/,[^,]*$//' " IT "/7/statistic.csv");
	check_threads_match_one(f.dir, &one);
	assert_int_equal(one.rs.nexecutions, RUNS);
	/* 3: its torn last row; 4, 5, 6: no rows; 7: the two bad rows */
	assert_int_equal(one.rs.ntraces, (RUNS - 3) * ROWS - 1 - 2 + CONSTANTS);
	/* 3 and 7: rows skipped; 6: no header */
	assert_int_equal(record_sink_problems(&one.rs, PROBLEM_DECODE_ERROR), 3);
	/* 5: a folder, not a file */
	assert_int_equal(record_sink_problems(&one.rs, PROBLEM_UNREADABLE), 1);
	record_sink_index_done(&one);
	tmp_dump_done(&f);
}

/* Follow mode's look at each folder (its time and entry count, taken
 * before the listing) is the same when the stage takes it. */
static void
test_ms_stage_notes_folders_as_one_thread(void **state)
{
	struct reader_options opt = { .may_follow = true };
	struct recorded a = { .ops = &mindspore_reader_ops }, b = { .ops = &mindspore_reader_ops };
	struct tmp_dump f;
	char err[256];
	size_t i;

	(void)state;
	tmp_dump_make(&f, SYNC, TEN_RUNS);
	ms_stage_min = SIZE_MAX;
	assert_int_equal(mindspore_reader_ops.open(f.dir, &opt, &a.r, err, sizeof err), TD_OK);
	record_sink_init(&a.rs, &a.sink);
	assert_int_equal(mindspore_reader_ops.index(a.r, &a.sink), TD_OK);
	ms_stage_min = 0;
	ms_stage_window = 2;
	assert_int_equal(mindspore_reader_ops.open(f.dir, &opt, &b.r, err, sizeof err), TD_OK);
	record_sink_init(&b.rs, &b.sink);
	assert_int_equal(mindspore_reader_ops.index(b.r, &b.sink), TD_OK);
	ms_stage_min = 1;
	ms_stage_window = 16;
	record_sink_assert_same(&a.rs, &b.rs);
	assert_int_equal(a.r->nruns, RUNS);
	assert_int_equal(b.r->nruns, RUNS);
	for (i = 0; i < RUNS; i++) {
		assert_true(a.r->runs[i].dir_mtime != 0);
		assert_int_equal(a.r->runs[i].dir_mtime, b.r->runs[i].dir_mtime);
		/* 50 .npy files and statistic.csv in iteration 1, statistic.csv alone else */
		assert_int_equal(a.r->runs[i].nnames, strstr(a.r->runs[i].path, "/0/1") ? ROWS + 1 : 1);
		assert_int_equal(a.r->runs[i].nnames, b.r->runs[i].nnames);
	}
	record_sink_index_done(&a);
	record_sink_index_done(&b);
	tmp_dump_done(&f);
}

/* The staging thread holds its first folder until the index thread has
 * read a folder ahead (the index thread reads its own only once the stage
 * took one, so the folder held is never the last); without reading ahead
 * the index thread would wait for the held folder and the hook time out. */
static struct {
	size_t stolen;              /* ms_stage_counts when the stage went on */
	bool timed_out;
} hold;

static void
hold_first_folder(struct ms_stage *sg, size_t g, bool stage)
{
	const struct timespec ms = { 0, 1000000 };
	size_t staged, stolen;
	int k;

	(void)g;
	for (k = 0; k < 3000 && !hold.timed_out; k++) {       /* 3 s */
		ms_stage_counts(sg, &staged, &stolen);
		if (stage ? stolen > 0 : staged > 0) {
			if (stage)
				hold.stolen = stolen;
			return;
		}
		nanosleep(&ms, NULL);
	}
	hold.timed_out = true;      /* once: the pass then goes on unheld */
}

static void
test_ms_stage_reads_ahead_while_the_stage_holds_a_folder(void **state)
{
	struct tmp_dump f;
	struct recorded one, two;

	(void)state;
	tmp_dump_make(&f, SYNC, TEN_RUNS);
	pass(f.dir, SIZE_MAX, 16, (size_t)1 << 16, &one);
	ms_stage_read_hook = hold_first_folder;
	pass(f.dir, 0, 16, (size_t)1 << 16, &two);
	ms_stage_read_hook = NULL;
	assert_false(hold.timed_out);
	assert_true(hold.stolen > 0);
	record_sink_assert_same(&one.rs, &two.rs);
	assert_int_equal(two.rs.ntraces, RUNS * ROWS + CONSTANTS);
	record_sink_index_done(&one);
	record_sink_index_done(&two);
	tmp_dump_done(&f);
}

static bool
stop_after_two_runs(void *ctx)
{
	const struct record_sink *rs = ctx;

	return rs->nexecutions >= 2;
}

/* A pass given up (should_stop, asked before each run) while the staging
 * thread reads ahead: the runs before are sent whole, the thread stops
 * and what it read is freed (ASan/TSan runs of this test). */
static void
test_ms_stage_stopped_pass_stops_thread(void **state)
{
	struct recorded a = { .ops = &mindspore_reader_ops };
	struct tmp_dump f;
	char err[256];

	(void)state;
	tmp_dump_make(&f, SYNC, TEN_RUNS);
	ms_stage_min = 0;
	ms_stage_window = 2;        /* the stage waits for room when stopped */
	assert_int_equal(mindspore_reader_ops.open(f.dir, &(struct reader_options){ 0 }, &a.r, err,
						   sizeof err), TD_OK);
	record_sink_init(&a.rs, &a.sink);
	a.sink.should_stop = stop_after_two_runs;
	assert_int_equal(mindspore_reader_ops.index(a.r, &a.sink), TD_OK);
	ms_stage_min = 1;
	ms_stage_window = 16;
	assert_int_equal(a.rs.nexecutions, 2);
	assert_true(a.rs.ntraces >= 2 * ROWS && a.rs.ntraces < RUNS * ROWS);
	record_sink_index_done(&a);
	tmp_dump_done(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms_stage_statistic_only_same_as_one_thread),
		cmocka_unit_test(test_ms_stage_damaged_same_as_one_thread),
		cmocka_unit_test(test_ms_stage_reads_ahead_while_the_stage_holds_a_folder),
		cmocka_unit_test(test_ms_stage_notes_folders_as_one_thread),
		cmocka_unit_test(test_ms_stage_stopped_pass_stops_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
