/*
 * record_index.c - open a reader on a directory and record its index pass
 * (struct recorded, declared in record_sink.h), and two such passes
 * compared.
 */
#include "record_sink.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <unistd.h>

#include "reader/base/util.h"

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

/* ---- the rows a pass announced can be read while it runs --------------- */

struct reach {
	const struct reader_ops *ops;
	struct reader *r;
	struct td_locator prev[2];     /* the last trace, the last execution */
	bool have[2];
	uint64_t checked, failed;
};

/* Row loc of kind was just announced: it decodes, and one advance() from
 * the row announced before it (same file) lands on it. */
static void
reach_row(struct reach *x, int k, enum reader_kind kind, const struct td_locator *loc)
{
	struct reader_detail d = {0};
	struct td_locator at;

	if (x->ops->decode(x->r, kind, loc, &d) != TD_OK)
		x->failed++;
	reader_detail_done(&d);
	if (x->ops->advance && x->have[k] && x->prev[k].file == loc->file) {
		at = x->prev[k];
		if (x->ops->advance(x->r, kind, &at, 1) != TD_OK || at.offset != loc->offset)
			x->failed++;
	}
	x->prev[k] = *loc;
	x->have[k] = true;
	x->checked++;
}

static void
reach_trace(void *ctx, const struct reader_trace *t)
{
	reach_row(ctx, 0, READER_TRACE, &t->loc);
}

static void
reach_execution(void *ctx, const struct reader_execution *e)
{
	reach_row(ctx, 1, READER_EXECUTION, &e->loc);
}

/* A problem between two rows: the next row need not be one step on. */
static void
reach_problem(void *ctx, const struct reader_problem *p)
{
	struct reach *x = ctx;

	(void)p;
	x->have[0] = x->have[1] = false;
}

void
record_index_reachable(const struct reader_ops *ops, const char *dir, uint64_t *checked,
		       uint64_t *failed)
{
	struct reach x = { .ops = ops };
	struct reader_sink sink = { .ctx = &x, .on_trace = reach_trace,
				    .on_execution = reach_execution, .on_problem = reach_problem };
	char err[512] = "";

	assert_int_equal(ops->open(dir, &(struct reader_options){0}, &x.r, err, sizeof err), TD_OK);
	alarm(20);
	assert_int_equal(ops->index(x.r, &sink), TD_OK);
	alarm(0);
	ops->close(x.r);
	*checked = x.checked;
	*failed = x.failed;
}

/* ---- a writable copy of a fixture, and a reader's saved state ---------- */

void
tmp_dump_sh(const struct tmp_dump *f, const char *script)
{
	char *cmd = xasprintf("T=%s; set -e; %s", f->tmp, script);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

void
tmp_dump_make(struct tmp_dump *f, const char *fixture, const char *then)
{
	char *copy = xasprintf("cp -r %s $T/d && chmod -R u+w $T%s%s", fixture, then ? " && " : "",
			       then ? then : "");

	f->tmp = xstrdup("/tmp/tdbg-dump-XXXXXX");
	assert_non_null(mkdtemp(f->tmp));
	f->dir = xasprintf("%s/d", f->tmp);
	tmp_dump_sh(f, copy);
	free(copy);
}

void
tmp_dump_done(struct tmp_dump *f)
{
	tmp_dump_sh(f, "rm -rf $T");
	free(f->dir);
	free(f->tmp);
}

struct reader *
record_open(const struct reader_ops *ops, const char *dir)
{
	struct reader_options opt = {0};
	struct reader *r = NULL;
	char err[256] = "";

	if (ops->open(dir, &opt, &r, err, sizeof err) != TD_OK)
		fail_msg("open: %s", err);
	return r;
}

void
record_index_and_save(const struct reader_ops *ops, const char *dir, struct record_sink *rs,
		      struct strbuf *state)
{
	struct reader_sink sink;
	struct reader *r = record_open(ops, dir);

	record_sink_init(rs, &sink);
	assert_int_equal(ops->index(r, &sink), TD_OK);
	ops->save_state(r, state);
	ops->close(r);
}

static void
str_eq(const char *a, const char *b)
{
	if (!a || !b)
		assert_ptr_equal(a, b);
	else
		assert_string_equal(a, b);
}

void
record_sink_assert_same(const struct record_sink *a, const struct record_sink *b)
{
	size_t i;

	assert_int_equal(a->nfiles, b->nfiles);
	for (i = 0; i < a->nfiles; i++) {
		assert_int_equal(a->files[i].id, b->files[i].id);
		str_eq(a->files[i].path, b->files[i].path);
		str_eq(a->files[i].role, b->files[i].role);
		assert_int_equal(a->files[i].size, b->files[i].size);
	}
	assert_int_equal(a->ntraces, b->ntraces);
	for (i = 0; i < a->ntraces; i++) {
		const struct rs_trace *x = &a->traces[i], *y = &b->traces[i];

		assert_int_equal(x->loc.file, y->loc.file);
		assert_int_equal(x->loc.offset, y->loc.offset);
		str_eq(x->graph_id, y->graph_id);
		str_eq(x->op_name, y->op_name);
		str_eq(x->op_type, y->op_type);
		assert_int_equal(x->slot, y->slot);
		assert_int_equal(x->step, y->step);
		assert_memory_equal(&x->wall_time, &y->wall_time, sizeof(x->wall_time));
		assert_memory_equal(&x->summary, &y->summary, sizeof(x->summary));
	}
	assert_int_equal(a->nproblems, b->nproblems);
	for (i = 0; i < a->nproblems; i++) {
		assert_int_equal(a->problems[i].kind, b->problems[i].kind);
		assert_int_equal(a->problems[i].file, b->problems[i].file);
		str_eq(a->problems[i].path, b->problems[i].path);
		str_eq(a->problems[i].what, b->problems[i].what);
		str_eq(a->problems[i].detail, b->problems[i].detail);
	}
	assert_int_equal(a->nexecutions, b->nexecutions);
	for (i = 0; i < a->nexecutions; i++) {
		assert_int_equal(a->executions[i].loc.file, b->executions[i].loc.file);
		str_eq(a->executions[i].op_type, b->executions[i].op_type);
		assert_int_equal(a->executions[i].num_outputs, b->executions[i].num_outputs);
	}
	assert_int_equal(a->nops, b->nops);
	for (i = 0; i < a->nops; i++)
		str_eq(a->ops[i].op_name, b->ops[i].op_name);
	assert_int_equal(a->nmeta, b->nmeta);
	for (i = 0; i < a->nmeta; i++) {
		str_eq(a->meta[i].key, b->meta[i].key);
		str_eq(a->meta[i].value, b->meta[i].value);
	}
	assert_int_equal(a->progress_done, b->progress_done);
	assert_int_equal(a->progress_total, b->progress_total);
}
