/*
 * model_filter.c - PCRE2 filters over the trace table and the timeline.
 *
 * A regex runs once per distinct op (traces) or per distinct op-type string
 * (executions), never once per row: the answer is cached in a per-op state
 * array, extended as ops arrive.  Rows are then matched by a byte lookup,
 * and matches are counted per block of FBLOCK rows (incrementally, as
 * rows arrive), so nth/rank over ten million rows walk a few hundred counts
 * and scan one chunk.  An op evaluated while it was a placeholder (type not
 * known yet) is evaluated again once the model fills any placeholder.
 *
 * A `where` condition is decided per op first (op name, type and role);
 * only rows of ops it leaves open are evaluated one by one, decoding a row
 * only when a summary field is reached, and the answer is kept at two bits
 * per row, so a listing that counts and then walks its matches decodes
 * each row once.  Rows whose answer is unknown are counted apart; so are
 * the rows of an op whose name or type the regex could not decide within
 * PCRE2's match limits (model_regex.h), never taken as "no match".  A
 * condition on summary fields, op names and types is answered a window
 * of rows at a time from the summary columns instead
 * (model_filter_window.c), with the same answers.
 *
 * It asks the model only through its public API (model_query.h): op briefs
 * in batches, a row's file span and its host, executions' keys a window at
 * a time, so a scan takes no lock per row that it did not take before.
 */
#include "model/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_filter_priv.h"
#include "model/analysis/model_where.h"
#include "model/model_expr.h"
#include "model/model_query.h"
#include "model/model_regex.h"

static enum td_status
compile(const char *what, const char *re, pcre2_code **out, char *err, size_t errlen)
{
	int code;
	PCRE2_SIZE off;
	PCRE2_UCHAR msg[256];

	*out = NULL;
	if (!re || !*re)
		return TD_OK;
	*out = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
	if (!*out) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		snprintf(err, errlen, "%s regex \"%s\": %s at offset %zu", what, re, (char *)msg,
			 (size_t)off);
		return TD_ERR_REGEX;
	}
	/* No JIT: a regex runs once per distinct name, not per row. */
	return TD_OK;
}

static enum td_status
where_compile(const char *text, struct expr **out, char *err, size_t errlen)
{
	char why[400];
	enum td_status st = expr_parse(text, out, why, sizeof why);

	if (st != TD_OK)
		snprintf(err, errlen, "where \"%s\": %s", text, why);
	return st;
}

static void
describe(struct model_filter *f, const struct model_filter_spec *spec)
{
	struct strbuf sb = {0};

	if (spec->op_regex && *spec->op_regex)
		strbuf_addf(&sb, " op=%s", spec->op_regex);
	if (spec->type_regex && *spec->type_regex)
		strbuf_addf(&sb, " type=%s", spec->type_regex);
	if (spec->nonfinite)
		strbuf_adds(&sb, " nonfinite");
	if (spec->graph >= 0) {
		struct model_graph g;

		if (model_graph_get(f->m, (uint32_t)spec->graph, &g))
			strbuf_addf(&sb, " graph=%s", *g.name ? g.name : g.graph_id);
		else
			strbuf_addf(&sb, " graph=%d", spec->graph);
	}
	if (spec->execution >= 0)
		strbuf_addf(&sb, " execution=%lld", (long long)spec->execution);
	if (spec->host)
		strbuf_addf(&sb, " host=%s", spec->host);
	if (spec->where && *spec->where)
		strbuf_addf(&sb, " where=%s", spec->where);
	f->desc = xstrdup(sb.len ? sb.buf + 1 : "");
	strbuf_done(&sb);
}

enum td_status
model_filter_new(struct model *m, const struct model_filter_spec *spec, struct model_filter **out,
		 char *err, size_t errlen)
{
	struct model_filter *f = xcalloc(1, sizeof(*f));
	enum td_status st;

	*out = NULL;
	f->m = m;
	f->same_state = -1;
	f->same_dirty = true;
	st = compile("op", spec->op_regex, &f->op_re, err, errlen);
	if (st == TD_OK)
		st = compile("type", spec->type_regex, &f->type_re, err, errlen);
	if (st == TD_OK && spec->where && *spec->where)
		st = where_compile(spec->where, &f->where, err, errlen);
	if (st == TD_OK && f->where)
		f->where_window = where_window_able(f->where);
	if (st != TD_OK) {
		model_filter_free(f);
		return st;
	}
	f->md = pcre2_match_data_create(4, NULL);
	f->nonfinite = spec->nonfinite;
	f->graph = spec->graph;
	f->execution = spec->execution;
	f->host = spec->host ? xstrdup(spec->host) : NULL;
	describe(f, spec);
	*out = f;
	return TD_OK;
}

void
model_filter_free(struct model_filter *f)
{
	if (!f)
		return;
	pcre2_code_free(f->op_re);
	pcre2_code_free(f->type_re);
	pcre2_match_data_free(f->md);
	free(f->host);
	free(f->desc);
	free(f->op_state);
	free(f->str_state);
	expr_free(f->where);
	where_window_free(f->fwin);
	for (size_t t = 0; t < TD_ARRAY_SIZE(f->tab); t++) {
		free(f->tab[t].cnt);
		free(f->tab[t].wrow);
	}
	free(f);
}

const char *
model_filter_describe(const struct model_filter *f)
{
	return f ? f->desc : "";
}

static enum model_regex_result
re_match(struct model_filter *f, pcre2_code *re, const char *s)
{
	enum model_regex_result r;

	if (!re)
		return MODEL_REGEX_MATCH;
	r = model_regex_match(re, s, strlen(s), f->md);
	f->undecided += r == MODEL_REGEX_UNDECIDED;
	return r;
}

/* The op and type regexes on a name and type: ST_NO, ST_MATCH or
 * ST_MATCH | ST_UNDECIDED (neither said no, one could not decide). */
static uint8_t
re_state(struct model_filter *f, const char *name, const char *type)
{
	enum model_regex_result a = re_match(f, f->op_re, name), b;

	if (a == MODEL_REGEX_NO || (b = re_match(f, f->type_re, type)) == MODEL_REGEX_NO)
		return ST_NO;
	return a == MODEL_REGEX_UNDECIDED || b == MODEL_REGEX_UNDECIDED ? ST_MATCH | ST_UNDECIDED :
									  ST_MATCH;
}

/* ---- per-op and per-string states ----------------------------------- */

static uint8_t
eval_op(struct model_filter *f, const struct model_op_brief *o)
{
	uint8_t re = re_state(f, o->name, o->type), st;
	bool ok = re != ST_NO;

	if (ok && f->graph >= 0)
		ok = model_graph_inside(f->m, o->graph, f->graph);
	st = ok ? ST_MATCH : ST_NO;
	if (ok && f->where) {
		enum expr_result r = where_op(f->where, f->m, o->name, o->type);

		st = r == EXPR_TRUE ? ST_MATCH : r == EXPR_FALSE ? ST_NO : ST_ROWS;
	}
	if (st != ST_NO)
		st |= re & ST_UNDECIDED;
	return (uint8_t)(st | (o->described ? 0 : ST_PROVISIONAL));
}

/* Evaluates ops not seen yet; drops provisional answers once placeholders
 * were filled (then trace counts are recounted). */
static void
ensure_ops(struct model_filter *f)
{
	struct model_op_brief b[256];
	uint64_t gen;
	uint32_t nops = model_ops_filled(f->m, &gen);
	size_t i, k, n = 0;

	/* gen is read before the briefs: an op filled after it is seen
	 * filled now and its answer dropped once more next time (harmless). */
	if (gen == f->fill_gen && nops == f->nop_state && f->ops_all_known)
		return;                 /* asked again with nothing new: no op to walk */
	f->op_walks++;
	if (gen != f->fill_gen) {
		for (i = 0; i < f->nop_state; i++)
			if (f->op_state[i] & ST_PROVISIONAL)
				f->op_state[i] = ST_UNKNOWN;
		f->same_dirty = true;
		if (f->tab[TABLE_TRACES].cnt)       /* NULL until the first count */
			memset(f->tab[TABLE_TRACES].cnt, 0,
			       f->tab[TABLE_TRACES].capcnt * sizeof(struct fcount));
		if (f->tab[TABLE_TRACES].wrow)      /* an op's type may decide rows */
			memset(f->tab[TABLE_TRACES].wrow, 0, f->tab[TABLE_TRACES].capw);
		f->tab[TABLE_TRACES].memo_valid = false;
		f->fill_gen = gen;
	}
	if (nops > f->nop_state) {
		TD_GROW(f->op_state, f->capop, nops);
		memset(f->op_state + f->nop_state, 0, nops - f->nop_state);
		f->nop_state = nops;
		f->same_dirty = true;
	}
	for (i = 0; i < f->nop_state; i += TD_ARRAY_SIZE(b)) {
		for (k = i; k < f->nop_state && k < i + TD_ARRAY_SIZE(b); k++)
			if (f->op_state[k] == ST_UNKNOWN)
				break;
		if (k == f->nop_state || k >= i + TD_ARRAY_SIZE(b))
			continue;       /* nothing to evaluate in this batch */
		n = model_op_briefs(f->m, (uint32_t)i, TD_ARRAY_SIZE(b), b);
		for (k = 0; k < n && i + k < f->nop_state; k++)
			if (f->op_state[i + k] == ST_UNKNOWN) {
				f->op_state[i + k] = eval_op(f, &b[k]);
				f->same_dirty = true;
			}
	}
	/* eval_op never answers ST_UNKNOWN; an op model_op_briefs did not
	 * give (none here: nops is what it holds) stays to be walked */
	f->ops_all_known = true;
	f->any_rows_op = false;
	for (i = 0; i < f->nop_state; i++) {
		f->ops_all_known &= f->op_state[i] != ST_UNKNOWN;
		f->any_rows_op |= (f->op_state[i] & 3) == ST_ROWS;
	}
}

/* R_MATCH, R_NO or R_UNKNOWN (a regex could not decide) for an op type. */
static int
exec_type_match(struct model_filter *f, uint32_t sid, const char *s)
{
	if (sid >= f->nstr_state) {
		size_t n = sid + 1;

		TD_GROW(f->str_state, f->capstr, n);
		memset(f->str_state + f->nstr_state, 0, n - f->nstr_state);
		f->nstr_state = n;
	}
	if (f->str_state[sid] == ST_UNKNOWN)
		f->str_state[sid] = re_state(f, s, s);
	return f->str_state[sid] == ST_NO ? R_NO :
	       f->str_state[sid] & ST_UNDECIDED ? R_UNKNOWN : R_MATCH;
}

/* ---- row matching ------------------------------------------------------ */

static bool
host_match(struct model_filter *f, uint64_t j, struct host_cursor *hc)
{
	struct model *m = f->m;
	uint32_t file, host;

	if (!hc->valid || j < hc->row || j >= hc->next_row) {
		hc->valid = model_trace_span(m, j, &hc->row, &hc->next_row, &file);
		if (!hc->valid)
			return false;
		if (file != hc->file)
			hc->file_match = -1;
		hc->file = file;
	}
	if (hc->file_match < 0)
		hc->file_match = model_file_host(m, hc->file, &host) ?
					 strcmp(model_host_name(m, host), f->host) == 0 : 2;
	if (hc->file_match != 2)
		return hc->file_match == 1;
	return strcmp(model_host_name(m, model_trace_host(m, j)), f->host) == 0;
}


static void
trace_bounds(struct model_filter *f, struct trace_bounds *b)
{
	b->lo = 0;
	b->hi = UINT64_MAX;
	b->split_runs = model_traces_split_runs(f->m);
	if (f->execution >= 0) {
		struct model_exec_keys x;

		b->hi = 0;
		if (model_execution_keys(f->m, (uint64_t)f->execution, 1, &x) == 1) {
			b->lo = x.first_trace;
			b->hi = b->lo + x.ntraces;
		}
	}
}

/* The where answer of row j of table t, from the 2-bit cache or evaluated
 * (and kept). */
void
filter_wrow_reserve(struct filter_table *tb, uint64_t j)
{
	size_t byte = (size_t)(j >> 2);

	if (byte >= tb->capw) {
		size_t old = tb->capw;

		TD_GROW(tb->wrow, tb->capw, byte + 1);
		memset(tb->wrow + old, 0, tb->capw - old);
	}
}

static int
where_row(struct model_filter *f, enum model_table t, uint64_t j)
{
	size_t byte = (size_t)(j >> 2);
	unsigned shift = (unsigned)(j & 3) * 2, w;
	enum expr_result r;

	filter_wrow_reserve(&f->tab[t], j);
	w = (f->tab[t].wrow[byte] >> shift) & 3;
	if (w == W_NONE) {
		r = t == TABLE_TRACES ? where_trace(f->m, f->where, j) : where_exec(f->m, f->where, j);
		w = r == EXPR_TRUE ? W_MATCH : r == EXPR_FALSE ? W_NO : W_UNKNOWN;
		f->tab[t].wrow[byte] |= (uint8_t)(w << shift);
	}
	return w == W_MATCH ? R_MATCH : w == W_NO ? R_NO : R_UNKNOWN;
}

int
filter_trace_match(struct model_filter *f, uint64_t j, const struct trace_bounds *b,
		   struct host_cursor *hc)
{
	uint32_t flags, op = model_trace_op_flags(f->m, j, &flags);
	uint8_t st;
	int r;

	if (j < b->lo || j >= b->hi)
		return R_NO;
	if (f->execution >= 0 && b->split_runs) {
		struct model_row_keys k;

		model_trace_keys(f->m, &j, 1, &k);
		if (k.execution != f->execution)
			return R_NO;
	}
	if (op >= f->nop_state || ((st = f->op_state[op] & 3) != ST_MATCH && st != ST_ROWS))
		return R_NO;
	if (f->nonfinite && !(flags & ROW_NONFINITE))
		return R_NO;
	if (f->host && !host_match(f, j, hc))
		return R_NO;
	r = st == ST_ROWS ? where_row(f, TABLE_TRACES, j) : R_MATCH;
	return r == R_MATCH && (f->op_state[op] & ST_UNDECIDED) ? R_UNKNOWN : r;
}

/* Execution j's keys from the window w, refilled around j when j is
 * outside it; NULL past the executions. */
static const struct model_exec_keys *
exec_keys(struct model_filter *f, struct exec_window *w, uint64_t j)
{
	if (j < w->first || j >= w->first + w->n) {
		w->first = j & ~(uint64_t)(EXWIN - 1);
		w->n = model_execution_keys(f->m, w->first, EXWIN, w->k);
		if (j >= w->first + w->n)
			return NULL;
	}
	return &w->k[j - w->first];
}

static int
exec_match(struct model_filter *f, uint64_t j, struct exec_window *w)
{
	const struct model_exec_keys *x = exec_keys(f, w, j);
	bool ok = true;
	int type, r;

	if (!x || (f->execution >= 0 && j != (uint64_t)f->execution))
		return R_NO;
	if (f->nonfinite && !(x->flags & (ROW_NONFINITE | ROW_CONTAINS_NONFINITE)))
		return R_NO;
	if ((type = exec_type_match(f, x->type_key, x->op_type)) == R_NO)
		return R_NO;
	if (f->graph >= 0)
		ok = model_graph_inside(f->m, x->graph, f->graph);
	if (ok && f->host)
		ok = strcmp(model_host_name(f->m, x->host), f->host) == 0;
	if (!ok)
		return R_NO;
	r = f->where ? where_row(f, TABLE_EXECUTIONS, j) : R_MATCH;
	return r == R_MATCH ? type : r;
}

struct scan {
	struct trace_bounds b;
	struct host_cursor hc;
	struct exec_window w;
	uint64_t n;                 /* rows indexed */
};

static void
scan_init(struct model_filter *f, enum model_table t, struct scan *s)
{
	s->n = t == TABLE_TRACES ? model_trace_count(f->m) : model_execution_count(f->m);
	if (t == TABLE_TRACES) {
		ensure_ops(f);
		trace_bounds(f, &s->b);
	}
	s->hc.valid = false;
	s->hc.file = UINT32_MAX;
	s->hc.file_match = -1;
	s->w.first = 0;
	s->w.n = 0;
}

static int
row_state(struct model_filter *f, enum model_table t, struct scan *s, uint64_t j)
{
	return t == TABLE_TRACES ? filter_trace_match(f, j, &s->b, &s->hc) : exec_match(f, j, &s->w);
}

static bool
row_match(struct model_filter *f, enum model_table t, struct scan *s, uint64_t j)
{
	return row_state(f, t, s, j) == R_MATCH;
}

/* Brings the per-chunk counts up to the rows indexed now. */
static void
update_counts(struct model_filter *f, enum model_table t, struct scan *s)
{
	size_t nchunks = (size_t)((s->n + FBLOCK - 1) >> FBLOCK_SHIFT), c;
	struct fcount *cnt;
	bool window = t == TABLE_TRACES && f->where_window;

	/* a window only when some op leaves its rows to the condition */
	window = window && f->any_rows_op;
	if (window && f->same_dirty) {   /* once after the op states changed */
		f->same_state = filter_same_state(f);
		f->same_dirty = false;
	}

	if (nchunks > f->tab[t].capcnt) {
		size_t old = f->tab[t].capcnt;

		TD_GROW(f->tab[t].cnt, f->tab[t].capcnt, nchunks);
		memset(f->tab[t].cnt + old, 0, (f->tab[t].capcnt - old) * sizeof(struct fcount));
	}
	cnt = f->tab[t].cnt;
	for (c = 0; c < nchunks; c++) {
		uint64_t base = (uint64_t)c << FBLOCK_SHIFT;
		uint64_t rows = TD_MIN(s->n - base, (uint64_t)FBLOCK), j;

		if (window && cnt[c].rows < rows)
			filter_window_count(f, &s->b, &s->hc, base + cnt[c].rows, base + rows,
					    &cnt[c]);
		else
			for (j = cnt[c].rows; j < rows; j++) {
				int r = row_state(f, t, s, base + j);

				cnt[c].count += r == R_MATCH;
				cnt[c].unknown += r == R_UNKNOWN;
			}
		cnt[c].rows = rows;
	}
}

/* The matches (unknown: the undecided rows) of table t, block counts
 * brought up to date first. */
static uint64_t
total_of(struct model_filter *f, enum model_table t, bool unknown)
{
	struct scan s;
	uint64_t total = 0;
	size_t c;

	scan_init(f, t, &s);
	update_counts(f, t, &s);
	for (c = 0; (uint64_t)c << FBLOCK_SHIFT < s.n; c++)
		total += unknown ? f->tab[t].cnt[c].unknown : f->tab[t].cnt[c].count;
	return total;
}

uint64_t
model_filter_count(struct model *m, struct model_filter *f, enum model_table t)
{
	(void)m;
	return total_of(f, t, false);
}

/* Near the last answer (a pane drawing consecutive rows), step from it
 * instead of walking the block counts; gives up after a block's worth of
 * rows.  -2 when it gave up. */
static int64_t
nth_from_memo(struct model_filter *f, enum model_table t, struct scan *s, uint64_t k)
{
	uint64_t have = f->tab[t].memo_k, budget = 2 * FBLOCK;
	int64_t j = f->tab[t].memo_row;

	if (!f->tab[t].memo_valid || (k > have ? k - have : have - k) > 64)
		return -2;
	while (have != k && budget--) {
		j += k > have ? 1 : -1;
		if (j < 0 || (uint64_t)j >= s->n)
			return -2;
		if (row_match(f, t, s, (uint64_t)j))
			have += k > have ? 1 : (uint64_t)-1;
	}
	return have == k ? j : -2;
}

int64_t
model_filter_nth(struct model *m, struct model_filter *f, enum model_table t, uint64_t k)
{
	struct scan s;
	size_t c;
	uint64_t j, end, want = k;
	int64_t r;

	(void)m;
	scan_init(f, t, &s);
	update_counts(f, t, &s);
	r = nth_from_memo(f, t, &s, k);
	for (c = 0; r == -2 && (uint64_t)c << FBLOCK_SHIFT < s.n; c++) {
		if (k >= f->tab[t].cnt[c].count) {
			k -= f->tab[t].cnt[c].count;
			continue;
		}
		end = ((uint64_t)c << FBLOCK_SHIFT) + f->tab[t].cnt[c].rows;
		for (j = (uint64_t)c << FBLOCK_SHIFT; r == -2 && j < end; j++)
			if (row_match(f, t, &s, j) && k-- == 0)
				r = (int64_t)j;
		break;
	}
	if (r < 0)
		return -1;
	f->tab[t].memo_valid = true;
	f->tab[t].memo_k = want;
	f->tab[t].memo_row = r;
	return r;
}

uint64_t
model_filter_rank(struct model *m, struct model_filter *f, enum model_table t, uint64_t row)
{
	struct scan s;
	uint64_t rank = 0, j;
	size_t c;

	(void)m;
	scan_init(f, t, &s);
	update_counts(f, t, &s);
	row = TD_MIN(row, s.n);
	for (c = 0; ((uint64_t)c + 1) << FBLOCK_SHIFT <= row; c++)
		rank += f->tab[t].cnt[c].count;
	for (j = (uint64_t)c << FBLOCK_SHIFT; j < row; j++)
		if (row_match(f, t, &s, j))
			rank++;
	return rank;
}

int64_t
model_filter_next(struct model *m, struct model_filter *f, enum model_table t, uint64_t from,
		  int dir)
{
	struct scan s;
	int64_t j;

	(void)m;
	scan_init(f, t, &s);
	update_counts(f, t, &s);
	if (!s.n)
		return -1;
	if (dir >= 0) {
		for (j = (int64_t)from; (uint64_t)j < s.n; j++) {
			if (!(j & (FBLOCK - 1)) && !f->tab[t].cnt[j >> FBLOCK_SHIFT].count) {
				j += FBLOCK - 1;
				continue;
			}
			if (row_match(f, t, &s, (uint64_t)j))
				return j;
		}
		return -1;
	}
	for (j = (int64_t)TD_MIN(from, s.n - 1); j >= 0; j--) {
		if ((j & (FBLOCK - 1)) == FBLOCK - 1 && !f->tab[t].cnt[j >> FBLOCK_SHIFT].count) {
			j -= FBLOCK - 1;
			continue;
		}
		if (row_match(f, t, &s, (uint64_t)j))
			return j;
	}
	return -1;
}

bool
model_filter_match(struct model *m, struct model_filter *f, enum model_table t, uint64_t row)
{
	struct scan s;

	(void)m;
	scan_init(f, t, &s);
	return row < s.n && row_match(f, t, &s, row);
}

uint64_t
model_filter_unknown(struct model *m, struct model_filter *f, enum model_table t)
{
	(void)m;
	return total_of(f, t, true);
}

uint64_t
model_filter_undecided(const struct model_filter *f)
{
	return f ? f->undecided : 0;
}
