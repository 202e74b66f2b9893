/*
 * model_origin_pack.c - the explanations an origins run made, kept packed
 * so that showing them does not make them again.
 *
 * A run explains each origin it finds (the work counts against its
 * budget); a listing shows it again (model_origin_list_get).  Explaining
 * twice was half of `origins --json`'s time.  The run keeps each
 * explanation as bytes: the struct's numbers before the cause and after
 * the evidence as they are, the cause and evidence lines as text without
 * their fixed-size buffers' padding, then the inputs, path and from
 * arrays.  Pointers in the numbers (op names and types, the host) point
 * into the model's string tables, which live as long as the model.
 * The bytes kept are bounded (ORIGIN_PACK_MAX): origins past it are
 * explained again when shown, as before.
 */
#include "model/analysis/model_origins_ctx.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define ORIGIN_PACK_MAX (16u << 20)  /* bytes of packed explanations per run */

/* The struct's layout the packing relies on: the text buffers sit between
 * the numbers before them (head) and those after (tail). */
#define HEAD_END offsetof(struct model_origin, cause)
#define TAIL_AT  offsetof(struct model_origin, path)
_Static_assert(offsetof(struct model_origin, inputs) < HEAD_END &&
	       offsetof(struct model_origin, ninputs) < HEAD_END,
	       "the inputs are in the head");
_Static_assert(HEAD_END < offsetof(struct model_origin, evidence) &&
	       offsetof(struct model_origin, evidence) < offsetof(struct model_origin, nevidence) &&
	       offsetof(struct model_origin, nevidence) < TAIL_AT,
	       "the cause and evidence lie between the head and the tail");
_Static_assert(offsetof(struct model_origin, from) > TAIL_AT &&
	       offsetof(struct model_origin, nfrom) > TAIL_AT,
	       "the path and from arrays are in the tail");

static void
put(struct origin_packs *p, const void *src, size_t n)
{
	if (!n)
		return;
	TD_GROW(p->b, p->cap, p->n + n);
	memcpy(p->b + p->n, src, n);
	p->n += n;
}

/* A line of at most MODEL_CAUSE_LEN - 1 bytes and its NUL. */
static void
put_text(struct origin_packs *p, const char *s)
{
	char nul = 0;

	put(p, s, strnlen(s, MODEL_CAUSE_LEN - 1));
	put(p, &nul, 1);
}

bool
origin_pack_put(struct origin_packs *p, uint64_t row, const struct model_origin *o)
{
	size_t at = p->n, k, need;

	need = HEAD_END + (sizeof(*o) - TAIL_AT) + sizeof(size_t) +
	       o->ninputs * sizeof(*o->inputs) + o->npath * sizeof(*o->path) +
	       o->nfrom * sizeof(*o->from) + (o->nevidence + 1) * MODEL_CAUSE_LEN;
	if (p->n + need > (p->max ? p->max : ORIGIN_PACK_MAX) || o->nevidence > MODEL_EVIDENCE_MAX)
		return false;
	put(p, o, HEAD_END);
	put(p, (const char *)o + TAIL_AT, sizeof(*o) - TAIL_AT);
	put(p, &o->nevidence, sizeof(o->nevidence));
	put_text(p, o->cause);
	for (k = 0; k < o->nevidence; k++)
		put_text(p, o->evidence[k]);
	put(p, o->inputs, o->ninputs * sizeof(*o->inputs));
	put(p, o->path, o->npath * sizeof(*o->path));
	put(p, o->from, o->nfrom * sizeof(*o->from));
	*hashtab_u64_put(&p->at, row, 0) = at + 1;
	return true;
}

/* A copy of n bytes at *q as a malloc'd array (NULL when n is 0). */
static void *
take(const uint8_t **q, size_t n)
{
	void *v = NULL;

	if (n) {
		v = xmalloc(n);
		memcpy(v, *q, n);
		*q += n;
	}
	return v;
}

static void
take_text(const uint8_t **q, char *dst)
{
	size_t n = strlen((const char *)*q) + 1;

	memcpy(dst, *q, n);
	*q += n;
}

bool
origin_pack_get(const struct origin_packs *p, uint64_t row, struct model_origin *o)
{
	const uint8_t *q;
	uint64_t at;
	size_t k;

	if (!hashtab_u64_get(&p->at, row, &at) || !at)
		return false;
	q = p->b + at - 1;
	memset(o, 0, sizeof(*o));
	memcpy(o, q, HEAD_END);
	q += HEAD_END;
	memcpy((char *)o + TAIL_AT, q, sizeof(*o) - TAIL_AT);
	q += sizeof(*o) - TAIL_AT;
	memcpy(&o->nevidence, q, sizeof(o->nevidence));
	q += sizeof(o->nevidence);
	take_text(&q, o->cause);
	for (k = 0; k < o->nevidence; k++)
		take_text(&q, o->evidence[k]);
	o->inputs = take(&q, o->ninputs * sizeof(*o->inputs));
	o->path = take(&q, o->npath * sizeof(*o->path));
	o->from = take(&q, o->nfrom * sizeof(*o->from));
	return true;
}

void
origin_packs_done(struct origin_packs *p)
{
	free(p->b);
	hashtab_u64_done(&p->at);
	memset(p, 0, sizeof(*p));
}
