/*
 * ms_internal.h - the MindSpore reader's internal state, shared by
 * ms_reader.c (reader_ops, open, index driver), ms_decode.c (decode,
 * sources, frames), ms_strs.c (interner), ms_sync.c (the rank layout:
 * ranks, graphs, iteration directories), ms_run.c (one iteration
 * directory's tensors), ms_async.c (DumpData bin files, Opdebug overflow
 * files, the ACL layouts), ms_state.c and ms_layout.c (the resume state).  Not a public interface: nothing outside
 * reader/mindspore/ and its unit tests includes it.  "§N" in this folder's comments is a
 * section of FORMAT.md here.
 */
#ifndef TD_MS_READER_H
#define TD_MS_READER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/hashtab.h"
#include "reader/base/strpool.h"
#include "reader/base/tensor.h"
#include "reader/base/util.h"
#include "reader/reader.h"
#include "reader/reader_listing.h"

/* ==== parsers over bytes already read (statistic.csv, names, mapping.csv, .pb, .ir) ==== */

/* ---- statistic.csv (§7) ------------------------------------------------ */

struct ms_stat_row {
	const char *op_type;        /* as written (file-name form or scoped); */
	const char *op_name;        /* in ms_stat.names, or in own */
	char *own;                  /* the two names of a row of ms_stat_read_row */
	uint64_t task, stream, ts;
	bool is_input;
	bool used;                  /* joined to a data file (ms_run.c) */
	uint32_t slot;
	uint64_t off;               /* byte offset of its line in the file */
	struct td_summary summary;  /* what the known columns say */
};

/* Columns ms_stat.c maps by header name (its enum stat_col). */
#define MS_STAT_NCOLS 21

/* statistic.csv rows kept per file; further rows are counted, not kept. */
#define MS_STAT_ROWS_MAX ((size_t)1 << 20)

struct ms_stat {
	struct ms_stat_row *rows;   /* sorted by (ts, is_input, slot) after parsing */
	size_t n, cap;
	size_t bad_rows;            /* lines that did not fit the header */
	size_t ncolumns;
	uint64_t long_lines;        /* lines longer than the line cap, skipped */
	uint64_t over_rows;         /* good rows past MS_STAT_ROWS_MAX, not kept */
	int colmap[MS_STAT_NCOLS];  /* column of each known header name, -1 absent */
	bool header;                /* the header line was read */
	uint64_t size;              /* the file's size and modification time (ns) */
	int64_t mtime_ns;           /* when it was read (0: parsed from memory) */
	struct td_strpool names;    /* the rows' op types and names */
	/* kept by ms_stat_clear for the next file (the same header and
	 * Data Type words again, file after file) */
	char *last_header;          /* the last header that mapped, its bytes */
	size_t last_header_len, last_ncolumns;
	int last_colmap[MS_STAT_NCOLS];
	char dtype_word[16];        /* the last Data Type cell, and its dtype */
	int dtype;
};

/* Parses a whole statistic.csv held in memory (tests, the fuzzer): the
 * same as ms_stat_read on a file of these bytes. */
enum td_status ms_stat_parse(const char *text, size_t len, struct ms_stat *st,
			     char *err, size_t errlen);
/* Streams statistic.csv at path line by line (never the whole file in
 * memory; td_lines, lines up to max_line bytes, 0 = TD_LINE_MAX) into st:
 * zeroed, or cleared by ms_stat_clear after an earlier read (its row
 * array is then reused).  Columns
 * are mapped by header name (the 20-, 22- and 15-column variants and
 * unknown extra columns all work); "null" leaves a value unknown.
 * "Negative/Positive Zero Count" count elements < 0 / > 0 (infinities
 * included: they are subtracted so that summary.negative/positive mean
 * finite ones).  TD_ERR_CORRUPT with a message if the file is empty or a
 * key column (Op Type, Op Name, Timestamp, IO, Slot) is missing;
 * TD_ERR_NOENT / TD_ERR_IO when it cannot be opened.  Bad rows are skipped
 * and counted (bad_rows), overlong lines too (long_lines), and rows past
 * MS_STAT_ROWS_MAX (over_rows).  st needs ms_stat_done in every case. */
enum td_status ms_stat_read(const char *path, size_t max_line, struct ms_stat *st,
			    char *err, size_t errlen);
/* The row joined to a tensor file (§7: op type, timestamp, io, slot), or
 * NULL.  op_type may be NULL to match any. */
const struct ms_stat_row *ms_stat_find(const struct ms_stat *st, const char *op_type,
				       uint64_t ts, bool is_input, uint32_t slot);
/* Frees st's rows' names and forgets its rows, keeping for the next
 * ms_stat_read the row array (unless it is big) and the memos of the last
 * header and Data Type word; st then reads as if zeroed. */
void ms_stat_clear(struct ms_stat *st);
void ms_stat_done(struct ms_stat *st);
/* Reads again the row whose line starts at byte off of the statistic.csv
 * at path, which had size bytes and mtime_ns when ms_stat_read read it
 * (ms_stat.size, .mtime_ns): the header is
 * mapped again and the line parsed by the code ms_stat_read uses, so an
 * unchanged file gives the row it gave then.  TD_ERR_CORRUPT with a
 * message when the file's size or time is not that or the line is no row (the
 * file was rewritten or cut since), TD_ERR_NOENT / TD_ERR_IO when it
 * cannot be read.  On TD_OK free the row with ms_stat_row_done. */
enum td_status ms_stat_read_row(const char *path, uint64_t size, int64_t mtime_ns, uint64_t off,
				struct ms_stat_row *row, char *err, size_t errlen);
void ms_stat_row_done(struct ms_stat_row *row);
/* ms_stat.c's parse shared with ms_stat_row.c: the header's cells hdr
 * mapped to the known columns (colmap, MS_STAT_NCOLS of them, -1 absent;
 * TD_ERR_CORRUPT with a message when a key column is missing); and a
 * split row by colmap into out (zeroed first; its names borrowed from
 * row), false when it is no row. */
struct csv_row;
enum td_status ms_stat_map_header(const struct csv_row *hdr, int *colmap, char *err,
				  size_t errlen);
bool ms_stat_fill_split(const int *colmap, const struct csv_row *row, struct ms_stat_row *out);

/* Parses a statistic Shape cell "(2,3)", "(2, 3)", "()" into s (rank,
 * dims, elements when no Count column).  false if malformed. */
bool ms_stat_parse_shape(const char *text, struct td_summary *s);

/* Interned names (reader/base/strpool.h): insertion numbers, strings that
 * live until close. */

/* ---- mapping.csv (§13) ------------------------------------------------- */

struct ms_mapping {
	char **numbers, **names;    /* parallel, n entries */
	size_t n, cap;
	struct td_strpool ix;          /* number -> its id (first row wins) */
	size_t *row_of;             /* id -> row */
	size_t caprow;
};
/* Parses mapping.csv text; a first row whose column 0 is not all digits is
 * a header and skipped. */
void ms_mapping_parse(const char *text, size_t len, struct ms_mapping *m);
/* The same, streamed from the file at path (ms_read_lines); a missing or
 * unreadable file leaves m empty. */
void ms_mapping_read(const struct reader_sink *sink, const char *path, struct ms_mapping *m);
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
/* The same form appended to sb. */
void ms_name_add_file_form(struct strbuf *sb, const char *full_name);
/* The older file-name form of a scoped name ('/' -> "--"), or NULL when
 * the name has no '/'.  Returns a new string. */
char *ms_name_dash_form(const char *full_name);
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
	char **controls;            /* control edges (.pb EdgeType 1), resolved like inputs */
	size_t ncontrols;
	struct reader_attr *attrs;  /* .pb attributes / .ir primitive_attrs, owned */
	size_t nattrs;
	struct reader_output_type *otypes; /* output types (dims owned) */
	size_t notypes;
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
	size_t bad_refs;            /* .ir input references that are no node number
				     * ("%-1", "%99999999999999999999"): kept as written */
	char first_bad_ref[32];     /* the first of them, cut */
};

/* Decodes a .pb: ModelProto, else a bare GraphProto (§8).  Inputs naming
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

/* Nodes [first, nnodes) of g sorted by name (full_name when full), for
 * lookups in O(log n): every name resolution of a graph goes through it,
 * never through a scan per reference.  The names are borrowed from g.
 * Free with free(). */
struct ms_name_ix {
	const char *name;
	size_t node;                /* index in g->nodes */
};
struct ms_name_ix *ms_name_index(const struct ms_graph *g, size_t first, bool full);
/* The entry named name among n entries, or NULL. */
const struct ms_name_ix *ms_name_find(const struct ms_name_ix *ix, size_t n, const char *name);
void ms_frame_done(struct ms_frame *f);
void ms_graph_done(struct ms_graph *g);

/* ms_attr.c: attributes and output types of a node for the op details. */
struct Debugger__NodeProto;
/* From the .pb node (attribute, output_type). */
void ms_node_pb_details(struct ms_node *n, const struct Debugger__NodeProto *np);
/* From an .ir op line's primitive_attrs (when the node has none yet). */
void ms_node_ir_attrs(struct ms_node *n, const char *s, size_t len);
/* From an .ir type line (when the node has no output type yet). */
void ms_node_ir_types(struct ms_node *n, const char *s, size_t len);
/* Frees them. */
void ms_node_details_done(struct ms_node *n);

/* The largest DumpData header (the protobuf before a bin file's data)
 * believed; a larger length is a damaged file. */
#define MS_BIN_HEADER_MAX ((uint64_t)64 << 20)

/* decode() attaches the full value of tensors up to this size. */
#define MS_VALUE_MAX ((uint64_t)256 << 20)

enum ms_entry_kind {
	MS_ENTRY_NPY,               /* one .npy file */
	MS_ENTRY_BIN,               /* one input/output of a DumpData bin file */
	MS_ENTRY_STAT,              /* a statistic.csv row without a data file */
};

/* ms_entry.name of a row without a data file. */
#define MS_NO_NAME UINT32_MAX
/* ms_entry.name of a .npy file whose name its row's fields spell, with the
 * run's name suffix (ms_run.suffix): ms_entry_path() rebuilds it. */
#define MS_NAME_REBUILT (UINT32_MAX - 1)
/* ms_entry's statistic.csv line offset of a row no line gives (48 bits). */
#define MS_NO_LINE (UINT64_MAX >> 16)
/* ms_entry.task / .stream of an id wider than 32 bits: ms_run.wide has it. */
#define MS_WIDE_ID UINT32_MAX

/* One trace row, a few fixed fields and its locators (issue 25 item 1):
 * no summary.  decode() reads it again from its source: the run's
 * statistic.csv line at line_lo/line_hi (a statistic-only row, or a data
 * file the statistics cover), else the data file (name). */
struct ms_entry {
	uint64_t ts;
	const char *op_name;        /* interned (struct td_strpool) */
	const char *op_type;        /* interned */
	uint32_t name;              /* data file: its name's offset in the run's name
				     * block (ms_run.names), or MS_NAME_REBUILT;
				     * MS_NO_NAME for MS_ENTRY_STAT */
	uint32_t slot;
	uint32_t task, stream;      /* MS_WIDE_ID: in ms_run.wide */
	uint32_t line_lo;           /* byte offset of its statistic.csv line: */
	uint16_t line_hi;           /* ms_entry_line() */
	uint8_t hint;               /* enum td_dtype: file-name DTYPE for bf16 "V2" descrs */
	bool is_input : 1;
	bool in_const : 1;          /* the file is in the run's const_dir, not its folder */
	bool flagged : 1;           /* follow mode: its change was reported */
	uint8_t kind : 2;           /* enum ms_entry_kind */
};

_Static_assert(sizeof(struct ms_entry) <= 48, "issue 25: at most 48 bytes a row");
_Static_assert(DTYPE_COUNT <= UINT8_MAX, "ms_entry.hint holds a dtype");

/* A task or stream id of an entry that does not fit ms_entry's 32 bits. */
struct ms_wide {
	uint32_t entry;             /* index in ms_run.entries */
	uint64_t task, stream;
};

/* What the index pass holds of an entry until the run went to the sink. */
struct ms_pend {
	struct td_summary summary;  /* statistic.csv row, else computed from the data */
	uint64_t task, stream;
	uint64_t size;              /* as ms_run.sizes */
	int64_t memo;               /* its op's ms_op_memo (ms_opmemo.h), -1 none */
};
/* What follow mode compares of a directory (ms_follow.c). */
struct ms_sig {
	uint64_t files, bytes;
	int64_t newest;             /* newest mtime, ns, the directory's own included */
};

/* One graph run = one iteration directory = one execution = one file id. */
struct ms_run {
	char *path;                 /* iteration directory */
	const char *host;           /* interned "rank_0" / "device_0" */
	const char *graph_id;       /* interned */
	uint64_t iteration;
	int rank_order;             /* position of its rank / device */
	char *label;                /* "graph 0 iter 1" */
	uint64_t order;             /* sort key: global-order position or iteration */
	char *const_dir;            /* constants/ to append (first run of a graph), or NULL */
	struct ms_entry *entries;   /* NULL while packed (below) */
	size_t n, cap;
	const uint8_t *packed;      /* a resumed run's entries as the state holds them
				     * (in reader.state_copy), unpacked on first use
				     * (ms_run_unpack), else NULL */
	size_t packed_len;
	struct ms_pend *pend;       /* entries' summaries and ids while the pass sends
				     * them (ms_run_load to emit_run), else NULL */
	struct ms_wide *wide;       /* ids of MS_WIDE_ID entries, by entry */
	size_t nwide;
	uint64_t *sizes;            /* follow mode: entries' data file sizes when read
				     * (MS_SIZE_UNKNOWN: not looked at), NULL all unknown */
	uint64_t stat_size;         /* its statistic.csv's size and time (ns) when */
	int64_t stat_mtime;         /* read: decode checks them before reading a line */
	char *names;                /* the entries' file names, NUL-terminated one after
				     * the other (one block per run, not a path per row) */
	size_t names_len;
	uint32_t suffix;            /* offset in names of what follows the slot in the
				     * names of MS_NAME_REBUILT rows (".DefaultFormat.npy"),
				     * MS_NO_NAME when none is */
	uint32_t file_id;
	int64_t execution;
	/* follow mode (ms_follow.c) */
	struct ms_sig sig;          /* while held back: the last look */
	int64_t quiet_since;        /* ns: sig has not changed since */
	bool looked;                /* sig taken */
	/* what the load read of the folder, for its announce (reader_file
	 * listed_only: a run with statistic.csv), freed once announced */
	bool listed_only;
	char **read;                /* names of the files in it whose bytes were read */
	size_t nread;
	int64_t dir_mtime;          /* ns, when read */
	size_t nnames;              /* directory entries when read */
	bool gone, changed;         /* reported deleted / changed after it was read */
};


/* One code line a trace line recorded: kept sparse, so a line number near
 * the cap costs one entry, not an array that long. */
struct ms_src_line {
	uint32_t line;              /* 1-based */
	const char *code;           /* interned in reader.strs */
};

/* Line numbers past this are not real source (decode() shows up to it). */
#define MS_SOURCE_LINE_MAX 1000000u
/* Code lines remembered for the whole dump, all files together. */
#define MS_SOURCE_LINES_MAX (1u << 20)

/* A source file named by trace lines, with the code lines the dump knows. */
struct ms_source {
	const char *host;
	char *path;
	struct ms_src_line *lines;  /* in the order first seen; first wins per line */
	size_t nlines, caplines;
	uint32_t maxline;           /* the largest line number in lines */
};

/* A distinct trace frame, sent with on_frame. */
struct ms_frame_rec {
	const char *id;             /* interned "ms<k>" */
	const char *host;
	const char *file;           /* interned */
	const char *code;           /* interned, or NULL */
	uint32_t line;
	int64_t source;             /* index into sources */
};

/* The execution_order/ files of one graph id (§10). */
struct ms_order {
	char *graph_id;
	struct td_strpool kernels;     /* full name -> launch position */
	struct td_strpool iters;       /* iteration text -> position in the global order */
};

/* Per rank (or ACL device): its graphs, used to map file names to ops. */
struct ms_rank {
	char *dir;                  /* rank_N directory ("" for ACL) */
	const char *host;
	int id;
	struct ms_graph *graphs;    /* one per graph id (graphs/ .pb, else .ir) */
	char **graph_ids;
	size_t ngraphs;
	struct td_strpool file_forms;  /* file-name form of every node / parameter */
	const char **form_full;     /* file_forms id -> full name (interned) */
	const char **form_type;     /* file_forms id -> op type (interned) */
	size_t nforms, capforms;
	struct ms_order *orders;
	size_t norders;
	size_t ngraphs_sent;        /* graphs already sent with on_graph */
	struct ms_op_memos *memos;  /* per graph id (ms_opmemo.h) */
	size_t nmemos;
};

struct reader {
	char *root;                 /* the dump, or the rank holding the opened dir */
	char *only;                 /* opened inside a rank: runs under this path only */
	char *top;                  /* the whole dump the opened folder belongs to
				     * (read_root: never written into) */
	char *source_root;
	bool async;                 /* mindspore-async */
	bool acl;                   /* ACL {time}/{device}/... layout */
	struct ms_rank *ranks;
	size_t nranks;
	struct ms_run *runs;
	size_t nruns, capruns;
	struct td_strpool strs;        /* interned names */
	struct td_strpool frame_keys;  /* "host\tfile\tline\tcode" -> frame number */
	struct td_strpool unreadable;  /* directories reported unreadable (once each) */
	struct ms_frame_rec *frames;
	size_t nframes, capframes;
	struct td_strpool source_keys; /* "host\tpath" -> source number */
	struct ms_source *sources;
	size_t nsources, capsources;
	size_t nsource_lines;       /* code lines kept, all sources (MS_SOURCE_LINES_MAX) */
	char *net_name;
	uint64_t tensors;
	struct td_strpool run_paths;   /* iteration dirs already listed (follow mode) */
	struct td_strpool const_dirs;  /* constants/ directories given to a run */
	struct td_strpool ops_sent;    /* "graph\top" already sent with on_op */
	struct ms_stat stat;        /* ms_run_load's statistic.csv, cleared run
				     * after run (its row array reused) */
	size_t nemitted;            /* runs sent to the sink so far */
	bool follow;                /* reader_options.follow */
	bool may_follow;            /* reader_options.may_follow (or follow) */
	bool rank_parent;           /* root holds rank_N directories (more may come) */
	size_t check_run, check_entry;  /* follow mode: round-robin position (ms_follow.c) */
	size_t nsources_sent, nframes_sent;
	size_t nranks_framed;       /* ranks whose frames are registered */
	size_t nranks_sent;         /* ranks announced in meta so far */
	bool indexed;
	bool resumed;               /* indexed from a saved state (ms_state.c), no pass since */
	pthread_mutex_t lock;       /* runs[] and entries while index() appends */
	/* the rank layout kept in the state (ms_layout.c) */
	struct ms_deps *deps;       /* what the walk listed and read, NULL none */
	bool lazy;                  /* ranks and runs from the state: graphs, orders,
				     * frames not loaded yet (ms_layout_materialize) */
	bool deps_frozen;           /* the walk notes no dependency (materializing) */
	uint8_t *state_copy;        /* the loaded state's bytes: packed entries point in
				     * (freed once every run is unpacked) */
	const char **state_names;   /* its op names and types (interned), by id */
	size_t nstate_names;
	pthread_mutex_t layout_lock;   /* ms_layout_materialize once, save_state */
};

/* ---- ms_reader.c: what the index driver shares with the state ----------- */

/* The order runs are sent in (qsort comparator over struct ms_run). */
int ms_run_cmp(const void *a, const void *b);
/* Remembers that (graph, op) went out with on_op; true if it was new. */
bool ms_note_op_sent(struct reader *r, const char *graph_id, const char *op);
/* Frames of every node are registered before anything is sent, so that
 * sources and frames go out before the ops that use them; in follow mode,
 * those of ranks that appeared since.  Under the lock: decode() reads the
 * sources. */
void ms_register_frames(struct reader *r);

/* ---- ms_state.c: reader.h save_state / load_state ----------------------- */

void ms_save_state(struct reader *r, struct strbuf *out);
bool ms_load_state(struct reader *r, const void *data, size_t len);
/* Makes run->entries of a packed run (a resumed one, its entries left in
 * the state's bytes at the load); true when it has them.  false when the
 * packed bytes do not decode (the run then stays packed, its rows fail
 * to decode).  Call under r->lock. */
bool ms_run_unpack(struct reader *r, struct ms_run *run);

/* ---- ms_layout.c: the rank layout kept in the state ----------------------- */

/* The walk's dependencies: a folder it listed (its entries add runs,
 * ranks, graphs) or a file it read (a graph, an execution order, the
 * metadata), by path, with its stat data when noted, before the listing or
 * the read.  MS_DEP_CONTENT: the layout's ops and order come from it (a
 * change makes the state useless); else a folder whose change the walk
 * takes up (new runs: the state resumes after a walk). */
enum { MS_DEP_PRESENT = 1, MS_DEP_CONTENT = 2 };
struct ser_in;
struct strbuf;
/* Notes path (its stat data now) as a dependency of the walk; nothing
 * when r->deps_frozen. */
void ms_dep_note(struct reader *r, const char *path, unsigned flags);
void ms_deps_free(struct reader *r);
/* The layout block of the state: the dependencies, the ranks (folders,
 * ids, graph ids) and the runs in order (folder, rank, graph, iteration,
 * order key, constants folder); an empty block where the layout is not
 * kept (the ACL layout, a dump opened inside a rank). */
void ms_layout_save(struct reader *r, struct strbuf *out);
enum ms_layout_fit {
	MS_LAYOUT_REFUSE,           /* a graph, order or metadata file changed */
	MS_LAYOUT_WALK,             /* no layout, or a listed folder changed: walk */
	MS_LAYOUT_LAZY,             /* unchanged: r's ranks and runs made from it */
};
/* Reads the layout block and checks its dependencies (a stat each);
 * MS_LAYOUT_LAZY fills r->ranks (without graphs) and r->runs (without
 * entries), sets r->lazy, r->net_name, r->rank_parent.  A bad block:
 * in->bad. */
enum ms_layout_fit ms_layout_load(struct reader *r, struct ser_in *in, uint64_t nruns);
/* A lazy layout made whole (graphs, orders, frames and sources, the ops
 * noted as sent), once; nothing when r is not lazy.  Any thread (decode
 * of a source, index); takes r->layout_lock. */
void ms_layout_materialize(struct reader *r);
/* ms_state.c: the ops of the graphs and of the loaded runs noted as sent,
 * the ranks' graphs as sent. */
void ms_state_note_sent(struct reader *r);
/* ms_sync.c: a lazy rank's graphs, orders (the walk's reads, without its
 * listing of runs); a run's label "graph G iter I". */
void ms_sync_load_rank(struct reader *r, struct ms_rank *rk);
char *ms_run_label(const char *gid, const char *iter);

/* ---- ms_sync.c: the rank layout ------------------------------------- */

/* Names in dir (without "." and ".."), sorted; *n gets the count.  Returns
 * NULL with *n = 0 when dir cannot be read.  Free with ms_names_free. */
char **ms_list_dir(const char *dir, size_t *n);
/* The entry types ms_list_dir_typed() gives, from the directory entry
 * itself (no stat): MS_DT_OTHER when the file system does not say. */
enum { MS_DT_OTHER, MS_DT_DIR, MS_DT_REG };
/* As ms_list_dir(), and when types is not NULL, *types gets n entry types
 * (MS_DT_*) in the order of the names (free it with free()). */
char **ms_list_dir_typed(const char *dir, size_t *n, unsigned char **types);
void ms_names_free(char **names, size_t n);
bool ms_is_dir(const char *path);
/* "dir/name", malloc'd: the paths built per run and per file, without
 * printf. */
char *ms_path_join(const char *dir, const char *name);

/* True when ls, the listing of dir, holds rank_N directories (dir is not
 * listed again; reader_listing_check() lists it when no listing is at
 * hand). */
bool ms_sync_has_ranks_listed(const char *dir, const struct reader_listing *ls);
/* Finds ranks, loads their graphs and lists iteration directories into
 * r->runs (no entries yet).  Problems go to the sink. */
void ms_sync_scan(struct reader *r, const struct reader_sink *sink);
/* Follow mode: lists iteration directories that appeared since the last
 * scan into r->runs, and rank directories that appeared in the root (with
 * their graphs); known ranks' graphs are not reloaded. */
void ms_sync_rescan(struct reader *r, const struct reader_sink *sink);
/* Appends a run for dir unless it is known; takes r->lock around the
 * array growth (decode() may read r->runs).  Returns NULL if known. */
struct ms_run *ms_run_new(struct reader *r, const char *dir);
/* Fills run->entries from its directory (names, statistic.csv, mapping,
 * ordering, index-time summaries) and collects Opdebug files in *overflow
 * (paths, caller frees).  ahead: the folder as the staging thread read it
 * (ms_stage.h; its listing is taken, its stat cleared), NULL to read it
 * now. */
struct ms_staged;
void ms_run_load(struct reader *r, struct ms_run *run, const struct reader_sink *sink,
		 struct ms_staged *ahead, char ***overflow, size_t *noverflow);
/* Frees run's read names (ms_run.read). */
void ms_run_read_free(struct ms_run *run);
/* Op full name and type for a file-name op field in rank's graphs. */
void ms_rank_resolve(struct reader *r, const struct ms_rank *rank, const char *op_type,
		     const char *file_op, const char **full, const char **type);
/* The execution orders of graph gid in rk, or NULL. */
const struct ms_order *ms_rank_order(const struct ms_rank *rk, const char *gid);

/* The byte offset of e's statistic.csv line, MS_NO_LINE none. */
static inline uint64_t
ms_entry_line(const struct ms_entry *e)
{
	return (uint64_t)e->line_hi << 32 | e->line_lo;
}
static inline void
ms_entry_set_line(struct ms_entry *e, uint64_t off)
{
	e->line_lo = (uint32_t)off;
	e->line_hi = (uint16_t)(off >> 32);
}
/* The task and stream ids of run's entry k (MS_WIDE_ID looked up in
 * run->wide).  Call under r->lock when index() may be appending. */
uint64_t ms_entry_task(const struct ms_run *run, size_t k);
uint64_t ms_entry_stream(const struct ms_run *run, size_t k);

/* The data file of run's entry e as a new string (folder and name), or
 * NULL when the row has none (MS_ENTRY_STAT).  Call under r->lock when
 * index() may be appending (the run's arrays are read). */
char *ms_entry_path(const struct ms_run *run, const struct ms_entry *e);

/* ---- ms_follow.c: what changes after it was seen ------------------------ */

#define MS_SIZE_UNKNOWN UINT64_MAX

/* An iteration whose files stopped changing this long ago is complete. */
#define MS_SETTLE_SEC 2
/* Tensor files looked at per follow pass (round robin over the dump). */
#define MS_CHECK_BUDGET 4096

/* Wall-clock time in ns (file times are wall-clock). */
int64_t ms_now_ns(void);
/* True when run (not sent yet) may be read: its directory is gone or has
 * not changed for MS_SETTLE_SEC (first look: by its files' times; later:
 * by its listing, sizes and times staying the same), or a later iteration
 * of the same rank and graph exists (the writer moved on).  Remembers
 * what it saw in run. */
bool ms_run_settled(const struct reader *r, struct ms_run *run, int64_t now);
/* Records what follow mode compares later: the directory's time and
 * entry count (call before listing it for the load). */
void ms_run_note_dir(struct ms_run *run);
/* Follow passes: for the runs already sent, reports (once each) an
 * iteration directory deleted (PROBLEM_MISSING_FILE) or holding other files
 * than when read (PROBLEM_INCONSISTENT), and for up to MS_CHECK_BUDGET
 * tensor files a file deleted, truncated or rewritten since.  The model's
 * rows cannot be taken back: they stay, and the problems say what changed. */
void ms_follow_check(struct reader *r, const struct reader_sink *sink);

/* ---- ms_async.c: bin files, overflow, ACL layout ---------------------- */

struct ms_bin_tensor {
	bool is_input;
	uint32_t slot;
	enum td_dtype dtype;        /* DTYPE_INVALID when unsupported */
	int rank;
	int64_t dims[TD_MAX_DIMS];
	int64_t n;
	uint64_t offset, size;      /* data bytes in the file */
	int format;                 /* OutputFormat number */
};

struct ms_bin {
	char *op_name;              /* DumpData.op_name (scoped), may be "" */
	struct ms_bin_tensor *t;    /* inputs first, then outputs */
	size_t n;
	uint64_t data_start, file_size;
};

/* Reads the header of a DumpData bin file (§11): 8-byte length, proto,
 * then the data segment.  TD_ERR_TRUNCATED / TD_ERR_CORRUPT (size sum does
 * not match the file) / TD_ERR_DECODE with a message. */
enum td_status ms_bin_read(const char *path, struct ms_bin *b, char *err, size_t errlen);
void ms_bin_done(struct ms_bin *b);
/* Reads one tensor's data into a new td_tensor. */
enum td_status ms_bin_tensor_value(const char *path, const struct ms_bin_tensor *t,
				   struct td_tensor **out, char *err, size_t errlen);
/* Reads the summary of a DumpData bin file's tensor bt at path as the index
 * pass does (ms_run.c): the data's summary, and the header's dtype, element count and
 * shape when the data cannot be summarised (the status says why: TD_OK,
 * TD_ERR_UNSUPPORTED for a dtype without one, an I/O status). */
enum td_status ms_bin_summary(const char *path, const struct ms_bin_tensor *bt,
			      struct td_summary *s);
/* OutputDataType (§11) to the neutral dtype. */
enum td_dtype ms_bin_dtype(int data_type);

struct ms_overflow {
	char section[24];           /* "AI Core", "DHA Atomic Add", "L2 Atomic Add" */
	uint64_t stream_id, task_id, status;
};
/* Parses an Opdebug file (bin §12 record or the json flavour); fills up to
 * 3 sections.  Returns the count, 0 when unreadable (err says why). */
size_t ms_overflow_read(const char *path, bool json, struct ms_overflow *out, char *err,
			size_t errlen);
/* True when ls, the listing of dir, holds 14-digit time directories
 * (ACL layout) directly or under numeric step directories (dir is not
 * listed again; its subdirectories are). */
bool ms_acl_detect_listed(const char *dir, const struct reader_listing *ls);

/* ---- ms_detect.c: detection and open ---------------------------------- */

/* The reader_ops probe on ls, the listing of dir: 60 a dump of rank_N
 * folders, 50 the ACL layout, 40 one rank, 30 a folder inside a rank
 * (three levels up at most), 0 none of these. */
int ms_probe_list(const char *dir, const struct reader_listing *ls);
/* ms_probe_list() on a listing of its own. */
int ms_probe(const char *dir);
/* The reader_ops open: reads opt->root_listing when set, else lists dir
 * once.  TD_ERR_NOENT / TD_ERR_FORMAT with err when dir is no directory
 * or no MindSpore dump; the reader is freed with the ops' close. */
enum td_status ms_open(const char *dir, const struct reader_options *opt, struct reader **out,
		       char *err, size_t errlen);
/* Walks the ACL layout into r->runs (one run per iteration directory);
 * again in follow mode, adding only directories not seen before. */
void ms_acl_scan(struct reader *r, const struct reader_sink *sink);

/* ---- ms_decode.c ----------------------------------------------------- */

/* reader_ops.decode and .advance of the MindSpore reader (see reader.h). */
enum td_status ms_decode(struct reader *r, enum reader_kind kind, const struct td_locator *loc,
			 struct reader_detail *out);
enum td_status ms_advance(struct reader *r, enum reader_kind kind, struct td_locator *loc,
			  uint64_t n);
/* Lists dir like ms_list_dir(); a directory that exists but cannot be
 * listed (permissions, I/O) is reported once per dump as PROBLEM_UNREADABLE
 * naming what it is ("iteration directory"), so a dump never looks smaller
 * in silence.  A missing one is not reported (callers know which are
 * optional). */
char **ms_list_dir_report(struct reader *r, const char *dir, size_t *n,
			  const struct reader_sink *sink, const char *what);
/* ms_list_dir_report() with the entry types of ms_list_dir_typed(). */
char **ms_list_dir_report_typed(struct reader *r, const char *dir, size_t *n, unsigned char **types,
				const struct reader_sink *sink, const char *what);

/* ---- ms_side.c: side files within the limits ------------------------- */

/* Reads a side file whole (graph .pb/.ir, JSON, Opdebug JSON, a source
 * file) into a malloc'd NUL-terminated buffer, like td_read_file with
 * TD_SIDE_FILE_MAX.  A larger file is not read: TD_ERR_TOO_LARGE, and a
 * PROBLEM_UNREADABLE naming path, what and the limit goes to sink (may be
 * NULL); other failures but a missing file (TD_ERR_NOENT: callers know
 * which files are optional) are a PROBLEM_UNREADABLE with the cause. */
enum td_status ms_read_side(const struct reader_sink *sink, const char *path, const char *what,
			    uint8_t **buf, size_t *len);
/* Streams the text file at path line by line (td_lines, TD_LINE_MAX) into
 * fn; overlong lines are skipped and reported once (ms_report_long_lines),
 * a read error too.  false when the file cannot be opened: a missing file
 * is not reported (callers know which files are optional), one that is not
 * a regular file or cannot be read is a PROBLEM_UNREADABLE. */
bool ms_read_lines(const struct reader_sink *sink, const char *path, const char *what,
		   void (*fn)(void *ctx, const char *line, size_t len), void *ctx);
/* One PROBLEM_DECODE_ERROR "N lines longer than ... skipped" for path, or
 * nothing when long_lines is 0. */
void ms_report_long_lines(const struct reader_sink *sink, const char *path, const char *what,
			  uint64_t long_lines);

/* Reports one problem to the sink (file -1, record -1). */
void ms_problem(const struct reader_sink *sink, enum reader_problem_kind kind, const char *path,
		const char *what, const char *detail);
/* Records frames for a node's trace lines: sources, frame ids; returns
 * frame id strings (interned) in *ids (malloc'd array, caller frees). */
size_t ms_node_frames(struct reader *r, const char *host, const struct ms_node *n,
		      const char ***ids);

#endif
