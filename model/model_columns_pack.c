/*
 * model_columns_pack.c - a summary row packed into a block of the column
 * file and read back (model_columns_block.h): exact values, the meta
 * word's known and from_values bits, dtype and rank, and the shape packed
 * in one word.  No I/O here: model_columns.c reads and writes blocks.
 */
#include "model_columns_block.h"

#include <string.h>

#include "reader/base/util.h"

/* The shape column: a shape in one word, exactly, or 0 when it does
 * not fit (a row with such a shape is not kept: it is decoded).  The
 * top bit says a shape is there (a rank-0 one too); rank r's dims take
 * 60 / r bits each (the rank is in the meta word). */
uint64_t
cols_shape_word(const struct td_summary *s)
{
	uint64_t w = 1ull << 63;
	unsigned bits;

	if (s->dims_truncated || s->rank < 0 || s->rank > TD_MAX_DIMS || s->ndims != s->rank)
		return 0;
	if (s->rank == 0)
		return w;
	bits = 60u / (unsigned)s->rank;
	for (int k = 0; k < s->ndims; k++) {
		if (s->dims[k] < 0 || (uint64_t)s->dims[k] >> bits)
			return 0;
		w |= (uint64_t)s->dims[k] << (bits * (unsigned)k);
	}
	return w;
}

static void
shape_unword(uint64_t w, struct td_summary *s)
{
	unsigned bits = s->rank > 0 ? 60u / (unsigned)s->rank : 60u;

	s->ndims = TD_MIN(s->rank, TD_MAX_DIMS);
	s->dims_truncated = false;
	for (int k = 0; k < s->ndims; k++)
		s->dims[k] = (int64_t)(w >> (bits * (unsigned)k) & ((1ull << bits) - 1));
}

void
cols_pack(struct block *b, unsigned k, const struct td_summary *s, uint32_t fv, double wall,
	  bool filled, bool no_values)
{
	uint32_t known = s->known & COLS_FIELDS;
	uint64_t meta;

	uint64_t shape = (s->known & SUM_SHAPE) ? cols_shape_word(s) : 0;

	if (s->rank < 0 || s->rank > 255 || s->dtype < 0 || s->dtype >= DTYPE_COUNT ||
	    ((s->known & SUM_SHAPE) && !shape))
		filled = false;         /* not kept exactly: such a row is decoded */
	meta = (uint64_t)known << M_KNOWN_SHIFT | (uint64_t)(fv & COLS_FIELDS) << M_FV_SHIFT |
	       (uint64_t)((unsigned)s->dtype & 0xff) << M_DTYPE_SHIFT |
	       (uint64_t)((unsigned)s->rank & 0xff) << M_RANK_SHIFT | (filled ? M_FILLED : 0) |
	       (no_values ? M_NOVALUES : 0) |
	       ((known & SUM_NONFINITE) && s->has_inf_or_nan ? M_NONFINITE : 0);
	b->v[C_META][k] = meta;
	b->v[C_ELEMENTS][k] = (uint64_t)s->elements;
	b->v[C_NAN][k] = (uint64_t)s->nan;
	b->v[C_NEG_INF][k] = (uint64_t)s->neg_inf;
	b->v[C_POS_INF][k] = (uint64_t)s->pos_inf;
	b->v[C_NEGATIVE][k] = (uint64_t)s->negative;
	b->v[C_ZERO][k] = (uint64_t)s->zero;
	b->v[C_POSITIVE][k] = (uint64_t)s->positive;
	memcpy(&b->v[C_MIN][k], &s->min, 8);
	memcpy(&b->v[C_MAX][k], &s->max, 8);
	memcpy(&b->v[C_MEAN][k], &s->mean, 8);
	memcpy(&b->v[C_ABS_MEAN][k], &s->abs_mean, 8);
	memcpy(&b->v[C_STD][k], &s->std, 8);
	memcpy(&b->v[C_L2NORM][k], &s->l2norm, 8);
	b->v[C_SHAPE][k] = shape;
	memcpy(&b->v[C_WALL][k], &wall, 8);
}

uint32_t
cols_col_bit(enum col c)
{
	static const uint32_t bits[NCOL] = {
		[C_ELEMENTS] = SUM_ELEMENTS, [C_NAN] = SUM_NAN, [C_NEG_INF] = SUM_NEG_INF,
		[C_POS_INF] = SUM_POS_INF, [C_NEGATIVE] = SUM_NEGATIVE, [C_ZERO] = SUM_ZERO,
		[C_POSITIVE] = SUM_POSITIVE, [C_MIN] = SUM_MINMAX, [C_MAX] = SUM_MINMAX,
		[C_MEAN] = SUM_MEAN, [C_ABS_MEAN] = SUM_ABS_MEAN, [C_STD] = SUM_STD,
		[C_L2NORM] = SUM_L2NORM, [C_SHAPE] = SUM_SHAPE,
	};
	return bits[c];
}

static const struct { enum col c; uint32_t bit; } need_cols[] = {
	{ C_ELEMENTS, SUM_ELEMENTS }, { C_NAN, SUM_NAN }, { C_NEG_INF, SUM_NEG_INF },
	{ C_POS_INF, SUM_POS_INF }, { C_NEGATIVE, SUM_NEGATIVE }, { C_ZERO, SUM_ZERO },
	{ C_POSITIVE, SUM_POSITIVE }, { C_MIN, SUM_MINMAX }, { C_MAX, SUM_MINMAX },
	{ C_MEAN, SUM_MEAN }, { C_ABS_MEAN, SUM_ABS_MEAN }, { C_STD, SUM_STD },
	{ C_L2NORM, SUM_L2NORM }, { C_SHAPE, SUM_SHAPE }, { C_WALL, COLS_WALL },
};

uint32_t
cols_need_mask(uint32_t need)
{
	uint32_t m = 1u << C_META;

	for (size_t i = 0; i < sizeof need_cols / sizeof need_cols[0]; i++)
		if (need & need_cols[i].bit)
			m |= 1u << need_cols[i].c;
	return m;
}

void
cols_unpack(const struct block *b, unsigned k, uint32_t need, struct model_fields *out)
{
	uint64_t meta = b->v[C_META][k];
	struct td_summary *s = &out->s;

	/* every field written once, no memset of the whole 272 bytes first:
	 * a batch of the diff unpacks 4,096 rows a side into memory not in
	 * the cache, and the clear before the stores was a fifth of this
	 * function's time.  Fields the columns do not hold are zeroed one
	 * by one (dims past the rank, tensor_id, pct). */
	s->known = (uint32_t)(meta >> M_KNOWN_SHIFT & M_BITS) & need;
	out->from_values = (uint32_t)(meta >> M_FV_SHIFT & M_BITS) & need;
	s->dtype = (enum td_dtype)(meta >> M_DTYPE_SHIFT & 0xff);
	s->rank = (int)(meta >> M_RANK_SHIFT & 0xff);
	s->ndims = 0;
	s->dims_truncated = false;
	s->has_inf_or_nan = (s->known & SUM_NONFINITE) && (meta & M_NONFINITE);
	s->elements = (int64_t)b->v[C_ELEMENTS][k];
	s->nan = (int64_t)b->v[C_NAN][k];
	s->neg_inf = (int64_t)b->v[C_NEG_INF][k];
	s->pos_inf = (int64_t)b->v[C_POS_INF][k];
	s->negative = (int64_t)b->v[C_NEGATIVE][k];
	s->zero = (int64_t)b->v[C_ZERO][k];
	s->positive = (int64_t)b->v[C_POSITIVE][k];
	memcpy(&s->min, &b->v[C_MIN][k], 8);
	memcpy(&s->max, &b->v[C_MAX][k], 8);
	memcpy(&s->mean, &b->v[C_MEAN][k], 8);
	memcpy(&s->abs_mean, &b->v[C_ABS_MEAN][k], 8);
	memcpy(&s->std, &b->v[C_STD][k], 8);
	memcpy(&s->l2norm, &b->v[C_L2NORM][k], 8);
	s->tensor_id = 0;
	memset(s->pct, 0, sizeof s->pct);
	if (s->known & SUM_SHAPE)
		shape_unword(b->v[C_SHAPE][k], s);
	memset(s->dims + s->ndims, 0, (size_t)(TD_MAX_DIMS - s->ndims) * sizeof s->dims[0]);
	memcpy(&out->wall_time, &b->v[C_WALL][k], 8);
	out->from_columns = true;
}

void
cols_unpack_brief(const struct block *b, unsigned k, uint32_t need, struct model_brief *out)
{
	uint64_t meta = b->v[C_META][k];

	/* what model_brief_of gives of cols_unpack's summary: a filled row's
	 * shape word is the one cols_shape_word made of its dims */
	out->known = (uint32_t)(meta >> M_KNOWN_SHIFT & M_BITS) & need;
	out->dtype = (enum td_dtype)(meta >> M_DTYPE_SHIFT & 0xff);
	out->rank = (int)(meta >> M_RANK_SHIFT & 0xff);
	out->nonfinite = (out->known & SUM_NONFINITE) && (meta & M_NONFINITE);
	out->shape = (out->known & SUM_SHAPE) ? b->v[C_SHAPE][k] : 0;
	out->elements = (int64_t)b->v[C_ELEMENTS][k];
	out->nan = (int64_t)b->v[C_NAN][k];
	out->neg_inf = (int64_t)b->v[C_NEG_INF][k];
	out->pos_inf = (int64_t)b->v[C_POS_INF][k];
	memcpy(&out->min, &b->v[C_MIN][k], 8);
	memcpy(&out->max, &b->v[C_MAX][k], 8);
	memcpy(&out->mean, &b->v[C_MEAN][k], 8);
}
