/*
 * model_diff.c - aligning the trace rows of two models (see model_diff.h):
 * op-name classes shared by both sides, then the rows both sides hold in
 * the same order paired in one walk, then for the rest one chain of B's
 * rows per key and one pass over A taking from the chains.
 *
 * Reads only the row index (op id, flag byte, host, step), never decodes a
 * row, except for the rare slot too large for the flag byte.  Metrics and
 * the first divergence are in model_diff_metrics.c, host groups in
 * model_diff_hosts.c.  The rows' hosts and steps are read a window of
 * DIFF_WINDOW rows at a time (model_trace_hosts), one lock a window.
 */
#include "model/model_diff.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
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

/* The class of name s (of hash h, hashtab_str_hash), adding one when
 * add; NONE32 when absent. */
static uint32_t
name_class_hashed(struct name_table *t, const char *s, uint32_t h, bool add)
{
	uint32_t c = hashtab_find(&t->ids, h, name_eq, t, s);

	if (c != HASHTAB_NONE)
		return c;
	if (!add || t->n + 1 >= (1u << CLASS_BITS))
		return NONE32;
	TD_GROW(t->names, t->cap, t->n + 1);
	t->names[t->n] = s;
	hashtab_add(&t->ids, h, (uint32_t)t->n);
	return (uint32_t)t->n++;
}

static uint32_t
name_class(struct name_table *t, const char *s, bool add)
{
	return name_class_hashed(t, s, hashtab_str_hash(s), add);
}

/* The slot a name of hash h is looked for first, asked of memory ahead of
 * its turn: op_classes' loop looks up one name per op in a table of
 * twice as many slots as B has ops, and each look-up was a cache miss. */
static void
name_prefetch(const struct name_table *t, uint32_t h)
{
	if (t->ids.cap)
		__builtin_prefetch(&t->ids.slots[h & (t->ids.cap - 1)]);
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

/* The name op id (named op_name; name: as mapped) pairs by (model_diff.h,
 * "Calls"), owned by t when built.  The op's host is asked only for a
 * call that pairs by rank. */
static const char *
pair_name(struct model *m, struct name_table *t, uint32_t id, const char *op_name, const char *name,
	  bool fuzzy, struct ordinal_call **ord, size_t *nord, size_t *capord)
{
	char key[600];
	int64_t count = -1;
	enum reader_call kind = model_op_call_key(m, name, key, sizeof key, &count);
	struct model_op op;

	if (kind == READER_CALL_NONE || (kind == READER_CALL_EXACT && !fuzzy))
		return name == op_name ? name : name_own(t, xstrdup(name));
	if (fuzzy)
		return name_own(t, xstrdup(key));
	TD_GROW(*ord, *capord, *nord + 1);
	(*ord)[(*nord)++] = (struct ordinal_call){ id,
		model_op_get(m, id, &op) && op.host ? op.host : "", name_own(t, xstrdup(key)) };
	return NULL;                /* named once every call of its key is known */
}

/* Ops op_classes reads at a time (model_op_briefs: one lock, no inputs
 * resolved). */
#define OP_WINDOW 1024
/* How many ops ahead op_classes asks for a name's slot (name_prefetch). */
#define PREFETCH_AHEAD 16

/* B's classes for A's op_classes: an op of A whose name is that of B's op
 * of the same id takes B's class when B's came from the name alone (not
 * mapped, not a rank), without its call key parsed and its name hashed
 * again.  Two dumps of one model list their ops in one order, so this is
 * most ops; the class is the one the name gives, as pair_name is a
 * function of the name when the reader is the same. */
struct class_hint {
	const uint32_t *cls;        /* B's classes */
	const uint8_t *ranked;      /* bit per op of B: classed by rank */
	const uint8_t *same;        /* bit per op id: A's and B's op of that id share a name */
	uint32_t n;                 /* op ids below both counts */
};

/* A's op i's class from the hint, NONE32 when it gives none. */
static uint32_t
hinted_class(const struct class_hint *h, uint32_t i)
{
	if (!h || i >= h->n || !(h->same[i / 8] >> (i % 8) & 1) || h->cls[i] == NONE32 ||
	    (h->ranked[i / 8] >> (i % 8) & 1))
		return NONE32;
	return h->cls[i];
}

/* Which op ids below n hold one name in both dumps (a bit per op id): read
 * on a second thread while B's classes are made, both reading only the
 * models' op briefs (each brief window under its model's lock). */
struct same_names {
	struct model *a, *b;
	uint32_t n;
	uint8_t *bits;
};

static void *
same_names_read(void *arg)
{
	struct same_names *s = arg;
	struct model_op_brief *wa = xmalloc(2 * OP_WINDOW * sizeof(*wa)), *wb = wa + OP_WINDOW;
	uint32_t i, at, ga = 0, gb = 0;

	s->bits = xcalloc(s->n / 8 + 1, 1);
	for (i = 0; i < s->n; i++) {
		if ((at = i % OP_WINDOW) == 0) {
			ga = (uint32_t)model_op_briefs(s->a, i, OP_WINDOW, wa);
			gb = (uint32_t)model_op_briefs(s->b, i, OP_WINDOW, wb);
		}
		if (at < ga && at < gb && wa[at].name && wb[at].name &&
		    strcmp(wa[at].name, wb[at].name) == 0)
			s->bits[i / 8] |= (uint8_t)(1u << (i % 8));
	}
	free(wa);
	return NULL;
}

/* Ops [lo, hi) of one op_classes pass: the name each pairs by (pair_name:
 * the reader's call_of and map_name are pure, any thread), NULL for none
 * or for an op the hint classes; calls paired by rank into ord; names
 * built here owned by own (only its owned list is used). */
struct name_pass {
	struct model *m;
	const struct reader_map *map;
	const struct class_hint *hint;
	bool fuzzy;
	uint32_t lo, hi;
	const char **pn;            /* by op id */
	uint32_t *ph;               /* by op id: pn's hashtab_str_hash, where pn is set */
	struct name_table own;
	struct ordinal_call *ord;
	size_t nord, capord;
};

static void *
names_read(void *arg)
{
	struct name_pass *p = arg;
	char mapped[1024];
	struct model_op_brief *win = xmalloc(OP_WINDOW * sizeof(*win));
	uint32_t i, got = 0, at, win_at = UINT32_MAX;
	const char *name;

	for (i = p->lo; i < p->hi; i++) {
		p->pn[i] = NULL;
		if (hinted_class(p->hint, i) != NONE32)
			continue;
		if (i - i % OP_WINDOW != win_at) {      /* the window of op i, when read */
			win_at = i - i % OP_WINDOW;
			got = (uint32_t)model_op_briefs(p->m, win_at, OP_WINDOW, win);
		}
		if ((at = i % OP_WINDOW) >= got)
			continue;
		if ((name = p->map ? model_map_name(p->m, p->map, win[at].name, mapped, sizeof mapped)
				   : win[at].name))
			p->pn[i] = pair_name(p->m, &p->own, i, win[at].name, name, p->fuzzy, &p->ord,
					     &p->nord, &p->capord);
		if (p->pn[i])
			p->ph[i] = hashtab_str_hash(p->pn[i]);
	}
	free(win);
	return NULL;
}

/* op id -> class, for every op of m.  Names are borrowed from m or owned
 * by t.  Calls paired by rank get "KEY#RANK", the rank counted per host and
 * key in order of appearance (op ids grow in the order a reader sends ops,
 * its file order).  *ranked (when given): a bit per op set for those.  The
 * names ops pair by are found in two halves, the upper one on a second
 * thread; the classes are then given in op order (class numbers as one
 * pass would give them). */
static uint32_t *
op_classes(struct model *m, struct name_table *t, bool add, bool fuzzy,
	   const struct reader_map *map, const struct class_hint *hint, uint32_t *nops,
	   uint8_t **ranked)
{
	uint32_t n = model_op_count(m), i, c, mid;
	uint32_t *cls = xcalloc(n ? n : 1, sizeof(*cls));
	const char **pn = xmalloc((n ? n : 1) * sizeof(*pn));
	uint32_t *ph = xmalloc((n ? n : 1) * sizeof(*ph));
	struct name_pass half[2];
	struct ordinal_call *ord;
	size_t nord, k, h, rank = 0;
	pthread_t th;
	bool threaded = false;

	mid = n >= 2 * OP_WINDOW ? n / 2 - n / 2 % OP_WINDOW : n;
	for (h = 0; h < 2; h++)
		half[h] = (struct name_pass){ m, map, hint, fuzzy, h ? mid : 0, h ? n : mid, pn, ph };
	if (mid < n)
		threaded = pthread_create(&th, NULL, names_read, &half[1]) == 0;
	names_read(&half[0]);
	if (threaded)
		pthread_join(th, NULL);
	else
		names_read(&half[1]);
	/* the names' hashes were taken on both threads; the look-ups, in op
	 * order (class numbers as one pass gives them), ask for the slot of
	 * the name PREFETCH_AHEAD ops on */
	for (i = 0; i < n; i++) {
		if (i + PREFETCH_AHEAD < n && pn[i + PREFETCH_AHEAD])
			name_prefetch(t, ph[i + PREFETCH_AHEAD]);
		cls[i] = (c = hinted_class(hint, i)) != NONE32 ? c :
			 pn[i] ? name_class_hashed(t, pn[i], ph[i], add) : NONE32;
	}
	free(pn);
	free(ph);
	for (h = 0; h < 2; h++) {               /* the halves' names now t's */
		for (k = 0; k < half[h].own.nowned; k++)
			name_own(t, half[h].own.owned[k]);
		free(half[h].own.owned);
	}
	nord = half[0].nord + half[1].nord;
	ord = xmalloc((nord ? nord : 1) * sizeof(*ord));
	if (half[0].nord)
		memcpy(ord, half[0].ord, half[0].nord * sizeof(*ord));
	if (half[1].nord)
		memcpy(ord + half[0].nord, half[1].ord, half[1].nord * sizeof(*ord));
	free(half[0].ord);
	free(half[1].ord);
	if (nord)
		qsort(ord, nord, sizeof(*ord), ordinal_cmp);
	if (ranked)
		*ranked = xcalloc(n / 8 + 1, 1);
	for (k = 0; k < nord; k++) {
		char *s;

		if (k && (strcmp(ord[k].host, ord[k - 1].host) || strcmp(ord[k].key, ord[k - 1].key)))
			rank = 0;
		s = xmalloc(strlen(ord[k].key) + 24);
		sprintf(s, "%s#%zu", ord[k].key, rank++);
		cls[ord[k].op] = name_class(t, name_own(t, s), add);
		if (ranked)
			(*ranked)[ord[k].op / 8] |= (uint8_t)(1u << (ord[k].op % 8));
	}
	free(ord);
	*nops = n;
	return cls;
}

/* B's classes, then A's (adding names only when add_a), A's helped by
 * B's where the two dumps have one reader and B's names are not mapped. */
static void
both_classes(struct model_diff *d, struct name_table *t, bool add_a, uint32_t **cls_a,
	     uint32_t *nops_a, uint32_t **cls_b, uint32_t *nops_b)
{
	uint8_t *ranked = NULL;
	struct class_hint hint;
	struct same_names same = { d->a, d->b, 0, NULL };
	bool hinted = !d->map && model_same_reader(d->a, d->b), threaded = false;
	pthread_t th;

	if (hinted) {
		same.n = TD_MIN(model_op_count(d->a), model_op_count(d->b));
		threaded = pthread_create(&th, NULL, same_names_read, &same) == 0;
	}
	*cls_b = op_classes(d->b, t, true, d->fuzzy, d->map, NULL, nops_b, hinted ? &ranked : NULL);
	if (hinted && threaded)
		pthread_join(th, NULL);
	else if (hinted)
		same_names_read(&same);
	hint = (struct class_hint){ *cls_b, ranked, same.bits, TD_MIN(same.n, *nops_b) };
	*cls_a = op_classes(d->a, t, add_a, d->fuzzy, NULL, hinted ? &hint : NULL, nops_a, NULL);
	free(same.bits);
	free(ranked);
}

void
diff_call_classes(struct model_diff *d, uint32_t **cls_a, uint32_t *nops_a, uint32_t **cls_b,
		  uint32_t *nops_b)
{
	struct name_table names;

	name_table_init(&names, model_op_count(d->b));
	both_classes(d, &names, false, cls_a, nops_a, cls_b, nops_b);
	name_table_done(&names);
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

/* Row j's key on side B: where a leaf map (leaf: diff_leaf_keys', or
 * NULL) names it, the key of A's golden leaf; else its own key. */
static uint64_t
b_key(struct model_diff *d, const uint32_t *cls, uint32_t nops, const struct hashtab_u64 *leaf,
      uint64_t j)
{
	uint64_t key = DIFF_LEAF_KEEP;
	uint32_t f;

	if (leaf) {
		uint32_t op = model_trace_op_flags(d->b, j, &f);

		hashtab_u64_get(leaf, diff_leaf_slot(op, model_trace_slot(d->b, j), f), &key);
	}
	return key == DIFF_LEAF_KEEP ? diff_row_key(d, 1, cls, nops, j) : key;
}

/* B pass: chains rows [from, nb) of B under their keys (next[j - from]:
 * the row after j in its chain).  Returns the rows chained. */
static uint64_t
chain_b(struct model_diff *d, struct hashtab_u64 *t, uint32_t *next, const uint32_t *cls,
	uint32_t nops, uint64_t from, uint64_t nb, const struct hashtab_u64 *leaf)
{
	uint64_t j, key, keyed = 0, *c;

	for (j = from; j < nb; j++) {
		next[j - from] = NONE32;
		key = b_key(d, cls, nops, leaf, j);
		if (key == UINT64_MAX) {
			d->only_b += row_counts(d, 1, j);
			continue;
		}
		c = hashtab_u64_put(t, key, CHAIN_EMPTY);
		if (chain_tail(*c) == NONE32)
			*c = chain_pack((uint32_t)j, (uint32_t)j);
		else {
			next[chain_tail(*c) - from] = (uint32_t)j;
			*c = chain_pack(chain_head(*c), (uint32_t)j);
		}
		keyed++;
	}
	return keyed;
}

/* The next row of B for A's row i in chain c (skipping B rows of earlier
 * steps); NONE32 when A's row stays unpaired.  next as chain_b's, from
 * row from. */
static uint32_t
chain_take(struct model_diff *d, uint64_t *c, const uint32_t *next, uint64_t from, uint64_t i)
{
	int64_t sa = diff_side_step(d, 0, i), sb;
	uint32_t j;

	while ((j = chain_head(*c)) != NONE32) {
		sb = diff_row_step(d->b, j);
		if (sa < 0 || sb < 0 || sb == sa) {
			*c = chain_pack(next[j - from], chain_tail(*c));
			return j;
		}
		if (sb > sa)
			return NONE32;
		*c = chain_pack(next[j - from], chain_tail(*c));   /* an earlier step only B has */
	}
	return NONE32;
}

/* A pass: takes from the chains in A's row order, rows [from, na). */
static void
take_a(struct model_diff *d, struct hashtab_u64 *t, const uint32_t *next, const uint32_t *cls,
       uint32_t nops, uint64_t from, uint64_t na)
{
	uint64_t i, key, *c;
	uint32_t j;

	for (i = from; i < na; i++) {
		key = diff_row_key(d, 0, cls, nops, i);
		c = key == UINT64_MAX ? NULL : hashtab_u64_slot(t, key);
		j = c ? chain_take(d, c, next, from, i) : NONE32;
		if (j == NONE32)
			d->only_a += key != UINT64_MAX || row_counts(d, 0, i);
		else
			pairs_add(d, i, j);
	}
}

/* Rows lockstep reads of each side at a time. */
#define LOCK_BLOCK 8192

/* Rows [p, p + n) of one side for lockstep: their keys, and for a row
 * with a key its step, for one without whether it counts unpaired.  A
 * side's keys read only its own model and its own window and memo
 * (d->side[s]): the two sides are read on two threads. */
struct side_keys {
	struct model_diff *d;
	int s;
	const uint32_t *cls;
	uint32_t nops;
	const struct hashtab_u64 *leaf;     /* B's leaf keys (side 1), or NULL */
	uint64_t p, n;
	uint64_t key[LOCK_BLOCK];
	int64_t step[LOCK_BLOCK];
};

static void *
side_keys_read(void *arg)
{
	struct side_keys *k = arg;
	uint64_t i, r;

	for (i = 0; i < k->n; i++) {
		r = k->p + i;
		k->key[i] = k->s ? b_key(k->d, k->cls, k->nops, k->leaf, r)
				 : diff_row_key(k->d, 0, k->cls, k->nops, r);
		k->step[i] = k->key[i] == UINT64_MAX ? row_counts(k->d, k->s, r)
						     : diff_side_step(k->d, k->s, r);
	}
	return NULL;
}

/* The rows both sides hold in the same order: while row p of A and row p
 * of B have one key and their steps agree (or one is unknown), row p of A
 * takes row p of B, and a row without a key on both sides is counted
 * unpaired on each.  This is what the chains give these rows: every row
 * of B before p was taken by the row of A at its place, so the chain of
 * p's key starts at row p of B, whose step A's row accepts.  Returns
 * where the walk stopped: the chains take the rest from there (no row of
 * B before it is left in a chain).  Two runs of one program are often in
 * the same order throughout: then no key is hashed at all.  The keys are
 * read LOCK_BLOCK rows of each side at a time, B's on a second thread
 * (the block where the walk stops is read past it: nothing but the
 * sides' windows keeps what a read saw). */
static uint64_t
lockstep(struct model_diff *d, const uint32_t *cls_a, uint32_t nops_a, const uint32_t *cls_b,
	 uint32_t nops_b, const struct hashtab_u64 *leaf, uint64_t n)
{
	struct side_keys *ka = xmalloc(2 * sizeof(*ka)), *kb = ka + 1;
	uint64_t p = 0, i, blk;
	bool threaded;

	for (; p < n; p += blk) {
		blk = TD_MIN((uint64_t)LOCK_BLOCK, n - p);
		ka->d = kb->d = d, ka->p = kb->p = p, ka->n = kb->n = blk;
		ka->s = 0, ka->cls = cls_a, ka->nops = nops_a, ka->leaf = NULL;
		kb->s = 1, kb->cls = cls_b, kb->nops = nops_b, kb->leaf = leaf;
		threaded = diff_worker_post(d, side_keys_read, kb);
		side_keys_read(ka);
		if (threaded)
			diff_worker_wait(d);
		else
			side_keys_read(kb);
		for (i = 0; i < blk; i++) {
			if (ka->key[i] != kb->key[i])
				goto parted;
			if (ka->key[i] == UINT64_MAX) {
				d->only_a += (uint64_t)ka->step[i];
				d->only_b += (uint64_t)kb->step[i];
				continue;
			}
			if (ka->step[i] >= 0 && kb->step[i] >= 0 && ka->step[i] != kb->step[i])
				goto parted;
			pairs_add(d, p + i, p + i);
		}
	}
	free(ka);
	return p;
parted:
	free(ka);
	return p + i;
}

static void
align(struct model_diff *d)
{
	struct name_table names;
	struct hashtab_u64 t = {0};     /* row key -> chain of B's rows */
	struct hashtab_u64 leaf = {0};  /* B's op and slot -> key, where a leaf map renames it */
	uint32_t *cls_a, *cls_b, nops_a, nops_b, *next;
	uint64_t na = model_trace_count(d->a), nb = model_trace_count(d->b);
	uint64_t keyed_b, from, before;
	bool leaves = model_map_leaf(d->b, d->map, NULL, NULL, NULL, 0);

	name_table_init(&names, model_op_count(d->b));
	/* a leaf may pair with an op B has no name of: A's ops need classes */
	both_classes(d, &names, leaves, &cls_a, &nops_a, &cls_b, &nops_b);
	if (leaves)
		diff_leaf_keys(d, cls_a, nops_a, cls_b, nops_b, &leaf);
	/* the pairs are at most the smaller side */
	d->cappairs = TD_MAX(TD_MIN(na, nb), 1);
	d->pa = xrealloc(d->pa, d->cappairs * sizeof(*d->pa));
	d->pb = xrealloc(d->pb, d->cappairs * sizeof(*d->pb));
	from = lockstep(d, cls_a, nops_a, cls_b, nops_b, leaves ? &leaf : NULL, TD_MIN(na, nb));
	before = d->npairs;
	next = xmalloc((nb > from ? nb - from : 1) * sizeof(*next));
	/* sized once: at 800,000 rows the last doubling held the old table
	 * (16 MB) beside the new one */
	hashtab_u64_init(&t, nb - from);
	keyed_b = chain_b(d, &t, next, cls_b, nops_b, from, nb, leaves ? &leaf : NULL);
	take_a(d, &t, next, cls_a, nops_a, from, na);
	d->only_b += keyed_b - (d->npairs - before);    /* keyed rows of B nobody took */
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
	if ((st = diff_host_groups(d, o, err, errlen)) != TD_OK) {
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
	diff_worker_free(d->worker);
	free(d->batches);
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
