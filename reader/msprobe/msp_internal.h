/*
 * msp_internal.h - private to the msprobe reader (reader/msprobe/): the
 * reader state, one "unit" per dump.json (a rank of a step), the entry
 * walker shared by index and decode, the side files and a small string map.
 * Nothing outside this folder and its unit tests includes it.
 */
#ifndef TD_MSP_INTERNAL_H
#define TD_MSP_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/hashtab.h"
#include "reader/base/strpool.h"
#include "reader/reader.h"
#include "reader/parse/jscan.h"
#include "reader/parse/source.h"

/* Leaves of one entry beyond this are not rows (a problem says so). */
#define MSP_MAX_LEAVES 65536

/* ---- a string -> value map (the foundation's hashtab, owns its keys) ---- */

struct msp_map_entry {
	const char *key;            /* in the map's keys */
	uint64_t val;
};

struct msp_map {
	struct hashtab ids;         /* entry numbers by hashtab_str_hash of the key */
	struct msp_map_entry *ents; /* in insertion order */
	size_t cap, n;
	struct td_strpool keys;     /* the keys' bytes: no allocation per key (a
				     * follow-ready open keeps every entry's name) */
};
/* Inserts or overwrites; returns the slot's value pointer. */
uint64_t *msp_map_put(struct msp_map *m, const char *key, uint64_t val);
/* The value of key, or NULL. */
uint64_t *msp_map_get(const struct msp_map *m, const char *key);
void msp_map_done(struct msp_map *m);
/* A 32-bit hash of a name (FNV-1a). */
uint32_t msp_name_hash(const char *s);

/* ---- one tensor record or non-tensor argument (FORMAT.md §4) ----------- */

enum msp_role { MSP_ACTIVATION, MSP_WEIGHT, MSP_GRADIENT };
const char *msp_role_name(enum msp_role r);

struct msp_record {
	char type[64];              /* "torch.Tensor", "int", "" */
	char dtype[32];             /* as written: "torch.float32", "Float32" */
	bool has_shape;
	int rank;
	int64_t dims[TD_MAX_DIMS];  /* the last TD_MAX_DIMS when longer */
	bool has_max, has_min, has_mean, has_norm;
	double max, min, mean, norm;
	/* Statistics whose value is not made yet (a walk with pending_ok): bit
	 * MSP_STAT_* set, its number in pend[]; msp_record_resolve makes them. */
	uint8_t pending;
	struct decnum_dec pend[4];
	bool bool_stats;            /* Max/Min were JSON booleans */
	int requires_grad;          /* -1 absent, 0, 1 */
	char data_name[256];
	char md5[40];
	char value[160];            /* a non-tensor argument's value, as text */
	/* The same value as the compare tool reads it (msp_arg.c): its JSON
	 * kind, the number, the text of a string or a list as Python's str()
	 * writes it, the list's length; group_ranks as Python writes them. */
	enum msp_vkind { MSP_V_ABSENT, MSP_V_NUM, MSP_V_BOOL, MSP_V_STR, MSP_V_NULL,
			 MSP_V_LIST } vkind;
	double vnum;
	char pyval[160];
	int vcount;
	char pyranks[96];
};

enum { MSP_STAT_MAX, MSP_STAT_MIN, MSP_STAT_MEAN, MSP_STAT_NORM };
/* Makes r's pending statistics (their max, min, mean, norm as the scanner
 * would have made them) and clears r->pending. */
void msp_record_resolve(struct msp_record *r);
/* True when r is a tensor record (type ends in "Tensor", or numpy.ndarray). */
bool msp_record_is_tensor(const struct msp_record *r);
/* The record's dtype, statistics and shape as a summary (FORMAT.md §4). */
void msp_record_summary(const struct msp_record *r, struct td_summary *s);

/* What the walker reports. */
struct msp_walk {
	void *ctx;
	/* A tensor leaf: its path ("input.2.1"), side and role.  Called in file
	 * order; k counts the entry's leaves from 0. */
	void (*on_leaf)(void *ctx, uint32_t k, const char *path, bool is_input,
			enum msp_role role, const struct msp_record *rec);
	/* A non-tensor argument or a scalar field of the entry ("is_recompute"). */
	void (*on_arg)(void *ctx, const char *path, const char *text);
	/* A non-tensor argument among an entry's inputs or outputs, where the
	 * compare tool makes a row of it (FORMAT.md §12): a record (rec) or a
	 * bare null (rec NULL).  Called in file order, between the on_leaf
	 * calls around it.  Optional. */
	void (*on_nonleaf)(void *ctx, const char *path, bool is_input,
			   const struct msp_record *rec);
	/* on_leaf takes a record whose statistics may be pending (rec->pending:
	 * msp_record_resolve), when the scanner was given flat_defer: the
	 * index pass makes them on its sink side.  Else every record comes
	 * resolved. */
	bool pending_ok;
};

/* Walks the value of one entry (the scanner just returned its key; name is
 * the key).  Returns false on a JSON error (js->err). */
bool msp_walk_entry(struct jscan *js, const char *name, const struct msp_walk *w);

/* A non-tensor argument (rec, NULL for a bare null) at path of an entry as
 * the compare tool writes its row (msp_arg.c, FORMAT.md §12): fills out's
 * path, dtype, shape, value, number and md5; place and is_input are the
 * caller's.  out's strings are malloc'd. */
void msp_arg_make(const char *path, const struct msp_record *rec, struct td_arg *out);

/* Parts of an entry name (FORMAT.md §3).  type gets the name without the
 * count and direction; returns the direction. */
enum msp_dir { MSP_FORWARD, MSP_BACKWARD, MSP_PARAM_GRAD, MSP_OTHER };
enum msp_dir msp_name_parse(const char *name, char *type, size_t typelen, int64_t *count);
/* msp_name_parse's direction alone (no copy, no count). */
enum msp_dir msp_name_dir(const char *name);
const char *msp_dir_name(enum msp_dir d);
/* reader_ops.call_of (msp_call.c): an API's backward count is matched by
 * its rank among the API's backward calls, other counts exactly. */
enum reader_call msp_call_of(const char *name, char *key, size_t keylen, int64_t *count);
/* reader_ops.map_add, map_name, map_free, map_leaf (msp_map.c): msprobe
 * compare's API, cell and data maps (FORMAT.md §11). */
enum td_status msp_map_add(struct reader_map **map, enum reader_map_kind kind, const char *path,
			   char *err, size_t errlen);
const char *msp_map_name(const struct reader_map *m, const char *name, char *buf, size_t len);
void msp_map_free(struct reader_map *m);
bool msp_map_leaf(const struct reader_map *m, const char *op, const char *leaf, char *buf,
		  size_t len);
/* An API mapping file (`-am FILE`, msp_map_api.c, FORMAT.md §11.1): read
 * into *out (NULL on error, err: the file, line and cause: TD_ERR_ARGS for
 * a layout it cannot take).  _name writes op with its API renamed into
 * buf and returns buf (op itself when it does not fit), NULL when the file
 * has no item for op's API.  _leaf answers as reader_ops.map_leaf for the
 * file's APIs (false for another API): an empty buf for a leaf whose
 * index the item does not list.  _free(NULL) is fine. */
struct msp_api_file;
enum td_status msp_api_file_read(struct msp_api_file **out, const char *path, char *err,
				 size_t errlen);
const char *msp_api_file_name(const struct msp_api_file *f, const char *op, char *buf,
			      size_t len);
bool msp_api_file_leaf(const struct msp_api_file *f, const char *op, const char *leaf, char *buf,
		       size_t len);
void msp_api_file_free(struct msp_api_file *f);
/* A layer mapping file (`-lm FILE`, msp_layer_file.c, FORMAT.md §11.3):
 * read into *out (NULL on error, err: the file, line and cause;
 * TD_ERR_ARGS for a layout it cannot take).  _rename: the golden's name
 * of the child parts[0, nparts) of a layer of class type ("TopLayer" the
 * top), the longest rule first; *used gets how many parts it renames
 * (1 and parts[0] itself without a rule).  _free(NULL) is fine. */
struct msp_layer_file;
enum td_status msp_layer_file_read(struct msp_layer_file **out, const char *path, char *err,
				   size_t errlen);
const char *msp_layer_file_rename(const struct msp_layer_file *f, const char *type,
				  const char *const *parts, size_t nparts, size_t *used);
void msp_layer_file_free(struct msp_layer_file *f);
/* The layer map (msp_map_layer.c): the file at path applied to the
 * scopes of the target run b and the golden run a (both indexed) into
 * *out, entry by entry; errors as msp_layer_file_read's.  _leaf answers as
 * reader_ops.map_leaf (an empty buf: the golden has no entry there);
 * _free(NULL) is fine. */
struct msp_layer_map;
enum td_status msp_layer_map_make(struct msp_layer_map **out, struct reader *b, struct reader *a,
				  const char *path, char *err, size_t errlen);
bool msp_layer_map_leaf(const struct msp_layer_map *m, const char *op, const char *leaf,
			char *buf, size_t len);
void msp_layer_map_free(struct msp_layer_map *m);
/* reader_ops.map_layers (msp_map.c): the layer map into *map's leaf
 * rules. */
enum td_status msp_map_layers(struct reader_map **map, struct reader *b, struct reader *a,
			      const char *path, char *err, size_t errlen);

/* ---- communication entries (msp_comm.c) ---------------------------------- */

#define MSP_MAX_GROUP 64

struct msp_comm {
	uint32_t unit;              /* file id of its unit */
	char *key;                  /* the entry name: API, count, direction */
	const char *api;            /* into key: "all_reduce.0.forward" */
	int64_t rank, step;
	int64_t src, dst, peer;     /* arguments, -1 absent (peer: an int input.1) */
	int64_t group[MSP_MAX_GROUP];
	size_t ngroup;              /* 0: no group named (the world) */
	uint64_t first_row;         /* row number (as sent) of its first trace */
	uint32_t nin, nout;
};

/* ---- units and the reader ------------------------------------------------ */

struct msp_unit {
	char *dir;                  /* the rank folder */
	char *json;                 /* its dump.json or debug.json */
	char *host;                 /* "rank0", "graph/rank1", "proc1234" */
	int64_t step;               /* N of step{N}, -1 none */
	int64_t rank;               /* R of rank{R}, -1 none */
	uint32_t file_id;
	struct source *src;
	/* Entries sent, in file order: byte offset of the key, first trace. */
	uint64_t *entry_off;
	uint64_t *first_trace;      /* nentries + 1 values once indexed */
	uint32_t *entry_hash;       /* msp_name_hash of each entry's name: decode
				     * knows the bytes at an offset are still it */
	size_t nentries, cap;
	uint64_t ntraces;
	int64_t first_exec;         /* execution row of entry 0 */
	/* Side files (FORMAT.md §5, §6). */
	struct msp_map parents;     /* entry -> index into parent_names */
	char **parent_names;        /* each parent's children follow in kids[] */
	char ***kids;
	size_t *nkids, *kidcap;
	size_t nparent_names, parent_cap;
	struct msp_map stacks;      /* entry -> stack group */
	char ***groups;             /* group -> frame ids, outermost first */
	size_t *ngroup, ngroups, group_cap;
	/* Follow mode: the file as last read. */
	uint64_t size;
	int64_t mtime_ns;
	uint64_t partial_size;      /* a flush seen incomplete (not read), */
	int64_t partial_mtime_ns;   /* not checked again until it changes */
	struct msp_map sent;        /* entry name -> ordinal (follow mode only) */
	struct msp_map bad_out;     /* signature of a NaN/Inf output -> its row */
	bool indexed, torn;
	char task[24], level[16], framework[16];
};

/* A source file the stacks name, with the lines they recorded (FORMAT.md
 * §5): the Source pane shows them when the file is not on disk. */
#define MSP_MAX_LINE 1000000
struct msp_source {
	char *path;
	uint32_t maxline;
	uint32_t *line;             /* nrec recorded lines and their text */
	char **code;
	size_t nrec, caprec;
};

struct reader {
	char *root;
	char *source_root;
	bool follow, may_follow;
	struct msp_unit *units;
	size_t nunits;
	int64_t nexec;              /* executions sent */
	uint64_t nrows;             /* traces sent (row numbers for links) */
	struct msp_comm *comms;     /* communication entries, in the order sent */
	size_t ncomms, capcomms, ncomms_linked;
	bool meta_sent;
	struct msp_map frames_sent; /* frame ids sent (on_frame once each) */
	struct msp_map graphs_sent; /* hosts announced as graphs */
	struct msp_source *sources; /* under lock: decode reads them */
	size_t nsources, capsources;
	struct msp_map source_ids;  /* path -> index */
	pthread_mutex_t lock;       /* units' entry tables (decode vs index) */
	struct msp_entry_cache *ecache;   /* msp_decode.c: the entry decoded last */
};

/* msp_decode.c: reader.h op_prefix: an entry's prefix is its name up to
 * the first dot ("Functional" of "Functional.linear.0.forward"). */
size_t msp_op_prefix(const char *name);
/* msp_decode.c: the entry cache's life (open, close); tests: the scans of
 * an entry decode made, and the decodes the cache answered. */
struct msp_entry_cache *msp_entry_cache_new(void);
void msp_entry_cache_free(struct msp_entry_cache *c);
void msp_entry_cache_counts(struct reader *r, uint64_t *scans, uint64_t *hits);

/* msp_side.c: stack.json and construct.json of u, frames sent through sink. */
void msp_side_load(struct reader *r, struct msp_unit *u, const struct reader_sink *sink);
void msp_side_done(struct msp_unit *u);
/* The module parent of an entry, or NULL. */
const char *msp_side_parent(const struct msp_unit *u, const char *entry);
/* The children of a module entry (construct.json), or 0. */
size_t msp_side_children(const struct msp_unit *u, const char *module, char *const **kids);
/* The frame ids of an entry's stack (outermost first), or 0. */
size_t msp_side_frames(const struct msp_unit *u, const char *entry, char *const **ids);

/* msp_index.c: a shared flock on path, tried without blocking a few times
 * over about a second.  Returns the descriptor to pass to msp_unlock (-1:
 * no lock; *busy tells whether the writer held it). */
int msp_lock(const char *path, bool *busy);
void msp_unlock(int fd);

/* msp_index.c: one pass over a unit's dump.json.  A dump.json of at least
 * msp_ahead_min bytes (1 MiB; tests lower it) is parsed on a second
 * thread, a ring of entries ahead of the index thread, which sends them
 * in file order (two cores or more; a follow pass's check runs on one). */
extern size_t msp_ahead_min;
void msp_index_unit(struct reader *r, struct msp_unit *u, const struct reader_sink *sink);

/* msp_state.c: reader.h save_state / load_state. */
void msp_save_state(struct reader *r, struct strbuf *out);
bool msp_load_state(struct reader *r, const void *data, size_t len);

/* msp_comm.c: notes a communication entry sent (its args as path/text
 * pairs); links the entries noted since the last call to their peers;
 * frees the list.  msp_bad_input_link: a NaN/Inf output is remembered by
 * its summary; a NaN/Inf record of a value made earlier (an input, a
 * parameter gradient: is_record) with the same summary is linked to it. */
struct msp_arg {
	char *name, *value;         /* "input.group", "torch.ProcessGroup [0, 1]" */
};
void msp_comm_note(struct reader *r, const struct msp_unit *u, const char *name, const char *type,
		   uint64_t first_row, uint32_t nin, uint32_t nout, const struct msp_arg *args,
		   size_t nargs);
void msp_comm_link(struct reader *r, const struct reader_sink *sink);
void msp_comm_done(struct reader *r);
void msp_bad_input_link(struct msp_unit *u, const struct reader_sink *sink, const struct td_summary *s,
			bool is_record, uint64_t row);

/* msp_decode.c */
/* A leaf's role and requires_grad as decode() states them (reader.h), for
 * the index pass to state the same (reader_trace.role, requires_grad). */
enum reader_role msp_reader_role(enum msp_role r);
enum reader_grad msp_reader_grad(const struct msp_record *rec);
enum td_status msp_decode(struct reader *r, enum reader_kind kind, const struct td_locator *loc,
			  struct reader_detail *out);
enum td_status msp_advance(struct reader *r, enum reader_kind kind, struct td_locator *loc,
			   uint64_t n);
/* When rec has no statistics (xor or structure summaries) but a saved
 * .npy file, s gets the statistics computed from the file (streamed);
 * else s is left alone. */
void msp_leaf_file_summary(const struct msp_unit *u, const struct msp_record *rec,
			   struct td_summary *s);
/* Reads a saved tensor file, dispatching on its extension (.npy; .pt):
 * the one place tensor files are read (FORMAT.md §7). */
enum td_status msp_tensor_read(const char *path, struct td_tensor **out, char *err, size_t errlen);
/* The same dispatch for a summary computed from the file (streamed). */
enum td_status msp_tensor_summarize(const char *path, struct td_summary *out, char *err,
				    size_t errlen);

#endif
