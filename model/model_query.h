/*
 * model_query.h - the narrow API the analysis floor (model/analysis/) asks
 * the model through: a row's indexed keys, a row's decoded facts, batches
 * of executions, an op's brief and its rows, graphs' nesting, the scans
 * that link rows, hosts, the links readers sent, and a slot for state an
 * analysis builds once per dump.  Part of model.h (model_analysis.h
 * includes it).
 *
 * Every function here takes the model's lock itself when it needs it (once
 * per call; the link scans once per block of 65,536 rows at most; never
 * once per scanned row) and may be called from any consumer
 * thread while the index thread runs; none may be called with the lock
 * held (an analysis file never holds it).  Rows are trace rows below
 * model_trace_count() unless said otherwise; strings live until
 * model_close().  Not for: anything that changes the tables.
 */
#ifndef TD_MODEL_QUERY_H
#define TD_MODEL_QUERY_H

#include "model_rows.h"
#include "reader/reader.h"

/* A host as the rows name it: 0 is "" (no host). */
#define MODEL_NO_HOST UINT32_MAX    /* model_host_key: no such host */

/* ---- rows ------------------------------------------------------------- */

/* The indexed keys of trace row i (no decode). */
struct model_row_keys {
	uint32_t op;                /* op id */
	uint32_t flags;             /* ROW_NONFINITE, ROW_INPUT, ROW_CORRUPT, ROW_REPEAT */
	uint32_t host;              /* host key (model_host_name), 0 none */
	int32_t graph;              /* the op's graph index, -1 none */
	int64_t step;               /* the reader's step of the row, -1 unknown */
	int64_t execution;          /* the execution holding the row, -1 unknown */
	int64_t exec_step;          /* that execution's step, -1 unknown */
};
/* The keys of the n rows rows[] into keys[] (one lock for all).  A row
 * past model_trace_count() gets op UINT32_MAX, no flags, host 0 and -1
 * for the rest. */
void model_trace_keys(struct model *m, const uint64_t *rows, size_t n,
		      struct model_row_keys *keys);
/* The output slot of row i (an input row: which input); decodes the row
 * only when its flag byte cannot hold the slot.  0 past the rows. */
uint32_t model_trace_slot(struct model *m, uint64_t i);

/* A row's facts from the decode cache (decoding it when not there). */
struct model_row_decoded {
	double wall_time;           /* 0 unknown */
	struct td_summary summary;  /* empty for a corrupt row */
	uint32_t from_values;       /* SUM_* bits computed from the values */
	bool corrupt;               /* the record no longer decodes */
};
/* Row i's decoded facts into d.  Takes the decode cache's own lock. */
void model_trace_decoded(struct model *m, uint64_t i, struct model_row_decoded *d);
/* Whether some trace row is an input row (ROW_INPUT): a dump without
 * them has no input row to look for.  No lock. */
bool model_traces_have_input_rows(struct model *m);
/* Whether rows of one execution may interleave with another's (the link
 * scans then check each candidate's execution).  No lock. */
bool model_traces_split_runs(struct model *m);
/* The first row j, i <= j < end, flagged ROW_NONFINITE (chunks without
 * one are skipped by their counts); end when none (end is capped at
 * model_trace_count()).  No lock. */
uint64_t model_trace_next_nonfinite(struct model *m, uint64_t i, uint64_t end);
/* The rows [*lo, *hi) around row i that one file holds (a checkpoint's
 * span: consecutive spans may share a file) and *file that file's id (a
 * number for model_file_host); false when row i has no span yet.  *hi is
 * UINT64_MAX for the last span.  No lock: for a cursor over rows. */
bool model_trace_span(struct model *m, uint64_t i, uint64_t *lo, uint64_t *hi, uint32_t *file);
/* The host key of file id file into *host; false when the file names no
 * host (its rows then take their execution's host: model_trace_host).
 * One lock. */
bool model_file_host(struct model *m, uint32_t file, uint32_t *host);
/* The host key of row i (its file's host, else its execution's; 0 none
 * or past the rows).  One lock. */
uint32_t model_trace_host(struct model *m, uint64_t i);
/* The host keys (as model_trace_host) and reader's steps (-1 unknown) of
 * rows [first, first + n) into host[] and step[] (either may be NULL: not
 * asked), one lock for all: for a scan in row order.  Returns how many
 * were below model_trace_count(). */
size_t model_trace_hosts(struct model *m, uint64_t first, size_t n, uint32_t *host,
			 int64_t *step);

/* ---- executions -------------------------------------------------------- */

struct model_exec_keys {
	double wall_time;
	uint32_t flags;             /* as recorded (ROW_FUNCTION, ROW_NONFINITE...) */
	int32_t graph;              /* called graph index, -1 */
	uint32_t host;              /* host key, 0 none */
	int64_t step;               /* -1 unknown */
	uint64_t first_trace, ntraces;
	uint32_t bad_outputs;       /* outputs with NaN/Inf, as recorded */
	const char *op_type;        /* op type, function name or run label */
	uint32_t type_key;          /* equal for executions of one op_type string */
};
/* The keys of executions [first, first + n) into out (one lock for all);
 * returns how many were below model_execution_count(). */
size_t model_execution_keys(struct model *m, uint64_t first, size_t n,
			    struct model_exec_keys *out);

/* ---- ops and graphs ------------------------------------------------------ */

/* What a scan needs of an op (no frames, no attributes). */
struct model_op_brief {
	const char *name, *type;    /* type "" unknown */
	const char *graph_id;       /* "" none */
	int32_t graph;              /* graph index, -1 */
	uint32_t graph_key;         /* equal for ops of one graph id (a number for
				     * comparing and hashing, no index) */
	uint32_t num_outputs;
	size_t ninputs;
	bool described;             /* the graph described it (not only a row's op) */
};
/* The number of ops and in *fill_gen how many times an op named only by
 * rows was described since (a change tells a caller keeping answers per
 * op that an op's type and graph may have changed).  One lock. */
uint32_t model_ops_filled(struct model *m, uint64_t *fill_gen);
/* Op id's brief into b; false past the ops.  One lock. */
bool model_op_brief(struct model *m, uint32_t id, struct model_op_brief *b);
/* The briefs of ops [first, first + n) into out (one lock for all, for a
 * walk over every op); returns how many were below model_op_count(). */
size_t model_op_briefs(struct model *m, uint32_t first, size_t n, struct model_op_brief *out);
/* The producer of input k of op id: its op id (-1 when the graph has no
 * op of that name), *slot its output slot and *name its name (either may
 * be NULL); -2 when op has no input k. */
int64_t model_op_input(struct model *m, uint32_t id, uint32_t k, uint32_t *slot,
		       const char **name);
/* The first and last trace rows of op id; false when it has none. */
bool model_op_rows(struct model *m, uint32_t id, uint64_t *first, uint64_t *last);
/* The ops named as op id is (in any graph, on any host), id first, then
 * in the order the dump sent them: a malloc'd array in *out (free()),
 * returns how many (0 past the ops). */
size_t model_op_same_name(struct model *m, uint32_t id, uint32_t **out);
/* Whether graph g is outer or nested (at any depth) inside it. */
bool model_graph_inside(struct model *m, int32_t g, int32_t outer);

/* ---- hosts ------------------------------------------------------------- */

/* The host string of a host key ("" for 0 or an unknown key). */
const char *model_host_name(struct model *m, uint32_t key);
/* The key of host name (0 for ""), MODEL_NO_HOST when the dump names no
 * such string. */
uint32_t model_host_key(struct model *m, const char *name);

/* ---- link scans (time order is the only link: HACKING.md) --------------- */

/* The latest row j, lo <= j < from, of (op, slot) (slot UINT32_MAX: any
 * output slot) that is an output row (not an input row, not a repeat),
 * or with input true an input row of the op with input slot slot; in
 * execution exec when exec >= 0 and runs interleave.  -1 none.  The op's
 * own first and last rows bound the scan; the lock is taken at most once
 * per block of rows, only when a candidate's execution must be checked. */
int64_t model_trace_scan_back(struct model *m, uint32_t op, uint32_t slot, uint64_t from,
			      uint64_t lo, int64_t exec, bool input);
/* The first output row j, from < j < hi, of (op, slot) under the same
 * rules; -1 none. */
int64_t model_trace_scan_fwd(struct model *m, uint32_t op, uint32_t slot, uint64_t from,
			     uint64_t hi, int64_t exec);
/* The rows [*lo, *hi) row i may link with (its execution's rows when rows
 * name their execution, else all) and *exec its execution (-1). */
void model_trace_link_bounds(struct model *m, uint64_t i, uint64_t *lo, uint64_t *hi,
			     int64_t *exec);
/* The rows a reader said row `to` got its value from (collectives,
 * send/recv: reader_link), in the order sent: a malloc'd array in *out
 * (free(); NULL when none), returns how many. */
size_t model_trace_peers(struct model *m, uint64_t to, uint64_t **out);

/* ---- the dump's reader ------------------------------------------------- */

/* The reader's READER_* flags (reader/reader.h: READER_PAIR_HOSTS_BY_POSITION
 * ...).  No lock. */
uint32_t model_reader_flags(struct model *m);
/* What the call count in op name means when two dumps are paired: the
 * reader's call_of (reader/reader.h, enum reader_call), key (keylen bytes)
 * the name without its count and *count the count; READER_CALL_NONE when
 * the reader numbers no calls.  No lock. */
enum reader_call model_op_call_key(struct model *m, const char *name, char *key, size_t keylen,
				   int64_t *count);
/* Whether a and b are read by one reader (so model_op_call_key and the
 * other reader answers above are the same function of a name on both).
 * No lock. */
bool model_same_reader(const struct model *a, const struct model *b);
/* The name maps of the format's compare tool (reader_ops.map_add,
 * map_name, map_free: their contracts), TD_ERR_UNSUPPORTED with err set
 * when m's format has none.  The map is the caller's: it must outlive a
 * diff made with it (model_diff_options.map); free it with
 * model_map_free(m, map) (NULL is fine).  No lock. */
enum td_status model_map_add(struct model *m, struct reader_map **map, enum reader_map_kind kind,
			     const char *path, char *err, size_t errlen);
/* The format's layer map (reader_ops.map_layers: its contract) of the
 * target b against the golden a into *map (made when NULL, freed as
 * above): both models fully indexed (model_wait) and of one format, else
 * TD_ERR_UNSUPPORTED with err set.  Reads both readers' tables; no lock
 * of the models'. */
enum td_status model_map_layers(struct model *b, struct model *a, struct reader_map **map,
				const char *path, char *err, size_t errlen);
const char *model_map_name(struct model *m, const struct reader_map *map, const char *name,
			   char *buf, size_t len);
void model_map_free(struct model *m, struct reader_map *map);
/* The map's leaf rules (reader_ops.map_leaf: its contract); false for a
 * NULL map or a format without them.  No lock. */
bool model_map_leaf(struct model *m, const struct reader_map *map, const char *op_name,
		    const char *leaf, char *buf, size_t len);

/* ---- state an analysis keeps per dump ----------------------------------- */

enum model_state_slot {
	MODEL_STATE_STEP_INDEX,     /* model/analysis/model_step.c */
	MODEL_STATE_COUNT
};
/* The state in slot for m, made by make() on first use (under the lock:
 * make must not call the model) and freed by done() at model_close().
 * The state's own locking is its owner's. */
void *model_state(struct model *m, enum model_state_slot slot, void *(*make)(void),
		  void (*done)(void *));

#endif
