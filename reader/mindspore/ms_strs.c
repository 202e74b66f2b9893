/*
 * ms_strs.c - the MindSpore reader's string interner (struct ms_strs):
 * the foundation's hash table (reader/base/hashtab.h) over strings kept in
 * insertion order; each string is one allocation that lives until
 * ms_strs_done(), so returned pointers stay valid while the table grows.
 * The insertion numbers (ms_strs_id) are what the reader uses for frame,
 * source and run-path sets.  Not thread-safe: only the index pass adds.
 */
#include "ms_internal.h"

#include <stdlib.h>
#include <string.h>

static bool
strs_eq(const void *ctx, uint32_t id, const void *key)
{
	return strcmp(((const struct ms_strs *)ctx)->strs[id], key) == 0;
}

/* The insertion number of str, adding it when absent (*added says). */
static size_t
strs_lookup(struct ms_strs *s, const char *str, bool *added)
{
	uint32_t h = hashtab_str_hash(str), id = hashtab_find(&s->ids, h, strs_eq, s, str);

	*added = id == HASHTAB_NONE;
	if (!*added)
		return id;
	if (s->n >= HASHTAB_NONE)
		abort();                /* four billion distinct names */
	TD_GROW(s->strs, s->cap, s->n + 1);
	s->strs[s->n] = xstrdup(str);
	hashtab_add(&s->ids, h, (uint32_t)s->n);
	return s->n++;
}

const char *
ms_strs_add(struct ms_strs *s, const char *str)
{
	bool added;
	size_t id = strs_lookup(s, str, &added);    /* may move s->strs */

	return s->strs[id];
}

size_t
ms_strs_id(struct ms_strs *s, const char *str, bool *added)
{
	return strs_lookup(s, str, added);
}

int64_t
ms_strs_find(const struct ms_strs *s, const char *str)
{
	uint32_t id = hashtab_find(&s->ids, hashtab_str_hash(str), strs_eq, s, str);

	return id == HASHTAB_NONE ? -1 : (int64_t)id;
}

void
ms_strs_done(struct ms_strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->strs[i]);
	free(s->strs);
	hashtab_done(&s->ids);
	memset(s, 0, sizeof(*s));
}
