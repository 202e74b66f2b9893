/*
 * pane_tensor.c - the tensor overlay: everything the dump knows about the
 * selected row's tensors.
 *
 * The full summary (dtype, shape, the NaN/Inf/negative/zero/positive
 * counts, min/max/mean, std and, from values, the percentiles), and where
 * the dump stores values (full-tensor modes, array files) the values with
 * numpy-style slicing, the elements in the --range ranges, a heatmap of a
 * 2-D plane and a histogram drawn with block characters.  Built as text for
 * the text overlay; the elements' places are kept (tensor_view.h) for
 * tensor_tools.c.  Values come from model_*_detail, never from a guess.
 */
#include "tui_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_view.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/sanitize.h"
#include "tui/cmd/summary.h"

#define TENSOR_MAX_ELEMS 2000
#define HIST_BINS 20
#define HIST_WIDTH 40
#define HEAT_MAX_ROWS 64
#define HEAT_LEGEND_SWATCHES 8   /* colour swatches in the coloured legend */
#define HEAT_MAX_COLS 256

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

/* ---- cells: where each printed element went ------------------------------ */

static void
on_elem(void *arg, int64_t i, size_t off, size_t len)
{
	struct tui_tensor_view *v = arg;

	TD_GROW(v->cells, v->cap, v->ncells + 1);
	/* line is filled in by place_cells; col holds the offset until then */
	v->cells[v->ncells++] = (struct tv_cell){ .line = 0, .col = (uint32_t)off,
						  .len = (uint32_t)len, .idx = i };
}

/* Turns the cells' byte offsets in text into lines and columns (values are
 * ASCII, so bytes are columns). */
static void
place_cells(struct tui_tensor_view *v, const char *text)
{
	size_t line = 0, start = 0, pos = 0;

	for (size_t k = 0; k < v->ncells; k++) {
		size_t off = v->cells[k].col;
		for (; pos < off && text[pos]; pos++)
			if (text[pos] == '\n') {
				line++;
				start = pos + 1;
			}
		v->cells[k].line = (uint32_t)line;
		v->cells[k].col = (uint32_t)(off - start);
	}
}

/* ---- heatmap ------------------------------------------------------------------ */

static uint8_t
heat_level(double x, double lo, double hi)
{
	int k;

	if (isnan(x))
		return HEAT_NAN;
	if (isinf(x))
		return x < 0 ? HEAT_NEG_INF : HEAT_POS_INF;
	k = hi > lo ? (int)((x - lo) / (hi - lo) * THEME_HEAT_LEVELS) : THEME_HEAT_LEVELS / 2;
	return (uint8_t)(k < 0 ? 0 : k >= THEME_HEAT_LEVELS ? THEME_HEAT_LEVELS - 1 : k);
}

/* The shade character of a level (UTF-8 blocks, else ASCII). */
const char *
tui_heat_char(uint8_t level)
{
	static const char *const utf8[5] = { "\xc2\xb7", "\xe2\x96\x91", "\xe2\x96\x92",
					     "\xe2\x96\x93", "\xe2\x96\x88" };
	static const char *const ascii[5] = { ".", ":", "=", "#", "@" };

	if (level == HEAT_NAN)
		return "N";
	if (level == HEAT_NEG_INF)
		return "-";
	if (level == HEAT_POS_INF)
		return "+";
	return (sanitize_utf8() ? utf8 : ascii)[level * 5 / THEME_HEAT_LEVELS];
}

/* The legend says what the cells show: colour swatches, low to high, where
 * they are coloured (tensor_tools.c paints them), else the shade
 * characters; then the marks of NaN and the infinities. */
static void
add_legend(struct strbuf *sb, struct tui_tensor_view *v)
{
	size_t line_start = sb->len;

	while (line_start > 0 && sb->buf[line_start - 1] != '\n')
		line_start--;
	v->legend_n = 0;
	if (theme_heat(0)) {
		strbuf_adds(sb, ": low ");
		v->legend_line = 0;
		for (const char *p = sb->buf; p && *p; p++)
			v->legend_line += *p == '\n';
		v->legend_x = (int)(sb->len - line_start);     /* the line is ASCII so far */
		v->legend_n = HEAT_LEGEND_SWATCHES;
		for (int k = 0; k < HEAT_LEGEND_SWATCHES; k++)
			strbuf_adds(sb, tui_heat_char(THEME_HEAT_LEVELS - 1));
		strbuf_adds(sb, " high, N NaN, - -Inf, + +Inf\n");
		return;
	}
	strbuf_adds(sb, sanitize_utf8() ? ": \xc2\xb7 \xe2\x96\x91 \xe2\x96\x92 \xe2\x96\x93 \xe2\x96\x88, N NaN, - -Inf, + +Inf\n"
					: ": . : = # @, N NaN, - -Inf, + +Inf\n");
}

/* The plane of the last two axes of the selection (the others at their
 * first index), as shade characters; levels kept for the colours. */
static void
add_heatmap(struct strbuf *sb, struct tui_tensor_view *v, const struct td_slice_view *sv)
{
	int nd = sv->ndims;
	int64_t rows = nd >= 2 ? sv->count[nd - 2] : 1, cols = nd >= 1 ? sv->count[nd - 1] : 1;
	int64_t rs = nd >= 2 ? sv->stride[nd - 2] : 0, cs = nd >= 1 ? sv->stride[nd - 1] : 0;
	double lo = INFINITY, hi = -INFINITY;
	char a[32], b[32];

	v->legend_n = 0;
	v->heat_rows = (int)TD_MIN(rows, HEAT_MAX_ROWS);
	v->heat_cols = (int)TD_MIN(cols, HEAT_MAX_COLS);
	if (v->heat_rows <= 0 || v->heat_cols <= 0) {
		v->heat_rows = v->heat_cols = 0;
		strbuf_adds(sb, "  (nothing selected)\n");
		return;
	}
	for (int r = 0; r < v->heat_rows; r++)
		for (int c = 0; c < v->heat_cols; c++) {
			double x = td_tensor_get(v->x, sv->base + r * rs + c * cs);
			if (isfinite(x)) {
				lo = TD_MIN(lo, x);
				hi = TD_MAX(hi, x);
			}
		}
	strbuf_addf(sb, "  %s%lld x %lld%s, low %s to high %s",
		    nd > 2 ? "first plane, " : "", (long long)rows, (long long)cols,
		    rows > v->heat_rows || cols > v->heat_cols ? " (cut: slice to see the rest)" : "",
		    isfinite(lo) ? fmt_double(lo, a, sizeof a) : "-",
		    isfinite(hi) ? fmt_double(hi, b, sizeof b) : "-");
	add_legend(sb, v);
	v->heat = xcalloc((size_t)v->heat_rows * (size_t)v->heat_cols, 1);
	v->heat_line = 0;
	for (const char *p = sb->buf; p && *p; p++)     /* the line the rows start on */
		v->heat_line += *p == '\n';
	v->heat_x = 2;
	for (int r = 0; r < v->heat_rows; r++) {
		strbuf_adds(sb, "  ");
		for (int c = 0; c < v->heat_cols; c++) {
			uint8_t l = heat_level(td_tensor_get(v->x, sv->base + r * rs + c * cs), lo, hi);
			v->heat[r * v->heat_cols + c] = l;
			strbuf_adds(sb, tui_heat_char(l));
		}
		strbuf_addc(sb, '\n');
	}
}

/* ---- the values section ----------------------------------------------------- */

static void
add_ranges(struct strbuf *sb, struct tui_tensor_view *v, const struct td_slice_view *sv)
{
	int64_t hits = 0;

	for (int64_t k = 0; k < v->selected; k++)
		hits += value_ranges_contains(&v->ranges, td_tensor_get(v->x, td_slice_view_index(sv, k)));
	strbuf_adds(sb, "  in range ");
	value_ranges_format(&v->ranges, sb);
	strbuf_addf(sb, ": %lld of %lld elements (highlighted)\n", (long long)hits,
		    (long long)v->selected);
}

/* The slice hint: a command that works on this row's values, e.g.
 * ":print 88 [0:2, :]" for a matrix (":execution 5 --slice" for an
 * execution's output). */
static void
slice_example(const struct tui_tensor_view *v, const struct td_tensor *x, char *buf, size_t size)
{
	int64_t d0 = x->rank > 0 ? TD_MIN(x->dims[0], 2) : 0, last = x->rank > 0 ? x->dims[x->rank - 1] : 0;
	char cmd[64];

	snprintf(cmd, sizeof cmd, v->kind == TABLE_TRACES ? ":print %llu" : ":execution %llu --slice",
		 (unsigned long long)v->index);
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
add_values(struct strbuf *sb, struct tui_tensor_view *v, const struct td_tensor *x, bool stats)
{
	char example[160];
	struct td_slice slice, *sl = NULL;
	struct td_slice_view sv;
	struct td_summary s;
	const char *slice_text = v->slice;
	bool cells = !v->x && x->data;
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
		td_tensor_percentiles(x, NULL, &s);
		strbuf_adds(sb, "\n# Value statistics\n");
		summary_lines(sb, &s);
	}
	if (sl) {
		strbuf_addf(sb, "\n# Values %s\n", slice_text);
	} else {
		slice_example(v, x, example, sizeof example);
		strbuf_addf(sb, "\n# Values (a slice: %s; / finds a value, @ an element)\n", example);
	}
	if (td_slice_view(x, sl, &sv, err, sizeof err) != TD_OK) {
		strbuf_addf(sb, "  %s\n", err);
		return;
	}
	if (cells) {
		v->x = x;
		v->selected = td_slice_view_elements(&sv);
		if (v->has_ranges)
			add_ranges(sb, v, &sv);
	}
	if (td_tensor_format_cb(x, sl, TENSOR_MAX_ELEMS, sb, cells ? on_elem : NULL, v, err,
				sizeof err) != TD_OK)
		strbuf_addf(sb, "  %s\n", err);
	if (cells && td_dtype_size(x->dtype) && x->dtype != DTYPE_COMPLEX64 &&
	    x->dtype != DTYPE_COMPLEX128) {
		strbuf_adds(sb, "\n\n# Heatmap\n");
		add_heatmap(sb, v, &sv);
	}
	strbuf_adds(sb, "\n\n# Histogram of the finite values\n");
	add_histogram(sb, x);
}

/* The record's own text, without the lines the header already gave
 * ("device: ...", "host: ..."). */
static void
add_record_text(struct strbuf *sb, const struct model_detail *d)
{
	const char *p = d->text;

	strbuf_adds(sb, "\n# Record\n");
	while (p && *p) {
		size_t n = strcspn(p, "\n");
		bool dup = (d->device && *d->device && !strncmp(p, "device: ", 8)) ||
			   (d->host && *d->host && !strncmp(p, "host: ", 6));
		if (!dup)
			strbuf_addf(sb, "%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* Values and statistics first; the metadata in a compact header (host,
 * device, time once, mode) and the record's own text last, or first for an
 * execution (a run's fetches and targets say what it is). */
static void
add_detail(struct strbuf *sb, struct tui_tensor_view *v)
{
	const struct model_detail *d = &v->d;
	bool record_first = v->kind == TABLE_EXECUTIONS;
	char a[32];

	if (d->host && *d->host)
		strbuf_addf(sb, "  %s", d->host);
	if (d->device && *d->device)
		strbuf_addf(sb, "  %s", d->device);
	if (d->wall_time > 0)
		strbuf_addf(sb, "  %s", fmt_wall_time(d->wall_time, a, sizeof a));
	if (d->mode)
		strbuf_addf(sb, "  mode %s", d->mode);
	strbuf_addc(sb, '\n');
	if (record_first && d->text && *d->text)
		add_record_text(sb, d);
	for (size_t i = 0; i < d->noutputs; i++) {
		strbuf_addf(sb, "\n# Output %zu\n", i);
		if (d->summaries)
			summary_lines(sb, &d->summaries[i]);
		if (d->ndebug_values && d->ndebug_values[i]) {
			strbuf_adds(sb, "  debug values [");
			for (size_t k = 0; k < d->ndebug_values[i]; k++)
				strbuf_addf(sb, "%s%s", k ? ", " : "", fmt_double(d->debug_values[i][k], a, sizeof a));
			strbuf_adds(sb, "]\n");
		}
		if (d->values && d->values[i])
			add_values(sb, v, d->values[i], !d->summaries);
		else
			strbuf_addf(sb, "  (this dump%s%s stores no values for it)\n",
				    d->mode ? "'s mode " : "", d->mode ? d->mode : "");
	}
	if (v->has_ranges && !v->x)
		strbuf_adds(sb, "\n  --range: no values to look at in this row\n");
	if (!record_first && d->text && *d->text)
		add_record_text(sb, d);
}

/* ---- the view's lifetime ------------------------------------------------------ */

void
tui_tensor_view_free(struct tui *t)
{
	struct tui_tensor_view *v = t->tview;

	if (!v)
		return;
	if (v->have_d)
		model_detail_done(&v->d);
	free(v->slice);
	free(v->range_text);
	free(v->domain);
	free(v->cells);
	free(v->heat);
	free(v);
	t->tview = NULL;
}

/* A title "Tensor: trace 88 Log:0 (Log)"; false when the row is not indexed. */
static bool
view_title(struct tui *t, enum model_table kind, uint64_t index, char *title, size_t size)
{
	if (kind == TABLE_TRACES) {
		struct model_trace tr;
		if (model_trace_get(t->m, index, &tr) != TD_OK)
			return false;
		snprintf(title, size, "Tensor: trace %llu %s:%u (%s)", (unsigned long long)index,
			 tr.op_name, tr.slot, tr.op_type);
		return true;
	}
	struct model_execution ex;
	if (model_execution_get(t->m, index, &ex) != TD_OK)
		return false;
	snprintf(title, size, "Execution %llu %s", (unsigned long long)index, ex.op_type);
	return true;
}

void
tui_show_tensor(struct tui *t, enum model_table kind, uint64_t index, const char *slice,
		const char *ranges)
{
	struct tui_tensor_view *v;
	struct strbuf sb = { 0 };
	char title[256], err[256];
	enum td_status st;

	if (!view_title(t, kind, index, title, sizeof title)) {
		tui_message(t, true, "tensor: %s %llu is not indexed",
			    kind == TABLE_TRACES ? "trace" : "execution", (unsigned long long)index);
		return;
	}
	v = xcalloc(1, sizeof *v);
	v->kind = kind;
	v->index = index;
	v->cur = -1;
	v->slice = slice && *slice ? xstrdup(slice) : NULL;
	if (ranges && *ranges) {
		if (!value_ranges_parse(ranges, &v->ranges, err, sizeof err)) {
			tui_message(t, true, "tensor --range %s: %s", ranges, err);
			free(v->slice);
			free(v);
			return;
		}
		v->range_text = xstrdup(ranges);
		v->has_ranges = true;
	}
	tui_tensor_view_free(t);
	t->tview = v;
	st = kind == TABLE_TRACES ? model_trace_detail(t->m, index, &v->d)
			       : model_execution_detail(t->m, index, &v->d);
	v->have_d = st == TD_OK;
	if (st != TD_OK) {
		strbuf_addf(&sb, "cannot decode this record: %s\n", td_strerror(st));
	} else {
		cmd_detail_complete(&v->d);
		add_detail(&sb, v);
	}
	place_cells(v, sb.buf ? sb.buf : "");
	tui_text_set(&t->tensor, title, sb.buf ? sb.buf : "");
	strbuf_done(&sb);
	tui_open_overlay(t, OVERLAY_TENSOR);
}
