/*
 * ms_opmemo.c - the index thread's memo of the op names a rank's graph
 * runs name: a statistic-only dump repeats every op name in every run, and
 * each was resolved to its graph node (ms_rank_resolve), placed in the
 * kernel order (sort_entries) and checked against the ops sent
 * (ms_note_op_sent) once per run, three hash lookups of the same name.
 * Here each is asked once per rank and graph; a run asks one lookup per op
 * name.  The answers cannot change during a pass: a rank's graphs and
 * orders are read before its runs, and an op once sent stays sent.  Not
 * for: the rows of data files (npy, bin), resolved as before.
 */
#include "ms_opmemo.h"

#include <stdlib.h>
#include <string.h>

struct ms_op_memos *
ms_op_memos_of(struct ms_rank *rk, const char *gid)
{
	size_t i;

	for (i = 0; i < rk->nmemos; i++)
		if (strcmp(rk->memos[i].graph_id, gid) == 0)
			return &rk->memos[i];
	rk->memos = xrealloc(rk->memos, (rk->nmemos + 1) * sizeof(*rk->memos));
	memset(&rk->memos[rk->nmemos], 0, sizeof(*rk->memos));
	rk->memos[rk->nmemos].graph_id = xstrdup(gid);
	return &rk->memos[rk->nmemos++];
}

int64_t
ms_op_memo(struct reader *r, const struct ms_rank *rk, struct ms_op_memos *m, const char *gid,
	   const char *op_type, const char *file_op)
{
	const struct ms_order *o;
	struct ms_op_memo *mo;
	bool added;
	size_t id = td_strpool_id(&m->names, file_op, &added);

	if (!added)
		return strcmp(m->v[id].written_type, op_type) == 0 ? (int64_t)id : -1;
	TD_GROW(m->v, m->cap, id + 1);
	mo = &m->v[id];
	m->n = id + 1;
	mo->written_type = td_strpool_copy(&m->names, op_type, strlen(op_type));
	ms_rank_resolve(r, rk, op_type, file_op, &mo->full, &mo->type);
	o = ms_rank_order(rk, gid);
	mo->pos = o ? td_strpool_find(&o->kernels, mo->full) : -1;
	mo->key = reader_op_key(gid, strlen(gid), mo->full, strlen(mo->full));
	mo->sent = false;
	return (int64_t)id;
}

void
ms_op_memos_free(struct ms_rank *rk)
{
	size_t i;

	for (i = 0; i < rk->nmemos; i++) {
		free(rk->memos[i].graph_id);
		td_strpool_done(&rk->memos[i].names);
		free(rk->memos[i].v);
	}
	free(rk->memos);
	rk->memos = NULL;
	rk->nmemos = 0;
}
