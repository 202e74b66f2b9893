/*
 * tensor.h - format-neutral tensor values and tensor summaries.
 *
 * Every reader turns whatever its format stores about a tensor (a tfdbg v2
 * health vector, a v1 DebugNumericSummary, a MindSpore statistic.csv row, a
 * full value) into one struct td_summary, and full values into a
 * struct td_tensor.  The model and the TUI only ever see these.  Nothing here
 * knows a file format: the per-format dtype numbering is mapped by readers.
 */
#ifndef TD_TENSOR_H
#define TD_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* id, name, element size in bytes, largest finite value (0: none, or not
 * one number: bool, complex, string, opaque) */
#define DTYPE_INFO(_) \
	_(INVALID,  "invalid",   0, 0) \
	_(FLOAT16,  "float16",   2, 65504.0) \
	_(BFLOAT16, "bfloat16",  2, 3.3895313892515355e38) \
	_(FLOAT32,  "float32",   4, FLT_MAX) \
	_(FLOAT64,  "float64",   8, DBL_MAX) \
	_(INT8,     "int8",      1, INT8_MAX) \
	_(INT16,    "int16",     2, INT16_MAX) \
	_(INT32,    "int32",     4, INT32_MAX) \
	_(INT64,    "int64",     8, (double)INT64_MAX) \
	_(UINT8,    "uint8",     1, UINT8_MAX) \
	_(UINT16,   "uint16",    2, UINT16_MAX) \
	_(UINT32,   "uint32",    4, UINT32_MAX) \
	_(UINT64,   "uint64",    8, (double)UINT64_MAX) \
	_(BOOL,     "bool",      1, 0) \
	_(COMPLEX64,  "complex64",   8, 0) \
	_(COMPLEX128, "complex128", 16, 0) \
	_(STRING,   "string",    0, 0) \
	_(RESOURCE, "resource",  0, 0) \
	_(VARIANT,  "variant",   0, 0) \
	_(OTHER,    "other",     0, 0)

enum td_dtype {
#define TD_DTYPE_ENUM(name, str, size, max) DTYPE_##name,
	DTYPE_INFO(TD_DTYPE_ENUM)
#undef TD_DTYPE_ENUM
	DTYPE_COUNT
};

/* Name ("float32") and element size in bytes (0 when variable or opaque). */
const char *td_dtype_name(enum td_dtype dt);
size_t td_dtype_size(enum td_dtype dt);
bool td_dtype_is_float(enum td_dtype dt);   /* float16, bfloat16, float32, float64 */
/* The largest finite value of dt (float16 65504, float32 FLT_MAX, int8 127,
 * uint64 2^64 as a double...), 0 when dt has none that is one number (bool,
 * complex, string, resource, variant, invalid).  The one table of dtype
 * ranges: causes, conditions (dtype_max) and watches use it. */
double td_dtype_max(enum td_dtype dt);
/* Parses a name as printed by td_dtype_name ("float32"); DTYPE_INVALID if unknown. */
enum td_dtype td_dtype_from_name(const char *name);

#define TD_MAX_DIMS 8

/* Which fields of a summary are known.  A mode that does not carry a count
 * leaves its bit clear and the JSON shows null. */
enum td_summary_field {
	SUM_DTYPE    = 1u << 0,
	SUM_RANK     = 1u << 1,
	SUM_SHAPE    = 1u << 2,   /* dims[] valid (maybe only the last TD_MAX_DIMS) */
	SUM_ELEMENTS = 1u << 3,
	SUM_NAN      = 1u << 4,
	SUM_NEG_INF  = 1u << 5,
	SUM_POS_INF  = 1u << 6,
	SUM_NEGATIVE = 1u << 7,   /* finite < 0 */
	SUM_ZERO     = 1u << 8,
	SUM_POSITIVE = 1u << 9,   /* finite > 0 */
	SUM_NONFINITE = 1u << 10, /* has_inf_or_nan valid */
	SUM_MINMAX   = 1u << 11,  /* min, max valid (finite elements only) */
	SUM_MEAN     = 1u << 12,
	SUM_TENSOR_ID = 1u << 13,
	SUM_UNINITIALIZED = 1u << 14, /* value known to be uninitialised */
	SUM_ABS_MEAN = 1u << 15,  /* mean of |x| over finite elements */
	SUM_STD      = 1u << 16,  /* population standard deviation, finite elements */
	SUM_L2NORM   = 1u << 17,  /* sqrt of the sum of squares, finite elements */
	SUM_PERCENTILES = 1u << 18, /* pct[]: computed from values only (never a dump's) */
};

/* The percentiles a summary carries (pct[k] is the TD_PERCENTILES[k]-th),
 * numpy's default "linear" method over the finite elements. */
#define TD_NPERCENTILES 5
extern const double TD_PERCENTILES[TD_NPERCENTILES];   /* 1 25 50 75 99 */

/* One tensor summary.  Plain data, copied by value. */
struct td_summary {
	uint32_t known;             /* enum td_summary_field bits */
	enum td_dtype dtype;
	int rank;
	int ndims;                  /* entries valid in dims[] */
	bool dims_truncated;        /* rank > TD_MAX_DIMS: dims[] holds the last ones */
	int64_t dims[TD_MAX_DIMS];
	int64_t elements;
	int64_t nan, neg_inf, pos_inf;
	int64_t negative, zero, positive;
	bool has_inf_or_nan;
	double min, max, mean;
	int64_t tensor_id;
	double abs_mean, std, l2norm;   /* SUM_ABS_MEAN, SUM_STD, SUM_L2NORM */
	double pct[TD_NPERCENTILES];    /* SUM_PERCENTILES */
};

/* The fields td_summary_complete() fills in. */
#define TD_SUMMARY_VALUE_FIELDS \
	(SUM_DTYPE | SUM_RANK | SUM_SHAPE | SUM_ELEMENTS | SUM_NAN | SUM_NEG_INF | SUM_POS_INF | \
	 SUM_NEGATIVE | SUM_ZERO | SUM_POSITIVE | SUM_NONFINITE | SUM_MINMAX | SUM_MEAN | \
	 SUM_ABS_MEAN | SUM_STD | SUM_L2NORM | SUM_PERCENTILES)
/* Fills the fields of dst that dst does not know (a dump's statistics)
 * from vals (computed from the tensor's values): what the dump stored
 * wins, the values give the rest.  Returns the bits it added. */
uint32_t td_summary_complete(struct td_summary *dst, const struct td_summary *vals);

/* True when the summary proves a NaN or Inf (has_inf_or_nan or a count). */
bool td_summary_nonfinite(const struct td_summary *s);

/* A full tensor value.  data holds n elements of dtype, little-endian host
 * order (readers byte-swap).  For DTYPE_STRING, strings[] holds n
 * NUL-terminated copies and data is NULL. */
struct td_tensor {
	enum td_dtype dtype;
	int rank;
	int64_t *dims;              /* rank entries, outermost first */
	int64_t n;                  /* element count */
	void *data;                 /* n * td_dtype_size(dtype) bytes */
	char **strings;
};

/* The largest tensor value tdbg decodes into memory (bytes of element data,
 * or 8 bytes per string element).  A larger value is summarised without
 * being materialised where the format allows it (a repeated fill), else
 * reported as TD_ERR_TOO_LARGE; the README lists this limit. */
#define TD_TENSOR_MAX_BYTES ((uint64_t)256 << 20)

/* Element count of a shape: false when a dim is negative or the product
 * overflows int64. */
bool td_shape_elements(int rank, const int64_t *dims, int64_t *n);
/* Whether a tensor of n elements of dt fits TD_TENSOR_MAX_BYTES. */
bool td_tensor_fits(enum td_dtype dt, int64_t n);

/* Allocates a tensor of dtype and shape with zeroed storage.  Returns NULL and
 * TD_ERR_TOO_LARGE via *st when the shape overflows or is larger than
 * TD_TENSOR_MAX_BYTES, TD_ERR_NOMEM when the allocation fails. */
struct td_tensor *td_tensor_new(enum td_dtype dt, int rank, const int64_t *dims, enum td_status *st);
void td_tensor_free(struct td_tensor *t);
/* Element i as a double (complex: the real part; bool: 0/1; string: NaN). */
double td_tensor_get(const struct td_tensor *t, int64_t i);
/* Computes the full summary (dtype, shape, counts, min/max/mean) of t. */
void td_tensor_summarize(const struct td_tensor *t, struct td_summary *out);
/* Summary of raw little-endian element bytes without building a tensor. */
void td_summarize_raw(enum td_dtype dt, const void *data, int64_t n, struct td_summary *out);
/* Summary of n elements of which the first k are data[0..k) and the other
 * n - k repeat the last of them (k == 0: all zeros), computed without
 * materialising them: the "edge" fill of a typed TensorProto.  k <= n. */
void td_summarize_fill(enum td_dtype dt, const void *data, int64_t k, int64_t n,
		       struct td_summary *out);

/* IEEE half and bfloat16 bit patterns to float. */
float td_half_to_float(uint16_t h);
float td_bf16_to_float(uint16_t b);

/* numpy-style slicing: "[0:10, :]", "[3]", "[:, -1]", "[::2]", "[..., 0]"
 * (one "..." stands for every axis not named), "[0,]" (a trailing comma).
 * td_slice_parse() returns TD_ERR_ARGS with a message in err on bad input;
 * every slice error, here or in td_slice_view(), starts "bad slice". */
struct td_slice_dim {
	bool index;                 /* a single index, removes the dimension */
	int64_t start, stop, step;
	bool has_start, has_stop;
};
struct td_slice {
	int ndims;
	struct td_slice_dim dims[TD_MAX_DIMS];
	bool has_ellipsis;          /* "...": full ranges for the axes not named, */
	int ellipsis;               /* inserted before dims[ellipsis] */
};
enum td_status td_slice_parse(const char *text, struct td_slice *out, char *err, size_t errlen);

/* A slice applied to a tensor: the selected elements are at
 * base + sum(i_k * stride[k]) for i_k < count[k], k < ndims (indexed axes
 * are gone).  td_slice_view() resolves s (NULL = everything) against t's
 * shape with numpy's rules; TD_ERR_ARGS / TD_ERR_RANGE with a message in
 * err for too many indices or an index out of bounds. */
struct td_slice_view {
	int ndims;
	int64_t base;
	int64_t count[TD_MAX_DIMS];
	int64_t stride[TD_MAX_DIMS];
};
enum td_status td_slice_view(const struct td_tensor *t, const struct td_slice *s,
			     struct td_slice_view *v, char *err, size_t errlen);
/* Elements a view selects (0 when any count is 0; saturates at INT64_MAX). */
int64_t td_slice_view_elements(const struct td_slice_view *v);
/* What a printer walks: the product of the counts before the first zero
 * count (a view of shape (4e9, 0) selects nothing but is 4e9 empty rows),
 * saturating.  Printers elide or refuse past their limit on this. */
int64_t td_slice_view_cost(const struct td_slice_view *v);
/* Prints the selected part of t numpy-style into sb, eliding with "..." past
 * max_elems elements.  A NULL slice prints the whole tensor. */
enum td_status td_tensor_format(const struct td_tensor *t, const struct td_slice *slice,
				size_t max_elems, struct strbuf *sb, char *err, size_t errlen);
/* The same, calling on_elem(arg, i, off, len) for every element printed: i
 * its index in t's data, off and len where its text (without the padding)
 * lies in sb.  Lets a viewer find, colour and jump to elements. */
typedef void (*td_format_elem_fn)(void *arg, int64_t i, size_t off, size_t len);
enum td_status td_tensor_format_cb(const struct td_tensor *t, const struct td_slice *slice,
				   size_t max_elems, struct strbuf *sb, td_format_elem_fn on_elem,
				   void *arg, char *err, size_t errlen);
/* The storage index (into t's data) of the k-th element of view v in
 * row-major order, 0 <= k < td_slice_view_elements(v). */
int64_t td_slice_view_index(const struct td_slice_view *v, int64_t k);
/* Summary (td_tensor_summarize) of the elements v selects of t. */
void td_view_summarize(const struct td_tensor *t, const struct td_slice_view *v,
		       struct td_summary *out);
/* Adds the TD_PERCENTILES of the finite elements v (NULL: all) selects of t
 * to s (pct[], SUM_PERCENTILES).  Returns false, leaving s alone, when
 * there is no finite element, t has no numeric data, or more elements
 * than TD_PERCENTILE_MAX (sorting a copy would cost too much memory). */
#define TD_PERCENTILE_MAX ((int64_t)16 << 20)
bool td_tensor_percentiles(const struct td_tensor *t, const struct td_slice_view *v,
			   struct td_summary *s);

/* Histogram of the finite values of t into nbins counts between lo and hi
 * (set from the finite min/max).  Returns false if t has no finite value. */
bool td_tensor_histogram(const struct td_tensor *t, uint64_t *bins, int nbins, double *lo, double *hi);

#endif
