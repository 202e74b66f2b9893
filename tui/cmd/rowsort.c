/*
 * rowsort.c - trace rows sorted by a field (see rowsort.h).
 *
 * Op names and types are ranked once per op (the ops sorted by text), so
 * a row's key is a number for every field and one comparison serves all.
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

struct key {
	double k;
	uint64_t row;
	bool unknown;
};

static bool sort_desc;          /* qsort has no context argument */

static int
cmp_key(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;

	if (a->unknown != b->unknown)
		return a->unknown ? 1 : -1;
	if (!a->unknown && a->k != b->k)
		return (a->k < b->k) == !sort_desc ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

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

static void
row_key(struct model *m, uint64_t row, enum rowsort_field f, const uint32_t *ranks,
	struct key *k)
{
	struct model_fields t;
	const struct td_summary *s = &t.s;
	uint32_t op, flags;

	k->row = row;
	k->k = 0;
	k->unknown = false;
	if (f == SORT_ROW) {
		k->k = (double)row;
		return;
	}
	if (!model_trace_quick(m, row, &op, &flags)) {
		k->unknown = true;
		return;
	}
	if (f == SORT_OP || f == SORT_TYPE) {       /* from the index: no decode */
		k->unknown = op >= model_op_count(m);
		k->k = k->unknown ? 0 : ranks[op];
		return;
	}
	/* NaN/Inf count: rows without NaN/Inf (or whose mode cannot tell)
	 * count 0 without a decode; a flagged row its counts, or 1 when its
	 * mode has no counts (it is known to hold some) */
	if (f == SORT_NONFINITE && !(flags & ROW_NONFINITE))
		return;
	/* the summary columns, a window at a time: no decode when they
	 * hold the row */
	if (!model_trace_fields(m, row, f == SORT_SIZE ? SUM_ELEMENTS : f == SORT_TIME ?
				MODEL_FIELDS_WALL : SUM_NAN | SUM_NEG_INF | SUM_POS_INF, &t)) {
		k->unknown = true;
		return;
	}
	switch (f) {
	case SORT_SIZE:
		k->unknown = !(s->known & SUM_ELEMENTS);
		k->k = (double)s->elements;
		break;
	case SORT_TIME:
		k->unknown = !(t.wall_time > 0);
		k->k = t.wall_time;
		break;
	case SORT_NONFINITE:
		k->k = (double)(s->nan + s->neg_inf + s->pos_inf);
		if (!(s->known & (SUM_NAN | SUM_NEG_INF | SUM_POS_INF)))
			k->k = 1;
		break;
	default:
		break;
	}
}

enum td_status
rowsort_traces(struct model *m, uint64_t *rows, size_t n, enum rowsort_field f, bool desc)
{
	struct key *keys;
	uint32_t *ranks = NULL;

	if (n < 2)
		return TD_OK;
	if ((f == SORT_OP || f == SORT_TYPE) && !(ranks = op_ranks(m, f == SORT_TYPE)))
		return TD_ERR_NOMEM;
	keys = malloc(n * sizeof *keys);
	if (!keys) {
		free(ranks);
		return TD_ERR_NOMEM;
	}
	for (size_t i = 0; i < n; i++)
		row_key(m, rows[i], f, ranks, &keys[i]);
	sort_desc = desc;
	td_sort(keys, n, sizeof *keys, cmp_key);
	for (size_t i = 0; i < n; i++)
		rows[i] = keys[i].row;
	free(keys);
	free(ranks);
	return TD_OK;
}
