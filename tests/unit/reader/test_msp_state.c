/*
 * test_msp_state.c - the msprobe reader's resume state (msp_state.c), its
 * entry table written as varint changes (state version 4, issue 26): a
 * reader loaded from another's state has the same entry table (offsets,
 * first traces, name hashes: an offset that went back, as a follow flush
 * moves an entry, included), sends nothing again and decodes every row as
 * the indexing reader did; a state cut short at any byte, or one whose
 * first traces pass the unit's row count, is refused.  The dump is
 * tests/fixtures/msprobe/pt_stats_2rank (fixture README: four rank folders
 * of 13 entries and 37 tensor leaves each).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reader/msprobe/msp_internal.h"
#include "tests/unit/helpers/record_sink.h"

#define DUMP "tests/fixtures/msprobe/pt_stats_2rank"

/* The first reader's entry tables equal the loaded reader's. */
static void
assert_same_tables(const struct reader *a, const struct reader *b)
{
	size_t i, e;

	assert_int_equal(a->nunits, b->nunits);
	for (i = 0; i < a->nunits; i++) {
		const struct msp_unit *x = &a->units[i], *y = &b->units[i];

		assert_int_equal(x->nentries, y->nentries);
		assert_int_equal(x->ntraces, y->ntraces);
		for (e = 0; e < x->nentries; e++) {
			assert_int_equal(x->entry_off[e], y->entry_off[e]);
			assert_int_equal(x->first_trace[e], y->first_trace[e]);
			assert_int_equal(x->entry_hash[e], y->entry_hash[e]);
		}
	}
}

static void
test_msp_state_resumes_the_same_tables(void **state)
{
	struct record_sink first, again;
	struct reader_sink sink;
	struct strbuf st = {0};
	struct reader *a, *b;
	size_t i;

	(void)state;
	a = record_open(&msprobe_reader_ops, DUMP);
	record_sink_init(&first, &sink);
	assert_int_equal(msprobe_reader_ops.index(a, &sink), TD_OK);
	assert_int_equal(a->nunits, 4);
	assert_int_equal(a->units[0].nentries, 13);
	assert_int_equal(a->units[0].ntraces, 37);
	msprobe_reader_ops.save_state(a, &st);
	b = record_open(&msprobe_reader_ops, DUMP);
	assert_true(msprobe_reader_ops.load_state(b, st.buf, st.len));
	assert_same_tables(a, b);
	record_sink_init(&again, &sink);
	assert_int_equal(msprobe_reader_ops.index(b, &sink), TD_OK);
	assert_int_equal(again.ntraces, 0);
	assert_int_equal(again.nexecutions, 0);
	for (i = 0; i < first.ntraces; i++) {
		struct reader_detail d;

		assert_int_equal(msprobe_reader_ops.decode(b, READER_TRACE, &first.traces[i].loc, &d),
				 TD_OK);
		assert_string_equal(d.op_name, first.traces[i].op_name);
		reader_detail_done(&d);
	}
	record_sink_done(&again);
	record_sink_done(&first);
	msprobe_reader_ops.close(b);
	msprobe_reader_ops.close(a);
	strbuf_done(&st);
}

/* An offset below the one before (a moved entry) and a 64-bit one come
 * back as they were. */
static void
test_msp_state_offsets_that_go_back(void **state)
{
	struct record_sink rs;
	struct reader_sink sink;
	struct strbuf st = {0};
	struct reader *a, *b;

	(void)state;
	a = record_open(&msprobe_reader_ops, DUMP);
	record_sink_init(&rs, &sink);
	assert_int_equal(msprobe_reader_ops.index(a, &sink), TD_OK);
	a->units[0].entry_off[0] = UINT64_C(0xfedcba9876543210);
	a->units[0].entry_off[2] = 3;
	msprobe_reader_ops.save_state(a, &st);
	b = record_open(&msprobe_reader_ops, DUMP);
	assert_true(msprobe_reader_ops.load_state(b, st.buf, st.len));
	assert_same_tables(a, b);
	record_sink_done(&rs);
	msprobe_reader_ops.close(b);
	msprobe_reader_ops.close(a);
	strbuf_done(&st);
}

static void
test_msp_state_damaged_refused(void **state)
{
	struct record_sink rs;
	struct reader_sink sink;
	struct strbuf st = {0};
	struct reader *a, *b;
	size_t cut;

	(void)state;
	a = record_open(&msprobe_reader_ops, DUMP);
	record_sink_init(&rs, &sink);
	assert_int_equal(msprobe_reader_ops.index(a, &sink), TD_OK);
	msprobe_reader_ops.save_state(a, &st);
	for (cut = 0; cut < st.len; cut++) {
		b = record_open(&msprobe_reader_ops, DUMP);
		assert_false(msprobe_reader_ops.load_state(b, st.buf, cut));
		msprobe_reader_ops.close(b);
	}
	/* the last entry's first trace past the unit's rows */
	strbuf_reset(&st);
	a->units[0].first_trace[12] = 38;
	msprobe_reader_ops.save_state(a, &st);
	b = record_open(&msprobe_reader_ops, DUMP);
	assert_false(msprobe_reader_ops.load_state(b, st.buf, st.len));
	msprobe_reader_ops.close(b);
	record_sink_done(&rs);
	msprobe_reader_ops.close(a);
	strbuf_done(&st);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_msp_state_resumes_the_same_tables),
		cmocka_unit_test(test_msp_state_offsets_that_go_back),
		cmocka_unit_test(test_msp_state_damaged_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
