/*
 * test_ms_rows.c - the MindSpore reader's compact rows (issue 25 item 1):
 * a row holds no summary, so decode() reads it again from its source.  A
 * statistic-only row (sync_lenet's iteration 1 with its .npy files
 * removed: statistic.csv alone) decodes to what the index pass sent, from
 * a fresh pass and from a resumed state, and the pass marks it exact (the
 * model's columns answer for it); a statistic.csv rewritten or cut after
 * the pass makes the decode fail instead of giving another summary; task
 * and stream ids wider than a row's 32 bits survive.  Facts from the
 * fixture README (iteration 1: MatMul-op10 output 0 holds 2 NaN, 1 -inf)
 * and from the CSV itself (its rows are counted here).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "reader/mindspore/ms_internal.h"
#include "reader/reader.h"
#include "tests/unit/helpers/files.h"
#include "tests/unit/helpers/record_sink.h"

#define SYNC "tests/fixtures/mindspore/sync_lenet"
#define IT "rank_0/Lenet/0"
#define MATMUL10 "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10"
/* iteration 1 without its tensor files, every file a minute old */
#define STAT_ONLY "rm $T/d/" IT "/1/*.npy && find $T/d -exec touch -d '-1 min' {} +"

/* A record_sink that also counts the traces sent with summary_exact. */
struct exact_sink {
	struct record_sink rs;      /* first: its callbacks get this ctx */
	void (*on_trace)(void *ctx, const struct reader_trace *t);
	size_t exact;
	size_t exact_of_run1;       /* of the second run (file 1) */
	size_t keyed_of_run1;       /* of its traces, those sent with an op_key */
};

static void
count_exact(void *ctx, const struct reader_trace *t)
{
	struct exact_sink *x = ctx;

	x->exact += t->summary_exact;
	x->exact_of_run1 += t->summary_exact && t->loc.file == 1;
	/* a key given is the pair's (reader.h): the model trusts it */
	if (t->op_key)
		assert_true(t->op_key == reader_op_key(t->graph_id, strlen(t->graph_id), t->op_name,
						       strlen(t->op_name)));
	x->keyed_of_run1 += t->op_key && t->loc.file == 1;
	x->on_trace(ctx, t);
}

/* The data lines of a statistic.csv (all but its header). */
static size_t
csv_rows(const char *path)
{
	size_t len, i, lines = 0;
	unsigned char *b = test_slurp(path, &len);

	for (i = 0; i < len; i++)
		lines += b[i] == '\n';
	free(b);
	return lines - 1;
}

static void
assert_same_summary(const struct td_summary *a, const struct td_summary *b)
{
	assert_int_equal(a->known, b->known);
	assert_int_equal(a->dtype, b->dtype);
	assert_int_equal(a->elements, b->elements);
	assert_int_equal(a->nan, b->nan);
	assert_int_equal(a->neg_inf, b->neg_inf);
	assert_int_equal(a->pos_inf, b->pos_inf);
	assert_int_equal(a->zero, b->zero);
	assert_int_equal(a->negative, b->negative);
	assert_int_equal(a->positive, b->positive);
	assert_true(a->max == b->max && a->min == b->min && a->mean == b->mean);
	assert_int_equal(a->rank, b->rank);
	assert_memory_equal(a->dims, b->dims, sizeof(a->dims));
}

/* Every trace of rs decodes on r to the summary the pass sent. */
static void
assert_decodes_as_sent(struct reader *r, const struct record_sink *rs)
{
	size_t i;

	for (i = 0; i < rs->ntraces; i++) {
		struct reader_detail d;

		assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE, &rs->traces[i].loc, &d),
				 TD_OK);
		assert_string_equal(d.op_name, rs->traces[i].op_name);
		assert_true(d.wall_time == rs->traces[i].wall_time);
		assert_same_summary(&d.summaries[0], &rs->traces[i].summary);
		reader_detail_done(&d);
	}
}

/* The row of run 1 that is output 0 of MatMul-op10. */
static const struct rs_trace *
matmul10_out(const struct record_sink *rs)
{
	size_t i;

	for (i = 0; i < rs->ntraces; i++)
		if (rs->traces[i].loc.file == 1 && strcmp(rs->traces[i].op_name, MATMUL10) == 0 &&
		    rs->traces[i].slot == 0 && rs->traces[i].summary.nan)
			return &rs->traces[i];
	fail_msg("no MatMul-op10 output row in iteration 1");
	return NULL;
}

static void
test_ms_rows_entry_is_at_most_48_bytes(void **state)
{
	(void)state;
	assert_true(sizeof(struct ms_entry) <= 48);
}

/* Statistic-only rows: exact at index time, decoded from their line. */
static void
test_ms_rows_statistic_only_rows_decode_their_line(void **state)
{
	struct tmp_dump f;
	struct exact_sink x = {0};
	struct reader_sink sink;
	struct reader_detail d;
	const struct rs_trace *mm;
	struct reader *r;
	char *csv;

	(void)state;
	tmp_dump_make(&f, SYNC, STAT_ONLY);
	csv = xasprintf("%s/" IT "/1/statistic.csv", f.dir);
	r = record_open(&mindspore_reader_ops, f.dir);
	record_sink_init(&x.rs, &sink);
	x.on_trace = sink.on_trace;
	sink.on_trace = count_exact;
	sink.ctx = &x;
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	/* iteration 0 has its .npy files (values: not exact); iteration 1 is
	 * one row per CSV line */
	assert_int_equal(x.exact, csv_rows(csv));
	assert_int_equal(x.exact_of_run1, x.exact);
	assert_decodes_as_sent(r, &x.rs);
	mm = matmul10_out(&x.rs);
	assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE, &mm->loc, &d), TD_OK);
	assert_int_equal(d.summaries[0].nan, 2);
	assert_int_equal(d.summaries[0].neg_inf, 1);
	assert_non_null(strstr(d.text, "file: (statistic.csv only)"));
	assert_null(d.values[0]);
	reader_detail_done(&d);
	mindspore_reader_ops.close(r);
	record_sink_done(&x.rs);
	free(csv);
	tmp_dump_done(&f);
}

/* The state holds no summary: a resumed reader reads the lines too. */
static void
test_ms_rows_resumed_state_decodes_the_lines(void **state)
{
	struct tmp_dump f;
	struct record_sink first;
	struct strbuf st = {0};
	struct reader *r;

	(void)state;
	tmp_dump_make(&f, SYNC, STAT_ONLY);
	record_index_and_save(&mindspore_reader_ops, f.dir, &first, &st);
	r = record_open(&mindspore_reader_ops, f.dir);
	assert_true(mindspore_reader_ops.load_state(r, st.buf, st.len));
	assert_decodes_as_sent(r, &first);
	mindspore_reader_ops.close(r);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}

/* The place of op in the kernel order file text (one full name a line
 * after its header), -1 when it does not list it. */
static long
order_pos(const char *text, const char *op)
{
	const char *p = strchr(text, '\n');
	size_t n = strlen(op);
	long pos = 0;

	for (; p && *++p; p = strchr(p, '\n'), pos++)
		if (strncmp(p, op, n) == 0 && (p[n] == '\n' || p[n] == '\0'))
			return pos;
	return -1;
}

/* Both iterations statistic-only, an op no graph knows written with one
 * type in iteration 0 and another in iteration 1, and another with one
 * type in both: every run's rows in the kernel order file's order (read
 * here), each op sent once for the graph, the first unknown op's rows
 * with the type each file gave it, and every row of a statistic-only run
 * sent with its op's key
 * (the pass resolves an op name once per rank and graph, ms_opmemo.c).
 * Iteration 1's timestamps are rewritten to run backwards. */
static void
test_ms_rows_statistic_only_runs_resolve_each_op_alike(void **state)
{
	static const char row[] = "0,0,1700000002999999,output,0,4,float32,\"()\",1,1,1,1,0,1,0,0,0,0";
	static const char row2[] = "0,0,1700000002999998,output,0,4,float32,\"()\",1,1,1,1,0,1,0,0,0,0";
	struct tmp_dump f;
	struct exact_sink x = {0};
	struct reader_sink sink;
	struct record_sink *rs = &x.rs;
	struct reader *r;
	unsigned char *order;
	size_t i, len, nowhere_ops = 0, elsewhere_ops = 0, nowhere_rows[2] = { 0, 0 };
	size_t listed[2] = { 0, 0 };
	long last[2] = { -1, -1 };
	char *then = xasprintf("rm $T/d/" IT "/0/*.npy $T/d/" IT "/1/*.npy && "
			       "echo 'Foo,Nowhere-op1,%s' >> $T/d/" IT "/0/statistic.csv && "
			       "echo 'Bar,Nowhere-op1,%s' >> $T/d/" IT "/1/statistic.csv && "
			       "echo 'Baz,Elsewhere-op2,%s' >> $T/d/" IT "/0/statistic.csv && "
			       "echo 'Baz,Elsewhere-op2,%s' >> $T/d/" IT "/1/statistic.csv && "
			       /* iteration 1's times run backwards: only the kernel
				* order puts its rows in order */
			       "cd $T/d/" IT "/1 && awk -F, -v OFS=, 'NR > 1 { $5 = sprintf(\"%%d\", 1700000009000000 - NR) }"
			       " { print }' statistic.csv > s && mv s statistic.csv && "
			       "find $T/d -exec touch -d '-1 min' {} +", row, row, row2, row2);

	(void)state;
	tmp_dump_make(&f, SYNC, then);
	order = test_slurp(SYNC "/rank_0/execution_order/ms_execution_order_graph_0.csv", &len);
	r = record_open(&mindspore_reader_ops, f.dir);
	record_sink_init(rs, &sink);
	x.on_trace = sink.on_trace;
	sink.on_trace = count_exact;
	sink.ctx = &x;
	assert_int_equal(mindspore_reader_ops.index(r, &sink), TD_OK);
	assert_true(rs->ntraces > 2 * 10);
	for (i = 0; i < rs->ntraces; i++) {
		const struct rs_trace *t = &rs->traces[i];
		long pos = order_pos((const char *)order, t->op_name);

		assert_true(t->loc.file < 2);
		if (strcmp(t->op_name, "Nowhere-op1") == 0) {
			assert_string_equal(t->op_type, t->loc.file ? "Bar" : "Foo");
			nowhere_rows[t->loc.file]++;
		}
		if (pos >= 0) {             /* a listed kernel: after the one before */
			assert_true(pos >= last[t->loc.file]);
			last[t->loc.file] = pos;
			listed[t->loc.file]++;
		}
	}
	/* the order file lists 17 kernels, each with 2 to 4 rows a run */
	assert_true(listed[0] >= 34 && listed[1] >= 34 && last[0] == 16 && last[1] == 16);
	assert_int_equal(nowhere_rows[0], 1);
	assert_int_equal(nowhere_rows[1], 1);
	for (i = 0; i < rs->nops; i++) {
		size_t k;

		nowhere_ops += strcmp(rs->ops[i].op_name, "Nowhere-op1") == 0;
		elsewhere_ops += strcmp(rs->ops[i].op_name, "Elsewhere-op2") == 0;
		for (k = 0; k < i; k++)
			assert_false(strcmp(rs->ops[k].op_name, rs->ops[i].op_name) == 0 &&
				     strcmp(rs->ops[k].graph_id, rs->ops[i].graph_id) == 0);
	}
	/* iteration 1's rows are all statistic.csv's: each with its op's key
	 * (count_exact checks it is the pair's) but Nowhere-op1's, whose name
	 * was met with another type (resolved on its own, no key) */
	assert_int_equal(x.keyed_of_run1, x.exact_of_run1 - 1);
	assert_true(x.keyed_of_run1 > 34);
	assert_int_equal(nowhere_ops, 1);
	assert_int_equal(elsewhere_ops, 1);
	mindspore_reader_ops.close(r);
	record_sink_done(rs);
	free(order);
	free(then);
	tmp_dump_done(&f);
}

/* A statistic.csv rewritten (same size, another NaN count) or cut after
 * the pass: the row's decode fails, never another summary; the other
 * iteration's rows still decode. */
static void
test_ms_rows_statistic_csv_changed_after_the_pass_is_an_error(void **state)
{
	struct tmp_dump f;
	struct recorded ix;
	struct reader_detail d;
	const struct rs_trace *mm;

	(void)state;
	tmp_dump_make(&f, SYNC, STAT_ONLY);
	record_sink_index(&mindspore_reader_ops, f.dir, &ix);
	mm = matmul10_out(&ix.rs);
	tmp_dump_sh(&f, "cd $T/d/" IT "/1 && cp -p statistic.csv keep.csv && "
		    "sed -i 's/,2,1,0,0$/,0,0,0,0/' statistic.csv && touch -d '-5 sec' statistic.csv && "
		    "! cmp -s statistic.csv keep.csv");
	assert_int_equal(mindspore_reader_ops.decode(ix.r, READER_TRACE, &mm->loc, &d),
			 TD_ERR_CORRUPT);
	reader_detail_done(&d);
	assert_int_equal(mindspore_reader_ops.decode(ix.r, READER_TRACE, &ix.rs.traces[0].loc, &d),
			 TD_OK);
	assert_int_equal(ix.rs.traces[0].loc.file, 0);
	reader_detail_done(&d);
	/* the same bytes and time as when read (cp -p): decodes again */
	tmp_dump_sh(&f, "cd $T/d/" IT "/1 && mv keep.csv statistic.csv");
	assert_int_equal(mindspore_reader_ops.decode(ix.r, READER_TRACE, &mm->loc, &d), TD_OK);
	reader_detail_done(&d);
	tmp_dump_sh(&f, "cd $T/d/" IT "/1 && head -c 300 statistic.csv > cut && "
		    "cat cut > statistic.csv");
	assert_int_equal(mindspore_reader_ops.decode(ix.r, READER_TRACE, &mm->loc, &d),
			 TD_ERR_CORRUPT);
	reader_detail_done(&d);
	record_sink_index_done(&ix);
	tmp_dump_done(&f);
}

/* Task and stream ids past 32 bits (5000000000, and 4294967295, the
 * row's marker value) decode as written, from a pass and from a state. */
/* run's entries at hand (a resumed run's are unpacked on first use). */
static bool
ms_run_unpack_checked(struct reader *r, struct ms_run *run)
{
	assert_true(ms_run_unpack(r, run));
	return true;
}

/* A reader on dir that indexed it (pass 0) or resumed from state (pass 1). */
static struct reader *
open_pass(const char *dir, size_t pass, const struct strbuf *state)
{
	struct reader *r = record_open(&mindspore_reader_ops, dir);

	if (pass)
		assert_true(mindspore_reader_ops.load_state(r, state->buf, state->len));
	else
		assert_int_equal(mindspore_reader_ops.index(r, &(struct reader_sink){0}), TD_OK);
	return r;
}

static void
test_ms_rows_wide_task_and_stream_ids_survive(void **state)
{
	struct tmp_dump f;
	struct record_sink first;
	struct strbuf st = {0};
	struct reader *r;
	size_t i, found = 0, pass;

	(void)state;
	tmp_dump_make(&f, SYNC, "rm $T/d/" IT "/1/*.npy && cd $T/d/" IT "/1 && "
		      "sed -i 's/OneHot-op0,0,0,1700000002000007,/OneHot-op0,5000000000,4294967295,"
		      "1700000002000007,/' statistic.csv && grep -q 5000000000 statistic.csv && "
		      "find $T/d -exec touch -d '-1 min' {} +");
	record_index_and_save(&mindspore_reader_ops, f.dir, &first, &st);
	for (pass = 0; pass < 2; pass++) {
		r = open_pass(f.dir, pass, &st);
		for (i = 0; i < first.ntraces; i++) {
			struct reader_detail d;

			assert_int_equal(mindspore_reader_ops.decode(r, READER_TRACE,
								     &first.traces[i].loc, &d), TD_OK);
			if (strstr(d.text, "timestamp: 1700000002000007\n")) {
				assert_non_null(strstr(d.text, "task: 5000000000\nstream: 4294967295\n"));
				found++;
			} else {
				assert_null(strstr(d.text, "task: 5000000000"));
			}
			reader_detail_done(&d);
		}
		mindspore_reader_ops.close(r);
	}
	assert_int_equal(found, 2);
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}

/* The .npy files under dir, counted by find(1). */
static size_t
npy_files(const char *dir)
{
	char *cmd = xasprintf("find '%s' -name '*.npy' | wc -l", dir);
	FILE *p = popen(cmd, "r");
	unsigned long n = 0;

	assert_non_null(p);
	assert_int_equal(fscanf(p, "%lu", &n), 1);
	pclose(p);
	free(cmd);
	return n;
}

/* A row keeps no name of its own where its fields spell the file's
 * (issue 25 item 1): every path a row gives is a file of the dump, every
 * .npy file is some row's, from a fresh pass and from a resumed state;
 * the run's name block holds the suffix and the names that do not spell
 * (a file of another suffix in the run, one of a wider task id). */
static void
test_ms_rows_file_names_spelt_by_their_fields(void **state)
{
	struct tmp_dump f;
	struct record_sink first;
	struct strbuf st = {0};
	struct reader *r;
	size_t i, k, pass, files;

	(void)state;
	/* iteration 1: one file of another device format, one of a task id
	 * past 32 bits (the statistic.csv row that names it too) */
	tmp_dump_make(&f, SYNC, "cd $T/d/" IT "/1 && "
		      "mv ReLU.Default_network-WithLossCell__backbone-LeNet5_relu-ReLU_ReLU-op12."
		      "0.0.1700000002000231.output.0.DefaultFormat.npy "
		      "ReLU.Default_network-WithLossCell__backbone-LeNet5_relu-ReLU_ReLU-op12."
		      "0.0.1700000002000231.output.0.NCHW.npy && "
		      "mv Reshape.Default_network-WithLossCell__backbone-LeNet5_flatten-Flatten_"
		      "Reshape-op9.0.0.1700000002000196.output.0.DefaultFormat.npy "
		      "Reshape.Default_network-WithLossCell__backbone-LeNet5_flatten-Flatten_"
		      "Reshape-op9.5000000000.0.1700000002000196.output.0.DefaultFormat.npy && "
		      "find $T/d -exec touch -d '-1 min' {} +");
	files = npy_files(f.dir);
	record_index_and_save(&mindspore_reader_ops, f.dir, &first, &st);
	for (pass = 0; pass < 2; pass++) {
		struct td_strpool seen = {0};
		size_t spelt = 0, own = 0;

		r = open_pass(f.dir, pass, &st);
		for (i = 0; i < r->nruns && ms_run_unpack_checked(r, &r->runs[i]); i++)
			for (k = 0; k < r->runs[i].n; k++) {
				const struct ms_entry *e = &r->runs[i].entries[k];
				char *path = ms_entry_path(&r->runs[i], e);

				if (e->name == MS_NO_NAME) {
					assert_null(path);
					continue;
				}
				assert_non_null(path);
				assert_int_equal(access(path, R_OK), 0);
				td_strpool_add(&seen, path);
				spelt += e->name == MS_NAME_REBUILT;
				own += e->name != MS_NAME_REBUILT;
				if (e->name != MS_NAME_REBUILT)
					assert_true(strstr(path, ".NCHW.npy") ||
						    strstr(path, ".5000000000.0."));
				free(path);
			}
		assert_int_equal(seen.n, files);        /* every file, each once */
		assert_int_equal(own, 2);
		assert_int_equal(spelt, files - 2);
		td_strpool_done(&seen);
		assert_decodes_as_sent(r, &first);
		mindspore_reader_ops.close(r);
	}
	record_sink_done(&first);
	strbuf_done(&st);
	tmp_dump_done(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms_rows_entry_is_at_most_48_bytes),
		cmocka_unit_test(test_ms_rows_statistic_only_rows_decode_their_line),
		cmocka_unit_test(test_ms_rows_resumed_state_decodes_the_lines),
		cmocka_unit_test(test_ms_rows_statistic_csv_changed_after_the_pass_is_an_error),
		cmocka_unit_test(test_ms_rows_statistic_only_runs_resolve_each_op_alike),
		cmocka_unit_test(test_ms_rows_wide_task_and_stream_ids_survive),
		cmocka_unit_test(test_ms_rows_file_names_spelt_by_their_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
