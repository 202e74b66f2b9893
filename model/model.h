/*
 * model.h - the format-neutral model of one open dump.
 *
 * Readers fill it through the reader_sink; everything above (the command
 * layer, batch mode, the panes) asks it questions by row number and never
 * sees a file format.  The model:
 *   - opens a dump and returns at once; a background thread runs the
 *     reader's index pass and publishes how far it got (model_progress);
 *     callers read whatever is indexed so far;
 *   - keeps per row only what queries need (an op reference and a flag byte
 *     per trace, sparse locators), a few bytes per row, and decodes rows on
 *     demand through a bounded cache;
 *   - interns names for the lifetime of the model: every `const char *`
 *     returned here stays valid until model_close() unless said otherwise;
 *   - computes alerts (NaN/Inf as TensorFlow's InfNanMonitor does) and keeps
 *     those the reader states (overflow ...),
 *     links (trace -> op -> inputs/consumers -> their rows; -> stack ->
 *     source line) and regex filters (PCRE2, once per distinct name).
 *
 * All functions are safe to call from one consumer thread while the index
 * thread runs.  Nothing here draws or prints.
 *
 * Typical use (batch mode):
 *
 *	struct model *m;
 *	if (model_open(dir, &opts, &m, err, sizeof err) != TD_OK) ...
 *	model_wait(m);                        // batch: wait for the full index
 *	struct model_trace row;
 *	model_trace_get(m, 88, &row);
 *	model_close(m);
 */
#ifndef TD_MODEL_H
#define TD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/safeio.h"
#include "reader/base/tensor.h"
#include "reader/base/util.h"

struct model;

struct model_options {
	const char *source_root;    /* remap producer source paths (may be NULL) */
	const char *format;         /* force a reader by name, NULL = detect */
	bool strict;                /* make corrupt records an error (model_open fails) */
	bool no_thread;             /* index synchronously inside model_open (tests) */
	size_t cache_rows;          /* decoded-row cache size, 0 = default */
	bool follow;                /* follow mode from the start (reader_options.follow) */
	bool may_follow;            /* an interactive session (reader_options.may_follow) */
	/* The persistent index (issue 18): keep the index of a dump in a
	 * cache file and open it from there next time (when the format's
	 * reader can resume).  Off unless set: the command line sets it
	 * unless --no-cache. */
	bool cache;
	const char *cache_dir;      /* NULL: $XDG_CACHE_HOME/tdbg or ~/.cache/tdbg */
	uint64_t cache_max;         /* bytes the directory may hold; 0: $TDBG_CACHE_MAX or 1 GiB */
};

/* What became of the persistent index of an open dump. */
enum model_cache_state {
	MODEL_CACHE_OFF,            /* not asked for, or the format cannot resume */
	MODEL_CACHE_UNAVAILABLE,    /* no cache directory could be made: indexed, not kept */
	MODEL_CACHE_NEW,            /* no cache file yet: indexed, then saved */
	MODEL_CACHE_USED,           /* opened from the cache: the dump was unchanged */
	MODEL_CACHE_EXTENDED,       /* opened from the cache, then the appended records indexed */
	MODEL_CACHE_REBUILT,        /* a cache file was there but not usable (why): indexed anew */
	MODEL_CACHE_STALE,          /* used, then a decoded row contradicted it (why): the
				     * file is dropped, the next open indexes afresh */
};

/* tdbg --clear-cache (model_cache_clear.c): removes the persistent index
 * of the dump at path (opened with opt, cache on, to learn its file), or,
 * path NULL, every index file in the cache directory (opt->cache_dir, else
 * $XDG_CACHE_HOME/tdbg): only regular files named as tdbg names them
 * (16 hex digits and ".tdx"), nothing else there.  *files and *bytes count
 * what went; *dir is the directory (malloc'd; NULL when there is none).
 * TD_ERR_NOENT and friends with err when the dump cannot be opened;
 * TD_ERR_IO with err when a file could not be removed (the others are). */
enum td_status model_cache_clear(const char *path, const struct model_options *opt,
				 uint64_t *files, uint64_t *bytes, char **dir, char *err,
				 size_t errlen);

/* Opens the dump at path.  Returns TD_ERR_FORMAT (with err naming what was
 * looked for) when no reader recognises it, TD_ERR_NOENT / TD_ERR_IO when it
 * cannot be read.  On success *out is ready for queries at once. */
enum td_status model_open(const char *path, const struct model_options *opt,
			  struct model **out, char *err, size_t errlen);
struct reader_ops;
/* Like model_open() with a given reader (tests, tools): no probing. */
enum td_status model_open_with(const struct reader_ops *ops, const char *path,
			       const struct model_options *opt, struct model **out,
			       char *err, size_t errlen);
/* For the fuzzer and tests: opens path with ops like model_open_with()
 * with no_thread, but takes the index from data, the bytes of a cache file
 * (model_cache.c), with no checksum and no fingerprint check, then runs
 * the (resumed) index pass.  TD_ERR_CORRUPT (nothing opened) when the
 * bytes are refused, err ending in the reason ("cache file of another
 * layout ..."). */
enum td_status model_open_cache_bytes(const struct reader_ops *ops, const char *path,
				      const void *data, size_t len, struct model **out,
				      char *err, size_t errlen);
/* Stops the index thread and frees everything.  NULL is fine.  Readers
 * poll the sink's should_stop() and give a running pass up; if one is still
 * running after a short wait (100 ms), the thread finishes it in the
 * background, dropping records, and frees the model then.  m is invalid on
 * return. */
void model_close(struct model *m);
/* Blocks until the current index pass is finished. */
void model_wait(struct model *m);
/* Follow mode: runs another index pass over what was appended since (in the
 * background thread).  Returns at once. */
void model_refresh(struct model *m);

struct model_progress {
	bool done;                  /* the index pass is finished */
	uint64_t bytes_done, bytes_total;
	uint64_t executions, traces;
	uint64_t generation;        /* increases whenever rows or alerts change */
};
void model_progress(struct model *m, struct model_progress *p);

/* ---- formats ---------------------------------------------------------- */

struct model_format {
	const char *name;           /* what model_options.format takes */
	const char *description;    /* one line for --help and the man page */
	const char *values_in;      /* the dumps of it that keep full tensor values, or NULL */
};
/* The i-th format tdbg reads, in detection order; false past the last.
 * Help text and messages name formats from here, never from code above
 * the readers. */
bool model_format_at(size_t i, struct model_format *f);

/* ---- dump facts ---------------------------------------------------- */

struct model_meta {
	const char *key;            /* without the "[]" list marker */
	bool list;                  /* the reader sent "key[]": always a JSON list */
	const char *const *values;  /* one or more values, in arrival order */
	size_t nvalues;
};

struct model_info {
	const char *path;
	const char *format;             /* the reader's "format" meta, else its name */
	const char *tensor_debug_mode;  /* "FULL_HEALTH", or NULL */
	const char *const *hosts;
	size_t nhosts;
	uint64_t executions, traces, ops, graphs, devices, source_files, stack_frames;
	uint64_t alerts;
	uint64_t corrupt_records;       /* problems other than a torn tail / missing file */
	uint64_t torn_files;            /* files whose tail is torn now (a tail the
					 * writer completed since is not counted) */
	uint64_t missing_files;
	uint64_t problems_by_kind[16];  /* indexed by enum reader_problem_kind */
	const struct model_meta *meta;  /* every on_meta key, for extras (runs, ranks...) */
	size_t nmeta;
	const char *no_stacks_why;      /* why dumps of this format never hold source or
					 * stacks (the reader's words), or NULL */
	const char *no_control_why;     /* why its ops never list control inputs, or NULL */
	const char *no_attrs_why;       /* why its ops never carry attributes, or NULL */
	const char *index_cache;        /* the persistent index: "off", "unavailable", "new",
					 * "used", "extended", "rebuilt" or "stale" (enum model_cache_state) */
	const char *index_cache_why;    /* why rebuilt or unavailable, else "" */
	const char *index_cache_path;   /* its file, NULL when there is none to have
					 * (off, unavailable); lives as long as the model */
	int64_t index_cache_bytes;      /* the file's size, -1 when not written (yet) */
};
/* True when the dump has corrupt records (problems other than a torn tail
 * or a missing file) among what is indexed: --strict callers check it after
 * model_wait().  With no_thread, model_open() itself fails in strict mode. */
bool model_has_problems(struct model *m);
/* Bytes the model holds for what grows with the dump (rows, locators,
 * names, ops, frames, sources), not counting the bounded decode cache. */
size_t model_memory_bytes(struct model *m);
/* Fills info; pointers are valid until the next model_info() call. */
void model_info(struct model *m, struct model_info *info);
/* The folders the dump is read from, identified by device and inode when
 * the dump was opened (the folder given, and the one above it a format
 * reads whole), so that a symbolic link re-pointed or a folder renamed
 * since changes nothing: tdbg writes into none of them nor below them.
 * Sets *ids (valid until model_close) and returns their count (0 to 2).
 * *real (if not NULL) gets the outermost one's real path at open, for
 * messages (the path given when it could not be resolved). */
size_t model_roots(struct model *m, const struct safeio_id **ids, const char **real);
/* The values of one meta key, NULL if absent.  Valid until model_close(). */
const struct model_meta *model_meta_get(struct model *m, const char *key);

struct model_problem {
	const char *kind;           /* "bad-data-crc" */
	const char *path;
	uint64_t offset;
	int64_t record;
	const char *what;
	const char *detail;
};
/* The first problems kept (up to a few hundred), in arrival order. */
size_t model_problem_count(struct model *m);
bool model_problem_get(struct model *m, size_t i, struct model_problem *p);

/* ---- tables ---------------------------------------------------------- */

enum model_row_flags {
	ROW_NONFINITE  = 1u << 0,   /* this row's value has NaN/Inf (an alert) */
	ROW_CONTAINS_NONFINITE = 1u << 1, /* execution: one of its traces has NaN/Inf */
	ROW_CORRUPT    = 1u << 2,   /* the record could not be decoded */
	ROW_INPUT      = 1u << 3,   /* trace is an op input dumped as a row, not an output */
	ROW_FUNCTION   = 1u << 4,   /* execution is a function (graph) call */
	ROW_REPEAT     = 1u << 5,   /* trace shows a tensor another row of its step holds
				     * (an input whose producer's row is there, a second
				     * view of one tensor): no alert of its own */
};

/* What a tensor is in training, from its op's type and name (one neutral
 * rule set: variables, parameters and their reads are weights; gradient
 * scopes, `*_grad` names and *Grad/Backprop ops gradients; outputs of
 * activation ops activations). */
enum model_role { ROLE_NONE, ROLE_WEIGHT, ROLE_GRADIENT, ROLE_ACTIVATION };
enum model_role model_role_of(const char *op_name, const char *op_type);
/* "weight", "gradient", "activation", or "" for ROLE_NONE. */
const char *model_role_name(enum model_role r);

struct model_trace {
	uint64_t index;
	uint32_t op;                /* op id (model_op_get) */
	const char *op_name;
	const char *op_type;
	const char *graph_id;       /* "" when none */
	const char *graph_name;
	uint32_t slot;
	uint32_t flags;             /* enum model_row_flags */
	int64_t execution;          /* owning execution, -1 unknown */
	double wall_time;
	const char *device;         /* may be "" */
	const char *host;           /* host or rank the row came from, "" unknown */
	const char *debug_op;       /* the debug op that wrote the row when a tensor can
				     * have several ("DebugNanCount"), else NULL */
	struct td_summary summary;
	uint32_t from_values;       /* summary bits tdbg computed from the row's values
				     * because the dump's statistics lack them; the
				     * others are the dump's (or the reader's) */
	int64_t step;               /* training step / iteration the dump gives the
				     * row (its run's or iteration's number), -1
				     * unknown; compare rows of one op across steps */
	enum model_role role;       /* from the op's type and name */
};
uint64_t model_trace_count(struct model *m);
/* The indexed fields of row i without decoding it: its op id and flags
 * (enum model_row_flags).  false past the indexed rows.  A scan of many
 * rows (sorting by op) costs a few bytes each, not a decode. */
bool model_trace_quick(struct model *m, uint64_t i, uint32_t *op, uint32_t *flags);
/* Fills row i (decoding through the cache).  TD_ERR_RANGE past the indexed
 * rows; a row whose record no longer decodes gets ROW_CORRUPT and an empty
 * summary, and TD_OK. */
enum td_status model_trace_get(struct model *m, uint64_t i, struct model_trace *row);

struct model_execution {
	uint64_t index;
	const char *op_type;        /* op type, function name or run label */
	int32_t graph;              /* called graph id (model_graph_get), -1 */
	uint32_t flags;
	uint32_t num_outputs;
	uint32_t bad_outputs;       /* outputs with NaN/Inf (alerts) */
	double wall_time;
	uint64_t first_trace, ntraces; /* traces owned by this execution (runs that contain them) */
	const char *host;
	int64_t step;               /* its training step / iteration number, -1 unknown */
};
uint64_t model_execution_count(struct model *m);
/* True when trace rows name the execution that owns them (traces of one
 * run or graph run); false when the dump does not link them (then a trace's
 * execution is -1 and filtering traces by execution finds nothing). */
bool model_traces_name_executions(struct model *m);
enum td_status model_execution_get(struct model *m, uint64_t i, struct model_execution *row);
/* The trace rows execution i holds (a run, a graph run: when traces name
 * their execution) that have NaN/Inf: what its ROW_CONTAINS_NONFINITE
 * flag counts.  0 when traces do not name executions or past the end.
 * Walks the execution's rows' flags (no decode): for a listing, not for
 * every redraw. */
uint64_t model_execution_nonfinite_traces(struct model *m, uint64_t i);

/* Details decoded on demand, owned by the caller: model_detail_done(). */
struct model_detail {
	char *mode;                 /* tensor debug mode name */
	char *device, *host;
	double wall_time;
	size_t noutputs;
	struct td_summary *summaries;
	struct td_tensor **values;  /* full values where the dump has them (else NULL entries) */
	double **debug_values;      /* raw debug vectors */
	size_t *ndebug_values;
	uint32_t *stack;            /* frame ids, outermost first */
	size_t nstack;
	char *text;                 /* free-form detail lines */
	int64_t *input_tensor_ids, *output_tensor_ids;
	size_t ninput_ids, noutput_ids;
};
enum td_status model_trace_detail(struct model *m, uint64_t i, struct model_detail *d);
enum td_status model_execution_detail(struct model *m, uint64_t i, struct model_detail *d);
void model_detail_done(struct model_detail *d);

/* ---- ops, graphs, devices ------------------------------------------ */

struct model_tensor_ref {
	const char *op_name;
	uint32_t slot;
	int64_t op;                 /* resolved op id, -1 if not in the graph */
};

struct model_attr {
	const char *name;
	const char *value;          /* as text */
};

/* An output's type as the graph records it (dtype DTYPE_INVALID, rank -1
 * where it does not). */
struct model_output_type {
	enum td_dtype dtype;
	int rank;
	const int64_t *dims;        /* rank entries, -1 an unknown dim */
};

struct model_op {
	uint32_t id;
	const char *name;
	const char *type;           /* "" unknown */
	const char *graph_id;       /* "" none */
	const char *graph_name;
	int32_t graph;              /* graph index, -1 */
	const char *device;
	const char *host;
	uint32_t num_outputs;
	const struct model_tensor_ref *inputs;
	size_t ninputs;
	const struct model_tensor_ref *control_inputs; /* ops that run first (slot 0) */
	size_t ncontrol_inputs;
	const struct model_attr *attrs;  /* the graph's attributes, in its order */
	size_t nattrs;
	const struct model_output_type *output_types; /* per output slot, where recorded */
	size_t noutput_types;
	const int64_t *output_tensor_ids;
	size_t noutput_tensor_ids;
	const uint32_t *stack;      /* frame ids, outermost first */
	size_t nstack;
};
uint32_t model_op_count(struct model *m);
/* Pointers stay valid until model_close(). */
bool model_op_get(struct model *m, uint32_t id, struct model_op *op);
/* Finds an op by name, in graph_id when given (graph id or graph name).
 * Without a graph, a name may also be an alias the reader sent with an op
 * (reader_op.aliases) or the unique last "/" part of a scoped name; an
 * exact name wins, then an alias.  Returns -1 if none. */
int64_t model_op_find(struct model *m, const char *name, const char *graph);

struct model_consumer {
	uint32_t op;                /* consumer op id */
	uint32_t input_slot;        /* which of its inputs */
	uint32_t output_slot;       /* which of our outputs it reads */
};
/* Consumers of op, up to max; returns the total number. */
size_t model_op_consumers(struct model *m, uint32_t op, struct model_consumer *out, size_t max);
/* The ops that list op as a control input (input_slot: which of their
 * control inputs, output_slot 0), up to max; returns the total number. */
size_t model_op_control_consumers(struct model *m, uint32_t op, struct model_consumer *out,
				  size_t max);

struct model_graph {
	uint32_t index;
	const char *graph_id;
	const char *name;
	int32_t outer;              /* enclosing graph index, -1 */
	uint32_t nops;
};
uint32_t model_graph_count(struct model *m);
bool model_graph_get(struct model *m, uint32_t i, struct model_graph *g);
int32_t model_graph_find(struct model *m, const char *graph_id_or_name);

/* ---- links ------------------------------------------------------------ */

struct model_link {
	int64_t op;                 /* -1 unresolved */
	const char *op_name;
	const char *op_type;
	uint32_t slot;              /* producer output slot (inputs) / consumer input slot (consumers) */
	int64_t trace_index;        /* linked trace row, -1 none */
};
/* Inputs of the op of trace row i, each with the latest trace row of that
 * producer tensor before row i.  Returns a malloc'd array in *out. */
size_t model_trace_inputs(struct model *m, uint64_t i, struct model_link **out);
/* Consumers of trace row i's tensor, each with the first trace row that
 * consumer produced after row i. */
size_t model_trace_consumers(struct model *m, uint64_t i, struct model_link **out);
/* Latest trace row < before (or first row > after when dir > 0) of (op, slot); -1 none.
 * slot UINT32_MAX matches any output slot. */
int64_t model_trace_of_op(struct model *m, uint32_t op, uint32_t slot, uint64_t from, int dir);

/* ---- link trees (the debugger CLI's `li -r -d N` and `lo -r`) ---------- */

/* What a trace row shows of NaN/Inf. */
enum model_health { HEALTH_UNKNOWN, HEALTH_FINITE, HEALTH_NONFINITE };
/* "unknown", "finite", "nonfinite". */
const char *model_health_name(enum model_health h);
/* The health of trace row r (decoded through the cache when its flags do
 * not tell); HEALTH_UNKNOWN for r < 0, past the rows, a corrupt row or a
 * mode without NaN/Inf counts. */
enum model_health model_trace_health(struct model *m, int64_t r);

enum model_tree_dir { TREE_INPUTS, TREE_CONSUMERS };

struct model_tree_node {
	uint32_t depth;             /* 1: a direct input / consumer of the root */
	int64_t parent;             /* index of the parent node, -1: the root */
	int64_t op;                 /* op id, -1 not in the dump's graphs */
	const char *op_name;
	const char *op_type;        /* "" unknown */
	uint32_t slot;              /* inputs: the producer's output slot; consumers:
				     * the consumer's input slot (control: which
				     * control input) */
	bool control;               /* a control edge: runs first, no tensor flows */
	int64_t trace_index;        /* inputs: the latest row of the tensor before the
				     * parent's row; consumers: the first row of the
				     * consumer after it; -1 none */
	int64_t bound;              /* the row the search started from (the parent's
				     * row, else its bound), -1 none: for expanding */
	enum model_health health;   /* of trace_index (model_tree_children: from the
				     * row's flags only, NONFINITE or UNKNOWN; call
				     * model_trace_health for the rest) */
	bool repeat;                /* the op was expanded above: not again */
};

/* One level: the inputs (data, then control) or consumers of op, seen
 * from its trace row row (-1: no row; then the rows are searched from
 * bound, the latest before it / the first after it, or over all rows when
 * bound < 0).  A row that is an op's input row (ROW_INPUT) has its
 * producer as its one input and no control inputs.  health is only what
 * the rows' flags tell (no decoding).  Returns the count and a malloc'd
 * array in *out (depth 1, parent -1); free() it. */
size_t model_tree_children(struct model *m, uint32_t op, int64_t row, int64_t bound,
			   enum model_tree_dir dir, struct model_tree_node **out);

/* The nodes a tree holds at most; past it *truncated is set. */
#define MODEL_TREE_MAX 2000
/* The tree of inputs / consumers of op (seen from row, -1 none) down to
 * depth levels (>= 1), in pre-order (each node followed by its subtree):
 * an op met a second time is listed with repeat set and not expanded, so
 * a graph with shared producers stays linear.  health is decoded
 * (model_trace_health).  Returns the count and a malloc'd array in *out
 * (free()). */
size_t model_tree(struct model *m, uint32_t op, int64_t row, enum model_tree_dir dir,
		  unsigned depth, struct model_tree_node **out, bool *truncated);

/* ---- stacks and source ----------------------------------------------- */

struct model_frame {
	uint32_t id;
	const char *file;
	const char *host;
	const char *func;
	const char *code;           /* source text recorded with the frame, or NULL */
	uint32_t line;
	int64_t source;             /* source file index, -1 not in the dump */
	bool user_code;             /* the user's code, not the framework's (as the reader marked it) */
};
uint32_t model_frame_count(struct model *m);
bool model_frame_get(struct model *m, uint32_t id, struct model_frame *f);

struct model_source {
	uint32_t index;
	const char *host;
	const char *path;
	uint64_t nlines;            /* 0 if not known before loading */
	bool in_dump;               /* lines come from the dump (else from disk) */
	bool partial;               /* once loaded: only some lines are known (the
				     * file was not found; model_source_line_known) */
};
uint32_t model_source_count(struct model *m);
bool model_source_get(struct model *m, uint32_t i, struct model_source *s);
/* By path (exact, else unique suffix match), host optional; -1 none. */
int64_t model_source_find(struct model *m, const char *path, const char *host);
/* The lines of source i, decoded from the dump on first use and kept until
 * model_close().  TD_ERR_NOTFOUND if the dump holds no text for it. */
enum td_status model_source_lines(struct model *m, uint32_t i, const char *const **lines, size_t *n);
/* Reads path from disk (after --source-root remapping) and adds it as a
 * source; only on request, never while indexing.  Returns the index. */
enum td_status model_source_load_disk(struct model *m, const char *path, uint32_t *index,
				      char *err, size_t errlen);
/* Like model_source_load_disk, but reads from: a file, or a directory tried
 * as a --source-root for path (from + each tail of path).  A source of that
 * path already known (a partial one, say) gets the text in place, so its
 * frames show it; else one is added.  Lines handed out before stay valid
 * until model_close().  TD_ERR_* with a message in err if nothing is read. */
enum td_status model_source_load_from(struct model *m, const char *path, const char *from,
				      uint32_t *index, char *err, size_t errlen);
/* Whether line (0-based) of source i is known: false only for the gaps of
 * a partial source (model_source.partial) and past its end. */
bool model_source_line_known(struct model *m, uint32_t i, uint64_t line);

/* Source to ops (the debugger's source view): an op was created at a line
 * when a frame of its creation stack is that line of that file (a frame's
 * source, model_frame.source).  Each op counts once per line. */
/* The ops created at line (1-based) of source i, in op id order: returns
 * the count and a malloc'd array of op ids in *ops (free(); NULL when 0). */
size_t model_source_ops(struct model *m, uint32_t i, uint32_t line, uint32_t **ops);
/* For every line of source i, how many ops were created there: returns n
 * and a malloc'd array of n counts in *counts, indexed by line number (so
 * counts[0] is 0 and n is the highest such line + 1); 0 and NULL when no
 * op was created in the file. */
size_t model_source_op_counts(struct model *m, uint32_t i, uint32_t **counts);

/* ---- alerts ----------------------------------------------------------- */

/* The two row tables: what a row number, an alert's source or a filter
 * refers to (trace rows or executions).  The one "trace or execution"
 * type of the model and everything above it. */
enum model_table { TABLE_TRACES, TABLE_EXECUTIONS };
/* "trace" or "execution": the word batch output and the screen use. */
const char *model_table_name(enum model_table t);

struct model_alert {
	const char *kind;           /* "InfNan", or a reader alert's name ("Overflow") */
	enum model_table source;
	uint64_t index;             /* trace or execution row */
	uint32_t slot;
	const char *op_type;
	const char *op_name;
	struct td_summary summary;  /* counts (known bits tell which are null) */
	const char *detail;         /* a reader alert's detail, or NULL */
	bool is_input;              /* the row is an op's input (its producer was not dumped) */
};
uint64_t model_alert_count(struct model *m);
/* The i-th alert in load order (traces, then executions, then the alerts
 * the reader stated).  Counts come from decoding the row (an execution: its
 * bad output's summary).  Reader alerts (kind from reader_alert_name()):
 * source TABLE_EXECUTIONS, index the execution the reader named (0 if none),
 * detail set. */
enum td_status model_alert_get(struct model *m, uint64_t i, struct model_alert *a);

/* Where alert i is without decoding its row: kind, op_type, source and
 * index only (the rest zero).  Cheap enough to walk every alert (a
 * rank/select over per-chunk counts).  false past the end. */
bool model_alert_locate(struct model *m, uint64_t i, struct model_alert *a);

struct model_alert_group {
	const char *kind;
	const char *op_type;
	uint64_t count;
	uint64_t first;             /* alert number of the first one */
};
/* Groups by (kind, op type), in order of first appearance.  Returns the
 * number of groups; fills up to max. */
size_t model_alert_groups(struct model *m, struct model_alert_group *out, size_t max);
/* The next/previous alert number of the same group after/before alert i. */
int64_t model_alert_next_in_group(struct model *m, uint64_t i, int dir);

/* The first NaN/Inf tensor in execution order.  false if none. */
bool model_first_nonfinite(struct model *m, struct model_alert *a);

/* ---- filters ----------------------------------------------------------- */

struct model_filter_spec {
	const char *op_regex;       /* PCRE2 over op name (executions: op type / function name) */
	const char *type_regex;     /* PCRE2 over op type */
	bool nonfinite;             /* only NaN/Inf rows */
	int32_t graph;              /* only ops of this graph and its inner graphs, -1 any */
	int64_t execution;          /* only traces of this execution (timeline: that row), -1 any */
	const char *host;           /* only rows of this host / rank, NULL any */
	const char *where;          /* a condition (model_expr.h), NULL none */
};
struct model_filter;
/* Compiles spec.  TD_ERR_REGEX with PCRE2's message and offset in err. */
enum td_status model_filter_new(struct model *m, const struct model_filter_spec *spec,
				struct model_filter **out, char *err, size_t errlen);
void model_filter_free(struct model_filter *f);
/* Text form for the status bar ("op=dense type=MatMul nonfinite"). */
const char *model_filter_describe(const struct model_filter *f);

/* Rows of table that match (over what is indexed now). */
uint64_t model_filter_count(struct model *m, struct model_filter *f, enum model_table t);
/* Row number of the k-th match, -1 if none. */
int64_t model_filter_nth(struct model *m, struct model_filter *f, enum model_table t, uint64_t k);
/* Position k of row among the matches (matches before it). */
uint64_t model_filter_rank(struct model *m, struct model_filter *f, enum model_table t, uint64_t row);
/* First matching row >= from (dir > 0) or <= from (dir < 0); -1 none. */
int64_t model_filter_next(struct model *m, struct model_filter *f, enum model_table t,
			  uint64_t from, int dir);
bool model_filter_match(struct model *m, struct model_filter *f, enum model_table t, uint64_t row);
/* Rows of table whose `where` condition is unknown (a field the row does
 * not carry decides it), or whose op name or type the op/type regex could
 * not decide within PCRE2's match limits (model_regex.h): neither matched
 * nor counted by model_filter_count.  0 when neither happens. */
uint64_t model_filter_unknown(struct model *m, struct model_filter *f, enum model_table t);
/* Names and types the op/type regexes could not decide (a PCRE2 limit
 * hit) in the counts and scans so far: their rows are unknown. */
uint64_t model_filter_undecided(const struct model_filter *f);

/* ---- watches: named numerical checks (model_watch.c) ------------------- */

/* A named condition: a shorthand for an expression, with MindInsight's
 * names and parameters. */
struct model_condition {
	const char *name;           /* "gradient_vanishing" */
	const char *base;           /* the expression its parameters extend; NULL
				     * when built otherwise (operator_overflow:
				     * the dump's overflow records; fp16_overflow_risk) */
	const char *params;         /* the parameters it takes, space-separated */
	const char *defaults;       /* "abs_mean_lt=1e-09", "" none */
	bool recommended;           /* in the recommended set */
	const char *summary;        /* one line for help */
	const char *dtypes;         /* the dtypes it looks at: "float16, bfloat16,
				     * float32, float64" (value conditions) or
				     * "any" (NaN/Inf, the dump's own records) */
};
/* The i-th named condition; false past the last. */
bool model_condition_at(size_t i, struct model_condition *c);

/* Where a watch lives (the command layer keeps it there). */
enum model_watch_scope {
	WATCH_SCOPE_SESSION,        /* this run only (added in batch mode) */
	WATCH_SCOPE_DUMP,           /* the open dump's: kept with its saved state */
	WATCH_SCOPE_GLOBAL,         /* every dump: the user's watches file, the
				     * recommended set */
};

struct model_watch {
	const char *name;
	const char *text;           /* as given: "gradient_vanishing(abs_mean_lt=1e-7)" */
	const char *expr;           /* the expression it stands for; NULL for
				     * the dump's own overflow records */
	bool recommended;           /* added by the recommended set */
	double rtol, atol;          /* the tolerance of `unchanged` */
	enum model_watch_scope scope;
};
/* Adds (or replaces) watch name: text is a named condition, optionally
 * with "(name=value, ...)", or an expression (model_expr.h).  TD_ERR_ARGS
 * or TD_ERR_REGEX with err ("NAME: column 7: ...") when it does not
 * compile.  The recommended set is added on first use unless switched off. */
enum td_status model_watch_add(struct model *m, const char *name, const char *text, char *err,
			       size_t errlen);
/* TD_ERR_NOTFOUND when there is no such watch. */
enum td_status model_watch_rm(struct model *m, const char *name);
/* Says where watch name lives (model_watch_add makes it a session's; the
 * recommended set is global).  TD_ERR_NOTFOUND when there is none. */
enum td_status model_watch_set_scope(struct model *m, const char *name,
				     enum model_watch_scope scope);
/* Switches the recommended set (the conditions marked so, with their
 * defaults) on or off; on by default. */
void model_watch_recommended(struct model *m, bool on);
bool model_watch_recommended_on(struct model *m);
size_t model_watch_count(struct model *m);
/* The i-th watch; strings borrowed until it is removed or replaced. */
bool model_watch_at(struct model *m, size_t i, struct model_watch *w);

#define MODEL_WATCH_VALUES 8
struct model_watch_hit {
	size_t watch;               /* model_watch_at index */
	enum model_table source;
	uint64_t index;             /* trace or execution row */
	struct { const char *field; double value; } values[MODEL_WATCH_VALUES];
	size_t nvalues;             /* the numeric fields the condition read, as found */
	struct { const char *field; const char *op; double value; } thresholds[MODEL_WATCH_VALUES];
	size_t nthresholds;         /* its comparisons with numbers */
	const char *basis;          /* step fields from "values" or "statistics"; else
				     * "values" when a summary field it read was computed
				     * from the row's values; NULL none */
	/* The dump's own record (operator_overflow): its op and what it says,
	 * borrowed from the model; NULL for the other conditions. */
	const char *op_name, *op_type, *detail;
};
/* A check of every watch over the rows (traces, then executions), run a
 * budget of rows at a time.  Watches must not change while it runs. */
struct model_watch_run {
	int64_t step;               /* only rows of this step, -1 all */
	uint64_t next_trace, next_exec; /* the next rows to check */
	uint64_t checked;           /* rows checked */
	uint64_t unknown;           /* rows some condition could not decide */
	uint64_t *unknown_by;       /* per watch (model_watch_at index): the rows
				     * it could not decide; n_unknown_by entries */
	size_t n_unknown_by;
	struct model_watch_hit *hits;
	size_t nhits, cap;
	bool done;
	/* per (op, watch): 0 not asked yet, 1 the op alone rules the watch out
	 * (a "role == weight" on a gradient), 2 rows must be checked */
	uint8_t *op_stage;
	size_t op_stage_ops, op_stage_watches;
};
void model_watch_run_init(struct model_watch_run *r, int64_t step);
/* Checks up to budget more rows; true once every row is checked and the
 * index pass is done (the dump's overflow records are added then). */
bool model_watch_run_step(struct model *m, struct model_watch_run *r, uint64_t budget);
void model_watch_run_done(struct model_watch_run *r);
/* "abs_mean 3.2e+04 > 1000, max 7 > 5 (from values)": the comparisons of
 * the hit that hold, with the row's values (all of them when none can be
 * shown so), into buf. */
void model_watch_hit_describe(const struct model_watch_hit *h, char *buf, size_t size);

/* ---- origins: where NaN/Inf started, and why --------------------------- */

/* What a trace row is for the bad values (model_why):
 *   ORIGIN_FINITE       the row holds no NaN/Inf (as far as its summary says);
 *   ORIGIN_ORIGIN       NaN/Inf that its op made: every input was finite
 *                       when it ran, or unknown (never traced), or the op has
 *                       no inputs (a source: placeholder, parameter, data);
 *   ORIGIN_PROPAGATION  an input was already non-finite: the op carried it;
 *   ORIGIN_REPEAT       another record of the same value an earlier row
 *                       holds (equal NaN/Inf counts, equal values where the
 *                       rows have them; no new input since);
 *   ORIGIN_CARRIED      the value came through a recorded link, not a graph
 *                       edge: a function call's input or output, a variable
 *                       written before the read, an op's input record
 *                       (model_origin.link says which; from[0] is the row
 *                       it came from, via the execution that carried it). */
enum model_origin_role {
	ORIGIN_FINITE, ORIGIN_ORIGIN, ORIGIN_PROPAGATION, ORIGIN_REPEAT, ORIGIN_CARRIED,
};

/* The link a carried row came through (model_origin.link). */
enum model_carry_link {
	CARRY_NONE,
	CARRY_CALL_INPUT,           /* a function graph's input: its call's input */
	CARRY_CALL_OUTPUT,          /* a call op's output: the inner graph's output */
	CARRY_VARIABLE,             /* a variable read: the last write before it */
	CARRY_SAME_VALUE,           /* an input record: the equal value an earlier
				     * output row of the step holds */
	CARRY_CALL_UNRECORDED,      /* an op whose inputs are not all recorded, in a
				     * function whose call's input held NaN/Inf:
				     * the only recorded way in */
};
/* "call input", "call output", "variable", "same value", "unrecorded input";
 * "" for CARRY_NONE. */
const char *model_carry_link_name(enum model_carry_link k);

/* What an op's input held when it ran. */
enum model_input_state { INPUT_FINITE, INPUT_NONFINITE, INPUT_UNKNOWN };

struct model_origin_input {
	const char *op_name;        /* producer */
	const char *op_type;        /* "" unknown */
	uint32_t slot;              /* producer output slot */
	int64_t trace_index;        /* row holding the value the op read, -1 none */
	enum model_input_state state;
	struct td_summary summary;  /* of trace_index (known == 0 when none) */
};

#define MODEL_CAUSE_LEN 200
#define MODEL_EVIDENCE_MAX 8

struct model_origin {
	enum model_origin_role role;
	enum model_table source; /* a trace row, or an execution's output */
	uint64_t index;
	const char *op_name;
	const char *op_type;
	uint32_t slot;
	int32_t via;                /* carried: the execution that carried the value
				     * (the call, the variable's writer), -1 none */
	const char *host;           /* "" unknown */
	int64_t step;               /* training step / top-level call, -1 unknown */
	double wall_time;
	struct td_summary summary;
	bool source_op;             /* the op has no inputs: the value came from outside */
	uint8_t link;               /* carried: enum model_carry_link */
	struct model_origin_input *inputs;
	size_t ninputs;
	char cause[MODEL_CAUSE_LEN];
	char evidence[MODEL_EVIDENCE_MAX][MODEL_CAUSE_LEN];
	size_t nevidence;
	/* Origin: the consumers that carried the bad values to the last alert
	 * of its step, origin first.  Propagation / repeat: the rows from its
	 * origin to this row.  Trace rows. */
	uint64_t *path;
	size_t npath;
	int64_t origin;             /* the origin row this one goes back to, -1 */
	int64_t *from;              /* propagation: the non-finite input rows;
				     * repeat / carried: the row it came from
				     * (carried: -1 when the link ends at an
				     * execution, via) */
	size_t nfrom;
};

/* Explains trace row i (role, inputs, cause, evidence, path).  TD_ERR_RANGE
 * past the indexed rows.  Free with model_origin_done(). */
enum td_status model_why(struct model *m, uint64_t i, struct model_origin *o);
void model_origin_done(struct model_origin *o);

/* How far an origin's values were carried: the non-finite rows that go
 * back to it and the boundaries they crossed (counts saturate). */
struct model_reach {
	uint32_t rows;              /* rows that go back to it, itself included */
	uint16_t calls;             /* function-call boundaries (inputs, outputs) */
	uint16_t variables;         /* variable write -> read links */
	uint16_t steps;             /* steps past its own */
	uint16_t hosts;             /* hosts past its own */
	uint16_t records;           /* input records of the same value */
};

struct model_origins_query {
	int64_t step;               /* only this step, -1 any */
	const char *host;           /* only this host / rank, NULL any */
	size_t per_host;            /* at most this many per host, the first in
				     * row order (0: all); the headline is still
				     * the first in time */
	uint64_t budget;            /* units of work (rows, inputs, executions
				     * looked at) at most, 0: the default
				     * (MODEL_ORIGINS_BUDGET) */
	bool want_reach;            /* fill reach */
	/* Out: */
	struct model_reach *reach;  /* with want_reach: one per origin, in its
				     * order (malloc'd: free() it), NULL when
				     * none; else left NULL */
	bool partial;               /* the budget ran out: the answer covers the
				     * rows before partial_row only */
	uint64_t partial_row;
};
#define MODEL_ORIGINS_BUDGET 200000u
/* The origins of the NaN/Inf in the dump (among what is indexed), first in
 * time first (wall time when the rows have one, else row order; the first
 * is the headline): the roots only (no carried, propagated or repeated
 * row).  Returns the count and a malloc'd array in *out: free each with
 * model_origin_done() and the array with free(), or use
 * model_origins_free().  q (may be NULL) selects; its out members say
 * whether the work budget cut the answer and give each origin's reach
 * (free q->reach).  Runs at once: model_origins_run_* in steps. */
size_t model_origins(struct model *m, struct model_origins_query *q, struct model_origin **out);

/* The same listing in steps (the TUI between keys): new, step until it
 * returns true (all rows looked at, or the query's total budget spent:
 * partial), take the answer, free.  q is copied at new (its host too). */
struct model_origins_run;
struct model_origins_run *model_origins_run_new(struct model *m,
						const struct model_origins_query *q);
/* Looks at rows until about budget more units of work are spent (0: no
 * limit but the total); true when the run is over. */
bool model_origins_run_step(struct model_origins_run *r, uint64_t budget);
/* The next row to look at and the rows indexed (progress). */
void model_origins_run_where(const struct model_origins_run *r, uint64_t *next, uint64_t *total);
/* The answer as model_origins gives it (q's out members filled when q is
 * not NULL); the run keeps nothing of it.  Call once, after the last step. */
size_t model_origins_run_take(struct model_origins_run *r, struct model_origins_query *q,
			      struct model_origin **out);
void model_origins_run_free(struct model_origins_run *r);
void model_origins_free(struct model_origin *v, size_t n);
/* The step of trace row i (see model_origin.step), -1 unknown. */
int64_t model_trace_step(struct model *m, uint64_t i);
/* model_trace_step() of n rows into steps[] (the function calls are
 * gathered once, not per row). */
void model_trace_steps(struct model *m, const uint64_t *rows, size_t n, int64_t *steps);

#endif
