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

void
tfdbg1_file_set_path(struct td_strpool *s, struct tfdbg1_file *f, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *spelled;

	f->dir = slash ? td_strpool_add_len(s, path, (size_t)(slash - path)) : NULL;
	f->base = NULL;
	if (f->role == TFDBG1_DUMP && f->node && f->debug_op) {
		spelled = spelled_base(f);
		if (strcmp(spelled, base) == 0) {
			free(spelled);
			return;
		}
		free(spelled);
	}
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
