/*
 * merge_internal.h - what merge.c (reading lines) and merge_report.c
 * (the answer) share: the ranks and nodes seen.  Not for other files.
 */
#ifndef TD_MERGE_INTERNAL_H
#define TD_MERGE_INTERNAL_H

#include "tui/cmd/merge.h"

/* A communication op of a rank that carried NaN/Inf and names its peers. */
struct merge_comm {
	char *op;
	int64_t *peers;
	size_t npeers;
};

struct merge_rank {
	int64_t rank;               /* -1: the line names none */
	char *node;                 /* the launcher's name for the node */
	char *line;                 /* the node line, "node" replaced by the above */
	char *host, *dump, *error;  /* NULL when null */
	bool bad;                   /* first_bad is set */
	int64_t step;               /* first_bad.step, -1 null */
	uint64_t index;
	char *op_name, *op_type;
	double wall;                /* first_bad.wall_time, < 0 null */
	struct merge_comm *comm;
	size_t ncomm;
	size_t order;               /* arrival */
};

struct merge_node {
	char *name;
	size_t answers;             /* node lines */
	size_t unranked_errors;     /* error lines naming no rank */
	bool failed;                /* the launcher said so */
	char *msgs[MERGE_MESSAGES];
	size_t nmsgs, msgs_total;
};

/* srun -l: the piece size it labels a task's output in (a longer line
 * comes as several labelled pieces). */
#define SRUN_CHUNK 1024

/* A node line of an srun task still arriving in pieces. */
struct merge_pending {
	char *task;
	struct strbuf text;
};

struct merge {
	int64_t ranks;
	char *tdbg;
	struct merge_rank *r;
	size_t nr, capr;
	struct merge_node *n;
	size_t nn, capn;
	char **expected;            /* --nodes, expanded */
	size_t nexpected;
	struct merge_node launcher; /* messages of the launcher about no node */
	int block_state;            /* clush -b: 0 none, 1 after the first ----, 2 after the node line */
	char *block;                /* clush -b: the node(s) of the block being read */
	struct merge_pending *pend; /* srun -l pieces waiting for the rest */
	size_t npend, cappend;
};

/* Takes the pieces still waiting as they are (merge_report does it). */
void merge_flush(struct merge *mg);

/* The node named name, added when new. */
struct merge_node *merge_node_get(struct merge *mg, const char *name);

#endif
