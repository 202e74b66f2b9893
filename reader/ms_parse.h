/*
 * ms_parse.h - parsers for the pieces of a MindSpore dump directory:
 * statistic.csv rows, tensor file names, mapping.csv, the debugger graph
 * .pb and the .ir text.  Pure functions over bytes already read; they never
 * walk directories (mindspore.c, ms_sync.c and ms_async.c do that).
 * Section numbers refer to formats/mindspore.md.
 */
#ifndef TD_MS_PARSE_H
#define TD_MS_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tensor.h"
#include "util.h"

/* ---- statistic.csv (§7) ------------------------------------------------ */

struct ms_stat_row {
	char *op_type, *op_name;    /* as written (file-name form or scoped) */
	uint64_t task, stream, ts;
	bool is_input;
	uint32_t slot;
	struct td_summary summary;  /* what the known columns say */
};

struct ms_stat {
	struct ms_stat_row *rows;   /* sorted by (ts, is_input, slot) after parsing */
	size_t n, cap;
	size_t bad_rows;            /* lines that did not fit the header */
	size_t ncolumns;
};

/* Parses a whole statistic.csv.  Columns are mapped by header name (the
 * 20-, 22- and 15-column variants and unknown extra columns all work);
 * "null" leaves a value unknown.  "Negative/Positive Zero Count" count
 * elements < 0 / > 0 (infinities included: they are subtracted so that
 * summary.negative/positive mean finite ones).  TD_ERR_CORRUPT with a
 * message if a key column (Op Type, Op Name, Timestamp, IO, Slot) is
 * missing.  Bad rows are skipped and counted. */
enum td_status ms_stat_parse(const char *text, size_t len, struct ms_stat *st,
			     char *err, size_t errlen);
/* The row joined to a tensor file (§7.2: op type, timestamp, io, slot), or
 * NULL.  op_type may be NULL to match any. */
const struct ms_stat_row *ms_stat_find(const struct ms_stat *st, const char *op_type,
				       uint64_t ts, bool is_input, uint32_t slot);
void ms_stat_done(struct ms_stat *st);

/* Parses a statistic Shape cell "(2,3)", "(2, 3)", "()" into s (rank,
 * dims, elements when no Count column).  false if malformed. */
bool ms_stat_parse_shape(const char *text, struct td_summary *s);

/* ---- mapping.csv (§13) ------------------------------------------------- */

struct ms_mapping {
	char **numbers, **names;    /* parallel, n entries */
	size_t n, cap;
};
/* Parses mapping.csv text; a first row whose column 0 is not all digits is
 * a header and skipped. */
void ms_mapping_parse(const char *text, size_t len, struct ms_mapping *m);
/* The original name for a numbered file, or NULL. */
const char *ms_mapping_lookup(const struct ms_mapping *m, const char *number);
void ms_mapping_done(struct ms_mapping *m);

/* ---- tensor file names (§5) -------------------------------------------- */

enum ms_name_kind {
	MS_NAME_NONE,               /* not a tensor file (statistic.csv, *.txt ...) */
	MS_NAME_NPY,                /* sync or async npy, msaccucmp npy */
	MS_NAME_BIN,                /* async DumpData file, 5 fields */
	MS_NAME_OVERFLOW_BIN,       /* Opdebug.Node_OpDebug.T.S.TS */
	MS_NAME_OVERFLOW_JSON,      /* Opdebug.Node_OpDebug.T.S.TS.output.N.json */
	MS_NAME_KERNEL_ARGS,        /* OPTYPE.OPNAME.json */
};

struct ms_name {
	enum ms_name_kind kind;
	char *op_type;
	char *op_name;              /* file-name form; dots tolerated (joined back) */
	uint64_t task, stream, ts;
	bool has_io;                /* npy/json: io and slot valid */
	bool is_input;
	uint32_t slot;
	char *format;               /* device format, or NULL */
	char *shape;                /* msaccucmp "32x256x13x13", or NULL */
	enum td_dtype dtype;        /* DTYPE field, DTYPE_INVALID if none */
	char *dtype_word;           /* the DTYPE field as written, or NULL */
	char *number;               /* numbered file: the number, else NULL */
};

/* Parses a basename per §5.3, from the right.  A numbered stem is resolved
 * through map (may be NULL).  Returns false (kind MS_NAME_NONE, nothing to
 * free) when the name does not fit: such files are listed as unparsed,
 * never guessed.  Non-tensor side files also return false. */
bool ms_name_parse(const char *base, const struct ms_mapping *map, struct ms_name *out);
void ms_name_done(struct ms_name *n);
/* The file-name form of a scoped name (§5.2: '/', '\\', '.', ' ' -> '_').
 * Returns a new string. */
char *ms_name_file_form(const char *full_name);
/* The "{OpType}-op{N}" tail of a name (last '/' or '_' segment that
 * matches), or NULL.  Points into name. */
const char *ms_name_op_tail(const char *name);
/* MindSpore's dtype words (§5.1) to the neutral dtype; DTYPE_INVALID if
 * unknown.  int4/uint1 give the stored int8/uint8. */
enum td_dtype ms_dtype_from_word(const char *word);

/* ---- graph .pb (§8) and .ir (§9) --------------------------------------- */

struct ms_frame {
	char *file;
	uint32_t line;              /* 0 unknown */
	char *code;                 /* source text as recorded, or NULL */
};

struct ms_node {
	char *name;                 /* .pb node name ("12") or .ir "%12" number */
	char *full_name;            /* fullname_with_scope */
	char *op_type;
	char *scope;
	char **inputs;              /* resolved: producer full name, parameter or cstN */
	size_t ninputs;
	uint32_t num_outputs;
	struct ms_frame *frames;    /* trace lines as printed */
	size_t nframes;
};

struct ms_graph {
	char *name;                 /* "kernel_graph_0" */
	struct ms_node *nodes;
	size_t nnodes, cap;
	char **params;              /* parameter names ("conv1.weight") */
	size_t nparams, pcap;
	char **consts;              /* const_vals keys ("cst1") */
	size_t nconsts;
	bool model_proto;           /* wrapped in a ModelProto (else a bare GraphProto) */
};

/* Decodes a .pb: ModelProto, else a bare GraphProto (§8.2).  Inputs naming
 * other nodes are resolved to their full names; source_address gives the
 * frames.  TD_ERR_DECODE with a message when neither decodes. */
enum td_status ms_graph_decode(const uint8_t *buf, size_t len, struct ms_graph *g,
			       char *err, size_t errlen);
/* Parses .ir text (§9) into g (nodes with full names, op types, inputs and
 * frames; parameters).  Tolerant: unknown lines are skipped.  Returns the
 * number of nodes found. */
size_t ms_ir_parse(const char *text, size_t len, struct ms_graph *g);
/* Parses one "# In file PATH LOC/code/" line (leading spaces allowed) in
 * any of the three LOC forms into f (owned strings).  false if the line is
 * not a trace line. */
bool ms_ir_parse_trace(const char *line, size_t len, struct ms_frame *f);
/* True when path is not inside the installed mindspore package. */
bool ms_path_is_user_code(const char *path);
/* True for a non-empty string of ASCII digits. */
bool ms_all_digits(const char *s);
/* Puts a node's frames outermost first whatever order the producer printed
 * them in (see ms_ir.c). */
void ms_node_orient_frames(struct ms_node *n);
/* Index of the node with full_name, or -1 (linear; callers build maps). */
int64_t ms_graph_find(const struct ms_graph *g, const char *full_name);
/* Completes g (from a .pb) with what the .ir (src) knows about the nodes
 * with the same full name: frames when g's node has none, and (despite the
 * name) the output count when the .ir's type line shows more outputs. */
void ms_graph_merge_frames(struct ms_graph *g, const struct ms_graph *src);
void ms_frame_done(struct ms_frame *f);
void ms_graph_done(struct ms_graph *g);

#endif
