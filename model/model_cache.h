/*
 * model_cache.h - the persistent index, shared by model/model_cache*.c and
 * model.c only (not a contract for other layers: model.h is).
 *
 * A cache file is a header (model_cache.c) and a payload of sections, each
 * a tag (u32), a length (u64) and its bytes, in a fixed order:
 *
 *	DUMP     the dump key and each file's fingerprint      (model_cache.c)
 *	READER   the reader's resume state (reader.h save_state)
 *	COUNTS   rows, strings, ops ... so later sections can check references
 *	STRINGS, META, FILES (+ hosts), GRAPHS (+ devices),
 *	FRAMES (+ sources)                                      (model_cache_tables.c)
 *	OPS, PROBLEMS (+ torn tails, alerts)                    (model_cache_ops.c)
 *	TRACES (+ locators), EXECS (+ locators), RUNS (+ steps,
 *	segments, the writer's running state)                   (model_cache_rows.c)
 *
 * Values use serial.h (this machine's byte order; the header says which).
 * The reading side checks every reference it restores (a string id below
 * the string count, an op id below the op count, a row below the row
 * count ...), so a file that passes its checksum but was made wrong, or a
 * fuzzer's input, gives a refused cache, never a model that crashes later.
 */
#ifndef TD_MODEL_CACHE_H
#define TD_MODEL_CACHE_H

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
	size_t blen;
	unsigned char buf[1 << 16];
};
void mc_write(struct mc_out *o, const void *p, size_t n);
void mc_flush(struct mc_out *o);
/* A section whose bytes are in sb. */
void mc_section(struct mc_out *o, enum mc_tag tag, const struct strbuf *sb);
/* The header of a section of len bytes the caller writes next. */
void mc_section_head(struct mc_out *o, enum mc_tag tag, uint64_t len);
/* The next section of in, which must be tag: its bytes in *sec. */
bool mc_section_in(struct ser_in *in, enum mc_tag tag, struct ser_in *sec);

/* ---- model_cache.c: the entry points model.c calls ---------------------- */

enum mc_load {
	MC_LOAD_OK,                 /* m holds the cached index; index() resumes */
	MC_LOAD_MISS,               /* no usable file; m untouched */
	MC_LOAD_BROKEN,             /* the file failed half way: m must be thrown away */
};
/* Sets up m->cache when opt.cache is on and the reader can resume (its
 * state is "new" until a load or save says more); false otherwise. */
bool model_cache_init(struct model *m);
void model_cache_free(struct model *m);
/* True when p lies in the cache file mapping m's rows use in place (the
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
/* The state's name ("used" ...) and why it was rebuilt or is unavailable
 * ("" otherwise); both static or living as long as m. */
void model_cache_get(struct model *m, const char **state, const char **why);
/* This dump's cache file (whether written or not), NULL when there is
 * none to have; lives as long as m. */
const char *model_cache_file(struct model *m);
/* For the fuzzer and tests: a whole cache file's bytes applied to m with
 * no checksum and no fingerprint check (the header must still fit). */
enum mc_load model_cache_apply(struct model *m, const void *data, size_t len);

/* Counts the sections below check references against (the COUNTS section). */
struct mc_counts {
	uint64_t strings, traces, execs, ops, files, hosts, frames, sources, graphs, cons;
};

/* model_cache_tables.c: everything but the rows.  Writers run on the
 * index thread (the only writer of the tables) under m->lock; readers
 * fill a model that nobody else sees yet and return false on anything
 * malformed (the caller then throws the model away). */
void mc_put_counts(struct model *m, struct mc_out *o);
bool mc_get_counts(struct ser_in *in, struct mc_counts *c);
void mc_put_tables(struct model *m, struct mc_out *o);
bool mc_get_tables(struct model *m, struct ser_in *in, const struct mc_counts *c);

/* model_cache_ops.c: ops, name maps, consumer lists (MC_OPS); problems,
 * torn tails, alert groups and the alerts readers stated (MC_PROBLEMS). */
void mc_put_ops(struct model *m, struct strbuf *sb);
bool mc_get_ops(struct model *m, struct ser_in *s, const struct mc_counts *c);
void mc_put_problems(struct model *m, struct strbuf *sb);
bool mc_get_problems(struct model *m, struct ser_in *s, const struct mc_counts *c);
/* Helpers the section files share (model_cache_tables.c). */
void mc_put_sp(struct strbuf *o, struct model *m, const char *s);
bool mc_get_sp(struct ser_in *in, struct model *m, const struct mc_counts *c, bool nullable,
	       const char **out);
uint32_t mc_get_sid(struct ser_in *in, const struct mc_counts *c, bool nullable);
void mc_put_map(struct strbuf *o, const struct u64map *h);
bool mc_get_map(struct ser_in *in, struct u64map *h, uint64_t vmax);

/* model_cache_rows.c: trace and execution rows, locators, runs, steps,
 * segments and the writer's running state. */
void mc_put_rows(struct model *m, struct mc_out *o);
/* in_place: in is a private writable mapping of the file that lives as
 * long as m (model_cache_owns): trace chunks are used where they are. */
bool mc_get_rows(struct model *m, struct ser_in *in, const struct mc_counts *c, bool in_place);

/* A string id (NO_ID for NULL) of a string the model interned; and back,
 * false on an id out of range. */
uint32_t mc_sid(struct model *m, const char *s);
bool mc_str(struct model *m, uint32_t sid, const struct mc_counts *c, bool nullable,
	    const char **out);

#endif
