/*
 * tfdbg2_internal.h - shared state of the tfdbg v2 reader's files
 * (tfdbg2.c: open/close/advance, tfdbg2_index.c: the index pass,
 * tfdbg2_decode.c: decode and the debug-vector rules).  Not a public API.
 */
#ifndef TD_TFDBG2_INTERNAL_H
#define TD_TFDBG2_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "reader/reader.h"
#include "reader/parse/source.h"
#include "reader/parse/tfrecord.h"

/* The six files of a set, in the order of FORMAT.md §1. */
enum tf2_role {
	TF2_METADATA,
	TF2_SOURCE_FILES,
	TF2_STACK_FRAMES,
	TF2_GRAPHS,
	TF2_EXECUTION,
	TF2_TRACES,
	TF2_ROLE_COUNT
};

extern const char *const tf2_role_suffix[TF2_ROLE_COUNT];   /* "graph_execution_traces" */

/* A record the index did not turn into a row (bad CRC, undecodable) and
 * where the next record starts; advance() steps over these. */
struct tf2_skip {
	uint64_t from, to;
};

struct tf2_file {
	uint32_t id;                    /* announced with on_file */
	enum tf2_role role;
	char *path;
	struct source *src;             /* NULL while missing */
	struct tfrecord_cursor cur;     /* index position, kept between passes */
	bool announced;                 /* on_file sent */
	bool missing_reported;          /* the missing/unreadable problem was sent */
	enum td_status open_st;         /* why src is NULL: TD_ERR_NOENT missing, else unreadable */
	char open_why[96];              /* the reason, e.g. "a FIFO, not a regular file" */
	uint64_t torn_reported;         /* offset of the torn record reported + 1, or 0 */
	/* Follow mode (see tf2_check_change): a CRC32C of the first sig_len
	 * bytes as first indexed, to tell a rewrite in place from growth. */
	uint32_t sig;
	uint64_t sig_len;
	uint64_t seen_size;             /* size and mtime at the last check */
	int64_t seen_mtime;
	bool stale;                     /* retired: its rows' bytes are gone */
	/* Guarded by reader.lock: */
	uint64_t indexed_end;           /* rows exist only below this offset */
	struct tf2_skip *skips;         /* sorted by from */
	size_t nskips, skipcap;
};

struct tf2_pending_frame {
	char *id;
	int32_t file_index;
	uint32_t line;
	char *func;
};

struct tf2_device {
	int32_t id;
	char *name;
};

struct tf2_set {
	char *host;
	double wall_time;
	char *run_id, *tf_version, *file_version;
	bool usable;                    /* metadata record read: a host */
	char *unusable_why;             /* why not (NULL once reported) */
	char *unusable_said;            /* the last reason reported */
	bool foreign;                   /* of another run: never read */
	bool opened;                    /* its files were opened (usable) */
	bool host_now;                  /* usable this pass (index) */
	bool host_sent;
	struct tf2_file files[TF2_ROLE_COUNT];
	/* This host's source list: file_index -> global source id and path. */
	uint32_t *source_ids;
	char **source_paths;
	size_t nsources, sourcecap;
	struct tf2_pending_frame *pending;
	size_t npending, pendingcap;
	/* Guarded by reader.lock: */
	struct tf2_device *devices;
	size_t ndevices, devicecap;
};

struct reader {
	char *dir;
	pthread_mutex_t lock;           /* sets/files arrays, skips, devices, indexed_end */
	struct tf2_set **sets;          /* sorted by metadata wall_time; new hosts appended */
	size_t nsets, setcap;
	struct tf2_file **files;        /* by id */
	size_t nfiles, filecap;
	char *run_id;                   /* the run's id ("" none) */
	uint32_t next_source_id;
	bool meta_sent;
	bool mode_sent;
};

/* tfdbg2.c */
struct tf2_file *tf2_file_by_id(struct reader *r, uint32_t id);
struct tf2_set *tf2_set_of_file(struct reader *r, const struct tf2_file *f);
/* Opens f's path (regular files only, never blocking); NULL with the reason
 * in f->open_st and f->open_why. */
struct source *tf2_open_source(struct tf2_file *f);
/* tf2_open_source() into f->src, with its cursor at 0. */
void tf2_open_file(struct tf2_file *f);
/* Reads the metadata record of a set that had none (follow mode: the
 * writer may have written it since); sets s->usable or s->unusable_why. */
void tf2_retry_metadata(struct tf2_set *s);
void tf2_add_skip(struct reader *r, struct tf2_file *f, uint64_t from, uint64_t to);
/* Where the row after the record ending at record_end starts (past skipped
 * records), or 0 when that is not an indexed row yet. */
uint64_t tf2_next_row(struct reader *r, struct tf2_file *f, uint64_t record_end);
/* The record at off of src, as tfrecord_read_at() reads it, for decode():
 * from the bytes advance() read last on this thread when it stepped onto
 * off (a row found from a locator then costs one read, not two), else
 * from the source. */
enum td_status tf2_read_record(struct source *src, uint64_t off, unsigned char **data,
			       size_t *len);
/* Rescans the directory for file sets not seen yet (index passes). */
void tf2_discover(struct reader *r, const struct reader_sink *sink);

/* tfdbg2_index.c */
enum td_status tf2_index(struct reader *r, const struct reader_sink *sink);
extern const char *const tf2_role_what[TF2_ROLE_COUNT];    /* "graph_execution_trace" */

/* tfdbg2_files.c */
struct reader_progress;
/* Sends a problem about f (NULL: the dump) with this detail text. */
void tf2_send_problem(const struct reader_sink *sink, enum reader_problem_kind kind,
		      const struct tf2_file *f, uint64_t off, int64_t record, const char *detail);
/* The file id a problem of f is filed under (-1 before the model knows
 * the file), and what f holds ("dump" for NULL). */
int64_t tf2_problem_file(const struct tf2_file *f);
const char *tf2_problem_what(const struct tf2_file *f);
/* tf2_problemf(sink, kind, f, off, record, fmt, ...): a problem of file f
 * (NULL: the dump), its detail from fmt. */
#define tf2_problemf(sink, kind, f, off, record, ...) \
	reader_report_problemf((sink), (kind), tf2_problem_file(f), (f) ? (f)->path : NULL, (off), \
			       (record), tf2_problem_what(f), __VA_ARGS__)
/* The dump facts not sent yet: format, new hosts, then (once) the first
 * usable set's versions and the run id. */
void tf2_send_meta(struct reader *r, const struct reader_sink *sink);
/* Opens files that appeared since, announces new files, reports missing
 * ones once, and adds up the sizes into progress. */
void tf2_send_files(struct reader *r, const struct reader_sink *sink,
		    struct reader_progress *progress);
/* reader.h on_resolved: reading got to off, past the tail of f reported
 * torn (the writer completed it, or the file is retired: UINT64_MAX). */
void tf2_torn_resolved(const struct reader_sink *sink, struct tf2_file *f, uint64_t off);

/* tfdbg2_follow.c: file sets and files that change between passes. */
/* Whether s is a host this pass: its metadata record reads (retried each
 * pass while it does not; the reason is reported once, again when it
 * changes; only the metadata file is announced).  Opens the set's other
 * files the first time it is. */
bool tf2_set_is_host(struct reader *r, const struct reader_sink *sink, struct tf2_set *s);
/* Follow mode, for an announced file: truncated below what was indexed,
 * renamed over or rewritten in place (see the file comment)?  Then reports
 * it, retires it and returns true (f is then a new file at offset 0; its
 * src is NULL when it cannot be opened now). */
bool tf2_check_change(struct reader *r, const struct reader_sink *sink, struct tf2_set *s,
		      struct tf2_file *f);
/* Records the signature of what the index has read of f (first 4 KiB). */
void tf2_take_sig(struct tf2_file *f);
/* Retires f: its id keeps naming the old rows, whose decode and advance
 * now fail with TD_ERR_STALE, and f gets a new id and is read again from
 * offset 0 (reopened by path).  Takes reader.lock. */
void tf2_retire_file(struct reader *r, struct tf2_set *s, struct tf2_file *f);

/* tfdbg2_stage.c: the trace pipeline.  One entry per record framed, in
 * file order: a framing status, and for a good record what the trace scan
 * found.  Strings are offsets into the block's arena (NUL-terminated). */
#define TF2_STAGE_ENTRIES 1024

struct tf2_stage_entry {
	enum tfrecord_status st;
	bool stopped;                   /* tfrecord.stopped */
	bool decoded;                   /* OK record that scans as a trace; else why */
	bool summary_ok;                /* decoded, but the summary did not: why */
	int mode;
	int64_t recno;                  /* record number in the file - the block's recno_base */
	uint64_t offset, next, length;  /* as in struct tfrecord */
	uint64_t cur_off;               /* cursor offset after this record */
	uint32_t graph_id, op_name, why;
	/* The trace as sent, filled here so it is not copied again: the index
	 * thread sets loc.file and points graph_id and op_name into the arena. */
	struct reader_trace t;
};

struct tf2_stage_block {
	struct tf2_stage_entry *e;      /* n entries (room for cap) */
	size_t n, cap;
	bool last;                      /* the file ends (END, TORN, IO) with this block */
	int64_t recno_base;             /* added to the entries' recno */
	char *arena;
	size_t alen, acap;
};

struct tf2_stage;
/* Bytes left to read from which a file is staged in parallel (0: always,
 * whatever the processor count; tests set it). */
extern uint64_t tf2_stage_thread_min;
/* Bytes per range in parallel staging (tests set it small to put many
 * range boundaries inside records). */
extern uint64_t tf2_stage_chunk;
/* Starts staging the records of cur (which the stage owns until
 * tf2_stage_stop, and leaves after the last record handed out).  A big
 * file is cut into byte ranges that threads on every core frame, check
 * and parse at once; the blocks still come out in file order, the same
 * as one pass from cur would make them. */
struct tf2_stage *tf2_stage_start(struct tfrecord_cursor *cur);
/* The next block in file order, or NULL after the last one; valid until
 * tf2_stage_release(). */
struct tf2_stage_block *tf2_stage_next(struct tf2_stage *sg);
void tf2_stage_release(struct tf2_stage *sg);
/* Ends the producer and frees the stage; NULL is accepted. */
void tf2_stage_stop(struct tf2_stage *sg);
/* The LEN field num of a DebugEvent and its wall_time; false (why set)
 * when the event is malformed or has no such field. */
struct pbwire_field;
/* Summary of one output's TensorProto bytes in mode (the index's
 * allocation-free path); false (why set) if they do not decode. */
bool tf2_output_summary(int mode, const uint8_t *tp, size_t len, struct td_summary *s, char *why,
			size_t whylen);
bool tf2_event_payload(const uint8_t *data, size_t len, uint32_t num, struct pbwire_field *out,
		       double *wall_time, char *why, size_t whylen);
/* Summary of a serialized FULL_TENSOR TensorProto; false if it does not decode. */
bool tf2_full_tensor_summary(const uint8_t *tp, size_t len, struct td_summary *s);

/* tfdbg2_decode.c */
const char *tf2_mode_name(int mode);
/* Fills s from a debug vector of mode (FORMAT.md §6).  Returns false when the
 * vector does not have the mode's length (s then knows nothing). */
bool tf2_summary_from_vector(int mode, const double *v, long n, struct td_summary *s);
/* True when output i with this vector proves NaN/Inf the InfNanMonitor way
 * (FORMAT.md §7.5); FULL_TENSOR is handled by the caller. */
bool tf2_vector_alerts(int mode, const double *v, long n);
/* Reads the debug vector of a serialized TensorProto (DT_DOUBLE or DT_FLOAT
 * content or typed values) into out; returns the count (may exceed max) or
 * -1 when it is not a numeric vector. */
long tf2_wire_vector(const void *tp, size_t len, double *out, size_t max);
enum td_status tf2_decode(struct reader *r, enum reader_kind kind,
			  const struct td_locator *loc, struct reader_detail *out);
/* decode() of a trace for the model's row cache (reader_ops.decode_summary):
 * a health-mode record through the wire scanner, else decode(). */
enum td_status tf2_decode_summary(struct reader *r, const struct td_locator *loc,
				  struct reader_detail *out);

/* decode() of an execution for a caller that reads only its tensor ids
 * and its outputs' summaries (reader_ops.decode_outputs): a health-mode
 * record through the wire scanner, else decode(). */
enum td_status tf2_decode_outputs(struct reader *r, const struct td_locator *loc,
				  struct reader_detail *out);

/* tfdbg2_state.c: reader.h save_state / load_state */
void tf2_save_state(struct reader *r, struct strbuf *out);
bool tf2_load_state(struct reader *r, const void *data, size_t len);

#endif
