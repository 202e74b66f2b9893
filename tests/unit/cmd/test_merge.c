/*
 * test_merge.c - tdbg --merge (tui/cmd/merge.c, merge_report.c): node
 * lines as pdsh, clush and srun -l print them, written here by hand with
 * the facts each case is built to have.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tui/cmd/jsonread.h"
#include "tui/cmd/merge.h"

/* A node line: rank, first bad step (-1: finite), wall time (0: none),
 * error (NULL none), comm (raw JSON array, NULL "[]"). */
static void
feed(struct merge *mg, const char *prefix, int rank, int step, double wall, const char *error,
     const char *comm)
{
	char line[1024], fb[256];

	if (step >= 0 && wall > 0)
		snprintf(fb, sizeof fb, "{\"step\":%d,\"index\":%d,\"op_name\":\"op%d\",\"op_type\":\"Mul\","
			 "\"wall_time\":%.6f}", step, 10 + rank, rank, wall);
	else if (step >= 0)
		snprintf(fb, sizeof fb, "{\"step\":%d,\"index\":%d,\"op_name\":\"op%d\",\"op_type\":\"Mul\","
			 "\"wall_time\":null}", step, 10 + rank, rank);
	else
		snprintf(fb, sizeof fb, "null");
	snprintf(line, sizeof line, "%s{\"tdbg_node\":1,\"node\":\"host%d\",\"dump\":\"/d/rank_%d\","
		 "\"format\":\"f\",\"rank\":%d,\"host\":\"rank_%d\",\"rows\":5,\"executions\":1,"
		 "\"steps\":[0,3],\"first_bad\":%s,\"origin\":null,\"comm\":%s,\"watch_hits\":0,"
		 "\"problems\":0,\"error\":%s%s%s}",
		 prefix, rank, rank, rank, rank, fb, comm ? comm : "[]", error ? "\"" : "",
		 error ? error : "null", error ? "\"" : "");
	merge_line(mg, line, strlen(line));
}

static void
say(struct merge *mg, const char *text)
{
	merge_line(mg, text, strlen(text));
}

static struct jsonread_value *
report(struct merge *mg, struct strbuf *sb)
{
	struct jsonread_value *v;
	char err[128];

	strbuf_reset(sb);
	merge_report(mg, true, sb);
	assert_int_equal(jsonread_parse(sb->buf, sb->len, &v, err, sizeof err), 0);
	return v;
}

/* The member key of v as its JSON text. */
static void
expect_raw(const struct strbuf *sb, const struct jsonread_value *v, const char *key,
	   const char *want)
{
	const struct jsonread_value *c = jsonread_get(v, key);
	char got[512];

	assert_non_null(c);
	snprintf(got, sizeof got, "%.*s", (int)(c->end - c->start), sb->buf + c->start);
	assert_string_equal(got, want);
}

static void
test_merge_pdsh_prefixes_missing_duplicated_failed_silent(void **state)
{
	struct merge_options o = { .ranks = 8, .nodes = "n[1-8]" };
	struct merge *mg = merge_new(&o, NULL, 0);
	struct strbuf sb = {0};
	struct jsonread_value *v;
	const struct jsonread_value *first, *ranks;
	double d;

	(void)state;
	feed(mg, "n1: ", 0, -1, 0, NULL, NULL);
	feed(mg, "n2: ", 1, 2, 1700000002.5, NULL, NULL);
	feed(mg, "n3: ", 2, 2, 1700000002.1, NULL, NULL);     /* earliest wall time */
	feed(mg, "n4: ", 3, -1, 0, NULL, NULL);
	feed(mg, "n5: ", 3, -1, 0, NULL, NULL);                /* rank 3 twice */
	say(mg, "n6: tdbg: command not found");
	say(mg, "pdsh@login: n6: exec exited with exit code 127");
	feed(mg, "n7: ", 6, -1, 0, "no tensor row could be read", NULL);
	/* n8 silent; ranks 4, 5 and 7 missing */
	v = report(mg, &sb);
	assert_true(jsonread_num(v, "nodes", &d) && d == 7);
	assert_true(jsonread_num(v, "ranks_found", &d) && d == 5);
	expect_raw(&sb, v, "missing", "[4,5,7]");
	expect_raw(&sb, v, "duplicated", "[3]");
	expect_raw(&sb, v, "failed_nodes", "[\"n6\"]");
	expect_raw(&sb, v, "silent_nodes", "[\"n8\"]");
	first = jsonread_get(v, "first");
	assert_true(jsonread_num(first, "rank", &d) && d == 2);
	assert_string_equal(jsonread_str(first, "node"), "n3");
	assert_string_equal(jsonread_str(first, "host"), "rank_2");
	assert_true(jsonread_num(first, "step", &d) && d == 2);
	assert_true(jsonread_num(first, "index", &d) && d == 12);
	assert_string_equal(jsonread_str(first, "op_name"), "op2");
	assert_int_equal(jsonread_get(first, "via")->type, JSONREAD_NULL);
	ranks = jsonread_get(v, "ranks");
	assert_int_equal(ranks->nchild, 6);
	/* by rank, each line's node the launcher's name */
	assert_string_equal(jsonread_str(ranks->child, "node"), "n1");
	assert_true(jsonread_num(ranks->child->next->next->next, "rank", &d) && d == 3);
	jsonread_free(v);
	strbuf_done(&sb);
	merge_free(mg);
}

static void
test_merge_groups_by_outcome_with_rank_ranges(void **state)
{
	struct merge *mg = merge_new(NULL, NULL, 0);
	struct strbuf sb = {0};
	struct jsonread_value *v;
	const struct jsonread_value *g;
	double d;
	char prefix[16];

	(void)state;
	for (int r = 0; r < 8; r++) {
		snprintf(prefix, sizeof prefix, "n%d: ", r + 1);
		feed(mg, prefix, r, r == 6 ? 4 : -1, 0, NULL, NULL);
	}
	v = report(mg, &sb);
	g = jsonread_get(v, "groups");
	assert_int_equal(g->nchild, 2);
	assert_string_equal(jsonread_str(g->child, "outcome"), "NaN/Inf from step 4: op6 (Mul)");
	assert_string_equal(jsonread_str(g->child, "ranks"), "6");
	assert_string_equal(jsonread_str(g->child->next, "outcome"), "finite");
	assert_string_equal(jsonread_str(g->child->next, "ranks"), "0-5,7");
	assert_string_equal(jsonread_str(g->child->next, "nodes"), "n[1-6,8]");
	assert_true(jsonread_num(g->child->next, "count", &d) && d == 7);
	expect_raw(&sb, v, "missing", "[]");
	jsonread_free(v);
	strbuf_done(&sb);
	merge_free(mg);
}

static void
test_merge_srun_task_prefix_and_error_lines(void **state)
{
	struct merge *mg = merge_new(NULL, NULL, 0);
	struct strbuf sb = {0};
	struct jsonread_value *v;
	const struct jsonread_value *ranks;

	(void)state;
	feed(mg, " 0: ", 0, -1, 0, NULL, NULL);      /* srun -l pads the task number */
	feed(mg, " 1: ", 1, -1, 0, NULL, NULL);
	say(mg, "srun: error: host3: task 2: Exited with exit code 2");
	say(mg, "clush: n[5-6]: exited with exit code 1");
	v = report(mg, &sb);
	ranks = jsonread_get(v, "ranks");
	/* the task number is not a node: the line's own node name is kept */
	assert_string_equal(jsonread_str(ranks->child, "node"), "host0");
	assert_string_equal(jsonread_str(ranks->child->next, "node"), "host1");
	expect_raw(&sb, v, "failed_nodes", "[\"host3\",\"n5\",\"n6\"]");
	jsonread_free(v);
	strbuf_done(&sb);
	merge_free(mg);
}

static void
test_merge_first_by_step_without_wall_time_and_via_peers(void **state)
{
	struct merge *mg = merge_new(NULL, NULL, 0);
	struct strbuf sb = {0};
	struct jsonread_value *v;
	const struct jsonread_value *first;
	double d;

	(void)state;
	/* no wall time: by step; rank 1 first at step 3.  Rank 2 received
	 * NaN from rank 1 through its Recv (peers [1]); rank 0's AllReduce
	 * names rank 3, not the first. */
	feed(mg, "", 0, 4, 0, NULL,
	     "[{\"op\":\"grad/AllReduce\",\"type\":\"AllReduce\",\"calls\":1,\"nonfinite\":1,"
	     "\"finite\":false,\"peers\":[3]}]");
	feed(mg, "", 1, 3, 0, NULL, NULL);
	feed(mg, "", 2, 4, 0, NULL,
	     "[{\"op\":\"pipe/Recv-op7\",\"type\":\"Receive\",\"calls\":2,\"nonfinite\":1,"
	     "\"finite\":false,\"peers\":[1]}]");
	feed(mg, "", 3, 5, 0, NULL, NULL);
	v = report(mg, &sb);
	first = jsonread_get(v, "first");
	assert_true(jsonread_num(first, "rank", &d) && d == 1);
	assert_string_equal(jsonread_str(first, "node"), "host1");
	assert_string_equal(jsonread_str(first, "via"), "pipe/Recv-op7");
	jsonread_free(v);
	strbuf_done(&sb);
	merge_free(mg);
}

static void
test_merge_reads_a_merged_answer_back(void **state)
{
	struct merge *mg = merge_new(NULL, NULL, 0), *again = merge_new(NULL, NULL, 0);
	struct strbuf sb = {0}, sb2 = {0};

	(void)state;
	feed(mg, "n1: ", 0, -1, 0, NULL, NULL);
	feed(mg, "n2: ", 1, 2, 0, NULL, NULL);
	merge_report(mg, true, &sb);
	merge_line(again, sb.buf, sb.len);
	merge_report(again, true, &sb2);
	assert_string_equal(sb2.buf, sb.buf);
	strbuf_done(&sb);
	strbuf_done(&sb2);
	merge_free(mg);
	merge_free(again);
}

static void
test_merge_text_names_the_drill_down_commands(void **state)
{
	struct merge *mg = merge_new(NULL, NULL, 0);
	struct strbuf sb = {0};

	(void)state;
	feed(mg, "n1: ", 0, 2, 0, NULL, NULL);
	say(mg, "n2: Traceback: \x1b[31mred");
	merge_report(mg, false, &sb);
	assert_non_null(strstr(sb.buf, "first bad rank: 0 on n1 (host rank_0), step 2, row 10: op0 (Mul)"));
	assert_non_null(strstr(sb.buf, "ssh n1 tdbg /d/rank_0"));
	assert_non_null(strstr(sb.buf, "srun -w n1 --pty tdbg /d/rank_0"));
	assert_non_null(strstr(sb.buf, "failed nodes: n2"));
	/* a node's message reaches the terminal sanitized */
	assert_non_null(strstr(sb.buf, "Traceback: ^[[31mred"));
	assert_null(strchr(sb.buf, '\x1b'));
	strbuf_reset(&sb);
	merge_drill(&sb, true, "tdbg", "n1", "/a dir/it's");
	assert_string_equal(sb.buf, "ssh n1 tdbg '/a dir/it'\\''s'");
	strbuf_done(&sb);
	merge_free(mg);
}

static void
test_merge_clush_b_blocks_name_their_node(void **state)
{
	struct merge *mg = merge_new(NULL, NULL, 0);
	struct strbuf sb = {0};
	struct jsonread_value *v;
	const struct jsonread_value *ranks;
	double d;

	(void)state;
	say(mg, "---------------");
	say(mg, "n1");
	say(mg, "---------------");
	feed(mg, "", 0, -1, 0, NULL, NULL);
	say(mg, "---------------");
	say(mg, "n[2-3] (2)");
	say(mg, "---------------");
	say(mg, "tdbg: not found");
	say(mg, "sending signal 15 to n4 [tdbg] pid 77");  /* pdsh -u: about no node of ours */
	v = report(mg, &sb);
	ranks = jsonread_get(v, "ranks");
	assert_string_equal(jsonread_str(ranks->child, "node"), "n1");
	/* both nodes of the second block said only that: they failed; the
	 * pdsh line is the launcher's, about no node */
	assert_true(jsonread_num(v, "nodes", &d) && d == 3);
	expect_raw(&sb, v, "failed_nodes", "[\"n2\",\"n3\"]");
	jsonread_free(v);
	strbuf_done(&sb);
	merge_free(mg);
}

static void
test_merge_joins_srun_pieces_of_a_long_line(void **state)
{
	struct merge *mg = merge_new(NULL, NULL, 0);
	struct strbuf line = {0}, piece = {0}, sb = {0};
	struct jsonread_value *v;
	const struct jsonread_value *ranks;
	size_t off, n;
	double d;

	(void)state;
	/* a 3000-byte node line of task 1, labelled every 1024 bytes as srun
	 * -l does, between two short lines of task 0 */
	strbuf_addf(&line, "{\"tdbg_node\":1,\"node\":\"hostB\",\"rank\":1,\"first_bad\":null,"
		    "\"error\":null,\"pad\":\"");
	while (line.len < 2990)
		strbuf_adds(&line, "a b ");
	strbuf_adds(&line, "\"}");
	feed(mg, "0: ", 0, -1, 0, NULL, NULL);
	for (off = 0; off < line.len; off += n) {
		n = line.len - off < 1024 ? line.len - off : 1024;
		strbuf_reset(&piece);
		strbuf_adds(&piece, "1: ");
		strbuf_add(&piece, line.buf + off, n);
		merge_line(mg, piece.buf, piece.len);
	}
	feed(mg, "2: ", 2, -1, 0, NULL, NULL);
	v = report(mg, &sb);
	ranks = jsonread_get(v, "ranks");
	assert_int_equal(ranks->nchild, 3);
	assert_true(jsonread_num(ranks->child->next, "rank", &d) && d == 1);
	assert_int_equal(strlen(jsonread_str(ranks->child->next, "pad")), line.len - 76 - 2);
	expect_raw(&sb, v, "failed_nodes", "[]");
	jsonread_free(v);
	strbuf_done(&sb);
	strbuf_done(&line);
	strbuf_done(&piece);
	merge_free(mg);
}

static void
test_merge_bad_nodes_list_fails(void **state)
{
	struct merge_options o = { .ranks = -1, .nodes = "n[1-" };
	char err[128] = "";

	(void)state;
	assert_null(merge_new(&o, err, sizeof err));
	assert_non_null(strstr(err, "missing ']'"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_pdsh_prefixes_missing_duplicated_failed_silent),
		cmocka_unit_test(test_merge_groups_by_outcome_with_rank_ranges),
		cmocka_unit_test(test_merge_srun_task_prefix_and_error_lines),
		cmocka_unit_test(test_merge_first_by_step_without_wall_time_and_via_peers),
		cmocka_unit_test(test_merge_reads_a_merged_answer_back),
		cmocka_unit_test(test_merge_text_names_the_drill_down_commands),
		cmocka_unit_test(test_merge_clush_b_blocks_name_their_node),
		cmocka_unit_test(test_merge_joins_srun_pieces_of_a_long_line),
		cmocka_unit_test(test_merge_bad_nodes_list_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
