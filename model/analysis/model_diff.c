/*
 * model_diff.c - aligning the trace rows of two models (see model_diff.h):
 * op-name classes shared by both sides, host groups, one chain of B's rows
 * per key, then one pass over A taking from the chains.
 *
 * Reads only the row index (op id, flag byte, host, step), never decodes a
 * row, except for the rare slot too large for the flag byte.  Metrics and
 * the first divergence are in model_diff_metrics.c.  The rows' hosts and
 * steps are read a window of DIFF_WINDOW rows at a time (model_trace_hosts),
 * one lock a window.
 */
#include "model/model_diff.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/analysis/model_diff_state.h"
#include "model/model_regex.h"
#include "reader/base/hashtab.h"

#define NONE32 UINT32_MAX
#define CLASS_BITS 28
#define GROUP_BITS 16
#define SLOT_BITS 19

/* ---- op-name classes ------------------------------------------------- */

/* Name strings -> class numbers, a class being the name's index in names.
 * Names are borrowed from the models, or built here (pair names of calls,
 * below) and owned by the table. */
struct name_table {
	struct hashtab ids;         /* classes by hashtab_str_hash of the name */
	const char **names;         /* class -> name */
	size_t cap, n;
	char **owned;               /* names built here, freed with the table */
	size_t capowned, nowned;
};

static bool
name_eq(const void *ctx, uint32_t cls, const void *key)
{
	return strcmp(((const struct name_table *)ctx)->names[cls], key) == 0;
}

static void
name_table_init(struct name_table *t, size_t expect)
{
	memset(t, 0, sizeof(*t));
	hashtab_init(&t->ids, expect + 8);
}

static void
name_table_done(struct name_table *t)
{
	size_t i;

	hashtab_done(&t->ids);
	free(t->names);
	for (i = 0; i < t->nowned; i++)
		free(t->owned[i]);
	free(t->owned);
}

/* Keeps s (malloc'd) until name_table_done; returns it. */
static const char *
name_own(struct name_table *t, char *s)
{
	TD_GROW(t->owned, t->capowned, t->nowned + 1);
	t->owned[t->nowned++] = s;
	return s;
}

/* The class of name, adding one when add; NONE32 when absent. */
static uint32_t
name_class(struct name_table *t, const char *s, bool add)
{
	uint32_t h = hashtab_str_hash(s), c = hashtab_find(&t->ids, h, name_eq, t, s);

	if (c != HASHTAB_NONE)
		return c;
	if (!add || t->n + 1 >= (1u << CLASS_BITS))
		return NONE32;
	TD_GROW(t->names, t->cap, t->n + 1);
	t->names[t->n] = s;
	hashtab_add(&t->ids, h, (uint32_t)t->n);
	return (uint32_t)t->n++;
}

/* A call whose count pairs by its rank (READER_CALL_ORDINAL). */
struct ordinal_call {
	uint32_t op;
	const char *host;           /* borrowed from the model */
	const char *key;            /* owned by the name table */
};

static int
ordinal_cmp(const void *x, const void *y)
{
	const struct ordinal_call *a = x, *b = y;
	int c = strcmp(a->host, b->host);

	if (!c)
		c = strcmp(a->key, b->key);
	return c ? c : (a->op > b->op) - (a->op < b->op);
}

/* The name op pairs by (model_diff.h, "Calls"), owned by t when built. */
static const char *
pair_name(struct model *m, struct name_table *t, const struct model_op *op, const char *name,
	  bool fuzzy, struct ordinal_call **ord, size_t *nord, size_t *capord)
{
	char key[600];
	int64_t count = -1;
	enum reader_call kind = model_op_call_key(m, name, key, sizeof key, &count);

	if (kind == READER_CALL_NONE || (kind == READER_CALL_EXACT && !fuzzy))
		return name == op->name ? name : name_own(t, xstrdup(name));
	if (fuzzy)
		return name_own(t, xstrdup(key));
	TD_GROW(*ord, *capord, *nord + 1);
	(*ord)[(*nord)++] = (struct ordinal_call){ op->id, op->host ? op->host : "",
						   name_own(t, xstrdup(key)) };
	return NULL;                /* named once every call of its key is known */
}

/* op id -> class, for every op of m.  Names are borrowed from m or owned
 * by t.  Calls paired by rank get "KEY#RANK", the rank counted per host and
 * key in order of appearance (op ids grow in the order a reader sends ops,
 * its file order). */
static uint32_t *
op_classes(struct model *m, struct name_table *t, bool add, bool fuzzy,
	   const struct reader_map *map, uint32_t *nops)
{
	char mapped[1024];
	uint32_t n = model_op_count(m), i;
	uint32_t *cls = xcalloc(n ? n : 1, sizeof(*cls));
	struct ordinal_call *ord = NULL;
	size_t nord = 0, capord = 0, k, rank = 0;
	struct model_op op;
	const char *name;

	for (i = 0; i < n; i++) {
		cls[i] = NONE32;
		if (model_op_get(m, i, &op) &&
		    (name = map ? model_map_name(m, map, op.name, mapped, sizeof mapped) : op.name) &&
		    (name = pair_name(m, t, &op, name, fuzzy, &ord, &nord, &capord)))
			cls[i] = name_class(t, name, add);
	}
	if (nord)
		qsort(ord, nord, sizeof(*ord), ordinal_cmp);
	for (k = 0; k < nord; k++) {
		char *s;

		if (k && (strcmp(ord[k].host, ord[k - 1].host) || strcmp(ord[k].key, ord[k - 1].key)))
			rank = 0;
		s = xmalloc(strlen(ord[k].key) + 24);
		sprintf(s, "%s#%zu", ord[k].key, rank++);
		cls[ord[k].op] = name_class(t, name_own(t, s), add);
	}
	free(ord);
	*nops = n;
	return cls;
}

void
diff_call_classes(struct model_diff *d, uint32_t **cls_a, uint32_t *nops_a, uint32_t **cls_b,
		  uint32_t *nops_b)
{
	struct name_table names;

	name_table_init(&names, model_op_count(d->b));
	*cls_b = op_classes(d->b, &names, true, d->fuzzy, d->map, nops_b);
	*cls_a = op_classes(d->a, &names, false, d->fuzzy, NULL, nops_a);
	name_table_done(&names);
}

/* ---- host groups ------------------------------------------------------ */

/* The host names a model's rows carry (model_info's list, "" if none). */
static size_t
host_list(struct model *m, const char ***out)
{
	struct model_info in;
	size_t i;

	model_info(m, &in);
	*out = xcalloc(in.nhosts + 1, sizeof(**out));
	for (i = 0; i < in.nhosts; i++)
		(*out)[i] = in.hosts[i];
	return in.nhosts;
}

static int
find_name(const char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return (int)i;
	return -1;
}

/* Compares host names as a person sorts them: runs of digits by value
 * ("rank2" before "rank10"). */
static int
natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *x = a, *y = b;
			size_t lx, ly;
			int c;

			while (*x == '0' && isdigit((unsigned char)x[1]))
				x++;
			while (*y == '0' && isdigit((unsigned char)y[1]))
				y++;
			for (a = x; isdigit((unsigned char)*a); a++)
				;
			for (b = y; isdigit((unsigned char)*b); b++)
				;
			lx = (size_t)(a - x), ly = (size_t)(b - y);
			if (lx != ly)
				return lx < ly ? -1 : 1;
			if ((c = strncmp(x, y, lx)) != 0)
				return c;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++, b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* The order of a side's hosts by natural_cmp: idx[k] = host of position k. */
static void
sorted_hosts(const char **h, size_t n, size_t *idx)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		idx[i] = i;
	for (i = 1; i < n; i++)         /* insertion sort: a few hundred ranks at most */
		for (j = i; j > 0 && natural_cmp(h[idx[j - 1]], h[idx[j]]) > 0; j--) {
			size_t tmp = idx[j];

			idx[j] = idx[j - 1];
			idx[j - 1] = tmp;
		}
}

/* The k-th host of A in sorted order with the k-th of B (as many each). */
static void
pair_by_position(struct model_diff *d, size_t n)
{
	size_t *ia = xcalloc(n, sizeof(*ia)), *ib = xcalloc(n, sizeof(*ib)), k;

	sorted_hosts(d->side[0].hosts, n, ia);
	sorted_hosts(d->side[1].hosts, n, ib);
	for (k = 0; k < n; k++)
		d->side[0].group[ia[k]] = d->side[1].group[ib[k]] = (uint32_t)k;
	free(ia);
	free(ib);
}

/* Fills side->hosts / groups for both sides.  Returns the group count. */
static enum td_status
host_groups(struct model_diff *d, const struct model_diff_options *o, char *err, size_t errlen)
{
	const char **ha, **hb;
	size_t na = host_list(d->a, &ha), nb = host_list(d->b, &hb), i, common = 0;
	enum td_status st = TD_OK;

	d->side[0].nhosts = na, d->side[0].hosts = ha;
	d->side[1].nhosts = nb, d->side[1].hosts = hb;
	d->side[0].group = xcalloc(na + 1, sizeof(uint32_t));
	d->side[1].group = xcalloc(nb + 1, sizeof(uint32_t));
	for (i = 0; i < na + 1; i++)
		d->side[0].group[i] = NONE32;
	for (i = 0; i < nb + 1; i++)
		d->side[1].group[i] = NONE32;
	d->any_host = false;
	d->explicit_pairs = o->npairs > 0;
	if (o->npairs) {
		for (i = 0; i < o->npairs && st == TD_OK; i++) {
			int x = find_name(ha, na, o->pairs[i].a), y = find_name(hb, nb, o->pairs[i].b);

			if (x < 0 || y < 0) {
				snprintf(err, errlen, "no host or rank \"%s\" in %s", x < 0 ? o->pairs[i].a
					 : o->pairs[i].b, x < 0 ? "the first dump" : "the second dump");
				st = TD_ERR_ARGS;
				break;
			}
			d->side[0].group[x] = d->side[1].group[y] = (uint32_t)i;
		}
		return st;
	}
	if (na <= 1 && nb <= 1) {
		d->any_host = true;         /* one host each (or none): hosts do not matter */
		return TD_OK;
	}
	if (na == nb && (model_reader_flags(d->a) & READER_PAIR_HOSTS_BY_POSITION) &&
	    (model_reader_flags(d->b) & READER_PAIR_HOSTS_BY_POSITION)) {
		pair_by_position(d, na);
		return TD_OK;
	}
	for (i = 0; i < na; i++) {
		int y = find_name(hb, nb, ha[i]);

		if (y >= 0) {
			d->side[0].group[i] = d->side[1].group[y] = (uint32_t)i;
			common++;
		}
	}
	if (common == 0 && na == nb)
		for (i = 0; i < na; i++)
			d->side[0].group[i] = d->side[1].group[i] = (uint32_t)i;
	return TD_OK;
}

/* Row i's index in side s's window, refilled around i when i is outside
 * it; -1 past the rows. */
static int
row_window(struct model_diff *d, int s, uint64_t i)
{
	struct diff_side *sd = &d->side[s];

	if (i < sd->win_first || i >= sd->win_first + sd->win_n) {
		sd->win_first = i & ~(uint64_t)(DIFF_WINDOW - 1);
		sd->win_n = model_trace_hosts(s ? d->b : d->a, sd->win_first, DIFF_WINDOW,
					      d->any_host ? NULL : sd->win_host, sd->win_step);
		if (i >= sd->win_first + sd->win_n)
			return -1;
	}
	return (int)(i - sd->win_first);
}

/* The step of row i of side s, -1 unknown, from its window. */
static int64_t
row_step(struct model_diff *d, int s, uint64_t i)
{
	int w = row_window(d, s, i);

	return w < 0 ? -1 : d->side[s].win_step[w];
}

/* The host group of row i of a side; NONE32 when its host takes no part. */
uint32_t
diff_row_group(struct model_diff *d, int s, uint64_t i)
{
	struct diff_side *sd = &d->side[s];
	struct model *m = s ? d->b : d->a;
	uint32_t sid;
	const char *host;
	int k, w;

	if (d->any_host)
		return 0;
	w = row_window(d, s, i);
	sid = w < 0 ? 0 : sd->win_host[w];
	if (sid == sd->memo_sid && sd->memo_valid)
		return sd->memo_group;
	host = model_host_name(m, sid);
	k = find_name(sd->hosts, sd->nhosts, host ? host : "");
	sd->memo_sid = sid;
	sd->memo_valid = true;
	sd->memo_group = k < 0 ? NONE32 : sd->group[k];
	return sd->memo_group;
}

/* ---- keys and chains -------------------------------------------------- */

/* A chain of B's rows under one key is a value of a u64 table: its head
 * row (the next one A may take) in the high half, its tail in the low
 * half, NONE32 for none. */
#define CHAIN_EMPTY UINT64_MAX

static uint32_t
chain_head(uint64_t c)
{
	return (uint32_t)(c >> 32);
}

static uint32_t
chain_tail(uint64_t c)
{
	return (uint32_t)c;
}

static uint64_t
chain_pack(uint32_t head, uint32_t tail)
{
	return (uint64_t)head << 32 | tail;
}

/* The key of row i of a side, or UINT64_MAX when it takes no part. */
uint64_t
diff_row_key(struct model_diff *d, int s, const uint32_t *cls, uint32_t nops, uint64_t i)
{
	struct model *m = s ? d->b : d->a;
	uint32_t f, op = model_trace_op_flags(m, i, &f), c, g, slot;

	if (op >= nops || (c = cls[op]) == NONE32)
		return UINT64_MAX;
	if ((g = diff_row_group(d, s, i)) == NONE32 || g >= (1u << GROUP_BITS))
		return UINT64_MAX;
	slot = model_trace_slot(m, i);
	if (slot >= (1u << SLOT_BITS) - 1)
		slot = (1u << SLOT_BITS) - 1;
	return (uint64_t)c << (GROUP_BITS + SLOT_BITS + 1) | (uint64_t)g << (SLOT_BITS + 1) |
	       (uint64_t)slot << 1 | ((f & ROW_INPUT) ? 1u : 0u);
}

/* Rows of a side that count when unpaired: all of them, but with explicit
 * pairs only those of the hosts named. */
static bool
row_counts(struct model_diff *d, int s, uint64_t i)
{
	return !d->explicit_pairs || diff_row_group(d, s, i) != NONE32;
}

static void
pairs_add(struct model_diff *d, uint64_t a, uint64_t b)
{
	if (d->npairs == d->cappairs) {
		d->cappairs = d->cappairs ? d->cappairs * 2 : 1024;
		d->pa = xrealloc(d->pa, d->cappairs * sizeof(*d->pa));
		d->pb = xrealloc(d->pb, d->cappairs * sizeof(*d->pb));
	}
	d->pa[d->npairs] = (uint32_t)a;
	d->pb[d->npairs] = (uint32_t)b;
	d->npairs++;
}

/* B pass: chains every row of B under its key (leaf: diff_leaf_keys' or
 * NULL).  Returns the rows chained. */
static uint64_t
chain_b(struct model_diff *d, struct hashtab_u64 *t, uint32_t *next, const uint32_t *cls,
	uint32_t nops, uint64_t nb, const struct hashtab_u64 *leaf)
{
	uint64_t j, key, keyed = 0, *c;
	uint32_t f;

	for (j = 0; j < nb; j++) {
		next[j] = NONE32;
		key = DIFF_LEAF_KEEP;
		if (leaf) {
			uint32_t op = model_trace_op_flags(d->b, j, &f);

			hashtab_u64_get(leaf, diff_leaf_slot(op, model_trace_slot(d->b, j), f), &key);
		}
		if (key == DIFF_LEAF_KEEP)
			key = diff_row_key(d, 1, cls, nops, j);
		if (key == UINT64_MAX) {
			d->only_b += row_counts(d, 1, j);
			continue;
		}
		c = hashtab_u64_put(t, key, CHAIN_EMPTY);
		if (chain_tail(*c) == NONE32)
			*c = chain_pack((uint32_t)j, (uint32_t)j);
		else {
			next[chain_tail(*c)] = (uint32_t)j;
			*c = chain_pack(chain_head(*c), (uint32_t)j);
		}
		keyed++;
	}
	return keyed;
}

/* The next row of B for A's row i in chain c (skipping B rows of earlier
 * steps); NONE32 when A's row stays unpaired. */
static uint32_t
chain_take(struct model_diff *d, uint64_t *c, const uint32_t *next, uint64_t i)
{
	int64_t sa = row_step(d, 0, i), sb;
	uint32_t j;

	while ((j = chain_head(*c)) != NONE32) {
		sb = diff_row_step(d->b, j);
		if (sa < 0 || sb < 0 || sb == sa) {
			*c = chain_pack(next[j], chain_tail(*c));
			return j;
		}
		if (sb > sa)
			return NONE32;
		*c = chain_pack(next[j], chain_tail(*c));   /* an earlier step only B has */
	}
	return NONE32;
}

/* A pass: takes from the chains in A's row order. */
static void
take_a(struct model_diff *d, struct hashtab_u64 *t, const uint32_t *next, const uint32_t *cls,
       uint32_t nops, uint64_t na)
{
	uint64_t i, key, *c;
	uint32_t j;

	for (i = 0; i < na; i++) {
		key = diff_row_key(d, 0, cls, nops, i);
		c = key == UINT64_MAX ? NULL : hashtab_u64_slot(t, key);
		j = c ? chain_take(d, c, next, i) : NONE32;
		if (j == NONE32)
			d->only_a += key != UINT64_MAX || row_counts(d, 0, i);
		else
			pairs_add(d, i, j);
	}
}

static void
align(struct model_diff *d)
{
	struct name_table names;
	struct hashtab_u64 t = {0};     /* row key -> chain of B's rows */
	struct hashtab_u64 leaf = {0};  /* B's op and slot -> key, where a leaf map renames it */
	uint32_t *cls_a, *cls_b, nops_a, nops_b, *next;
	uint64_t na = model_trace_count(d->a), nb = model_trace_count(d->b);
	uint64_t keyed_b;
	bool leaves = model_map_leaf(d->b, d->map, NULL, NULL, NULL, 0);

	name_table_init(&names, model_op_count(d->b));
	cls_b = op_classes(d->b, &names, true, d->fuzzy, d->map, &nops_b);
	/* a leaf may pair with an op B has no name of: A's ops need classes */
	cls_a = op_classes(d->a, &names, leaves, d->fuzzy, NULL, &nops_a);
	if (leaves)
		diff_leaf_keys(d, cls_a, nops_a, cls_b, nops_b, &leaf);
	next = xmalloc((nb ? nb : 1) * sizeof(*next));
	/* sized once: at 800,000 rows the last doubling held the old table
	 * (16 MB) beside the new one; the pairs are at most the smaller side */
	hashtab_u64_init(&t, nb);
	d->cappairs = TD_MAX(TD_MIN(na, nb), 1);
	d->pa = xrealloc(d->pa, d->cappairs * sizeof(*d->pa));
	d->pb = xrealloc(d->pb, d->cappairs * sizeof(*d->pb));
	keyed_b = chain_b(d, &t, next, cls_b, nops_b, nb, leaves ? &leaf : NULL);
	take_a(d, &t, next, cls_a, nops_a, na);
	d->only_b += keyed_b - d->npairs;     /* keyed rows of B nobody took */
	hashtab_u64_done(&t);
	hashtab_u64_done(&leaf);
	free(next);
	free(cls_a);
	free(cls_b);
	name_table_done(&names);
}

/* ---- public ----------------------------------------------------------- */

void
model_diff_options_init(struct model_diff_options *o)
{
	memset(o, 0, sizeof(*o));
	o->rtol = o->atol = o->cos_min = -1;
}

enum td_status
model_diff_new(struct model *a, struct model *b, const struct model_diff_options *o,
	       struct model_diff **out, char *err, size_t errlen)
{
	struct model_diff *d = xcalloc(1, sizeof(*d));
	struct model_diff_options def;
	enum td_status st;

	if (!o) {
		model_diff_options_init(&def);
		o = &def;
	}
	d->a = a;
	d->b = b;
	d->rtol = o->rtol, d->atol = o->atol, d->cos_min = o->cos_min;
	d->fuzzy = o->fuzzy;
	d->map = o->map;
	d->first = -2;
	if ((st = host_groups(d, o, err, errlen)) != TD_OK) {
		model_diff_free(d);
		*out = NULL;
		return st;
	}
	align(d);
	d->status = xcalloc(d->npairs ? d->npairs : 1, 1);
	*out = d;
	return TD_OK;
}

void
model_diff_free(struct model_diff *d)
{
	if (!d)
		return;
	free(d->side[0].hosts);
	free(d->side[1].hosts);
	free(d->side[0].group);
	free(d->side[1].group);
	free(d->pa);
	free(d->pb);
	free(d->status);
	free(d->sel);
	diff_calls_free(d->calls);
	free(d);
}

struct model *
model_diff_a(const struct model_diff *d)
{
	return d->a;
}

struct model *
model_diff_b(const struct model_diff *d)
{
	return d->b;
}

void
model_diff_counts(const struct model_diff *d, struct model_diff_counts *c)
{
	c->aligned = d->npairs;
	c->only_a = d->only_a;
	c->only_b = d->only_b;
}

bool
model_diff_b_row_compared(struct model_diff *d, uint64_t b_row)
{
	return d->any_host || diff_row_group(d, 1, b_row) != NONE32;
}

bool
model_diff_rows(const struct model_diff *d, uint64_t k, uint64_t *a_row, uint64_t *b_row)
{
	if (k >= d->npairs)
		return false;
	*a_row = d->pa[k];
	*b_row = d->pb[k];
	return true;
}

int64_t
model_diff_pair_of_a(const struct model_diff *d, uint64_t a_row)
{
	size_t lo = 0, hi = d->npairs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->pa[mid] < a_row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->npairs && d->pa[lo] == a_row ? (int64_t)lo : -1;
}

/* ---- selection by op name -------------------------------------------- */

enum td_status
model_diff_select(struct model_diff *d, const char *op_regex, char *err, size_t errlen)
{
	pcre2_code *re;
	pcre2_match_data *md;
	struct model_op op;
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	uint32_t i;
	int code;

	free(d->sel);
	d->sel = NULL;
	if (!op_regex || !*op_regex)
		return TD_OK;
	re = pcre2_compile((PCRE2_SPTR)op_regex, PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
	if (!re) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		snprintf(err, errlen, "op regex \"%s\": %s at offset %zu", op_regex, (char *)msg,
			 (size_t)off);
		return TD_ERR_REGEX;
	}
	md = pcre2_match_data_create(4, NULL);
	d->nsel = model_op_count(d->a);
	d->sel = xcalloc(d->nsel ? d->nsel : 1, 1);
	for (i = 0; i < d->nsel; i++) {         /* once per op, not per row */
		enum model_regex_result r = MODEL_REGEX_NO;

		if (model_op_get(d->a, i, &op))
			r = model_regex_match(re, op.name, strlen(op.name), md);
		if (r == MODEL_REGEX_UNDECIDED) {       /* never taken as "no match" */
			snprintf(err, errlen, "op regex \"%s\": too costly on op %u (PCRE2 match limit)",
				 op_regex, i);
			break;
		}
		d->sel[i] = r == MODEL_REGEX_MATCH;
	}
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	if (i < d->nsel) {
		free(d->sel);
		d->sel = NULL;
		return TD_ERR_REGEX;
	}
	return TD_OK;
}

bool
model_diff_selected(const struct model_diff *d, uint64_t k)
{
	uint32_t op, flags;

	if (k >= d->npairs)
		return false;
	if (!d->sel)
		return true;
	op = model_trace_op_flags(d->a, d->pa[k], &flags);
	return op < d->nsel && d->sel[op];
}
