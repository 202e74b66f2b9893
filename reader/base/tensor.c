/*
 * tensor.c - format-neutral tensor values: dtype table, summaries, IEEE half
 * and bfloat16 conversion, printing, histograms (numpy-style slicing is in
 * tensor_slice.c).
 *
 * Every reader builds struct td_tensor / struct td_summary through these
 * functions so that the counting rules are the same for all formats: finite
 * values split into < 0, == 0 (-0.0 included) and > 0; non-finite into -inf,
 * +inf and NaN (reader/tfdbg2/FORMAT.md §6).  min, max and mean
 * cover the finite elements only.  Nothing here reads files.
 */
#include "tensor.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	size_t size;
	double max;
} dtype_info[] = {
#define TD_DTYPE_ROW(id, str, sz, mx) { str, sz, mx },
	DTYPE_INFO(TD_DTYPE_ROW)
#undef TD_DTYPE_ROW
};

const char *
td_dtype_name(enum td_dtype dt)
{
	return (unsigned)dt < DTYPE_COUNT ? dtype_info[dt].name : "invalid";
}

size_t
td_dtype_size(enum td_dtype dt)
{
	return (unsigned)dt < DTYPE_COUNT ? dtype_info[dt].size : 0;
}

double
td_dtype_max(enum td_dtype dt)
{
	return (unsigned)dt < DTYPE_COUNT ? dtype_info[dt].max : 0;
}

bool
td_dtype_is_float(enum td_dtype dt)
{
	return dt == DTYPE_FLOAT16 || dt == DTYPE_BFLOAT16 || dt == DTYPE_FLOAT32 ||
	       dt == DTYPE_FLOAT64;
}

enum td_dtype
td_dtype_from_name(const char *name)
{
	int i;

	for (i = 0; name && i < DTYPE_COUNT; i++)
		if (strcmp(dtype_info[i].name, name) == 0)
			return (enum td_dtype)i;
	return DTYPE_INVALID;
}

bool
td_summary_nonfinite(const struct td_summary *s)
{
	if ((s->known & SUM_NONFINITE) && s->has_inf_or_nan)
		return true;
	if ((s->known & SUM_NAN) && s->nan > 0)
		return true;
	if ((s->known & SUM_NEG_INF) && s->neg_inf > 0)
		return true;
	return (s->known & SUM_POS_INF) && s->pos_inf > 0;
}

/* ---- half and bfloat16 ------------------------------------------------ */

float
td_half_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31;
	uint32_t exp = (h >> 10) & 0x1f;
	uint32_t man = h & 0x3ff;
	uint32_t bits;
	float f;

	if (exp == 0x1f) {
		bits = sign | 0x7f800000u | (man << 13);
	} else if (exp != 0) {
		bits = sign | ((exp + 112) << 23) | (man << 13);
	} else {
		/* zero or subnormal: man * 2^-24 exactly representable in float */
		f = ldexpf((float)man, -24);
		return sign ? -f : f;
	}
	memcpy(&f, &bits, sizeof(f));
	return f;
}

float
td_bf16_to_float(uint16_t b)
{
	uint32_t bits = (uint32_t)b << 16;
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

/* ---- tensors ---------------------------------------------------------- */

struct td_tensor *
td_tensor_new(enum td_dtype dt, int rank, const int64_t *dims, enum td_status *st)
{
	struct td_tensor *t;
	int64_t n = 1;
	size_t esize = td_dtype_size(dt);
	int i;

	*st = TD_OK;
	if (rank < 0 || (unsigned)dt >= DTYPE_COUNT) {
		*st = TD_ERR_ARGS;
		return NULL;
	}
	for (i = 0; i < rank; i++) {
		if (dims[i] < 0) {
			*st = TD_ERR_ARGS;
			return NULL;
		}
	}
	if (!td_shape_elements(rank, dims, &n) || !td_tensor_fits(dt, n)) {
		*st = TD_ERR_TOO_LARGE;
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->dtype = dt;
	t->rank = rank;
	t->n = n;
	t->dims = xcalloc(rank ? (size_t)rank : 1, sizeof(*t->dims));
	if (rank)
		memcpy(t->dims, dims, (size_t)rank * sizeof(*dims));
	if (dt == DTYPE_STRING && n > 0)
		t->strings = calloc((size_t)n, sizeof(*t->strings));
	else if (esize && n > 0)
		t->data = calloc((size_t)n, esize);
	if (n > 0 && ((dt == DTYPE_STRING && !t->strings) || (esize && !t->data))) {
		td_tensor_free(t);
		*st = TD_ERR_NOMEM;
		return NULL;
	}
	return t;
}

void
td_tensor_free(struct td_tensor *t)
{
	int64_t i;

	if (!t)
		return;
	if (t->strings)
		for (i = 0; i < t->n; i++)
			free(t->strings[i]);
	free(t->strings);
	free(t->data);
	free(t->dims);
	free(t);
}

/* Element i of raw little-endian data of dtype dt as a double. */
static double
raw_get(enum td_dtype dt, const void *data, int64_t i)
{
	const unsigned char *p = (const unsigned char *)data + (size_t)i * td_dtype_size(dt);
	union {
		uint16_t u16; uint32_t u32; uint64_t u64;
		int8_t i8; int16_t i16; int32_t i32; int64_t i64;
		float f; double d; uint8_t u8;
	} v;

	if (!data)
		return NAN;
	memcpy(&v, p, TD_MIN(td_dtype_size(dt), sizeof(v)));
	switch (dt) {
	case DTYPE_FLOAT16:   return td_half_to_float(v.u16);
	case DTYPE_BFLOAT16:  return td_bf16_to_float(v.u16);
	case DTYPE_FLOAT32:   return v.f;
	case DTYPE_FLOAT64:   return v.d;
	case DTYPE_INT8:      return v.i8;
	case DTYPE_INT16:     return v.i16;
	case DTYPE_INT32:     return v.i32;
	case DTYPE_INT64:     return (double)v.i64;
	case DTYPE_UINT8:     return v.u8;
	case DTYPE_UINT16:    return v.u16;
	case DTYPE_UINT32:    return v.u32;
	case DTYPE_UINT64:    return (double)v.u64;
	case DTYPE_BOOL:      return v.u8 ? 1.0 : 0.0;
	case DTYPE_COMPLEX64: return v.f;
	case DTYPE_COMPLEX128: return v.d;
	default:              return NAN;
	}
}

double
td_tensor_get(const struct td_tensor *t, int64_t i)
{
	/* Strings, resources and variants have no numeric data. */
	if (!t || !t->data || i < 0 || i >= t->n || td_dtype_size(t->dtype) == 0)
		return NAN;
	return raw_get(t->dtype, t->data, i);
}

/* Running sums over the finite elements. */
struct sums {
	double sum, abs_sum, sq_sum;
	int64_t nfinite;
};

/* Adds one value to the running counts of a summary. */
static void
count_value(struct td_summary *s, double v, struct sums *a)
{
	if (isnan(v)) {
		s->nan++;
	} else if (isinf(v)) {
		if (v < 0)
			s->neg_inf++;
		else
			s->pos_inf++;
	} else {
		if (v < 0)
			s->negative++;
		else if (v > 0)
			s->positive++;
		else
			s->zero++;
		if (a->nfinite == 0 || v < s->min)
			s->min = v;
		if (a->nfinite == 0 || v > s->max)
			s->max = v;
		a->sum += v;
		a->abs_sum += fabs(v);
		a->sq_sum += v * v;
		a->nfinite++;
	}
}

/* mean, abs_mean, std and l2norm from the sums. */
static void
sums_finish(struct td_summary *s, const struct sums *a)
{
	double n = (double)a->nfinite, var;

	s->mean = a->sum / n;
	s->abs_mean = a->abs_sum / n;
	var = a->sq_sum / n - s->mean * s->mean;
	s->std = var > 0 ? sqrt(var) : 0;
	s->l2norm = sqrt(a->sq_sum);
	s->known |= SUM_MINMAX | SUM_MEAN | SUM_ABS_MEAN | SUM_STD | SUM_L2NORM;
}

void
td_summarize_raw(enum td_dtype dt, const void *data, int64_t n, struct td_summary *out)
{
	struct sums a = {0};
	int64_t i;
	const float *fp = data;

	memset(out, 0, sizeof(*out));
	out->dtype = dt;
	out->elements = n;
	out->known = SUM_DTYPE | SUM_ELEMENTS;
	if (!td_dtype_size(dt) || !data || n <= 0) {
		if (td_dtype_size(dt) && n == 0)
			out->known |= SUM_NAN | SUM_NEG_INF | SUM_POS_INF | SUM_NEGATIVE |
				      SUM_ZERO | SUM_POSITIVE | SUM_NONFINITE;
		return;
	}
	if (dt == DTYPE_FLOAT32) {
		/* the common case, without the per-element switch */
		for (i = 0; i < n; i++) {
			float f;

			memcpy(&f, fp + i, sizeof(f));
			count_value(out, f, &a);
		}
	} else {
		for (i = 0; i < n; i++)
			count_value(out, raw_get(dt, data, i), &a);
	}
	out->known |= SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE;
	if (dt != DTYPE_COMPLEX64 && dt != DTYPE_COMPLEX128) {
		/* complex is neither floating nor integer for tfdbg's alerts (reader/tfdbg2/FORMAT.md §7.5) */
		out->known |= SUM_NAN | SUM_NEG_INF | SUM_POS_INF | SUM_NONFINITE;
		out->has_inf_or_nan = td_dtype_is_float(dt) &&
				      (out->nan || out->neg_inf || out->pos_inf);
	} else {
		out->nan = out->neg_inf = out->pos_inf = 0;
	}
	if (a.nfinite)
		sums_finish(out, &a);
}

bool
td_shape_elements(int rank, const int64_t *dims, int64_t *n)
{
	int64_t p = 1;
	bool zero = false;
	int i;

	/* A zero dim makes the product 0 whatever the others say, but the
	 * others must still be a real shape (2^40 x 2^40 x 0 is not). */
	for (i = 0; i < rank; i++) {
		if (dims[i] < 0)
			return false;
		if (dims[i] == 0) {
			zero = true;
			continue;
		}
		if (p > INT64_MAX / dims[i])
			return false;
		p *= dims[i];
	}
	*n = zero ? 0 : p;
	return true;
}

bool
td_tensor_fits(enum td_dtype dt, int64_t n)
{
	size_t esize = td_dtype_size(dt);
	uint64_t each = dt == DTYPE_STRING ? sizeof(char *) : esize;

	return n >= 0 && (!each || (uint64_t)n <= TD_TENSOR_MAX_BYTES / each);
}

void
td_summarize_fill(enum td_dtype dt, const void *data, int64_t k, int64_t n, struct td_summary *out)
{
	struct td_summary one;
	size_t esize = td_dtype_size(dt);
	static const unsigned char zero[16];
	const void *last = k > 0 ? (const void *)((const char *)data + (size_t)(k - 1) * esize)
				 : (const void *)zero;
	double sum, onesum;
	int64_t nfinite, rest = n - k;

	td_summarize_raw(dt, data, k, out);
	out->elements = n;
	if (rest <= 0 || !esize)
		return;
	td_summarize_raw(dt, last, 1, &one);
	nfinite = out->elements - rest - out->nan - out->neg_inf - out->pos_inf;
	sum = (out->known & SUM_MEAN) ? out->mean * (double)nfinite : 0;
	out->nan += one.nan * rest;
	out->neg_inf += one.neg_inf * rest;
	out->pos_inf += one.pos_inf * rest;
	out->negative += one.negative * rest;
	out->zero += one.zero * rest;
	out->positive += one.positive * rest;
	out->known |= one.known & (SUM_NAN | SUM_NEG_INF | SUM_POS_INF | SUM_NEGATIVE | SUM_ZERO |
				   SUM_POSITIVE | SUM_NONFINITE);
	out->has_inf_or_nan = out->has_inf_or_nan || one.has_inf_or_nan;
	if (one.known & SUM_MINMAX) {
		onesum = one.mean * (double)rest;
		if (!(out->known & SUM_MINMAX) || one.min < out->min)
			out->min = one.min;
		if (!(out->known & SUM_MINMAX) || one.max > out->max)
			out->max = one.max;
		out->mean = (sum + onesum) / (double)(nfinite + rest);
		out->known |= SUM_MINMAX | SUM_MEAN;
	}
}

void
td_tensor_summarize(const struct td_tensor *t, struct td_summary *out)
{
	int i;

	td_summarize_raw(t->dtype, t->data, t->n, out);
	out->rank = t->rank;
	out->known |= SUM_RANK | SUM_SHAPE;
	out->ndims = TD_MIN(t->rank, TD_MAX_DIMS);
	out->dims_truncated = t->rank > TD_MAX_DIMS;
	for (i = 0; i < out->ndims; i++)
		out->dims[i] = t->dims[t->rank - out->ndims + i];
}

bool
td_tensor_histogram(const struct td_tensor *t, uint64_t *bins, int nbins, double *lo, double *hi)
{
	struct td_summary s;
	double width;
	int64_t i;

	if (!t || nbins <= 0 || !td_dtype_size(t->dtype))
		return false;
	td_summarize_raw(t->dtype, t->data, t->n, &s);
	if (!(s.known & SUM_MINMAX))
		return false;
	memset(bins, 0, (size_t)nbins * sizeof(*bins));
	*lo = s.min;
	*hi = s.max;
	if (*lo == *hi) {
		/* numpy widens a zero-width range by 0.5 on each side */
		*lo -= 0.5;
		*hi += 0.5;
	}
	/* halves: hi - lo overflows to inf for -1e308..1e308 */
	width = *hi / 2 - *lo / 2;
	for (i = 0; i < t->n; i++) {
		double v = raw_get(t->dtype, t->data, i), f;
		int b;

		if (!isfinite(v))
			continue;
		f = (v / 2 - *lo / 2) / width * nbins;
		b = f >= nbins ? nbins - 1 : f > 0 ? (int)f : 0;
		bins[b]++;
	}
	return true;
}

/* ---- printing --------------------------------------------------------- */

static void
format_string_elem(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '\'');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'' || c == '\\')
			strbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addc(sb, (char)c);
	}
	strbuf_addc(sb, '\'');
}

static void
format_double(struct strbuf *sb, double v)
{
	char buf[48];

	if (isnan(v)) {
		strbuf_adds(sb, "nan");
		return;
	}
	if (isinf(v)) {
		strbuf_adds(sb, v < 0 ? "-inf" : "inf");
		return;
	}
	snprintf(buf, sizeof(buf), "%.6g", v);
	strbuf_adds(sb, buf);
	if (!strpbrk(buf, ".e"))
		strbuf_addc(sb, '.');   /* numpy prints 1.0 as "1." */
}

static void
format_elem(struct strbuf *sb, const struct td_tensor *t, int64_t i)
{
	const unsigned char *p = t->data ? (const unsigned char *)t->data + (size_t)i * td_dtype_size(t->dtype) : NULL;
	int64_t i64;
	uint64_t u64;
	double d[2];
	float f[2];

	switch (t->dtype) {
	case DTYPE_STRING:
		format_string_elem(sb, t->strings ? t->strings[i] : NULL);
		return;
	case DTYPE_BOOL:
		strbuf_adds(sb, p && *p ? "True" : "False");
		return;
	case DTYPE_INT64:
		memcpy(&i64, p, sizeof(i64));
		strbuf_addf(sb, "%" PRId64, i64);
		return;
	case DTYPE_UINT64:
		memcpy(&u64, p, sizeof(u64));
		strbuf_addf(sb, "%" PRIu64, u64);
		return;
	case DTYPE_COMPLEX64:
		memcpy(f, p, sizeof(f));
		d[0] = f[0];
		d[1] = f[1];
		break;
	case DTYPE_COMPLEX128:
		memcpy(d, p, sizeof(d));
		break;
	default:
		if (td_dtype_is_float(t->dtype))
			format_double(sb, raw_get(t->dtype, t->data, i));
		else
			strbuf_addf(sb, "%.0f", raw_get(t->dtype, t->data, i));
		return;
	}
	strbuf_addc(sb, '(');
	format_double(sb, d[0]);
	strbuf_addc(sb, d[1] < 0 || (d[1] == 0 && signbit(d[1])) ? '-' : '+');
	format_double(sb, fabs(d[1]));
	strbuf_adds(sb, "j)");
}

struct format_ctx {
	const struct td_tensor *t;
	const struct td_slice_view *v;
	int64_t edge;           /* elements kept at each end of an axis; 0 = all */
	size_t width;           /* pass 1 measures, pass 2 pads to it */
	bool measure;
	td_format_elem_fn on_elem;  /* optional: where each element went */
	void *arg;
	struct strbuf *sb;
	struct strbuf tmp;
};

static void
emit_elem(struct format_ctx *c, int64_t i)
{
	size_t len;

	strbuf_reset(&c->tmp);
	format_elem(&c->tmp, c->t, i);
	len = c->tmp.len;
	if (c->measure) {
		c->width = TD_MAX(c->width, len);
		return;
	}
	for (; len < c->width; len++)
		strbuf_addc(c->sb, ' ');
	if (c->on_elem)
		c->on_elem(c->arg, i, c->sb->len, c->tmp.len);
	strbuf_add(c->sb, c->tmp.buf, c->tmp.len);
}

static void
emit_sep(struct format_ctx *c, int axis)
{
	int k;

	if (c->measure)
		return;
	if (axis == c->v->ndims - 1) {
		strbuf_addc(c->sb, ' ');
		return;
	}
	for (k = axis; k < c->v->ndims - 1; k++)
		strbuf_addc(c->sb, '\n');
	for (k = 0; k <= axis; k++)
		strbuf_addc(c->sb, ' ');
}

static void
format_axis(struct format_ctx *c, int axis, int64_t off)
{
	int64_t n = c->v->count[axis], i;
	bool elide = c->edge && n > 2 * c->edge;

	if (!c->measure)
		strbuf_addc(c->sb, '[');
	for (i = 0; i < n; i++) {
		if (elide && i == c->edge) {
			if (!c->measure)
				strbuf_adds(c->sb, "...");
			emit_sep(c, axis);
			i = n - c->edge;
		}
		if (axis == c->v->ndims - 1)
			emit_elem(c, off + i * c->v->stride[axis]);
		else
			format_axis(c, axis + 1, off + i * c->v->stride[axis]);
		if (i + 1 < n)
			emit_sep(c, axis);
	}
	if (!c->measure)
		strbuf_addc(c->sb, ']');
}

enum td_status
td_tensor_format(const struct td_tensor *t, const struct td_slice *slice,
		 size_t max_elems, struct strbuf *sb, char *err, size_t errlen)
{
	return td_tensor_format_cb(t, slice, max_elems, sb, NULL, NULL, err, errlen);
}

enum td_status
td_tensor_format_cb(const struct td_tensor *t, const struct td_slice *slice,
		    size_t max_elems, struct strbuf *sb, td_format_elem_fn on_elem,
		    void *arg, char *err, size_t errlen)
{
	struct format_ctx c = { .t = t, .sb = sb, .on_elem = on_elem, .arg = arg };
	struct td_slice_view v;
	enum td_status st;
	int64_t total = 1;

	if (!t || (t->n > 0 && !t->data && !t->strings)) {
		snprintf(err, errlen, "no printable value for dtype %s", t ? td_dtype_name(t->dtype) : "?");
		return TD_ERR_UNSUPPORTED;
	}
	st = td_slice_view(t, slice, &v, err, errlen);
	if (st != TD_OK)
		return st;
	/* what the printer walks: a shape (4e9, 0) holds nothing but is
	 * 4e9 empty rows, elided like 4e9 elements */
	total = td_slice_view_cost(&v);
	c.v = &v;
	if (max_elems && total > 0 && (uint64_t)total > max_elems)
		c.edge = 3;
	if (v.ndims == 0) {
		emit_elem(&c, v.base);
	} else {
		c.measure = true;
		if (total > 0)
			format_axis(&c, 0, v.base);
		c.measure = false;
		format_axis(&c, 0, v.base);
	}
	strbuf_done(&c.tmp);
	return TD_OK;
}
