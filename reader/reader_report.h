/*
 * reader_report.h - the one way a reader reports problems and progress to
 * its sink.  Every format calls these instead of filling struct
 * reader_problem and testing the sink's callbacks itself, so a NULL sink or
 * callback, the detail buffer and the progress arithmetic are handled in
 * one place.  Not for: the records themselves (on_trace, on_op ...), which
 * each reader sends as it builds them.
 */
#ifndef TD_READER_REPORT_H
#define TD_READER_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/reader.h"

/* Sends one problem to sink->on_problem; nothing when sink or the callback
 * is NULL.  file is the id announced with on_file, or -1; path, what and
 * detail may be NULL; offset is the record's byte offset (0 when it does
 * not apply), record its number in the file (-1 unknown).  The strings are
 * borrowed for the call only. */
void reader_report_problem(const struct reader_sink *sink, enum reader_problem_kind kind,
			   int64_t file, const char *path, uint64_t offset, int64_t record,
			   const char *what, const char *detail);

/* The same with the detail built from fmt and its arguments (printf
 * rules, cut at 511 bytes). */
void reader_report_problemf(const struct reader_sink *sink, enum reader_problem_kind kind,
			    int64_t file, const char *path, uint64_t offset, int64_t record,
			    const char *what, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* Progress of an index pass, in whatever unit the reader counts (bytes,
 * runs).  The reader adds to done and total as it learns them. */
struct reader_progress {
	uint64_t done;          /* units indexed, this pass and earlier ones */
	uint64_t total;         /* units the dump holds now */
	uint64_t step;          /* reader_report_progress sends once per step units; 0: every call */
	uint64_t last_sent;     /* done at the last send */
};

/* Sends (done, max(done, total)) to sink->on_progress when force is true
 * or done has grown by pr->step since the last send; nothing when sink or
 * the callback is NULL. */
void reader_report_progress(const struct reader_sink *sink, struct reader_progress *pr,
			    bool force);

#endif
