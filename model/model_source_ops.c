/*
 * model_source_ops.c - from a source line to the ops created there (the
 * debugger's source view; the older CLI's `ps`).
 *
 * Ops keep their creation stack as frame ids; a frame knows its file's
 * source index.  One pass over the frames finds those of the file (their
 * lines), one pass over the ops' stacks counts.  Nothing is cached: a
 * pass costs ops x stack depth, done when a file is opened or asked for.
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

/* Per frame id: its line when it lies in source i, else 0.  *nf frames. */
static uint32_t *
frame_lines(struct model *m, uint32_t i, uint32_t *nf)
{
	uint32_t n = model_frame_count(m), f;
	uint32_t *v = xcalloc(n ? n : 1, sizeof(*v));
	struct model_frame fr;
	bool any = false;

	for (f = 0; f < n; f++)
		if (model_frame_get(m, f, &fr) && fr.source == (int64_t)i && fr.line) {
			v[f] = fr.line;
			any = true;
		}
	*nf = n;
	if (!any) {
		free(v);
		return NULL;
	}
	return v;
}

/* Calls fn(op, line) once per (op, line) of source i (lines from frame
 * ids with lines[] set). */
static void
each_op_line(struct model *m, const uint32_t *lines, uint32_t nf,
	     void (*fn)(void *ctx, uint32_t op, uint32_t line), void *ctx)
{
	uint32_t nops = model_op_count(m), id;
	struct model_op o;
	size_t k, j;

	for (id = 0; id < nops; id++) {
		if (!model_op_get(m, id, &o))
			continue;
		for (k = 0; k < o.nstack; k++) {
			uint32_t line = o.stack[k] < nf ? lines[o.stack[k]] : 0;
			bool dup = false;

			if (!line)
				continue;
			for (j = 0; j < k && !dup; j++)         /* once per op and line */
				dup = o.stack[j] < nf && lines[o.stack[j]] == line;
			if (!dup)
				fn(ctx, id, line);
		}
	}
}

struct op_list {
	uint32_t line;
	uint32_t *v;
	size_t n, cap;
};

static void
collect_op(void *ctx, uint32_t op, uint32_t line)
{
	struct op_list *l = ctx;

	if (line != l->line)
		return;
	TD_GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = op;
}

size_t
model_source_ops(struct model *m, uint32_t i, uint32_t line, uint32_t **ops)
{
	struct op_list l = { .line = line };
	uint32_t nf, *lines = frame_lines(m, i, &nf);

	*ops = NULL;
	if (!lines)
		return 0;
	each_op_line(m, lines, nf, collect_op, &l);
	free(lines);
	*ops = l.v;
	return l.n;
}

struct line_counts {
	uint32_t *v;
	size_t n, cap;
};

static void
count_line(void *ctx, uint32_t op, uint32_t line)
{
	struct line_counts *c = ctx;

	(void)op;
	if (line >= c->n) {
		TD_GROW(c->v, c->cap, (size_t)line + 1);
		memset(c->v + c->n, 0, ((size_t)line + 1 - c->n) * sizeof(*c->v));
		c->n = (size_t)line + 1;
	}
	c->v[line]++;
}

size_t
model_source_op_counts(struct model *m, uint32_t i, uint32_t **counts)
{
	struct line_counts c = { 0 };
	uint32_t nf, *lines = frame_lines(m, i, &nf);

	*counts = NULL;
	if (!lines)
		return 0;
	each_op_line(m, lines, nf, count_line, &c);
	free(lines);
	*counts = c.v;
	return c.n;
}
