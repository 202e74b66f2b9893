/*
 * pt_pickle.c - the pickle subset that torch.save writes for one tensor
 * (FORMAT.md §7.2).
 *
 * A stack machine over a fixed arena: values are numbers, strings (pointers
 * into the pickle), tuples, a few known globals, a storage reference, an
 * empty ordered dict and the one tensor.  The only calls it "makes" are the
 * REDUCEs of the known globals, which it evaluates itself into a
 * struct pt_header.  Any other opcode or global is refused with its name
 * and offset: nothing is imported or run.  Not for: general pickles.
 */
#include "pt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PK_MAX_VALUES 1024
#define PK_MAX_STACK  256
#define PK_MAX_MEMO   1024
#define PK_MAX_ITEMS  1024
#define PK_MAX_TUPLE  64

enum pv_kind { PV_NONE, PV_BOOL, PV_INT, PV_STR, PV_TUPLE, PV_GLOBAL, PV_STORAGE, PV_DICT, PV_TENSOR };

enum pk_global {
	G_REBUILD_V2, G_REBUILD_PARAMETER, G_ORDERED_DICT, G_STORAGE,
};

struct pv {
	enum pv_kind kind;
	int64_t i;                  /* INT, BOOL; GLOBAL: enum pk_global; STORAGE: numel */
	const uint8_t *s;           /* STR */
	size_t slen;
	int first, count;           /* TUPLE: items[first, first + count) */
	enum td_dtype dtype;        /* GLOBAL G_STORAGE, STORAGE */
	const uint8_t *key;         /* STORAGE: its record name */
	size_t keylen;
};

#define MARK (-1)

struct pk {
	const uint8_t *p, *end, *start;
	struct pv vals[PK_MAX_VALUES];
	int nvals;
	int stack[PK_MAX_STACK];
	int sp;
	int memo[PK_MAX_MEMO];
	int nmemo;                  /* MEMOIZE's next slot */
	int items[PK_MAX_ITEMS];
	int nitems;
	bool have_tensor;
	struct pt_header *h;
	char *err;
	size_t errlen;
};

static const struct {
	const char *name;
	enum td_dtype dtype;
} storage_types[] = {
	{ "FloatStorage", DTYPE_FLOAT32 },     { "DoubleStorage", DTYPE_FLOAT64 },
	{ "HalfStorage", DTYPE_FLOAT16 },      { "BFloat16Storage", DTYPE_BFLOAT16 },
	{ "LongStorage", DTYPE_INT64 },        { "IntStorage", DTYPE_INT32 },
	{ "ShortStorage", DTYPE_INT16 },       { "CharStorage", DTYPE_INT8 },
	{ "ByteStorage", DTYPE_UINT8 },        { "BoolStorage", DTYPE_BOOL },
	{ "ComplexFloatStorage", DTYPE_COMPLEX64 }, { "ComplexDoubleStorage", DTYPE_COMPLEX128 },
};

static enum td_status
pk_fail(struct pk *k, enum td_status st, const char *what)
{
	snprintf(k->err, k->errlen, "pickle at byte %td: %s", k->p - k->start, what);
	return st;
}

static int
new_value(struct pk *k, enum pv_kind kind)
{
	if (k->nvals >= PK_MAX_VALUES)
		return -1;
	memset(&k->vals[k->nvals], 0, sizeof(k->vals[0]));
	k->vals[k->nvals].kind = kind;
	return k->nvals++;
}

static enum td_status
push(struct pk *k, int v)
{
	if (v < 0 && v != MARK)
		return pk_fail(k, TD_ERR_TOO_LARGE, "more values than a tensor's pickle holds");
	if (k->sp >= PK_MAX_STACK)
		return pk_fail(k, TD_ERR_TOO_LARGE, "the pickle's stack is too deep");
	k->stack[k->sp++] = v;
	return TD_OK;
}

static enum td_status
push_int(struct pk *k, int64_t i)
{
	int v = new_value(k, PV_INT);

	if (v >= 0)
		k->vals[v].i = i;
	return push(k, v);
}

/* Pops a value (not a mark) into *v. */
static enum td_status
pop(struct pk *k, int *v)
{
	if (k->sp == 0 || k->stack[k->sp - 1] == MARK)
		return pk_fail(k, TD_ERR_CORRUPT, "a pop from an empty stack");
	*v = k->stack[--k->sp];
	return TD_OK;
}

/* Bytes of the pickle: n more of them, or a failure. */
static const uint8_t *
take(struct pk *k, size_t n)
{
	const uint8_t *q = k->p;

	if ((size_t)(k->end - k->p) < n)
		return NULL;
	k->p += n;
	return q;
}

static uint64_t
le_n(const uint8_t *q, size_t n)
{
	uint64_t x = 0;

	while (n--)
		x = x << 8 | q[n];
	return x;
}

/* Builds a tuple of the n values on top of the stack. */
static enum td_status
make_tuple(struct pk *k, int n)
{
	int v, j;

	if (n > PK_MAX_TUPLE || k->nitems + n > PK_MAX_ITEMS)
		return pk_fail(k, TD_ERR_TOO_LARGE, "a tuple larger than a tensor's pickle holds");
	if (k->sp < n)
		return pk_fail(k, TD_ERR_CORRUPT, "a tuple of more items than the stack holds");
	for (j = k->sp - n; j < k->sp; j++)
		if (k->stack[j] == MARK)
			return pk_fail(k, TD_ERR_CORRUPT, "a tuple across a mark");
	if ((v = new_value(k, PV_TUPLE)) < 0)
		return pk_fail(k, TD_ERR_TOO_LARGE, "more values than a tensor's pickle holds");
	k->vals[v].first = k->nitems;
	k->vals[v].count = n;
	memcpy(&k->items[k->nitems], &k->stack[k->sp - n], (size_t)n * sizeof(int));
	k->nitems += n;
	k->sp -= n;
	return push(k, v);
}

/* How many values lie above the topmost mark; -1 without one. */
static int
above_mark(const struct pk *k)
{
	int j;

	for (j = k->sp - 1; j >= 0; j--)
		if (k->stack[j] == MARK)
			return k->sp - 1 - j;
	return -1;
}

static bool
str_is(const struct pv *v, const char *s)
{
	return v->kind == PV_STR && v->slen == strlen(s) && memcmp(v->s, s, v->slen) == 0;
}

/* module and name of a GLOBAL, each as pointer and length. */
static enum td_status
push_global(struct pk *k, const uint8_t *mod, size_t mlen, const uint8_t *name, size_t nlen)
{
	int v = new_value(k, PV_GLOBAL);
	size_t i;
	char what[160];

#define IS(p, l, s) ((l) == strlen(s) && memcmp((p), (s), (l)) == 0)
	if (v < 0)
		return push(k, v);
	if (IS(mod, mlen, "torch._utils") && IS(name, nlen, "_rebuild_tensor_v2")) {
		k->vals[v].i = G_REBUILD_V2;
		return push(k, v);
	}
	if (IS(mod, mlen, "torch._utils") && IS(name, nlen, "_rebuild_parameter")) {
		k->vals[v].i = G_REBUILD_PARAMETER;
		return push(k, v);
	}
	if (IS(mod, mlen, "collections") && IS(name, nlen, "OrderedDict")) {
		k->vals[v].i = G_ORDERED_DICT;
		return push(k, v);
	}
	for (i = 0; IS(mod, mlen, "torch") && i < TD_ARRAY_SIZE(storage_types); i++)
		if (IS(name, nlen, storage_types[i].name)) {
			k->vals[v].i = G_STORAGE;
			k->vals[v].dtype = storage_types[i].dtype;
			return push(k, v);
		}
#undef IS
	snprintf(what, sizeof(what), "global %.*s.%.*s is not part of a saved tensor",
		 (int)TD_MIN(mlen, 60), (const char *)mod, (int)TD_MIN(nlen, 60), (const char *)name);
	for (i = 0; what[i]; i++)
		if ((unsigned char)what[i] < 0x20 || (unsigned char)what[i] >= 0x7f)
			what[i] = '?';
	return pk_fail(k, TD_ERR_UNSUPPORTED, what);
}

/* GLOBAL: "module\nname\n" in the opcode's argument. */
static enum td_status
op_global(struct pk *k)
{
	const uint8_t *mod = k->p, *nl1, *name, *nl2;

	if (!(nl1 = memchr(mod, '\n', (size_t)(k->end - mod))))
		return pk_fail(k, TD_ERR_CORRUPT, "a GLOBAL without its module line");
	name = nl1 + 1;
	if (!(nl2 = memchr(name, '\n', (size_t)(k->end - name))))
		return pk_fail(k, TD_ERR_CORRUPT, "a GLOBAL without its name line");
	k->p = nl2 + 1;
	return push_global(k, mod, (size_t)(nl1 - mod), name, (size_t)(nl2 - name));
}

static enum td_status
op_stack_global(struct pk *k)
{
	int name, mod;
	enum td_status st;

	if ((st = pop(k, &name)) != TD_OK || (st = pop(k, &mod)) != TD_OK)
		return st;
	if (k->vals[name].kind != PV_STR || k->vals[mod].kind != PV_STR)
		return pk_fail(k, TD_ERR_CORRUPT, "STACK_GLOBAL of values that are not strings");
	return push_global(k, k->vals[mod].s, k->vals[mod].slen, k->vals[name].s, k->vals[name].slen);
}

static enum td_status
op_string(struct pk *k, size_t lenbytes)
{
	const uint8_t *q = take(k, lenbytes), *s;
	uint64_t n;
	int v;

	if (!q)
		return pk_fail(k, TD_ERR_CORRUPT, "a string's length past the end");
	n = le_n(q, lenbytes);
	if (n > (uint64_t)(k->end - k->p) || !(s = take(k, (size_t)n)))
		return pk_fail(k, TD_ERR_CORRUPT, "a string past the end of the pickle");
	if ((v = new_value(k, PV_STR)) >= 0) {
		k->vals[v].s = s;
		k->vals[v].slen = (size_t)n;
	}
	return push(k, v);
}

/* BINPERSID: ('storage', <storage type>, key, location, numel). */
static enum td_status
op_persid(struct pk *k)
{
	const struct pv *t, *type, *key, *numel;
	enum td_status st;
	int v, tv;
	size_t i;

	if ((st = pop(k, &tv)) != TD_OK)
		return st;
	t = &k->vals[tv];
	if (t->kind != PV_TUPLE || t->count != 5 || !str_is(&k->vals[k->items[t->first]], "storage"))
		return pk_fail(k, TD_ERR_UNSUPPORTED, "a persistent id that is not a storage");
	type = &k->vals[k->items[t->first + 1]];
	key = &k->vals[k->items[t->first + 2]];
	numel = &k->vals[k->items[t->first + 4]];
	if (type->kind != PV_GLOBAL || type->i != G_STORAGE || key->kind != PV_STR ||
	    numel->kind != PV_INT || numel->i < 0)
		return pk_fail(k, TD_ERR_CORRUPT, "a storage id without type, key or size");
	if (key->slen == 0 || key->slen >= sizeof(k->h->key))
		return pk_fail(k, TD_ERR_CORRUPT, "a storage key of a bad length");
	for (i = 0; i < key->slen; i++)
		if (!((key->s[i] >= '0' && key->s[i] <= '9') || (key->s[i] >= 'a' && key->s[i] <= 'z') ||
		      (key->s[i] >= 'A' && key->s[i] <= 'Z') || key->s[i] == '_'))
			return pk_fail(k, TD_ERR_CORRUPT, "a storage key that is no record name");
	if ((v = new_value(k, PV_STORAGE)) >= 0) {
		k->vals[v].dtype = type->dtype;
		k->vals[v].key = key->s;
		k->vals[v].keylen = key->slen;
		k->vals[v].i = numel->i;
	}
	return push(k, v);
}

/* An int tuple into out[]: false if an item is not an int. */
static bool
int_tuple(const struct pk *k, const struct pv *t, int64_t *out)
{
	int j;

	if (t->kind != PV_TUPLE || t->count > PT_MAX_DIMS)
		return false;
	for (j = 0; j < t->count; j++) {
		const struct pv *x = &k->vals[k->items[t->first + j]];

		if (x->kind != PV_INT)
			return false;
		out[j] = x->i;
	}
	return true;
}

/* Checks the view (offset, sizes, strides) lies inside the storage. */
static enum td_status
check_view(struct pk *k, struct pt_header *h)
{
	int64_t last = h->storage_offset;
	int d;

	if (h->storage_offset < 0)
		return pk_fail(k, TD_ERR_CORRUPT, "a negative storage offset");
	for (d = 0; d < h->rank; d++)
		if (h->dims[d] < 0 || h->strides[d] < 0)
			return pk_fail(k, TD_ERR_CORRUPT, "a negative size or stride");
	if (!td_shape_elements(h->rank, h->dims, &h->n))
		return pk_fail(k, TD_ERR_CORRUPT, "a shape whose element count overflows");
	if (h->n == 0)
		return TD_OK;
	for (d = 0; d < h->rank; d++) {
		int64_t reach;

		if (__builtin_mul_overflow(h->dims[d] - 1, h->strides[d], &reach) ||
		    __builtin_add_overflow(last, reach, &last))
			return pk_fail(k, TD_ERR_CORRUPT, "a view whose extent overflows");
	}
	if (last >= h->storage_numel)
		return pk_fail(k, TD_ERR_CORRUPT, "a view reaching past its storage");
	return TD_OK;
}

static enum td_status
reduce_rebuild(struct pk *k, const struct pv *args)
{
	const struct pv *a[7];
	struct pt_header *h = k->h;
	enum td_status st;
	int j, v;

	if (args->count != 6 && args->count != 7)
		return pk_fail(k, TD_ERR_CORRUPT, "_rebuild_tensor_v2 with a wrong argument count");
	for (j = 0; j < args->count; j++)
		a[j] = &k->vals[k->items[args->first + j]];
	if (a[0]->kind != PV_STORAGE || a[1]->kind != PV_INT || a[4]->kind != PV_BOOL ||
	    (a[5]->kind != PV_DICT && a[5]->kind != PV_NONE) ||
	    (args->count == 7 && a[6]->kind != PV_DICT && a[6]->kind != PV_NONE))
		return pk_fail(k, TD_ERR_CORRUPT, "_rebuild_tensor_v2 with arguments of the wrong kinds");
	if (a[2]->kind != PV_TUPLE || a[3]->kind != PV_TUPLE || a[2]->count != a[3]->count)
		return pk_fail(k, TD_ERR_CORRUPT, "a size and a stride of different ranks");
	if (a[2]->count > PT_MAX_DIMS)
		return pk_fail(k, TD_ERR_TOO_LARGE, "a tensor of more dimensions than tdbg reads");
	if (k->have_tensor)
		return pk_fail(k, TD_ERR_UNSUPPORTED, "several tensors in one file");
	if (!int_tuple(k, a[2], h->dims) || !int_tuple(k, a[3], h->strides))
		return pk_fail(k, TD_ERR_CORRUPT, "a size or stride that is not integers");
	h->rank = a[2]->count;
	h->dtype = a[0]->dtype;
	h->storage_numel = a[0]->i;
	h->storage_offset = a[1]->i;
	memcpy(h->key, a[0]->key, a[0]->keylen);
	h->key[a[0]->keylen] = '\0';
	h->requires_grad = a[4]->i != 0;
	if ((st = check_view(k, h)) != TD_OK)
		return st;
	k->have_tensor = true;
	v = new_value(k, PV_TENSOR);
	return push(k, v);
}

static enum td_status
op_reduce(struct pk *k)
{
	const struct pv *fn, *args;
	enum td_status st;
	int av, fv, v;

	if ((st = pop(k, &av)) != TD_OK || (st = pop(k, &fv)) != TD_OK)
		return st;
	fn = &k->vals[fv];
	args = &k->vals[av];
	if (fn->kind != PV_GLOBAL || args->kind != PV_TUPLE)
		return pk_fail(k, TD_ERR_CORRUPT, "REDUCE of something that is no known call");
	switch ((enum pk_global)fn->i) {
	case G_ORDERED_DICT:
		if (args->count != 0)
			return pk_fail(k, TD_ERR_UNSUPPORTED, "an OrderedDict built from items");
		v = new_value(k, PV_DICT);
		return push(k, v);
	case G_REBUILD_V2:
		return reduce_rebuild(k, args);
	case G_REBUILD_PARAMETER:
		if (args->count != 3 || k->vals[k->items[args->first]].kind != PV_TENSOR ||
		    k->vals[k->items[args->first + 1]].kind != PV_BOOL)
			return pk_fail(k, TD_ERR_CORRUPT, "_rebuild_parameter with arguments of the wrong kinds");
		k->h->requires_grad = k->vals[k->items[args->first + 1]].i != 0;
		return push(k, k->items[args->first]);
	case G_STORAGE:
		break;
	}
	return pk_fail(k, TD_ERR_UNSUPPORTED, "a call of a storage type");
}

/* The top n values (key/value pairs of a tensor's metadata dict) are plain
 * values; they are dropped. */
static enum td_status
drop_pairs(struct pk *k, int n)
{
	int j;

	if (n < 0 || n % 2 || k->sp < n)
		return pk_fail(k, TD_ERR_CORRUPT, "SETITEM(S) without key/value pairs");
	for (j = k->sp - n; j < k->sp; j++) {
		enum pv_kind kind = k->vals[k->stack[j]].kind;

		if (kind == PV_TENSOR || kind == PV_STORAGE)
			return pk_fail(k, TD_ERR_UNSUPPORTED, "a tensor inside a dict");
	}
	k->sp -= n;
	return TD_OK;
}

/* The value under the pairs must be a dict. */
static enum td_status
expect_dict(struct pk *k)
{
	if (k->sp == 0 || k->stack[k->sp - 1] == MARK || k->vals[k->stack[k->sp - 1]].kind != PV_DICT)
		return pk_fail(k, TD_ERR_CORRUPT, "SETITEM(S) on something that is not a dict");
	return TD_OK;
}

/* SETITEM: dict key value. */
static enum td_status
op_setitem(struct pk *k)
{
	enum td_status st;

	if (k->sp < 2 || k->stack[k->sp - 1] == MARK || k->stack[k->sp - 2] == MARK)
		return pk_fail(k, TD_ERR_CORRUPT, "SETITEM without a key and a value");
	if ((st = drop_pairs(k, 2)) != TD_OK)
		return st;
	return expect_dict(k);
}

/* SETITEMS: dict MARK key value ... */
static enum td_status
op_setitems(struct pk *k)
{
	enum td_status st;
	int n = above_mark(k);

	if (n < 0)
		return pk_fail(k, TD_ERR_CORRUPT, "SETITEMS without a mark");
	if ((st = drop_pairs(k, n)) != TD_OK)
		return st;
	k->sp--;                        /* the mark */
	return expect_dict(k);
}

static enum td_status
memo_put(struct pk *k, uint64_t idx)
{
	if (k->sp == 0 || k->stack[k->sp - 1] == MARK)
		return pk_fail(k, TD_ERR_CORRUPT, "a memo of nothing");
	if (idx >= PK_MAX_MEMO)
		return pk_fail(k, TD_ERR_TOO_LARGE, "a memo index larger than a tensor's pickle uses");
	k->memo[idx] = k->stack[k->sp - 1];
	return TD_OK;
}

static enum td_status
memo_get(struct pk *k, uint64_t idx)
{
	if (idx >= PK_MAX_MEMO || k->memo[idx] < 0)
		return pk_fail(k, TD_ERR_CORRUPT, "a memo read of an unset slot");
	return push(k, k->memo[idx]);
}

/* One opcode and its argument. */
static enum td_status
step(struct pk *k, uint8_t op, bool *stop)
{
	const uint8_t *q;
	int v;

	switch (op) {
	case 0x80:              /* PROTO */
		if (!(q = take(k, 1)) || *q < 2 || *q > 5)
			return pk_fail(k, TD_ERR_UNSUPPORTED, "a pickle protocol other than 2 to 5");
		return TD_OK;
	case 0x95:              /* FRAME: a length hint */
		return take(k, 8) ? TD_OK : pk_fail(k, TD_ERR_CORRUPT, "a cut FRAME");
	case 'c': return op_global(k);
	case 0x93: return op_stack_global(k);
	case 'q':
		return (q = take(k, 1)) ? memo_put(k, *q) : pk_fail(k, TD_ERR_CORRUPT, "a cut BINPUT");
	case 'r':
		return (q = take(k, 4)) ? memo_put(k, le_n(q, 4)) : pk_fail(k, TD_ERR_CORRUPT, "a cut LONG_BINPUT");
	case 0x94:
		return memo_put(k, (uint64_t)k->nmemo++);
	case 'h':
		return (q = take(k, 1)) ? memo_get(k, *q) : pk_fail(k, TD_ERR_CORRUPT, "a cut BINGET");
	case 'j':
		return (q = take(k, 4)) ? memo_get(k, le_n(q, 4)) : pk_fail(k, TD_ERR_CORRUPT, "a cut LONG_BINGET");
	case '(': return push(k, MARK);
	case 't': {
		enum td_status st;

		if ((v = above_mark(k)) < 0)
			return pk_fail(k, TD_ERR_CORRUPT, "TUPLE without a mark");
		if ((st = make_tuple(k, v)) != TD_OK)
			return st;
		/* drop the mark under the new tuple */
		k->stack[k->sp - 2] = k->stack[k->sp - 1];
		k->sp--;
		return TD_OK;
	}
	case ')': return make_tuple(k, 0);
	case 0x85: return make_tuple(k, 1);
	case 0x86: return make_tuple(k, 2);
	case 0x87: return make_tuple(k, 3);
	case 'X': return op_string(k, 4);
	case 0x8c: return op_string(k, 1);
	case 'J':
		return (q = take(k, 4)) ? push_int(k, (int32_t)le_n(q, 4)) : pk_fail(k, TD_ERR_CORRUPT, "a cut BININT");
	case 'K':
		return (q = take(k, 1)) ? push_int(k, *q) : pk_fail(k, TD_ERR_CORRUPT, "a cut BININT1");
	case 'M':
		return (q = take(k, 2)) ? push_int(k, (int64_t)le_n(q, 2)) : pk_fail(k, TD_ERR_CORRUPT, "a cut BININT2");
	case 0x8a: {            /* LONG1: n little-endian two's complement bytes */
		size_t n;
		uint64_t x;

		if (!(q = take(k, 1)))
			return pk_fail(k, TD_ERR_CORRUPT, "a cut LONG1");
		if ((n = *q) > 8)
			return pk_fail(k, TD_ERR_UNSUPPORTED, "an integer wider than 64 bits");
		if (!(q = take(k, n)))
			return pk_fail(k, TD_ERR_CORRUPT, "a cut LONG1");
		x = le_n(q, n);
		if (n > 0 && n < 8 && (q[n - 1] & 0x80))
			x |= ~(uint64_t)0 << (8 * n);
		return push_int(k, (int64_t)x);
	}
	case 0x88: case 0x89:
		if ((v = new_value(k, PV_BOOL)) >= 0)
			k->vals[v].i = op == 0x88;
		return push(k, v);
	case 'N': return push(k, new_value(k, PV_NONE));
	case '}': return push(k, new_value(k, PV_DICT));
	case 's': return op_setitem(k);
	case 'u': return op_setitems(k);
	case 'Q': return op_persid(k);
	case 'R': return op_reduce(k);
	case '.':
		*stop = true;
		return TD_OK;
	}
	k->p--;
	{
		char what[64];

		snprintf(what, sizeof(what), "opcode 0x%02x is not part of a saved tensor", op);
		return pk_fail(k, TD_ERR_UNSUPPORTED, what);
	}
}

enum td_status
pt_parse_pickle(const uint8_t *pkl, size_t len, struct pt_header *h, char *err, size_t errlen)
{
	struct pk *k = xcalloc(1, sizeof(*k));
	enum td_status st = TD_OK;
	bool stop = false;
	int top;

	memset(h, 0, sizeof(*h));
	k->p = k->start = pkl;
	k->end = pkl + len;
	memset(k->memo, 0xff, sizeof(k->memo));
	k->h = h;
	k->err = err;
	k->errlen = errlen;
	while (!stop && st == TD_OK) {
		if (k->p >= k->end)
			st = pk_fail(k, TD_ERR_CORRUPT, "the pickle ends before STOP");
		else
			st = step(k, *k->p++, &stop);
	}
	if (st == TD_OK && (k->sp != 1 || (top = k->stack[0]) == MARK || k->vals[top].kind != PV_TENSOR))
		st = pk_fail(k, TD_ERR_UNSUPPORTED, "the pickle does not end with one tensor");
	free(k);
	return st;
}
