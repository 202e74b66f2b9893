/*
 * pt.h - one tensor saved by torch.save (the ZIP layout of PyTorch >= 1.6),
 * read without PyTorch.
 *
 * The archive holds a pickle (`<prefix>/data.pkl`) that rebuilds the
 * tensor from a storage record (`<prefix>/data/<key>`), an offset, a size
 * and a stride.  The pickle is untrusted input: it is interpreted by a
 * small machine that knows only the opcodes and the globals of that layout
 * (torch._utils._rebuild_tensor_v2, _rebuild_parameter, the storage types,
 * collections.OrderedDict) and refuses anything else; nothing is ever
 * called or imported, and every size is checked against the archive before
 * memory is allocated.  Not for: archives of several tensors (a state
 * dict), tensors on other devices' layouts, quantized or sparse tensors,
 * the legacy (pre-1.6) tar format.  FORMAT.md §7.
 */
#ifndef TD_PT_H
#define TD_PT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/tensor.h"
#include "reader/base/util.h"

#define PT_MAX_DIMS 32
#define PT_MAX_PICKLE ((size_t)1 << 20)     /* data.pkl bytes read at most */

/* What the pickle says of the tensor. */
struct pt_header {
	enum td_dtype dtype;
	int rank;
	int64_t dims[PT_MAX_DIMS];
	int64_t strides[PT_MAX_DIMS];       /* in elements */
	int64_t storage_offset;             /* in elements */
	int64_t storage_numel;              /* the storage's element count */
	char key[64];                       /* the storage record: data/<key> */
	bool requires_grad;
	int64_t n;                          /* elements of the tensor */
};

/* Interprets a data.pkl image.  TD_ERR_UNSUPPORTED for an opcode or a
 * global outside the layout (err names it and its offset), TD_ERR_CORRUPT
 * for a malformed pickle or arguments that do not describe a tensor (a
 * negative size, a stride or offset reaching past the storage, a product
 * overflowing int64), TD_ERR_TOO_LARGE past the machine's limits (stack,
 * memo, nesting, rank). */
enum td_status pt_parse_pickle(const uint8_t *pkl, size_t len, struct pt_header *h,
			       char *err, size_t errlen);

/* Decodes the .pt image buf[0, len) into a new tensor in C order and host
 * byte order (*out, td_tensor_free).  The errors of pt_parse_pickle and
 * zip_open, plus TD_ERR_NOTFOUND when the archive has no data.pkl or no
 * record for the storage, TD_ERR_TRUNCATED when the record is shorter than
 * the storage, TD_ERR_TOO_LARGE past TD_TENSOR_MAX_BYTES. */
enum td_status pt_decode(const uint8_t *buf, size_t len, struct td_tensor **out,
			 char *err, size_t errlen);

/* The same for a file, read with pread (only the directory, the pickle and
 * the elements the tensor uses).  TD_ERR_NOENT / TD_ERR_IO when the file
 * cannot be read. */
enum td_status pt_read_file(const char *path, struct td_tensor **out, char *err, size_t errlen);

/* The pickle's description of a file's tensor, without its data. */
enum td_status pt_read_header(const char *path, struct pt_header *h, char *err, size_t errlen);

/* Summary of a file's tensor (counts, min/max/mean, dtype, shape, as
 * td_tensor_summarize); a contiguous tensor is summarised in chunks from
 * the file without being loaded whole.  Errors as pt_read_file. */
enum td_status pt_summarize_file(const char *path, struct td_summary *out,
				 char *err, size_t errlen);

#endif
