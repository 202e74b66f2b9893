/*
 * record_sink.h - a struct reader_sink that records everything a reader
 * pushes (copies of strings included), for reader unit tests.  Layer-free:
 * it only knows reader/reader.h.
 *
 *	struct record_sink rs;
 *	struct reader_sink sink;
 *	record_sink_init(&rs, &sink);
 *	ops->index(r, &sink);
 *	... rs.traces[88].op_name ...
 *	record_sink_done(&rs);
 */
#ifndef TD_TEST_RECORD_SINK_H
#define TD_TEST_RECORD_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

struct rs_meta { char *key, *value; };
struct rs_file { uint32_t id; char *path, *host, *role; uint64_t size;
	bool listed_only; char *read; /* reader_file.read joined by ',' */ };
struct rs_source { uint32_t id; char *host, *path; struct td_locator loc; uint64_t nlines; };
struct rs_frame { char *id, *host, *file, *func; int64_t source_id; uint32_t line; };
struct rs_graph { char *graph_id, *name, *outer_id; };
struct rs_device { int32_t id; char *name, *host; };
struct rs_op {
	char *graph_id, *op_name, *op_type, *host;
	char **inputs; size_t ninputs;
	bool input_labels;
	char **frame_ids; size_t nframes;
	int64_t *output_ids; size_t noutput_ids;
	uint32_t num_outputs;
};
struct rs_execution {
	struct td_locator loc;
	char *op_type, *graph_id, *host;
	uint32_t num_outputs, bad_outputs;
	bool has_values;
	double wall_time;
	int64_t step;
};
struct rs_trace {
	struct td_locator loc;
	char *graph_id, *op_name, *op_type;
	uint32_t slot;
	double wall_time;
	struct td_summary summary;
	int64_t step;
};
struct rs_problem {
	enum reader_problem_kind kind;
	int64_t file, record;
	uint64_t offset;
	char *path, *what, *detail;
};

struct record_sink {
	struct rs_meta *meta; size_t nmeta, metacap;
	struct rs_file *files; size_t nfiles, filecap;
	struct rs_source *sources; size_t nsources, sourcecap;
	struct rs_frame *frames; size_t nframes, framecap;
	struct rs_graph *graphs; size_t ngraphs, graphcap;
	struct rs_device *devices; size_t ndevices, devicecap;
	struct rs_op *ops; size_t nops, opcap;
	struct rs_execution *executions; size_t nexecutions, executioncap;
	struct rs_trace *traces; size_t ntraces, tracecap;
	struct rs_problem *problems; size_t nproblems, problemcap;
	uint64_t progress_calls, progress_done, progress_total;
};

/* A reader opened on a directory, with what its index pass sent. */
struct recorded {
	const struct reader_ops *ops;
	struct reader *r;
	struct record_sink rs;
	struct reader_sink sink;
};
/* Opens dir with ops (default options) and runs one index pass into
 * ix->rs, under a 20-second alarm (a reader that blocks fails the test
 * instead of hanging it); asserts that open and index succeed. */
void record_sink_index(const struct reader_ops *ops, const char *dir, struct recorded *ix);
/* Closes the reader and frees the record. */
void record_sink_index_done(struct recorded *ix);
/* Two passes sent the same (a staged pass against the one-thread pass):
 * files, trace rows with their summaries' bytes, problems and their
 * words, executions, ops, meta and progress, in order; cmocka asserts. */
void record_sink_assert_same(const struct record_sink *a, const struct record_sink *b);
/* Opens dir with ops and runs an index pass whose sink, on every trace and
 * execution announced, decodes it and advances one record to it from the
 * row announced before it: a row the model was told of is readable at once
 * (the TUI reads rows while the pass runs).  Counts rows checked and
 * failed. */
void record_index_reachable(const struct reader_ops *ops, const char *dir, uint64_t *checked,
			    uint64_t *failed);

/* A writable copy of a fixture folder at dir (tmp/d), for tests that
 * change a dump under a reader: tmp_dump_make copies it (and runs the
 * shell command then, NULL none, with $T the temporary folder);
 * tmp_dump_sh runs a shell command there and asserts it succeeds;
 * tmp_dump_done removes it. */
struct tmp_dump { char *tmp, *dir; };
void tmp_dump_make(struct tmp_dump *f, const char *fixture, const char *then);
void tmp_dump_sh(const struct tmp_dump *f, const char *script);
void tmp_dump_done(struct tmp_dump *f);
/* ops->open(dir) with default options, failing the test with the reader's
 * message; and an index pass into rs whose state is saved into state. */
struct reader *record_open(const struct reader_ops *ops, const char *dir);
struct strbuf;
void record_index_and_save(const struct reader_ops *ops, const char *dir, struct record_sink *rs,
			   struct strbuf *state);

/* Zeroes rs and points every callback of sink at it. */
void record_sink_init(struct record_sink *rs, struct reader_sink *sink);
void record_sink_done(struct record_sink *rs);
/* Last value of a scalar key, or NULL; the n-th value of a list key. */
const char *record_sink_meta(const struct record_sink *rs, const char *key, size_t nth);
/* Problems of kind. */
size_t record_sink_problems(const struct record_sink *rs, enum reader_problem_kind kind);
/* First op with that name (any graph), or NULL. */
const struct rs_op *record_sink_op(const struct record_sink *rs, const char *op_name);
/* The frame with that id, or NULL. */
const struct rs_frame *record_sink_frame(const struct record_sink *rs, const char *id);

#endif
