/*
 * npy.c - .npy header parsing and data decoding (FORMAT.md §4).
 *
 * The header dict is parsed with a tiny tolerant scanner, not a Python
 * literal parser: it finds the three keys wherever they are, accepts either
 * quote style, spaces anywhere, a trailing comma in the shape tuple and
 * after the last item.  Every length is checked against the bytes present.
 * Not for: .npz archives, object arrays, structured dtypes.
 */
#include "npy.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/base/fileio.h"

static const uint8_t npy_magic[6] = { 0x93, 'N', 'U', 'M', 'P', 'Y' };

/* Finds 'key' or "key" in the dict text and returns the text after the
 * colon that follows it (spaces skipped), or NULL. */
static const char *
dict_value(const char *text, size_t len, const char *key)
{
	size_t klen = strlen(key);
	size_t i;

	for (i = 0; i + klen + 2 <= len; i++) {
		char q = text[i];
		size_t j;

		if ((q != '\'' && q != '"') || memcmp(text + i + 1, key, klen) != 0 ||
		    text[i + 1 + klen] != q)
			continue;
		j = i + klen + 2;
		while (j < len && (text[j] == ' ' || text[j] == '\t'))
			j++;
		if (j >= len || text[j] != ':')
			continue;
		j++;
		while (j < len && (text[j] == ' ' || text[j] == '\t'))
			j++;
		return j < len ? text + j : NULL;
	}
	return NULL;
}

struct descr_map {
	char kind;
	size_t size;
	enum td_dtype dtype;
};

static const struct descr_map descr_table[] = {
	{ 'b', 1, DTYPE_BOOL },    { '?', 1, DTYPE_BOOL },
	{ 'i', 1, DTYPE_INT8 },    { 'i', 2, DTYPE_INT16 },
	{ 'i', 4, DTYPE_INT32 },   { 'i', 8, DTYPE_INT64 },
	{ 'u', 1, DTYPE_UINT8 },   { 'u', 2, DTYPE_UINT16 },
	{ 'u', 4, DTYPE_UINT32 },  { 'u', 8, DTYPE_UINT64 },
	{ 'f', 2, DTYPE_FLOAT16 }, { 'f', 4, DTYPE_FLOAT32 },
	{ 'f', 8, DTYPE_FLOAT64 }, { 'c', 8, DTYPE_COMPLEX64 },
	{ 'c', 16, DTYPE_COMPLEX128 },
	{ 'T', 2, DTYPE_BFLOAT16 },   /* MindSpore's own bfloat16 code, FORMAT.md §4 */
};

/* Parses "<f4", "|b1", ">i8", "<T2", "|V2". */
static enum td_status
parse_descr(const char *v, const char *end, enum td_dtype hint, struct npy_header *h,
	    char *err, size_t errlen)
{
	char q = *v, *e;
	const char *s = v + 1, *close;
	unsigned long size;
	size_t i;

	if ((q != '\'' && q != '"') || !(close = memchr(s, q, end - s)) ||
	    (size_t)(close - s) >= sizeof(h->descr)) {
		snprintf(err, errlen, "descr is not a short quoted string");
		return TD_ERR_CORRUPT;
	}
	memcpy(h->descr, s, close - s);
	h->descr[close - s] = '\0';
	s = h->descr;
	h->big_endian = (*s == '>');
	if (*s == '<' || *s == '>' || *s == '|' || *s == '=')
		s++;
	if (!*s || !s[1]) {
		snprintf(err, errlen, "descr '%s' too short", h->descr);
		return TD_ERR_CORRUPT;
	}
	errno = 0;
	size = strtoul(s + 1, &e, 10);
	if (*e || errno || size == 0 || size > 16) {
		snprintf(err, errlen, "descr '%s' has a bad item size", h->descr);
		return TD_ERR_UNSUPPORTED;
	}
	h->itemsize = size;
	h->dtype = DTYPE_INVALID;
	for (i = 0; i < TD_ARRAY_SIZE(descr_table); i++)
		if (descr_table[i].kind == *s && descr_table[i].size == size)
			h->dtype = descr_table[i].dtype;
	if (*s == 'V' && size == 2 && hint == DTYPE_BFLOAT16)
		h->dtype = DTYPE_BFLOAT16;
	if (h->dtype == DTYPE_INVALID) {
		snprintf(err, errlen, "descr '%s' is not a supported dtype", h->descr);
		return TD_ERR_UNSUPPORTED;
	}
	return TD_OK;
}

/* Parses "(2,3,)", "(2, 3)", "(4,)", "()". */
static enum td_status
parse_shape(const char *v, const char *end, struct npy_header *h, char *err, size_t errlen)
{
	const char *p = v;

	if (*p != '(') {
		snprintf(err, errlen, "shape is not a tuple");
		return TD_ERR_CORRUPT;
	}
	p++;
	h->rank = 0;
	h->n = 1;
	for (;;) {
		char *e;
		long long d;

		while (p < end && (*p == ' ' || *p == ','))
			p++;
		if (p >= end)
			break;
		if (*p == ')') {
			return TD_OK;
		}
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		d = strtoll(p, &e, 10);
		if (errno || e > end || d < 0 || h->rank >= NPY_MAX_DIMS)
			break;
		h->dims[h->rank++] = d;
		if (d && h->n > INT64_MAX / d) {
			snprintf(err, errlen, "shape element count overflows");
			return TD_ERR_CORRUPT;
		}
		h->n *= d;
		p = e;
	}
	snprintf(err, errlen, "shape tuple is malformed");
	return TD_ERR_CORRUPT;
}

static enum td_status
parse_dict(const char *text, size_t len, enum td_dtype hint, struct npy_header *h,
	   char *err, size_t errlen)
{
	const char *end = text + len;
	const char *d = dict_value(text, len, "descr");
	const char *f = dict_value(text, len, "fortran_order");
	const char *s = dict_value(text, len, "shape");
	enum td_status st;

	if (!d || !f || !s) {
		snprintf(err, errlen, "header dict lacks '%s'",
			 !d ? "descr" : !f ? "fortran_order" : "shape");
		return TD_ERR_CORRUPT;
	}
	if ((st = parse_descr(d, end, hint, h, err, errlen)) != TD_OK)
		return st;
	if (end - f >= 4 && memcmp(f, "True", 4) == 0)
		h->fortran_order = true;
	else if (end - f >= 5 && memcmp(f, "False", 5) == 0)
		h->fortran_order = false;
	else {
		snprintf(err, errlen, "fortran_order is neither True nor False");
		return TD_ERR_CORRUPT;
	}
	return parse_shape(s, end, h, err, errlen);
}

enum td_status
npy_parse_header(const uint8_t *buf, size_t len, enum td_dtype dtype_hint,
		 struct npy_header *h, char *err, size_t errlen)
{
	size_t lenfield, hlen, start;
	enum td_status st;
	char *text;

	memset(h, 0, sizeof(*h));
	if (len < 10 || memcmp(buf, npy_magic, sizeof(npy_magic)) != 0) {
		snprintf(err, errlen, "not an .npy file (bad magic)");
		return TD_ERR_CORRUPT;
	}
	h->major = buf[6];
	h->minor = buf[7];
	if (h->major < 1 || h->major > 3) {
		snprintf(err, errlen, "unsupported .npy version %d.%d", h->major, h->minor);
		return TD_ERR_UNSUPPORTED;
	}
	lenfield = h->major == 1 ? 2 : 4;
	if (len < 8 + lenfield) {
		snprintf(err, errlen, "header length field cut off");
		return TD_ERR_TRUNCATED;
	}
	hlen = buf[8] | (size_t)buf[9] << 8;
	if (lenfield == 4)
		hlen |= (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
	start = 8 + lenfield;
	if (hlen > len - start) {
		snprintf(err, errlen, "header length %zu past the end (%zu bytes left)",
			 hlen, len - start);
		return TD_ERR_TRUNCATED;
	}
	h->data_offset = start + hlen;
	/* a NUL-terminated copy: strtol() must not run into the data */
	text = xstrndup((const char *)buf + start, hlen);
	st = parse_dict(text, hlen, dtype_hint, h, err, errlen);
	free(text);
	return st;
}

static void
swap_bytes(uint8_t *p, int64_t count, size_t width)
{
	int64_t i;
	size_t a;

	if (width < 2)
		return;
	for (i = 0; i < count; i++, p += width)
		for (a = 0; a < width / 2; a++) {
			uint8_t t = p[a];

			p[a] = p[width - 1 - a];
			p[width - 1 - a] = t;
		}
}

/* Copies column-major src into row-major dst for shape dims. */
static void
fortran_to_c(uint8_t *dst, const uint8_t *src, const int64_t *dims, int rank, int64_t n,
	     size_t width)
{
	int64_t idx[NPY_MAX_DIMS] = {0};
	int64_t i;
	int k;

	for (i = 0; i < n; i++) {
		int64_t off = 0, stride = 1;

		for (k = 0; k < rank; k++) {
			off += idx[k] * stride;
			stride *= dims[k];
		}
		memcpy(dst + i * width, src + off * width, width);
		for (k = rank - 1; k >= 0; k--) {
			if (++idx[k] < dims[k])
				break;
			idx[k] = 0;
		}
	}
}

enum td_status
npy_decode(const uint8_t *buf, size_t len, enum td_dtype dtype_hint,
	   struct td_tensor **out, char *err, size_t errlen)
{
	struct npy_header h;
	struct td_tensor *t;
	enum td_status st;
	size_t bytes;

	*out = NULL;
	if ((st = npy_parse_header(buf, len, dtype_hint, &h, err, errlen)) != TD_OK)
		return st;
	if (h.itemsize != td_dtype_size(h.dtype) ||
	    (uint64_t)h.n > SIZE_MAX / h.itemsize) {
		snprintf(err, errlen, "descr '%s' does not fit %s", h.descr, td_dtype_name(h.dtype));
		return TD_ERR_UNSUPPORTED;
	}
	bytes = (size_t)h.n * h.itemsize;
	if (bytes > len - h.data_offset) {
		snprintf(err, errlen, "data is %zu bytes, shape needs %zu",
			 len - h.data_offset, bytes);
		return TD_ERR_TRUNCATED;
	}
	t = td_tensor_new(h.dtype, h.rank, h.dims, &st);
	if (!t) {
		snprintf(err, errlen, "cannot allocate %zu bytes", bytes);
		return st == TD_OK ? TD_ERR_NOMEM : st;
	}
	if (h.fortran_order && h.rank > 1)
		fortran_to_c(t->data, buf + h.data_offset, h.dims, h.rank, h.n, h.itemsize);
	else if (bytes)
		memcpy(t->data, buf + h.data_offset, bytes);
	if (h.big_endian) {
		bool complex = h.dtype == DTYPE_COMPLEX64 || h.dtype == DTYPE_COMPLEX128;

		swap_bytes(t->data, complex ? h.n * 2 : h.n, complex ? h.itemsize / 2 : h.itemsize);
	}
	*out = t;
	return TD_OK;
}

enum td_status
npy_slurp(const char *path, uint8_t **buf, size_t *len)
{
	char err[256];

	return td_read_file(path, UINT64_MAX, (char **)buf, len, err, sizeof err);
}


/* Reads and parses the header of an open file. */
static enum td_status
header_from_fd(int fd, enum td_dtype dtype_hint, struct npy_header *h, uint64_t *file_size,
	       char *err, size_t errlen)
{
	uint8_t small[4096], *buf = small;
	struct stat sb;
	ssize_t r;
	enum td_status st;

	*file_size = fstat(fd, &sb) == 0 ? (uint64_t)sb.st_size : 0;
	r = pread(fd, small, sizeof(small), 0);
	/* a v2/v3 header longer than the first read: read exactly that much */
	if (r == (ssize_t)sizeof(small) && small[6] >= 2) {
		size_t need = 12 + (small[8] | (size_t)small[9] << 8 | (size_t)small[10] << 16 |
				    (size_t)small[11] << 24);

		if (need > sizeof(small) && need <= *file_size && (buf = malloc(need)))
			r = pread(fd, buf, need, 0);
		else
			buf = small;
	}
	if (r < 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		st = TD_ERR_IO;
	} else {
		st = npy_parse_header(buf, (size_t)r, dtype_hint, h, err, errlen);
	}
	if (buf != small)
		free(buf);
	return st;
}

enum td_status
npy_read_header(const char *path, enum td_dtype dtype_hint, struct npy_header *h,
		uint64_t *file_size, char *err, size_t errlen)
{
	enum td_status st;
	int fd;

	*file_size = 0;
	if ((fd = td_open_regular(path, NULL, &st, err, errlen)) < 0)
		return st;
	st = header_from_fd(fd, dtype_hint, h, file_size, err, errlen);
	close(fd);
	return st;
}

/* Adds part (a summary of more elements of the same tensor) into acc. */
static void
summary_merge(struct td_summary *acc, const struct td_summary *part)
{
	int64_t fa = acc->negative + acc->zero + acc->positive;
	int64_t fp = part->negative + part->zero + part->positive;

	if (part->known & SUM_MINMAX) {
		if (!(acc->known & SUM_MINMAX)) {
			acc->min = part->min;
			acc->max = part->max;
		} else {
			acc->min = TD_MIN(acc->min, part->min);
			acc->max = TD_MAX(acc->max, part->max);
		}
	}
	if ((part->known & SUM_MEAN) && fa + fp > 0)
		acc->mean = ((acc->known & SUM_MEAN) ? acc->mean * (double)fa : 0) / (double)(fa + fp) +
			    part->mean * ((double)fp / (double)(fa + fp));
	if ((part->known & SUM_ABS_MEAN) && fa + fp > 0)
		acc->abs_mean = ((acc->known & SUM_ABS_MEAN) ? acc->abs_mean * (double)fa : 0) /
				(double)(fa + fp) + part->abs_mean * ((double)fp / (double)(fa + fp));
	if ((part->known & SUM_L2NORM) && fa + fp > 0) {
		double sq = ((acc->known & SUM_L2NORM) ? acc->l2norm * acc->l2norm : 0) +
			    part->l2norm * part->l2norm;
		double var = sq / (double)(fa + fp) - acc->mean * acc->mean;

		acc->l2norm = sqrt(sq);
		acc->std = var > 0 ? sqrt(var) : 0;
	}
	acc->known |= part->known & (SUM_MINMAX | SUM_MEAN | SUM_ABS_MEAN | SUM_STD | SUM_L2NORM);
	acc->elements += part->elements;
	acc->nan += part->nan;
	acc->neg_inf += part->neg_inf;
	acc->pos_inf += part->pos_inf;
	acc->negative += part->negative;
	acc->zero += part->zero;
	acc->positive += part->positive;
	acc->has_inf_or_nan |= part->has_inf_or_nan;
}

#define NPY_CHUNK ((size_t)4 << 20)

/* Elements from element done on that lie wholly in a hole of a sparse
 * file (SEEK_DATA): they read as zeros, so they are summarised without
 * being read (a 4 GB sparse .npy costs what its data costs).  0 when the
 * next bytes are data or the file system cannot say. */
static int64_t
hole_elements(int fd, uint64_t pos, size_t item, int64_t left)
{
#ifdef SEEK_DATA
	off_t next = lseek(fd, (off_t)pos, SEEK_DATA);

	if (next < 0)   /* ENXIO: only a hole is left (the size was checked) */
		return errno == ENXIO ? left : 0;
	if ((uint64_t)next > pos)
		return TD_MIN(left, (int64_t)(((uint64_t)next - pos) / item));
#else
	(void)fd; (void)pos; (void)item; (void)left;
#endif
	return 0;
}

/* The summary of k zero elements of dt: one zero, its counts times k. */
static void
zeros_summary(enum td_dtype dt, size_t item, int64_t k, struct td_summary *s)
{
	uint8_t zero[16] = {0};

	td_summarize_raw(dt, item <= sizeof zero ? zero : NULL, item <= sizeof zero ? 1 : 0, s);
	s->elements *= k;
	s->nan *= k;
	s->neg_inf *= k;
	s->pos_inf *= k;
	s->negative *= k;
	s->zero *= k;
	s->positive *= k;
}

enum td_status
npy_summarize_region(int fd, uint64_t off, enum td_dtype dt, int64_t n, bool big_endian,
		     struct td_summary *out)
{
	size_t item = td_dtype_size(dt), per, got;
	bool complex = dt == DTYPE_COMPLEX64 || dt == DTYPE_COMPLEX128;
	uint8_t *buf;
	int64_t done = 0;

	td_summarize_raw(dt, NULL, 0, out);   /* the empty summary: known bits set */
	if (!item || n <= 0)
		return TD_OK;
	per = (size_t)TD_MIN((int64_t)(NPY_CHUNK / item), n);   /* small tensors: small buffer */
	if (!(buf = malloc(per * item)))
		return TD_ERR_NOMEM;
	while (done < n) {
		int64_t k = hole_elements(fd, off + (uint64_t)done * item, item, n - done);
		struct td_summary part;

		if (k > 0) {
			zeros_summary(dt, item, k, &part);
			summary_merge(out, &part);
			done += k;
			continue;
		}
		k = TD_MIN((int64_t)per, n - done);
		for (got = 0; got < (size_t)k * item;) {
			ssize_t r = pread(fd, buf + got, (size_t)k * item - got,
					  (off_t)(off + (uint64_t)done * item + got));

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				free(buf);
				return TD_ERR_TRUNCATED;
			}
			got += (size_t)r;
		}
		if (big_endian)
			swap_bytes(buf, complex ? k * 2 : k, complex ? item / 2 : item);
		td_summarize_raw(dt, buf, k, &part);
		summary_merge(out, &part);
		done += k;
	}
	free(buf);
	out->elements = n;
	return TD_OK;
}

/* The summary of n items of dt at p (swapped in place when big-endian),
 * the way npy_summarize_region() builds it from one chunk. */
static void
summarize_bytes(uint8_t *p, enum td_dtype dt, int64_t n, bool big_endian, struct td_summary *out)
{
	size_t item = td_dtype_size(dt);
	bool complex = dt == DTYPE_COMPLEX64 || dt == DTYPE_COMPLEX128;
	struct td_summary part;

	td_summarize_raw(dt, NULL, 0, out);
	if (!item || n <= 0)
		return;
	if (big_endian)
		swap_bytes(p, complex ? n * 2 : n, complex ? item / 2 : item);
	td_summarize_raw(dt, p, n, &part);
	summary_merge(out, &part);
	out->elements = n;
}

/* A file of at most NPY_CHUNK bytes is read whole with one call (a dump of
 * 300,000 small .npy files on a network file system pays for each call,
 * issue 18); *h and *size come from those bytes, and *buf holds them. */
static enum td_status
read_small(int fd, uint64_t *size, uint8_t **buf, char *err, size_t errlen)
{
	size_t got = 0;

	if (!(*buf = malloc(*size ? (size_t)*size : 1)))
		return TD_ERR_NOMEM;
	while (got < *size) {
		ssize_t r = pread(fd, *buf + got, (size_t)*size - got, (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s", strerror(errno));
			free(*buf);
			*buf = NULL;
			return TD_ERR_IO;
		}
		if (r == 0)
			break;          /* the file shrank: what is there */
		got += (size_t)r;
	}
	*size = got;
	return TD_OK;
}

enum td_status
npy_summarize_file(const char *path, enum td_dtype dtype_hint, struct td_summary *out,
		   char *err, size_t errlen)
{
	struct npy_header h;
	uint64_t size;
	uint8_t *whole = NULL;
	enum td_status st;
	int fd, i;

	memset(out, 0, sizeof(*out));
	if ((fd = td_open_regular(path, &size, &st, err, errlen)) < 0)
		return st;
	if (size <= NPY_CHUNK) {
		st = read_small(fd, &size, &whole, err, errlen);
		if (st == TD_OK)
			st = npy_parse_header(whole, (size_t)size, dtype_hint, &h, err, errlen);
	} else {
		st = header_from_fd(fd, dtype_hint, &h, &size, err, errlen);
	}
	if (st == TD_OK && (h.itemsize != td_dtype_size(h.dtype) ||
			    (uint64_t)h.n > (size - TD_MIN(size, h.data_offset)) / h.itemsize)) {
		snprintf(err, errlen, "data is %llu bytes, shape needs %llu",
			 (unsigned long long)(size - TD_MIN(size, h.data_offset)),
			 (unsigned long long)h.n * h.itemsize);
		st = TD_ERR_TRUNCATED;
	}
	if (st == TD_OK && whole)
		summarize_bytes(whole + TD_MIN(h.data_offset, size), h.dtype, h.n, h.big_endian, out);
	else if (st == TD_OK && (st = npy_summarize_region(fd, h.data_offset, h.dtype, h.n,
							   h.big_endian, out)) != TD_OK)
		snprintf(err, errlen, "%s while summarising the data", td_strerror(st));
	free(whole);
	close(fd);
	if (st != TD_OK)
		return st;
	out->rank = h.rank;
	out->ndims = TD_MIN(h.rank, TD_MAX_DIMS);
	out->dims_truncated = h.rank > TD_MAX_DIMS;
	for (i = 0; i < out->ndims; i++)
		out->dims[i] = h.dims[h.rank - out->ndims + i];
	out->known |= SUM_RANK | SUM_SHAPE;
	return TD_OK;
}

/* Reads the data of an open file straight into a new tensor. */
static enum td_status
tensor_from_fd(int fd, const struct npy_header *h, uint64_t size, struct td_tensor **out,
	       char *err, size_t errlen)
{
	size_t bytes = (size_t)h->n * h->itemsize;
	struct td_tensor *t;
	enum td_status st = TD_OK;
	uint8_t *tmp = NULL;

	if (h->itemsize != td_dtype_size(h->dtype) || (uint64_t)h->n > SIZE_MAX / h->itemsize) {
		snprintf(err, errlen, "descr '%s' does not fit %s", h->descr, td_dtype_name(h->dtype));
		return TD_ERR_UNSUPPORTED;
	}
	if (bytes > size - TD_MIN(size, h->data_offset)) {
		snprintf(err, errlen, "data is %llu bytes, shape needs %zu",
			 (unsigned long long)(size - TD_MIN(size, h->data_offset)), bytes);
		return TD_ERR_TRUNCATED;
	}
	if (!(t = td_tensor_new(h->dtype, h->rank, h->dims, &st))) {
		snprintf(err, errlen, "cannot allocate %zu bytes", bytes);
		return st == TD_OK ? TD_ERR_NOMEM : st;
	}
	if (h->fortran_order && h->rank > 1 && bytes && !(tmp = malloc(bytes))) {
		td_tensor_free(t);
		snprintf(err, errlen, "cannot allocate %zu bytes", bytes);
		return TD_ERR_NOMEM;
	}
	if (bytes && !td_pread_full(fd, tmp ? tmp : t->data, bytes, h->data_offset)) {
		free(tmp);
		td_tensor_free(t);
		snprintf(err, errlen, "cannot read %zu data bytes", bytes);
		return TD_ERR_TRUNCATED;
	}
	if (tmp)
		fortran_to_c(t->data, tmp, h->dims, h->rank, h->n, h->itemsize);
	free(tmp);
	if (h->big_endian) {
		bool complex = h->dtype == DTYPE_COMPLEX64 || h->dtype == DTYPE_COMPLEX128;

		swap_bytes(t->data, complex ? h->n * 2 : h->n, complex ? h->itemsize / 2 : h->itemsize);
	}
	*out = t;
	return TD_OK;
}

enum td_status
npy_read_file(const char *path, enum td_dtype dtype_hint, struct td_tensor **out,
	      char *err, size_t errlen)
{
	struct npy_header h;
	uint64_t size;
	enum td_status st;
	int fd;

	*out = NULL;
	if ((fd = td_open_regular(path, NULL, &st, err, errlen)) < 0)
		return st;
	st = header_from_fd(fd, dtype_hint, &h, &size, err, errlen);
	if (st == TD_OK)
		st = tensor_from_fd(fd, &h, size, out, err, errlen);
	close(fd);
	return st;
}
