/*
 * crc32c.h - CRC-32C (Castagnoli) as used by TFRecord framing, and the
 * TFRecord masking of stored CRCs (FORMAT.md §2.2, §2.3).
 *
 * The SSE4.2 crc32 instruction is used when the CPU has it (checked once at
 * run time); a slicing-by-8 table otherwise.  Both give identical results.
 */
#ifndef TD_CRC32C_H
#define TD_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Continues a CRC: crc32c_update(0, buf, n) is CRC32C(buf).  Feeding the
 * bytes in pieces gives the same result as one call. */
uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len);
/* CRC32C of buf. */
uint32_t crc32c(const void *buf, size_t len);

/* TFRecord masking: mask(c) = ror32(c, 15) + 0xA282EAD8; unmask inverts it. */
uint32_t crc32c_mask(uint32_t crc);
uint32_t crc32c_unmask(uint32_t masked);

/* Forces the table path (true) or restores automatic choice (false); for
 * tests and benchmarks.  Returns whether the hardware path is available. */
bool crc32c_force_table(bool force);
/* Name of the path in use: "sse4.2" or "table". */
const char *crc32c_impl(void);

#endif
