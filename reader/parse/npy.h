/*
 * npy.h - the NumPy .npy file format (header versions 1.0, 2.0, 3.0).
 *
 * Parses the header dict tolerantly (MindSpore's C++ writer prints
 * "(2,3,)" and a trailing ", }", NumPy prints "(2, 3)") and turns the data
 * into a struct td_tensor in C order and host byte order.  Knows nothing of
 * MindSpore's directory layout; see FORMAT.md §4.
 */
#ifndef TD_NPY_H
#define TD_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/tensor.h"
#include "reader/base/util.h"

#define NPY_MAX_DIMS 32

struct npy_header {
	int major, minor;
	enum td_dtype dtype;        /* DTYPE_INVALID when descr is unsupported */
	char descr[16];             /* as written, e.g. "<f4" */
	size_t itemsize;            /* bytes per element in the file */
	bool big_endian;
	bool fortran_order;
	int rank;
	int64_t dims[NPY_MAX_DIMS];
	int64_t n;                  /* element count (1 for a scalar) */
	size_t data_offset;         /* where the data starts */
};

/* Parses the header at the start of buf (len bytes available).
 * dtype_hint is the dtype word of a MindSpore file name (DTYPE_INVALID if
 * none): with DTYPE_BFLOAT16 a "V2" descr is read as bfloat16.
 * Returns TD_ERR_CORRUPT (bad magic, bad dict, missing key),
 * TD_ERR_TRUNCATED (HLEN past the end), TD_ERR_UNSUPPORTED (descr) with a
 * message in err.  Does not look at the data. */
enum td_status npy_parse_header(const uint8_t *buf, size_t len, enum td_dtype dtype_hint,
				struct npy_header *h, char *err, size_t errlen);

/* Decodes a whole .npy image into a new tensor (*out, free with
 * td_tensor_free).  Big-endian data is byte-swapped, Fortran order is
 * transposed to C order.  TD_ERR_TRUNCATED when the data is shorter than
 * shape x itemsize, TD_ERR_NOMEM when it cannot be allocated. */
enum td_status npy_decode(const uint8_t *buf, size_t len, enum td_dtype dtype_hint,
			  struct td_tensor **out, char *err, size_t errlen);

/* Reads path (O_RDONLY) and decodes it as npy_decode does.  TD_ERR_NOENT /
 * TD_ERR_IO when the file cannot be read. */
enum td_status npy_read_file(const char *path, enum td_dtype dtype_hint,
			     struct td_tensor **out, char *err, size_t errlen);

/* Reads only the header of path (a few KiB at most) into h; *file_size gets
 * the file's size.  Same errors as npy_parse_header plus TD_ERR_IO. */
enum td_status npy_read_header(const char *path, enum td_dtype dtype_hint, struct npy_header *h,
			       uint64_t *file_size, char *err, size_t errlen);

/* Summarises n elements of dt stored at byte offset off of fd, reading
 * in chunks of a few MiB (bounded memory), byte-swapping when big_endian;
 * the holes of a sparse file are summarised as zeros without reading them.
 * Fills out as td_summarize_raw() would (no shape).  TD_ERR_TRUNCATED
 * when the file ends early, TD_ERR_NOMEM when the chunk buffer fails. */
enum td_status npy_summarize_region(int fd, uint64_t off, enum td_dtype dt, int64_t n,
				    bool big_endian, struct td_summary *out);
/* Summary of an .npy file's data (counts, min/max/mean, dtype, shape)
 * without loading it whole.  Errors as npy_read_header plus
 * TD_ERR_TRUNCATED for short data. */
enum td_status npy_summarize_file(const char *path, enum td_dtype dtype_hint,
				  struct td_summary *out, char *err, size_t errlen);

/* Reads a whole file into a malloc'd buffer (checked allocation).  Shared
 * by the MindSpore readers.  TD_ERR_NOENT, TD_ERR_IO, TD_ERR_NOMEM. */
enum td_status npy_slurp(const char *path, uint8_t **buf, size_t *len);

#endif
