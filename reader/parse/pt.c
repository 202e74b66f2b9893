/*
 * pt.c - a torch.save archive's tensor: find its pickle and its storage
 * record in the ZIP directory, check one against the other, read the
 * elements the view uses (FORMAT.md §7).
 *
 * The pickle is interpreted by pt_pickle.c; this file only trusts what it
 * returns after checking it against the archive: the storage record must
 * exist, be stored (not compressed) and hold the storage's elements.
 */
#include "pt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/base/fileio.h"
#include "reader/parse/npy.h"
#include "reader/parse/zip.h"

/* Where a tensor's bytes are in the archive. */
struct pt_loc {
	struct pt_header h;
	uint64_t data_off;          /* the storage record's first byte */
	bool big_endian;            /* the archive's byteorder record says "big" */
	bool contiguous;            /* the view is the storage's elements in C order */
};

/* The archive's record prefix ("archive/" or "<name>/"): the folder of
 * its data.pkl.  NULL when there is none. */
static const struct zip_entry *
find_pickle(const struct zip_archive *za, char *prefix, size_t cap)
{
	size_t i;

	for (i = 0; i < za->n; i++) {
		const char *name = za->entries[i].name, *slash = strchr(name, '/');
		size_t plen = slash ? (size_t)(slash - name) + 1 : 0;

		if (strcmp(name + plen, "data.pkl") != 0 || plen >= cap)
			continue;
		memcpy(prefix, name, plen);
		prefix[plen] = '\0';
		return &za->entries[i];
	}
	return NULL;
}

static bool
is_contiguous(const struct pt_header *h)
{
	int64_t expect = 1;
	int d;

	for (d = h->rank - 1; d >= 0; d--) {
		if (h->dims[d] != 1 && h->strides[d] != expect)
			return false;
		expect *= h->dims[d];
	}
	return true;
}

/* Reads the directory, the pickle and the byte order; checks the storage
 * record against the pickle. */
static enum td_status
locate(const struct zip_src *src, struct pt_loc *loc, char *err, size_t errlen)
{
	struct zip_archive za;
	const struct zip_entry *pk, *rec, *bo;
	char prefix[ZIP_MAX_NAME + 1], name[ZIP_MAX_NAME + 80];
	size_t width, len;
	uint8_t *pkl;
	enum td_status st;

	memset(loc, 0, sizeof(*loc));
	if ((st = zip_open(src, &za, err, errlen)) != TD_OK)
		return st;
	if (!(pk = find_pickle(&za, prefix, sizeof(prefix)))) {
		snprintf(err, errlen, "no data.pkl in the archive: not a tensor saved by torch.save");
		st = TD_ERR_NOTFOUND;
		goto out;
	}
	if ((st = zip_read_entry(&za, pk, PT_MAX_PICKLE, &pkl, &len, err, errlen)) != TD_OK)
		goto out;
	st = pt_parse_pickle(pkl, len, &loc->h, err, errlen);
	free(pkl);
	if (st != TD_OK)
		goto out;
	snprintf(name, sizeof(name), "%sbyteorder", prefix);
	if ((bo = zip_find(&za, name))) {
		uint8_t *text;

		if ((st = zip_read_entry(&za, bo, 16, &text, &len, err, errlen)) != TD_OK)
			goto out;
		loc->big_endian = len == 3 && memcmp(text, "big", 3) == 0;
		if (!loc->big_endian && !(len == 6 && memcmp(text, "little", 6) == 0)) {
			snprintf(err, errlen, "byteorder record is neither \"little\" nor \"big\"");
			st = TD_ERR_CORRUPT;
		}
		free(text);
		if (st != TD_OK)
			goto out;
	}
	snprintf(name, sizeof(name), "%sdata/%s", prefix, loc->h.key);
	if (!(rec = zip_find(&za, name))) {
		snprintf(err, errlen, "no record data/%s for the tensor's storage", loc->h.key);
		st = TD_ERR_NOTFOUND;
		goto out;
	}
	if ((st = zip_data_offset(&za, rec, &loc->data_off, err, errlen)) != TD_OK)
		goto out;
	width = td_dtype_size(loc->h.dtype);
	if ((uint64_t)loc->h.storage_numel > rec->size / width) {
		snprintf(err, errlen, "storage record data/%s is %llu bytes, its %lld %s elements need %llu",
			 loc->h.key, (unsigned long long)rec->size, (long long)loc->h.storage_numel,
			 td_dtype_name(loc->h.dtype),
			 (unsigned long long)loc->h.storage_numel * width);
		st = TD_ERR_TRUNCATED;
		goto out;
	}
	loc->contiguous = is_contiguous(&loc->h);
out:
	zip_close(&za);
	return st;
}

static void
swap_elements(uint8_t *p, int64_t n, enum td_dtype dt)
{
	bool complex = dt == DTYPE_COMPLEX64 || dt == DTYPE_COMPLEX128;
	size_t w = complex ? td_dtype_size(dt) / 2 : td_dtype_size(dt), a;
	int64_t i;

	if (w < 2)
		return;
	for (i = 0; i < (complex ? n * 2 : n); i++, p += w)
		for (a = 0; a < w / 2; a++) {
			uint8_t t = p[a];

			p[a] = p[w - 1 - a];
			p[w - 1 - a] = t;
		}
}

/* Copies the view's elements from span (the storage from the view's
 * first element on) into dst in C order. */
static void
gather(uint8_t *dst, const uint8_t *span, const struct pt_header *h, size_t w)
{
	int64_t idx[PT_MAX_DIMS] = { 0 }, k;
	int d;

	for (k = 0; k < h->n; k++) {
		int64_t off = 0;

		for (d = 0; d < h->rank; d++)
			off += idx[d] * h->strides[d];
		memcpy(dst + (size_t)k * w, span + (size_t)off * w, w);
		for (d = h->rank - 1; d >= 0 && ++idx[d] == h->dims[d]; d--)
			idx[d] = 0;
	}
}

/* The number of storage elements from the view's first to its last. */
static int64_t
span_elements(const struct pt_header *h)
{
	int64_t last = 0;
	int d;

	for (d = 0; d < h->rank; d++)
		last += (h->dims[d] - 1) * h->strides[d];   /* checked by the pickle's reader */
	return h->n ? last + 1 : 0;
}

static enum td_status
load(const struct zip_src *src, const struct pt_loc *loc, struct td_tensor **out,
     char *err, size_t errlen)
{
	const struct pt_header *h = &loc->h;
	size_t w = td_dtype_size(h->dtype);
	uint64_t first = loc->data_off + (uint64_t)h->storage_offset * w;
	int64_t span = span_elements(h);
	enum td_status st = TD_OK;
	struct td_tensor *t;
	uint8_t *tmp = NULL;

	if (!(t = td_tensor_new(h->dtype, h->rank, h->dims, &st))) {
		snprintf(err, errlen, "a %s tensor of %lld elements is larger than tdbg loads",
			 td_dtype_name(h->dtype), (long long)h->n);
		return st == TD_OK ? TD_ERR_NOMEM : st;
	}
	if (!loc->contiguous && !td_tensor_fits(h->dtype, span)) {
		snprintf(err, errlen, "the tensor's view spans %lld elements, more than tdbg loads",
			 (long long)span);
		td_tensor_free(t);
		return TD_ERR_TOO_LARGE;
	}
	if (!loc->contiguous && span && !(tmp = malloc((size_t)span * w))) {
		td_tensor_free(t);
		snprintf(err, errlen, "cannot allocate %zu bytes", (size_t)span * w);
		return TD_ERR_NOMEM;
	}
	if (h->n && !zip_src_read(src, tmp ? tmp : t->data, (size_t)(tmp ? span : h->n) * w, first)) {
		free(tmp);
		td_tensor_free(t);
		snprintf(err, errlen, "cannot read the tensor's %lld elements", (long long)h->n);
		return TD_ERR_TRUNCATED;
	}
	if (tmp)
		gather(t->data, tmp, h, w);
	free(tmp);
	if (loc->big_endian)
		swap_elements(t->data, h->n, h->dtype);
	*out = t;
	return TD_OK;
}

enum td_status
pt_decode(const uint8_t *buf, size_t len, struct td_tensor **out, char *err, size_t errlen)
{
	struct zip_src src = { -1, buf, len };
	struct pt_loc loc;
	enum td_status st;

	*out = NULL;
	if ((st = locate(&src, &loc, err, errlen)) != TD_OK)
		return st;
	return load(&src, &loc, out, err, errlen);
}

/* Opens path and locates its tensor; *fd stays open on success. */
static enum td_status
open_file(const char *path, int *fd, struct zip_src *src, struct pt_loc *loc,
	  char *err, size_t errlen)
{
	uint64_t size;
	enum td_status st;

	if ((*fd = td_open_regular(path, &size, &st, err, errlen)) < 0)
		return st;
	src->fd = *fd;
	src->buf = NULL;
	src->size = size;
	if ((st = locate(src, loc, err, errlen)) != TD_OK) {
		close(*fd);
		*fd = -1;
	}
	return st;
}

enum td_status
pt_read_file(const char *path, struct td_tensor **out, char *err, size_t errlen)
{
	struct zip_src src;
	struct pt_loc loc;
	enum td_status st;
	int fd;

	*out = NULL;
	if ((st = open_file(path, &fd, &src, &loc, err, errlen)) != TD_OK)
		return st;
	st = load(&src, &loc, out, err, errlen);
	close(fd);
	return st;
}

enum td_status
pt_read_header(const char *path, struct pt_header *h, char *err, size_t errlen)
{
	struct zip_src src;
	struct pt_loc loc;
	enum td_status st;
	int fd;

	if ((st = open_file(path, &fd, &src, &loc, err, errlen)) != TD_OK)
		return st;
	close(fd);
	*h = loc.h;
	return TD_OK;
}

enum td_status
pt_summarize_file(const char *path, struct td_summary *out, char *err, size_t errlen)
{
	struct td_tensor *t = NULL;
	struct zip_src src;
	struct pt_loc loc;
	enum td_status st;
	int fd, i;

	memset(out, 0, sizeof(*out));
	if ((st = open_file(path, &fd, &src, &loc, err, errlen)) != TD_OK)
		return st;
	if (loc.contiguous) {
		/* summarised in chunks straight from the file, whatever its size */
		st = npy_summarize_region(fd, loc.data_off + (uint64_t)loc.h.storage_offset *
					  td_dtype_size(loc.h.dtype), loc.h.dtype, loc.h.n,
					  loc.big_endian, out);
		if (st != TD_OK)
			snprintf(err, errlen, "%s while summarising the data", td_strerror(st));
	} else if ((st = load(&src, &loc, &t, err, errlen)) == TD_OK) {
		td_tensor_summarize(t, out);
		td_tensor_free(t);
	}
	close(fd);
	if (st != TD_OK)
		return st;
	out->rank = loc.h.rank;
	out->ndims = TD_MIN(loc.h.rank, TD_MAX_DIMS);
	out->dims_truncated = loc.h.rank > TD_MAX_DIMS;
	for (i = 0; i < out->ndims; i++)
		out->dims[i] = loc.h.dims[loc.h.rank - out->ndims + i];
	out->known |= SUM_RANK | SUM_SHAPE;
	return TD_OK;
}
