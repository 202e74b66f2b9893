/*
 * tf_tensor.h - TensorFlow TensorProto decoding shared by the tfdbg v2 and
 * v1 readers (FORMAT.md §3).
 *
 * Maps TensorFlow DataType numbers to the neutral enum td_dtype and turns a
 * TensorProto into a struct td_tensor the way tensor_util.MakeNdarray does:
 * tensor_content first (raw little-endian elements; strings as n varint32
 * lengths then the bytes), else the typed repeated field of the dtype with
 * "edge" padding (the last value repeated up to the element count; no value
 * at all means zeros).  Not for: reading files or framing.
 */
#ifndef TD_TF_TENSOR_H
#define TD_TF_TENSOR_H

#include <stdbool.h>
#include <stddef.h>

#include "reader/base/tensor.h"
#include "tf_tensor.pb-c.h"

/* TensorFlow DataType number -> td_dtype.  Reference types (101..) map like
 * their base type; quantized ints map to the int of the same width;
 * unknown numbers (float8, int4, ...) give DTYPE_OTHER; 0 gives
 * DTYPE_INVALID. */
enum td_dtype tf_dtype_to_td(int tf_dtype);

/* Decodes p into a new tensor in *out (free with td_tensor_free()).
 * Returns TD_OK with *out == NULL for the DT_INVALID placeholder (tfdbg's
 * "no value"); TD_ERR_UNSUPPORTED when the shape is unknown (a dim < 0 or
 * unknown_rank); TD_ERR_CORRUPT when tensor_content does not hold the
 * element count of the shape (checked before anything is allocated);
 * TD_ERR_TOO_LARGE when the value is larger than TD_TENSOR_MAX_BYTES.
 * Resource, variant and unknown dtypes give a tensor with data == NULL. */
enum td_status tf_tensor_decode(const Tensorflow__TensorProto *p, struct td_tensor **out);

/* The summary of p's value without materialising it: tensor_content is
 * summarised in place, a typed field's explicit values are decoded (they
 * are bounded by the record) and the "edge" fill of the remaining
 * elements is added arithmetically, so a shape of 2^32 elements with one
 * value costs nothing.  Same errors as tf_tensor_decode() except
 * TD_ERR_TOO_LARGE; TD_OK with an empty summary for DT_INVALID. */
enum td_status tf_tensor_summarize(const Tensorflow__TensorProto *p, struct td_summary *out);

/* Unpacks a serialized TensorProto and decodes it as above (TD_ERR_DECODE
 * when the bytes are not a TensorProto). */
enum td_status tf_tensor_decode_bytes(const void *buf, size_t len, struct td_tensor **out);

/* Summarises a serialized TensorProto without allocating when its value is
 * in tensor_content with a known numeric dtype and shape (the FULL_TENSOR
 * index path).  Returns false when the fast path does not apply (typed
 * fields, strings, malformed bytes): the caller then decodes it fully. */
bool tf_tensor_summarize_bytes(const void *buf, size_t len, struct td_summary *out);

#endif
