/*
 * ms_strs.c - the MindSpore reader's string interner (struct ms_strs):
 * open addressing over FNV-1a hashes; each string is one allocation that
 * lives until ms_strs_done(), so returned pointers stay valid while the
 * table grows.  Also numbers strings in insertion order (ms_strs_id), which
 * the reader uses for frame, source and run-path sets.  Not thread-safe:
 * only the index pass adds.
 */
#include "ms_internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t
hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Slots hold the string followed by its insertion number. */
struct strs_slot {
	size_t id;
	char s[];
};

static void
strs_grow(struct ms_strs *s)
{
	size_t cap = s->cap ? s->cap * 2 : 256, i;
	char **slots = xcalloc(cap, sizeof(*slots));

	for (i = 0; i < s->cap; i++) {
		struct strs_slot *e = (struct strs_slot *)s->slots[i];
		size_t j;

		if (!e)
			continue;
		for (j = hash_str(e->s) & (cap - 1); slots[j]; j = (j + 1) & (cap - 1))
			;
		slots[j] = (char *)e;
	}
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
}

static struct strs_slot *
strs_lookup(struct ms_strs *s, const char *str, bool *added)
{
	size_t j, len;
	struct strs_slot *e;

	if (s->n * 2 >= s->cap)
		strs_grow(s);
	for (j = hash_str(str) & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1)) {
		e = (struct strs_slot *)s->slots[j];
		if (strcmp(e->s, str) == 0) {
			*added = false;
			return e;
		}
	}
	len = strlen(str);
	e = xmalloc(sizeof(*e) + len + 1);
	memcpy(e->s, str, len + 1);
	e->id = s->n++;
	s->slots[j] = (char *)e;
	*added = true;
	return e;
}

const char *
ms_strs_add(struct ms_strs *s, const char *str)
{
	bool added;

	return strs_lookup(s, str, &added)->s;
}

size_t
ms_strs_id(struct ms_strs *s, const char *str, bool *added)
{
	return strs_lookup(s, str, added)->id;
}

int64_t
ms_strs_find(const struct ms_strs *s, const char *str)
{
	size_t j;

	if (!s->cap)
		return -1;
	for (j = hash_str(str) & (s->cap - 1); s->slots[j]; j = (j + 1) & (s->cap - 1)) {
		const struct strs_slot *e = (const struct strs_slot *)s->slots[j];

		if (strcmp(e->s, str) == 0)
			return (int64_t)e->id;
	}
	return -1;
}

void
ms_strs_done(struct ms_strs *s)
{
	size_t i;

	for (i = 0; i < s->cap; i++)
		free(s->slots[i]);
	free(s->slots);
	memset(s, 0, sizeof(*s));
}
