/*
 * model_handles.c - what the analysis floor's watches (model/analysis/
 * model_watch*.c) need from the model's tables, behind the public API:
 * the slot their watch set hangs from, and an op's name and type by id
 * without the rest of model_op_get's work.
 * Not for: anything a public query already gives.
 */
#include "model_internal.h"

struct watch_set **
model_watch_slot(struct model *m)
{
	return &m->an.watches;
}

bool
model_op_names(struct model *m, uint32_t op, const char **name, const char **type)
{
	bool ok;

	*name = *type = NULL;
	pthread_mutex_lock(&m->th.lock);
	ops_ready_locked(m);
	ok = op < m->ot.nops;
	if (ok) {
		*name = ops_name(m, &m->ot.opv[op]);
		*type = ops_type(m, &m->ot.opv[op]);
	}
	pthread_mutex_unlock(&m->th.lock);
	return ok;
}
