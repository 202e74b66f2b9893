/*
 * model_origins.c - where the NaN/Inf started: origins versus propagation,
 * per step and host, and the path the bad values took.
 *
 * A non-finite trace row is an origin when its op made the bad values: every
 * input held a finite value when the op ran (each input's latest row before
 * it, as model_trace_inputs() links them; an op's own input rows, where the
 * dump records them, are what it read), or an input was never traced
 * (unknown: the origin says so), or the op has no inputs at all (a source:
 * the value came in from outside the graph).  A row with a non-finite input
 * carries the values on (propagation); a second record of the same value
 * (equal NaN/Inf counts, equal min/max where recorded) an earlier row of the
 * op already holds, with no new input since, is a repeat.  A row whose
 * value came through a link the graph's edges do not show (a call's input
 * or output, a variable, an input record: model_carry.c) is carried, and
 * goes back to where that value came from.  The origins listed are the
 * roots only: rows no recorded link explains.
 *
 * Steps and calls: model_origin_steps.c.  Everything here is computed on
 * request from the rows' flag bytes and the links; only rows whose
 * summaries are shown are decoded.  Causes and evidence are worded in
 * model_cause.c (carried rows in model_origin_carry.c).  The listing stops
 * at a work budget (rows, inputs and executions looked at) and says so.
 */
#include "model/analysis/model_origins_ctx.h"

#include <stdlib.h>
#include <string.h>

#define PATH_MAX_ROWS 4096          /* rows a path search visits at most */
#define BACK_MAX_STEPS 4096         /* steps back from a row to its origin */
#define OWN_INPUT_WINDOW 256        /* rows searched back for an op's own input rows */
#define OWN_INPUT_MAX 64            /* input records taken as an op's inputs */
#define FILL_DECODES 16             /* rows of a block of the columns decoded
				     * before the block is read (fill_row) */

_Static_assert(sizeof(struct model_origin) <= 2184, "model_origin grew: keep it compact");

/* ---- inputs ----------------------------------------------------------------- */

/* The first row of op the model has seen; 0 when none. */
static uint64_t
op_first_row(struct model *m, uint32_t op)
{
	uint64_t first, last;

	return model_op_rows(m, op, &first, &last) ? first : 0;
}

/* Trace row j's flags (ROW_*). */
static uint32_t
row_flags(struct model *m, uint64_t j)
{
	uint32_t f;

	model_trace_op_flags(m, j, &f);
	return f;
}

static uint32_t
row_op(struct model *m, uint64_t j)
{
	uint32_t f;

	return model_trace_op_flags(m, j, &f);
}

/* The op's own record of its input k read for output row i (an input row
 * just before i, after the op's previous output row); -1 none. */
static int64_t
own_input_row(struct model *m, uint32_t op, uint32_t k, uint64_t i)
{
	uint64_t lo, j;

	if (!model_traces_have_input_rows(m))
		return -1;      /* no input row anywhere: no window to scan */
	lo = op_first_row(m, op);
	if (i > OWN_INPUT_WINDOW)
		lo = TD_MAX(lo, i - OWN_INPUT_WINDOW);
	for (j = i; j > lo; j--) {
		uint32_t f;

		if (model_trace_op_flags(m, j - 1, &f) != op)
			continue;
		if (!(f & ROW_INPUT))
			return -1;      /* the op's previous output: no input rows since */
		if (model_trace_slot(m, j - 1) == k)
			return (int64_t)(j - 1);
	}
	return -1;
}

bool
origins_summary_finite(const struct td_summary *s)
{
	uint32_t counts = SUM_NAN | SUM_NEG_INF | SUM_POS_INF;

	if ((s->known & SUM_NONFINITE) && !s->has_inf_or_nan)
		return true;
	return (s->known & counts) == counts && !s->nan && !s->neg_inf && !s->pos_inf;
}

/* State of the value in row r (-1: unknown).  decode: fill *s. */
static enum model_input_state
row_state(struct model *m, int64_t r, struct td_summary *s, bool decode)
{
	struct model_row_decoded e;
	uint32_t f;

	memset(s, 0, sizeof(*s));
	if (r < 0)
		return INPUT_UNKNOWN;
	f = row_flags(m, (uint64_t)r);
	if ((f & ROW_NONFINITE) && !decode)
		return INPUT_NONFINITE;
	model_trace_decoded(m, (uint64_t)r, &e);
	*s = e.summary;
	if (e.corrupt)
		return INPUT_UNKNOWN;
	if ((f & ROW_NONFINITE) || td_summary_nonfinite(s))
		return INPUT_NONFINITE;
	return origins_summary_finite(s) ? INPUT_FINITE : INPUT_UNKNOWN;
}

struct op_facts {
	uint32_t op;
	bool known;                 /* described by the dump's graphs */
	size_t ninputs;
	const char *name, *type;
};

static void
op_facts(struct model *m, uint64_t i, struct op_facts *f)
{
	struct model_op_brief b;

	memset(f, 0, sizeof(*f));
	f->op = row_op(m, i);
	f->name = f->type = "";
	if (model_op_brief(m, f->op, &b)) {
		f->known = b.described;
		f->ninputs = b.ninputs;
		f->name = b.name;
		f->type = b.type;
	}
}

/* With no inputs in the dump's graphs: the op's own input records just
 * before output row i (after its previous output row), in slot order. */
static size_t
own_inputs(struct model *m, uint64_t i, const struct op_facts *of,
	   struct model_origin_input **out, bool decode)
{
	struct model_origin_input *in = NULL;
	uint64_t lo = op_first_row(m, of->op), j;
	size_t n = 0;

	if (!model_traces_have_input_rows(m) || (row_flags(m, i) & ROW_INPUT))
		return 0;
	if (i > OWN_INPUT_WINDOW)
		lo = TD_MAX(lo, i - OWN_INPUT_WINDOW);
	for (j = i; j > lo && n < OWN_INPUT_MAX; j--) {
		uint32_t f;

		if (model_trace_op_flags(m, j - 1, &f) != of->op)
			continue;
		if (!(f & ROW_INPUT))
			break;      /* the op's previous output */
		if (!in)
			in = xcalloc(OWN_INPUT_MAX, sizeof(*in));
		in[n].op_name = of->name;
		in[n].op_type = "";
		in[n].slot = model_trace_slot(m, j - 1);
		in[n].trace_index = (int64_t)(j - 1);
		in[n].state = row_state(m, in[n].trace_index, &in[n].summary, decode);
		n++;
	}
	/* found last slot first: slot order */
	for (j = 0; j < n / 2; j++) {
		struct model_origin_input t = in[j];

		in[j] = in[n - 1 - j];
		in[n - 1 - j] = t;
	}
	*out = in;
	return n;
}

/* The inputs of output row i's op with the rows they read.  decode: with
 * summaries and exact states (else flags only: NONFINITE is exact, the
 * rest may say UNKNOWN for FINITE). */
static size_t
row_inputs(struct model *m, uint64_t i, const struct op_facts *of,
	   struct model_origin_input **out, bool decode)
{
	struct model_link *links = NULL;
	struct model_origin_input *in;
	size_t n = model_trace_inputs(m, i, &links), k;

	*out = NULL;
	if (!n) {
		free(links);
		return own_inputs(m, i, of, out, decode);
	}
	in = xcalloc(n, sizeof(*in));
	for (k = 0; k < n; k++) {
		int64_t own = own_input_row(m, of->op, (uint32_t)k, i);

		in[k].op_name = links[k].op_name ? links[k].op_name : "";
		in[k].op_type = links[k].op_type ? links[k].op_type : "";
		in[k].slot = links[k].slot;
		in[k].trace_index = own >= 0 ? own : links[k].trace_index;
		in[k].state = row_state(m, in[k].trace_index, &in[k].summary, decode);
	}
	free(links);
	*out = in;
	return n;
}

/* ---- classification ------------------------------------------------------------ */

/* The latest earlier output row of the same (op, slot) in i's execution
 * bounds, -1 none. */
static int64_t
previous_same(struct octx *c, uint64_t i, uint32_t op, uint32_t slot)
{
	struct model *m = c->m;
	int64_t r = octx_prev_of_op(c, op, slot, i);
	struct model_row_keys k[2];
	uint64_t rows[2] = { i, 0 };

	if (r < 0 || !model_traces_name_executions(m))
		return r;
	rows[1] = (uint64_t)r;
	model_trace_keys(m, rows, 2, k);
	return k[0].execution == k[1].execution ? r : -1;
}

/* Op types whose values come from outside the graph (fed, stored, read or
 * drawn): with no inputs they are sources.  Other ops with no recorded
 * input have unknown inputs. */
static bool
source_type(const char *type)
{
	static const char list[] = "|Placeholder|PlaceholderWithDefault|Parameter|_Arg|Const|"
				   "Constant|VarHandleOp|VariableV2|Variable|IteratorGetNext|"
				   "IteratorGetNextSync|GetNext|Data|RandomUniform|"
				   "RandomStandardNormal|TruncatedNormal|";
	size_t n = type ? strlen(type) : 0;
	const char *p;

	for (p = n ? strstr(list, type) : NULL; p; p = strstr(p + 1, type))
		if (p[-1] == '|' && p[n] == '|')
			return true;
	return false;
}

/* Whether rows a and b record the same value: equal NaN/Inf counts and
 * element counts, and equal min, max and mean where both record them. */
static bool
same_value(struct model *m, uint64_t a, uint64_t b)
{
	uint32_t need = SUM_NAN | SUM_NEG_INF | SUM_POS_INF;
	struct model_row_decoded ea, eb;
	const struct td_summary *x = &ea.summary, *y = &eb.summary;
	uint32_t both;

	model_trace_decoded(m, a, &ea);
	model_trace_decoded(m, b, &eb);
	if (ea.corrupt || eb.corrupt || (x->known & need) != need || (y->known & need) != need)
		return false;
	if (x->nan != y->nan || x->neg_inf != y->neg_inf || x->pos_inf != y->pos_inf ||
	    x->elements != y->elements)
		return false;
	both = x->known & y->known;
	return !((both & SUM_MINMAX) && (x->min != y->min || x->max != y->max)) &&
	       !((both & SUM_MEAN) && x->mean != y->mean);
}

/* A link the graph's edges do not show: o becomes carried. */
static bool
carried(struct octx *c, uint64_t i, struct model_origin *o)
{
	struct carry_found f;

	if (!carry_find(octx_carry(c), i, &f))
		return false;
	o->role = ORIGIN_CARRIED;
	o->link = (uint8_t)f.link;
	o->via = f.via >= 0 && f.via <= INT32_MAX ? (int32_t)f.via : -1;
	free(o->from);
	o->from = xcalloc(1, sizeof(*o->from));
	o->from[0] = f.row;
	o->nfrom = 1;
	return true;
}

/* The first non-finite row a reader link says row i's value came from
 * (reader.h struct reader_link: a collective, a send/recv, a recorded
 * input), as a new one-element from list; NULL when none. */
static int64_t *
bad_peer(struct model *m, uint64_t i)
{
	uint64_t *peers;
	size_t np = model_trace_peers(m, i, &peers), k;
	int64_t *from = NULL;

	for (k = 0; k < np && !from; k++)
		if (row_flags(m, peers[k]) & ROW_NONFINITE) {
			from = xcalloc(1, sizeof(*from));
			from[0] = (int64_t)peers[k];
		}
	free(peers);
	return from;
}

/* An input record: the producer's row holds its value (a repeat of it),
 * or the row a reader link names, else a carried link, else the value came
 * from outside. */
static void
classify_input(struct octx *c, uint64_t i, const struct op_facts *of, struct model_origin *o,
	       bool decode)
{
	struct model *m = c->m;
	struct model_origin_input *in = NULL;
	size_t n = row_inputs(m, i, of, &in, decode), slot = model_trace_slot(m, i);

	/* an input row links to the one tensor it holds (its producer's
	 * row, or itself when none was dumped): that link is the input */
	if (n == 1)
		slot = 0;
	if (!(row_flags(m, i) & ROW_NONFINITE)) {
		free(in);
		return;
	}
	if (slot < n && in[slot].trace_index >= 0 && (uint64_t)in[slot].trace_index != i &&
	    row_flags(m, (uint64_t)in[slot].trace_index) & ROW_NONFINITE &&
	    !(row_flags(m, (uint64_t)in[slot].trace_index) & ROW_INPUT)) {
		o->role = ORIGIN_REPEAT;
		o->from = xcalloc(1, sizeof(*o->from));
		o->from[o->nfrom++] = in[slot].trace_index;
	} else if ((o->from = bad_peer(m, i)) != NULL) {
		o->role = ORIGIN_REPEAT;        /* the reader says which row held it */
		o->nfrom = 1;
	} else if (!carried(c, i, o)) {
		o->role = ORIGIN_ORIGIN;
		o->source_op = true;
		if (slot < n) {
			o->op_name = in[slot].op_name;
			o->op_type = in[slot].op_type;
			o->slot = in[slot].slot;
		}
	}
	free(in);
}

void
origins_classify(struct octx *c, uint64_t i, struct model_origin *o, bool decode)
{
	struct model *m = c->m;
	struct op_facts of;
	uint32_t f = row_flags(m, i);
	size_t k;

	op_facts(m, i, &of);
	o->origin = -1;
	o->via = -1;
	o->role = ORIGIN_FINITE;
	c->work++;
	if (f & ROW_INPUT) {
		classify_input(c, i, &of, o, decode);
		return;
	}
	o->ninputs = row_inputs(m, i, &of, &o->inputs, decode);
	c->work += o->ninputs;
	if (!(f & ROW_NONFINITE) && !(decode && td_summary_nonfinite(&o->summary)))
		return;
	for (k = 0; k < o->ninputs; k++) {
		if (o->inputs[k].state != INPUT_NONFINITE)
			continue;
		if (!o->from)
			o->from = xcalloc(o->ninputs, sizeof(*o->from));
		o->from[o->nfrom++] = o->inputs[k].trace_index;
	}
	if (!o->nfrom && (o->from = bad_peer(m, i)) != NULL)
		o->nfrom = 1;   /* a bad value from another host (reader links) */
	if (o->nfrom) {
		o->role = ORIGIN_PROPAGATION;
		return;
	}
	/* The same value recorded again with no input row since: a repeat.
	 * A different value (other NaN/Inf counts) is not, even when no
	 * traced input changed: an input never traced may have. */
	{
		int64_t prev = previous_same(c, i, of.op, model_trace_slot(m, i));
		bool newer = false;

		for (k = 0; k < o->ninputs; k++)
			newer |= o->inputs[k].trace_index > prev;
		if (prev >= 0 && (row_flags(m, (uint64_t)prev) & ROW_NONFINITE) && !newer &&
		    octx_row_step(c, (uint64_t)prev) == octx_row_step(c, i) &&
		    same_value(m, (uint64_t)prev, i)) {
			o->role = ORIGIN_REPEAT;
			o->from = xcalloc(1, sizeof(*o->from));
			o->from[o->nfrom++] = prev;
			return;
		}
	}
	if (carried(c, i, o))
		return;
	o->role = ORIGIN_ORIGIN;
	o->source_op = of.ninputs == 0 && source_type(of.type);
}

/* ---- paths ------------------------------------------------------------------------ */

/* From origin row i, the non-finite consumer rows reachable in its step;
 * the path to the last one (largest row), i first. */
static void
forward_path(struct octx *c, uint64_t i, int64_t step, struct model_origin *o)
{
	struct model *m = c->m;
	struct hashtab_u64 parent = {0};
	uint64_t *queue = xmalloc(PATH_MAX_ROWS * sizeof(*queue)), last = i, r, p;
	size_t head = 0, tail = 0, k, n;

	queue[tail++] = i;
	*hashtab_u64_put(&parent, i, i) = i;
	while (head < tail) {
		struct model_link *links = NULL;

		r = queue[head++];
		n = model_trace_consumers(m, r, &links);
		for (k = 0; k < n && tail < PATH_MAX_ROWS; k++) {
			int64_t t = links[k].trace_index;

			if (t < 0 || !(row_flags(m, (uint64_t)t) & ROW_NONFINITE) ||
			    hashtab_u64_get(&parent, (uint64_t)t, &p))
				continue;
			if (step >= 0 && octx_row_step(c, (uint64_t)t) != step)
				continue;
			*hashtab_u64_put(&parent, (uint64_t)t, r) = r;
			queue[tail++] = (uint64_t)t;
			last = TD_MAX(last, (uint64_t)t);
		}
		free(links);
	}
	/* Walk back from last to i. */
	n = 0;
	for (r = last;; r = p) {
		queue[n++] = r;
		if (r == i || !hashtab_u64_get(&parent, r, &p) || n >= PATH_MAX_ROWS)
			break;
	}
	o->path = xcalloc(n, sizeof(*o->path));
	for (k = 0; k < n; k++)
		o->path[k] = queue[n - 1 - k];
	o->npath = n;
	free(queue);
	hashtab_u64_done(&parent);
}

/* From a propagation / repeat row back to its origin through the earliest
 * non-finite input each time; the path origin first. */
static void
backward_path(struct octx *c, uint64_t i, struct model_origin *o)
{
	uint64_t *chain = xmalloc((BACK_MAX_STEPS + 1) * sizeof(*chain)), r = i;
	size_t n = 0, k;

	chain[n++] = i;
	while (n <= BACK_MAX_STEPS && c->work < MODEL_ORIGINS_BUDGET) {
		struct model_origin t = {0};
		int64_t next = -1;

		origins_classify(c, r, &t, false);
		if (t.role == ORIGIN_ORIGIN) {
			o->origin = (int64_t)r;
			model_origin_done(&t);
			break;
		}
		for (k = 0; k < t.nfrom; k++)
			if (t.from[k] >= 0 && (next < 0 || t.from[k] < next))
				next = t.from[k];
		model_origin_done(&t);
		if (next < 0 || (uint64_t)next >= r)
			break;
		r = (uint64_t)next;
		chain[n++] = r;
	}
	o->path = xcalloc(n, sizeof(*o->path));
	for (k = 0; k < n; k++)
		o->path[k] = chain[n - 1 - k];
	o->npath = n;
	free(chain);
}

/* ---- public --------------------------------------------------------------------------- */

void
model_origin_done(struct model_origin *o)
{
	if (!o)
		return;
	free(o->inputs);
	free(o->path);
	free(o->from);
	o->inputs = NULL;
	o->path = NULL;
	o->from = NULL;
	o->ninputs = o->npath = o->nfrom = 0;
}

void
model_origins_free(struct model_origin *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		model_origin_done(&v[i]);
	free(v);
}

/* Row facts shown with every answer: what model_trace_get gives.  Where
 * many rows of one block of the summary columns are explained (NaN in
 * every row from some row on), the summary and time come from the
 * columns (model_trace_fields: the decode's fields, which are all a
 * summary shows) rather than a decode of each record; the columns are
 * read a whole block at a time, so a block's first FILL_DECODES rows
 * (and rows far apart: a few a block) are decoded as before. */
static void
fill_row(struct octx *c, uint64_t i, struct model_origin *o)
{
	struct model_op_brief b;
	struct model_fields f;
	struct model_trace t;
	uint64_t blk = i / MODEL_FIELD_WINDOW;
	uint32_t fl, op;

	memset(o, 0, sizeof(*o));
	o->source = TABLE_TRACES;
	o->index = i;
	o->origin = -1;
	o->via = -1;
	if (blk + 1 != c->fill_block1) {
		c->fill_block1 = blk + 1;
		c->fill_n = 0;
	}
	if (c->fill_n < FILL_DECODES) {
		c->fill_n++;
		if (model_trace_get(c->m, i, &t) != TD_OK)
			return;
		o->op_name = t.op_name;
		o->op_type = t.op_type;
		o->slot = t.slot;
		o->host = t.host;
		o->wall_time = t.wall_time;
		o->summary = t.summary;
		o->step = octx_row_step(c, i);
		return;
	}
	if (i >= model_trace_count(c->m) || !model_trace_fields(c->m, i, UINT32_MAX, &f))
		return;
	op = model_trace_op_flags(c->m, i, &fl);
	o->op_name = o->op_type = "";
	if (model_op_brief(c->m, op, &b)) {
		o->op_name = b.name;
		o->op_type = b.type;
	}
	o->slot = model_trace_slot(c->m, i);
	o->host = model_host_name(c->m, octx_row_host(c, i));
	o->wall_time = f.wall_time;
	o->summary = f.s;
	o->step = octx_row_step(c, i);
}

void
origins_explain_row(struct octx *c, uint64_t i, struct model_origin *o)
{
	fill_row(c, i, o);
	origins_classify(c, i, o, true);
	if (o->role == ORIGIN_ORIGIN) {
		o->origin = (int64_t)i;
		forward_path(c, i, o->step, o);
	} else if (o->role != ORIGIN_FINITE) {
		backward_path(c, i, o);
	}
	if (o->role == ORIGIN_CARRIED) {
		origins_explain_carried(c, o);
		return;
	}
	origin_explain(o);
	/* an origin a link should have explained: say which record is missing */
	if (o->role == ORIGIN_ORIGIN && o->nevidence < MODEL_EVIDENCE_MAX &&
	    carry_missing(octx_carry(c), i, o->evidence[o->nevidence], MODEL_CAUSE_LEN))
		o->nevidence++;
}

enum td_status
model_why(struct model *m, uint64_t i, struct model_origin *o)
{
	struct octx c = { .m = m };

	memset(o, 0, sizeof(*o));
	if (i >= model_trace_count(m))
		return TD_ERR_RANGE;
	origins_explain_row(&c, i, o);
	octx_done(&c);
	return TD_OK;
}
