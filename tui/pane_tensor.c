/*
 * pane_tensor.c - the tensor overlay: everything the dump knows about the
 * selected row's tensors.
 *
 * The full summary (dtype, shape, the NaN/Inf/negative/zero/positive
 * counts, min/max/mean), and where the dump stores values (full-tensor
 * modes, array files) the values with numpy-style slicing, their
 * statistics and a histogram drawn with block characters.  Built as text for the text
 * overlay; values come from model_*_detail, never from a guess.
 */
#include "tui_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/cmd/fmt.h"
#include "tui/cmd/sanitize.h"

#define TENSOR_MAX_ELEMS 2000
#define HIST_BINS 20
#define HIST_WIDTH 40

static void
add_count(struct strbuf *sb, const struct td_summary *s, unsigned bit, const char *name, int64_t v)
{
	if (s->known & bit)
		strbuf_addf(sb, "  %-10s %lld\n", name, (long long)v);
}

static void
add_summary(struct strbuf *sb, const struct td_summary *s)
{
	char buf[96], a[32];

	strbuf_addf(sb, "  %-10s %s\n", "tensor", *fmt_shape(s, buf, sizeof buf) ? buf : "(unknown)");
	add_count(sb, s, SUM_ELEMENTS, "elements", s->elements);
	add_count(sb, s, SUM_NEG_INF, "-Inf", s->neg_inf);
	add_count(sb, s, SUM_NAN, "NaN", s->nan);
	add_count(sb, s, SUM_POS_INF, "+Inf", s->pos_inf);
	add_count(sb, s, SUM_NEGATIVE, "negative", s->negative);
	add_count(sb, s, SUM_ZERO, "zero", s->zero);
	add_count(sb, s, SUM_POSITIVE, "positive", s->positive);
	if (s->known & SUM_NONFINITE)
		strbuf_addf(sb, "  %-10s %s\n", "Inf/NaN", s->has_inf_or_nan ? "yes" : "no");
	if (s->known & SUM_MINMAX) {
		strbuf_addf(sb, "  %-10s %s\n", "min", fmt_double(s->min, a, sizeof a));
		strbuf_addf(sb, "  %-10s %s\n", "max", fmt_double(s->max, a, sizeof a));
	}
	if (s->known & SUM_MEAN)
		strbuf_addf(sb, "  %-10s %s\n", "mean", fmt_double(s->mean, a, sizeof a));
	if (s->known & SUM_UNINITIALIZED)
		strbuf_adds(sb, "  value known to be uninitialised\n");
}

/* One bar of HIST_WIDTH columns at most, in eighths of a block. */
static void
add_bar(struct strbuf *sb, uint64_t v, uint64_t max)
{
	static const char *const part[8] = { "", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d",
					     "\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a", "\xe2\x96\x89" };
	uint64_t eighths = max ? v * HIST_WIDTH * 8 / max : 0;
	bool utf8 = sanitize_utf8();

	for (uint64_t i = 0; i < eighths / 8; i++)
		strbuf_adds(sb, utf8 ? "\xe2\x96\x88" : "#");
	if (utf8)
		strbuf_adds(sb, part[eighths % 8]);
	if (v && !eighths)
		strbuf_adds(sb, utf8 ? part[1] : ".");
}

static void
add_histogram(struct strbuf *sb, const struct td_tensor *x)
{
	uint64_t bins[HIST_BINS] = { 0 }, max = 0;
	double lo, hi;
	char a[32];

	if (!td_tensor_histogram(x, bins, HIST_BINS, &lo, &hi)) {
		strbuf_adds(sb, "  (no finite value: no histogram)\n");
		return;
	}
	for (int i = 0; i < HIST_BINS; i++)
		max = TD_MAX(max, bins[i]);
	double step = (hi - lo) / HIST_BINS;
	for (int i = 0; i < HIST_BINS; i++) {
		strbuf_addf(sb, "  %12s %10llu ", fmt_double(lo + step * i, a, sizeof a),
			    (unsigned long long)bins[i]);
		add_bar(sb, bins[i], max);
		strbuf_addc(sb, '\n');
	}
}

/* The slice hint: a command that works on this row's values, e.g.
 * ":print 88 [0:2, :]" for a matrix (cmd is ":print 88" or ":execution 5
 * --slice"). */
static void
slice_example(const struct td_tensor *x, const char *cmd, char *buf, size_t size)
{
	int64_t d0 = x->rank > 0 ? TD_MIN(x->dims[0], 2) : 0, last = x->rank > 0 ? x->dims[x->rank - 1] : 0;

	if (x->rank == 0)
		snprintf(buf, size, "%s", cmd);
	else if (x->rank == 1)
		snprintf(buf, size, "%s [0:%lld]", cmd, (long long)TD_MIN(x->dims[0], 10));
	else if (x->rank == 2)
		snprintf(buf, size, "%s [0:%lld, :]", cmd, (long long)d0);
	else
		snprintf(buf, size, "%s [0, ..., 0:%lld]", cmd, (long long)TD_MIN(last, 5));
}

static void
add_values(struct strbuf *sb, const struct td_tensor *x, const char *slice_text, bool stats,
	   const char *cmd)
{
	char example[128];

	struct td_slice slice, *sl = NULL;
	struct td_summary s;
	char err[256];

	if (slice_text && *slice_text) {
		if (td_slice_parse(slice_text, &slice, err, sizeof err) != TD_OK) {
			strbuf_addf(sb, "  %s\n", err);       /* 'bad slice "...": why' */
			return;
		}
		sl = &slice;
	}
	if (stats) {                /* the dump gave no summary: compute it */
		td_tensor_summarize(x, &s);
		strbuf_adds(sb, "\n# Value statistics\n");
		add_summary(sb, &s);
	}
	if (sl) {
		strbuf_addf(sb, "\n# Values %s\n", slice_text);
	} else {
		slice_example(x, cmd, example, sizeof example);
		strbuf_addf(sb, "\n# Values (a slice: %s)\n", example);
	}
	if (td_tensor_format(x, sl, TENSOR_MAX_ELEMS, sb, err, sizeof err) != TD_OK)
		strbuf_addf(sb, "  %s\n", err);
	strbuf_adds(sb, "\n\n# Histogram of the finite values\n");
	add_histogram(sb, x);
}

/* The record's own text, without the lines the header already gave
 * ("device: ...", "host: ..."). */
static void
add_record_text(struct strbuf *sb, const struct model_detail *d)
{
	const char *p = d->text;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		bool dup = (d->device && *d->device && !strncmp(p, "device: ", 8)) ||
			   (d->host && *d->host && !strncmp(p, "host: ", 6));
		if (!dup)
			strbuf_addf(sb, "%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* Values and statistics first; the metadata in a compact header (mode,
 * host, device, time once) and the record's own text last, or first when
 * the record is an execution (a run's fetches and targets say what it
 * is). */
static void
add_detail(struct strbuf *sb, const struct model_detail *d, const char *slice, const char *cmd,
	   bool record_first)
{
	char a[32];

	if (d->host && *d->host)
		strbuf_addf(sb, "  %s", d->host);
	if (d->device && *d->device)
		strbuf_addf(sb, "%s%s", d->host && *d->host ? "  " : "  ", d->device);
	if (d->wall_time > 0)
		strbuf_addf(sb, "  %s", fmt_wall_time(d->wall_time, a, sizeof a));
	if (d->mode)
		strbuf_addf(sb, "  mode %s", d->mode);
	strbuf_addc(sb, '\n');
	if (record_first && d->text && *d->text) {
		strbuf_adds(sb, "\n# Record\n");
		add_record_text(sb, d);
	}
	for (size_t i = 0; i < d->noutputs; i++) {
		strbuf_addf(sb, "\n# Output %zu\n", i);
		if (d->summaries)
			add_summary(sb, &d->summaries[i]);
		if (d->ndebug_values && d->ndebug_values[i]) {
			strbuf_adds(sb, "  debug values [");
			for (size_t k = 0; k < d->ndebug_values[i]; k++)
				strbuf_addf(sb, "%s%s", k ? ", " : "", fmt_double(d->debug_values[i][k], a, sizeof a));
			strbuf_adds(sb, "]\n");
		}
		if (d->values && d->values[i])
			add_values(sb, d->values[i], slice, !d->summaries, cmd);
		else
			strbuf_addf(sb, "  (this dump%s%s stores no values for it)\n",
				    d->mode ? "'s mode " : "", d->mode ? d->mode : "");
	}
	if (!record_first && d->text && *d->text) {
		strbuf_adds(sb, "\n# Record\n");
		add_record_text(sb, d);
	}
}

void
tui_show_tensor(struct tui *t, enum model_source_kind kind, uint64_t index, const char *slice)
{
	struct model_detail d;
	struct strbuf sb = { 0 };
	char title[256];
	enum td_status st;

	char cmd[64];

	memset(&d, 0, sizeof d);
	snprintf(cmd, sizeof cmd, kind == SRC_TRACE ? ":print %llu" : ":execution %llu --slice",
		 (unsigned long long)index);
	if (kind == SRC_TRACE) {
		struct model_trace tr;
		if (model_trace_get(t->m, index, &tr) != TD_OK) {
			tui_message(t, true, "tensor: trace %llu is not indexed", (unsigned long long)index);
			return;
		}
		snprintf(title, sizeof title, "Tensor: trace %llu %s:%u (%s)", (unsigned long long)index,
			 tr.op_name, tr.slot, tr.op_type);
		st = model_trace_detail(t->m, index, &d);
	} else {
		struct model_execution ex;
		if (model_execution_get(t->m, index, &ex) != TD_OK) {
			tui_message(t, true, "tensor: execution %llu is not indexed", (unsigned long long)index);
			return;
		}
		snprintf(title, sizeof title, "Execution %llu %s", (unsigned long long)index, ex.op_type);
		st = model_execution_detail(t->m, index, &d);
	}
	if (st != TD_OK)
		strbuf_addf(&sb, "cannot decode this record: %s\n", td_strerror(st));
	else
		add_detail(&sb, &d, slice, cmd, kind == SRC_EXECUTION);
	model_detail_done(&d);
	tui_text_set(&t->tensor, title, sb.buf ? sb.buf : "");
	strbuf_done(&sb);
	tui_open_overlay(t, OVERLAY_TENSOR);
}
