/*
 * tfdbg1_internal.h - internals shared by the tfdbg v1 reader files and their unit
 * tests (the reader itself is tfdbg1_reader_ops in reader.h).
 *
 * Pure parts first: the names tfdbg v1 writes (run directories, device
 * directories, dump files, graph inputs; tfdbg1_names.c), the core
 * metadata JSON (tfdbg1_meta.c), one dump file's Event as a summary and a
 * value (tfdbg1_event.c, tfdbg1_tensor.c), a partition GraphDef as the
 * user's ops (tfdbg1_graph.c).  Then a file's path kept as an interned
 * directory and a base name (tfdbg1_paths.c), the reader's tables, the directory scan (tfdbg1_scan.c), the
 * index pass (tfdbg1_index.c), its threads (tfdbg1_stage.c) and the
 * records it sends (tfdbg1_emit.c).
 * See FORMAT.md.
 */
#ifndef TD_TFDBG1_H
#define TD_TFDBG1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pthread.h>

#include "reader/reader.h"
#include "reader/reader_report.h"
#include "reader/base/hashtab.h"
#include "reader/base/strpool.h"
#include "reader/base/tensor.h"
#include "reader/base/util.h"

#include "tf_tensor.pb-c.h"

/* ---- names (tfdbg1_names.c) ---------------------------------------- */

#define TFDBG1_DEVICE_PREFIX "_tfdbg_device_"
#define TFDBG1_GRAPH_PREFIX "_tfdbg_graph_"
#define TFDBG1_CORE_PREFIX "_tfdbg_core_metadata_"
#define TFDBG1_FETCHES_FILE "_tfdbg_fetches_info_"
#define TFDBG1_FEEDS_FILE "_tfdbg_feed_keys_info_"

/* One tensor dump file name, parsed (FORMAT.md §9). */
struct tfdbg1_dump_name {
	char *node;             /* "dense/MatMul": directories joined with '/' */
	uint32_t slot;
	char *debug_op;         /* "DebugIdentity" */
	uint64_t timestamp;     /* microseconds since the epoch */
	uint32_t collision;     /* the -<n> suffix, 0 when absent */
};

/* Parses relpath, the dump file's path below its device directory
 * ("dense/MatMul_0_DebugIdentity_1600000000123456-1").  The base name must
 * hold node, slot, debug op and timestamp separated by '_' (at least three
 * '_'); the node part may itself contain '_' and digits.  Returns false and
 * leaves *out zeroed when the name does not fit.  Free with
 * tfdbg1_dump_name_done(). */
bool tfdbg1_parse_dump_name(const char *relpath, struct tfdbg1_dump_name *out);
void tfdbg1_dump_name_done(struct tfdbg1_dump_name *n);

/* Decodes a device directory name (FORMAT.md §4):
 * "_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0" ->
 * "/job:localhost/replica:0/task:0/device:CPU:0".  Returns a malloc'd
 * string, or NULL when name lacks the "_tfdbg_device_" prefix. */
char *tfdbg1_device_decode(const char *name);

/* Parses a run directory name "run_<us>_<token>" (FORMAT.md §2).  *token
 * points into name (the counter, or an opaque UUID in older releases);
 * *counter is the token as a number, or -1 when it is not decimal.
 * Returns false when name is not a run directory name. */
bool tfdbg1_parse_run_dir(const char *name, uint64_t *us, const char **token, int64_t *counter);

/* Debugger-inserted partition graph nodes (FORMAT.md §11): true for
 * "__copy_..." and "__dbg_..." names. */
bool tfdbg1_is_debug_node(const char *name);

/* Splits a graph input "node", "node:k" or "^node" into node and slot.
 * Returns false for control inputs ("^node") and empty names; *node_len is
 * the length of the node part in input. */
bool tfdbg1_parse_input(const char *input, size_t *node_len, uint32_t *slot);

/* Core metadata JSON (FORMAT.md §7), parsed leniently.  Absent numbers stay
 * at INT64_MIN, absent lists empty. */
struct tfdbg1_core_meta {
	int64_t global_step, session_run_index, executor_step_index;
	char **input_names, **output_names, **target_nodes;
	size_t ninputs, noutputs, ntargets;
};
void tfdbg1_core_meta_parse(const char *json, struct tfdbg1_core_meta *out);
void tfdbg1_core_meta_done(struct tfdbg1_core_meta *m);

/* ---- tensors (tfdbg1_tensor.c) ---------------------------------------- */

/* Decodes the TensorProto of a v1 dump (parse/FORMAT.md §3.4, FORMAT.md §5) into *out
 * through tf_tensor_decode() (tf_tensor.h).
 * A proto with dtype and shape but no data (no tensor_content, no typed
 * values, more than zero elements) is an uninitialised tensor: *out = NULL,
 * *uninitialized = true.  Opaque or unknown dtypes and unknown shapes give
 * *out = NULL and TD_OK.  Bad sizes give TD_ERR_CORRUPT with a message. */
enum td_status tfdbg1_tensor_decode(const Tensorflow__TensorProto *tp, struct td_tensor **out,
				    bool *uninitialized, char *err, size_t errlen);

/* ---- dump file contents (tfdbg1_event.c) ----------------------------- */

/* Largest file the reader loads (a dumped tensor is one file). */
#define TFDBG1_MAX_FILE ((uint64_t)1 << 32)

/* Reads a whole file (opened O_RDONLY) into a malloc'd buffer.  Returns
 * TD_ERR_NOENT, TD_ERR_IO or TD_ERR_NOMEM with a message in err. */
enum td_status tfdbg1_read_file(const char *path, uint8_t **data, size_t *len,
				char *err, size_t errlen);

/* What one dump file holds, decoded for the given debug op (FORMAT.md §10). */
struct tfdbg1_datum {
	double wall_time_us;        /* Event.wall_time (microseconds), 0 if unset */
	char *tag;                  /* Summary.Value.tag, or NULL */
	char *debug_node;           /* Summary.Value.node_name, or NULL */
	char *plugin_content;       /* the DebuggerEventMetadata JSON, or NULL */
	struct td_summary summary;  /* of the watched tensor as far as known */
	struct td_tensor *value;    /* the dumped tensor, NULL if none or uninitialised */
	double *vector;             /* DebugNumericSummary / DebugNanCount as doubles */
	size_t nvector;
	int tf_dtype;               /* dtype number of the dumped TensorProto */
	const char *layout;         /* "DebugNumericSummary (14 + rank)", ... or NULL */
};

/* Decodes the bytes of one tensor dump file written by debug_op.
 * DebugIdentity(V3): full summary of the value.  DebugNumericSummary: the
 * vector as a health summary (both layouts).  DebugNanCount: the NaN count.
 * Other ops: dtype and shape of the dumped tensor, nothing about NaN/Inf.
 * Returns TD_ERR_DECODE with a message in err when the bytes are not an
 * Event holding a tensor.  Free with tfdbg1_datum_done(). */
enum td_status tfdbg1_datum_decode(const uint8_t *data, size_t len, const char *debug_op,
				   struct tfdbg1_datum *out, char *err, size_t errlen);
void tfdbg1_datum_done(struct tfdbg1_datum *d);

/* The index path: the summary of a DebugIdentity dump's value read in
 * place from the Event bytes, without unpacking or copying.  Returns false
 * when that does not apply (other debug ops, strings, typed fields, no
 * data, malformed bytes): then use tfdbg1_datum_decode(). */
bool tfdbg1_fast_summary(const uint8_t *data, size_t len, const char *debug_op,
			 struct td_summary *out);

/* Maps a DebugNumericSummary vector to a summary.  Returns the layout name,
 * or NULL when n fits neither layout (then *out says nothing). */
const char *tfdbg1_numeric_summary(const double *v, size_t n, struct td_summary *out);

/* Decodes the Event of a log-message file (core metadata, fetch and feed
 * info): a malloc'd copy of log_message.message, and Event.wall_time. */
enum td_status tfdbg1_log_message(const uint8_t *data, size_t len, char **message,
				  double *wall_time_us, char *err, size_t errlen);

/* ---- partition graphs (tfdbg1_graph.c) ------------------------------- */

/* A partition graph with the debugger's nodes hidden and data inputs
 * rewired through them to the original tensors (FORMAT.md §11). */
struct tfdbg1_graph_node {
	char *name, *op, *device;
	char **inputs;              /* "node:slot", control inputs apart */
	size_t ninputs;
	char **controls;            /* control inputs ("^x" without the '^') */
	size_t ncontrols;
	struct reader_attr *attrs;  /* name and value text, owned */
	size_t nattrs;
	uint32_t num_outputs;       /* highest slot any consumer or watch reads, + 1 */
};
struct tfdbg1_graph {
	struct tfdbg1_graph_node *nodes;
	size_t nnodes;
	size_t *by_name;            /* node indices sorted by name */
	size_t ncopy, ndebug;       /* hidden __copy_ and __dbg_ nodes */
	double wall_time_us;
	unsigned *refs;             /* holders of these arrays when shared, else NULL */
};

struct Tensorflow__AttrValue;
/* An attribute value as text (tfdbg1_attr.c); malloc'd.  NULL is "?". */
char *tfdbg1_attr_text(const struct Tensorflow__AttrValue *v);

/* Decodes the bytes of a _tfdbg_graph_* file.  TD_ERR_DECODE with a
 * message in err if they are not an Event holding a GraphDef. */
enum td_status tfdbg1_graph_decode(const uint8_t *data, size_t len, struct tfdbg1_graph *out,
				   char *err, size_t errlen);
/* Releases g's share (the arrays go with the last one). */
void tfdbg1_graph_done(struct tfdbg1_graph *g);
/* *dst shares src's arrays (read-only) until tfdbg1_graph_done(dst). */
void tfdbg1_graph_share(struct tfdbg1_graph *src, struct tfdbg1_graph *dst);
/* The node called name, or NULL. */
const struct tfdbg1_graph_node *tfdbg1_graph_find(const struct tfdbg1_graph *g, const char *name);

/* ---- the reader's tables (tfdbg1.c, tfdbg1_index.c) -------------------- */

enum tfdbg1_role {
	TFDBG1_RUN,         /* a run directory (an execution row) */
	TFDBG1_DUMP,        /* a tensor dump (a trace row) */
	TFDBG1_GRAPH,
	TFDBG1_CORE,
	TFDBG1_FETCHES,
	TFDBG1_FEEDS,
	TFDBG1_UNPARSED,
};


/* One file of the dump.  Strings point into reader.strs, interned: no
 * allocation per file.  The path is dir + '/' + base; a dump's base name
 * is not kept when the dump name's fields spell it (tfdbg1_file_path). */
struct tfdbg1_file {
	const char *dir;            /* the path up to its last '/', or NULL if none */
	const char *base;           /* the rest, or NULL: spelled from the fields */
	const char *node;           /* dumps: interned, as the dump name's node */
	const char *debug_op;       /* dumps: interned */
	const char *op_type;        /* dumps: interned, from the partition graph, or NULL */
	int64_t row;                /* trace row (dumps) or execution row (runs), else -1 */
	uint64_t timestamp;         /* dumps: the dump name's, microseconds */
	uint32_t slot, collision;   /* dumps: the dump name's */
	uint32_t run;
	uint32_t device;            /* dumps: index into reader.devices */
	enum tfdbg1_role role;
};

struct tfdbg1_run {
	char *dir;                  /* "run_1700000000491002_2", or the dump root's name */
	char *label;                /* "Session.run #2" */
	char *text;                 /* detail lines for decode(READER_EXECUTION) */
	uint64_t us;
	int64_t counter;            /* -1 unknown */
	uint32_t file;              /* file id of the run directory */
	uint32_t ndumps;
	double wall_time;           /* seconds */
	char **fetched;             /* fetched tensor names ("node:slot"), core metadata */
	size_t nfetched;
	uint32_t ntargets;          /* fetched ops (no value) */
};

/* The last run indexed, kept so that a later pass (follow mode) can add the
 * dumps written into it since (tfdbg1_index.c). */
struct tfdbg1_live_dev {
	char *name, *graph_id;
	uint32_t dev_id;            /* reader.devices index */
	struct tfdbg1_graph graph;  /* its partition graph, for op types */
	char *graph_path;           /* its file, or NULL (a resumed state reads it again) */
};
struct tfdbg1_live {
	bool valid;
	uint32_t run;
	char *dir, *path;
	struct tfdbg1_live_dev *devs;
	size_t ndevs, devcap;
	char **paths;               /* files sent or reported, sorted */
	size_t npaths, pathcap;
};
void tfdbg1_live_done(struct tfdbg1_live *l);

struct reader {
	char *root;
	bool session;               /* run_* directories below root */
	pthread_mutex_t lock;       /* guards the tables against decode() */
	struct td_strpool strs;    /* the files' paths and names */
	struct tfdbg1_file *files;
	size_t nfiles, filecap;
	uint32_t *trace_files;      /* trace row -> file id */
	size_t ntraces, tracecap;
	struct tfdbg1_run *runs;
	size_t nruns, runcap;
	char **devices;             /* decoded device names, on_device ids */
	size_t ndevices, devcap;
	char **debug_ops;           /* seen, for the tensor_debug_mode meta */
	size_t ndebug_ops, opcap;
	char **seen;                /* run directories already looked at */
	size_t nseen, seencap;
	struct tfdbg1_live live;
	bool sent_format;
	bool resumed;               /* tables loaded from a saved state, no pass since */
};

/* What a directory scan found in one dump root (tfdbg1_scan.c); names and
 * sizes only, no file contents. */
struct tfdbg1_scan_dump {
	char *path;
	struct tfdbg1_dump_name name;
	uint32_t dev;               /* index into the scan's devs */
	uint64_t size;
};
struct tfdbg1_scan_dev {
	char *name;                 /* decoded device name ("" in the legacy layout) */
	char *graph_path;           /* the partition graph kept, or NULL */
	uint64_t graph_ts, graph_size;
	size_t ngraph_files;        /* graph files seen (the newest is kept) */
};
struct tfdbg1_scan {
	char *dir;                  /* directory name of the dump root */
	char *path;
	uint64_t us;                /* from run_<us>_<counter>, 0 otherwise */
	int64_t counter;
	char *token;
	bool is_run;                /* named run_<us>_<token> */
	char **core_paths, *fetches_path, *feeds_path;
	size_t ncore;
	struct tfdbg1_scan_dev *devs;
	size_t ndevs;
	struct tfdbg1_scan_dump *dumps;
	size_t ndumps;
	char **unparsed;            /* files whose names do not parse */
	size_t nunparsed;
	char **unreadable;          /* directories that could not be listed */
	size_t nunreadable;
	char **broken;              /* entries that cannot be stat()ed (dangling links) */
	size_t nbroken;
	char **skipped;             /* "path\twhy": entries not followed or not files
				     * (a link loop, a link out of the dump, a FIFO) */
	size_t nskipped;
	uint64_t bytes;             /* total size of the files found */
};

/* Lists the dump root at path (a run directory or a plain dump root): its
 * metadata files, device directories (walked recursively), graph files and
 * tensor dumps, sorted by (timestamp, collision, device, path).  Problems
 * are collected in the unparsed / unreadable / broken lists, never fatal. */
void tfdbg1_scan_root(const char *path, const char *dir, struct tfdbg1_scan *out);
void tfdbg1_scan_done(struct tfdbg1_scan *s);

/* ---- both cores (tfdbg1_stage.c) ---------------------------------------- */

/* A dump file read and summarised: st is the read's status (err says why
 * when it failed); else len bytes were read and summary is the row's;
 * decode_failed: the content did not decode (err says why, summary holds
 * what the fast path left, as the one-thread pass sent). */
struct tfdbg1_staged {
	enum td_status st;
	uint64_t len;
	bool decode_failed;
	char *err;                  /* malloc'd, NULL when all went well */
	struct td_summary summary;
};
/* Reads the dump at path and summarises it (debug_op from its name).  Pure
 * and thread-safe; free *out with tfdbg1_staged_done(). */
void tfdbg1_stage_read(const char *path, const char *debug_op, struct tfdbg1_staged *out);
void tfdbg1_staged_done(struct tfdbg1_staged *s);
/* Threads are used from this many tensor dumps in a pass (and from two run
 * directories for the scan); SIZE_MAX: never.  Tests set it. */
extern size_t tfdbg1_stage_min;
/* Dumps the staging thread reads ahead of the index thread at most (a
 * summary each in memory; 4096, at least 1).  Tests set it. */
extern size_t tfdbg1_stage_window;
/* tfdbg1_scan_root(paths[i], dirs[i], &out[i]) for i < n, on two threads
 * when there are two cores. */
void tfdbg1_scan_roots(char *const *paths, char *const *dirs, size_t n, struct tfdbg1_scan *out);
/* A staging thread reading the dumps of scans[0..n) in order, at most a
 * few thousand dumps ahead of the caller; NULL when the pass is too small
 * for a thread, or there is one core (then read each dump inline).  scans
 * must stay put until tfdbg1_stage_run_done() of each run (or the stop). */
struct tfdbg1_stage;
struct tfdbg1_stage *tfdbg1_stage_start(struct tfdbg1_scan *scans, size_t n);
/* Dump k of run i, waiting for the thread if needed; borrowed until
 * tfdbg1_stage_run_done(sg, i).  Dumps of a run are asked for in order
 * (some may be skipped). */
const struct tfdbg1_staged *tfdbg1_stage_get(struct tfdbg1_stage *sg, size_t run, size_t dump);
/* The caller is done with run i (its scan may be freed after): frees its
 * results.  NULL sg is fine. */
void tfdbg1_stage_run_done(struct tfdbg1_stage *sg, size_t run);
/* Stops and joins the thread, frees the stage.  NULL is fine. */
void tfdbg1_stage_stop(struct tfdbg1_stage *sg);

/* The index pass (tfdbg1_index.c): dumps new in the last run, then the run
 * directories not seen yet. */
enum td_status tfdbg1_index(struct reader *r, const struct reader_sink *sink);

/* The resume state (tfdbg1_state.c): reader.h save_state / load_state. */
void tfdbg1_save_state(struct reader *r, struct strbuf *out);
bool tfdbg1_load_state(struct reader *r, const void *data, size_t len);

/* ---- sending records (tfdbg1_emit.c) ----------------------------------- */

struct tfdbg1_pass {
	struct reader *r;
	const struct reader_sink *sink;
	struct reader_progress progress;   /* bytes of dump files, sent each file */
	/* The last partition graph decoded and its file's bytes: the runs of
	 * a training loop dump the same graph, decoded once (issue 18). */
	uint8_t *graph_bytes;
	size_t graph_len;
	struct tfdbg1_graph graph;
	struct tfdbg1_stage *stage;        /* dumps read ahead, or NULL */
	size_t stage_run;                  /* the run being sent, in the stage */
};
/* Frees what a pass keeps between runs (the graph cache). */
void tfdbg1_pass_done(struct tfdbg1_pass *p);
void tfdbg1_problem(struct tfdbg1_pass *p, enum reader_problem_kind kind, int64_t file,
		    const char *path, const char *what, const char *detail);
void tfdbg1_progress(struct tfdbg1_pass *p, uint64_t bytes);
/* Adds a file to the table, announces it with on_file; returns its id. */
uint32_t tfdbg1_announce_path(struct tfdbg1_pass *p, const char *path, enum tfdbg1_role role,
			      uint32_t run, uint64_t size);
/* The device's on_device id, announcing it the first time. */
uint32_t tfdbg1_device_id(struct tfdbg1_pass *p, const char *name);
/* Core metadata files of a run into text, and the first one's fetched
 * tensors and targets into the run; returns the number of fetches (output
 * tensors + target ops), 0 without metadata. */
uint32_t tfdbg1_read_core(struct tfdbg1_pass *p, const struct tfdbg1_scan *s, uint32_t run,
			  struct strbuf *text);
/* A fetch or feed info file (path may be NULL) as "label: message" in text. */
void tfdbg1_read_info(struct tfdbg1_pass *p, const char *path, enum tfdbg1_role role,
		      uint32_t run, const char *label, struct strbuf *text);
/* Announces the (run, device) graph and its ops; *g gets the decoded
 * partition graph (empty without one). */
void tfdbg1_send_graph(struct tfdbg1_pass *p, const char *run_dir, const struct tfdbg1_scan_dev *dev,
		       uint32_t run, struct tfdbg1_graph *g);
/* Sends one dump as a trace of run (sd's path and name copied).
 * repeat: another dump of the run holds the same tensor (reader.h).
 * staged: the dump read ahead (tfdbg1_stage_get), NULL to read it now. */
void tfdbg1_send_trace(struct tfdbg1_pass *p, struct tfdbg1_scan_dump *sd, uint32_t run,
		       const char *graph_id, const struct tfdbg1_graph *g, uint32_t dev,
		       bool repeat, const struct tfdbg1_staged *staged);
/* Adds a file found at path to the table under the lock; returns its id.
 * f's names are interned in the reader's pool, path split into f's dir and
 * base there (f->dir and f->base are ignored). */
uint32_t tfdbg1_add_file(struct reader *r, const struct tfdbg1_file *f, const char *path);
/* Sets f's dir and base from path, interned in s (f's dump name fields
 * already set: the base is dropped when they spell it). */
void tfdbg1_file_set_path(struct td_strpool *s, struct tfdbg1_file *f, const char *path);
/* f's full path, malloc'd. */
char *tfdbg1_file_path(const struct tfdbg1_file *f);
/* The graph id of a run's device partition: "<run dir><device>". */
char *tfdbg1_graph_id(const char *run_dir, const char *device);

#endif
