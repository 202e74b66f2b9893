/*
 * tf_tensor.c - TensorProto -> td_tensor (MakeNdarray's algorithm) and
 * DataType mapping; see tf_tensor.h.
 */
#include "tf_tensor.h"

#include <stdlib.h>
#include <string.h>

#include "pbwire.h"

enum td_dtype
tf_dtype_to_td(int tf_dtype)
{
	static const enum td_dtype map[] = {
		[0] = DTYPE_INVALID,   [1] = DTYPE_FLOAT32,   [2] = DTYPE_FLOAT64,
		[3] = DTYPE_INT32,     [4] = DTYPE_UINT8,     [5] = DTYPE_INT16,
		[6] = DTYPE_INT8,      [7] = DTYPE_STRING,    [8] = DTYPE_COMPLEX64,
		[9] = DTYPE_INT64,     [10] = DTYPE_BOOL,     [11] = DTYPE_INT8,
		[12] = DTYPE_UINT8,    [13] = DTYPE_INT32,    [14] = DTYPE_BFLOAT16,
		[15] = DTYPE_INT16,    [16] = DTYPE_UINT16,   [17] = DTYPE_UINT16,
		[18] = DTYPE_COMPLEX128, [19] = DTYPE_FLOAT16, [20] = DTYPE_RESOURCE,
		[21] = DTYPE_VARIANT,  [22] = DTYPE_UINT32,   [23] = DTYPE_UINT64,
	};

	if (tf_dtype > 100 && tf_dtype < 200)
		tf_dtype -= 100;        /* _REF types (FORMAT.md §3.1) */
	if (tf_dtype >= 0 && (size_t)tf_dtype < TD_ARRAY_SIZE(map))
		return map[tf_dtype];
	return DTYPE_OTHER;
}

/* Shape of p into dims; false if unknown. */
static bool
proto_shape(const Tensorflow__TensorProto *p, int *rank, int64_t **dims)
{
	const Tensorflow__TensorShapeProto *sh = p->tensor_shape;
	size_t i;

	*rank = 0;
	*dims = NULL;
	if (!sh)
		return true;
	if (sh->unknown_rank || sh->n_dim > 1024)
		return false;
	*dims = xcalloc(sh->n_dim ? sh->n_dim : 1, sizeof(**dims));
	for (i = 0; i < sh->n_dim; i++) {
		if (sh->dim[i]->size < 0) {
			free(*dims);
			*dims = NULL;
			return false;
		}
		(*dims)[i] = sh->dim[i]->size;
	}
	*rank = (int)sh->n_dim;
	return true;
}

/* Strings in tensor_content: n varint32 lengths, then the bytes (3.4). */
static enum td_status
decode_string_content(const ProtobufCBinaryData *c, struct td_tensor *t)
{
	const uint8_t *p = c->data, *end = c->data + c->len;
	uint64_t total = 0, len;
	int64_t i;
	uint64_t *lens = malloc((size_t)t->n * sizeof(*lens));

	if (!lens)
		return TD_ERR_NOMEM;
	for (i = 0; i < t->n; i++) {
		if (!pbwire_varint(&p, end, &len) || len > UINT32_MAX) {
			free(lens);
			return TD_ERR_CORRUPT;
		}
		lens[i] = len;
		total += len;
	}
	if (total != (uint64_t)(end - p)) {
		free(lens);
		return TD_ERR_CORRUPT;
	}
	for (i = 0; i < t->n; i++) {
		t->strings[i] = xstrndup((const char *)p, (size_t)lens[i]);
		p += lens[i];
	}
	free(lens);
	return TD_OK;
}

static enum td_status
decode_content(const Tensorflow__TensorProto *p, struct td_tensor *t)
{
	size_t esize = td_dtype_size(t->dtype);

	if (t->dtype == DTYPE_STRING)
		return t->n ? decode_string_content(&p->tensor_content, t) : TD_OK;
	if (!esize)
		return TD_OK;   /* opaque: no numbers to show */
	if (p->tensor_content.len != (size_t)t->n * esize)
		return TD_ERR_CORRUPT;
	if (t->n)
		memcpy(t->data, p->tensor_content.data, p->tensor_content.len);
	return TD_OK;
}

/* Stores element i converted from a source value. */
static void
store(struct td_tensor *t, int64_t i, double d, int64_t s, uint64_t u)
{
	unsigned char *q = (unsigned char *)t->data + (size_t)i * td_dtype_size(t->dtype);
	union {
		float f; double d; int8_t i8; int16_t i16; int32_t i32; int64_t i64;
		uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64;
	} v;

	switch (t->dtype) {
	case DTYPE_FLOAT32: v.f = (float)d; break;
	case DTYPE_FLOAT64: v.d = d; break;
	case DTYPE_INT8:    v.i8 = (int8_t)s; break;
	case DTYPE_INT16:   v.i16 = (int16_t)s; break;
	case DTYPE_INT32:   v.i32 = (int32_t)s; break;
	case DTYPE_INT64:   v.i64 = s; break;
	case DTYPE_UINT8:
	case DTYPE_BOOL:    v.u8 = (uint8_t)u; break;
	case DTYPE_UINT16:
	case DTYPE_FLOAT16:
	case DTYPE_BFLOAT16: v.u16 = (uint16_t)u; break;
	case DTYPE_UINT32:  v.u32 = (uint32_t)u; break;
	case DTYPE_UINT64:  v.u64 = u; break;
	default: return;
	}
	memcpy(q, &v, td_dtype_size(t->dtype));
}

/* Complex values: k pairs of re, im, edge padded. */
static void
fill_complex(struct td_tensor *t, const void *vals, size_t nvals)
{
	size_t k = nvals / 2, esize = td_dtype_size(t->dtype);
	int64_t i;

	for (i = 0; k && i < t->n; i++) {
		size_t j = (size_t)i < k ? (size_t)i : k - 1;

		memcpy((char *)t->data + (size_t)i * esize, (const char *)vals + j * esize, esize);
	}
}

static void
fill_typed(const Tensorflow__TensorProto *p, struct td_tensor *t)
{
	size_t k;
	int64_t i;

#define FILL(count, expr_d, expr_s, expr_u) \
	for (k = (count), i = 0; k && i < t->n; i++) { \
		size_t j = (size_t)i < k ? (size_t)i : k - 1; \
		store(t, i, (expr_d), (expr_s), (expr_u)); \
	}
	switch (t->dtype) {
	case DTYPE_FLOAT32: FILL(p->n_float_val, p->float_val[j], 0, 0); break;
	case DTYPE_FLOAT64: FILL(p->n_double_val, p->double_val[j], 0, 0); break;
	case DTYPE_INT8: case DTYPE_INT16: case DTYPE_INT32:
		FILL(p->n_int_val, 0, p->int_val[j], 0); break;
	case DTYPE_UINT8: case DTYPE_UINT16:
		FILL(p->n_int_val, 0, 0, (uint64_t)(uint32_t)p->int_val[j]); break;
	case DTYPE_INT64: FILL(p->n_int64_val, 0, p->int64_val[j], 0); break;
	case DTYPE_BOOL: FILL(p->n_bool_val, 0, 0, p->bool_val[j] ? 1 : 0); break;
	case DTYPE_FLOAT16: case DTYPE_BFLOAT16:
		FILL(p->n_half_val, 0, 0, (uint64_t)(p->half_val[j] & 0xffff)); break;
	case DTYPE_UINT32: FILL(p->n_uint32_val, 0, 0, p->uint32_val[j]); break;
	case DTYPE_UINT64: FILL(p->n_uint64_val, 0, 0, p->uint64_val[j]); break;
	case DTYPE_COMPLEX64: fill_complex(t, p->scomplex_val, p->n_scomplex_val); break;
	case DTYPE_COMPLEX128: fill_complex(t, p->dcomplex_val, p->n_dcomplex_val); break;
	case DTYPE_STRING:
		for (k = p->n_string_val, i = 0; k && i < t->n; i++) {
			size_t j = (size_t)i < k ? (size_t)i : k - 1;

			t->strings[i] = xstrndup((const char *)p->string_val[j].data, p->string_val[j].len);
		}
		break;
	default:
		break;
	}
#undef FILL
}

/* The number of values in the typed repeated field of t's dtype (for
 * complex dtypes: of re/im pairs). */
static size_t
typed_count(const Tensorflow__TensorProto *p, enum td_dtype dt)
{
	switch (dt) {
	case DTYPE_FLOAT32: return p->n_float_val;
	case DTYPE_FLOAT64: return p->n_double_val;
	case DTYPE_INT8: case DTYPE_INT16: case DTYPE_INT32:
	case DTYPE_UINT8: case DTYPE_UINT16: return p->n_int_val;
	case DTYPE_INT64: return p->n_int64_val;
	case DTYPE_BOOL: return p->n_bool_val;
	case DTYPE_FLOAT16: case DTYPE_BFLOAT16: return p->n_half_val;
	case DTYPE_UINT32: return p->n_uint32_val;
	case DTYPE_UINT64: return p->n_uint64_val;
	case DTYPE_COMPLEX64: return p->n_scomplex_val / 2;
	case DTYPE_COMPLEX128: return p->n_dcomplex_val / 2;
	case DTYPE_STRING: return p->n_string_val;
	default: return 0;
	}
}

/* Shape and element count of p, checked before anything is allocated:
 * TD_ERR_UNSUPPORTED for an unknown shape, TD_ERR_CORRUPT for a shape
 * whose element count overflows or that tensor_content cannot hold. */
static enum td_status
checked_shape(const Tensorflow__TensorProto *p, enum td_dtype dt, int *rank, int64_t **dims,
	      int64_t *n)
{
	size_t esize = td_dtype_size(dt);

	if (!proto_shape(p, rank, dims))
		return TD_ERR_UNSUPPORTED;
	if (!td_shape_elements(*rank, *dims, n))
		goto corrupt;
	if (p->tensor_content.len > 0) {
		/* numbers: exactly n elements; strings: at least a length byte each */
		if (dt == DTYPE_STRING ? (uint64_t)*n > p->tensor_content.len
				       : esize && (uint64_t)*n != p->tensor_content.len / esize)
			goto corrupt;
		if (esize && p->tensor_content.len % esize)
			goto corrupt;
	}
	return TD_OK;
corrupt:
	free(*dims);
	*dims = NULL;
	return TD_ERR_CORRUPT;
}

enum td_status
tf_tensor_decode(const Tensorflow__TensorProto *p, struct td_tensor **out)
{
	enum td_dtype dt = tf_dtype_to_td(p->dtype);
	struct td_tensor *t;
	enum td_status st;
	int64_t *dims, n;
	int rank;

	*out = NULL;
	if (dt == DTYPE_INVALID)
		return TD_OK;
	if ((st = checked_shape(p, dt, &rank, &dims, &n)) != TD_OK)
		return st;
	t = td_tensor_new(dt, rank, dims, &st);
	free(dims);
	if (!t)
		return st;
	if (p->tensor_content.len > 0) {
		st = decode_content(p, t);
		if (st != TD_OK) {
			td_tensor_free(t);
			return st;
		}
	} else {
		fill_typed(p, t);
	}
	*out = t;
	return TD_OK;
}

enum td_status
tf_tensor_summarize(const Tensorflow__TensorProto *p, struct td_summary *out)
{
	enum td_dtype dt = tf_dtype_to_td(p->dtype);
	struct td_tensor *head;
	enum td_status st;
	int64_t *dims, n, k;
	int rank, i;

	memset(out, 0, sizeof(*out));
	if (dt == DTYPE_INVALID)
		return TD_OK;
	if ((st = checked_shape(p, dt, &rank, &dims, &n)) != TD_OK)
		return st;
	if (p->tensor_content.len > 0 && dt != DTYPE_STRING) {
		td_summarize_raw(dt, p->tensor_content.data, n, out);
	} else if (dt == DTYPE_STRING || !td_dtype_size(dt)) {
		out->dtype = dt;
		out->elements = n;
		out->known = SUM_DTYPE | SUM_ELEMENTS;
	} else {
		/* the explicit values only (bounded by the record), then the
		 * last one repeated arithmetically */
		k = (int64_t)typed_count(p, dt);
		k = TD_MIN(k, n);
		head = td_tensor_new(dt, 1, &k, &st);
		if (!head) {
			free(dims);
			return st;
		}
		fill_typed(p, head);
		td_summarize_fill(dt, head->data, k, n, out);
		td_tensor_free(head);
	}
	out->rank = rank;
	out->ndims = TD_MIN(rank, TD_MAX_DIMS);
	out->dims_truncated = rank > TD_MAX_DIMS;
	for (i = 0; i < out->ndims; i++)
		out->dims[i] = dims[rank - out->ndims + i];
	out->known |= SUM_RANK | SUM_SHAPE;
	free(dims);
	return TD_OK;
}

enum td_status
tf_tensor_decode_bytes(const void *buf, size_t len, struct td_tensor **out)
{
	Tensorflow__TensorProto *p = tensorflow__tensor_proto__unpack(NULL, len, buf);
	enum td_status st;

	*out = NULL;
	if (!p)
		return TD_ERR_DECODE;
	st = tf_tensor_decode(p, out);
	tensorflow__tensor_proto__free_unpacked(p, NULL);
	return st;
}

/* Reads the dims of a TensorShapeProto message; false if unknown. */
static bool
wire_shape(const struct pbwire_field *sf, struct td_summary *s, int64_t *n)
{
	struct pbwire r, d;
	struct pbwire_field f, g;
	int rank = 0;

	*n = 1;
	pbwire_init_field(&r, sf);
	while (pbwire_next(&r, &f)) {
		int64_t size = 0;

		if (f.num == 3 && f.type == PBWIRE_VARINT && f.v)
			return false;
		if (f.num != 2 || f.type != PBWIRE_LEN)
			continue;
		pbwire_init_field(&d, &f);
		while (pbwire_next(&d, &g))
			if (g.num == 1 && g.type == PBWIRE_VARINT)
				size = (int64_t)g.v;
		if (d.error || size < 0 || (size && *n > INT64_MAX / size))
			return false;
		*n *= size;
		if (rank < TD_MAX_DIMS)
			s->dims[rank] = size;
		else {
			memmove(s->dims, s->dims + 1, (TD_MAX_DIMS - 1) * sizeof(s->dims[0]));
			s->dims[TD_MAX_DIMS - 1] = size;
		}
		rank++;
	}
	if (r.error)
		return false;
	s->rank = rank;
	s->ndims = TD_MIN(rank, TD_MAX_DIMS);
	s->dims_truncated = rank > TD_MAX_DIMS;
	return true;
}

bool
tf_tensor_summarize_bytes(const void *buf, size_t len, struct td_summary *out)
{
	struct pbwire r;
	struct pbwire_field f, shape = {0}, content = {0};
	struct td_summary dims = {0};
	enum td_dtype dt = DTYPE_INVALID;
	int64_t n;

	pbwire_init(&r, buf, len);
	while (pbwire_next(&r, &f)) {
		if (f.num == 1 && f.type == PBWIRE_VARINT)
			dt = tf_dtype_to_td((int)(int32_t)f.v);
		else if (f.num == 2 && f.type == PBWIRE_LEN)
			shape = f;
		else if (f.num == 4 && f.type == PBWIRE_LEN)
			content = f;
	}
	if (r.error || !td_dtype_size(dt) || !content.len)
		return false;
	n = 1;
	if (shape.data && !wire_shape(&shape, &dims, &n))
		return false;
	if (content.len % td_dtype_size(dt) || (uint64_t)n != content.len / td_dtype_size(dt))
		return false;
	td_summarize_raw(dt, content.data, n, out);
	out->rank = dims.rank;
	out->ndims = dims.ndims;
	out->dims_truncated = dims.dims_truncated;
	memcpy(out->dims, dims.dims, sizeof(out->dims));
	out->known |= SUM_RANK | SUM_SHAPE;
	return true;
}
