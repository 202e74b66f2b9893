/*
 * model_links.c - links from a trace row to the rows of its producers and
 * consumers (model_trace_inputs, model_trace_consumers, model_trace_of_op).
 *
 * The producer of an input is the latest earlier row of that (op, slot),
 * the consumer's row the first later row of that op, within the row's own
 * execution where the dump has containers (the scans and the bounds are
 * the model's: model_query.h, model/model_scan.c).  Input rows (op inputs
 * dumped as rows) never count as producers; an input with no dumped
 * producer links to the op's own input row.  Not for: the values that
 * cross outside the graph (model_trace_peers) or trees (model_tree.c).
 */
#include "model/model.h"

#include <stdlib.h>
#include <string.h>

int64_t
model_trace_of_op(struct model *m, uint32_t op, uint32_t slot, uint64_t from, int dir)
{
	uint64_t n = model_trace_count(m);

	if (dir > 0)
		return from >= n ? -1 : model_trace_scan_fwd(m, op, slot, from, n, -1);
	return model_trace_scan_back(m, op, slot, TD_MIN(from, n), 0, -1, false);
}

/* The op's type ("" unknown or past the ops). */
static const char *
op_type(struct model *m, int64_t op)
{
	struct model_op_brief b;

	return op >= 0 && model_op_brief(m, (uint32_t)op, &b) ? b.type : "";
}

/* Input row i of op: the one tensor it shows, linked to its producer's
 * output row in the same step (-1 when the producer was not dumped). */
static size_t
input_row_producer(struct model *m, uint64_t i, uint32_t op, struct model_link **out)
{
	struct model_link *l;
	uint32_t k = model_trace_slot(m, i), pslot = 0;
	const char *pname = NULL;
	int64_t pop = model_op_input(m, op, k, &pslot, &pname), e;
	uint64_t lo, hi;

	if (pop == -2)
		return 0;
	l = xcalloc(1, sizeof(*l));
	l->op_name = pname;
	l->slot = pslot;
	l->op = -1;
	l->op_type = "";
	l->trace_index = -1;
	if (pop >= 0) {
		l->op = pop;
		l->op_type = op_type(m, pop);
		model_trace_link_bounds(m, i, &lo, &hi, &e);
		l->trace_index = model_trace_scan_back(m, (uint32_t)pop, pslot, i, lo, e, false);
	}
	*out = l;
	return 1;
}

size_t
model_trace_inputs(struct model *m, uint64_t i, struct model_link **out)
{
	struct model_link *links = NULL;
	struct model_op_brief b;
	uint64_t lo, hi;
	size_t n = 0, k;
	uint32_t op, flags;
	int64_t e;

	*out = NULL;
	if (i >= model_trace_count(m))
		return 0;
	op = model_trace_op_flags(m, i, &flags);
	if (flags & ROW_INPUT)
		return input_row_producer(m, i, op, out);
	if (model_op_brief(m, op, &b) && b.ninputs) {
		n = b.ninputs;
		links = xcalloc(n, sizeof(*links));
		for (k = 0; k < n; k++) {
			uint32_t slot = 0;
			const char *name = NULL;
			int64_t id = model_op_input(m, op, (uint32_t)k, &slot, &name);

			links[k].op = id < 0 ? -1 : id;
			links[k].op_name = name;
			links[k].op_type = op_type(m, links[k].op);
			links[k].slot = slot;
			links[k].trace_index = -1;
		}
	}
	model_trace_link_bounds(m, i, &lo, &hi, &e);
	for (k = 0; k < n; k++) {
		if (links[k].op >= 0)
			links[k].trace_index = model_trace_scan_back(m, (uint32_t)links[k].op,
								     links[k].slot, i, lo, e, false);
		/* no dumped producer (a parameter, data): the op's own input row */
		if (links[k].trace_index < 0)
			links[k].trace_index = model_trace_scan_back(m, op, (uint32_t)k, i, lo, e, true);
	}
	*out = links;
	return n;
}

size_t
model_trace_consumers(struct model *m, uint64_t i, struct model_link **out)
{
	struct model_link *links = NULL;
	struct model_consumer *cons;
	struct model_op_brief b;
	size_t total, n = 0, k;
	uint64_t lo, hi;
	uint32_t op, slot, flags;
	int64_t e;

	*out = NULL;
	if (i >= model_trace_count(m))
		return 0;
	op = model_trace_op_flags(m, i, &flags);
	slot = model_trace_slot(m, i);
	total = model_op_consumers(m, op, NULL, 0);
	if (!total)
		return 0;
	cons = xcalloc(total, sizeof(*cons));
	total = TD_MIN(total, model_op_consumers(m, op, cons, total));
	links = xcalloc(total, sizeof(*links));
	for (k = 0; k < total; k++) {
		if (cons[k].output_slot != slot || !model_op_brief(m, cons[k].op, &b))
			continue;
		links[n].op = cons[k].op;
		links[n].op_name = b.name;
		links[n].op_type = b.type;
		links[n].slot = cons[k].input_slot;
		links[n].trace_index = -1;
		n++;
	}
	free(cons);
	model_trace_link_bounds(m, i, &lo, &hi, &e);
	for (k = 0; k < n; k++)
		links[k].trace_index = model_trace_scan_fwd(m, (uint32_t)links[k].op, UINT32_MAX, i,
							    hi, e);
	if (!n) {
		free(links);
		links = NULL;
	}
	*out = links;
	return n;
}
