/*
 * test_ms_follow.c - follow mode of the MindSpore reader (issue 13): an
 * iteration seen while it is being written is held back until it settles
 * and then sent whole; a rank directory that appears is picked up; an
 * iteration deleted, a tensor file truncated or deleted, files added to an
 * iteration already read are problems, said once.  The dumps are copies of
 * sync_lenet (iteration 0: 52 tensor rows with the constants, iteration 1:
 * 50 .npy files and statistic.csv, fixtures README); "settled" and "being
 * written" are made with file times (touch -d), not by waiting.
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

#define SYNC "tests/fixtures/mindspore/sync_lenet"
#define IT "rank_0/Lenet/0"
/* every file and directory of $T/d written a minute ago */
#define OLD "find $T/d -exec touch -d '-1 min' {} +"

struct fx {
	char *tmp, *dir;
	struct reader *r;
	struct record_sink rs;
	struct reader_sink sink;
};

static void
sh(const struct fx *f, const char *script)
{
	char *cmd = xasprintf("T=%s; set -e; %s", f->tmp, script);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* A copy of sync_lenet in $T/d after script; opened, not indexed. */
static void
fx_open(struct fx *f, const char *script, bool follow)
{
	struct reader_options opt = { .follow = follow, .may_follow = true };  /* as the TUI opens */
	char err[256] = "";

	memset(f, 0, sizeof(*f));
	f->tmp = xstrdup("/tmp/tdbg-msf-XXXXXX");
	assert_non_null(mkdtemp(f->tmp));
	f->dir = xasprintf("%s/d", f->tmp);
	sh(f, "cp -r " SYNC " $T/d && chmod -R u+w $T && " OLD);
	sh(f, script);
	record_sink_init(&f->rs, &f->sink);
	if (mindspore_reader_ops.open(f->dir, &opt, &f->r, err, sizeof err) != TD_OK)
		fail_msg("open: %s", err);
}

static void
fx_index(struct fx *f)
{
	assert_int_equal(mindspore_reader_ops.index(f->r, &f->sink), TD_OK);
}

static void
fx_close(struct fx *f)
{
	mindspore_reader_ops.close(f->r);
	record_sink_done(&f->rs);
	sh(f, "rm -rf $T");
	free(f->dir);
	free(f->tmp);
}

/* Problems of kind whose detail contains text. */
static size_t
problems_saying(const struct fx *f, enum reader_problem_kind kind, const char *text)
{
	size_t i, n = 0;

	for (i = 0; i < f->rs.nproblems; i++)
		n += f->rs.problems[i].kind == kind && f->rs.problems[i].detail &&
		     strstr(f->rs.problems[i].detail, text);
	return n;
}

/* Iteration 1 holds 2 of its 50 files, just written: held back (not sent
 * half done) while files keep coming, sent whole once they stop. */
static void
test_follow_holds_an_iteration_until_its_files_settle(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, "mv $T/d/" IT "/1 $T/full && mkdir $T/d/" IT "/1 && "
		"cp $(ls -d $T/full/*.npy | head -2) $T/d/" IT "/1/", true);
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 1);
	assert_int_equal(f.rs.ntraces, 52);
	assert_string_equal(record_sink_meta(&f.rs, "incomplete_iterations", 0), "1");

	sh(&f, "cp $T/full/* $T/d/" IT "/1/");      /* the rest arrives, just now */
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 1);
	assert_string_equal(record_sink_meta(&f.rs, "incomplete_iterations", 0), "1");

	sh(&f, OLD);                                 /* ... and stops changing */
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 2);
	assert_int_equal(f.rs.ntraces, 102);         /* all 50 rows, none lost */
	assert_string_equal(record_sink_meta(&f.rs, "incomplete_iterations", 0), "0");
	assert_int_equal(f.rs.nproblems, 0);
	fx_close(&f);
}

/* Without follow from the start (batch), what is there is read at once. */
static void
test_no_follow_reads_a_fresh_iteration_at_once(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, "touch $T/d/" IT "/1/*", false);
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 2);
	assert_null(record_sink_meta(&f.rs, "incomplete_iterations", 0));
	fx_close(&f);
}

/* The writer moving on to iteration 2 completes iteration 1. */
static void
test_follow_a_later_iteration_releases_a_held_one(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, "touch $T/d/" IT "/1 $T/d/" IT "/1/*", true);
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 1);
	sh(&f, "cp -r $T/d/" IT "/0 $T/d/" IT "/2");
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 2);       /* iteration 1; 2 is being written */
	assert_string_equal(f.rs.executions[1].op_type, "graph 0 iter 1");
	assert_string_equal(record_sink_meta(&f.rs, "incomplete_iterations", 0), "1");
	fx_close(&f);
}

/* What was read and then changed: said once each, rows kept. */
static void
test_follow_flags_deleted_truncated_and_changed_once(void **state)
{
	struct fx f;
	size_t n;

	(void)state;
	fx_open(&f, "true", false);
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 2);
	assert_int_equal(f.rs.nproblems, 0);
	sh(&f, "rm -r $T/d/" IT "/1 && "
	       "truncate -s 10 $(ls -d $T/d/" IT "/0/MatMul*.npy | head -1) && "
	       "rm $(ls -d $T/d/" IT "/0/Cast*.npy | head -1)");
	fx_index(&f);
	assert_int_equal(problems_saying(&f, PROBLEM_MISSING_FILE, "deleted after it was read"), 1);
	assert_int_equal(problems_saying(&f, PROBLEM_INCONSISTENT, "truncated after it was read"), 1);
	assert_int_equal(problems_saying(&f, PROBLEM_INCONSISTENT, "changed after it was read"), 1);
	assert_int_equal(problems_saying(&f, PROBLEM_INCONSISTENT, "deleted after it was read"), 1);
	assert_int_equal(f.rs.ntraces, 102);         /* the model cannot drop rows */
	n = f.rs.nproblems;
	fx_index(&f);
	assert_int_equal(f.rs.nproblems, n);         /* once */
	fx_close(&f);
}

/* A rank directory that appears is scanned: its graph, rows and sources. */
static void
test_follow_picks_up_a_new_rank(void **state)
{
	struct fx f;
	size_t sources;

	(void)state;
	fx_open(&f, "true", true);
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 2);
	sources = f.rs.nsources;
	sh(&f, "cp -r $T/d/rank_0 $T/d/rank_1 && " OLD);
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 4);
	assert_int_equal(f.rs.ntraces, 204);
	assert_string_equal(record_sink_meta(&f.rs, "ranks", 0), "2");
	assert_string_equal(f.rs.executions[2].host, "rank_1");
	assert_true(f.rs.nsources > sources);        /* rank_1's trace lines */
	fx_close(&f);
}

/* constants/ written after the first iterations were read: its rows come
 * with the graph's next iteration, once, not lost. */
static void
test_follow_late_constants_come_with_the_next_iteration(void **state)
{
	struct fx f;

	(void)state;
	fx_open(&f, "mv $T/d/" IT "/constants $T/constants", true);
	fx_index(&f);
	assert_int_equal(f.rs.ntraces, 100);         /* 52 + 50 without the 2 constants */
	sh(&f, "mv $T/constants $T/d/" IT "/ && cp -r $T/d/" IT "/1 $T/d/" IT "/2 && " OLD);
	fx_index(&f);
	assert_int_equal(f.rs.nexecutions, 3);
	assert_int_equal(f.rs.ntraces, 152);         /* iteration 2: 50 + the 2 constants */
	fx_index(&f);
	assert_int_equal(f.rs.ntraces, 152);
	fx_close(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_follow_holds_an_iteration_until_its_files_settle),
		cmocka_unit_test(test_no_follow_reads_a_fresh_iteration_at_once),
		cmocka_unit_test(test_follow_a_later_iteration_releases_a_held_one),
		cmocka_unit_test(test_follow_flags_deleted_truncated_and_changed_once),
		cmocka_unit_test(test_follow_picks_up_a_new_rank),
		cmocka_unit_test(test_follow_late_constants_come_with_the_next_iteration),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
