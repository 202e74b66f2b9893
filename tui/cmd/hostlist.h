/*
 * hostlist.h - Slurm/pdsh host ranges ("node[01-64]", "n[1-3,7],login")
 * and rank ranges ("0-5,7"): expanded into names, and names compressed
 * back into ranges, for the merge of the node answers (--merge --nodes).
 *
 * The syntax is the common subset of Slurm's and pdsh's: a comma-separated
 * list of items; an item is text with zero or more bracket groups, a group
 * a comma-separated list of numbers and ranges A-B.  Leading zeros give the
 * width ("[01-10]" is 01, 02 ... 10).  Not supported: pdsh's "^file",
 * "-x" exclusions, and Slurm's step "[1-10:2]" and multi-dimensional forms.
 * Curses-free, no model.
 */
#ifndef TD_HOSTLIST_H
#define TD_HOSTLIST_H

#include <stddef.h>
#include <stdint.h>

#include "reader/base/util.h"

/* At most this many names from one expansion (a typo like n[1-99999999]
 * is an error, not a memory bomb). */
#define HOSTLIST_MAX 1000000

/* Expands text into *names (a malloc'd array of malloc'd strings, in the
 * order written, duplicates kept) and *n.  Returns 0, or -1 with *names
 * NULL and the cause in err ("hostlist 'n[1-': missing ']'").  Free with
 * hostlist_free(). */
int hostlist_expand(const char *text, char ***names, size_t *n, char *err, size_t errlen);
void hostlist_free(char **names, size_t n);

/* Appends names compressed into ranges to out: names ending in digits that
 * share a prefix and a digit width are grouped ("n01", "n02", "n03", "n07"
 * -> "n[01-03,07]"); the others stay as they are.  Groups are sorted by
 * prefix, numbers ascending, duplicates dropped.  Nothing for n == 0. */
void hostlist_compress(const char *const *names, size_t n, struct strbuf *out);

/* Appends the ranks as sorted ranges without duplicates ("0-5,7") to out;
 * nothing for n == 0. */
void hostlist_ranks(const int64_t *ranks, size_t n, struct strbuf *out);

#endif
