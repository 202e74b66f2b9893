/*
 * cmd_diff_stack.c - the NPU_Stack_Info cell of "diff --csv FILE --stack"
 * (the compare tool's -s): a row's creation stack written as the tool
 * writes it, Python's repr of the list of frame strings, innermost first.
 *
 * The model keeps a frame's parts (file, line, function, source line);
 * the string is put back together in the dump's own frame layout (README,
 * "Comparing two ... runs", names it); a frame the reader kept without a
 * file (a capture that failed) is its text alone.  Curses-free.
 */
#include "cmd_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_diff_csv.h"

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

bool
cmd_csv_has_stack(struct model *m, uint64_t i)
{
	struct model_detail d = { 0 };
	bool has = model_trace_detail(m, i, &d) == TD_OK && d.nstack > 0;

	model_detail_done(&d);
	return has;
}

char *
cmd_csv_stack_cell(struct model *m, uint64_t i)
{
	struct model_detail d = { 0 };
	struct strbuf cell = { 0 }, frame = { 0 };
	size_t k;

	if (model_trace_detail(m, i, &d) != TD_OK || !d.nstack) {
		model_detail_done(&d);
		return NULL;
	}
	strbuf_addc(&cell, '[');
	for (k = d.nstack; k-- > 0;) {      /* the model's are outermost first */
		struct model_frame f;

		frame.len = 0;
		if (frame.buf)
			frame.buf[0] = '\0';
		if (!model_frame_get(m, d.stack[k], &f))
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
	model_detail_done(&d);
	return strbuf_take(&cell);
}
