/*
 * ms_async.c - Ascend async dumps: DumpData "bin" files (FORMAT.md
 * §11), Opdebug overflow records in bin and json form (§12), and the ACL
 * directory layouts {[step]/}{time}/{device}/{[model]}/{model_id}/{iter}
 * (§4.2, §4.3).  The rank layout of async dumps is walked by ms_sync.c.
 * Not for: converting fractal device formats to NCHW (data is shown flat in
 * its device shape when the original shape does not fit, §11).
 */
#include "ms_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ms_dump_data.pb-c.h"
#include "reader/base/fileio.h"
#include "reader/parse/npy.h"

enum td_dtype
ms_bin_dtype(int data_type)
{
	switch (data_type) {
	case 1: return DTYPE_FLOAT32;
	case 2: return DTYPE_FLOAT16;
	case 3: return DTYPE_INT8;
	case 4: return DTYPE_UINT8;
	case 5: return DTYPE_INT16;
	case 6: return DTYPE_UINT16;
	case 7: return DTYPE_INT32;
	case 8: return DTYPE_INT64;
	case 9: return DTYPE_UINT32;
	case 10: return DTYPE_UINT64;
	case 11: return DTYPE_BOOL;
	case 12: return DTYPE_FLOAT64;
	case 16: return DTYPE_COMPLEX64;
	case 17: return DTYPE_COMPLEX128;
	case 27: return DTYPE_BFLOAT16;
	default: return DTYPE_INVALID;   /* strings, quantised, 4-bit, ... */
	}
}

static int64_t
shape_elems(const Toolkit__Dumpdata__Shape *s, int64_t *dims, int *rank)
{
	int64_t n = 1;
	size_t i;

	*rank = 0;
	if (!s)
		return -1;
	for (i = 0; i < s->n_dim; i++) {
		if (s->dim[i] > (uint64_t)INT64_MAX || (s->dim[i] && n > INT64_MAX / (int64_t)s->dim[i]))
			return -1;
		n *= (int64_t)s->dim[i];
		if (i < TD_MAX_DIMS)
			dims[i] = (int64_t)s->dim[i];
	}
	*rank = (int)TD_MIN(s->n_dim, TD_MAX_DIMS);
	return n;
}

/* Logical shape when its element count fits the bytes, else the device
 * shape, else flat (§11). */
static void
set_tensor(struct ms_bin_tensor *t, int dtype, uint64_t size, const Toolkit__Dumpdata__Shape *orig,
	   const Toolkit__Dumpdata__Shape *dev)
{
	size_t item;
	int64_t n;

	t->dtype = ms_bin_dtype(dtype);
	t->size = size;
	item = td_dtype_size(t->dtype);
	if (!item) {
		t->rank = 1;
		t->n = (int64_t)size;
		t->dims[0] = t->n;
		return;
	}
	n = shape_elems(orig, t->dims, &t->rank);
	if (n >= 0 && orig && orig->n_dim && (uint64_t)n * item == size) {
		t->n = n;
		return;
	}
	n = shape_elems(dev, t->dims, &t->rank);
	if (n >= 0 && (uint64_t)n * item == size) {
		t->n = n;
		return;
	}
	t->rank = 1;
	t->n = (int64_t)(size / item);
	t->dims[0] = t->n;
}

static void
fill_bin(struct ms_bin *b, const Toolkit__Dumpdata__DumpData *d)
{
	uint64_t off = b->data_start;
	size_t i;

	b->op_name = xstrdup(d->op_name ? d->op_name : "");
	b->t = xcalloc(d->n_input + d->n_output + 1, sizeof(*b->t));
	for (i = 0; i < d->n_input; i++, b->n++) {
		const Toolkit__Dumpdata__OpInput *in = d->input[i];

		b->t[b->n].is_input = true;
		b->t[b->n].slot = (uint32_t)i;
		b->t[b->n].format = in->format;
		b->t[b->n].offset = off;
		set_tensor(&b->t[b->n], in->data_type, in->size, in->original_shape, in->shape);
		off += in->size;
	}
	for (i = 0; i < d->n_output; i++, b->n++) {
		const Toolkit__Dumpdata__OpOutput *out = d->output[i];

		b->t[b->n].slot = (uint32_t)i;
		b->t[b->n].format = out->format;
		b->t[b->n].offset = off;
		set_tensor(&b->t[b->n], out->data_type, out->size, out->original_shape, out->shape);
		off += out->size;
	}
}

static enum td_status
check_sizes(const struct ms_bin *b, char *err, size_t errlen)
{
	uint64_t sum = 0, avail = b->file_size - b->data_start;
	size_t i;

	for (i = 0; i < b->n; i++) {
		if (b->t[i].size > avail - TD_MIN(sum, avail)) {
			snprintf(err, errlen, "data segment is %llu bytes, tensor sizes need more",
				 (unsigned long long)avail);
			return TD_ERR_TRUNCATED;
		}
		sum += b->t[i].size;
	}
	return TD_OK;   /* extra bytes may be buffers (§11) */
}

enum td_status
ms_bin_read(const char *path, struct ms_bin *b, char *err, size_t errlen)
{
	Toolkit__Dumpdata__DumpData *d;
	uint8_t lenbuf[8], *hdr;
	uint64_t hlen = 0;
	enum td_status rc;
	int fd, i;

	memset(b, 0, sizeof(*b));
	if ((fd = td_open_regular(path, &b->file_size, NULL, err, errlen)) < 0)
		return TD_ERR_IO;
	if (!td_pread_full(fd, lenbuf, 8, 0)) {
		close(fd);
		snprintf(err, errlen, "file shorter than the 8-byte header length");
		return TD_ERR_TRUNCATED;
	}
	for (i = 7; i >= 0; i--)
		hlen = hlen << 8 | lenbuf[i];
	/* fstat may say less than pread gave (a /proc file, a file growing
	 * meanwhile): never subtract past zero, never trust hlen beyond it */
	if (b->file_size < 8 || hlen > b->file_size - 8 || hlen > MS_BIN_HEADER_MAX) {
		close(fd);
		snprintf(err, errlen, "header length %llu past the end (%llu bytes left)",
			 (unsigned long long)hlen,
			 (unsigned long long)(b->file_size < 8 ? 0 : b->file_size - 8));
		return TD_ERR_TRUNCATED;
	}
	if (!(hdr = malloc(hlen ? hlen : 1))) {
		close(fd);
		return TD_ERR_NOMEM;
	}
	if (!td_pread_full(fd, hdr, hlen, 8)) {
		free(hdr);
		close(fd);
		snprintf(err, errlen, "cannot read the header");
		return TD_ERR_IO;
	}
	close(fd);
	d = toolkit__dumpdata__dump_data__unpack(NULL, hlen, hdr);
	free(hdr);
	if (!d) {
		snprintf(err, errlen, "DumpData header (%llu bytes) does not decode",
			 (unsigned long long)hlen);
		return TD_ERR_DECODE;
	}
	b->data_start = 8 + hlen;
	fill_bin(b, d);
	toolkit__dumpdata__dump_data__free_unpacked(d, NULL);
	if ((rc = check_sizes(b, err, errlen)) != TD_OK)
		ms_bin_done(b);
	return rc;
}

void
ms_bin_done(struct ms_bin *b)
{
	if (!b)
		return;
	free(b->op_name);
	free(b->t);
	memset(b, 0, sizeof(*b));
}

enum td_status
ms_bin_tensor_value(const char *path, const struct ms_bin_tensor *t, struct td_tensor **out,
		    char *err, size_t errlen)
{
	enum td_status st = TD_OK;
	struct td_tensor *v;
	int fd;

	*out = NULL;
	if (t->dtype == DTYPE_INVALID || (uint64_t)t->n * td_dtype_size(t->dtype) != t->size) {
		snprintf(err, errlen, "dtype not supported or size %llu does not fit the shape",
			 (unsigned long long)t->size);
		return TD_ERR_UNSUPPORTED;
	}
	if (!(v = td_tensor_new(t->dtype, t->rank, t->dims, &st)))
		return st == TD_OK ? TD_ERR_NOMEM : st;
	if ((fd = td_open_regular(path, NULL, NULL, err, errlen)) < 0 || !td_pread_full(fd, v->data, t->size, t->offset)) {
		snprintf(err, errlen, "cannot read %llu bytes at %llu", (unsigned long long)t->size,
			 (unsigned long long)t->offset);
		if (fd >= 0)
			close(fd);
		td_tensor_free(v);
		return TD_ERR_TRUNCATED;
	}
	close(fd);
	*out = v;
	return TD_OK;
}

/* ---- Opdebug overflow records (§12) ------------------------------------ */

static const char *const section_names[3] = { "DHA Atomic Add", "L2 Atomic Add", "AI Core" };

static uint64_t
le64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static size_t
overflow_bin(const char *path, struct ms_overflow *out, char *err, size_t errlen)
{
	/* info blocks at 0/128/256 (model, stream, task ...), status at
	 * 512/768 and 1024+16 */
	static const size_t info_at[3] = { 0, 128, 256 }, status_at[3] = { 512, 768, 1040 };
	struct ms_bin b;
	uint8_t rec[1048] = {0};
	size_t i, n = 0;
	int fd;

	if (ms_bin_read(path, &b, err, errlen) != TD_OK)
		return 0;
	if (b.n < 1 || b.t[b.n - 1].size < 1048) {
		snprintf(err, errlen, "overflow record shorter than 1048 bytes");
		ms_bin_done(&b);
		return 0;
	}
	fd = td_open_regular(path, NULL, NULL, err, errlen);
	if (fd < 0 || !td_pread_full(fd, rec, sizeof rec, b.t[b.n - 1].offset)) {
		snprintf(err, errlen, "cannot read the overflow record");
		n = 0;
	} else {
		for (i = 0; i < 3; i++, n++) {
			snprintf(out[n].section, sizeof out[n].section, "%s", section_names[i]);
			out[n].stream_id = le64(rec + info_at[i] + 8);
			out[n].task_id = le64(rec + info_at[i] + 16);
			out[n].status = le64(rec + status_at[i]);
		}
	}
	if (fd >= 0)
		close(fd);
	ms_bin_done(&b);
	return n;
}

/* The integer value of "key" inside [s, end), or false. */
static bool
json_u64(const char *s, const char *end, const char *key, uint64_t *v)
{
	char *pat = xasprintf("\"%s\":", key);
	const char *p = memmem(s, (size_t)(end - s), pat, strlen(pat));
	bool ok = false;

	if (p) {
		char *e;

		p += strlen(pat);
		while (p < end && *p == ' ')
			p++;
		*v = strtoull(p, &e, 0);
		ok = e != p;
	}
	free(pat);
	return ok;
}

static size_t
overflow_json(const char *path, struct ms_overflow *out, char *err, size_t errlen)
{
	uint8_t *buf;
	size_t len, i, n = 0;

	if (ms_read_side(NULL, path, "Opdebug overflow record", &buf, &len) != TD_OK) {
		/* the caller reports err: one problem per file */
		snprintf(err, errlen, "cannot read the file (missing, unreadable, or larger than "
			 "the side-file limit of %llu MiB)", (unsigned long long)(TD_SIDE_FILE_MAX >> 20));
		return 0;
	}
	for (i = 0; i < 3; i++) {
		char *pat = xasprintf("\"%s\":{", section_names[i]);
		const char *s = strstr((const char *)buf, pat), *end;

		free(pat);
		if (!s || !(end = strchr(s, '}')))
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].section, sizeof out[n].section, "%s", section_names[i]);
		if (json_u64(s, end, "status", &out[n].status) &&
		    json_u64(s, end, "stream_id", &out[n].stream_id) &&
		    json_u64(s, end, "task_id", &out[n].task_id))
			n++;
	}
	free(buf);
	if (!n)
		snprintf(err, errlen, "no \"AI Core\" / \"DHA Atomic Add\" / \"L2 Atomic Add\" section");
	return n;
}

size_t
ms_overflow_read(const char *path, bool json, struct ms_overflow *out, char *err, size_t errlen)
{
	return json ? overflow_json(path, out, err, errlen) : overflow_bin(path, out, err, errlen);
}

/* ---- ACL layouts (§4.2, §4.3) -------------------------------------------- */

static bool
is_time_name(const char *s)
{
	return strlen(s) == 14 && ms_all_digits(s);
}

/* A numeric subdirectory (the device id level under a time directory). */
static bool
has_numeric_child(const char *dir)
{
	size_t n, i;
	char **names = ms_list_dir(dir, &n);
	bool hit = false;

	for (i = 0; i < n && !hit; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);

		hit = ms_all_digits(names[i]) && ms_is_dir(p);
		free(p);
	}
	ms_names_free(names, n);
	return hit;
}

/* A 14-digit time directory holding a device directory (§4.2), among the
 * entries of ls, the listing of dir. */
static bool
has_time_child_listed(const char *dir, const struct reader_listing *ls)
{
	size_t i;
	bool hit = false;

	for (i = 0; i < ls->n && !hit; i++) {
		char *p;

		if (!is_time_name(ls->v[i].name))
			continue;
		p = xasprintf("%s/%s", dir, ls->v[i].name);
		hit = ms_is_dir(p) && has_numeric_child(p);
		free(p);
	}
	return hit;
}

bool
ms_acl_detect_listed(const char *dir, const struct reader_listing *ls)
{
	size_t i;
	bool hit = has_time_child_listed(dir, ls);

	for (i = 0; i < ls->n && !hit; i++) {
		char *p;

		if (!ms_all_digits(ls->v[i].name))
			continue;
		p = xasprintf("%s/%s", dir, ls->v[i].name);
		hit = ms_is_dir(p) && reader_listing_check(p, has_time_child_listed);
		free(p);
	}
	return hit;
}

/* Levels of one directory path below the root, for labels. */
struct acl_path {
	const char *step, *time, *device, *model, *model_id, *iter;
};

static struct ms_rank *
acl_rank(struct reader *r, const char *device)
{
	char host[48];
	size_t i;

	snprintf(host, sizeof host, "device_%s", device);
	for (i = 0; i < r->nranks; i++)
		if (strcmp(r->ranks[i].host, host) == 0)
			return &r->ranks[i];
	r->ranks = xrealloc(r->ranks, (r->nranks + 1) * sizeof(*r->ranks));
	memset(&r->ranks[r->nranks], 0, sizeof(r->ranks[0]));
	r->ranks[r->nranks].dir = xstrdup("");
	r->ranks[r->nranks].id = atoi(device);
	r->ranks[r->nranks].host = td_strpool_add(&r->strs, host);
	return &r->ranks[r->nranks++];
}

/* One model of a device becomes an (empty) graph so runs can name it. */
static const char *
acl_graph(struct reader *r, struct ms_rank *rk, const struct acl_path *ap)
{
	const char *gid = ap->model_id ? ap->model_id : ap->model ? ap->model : "";
	size_t i;

	for (i = 0; i < rk->ngraphs; i++)
		if (strcmp(rk->graph_ids[i], gid) == 0)
			return td_strpool_add(&r->strs, gid);
	rk->graphs = xrealloc(rk->graphs, (rk->ngraphs + 1) * sizeof(*rk->graphs));
	rk->graph_ids = xrealloc(rk->graph_ids, (rk->ngraphs + 1) * sizeof(*rk->graph_ids));
	memset(&rk->graphs[rk->ngraphs], 0, sizeof(rk->graphs[0]));
	rk->graphs[rk->ngraphs].name = xstrdup(ap->model ? ap->model : gid);
	rk->graph_ids[rk->ngraphs++] = xstrdup(gid);
	return td_strpool_add(&r->strs, gid);
}

static void
acl_add_run(struct reader *r, const char *dir, const struct acl_path *ap)
{
	struct ms_rank *rk = acl_rank(r, ap->device ? ap->device : "0");
	struct ms_run *run = ms_run_new(r, dir);
	struct strbuf label = {0};

	if (!run)
		return;   /* listed by an earlier pass */
	run->host = rk->host;
	run->graph_id = acl_graph(r, rk, ap);
	run->iteration = ap->iter ? strtoull(ap->iter, NULL, 10) : 0;
	run->order = (ap->step ? strtoull(ap->step, NULL, 10) << 20 : 0) + run->iteration;
	run->rank_order = (int)(rk - r->ranks);
	strbuf_addf(&label, "model %s iter %s", ap->model ? ap->model : run->graph_id,
		    ap->iter ? ap->iter : "0");
	if (ap->step)
		strbuf_addf(&label, " step %s", ap->step);
	run->label = strbuf_take(&label);
	if (!r->net_name && ap->model)
		r->net_name = xstrdup(ap->model);
}

/* Walks down: time, device, optional model name, model id, iteration.
 * Any level holding tensor files becomes a run (O0/O1 ops may sit in the
 * device directory, §4.2). */
static void
acl_walk(struct reader *r, const char *dir, struct acl_path ap, int depth)
{
	size_t n, i;
	char **names = ms_list_dir(dir, &n);
	bool files = false;

	for (i = 0; i < n && depth < 8; i++) {
		char *p = xasprintf("%s/%s", dir, names[i]);
		struct acl_path sub = ap;
		bool digits = ms_all_digits(names[i]);

		if (!ms_is_dir(p)) {
			struct ms_name nm;

			if (ap.device && ms_name_parse(names[i], NULL, &nm)) {
				files = true;
				ms_name_done(&nm);
			} else if (ap.device && ms_all_digits(names[i])) {
				files = true;   /* numbered file (mapping.csv) */
			}
			free(p);
			continue;
		}
		if (!ap.time && is_time_name(names[i]))
			sub.time = names[i];
		else if (!ap.time && digits)
			sub.step = names[i];
		else if (ap.time && !ap.device && digits)
			sub.device = names[i];
		else if (ap.device && !ap.model && !ap.model_id && !digits)
			sub.model = names[i];
		else if (ap.device && !ap.model_id && digits)
			sub.model_id = names[i];
		else if (ap.model_id && !ap.iter && digits)
			sub.iter = names[i];
		else {
			free(p);
			continue;
		}
		acl_walk(r, p, sub, depth + 1);
		free(p);
	}
	if (files)
		acl_add_run(r, dir, &ap);
	ms_names_free(names, n);
}

void
ms_acl_scan(struct reader *r, const struct reader_sink *sink)
{
	struct acl_path ap = {0};

	(void)sink;
	r->async = true;
	acl_walk(r, r->root, ap, 0);
}
