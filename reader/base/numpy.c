/*
 * numpy.c - writes a tensor (or a slice view of it) as a numpy array file,
 * format version 1.0 (numpy's NEP 1): the magic, a header dict padded to
 * 64 bytes, then the elements little-endian in C order.  bfloat16, which
 * numpy has no dtype for, is written as float32.  Strings, resources and
 * variants have no form here.
 *
 * The writing half of reader/parse's array parser; it knows no dump.
 */
#include "numpy.h"

#include <stdio.h>
#include <string.h>

/* numpy's descr of an element type, NULL when it has none. */
static const char *
npy_descr(enum td_dtype dt)
{
	switch (dt) {
	case DTYPE_FLOAT16:    return "<f2";
	case DTYPE_BFLOAT16:   return "<f4";       /* converted */
	case DTYPE_FLOAT32:    return "<f4";
	case DTYPE_FLOAT64:    return "<f8";
	case DTYPE_INT8:       return "|i1";
	case DTYPE_INT16:      return "<i2";
	case DTYPE_INT32:      return "<i4";
	case DTYPE_INT64:      return "<i8";
	case DTYPE_UINT8:      return "|u1";
	case DTYPE_UINT16:     return "<u2";
	case DTYPE_UINT32:     return "<u4";
	case DTYPE_UINT64:     return "<u8";
	case DTYPE_BOOL:       return "|b1";
	case DTYPE_COMPLEX64:  return "<c8";
	case DTYPE_COMPLEX128: return "<c16";
	default:               return NULL;
	}
}

static void
npy_header(struct strbuf *sb, const char *descr, const struct td_slice_view *v)
{
	struct strbuf h = { 0 };
	uint16_t len;

	strbuf_addf(&h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
	for (int k = 0; k < v->ndims; k++)       /* numpy: (10,) and (8, 10) */
		strbuf_addf(&h, "%s%lld", k ? ", " : "", (long long)v->count[k]);
	strbuf_adds(&h, v->ndims == 1 ? ",), }" : "), }");
	/* magic (6) + version (2) + length (2) + header + '\n', padded with
	 * spaces to a multiple of 64 (numpy's alignment) */
	while ((10 + h.len + 1) % 64)
		strbuf_addc(&h, ' ');
	strbuf_addc(&h, '\n');
	len = (uint16_t)h.len;
	strbuf_add(sb, "\x93NUMPY\x01\x00", 8);
	strbuf_addc(sb, (char)(len & 0xff));
	strbuf_addc(sb, (char)(len >> 8));
	strbuf_add(sb, h.buf, h.len);
	strbuf_done(&h);
}

bool
td_numpy_encode(const struct td_tensor *t, const struct td_slice_view *v, struct strbuf *sb,
		char *err, size_t errlen)
{
	const char *descr = npy_descr(t->dtype);
	size_t size = td_dtype_size(t->dtype);
	int64_t n = td_slice_view_elements(v);

	if (!descr || !t->data) {
		snprintf(err, errlen, "%s values have no numpy array form", td_dtype_name(t->dtype));
		return false;
	}
	npy_header(sb, descr, v);
	for (int64_t k = 0; k < n; k++) {
		int64_t i = td_slice_view_index(v, k);
		if (t->dtype == DTYPE_BFLOAT16) {
			float f = (float)td_tensor_get(t, i);
			strbuf_add(sb, (const char *)&f, sizeof f);
		} else {
			strbuf_add(sb, (const char *)t->data + (size_t)i * size, size);
		}
	}
	return true;
}
