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
 * carries the values on (propagation); a second record of a value an
 * earlier row already holds, with no new input since, is a repeat.
 *
 * Steps: the reader's step when it knows one, else the execution a row
 * belongs to, else the first function-call execution recorded at or after
 * the row's wall time on its host (a call is recorded when it returns,
 * after its graph's rows) whose graph holds the row's op; else unknown.
 *
 * Everything here is computed on request from the rows' flag bytes and the
 * links; only rows whose summaries are shown are decoded.  Causes and
 * evidence are worded in model_cause.c.
 */
#include "model_internal.h"

#include <stdlib.h>
#include <string.h>

#define PATH_MAX_ROWS 4096          /* rows a path search visits at most */
#define BACK_MAX_STEPS 4096         /* steps back from a row to its origin */
#define OWN_INPUT_WINDOW 256        /* rows searched back for an op's own input rows */

/* ---- steps ---------------------------------------------------------------- */

struct call {
	double wall;
	uint64_t exec;
	uint32_t host_sid;
	int32_t graph;
};

struct octx {
	struct model *m;
	struct call *calls;         /* function-call executions by wall time */
	size_t ncalls;
	bool have_calls;
};

static int
call_cmp(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->wall != y->wall)
		return x->wall < y->wall ? -1 : 1;
	return x->exec < y->exec ? -1 : x->exec > y->exec;
}

static void
calls_build(struct octx *c)
{
	struct model *m = c->m;
	uint64_t n = rows_nexecs(m), i;
	size_t cap = 0;

	c->have_calls = true;
	pthread_mutex_lock(&m->lock);
	for (i = 0; i < n; i++) {
		const struct exec_row *x = exec_row(m, i);

		if (!(__atomic_load_n(&x->flags, __ATOMIC_RELAXED) & ROW_FUNCTION) || x->wall_time <= 0)
			continue;
		TD_GROW(c->calls, cap, c->ncalls + 1);
		c->calls[c->ncalls].wall = x->wall_time;
		c->calls[c->ncalls].exec = i;
		c->calls[c->ncalls].host_sid = x->host < m->nhosts ? m->hosts[x->host] : 0;
		c->calls[c->ncalls].graph = graphs_index_of_sid(m, x->graph_sid);
		c->ncalls++;
	}
	pthread_mutex_unlock(&m->lock);
	if (c->ncalls)
		td_sort(c->calls, c->ncalls, sizeof(*c->calls), call_cmp);
}

static void
octx_done(struct octx *c)
{
	free(c->calls);
}

/* The function call recorded at or after wall on host whose graph holds
 * graph (any when either is unknown); -1 none. */
static int64_t
call_after(struct octx *c, double wall, uint32_t host_sid, int32_t graph)
{
	size_t lo = 0, hi, k;
	int64_t found = -1;

	if (!c->have_calls)
		calls_build(c);
	hi = c->ncalls;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->calls[mid].wall < wall)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < c->ncalls; k++) {
		if (host_sid && c->calls[k].host_sid && c->calls[k].host_sid != host_sid)
			continue;
		found = (int64_t)k;
		break;
	}
	if (found < 0)
		return -1;
	k = (size_t)found;
	if (graph >= 0 && c->calls[k].graph >= 0) {
		bool inside;

		pthread_mutex_lock(&c->m->lock);
		inside = graphs_is_inside(c->m, graph, c->calls[k].graph);
		pthread_mutex_unlock(&c->m->lock);
		if (!inside)
			return -1;
	}
	return (int64_t)c->calls[k].exec;
}


static int64_t
row_step(struct octx *c, uint64_t i)
{
	struct model *m = c->m;
	struct cache_ent e;
	uint32_t op = trace_op(m, i), host;
	int32_t graph = -1;
	int64_t s, x;

	pthread_mutex_lock(&m->lock);
	s = rows_trace_step(m, i);      /* the reader's own step */
	x = rows_trace_execution(m, i);
	host = rows_trace_host_sid(m, i);
	if (op < m->nops)
		graph = graphs_index_of_sid(m, m->opv[op].graph_sid);
	if (s < 0 && x >= 0 && (uint64_t)x < rows_nexecs(m))
		s = exec_row(m, (uint64_t)x)->step;
	pthread_mutex_unlock(&m->lock);
	if (s >= 0)
		return s;
	if (x >= 0)
		return x;
	rows_trace_decoded(m, i, &e);
	if (e.wall_time <= 0)
		return -1;
	return call_after(c, e.wall_time, host, graph);
}

int64_t
model_trace_step(struct model *m, uint64_t i)
{
	struct octx c = { .m = m };
	int64_t s;

	if (i >= rows_ntraces(m))
		return -1;
	s = row_step(&c, i);
	octx_done(&c);
	return s;
}

/* ---- inputs ----------------------------------------------------------------- */

/* The first row of op the model has seen; 0 when none. */
static uint64_t
op_first_row(struct model *m, uint32_t op)
{
	uint64_t f1 = 0;

	pthread_mutex_lock(&m->lock);
	if (op < m->nops)
		f1 = __atomic_load_n(&m->opv[op].first_row1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&m->lock);
	return f1 ? f1 - 1 : 0;
}

/* The op's own record of its input k read for output row i (an input row
 * just before i, after the op's previous output row); -1 none. */
static int64_t
own_input_row(struct model *m, uint32_t op, uint32_t k, uint64_t i)
{
	uint64_t lo = op_first_row(m, op), j;

	if (i > OWN_INPUT_WINDOW)
		lo = TD_MAX(lo, i - OWN_INPUT_WINDOW);
	for (j = i; j > lo; j--) {
		uint8_t f;

		if (trace_op(m, j - 1) != op)
			continue;
		f = trace_flags(m, j - 1);
		if (!(f & TF_INPUT))
			return -1;      /* the op's previous output: no input rows since */
		if (rows_trace_slot(m, j - 1) == k)
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
	struct cache_ent e;
	uint8_t f;

	memset(s, 0, sizeof(*s));
	if (r < 0)
		return INPUT_UNKNOWN;
	f = trace_flags(m, (uint64_t)r);
	if ((f & TF_NONFINITE) && !decode)
		return INPUT_NONFINITE;
	rows_trace_decoded(m, (uint64_t)r, &e);
	*s = e.summary;
	if (e.corrupt)
		return INPUT_UNKNOWN;
	if ((f & TF_NONFINITE) || td_summary_nonfinite(s))
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
	memset(f, 0, sizeof(*f));
	f->op = trace_op(m, i);
	f->name = f->type = "";
	pthread_mutex_lock(&m->lock);
	if (f->op < m->nops) {
		const struct op_entry *o = &m->opv[f->op];

		f->known = !o->placeholder;
		f->ninputs = o->ninputs;
		f->name = o->name;
		f->type = o->type;
	}
	pthread_mutex_unlock(&m->lock);
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
		return 0;
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
previous_same(struct model *m, uint64_t i, uint32_t op, uint32_t slot)
{
	int64_t r = model_trace_of_op(m, op, slot, i, -1);
	int64_t xi, xr;

	if (r < 0 || !atomic_load(&m->containers))
		return r;
	pthread_mutex_lock(&m->lock);
	xi = rows_trace_execution(m, i);
	xr = rows_trace_execution(m, (uint64_t)r);
	pthread_mutex_unlock(&m->lock);
	return xi == xr ? r : -1;
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

/* The first non-finite row a reader link says row i's value came from
 * (reader.h struct reader_link: a collective, a send/recv, a recorded
 * input), as a new one-element from list; NULL when none. */
static int64_t *
bad_peer(struct model *m, uint64_t i)
{
	uint64_t *peers;
	size_t np = peers_of_row(m, i, &peers), k;
	int64_t *from = NULL;

	for (k = 0; k < np && !from; k++)
		if (trace_flags(m, peers[k]) & TF_NONFINITE) {
			from = xcalloc(1, sizeof(*from));
			from[0] = (int64_t)peers[k];
		}
	free(peers);
	return from;
}

/* Fills o's role, inputs, from / origin links for row i (no path, no
 * cause).  decode: summaries of the inputs. */
static void
classify(struct octx *c, uint64_t i, struct model_origin *o, bool decode)
{
	struct model *m = c->m;
	struct op_facts of;
	uint8_t f = trace_flags(m, i);
	size_t k;

	op_facts(m, i, &of);
	o->origin = -1;
	o->role = ORIGIN_FINITE;
	if (f & TF_INPUT) {
		/* A record of the value an op read: the producer's row holds it. */
		struct model_origin_input *in = NULL;
		size_t n = row_inputs(m, i, &of, &in, decode), slot = rows_trace_slot(m, i);

		/* an input row links to the one tensor it holds (its producer's
		 * row, or itself when none was dumped): that link is the input */
		if (n == 1)
			slot = 0;

		if (!(f & TF_NONFINITE)) {
			free(in);
			return;
		}
		if (slot < n && in[slot].trace_index >= 0 && (uint64_t)in[slot].trace_index != i &&
		    trace_flags(m, (uint64_t)in[slot].trace_index) & TF_NONFINITE &&
		    !(trace_flags(m, (uint64_t)in[slot].trace_index) & TF_INPUT)) {
			o->role = ORIGIN_REPEAT;
			o->from = xcalloc(1, sizeof(*o->from));
			o->from[o->nfrom++] = in[slot].trace_index;
		} else if ((o->from = bad_peer(m, i)) != NULL) {
			o->role = ORIGIN_REPEAT;     /* the reader says which row held it */
			o->nfrom = 1;
		} else {
			o->role = ORIGIN_ORIGIN;
			o->source_op = true;
			if (slot < n) {
				o->op_name = in[slot].op_name;
				o->op_type = in[slot].op_type;
				o->slot = in[slot].slot;
			}
		}
		free(in);
		return;
	}
	o->ninputs = row_inputs(m, i, &of, &o->inputs, decode);
	if (!(f & TF_NONFINITE) && !(decode && td_summary_nonfinite(&o->summary)))
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
	/* Same tensor recorded again with no input row since: a repeat. */
	{
		int64_t prev = previous_same(m, i, of.op, rows_trace_slot(m, i));
		bool newer = false;

		for (k = 0; k < o->ninputs; k++)
			newer |= o->inputs[k].trace_index > prev;
		if (prev >= 0 && (trace_flags(m, (uint64_t)prev) & TF_NONFINITE) && !newer &&
		    row_step(c, (uint64_t)prev) == row_step(c, i)) {
			o->role = ORIGIN_REPEAT;
			o->from = xcalloc(1, sizeof(*o->from));
			o->from[o->nfrom++] = prev;
			return;
		}
	}
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
	struct u64map parent = {0};
	uint64_t *queue = xcalloc(PATH_MAX_ROWS, sizeof(*queue)), last = i, r, p;
	size_t head = 0, tail = 0, k, n;

	queue[tail++] = i;
	*u64map_put(&parent, i, i) = i;
	while (head < tail) {
		struct model_link *links = NULL;

		r = queue[head++];
		n = model_trace_consumers(m, r, &links);
		for (k = 0; k < n && tail < PATH_MAX_ROWS; k++) {
			int64_t t = links[k].trace_index;

			if (t < 0 || !(trace_flags(m, (uint64_t)t) & TF_NONFINITE) ||
			    u64map_get(&parent, (uint64_t)t, &p))
				continue;
			if (step >= 0 && row_step(c, (uint64_t)t) != step)
				continue;
			*u64map_put(&parent, (uint64_t)t, r) = r;
			queue[tail++] = (uint64_t)t;
			last = TD_MAX(last, (uint64_t)t);
		}
		free(links);
	}
	/* Walk back from last to i. */
	n = 0;
	for (r = last;; r = p) {
		queue[n++] = r;
		if (r == i || !u64map_get(&parent, r, &p) || n >= PATH_MAX_ROWS)
			break;
	}
	o->path = xcalloc(n, sizeof(*o->path));
	for (k = 0; k < n; k++)
		o->path[k] = queue[n - 1 - k];
	o->npath = n;
	free(queue);
	u64map_done(&parent);
}

/* From a propagation / repeat row back to its origin through the earliest
 * non-finite input each time; the path origin first. */
static void
backward_path(struct octx *c, uint64_t i, struct model_origin *o)
{
	uint64_t *chain = xcalloc(BACK_MAX_STEPS + 1, sizeof(*chain)), r = i;
	size_t n = 0, k;

	chain[n++] = i;
	while (n <= BACK_MAX_STEPS) {
		struct model_origin t = {0};
		int64_t next = -1;

		classify(c, r, &t, false);
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

/* Row facts shown with every answer. */
static void
fill_row(struct octx *c, uint64_t i, struct model_origin *o)
{
	struct model_trace t;

	memset(o, 0, sizeof(*o));
	o->source = TABLE_TRACES;
	o->index = i;
	o->origin = -1;
	if (model_trace_get(c->m, i, &t) != TD_OK)
		return;
	o->op_name = t.op_name;
	o->op_type = t.op_type;
	o->slot = t.slot;
	o->host = t.host;
	o->wall_time = t.wall_time;
	o->summary = t.summary;
	o->step = row_step(c, i);
}

static void
explain(struct octx *c, uint64_t i, struct model_origin *o)
{
	fill_row(c, i, o);
	classify(c, i, o, true);
	if (o->role == ORIGIN_ORIGIN) {
		o->origin = (int64_t)i;
		forward_path(c, i, o->step, o);
	} else if (o->role != ORIGIN_FINITE) {
		backward_path(c, i, o);
	}
	origin_explain(o);
}

enum td_status
model_why(struct model *m, uint64_t i, struct model_origin *o)
{
	struct octx c = { .m = m };

	memset(o, 0, sizeof(*o));
	if (i >= rows_ntraces(m))
		return TD_ERR_RANGE;
	explain(&c, i, o);
	octx_done(&c);
	return TD_OK;
}

/* Eager executions (not function calls, not containers) with bad outputs:
 * origins whose inputs are not linked to rows. */
static void
exec_origin(struct model *m, uint64_t x, struct model_origin *o)
{
	struct model_execution e;
	struct model_detail d = {0};
	size_t k;

	memset(o, 0, sizeof(*o));
	o->role = ORIGIN_ORIGIN;
	o->source = TABLE_EXECUTIONS;
	o->index = x;
	o->origin = (int64_t)x;
	o->step = -1;
	if (model_execution_get(m, x, &e) != TD_OK)
		return;
	o->op_name = o->op_type = e.op_type;
	o->host = e.host;
	o->wall_time = e.wall_time;
	if (model_execution_detail(m, x, &d) == TD_OK) {
		for (k = 0; d.summaries && k < d.noutputs; k++) {
			if (td_summary_nonfinite(&d.summaries[k])) {
				o->slot = (uint32_t)k;
				o->summary = d.summaries[k];
				break;
			}
		}
	}
	model_detail_done(&d);
	origin_explain(o);
}

static bool
origin_before(const struct model_origin *a, const struct model_origin *b)
{
	if ((a->wall_time > 0) != (b->wall_time > 0))
		return a->wall_time > 0;
	if (a->wall_time != b->wall_time)
		return a->wall_time < b->wall_time;
	if (a->source != b->source)
		return a->source == TABLE_TRACES;
	return a->index < b->index;
}

static int
origin_cmp(const void *a, const void *b)
{
	const struct model_origin *x = a, *y = b;

	return origin_before(x, y) ? -1 : origin_before(y, x);
}

/* Origins found per host (the per_host limit). */
struct host_count {
	uint32_t sid;
	size_t n;
};

/* The count slot of host sid (added at 0). */
static size_t *
host_slot(struct host_count **v, size_t *n, size_t *cap, uint32_t sid)
{
	size_t k;

	for (k = 0; k < *n; k++)
		if ((*v)[k].sid == sid)
			return &(*v)[k].n;
	TD_GROW(*v, *cap, *n + 1);
	(*v)[*n].sid = sid;
	(*v)[*n].n = 0;
	return &(*v)[(*n)++].n;
}

static bool
host_matches(struct model *m, const char *want, uint32_t host_sid)
{
	const char *h;

	if (!want)
		return true;
	h = intern_str(&m->str, host_sid);
	return h && strcmp(h, want) == 0;
}

size_t
model_origins(struct model *m, const struct model_origins_query *q, struct model_origin **out)
{
	struct octx c = { .m = m };
	struct model_origin *v = NULL;
	uint64_t nt = rows_ntraces(m), ne, ch, j, end;
	size_t n = 0, cap = 0;
	int64_t step = q ? q->step : -1;
	const char *host = q ? q->host : NULL;
	size_t limit = q ? q->per_host : 0, nhc = 0, caphc = 0, *cnt = NULL;
	struct host_count *hc = NULL;

	for (ch = 0; (ch << MODEL_CHUNK_SHIFT) < nt; ch++) {
		if (!__atomic_load_n(&m->tnonfinite[ch], __ATOMIC_RELAXED))
			continue;
		end = TD_MIN(nt, (ch + 1) << MODEL_CHUNK_SHIFT);
		for (j = ch << MODEL_CHUNK_SHIFT; j < end; j++) {
			struct model_origin t;
			uint32_t hs;

			if (!(trace_flags(m, j) & TF_NONFINITE))
				continue;
			/* zeroed here, not per row: it is kilobytes (a memset per
			 * row was most of origins at ten million rows) */
			memset(&t, 0, sizeof t);
			if (host || limit) {
				pthread_mutex_lock(&m->lock);
				hs = rows_trace_host_sid(m, j);
				pthread_mutex_unlock(&m->lock);
				if (!host_matches(m, host, hs))
					continue;
				cnt = limit ? host_slot(&hc, &nhc, &caphc, hs) : NULL;
				if (cnt && *cnt >= limit)
					continue;
			}
			classify(&c, j, &t, false);
			if (t.role != ORIGIN_ORIGIN || (step >= 0 && row_step(&c, j) != step)) {
				model_origin_done(&t);
				continue;
			}
			model_origin_done(&t);
			TD_GROW(v, cap, n + 1);
			explain(&c, j, &v[n++]);
			if (cnt)
				(*cnt)++;
		}
	}
	ne = atomic_load(&m->containers) ? 0 : rows_nexecs(m);
	for (j = 0; j < ne && step < 0; j++) {
		const struct exec_row *x = exec_row(m, j);
		uint32_t hs;

		if (!x->bad_outputs || (__atomic_load_n(&x->flags, __ATOMIC_RELAXED) & ROW_FUNCTION))
			continue;
		pthread_mutex_lock(&m->lock);
		hs = x->host < m->nhosts ? m->hosts[x->host] : 0;
		pthread_mutex_unlock(&m->lock);
		if (!host_matches(m, host, hs))
			continue;
		cnt = limit ? host_slot(&hc, &nhc, &caphc, hs) : NULL;
		if (cnt && (*cnt)++ >= limit)
			continue;
		TD_GROW(v, cap, n + 1);
		exec_origin(m, j, &v[n++]);
	}
	free(hc);
	octx_done(&c);
	if (n > 1)
		td_sort(v, n, sizeof(*v), origin_cmp);
	*out = v;
	return n;
}
