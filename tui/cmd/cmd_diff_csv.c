/*
 * cmd_diff_csv.c - "diff --csv FILE [--force] [--stack]": the pairs of two dumps
 * written as the statistics, tensor or md5 CSV (tensor when B's rows have
 * full values, metrics in cmd_diff_tensor.c; md5 when both dumps' rows
 * carry a checksum) of the dumps' own compare tool
 * (README names it, in the section on comparing its runs): its header,
 * column order, Result and Err_message rules and number spellings
 * (Python's repr of a float, "%" on relative errors, " inf" in the raw
 * columns), so that a user's scripts and filters read it unchanged.
 *
 * One row per tensor leaf of B (the target, "NPU") of a compared host (all
 * of them, but with --compare-hosts A,B only B's), in B's row order, its
 * pair in A (the golden side, "Bench") beside it or "N/A"; and one per
 * non-tensor argument of B's calls where the reader lists them (the
 * detail's args), in its place among them (cmd_diff_args.c).  A pair whose
 * dtypes are neither equal nor both 16/32-bit floats is written unmatched,
 * as that tool does.  The facts a row needs beyond its summary (its leaf
 * path, dtype spelling, requires_grad, the saved file, the checksum) come
 * from the reader's detail lines "slot:", "dtype:", "requires_grad:",
 * "data_name:", "md5 (crc32):" and "xor:", the statistics as written (NaN
 * and Inf kept) from its detail's stats; a row without them (another
 * format) is written from its summary.  The text
 * goes to a temporary file beside FILE 4 MB at a time, renamed into place
 * at the end (outfile_open): a few hundred bytes a row.  Not the JSON or
 * text of diff (cmd_diff.c).
 */
#include "cmd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_diff_csv.h"
#include "cmd_diff_rows.h"
#include "emit.h"
#include "model/model_diff.h"
#include "outfile.h"


/* |diff / bench| as the Result rules read it (a fraction): NaN unknown. */
static double
rel_of(const struct leaf *n, const struct leaf *b, int k)
{
	if (!n->has[k] || !b->has[k] || isnan(n->st[k]) || isnan(b->st[k]))
		return NAN;
	if (n->st[k] == b->st[k])
		return 0;
	if (b->st[k] == 0 || isinf(n->st[k]) || isinf(b->st[k]))
		return INFINITY;
	return fabs((n->st[k] - b->st[k]) / b->st[k]);
}

/* ---- a leaf from the row ----------------------------------------------- */

/* The value of detail line "key: value" in text, or NULL; copied to buf. */
static const char *
line_value(const char *text, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);

		if (ll > kl + 1 && strncmp(p, key, kl) == 0 && p[kl] == ':' && p[kl + 1] == ' ') {
			snprintf(buf, len, "%.*s", (int)(ll - kl - 2), p + kl + 2);
			return buf;
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static void
shape_text(const struct td_summary *s, char *buf, size_t len)
{
	size_t used = 0;
	int k;

	if (!(s->known & SUM_SHAPE)) {
		snprintf(buf, len, "N/A");
		return;
	}
	used += (size_t)snprintf(buf, len, "[");
	for (k = 0; k < s->ndims && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%lld", k ? ", " : "",
					 (long long)s->dims[k]);
	if (used < len)
		snprintf(buf + used, len - used, "]");
}

/* One decode of the row (its details); the indexed fields without one.
 * values: keep the tensor; stack: make the stack cell from the same
 * decode; args: keep the call's non-tensor arguments. */
static void
leaf_of(struct model *m, uint64_t row, struct leaf *l, bool values, bool stack, bool args)
{
	struct model_detail d = { 0 };
	struct td_summary sum = { 0 };
	char slot[400], val[200];
	const char *text, *op = NULL, *type, *host;
	uint32_t opid, flags = 0;
	bool dumped;                /* the reader's leaf lines (slot: ...) */
	int k;

	memset(l, 0, sizeof(*l));
	l->requires_grad = -1;
	for (k = 0; k < 4; k++)
		l->st[k] = NAN;
	model_trace_names(m, row, &op, &type, &host);
	model_trace_quick(m, row, &opid, &flags);
	model_trace_detail(m, row, &d);
	if (d.noutputs && d.summaries)
		sum = d.summaries[0];
	l->dt = (sum.known & SUM_DTYPE) ? sum.dtype : DTYPE_INVALID;
	shape_text(&sum, l->shape, sizeof l->shape);
	text = d.text ? d.text : "";
	l->oplen = strlen(op ? op : "");
	if (args) {
		l->args = d.args;    /* taken from the detail */
		l->nargs = d.nargs;
		d.args = NULL;
		d.nargs = 0;
	}
	if ((dumped = line_value(text, "slot", slot, sizeof slot) != NULL)) {
		snprintf(l->name, sizeof l->name, "%s.%s", op ? op : "", slot);
	} else {
		struct model_trace t = { 0 };

		model_trace_get(m, row, &t);
		snprintf(l->name, sizeof l->name, "%s.%s.%u", op ? op : "",
			 (flags & ROW_INPUT) ? "input" : "output", t.slot);
	}
	if (!line_value(text, "dtype", l->dtype, sizeof l->dtype))
		snprintf(l->dtype, sizeof l->dtype, "%s", l->dt == DTYPE_INVALID ? "N/A"
			 : td_dtype_name(l->dt));
	if (line_value(text, "requires_grad", val, sizeof val))
		l->requires_grad = strcmp(val, "true") == 0;
	if (d.stats.stats) {
		/* the statistics as the dump wrote them (NaN, Inf, null) */
		for (k = 0; k < 4; k++) {
			l->has[k] = d.stats.written[k];
			l->none[k] = !d.stats.written[k];
			l->st[k] = d.stats.written[k] ? d.stats.v[k] : NAN;
		}
	} else if (line_value(text, "any", val, sizeof val)) {
		/* a bool tensor: Max and Min written as JSON booleans (the
		 * reader's "any:" and "all:"), Mean and Norm when given */
		l->bool_stats = true;
		l->has[0] = l->has[1] = true;
		l->st[0] = strcmp(val, "true") == 0;
		l->st[1] = line_value(text, "all", val, sizeof val) && strcmp(val, "true") == 0;
		l->has[2] = (sum.known & SUM_MEAN) != 0, l->st[2] = sum.mean;
		l->has[3] = (sum.known & SUM_L2NORM) != 0, l->st[3] = sum.l2norm;
		l->none[2] = !l->has[2], l->none[3] = !l->has[3];
	} else if (dumped) {
		for (k = 0; k < 4; k++)
			l->none[k] = true;  /* no statistic written: None each */
	} else {
		const struct td_summary *s = &sum;

		l->has[0] = l->has[1] = (s->known & SUM_MINMAX) != 0;
		l->st[0] = s->max, l->st[1] = s->min;
		l->has[2] = (s->known & SUM_MEAN) != 0, l->st[2] = s->mean;
		l->has[3] = (s->known & SUM_L2NORM) != 0, l->st[3] = s->l2norm;
	}
	line_value(text, "data_name", l->data_name, sizeof l->data_name);
	if (!line_value(text, "md5 (crc32)", l->md5, sizeof l->md5))
		line_value(text, "xor", l->md5, sizeof l->md5);
	if (values && d.noutputs && d.values && d.values[0]) {
		l->values = d.values[0];    /* taken from the detail */
		d.values[0] = NULL;
	}
	if (stack)
		l->stack = cmd_csv_stack_cell(m, &d);
	model_detail_done(&d);
}

/* Dtypes the tool pairs: equal, or both float16/float32/bfloat16. */
static bool
dtypes_pair(enum td_dtype a, enum td_dtype b)
{
	bool fa = a == DTYPE_FLOAT16 || a == DTYPE_FLOAT32 || a == DTYPE_BFLOAT16;
	bool fb = b == DTYPE_FLOAT16 || b == DTYPE_FLOAT32 || b == DTYPE_BFLOAT16;

	return a == b || (fa && fb);
}

/* ---- rows, grouped by entry -------------------------------------------- */

/* The tool's Result: pass < warning < error (statistics, tensor); md5
 * mode's pass, Different; N/A for a row without a pair (every mode). */
static const char *const result_name[RES_COUNT] = { "pass", "warning", "error", "Different", "N/A" };

/* The tool's Err_message for a target row without a pair. */
static const char msg_no_bench[] = "No bench data matched.";

/* Which of the tool's CSVs: its header and its rules. */
enum csv_mode { CSV_STATISTICS, CSV_TENSOR, CSV_MD5 };
static const char *const mode_name[] = { "statistics", "tensor", "md5" };


static void
add_err(struct csv_row *r, enum result res, const char *msg)
{
	size_t l = strlen(r->err);

	if (res > r->res)
		r->res = res;
	snprintf(r->err + l, sizeof r->err - l, "%s%s", l ? "; " : "", msg);
}

static bool
nonfinite(const struct leaf *l)
{
	return (l->has[0] && !isfinite(l->st[0])) || (l->has[1] && !isfinite(l->st[1]));
}

/* Result and Err_message of an entry's rows (the tool's rules, README). */
static void
csv_judge(struct csv_row *rows, size_t n, bool tensor)
{
	double in_max = 0, in_one = INFINITY, in_cos = INFINITY;
	bool in_all_small = true, any_in = false;
	size_t i;

	for (i = 0; i < n; i++) {
		struct csv_row *r = &rows[i];

		if (!r->matched) {
			/* the tool's Result and words for a row whose Bench Name
			 * is N/A (its acc_compare) */
			r->res = RES_NONE;
			snprintf(r->err, sizeof r->err, "%s", msg_no_bench);
			continue;
		}
		if (nonfinite(&r->n) && !nonfinite(&r->b))
			add_err(r, RES_ERROR, "NPU max or min is nan or inf, Bench's are finite");
		if (r->n.requires_grad >= 0 && r->b.requires_grad >= 0 &&
		    r->n.requires_grad != r->b.requires_grad)
			add_err(r, RES_ERROR, "requires_grad differs");
		if (r->n.dt != r->b.dt)
			add_err(r, RES_ERROR, "dtype differs");
		if (strcmp(r->n.shape, r->b.shape) != 0)
			add_err(r, RES_ERROR, "shape differs");
		if (r->n.arg && strcmp(r->n.arg->value, r->b.arg->value) != 0)
			add_err(r, RES_ERROR, "argument differs");
		/* an argument is one of the inputs the rules read when it is a
		 * number, in statistics mode (the tool reads numeric rows) */
		if (r->is_input && !(r->n.arg && (tensor || !r->n.has[3]))) {
			double e = rel_of(&r->n, &r->b, 3);

			in_one = fmin(in_one, r->t.one);
			in_cos = fmin(in_cos, r->t.cosine_unsupported ? 1 : r->t.cosine);
			any_in = true;
			if (!(e < 0.1))
				in_all_small = false;
			if (e > in_max)
				in_max = e;
		}
	}
	for (i = 0; i < n; i++) {
		struct csv_row *r = &rows[i];
		double e;

		if (!r->matched || r->is_input)
			continue;
		if (tensor) {
			/* fmin skips NaN: inputs without metrics do not count */
			if (any_in && in_one > 0.9 && r->t.one < 0.1)
				add_err(r, RES_ERROR, "output One Thousandth Err Ratio < 0.1, every input's > 0.9");
			else if (any_in && in_cos > 0.9 && !r->t.cosine_unsupported &&
				 r->t.cosine < in_cos - 0.1)
				add_err(r, RES_WARNING, "output Cosine drops by more than 0.1 from the inputs'");
			continue;
		}
		e = rel_of(&r->n, &r->b, 3);
		if (any_in && in_all_small && e > 0.5)
			add_err(r, RES_ERROR, "output NormRelativeErr > 0.5, every input's < 0.1");
		else if (any_in && ((in_max > 0 && e > 10 * in_max) || (in_max == 0 && e > 0.1)))
			add_err(r, RES_WARNING, "output NormRelativeErr > 10x the inputs'");
	}
}

static void
cell(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, ',');
	if (strpbrk(s, ",\"\n\r")) {
		strbuf_addc(sb, '"');
		for (; *s; s++) {
			if (*s == '"')
				strbuf_addc(sb, '"');
			strbuf_addc(sb, *s);
		}
		strbuf_addc(sb, '"');
	} else {
		strbuf_adds(sb, s);
	}
}

static const char *
rg_text(int rg)
{
	return rg < 0 ? "N/A" : rg ? "True" : "False";
}

static void
metric_cell(struct strbuf *sb, const struct csv_row *r, double v)
{
	struct strbuf c = { 0 };

	if (!r->matched || r->n.arg)
		strbuf_adds(&c, "N/A");
	else if (r->t.word)
		strbuf_adds(&c, r->t.word);
	else if (isnan(v))
		strbuf_adds(&c, "Nan");
	else
		cmd_csv_pyfloat(&c, v);
	cell(sb, c.buf);
	strbuf_done(&c);
}

/* md5 mode's cells after the common prefix: the two checksums, then
 * Requires_grad Consistent and Result; no Err_message. */
static void
write_md5_cells(struct strbuf *sb, const struct csv_row *r)
{
	cell(sb, *r->n.md5 ? r->n.md5 : "N/A");
	cell(sb, r->matched && *r->b.md5 ? r->b.md5 : "N/A");
	cell(sb, !r->matched ? "N/A" : r->n.requires_grad < 0 || r->b.requires_grad < 0 ||
	     r->n.requires_grad == r->b.requires_grad ? "True" : "False");
	cell(sb, result_name[r->res]);
}

/* The eight difference cells of a pair with a bool tensor or a null
 * statistic (cmd_csv_stat_cells). */
static void
textual_stat_cells(struct strbuf *sb, const struct csv_row *r)
{
	struct strbuf d = { 0 }, rel[4] = { { 0 } };
	int k;

	for (k = 0; k < 4; k++) {
		d.len = 0;
		if (d.buf)
			d.buf[0] = '\0';
		cmd_csv_stat_cells(&d, &rel[k], &r->n, &r->b, k);
		cell(sb, d.buf);
	}
	for (k = 0; k < 4; k++) {
		cell(sb, rel[k].buf);
		strbuf_done(&rel[k]);
	}
	strbuf_done(&d);
}

/* A paired argument's eight difference cells: the same pair four times. */
static void
arg_stat_cells(struct strbuf *sb, const struct csv_row *r)
{
	struct strbuf d = { 0 }, rel = { 0 };
	int k;

	cmd_csv_arg_cells(&d, &rel, r->n.arg, r->b.arg);
	for (k = 0; k < 8; k++)
		cell(sb, k < 4 ? d.buf : rel.buf);
	strbuf_done(&d);
	strbuf_done(&rel);
}

static void
write_row(struct strbuf *sb, const struct csv_row *r, enum csv_mode mode, bool stack)
{
	struct strbuf c = { 0 };
	bool tensor = mode == CSV_TENSOR;
	int k;

	/* the first cell without its comma */
	cell(&c, r->n.name);
	strbuf_adds(sb, c.buf + 1);
	cell(sb, r->matched ? r->b.name : "N/A");
	cell(sb, r->n.dtype);
	cell(sb, r->matched ? r->b.dtype : "N/A");
	cell(sb, r->n.shape);
	cell(sb, r->matched ? r->b.shape : "N/A");
	cell(sb, rg_text(r->n.requires_grad));
	cell(sb, r->matched ? rg_text(r->b.requires_grad) : "N/A");
	if (mode == CSV_MD5) {
		write_md5_cells(sb, r);
		if (stack)
			cell(sb, r->stack ? r->stack : "None");
		strbuf_addc(sb, '\n');
		strbuf_done(&c);
		return;
	}
	for (k = 0; tensor && k < 6; k++) {
		const double v[6] = { r->t.cosine, r->t.eucdist, r->t.max_abs, r->t.max_rel,
				      r->t.one, r->t.five };

		if (r->matched && !r->t.word && ((k == 0 && r->t.cosine_unsupported) ||
						 (r->t.scalar && k != 2 && k != 3)))
			cell(sb, "unsupported");
		else
			metric_cell(sb, r, v[k]);
	}
	if (!tensor && r->matched && r->n.arg)
		arg_stat_cells(sb, r);
	else if (!tensor && r->matched && (cmd_csv_leaf_textual(&r->n) ||
					   cmd_csv_leaf_textual(&r->b)))
		textual_stat_cells(sb, r);
	for (k = 0; !tensor && !(r->matched && (r->n.arg || cmd_csv_leaf_textual(&r->n) ||
						cmd_csv_leaf_textual(&r->b))) && k < 8; k++) {
		int s = k % 4;

		c.len = 0;
		if (!r->matched || !r->n.has[s] || !r->b.has[s])
			strbuf_adds(&c, "N/A");
		else if (k < 4)
			cmd_csv_diff_cell(&c, r->n.st[s], r->b.st[s]);
		else
			cmd_csv_rel_cell(&c, r->n.st[s], r->b.st[s]);
		cell(sb, c.buf);
	}
	for (k = 0; k < 8; k++) {
		const struct leaf *l = k < 4 ? &r->n : &r->b;

		c.len = 0;
		if (k >= 4 && !r->matched)
			strbuf_adds(&c, "N/A");
		else if (l->arg && l->arg->num != TD_ARG_FLOAT)
			strbuf_adds(&c, l->arg->value);  /* str() of the value */
		else if (l->bool_stats && k % 4 < 2)
			strbuf_adds(&c, l->st[k % 4] != 0 ? "True" : "False");
		else if (l->none[k % 4])
			strbuf_adds(&c, "None");
		else
			cmd_csv_raw_cell(&c, l->has[k % 4], l->st[k % 4]);
		cell(sb, c.buf);
	}
	cell(sb, !r->matched ? "N/A" : r->n.requires_grad < 0 || r->b.requires_grad < 0 ||
	     r->n.requires_grad == r->b.requires_grad ? "True" : "False");
	cell(sb, result_name[r->res]);
	cell(sb, r->err);
	if (stack)
		cell(sb, r->stack ? r->stack : "None");
	if (tensor) {
		/* Python's repr of the two file names as a list */
		c.len = 0;
		strbuf_addf(&c, "['%s', '%s']", *r->n.data_name ? r->n.data_name : "-1",
			    r->matched && *r->b.data_name ? r->b.data_name : "-1");
		cell(sb, c.buf);
	}
	strbuf_addc(sb, '\n');
	strbuf_done(&c);
}

#define HEAD_PREFIX \
	"NPU Name,Bench Name,NPU Dtype,Bench Dtype,NPU Tensor Shape,Bench Tensor Shape," \
	"NPU Requires_grad,Bench Requires_grad,"
#define HEAD_STATS \
	"NPU max,NPU min,NPU mean,NPU l2norm,Bench max,Bench min,Bench mean,Bench l2norm," \
	"Requires_grad Consistent,Result,Err_message"
/* The headers up to the optional NPU_Stack_Info (and tensor mode's
 * Data_name after it). */
static const char header_statistics[] = HEAD_PREFIX
	"Max diff,Min diff,Mean diff,L2norm diff,"
	"MaxRelativeErr,MinRelativeErr,MeanRelativeErr,NormRelativeErr," HEAD_STATS;
static const char header_tensor[] = HEAD_PREFIX
	"Cosine,EucDist,MaxAbsErr,MaxRelativeErr,One Thousandth Err Ratio,"
	"Five Thousandths Err Ratio," HEAD_STATS;
static const char header_md5[] = HEAD_PREFIX
	"NPU MD5,BENCH MD5,Requires_grad Consistent,Result";
static const char *const header_of[] = { header_statistics, header_tensor, header_md5 };

/* B row -> A row of its pair, UINT64_MAX unpaired. */
static uint64_t *
pairs_by_b(struct model_diff *d, uint64_t nb)
{
	struct model_diff_counts c;
	uint64_t *of = xmalloc((nb ? nb : 1) * sizeof(*of)), k, a, b;

	for (k = 0; k < nb; k++)
		of[k] = UINT64_MAX;
	model_diff_counts(d, &c);
	for (k = 0; k < c.aligned; k++)
		if (model_diff_rows(d, k, &a, &b) && b < nb)
			of[b] = a;
	return of;
}

/* The first row of m as a leaf (with its values when values). */
static bool
first_leaf(struct model *m, struct leaf *l, bool values)
{
	if (!model_trace_count(m))
		return false;
	leaf_of(m, 0, l, values, false, false);
	return true;
}

/* Tensor mode when B's first row has full values (a tensor task); md5
 * mode when both dumps' rows carry checksums (the tool's rule: the mode
 * is the dumps', and both must agree; a statistics CSV otherwise). */
static enum csv_mode
csv_mode_of(struct model *ma, struct model *mb)
{
	struct leaf a, b;
	bool tensor = false, md5 = false;

	if (first_leaf(mb, &b, true)) {
		tensor = b.values != NULL;
		md5 = *b.md5 && first_leaf(ma, &a, false) && *a.md5;
		td_tensor_free(b.values);
	}
	return tensor ? CSV_TENSOR : md5 ? CSV_MD5 : CSV_STATISTICS;
}

/* md5 mode's Result: pass when the checksums are equal, Different when
 * not, N/A without a pair. */
static void
md5_judge(struct csv_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		rows[i].res = !rows[i].matched ? RES_NONE
			      : strcmp(rows[i].n.md5, rows[i].b.md5) == 0 ? RES_PASS : RES_DIFFERENT;
}

/* tdbg's own judgement of the rows written, beside the tool's Result. */
struct verdict {
	uint64_t unmatched;         /* target rows without a golden pair (Result N/A) */
	uint64_t nonfinite_one_side;  /* NaN/Inf in one side's max/min, not the other's */
	uint64_t golden_nonfinite_passed;  /* of those, golden-side ones Result passes */
	uint64_t shape_differs;
	uint64_t arguments, arguments_unmatched, arguments_differ;  /* non-tensor rows */
};

static void
judge_row(const struct csv_row *r, struct verdict *v)
{
	if (r->n.arg) {
		v->arguments++;
		v->arguments_unmatched += !r->matched;
		v->arguments_differ += r->matched && strcmp(r->n.arg->value, r->b.arg->value) != 0;
	}
	if (!r->matched) {
		v->unmatched++;
		return;
	}
	if (nonfinite(&r->n) != nonfinite(&r->b)) {
		v->nonfinite_one_side++;
		v->golden_nonfinite_passed += nonfinite(&r->b) && r->res == RES_PASS;
	}
	v->shape_differs += strcmp(r->n.shape, r->b.shape) != 0;
}

/* Judges and writes the entry's rows g[0, n) (freeing what they own) and
 * the two calls' arguments. */
static void
flush(struct strbuf *sb, struct csv_row *g, size_t n, enum csv_mode mode, bool stack,
      uint64_t count[RES_COUNT], uint64_t *rows, struct verdict *v, struct csv_call *cb,
      struct csv_call *ca)
{
	size_t k;

	if (mode == CSV_MD5)
		md5_judge(g, n);
	else
		csv_judge(g, n, mode == CSV_TENSOR);
	for (k = 0; k < n; k++) {
		write_row(sb, &g[k], mode, stack);
		judge_row(&g[k], v);
		count[g[k].res]++;
		(*rows)++;
		td_tensor_free(g[k].n.values);
		td_tensor_free(g[k].b.values);
		free(g[k].stack);
	}
	cmd_csv_call_done(cb);
	cmd_csv_call_done(ca);
}

/* The text so far goes to the file once it holds CSV_SPILL bytes (all:
 * whatever it holds): a 200,000-entry pair's CSV is 240 MB, which built
 * whole before the write made a 354 MB peak. */
#define CSV_SPILL ((size_t)4 << 20)

static void
spill(struct strbuf *sb, struct outfile *of, bool all)
{
	if (sb->len && (all || sb->len >= CSV_SPILL)) {
		outfile_add(of, sb->buf, sb->len);
		strbuf_reset(sb);
	}
}

/* The calls of B without a tensor row from execution *x up to the one
 * whose rows start at row `upto` (UINT64_MAX: to the end), written in
 * their place (cmd_csv_call_rows); *x moves past them. */
static void
rowless(struct model_diff *d, uint64_t *x, uint64_t upto, struct csv_row **g, size_t *cap,
	struct strbuf *sb, struct outfile *of, enum csv_mode mode, bool stack,
	uint64_t count[RES_COUNT], uint64_t *rows, struct verdict *v)
{
	struct model *mb = model_diff_b(d);
	uint64_t nx = model_execution_count(mb);
	struct csv_call cb = { 0 }, ca = { 0 };
	struct model_execution ex;
	size_t n;

	if (!model_traces_name_executions(mb))
		return;
	for (; *x < nx && model_execution_get(mb, *x, &ex) == TD_OK; (*x)++) {
		if (ex.ntraces && ex.first_trace >= upto)
			break;
		if (ex.ntraces)
			continue;
		n = cmd_csv_call_rows(d, *x, g, cap, &cb, &ca, mode == CSV_TENSOR, stack);
		flush(sb, *g, n, mode, stack, count, rows, v, &cb, &ca);
		spill(sb, of, false);
	}
}

/* Writes the CSV text of every B row to out (through sb); counts rows per
 * Result. */
static void
build(struct model_diff *d, struct strbuf *sb, struct outfile *out, enum csv_mode mode, bool stack,
      uint64_t count[RES_COUNT], uint64_t *rows, struct verdict *v)
{
	bool tensor = mode == CSV_TENSOR;
	struct model *ma = model_diff_a(d), *mb = model_diff_b(d);
	uint64_t nb = model_trace_count(mb), *of = pairs_by_b(d, nb), i = 0, j, x = 0;
	struct csv_row *g = NULL;
	size_t cap = 0, n;
	bool first_input, want_stack;
	struct csv_call cb = { 0 }, ca = { 0 };

	strbuf_adds(sb, header_of[mode]);
	strbuf_adds(sb, stack ? ",NPU_Stack_Info" : "");
	strbuf_adds(sb, tensor ? ",Data_name\n" : "\n");
	while (i < nb) {
		uint32_t op, flags, op2;

		model_trace_quick(mb, i, &op, &flags);
		if (!model_diff_b_row_compared(d, i)) {
			i++;                /* a host the diff leaves out */
			continue;
		}
		rowless(d, &x, i, &g, &cap, sb, out, mode, stack, count, rows, v);
		first_input = true;
		for (j = i, n = 0; j < nb && model_trace_quick(mb, j, &op2, &flags) && op2 == op; j++) {
			struct csv_row *r;

			TD_GROW(g, cap, n + 1);
			r = &g[n++];
			memset(r, 0, sizeof(*r));
			r->is_input = (flags & ROW_INPUT) != 0;
			/* the tool's rule: the stack on the entry's first input
			 * row, when both sides recorded one */
			want_stack = stack && r->is_input && first_input;
			first_input = first_input && !r->is_input;
			leaf_of(mb, j, &r->n, tensor, want_stack, j == i);
			if (of[j] != UINT64_MAX) {
				leaf_of(ma, of[j], &r->b, tensor, want_stack, !ca.found);
				r->matched = dtypes_pair(r->n.dt, r->b.dt);
				cmd_csv_call_take(&ca, &r->b);
			}
			cmd_csv_call_take(&cb, &r->n);
			if (of[j] == UINT64_MAX || r->b.stack) {
				r->stack = r->n.stack;
				r->n.stack = NULL;
			}
			free(r->n.stack);
			free(r->b.stack);
			cmd_csv_tensor_metrics(r->matched ? r->n.values : NULL, r->b.values, &r->t);
			/* the tool's words (its tensor checks), before the rules' */
			if (r->matched && *r->t.msg)
				snprintf(r->err, sizeof r->err, "%s", r->t.msg);
		}
		if (j == i)
			j = i + 1;          /* a row past the index: skip it */
		n = cmd_csv_with_args(&g, &cap, n, &cb, &ca, tensor);
		flush(sb, g, n, mode, stack, count, rows, v, &cb, &ca);
		spill(sb, out, false);
		i = j;
	}
	rowless(d, &x, UINT64_MAX, &g, &cap, sb, out, mode, stack, count, rows, v);
	spill(sb, out, true);
	free(g);
	free(of);
}

enum td_status
cmd_diff_csv(struct cmd_env *env, const char *file, bool force, bool stack)
{
	struct model *dumps[2] = { model_diff_a(env->diff), model_diff_b(env->diff) };
	struct strbuf sb = { 0 };
	struct outfile of;
	uint64_t count[RES_COUNT] = { 0 }, rows = 0;
	struct verdict v = { 0 };
	enum csv_mode mode;
	char err[4200];
	enum td_status st;
	struct emit e;

	if ((st = outfile_open(&of, file, dumps, 2, force, err, sizeof err)) != TD_OK)
		return cmd_fail(env, st, "%s", err);
	mode = csv_mode_of(dumps[0], dumps[1]);
	build(env->diff, &sb, &of, mode, stack, count, &rows, &v);
	st = outfile_close(&of, true, err, sizeof err);
	strbuf_done(&sb);
	if (st != TD_OK)
		return cmd_fail(env, st, "%s", err);
	emit_init(&e, env->out, env->json);
	emit_object_begin(&e, NULL);
	emit_kv_str(&e, "file", file);
	emit_kv_str(&e, "mode", mode_name[mode]);
	emit_kv_uint(&e, "rows", rows);
	emit_kv_uint(&e, "pass", count[RES_PASS]);
	emit_kv_uint(&e, "warning", count[RES_WARNING]);
	emit_kv_uint(&e, "error", count[RES_ERROR]);
	if (mode == CSV_MD5)
		emit_kv_uint(&e, "different", count[RES_DIFFERENT]);
	emit_key(&e, "verdict");
	emit_object_begin(&e, NULL);
	emit_kv_uint(&e, "unmatched", v.unmatched);
	emit_kv_uint(&e, "nonfinite_one_side", v.nonfinite_one_side);
	emit_kv_uint(&e, "golden_nonfinite_passed", v.golden_nonfinite_passed);
	emit_kv_uint(&e, "shape_differs", v.shape_differs);
	emit_object_end(&e);
	emit_key(&e, "arguments");
	emit_object_begin(&e, NULL);
	emit_kv_uint(&e, "rows", v.arguments);
	emit_kv_uint(&e, "unmatched", v.arguments_unmatched);
	emit_kv_uint(&e, "differ", v.arguments_differ);
	emit_object_end(&e);
	emit_object_end(&e);
	emit_done(&e);
	return TD_OK;
}
