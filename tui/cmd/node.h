/*
 * node.h - tdbg --node: what this node's dumps hold, one JSON line per
 * rank/host, for a launcher (srun, pdsh, clush) to print and --merge to
 * read (merge.h).
 *
 * A line (at most NODE_LINE_MAX bytes, one JSON object, no newline inside):
 *   {"tdbg_node": 1, "node", "dump", "format", "rank", "host", "rows",
 *    "executions", "steps": [first, last]|null,
 *    "first_bad": {"step", "index", "op_name", "op_type", "wall_time"}|null,
 *    "origin": the headline of `origins` for this host|null,
 *    "comm": [{"op", "type", "calls", "nonfinite", "finite", "peers"}],
 *    "watch_hits", "problems", "error": null|"text"}
 * A dump that cannot be opened, or a host with no row it could read, is a
 * line with "error" set.  Curses-free; only the model and the command
 * table below it.
 */
#ifndef TD_NODE_H
#define TD_NODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

#define NODE_LINE_MAX 65536

struct node_options {
	const char *name;           /* "node": NULL for this machine's host name */
	int64_t rank_base;          /* --rank N: the first host's rank when no
				     * host or path names one, -1 none */
};

/* The rank of a host or dump path that names one: "rank_3", "rank3",
 * "rank-3" (any case) at the end of the name or of its last path
 * component; -1 when it names none. */
int64_t node_rank_of(const char *name);

/* Writes one line per host of m (one line when the dump names no host) to
 * out.  m should be fully indexed (model_wait); dump is the path as given
 * (written as its real path when it resolves). */
void node_answer(struct model *m, const char *dump, const struct node_options *o, FILE *out);

/* The line for a dump that could not be opened (or read): the same keys,
 * counts null, "error" msg; the rank from the path or rank_base. */
void node_error(const char *dump, const struct node_options *o, const char *msg, FILE *out);

#endif
