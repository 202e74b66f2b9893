/*
 * tfdbg1_paths.c - a file's path kept as its directory, interned in the
 * reader's string pool (reader/base/strpool.h), plus its base name only
 * when the dump name's fields do not spell it (FORMAT.md §9).
 *
 * A training loop dumps the same 50 tensors in thousands of runs; a path
 * string per file was most of the reader's memory (issue 25).  Not
 * thread-safe: the reader calls it under its lock or from the index thread
 * before publishing the file.
 */
#include "reader/tfdbg1/tfdbg1_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/util.h"

/* The base name a dump's fields spell (FORMAT.md §9): the node's last
 * component, slot, debug op, timestamp and "-<n>" for a collision. */
static char *
spelled_base(const struct tfdbg1_file *f)
{
	const char *last = strrchr(f->node, '/');

	last = last ? last + 1 : f->node;
	if (f->collision)
		return xasprintf("%s_%" PRIu32 "_%s_%" PRIu64 "-%" PRIu32, last, f->slot,
				 f->debug_op, f->timestamp, f->collision);
	return xasprintf("%s_%" PRIu32 "_%s_%" PRIu64, last, f->slot, f->debug_op, f->timestamp);
}

/* p past the decimal digits of v, or NULL when p does not start with them
 * (as printf's %u writes them: no sign, no leading zero). */
static const char *
match_number(const char *p, uint64_t v)
{
	char digits[24];
	size_t n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		if (*p++ != digits[--n])
			return NULL;
	return p;
}

/* p past s, or NULL when p does not start with s. */
static const char *
match_text(const char *p, const char *s)
{
	size_t n = strlen(s);

	return strncmp(p, s, n) == 0 ? p + n : NULL;
}

/* strcmp(spelled_base(f), base) == 0 without making the string: the index
 * pass asks it of every dump file (issue 25, per-file cost). */
static bool
spells_base(const struct tfdbg1_file *f, const char *base)
{
	const char *last = strrchr(f->node, '/');
	const char *p = base;

	last = last ? last + 1 : f->node;
	if (!(p = match_text(p, last)) || *p++ != '_' || !(p = match_number(p, f->slot)) ||
	    *p++ != '_' || !(p = match_text(p, f->debug_op)) || *p++ != '_' ||
	    !(p = match_number(p, f->timestamp)))
		return false;
	if (f->collision && (*p++ != '-' || !(p = match_number(p, f->collision))))
		return false;
	return *p == '\0';
}

void
tfdbg1_file_set_path(struct td_strpool *s, struct tfdbg1_file *f, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	f->dir = slash ? td_strpool_add_len(s, path, (size_t)(slash - path)) : NULL;
	f->base = NULL;
	if (f->role == TFDBG1_DUMP && f->node && f->debug_op && spells_base(f, base))
		return;
	f->base = td_strpool_copy(s, base, strlen(base));
}

char *
tfdbg1_file_path(const struct tfdbg1_file *f)
{
	char *base = f->base ? NULL : spelled_base(f);
	char *path;

	if (f->dir)
		path = xasprintf("%s/%s", f->dir, f->base ? f->base : base);
	else
		path = xstrdup(f->base ? f->base : base);
	free(base);
	return path;
}
