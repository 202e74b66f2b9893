/*
 * merge.h - tdbg --merge: the node lines of many nodes (tdbg --node, node.h)
 * as srun, pdsh or clush print them, merged into one answer.
 *
 * Lines come with a launcher prefix or none: "n3: {...}" (pdsh, clush),
 * "  3: {...}" (srun -l: the task number), or "{...}".  A line that is not
 * a node answer is kept as that node's message; the launchers' own
 * failure lines ("pdsh@login: n3: ... exit code 2", "clush: n3: exited
 * with exit code 2", "srun: error: ...: task 3: Exited with exit code 2")
 * mark the node (or task) as failed.  The answer: ranks found, missing
 * (0..N-1 with --ranks N, else the gaps below the highest rank found) and
 * duplicated; failed and silent nodes (silent: listed in --nodes, said
 * nothing); the first rank to go bad (by wall time when every bad rank has
 * one, else by step, then wall time, then rank), and the communication op
 * it spread through when a later rank went bad at an op whose recorded
 * peers include it; ranks grouped by identical outcome; per rank the
 * commands to look closer on its node.
 *
 * Memory: each node line is kept once (at most NODE_LINE_MAX bytes) plus a
 * few fields; messages are kept up to MERGE_MESSAGES per node.
 * Curses-free.
 */
#ifndef TD_MERGE_H
#define TD_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader/base/util.h"

#define MERGE_MESSAGES 8

struct merge_options {
	int64_t ranks;              /* --ranks N, -1 unknown */
	const char *nodes;          /* --nodes LIST (hostlist.h), NULL none */
	const char *tdbg;           /* the command the drill-down runs, NULL "tdbg" */
};

struct merge;

/* A merge; NULL with err when --nodes does not parse. */
struct merge *merge_new(const struct merge_options *o, char *err, size_t errlen);
void merge_free(struct merge *mg);

/* Takes one line as a launcher printed it (without the newline; len
 * bytes, need not be NUL-terminated). */
void merge_line(struct merge *mg, const char *line, size_t len);
/* The launcher itself failed for node (or for everything, node NULL):
 * why is kept as its message (--via: the launcher's exit status). */
void merge_fail(struct merge *mg, const char *node, const char *why);

/* Nodes that said something so far, and nodes expected (--nodes, else 0). */
size_t merge_nodes_seen(const struct merge *mg);
size_t merge_nodes_expected(const struct merge *mg);

/* The merged answer: text for people, or one JSON document
 *   {"nodes", "ranks_found", "missing": [ranks], "duplicated": [ranks],
 *    "failed_nodes": [names], "silent_nodes": [names],
 *    "first": {"rank", "node", "host", "step", "index", "op_name", "via"}|null,
 *    "groups": [{"outcome", "ranks": "0-5,7", "nodes", "count"}],
 *    "ranks": [the node lines by rank, "node" the launcher's name]}
 * appended to out (JSON ends without a newline). */
void merge_report(struct merge *mg, bool json, struct strbuf *out);

/* One rank of the merged answer, for the ranks view (strings borrowed
 * from mg until merge_free). */
struct merge_rank_view {
	int64_t rank;               /* -1: the line names none */
	const char *node, *dump, *host, *line, *error;
	bool bad;
	int64_t step;               /* first bad step, -1 unknown */
	bool first;                 /* the first rank to go bad */
};
/* Every line by rank (malloc'd array in *out, free() it) and the missing
 * ranks (malloc'd in *missing).  Returns the number of lines. */
size_t merge_ranks(struct merge *mg, struct merge_rank_view **out, int64_t **missing,
		   size_t *nmissing);

/* The drill-down commands for a rank's node and dump, as the text report
 * prints them: "ssh NODE TDBG DUMP" (ssh: true) or "srun -w NODE --pty
 * TDBG DUMP", words quoted for a POSIX shell where needed. */
void merge_drill(struct strbuf *out, bool ssh, const char *tdbg, const char *node,
		 const char *dump);

#endif
