/*
 * tfdbg1_tensor.c - the TensorProto of a tfdbg v1 dump file.
 *
 * Decoding is tf_tensor.c's (shared with tfdbg2); what is v1-specific is
 * the rule for a tensor without data (FORMAT.md §5):
 * TensorFlow's v1 reader treats a proto with a dtype and a non-empty shape
 * but no values as an *uninitialised* tensor (an uninitialised variable),
 * not as zeros as MakeNdarray would.
 */
#include "tfdbg1_internal.h"

#include <stdio.h>

#include "reader/parse/tf_tensor.h"

static bool
has_values(const Tensorflow__TensorProto *tp)
{
	return tp->tensor_content.len || tp->n_string_val || tp->n_float_val || tp->n_double_val ||
	       tp->n_int_val || tp->n_int64_val || tp->n_bool_val || tp->n_half_val ||
	       tp->n_scomplex_val || tp->n_dcomplex_val || tp->n_uint32_val || tp->n_uint64_val;
}

/* Elements of the proto's shape; -1 if unknown. */
static int64_t
proto_elements(const Tensorflow__TensorProto *tp)
{
	int64_t n = 1;
	size_t i;

	if (!tp->tensor_shape)
		return 1;
	if (tp->tensor_shape->unknown_rank)
		return -1;
	for (i = 0; i < tp->tensor_shape->n_dim; i++) {
		int64_t d = tp->tensor_shape->dim[i]->size;

		if (d < 0)
			return -1;
		if (d && n > INT64_MAX / d)
			return -1;
		n *= d;
	}
	return n;
}

enum td_status
tfdbg1_tensor_decode(const Tensorflow__TensorProto *tp, struct td_tensor **out, bool *uninitialized,
		     char *err, size_t errlen)
{
	enum td_status st;
	int64_t n = proto_elements(tp);

	*out = NULL;
	*uninitialized = false;
	if (tp->dtype == 0 || n < 0)
		return TD_OK; /* placeholder or unknown shape: metadata only */
	if (n > 0 && !has_values(tp)) {
		*uninitialized = true;
		return TD_OK;
	}
	st = tf_tensor_decode(tp, out);
	if (st == TD_ERR_UNSUPPORTED || st == TD_ERR_TOO_LARGE)
		return TD_OK;   /* metadata only; a large value is summarised without it */
	if (st != TD_OK)
		snprintf(err, errlen, "tensor of %lld elements: %s", (long long)n, td_strerror(st));
	return st;
}
