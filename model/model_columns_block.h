/*
 * model_columns_block.h - private to model_columns*.c: a block of the
 * summary column file in memory, its columns, the meta word's packing,
 * and the row <-> block packing (model_columns_pack.c).
 */
#ifndef TD_MODEL_COLUMNS_BLOCK_H
#define TD_MODEL_COLUMNS_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "model_columns.h"

enum col {
	C_META, C_ELEMENTS, C_NAN, C_NEG_INF, C_POS_INF, C_NEGATIVE, C_ZERO, C_POSITIVE,
	C_MIN, C_MAX, C_MEAN, C_ABS_MEAN, C_STD, C_L2NORM, C_SHAPE, C_WALL, NCOL
};

/* The meta word: known bits, from_values bits, dtype, rank, filled. */
#define M_KNOWN_SHIFT 0
#define M_FV_SHIFT 20
#define M_DTYPE_SHIFT 40
#define M_RANK_SHIFT 48
#define M_FILLED (1ull << 63)
#define M_NOVALUES (1ull << 62)     /* the index pass kept it: its record holds no values */
#define M_NONFINITE (1ull << 61)    /* has_inf_or_nan (SUM_NONFINITE) */
/* The row's own facts as the index pass stated them (colstore_put's
 * facts: COLS_FACTS bit, role, requires_grad), bits 56-60; a file made
 * before they were kept has them clear: not stated, decoded to know. */
#define M_FACTS_SHIFT 56
#define M_FACTS_MASK (0x1full << M_FACTS_SHIFT)
#define M_BITS 0xfffffull
_Static_assert((COLS_FIELDS & ~M_BITS) == 0, "the kept SUM_* bits fit the meta word");
_Static_assert(DTYPE_COUNT <= 256, "a dtype fits 8 bits");

/* A block's columns in memory. */
struct block {
	uint64_t v[NCOL][COLS_WINDOW];
};

/* Packs row s (with its from_values bits fv and wall time) into slot k of
 * b; a row whose dtype, rank or shape does not fit is written unfilled
 * (it is decoded when read). */
void cols_pack(struct block *b, unsigned k, const struct td_summary *s, uint32_t fv, double wall,
	       bool filled, bool no_values);
/* Slot k of b as model fields, keeping the SUM_* bits in need. */
void cols_unpack(const struct block *b, unsigned k, uint32_t need, struct model_fields *out);
/* Slot k of b as a brief (model_rows.h), keeping the SUM_* bits in
 * need: the verdict's fields alone, not the whole summary. */
void cols_unpack_brief(const struct block *b, unsigned k, uint32_t need, struct model_brief *out);
/* The SUM_* bit that says column c holds a value (0: meta, wall). */
uint32_t cols_col_bit(enum col c);
/* The columns (1 << enum col) the SUM_* bits of need read, the meta
 * column always. */
uint32_t cols_need_mask(uint32_t need);

#endif
