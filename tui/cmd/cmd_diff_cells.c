/*
 * cmd_diff_cells.c - the cells of "diff --csv" as the compare tool writes
 * them (cmd_diff_csv.h): floats and strings as Python's repr writes them,
 * the raw statistic cells, the diff and relative-error cells with their
 * special words (also for a bool tensor's or a null statistic), and the
 * NPU_Stack_Info cell of --stack (the tool's -s): a row's creation stack,
 * Python's repr of the list of frame strings, innermost first.
 *
 * The model keeps a frame's parts (file, line, function, source line);
 * the string is put back together in the dump's own frame layout (README,
 * "Comparing two ... runs", names it); a frame the reader kept without a
 * file (a capture that failed) is its text alone.  Curses-free.
 */
#include "cmd_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_diff_csv.h"
#include "cmd_diff_rows.h"

/* Python's repr of a double (util.h strbuf_add_pyfloat: the reader
 * spells non-tensor arguments the same way). */
void
cmd_csv_pyfloat(struct strbuf *sb, double v)
{
	strbuf_add_pyfloat(sb, v);
}

/* Whether the tool sees the two statistics as equal: it compares their
 * str(), so NaN equals NaN and -0.0 does not equal 0.0. */
static bool
same_text(double npu, double bench)
{
	return (isnan(npu) && isnan(bench)) ||
	       (npu == bench && signbit(npu) == signbit(bench));
}

/* The word of both cells of two unequal statistics that are not two
 * finite numbers, NULL for two finite numbers: "Nan" with a NaN, else the
 * sign of npu - bench as "inf" / "-inf". */
static const char *
special_word(double npu, double bench)
{
	if (isnan(npu) || isnan(bench))
		return "Nan";
	if (isinf(npu) || isinf(bench))
		return npu > bench ? "inf" : "-inf";
	return NULL;
}

void
cmd_csv_diff_cell(struct strbuf *sb, double npu, double bench)
{
	const char *w = special_word(npu, bench);

	if (same_text(npu, bench))
		strbuf_adds(sb, "0");
	else if (w)
		strbuf_adds(sb, w);
	else
		cmd_csv_pyfloat(sb, npu - bench);
}

void
cmd_csv_rel_cell(struct strbuf *sb, double npu, double bench)
{
	const char *w = special_word(npu, bench);

	if (same_text(npu, bench))
		strbuf_adds(sb, "0");
	else if (w)
		strbuf_adds(sb, w);
	else if (bench == 0)
		strbuf_adds(sb, "inf");
	else {
		cmd_csv_pyfloat(sb, fabs((npu - bench) / bench * 100));
		strbuf_addc(sb, '%');
	}
}

void
cmd_csv_pyrepr(struct strbuf *sb, const char *s)
{
	char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
	const unsigned char *p;

	strbuf_addc(sb, q);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\' || *p == (unsigned char)q) {
			strbuf_addc(sb, '\\');
			strbuf_addc(sb, (char)*p);
		} else if (*p == '\n') {
			strbuf_adds(sb, "\\n");
		} else if (*p == '\r') {
			strbuf_adds(sb, "\\r");
		} else if (*p == '\t') {
			strbuf_adds(sb, "\\t");
		} else if (*p < 0x20 || *p == 0x7f) {
			strbuf_addf(sb, "\\x%02x", *p);
		} else {
			strbuf_addc(sb, (char)*p);
		}
	}
	strbuf_addc(sb, q);
}

char *
cmd_csv_stack_cell(struct model *m, const struct model_detail *d)
{
	struct strbuf cell = { 0 }, frame = { 0 };
	size_t k;

	if (!d->nstack)
		return NULL;
	strbuf_addc(&cell, '[');
	for (k = d->nstack; k-- > 0;) {      /* the model's are outermost first */
		struct model_frame f;

		frame.len = 0;
		if (frame.buf)
			frame.buf[0] = '\0';
		if (!model_frame_get(m, d->stack[k], &f))
			continue;
		if (f.file && *f.file)
			strbuf_addf(&frame, "File %s, line %u, in %s, \n %s", f.file, f.line,
				    f.func ? f.func : "", f.code ? f.code : "");
		else
			strbuf_adds(&frame, f.func ? f.func : "");
		if (cell.len > 1)
			strbuf_adds(&cell, ", ");
		cmd_csv_pyrepr(&cell, frame.buf ? frame.buf : "");
	}
	strbuf_addc(&cell, ']');
	strbuf_done(&frame);
	return strbuf_take(&cell);
}

void
cmd_csv_raw_cell(struct strbuf *sb, bool has, double v)
{
	if (!has)
		strbuf_adds(sb, "N/A");
	else if (isinf(v))
		strbuf_adds(sb, v < 0 ? " -inf" : " inf");
	else
		cmd_csv_pyfloat(sb, v);
}

/* A statistic of a row as the tool holds it when it is no plain number:
 * Python's True / False for a bool tensor's Max and Min, None (NaN to its
 * rules) for a null. */
static void
stat_arg(const struct leaf *l, int k, struct td_arg *a, char *buf, size_t len)
{
	memset(a, 0, sizeof(*a));
	a->num = TD_ARG_TEXT;
	if (!l->has[k]) {
		snprintf(buf, len, "nan");
	} else if (k < 2 && l->bool_stats) {
		snprintf(buf, len, "%s", l->st[k] != 0 ? "True" : "False");
	} else {
		struct strbuf sb = { 0 };

		cmd_csv_pyfloat(&sb, l->st[k]);
		snprintf(buf, len, "%s", sb.buf);
		strbuf_done(&sb);
		a->num = TD_ARG_FLOAT;
		a->v = l->st[k];
	}
	a->value = buf;
}

void
cmd_csv_stat_cells(struct strbuf *diff, struct strbuf *rel, const struct leaf *n,
		   const struct leaf *b, int k)
{
	char nb[40], bb[40];
	struct td_arg na, ba;

	stat_arg(n, k, &na, nb, sizeof nb);
	stat_arg(b, k, &ba, bb, sizeof bb);
	cmd_csv_arg_cells(diff, rel, &na, &ba);
}

bool
cmd_csv_leaf_textual(const struct leaf *l)
{
	return l->bool_stats || l->none[0] || l->none[1] || l->none[2] || l->none[3];
}
