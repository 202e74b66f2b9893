/*
 * test_node.c - tdbg --node's lines (tui/cmd/node.c) over a fake dump of
 * two ranks whose facts are written in the script below, and the rank a
 * host or path names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit/helpers/fake_model.h"
#include "tui/cmd/jsonread.h"
#include "tui/cmd/merge.h"
#include "tui/cmd/node.h"

static void
test_node_rank_named_by_host_or_path(void **state)
{
	(void)state;
	assert_int_equal(node_rank_of("rank_3"), 3);
	assert_int_equal(node_rank_of("rank3"), 3);
	assert_int_equal(node_rank_of("RANK-12"), 12);
	assert_int_equal(node_rank_of("/scratch/dump/rank_7/"), 7);
	assert_int_equal(node_rank_of("/scratch/rank_7/net"), -1);
	assert_int_equal(node_rank_of("worker-3.example"), -1);
	assert_int_equal(node_rank_of("rank_"), -1);
	assert_int_equal(node_rank_of("rankX"), -1);
	assert_int_equal(node_rank_of("rank_3x"), -1);
}

/* Two ranks (files on hosts rank_0 and rank_1), steps 0 and 1 of
 * x -> mm (MatMul) -> ar (AllReduce); rank 1's mm and ar hold NaN in step 1,
 * and last, rank 0's Receive rv (src_rank 1) gets NaN in step 1 (row 12);
 * everything else is finite. */
static struct fake *
two_ranks(void)
{
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0), bad = fake_full_health(4, 0, 0, 2);
	double wall = 100;

	fake_file(f, 1, "f1", "rank_0");
	fake_file(f, 2, "f2", "rank_1");
	fake_graph(f, "g", "step", NULL);
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_op(f, "g", "mm", "MatMul", (const char *[]){ "x:0", NULL }, NULL);
	fake_op(f, "g", "ar", "AllReduce", (const char *[]){ "mm:0", NULL }, NULL);
	fake_op(f, "g", "rv", "Receive", NULL, NULL);
	fake_op_attr(f, "src_rank", "1");
	fake_op_attr(f, "shape", "[4]");
	for (int step = 0; step < 2; step++)
		for (uint32_t file = 1; file <= 2; file++) {
			bool nan = file == 2 && step == 1;

			fake_trace(f, file, "g", "x", 0, wall++, &ok);
			fake_step(f, step);
			fake_trace(f, file, "g", "mm", 0, wall++, nan ? &bad : &ok);
			fake_step(f, step);
			fake_trace(f, file, "g", "ar", 0, wall++, nan ? &bad : &ok);
			fake_step(f, step);
		}
	/* rank 0 receives rank 1's NaN in step 1, after it */
	fake_trace(f, 1, "g", "rv", 0, wall++, &bad);
	fake_step(f, 1);
	return f;
}

/* The lines node_answer writes, parsed. */
static size_t
answer(struct model *m, const char *dump, struct jsonread_value **v, size_t max)
{
	struct node_options o = { .name = "n1", .rank_base = -1 };
	char *buf = NULL, err[128], *line, *save = NULL;
	size_t len = 0, n = 0;
	FILE *out = open_memstream(&buf, &len);

	node_answer(m, dump, &o, out);
	fclose(out);
	for (line = strtok_r(buf, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) < NODE_LINE_MAX);
		assert_int_equal(jsonread_parse(line, strlen(line), &v[n], err, sizeof err), 0);
		n++;
	}
	free(buf);
	return n;
}

static void
expect_raw_member(const struct jsonread_value *v, const char *key, enum jsonread_type t)
{
	const struct jsonread_value *c = jsonread_get(v, key);

	assert_non_null(c);
	assert_int_equal(c->type, t);
}

static void
test_node_one_line_per_rank_with_first_bad_and_comm(void **state)
{
	struct fake *f = two_ranks();
	struct model *m = fake_model_open(f, NULL);
	struct jsonread_value *v[4];
	const struct jsonread_value *fb, *comm, *c, *origin;
	double d;

	(void)state;
	assert_int_equal(answer(m, "/no/such/dump", v, 4), 2);
	/* rank 0: bad only at its Receive from rank 1, in step 1 */
	assert_true(jsonread_num(v[0], "tdbg_node", &d) && d == 1);
	assert_string_equal(jsonread_str(v[0], "node"), "n1");
	assert_string_equal(jsonread_str(v[0], "dump"), "/no/such/dump");
	assert_true(jsonread_num(v[0], "rank", &d) && d == 0);
	assert_string_equal(jsonread_str(v[0], "host"), "rank_0");
	assert_true(jsonread_num(v[0], "rows", &d) && d == 7);
	fb = jsonread_get(v[0], "first_bad");
	assert_true(jsonread_num(fb, "index", &d) && d == 12);
	assert_string_equal(jsonread_str(fb, "op_type"), "Receive");
	comm = jsonread_get(v[0], "comm");
	assert_int_equal(comm->nchild, 2);
	c = comm->child->next;      /* the AllReduce twice (finite), then rv */
	assert_string_equal(jsonread_str(c, "op"), "rv");
	assert_true(jsonread_num(c, "nonfinite", &d) && d == 1);
	assert_int_equal(jsonread_get(c, "peers")->nchild, 1);
	assert_true(jsonread_get(c, "peers")->child->num == 1);
	assert_int_equal(jsonread_get(v[0], "steps")->nchild, 2);
	expect_raw_member(v[0], "error", JSONREAD_NULL);
	/* rank 1: mm at step 1 (row 7: x, mm, ar of each rank, step by step) */
	assert_true(jsonread_num(v[1], "rank", &d) && d == 1);
	fb = jsonread_get(v[1], "first_bad");
	assert_true(jsonread_num(fb, "step", &d) && d == 1);
	assert_true(jsonread_num(fb, "index", &d) && d == 10);
	assert_string_equal(jsonread_str(fb, "op_name"), "mm");
	assert_string_equal(jsonread_str(fb, "op_type"), "MatMul");
	assert_true(jsonread_num(fb, "wall_time", &d) && d == 110);
	origin = jsonread_get(v[1], "origin");
	assert_int_equal(origin->type, JSONREAD_OBJECT);
	assert_string_equal(jsonread_str(origin, "op_name"), "mm");
	/* the AllReduce of steps 0 and 1: twice, once not finite, no peers */
	comm = jsonread_get(v[1], "comm");
	assert_int_equal(comm->nchild, 1);
	c = comm->child;
	assert_string_equal(jsonread_str(c, "op"), "ar");
	assert_string_equal(jsonread_str(c, "type"), "AllReduce");
	assert_true(jsonread_num(c, "calls", &d) && d == 2);
	assert_true(jsonread_num(c, "nonfinite", &d) && d == 1);
	expect_raw_member(c, "finite", JSONREAD_FALSE);
	expect_raw_member(c, "peers", JSONREAD_NULL);
	assert_true(jsonread_num(v[1], "problems", &d) && d == 0);
	jsonread_free(v[0]);
	jsonread_free(v[1]);
	model_close(m);
	fake_free(f);
}

/* The node lines merged: rank 1 went bad first, and rank 0 received it
 * through rv, whose src_rank names rank 1. */
static void
test_node_lines_merged_name_the_op_it_spread_through(void **state)
{
	struct fake *f = two_ranks();
	struct model *m = fake_model_open(f, NULL);
	struct node_options o = { .name = "n1", .rank_base = -1 };
	struct merge *mg = merge_new(NULL, NULL, 0);
	struct strbuf sb = {0};
	struct jsonread_value *v;
	const struct jsonread_value *first;
	char *buf = NULL, *line, *save = NULL, err[128];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	double d;

	(void)state;
	node_answer(m, "/d", &o, out);
	fclose(out);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		merge_line(mg, line, strlen(line));
	merge_report(mg, true, &sb);
	assert_int_equal(jsonread_parse(sb.buf, sb.len, &v, err, sizeof err), 0);
	first = jsonread_get(v, "first");
	assert_true(jsonread_num(first, "rank", &d) && d == 1);
	assert_string_equal(jsonread_str(first, "op_name"), "mm");
	assert_string_equal(jsonread_str(first, "via"), "rv");
	jsonread_free(v);
	strbuf_done(&sb);
	free(buf);
	merge_free(mg);
	model_close(m);
	fake_free(f);
}

/* 40 AllReduce ops with 3000-byte names run before x goes bad in the same
 * step: the comm list alone would pass the 64 KiB of a line. */
static void
test_node_line_past_64k_is_reduced(void **state)
{
	enum { N = 40, LONG = 3000 };
	struct fake *f = fake_new();
	struct td_summary ok = fake_full_health(4, 0, 0, 0), bad = fake_full_health(4, 0, 0, 4);
	struct model *m;
	struct jsonread_value *v[2];
	const struct jsonread_value *origin, *comm;
	char name[LONG + 16];
	double d;

	(void)state;
	fake_file(f, 1, "f1", "rank_0");
	fake_graph(f, "g", "step", NULL);
	memset(name, 'a', LONG);
	for (int i = 0; i < N; i++) {
		snprintf(name + LONG, sizeof name - LONG, "%d", i);
		fake_op(f, "g", name, "AllReduce", NULL, NULL);
		fake_trace(f, 1, "g", name, 0, 1 + i, &ok);
		fake_step(f, 0);
	}
	fake_op(f, "g", "x", "Placeholder", NULL, NULL);
	fake_trace(f, 1, "g", "x", 0, 100, &bad);
	fake_step(f, 0);
	m = fake_model_open(f, NULL);
	assert_int_equal(answer(m, "/d", v, 2), 1);   /* answer() checks < NODE_LINE_MAX */
	comm = jsonread_get(v[0], "comm");
	assert_int_equal(comm->nchild, 4);
	origin = jsonread_get(v[0], "origin");
	assert_string_equal(jsonread_str(origin, "op_name"), "x");
	assert_true(jsonread_num(origin, "index", &d) && d == N);
	assert_int_equal(jsonread_get(origin, "truncated")->type, JSONREAD_TRUE);
	assert_null(jsonread_get(origin, "inputs"));
	assert_string_equal(jsonread_str(jsonread_get(v[0], "first_bad"), "op_name"), "x");
	jsonread_free(v[0]);
	model_close(m);
	fake_free(f);
}

static void
test_node_error_line_keeps_the_keys_and_the_path_rank(void **state)
{
	struct node_options o = { .name = "n9", .rank_base = -1 };
	char *buf = NULL, err[128];
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct jsonread_value *v;
	double d;
	static const char *const keys[] = { "tdbg_node", "node", "dump", "format", "rank", "host",
					    "rows", "executions", "steps", "first_bad", "origin",
					    "comm", "watch_hits", "problems", "error" };

	(void)state;
	node_error("/nowhere/rank_5", &o, "cannot open: no such directory", out);
	fclose(out);
	assert_int_equal(buf[len - 1], '\n');
	assert_int_equal(jsonread_parse(buf, len, &v, err, sizeof err), 0);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		assert_non_null(jsonread_get(v, keys[i]));
	assert_true(jsonread_num(v, "rank", &d) && d == 5);
	assert_string_equal(jsonread_str(v, "error"), "cannot open: no such directory");
	jsonread_free(v);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_rank_named_by_host_or_path),
		cmocka_unit_test(test_node_one_line_per_rank_with_first_bad_and_comm),
		cmocka_unit_test(test_node_lines_merged_name_the_op_it_spread_through),
		cmocka_unit_test(test_node_line_past_64k_is_reduced),
		cmocka_unit_test(test_node_error_line_keeps_the_keys_and_the_path_rank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
