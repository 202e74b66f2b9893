/*
 * ms_opmemo.h - the index thread's memo of the op names of a rank's graph
 * (ms_opmemo.c): what ms_rank_resolve, the kernel order and
 * ms_note_op_sent answer for a name, asked once per rank and graph
 * instead of once per run.  Only the index thread uses it.
 */
#ifndef TD_MS_OPMEMO_H
#define TD_MS_OPMEMO_H

#include "ms_internal.h"

/* One op name of a rank's graph as the index thread met it (ms_opmemo.c):
 * what ms_rank_resolve, the kernel order and ms_note_op_sent answered
 * for it, asked once for all its rows. */
struct ms_op_memo {
	const char *written_type;   /* the op type as the file wrote it (in names) */
	const char *full, *type;    /* ms_rank_resolve's answer (interned) */
	int64_t pos;                /* of full in the graph's kernel order, -1 none */
	uint64_t key;               /* reader_op_key(graph, full): its traces' op_key */
	bool sent;                  /* ms_note_op_sent(graph, full) was asked */
};
/* The memos of one graph id of a rank. */
struct ms_op_memos {
	char *graph_id;
	struct td_strpool names;    /* the file's op name -> index in v */
	struct ms_op_memo *v;
	size_t n, cap;
};
/* The memos of graph gid of rk, made empty the first time; valid until
 * the next call for another graph id of rk (the table may move). */
struct ms_op_memos *ms_op_memos_of(struct ms_rank *rk, const char *gid);
/* The index in m->v of the op the file names file_op with type op_type
 * (resolved, and its kernel position found, the first time); -1 when
 * the name was met with another type (the caller asks ms_rank_resolve
 * itself).  m is rk's memos of graph gid. */
int64_t ms_op_memo(struct reader *r, const struct ms_rank *rk, struct ms_op_memos *m,
		   const char *gid, const char *op_type, const char *file_op);
/* Frees rk's memos. */
void ms_op_memos_free(struct ms_rank *rk);

#endif
