/*
 * rowsort.c - trace rows sorted by a field (see rowsort.h).
 *
 * Op names and types are ranked once per op (the ops sorted by text), so
 * a row's key is a number for every field and one comparison serves all.
 * Size and time keys are read from the summary columns a window at a
 * time (model_trace_sort_keys); a whole sort keeps 12 bytes a row, a short
 * head of it (rowsort_top) a heap of k rows whatever the dump's size.
 */
#include "rowsort.h"

#include <stdlib.h>
#include <string.h>

static const char *const names[SORT_COUNT] = {
#define ROWSORT_NAME(id, name, help) name,
	ROWSORT_FIELDS(ROWSORT_NAME)
#undef ROWSORT_NAME
};

const char *
rowsort_name(enum rowsort_field f)
{
	return f < SORT_COUNT ? names[f] : "?";
}

static const char *const col_names[ROWCOL_COUNT] = {
#define ROWCOL_NAME(id, name, help) name,
	ROWCOL_FIELDS(ROWCOL_NAME)
#undef ROWCOL_NAME
};

unsigned
rowcol_parse(const char *name)
{
	for (int i = 0; i < ROWCOL_COUNT; i++)
		if (strcmp(col_names[i], name) == 0)
			return 1u << i;
	return 0;
}

void
rowcol_describe(unsigned mask, struct strbuf *sb)
{
	size_t start = sb->len;

	for (int i = 0; i < ROWCOL_COUNT; i++)
		if (mask & (1u << i))
			strbuf_addf(sb, "%s%s", sb->len > start ? " " : "", col_names[i]);
	if (sb->len == start)
		strbuf_adds(sb, "none");
}

const char *
rowsort_names(void)
{
	return "row, op, type, size, time, nonfinite";
}

bool
rowsort_parse(const char *text, enum rowsort_field *f, bool *desc)
{
	size_t len;

	*desc = false;
	if (*text == '-') {
		*desc = true;
		text++;
	}
	len = strcspn(text, " ");
	if (text[len] && strcmp(text + len, " desc") == 0)
		*desc = true;
	else if (text[len] && strcmp(text + len, " asc") != 0)
		return false;
	for (int i = 0; i < SORT_COUNT; i++)
		if (strlen(names[i]) == len && strncmp(names[i], text, len) == 0) {
			*f = (enum rowsort_field)i;
			return true;
		}
	return false;
}

/*
 * Keys.  A row's key is a number (rank, count, time), coded as an
 * unsigned word whose order is the sort's: the double's bits made
 * monotone, flipped for a descending sort, and KEY_UNKNOWN (above every
 * known key in either direction) for a row whose field is unknown; ties
 * go by row number.  Known keys are never NaN (an unknown time is one
 * that is not above 0), so no known key codes as KEY_UNKNOWN.
 */
#define KEY_UNKNOWN UINT64_MAX
#define KEY_BATCH 4096u             /* rows keyed at a time (a columns window) */

static uint64_t
key_code(double k, bool desc)
{
	uint64_t u;

	if (k == 0)
		k = 0;                  /* -0 and 0 are one key */
	memcpy(&u, &k, sizeof u);
	u = (u >> 63) ? ~u : u | 1ull << 63;
	return desc ? ~u : u;
}

struct keyer {
	struct model *m;
	enum rowsort_field f;
	bool desc;
	uint32_t *ranks;            /* op or type sorts: rank of each op (owned) */
	double val[KEY_BATCH];
	bool known[KEY_BATCH];
};

/* ranks[op] = place of op among the ops sorted by name (by_type: type). */
static bool by_type;
static struct model *rank_model;

static int
cmp_op(const void *pa, const void *pb)
{
	struct model_op a, b;
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
	int c;

	model_op_get(rank_model, x, &a);
	model_op_get(rank_model, y, &b);
	c = strcmp(by_type ? a.type : a.name, by_type ? b.type : b.name);
	return c ? c : (x > y) - (x < y);
}

static uint32_t *
op_ranks(struct model *m, bool type)
{
	uint32_t n = model_op_count(m), *order, *rank;

	order = malloc((size_t)n * sizeof *order + 1);
	rank = malloc((size_t)n * sizeof *rank + 1);
	if (!order || !rank) {
		free(order);
		free(rank);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	by_type = type;
	rank_model = m;
	td_sort(order, n, sizeof *order, cmp_op);
	for (uint32_t i = 0; i < n; i++)
		rank[order[i]] = i;
	free(order);
	return rank;
}

static struct keyer *
keyer_new(struct model *m, enum rowsort_field f, bool desc)
{
	struct keyer *kr = malloc(sizeof *kr);

	if (!kr)
		return NULL;
	kr->m = m;
	kr->f = f;
	kr->desc = desc;
	kr->ranks = NULL;
	if ((f == SORT_OP || f == SORT_TYPE) && !(kr->ranks = op_ranks(m, f == SORT_TYPE))) {
		free(kr);
		return NULL;
	}
	return kr;
}

static void
keyer_free(struct keyer *kr)
{
	if (kr)
		free(kr->ranks);
	free(kr);
}

/* A row's key for the fields the index answers (row, op, type) and the
 * NaN/Inf count: rows without NaN/Inf (or whose mode cannot tell) count
 * 0 without a decode; a flagged row its counts, or 1 when its mode has
 * no counts (it is known to hold some). */
static uint64_t
row_key(const struct keyer *kr, uint64_t row)
{
	struct model_fields t;
	const struct td_summary *s = &t.s;
	uint32_t op, flags;

	if (kr->f == SORT_ROW)
		return key_code((double)row, kr->desc);
	if (!model_trace_quick(kr->m, row, &op, &flags))
		return KEY_UNKNOWN;
	if (kr->f == SORT_OP || kr->f == SORT_TYPE)     /* from the index: no decode */
		return op >= model_op_count(kr->m) ? KEY_UNKNOWN : key_code(kr->ranks[op], kr->desc);
	if (!(flags & ROW_NONFINITE))
		return key_code(0, kr->desc);
	if (!model_trace_fields(kr->m, row, SUM_NAN | SUM_NEG_INF | SUM_POS_INF, &t))
		return KEY_UNKNOWN;
	if (!(s->known & (SUM_NAN | SUM_NEG_INF | SUM_POS_INF)))
		return key_code(1, kr->desc);
	return key_code((double)(s->nan + s->neg_inf + s->pos_inf), kr->desc);
}

/* The keys of rows[0..n) (ascending, n <= KEY_BATCH) into code[]: size
 * and time from the summary columns a window at a time
 * (model_trace_sort_keys), the others row by row. */
static void
keyer_keys(struct keyer *kr, const uint64_t *rows, size_t n, uint64_t *code)
{
	if (kr->f != SORT_SIZE && kr->f != SORT_TIME) {
		for (size_t i = 0; i < n; i++)
			code[i] = row_key(kr, rows[i]);
		return;
	}
	model_trace_sort_keys(kr->m, kr->f == SORT_SIZE ? MODEL_SORT_ELEMENTS : MODEL_SORT_WALL, rows, n,
			 kr->val, kr->known);
	for (size_t i = 0; i < n; i++)
		code[i] = kr->known[i] ? key_code(kr->val[i], kr->desc) : KEY_UNKNOWN;
}

/*
 * The whole sort: (key, row) pairs of 12 bytes, the row as its place in
 * the (ascending) row list, so ties by place are ties by row number.
 */
struct pair {
	uint32_t lo, hi;            /* the key code */
	uint32_t at;                /* rows[at] */
};
_Static_assert(sizeof(struct pair) == 12, "a pair is 12 bytes");

static inline bool
pair_less(const struct pair *a, const struct pair *b)
{
	if (a->hi != b->hi)
		return a->hi < b->hi;
	if (a->lo != b->lo)
		return a->lo < b->lo;
	return a->at < b->at;
}

static inline void
pair_swap(struct pair *a, struct pair *b)
{
	struct pair t = *a;

	*a = *b;
	*b = t;
}

static void
pair_sift(struct pair *p, size_t n, size_t i)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && pair_less(&p[c], &p[c + 1]))
			c++;
		if (!pair_less(&p[i], &p[c]))
			break;
		pair_swap(&p[i], &p[c]);
	}
}

/* In place (no second array: the qsort of the C library takes one as
 * large as the pairs): quicksort, median of three, the smaller side
 * first; a heap sort below a depth that only bad pivots reach.  Pairs
 * are distinct (their places are), so any sort gives the one order. */
static void
pair_sort(struct pair *p, size_t n, int depth)
{
	while (n > 16) {
		struct pair *m = p + n / 2, *l = p + n - 1, pivot;
		size_t i = 0, j = n - 1;

		if (depth-- == 0) {
			for (size_t k = n / 2; k-- > 0;)
				pair_sift(p, n, k);
			for (size_t end = n - 1; end > 0; end--) {
				pair_swap(&p[0], &p[end]);
				pair_sift(p, end, 0);
			}
			return;
		}
		if (pair_less(m, p))
			pair_swap(m, p);
		if (pair_less(l, m)) {
			pair_swap(l, m);
			if (pair_less(m, p))
				pair_swap(m, p);
		}
		pivot = *m;
		for (;;) {
			while (pair_less(&p[i], &pivot))
				i++;
			while (pair_less(&pivot, &p[j]))
				j--;
			if (i >= j)
				break;
			pair_swap(&p[i++], &p[j--]);
		}
		/* [0, j] <= pivot <= [j + 1, n) */
		if (j + 1 < n - j - 1) {
			pair_sort(p, j + 1, depth);
			p += j + 1;
			n -= j + 1;
		} else {
			pair_sort(p + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && pair_less(&p[k], &p[k - 1]); k--)
			pair_swap(&p[k], &p[k - 1]);
}

static int
cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

static bool
ascending(const uint64_t *rows, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (rows[i] < rows[i - 1])
			return false;
	return true;
}

enum td_status
rowsort_traces(struct model *m, uint64_t *rows, size_t n, enum rowsort_field f, bool desc)
{
	struct pair *p;
	struct keyer *kr;
	uint64_t code[KEY_BATCH], *copy = NULL;
	bool narrow;

	if (n < 2)
		return TD_OK;
	if (n > UINT32_MAX)
		return TD_ERR_NOMEM;
	if (!ascending(rows, n))
		td_sort(rows, n, sizeof *rows, cmp_u64);
	/* rows below 2^32 (any dump that fits in memory) are their own
	 * place; else the places index a copy */
	narrow = rows[n - 1] <= UINT32_MAX;
	p = malloc(n * sizeof *p);
	kr = keyer_new(m, f, desc);
	if (!narrow)
		copy = malloc(n * sizeof *copy);
	if (!p || !kr || (!narrow && !copy)) {
		free(p);
		keyer_free(kr);
		free(copy);
		return TD_ERR_NOMEM;
	}
	for (size_t at = 0; at < n; at += KEY_BATCH) {
		size_t len = TD_MIN(n - at, (size_t)KEY_BATCH);

		keyer_keys(kr, rows + at, len, code);
		for (size_t i = 0; i < len; i++)
			p[at + i] = (struct pair){ (uint32_t)code[i], (uint32_t)(code[i] >> 32),
						   (uint32_t)(narrow ? rows[at + i] : at + i) };
	}
	keyer_free(kr);
	pair_sort(p, n, 2 * 64);
	if (copy)
		memcpy(copy, rows, n * sizeof *copy);
	for (size_t i = 0; i < n; i++)
		rows[i] = copy ? copy[p[i].at] : p[i].at;
	free(copy);
	free(p);
	return TD_OK;
}

/*
 * The first (or last) k rows of the sort without sorting every row: a
 * max-heap of the k smallest (key, row) seen so far; for the last k the
 * entries are complemented (~key, ~row), which reverses their order.
 */
struct heap_ent {
	uint64_t code, row;
};

struct rowsort_top {
	struct keyer *kr;
	struct heap_ent *h;
	size_t k, n;
	bool tail;                  /* the last k: entries complemented */
	uint64_t last;              /* the last row added + 1 (0: none) */
};

static bool
ent_less(const struct heap_ent *a, const struct heap_ent *b)
{
	return a->code != b->code ? a->code < b->code : a->row < b->row;
}

static void
sift_down(struct heap_ent *h, size_t n, size_t i)
{
	struct heap_ent e = h[i];

	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && ent_less(&h[c], &h[c + 1]))
			c++;
		if (!ent_less(&e, &h[c]))
			break;
		h[i] = h[c];
	}
	h[i] = e;
}

static void
sift_up(struct heap_ent *h, size_t i)
{
	struct heap_ent e = h[i];

	for (size_t p; i > 0 && ent_less(&h[p = (i - 1) / 2], &e); i = p)
		h[i] = h[p];
	h[i] = e;
}

struct rowsort_top *
rowsort_top_new(struct model *m, enum rowsort_field f, bool desc, size_t k, bool tail)
{
	struct rowsort_top *t;

	if (k > ROWSORT_TOP_MAX || !(t = calloc(1, sizeof *t)))
		return NULL;
	t->k = k;
	t->tail = tail;
	t->h = malloc(k * sizeof *t->h + 1);
	t->kr = keyer_new(m, f, desc);
	if (!t->h || !t->kr) {
		rowsort_top_free(t);
		return NULL;
	}
	return t;
}

bool
rowsort_top_add(struct rowsort_top *t, const uint64_t *rows, size_t n)
{
	uint64_t code[KEY_BATCH];

	if (n && (rows[0] < t->last || !ascending(rows, n)))
		return false;
	for (size_t at = 0; at < n; at += KEY_BATCH) {
		size_t len = TD_MIN(n - at, (size_t)KEY_BATCH);

		keyer_keys(t->kr, rows + at, len, code);
		/* a batch from its end: keys that grow with the row (a time
		 * sort descending) then replace the heap's top k times a
		 * batch, not once a row */
		for (size_t i = len; i-- > 0;) {
			struct heap_ent e = { code[i], rows[at + i] };

			if (t->tail)
				e = (struct heap_ent){ ~e.code, ~e.row };

			if (t->n < t->k) {
				t->h[t->n] = e;
				sift_up(t->h, t->n++);
			} else if (t->k && ent_less(&e, &t->h[0])) {
				t->h[0] = e;
				sift_down(t->h, t->n, 0);
			}
		}
	}
	if (n)
		t->last = rows[n - 1] + 1;
	return true;
}

size_t
rowsort_top_take(struct rowsort_top *t, uint64_t *out)
{
	size_t n = t->n;

	/* heap sort: the largest to the end, one at a time */
	for (size_t end = n; end > 1; end--) {
		struct heap_ent e = t->h[0];

		t->h[0] = t->h[end - 1];
		t->h[end - 1] = e;
		sift_down(t->h, end - 1, 0);
	}
	for (size_t i = 0; i < n; i++)
		out[i] = t->tail ? ~t->h[n - 1 - i].row : t->h[i].row;
	t->n = 0;
	return n;
}

void
rowsort_top_free(struct rowsort_top *t)
{
	if (!t)
		return;
	keyer_free(t->kr);
	free(t->h);
	free(t);
}
