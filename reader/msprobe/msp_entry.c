/*
 * msp_entry.c - one dump.json entry: its name's parts (FORMAT.md §3), the
 * walk over its body into tensor leaves and non-tensor arguments (§4), a
 * record's summary, and the string map the reader's tables use (entries
 * in insertion order over the foundation's hashtab).  Shared by
 * the index pass and decode(), so both number leaves the same way.
 */
#include "msp_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s[0, n) is word (a literal): a length check and an inlined memcmp, not
 * a strcmp call (the index pass compares per entry and per record). */
#define IS_WORD(s, n, word) ((n) == sizeof(word) - 1 && memcmp((s), (word), sizeof(word) - 1) == 0)

/* src[0, n) (no NUL among them) into dst[len], cut to fit: snprintf without
 * printf (the index pass's hot path). */
static void
copy_n(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void
copy(char *dst, size_t len, const char *src)
{
	copy_n(dst, len, src, strlen(src));
}

/* ---- the map ------------------------------------------------------------ */

uint32_t
msp_name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static bool
key_eq(const void *ctx, uint32_t e, const void *key)
{
	return strcmp(((const struct msp_map *)ctx)->ents[e].key, key) == 0;
}

uint64_t *
msp_map_put(struct msp_map *m, const char *key, uint64_t val)
{
	uint32_t h = hashtab_str_hash(key), e = hashtab_find(&m->ids, h, key_eq, m, key);

	if (e == HASHTAB_NONE) {
		if (m->n >= HASHTAB_NONE)
			abort();
		e = (uint32_t)m->n++;
		TD_GROW(m->ents, m->cap, m->n);
		m->ents[e].key = td_strpool_copy(&m->keys, key, strlen(key));
		hashtab_add(&m->ids, h, e);
	}
	m->ents[e].val = val;
	return &m->ents[e].val;
}

uint64_t *
msp_map_get(const struct msp_map *m, const char *key)
{
	uint32_t e;

	if (!m->n)
		return NULL;    /* no hash of the key: a dump without stack.json or
				 * construct.json asks two empty maps per entry */
	e = hashtab_find(&m->ids, hashtab_str_hash(key), key_eq, m, key);

	return e == HASHTAB_NONE ? NULL : &m->ents[e].val;
}

void
msp_map_done(struct msp_map *m)
{
	free(m->ents);
	hashtab_done(&m->ids);
	td_strpool_done(&m->keys);
	memset(m, 0, sizeof(*m));
}

/* ---- names ---------------------------------------------------------------- */

const char *
msp_role_name(enum msp_role r)
{
	return r == MSP_WEIGHT ? "weight" : r == MSP_GRADIENT ? "gradient" : "activation";
}

const char *
msp_dir_name(enum msp_dir d)
{
	static const char *const n[] = { "forward", "backward", "parameters_grad", "" };

	return n[d];
}

static bool
all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return n > 0;
}

/* The parts of an entry name msp_name_parse gives: its direction, the
 * count's text (cnt, cntlen) and the type's length (the bytes before the
 * count and the direction); MSP_OTHER with cnt NULL when the name has no
 * such parts. */
static enum msp_dir
name_split(const char *name, const char **cnt, size_t *cntlen, size_t *typelen)
{
	const char *last = strrchr(name, '.'), *prev, *word;
	size_t wordlen;

	*cnt = NULL;
	if (!last || last == name)
		return MSP_OTHER;
	for (prev = last - 1; prev > name && *prev != '.'; prev--)
		;
	if (prev == name)
		return MSP_OTHER;
	if (all_digits(last + 1, strlen(last + 1))) {
		word = prev + 1;
		wordlen = (size_t)(last - word);
		*cntlen = strlen(last + 1);
		*cnt = last + 1;
	} else if (all_digits(prev + 1, (size_t)(last - prev - 1))) {
		word = last + 1;
		wordlen = strlen(word);
		*cntlen = (size_t)(last - prev - 1);
		*cnt = prev + 1;
	} else {
		return MSP_OTHER;
	}
	*typelen = (size_t)(prev - name);
	if (wordlen == 7 && strncmp(word, "forward", 7) == 0)
		return MSP_FORWARD;
	if (wordlen == 8 && strncmp(word, "backward", 8) == 0)
		return MSP_BACKWARD;
	if (wordlen == 15 && strncmp(word, "parameters_grad", 15) == 0)
		return MSP_PARAM_GRAD;
	if (!(wordlen == 5 && strncmp(word, "debug", 5) == 0))
		*cnt = NULL;
	return MSP_OTHER;
}

enum msp_dir
msp_name_dir(const char *name)
{
	const char *cnt;
	size_t cntlen, typelen;

	return name_split(name, &cnt, &cntlen, &typelen);
}

/* Splits off the last two dot-separated parts: "A.B.3.forward" or
 * "Module.x.C.forward.3" (FORMAT.md §3). */
enum msp_dir
msp_name_parse(const char *name, char *type, size_t typelen, int64_t *count)
{
	const char *cnt;
	size_t cntlen, tlen;
	enum msp_dir dir = name_split(name, &cnt, &cntlen, &tlen);

	*count = -1;
	if (!cnt) {
		copy(type, typelen, name);
		return MSP_OTHER;
	}
	if (cntlen < 19)
		*count = strtoll(cnt, NULL, 10);
	copy_n(type, typelen, name, tlen);
	return dir;
}

/* ---- records ------------------------------------------------------------- */

void
msp_record_resolve(struct msp_record *r)
{
	double *v[] = { &r->max, &r->min, &r->mean, &r->norm };
	int k;

	for (k = 0; k < 4; k++)
		if (r->pending & (1u << k))
			*v[k] = decnum_dec_value(&r->pend[k]);
	r->pending = 0;
}

bool
msp_record_is_tensor(const struct msp_record *r)
{
	size_t n = strlen(r->type);

	return (n >= 6 && memcmp(r->type + n - 6, "Tensor", 6) == 0) ||
	       IS_WORD(r->type, n, "numpy.ndarray");
}

/* "torch.float32", "Float32", "BFloat16", "numpy.float32" -> a dtype.
 * The last word asked on this thread is remembered: a dump spells a few
 * dtypes over and over, and the lookup below compares the name with every
 * dtype's (td_dtype_from_name: a strcmp each). */
static enum td_dtype dtype_lookup(const char *word);

static enum td_dtype
dtype_of(const char *word)
{
	static _Thread_local char last[32];
	static _Thread_local enum td_dtype last_dt = DTYPE_INVALID;
	size_t n = strlen(word);

	if (n >= sizeof last)
		return dtype_lookup(word);
	if (memcmp(word, last, n + 1) != 0) {
		last_dt = dtype_lookup(word);
		memcpy(last, word, n + 1);
	}
	return last_dt;
}

static enum td_dtype
dtype_lookup(const char *word)
{
	const char *dot = strrchr(word, '.');
	char low[32];
	size_t i;
	enum td_dtype dt;

	if (!*word)
		return DTYPE_INVALID;
	copy(low, sizeof low, dot ? dot + 1 : word);
	for (i = 0; low[i]; i++)
		low[i] = (char)tolower((unsigned char)low[i]);
	if (strcmp(low, "half") == 0)
		return DTYPE_FLOAT16;
	if (strcmp(low, "float") == 0)
		return DTYPE_FLOAT32;
	if (strcmp(low, "double") == 0)
		return DTYPE_FLOAT64;
	if (strcmp(low, "long") == 0)
		return DTYPE_INT64;
	dt = td_dtype_from_name(low);
	return dt == DTYPE_INVALID ? DTYPE_OTHER : dt;
}

void
msp_record_summary(const struct msp_record *r, struct td_summary *s)
{
	bool finite = true;
	int k;

	memset(s, 0, sizeof(*s));
	s->dtype = dtype_of(r->dtype);
	if (s->dtype != DTYPE_INVALID)
		s->known |= SUM_DTYPE;
	if (r->has_shape) {
		int64_t n = 1;
		bool ok = true;

		s->rank = r->rank;
		s->ndims = TD_MIN(r->rank, TD_MAX_DIMS);
		s->dims_truncated = r->rank > TD_MAX_DIMS;
		for (k = 0; k < s->ndims; k++)
			s->dims[k] = r->dims[k];
		s->known |= SUM_RANK | SUM_SHAPE;
		for (k = 0; k < s->ndims && ok; k++)
			ok = r->dims[k] >= 0 && (r->dims[k] == 0 || n <= INT64_MAX / r->dims[k]) &&
			     ((n *= r->dims[k]), true);
		if (ok && !s->dims_truncated) {
			s->elements = n;
			s->known |= SUM_ELEMENTS;
		}
	}
	if (r->has_max)
		finite = finite && isfinite(r->max);
	if (r->has_min)
		finite = finite && isfinite(r->min);
	if (r->has_mean)
		finite = finite && isfinite(r->mean);
	if (r->has_norm)
		finite = finite && isfinite(r->norm);
	if (r->has_max || r->has_min || r->has_mean || r->has_norm) {
		/* torch's max/min propagate NaN and an Inf shows in max or min:
		 * finite statistics prove a finite tensor (FORMAT.md §4) */
		if (!finite || (r->has_max && r->has_min)) {
			s->known |= SUM_NONFINITE;
			s->has_inf_or_nan = !finite;
		}
	}
	if (r->has_max && r->has_min && isfinite(r->max) && isfinite(r->min)) {
		s->known |= SUM_MINMAX;
		s->min = r->min;
		s->max = r->max;
	}
	if (r->has_mean && isfinite(r->mean)) {
		s->known |= SUM_MEAN;
		s->mean = r->mean;
	}
	if (r->has_norm && isfinite(r->norm)) {
		s->known |= SUM_L2NORM;
		s->l2norm = r->norm;
	}
}

/* ---- the walk ------------------------------------------------------------- */

struct walk {
	struct jscan *js;
	const struct msp_walk *w;
	uint32_t k;                 /* leaves so far */
	char path[512];
	bool backward;
	bool io;                    /* in an inputs/outputs section (on_nonleaf) */
	struct jscan_flat *flat;    /* a record read whole (flat_record): one per walk,
				     * not one in each nested object()'s stack frame */
};

static bool value(struct walk *wk, enum jscan_tok t, size_t plen, bool is_input, enum msp_role role);

/* Appends ".part" (or "part" at the start) to the path; returns the old length. */
static size_t
push(struct walk *wk, const char *part)
{
	size_t len = strlen(wk->path), n = strlen(part), at = len;

	if (len && at + 1 < sizeof wk->path)
		wk->path[at++] = '.';
	n = TD_MIN(n, sizeof wk->path - 1 - at);
	memcpy(wk->path + at, part, n);
	wk->path[at + n] = '\0';
	return len;
}

/* A scalar token's value: its text (NUL-terminated) or number. */
struct tokval {
	const char *str;
	size_t len;
	double num;
};

static struct tokval
tokval_of(const struct jscan *js)
{
	return (struct tokval){ js->str, js->len, js->num };
}

static void
scalar_text(const struct tokval *v, enum jscan_tok t, char *buf, size_t len)
{
	switch (t) {
	case JSCAN_STRING: snprintf(buf, len, "%s", v->str); break;
	case JSCAN_NUMBER: snprintf(buf, len, "%.17g", v->num); break;
	case JSCAN_TRUE: snprintf(buf, len, "true"); break;
	case JSCAN_FALSE: snprintf(buf, len, "false"); break;
	default: snprintf(buf, len, "null"); break;
	}
}

/* A scalar as Python's repr writes it inside a list: 'text', None,
 * True, a whole number without a point (FORMAT.md §12). */
static void
py_scalar(const struct tokval *v, enum jscan_tok t, char *buf, size_t len)
{
	struct strbuf sb = { 0 };

	switch (t) {
	case JSCAN_STRING: snprintf(buf, len, "'%s'", v->str); return;
	case JSCAN_TRUE: snprintf(buf, len, "True"); return;
	case JSCAN_FALSE: snprintf(buf, len, "False"); return;
	case JSCAN_NUMBER:
		if (v->num == (double)(long long)v->num && fabs(v->num) < 9e18) {
			snprintf(buf, len, "%lld", (long long)v->num);
			return;
		}
		strbuf_add_pyfloat(&sb, v->num);
		snprintf(buf, len, "%s", sb.buf);
		strbuf_done(&sb);
		return;
	default: snprintf(buf, len, "None"); return;
	}
}

/* Element n of a shape (a number when is_num): a dim, or the shape unknown
 * (*rank -1); a dim is a whole number in int64's range (no float-to-int
 * overflow).  Past TD_MAX_DIMS the last ones are kept. */
static void
shape_dim(int64_t *dims, int *rank, int n, bool is_num, double num)
{
	if (!is_num || !(num >= 0 && num < 9.2e18) || num != (double)(int64_t)num)
		*rank = -1;
	else if (n < TD_MAX_DIMS)
		dims[n] = (int64_t)num;
	else
		memmove(dims, dims + 1, (TD_MAX_DIMS - 1) * sizeof(*dims)),
		dims[TD_MAX_DIMS - 1] = (int64_t)num;
}

/* A short array of scalars as text: "[1, 2, 3]" (shape, slice, group_ranks);
 * py (when not NULL) gets it as Python writes the list. */
static bool
array_text(struct jscan *js, char *buf, size_t len, int64_t *dims, int *rank, char *py,
	   size_t pylen)
{
	size_t pused = py ? (size_t)snprintf(py, pylen, "[") : 0;
	size_t used = 0;
	enum jscan_tok t;
	int n = 0;

	/* a shape (dims) keeps no text: no formatting in the index pass */
	if (!dims)
		used += (size_t)snprintf(buf, len, "[");
	while ((t = jscan_next(js)) != JSCAN_ARR_END) {
		char one[64];

		if (t == JSCAN_ERROR || t == JSCAN_EOF)
			return false;
		if (t == JSCAN_OBJ_BEGIN || t == JSCAN_ARR_BEGIN) {
			if (!jscan_skip(js, t))
				return false;
			snprintf(one, sizeof one, "...");
			*rank = -1;
			if (py && pused < pylen)
				pused += (size_t)snprintf(py + pused, pylen - pused, "%s...", n ? ", " : "");
		} else {
			if (py && pused < pylen) {
				char p1[64];

				struct tokval v = tokval_of(js);

				py_scalar(&v, t, p1, sizeof p1);
				pused += (size_t)snprintf(py + pused, pylen - pused, "%s%s", n ? ", " : "", p1);
			}
			if (!dims) {
				struct tokval v = tokval_of(js);

				scalar_text(&v, t, one, sizeof one);
			}
			if (dims && *rank >= 0)
				shape_dim(dims, rank, n, t == JSCAN_NUMBER, js->num);
		}
		if (!dims && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? ", " : "", one);
		n++;
	}
	if (!dims && used < len)
		snprintf(buf + used, len - used, "]");
	if (py && pused < pylen)
		snprintf(py + pused, pylen - pused, "]");
	if (*rank >= 0)
		*rank = n;
	return true;
}

static void
stat_field(const struct tokval *tv, enum jscan_tok t, bool *has, double *v, bool *as_bool)
{
	if (t == JSCAN_NUMBER) {
		*has = true;
		*v = tv->num;
	} else if (t == JSCAN_TRUE || t == JSCAN_FALSE) {
		*has = true;
		*v = t == JSCAN_TRUE;
		*as_bool = true;
	}
}

/* The keys a record's fields go by (FORMAT.md §4), told apart once by
 * length and bytes rather than by a chain of strcmp per field. */
enum rkey {
	RK_OTHER, RK_TYPE, RK_DTYPE, RK_SHAPE, RK_MAX, RK_MIN, RK_MEAN, RK_NORM, RK_REQUIRES_GRAD,
	RK_DATA_NAME, RK_MD5, RK_VALUE, RK_FORMAT, RK_GROUP_ID, RK_OP, RK_PEER, RK_GROUP_RANKS,
};

static enum rkey
rkey_of(const char *k, size_t n)
{
#define RK_IS(word) (n == sizeof(word) - 1 && memcmp(k, word, sizeof(word) - 1) == 0)
	switch (n) {
	case 2: return RK_IS("op") ? RK_OP : RK_OTHER;
	case 3: return RK_IS("Max") ? RK_MAX : RK_IS("Min") ? RK_MIN : RK_IS("md5") ? RK_MD5 : RK_OTHER;
	case 4:
		return RK_IS("type") ? RK_TYPE : RK_IS("Mean") ? RK_MEAN : RK_IS("Norm") ? RK_NORM
		       : RK_IS("peer") ? RK_PEER : RK_OTHER;
	case 5:
		return RK_IS("dtype") ? RK_DTYPE : RK_IS("shape") ? RK_SHAPE : RK_IS("value") ? RK_VALUE
		       : RK_OTHER;
	case 6: return RK_IS("format") ? RK_FORMAT : RK_OTHER;
	case 8: return RK_IS("group_id") ? RK_GROUP_ID : RK_OTHER;
	case 9: return RK_IS("data_name") ? RK_DATA_NAME : RK_OTHER;
	case 11: return RK_IS("group_ranks") ? RK_GROUP_RANKS : RK_OTHER;
	case 13: return RK_IS("requires_grad") ? RK_REQUIRES_GRAD : RK_OTHER;
	default: return RK_OTHER;
	}
#undef RK_IS
}

/* The text of each known key (a path part when its value is a container). */
static const char *const rkey_name[] = {
	[RK_TYPE] = "type", [RK_DTYPE] = "dtype", [RK_SHAPE] = "shape", [RK_MAX] = "Max",
	[RK_MIN] = "Min", [RK_MEAN] = "Mean", [RK_NORM] = "Norm", [RK_REQUIRES_GRAD] = "requires_grad",
	[RK_DATA_NAME] = "data_name", [RK_MD5] = "md5", [RK_VALUE] = "value", [RK_FORMAT] = "format",
	[RK_GROUP_ID] = "group_id", [RK_OP] = "op", [RK_PEER] = "peer", [RK_GROUP_RANKS] = "group_ranks",
};

/* One scalar field of a record, its key k. */
static void
record_field(const struct tokval *v, enum rkey k, enum jscan_tok t, struct msp_record *r)
{
	switch (k) {
	case RK_TYPE:
		if (t == JSCAN_STRING)
			copy_n(r->type, sizeof r->type, v->str, v->len);
		return;
	case RK_DTYPE:
		if (t == JSCAN_STRING)
			copy_n(r->dtype, sizeof r->dtype, v->str, v->len);
		return;
	case RK_MAX: stat_field(v, t, &r->has_max, &r->max, &r->bool_stats); return;
	case RK_MIN: stat_field(v, t, &r->has_min, &r->min, &r->bool_stats); return;
	case RK_MEAN: stat_field(v, t, &r->has_mean, &r->mean, &r->bool_stats); return;
	case RK_NORM: stat_field(v, t, &r->has_norm, &r->norm, &r->bool_stats); return;
	case RK_REQUIRES_GRAD:
		r->requires_grad = t == JSCAN_TRUE ? 1 : t == JSCAN_FALSE ? 0 : -1;
		return;
	case RK_DATA_NAME:
		if (t == JSCAN_STRING)
			copy_n(r->data_name, sizeof r->data_name, v->str, v->len);
		return;
	case RK_MD5:
		if (t == JSCAN_STRING)
			copy_n(r->md5, sizeof r->md5, v->str, v->len);
		return;
	case RK_VALUE:
		r->vkind = t == JSCAN_NUMBER ? MSP_V_NUM : t == JSCAN_STRING ? MSP_V_STR
			   : t == JSCAN_NULL ? MSP_V_NULL : MSP_V_BOOL;
		r->vnum = t == JSCAN_NUMBER ? v->num : t == JSCAN_TRUE;
		if (t == JSCAN_STRING)
			copy_n(r->pyval, sizeof r->pyval, v->str, v->len);
		scalar_text(v, t, r->value, sizeof r->value);
		return;
	case RK_FORMAT:
	case RK_GROUP_ID:
	case RK_OP:
	case RK_PEER:
		if (!*r->value)
			scalar_text(v, t, r->value, sizeof r->value);
		return;
	default:
		return;
	}
}

/* A record as empty as a zeroed one for every reader of it (the strings
 * empty, the flags and numbers zero, requires_grad absent): not the whole
 * kilobyte a memset wrote per tensor leaf.  dims[] is read only up to a
 * shape's rank, which the walk sets with them. */
static void
record_clear(struct msp_record *r)
{
	r->type[0] = r->dtype[0] = r->data_name[0] = r->md5[0] = '\0';
	r->value[0] = r->pyval[0] = r->pyranks[0] = '\0';
	r->has_shape = false;
	r->rank = 0;
	r->has_max = r->has_min = r->has_mean = r->has_norm = false;
	r->max = r->min = r->mean = r->norm = 0;
	r->pending = 0;
	r->bool_stats = false;
	r->requires_grad = -1;
	r->vkind = MSP_V_ABSENT;
	r->vnum = 0;
	r->vcount = 0;
}

/* A flat record read at once (jscan_flat) when each of its arrays is a
 * shape: what the loop in object() does with the same members, their
 * tokens in order.  False (nothing consumed) for any other array. */
static bool
flat_record(struct walk *wk, bool is_input, struct msp_record *r)
{
	struct jscan_flat *f = wk->flat;
	int i, j;

	if (!jscan_flat(wk->js, f))
		return false;
	for (i = 0; i < f->n; i++)
		if (f->m[i].tok == JSCAN_ARR_BEGIN && rkey_of(f->m[i].key, f->m[i].klen) != RK_SHAPE)
			return false;   /* a value or group_ranks list: its text, token by token */
	jscan_flat_take(wk->js, f);
	for (i = 0; i < f->n; i++) {
		const struct jscan_member *mb = &f->m[i];
		enum rkey k = rkey_of(mb->key, mb->klen);

		if (mb->tok == JSCAN_ARR_BEGIN) {
			int rank = 0;

			for (j = 0; j < mb->count && rank >= 0; j++)
				shape_dim(r->dims, &rank, j, true, f->nums[mb->first + j]);
			if (rank >= 0)
				rank = mb->count;
			r->has_shape = rank >= 0;
			r->rank = rank;
		} else if (mb->tok == JSCAN_NULL && !*r->type && wk->io && wk->w->on_nonleaf) {
			char other[64];
			size_t old;

			copy_n(other, sizeof other, mb->key, mb->klen);
			old = push(wk, k == RK_OTHER ? other : rkey_name[k]);
			wk->w->on_nonleaf(wk->w->ctx, wk->path, is_input, NULL);
			wk->path[old] = '\0';
		} else if (mb->tok == JSCAN_NUMBER && mb->pending && k >= RK_MAX && k <= RK_NORM &&
			   wk->w->pending_ok) {
			/* a statistic made on the index's sink side */
			int s = k - RK_MAX;
			bool *has[] = { &r->has_max, &r->has_min, &r->has_mean, &r->has_norm };

			*has[s] = true;
			r->pending |= (uint8_t)(1u << s);
			r->pend[s] = mb->dec;
		} else {
			struct tokval v = { mb->str, mb->len, jscan_member_num(mb) };

			if (k >= RK_MAX && k <= RK_NORM)
				r->pending &= (uint8_t)~(1u << (k - RK_MAX));   /* a key given twice */
			record_field(&v, k, mb->tok, r);
		}
	}
	return true;
}

/* A record's members token by token into r (object()); false on an error. */
static bool
members(struct walk *wk, struct msp_record *r, bool is_input, enum msp_role role)
{
	enum jscan_tok t;
	char other[64];

	while ((t = jscan_next(wk->js)) == JSCAN_KEY) {
		enum rkey k = rkey_of(wk->js->str, wk->js->len);
		const char *key = k == RK_OTHER ? other : rkey_name[k];

		/* the key's text outlives the next token only for a path
		 * part: copied for a key of no field (a known key's is above) */
		if (k == RK_OTHER)
			copy_n(other, sizeof other, wk->js->str, wk->js->len);
		t = jscan_next(wk->js);
		if (t == JSCAN_ERROR || t == JSCAN_EOF)
			return false;
		if (t == JSCAN_ARR_BEGIN && (k == RK_SHAPE || k == RK_VALUE || k == RK_GROUP_RANKS)) {
			bool shape = k == RK_SHAPE, ranks = k == RK_GROUP_RANKS;
			int rank = 0;
			char arr[sizeof r->value];

			if (!array_text(wk->js, arr, sizeof arr, shape ? r->dims : NULL, &rank,
					shape ? NULL : ranks ? r->pyranks : r->pyval,
					ranks ? sizeof r->pyranks : sizeof r->pyval))
				return false;
			if (!shape && !ranks) {
				r->vkind = MSP_V_LIST;
				r->vcount = rank;
			}
			if (shape) {
				r->has_shape = rank >= 0;
				r->rank = rank;
			} else {
				size_t vl = strlen(r->value);

				if (vl && vl + 1 < sizeof r->value)
					r->value[vl++] = ' ';
				r->value[vl] = '\0';
				{
					size_t al = TD_MIN(strlen(arr), sizeof r->value - vl - 1);

					memcpy(r->value + vl, arr, al);
					r->value[vl + al] = '\0';
				}
			}
		} else if (t == JSCAN_OBJ_BEGIN || t == JSCAN_ARR_BEGIN) {
			size_t old = push(wk, key);

			if (!value(wk, t, old, is_input, role))
				return false;
		} else if (t == JSCAN_NULL && !*r->type && wk->io && wk->w->on_nonleaf) {
			/* a None keyword argument (records put "type" first, so
			 * this is no record's field): a row without a dtype */
			size_t old = push(wk, key);

			wk->w->on_nonleaf(wk->w->ctx, wk->path, is_input, NULL);
			wk->path[old] = '\0';
		} else {
			struct tokval v = tokval_of(wk->js);

			record_field(&v, k, t, r);
		}
	}
	return t == JSCAN_OBJ_END;
}

/* An object: a record (tensor or not), whose object-valued fields are
 * nested arguments walked as children (path.key).  A flat one (the usual
 * tensor record) is read at once. */
static bool
object(struct walk *wk, size_t plen, bool is_input, enum msp_role role)
{
	struct msp_record r;
	char text[320];

	record_clear(&r);
	if (!flat_record(wk, is_input, &r) && !members(wk, &r, is_input, role))
		return false;
	if (r.pending && !msp_record_is_tensor(&r))
		msp_record_resolve(&r);         /* only a leaf's go on pending */
	if (msp_record_is_tensor(&r)) {
		if (wk->k < MSP_MAX_LEAVES && wk->w->on_leaf)
			wk->w->on_leaf(wk->w->ctx, wk->k, wk->path, is_input, role, &r);
		wk->k++;
	} else if (*r.type) {
		if (wk->w->on_arg) {
			snprintf(text, sizeof text, "%s %s", r.type, r.value);
			wk->w->on_arg(wk->w->ctx, wk->path, text);
		}
		if (wk->io && wk->w->on_nonleaf)
			wk->w->on_nonleaf(wk->w->ctx, wk->path, is_input, &r);
	}
	wk->path[plen] = '\0';
	return true;
}

/* Any value at wk->path (its first token t); restores the path to plen. */
static bool
value(struct walk *wk, enum jscan_tok t, size_t plen, bool is_input, enum msp_role role)
{
	bool ok = true;

	if (t == JSCAN_OBJ_BEGIN) {
		ok = object(wk, plen, is_input, role);
	} else if (t == JSCAN_ARR_BEGIN) {
		size_t i = 0;

		while (ok && (t = jscan_next(wk->js)) != JSCAN_ARR_END) {
			char idx[24];
			size_t old;

			if (t == JSCAN_ERROR || t == JSCAN_EOF)
				return false;
			{
				char *p = idx + sizeof idx - 1;
				size_t v = i++;

				*p = '\0';
				do
					*--p = (char)('0' + v % 10);
				while ((v /= 10) != 0);
				old = push(wk, p);
			}
			ok = value(wk, t, old, is_input, role);
		}
	} else if (t == JSCAN_ERROR || t == JSCAN_EOF) {
		ok = false;
	} else if (t == JSCAN_NULL && wk->io && wk->w->on_nonleaf) {
		/* a None argument, or no gradient: the compare tool's row
		 * without a dtype (FORMAT.md §12) */
		wk->w->on_nonleaf(wk->w->ctx, wk->path, is_input, NULL);
	} else if (wk->w->on_arg && t != JSCAN_NULL) {
		char text[200];
		struct tokval v = tokval_of(wk->js);

		scalar_text(&v, t, text, sizeof text);
		wk->w->on_arg(wk->w->ctx, wk->path, text);
	}
	wk->path[plen] = '\0';
	return ok;
}

/* What an entry's section is, by the first part of its leaves' paths. */
enum sec_kind { SEC_OTHER, SEC_INPUT, SEC_OUTPUT, SEC_PARAMETERS };

/* Where a top-level key of an entry body (n bytes) puts its leaves
 * (FORMAT.md §4): the first part of their paths; *kind says which of
 * "input", "output", "parameters" that part is. */
static const char *
section(const char *key, size_t n, enum msp_dir dir, bool *is_input, enum msp_role *role,
	enum sec_kind *kind)
{
	*role = dir == MSP_BACKWARD || dir == MSP_PARAM_GRAD ? MSP_GRADIENT : MSP_ACTIVATION;
	*is_input = false;
	*kind = IS_WORD(key, n, "input") ? SEC_INPUT : IS_WORD(key, n, "output") ? SEC_OUTPUT
		: IS_WORD(key, n, "parameters") ? SEC_PARAMETERS : SEC_OTHER;
	if (dir == MSP_PARAM_GRAD)
		return key;
	if (IS_WORD(key, n, "input_args") || IS_WORD(key, n, "input_kwargs") || *kind == SEC_INPUT) {
		*is_input = true;
		*kind = SEC_INPUT;
		return "input";
	}
	if (*kind == SEC_PARAMETERS)
		/* not an input: msprobe's overflow rule reads input_args and
		 * input_kwargs only (FORMAT.md §4) */
		*role = MSP_WEIGHT;
	return key;
}

bool
msp_walk_entry(struct jscan *js, const char *name, const struct msp_walk *w)
{
	struct jscan_flat flat;     /* filled before it is read (jscan_flat) */
	struct walk wk = { .js = js, .w = w, .flat = &flat };
	enum msp_dir dir = msp_name_dir(name);
	enum jscan_tok t = jscan_next(js);
	size_t nlen = strlen(name);

	if (nlen > 6 && strcmp(name + nlen - 6, ".debug") == 0) {
		/* debug.json (FORMAT.md §1): the value is the saved variable, a
		 * record or nested lists and dicts of them; "_grad" names a
		 * gradient */
		bool grad = strstr(name, "_grad.") != NULL;

		snprintf(wk.path, sizeof wk.path, "value");
		return value(&wk, t, 5, false, grad ? MSP_GRADIENT : MSP_ACTIVATION);
	}
	if (t != JSCAN_OBJ_BEGIN)
		return t == JSCAN_ERROR ? false : jscan_skip(js, t);
	while ((t = jscan_next(js)) == JSCAN_KEY) {
		bool is_input;
		enum msp_role role;
		enum sec_kind kind;
		char key[64];
		const char *sec;

		copy_n(key, sizeof key, js->str, js->len);
		sec = section(key, strlen(key), dir, &is_input, &role, &kind);
		/* the sections whose non-tensor values the compare tool lists
		 * (FORMAT.md §12); parameter gradients are tensors only */
		wk.io = dir != MSP_PARAM_GRAD && kind != SEC_OTHER;
		copy(wk.path, sizeof wk.path, sec);
		t = jscan_next(js);
		if (t == JSCAN_OBJ_BEGIN && kind == SEC_OUTPUT) {
			/* a single output record: its path is "output.0" */
			snprintf(wk.path, sizeof wk.path, "output.0");
		}
		if (!value(&wk, t, 0, is_input, role))
			return false;
	}
	return t == JSCAN_OBJ_END;
}
