/*
 * reader_report.c - problem and progress reports from the readers to
 * their sink; see reader_report.h.
 */
#include "reader_report.h"

#include <stdarg.h>
#include <stdio.h>

void
reader_report_problem(const struct reader_sink *sink, enum reader_problem_kind kind,
		      int64_t file, const char *path, uint64_t offset, int64_t record,
		      const char *what, const char *detail)
{
	struct reader_problem p = {
		.kind = kind, .file = file, .path = path, .offset = offset,
		.record = record, .what = what, .detail = detail,
	};

	if (sink && sink->on_problem)
		sink->on_problem(sink->ctx, &p);
}

void
reader_report_problemf(const struct reader_sink *sink, enum reader_problem_kind kind,
		       int64_t file, const char *path, uint64_t offset, int64_t record,
		       const char *what, const char *fmt, ...)
{
	char detail[512];
	va_list ap;

	if (!sink || !sink->on_problem)
		return;
	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	reader_report_problem(sink, kind, file, path, offset, record, what, detail);
}

void
reader_report_progress(const struct reader_sink *sink, struct reader_progress *pr, bool force)
{
	if (!sink || !sink->on_progress)
		return;
	if (force || pr->done - pr->last_sent >= pr->step) {
		pr->last_sent = pr->done;
		sink->on_progress(sink->ctx, pr->done, TD_MAX(pr->done, pr->total));
	}
}
