/*
 * many.h - the many-nodes modes of the command line: tdbg --node,
 * tdbg --merge and tdbg --via (node.h, merge.h).  main() calls one of
 * these instead of opening one dump.  Curses-free.
 */
#ifndef TD_MANY_H
#define TD_MANY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/model.h"
#include "tui/cmd/merge.h"
#include "tui/cmd/node.h"

/* --node: opens each dump (the persistent index as usual, mo), waits for
 * its index and writes its node lines to out; a dump that cannot be
 * opened is an error line.  Returns 0, or 2 (EXIT_OPEN) when a dump could
 * not be opened. */
int many_node(char *const *dumps, size_t n, const struct model_options *mo,
	      const struct node_options *no, FILE *out);

/* Feeds every line of f into mg (a line longer than NODE_LINE_MAX is cut
 * and kept as a message).  False on a read error. */
bool many_read(FILE *f, struct merge *mg);

/* --merge: reads the files (none: standard input, "-" too) into a merge
 * and prints the answer (text, or one JSON line) on out.  Returns 0, 1 on
 * bad --nodes, 2 when a file cannot be read (said on err). */
int many_merge(char *const *files, size_t n, const struct merge_options *o, bool json,
	       FILE *out, FILE *err);

/* --via: runs LAUNCHER's words (split as a POSIX shell would, no
 * expansion) followed by "TDBG --node DUMP...", reads its standard output
 * and error line by line into the merge while it runs (fork/exec and
 * pipes, no shell), shows "N of M nodes answered" on err when err is a
 * terminal, and prints the answer on out.  tdbg: the binary the nodes run
 * (NULL: the path of this binary).  Returns 0, 1 when the launcher could
 * not be run or --nodes is bad (said on err); a launcher's non-zero exit
 * is part of the answer (a launcher message), not an error. */
int many_via(const char *launcher, const char *tdbg, char *const *dumps, size_t n,
	     const struct merge_options *o, bool json, FILE *out, FILE *err);

/* True when path holds merged or node lines (a regular file whose first
 * line is a JSON object with "tdbg_node" or "ranks"): tdbg FILE opens the
 * ranks view. */
bool many_is_lines_file(const char *path);

#endif
