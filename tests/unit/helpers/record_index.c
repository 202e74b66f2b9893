/*
 * record_index.c - open a reader on a directory and record its index pass
 * (struct recorded, declared in record_sink.h).
 */
#include "record_sink.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <unistd.h>

void
record_sink_index(const struct reader_ops *ops, const char *dir, struct recorded *ix)
{
	char err[512] = "";

	ix->ops = ops;
	assert_int_equal(ops->open(dir, &(struct reader_options){0}, &ix->r, err, sizeof err), TD_OK);
	record_sink_init(&ix->rs, &ix->sink);
	alarm(20);
	assert_int_equal(ops->index(ix->r, &ix->sink), TD_OK);
	alarm(0);
}

void
record_sink_index_done(struct recorded *ix)
{
	ix->ops->close(ix->r);
	record_sink_done(&ix->rs);
}
