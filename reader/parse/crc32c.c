/*
 * crc32c.c - CRC-32C with the SSE4.2 instruction or a slicing-by-8 table.
 *
 * The reflected polynomial 0x82F63B78, initial value and final XOR
 * 0xFFFFFFFF (FORMAT.md §2.2).  The table is built on
 * first use; the hardware check runs once.  Not for: other CRC variants.
 */
#include "crc32c.h"

#include <pthread.h>
#include <string.h>

#define CRC32C_POLY 0x82F63B78u
#define CRC32C_MASK_DELTA 0xA282EAD8u

static uint32_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static int have_hw = -1;        /* -1 unknown, 0 no, 1 yes */
static pthread_once_t hw_once = PTHREAD_ONCE_INIT;
static bool force_table;

static void
build_table(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ ((c & 1) ? CRC32C_POLY : 0);
		table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			table[k][i] = (table[k - 1][i] >> 8) ^ table[0][table[k - 1][i] & 0xff];
}

/* Raw (unconditioned) update with slicing-by-8. */
static uint32_t
crc_table(uint32_t c, const unsigned char *p, size_t len)
{
	pthread_once(&table_once, build_table);
	while (len && ((uintptr_t)p & 7)) {
		c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
		len--;
	}
	while (len >= 8) {
		uint32_t lo, hi;

		memcpy(&lo, p, 4);
		memcpy(&hi, p + 4, 4);
		lo ^= c;
		c = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		    table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		    table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
		    table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		c = (c >> 8) ^ table[0][(c ^ *p++) & 0xff];
	return c;
}

#if defined(__x86_64__)
static inline uint64_t
load64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Three streams: the crc32 instruction has a latency of three cycles but
 * issues one per cycle, so three independent CRCs over three consecutive
 * STRIDE-byte blocks run in the time of one.  They are joined with
 * crc(A B) = shift(crc(A), |B|) ^ crc0(B), shift being the effect of
 * |B| zero bytes on the raw CRC, a linear map applied with shift_tab. */
#define STRIDE 64
static uint32_t shift_tab[4][256];      /* raw CRC c -> c after STRIDE zero bytes */

static void
build_shift(void)
{
	uint32_t n, c;
	int k, i;

	pthread_once(&table_once, build_table);
	for (k = 0; k < 4; k++)
		for (n = 0; n < 256; n++) {
			c = n << (8 * k);
			for (i = 0; i < STRIDE; i++)
				c = (c >> 8) ^ table[0][c & 0xff];
			shift_tab[k][n] = c;
		}
}

static inline uint32_t
shift(uint32_t c)
{
	return shift_tab[0][c & 0xff] ^ shift_tab[1][(c >> 8) & 0xff] ^
	       shift_tab[2][(c >> 16) & 0xff] ^ shift_tab[3][c >> 24];
}

__attribute__((target("sse4.2")))
static uint32_t
crc_hw(uint32_t c, const unsigned char *p, size_t len)
{
	uint64_t c64 = c;
	uint32_t w;
	uint16_t h;

	while (len >= 3 * STRIDE) {
		uint64_t c1 = 0, c2 = 0;
		const unsigned char *end = p + STRIDE;

		do {
			c64 = __builtin_ia32_crc32di(c64, load64(p));
			c1 = __builtin_ia32_crc32di(c1, load64(p + STRIDE));
			c2 = __builtin_ia32_crc32di(c2, load64(p + 2 * STRIDE));
			p += 8;
		} while (p < end);
		c64 = shift(shift((uint32_t)c64) ^ (uint32_t)c1) ^ (uint32_t)c2;
		p += 2 * STRIDE;
		len -= 3 * STRIDE;
	}
	/* unaligned 8-byte loads are fine on x86; unrolled by four */
	while (len >= 32) {
		c64 = __builtin_ia32_crc32di(c64, load64(p));
		c64 = __builtin_ia32_crc32di(c64, load64(p + 8));
		c64 = __builtin_ia32_crc32di(c64, load64(p + 16));
		c64 = __builtin_ia32_crc32di(c64, load64(p + 24));
		p += 32;
		len -= 32;
	}
	while (len >= 8) {
		c64 = __builtin_ia32_crc32di(c64, load64(p));
		p += 8;
		len -= 8;
	}
	c = (uint32_t)c64;
	if (len >= 4) {
		memcpy(&w, p, 4);
		c = __builtin_ia32_crc32si(c, w);
		p += 4;
		len -= 4;
	}
	if (len >= 2) {
		memcpy(&h, p, 2);
		c = __builtin_ia32_crc32hi(c, h);
		p += 2;
		len -= 2;
	}
	if (len)
		c = __builtin_ia32_crc32qi(c, *p);
	return c;
}

static void
check_cpu(void)
{
	__builtin_cpu_init();
	build_shift();
	__atomic_store_n(&have_hw, __builtin_cpu_supports("sse4.2") ? 1 : 0, __ATOMIC_RELEASE);
}

static bool
detect_hw(void)
{
	int hw = __atomic_load_n(&have_hw, __ATOMIC_ACQUIRE);

	if (hw < 0) {
		pthread_once(&hw_once, check_cpu);
		hw = __atomic_load_n(&have_hw, __ATOMIC_ACQUIRE);
	}
	return hw == 1;
}
#else
static uint32_t
crc_hw(uint32_t c, const unsigned char *p, size_t len)
{
	return crc_table(c, p, len);
}

static bool
detect_hw(void)
{
	have_hw = 0;
	return false;
}
#endif

uint32_t
crc32c_update(uint32_t crc, const void *buf, size_t len)
{
	uint32_t c = ~crc;

	if (__atomic_load_n(&have_hw, __ATOMIC_ACQUIRE) == 1 && !force_table)
		return ~crc_hw(c, buf, len);    /* the common case, checked once */
	if (!force_table && detect_hw())
		c = crc_hw(c, buf, len);
	else
		c = crc_table(c, buf, len);
	return ~c;
}

uint32_t
crc32c(const void *buf, size_t len)
{
	return crc32c_update(0, buf, len);
}

uint32_t
crc32c_mask(uint32_t crc)
{
	return ((crc >> 15) | (crc << 17)) + CRC32C_MASK_DELTA;
}

uint32_t
crc32c_unmask(uint32_t masked)
{
	uint32_t r = masked - CRC32C_MASK_DELTA;

	return (r >> 17) | (r << 15);
}

bool
crc32c_force_table(bool force)
{
	force_table = force;
	return detect_hw();
}

const char *
crc32c_impl(void)
{
	return !force_table && detect_hw() ? "sse4.2" : "table";
}
