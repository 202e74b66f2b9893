/*
 * reader.h - the interface every dump format implements, and the sink it
 * pushes neutral records into.
 *
 * A reader knows bytes and formats, nothing of screens or of the model's
 * tables.  Each format is one constant struct reader_ops listed in the
 * registry (reader_registry.c); reader_detect() probes a directory with each.
 *
 * Call sequence (the model does this; tests do it by hand):
 *
 *	const struct reader_ops *ops = reader_detect(dir, why, sizeof why);
 *	struct reader *r;
 *	ops->open(dir, &opts, &r, err, sizeof err);
 *	while (ops->index(r, &sink) == TD_ERR_AGAIN)   // one pass per call
 *		;                                       // (follow mode calls again later)
 *	ops->decode(r, READER_TRACE, &loc, &detail);    // any time, any thread
 *	reader_detail_done(&detail);
 *	ops->close(r);
 *
 * index() makes one pass over what is on disk now and pushes records into the
 * sink in this order of dependency: meta, files, sources, frames, graphs,
 * devices and ops before the executions and traces that refer to them (a
 * dangling reference is still legal: the model degrades it to "unknown").
 * index() is resumable: a second call continues where the first stopped
 * (new records appended to growing files, new files) and never re-sends a
 * record.  decode() may run on another thread while index() runs: readers
 * use pread()/mmap on descriptors opened at open() and keep no shared
 * mutable state outside a lock.
 *
 * Strings passed to the sink are borrowed for the duration of the call; the
 * sink copies what it keeps.
 */
#ifndef TD_READER_H
#define TD_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/tensor.h"
#include "reader/base/util.h"

struct reader;
struct reader_listing;     /* reader_listing.h */

/* Where a record lives.  file is a reader-defined file number (as announced
 * with on_file), offset a reader-defined position in it (a byte offset for
 * record files, 0 for one-record-per-file formats). */
struct td_locator {
	uint32_t file;
	uint64_t offset;
};

enum reader_kind {
	READER_TRACE,      /* a graph execution trace / dumped tensor */
	READER_EXECUTION,  /* a timeline entry: eager op, function call, run, graph run */
	READER_SOURCE,     /* a source file's lines */
};

#define PROBLEM_INFO(_) \
	_(BAD_LENGTH_CRC, "bad-length-crc", "wrong CRC of a record length") \
	_(BAD_DATA_CRC,   "bad-data-crc",   "wrong CRC of a record payload") \
	_(BAD_LENGTH,     "bad-length",     "record length past the end of the file") \
	_(TORN_TAIL,      "torn-tail",      "incomplete last record") \
	_(DECODE_ERROR,   "decode-error",   "record does not decode") \
	_(MISSING_FILE,   "missing-file",   "expected file is missing") \
	_(UNREADABLE,     "unreadable",     "file cannot be read") \
	_(UNPARSED_NAME,  "unparsed-name",  "file name does not fit the format") \
	_(INCONSISTENT,   "inconsistent",   "dump contradicts itself")

enum reader_problem_kind {
#define TD_PROBLEM_ENUM(id, name, text) PROBLEM_##id,
	PROBLEM_INFO(TD_PROBLEM_ENUM)
#undef TD_PROBLEM_ENUM
	PROBLEM_COUNT
};
const char *reader_problem_name(enum reader_problem_kind kind);  /* "bad-data-crc" */
const char *reader_problem_text(enum reader_problem_kind kind);  /* "wrong CRC of ..." */

/* Alerts a reader finds in the dump itself (the dump says so), as opposed
 * to the NaN/Inf alerts the model derives from summaries.  name is the
 * kind shown in alert lists and JSON ("Overflow"). */
#define READER_ALERT_INFO(_) \
	_(OVERFLOW, "Overflow", "the device flagged an arithmetic overflow in the op")

enum reader_alert_kind {
#define TD_ALERT_ENUM(id, name, text) READER_ALERT_##id,
	READER_ALERT_INFO(TD_ALERT_ENUM)
#undef TD_ALERT_ENUM
	READER_ALERT_COUNT
};
const char *reader_alert_name(enum reader_alert_kind kind);  /* "Overflow" */
const char *reader_alert_text(enum reader_alert_kind kind);  /* "the device flagged ..." */

struct reader_file {
	uint32_t id;
	const char *path;       /* path as opened */
	uint64_t size;          /* bytes at the time of the call */
	const char *host;       /* host it belongs to, or NULL */
	const char *role;       /* e.g. "graph_execution_traces", "npy", NULL */
	/* A folder announced as one file whose files the index mostly only
	 * listed (a MindSpore iteration folder with statistic.csv): listed_only
	 * set, and read the names (in the folder) of the nread files whose
	 * bytes it did read.  The model then checks the folder at a reopen by
	 * its own stat data (a file added, removed or renamed over moves it)
	 * and those files' stat data, not by a stat of every file in it; a
	 * listed file rewritten in place is caught when a decode reads it
	 * (reader_detail.data_ctime_ns).  listed_only false (the default):
	 * every file's stat data counts.  The strings are borrowed for the
	 * call. */
	bool listed_only;
	const char *const *read;
	size_t nread;
};

struct reader_graph {
	const char *graph_id;   /* reader-unique id string (tfdbg2 UUID, "0" ...) */
	const char *name;       /* may be "" */
	const char *outer_id;   /* enclosing graph id, or "" */
	const char *host;
};

struct reader_device {
	int32_t id;
	const char *name;
	const char *host;
};

/* One attribute of an op, its value written as text ("float32",
 * "[1, 2]", "\"NCHW\"", "true"). */
struct reader_attr {
	const char *name;
	const char *value;
};

/* What the graph says an output is; fields unknown stay DTYPE_INVALID / -1. */
struct reader_output_type {
	enum td_dtype dtype;
	int rank;                           /* -1 unknown */
	const int64_t *dims;                /* rank entries, -1 an unknown dim */
};

struct reader_op {
	const char *graph_id;
	const char *op_name;
	const char *op_type;
	const char *device;                 /* may be NULL */
	const char *host;                   /* may be NULL */
	const char *const *inputs;          /* "op:slot" or "op" (slot 0); control inputs not listed */
	size_t ninputs;
	/* The inputs label the op's own input leaves ("input.0"), they name
	 * no producer: the model keeps them with the op but files no consumer
	 * under them (no op's consumers are asked by such a label). */
	bool input_labels;
	/* Control inputs: ops that must run first, no tensor flows (tfdbg's
	 * "^x" inputs); op names.  NULL when none or the format has none. */
	const char *const *control_inputs;
	size_t ncontrol_inputs;
	/* Attributes as the graph records them, in its order (may be NULL). */
	const struct reader_attr *attrs;
	size_t nattrs;
	/* Output types per output slot where the graph records them (may be
	 * NULL; fewer entries than outputs is fine). */
	const struct reader_output_type *output_types;
	size_t noutput_types;
	uint32_t num_outputs;
	const int64_t *output_tensor_ids;   /* may be NULL */
	size_t noutput_tensor_ids;
	const char *const *frame_ids;       /* creation stack, outermost first */
	size_t nframes;
	double wall_time;
	/* Other names a user may type for the op (a file-name spelling of
	 * the scoped name ...); name lookups accept them after exact names. */
	const char *const *aliases;         /* may be NULL */
	size_t naliases;
};

struct reader_source {
	uint32_t id;                /* reader-defined, used in frames' source_id */
	const char *host;
	const char *path;
	struct td_locator loc;      /* decode(READER_SOURCE, loc) gives the lines */
	uint64_t nlines;            /* known line count, or 0 */
};

struct reader_frame {
	const char *id;             /* unique frame id string */
	const char *host;
	const char *file;           /* path as written by the producer */
	int64_t source_id;          /* reader_source.id holding the file, or -1 */
	uint32_t line;              /* 1-based; 0 unknown */
	const char *func;           /* may be "" */
	const char *code;           /* the source line as recorded (MindSpore .ir), or NULL */
	bool framework;             /* the framework's own code, not the user's
				     * (reader_path_is_framework(file)) */
};

/* True when path lies inside an installed ML framework package
 * (site-packages/tensorflow/... ), outside its examples: the rule readers
 * use for reader_frame.framework. */
bool reader_path_is_framework(const char *path);

struct reader_execution {
	struct td_locator loc;
	const char *op_type;        /* op type or function name ("__inference_f_13"), run label */
	const char *graph_id;       /* called function's graph, or "" */
	const char *host;
	uint32_t num_outputs;
	double wall_time;           /* seconds since the epoch, 0 unknown */
	uint32_t bad_outputs;       /* outputs whose value proves NaN/Inf (alerts) */
	bool has_values;            /* outputs carry summaries or values */
	int64_t step;               /* training step / iteration number as the dump
				     * numbers it (a run counter, an iteration
				     * directory), -1 unknown.  Set it: 0 is a step. */
};

struct reader_trace {
	struct td_locator loc;
	const char *graph_id;       /* enclosing graph ("" none) */
	const char *op_name;
	const char *op_type;        /* NULL: take it from the op table */
	uint32_t slot;
	bool is_input;              /* an op input tensor (MindSpore); else an output */
	bool repeat;                /* another row of this step holds the same tensor and
				     * carries its alert (tfdbg1: a second debug op on
				     * one tensor): not an alert, not a link target */
	int64_t execution;          /* owning execution row (tfdbg1 run, MS graph run), -1 none */
	double wall_time;           /* seconds since the epoch, 0 unknown */
	struct td_summary summary;  /* what the index pass knows, at least nonfinite when it can */
	int64_t step;               /* as reader_execution.step (its execution's step
				     * when it has one), -1 unknown */
	/* Optional, 0 none: reader_op_key(graph_id, op_name).  Equal pairs
	 * give equal keys, so a consumer that saw the key with the op before
	 * knows the op without comparing strings (readers compute it where
	 * they parse, off the index thread). */
	uint64_t op_key;
	/* Optional, false unknown: summary's fields (and wall_time) are
	 * exactly those decode() gives for the record, and the record holds
	 * no values beyond them, so the model keeps them in its summary
	 * columns instead of decoding the record when a question reads them
	 * (issue 25). */
	bool summary_exact;
	/* Optional (READER_ROW_FACTS readers), 0 unstated: the role and
	 * requires_grad decode() states for the record (reader_detail's),
	 * known at the index pass.  With summary_exact the model keeps them
	 * in its summary columns, so a condition on them decodes no record. */
	uint8_t role;               /* enum reader_role */
	uint8_t requires_grad;      /* enum reader_grad */
};

/* The op_key of a trace naming (graph_id, op_name), lengths in bytes;
 * never 0. */
uint64_t reader_op_key(const char *graph_id, size_t glen, const char *op_name, size_t nlen);

/* One alert the dump states (on_alert).  Fields the reader does not know
 * stay at their "unknown" value. */
struct reader_alert {
	enum reader_alert_kind kind;
	const char *op_name;        /* the op concerned, "" unknown */
	int64_t execution;          /* execution row it happened in, -1 unknown */
	bool has_trace;             /* trace locates a trace row of the op in that execution */
	struct td_locator trace;
	int64_t slot;               /* output slot concerned, -1 unknown or the whole op */
	const char *detail;         /* free text for the alert view, or NULL */
};

/* A value that reached a trace row outside the graph's edges (on_link):
 * row `to`'s value was computed from row `from`'s (a collective or a
 * send/recv between hosts), or `to` records the value `from` produced (an
 * input record whose producer the format does not name).  Rows are numbered as sent: the n-th
 * on_trace call on a dump (over all passes) is row n.  Sent after both
 * rows. */
struct reader_link {
	uint64_t from;
	uint64_t to;
};

struct reader_problem {
	enum reader_problem_kind kind;
	int64_t file;               /* file id, or -1 */
	const char *path;           /* file path, or NULL */
	uint64_t offset;            /* byte offset of the record, where it applies */
	int64_t record;             /* record number in the file, or -1 */
	const char *what;           /* what was being read: "graph_execution_trace" */
	const char *detail;         /* free text, e.g. "length 12345 > 200 bytes left" */
};

/* The consumer side.  Every callback may be NULL.  ctx is passed back. */
struct reader_sink {
	void *ctx;
	/* Dump-level facts: "format", "host[]", "tensor_debug_mode",
	 * "tensorflow_version", "run_id", "runs", "ranks", "rank_ids[]",
	 * "iterations" ...  A key ending in "[]" ("host[]", "rank_ids[]") is a
	 * list: each call appends one value.  Other keys are scalars: the last
	 * value wins.  Numbers are sent as decimal text. */
	void (*on_meta)(void *ctx, const char *key, const char *value);
	void (*on_file)(void *ctx, const struct reader_file *f);
	void (*on_source)(void *ctx, const struct reader_source *s);
	void (*on_frame)(void *ctx, const struct reader_frame *f);
	void (*on_graph)(void *ctx, const struct reader_graph *g);
	void (*on_device)(void *ctx, const struct reader_device *d);
	void (*on_op)(void *ctx, const struct reader_op *op);
	void (*on_execution)(void *ctx, const struct reader_execution *e);
	void (*on_trace)(void *ctx, const struct reader_trace *t);
	void (*on_problem)(void *ctx, const struct reader_problem *p);
	/* Bytes of the dump read so far in this pass, out of total. */
	void (*on_progress)(void *ctx, uint64_t done, uint64_t total);
	/* An alert the dump states (an overflow record ...): see struct
	 * reader_alert.  Sent after the execution it names. */
	void (*on_alert)(void *ctx, const struct reader_alert *a);
	/* Optional (may be NULL): a problem reported earlier no longer holds.
	 * Today only for PROBLEM_TORN_TAIL: a later pass read past a tail
	 * reported torn (the writer completed it); kind, file, path and
	 * offset are those of the report.  A reader that never re-reads a
	 * torn file never sends it: that tail stays torn. */
	void (*on_resolved)(void *ctx, const struct reader_problem *p);
	/* Optional (may be NULL): true when the consumer gives the pass up
	 * (it is closing).  Readers poll it between records in their main
	 * loops (every few thousand records, or per file / run for formats of
	 * one record per file) and then return TD_OK at once, leaving the
	 * pass unfinished.  After it said true the consumer only calls
	 * close(): a reader need not be able to resume such a pass. */
	bool (*should_stop)(void *ctx);
	/* Optional (may be NULL): see struct reader_link. */
	void (*on_link)(void *ctx, const struct reader_link *l);
};

/* A tensor's part in training as a dump states it (reader_detail.role). */
enum reader_role {
	READER_ROLE_UNSTATED = 0, READER_ROLE_WEIGHT, READER_ROLE_GRADIENT, READER_ROLE_ACTIVATION,
};
/* Whether a tensor requires a gradient (reader_detail.requires_grad). */
enum reader_grad { READER_GRAD_UNSTATED = 0, READER_GRAD_NO, READER_GRAD_YES };

/* What decode() returns for one record; owned by the caller, released with
 * reader_detail_done().  Fields a record kind does not have stay zero. */
struct reader_detail {
	double wall_time;
	char *op_name, *op_type, *graph_id, *device, *host;
	uint32_t slot;
	char *mode;                     /* tensor debug mode name, "FULL_HEALTH" ... */
	char *debug_op;                 /* READER_TRACE: the debug op that wrote this record
					 * when one tensor can have several ("DebugNanCount"),
					 * else NULL */
	size_t noutputs;                /* 1 for a trace */
	struct td_summary *summaries;   /* noutputs summaries */
	struct td_tensor **values;      /* noutputs full values (entries may be NULL) */
	double **debug_values;          /* noutputs raw debug vectors (may be NULL) */
	size_t *ndebug_values;
	char **frame_ids;               /* stack, outermost first */
	size_t nframes;
	char *text;                     /* free-form "key: value" lines for the details view */
	char **lines;                   /* READER_SOURCE: the file's lines */
	size_t nlines;
	/* READER_SOURCE: the file itself was not read; only the lines that are
	 * not NULL are known (recorded with the trace), the others are gaps. */
	bool lines_partial;
	int64_t *input_tensor_ids, *output_tensor_ids;
	size_t ninput_ids, noutput_ids;
	/* Optional, 0 unknown: READER_TRACE / READER_EXECUTION, the offset
	 * advance(loc, 1) would give (the next record of this kind in the
	 * file, past what the index skipped).  A reader that knows it from
	 * reading this record saves the model an advance() when rows are
	 * read in order. */
	uint64_t next_offset;
	/* READER_TRACE, optional (0 unknown): the status-change time (ctime,
	 * ns since the epoch) of the data file this decode read the values
	 * from, as the decode found it (a stat it makes anyway).  The model
	 * compares it with what a file announced listed_only held when its
	 * index was saved: a later one means the file was rewritten since. */
	int64_t data_ctime_ns;
	/* READER_TRACE, from a reader flagged READER_ROW_FACTS: what the dump
	 * states of this one tensor beside its op (a leaf of a call), zero
	 * where it states nothing.  Every decode of a trace fills them
	 * (decode_summary too). */
	enum reader_role role;          /* the tensor's part in training */
	enum reader_grad requires_grad; /* whether autograd tracks it */
	char *prefix;                   /* the API family of its call as the dump
					 * names it ("Functional", "Tensor"), or NULL */
	/* READER_TRACE / READER_EXECUTION, from a reader flagged
	 * READER_CALL_TREE: the call that encloses this record's op (a
	 * module around an API call: an op name of the same graph, NULL at
	 * the top) and the calls it encloses, in the dump's order. */
	char *call_parent;
	char **call_children;
	size_t ncall_children;
	/* READER_TRACE / READER_EXECUTION: the non-tensor arguments of the
	 * row's call or of the execution's (not rows), in the call's order,
	 * each with its place among the call's rows; NULL where the reader
	 * records none. */
	struct td_arg *args;
	size_t nargs;
	/* READER_TRACE, optional: the statistics the dump wrote for the
	 * tensor, as written (Max, Min, Mean, Norm: NaN and Inf kept;
	 * written[k] false for none or null), the numbers of the text's
	 * "statistics:" line; a compare's CSV prints them as read.  stats
	 * false where the reader gives none this way. */
	struct reader_stats {
		bool stats;
		bool written[4];
		double v[4];
	} stats;
};
void reader_detail_done(struct reader_detail *d);

struct reader_options {
	const char *source_root;   /* remap producer paths (MindSpore) */
	bool strict;
	/* The consumer will call index() again for what changes (follow mode
	 * from the start): a reader may hold back records still being
	 * written until they settle, rather than send them half done.
	 * Passes after the first are follow passes whatever this says. */
	bool follow;
	/* The consumer may ask for later passes (an interactive session that
	 * can switch follow mode on): record what they compare (a file's size
	 * when read) even without follow.  A batch run leaves it off and the
	 * reader stats no file it does not read. */
	bool may_follow;
	/* The listing of the directory open() is given, made by
	 * reader_detect_listed() just before (reader_listing.h), or NULL: a
	 * reader that decides what the directory is from its names reads
	 * them here rather than list it again.  Borrowed for open() only. */
	const struct reader_listing *root_listing;
};

enum reader_flags {
	/* Trace rows are emitted in execution order within each file. */
	READER_ROWS_TIME_ORDERED = 1u << 0,
	/* A trace's decode may state the row's own facts (reader_detail's
	 * role, requires_grad, prefix); without it the model never decodes
	 * a row to ask. */
	READER_ROW_FACTS = 1u << 1,
	/* A trace's or execution's decode names its op's enclosing call and
	 * the calls it encloses (reader_detail.call_parent, call_children). */
	READER_CALL_TREE = 1u << 2,
	/* Two dumps of this format pair their hosts (ranks) by sorted
	 * position, as the format's own compare tool does, rather than by
	 * name (model_diff). */
	READER_PAIR_HOSTS_BY_POSITION = 1u << 3,
};

/* What the call count in an op name means when two dumps are paired
 * (reader_ops.call_of, model_diff). */
enum reader_call {
	READER_CALL_NONE,           /* no count: ops pair by their whole name */
	READER_CALL_EXACT,          /* ops pair by name, count included */
	READER_CALL_ORDINAL,        /* ops pair by their rank among the calls of the same
				     * key (one host, in order of appearance): the count
				     * numbers something else (the forward call a backward
				     * follows, or not, by the dumper's version) */
};

/* A name map of the format's compare tool (reader_ops.map_add): the op
 * names of the target dump (the second of a diff) as the golden dump
 * spells them.  Opaque: the format's. */
struct reader_map;

enum reader_map_kind {
	READER_MAP_API,             /* one framework's API names as the other's (built-in
				     * rules, plus a file's APIs and their leaves' places) */
	READER_MAP_CELL,            /* module (cell) names: built-in rules, plus a file's names */
	READER_MAP_DATA,            /* a file's full leaf names (op name, a dot, the row's
				     * slot label) as the golden's: map_leaf */
};

struct reader_ops {
	const char *name;          /* "tfdbg2", "tfdbg1", "mindspore" */
	const char *looks_for;     /* for the "cannot read" message: "tfdbg_events.*.metadata files" */
	/* One line for --help and the man page: what the format is and
	 * what of it tdbg reads. */
	const char *description;
	/* For "no stored values" messages: the dumps of this format that
	 * keep full tensor values ("FULL_TENSOR"), or NULL. */
	const char *values_in;
	/* Why dumps of this format never hold source or stack frames (the
	 * screens say it), or NULL when they may. */
	const char *no_stacks;
	/* Why ops of this format never list control inputs (the screens and
	 * JSON say it), or NULL when they may. */
	const char *no_control_inputs;
	/* Why ops of this format never carry attributes, or NULL when they may. */
	const char *no_op_attrs;
	uint32_t flags;
	/* 0 = not this format; higher = more confident.  Must be cheap: lists a
	 * directory, reads a few bytes. */
	int (*probe)(const char *dir);
	/* Optional: probe() on the listing ls of dir (its entries' names and
	 * types, reader_listing.h; empty when dir cannot be listed), the same
	 * score; the reader lists dir no more (it may still look below it).  The registry makes
	 * one listing and asks every reader with it.  NULL: probe() is used. */
	int (*probe_list)(const char *dir, const struct reader_listing *ls);
	enum td_status (*open)(const char *dir, const struct reader_options *opt,
			       struct reader **out, char *err, size_t errlen);
	/* One pass over what is on disk now.  TD_OK when done. */
	enum td_status (*index)(struct reader *r, const struct reader_sink *sink);
	/* TD_ERR_STALE (also from advance) when the record's file changed
	 * under the index since (truncated, renamed over, rewritten: follow
	 * mode): the bytes at loc are no longer that record. */
	enum td_status (*decode)(struct reader *r, enum reader_kind kind,
				 const struct td_locator *loc, struct reader_detail *out);
	/* Optional: decode() of a READER_TRACE for a caller that reads only
	 * wall_time, slot, device, debug_op, summaries[0] and next_offset
	 * (the model's row cache): the reader may skip the rest (text, values,
	 * names) and take a cheaper path.  NULL: the model calls decode(). */
	enum td_status (*decode_summary)(struct reader *r, const struct td_locator *loc,
					 struct reader_detail *out);
	/* Optional: decode() of a READER_EXECUTION for a caller that reads
	 * only input_tensor_ids, output_tensor_ids, noutputs, summaries and
	 * next_offset (the carry's tensor ids, conditions and watches on
	 * executions): the reader may skip the rest (text, frames, names,
	 * debug vectors) and take a cheaper path.  NULL: the model calls
	 * decode(). */
	enum td_status (*decode_outputs)(struct reader *r, const struct td_locator *loc,
					 struct reader_detail *out);
	/* Optional, for a reader flagged READER_ROW_FACTS whose rows' prefix
	 * (reader_detail.prefix) is a function of their op's name alone: its
	 * length at the start of op_name, 0 when the name states none.  Pure
	 * (no reader state: any thread).  NULL: a row's prefix is read from
	 * its decode. */
	size_t (*op_prefix)(const char *op_name);
	/* Moves loc forward by n records of kind (within its file; TD_ERR_RANGE
	 * past the end).  The model keeps sparse locators and calls this. */
	enum td_status (*advance)(struct reader *r, enum reader_kind kind,
				  struct td_locator *loc, uint64_t n);
	void (*close)(struct reader *r);
	/* Optional, both or neither (NULL: the model never keeps a cached
	 * index of this format).  save_state() appends to out what index()
	 * needs to continue after the passes run so far (file positions,
	 * what was sent), called between passes.  load_state() restores such
	 * a state on a reader just opened on the same dump, before any
	 * index(): the next index() then continues where the saving reader
	 * stopped (records appended since, files that appeared since) and
	 * never re-sends a record.  It returns false, leaving the reader fit
	 * only for close(), when the state is malformed or does not fit the
	 * dump as it is now (a file set is gone or ordered differently). */
	void (*save_state)(struct reader *r, struct strbuf *out);
	bool (*load_state)(struct reader *r, const void *data, size_t len);
	/* Optional: the directory the reader reads when it reads above the
	 * one it was opened at (a format whose user may open a level inside
	 * the dump and gets the whole of it), valid until close(); NULL or an
	 * absent hook: the directory given.  tdbg never writes into it. */
	const char *(*read_root)(struct reader *r);
	/* Optional: how the format's compare tool reads a call count in an
	 * op name.  Writes op_name without its count into key (keylen bytes,
	 * NUL-terminated; "Functional.relu.*.backward"), the count into
	 * *count, and says what the count means; READER_CALL_NONE (key and
	 * count untouched) for a name without one.  Pure: no reader state,
	 * any thread.  NULL: every name is READER_CALL_NONE. */
	enum reader_call (*call_of)(const char *op_name, char *key, size_t keylen,
				    int64_t *count);
	/* Optional, the three or none: the name maps of the format's compare
	 * tool.  map_add() adds the rules of kind to *map (made on the first
	 * call), with the names of the file path (NULL: the built-in rules
	 * alone); TD_ERR_UNSUPPORTED when the format has no such map or no
	 * file for it, TD_ERR_ARGS (err: the file, its line and the cause)
	 * for a file it cannot take.  map_name() writes into buf (len bytes)
	 * the name op_name pairs by and returns buf, or op_name itself when
	 * no rule renames it, or NULL when the map leaves that op unpaired.
	 * Pure once made: any thread.  map_free(NULL) is fine. */
	enum td_status (*map_add)(struct reader_map **map, enum reader_map_kind kind,
				  const char *path, char *err, size_t errlen);
	const char *(*map_name)(const struct reader_map *map, const char *op_name, char *buf,
				size_t len);
	void (*map_free)(struct reader_map *map);
	/* Optional (with map_add): the map's per-leaf rules, which rename a
	 * row rather than its op.  A leaf is "{op_name}.{label}", label the
	 * row's slot label (the "slot:" detail line).  With op_name NULL:
	 * whether the map has leaf rules that apply (a map whose op rules win
	 * has none).  With leaf NULL: whether it may rename a row of op_name
	 * (the diff asks for those rows' labels only).  Else: writes into buf
	 * (len bytes) the golden's full leaf name for that row and returns
	 * true (an empty name: the row pairs with nothing), false when no
	 * rule names it (the row keeps its op's pairing).
	 * Pure once made: any thread. */
	bool (*map_leaf)(const struct reader_map *map, const char *op_name, const char *leaf,
			 char *buf, size_t len);
	/* Optional (with map_add and map_leaf): the compare tool's map of
	 * layer names (msprobe's -lm): adds to *map the leaf rules (answered
	 * by map_leaf) that the file path makes of the target dump b and the
	 * golden dump a, two readers of this format whose index passes are
	 * done (their tables are read, not changed).  Errors as map_add's. */
	enum td_status (*map_layers)(struct reader_map **map, struct reader *b, struct reader *a,
				     const char *path, char *err, size_t errlen);
};

/* The readers, in probe order. */
extern const struct reader_ops tfdbg2_reader_ops;
extern const struct reader_ops tfdbg1_reader_ops;
extern const struct reader_ops mindspore_reader_ops;
extern const struct reader_ops msprobe_reader_ops;

/* The i-th reader in probe order, NULL past the last (help text, tools). */
const struct reader_ops *reader_at(size_t i);
/* Returns the best reader for dir, or NULL with a message in why listing
 * what each reader looked for. */
const struct reader_ops *reader_detect(const char *dir, char *why, size_t whylen);
/* reader_detect() that also hands back the listing of dir it probed with
 * (ls: filled on success and on failure, empty when dir could not be
 * listed; free with reader_listing_done()), for the chosen reader's open()
 * as reader_options.root_listing.  dir is listed once for every probe. */
const struct reader_ops *reader_detect_listed(const char *dir, struct reader_listing *ls,
					      char *why, size_t whylen);
/* What to open instead of path, when path is no dump: for a file, the
 * dump directory holding it ("it is a file of the dump in DIR: open that
 * directory"); for a directory, the dumps one or two levels below it.
 * hint is "" when there is nothing to suggest.  reader_detect() appends
 * it to its message. */
void reader_open_hint(const char *path, char *hint, size_t hintlen);
/* Looks a reader up by name ("tfdbg2"); NULL if none. */
const struct reader_ops *reader_by_name(const char *name);

#endif
