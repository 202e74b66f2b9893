/*
 * model_rows.h - rows and ops: the trace and execution tables, ops, graphs,
 * devices, links between rows, stacks and source.  Part of model.h.
 */
#ifndef TD_MODEL_ROWS_H
#define TD_MODEL_ROWS_H

#include "model_base.h"

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
	enum model_role role;       /* the dump's for the row where it states one,
				     * else from the op's type and name */
};
uint64_t model_trace_count(struct model *m);
/* The op of trace row i (below model_trace_count) and its flags
 * (ROW_NONFINITE, ROW_INPUT, ROW_CORRUPT, ROW_REPEAT) from its flag byte
 * alone: no decode, no lock, any thread.  For scans that must not decode
 * (the analysis floor walking rows). */
uint32_t model_trace_op_flags(struct model *m, uint64_t i, uint32_t *flags);
/* The summary of trace row i (below model_trace_count) from the decode
 * cache (decoding the row when it is not there; a corrupt row gives an
 * empty summary); *from_values (may be NULL) gets the SUM_* bits computed
 * from the row's values because the dump's statistics lack them.  Any
 * thread; takes the decode cache's own lock. */
void model_trace_summary(struct model *m, uint64_t i, struct td_summary *s,
			 uint32_t *from_values);
/* What the dump states of trace row i itself, beside its op (a leaf of a
 * call): its role, whether it requires a gradient (1, 0; -1 not stated)
 * and, with prefix, the API family of its call (NULL not stated or not
 * asked; lives as long as the model).  Role and requires_grad from the
 * summary columns when the index pass stated them there (no decode: a
 * condition on them over every row of a big dump), else from the decode
 * cache, decoding the row when it is not there; false, with nothing
 * stated and no decode, when the dump's format states no such facts.
 * Any thread; takes the decode cache's lock and the model's (not for a
 * caller holding it). */
struct model_row_facts {
	enum model_role role;       /* ROLE_NONE: not stated (the op's applies) */
	int requires_grad;
	const char *prefix;
};
bool model_trace_facts(struct model *m, uint64_t i, bool prefix, struct model_row_facts *out);
/* Whether the dump's rows take their prefix (model_row_facts.prefix)
 * from their op's name alone, and then its length at the start of
 * op_name in *len (0: none).  A condition on it is then decided per op.
 * Any thread, no lock. */
bool model_op_prefix(struct model *m, const char *op_name, size_t *len);
/* The same prefix as a string that lives as long as the model (NULL:
 * none), *stated as model_op_prefix's answer.  Takes the model's lock. */
const char *model_op_prefix_str(struct model *m, const char *op_name, bool *stated);
/* True when the dump's format records which call encloses an op (a
 * module tree: model_detail.call_parent, model_calls_of).  No lock. */
bool model_has_call_tree(struct model *m);
/* The op name and type of trace row i (NULL both when its op is not in the
 * table) and its host ("" none).  Takes the model's lock: not for a
 * caller holding it. */
void model_trace_names(struct model *m, uint64_t i, const char **name, const char **type,
		       const char **host);
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
	/* The call enclosing the record's op (an op name of its graph, NULL
	 * at the top or where the dump records no call tree) and the calls it
	 * encloses: a module's parent and children (model_calls_of). */
	char *call_parent;
	char **call_children;
	size_t ncall_children;
	/* A trace row's call's (or an execution's) non-tensor arguments,
	 * with their places among the call's rows (util.h struct td_arg),
	 * where the reader records them; else NULL. */
	struct td_arg *args;
	size_t nargs;
	/* A trace row's statistics as the dump wrote them (Max, Min, Mean,
	 * Norm; NaN and Inf kept; written[k] false for none or null), where
	 * the reader gives them (reader.h reader_stats): stats false else. */
	struct model_stats {
		bool stats;
		bool written[4];
		double v[4];
	} stats;
};
enum td_status model_trace_detail(struct model *m, uint64_t i, struct model_detail *d);
enum td_status model_execution_detail(struct model *m, uint64_t i, struct model_detail *d);
/* model_execution_detail for a caller that reads only the tensor ids
 * (input_tensor_ids, output_tensor_ids and their counts), noutputs and
 * summaries: the reader may take a cheaper path (reader.h
 * decode_outputs); every other field may be left empty.  A record that
 * does not decode marks the row corrupt, as the full detail does. */
enum td_status model_execution_outputs(struct model *m, uint64_t i, struct model_detail *d);
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

/* ---- summary columns (issue 25; model_fields.c) ------------------------ */
/* A trace row's summary fields as a scan reads them.  s holds the fields
 * asked for (their SUM_* known bits), no tensor id or percentiles
 * when they came from the columns (from_columns); a decoded row gives
 * its whole summary. */
struct model_fields {
	struct td_summary s;
	uint32_t from_values;       /* bits of s computed from the row's values */
	double wall_time;           /* 0 unknown */
	bool from_columns;
};
/* Trace row i's summary fields in need (SUM_* bits, MODEL_FIELDS_WALL
 * for the wall time): from the persistent index's summary columns, a
 * window at a time, when they hold the row; else decoded as
 * model_trace_summary does (a corrupt row: an empty summary, wall time
 * 0) and then kept in the columns for the next question.  Exactly what
 * model_trace_get gives for those fields.  false past the indexed rows.
 * Any thread; takes the columns' own lock or the decode cache's. */
#define MODEL_FIELDS_WALL (1u << 31)
bool model_trace_fields(struct model *m, uint64_t i, uint32_t need, struct model_fields *out);
/* The statistics of a trace row a two-dump verdict reads, compact (80
 * bytes against model_fields' 280: a diff batch of 4,096 rows a side
 * writes and reads a third of the memory).  Each field is td_summary's,
 * meaning something when known (the SUM_* bits asked for) says so;
 * nonfinite is has_inf_or_nan; shape is the dims packed in one word
 * (60 / rank bits a dim, the top bit set: the summary columns' shape
 * word), so that two briefs of one rank hold equal dims exactly when
 * their words are equal. */
struct model_brief {
	uint32_t known;
	enum td_dtype dtype;
	int rank;
	bool nonfinite;
	uint64_t shape;
	int64_t elements, nan, neg_inf, pos_inf;
	double min, max, mean;
};
/* s's brief, with the SUM_* bits of need, into *b (every field written).
 * Returns false when the shape word is not exact (SUM_SHAPE known but
 * the dims do not pack: a rank past TD_MAX_DIMS, truncated dims, a dim
 * too large): b->shape is then 0 and says nothing. */
bool model_brief_of(const struct td_summary *s, uint32_t need, struct model_brief *b);
/* td_summary_nonfinite's answer for the summary b was made of (inline:
 * the diff's batches ask it twice a pair). */
static inline bool
model_brief_nonfinite(const struct model_brief *b)
{
	if ((b->known & SUM_NONFINITE) && b->nonfinite)
		return true;
	if ((b->known & SUM_NAN) && b->nan > 0)
		return true;
	if ((b->known & SUM_NEG_INF) && b->neg_inf > 0)
		return true;
	return (b->known & SUM_POS_INF) && b->pos_inf > 0;
}
/* The briefs of many trace rows whose records hold no values, for a scan
 * over them (the diff's pairs): ok[i] is true when
 * model_trace_no_values(rows[i]) is and the row's brief is exact; out[i]
 * is then what model_brief_of(model_trace_fields(rows[i], need)) gives (a
 * row the columns do not fill is decoded, then kept, as there).  out[i]
 * means nothing when ok[i] is false (the caller reads such a row the
 * long way).  Rows in any order; a run of rows in one block of the
 * summary columns is read under one lock.  Any thread. */
void model_trace_briefs_novalues(struct model *m, const uint64_t *rows, size_t n, uint32_t need,
				 struct model_brief *out, bool *ok);
/* A window of trace rows' summary fields, column by column, for a scan
 * that tests every row of it (the filters' window evaluation): rows
 * [first, first + n) of one block of MODEL_FIELD_WINDOW rows.  Row k
 * is usable when filled[k]: known[k] holds its SUM_* bits among need
 * and its fields are exactly what model_trace_fields gives; an unfilled
 * row (not in the columns, or corrupt) is asked with model_trace_fields.
 * Counts (elements .. positive) are int64 bit patterns, min .. l2norm
 * doubles' bit patterns; columns need does not name are not read. */
#define MODEL_FIELD_WINDOW 4096u
enum model_fcol {
	MODEL_FCOL_ELEMENTS, MODEL_FCOL_NAN, MODEL_FCOL_NEG_INF, MODEL_FCOL_POS_INF,
	MODEL_FCOL_NEGATIVE, MODEL_FCOL_ZERO, MODEL_FCOL_POSITIVE, MODEL_FCOL_MIN,
	MODEL_FCOL_MAX, MODEL_FCOL_MEAN, MODEL_FCOL_ABS_MEAN, MODEL_FCOL_STD,
	MODEL_FCOL_L2NORM, MODEL_FCOL_COUNT
};
struct model_field_window {
	uint64_t first;
	size_t n;
	bool filled[MODEL_FIELD_WINDOW];
	uint32_t known[MODEL_FIELD_WINDOW];
	uint8_t dtype[MODEL_FIELD_WINDOW];      /* enum td_dtype (SUM_DTYPE) */
	uint8_t rank[MODEL_FIELD_WINDOW];       /* SUM_RANK */
	uint64_t v[MODEL_FCOL_COUNT][MODEL_FIELD_WINDOW];
};
/* Fills w with rows [first, first + n) of trace rows' fields in need
 * (SUM_* bits), n cut at the end of first's block and at the rows
 * indexed; the columns' lock taken once.  Returns w->n (0 past the
 * rows).  Rows the columns cannot answer are left unfilled: the caller
 * asks them one by one.  Any thread. */
size_t model_trace_field_window(struct model *m, uint64_t first, size_t n, uint32_t need,
				struct model_field_window *w);
/* The field model_trace_sort_keys reads. */
enum model_sort_key {
	MODEL_SORT_ELEMENTS,         /* element count (SUM_ELEMENTS) */
	MODEL_SORT_WALL,             /* wall time */
};
/* One field of trace rows rows[0..n) (ascending; a sort's keys, read a
 * window at a time): val[i] row rows[i]'s element count (as a double) or
 * wall time, known[i] whether the row has it (the element count known;
 * a wall time above 0), exactly as model_trace_fields gives them.  The
 * rows the summary columns hold come from one locked read per block of
 * the columns; the others are read one by one through
 * model_trace_fields (decoded, then kept).  Rows past the indexed ones
 * are not known.  Any thread. */
void model_trace_sort_keys(struct model *m, enum model_sort_key key, const uint64_t *rows, size_t n,
		      double *val, bool *known);
/* True when trace row i's record is known to hold no tensor values (the
 * index pass kept its summary from the reader's exact summary, or,
 * without summary columns, the reader said the summary was exact): a
 * caller after values need not decode it, and model_trace_fields gives
 * its whole summary without decoding it whole.  false when not known
 * (and for a row found corrupt).  Any thread. */
bool model_trace_no_values(struct model *m, uint64_t i);
/* The summary columns' state in words: "" when in use from the start,
 * else why an old column file was not used or why writing stopped
 * (static or living as long as m). */
const char *model_fields_why(struct model *m);

#endif
