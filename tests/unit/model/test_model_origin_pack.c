/*
 * test_model_origin_pack.c - an origins run's explanations kept packed
 * (model/analysis/model_origin_pack.c): what is taken back equals what was
 * kept, field by field (a cause of the longest length, evidence lines,
 * inputs, path and from), a row never kept is not found, and past the
 * bytes allowed nothing is kept (shown by explaining again).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_origins_ctx.h"

static void
fill(struct model_origin *o, uint64_t row)
{
	static struct model_origin_input in[2];
	static uint64_t path[3] = { 7, 9, 11 };
	static int64_t from[1] = { 5 };

	memset(o, 0, sizeof(*o));
	o->role = ORIGIN_ORIGIN;
	o->source = TABLE_TRACES;
	o->index = row;
	o->op_name = "Log";
	o->op_type = "Log";
	o->slot = 1;
	o->via = -1;
	o->host = "worker-0";
	o->step = 12;
	o->wall_time = 1700000000.25;
	o->summary.known = SUM_NAN;
	o->summary.nan = 3;
	o->source_op = true;
	o->link = 2;
	in[0].op_name = "probs";
	in[0].op_type = "Softmax";
	in[0].trace_index = 4;
	in[0].state = INPUT_FINITE;
	in[0].summary.known = SUM_MINMAX;
	in[0].summary.min = 0;
	in[1].op_name = "y";
	in[1].op_type = "";
	in[1].trace_index = -1;
	in[1].state = INPUT_UNKNOWN;
	o->inputs = in;
	o->ninputs = 2;
	/* the longest cause, its buffer's last byte not a NUL */
	memset(o->cause, 'c', sizeof(o->cause));
	strcpy(o->evidence[0], "min of probs:0 is exactly 0");
	strcpy(o->evidence[1], "");
	o->nevidence = 2;
	o->path = path;
	o->npath = 3;
	o->origin = (int64_t)row;
	o->from = from;
	o->nfrom = 1;
}

static void
test_taken_back_as_kept(void **state)
{
	struct origin_packs p = {0};
	struct model_origin o, back;

	(void)state;
	fill(&o, 42);
	assert_true(origin_pack_put(&p, 42, &o));
	assert_false(origin_pack_get(&p, 43, &back));
	assert_true(origin_pack_get(&p, 42, &back));
	assert_int_equal(back.role, o.role);
	assert_int_equal(back.index, 42);
	assert_string_equal(back.op_name, "Log");
	assert_string_equal(back.host, "worker-0");
	assert_int_equal(back.slot, 1);
	assert_int_equal(back.via, -1);
	assert_int_equal(back.step, 12);
	assert_true(back.wall_time == o.wall_time);
	assert_int_equal(back.summary.nan, 3);
	assert_true(back.source_op);
	assert_int_equal(back.link, 2);
	assert_int_equal(back.ninputs, 2);
	assert_ptr_not_equal(back.inputs, o.inputs);
	assert_string_equal(back.inputs[0].op_name, "probs");
	assert_int_equal(back.inputs[0].trace_index, 4);
	assert_int_equal(back.inputs[1].state, INPUT_UNKNOWN);
	assert_int_equal(strlen(back.cause), MODEL_CAUSE_LEN - 1);
	assert_int_equal(back.nevidence, 2);
	assert_string_equal(back.evidence[0], "min of probs:0 is exactly 0");
	assert_string_equal(back.evidence[1], "");
	assert_int_equal(back.npath, 3);
	assert_int_equal(back.path[2], 11);
	assert_int_equal(back.origin, 42);
	assert_int_equal(back.nfrom, 1);
	assert_int_equal(back.from[0], 5);
	model_origin_done(&back);
	origin_packs_done(&p);
}

/* Past the bytes allowed an explanation is not kept (the listing explains
 * it again); those kept before stay. */
static void
test_nothing_kept_past_the_bound(void **state)
{
	struct origin_packs p = { .max = 4096 };
	struct model_origin o, back;
	uint64_t row, kept = 0;

	(void)state;
	for (row = 0; row < 64; row++) {
		fill(&o, row);
		if (origin_pack_put(&p, row, &o))
			kept++;
	}
	assert_true(kept > 0 && kept < 64);
	assert_true(p.n <= 4096);
	assert_true(origin_pack_get(&p, 0, &back));
	model_origin_done(&back);
	assert_false(origin_pack_get(&p, kept, &back));
	origin_packs_done(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_taken_back_as_kept),
		cmocka_unit_test(test_nothing_kept_past_the_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
