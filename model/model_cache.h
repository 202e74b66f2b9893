/*
 * model_cache.h - the persistent index, shared by model/model_cache*.c and
 * model.c only (not a contract for other layers: model.h is).
 *
 * A cache file is a header (model_cache.c) and a payload of sections, each
 * a tag (u32), a length (u64) and its bytes, in a fixed order:
 *
 *	DUMP     the dump key and each file's fingerprint      (written in
 *	         model_cache_save.c, checked in model_cache.c): a kind (0 a
 *	         file or a folder by all its entries, 1 a folder listed only:
 *	         fingerprint.h's listed kind, then the newest status-change
 *	         time of its entries and the names of the files read)
 *	READER   the reader's resume state (reader.h save_state)
 *	COUNTS   rows, strings, ops ... so later sections can check references
 *	STRINGS, META, FILES (+ hosts), GRAPHS (+ devices),
 *	FRAMES (+ sources)                                      (model_cache_tables.c)
 *	OPS, PROBLEMS (+ torn tails, alerts)                    (model_cache_ops.c;
 *	         a file's OPS checked at the load, decoded on first use:
 *	         model_cache_opcheck.c)
 *	TRACES (+ locators), EXECS (+ locators), RUNS (+ steps,
 *	segments, the writer's running state)                   (model_cache_rows.c)
 *
 * Values use serial.h (this machine's byte order; the header says which).
 * The reading side checks every reference it restores (a string id below
 * the string count, an op id below the op count, a row below the row
 * count ...), and each name's op chain against the op table, so a file
 * that passes its checksum but was made wrong, or a fuzzer's input, gives
 * a refused cache, never a model that crashes or spins later.  Paths are
 * kept relative to the dump's folder (mc_put_path).
 */
#ifndef TD_MODEL_CACHE_H
#define TD_MODEL_CACHE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "model_internal.h"
#include "reader/base/serial.h"

#define MC_HEADER_BYTES 64u          /* before the payload */

enum mc_tag {
	MC_DUMP = 0x44554d50, MC_READER, MC_COUNTS, MC_STRINGS, MC_META, MC_FILES,
	MC_GRAPHS, MC_FRAMES, MC_OPS, MC_PROBLEMS, MC_TRACES, MC_EXECS, MC_RUNS,
};

/* The writing side: bytes go to a descriptor through a buffer, with a
 * running checksum and length; err is set by a failed write (then nothing
 * more is written). */
struct mc_out {
	int fd;
	uint64_t sum;               /* the checksum so far (model_cache.c) */
	uint64_t len;
	bool err;
	int errnum;                 /* the failed write's errno */
	size_t blen;
	unsigned char buf[1 << 16];
};
void mc_write(struct mc_out *o, const void *p, size_t n);
void mc_flush(struct mc_out *o);
/* A section whose bytes are in sb. */
void mc_section(struct mc_out *o, enum mc_tag tag, const struct strbuf *sb);
/* A section made a chunk at a time, so that no more than a chunk of it is
 * in memory (one strbuf held a whole section: 20 MB of ops for 200,000
 * recorded calls, issue 26).  The maker puts bytes in a strbuf and hands
 * them on with mc_chunk, which counts them (measuring) or writes them. */
struct mc_chunks {
	struct mc_out *o;
	uint64_t len;               /* bytes handed on */
	bool measure;               /* count only */
};
#define MC_CHUNK_BYTES ((size_t)1 << 18)
/* Hands on sb's bytes (count or write, then empties sb) once they reach
 * MC_CHUNK_BYTES, or whatever it holds when last.  NULL ck: nothing, the
 * bytes stay in sb (a caller that wants the whole section). */
void mc_chunk(struct mc_chunks *ck, struct strbuf *sb, bool last);
typedef void mc_put_fn(struct model *m, struct strbuf *sb, struct mc_chunks *ck);
/* Section tag of the bytes put makes: put runs twice, once to measure and
 * once to write, over tables the caller holds still (the same bytes both
 * times).  A second run that makes other bytes than the first fails the
 * save (o->err, EIO) instead of writing a wrong length. */
void mc_section_chunked(struct mc_out *o, enum mc_tag tag, struct model *m, mc_put_fn *put);
/* The header of a section of len bytes the caller writes next. */
void mc_section_head(struct mc_out *o, enum mc_tag tag, uint64_t len);
/* The next section of in, which must be tag: its bytes in *sec. */
bool mc_section_in(struct ser_in *in, enum mc_tag tag, struct ser_in *sec);

/* The counts section: what later sections' references are checked against. */
struct mc_counts {
	uint64_t strings, traces, execs, ops, files, hosts, frames, sources, graphs, cons;
};

/* The persistent index's state for one model (model_cache.c and
 * model_cache_save.c; m->icache). */
struct model_cache {
	char *dir;                  /* NULL: no cache directory */
	char *path;                 /* this dump's cache file */
	char *key;
	_Atomic enum model_cache_state state;  /* the index thread moves it (note_pass, save) while the TUI reads it */
	char why[200];
	uint64_t loaded_traces, loaded_execs, loaded_gen;
	bool grown;                 /* a fingerprint showed appended bytes */
	char **grown_paths;         /* those files (this open's paths) */
	size_t ngrown, capgrown;
	uint64_t saved_gen;
	double saved_at;
	bool saved;
	uint64_t max;               /* bytes the directory may hold */
	uint64_t loaded_ino;        /* the file the index was loaded from */
	atomic_bool stale_claimed;  /* a decode contradicted the loaded index ... */
	atomic_bool stale;          /* ... and stale_why is written */
	char stale_why[200];
	atomic_bool save_claimed;   /* a save failed (index thread) ... */
	atomic_bool save_failed;    /* ... and save_why is written, once: model_info
				     * reads it on another thread */
	char save_why[200];
	void *map;                  /* the loaded file's bytes, when rows use them in place */
	size_t map_len;
	size_t map_filled;          /* bytes the load read into map (mc_load_fill): what
				     * its fresh pages cost; the rest was streamed */
	const void *ops_p;          /* the checked op section awaiting its decode (in map) */
	size_t ops_n;
	struct mc_counts ops_counts; /* the file's counts, for that decode */
	/* folders fingerprinted listed only (DUMP kind 1), in the DUMP
	 * section's order, from check_dump until the files are loaded */
	struct mc_listed *listed;
	size_t nlisted;
	/* reader file id -> the newest status-change time (ns) its folder's
	 * entries had at the save, for the loaded listed-only folders; set at
	 * the load, read-only after (model_cache_check_data, no lock) */
	struct hashtab_u64 newest_by_id;
	bool have_newest;
	/* model_cache_row_rewritten's answers per file id (1 unchanged, 2
	 * rewritten) and the files' places in m->src.files, made on its first
	 * call */
	struct hashtab_u64 rewritten_by_id, file_at;
	bool have_rewritten;
};

/* A listed-only folder of the DUMP section. */
struct mc_listed {
	bool on;
	int64_t newest;
	char **read;
	size_t nread;
};

/* The state becomes st with why fmt (one %s: arg). */
void mc_why(struct model_cache *c, enum model_cache_state st, const char *fmt, const char *arg);
/* The MC_HEADER_BYTES header of a file whose payload is len bytes with
 * checksum sum, into out (model_cache.c). */
void mc_header_make(void *out, uint64_t len, uint32_t sum);
/* Rewrites the build-identity fields (format, byte order, type sizes,
 * layout, version) of the MC_HEADER_BYTES header at hdr to this build's,
 * keeping its magic, payload length and checksum.  For the fuzz harness,
 * so that seeds written by an earlier format still reach the section
 * parsers instead of stopping at the header check. */
void mc_header_restamp(void *hdr);
/* The payload checksum, as the writer computes it (model_cache_save.c). */
uint32_t mc_sum(const unsigned char *p, size_t n);
/* The same in steps: h from 0, each step's n a multiple of MC_SUM_BLOCK
 * but for the last; mc_sum_fold(h) is then mc_sum() of the bytes. */
#define MC_SUM_BLOCK ((size_t)1 << 16)
uint64_t mc_sum_step(uint64_t h, const unsigned char *p, size_t n);
uint32_t mc_sum_fold(uint64_t h);
/* The file's bytes as a load reaches them (model_cache.c): a load from a
 * file reads a section into its buffer, at its place, only when
 * mc_section_in() comes to it (mc_load_fill: the bytes p..p+n of that
 * buffer; mc_load_section: the section sec of tag), so the file is never
 * whole in memory.  Both are true at once for bytes outside a file load's
 * buffer (a load from bytes, a save's own buffers) and false when the
 * file could not be read (cut short since its checksum was taken). */
bool mc_load_fill(const void *p, size_t n);
bool mc_load_section(enum mc_tag tag, struct ser_in *sec);
/* MC_STRINGS, MC_EXECS and MC_RUNS, only copied into tables, are not
 * read into a file load's buffer (mc_load_section leaves them): their
 * readers read the counts and the rest with mc_load_fill and the rows (the
 * strings, through a window that slides; the executions; the run list) a
 * piece at a time, mc_load_piece: the n bytes (n <= MC_LOAD_PIECE) at
 * their place p, read into the load's scratch buffer and valid until the
 * next call; p itself outside a file load's buffer; NULL when they cannot
 * be read.  21 MB of fresh pages a side fewer at 200,000 executions
 * (issue 27). */
#define MC_LOAD_PIECE (16 * MC_SUM_BLOCK)
const unsigned char *mc_load_piece(const void *p, size_t n);
/* Whether p lies in the buffer of a file load on this thread that streams
 * its op section (the model decodes its ops at open, model_options'
 * ops_at_open): MC_OPS is then not read into the buffer by
 * mc_load_section, and its reader is mc_get_ops_streamed. */
bool mc_load_streamed(const void *p);

/* ---- model_cache.c: the entry points model.c calls ---------------------- */

enum mc_load {
	MC_LOAD_OK,                 /* m holds the cached index; index() resumes */
	MC_LOAD_MISS,               /* no usable file; m untouched */
	MC_LOAD_BROKEN,             /* the file failed half way: m must be thrown away */
};
/* Sets up m->dc.cache when opt.cache is on and the reader can resume (its
 * state is "new" until a load or save says more); false otherwise. */
bool model_cache_init(struct model *m);
void model_cache_free(struct model *m);
/* True when p lies in the cache file bytes m's rows use in place (the
 * row storage must not free() it). */
bool model_cache_owns(const struct model *m, const void *p);
/* The state "rebuilt" with why (a file that failed half way, on the
 * model that replaced the one it was read into). */
void model_cache_broken(struct model *m, const char *why);
/* Reads this dump's cache file into m, fresh from open and not indexed. */
enum mc_load model_cache_load(struct model *m);
/* After an index pass (index thread): the state becomes "extended" when a
 * loaded index grew; the file is written when the tables changed since
 * the last load or save (a live dump at most every 30 s). */
void model_cache_note_pass(struct model *m);
void model_cache_save(struct model *m);
/* A trace row decoded (any thread, under the decode cache's lock): when
 * the row came from the cache file and the decode contradicts the flag
 * the index holds (non-finite or not), the cached index is stale: the
 * state says so (once, naming the row), the file is marked so the next
 * open indexes afresh and says why, and this session saves no more. */
void model_cache_check_row(struct model *m, uint64_t row, bool indexed_nf, bool decoded_nf);
/* A trace row of file (reader file id) decoded from a data file whose
 * status-change time was ctime_ns (reader_detail.data_ctime_ns, 0
 * unknown): when the row came from the cache file and its folder was
 * checked listed only at the load, a time past the newest its entries
 * had at the save means the file was rewritten since: the cached index
 * is stale, as for model_cache_check_row.  Any thread, no lock. */
void model_cache_check_data(struct model *m, uint64_t row, uint32_t file, int64_t ctime_ns);
/* Whether row's file was checked listed only at the load (its data files'
 * values were not fingerprinted) and an entry of that folder changed
 * status since the save (its newest status-change time is later than the
 * saved one: a data file rewritten in place): fields computed from its
 * values and kept in the summary columns by an earlier session are then
 * not believed (model_fields.c).  One stat per entry of each such folder,
 * once, and only of folders that have such rows.  Before the index thread
 * starts. */
bool model_cache_row_rewritten(struct model *m, uint64_t row);
/* The state's name ("used" ...) and why it was rebuilt or is unavailable
 * ("" otherwise); both static or living as long as m. */
void model_cache_get(struct model *m, const char **state, const char **why);
/* This dump's cache file (whether written or not), NULL when there is
 * none to have; lives as long as m. */
const char *model_cache_file(struct model *m);
/* For the fuzzer and tests: a whole cache file's bytes applied to m with
 * no checksum and no fingerprint check (the header must still fit). */
enum mc_load model_cache_apply(struct model *m, const void *data, size_t len);

/* While a load reads the tables: names what was wrong in the file (the
 * why becomes "corrupt cache file (what)"); what is static. */
void mc_refuse(struct model *m, const char *what);
/* Marks the loaded file stale with why (the state "stale" from now on, the
 * file's magic overwritten so the next open rebuilds); once per model. */
void mc_mark_stale(struct model *m, const char *why);

/* ---- model_cache_dir.c: the directory ------------------------------------ */

#define MC_SUFFIX ".tdx"
/* FNV-1a of s: a cache file's name from its dump's key. */
uint64_t mc_key_hash(const char *s);
/* The cache directory opened as one of tdbg's own (reader/base/safeio.h:
 * not a link, the user's, not group/other-writable, not in the dump),
 * created (mode 0700) when create: its descriptor, or -1 with the state
 * "unavailable" and why (nothing is read from it or written to it) or,
 * without create, when it does not exist ("new"). */
int mc_open_dir(struct model *m, bool create);
/* The cache directory (malloc'd): opt's, else $XDG_CACHE_HOME/tdbg
 * (~/.cache/tdbg); NULL when there is none. */
char *mc_cache_dir(const struct model_options *opt);
/* A size as TDBG_CACHE_MAX takes it: decimal digits and at most one
 * suffix K, M, G or T (either case, powers of 1024), nothing else (no
 * sign, space, fraction, exponent or hex); false on anything else or a
 * value past 2^64 - 1, *out untouched. */
bool mc_parse_size(const char *s, uint64_t *out);
/* The bytes the directory may hold: opt's cache_max, else TDBG_CACHE_MAX,
 * else 1 GiB.  False (why filled) when TDBG_CACHE_MAX is set but not a
 * size: then no cache is used at all. */
bool mc_cache_max(const struct model_options *opt, uint64_t *max, char *why, size_t whylen);
/* Removes the least recently used cache files of dir (modification time)
 * but keep (a path, or NULL) until the others hold at most max bytes, and
 * temporary files abandoned long ago.  Returns the bytes removed. */
uint64_t mc_evict(const char *dir, uint64_t max, const char *keep);

/* Counts the sections below check references against (the COUNTS section). */

/* Gives back to the system the whole pages of [p, p + n) when they are
 * in the loaded file's buffer (model_cache_owns): for a section the load
 * has copied into the model's tables, which nothing points into.  The
 * bytes read as zeros afterwards.  Anything else (bytes applied by
 * model_cache_apply) is left alone. */
void mc_release(struct model *m, const void *p, size_t n);
/* The same for the part of section s read so far, from *done (0 at the
 * section's start) on; *done moves to the end of what was given back.  For
 * a big section copied as it is read, so the file and the tables it fills
 * are not both in memory at once. */
void mc_release_read(struct model *m, const struct ser_in *s, size_t *done);

/* model_cache_tables.c: everything but the rows.  Writers run on the
 * index thread (the only writer of the tables) under m->th.lock; readers
 * fill a model that nobody else sees yet and return false on anything
 * malformed (the caller then throws the model away). */
void mc_put_counts(struct model *m, struct mc_out *o);
bool mc_get_counts(struct ser_in *in, struct mc_counts *c);
void mc_put_tables(struct model *m, struct mc_out *o);
bool mc_get_tables(struct model *m, struct ser_in *in, const struct mc_counts *c, bool lazy_ops);

/* model_cache_ops.c: ops, name maps, consumer lists (MC_OPS); problems,
 * torn tails, alert groups and the alerts readers stated (MC_PROBLEMS). */
void mc_put_ops(struct model *m, struct strbuf *sb);
/* The same bytes handed on through ck a chunk at a time (mc_chunk). */
void mc_put_ops_chunked(struct model *m, struct strbuf *sb, struct mc_chunks *ck);
bool mc_get_ops(struct model *m, struct ser_in *s, const struct mc_counts *c);
/* The same for a section a file load did not read into its buffer
 * (mc_load_streamed): the ops are read a piece at a time through the
 * load's scratch (mc_load_piece), each op's length found by the walk of
 * model_cache_opcheck.c before it is decoded, then the name map's pairs
 * the same way; an op longer than a piece (the ops from it on) and what
 * follows the name map (alias and consumer maps, consumer lists) are read
 * into the buffer at their place (mc_load_fill).  The op section's 20 MB
 * of fresh pages a side at 200,000 ops are not touched (issue 27). */
bool mc_get_ops_streamed(struct model *m, struct ser_in *s, const struct mc_counts *c);

/* model_cache_opcheck.c: the op section checked at the load (every check
 * mc_get_ops makes, without building anything) and kept, in the loaded
 * file's buffer, for ops_ready() to decode on first use.  MC_OPS_OK: the
 * op count, fill counters and ops per graph are set and the section is
 * pending; else nothing of the op table is set, MC_OPS_CHAINS when a
 * same-name chain or op_by_name is wrong (the load's "op chains"). */
enum mc_opcheck { MC_OPS_OK, MC_OPS_BAD, MC_OPS_CHAINS };
enum mc_opcheck mc_check_ops(struct model *m, struct ser_in *s, const struct mc_counts *c);
/* The length of the op record at p (put_op's layout) when the walk finds
 * it whole and valid within avail bytes, else 0. */
size_t mc_op_walk_len(const unsigned char *p, size_t avail, const struct mc_counts *c);
void mc_put_problems(struct model *m, struct strbuf *sb);
bool mc_get_problems(struct model *m, struct ser_in *s, const struct mc_counts *c);
/* Helpers the section files share (model_cache_tables.c). */
/* A string that may be a path in the dump, kept relative to the dump's
 * folder (m->path); read back under this open's path.  The string
 * mc_get_path returns is in buf or in, valid until either changes; NULL
 * on a malformed input. */
void mc_put_path(struct strbuf *sb, struct model *m, const char *s);
const char *mc_get_path(struct ser_in *in, struct model *m, struct strbuf *buf);
void mc_put_sp(struct strbuf *o, struct model *m, const char *s);
bool mc_get_sp(struct ser_in *in, struct model *m, const struct mc_counts *c, bool nullable,
	       const char **out);
uint32_t mc_get_sid(struct ser_in *in, const struct mc_counts *c, bool nullable);
void mc_put_map(struct strbuf *o, const struct hashtab_u64 *h);
bool mc_get_map(struct ser_in *in, struct hashtab_u64 *h, uint64_t vmax);

/* model_cache_rows.c: trace and execution rows, locators, runs, steps,
 * segments and the writer's running state. */
void mc_put_rows(struct model *m, struct mc_out *o);
/* in_place: in is a writable copy of the file (read, not mapped) that lives as
 * long as m (model_cache_owns): trace chunks are used where they are. */
bool mc_get_rows(struct model *m, struct ser_in *in, const struct mc_counts *c, bool in_place);

/* A string id (NO_ID for NULL) of a string the model interned; and back,
 * false on an id out of range. */
uint32_t mc_sid(struct model *m, const char *s);
bool mc_str(struct model *m, uint32_t sid, const struct mc_counts *c, bool nullable,
	    const char **out);

/* Files from which a reopen checks the DUMP section's files on two
 * threads (tests lower it: 1 forces the split). */
extern size_t model_cache_split_min;

#endif
