/*
 * fake_reader.h - an in-memory reader for model tests.
 *
 * A test writes a script of records (meta, files, ops, traces, ...); the
 * fake's index() pushes them into the sink in script order, resumably (a
 * second pass sends only what was added since), and decode()/advance() find
 * records by their locators, as a real reader does.  The script can pause
 * the index pass (to test lazy growth), make records fail to decode, and
 * synthesise millions of rows without storing them.  Layer-free: it uses
 * only reader/ headers.
 */
#ifndef TD_FAKE_READER_H
#define TD_FAKE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/reader.h"

struct fake;

extern const struct reader_ops fake_reader_ops;

struct fake *fake_new(void);
void fake_free(struct fake *f);
/* The next fake_reader_ops.open() returns f (the fake is not freed by close). */
void fake_use(struct fake *f);

void fake_meta(struct fake *f, const char *key, const char *value);
void fake_file(struct fake *f, uint32_t id, const char *path, const char *host);
void fake_graph(struct fake *f, const char *id, const char *name, const char *outer);
/* inputs and frames: NULL-terminated lists, or NULL. */
void fake_op(struct fake *f, const char *graph, const char *name, const char *type,
	     const char *const *inputs, const char *const *frames);
/* A trace row in file; execution -1 none.  Returns its offset. */
uint64_t fake_trace(struct fake *f, uint32_t file, const char *graph, const char *op, uint32_t slot,
		    double wall, const struct td_summary *s);
uint64_t fake_trace_ex(struct fake *f, uint32_t file, const char *graph, const char *op,
		       uint32_t slot, double wall, const struct td_summary *s, int64_t execution,
		       bool is_input);
/* Gives the last trace added an op type, as formats without on_op do. */
void fake_trace_type(struct fake *f, const char *type);
/* Gives the last trace or execution added a step number (else -1). */
void fake_step(struct fake *f, int64_t step);
/* An execution with nout output summaries (bad outputs counted from them). */
uint64_t fake_exec(struct fake *f, uint32_t file, const char *op_type, const char *graph_id,
		   const char *host, double wall, const struct td_summary *outs, size_t nout);
/* Gives the last execution added its input and output tensor ids (as
 * decode's reader_detail.input_tensor_ids / output_tensor_ids). */
void fake_exec_ids(struct fake *f, const int64_t *in, size_t nin, const int64_t *out, size_t nout);
void fake_source(struct fake *f, uint32_t id, const char *host, const char *path,
		 const char *const *lines);
/* A source the dump knows only in part: lines[0..n), NULL for a gap. */
void fake_source_partial(struct fake *f, uint32_t id, const char *host, const char *path,
			 const char *const *lines, size_t n);
void fake_frame(struct fake *f, const char *id, const char *host, const char *file, uint32_t line,
		const char *func, int64_t source_id);
/* Gives the last op added an alias name (reader_op.aliases). */
void fake_op_alias(struct fake *f, const char *alias);
/* Gives the last op added an attribute (reader_op.attrs), value as text. */
void fake_op_attr(struct fake *f, const char *name, const char *value);
/* Gives the last op added a control input (reader_op.control_inputs). */
void fake_op_control(struct fake *f, const char *op_name);
/* Marks the last op's inputs as labels of its own leaves (reader_op.input_labels). */
void fake_op_input_labels(struct fake *f);
/* Marks the last frame added as the framework's code (reader_frame.framework). */
void fake_frame_framework(struct fake *f);
void fake_problem(struct fake *f, enum reader_problem_kind kind, int64_t file, const char *path);
/* The problem reported as fake_problem(f, kind, file, path) no longer holds. */
void fake_resolved(struct fake *f, enum reader_problem_kind kind, int64_t file, const char *path);
void fake_overflow(struct fake *f, const char *op_name, int64_t execution, const char *detail);
/* n synthetic trace rows of one op (file 9, op "syn" in graph "g"), every
 * nonfinite_every-th one non-finite (0 none).  Not stored.  The sink's
 * should_stop() is polled every 4096 of them. */
void fake_synth(struct fake *f, uint64_t n, uint64_t nonfinite_every);

/* Makes decode() of the record at (file, offset) fail. */
void fake_break(struct fake *f, uint32_t file, uint64_t offset);
/* index() blocks after sending n records in total until fake_release(). */
void fake_pause_after(struct fake *f, size_t n);
void fake_wait_paused(struct fake *f);
void fake_release(struct fake *f);
uint64_t fake_decodes(struct fake *f);
/* Makes decode() fill reader_detail.next_offset (as advance(loc, 1)). */
void fake_next_offsets(struct fake *f, bool on);
/* Records advance() has stepped over in total (the sum of its n). */
uint64_t fake_steps(struct fake *f);
/* The next index() sends the whole script again (a reader repeating itself). */
void fake_rewind(struct fake *f);
/* index() calls that have returned so far. */
unsigned fake_index_returned(struct fake *f);
/* Blocks until n index() calls have returned. */
void fake_wait_index_returned(struct fake *f, unsigned n);

/* Summaries. */
struct td_summary fake_full_health(int64_t elements, int64_t neg_inf, int64_t pos_inf, int64_t nan);
struct td_summary fake_curt_health(bool bad);

#endif
