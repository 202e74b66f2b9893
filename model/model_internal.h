/*
 * model_internal.h - the model's private tables, shared by the model/ sources only.
 *
 * Threads: one writer (the index thread, through the sink in model_sink.c)
 * and one or more consumers (the query functions).  The rules:
 *   - row storage (trace and execution chunks, checkpoints, the string
 *     pointer table) is append-only and chunked: a chunk never moves, so a
 *     consumer may read any row below the published count (acquire) without
 *     a lock;
 *   - everything else (ops, graphs, frames, sources, meta, problems, the
 *     string hash, alert groups) is mutated under m->th.lock; consumers read it
 *     under m->th.lock; the writer may read what only it mutates without the
 *     lock (the op vector and op hash);
 *   - flag bytes that change after publication (ROW_CORRUPT found while
 *     decoding, CONTAINS_NONFINITE) are updated with atomic builtins.
 * struct model (at the end of the tables) holds these as parts (th, str,
 * rows, wr, an, dc, ot, src, md, pr), each stating its own locking rule.
 * This header is not a contract for other layers: only model.h is.
 */
#ifndef TD_MODEL_INTERNAL_H
#define TD_MODEL_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

#include "model.h"
#include "model_expr.h"
#include "model/analysis/model_where.h"
#include "reader/base/hashtab.h"
#include "reader/reader.h"

struct colstore;                /* model_columns.h */

/* ---- sizes ---------------------------------------------------------- */

#define MODEL_CHUNK_SHIFT 16
#define MODEL_CHUNK (1u << MODEL_CHUNK_SHIFT)       /* rows per chunk */
#define MODEL_MAX_CHUNKS 65536u                       /* 2^32 rows */
#define CKPT_EVERY 16                                 /* rows between locators */
#define CKPT_CHUNK_SHIFT 12
#define CKPT_CHUNK (1u << CKPT_CHUNK_SHIFT)
#define CKPT_MAX_CHUNKS (1u << 18)
#define STR_CHUNK_SHIFT 12
#define STR_CHUNK (1u << STR_CHUNK_SHIFT)
#define STR_MAX_CHUNKS (1u << 16)
#define MODEL_DEFAULT_CACHE 65536
#define MODEL_MAX_PROBLEMS 200
#define NO_ID UINT32_MAX

/* Four 32-bit (two 64-bit) lanes with GCC's and Clang's vector extension:
 * SSE2 on x86-64, plain code elsewhere; for the loops over every row
 * (the load's checks, the op scans). */
typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/* Trace flag byte: bit 0 nonfinite, bit 1 input, bit 2 corrupt, bits 3..6
 * the output slot, TF_SLOT_ESC meaning "slot too large, decode to know",
 * bit 7 repeat: the row shows a tensor another row of the same step
 * already holds (an input whose producer's output row is there, another
 * debug view of one tensor): never an alert of its own, never a link
 * target. */
#define TF_NONFINITE 0x01u
#define TF_INPUT 0x02u
#define TF_CORRUPT 0x04u
#define TF_SLOT_SHIFT 3
#define TF_SLOT_MASK 0x0fu
#define TF_SLOT_ESC 15u
#define TF_REPEAT 0x80u
/* The slot bits of a flag byte (TF_SLOT_ESC: decode to know). */
#define TF_SLOT(f) (((uint32_t)(f) >> TF_SLOT_SHIFT) & TF_SLOT_MASK)
/* A flag byte's row is an alert: non-finite and not a repeat. */
#define TF_IS_ALERT(f) (((f) & (TF_NONFINITE | TF_REPEAT)) == TF_NONFINITE)

/* ---- strings (model_intern.c) ------------------------------------------ */

struct arena_block;

/* Huge pages asked for the whole 2 MB pages inside [p, p + n), where the
 * system has them (madvise MADV_HUGEPAGE; transparent huge pages in
 * "madvise" mode): one page fault and one allocation per 2 MB instead
 * of 512 for a big table the caller writes whole (the op table, full row
 * chunks, the string arena of a loaded index).  Not for memory written
 * in part: a huge page is zeroed and kept whole. */
static inline void
model_huge_inside(const void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t huge = (uintptr_t)1 << 21;
	uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + n) & ~(huge - 1);

	if (lo < hi)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p, (void)n;
#endif
}

struct intern {
	struct arena_block *blocks;
	struct hashtab ids;         /* string ids by hashtab_str_hash */
	_Atomic uint32_t n;         /* strings interned (published) */
	const char **dir[STR_MAX_CHUNKS]; /* id -> string, chunked */
	size_t bytes;
};

void intern_init(struct intern *in);
void intern_done(struct intern *in);
/* Before anyone sees in: appends s (len bytes) as the next id without
 * looking it up; the lookup is wrong until intern_index(), which rebuilds
 * it for every id, false when two ids hold the same string (the caller
 * then throws in away). */
uint32_t intern_append(struct intern *in, const char *s, size_t len);
/* Before a run of intern_append: one arena block of at least bytes for
 * the strings to come (a persistent index's, 7 MB at 200,000 calls), its
 * whole 2 MB pages huge (model_huge_inside) instead of a 64 KB block and
 * 16 page faults each; strings past it go to blocks of their own as
 * usual. */
void intern_reserve(struct intern *in, size_t bytes);
bool intern_index(struct intern *in);
/* Under m->th.lock.  Returns the id of s (adding it). */
uint32_t intern_add(struct intern *in, const char *s);
/* The same, h being hashtab_str_hash(s) (a caller that hashed s already). */
uint32_t intern_add_hashed(struct intern *in, const char *s, uint32_t h);
/* Under m->th.lock.  NO_ID when absent. */
uint32_t intern_find(const struct intern *in, const char *s);
/* The same, h being hashtab_str_hash(s). */
uint32_t intern_find_hashed(const struct intern *in, const char *s, uint32_t h);
/* Lock-free for any published id. */
const char *intern_str(const struct intern *in, uint32_t id);
/* Copies len bytes + NUL into the arena (under m->th.lock). */
const char *arena_dup(struct intern *in, const char *s, size_t len);

/* ---- rows (model_rows.c) ----------------------------------------------- */

#define NF_BLOCK_SHIFT 10                             /* rows per nonfinite block */

struct trace_chunk {
	uint32_t op[MODEL_CHUNK];
	uint8_t flags[MODEL_CHUNK];
	uint16_t nfblock[MODEL_CHUNK >> NF_BLOCK_SHIFT]; /* nonfinite rows per block */
};

/* An execution: 48 bytes (asserted below; 200,000 recorded calls hold
 * 9.6 MB of them).  ntraces is 32-bit: the model holds at most 2^32 rows
 * (MODEL_MAX_CHUNKS chunks), so only one execution owning every one of
 * them would not fit; a loaded count past 2^32 - 1 is refused. */
struct exec_row {
	double wall_time;
	uint64_t first_trace;       /* atomic builtins: set while indexing traces */
	int64_t step;               /* -1 unknown */
	uint32_t ntraces;           /* atomic builtins, as first_trace */
	uint32_t op_type;           /* string id */
	uint32_t graph_sid;         /* called graph's id string, NO_ID none */
	uint32_t num_outputs;
	uint32_t bad_outputs;
	uint16_t host;              /* index into m->src.hosts */
	uint8_t flags;              /* enum model_row_flags (atomic builtins) */
};
_Static_assert(sizeof(struct exec_row) <= 48, "an execution stays compact (issue 26)");

struct ckpt {
	uint64_t row;
	uint64_t offset;
	uint32_t file;
} __attribute__((packed));

/* A row located recently: the next request at or after it advances from
 * here instead of from its checkpoint (sequential reads step one record). */
struct row_cursor {
	uint64_t row1;              /* row + 1; 0 unused */
	struct td_locator loc;
};
#define LOC_CURSORS 4               /* a table pane, a details pane, batch... */

/* Sparse locators of one table. */
struct locidx {
	struct ckpt *dir[CKPT_MAX_CHUNKS];
	pthread_mutex_t cur_lock;   /* cursors only; never held across advance() */
	struct row_cursor cur[LOC_CURSORS];
	unsigned cur_next;          /* round-robin victim */
	_Atomic uint64_t n;
	uint64_t last_row;          /* row of the last checkpoint */
	uint32_t last_file;
	bool have;
	bool force;                 /* a problem was reported: next row gets one */
	int every;                  /* CKPT_EVERY, or 1 when the reader cannot advance */
};

struct cache_ent {
	uint64_t key;               /* row + 1; 0 empty (calloc'd pages stay untouched) */
	double wall_time;
	uint32_t device;            /* string id, NO_ID none */
	uint32_t debug_op;          /* string id, NO_ID none */
	uint32_t slot;
	bool corrupt;
	struct td_summary summary;
	uint32_t from_values;       /* summary bits computed from the row's values
				     * (the dump's statistics lack them) */
	uint8_t role, grad;         /* the row's own facts: enum reader_role, reader_grad */
	uint32_t prefix;            /* string id, NO_ID not stated */
};

struct run {                        /* traces from first on belong to execution */
	uint64_t first;
	int64_t execution;
};

struct step_run {                   /* traces from first on have step */
	uint64_t first;
	int64_t step;
};

/* Where trace rows come from for first_nonfinite: one per host (a file set
 * of one host, a rank), or per file when files name no host.  Rows
 * of one segment are in execution order; segments are not ordered. */
struct segment {
	uint64_t key;               /* host string address, or 1 << 63 | file id */
	int64_t cand;               /* first nonfinite row in it, -1 */
	double cand_wall;
};

/* ---- tables ----------------------------------------------------------- */

/* The lists and facts most ops lack, behind one pointer of the op
 * (op_entry.more, NULL when the op has none of them).  From a loaded cache
 * (the op's lists_slab) this block and its lists live in ot.slab; else
 * each is its own allocation.  stack is always its own allocation. */
struct op_more {
	struct model_tensor_ref *ctrl;  /* control inputs (slot 0) */
	struct model_attr *attrs;       /* arena strings */
	struct model_output_type *out_types;  /* dims owned (unless lists_slab) */
	int64_t *out_ids;
	uint32_t *frame_sids;       /* creation stack as frame id strings */
	uint32_t *stack;            /* resolved frame indices (grows, never freed early) */
	uint32_t nctrl, nattrs, nout_types, nout_ids, nframes, nstack;
	uint64_t nf_rows;           /* the op's non-finite rows (trace alerts) */
	uint64_t first_alert;       /* alert number of the first one */
};

/* An op: 72 bytes (asserted below), one per op of the dump (a 200,000-entry
 * statistics dump has 200,000).  Strings are string ids only: the text is
 * intern_str(&m->str, sid) (ops_name() and the others below); the
 * writer's own per-op state (the reader's op key, the op that followed) is
 * in mp_writer.opw, not here.  Counts are 32-bit: an op id is 32-bit and a
 * reader's list is far below 2^32 items; row numbers stay 64-bit (2^32 rows,
 * first_row1 reaches 2^32). */
struct op_entry {
	uint32_t name_sid, graph_sid, type_sid, device_sid, host_sid;   /* 20 bytes */
	uint32_t num_outputs;
	uint32_t ninputs;
	uint32_t next_same_name;    /* chain of ops with the same name, NO_ID end */
	uint32_t last_same_name;    /* the chain's head: its last op (appends in O(1):
				     * a dump with a graph per run repeats each name once per run) */
	bool placeholder;           /* made from a trace; on_op fills it */
	bool lists_slab;            /* inputs and more (with its lists, not stack) live in
				     * ot.slab (a loaded cache), not freed one by one */
	bool inputs_shared;         /* inputs is a list of leaf labels other ops of its
				     * graph share (ot.shared, in ot.slab: model_op_inputs.c) */
	struct model_tensor_ref *inputs;     /* 8 */
	struct op_more *more;       /* 8: NULL when the op has no other list */
	uint64_t first_row1;        /* first trace row + 1 (0 none), atomic builtins */
	uint64_t last_row;          /* last trace row, atomic builtins */
};
_Static_assert(sizeof(struct op_entry) <= 72, "the op entry stays compact (issue 26)");

/* The writer's per-op state (mp_writer.opw, indexed by op id), kept out of
 * the op table: only the index pass reads it. */
struct op_writer {
	uint64_t key;               /* reader_trace.op_key last seen with the op, 0 none */
	uint32_t succ1;             /* op of the trace row that last followed a row of
				     * this op, + 1 (0 none) */
} __attribute__((packed, aligned(4)));  /* 12 bytes, not 16: one per op */

struct graph_entry {
	uint32_t id_sid, name_sid, outer_sid, host_sid;
};

struct frame_entry {
	const char *file, *host, *func, *code;
	uint32_t line;
	int64_t source_id;          /* reader's source id, -1 */
	bool user_code;
};

struct source_entry {
	const char *host, *path;
	uint32_t reader_id;
	struct td_locator loc;
	uint64_t nlines;
	bool in_dump;
	bool loaded;
	bool failed;
	char **lines;               /* owned once loaded */
	size_t nline_ptrs;
	uint8_t *known;             /* partial text: 1 for each line recorded; NULL: whole file */
};

struct file_entry {
	uint32_t id;
	const char *path, *host, *role;
	uint32_t host_sid;          /* host's string id (0 is "") */
	uint64_t size;
	uint64_t problems;
	/* reader_file.listed_only: the folder's fingerprint is its own stat
	 * data and that of the nread files read[] (interned names in it) */
	bool listed_only;
	const char **read;
	size_t nread;
};

struct meta_entry {
	const char *key;
	bool list;
	const char **values;
	size_t n, cap;
	struct model_meta *snap;    /* last model_meta_get() answer */
};

struct problem_entry {
	enum reader_problem_kind kind;
	const char *path, *what, *detail;
	uint64_t offset;
	int64_t record;
};

struct consumer_list {
	struct model_consumer *items;
	size_t n, cap;
};

struct alert_group {
	const char *kind;
	uint32_t type_sid;
	uint64_t count;
	uint64_t first;             /* relative to its source list */
};

/* Where the alerts of a group list come from. */
enum alert_source {
	ALERTS_OF_TRACES,           /* non-finite trace rows */
	ALERTS_OF_EXECUTIONS,       /* bad outputs of executions */
	ALERTS_STATED,              /* alerts the reader stated (on_alert) */
	ALERT_SOURCE_COUNT
};

struct alert_group_list {
	struct alert_group *v;
	size_t n, cap;
};

struct reader_alert_entry {         /* an alert the reader stated (on_alert) */
	enum reader_alert_kind kind;
	const char *op_name, *op_type, *detail;
	int64_t execution;
};

/* ---- the model's parts ------------------------------------------------ */

/* The index thread's state.  Locking: `lock` is the model's one table lock
 * (it guards the parts below that say "under th.lock"); `cond` signals a
 * change of the pass state (stop, requested, running, exited, orphaned)
 * and is waited on under `lock`; the _Atomic fields are read by any
 * thread without the lock; thread and have_thread belong to model_open /
 * model_close. */
struct mp_thread {
	pthread_t thread;
	bool have_thread;
	pthread_mutex_t lock;       /* tables */
	pthread_cond_t cond;        /* pass state */
	bool stop, requested, running;
	_Atomic bool stopping;      /* model_close: the sink drops records */
	bool exited;                /* the thread left its loop */
	bool orphaned;              /* model_close left the model to the thread */
	_Atomic bool done;
	_Atomic uint64_t bytes_done, bytes_total, generation;
	enum td_status last_status;
};

/* The row index: trace and execution rows, their checkpoints and flags,
 * runs, steps and segments.  Locking: the chunks are append-only (the
 * writer appends, any thread reads rows below the published count,
 * acquire, without a lock; flag bytes that change later are updated with
 * atomic builtins); runs, steps and segments are mutated by the writer
 * under th.lock and read by consumers under th.lock. */
struct mp_rows {
	/* traces */
	struct trace_chunk *tchunks[MODEL_MAX_CHUNKS];
	uint32_t *tnonfinite;       /* per chunk (MODEL_MAX_CHUNKS) */
	_Atomic uint64_t ntraces;
	_Atomic uint64_t trace_alerts;
	struct locidx tloc;
	struct run *runs;
	size_t nruns, capruns;
	/* The largest execution a run of this session named, when every run
	 * was added by this session (runs restored from a cache leave it
	 * unknown): an execution beyond it has no rows to claim. */
	bool run_max_known;
	int64_t run_max_exec;
	/* Values that crossed between rows outside the graph (reader links:
	 * collectives, send/recv), in the order sent (under th.lock). */
	struct reader_link *peer_links;
	size_t npeer_links, cappeer_links;
	struct step_run *steps;     /* where the trace step changes (under th.lock) */
	size_t nsteps, capsteps;
	_Atomic bool containers;    /* traces carry their execution */
	_Atomic bool split_runs;    /* some execution's rows are not contiguous */
	_Atomic bool input_rows;    /* some trace row is an input row (TF_INPUT) */
	struct segment *segs;
	size_t nsegs, capsegs;
	struct hashtab_u64 seg_by_key;

	/* executions */
	struct exec_row *echunks[MODEL_MAX_CHUNKS];
	uint64_t *ebad;             /* bad outputs per chunk */
	_Atomic uint64_t nexecs;
	_Atomic uint64_t exec_alerts;
	struct locidx eloc;
	int64_t first_bad_exec;
	double first_bad_exec_wall;
};

/* The writer's private memos.  Locking: none; only the index thread (the
 * sink's writer) reads or writes them, and model_open before it starts. */
struct mp_writer {
	int64_t last_exec_of_trace;
	int64_t last_step_of_trace; /* step of the last trace row */
	uint32_t seg_memo_file;     /* last file and its segment */
	size_t seg_memo;
	bool have_seg_memo;
	struct graph_memo {         /* recent trace graph ids -> string ids */
		const char *s;
		uint32_t sid;
	} gmemo[8];
	unsigned gmemo_next, gmemo_last;
	uint32_t last_trace_op1;    /* op of the last trace row + 1 (0 none) */
	uint32_t last_op1;          /* op of the last on_op + 1 (0 none) */
	struct op_writer *opw;      /* per op id below nopw (zeroed past it) */
	size_t nopw, capopw;
};

/* The analysis state built on first use.  Locking: the slots are set
 * under th.lock (model_state(), model_query.c) and each state guards
 * itself; the watches under th.lock (model_watch_slot(), model_handles.c). */
struct mp_analysis {
	struct model_state_ent {    /* model_state(): slot -> state, its free */
		void *p;
		void (*done)(void *);
	} state[MODEL_STATE_COUNT];
	struct watch_set *watches;  /* model/analysis/model_watch.c (owned; model_watch_slot) */
};

/* The decode cache.  Locking: everything here under its own cache_lock
 * (never taken while waiting for th.lock). */
struct mp_dcache {
	pthread_mutex_t cache_lock;
	struct cache_ent *cache;
	size_t cache_n;
	uint64_t decodes;
};

/* The op and graph table: ops, the op hash, consumers, graphs, devices.
 * Locking: mutated under th.lock; consumers read under th.lock; the writer
 * may read the op vector and op hash, which only it mutates, without. */
struct op_slab;

/* A list of leaf labels ops of one graph share (model_op_inputs.c). */
struct shared_inputs {
	struct model_tensor_ref *refs;  /* in ot.slab */
	uint32_t n, graph_sid;
	bool plain;                 /* every name without ':' and every slot 0: the
				     * list is its labels' text as sent */
};

#define LABEL_RECENT 4              /* shared lists an op's labels are compared with first */

struct mp_optab {
	struct op_entry *opv;
	struct op_slab *slab;       /* the loaded ops' lists (op_entry.lists_slab), freed as a unit */
	size_t nops, capops, nops_filled;
	struct hashtab ophash;      /* op ids by (graph sid, name): built on first use
				     * (ophash_built; a loaded cache's ops come without it) */
	atomic_bool ophash_built;
	uint32_t *name_first;       /* by name sid: its first op, NO_ID none (ops_first_of_name:
				     * 4 bytes a string, where a hash took 16 to 32 a name) */
	size_t nname_first;         /* sids below it have an entry */
	size_t nnames;              /* names with an op */
	struct hashtab_u64 op_by_alias;  /* alias name sid -> first op id sent with it */
	struct hashtab_u64 consumer_idx; /* (graph sid << 32 | name sid) -> consumer list */
	struct hashtab_u64 ctrl_consumer_idx; /* the same for control edges (input_slot: which one) */
	struct consumer_list *cons;
	size_t ncons, capcons;
	struct shared_inputs *shared;    /* label lists by content (op_entry.inputs_shared) */
	size_t nshared, capshared;
	struct hashtab shared_hash;      /* ids into shared */
	uint32_t label_recent[LABEL_RECENT]; /* ids into shared last used (checked: may be stale) */
	uint32_t label_next;        /* the label_recent slot to replace next */
	uint64_t fill_gen;          /* placeholders filled so far */
	struct graph_entry *graphs;
	size_t ngraphs, capgraphs;
	struct hashtab_u64 graph_by_sid;
	struct hashtab_u64 graph_nops;   /* graph sid -> ops */
	struct reader_device *devices;
	size_t ndevices, capdevices;
	atomic_bool ops_pending;    /* a loaded cache's ops not decoded yet: opv is NULL
				     * (nops, nops_filled, fill_gen, graph_nops are set) */
};

/* Sources and frames, hosts and files.  Locking: mutated under th.lock,
 * read under th.lock. */
struct mp_sources {
	uint32_t *hosts;            /* host string ids; index 0 is "" */
	size_t nhosts, caphosts;
	struct file_entry *files;
	size_t nfiles, capfiles;
	struct hashtab_u64 file_by_id;
	struct frame_entry *frames;
	size_t nframes, capframes;
	struct hashtab_u64 frame_by_sid;
	struct source_entry *sources;
	size_t nsources, capsources;
	struct hashtab_u64 source_by_rid;
};

/* The dump's metadata and model_info's snapshot of it.  Locking: mutated
 * under th.lock, read under th.lock. */
struct mp_meta {
	struct meta_entry **meta;
	size_t nmeta, capmeta;
	struct model_meta *info_meta;
	const char **info_hosts;
};

/* Problems and alerts.  Locking: mutated under th.lock, read under
 * th.lock. */
struct mp_problems {
	struct problem_entry *problems;
	size_t nproblems;
	uint64_t problems_by_kind[16];
	uint64_t problem_total;
	struct hashtab_u64 problem_seen; /* (kind, file, offset) already counted */
	struct torn_tail {          /* tails torn now, one per file */
		uint64_t key;       /* file id, or 1 << 63 | path string id */
		uint64_t offset;
	} *torn;
	size_t ntorn, captorn;
	struct alert_group_list groups[ALERT_SOURCE_COUNT];
	struct reader_alert_entry *ralerts;
	size_t nralerts, capralerts;
};

/* The model: what it opened, and its parts (each states its locking rule
 * above).  The fields here are set at open and read-only after, except
 * the graveyard (under th.lock) and icache (model_cache.c's rule). */
struct model {
	char *path;
	struct safeio_id roots[2];  /* the folders read, taken at open (model_roots) */
	size_t nroots;
	char *root_real;            /* the outermost one's real path at open, or NULL */
	const struct reader_ops *ops;
	struct reader *r;
	struct model_options opt;
	char *source_root;

	struct mp_thread th;        /* the index thread's state and the table lock */
	struct intern str;          /* strings (model_intern.c's rule) */
	struct mp_rows rows;        /* the row index */
	struct mp_writer wr;        /* the writer's private memos */
	struct mp_analysis an;      /* step index, watches */
	struct mp_dcache dc;        /* the decode cache */
	struct mp_optab ot;         /* ops, graphs, devices */
	struct mp_sources src;      /* sources, frames, hosts, files */
	struct mp_meta md;          /* metadata */
	struct mp_problems pr;      /* problems and alerts */

	void **graveyard;           /* old arrays handed out, freed at close */
	size_t ngrave, capgrave;

	struct model_cache *icache; /* the persistent index (model_cache.c), NULL off */
	struct colstore *cols;      /* its summary columns (model_fields.c), NULL none */
	/* Without columns, per MODEL_CHUNK trace rows a bitmap (NULL: no
	 * bit set yet): the reader's summary was exact and the record holds
	 * no values (reader_trace.summary_exact; model_fields.c). */
	uint8_t *novals[MODEL_MAX_CHUNKS];
	char cols_why[320];         /* why an old column file was not used, "" */
};

/* model_fields.c: the summary columns beside the persistent index */
/* After the cache is loaded (or not): opens or makes the column file. */
void fields_open(struct model *m);
/* Index thread: trace row's summary from the pass (on_trace), before the
 * row is published; without columns only whether it holds no values. */
void fields_put(struct model *m, uint64_t row, const struct reader_trace *t);
/* Index thread, end of a pass: the rows put written out. */
void fields_flush(struct model *m);
/* Row i's own facts as the index pass kept them in the columns (role in
 * bits 0-1, requires_grad in 2-3: reader.h's enums): false when the
 * columns cannot answer for the row or hold none for it.  Any thread. */
bool fields_facts(struct model *m, uint64_t i, unsigned *facts);
void fields_close(struct model *m);

/* model.c */
void model_bump(struct model *m);
void model_graveyard(struct model *m, void *p);

/* model_sink.c */
void model_sink_init(struct model *m, struct reader_sink *sink);

/* model_rows.c */
void rows_init(struct model *m);
void rows_done(struct model *m);
uint64_t rows_ntraces(const struct model *m);
uint64_t rows_nexecs(const struct model *m);
static inline uint32_t
trace_op(const struct model *m, uint64_t i)
{
	return m->rows.tchunks[i >> MODEL_CHUNK_SHIFT]->op[i & (MODEL_CHUNK - 1)];
}
static inline uint8_t
trace_flags(const struct model *m, uint64_t i)
{
	return __atomic_load_n(&m->rows.tchunks[i >> MODEL_CHUNK_SHIFT]->flags[i & (MODEL_CHUNK - 1)],
			       __ATOMIC_RELAXED);
}
static inline struct exec_row *
exec_row(const struct model *m, uint64_t i)
{
	return &m->rows.echunks[i >> MODEL_CHUNK_SHIFT][i & (MODEL_CHUNK - 1)];
}
/* Appends a row (writer). */
void rows_add_trace(struct model *m, uint32_t op, uint8_t flags, const struct td_locator *loc);
struct exec_row *rows_add_exec_begin(struct model *m, const struct td_locator *loc);
void rows_add_exec_end(struct model *m);
void locidx_add(struct locidx *li, uint64_t row, const struct td_locator *loc);
/* The locator of row i; false if none.  Advances from the nearest cursor at
 * or before i when it lies past i's checkpoint (same file), else from the
 * checkpoint, and remembers i as a cursor: reading rows in order costs one
 * record step each.  Any thread. */
bool rows_locate(struct model *m, struct locidx *li, enum reader_kind kind, uint64_t i,
		 struct td_locator *loc);
/* The file id of row i (its checkpoint's file). */
uint32_t rows_trace_file(struct model *m, uint64_t i);
/* Execution owning trace i (runs), -1 none.  Under m->th.lock. */
int64_t rows_trace_execution(struct model *m, uint64_t i);
/* Step of trace i, -1 unknown.  Under m->th.lock. */
int64_t rows_trace_step(struct model *m, uint64_t i);
void rows_mark_corrupt(struct model *m, uint64_t i);
/* Trace slot; decodes when the flag byte cannot tell. */
uint32_t rows_trace_slot(struct model *m, uint64_t i);
/* The cached decode of trace i. */
void rows_trace_decoded(struct model *m, uint64_t i, struct cache_ent *out);
/* The host string of trace i (file host, else its execution's host). */
const char *rows_trace_host(struct model *m, uint64_t i);
uint32_t rows_trace_host_sid(struct model *m, uint64_t i);
size_t rows_memory(const struct model *m);
bool rows_ckpt(const struct model *m, uint64_t k, uint64_t *row, uint32_t *file);
int64_t rows_ckpt_find(const struct model *m, uint64_t i);

/* model_ops.c (under m->th.lock unless said) */
/* The op of (graph, name), NO_ID if none.  ops_lookup() reads the intern
 * table: under m->th.lock.  ops_lookup_sid() under m->th.lock too, or on
 * the writer without it once ops_hash_ready() was called (the op hash is
 * built on the first lookup: a reopen that never looks an op up by name
 * does not hash 200,000 names). */
uint32_t ops_lookup(struct model *m, const char *graph_id, const char *name);
uint32_t ops_lookup_sid(struct model *m, uint32_t graph_sid, const char *name);
/* ops_lookup and ops_add, name_hash being hashtab_str_hash(name) (on_op
 * hashes the op's name once for the lookup, the intern and the op hash). */
uint32_t ops_lookup_hashed(struct model *m, const char *graph_id, const char *name,
			   uint32_t name_hash);
uint32_t ops_add_hashed(struct model *m, const struct reader_op *op, bool placeholder,
			uint32_t name_hash);
/* The op hash built (the writer, without m->th.lock: it takes the lock
 * only while the hash is not built yet). */
void ops_hash_ready(struct model *m);
uint32_t ops_add(struct model *m, const struct reader_op *op, bool placeholder);
void ops_fill(struct model *m, uint32_t id, const struct reader_op *op);
int32_t graphs_index_of_sid(struct model *m, uint32_t graph_sid);
bool graphs_is_inside(struct model *m, int32_t g, int32_t outer);
void ops_graph_added(struct model *m, uint32_t graph_sid);
void ops_done(struct model *m);
/* n bytes (8-aligned, zeroed) that live until ops_done: the lists of ops a
 * cache file gives, carved from big blocks instead of one allocation each
 * (the op is then marked lists_slab). */
void *ops_slab_alloc(struct model *m, size_t n);
/* model_op_inputs.c (under m->th.lock).  Files op's inputs as op id's
 * (op->ninputs > 0): parsed and interned, a consumer under each producer
 * name unless op->input_labels, whose list is the one its graph's ops
 * share (op_entry.inputs_shared) instead of the op's own. */
void ops_inputs_fill(struct model *m, uint32_t id, const struct reader_op *op);
/* Adds op (its input input_slot reads output output_slot of the op named
 * src in graph graph_sid) to src's consumer list in map. */
void ops_consumers_add(struct model *m, struct hashtab_u64 *map, uint32_t graph_sid, const char *src,
		       uint32_t op, uint32_t input_slot, uint32_t output_slot);
/* Frees the shared lists' index (their refs go with ot.slab; ops_done). */
void ops_inputs_done(struct model *m);
/* The input lists a cache file's op section gives, kept once per graph
 * and content while it is decoded (model_cache_ops.c), each known by the
 * bytes it was read from: zero-initialise, look each list up with
 * ops_inputs_loaded_find, give the ones not found to ops_inputs_loaded_add,
 * free with ops_inputs_loaded_done once the section is read. */
struct loaded_inputs {
	struct loaded_list *v;      /* the lists met (model_op_inputs.c) */
	size_t n, cap;
	struct hashtab h;           /* ids into v */
	unsigned char *keys;        /* their bytes, one after the other */
	size_t nkeys, capkeys;
	uint32_t hash;              /* the last find's key hash */
	uint32_t last;              /* the list found or added last */
	size_t looked;              /* lookups made */
	bool off;                   /* lists mostly differ: no more lookups */
	struct model_tensor_ref *tmp;   /* the caller's scratch for one list */
	size_t captmp;
};
/* The list an earlier op of graph_sid was given from the same len bytes
 * at key (in ot.slab), or NULL.  Equal bytes of one graph decode to an
 * equal list (names by string id, slots, resolved ops); the list is
 * read-only but for op_resolve_inputs' stores, which give every sharer the
 * same op (an input resolves by graph and name alone). */
struct model_tensor_ref *ops_inputs_loaded_find(struct loaded_inputs *li, uint32_t graph_sid,
						const void *key, size_t len);
/* refs (n > 0 items decoded from the len bytes at key, the key the last
 * find on li was given and did not find) copied into ot.slab and
 * remembered under key while li has room; returns the copy. */
struct model_tensor_ref *ops_inputs_loaded_add(struct model *m, struct loaded_inputs *li,
					       uint32_t graph_sid, const void *key, size_t len,
					       const struct model_tensor_ref *refs, uint32_t n);
/* Frees li's index, keys and scratch (the lists stay, in ot.slab); NULL
 * is fine. */
void ops_inputs_loaded_done(struct loaded_inputs *li);
/* Drops the op hash: the next lookup builds it from the op table (a
 * loaded cache; under m->th.lock or before the model is shared). */
void ops_rehash(struct model *m);
uint16_t hosts_index(struct model *m, const char *host);
/* The op table usable (opv, the op hash, op_by_name and the other name
 * maps, the consumer lists): a reopen from the persistent index decodes
 * them on first use (model_cache_opcheck.c).  Whatever reads any of them
 * calls one of these first: ops_ready_locked() under m->th.lock,
 * ops_ready() without it (it takes the lock only while ops are pending).
 * The counts (nops, nops_filled, fill_gen, graph_nops) need no call. */
void ops_ready_locked(struct model *m);
void ops_ready(struct model *m);
/* An op's strings: the op table keeps their string ids only (the text
 * lives as long as the model; id 0 is ""). */
static inline const char *
ops_name(const struct model *m, const struct op_entry *o)
{
	return intern_str(&m->str, o->name_sid);
}

static inline const char *
ops_type(const struct model *m, const struct op_entry *o)
{
	return intern_str(&m->str, o->type_sid);
}

static inline const char *
ops_graph(const struct model *m, const struct op_entry *o)
{
	return intern_str(&m->str, o->graph_sid);
}

static inline const char *
ops_device(const struct model *m, const struct op_entry *o)
{
	return intern_str(&m->str, o->device_sid);
}

static inline const char *
ops_host(const struct model *m, const struct op_entry *o)
{
	return intern_str(&m->str, o->host_sid);
}

/* An op's non-finite rows and the alert number of the first (0 none):
 * under m->th.lock. */
static inline uint64_t
ops_nf_rows(const struct op_entry *o)
{
	return o->more ? o->more->nf_rows : 0;
}

static inline uint64_t
ops_first_alert(const struct op_entry *o)
{
	return o->more ? o->more->first_alert : 0;
}

/* The first op of the name with string id name_sid, NO_ID if no op has
 * that name (the head of the same-name chain, op_entry.next_same_name). */
static inline uint32_t
ops_first_of_name(const struct model *m, uint32_t name_sid)
{
	return name_sid < m->ot.nname_first ? m->ot.name_first[name_sid] : NO_ID;
}

/* The writer's state of op id (mp_writer.opw), zeroed the first time:
 * the index pass only (no lock). */
struct op_writer *ops_writer(struct model *m, uint32_t id);
/* Op o's list block, made empty the first time (from the slab for an op
 * whose lists are there: under m->th.lock). */
struct op_more *ops_more(struct model *m, struct op_entry *o);

/* model_query.c: frees the model_state() slots (model_close). */
void model_state_free(struct model *m);

/* model_scan.c */
/* The latest output row before row before of the producer of input k of
 * op, in execution exec when exec >= 0; -1 none (writer or consumer). */
int64_t links_input_producer_row(struct model *m, uint32_t op, uint32_t k, uint64_t before,
				 int64_t exec);

/* model_alerts.c */
void alerts_group_add(struct model *m, enum alert_source from, const char *kind,
		      uint32_t type_sid, uint64_t n, uint64_t first);
/* A placeholder op with trace alerts got its type: move them (under lock). */
void alerts_group_retype(struct model *m, uint32_t old_sid, uint32_t new_sid, uint64_t n,
			 uint64_t first);
/* Makes the trace groups exact from the ops (end of a pass, under lock). */
void alerts_groups_rebuild(struct model *m);
void alerts_done(struct model *m);

/* model/analysis/model_where.c and model_step.c: model/analysis/model_where.h */

/* model/analysis/model_watch.c: watch_free in model/analysis/model_watch_set.h */

/* model_source.c */
void frames_done(struct model *m);
/* Resolves an op's frame id strings into frame indices (under m->th.lock). */
void frames_resolve_op(struct model *m, struct op_entry *op);
void frames_resolve_sids(struct model *m, char *const *ids, size_t n, uint32_t **out, size_t *nout);

#endif
