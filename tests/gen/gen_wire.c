/*
 * gen_wire.c - CRC32C, protobuf wire writing and TFRecord framing for the
 * dump generator (see gen_wire.h).  Speed matters here: the generator writes
 * millions of records a second, so the CRC uses the SSE4.2 instruction when
 * the CPU has it and slicing-by-8 tables otherwise, and records are queued
 * in a large buffer written with one write() per few megabytes.
 */
#include "gen_wire.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FLUSH_AT (4u << 20)

static void
die(const char *what, const char *path)
{
	fprintf(stderr, "gen_tfdbg2: %s %s: %s\n", what, path ? path : "", strerror(errno));
	exit(2);
}

/* ---- CRC32C ------------------------------------------------------------- */

static uint32_t crc_table[8][256];
static int crc_hw;

void
gen_crc32c_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (c & 1 ? 0x82F63B78u : 0);
		crc_table[0][i] = c;
	}
	for (uint32_t i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^
					  crc_table[0][crc_table[t - 1][i] & 0xff];
#if defined(__x86_64__)
	__builtin_cpu_init();
	crc_hw = __builtin_cpu_supports("sse4.2") && !getenv("GEN_NO_HWCRC");
#endif
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t
crc_hw_update(uint32_t c, const uint8_t *p, size_t n)
{
	uint64_t c64 = c;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		c64 = __builtin_ia32_crc32di(c64, w);
		p += 8;
		n -= 8;
	}
	c = (uint32_t)c64;
	while (n--)
		c = __builtin_ia32_crc32qi(c, *p++);
	return c;
}
#endif

static uint32_t
crc_sw_update(uint32_t c, const uint8_t *p, size_t n)
{
	while (n >= 8) {
		uint32_t lo = c ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				   (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		c = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^
		    crc_table[5][(lo >> 16) & 0xff] ^ crc_table[4][lo >> 24] ^
		    crc_table[3][p[4]] ^ crc_table[2][p[5]] ^
		    crc_table[1][p[6]] ^ crc_table[0][p[7]];
		p += 8;
		n -= 8;
	}
	while (n--)
		c = (c >> 8) ^ crc_table[0][(c ^ *p++) & 0xff];
	return c;
}

uint32_t
gen_crc32c(const void *data, size_t len)
{
	uint32_t c = 0xFFFFFFFFu;
#if defined(__x86_64__)
	if (crc_hw)
		return crc_hw_update(c, data, len) ^ 0xFFFFFFFFu;
#endif
	return crc_sw_update(c, data, len) ^ 0xFFFFFFFFu;
}

uint32_t
gen_crc_mask(uint32_t crc)
{
	return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}

/* ---- buffers and wire writer ------------------------------------------- */

void
gen_buf_reserve(struct gen_buf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + more)
		cap *= 2;
	b->p = realloc(b->p, cap);
	if (!b->p)
		die("out of memory", NULL);
	b->cap = cap;
}

void
gen_buf_add(struct gen_buf *b, const void *data, size_t len)
{
	gen_buf_reserve(b, len);
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

void
gen_buf_done(struct gen_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

size_t
pb_varint_len(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

void
pb_varint(struct gen_buf *b, uint64_t v)
{
	gen_buf_reserve(b, 10);
	uint8_t *p = b->p + b->len;
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	b->len = (size_t)(p - b->p);
}

void
pb_key(struct gen_buf *b, uint32_t field, uint32_t wt)
{
	pb_varint(b, (uint64_t)field << 3 | wt);
}

void
pb_uint(struct gen_buf *b, uint32_t field, uint64_t v)
{
	pb_key(b, field, 0);
	pb_varint(b, v);
}

void
pb_int(struct gen_buf *b, uint32_t field, int64_t v)
{
	pb_key(b, field, 0);
	pb_varint(b, (uint64_t)v);
}

void
pb_double(struct gen_buf *b, uint32_t field, double v)
{
	pb_key(b, field, 1);
	gen_buf_add(b, &v, 8);      /* little-endian hosts only (x86, arm) */
}

void
pb_bytes(struct gen_buf *b, uint32_t field, const void *p, size_t n)
{
	pb_key(b, field, 2);
	pb_varint(b, n);
	gen_buf_add(b, p, n);
}

void
pb_str(struct gen_buf *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

void
pb_msg(struct gen_buf *b, uint32_t field, const struct gen_buf *sub)
{
	pb_bytes(b, field, sub->p, sub->len);
}

void
pb_packed_int(struct gen_buf *b, uint32_t field, const int64_t *v, size_t n)
{
	size_t len = 0;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		len += pb_varint_len((uint64_t)v[i]);
	pb_key(b, field, 2);
	pb_varint(b, len);
	for (size_t i = 0; i < n; i++)
		pb_varint(b, (uint64_t)v[i]);
}

/* ---- damage -------------------------------------------------------------- */

static const char *const damage_names[DMG_COUNT] = {
	"none", "data-crc", "length-crc", "garbage", "past-end",
	"bad-proto", "huge", "deep",
};

const char *
gen_damage_name(enum gen_damage d)
{
	return d < DMG_COUNT ? damage_names[d] : "?";
}

enum gen_damage
gen_damage_parse(const char *name)
{
	for (int i = 1; i < DMG_COUNT; i++)
		if (!strcmp(name, damage_names[i]))
			return (enum gen_damage)i;
	return DMG_NONE;
}

/* A DebugEvent whose graph_execution_trace holds a TensorProto nested 3000
 * levels deep through variant_val (15) -> tensors (3), with an 11-byte
 * varint (one byte past protobuf's limit) in the innermost message. */
static void
deep_payload(struct gen_buf *out)
{
	struct gen_buf a = { 0 }, b = { 0 };
	static const uint8_t absurd[] = { 0x18, 0xff, 0xff, 0xff, 0xff, 0xff,
					  0xff, 0xff, 0xff, 0xff, 0xff, 0x01 };

	gen_buf_add(&a, absurd, sizeof absurd);          /* version_number */
	for (int level = 0; level < 3000; level++) {
		b.len = 0;
		pb_msg(&b, level % 2 ? 15 : 3, &a);       /* tensor <-> variant */
		struct gen_buf t = a;
		a = b;
		b = t;
	}
	b.len = 0;
	pb_str(&b, 2, "deep/Nest");
	pb_uint(&b, 4, 4);
	pb_msg(&b, 5, &a);
	pb_double(out, 1, 1.6e9);
	pb_msg(out, 10, &b);
	gen_buf_done(&a);
	gen_buf_done(&b);
}

/* Turns payload into the damaged payload for kinds that change it. */
static const struct gen_buf *
damaged_payload(struct gen_file *f, const uint8_t *payload, size_t len, enum gen_damage dmg)
{
	static const uint8_t tail[] = { 0x01, 0x02, 0x03 };
	f->frame.len = 0;
	switch (dmg) {
	case DMG_BAD_PROTO:
		/* Wire type 7 does not exist; the rest is the good payload. */
		gen_buf_add(&f->frame, "\x0f\xff", 2);
		gen_buf_add(&f->frame, payload, len);
		break;
	case DMG_HUGE:
		gen_buf_add(&f->frame, payload, len);
		pb_key(&f->frame, 10, 2);
		pb_varint(&f->frame, (uint64_t)1 << 40);
		gen_buf_add(&f->frame, tail, sizeof tail);
		break;
	case DMG_DEEP:
		deep_payload(&f->frame);
		break;
	default:
		gen_buf_add(&f->frame, payload, len);
		break;
	}
	return &f->frame;
}

/* ---- TFRecord files ------------------------------------------------------ */

static void
flush_out(struct gen_file *f)
{
	if (f->out.len && fwrite(f->out.p, 1, f->out.len, f->fp) != f->out.len)
		die("cannot write", f->path);
	f->out.len = 0;
}

uint64_t
gen_count_records(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t hdr[12];
	uint64_t n = 0, len;
	if (!fp)
		return 0;
	while (fread(hdr, 1, 12, fp) == 12) {
		memcpy(&len, hdr, 8);
		if (fseeko(fp, (off_t)len + 4, SEEK_CUR) != 0)
			break;
		long pos = ftell(fp);
		struct stat st;
		if (fstat(fileno(fp), &st) != 0 || pos > st.st_size)
			break;
		n++;
	}
	fclose(fp);
	return n;
}

void
gen_file_open(struct gen_file *f, const char *path, int append)
{
	memset(f, 0, sizeof *f);
	f->path = strdup(path);
	if (append)
		f->records = gen_count_records(path);
	f->fp = fopen(path, append ? "ab" : "wb");
	if (!f->fp)
		die("cannot create", path);
	struct stat st;
	if (fstat(fileno(f->fp), &st) == 0)
		f->bytes = (uint64_t)st.st_size;
	f->last_start = f->bytes;
	gen_buf_reserve(&f->out, FLUSH_AT + 65536);
}

void
gen_file_record(struct gen_file *f, const uint8_t *payload, size_t len, enum gen_damage dmg)
{
	uint8_t hdr[12], foot[4];
	uint64_t n;
	uint32_t c;

	if (dmg == DMG_GARBAGE) {
		static const char junk[] = "\xde\xad\xbe\xef garbage in the middle of a file \x01\x02\x03\x04\xff";
		gen_buf_add(&f->out, junk, sizeof junk - 1);
		f->bytes += sizeof junk - 1;
	}
	if (dmg == DMG_BAD_PROTO || dmg == DMG_HUGE || dmg == DMG_DEEP) {
		const struct gen_buf *d = damaged_payload(f, payload, len, dmg);
		payload = d->p;
		len = d->len;
	}
	n = dmg == DMG_PAST_END ? (uint64_t)1 << 30 : len;
	memcpy(hdr, &n, 8);
	c = gen_crc_mask(gen_crc32c(hdr, 8));
	if (dmg == DMG_LENGTH_CRC)
		c ^= 0x00100000u;
	memcpy(hdr + 8, &c, 4);
	c = gen_crc_mask(gen_crc32c(payload, len));
	if (dmg == DMG_DATA_CRC)
		c ^= 0x01u;
	memcpy(foot, &c, 4);

	f->last_start = f->bytes;
	gen_buf_reserve(&f->out, len + 16);
	memcpy(f->out.p + f->out.len, hdr, 12);
	memcpy(f->out.p + f->out.len + 12, payload, len);
	memcpy(f->out.p + f->out.len + 12 + len, foot, 4);
	f->out.len += len + 16;
	f->bytes += len + 16;
	f->records++;
	if (f->out.len >= FLUSH_AT)
		flush_out(f);
}

void
gen_file_close(struct gen_file *f, int torn)
{
	flush_out(f);
	if (fflush(f->fp) != 0)
		die("cannot write", f->path);
	if (torn && f->bytes > f->last_start) {
		uint64_t cut = f->last_start + (f->bytes - f->last_start) / 2;
		if (ftruncate(fileno(f->fp), (off_t)cut) != 0)
			die("cannot truncate", f->path);
		f->bytes = cut;
	}
	if (fclose(f->fp) != 0)
		die("cannot close", f->path);
	free(f->path);
	gen_buf_done(&f->out);
	gen_buf_done(&f->frame);
	memset(f, 0, sizeof *f);
}
