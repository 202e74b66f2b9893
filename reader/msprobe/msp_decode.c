/*
 * msp_decode.c - decode() and advance() for the msprobe reader: an entry is
 * re-read from its byte offset in dump.json with a member scan (only that
 * entry's bytes), the same walk as the index pass numbers its leaves, and a
 * leaf's saved tensor file is read through msp_tensor_read(), the one place
 * tensor files are opened (FORMAT.md §7).
 *
 * Locators: an execution is (unit file id, entry ordinal), a trace (unit
 * file id, trace ordinal within the unit).
 */
#include "msp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader/base/fileio.h"
#include "reader/parse/npy.h"
#include "reader/parse/pt.h"

/* A saved tensor file's kind, from its extension (FORMAT.md §7). */
enum tensor_file { TENSOR_NPY, TENSOR_PT, TENSOR_OTHER };

static enum tensor_file
tensor_file_kind(const char *path, char *err, size_t errlen)
{
	size_t len = strlen(path);

	if (len > 4 && strcmp(path + len - 4, ".npy") == 0)
		return TENSOR_NPY;
	if (len > 3 && strcmp(path + len - 3, ".pt") == 0)
		return TENSOR_PT;
	snprintf(err, errlen, "%s: not a .npy or .pt tensor file", path);
	return TENSOR_OTHER;
}

enum td_status
msp_tensor_read(const char *path, struct td_tensor **out, char *err, size_t errlen)
{
	*out = NULL;
	switch (tensor_file_kind(path, err, errlen)) {
	case TENSOR_NPY: return npy_read_file(path, DTYPE_INVALID, out, err, errlen);
	case TENSOR_PT: return pt_read_file(path, out, err, errlen);
	case TENSOR_OTHER: break;
	}
	return TD_ERR_UNSUPPORTED;
}

void
msp_leaf_file_summary(const struct msp_unit *u, const struct msp_record *rec, struct td_summary *s)
{
	size_t len = strlen(rec->data_name);
	struct td_summary fs;
	char err[256], *path;

	if (rec->has_max || rec->has_min || rec->has_mean || rec->has_norm || !len ||
	    strchr(rec->data_name, '/'))
		return;
	path = xasprintf("%s/dump_tensor_data/%s", u->dir, rec->data_name);
	if (msp_tensor_summarize(path, &fs, err, sizeof err) == TD_OK) {
		/* the statistics from the file; the record's dtype and shape
		 * stay where it has them (the file may hold another dtype,
		 * FORMAT.md §4) */
		uint32_t mine = s->known & (SUM_DTYPE | SUM_RANK | SUM_SHAPE | SUM_ELEMENTS);
		struct td_summary rs = *s;

		*s = fs;
		if (mine & SUM_DTYPE)
			s->dtype = rs.dtype;
		if (mine & SUM_SHAPE) {
			s->rank = rs.rank;
			s->ndims = rs.ndims;
			s->dims_truncated = rs.dims_truncated;
			memcpy(s->dims, rs.dims, sizeof s->dims);
		}
		if (mine & SUM_ELEMENTS)
			s->elements = rs.elements;
		s->known |= mine;
	}
	free(path);
}

enum td_status
msp_tensor_summarize(const char *path, struct td_summary *out, char *err, size_t errlen)
{
	switch (tensor_file_kind(path, err, errlen)) {
	case TENSOR_NPY: return npy_summarize_file(path, DTYPE_INVALID, out, err, errlen);
	case TENSOR_PT: return pt_summarize_file(path, out, err, errlen);
	case TENSOR_OTHER: break;
	}
	return TD_ERR_UNSUPPORTED;
}

/* A tensor leaf as the walk gave it. */
struct leaf_scan {
	struct msp_record rec;
	char path[512];
	bool is_input;
	enum msp_role role;
	uint32_t slot;              /* among its side's leaves */
};

/* Leaves an entry's scan keeps (2 KB each; an entry may hold up to
 * MSP_MAX_LEAVES): a row past them is found by a scan for it alone. */
#define KEEP_LEAVES 512

/* An entry's walk: its tensor leaves (the first KEEP_LEAVES, or the one
 * wanted), its outputs' summaries, the arguments' text and places. */
struct want {
	struct leaf_scan *leaves;   /* in walk order */
	size_t nleaves, leafcap;
	bool partial;               /* leaves past KEEP_LEAVES not kept */
	bool target, t_input;       /* keep only the leaf (t_input, t_slot) */
	uint32_t t_slot;
	struct td_summary *sums;    /* every output leaf's (an execution's outputs) */
	size_t nsums, sumcap;
	uint32_t nin, nout;
	struct strbuf args;
	bool want_args;             /* collect the non-tensor arguments */
	struct td_arg *targs;       /* their places: leaves of their side before them */
	size_t ntargs, tacap;
};

static void
want_leaf(void *ctx, uint32_t k, const char *path, bool is_input, enum msp_role role,
	  const struct msp_record *rec)
{
	struct want *w = ctx;
	uint32_t slot = is_input ? w->nin++ : w->nout++;
	struct leaf_scan *l;

	(void)k;
	if (!is_input && !w->target) {
		TD_GROW(w->sums, w->sumcap, w->nsums + 1);
		msp_record_summary(rec, &w->sums[w->nsums++]);
	}
	if (w->target ? is_input != w->t_input || slot != w->t_slot : w->nleaves >= KEEP_LEAVES) {
		w->partial |= !w->target;
		return;
	}
	TD_GROW(w->leaves, w->leafcap, w->nleaves + 1);
	l = &w->leaves[w->nleaves++];
	l->rec = *rec;
	snprintf(l->path, sizeof l->path, "%s", path);
	l->is_input = is_input;
	l->role = role;
	l->slot = slot;
}

static void
want_arg(void *ctx, const char *path, const char *text)
{
	struct want *w = ctx;

	strbuf_addf(&w->args, "arg %s: %s\n", path, text);
}

static void
want_nonleaf(void *ctx, const char *path, bool is_input, const struct msp_record *rec)
{
	struct want *w = ctx;
	struct td_arg *a;

	if (!w->want_args)
		return;
	TD_GROW(w->targs, w->tacap, w->ntargs + 1);
	a = &w->targs[w->ntargs++];
	memset(a, 0, sizeof(*a));
	msp_arg_make(path, rec, a);
	a->is_input = is_input;
	a->place = is_input ? w->nin : w->nout;
}

/* The arguments' places among the entry's rows: inputs first, then the
 * other leaves (msp_index.c), so an output-side argument follows every
 * input row. */
static void
args_place(struct want *w)
{
	size_t i;

	for (i = 0; i < w->ntargs; i++)
		if (!w->targs[i].is_input)
			w->targs[i].place += w->nin;
}

/* Scans entry e of u into w; *name gets its key (malloc'd). */
static enum td_status
scan_entry(struct reader *r, struct msp_unit *u, size_t e, struct want *w, char **name)
{
	struct msp_walk walk = { .ctx = w, .on_leaf = want_leaf, .on_arg = want_arg,
				 .on_nonleaf = want_nonleaf };
	struct jscan js;
	uint64_t off;
	uint32_t hash;
	enum td_status st = TD_OK;

	pthread_mutex_lock(&r->lock);
	off = u->entry_off[e];
	hash = u->entry_hash[e];
	pthread_mutex_unlock(&r->lock);
	*name = NULL;
	jscan_init_member(&js, u->src, off, NULL);
	if (jscan_next(&js) != JSCAN_KEY || msp_name_hash(js.str) != hash)
		st = TD_ERR_STALE;      /* a flush moved the bytes since */
	else if (!(*name = xstrdup(js.str)) || !msp_walk_entry(&js, *name, &walk))
		st = TD_ERR_CORRUPT;
	jscan_done(&js);
	return st;
}

static struct msp_unit *
unit_of(struct reader *r, const struct td_locator *loc)
{
	return loc->file < r->nunits && r->units[loc->file].src ? &r->units[loc->file] : NULL;
}

/* Entry holding trace ordinal t (binary search over first_trace). */
static bool
entry_of_trace(struct reader *r, struct msp_unit *u, uint64_t t, size_t *e)
{
	size_t lo = 0, hi;
	bool ok;

	pthread_mutex_lock(&r->lock);
	hi = u->nentries;
	ok = t < u->ntraces;
	while (ok && lo + 1 < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (u->first_trace[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	*e = lo;
	pthread_mutex_unlock(&r->lock);
	return ok && hi > 0;
}

static void
common_text(struct reader *r, struct strbuf *sb, struct msp_unit *u, const char *name)
{
	const char *parent = msp_side_parent(u, name), *dot = strchr(name, '.');
	char type[512], task[sizeof u->task];
	int64_t count;
	enum msp_dir dir = msp_name_parse(name, type, sizeof type, &count);

	strbuf_addf(sb, "entry: %s\n", name);
	strbuf_addf(sb, "prefix: %.*s\n", dot ? (int)(dot - name) : 0, name);
	if (dir != MSP_OTHER)
		strbuf_addf(sb, "direction: %s\n", msp_dir_name(dir));
	if (count >= 0)
		strbuf_addf(sb, "call_count: %lld\n", (long long)count);
	strbuf_addf(sb, "host: %s\n", u->host);
	if (u->step >= 0)
		strbuf_addf(sb, "step: %lld\n", (long long)u->step);
	if (parent)
		strbuf_addf(sb, "module: %s\n", parent);
	pthread_mutex_lock(&r->lock);   /* a follow pass may write it (msp_index.c) */
	memcpy(task, u->task, sizeof task);
	pthread_mutex_unlock(&r->lock);
	if (*task)
		strbuf_addf(sb, "task: %s\n", task);
}

/* A statistic as written: "%.17g" (nan, inf, -inf too) or "null". */
static const char *
stat_text(bool has, double v, char *buf)
{
	if (!has)
		return "null";
	snprintf(buf, 32, "%.17g", v);
	return buf;
}

static void
frames_of(struct msp_unit *u, const char *name, struct reader_detail *out)
{
	char *const *ids;
	size_t n = msp_side_frames(u, name, &ids), i;

	if (!n)
		return;
	out->frame_ids = xcalloc(n, sizeof(*out->frame_ids));
	for (i = 0; i < n; i++)
		out->frame_ids[i] = xstrdup(ids[i]);
	out->nframes = n;
}

/* Names of the entry, and its module parent and children from
 * construct.json (FORMAT.md §6: reader.h READER_CALL_TREE). */
static void
names_of(struct msp_unit *u, const char *name, struct reader_detail *out)
{
	char type[512];
	int64_t count;
	const char *parent = msp_side_parent(u, name);
	char *const *kids = NULL;
	size_t nk = msp_side_children(u, name, &kids), i;

	msp_name_parse(name, type, sizeof type, &count);
	out->op_name = xstrdup(name);
	out->op_type = xstrdup(type);
	out->graph_id = xstrdup(u->host);
	out->host = xstrdup(u->host);
	out->call_parent = parent ? xstrdup(parent) : NULL;
	if (nk) {
		out->call_children = xcalloc(nk, sizeof(*out->call_children));
		for (i = 0; i < nk; i++)
			out->call_children[i] = xstrdup(kids[i]);
		out->ncall_children = nk;
	}
}

enum reader_role
msp_reader_role(enum msp_role r)
{
	static const enum reader_role roles[] = {
		[MSP_ACTIVATION] = READER_ROLE_ACTIVATION, [MSP_WEIGHT] = READER_ROLE_WEIGHT,
		[MSP_GRADIENT] = READER_ROLE_GRADIENT,
	};

	return roles[r];
}

enum reader_grad
msp_reader_grad(const struct msp_record *rec)
{
	if (rec->requires_grad < 0)
		return READER_GRAD_UNSTATED;
	return rec->requires_grad ? READER_GRAD_YES : READER_GRAD_NO;
}

/* The leaf's own facts for the model's conditions (reader.h
 * READER_ROW_FACTS): role and requires_grad (FORMAT.md §4), the entry's
 * prefix (§3: the part of its name before the first dot). */
size_t
msp_op_prefix(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot && dot > name ? (size_t)(dot - name) : 0;
}

static void
leaf_facts(const struct leaf_scan *w, const char *name, struct reader_detail *out)
{
	size_t n = msp_op_prefix(name);

	out->role = msp_reader_role(w->role);
	out->requires_grad = msp_reader_grad(&w->rec);
	if (n)
		out->prefix = xstrndup(name, n);
}

/* The saved tensor of a leaf, when it has one. */
static void
leaf_value(struct msp_unit *u, const struct leaf_scan *w, struct reader_detail *out, struct strbuf *sb)
{
	char err[256] = "", *path;
	struct td_tensor *t;

	if (!*w->rec.data_name)
		return;
	if (strchr(w->rec.data_name, '/')) {
		strbuf_addf(sb, "value: data_name \"%s\" is not a file name\n", w->rec.data_name);
		return;
	}
	path = xasprintf("%s/dump_tensor_data/%s", u->dir, w->rec.data_name);
	if (msp_tensor_read(path, &t, err, sizeof err) == TD_OK) {
		out->values = xcalloc(1, sizeof(*out->values));
		out->values[0] = t;
		if (out->summaries && (out->summaries[0].known & SUM_DTYPE) &&
		    out->summaries[0].dtype != t->dtype)
			strbuf_addf(sb, "value: the file holds %s, the record says %s\n",
				    td_dtype_name(t->dtype), w->rec.dtype);
	} else {
		strbuf_addf(sb, "value: %s\n", err);
	}
	free(path);
}

/* ---- an entry's leaves, scanned once ------------------------------------ */

/* The scan of an entry for its trace rows: its leaves in walk order, the
 * inputs' count (rows are the inputs, then the outputs: msp_index.c), its
 * non-tensor arguments as detail lines and placed (args_place). */
struct entry_scan {
	char *name;
	struct leaf_scan *leaves;   /* the first KEEP_LEAVES */
	size_t nleaves;
	bool partial;               /* the entry has more */
	uint32_t nin;
	struct td_summary *sums;    /* every output leaf's, in order */
	size_t nsums;
	char *args_text;
	struct td_arg *targs;
	size_t ntargs;
};

/* The entry decoded last on a reader.  A CSV, a diff or the Details pane
 * reads an entry's leaves one after another, and each leaf's decode was
 * two scans of the whole entry (the first counting its inputs): a 200,000-
 * entry pair's `diff --csv` scanned 1.6 million entries 8 times each.
 * Keyed by the entry and the bytes it was read from: the unit's source
 * (source_serial, never reused: a flush opens a new one) and the entry's
 * offset and name hash, so a moved or rewritten entry is scanned again. */
struct msp_entry_cache {
	pthread_mutex_t lock;
	bool valid;
	uint32_t file;
	size_t e;
	uint64_t serial, off;
	uint32_t hash;
	struct entry_scan scan;
	uint64_t scans, hits;       /* msp_entry_cache_counts */
};

static void
entry_scan_done(struct entry_scan *s)
{
	free(s->name);
	free(s->leaves);
	free(s->sums);
	free(s->args_text);
	td_args_free(s->targs, s->ntargs);
	memset(s, 0, sizeof(*s));
}

struct msp_entry_cache *
msp_entry_cache_new(void)
{
	struct msp_entry_cache *c = xcalloc(1, sizeof(*c));

	pthread_mutex_init(&c->lock, NULL);
	return c;
}

void
msp_entry_cache_free(struct msp_entry_cache *c)
{
	if (!c)
		return;
	entry_scan_done(&c->scan);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

void
msp_entry_cache_counts(struct reader *r, uint64_t *scans, uint64_t *hits)
{
	pthread_mutex_lock(&r->ecache->lock);
	*scans = r->ecache->scans;
	*hits = r->ecache->hits;
	pthread_mutex_unlock(&r->ecache->lock);
}

static char *
dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static struct td_arg *
args_dup(const struct td_arg *a, size_t n)
{
	struct td_arg *d;
	size_t i;

	if (!n)
		return NULL;
	d = xcalloc(n, sizeof(*d));
	for (i = 0; i < n; i++) {
		d[i] = a[i];
		d[i].path = dup_or_null(a[i].path);
		d[i].dtype = dup_or_null(a[i].dtype);
		d[i].shape = dup_or_null(a[i].shape);
		d[i].value = dup_or_null(a[i].value);
		d[i].md5 = dup_or_null(a[i].md5);
	}
	return d;
}

/* Entry e's scan into out; target: only the leaf (t_input, t_slot) is
 * kept (a row past the first KEEP_LEAVES). */
static enum td_status
scan_leaves(struct reader *r, struct msp_unit *u, size_t e, bool target, bool t_input,
	    uint32_t t_slot, struct entry_scan *out)
{
	struct want w = { .want_args = true, .target = target, .t_input = t_input, .t_slot = t_slot };
	enum td_status st;
	char *name;

	memset(out, 0, sizeof(*out));
	st = scan_entry(r, u, e, &w, &name);
	if (st != TD_OK) {
		free(name);
		free(w.leaves);
		free(w.sums);
		strbuf_done(&w.args);
		td_args_free(w.targs, w.ntargs);
		return st;
	}
	args_place(&w);
	out->name = name;
	out->leaves = w.leaves;
	out->nleaves = w.nleaves;
	out->partial = w.partial;
	out->nin = w.nin;
	out->sums = w.sums;
	out->nsums = w.nsums;
	out->args_text = strbuf_take(&w.args);
	out->targs = w.targs;
	out->ntargs = w.ntargs;
	return TD_OK;
}

/* Whether the bytes at off are still the key "name" (the check scan_entry
 * makes first, on a few bytes: a file rewritten under the index with
 * another entry at that offset is stale, not the cached one).  A key the
 * file spells with escapes is not matched: scanned again. */
static bool
key_still_at(struct source *src, uint64_t off, const char *name)
{
	size_t n = strlen(name) + 2;
	char buf[256];

	return n <= sizeof buf && source_read(src, off, buf, n) == (ssize_t)n && buf[0] == '"' &&
	       memcmp(buf + 1, name, n - 2) == 0 && buf[n - 1] == '"';
}

/* Makes the cache hold entry e of unit file: a hit, or one scan.  TD_OK
 * with the cache's lock held (the caller copies what it needs out). */
static enum td_status
cache_hold(struct reader *r, uint32_t file, size_t e)
{
	struct msp_entry_cache *c = r->ecache;
	struct msp_unit *u = &r->units[file];
	struct entry_scan fresh;
	enum td_status st;
	uint64_t off, serial;
	uint32_t hash;

	pthread_mutex_lock(&r->lock);
	off = u->entry_off[e];
	hash = u->entry_hash[e];
	serial = source_serial(u->src);
	pthread_mutex_unlock(&r->lock);
	pthread_mutex_lock(&c->lock);
	if (c->valid && c->file == file && c->e == e && c->serial == serial && c->off == off &&
	    c->hash == hash && key_still_at(u->src, off, c->scan.name)) {
		c->hits++;
		return TD_OK;
	}
	pthread_mutex_unlock(&c->lock);
	if ((st = scan_leaves(r, u, e, false, false, 0, &fresh)) != TD_OK)
		return st;
	pthread_mutex_lock(&c->lock);
	entry_scan_done(&c->scan);
	c->scan = fresh;
	c->valid = true;
	c->file = file, c->e = e, c->serial = serial, c->off = off, c->hash = hash;
	c->scans++;
	return TD_OK;
}

/* Row pos of entry e of unit file: its leaf, the entry's name, argument
 * lines and arguments (the caller's copies), from the cache or one scan. */
static enum td_status
entry_leaf(struct reader *r, uint32_t file, size_t e, uint64_t pos, struct leaf_scan *leaf,
	   char **name, char **args_text, struct td_arg **targs, size_t *ntargs)
{
	struct msp_entry_cache *c = r->ecache;
	const struct entry_scan *s;
	enum td_status st;
	size_t i;
	bool in;

	struct entry_scan one;
	bool partial;
	uint32_t slot;

	if ((st = cache_hold(r, file, e)) != TD_OK)
		return st;
	st = TD_ERR_STALE;      /* the entry has fewer leaves than the index said */
	s = &c->scan;
	in = pos < s->nin;
	slot = (uint32_t)(in ? pos : pos - s->nin);
	for (i = 0; i < s->nleaves; i++)
		if (s->leaves[i].is_input == in && s->leaves[i].slot == slot) {
			*leaf = s->leaves[i];
			*name = xstrdup(s->name);
			*args_text = dup_or_null(s->args_text);
			*targs = args_dup(s->targs, s->ntargs);
			*ntargs = s->ntargs;
			st = TD_OK;
			break;
		}
	partial = s->partial;
	pthread_mutex_unlock(&c->lock);
	if (st == TD_OK || !partial)
		return st;
	/* past the leaves kept: a scan for this one alone */
	if ((st = scan_leaves(r, &r->units[file], e, true, in, slot, &one)) != TD_OK)
		return st;
	st = TD_ERR_STALE;
	if (one.nleaves == 1) {
		*leaf = one.leaves[0];
		*name = one.name;
		*args_text = one.args_text;
		*targs = one.targs;
		*ntargs = one.ntargs;
		one.name = one.args_text = NULL;
		one.targs = NULL;
		one.ntargs = 0;
		st = TD_OK;
	}
	entry_scan_done(&one);
	return st;
}

static enum td_status
decode_trace(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	char sv[4][32];
	struct msp_unit *u = unit_of(r, loc);
	struct leaf_scan *w;
	struct strbuf sb = { 0 };
	enum td_status st;
	char *name, *args_text;
	size_t e;
	uint64_t pos;

	if (!u || !entry_of_trace(r, u, loc->offset, &e))
		return TD_ERR_RANGE;
	pthread_mutex_lock(&r->lock);
	pos = loc->offset - u->first_trace[e];
	pthread_mutex_unlock(&r->lock);
	w = xmalloc(sizeof(*w));    /* 2 KB: not on the stack */
	st = entry_leaf(r, loc->file, e, pos, w, &name, &args_text, &out->args, &out->nargs);
	if (st != TD_OK) {
		free(w);
		return st;
	}
	names_of(u, name, out);
	leaf_facts(w, name, out);
	out->slot = w->slot;
	out->noutputs = 1;
	out->summaries = xcalloc(1, sizeof(*out->summaries));
	msp_record_summary(&w->rec, &out->summaries[0]);
	msp_leaf_file_summary(u, &w->rec, &out->summaries[0]);
	common_text(r, &sb, u, name);
	strbuf_addf(&sb, "slot: %s\nrole: %s\n", w->path, msp_role_name(w->role));
	strbuf_addf(&sb, "dtype: %s\n", w->rec.dtype);
	if (w->rec.requires_grad >= 0)
		strbuf_addf(&sb, "requires_grad: %s\n", w->rec.requires_grad ? "true" : "false");
	if (w->rec.bool_stats)
		strbuf_addf(&sb, "any: %s\nall: %s\n", w->rec.max != 0 ? "true" : "false",
			    w->rec.min != 0 ? "true" : "false");
	if (!w->rec.bool_stats &&
	    (w->rec.has_max || w->rec.has_min || w->rec.has_mean || w->rec.has_norm))
		/* as written (NaN and Inf kept, null as null): what msprobe's
		 * compare reads and prints (FORMAT.md §10) */
		strbuf_addf(&sb, "statistics: %s %s %s %s\n", stat_text(w->rec.has_max, w->rec.max, sv[0]),
			    stat_text(w->rec.has_min, w->rec.min, sv[1]),
			    stat_text(w->rec.has_mean, w->rec.mean, sv[2]),
			    stat_text(w->rec.has_norm, w->rec.norm, sv[3]));
	if (!w->rec.bool_stats &&
	    (w->rec.has_max || w->rec.has_min || w->rec.has_mean || w->rec.has_norm))
		out->stats = (struct reader_stats){
			true, { w->rec.has_max, w->rec.has_min, w->rec.has_mean, w->rec.has_norm },
			{ w->rec.max, w->rec.min, w->rec.mean, w->rec.norm } };
	if (*w->rec.md5)
		strbuf_addf(&sb, "%s: %s\n", strncmp(w->rec.md5, "0x", 2) == 0 ? "xor" : "md5 (crc32)",
			    w->rec.md5);
	if (*w->rec.data_name)
		strbuf_addf(&sb, "data_name: %s\n", w->rec.data_name);
	leaf_value(u, w, out, &sb);
	strbuf_adds(&sb, args_text ? args_text : "");
	out->text = strbuf_take(&sb);
	frames_of(u, name, out);
	out->next_offset = loc->offset + 1;
	free(name);
	free(args_text);
	free(w);
	return TD_OK;
}

static enum td_status
decode_execution(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	struct msp_unit *u = unit_of(r, loc);
	struct msp_entry_cache *c = r->ecache;
	const struct entry_scan *s;
	struct strbuf sb = { 0 };
	enum td_status st;
	char *name, *args_text;
	size_t n;

	if (!u || loc->offset >= u->nentries)
		return TD_ERR_RANGE;
	/* the entry's scan, shared with its rows' decodes (a watch reads an
	 * execution, then its rows) */
	if ((st = cache_hold(r, loc->file, (size_t)loc->offset)) != TD_OK)
		return st;
	s = &c->scan;
	/* an execution's outputs are its output leaves, in their order */
	n = s->nsums;
	out->summaries = xcalloc(n ? n : 1, sizeof(*out->summaries));
	if (n)                  /* none: no array to copy from (a call of inputs alone) */
		memcpy(out->summaries, s->sums, n * sizeof(*out->summaries));
	out->noutputs = n;
	/* the arguments of a call without tensor leaves are its only CSV
	 * rows (FORMAT.md §12) */
	out->args = args_dup(s->targs, s->ntargs);
	out->nargs = s->ntargs;
	name = xstrdup(s->name);
	args_text = dup_or_null(s->args_text);
	pthread_mutex_unlock(&c->lock);
	names_of(u, name, out);
	common_text(r, &sb, u, name);
	strbuf_adds(&sb, args_text ? args_text : "");
	out->text = strbuf_take(&sb);
	frames_of(u, name, out);
	out->next_offset = loc->offset + 1;
	free(name);
	free(args_text);
	return TD_OK;
}

/* With --source-root: the file under it (the root joined with each
 * suffix of path, longest first), or NULL. */
static char *
under_root(const struct reader *r, const char *path)
{
	struct stat st;
	const char *p = path;

	while (r->source_root && p && *p) {
		char *cand;

		while (*p == '/')
			p++;
		cand = xasprintf("%s/%s", r->source_root, p);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode))
			return cand;
		free(cand);
		p = strchr(p, '/');
	}
	return NULL;
}

/* The whole file's lines; false when it cannot be read or is over the
 * side-file limit (the recorded lines serve then). */
static bool
file_lines(const char *path, struct reader_detail *out)
{
	char *buf, err[256];
	size_t len, pos = 0, cap = 0;

	if (td_read_file(path, TD_SIDE_FILE_MAX, &buf, &len, err, sizeof err) != TD_OK)
		return false;
	while (pos < len) {
		const char *s = buf + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		TD_GROW(out->lines, cap, out->nlines + 1);
		out->lines[out->nlines++] = xstrndup(s, n && s[n - 1] == '\r' ? n - 1 : n);
		pos += n + 1;
	}
	free(buf);
	out->text = xasprintf("read from %s", path);
	return true;
}

/* The file under --source-root when there is one, else the lines the
 * stacks recorded (FORMAT.md §5); the model reads the file from disk
 * itself on request. */
static enum td_status
decode_source(struct reader *r, const struct td_locator *loc, struct reader_detail *out)
{
	const struct msp_source *s;
	char *disk;
	size_t k;

	pthread_mutex_lock(&r->lock);
	if (loc->offset >= r->nsources) {
		pthread_mutex_unlock(&r->lock);
		return TD_ERR_RANGE;
	}
	disk = under_root(r, r->sources[loc->offset].path);
	pthread_mutex_unlock(&r->lock);
	if (disk && file_lines(disk, out)) {
		free(disk);
		return TD_OK;
	}
	free(disk);
	reader_detail_done(out);
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&r->lock);
	s = &r->sources[loc->offset];
	out->nlines = s->maxline;
	out->lines = xcalloc(s->maxline ? s->maxline : 1, sizeof(*out->lines));
	for (k = 0; k < s->nrec; k++)
		if (!out->lines[s->line[k] - 1])
			out->lines[s->line[k] - 1] = xstrdup(s->code[k]);
	pthread_mutex_unlock(&r->lock);
	out->lines_partial = true;
	out->text = xstrdup("lines recorded in stack.json (the file itself is not in the dump)");
	return TD_OK;
}

enum td_status
msp_decode(struct reader *r, enum reader_kind kind, const struct td_locator *loc,
	   struct reader_detail *out)
{
	memset(out, 0, sizeof(*out));
	switch (kind) {
	case READER_TRACE:
		return decode_trace(r, loc, out);
	case READER_EXECUTION:
		return decode_execution(r, loc, out);
	case READER_SOURCE:
		return decode_source(r, loc, out);
	}
	return TD_ERR_ARGS;
}

enum td_status
msp_advance(struct reader *r, enum reader_kind kind, struct td_locator *loc, uint64_t n)
{
	struct msp_unit *u = unit_of(r, loc);
	enum td_status rc = TD_ERR_RANGE;
	uint64_t count;

	if (!u)
		return rc;
	pthread_mutex_lock(&r->lock);
	count = kind == READER_TRACE ? u->ntraces : kind == READER_EXECUTION ? u->nentries : 0;
	if (loc->offset + n < count && loc->offset + n >= loc->offset) {
		loc->offset += n;
		rc = TD_OK;
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}
