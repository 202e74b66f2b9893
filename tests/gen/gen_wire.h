/*
 * gen_wire.h - the byte-level half of the tfdbg v2 dump generator: CRC32C,
 * a protobuf wire writer, and TFRecord files that can be damaged on purpose.
 *
 * Self-contained on purpose: the generator must not share code with the
 * reader it tests (a bug copied into both would pass every test).  Formats:
 * reader/parse/FORMAT.md §1 (wire), §2 (framing).
 * Not a general protobuf library: it writes, never parses (apart from
 * counting the records of a file for append mode).
 */
#ifndef GEN_WIRE_H
#define GEN_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- CRC32C (Castagnoli), reader/parse/FORMAT.md §2.2, §2.3 ---------------------- */

void gen_crc32c_init(void);
uint32_t gen_crc32c(const void *data, size_t len);
uint32_t gen_crc_mask(uint32_t crc);

/* ---- protobuf wire writer ---------------------------------------------- */

/* A growable byte buffer.  Zero-initialise; gen_buf_done() frees. */
struct gen_buf {
	uint8_t *p;
	size_t len, cap;
};

void gen_buf_reserve(struct gen_buf *b, size_t more);
void gen_buf_add(struct gen_buf *b, const void *data, size_t len);
void gen_buf_done(struct gen_buf *b);

void pb_varint(struct gen_buf *b, uint64_t v);
void pb_key(struct gen_buf *b, uint32_t field, uint32_t wt);
void pb_uint(struct gen_buf *b, uint32_t field, uint64_t v);      /* wt 0 */
void pb_int(struct gen_buf *b, uint32_t field, int64_t v);        /* wt 0, two's complement */
void pb_double(struct gen_buf *b, uint32_t field, double v);      /* wt 1 */
void pb_bytes(struct gen_buf *b, uint32_t field, const void *p, size_t n); /* wt 2 */
void pb_str(struct gen_buf *b, uint32_t field, const char *s);    /* wt 2 */
/* A nested message: field key + length of sub + sub's bytes. */
void pb_msg(struct gen_buf *b, uint32_t field, const struct gen_buf *sub);
/* Packed repeated int64 (wt 2); nothing when n is 0. */
void pb_packed_int(struct gen_buf *b, uint32_t field, const int64_t *v, size_t n);
size_t pb_varint_len(uint64_t v);

/* ---- TFRecord files ------------------------------------------------------ */

/* Ways a record can be damaged when written (robustness fixtures). */
enum gen_damage {
	DMG_NONE,
	DMG_DATA_CRC,     /* flip a byte of the payload CRC */
	DMG_LENGTH_CRC,   /* flip a byte of the length CRC */
	DMG_GARBAGE,      /* 42 bytes of garbage before the record (record intact) */
	DMG_PAST_END,     /* length field claims 1 GiB (valid length CRC); payload follows */
	DMG_BAD_PROTO,    /* payload that is not a protobuf (valid CRCs) */
	DMG_HUGE,         /* a length-delimited field claiming 2^40 bytes (valid CRCs) */
	DMG_DEEP,         /* tensor nested 3000 deep + an 11-byte varint (valid CRCs) */
	DMG_COUNT
};

const char *gen_damage_name(enum gen_damage d);
enum gen_damage gen_damage_parse(const char *name);

/* One output file, buffered.  Records are framed and written in order;
 * record numbers count the records written through this handle, plus the
 * records the file held when opened for appending. */
struct gen_file {
	FILE *fp;
	char *path;
	uint64_t records;        /* record number of the next record */
	uint64_t bytes;          /* file size so far */
	uint64_t last_start;     /* offset of the last record written */
	struct gen_buf out;      /* pending bytes */
	struct gen_buf frame;    /* scratch for a damaged payload */
};

/* Opens path for writing (truncating) or appending.  For appending, counts
 * the complete records already there (and drops a torn tail, as the real
 * writer would have overwritten nothing: it is left in place).  Exits with a
 * message on failure. */
void gen_file_open(struct gen_file *f, const char *path, int append);
/* Frames payload and queues it, damaged as asked. */
void gen_file_record(struct gen_file *f, const uint8_t *payload, size_t len, enum gen_damage dmg);
/* Flushes and closes.  If torn, cuts the file in the middle of the last
 * record written through this handle. */
void gen_file_close(struct gen_file *f, int torn);

/* Counts the complete records of a TFRecord file (append mode). */
uint64_t gen_count_records(const char *path);

#endif
