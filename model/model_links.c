/*
 * model_links.c - links from a trace row to the rows of its producers and
 * consumers.
 *
 * TensorFlow records no edge from a trace to the trace that fed it; the
 * producer of an input is the latest earlier row of that (op, slot), the
 * consumer's row the first later row of that op (the
 * TensorFlow v2 reader's FORMAT.md, Links: time order is the only link).  The search is a scan
 * of the 4-byte op-reference array, chunk by chunk, bounded by the owning
 * execution's rows when the format has containers (session runs, graph
 * runs).  Input rows (op inputs dumped as rows) never count as producers.
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

/* Row j is an input row of its op with input slot slot (UINT32_MAX: any). */
static bool
input_slot_matches(struct model *m, uint64_t j, uint32_t slot)
{
	uint8_t f = trace_flags(m, j);

	if (!(f & TF_INPUT))
		return false;
	if (slot == UINT32_MAX)
		return true;
	if (TF_SLOT(f) == TF_SLOT_ESC)
		return rows_trace_slot(m, j) == slot;
	return TF_SLOT(f) == slot;
}

static bool
slot_matches(struct model *m, uint64_t j, uint32_t slot)
{
	uint8_t f = trace_flags(m, j);

	if (f & (TF_INPUT | TF_REPEAT))
		return false;
	if (slot == UINT32_MAX)
		return true;
	if (TF_SLOT(f) == TF_SLOT_ESC)
		return rows_trace_slot(m, j) == slot;
	return TF_SLOT(f) == slot;
}

/* The first and last trace rows of op; false if it has none. */
static bool
op_rows(struct model *m, uint32_t op, uint64_t *first, uint64_t *last)
{
	uint64_t f1 = 0;

	pthread_mutex_lock(&m->th.lock);
	if (op < m->ot.nops) {
		f1 = __atomic_load_n(&m->ot.opv[op].first_row1, __ATOMIC_RELAXED);
		*last = __atomic_load_n(&m->ot.opv[op].last_row, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&m->th.lock);
	*first = f1 ? f1 - 1 : 0;
	return f1 != 0;
}

/* With executions whose rows interleave, a link stays in row i's own
 * execution. */
static bool
same_execution(struct model *m, uint64_t j, int64_t e)
{
	bool same;

	if (e < 0 || !atomic_load(&m->rows.split_runs))
		return true;
	pthread_mutex_lock(&m->th.lock);
	same = rows_trace_execution(m, j) == e;
	pthread_mutex_unlock(&m->th.lock);
	return same;
}

/* Latest row j with lo <= j < from of (op, slot); -1 none.  The op's own
 * first and last rows bound the scan.  input: look for the op's input rows
 * of input slot slot instead of its outputs. */
static int64_t
scan_back_rows(struct model *m, uint32_t op, uint32_t slot, uint64_t from, uint64_t lo, int64_t e,
	       bool input)
{
	uint64_t j = from, first, last;

	/* a dump without input rows: nothing to find (and an op's whole row
	 * range to scan per question, once per alert in origins) */
	if ((input && !atomic_load(&m->rows.input_rows)) || !op_rows(m, op, &first, &last))
		return -1;
	lo = TD_MAX(lo, first);
	j = TD_MIN(j, last + 1);

	while (j > lo) {
		const uint32_t *a = m->rows.tchunks[(j - 1) >> MODEL_CHUNK_SHIFT]->op;
		uint64_t base = (j - 1) & ~(uint64_t)(MODEL_CHUNK - 1);
		uint64_t stop = TD_MAX(base, lo);

		for (; j > stop; j--)
			if (a[(j - 1) - base] == op &&
			    (input ? input_slot_matches(m, j - 1, slot) : slot_matches(m, j - 1, slot)) &&
			    same_execution(m, j - 1, e))
				return (int64_t)(j - 1);
	}
	return -1;
}

static int64_t
scan_back(struct model *m, uint32_t op, uint32_t slot, uint64_t from, uint64_t lo, int64_t e)
{
	return scan_back_rows(m, op, slot, from, lo, e, false);
}

/* The producer (op id, output slot) of input k of op; false if unknown. */
static bool
input_producer(struct model *m, uint32_t op, uint32_t k, uint32_t *pop, uint32_t *pslot)
{
	uint32_t id = NO_ID;

	pthread_mutex_lock(&m->th.lock);
	if (op < m->ot.nops && k < m->ot.opv[op].ninputs) {
		id = ops_lookup(m, m->ot.opv[op].graph_id, m->ot.opv[op].inputs[k].op_name);
		*pslot = m->ot.opv[op].inputs[k].slot;
	}
	pthread_mutex_unlock(&m->th.lock);
	*pop = id;
	return id != NO_ID;
}

int64_t
links_input_producer_row(struct model *m, uint32_t op, uint32_t k, uint64_t before, int64_t exec)
{
	uint32_t pop, pslot;
	int64_t j;

	if (!input_producer(m, op, k, &pop, &pslot))
		return -1;
	j = scan_back(m, pop, pslot, before, 0, exec);
	if (j >= 0 && exec >= 0) {
		pthread_mutex_lock(&m->th.lock);
		if (rows_trace_execution(m, (uint64_t)j) != exec)
			j = -1;
		pthread_mutex_unlock(&m->th.lock);
	}
	return j;
}

/* First row j with from < j < hi of (op, slot); -1 none. */
static int64_t
scan_fwd(struct model *m, uint32_t op, uint32_t slot, uint64_t from, uint64_t hi, int64_t e)
{
	uint64_t j = from + 1, first, last;

	if (!op_rows(m, op, &first, &last))
		return -1;
	hi = TD_MIN(hi, last + 1);
	j = TD_MAX(j, first);

	while (j < hi) {
		const uint32_t *a = m->rows.tchunks[j >> MODEL_CHUNK_SHIFT]->op;
		uint64_t base = j & ~(uint64_t)(MODEL_CHUNK - 1);
		uint64_t stop = TD_MIN(base + MODEL_CHUNK, hi);

		for (; j < stop; j++)
			if (a[j - base] == op && slot_matches(m, j, slot) && same_execution(m, j, e))
				return (int64_t)j;
	}
	return -1;
}

/* The rows [lo, hi) that may be linked with row i. */
static void
link_bounds(struct model *m, uint64_t i, uint64_t *lo, uint64_t *hi, int64_t *exec)
{
	int64_t e;

	*lo = 0;
	*hi = rows_ntraces(m);
	*exec = -1;
	if (!atomic_load(&m->rows.containers))
		return;
	pthread_mutex_lock(&m->th.lock);
	e = *exec = rows_trace_execution(m, i);
	pthread_mutex_unlock(&m->th.lock);
	if (e >= 0 && (uint64_t)e < rows_nexecs(m)) {
		struct exec_row *x = exec_row(m, (uint64_t)e);
		uint64_t first = __atomic_load_n(&x->first_trace, __ATOMIC_RELAXED);
		uint64_t n = __atomic_load_n(&x->ntraces, __ATOMIC_RELAXED);

		if (n && first <= i) {
			*lo = first;
			*hi = TD_MIN(*hi, first + n);
		}
	}
}

int64_t
model_trace_of_op(struct model *m, uint32_t op, uint32_t slot, uint64_t from, int dir)
{
	uint64_t n = rows_ntraces(m);

	if (dir > 0)
		return from >= n ? -1 : scan_fwd(m, op, slot, from, n, -1);
	return scan_back(m, op, slot, TD_MIN(from, n), 0, -1);
}

/* Input row i of op: the one tensor it shows, linked to its producer's
 * output row in the same step (-1 when the producer was not dumped). */
static size_t
input_row_producer(struct model *m, uint64_t i, uint32_t op, struct model_link **out)
{
	struct model_link *l;
	uint32_t k = rows_trace_slot(m, i), pop, pslot;
	uint64_t lo, hi;
	int64_t e;

	pthread_mutex_lock(&m->th.lock);
	if (op >= m->ot.nops || k >= m->ot.opv[op].ninputs) {
		pthread_mutex_unlock(&m->th.lock);
		return 0;
	}
	l = xcalloc(1, sizeof(*l));
	l->op_name = m->ot.opv[op].inputs[k].op_name;
	l->slot = m->ot.opv[op].inputs[k].slot;
	l->op = -1;
	l->op_type = "";
	l->trace_index = -1;
	pthread_mutex_unlock(&m->th.lock);
	if (input_producer(m, op, k, &pop, &pslot)) {
		l->op = pop;
		pthread_mutex_lock(&m->th.lock);
		l->op_type = m->ot.opv[pop].type;
		pthread_mutex_unlock(&m->th.lock);
		link_bounds(m, i, &lo, &hi, &e);
		l->trace_index = scan_back(m, pop, pslot, i, lo, e);
	}
	*out = l;
	return 1;
}

size_t
model_trace_inputs(struct model *m, uint64_t i, struct model_link **out)
{
	struct model_link *links = NULL;
	uint64_t lo, hi;
	size_t n = 0, k;
	uint32_t op;
	int64_t e;

	*out = NULL;
	if (i >= rows_ntraces(m))
		return 0;
	op = trace_op(m, i);
	if (trace_flags(m, i) & TF_INPUT)
		return input_row_producer(m, i, op, out);
	pthread_mutex_lock(&m->th.lock);
	if (op < m->ot.nops && m->ot.opv[op].ninputs) {
		const struct op_entry *o = &m->ot.opv[op];

		n = o->ninputs;
		links = xcalloc(n, sizeof(*links));
		for (k = 0; k < n; k++) {
			uint32_t id = ops_lookup(m, o->graph_id, o->inputs[k].op_name);

			links[k].op = id == NO_ID ? -1 : (int64_t)id;
			links[k].op_name = o->inputs[k].op_name;
			links[k].op_type = id == NO_ID ? "" : m->ot.opv[id].type;
			links[k].slot = o->inputs[k].slot;
			links[k].trace_index = -1;
		}
	}
	pthread_mutex_unlock(&m->th.lock);
	link_bounds(m, i, &lo, &hi, &e);
	for (k = 0; k < n; k++) {
		if (links[k].op >= 0)
			links[k].trace_index = scan_back(m, (uint32_t)links[k].op, links[k].slot, i,
							 lo, e);
		/* no dumped producer (a parameter, data): the op's own input row */
		if (links[k].trace_index < 0)
			links[k].trace_index = scan_back_rows(m, op, (uint32_t)k, i, lo, e, true);
	}
	*out = links;
	return n;
}

size_t
model_trace_consumers(struct model *m, uint64_t i, struct model_link **out)
{
	struct model_link *links = NULL;
	struct model_consumer *cons;
	size_t total, n = 0, k;
	uint64_t lo, hi;
	uint32_t op, slot;
	int64_t e;

	*out = NULL;
	if (i >= rows_ntraces(m))
		return 0;
	op = trace_op(m, i);
	slot = rows_trace_slot(m, i);
	total = model_op_consumers(m, op, NULL, 0);
	if (!total)
		return 0;
	cons = xcalloc(total, sizeof(*cons));
	total = TD_MIN(total, model_op_consumers(m, op, cons, total));
	links = xcalloc(total, sizeof(*links));
	pthread_mutex_lock(&m->th.lock);
	for (k = 0; k < total; k++) {
		if (cons[k].output_slot != slot || cons[k].op >= m->ot.nops)
			continue;
		links[n].op = cons[k].op;
		links[n].op_name = m->ot.opv[cons[k].op].name;
		links[n].op_type = m->ot.opv[cons[k].op].type;
		links[n].slot = cons[k].input_slot;
		links[n].trace_index = -1;
		n++;
	}
	pthread_mutex_unlock(&m->th.lock);
	free(cons);
	link_bounds(m, i, &lo, &hi, &e);
	for (k = 0; k < n; k++)
		links[k].trace_index = scan_fwd(m, (uint32_t)links[k].op, UINT32_MAX, i, hi, e);
	if (!n) {
		free(links);
		links = NULL;
	}
	*out = links;
	return n;
}
