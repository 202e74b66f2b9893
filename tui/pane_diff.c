/*
 * pane_diff.c - the diff layout (two dumps compared, model_diff.h): what
 * the trace table, the Alerts pane and Enter show instead of one dump.
 *
 * The trace table lists the aligned pairs (its view index is the pair
 * number, tui_link.c maps it to A's row, so graph, source and stack follow
 * A's side of the selected pair): A's and B's row, the op, the metrics and
 * both summaries when there is room, diverged pairs marked and in the alert
 * colour.  The Alerts pane leads with the first divergence, searched a few
 * hundred pairs per poll so a huge dump never blocks the keys.  Enter shows
 * both tensors' statistics and first values side by side.
 */
#include "tui_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/model_diff.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/summary.h"

#define DIFF_SCAN_BUDGET 256        /* pairs compared per poll */
#define DIFF_VALUES_SHOWN 64

struct model_diff *
tui_diff(const struct tui *t)
{
	return t->opt ? t->opt->diff : NULL;
}

/* ---- the trace table ------------------------------------------------- */

struct dcols {
	int mark, a, b, name, slot, met, sa, sb;    /* x positions, -1 hidden */
	int name_w, met_w, sum_w;
};

static struct dcols
diff_columns(int w)
{
	struct dcols c = { 0, 1, 9, 17, -1, -1, -1, -1, 0, 0, 0 };

	c.met_w = 34;
	c.sum_w = 22;
	if (w >= 17 + 16 + 5 + c.met_w + 2 * c.sum_w) {
		c.sb = w - c.sum_w;
		c.sa = c.sb - c.sum_w;
		c.met = c.sa - c.met_w;
	} else if (w >= 17 + 16 + 5 + c.met_w) {
		c.met = w - c.met_w;
	}
	if (c.met >= 0)
		c.slot = c.met - 5;
	c.name_w = (c.slot >= 0 ? c.slot : w) - c.name - 1;
	return c;
}

void
pane_diff_header(struct pane *p, int y)
{
	struct dcols c = diff_columns(p->r.w);

	pane_print(p, y, c.a, STYLE_HEADER, "  A row", 7);
	pane_print(p, y, c.b, STYLE_HEADER, "  B row", 7);
	pane_print(p, y, c.name, STYLE_HEADER, "Op name", c.name_w);
	if (c.slot >= 0)
		pane_print(p, y, c.slot, STYLE_HEADER, "Slot", 4);
	if (c.met >= 0)
		pane_print(p, y, c.met, STYLE_HEADER, "Metrics (! diverged)", c.met_w);
	if (c.sa >= 0) {
		pane_print(p, y, c.sa, STYLE_HEADER, "A summary", c.sum_w);
		pane_print(p, y, c.sb, STYLE_HEADER, "B summary", c.sum_w);
	}
}

/* "cos 0.99999 abs 1.2e-03" ("nonfinite 3 cos 1.000000" first when the
 * sides differ by NaN/Inf somewhere) or, from summaries, "nan +2 inf +0". */
static void
metrics_text(const struct model_diff_pair *q, char *buf, size_t size)
{
	const struct model_diff_metrics *x = &q->metrics;
	size_t n;

	if (x->values && x->nonfinite_mismatch > 0)
		n = (size_t)snprintf(buf, size, "nonfinite %.0f cos %.6f", x->nonfinite_mismatch,
				     x->cosine);
	else if (x->values)
		n = (size_t)snprintf(buf, size, "cos %.6f abs %.2e", x->cosine, x->max_abs_err);
	else if (!isnan(x->nan_delta))
		n = (size_t)snprintf(buf, size, "nan %+.0f inf %+.0f", x->nan_delta,
				     isnan(x->inf_delta) ? 0.0 : x->inf_delta);
	else
		n = (size_t)snprintf(buf, size, "%s", "summaries only");
	if (q->diverged && n < size)
		snprintf(buf + n, size - n, " %s: %s", x->reason,
			 q->cause == DIFF_CAUSE_OP ? "op" : "inputs");
}

void
pane_diff_draw_row(struct pane *p, uint64_t view, int y)
{
	struct dcols c = diff_columns(p->r.w);
	struct model_diff_pair q;
	enum style_slot s;
	char buf[128];

	if (model_diff_pair_get(tui_diff(p->tui), view, &q) != TD_OK)
		return;
	s = q.diverged ? STYLE_NONFINITE : STYLE_DEFAULT;
	pane_print(p, y, c.mark, s, q.diverged ? "!" : " ", 1);
	pane_printf(p, y, c.a, s, 7, "%7llu", (unsigned long long)q.a_index);
	pane_printf(p, y, c.b, s, 7, "%7llu", (unsigned long long)q.b_index);
	pane_print_tail(p, y, c.name, s, q.a.op_name, c.name_w);
	if (c.slot >= 0)
		pane_printf(p, y, c.slot, s, 4, "%4u", q.a.slot);
	if (c.met >= 0) {
		metrics_text(&q, buf, sizeof buf);
		pane_print(p, y, c.met, s, buf, c.met_w - 1);
	}
	if (c.sa >= 0) {
		pane_print(p, y, c.sa, s, fmt_summary(&q.a.summary, buf, sizeof buf), c.sum_w - 1);
		pane_print(p, y, c.sb, s, fmt_summary(&q.b.summary, buf, sizeof buf), c.sum_w - 1);
	}
}

void
pane_diff_title(struct pane *p, char *buf, size_t size)
{
	struct model_diff_counts n;

	model_diff_counts(tui_diff(p->tui), &n);
	snprintf(buf, size, "diff: %llu pairs, only A %llu, only B %llu",
		 (unsigned long long)n.aligned, (unsigned long long)n.only_a,
		 (unsigned long long)n.only_b);
}

/* ---- Enter: both tensors side by side ---------------------------------- */

#define SIDE_LABEL_W 14

/* A label wider than its column ("value known to be uninitialised") gets
 * a line of its own, the two values below it in their columns. */
static void
side(struct strbuf *sb, const char *label, const char *a, const char *b)
{
	if (strlen(label) > SIDE_LABEL_W) {
		strbuf_addf(sb, "%s\n", label);
		label = "";
	}
	strbuf_addf(sb, "%-*s %-30s %s\n", SIDE_LABEL_W, label, a, b);
}

/* Every field of the summary table the tensor view shows, A beside B
 * ("-" where a side does not know it). */
void
pane_diff_side_summaries(struct strbuf *sb, const struct td_summary *a, const struct td_summary *b)
{
	const struct summary_field *f;
	char x[96], y[96];

	side(sb, "", "A", "B");
	for (int pos = 0; (f = summary_by_order(pos)); pos++) {
		const char *va, *vb;

		if (!f->long_label || !*f->long_label)
			continue;
		va = summary_value(a, f, x, sizeof x);
		vb = summary_value(b, f, y, sizeof y);
		side(sb, f->long_label, va ? va : "-", vb ? vb : "-");
	}
}

static void
metric_line(struct strbuf *sb, const char *label, double v)
{
	char x[40];

	strbuf_addf(sb, "  %-20s %s\n", label, isnan(v) ? "-" : fmt_double(v, x, sizeof x));
}

static void
side_metrics(struct strbuf *sb, const struct model_diff_pair *q)
{
	const struct model_diff_metrics *x = &q->metrics;

	strbuf_addf(sb, "\nmetrics (rtol %g, atol %g, cos-min %g)%s\n", x->rtol, x->atol, x->cos_min,
		    x->values ? "" : ": summaries only");
	if (x->nonfinite_mismatch > 0)
		metric_line(sb, "nonfinite mismatch", x->nonfinite_mismatch);
	metric_line(sb, "cosine", x->cosine);
	metric_line(sb, "max abs error", x->max_abs_err);
	metric_line(sb, "max rel error", x->max_rel_err);
	metric_line(sb, "rmse", x->rmse);
	metric_line(sb, "within tolerance", x->within);
	metric_line(sb, "finite positions", x->finite_positions);
	metric_line(sb, "nan change", x->nan_delta);
	metric_line(sb, "inf change", x->inf_delta);
	metric_line(sb, "min change", x->min_delta);
	metric_line(sb, "max change", x->max_delta);
	metric_line(sb, "mean change", x->mean_delta);
	metric_line(sb, "zero fraction change", x->zero_fraction_delta);
	if (q->diverged)
		strbuf_addf(sb, "\nDIVERGED: %s; %s\n", x->reason, model_diff_cause_name(q->cause));
	else
		strbuf_adds(sb, "\nwithin tolerance\n");
}

static struct td_tensor *
value_of(struct model_detail *d)
{
	return d->noutputs && d->values && d->values[0] && d->values[0]->data ? d->values[0] : NULL;
}

static void
side_values(struct strbuf *sb, struct model *ma, struct model *mb, const struct model_diff_pair *q)
{
	struct model_detail da = {0}, db = {0};
	struct td_tensor *va, *vb;
	char x[40], y[40], z[40];
	int64_t i, n;

	model_trace_detail(ma, q->a_index, &da);
	model_trace_detail(mb, q->b_index, &db);
	va = value_of(&da), vb = value_of(&db);
	if (va || vb) {
		n = TD_MAX(va ? va->n : 0, vb ? vb->n : 0);
		strbuf_addf(sb, "\nvalues (flat order, %lld of %lld)\n",
			    (long long)TD_MIN(n, (int64_t)DIFF_VALUES_SHOWN), (long long)n);
		strbuf_addf(sb, "  %8s  %-22s %-22s %s\n", "i", "A", "B", "|A-B|");
		for (i = 0; i < n && i < DIFF_VALUES_SHOWN; i++) {
			double a = va && i < va->n ? td_tensor_get(va, i) : NAN;
			double b = vb && i < vb->n ? td_tensor_get(vb, i) : NAN;

			strbuf_addf(sb, "  %8lld  %-22s %-22s %s\n", (long long)i,
				    va && i < va->n ? fmt_double(a, x, sizeof x) : "-",
				    vb && i < vb->n ? fmt_double(b, y, sizeof y) : "-",
				    va && vb && i < va->n && i < vb->n ? fmt_double(fabs(a - b), z, sizeof z) : "-");
		}
	}
	model_detail_done(&da);
	model_detail_done(&db);
}

void
tui_diff_show_pair(struct tui *t, uint64_t pair)
{
	struct model_diff *d = tui_diff(t);
	struct model_diff_pair q;
	struct strbuf sb = {0};
	char title[256];

	if (!d || model_diff_pair_get(d, pair, &q) != TD_OK)
		return;
	snprintf(title, sizeof title, "Pair %llu: A trace %llu, B trace %llu, %s:%u",
		 (unsigned long long)pair, (unsigned long long)q.a_index,
		 (unsigned long long)q.b_index, q.a.op_name, q.a.slot);
	strbuf_addf(&sb, "op %s (%s)  host A %s  host B %s  step %lld\n\n", q.a.op_name,
		    *q.a.op_type ? q.a.op_type : "-", *q.a.host ? q.a.host : "-",
		    *q.b.host ? q.b.host : "-", (long long)q.step);
	pane_diff_side_summaries(&sb, &q.a.summary, &q.b.summary);
	side_metrics(&sb, &q);
	side_values(&sb, model_diff_a(d), model_diff_b(d), &q);
	tui_tensor_view_free(t);         /* no element tools on a pair */
	tui_text_set(&t->tensor, title, sb.buf ? sb.buf : "");
	strbuf_done(&sb);
	tui_open_overlay(t, OVERLAY_TENSOR);
}

/* ---- the Alerts pane's first line, the search behind it ------------------ */

bool
tui_diff_poll(struct tui *t)
{
	struct model_diff *d = tui_diff(t);

	if (!d || model_diff_first_step(d, 0) != -2)
		return false;
	if (model_diff_first_step(d, DIFF_SCAN_BUDGET) != -2) {
		tui_reopen(t);
		return false;
	}
	return true;
}

void
pane_diff_alert_draw(struct pane *p, int y)
{
	struct model_diff *d = tui_diff(p->tui);
	int64_t k = model_diff_first_step(d, 0);
	struct model_diff_counts n;
	struct model_diff_pair q;
	char buf[512];

	model_diff_counts(d, &n);
	if (k == -2) {
		snprintf(buf, sizeof buf, "comparing... %llu of %llu pairs agree so far",
			 (unsigned long long)model_diff_scanned(d), (unsigned long long)n.aligned);
		pane_print(p, y, 1, STYLE_DEFAULT, buf, -1);
		return;
	}
	if (k < 0 || model_diff_pair_get(d, (uint64_t)k, &q) != TD_OK) {
		snprintf(buf, sizeof buf, "no divergence in %llu pairs", (unsigned long long)n.aligned);
		pane_print(p, y, 1, STYLE_DEFAULT, buf, -1);
		return;
	}
	snprintf(buf, sizeof buf, "First divergence: A %llu / B %llu %s:%u (%s; %s)",
		 (unsigned long long)q.a_index, (unsigned long long)q.b_index, q.a.op_name, q.a.slot,
		 q.metrics.reason, model_diff_cause_name(q.cause));
	pane_print(p, y, 1, STYLE_ALERT, buf, -1);
}

void
tui_diff_goto_first(struct tui *t)
{
	struct model_diff *d = tui_diff(t);
	int64_t k = d ? model_diff_first_step(d, 0) : -1;
	uint64_t a, b;

	if (k == -2) {
		tui_message(t, false, "still comparing: %llu pairs agree so far",
			    (unsigned long long)model_diff_scanned(d));
		return;
	}
	if (k < 0 || !model_diff_rows(d, (uint64_t)k, &a, &b)) {
		tui_message(t, false, "no divergence");
		return;
	}
	tui_jump_trace(t, a, true);
	tui_focus(t, PANE_TRACES);
	tui_message(t, false, "first divergence: pair %lld (Enter: both tensors)", (long long)k);
}
