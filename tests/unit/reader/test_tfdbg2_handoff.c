/*
 * test_tfdbg2_handoff.c - a row found from a locator costs one read: the
 * record advance() steps onto is handed to the decode that follows on the
 * same thread (tfdbg2.c tf2_read_record), and the decode gives exactly
 * what a decode reading the file gives.  source_read is wrapped to count
 * the reads (Makefile: -Wl,--wrap=source_read).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "reader/parse/source.h"
#include "reader/reader.h"
#include "tests/unit/helpers/record_sink.h"
#include "tests/unit/helpers/summary_assert.h"

#define FIX "tests/fixtures/tfdbg2"

static unsigned reads;

ssize_t __real_source_read(struct source *s, uint64_t off, void *buf, size_t len);
ssize_t __wrap_source_read(struct source *s, uint64_t off, void *buf, size_t len);

ssize_t
__wrap_source_read(struct source *s, uint64_t off, void *buf, size_t len)
{
	reads++;
	return __real_source_read(s, off, buf, len);
}

static void
same_detail(const struct reader_detail *a, const struct reader_detail *b)
{
	assert_int_equal(a->noutputs, b->noutputs);
	assert_true(a->wall_time == b->wall_time);
	assert_int_equal(a->slot, b->slot);
	assert_int_equal(a->next_offset, b->next_offset);
	for (size_t k = 0; k < a->noutputs; k++)
		assert_same_summary(&a->summaries[k], &b->summaries[k], 0);
}

/* Every row of a dump decoded after an advance from the row n before it
 * (n = 1 .. 15, as the model's locators every 16 rows need): one read for
 * both, and the facts of a decode that reads the record itself. */
static void
check_dump(const char *dir, bool cheap)
{
	struct recorded ix;
	unsigned handed = 0;

	record_sink_index(&tfdbg2_reader_ops, dir, &ix);
	assert_true(ix.rs.ntraces > 16);
	for (size_t i = 1; i < ix.rs.ntraces; i++) {
		size_t n = 1 + i % 15 < i ? 1 + i % 15 : i;
		struct td_locator loc = ix.rs.traces[i - n].loc;
		struct reader_detail a = {0}, b = {0};
		enum td_status sa, sb;

		reads = 0;
		assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &loc, n), TD_OK);
		assert_int_equal(loc.offset, ix.rs.traces[i].loc.offset);
		sa = cheap ? tfdbg2_reader_ops.decode_summary(ix.r, &loc, &a)
			   : tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &loc, &a);
		handed += reads == 1;
		/* the same row again: nothing to hand over now, read from the file */
		reads = 0;
		sb = cheap ? tfdbg2_reader_ops.decode_summary(ix.r, &loc, &b)
			   : tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &loc, &b);
		assert_true(reads >= 1);
		assert_int_equal(sa, sb);
		if (sa == TD_OK)
			same_detail(&a, &b);
		reader_detail_done(&a);
		reader_detail_done(&b);
	}
	/* health-mode records are a few hundred bytes: all handed over */
	assert_int_equal(handed, ix.rs.ntraces - 1);
	record_sink_index_done(&ix);
}

static void
test_advance_hands_its_record_to_decode_summary(void **state)
{
	(void)state;
	check_dump(FIX "/mnist_nan", true);
}

static void
test_advance_hands_its_record_to_decode(void **state)
{
	(void)state;
	check_dump(FIX "/mnist_nan", false);
}

/* The hand-over is for the next decode only, and only of that record: a
 * decode of another row after an advance reads that row from the file. */
static void
test_handoff_only_for_the_record_stepped_onto(void **state)
{
	struct recorded ix;
	struct td_locator loc, other;
	struct reader_detail a = {0}, b = {0};

	(void)state;
	record_sink_index(&tfdbg2_reader_ops, FIX "/mnist_nan", &ix);
	loc = ix.rs.traces[10].loc;
	assert_int_equal(tfdbg2_reader_ops.advance(ix.r, READER_TRACE, &loc, 3), TD_OK);
	other = ix.rs.traces[100].loc;
	reads = 0;
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &other, &a), TD_OK);
	assert_int_equal(reads, 1);
	/* the hand-over was given up by that decode: row 13 is read again */
	reads = 0;
	assert_int_equal(tfdbg2_reader_ops.decode(ix.r, READER_TRACE, &loc, &b), TD_OK);
	assert_int_equal(reads, 1);
	assert_int_equal(loc.offset, ix.rs.traces[13].loc.offset);
	assert_true(a.wall_time == ix.rs.traces[100].wall_time);
	assert_true(b.wall_time == ix.rs.traces[13].wall_time);
	reader_detail_done(&a);
	reader_detail_done(&b);
	record_sink_index_done(&ix);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_advance_hands_its_record_to_decode_summary),
		cmocka_unit_test(test_advance_hands_its_record_to_decode),
		cmocka_unit_test(test_handoff_only_for_the_record_stepped_onto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
