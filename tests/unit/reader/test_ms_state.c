/*
 * test_ms_state.c - the MindSpore reader's resume state (issue 25 item 5)
 * and the folder fingerprints that guard it: a reader loaded from another
 * reader's saved state sends nothing again, decodes every row as the
 * indexing reader does, and picks up an iteration folder that appeared
 * since; a state does not fit another dump, a dump where a new rank's
 * runs sort among the saved ones, nor a damaged state; a
 * folder's fingerprint changes with a file rewritten in it (same size), a
 * file added, and not otherwise.  The rank layout kept in the state
 * (ms_layout.c) resumes without a walk and sees each file and folder it
 * trusts change.  The dump is a copy of sync_lenet
 * (fixtures README: iterations 0 and 1, 52 and 50 rows).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "reader/base/fingerprint.h"
#include "reader/mindspore/ms_internal.h"
#include "reader/reader.h"
#include "tests/unit/helpers/record_sink.h"

#define SYNC "tests/fixtures/mindspore/sync_lenet"
#define IT "rank_0/Lenet/0"

/* Indexes dir, saves, resumes a new reader from the state: its pass sends
 * nothing, and every row decodes as the first reader's rows said. */
static void
check_resume(const char *dir, size_t nexecs, size_t ntraces)
{
	struct record_sink first, again;
	struct reader_sink sink;
	struct strbuf st = {0};
	struct reader *r;
	size_t i;

	record_index_and_save(&mindspore_reader_ops, dir, &first, &st);
	assert_int_equal(first.nexecutions, nexecs);
	assert_int_equal(first.ntraces, ntraces);

	r = record_open(&mindspore_reader_ops, dir);
	assert_true(mindspore_reader_ops.load_state(r, st.buf, st.len));
	record_sink_init(&again, &sink);
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(again.ntraces, 0);
	assert_int_equal(again.nexecutions, 0);
	assert_int_equal(again.nops, 0);
	assert_int_equal(again.nframes, 0);
	assert_int_equal(again.nsources, 0);
	assert_int_equal(again.nmeta, 0);
	assert_int_equal(again.nproblems, 0);
	for (i = 0; i < first.ntraces; i++) {
		struct reader_detail d;

		assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE, &first.traces[i].loc, &d),
				 TD_OK);
		assert_string_equal(d.op_name, first.traces[i].op_name);
		assert_int_equal(d.slot, first.traces[i].slot);
		assert_true(d.wall_time == first.traces[i].wall_time);
		assert_int_equal(d.summaries[0].nan, first.traces[i].summary.nan);
		assert_int_equal(d.summaries[0].neg_inf, first.traces[i].summary.neg_inf);
		assert_int_equal(d.summaries[0].elements, first.traces[i].summary.elements);
		reader_detail_done(&d);
	}
	mindspore_reader_ops.close(r);
	record_sink_done(&again);
	record_sink_done(&first);
	strbuf_done(&st);
}

static void
test_ms_state_resumes_without_resending_and_decodes_the_same(void **state)
{
	struct tmp_dump f;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} +");
	check_resume(f.dir, 2, 102);
	tmp_dump_done(&f);
}

/* The other layouts: two ranks (runs interleaved by iteration), the
 * asynchronous rank layout (bin files, overflow records), the ACL layout
 * (test_mindspore.c's facts: 1 run of 8 rows). */
static void
test_ms_state_resumes_every_layout(void **state)
{
	struct tmp_dump f;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} +");
	tmp_dump_sh(&f, "mkdir $T/two && cp -r $T/d/rank_0 $T/two/rank_0 && cp -r $T/d/rank_0 $T/two/rank_1 && "
	       "mkdir -p $T/acl/3/20240115103000/0/Net/1/0 && "
	       "cp tests/fixtures/mindspore/async_small/rank_0/Net/0/0/* $T/acl/3/20240115103000/0/Net/1/0/ && "
	       "echo '{}' > $T/acl/acl_dump_0.json && chmod -R u+w $T");
	free(f.dir);
	f.dir = xasprintf("%s/two", f.tmp);
	check_resume(f.dir, 4, 204);
	free(f.dir);
	f.dir = xasprintf("%s/acl", f.tmp);
	check_resume(f.dir, 1, 8);
	check_resume("tests/fixtures/mindspore/async_small", 2, 11);
	tmp_dump_done(&f);
}

/* Iteration 2 appears after the save (a copy of iteration 1): the resumed
 * reader's next pass sends it, and only it. */
static void
test_ms_state_picks_up_an_iteration_that_appeared(void **state)
{
	struct tmp_dump f;
	struct record_sink first, again;
	struct reader_sink sink;
	struct strbuf st = {0};
	struct reader *r;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} +");
	record_index_and_save(&mindspore_reader_ops, f.dir, &first, &st);
	tmp_dump_sh(&f, "cp -r $T/d/" IT "/1 $T/d/" IT "/2 && find $T/d/" IT "/2 -exec touch -d '-1 min' {} +");
	r = record_open(&mindspore_reader_ops, f.dir);
	assert_true(mindspore_reader_ops.load_state(r, st.buf, st.len));
	record_sink_init(&again, &sink);
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(again.nexecutions, 1);
	assert_int_equal(again.ntraces, 50);
	assert_int_equal(again.executions[0].step, 2);
	assert_int_equal(again.traces[0].loc.file, 2);
	mindspore_reader_ops.close(r);
	record_sink_done(&again);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}

static void
test_ms_state_refuses_another_dump_and_damage(void **state)
{
	struct tmp_dump f;
	struct record_sink first;
	struct strbuf st = {0};
	struct reader *r;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} +");
	record_index_and_save(&mindspore_reader_ops, f.dir, &first, &st);
	r = record_open(&mindspore_reader_ops, "tests/fixtures/mindspore/async_npy");
	assert_false(mindspore_reader_ops.load_state(r, st.buf, st.len));
	mindspore_reader_ops.close(r);
	r = record_open(&mindspore_reader_ops, f.dir);             /* cut short */
	assert_false(mindspore_reader_ops.load_state(r, st.buf, st.len - 3));
	mindspore_reader_ops.close(r);
	/* a rank that appeared: its iteration 0 sorts before rank_0's
	 * iteration 1 in a fresh pass, so the rows would be numbered otherwise */
	tmp_dump_sh(&f, "cp -r $T/d/rank_0 $T/d/rank_1");
	r = record_open(&mindspore_reader_ops, f.dir);
	assert_false(mindspore_reader_ops.load_state(r, st.buf, st.len));
	mindspore_reader_ops.close(r);
	tmp_dump_sh(&f, "rm -rf $T/d/rank_1");
	st.buf[0] ^= 0x7f;              /* another version */
	r = record_open(&mindspore_reader_ops, f.dir);
	assert_false(mindspore_reader_ops.load_state(r, st.buf, st.len));
	mindspore_reader_ops.close(r);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}


/* The rank layout kept in the state (ms_layout.c): an unchanged dump
 * resumes without the walk (r->lazy), a source decodes as the indexing
 * reader's did (its graphs loaded on that demand), and a later pass
 * takes up an iteration folder that appeared since, and only it. */
static void
test_ms_state_layout_kept_sources_and_a_later_pass(void **state)
{
	struct tmp_dump f;
	struct record_sink first, again;
	struct reader_sink sink;
	struct strbuf st = {0};
	struct reader *r, *r0;
	size_t i;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} +");
	record_index_and_save(&mindspore_reader_ops, f.dir, &first, &st);
	assert_true(first.nsources > 0);
	r0 = record_open(&mindspore_reader_ops, f.dir);
	record_sink_init(&again, &sink);
	assert_int_equal(mindspore_reader_ops.index(r0, &sink), TD_OK);
	record_sink_done(&again);
	r = record_open(&mindspore_reader_ops, f.dir);
	assert_true(mindspore_reader_ops.load_state(r, st.buf, st.len));
	assert_true(r->lazy);
	assert_int_equal(r->nruns, 2);
	for (i = 0; i < first.nsources; i++) {
		struct reader_detail a, b;
		size_t k;

		assert_int_equal(mindspore_reader_ops.decode(r0, READER_SOURCE, &first.sources[i].loc, &a),
				 TD_OK);
		assert_int_equal(mindspore_reader_ops.decode(r, READER_SOURCE, &first.sources[i].loc, &b),
				 TD_OK);
		assert_false(r->lazy);
		assert_int_equal(a.nlines, b.nlines);
		for (k = 0; k < a.nlines; k++)
			assert_true((!a.lines[k] && !b.lines[k]) ||
				    (a.lines[k] && b.lines[k] && strcmp(a.lines[k], b.lines[k]) == 0));
		reader_detail_done(&a);
		reader_detail_done(&b);
	}
	record_sink_init(&again, &sink);
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(again.ntraces + again.nops + again.nframes + again.nsources, 0);
	record_sink_done(&again);
	tmp_dump_sh(&f, "cp -r $T/d/" IT "/1 $T/d/" IT "/2 && find $T/d/" IT "/2 -exec touch -d '-1 min' {} +");
	record_sink_init(&again, &sink);
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	assert_int_equal(again.nexecutions, 1);
	assert_int_equal(again.ntraces, 50);
	assert_int_equal(again.nops, 0);
	assert_int_equal(again.executions[0].step, 2);
	assert_null(r->state_copy);      /* every run unpacked: the state's bytes let go */
	assert_non_null(r->runs[0].entries);
	record_sink_done(&again);
	mindspore_reader_ops.close(r);
	mindspore_reader_ops.close(r0);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}


/* Every row of r decodes as first's rows said. */
static void
assert_decodes_as(struct reader *r, const struct record_sink *first)
{
	size_t i;

	for (i = 0; i < first->ntraces; i++) {
		struct reader_detail d;

		assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE, &first->traces[i].loc, &d),
				 TD_OK);
		assert_string_equal(d.op_name, first->traces[i].op_name);
		assert_int_equal(d.slot, first->traces[i].slot);
		assert_true(d.wall_time == first->traces[i].wall_time);
		assert_int_equal(d.summaries[0].elements, first->traces[i].summary.elements);
		reader_detail_done(&d);
	}
}

/* A resumed run's entries stay packed until first used: a reader that
 * decoded nothing saves the state it loaded, byte for byte; one that
 * decoded a row of one run (that run unpacked, the others packed) saves
 * a state from which every row decodes as the indexing reader's. */
static void
test_ms_state_packed_runs_saved_again(void **state)
{
	struct tmp_dump f;
	struct record_sink first;
	struct reader_detail d;
	struct strbuf st = {0}, st2 = {0}, st3 = {0};
	struct reader *r, *r2, *r3;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} +");
	record_index_and_save(&mindspore_reader_ops, f.dir, &first, &st);
	r = record_open(&mindspore_reader_ops, f.dir);
	assert_true(mindspore_reader_ops.load_state(r, st.buf, st.len));
	assert_non_null(r->runs[1].packed);
	assert_null(r->runs[1].entries);
	mindspore_reader_ops.save_state(r, &st2);
	assert_int_equal(st2.len, st.len);
	assert_memory_equal(st2.buf, st.buf, st.len);
	assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE, &first.traces[first.ntraces - 1].loc,
						     &d), TD_OK);
	reader_detail_done(&d);
	assert_non_null(r->runs[1].entries);
	assert_non_null(r->runs[0].packed);
	mindspore_reader_ops.save_state(r, &st3);
	r2 = record_open(&mindspore_reader_ops, f.dir);
	assert_true(mindspore_reader_ops.load_state(r2, st3.buf, st3.len));
	assert_decodes_as(r2, &first);
	r3 = record_open(&mindspore_reader_ops, f.dir);
	assert_true(mindspore_reader_ops.load_state(r3, st2.buf, st2.len));
	assert_decodes_as(r3, &first);
	mindspore_reader_ops.close(r3);
	mindspore_reader_ops.close(r2);
	mindspore_reader_ops.close(r);
	record_sink_done(&first);
	strbuf_done(&st);
	strbuf_done(&st2);
	strbuf_done(&st3);
	tmp_dump_done(&f);
}

/* Saves the state of a fresh copy of the two-rank dump, runs change in
 * it and expects load_state to say fits (true) or not. */
static void
check_after(const char *change, bool fits)
{
	struct tmp_dump f;
	struct record_sink first;
	struct strbuf st = {0};
	struct reader *r;

	tmp_dump_make(&f, SYNC, "cp -r $T/d/rank_0 $T/d/rank_1 && find $T/d -exec touch -d '-1 min' {} +");
	record_index_and_save(&mindspore_reader_ops, f.dir, &first, &st);
	assert_int_equal(first.nexecutions, 4);
	tmp_dump_sh(&f, change);
	r = record_open(&mindspore_reader_ops, f.dir);
	if (mindspore_reader_ops.load_state(r, st.buf, st.len) != fits)
		fail_msg("load_state after \"%s\": %s", change, fits ? "refused" : "fitted");
	mindspore_reader_ops.close(r);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}

/* What the kept layout trusts, each checked by its stat data: a graph,
 * execution order or metadata file rewritten (same bytes), added or
 * removed is a refusal (the model's ops came from them; the walk alone
 * would resume: same counts); a rank folder removed or added, an
 * iteration folder removed, are seen (by the walk's checks); nothing
 * changed, or a file read, still fits. */
static void
test_ms_state_layout_sees_what_it_trusts(void **state)
{
	(void)state;
	check_after("cat $T/d/rank_1/graphs/* >/dev/null", true);
	check_after("cd $T/d/rank_1/graphs && cp ms_output_trace_code_graph_0.pb x && "
		    "mv x ms_output_trace_code_graph_0.pb", false);
	check_after("touch $T/d/rank_0/graphs/ms_output_trace_code_graph_0.ir", false);
	check_after("cp $T/d/rank_1/graphs/ms_output_trace_code_graph_0.ir "
		    "$T/d/rank_1/graphs/ms_output_trace_code_graph_1.ir", false);
	check_after("rm $T/d/rank_1/execution_order/ms_execution_order_graph_0.csv", false);
	check_after("touch $T/d/rank_1/execution_order/ms_global_execution_order_graph_0.csv", false);
	check_after("mkdir -p $T/d/rank_0/.dump_metadata && echo '{}' >$T/d/rank_0/.dump_metadata/config.json",
		    false);
	check_after("rm -rf $T/d/rank_1", false);
	check_after("cp -r $T/d/rank_1 $T/d/rank_2", false);
	check_after("rm -rf $T/d/rank_1/" "Lenet/0/1", false);
}

static void
test_fingerprint_of_a_folder_sees_its_files(void **state)
{
	struct tmp_dump f;
	struct fingerprint fp;
	char *it1;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} +");
	it1 = xasprintf("%s/" IT "/1", f.dir);
	assert_int_equal(fingerprint_take(it1, &fp), TD_OK);
	assert_int_equal(fingerprint_match(it1, &fp), FP_SAME);
	tmp_dump_sh(&f, "cat $T/d/" IT "/0/statistic.csv >/dev/null");   /* a read changes nothing */
	assert_int_equal(fingerprint_match(it1, &fp), FP_SAME);
	/* statistic.csv rewritten to the same size: its own time moved */
	tmp_dump_sh(&f, "cd $T/d/" IT "/1 && sed -i 's/,2,1,0,0$/,0,0,0,0/' statistic.csv && "
	       "touch -d '-5 sec' statistic.csv");
	assert_int_equal(fingerprint_match(it1, &fp), FP_CHANGED);
	assert_int_equal(fingerprint_take(it1, &fp), TD_OK);
	tmp_dump_sh(&f, "touch -d '-1 min' $T/d/" IT "/1 && echo x >$T/d/" IT "/1/notes.txt");
	assert_int_equal(fingerprint_match(it1, &fp), FP_CHANGED);
	tmp_dump_sh(&f, "rm -rf $T/d/" IT "/1");
	assert_int_equal(fingerprint_match(it1, &fp), FP_CHANGED);
	free(it1);
	tmp_dump_done(&f);
}

/* A folder with statistic.csv is announced listed only, naming the files
 * the index read (statistic.csv alone in sync_lenet); without
 * statistic.csv, as read whole. */
static void
test_ms_announces_a_folder_with_statistic_csv_listed_only(void **state)
{
	struct tmp_dump f;
	struct record_sink rs;
	struct reader_sink sink;
	struct reader *r;
	size_t i, listed = 0, whole = 0;

	(void)state;
	tmp_dump_make(&f, SYNC, "rm $T/d/" IT "/0/statistic.csv");
	r = record_open(&mindspore_reader_ops, f.dir);
	record_sink_init(&rs, &sink);
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	for (i = 0; i < rs.nfiles; i++) {
		const struct rs_file *rf = &rs.files[i];
		size_t n = strlen(rf->path);

		if (n > 2 && strcmp(rf->path + n - 2, "/1") == 0) {
			assert_true(rf->listed_only);
			assert_string_equal(rf->read, "statistic.csv");
			listed++;
		} else if (n > 2 && strcmp(rf->path + n - 2, "/0") == 0) {
			assert_false(rf->listed_only);
			whole++;
		}
	}
	assert_int_equal(listed, 1);
	assert_int_equal(whole, 1);
	record_sink_done(&rs);
	mindspore_reader_ops.close(r);
	tmp_dump_done(&f);
}

/* The listed fingerprint: the folder's own stat data and its read files'.
 * A .npy rewritten in place does not show (its status-change time passes
 * the newest the take saw: a decode's check); statistic.csv rewritten, a
 * file added, removed or renamed over do. */
static void
test_listed_fingerprint_sees_the_folder_and_its_read_files(void **state)
{
	static const char *const read[] = { "statistic.csv" };
	struct tmp_dump f;
	struct fingerprint fp;
	int64_t newest = 0;
	struct stat st;
	char *it1, *npy;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} + && "
		      "cd $T/d/" IT "/1 && cp \"$(ls *MatMul-op10*output.0*.npy)\" ../x.npy");
	it1 = xasprintf("%s/" IT "/1", f.dir);
	npy = xasprintf("%s/" IT "/x.npy", f.dir);
	assert_int_equal(fingerprint_take_listed(it1, read, 1, &fp, &newest), TD_OK);
	assert_int_equal(fingerprint_match_listed(it1, read, 1, &fp), FP_SAME);
	assert_true(newest > 0);
	/* a .npy rewritten in place, older time stamp: the folder is the same */
	tmp_dump_sh(&f, "sleep 0.02; cd $T/d/" IT "/1 && f=$(ls *MatMul-op10*output.0*.npy) && "
		    "printf '\\0\\0\\200\\77' | dd of=\"$f\" bs=1 seek=$(($(stat -c %s \"$f\") - 4)) "
		    "conv=notrunc 2>/dev/null && touch -d '-1 min' \"$f\" && cp \"$f\" ../y.npy");
	assert_int_equal(fingerprint_match_listed(it1, read, 1, &fp), FP_SAME);
	tmp_dump_sh(&f, "cd $T/d/" IT "/1 && stat -c %n *MatMul-op10*output.0*.npy >../name.txt");
	{
		char *name = NULL, *path;
		size_t cap = 0;
		char *np = xasprintf("%s/" IT "/name.txt", f.dir);
		FILE *nf = fopen(np, "r");
		ssize_t len;

		assert_non_null(nf);
		len = getline(&name, &cap, nf);
		assert_true(len > 1);
		name[len - 1] = '\0';
		fclose(nf);
		path = xasprintf("%s/%s", it1, name);
		assert_int_equal(stat(path, &st), 0);
		assert_true((int64_t)st.st_ctim.tv_sec * 1000000000LL + st.st_ctim.tv_nsec > newest);
		free(path);
		free(name);
		free(np);
	}
	/* statistic.csv rewritten to the same size */
	tmp_dump_sh(&f, "cd $T/d/" IT "/1 && sed -i 's/,2,1,0,0$/,0,0,0,0/' statistic.csv && "
		    "touch -d '-1 min' statistic.csv");
	assert_int_equal(fingerprint_match_listed(it1, read, 1, &fp), FP_CHANGED);
	/* a file added, then removed */
	assert_int_equal(fingerprint_take_listed(it1, read, 1, &fp, NULL), TD_OK);
	tmp_dump_sh(&f, "sleep 0.02; echo x >$T/d/" IT "/1/notes.txt");
	assert_int_equal(fingerprint_match_listed(it1, read, 1, &fp), FP_CHANGED);
	assert_int_equal(fingerprint_take_listed(it1, read, 1, &fp, NULL), TD_OK);
	tmp_dump_sh(&f, "sleep 0.02; rm $T/d/" IT "/1/notes.txt");
	assert_int_equal(fingerprint_match_listed(it1, read, 1, &fp), FP_CHANGED);
	/* a .npy renamed over */
	assert_int_equal(fingerprint_take_listed(it1, read, 1, &fp, NULL), TD_OK);
	tmp_dump_sh(&f, "sleep 0.02; cd $T/d/" IT "/1 && mv ../x.npy \"$(ls *MatMul-op10*output.0*.npy)\"");
	assert_int_equal(fingerprint_match_listed(it1, read, 1, &fp), FP_CHANGED);
	free(npy);
	free(it1);
	tmp_dump_done(&f);
}


/* The listed check relative to an open parent (model_cache.c's check of
 * thousands of sibling folders) answers as the check by path: siblings
 * share the parent, a statistic.csv rewritten, a file added or the folder
 * removed are changes, and a path without a parent to open is checked by
 * path. */
static void
test_listed_fingerprint_in_an_open_parent(void **state)
{
	static const char *const read[] = { "statistic.csv" };
	struct fingerprint_parents pp = {0};
	struct tmp_dump f;
	struct fingerprint fp0, fp1;
	char *it0, *it1;

	(void)state;
	tmp_dump_make(&f, SYNC, "find $T/d -exec touch -d '-1 min' {} +");
	it0 = xasprintf("%s/" IT "/0", f.dir);
	it1 = xasprintf("%s/" IT "/1", f.dir);
	assert_int_equal(fingerprint_take_listed(it0, read, 1, &fp0, NULL), TD_OK);
	assert_int_equal(fingerprint_take_listed(it1, read, 1, &fp1, NULL), TD_OK);
	assert_int_equal(fingerprint_match_listed_in(&pp, it0, read, 1, &fp0), FP_SAME);
	assert_int_equal(fingerprint_match_listed_in(&pp, it1, read, 1, &fp1), FP_SAME);
	assert_int_equal(fingerprint_match_listed_in(&pp, it1, read, 1, &fp0), FP_CHANGED);
	assert_int_equal(pp.dirs.n, 1);     /* one parent for both */
	assert_int_equal(fingerprint_match_listed_in(&pp, "statistic.csv", read, 1, &fp1),
			 FP_CHANGED);
	tmp_dump_sh(&f, "cd $T/d/" IT "/1 && sed -i 's/,2,1,0,0$/,0,0,0,0/' statistic.csv && "
		    "touch -d '-1 min' statistic.csv");
	assert_int_equal(fingerprint_match_listed_in(&pp, it1, read, 1, &fp1), FP_CHANGED);
	assert_int_equal(fingerprint_match_listed(it1, read, 1, &fp1), FP_CHANGED);
	tmp_dump_sh(&f, "sleep 0.02; echo x >$T/d/" IT "/0/notes.txt");
	assert_int_equal(fingerprint_match_listed_in(&pp, it0, read, 1, &fp0), FP_CHANGED);
	assert_int_equal(fingerprint_take_listed(it0, read, 1, &fp0, NULL), TD_OK);
	assert_int_equal(fingerprint_match_listed_in(&pp, it0, read, 1, &fp0), FP_SAME);
	tmp_dump_sh(&f, "rm -rf $T/d/" IT "/0");
	assert_int_equal(fingerprint_match_listed_in(&pp, it0, read, 1, &fp0), FP_CHANGED);
	fingerprint_parents_done(&pp);
	free(it0);
	free(it1);
	tmp_dump_done(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms_state_resumes_without_resending_and_decodes_the_same),
		cmocka_unit_test(test_ms_state_resumes_every_layout),
		cmocka_unit_test(test_ms_state_picks_up_an_iteration_that_appeared),
		cmocka_unit_test(test_ms_state_refuses_another_dump_and_damage),
		cmocka_unit_test(test_ms_state_layout_kept_sources_and_a_later_pass),
		cmocka_unit_test(test_ms_state_layout_sees_what_it_trusts),
		cmocka_unit_test(test_ms_state_packed_runs_saved_again),
		cmocka_unit_test(test_fingerprint_of_a_folder_sees_its_files),
		cmocka_unit_test(test_ms_announces_a_folder_with_statistic_csv_listed_only),
		cmocka_unit_test(test_listed_fingerprint_sees_the_folder_and_its_read_files),
		cmocka_unit_test(test_listed_fingerprint_in_an_open_parent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
