/*
 * model_watch_set.h - a model's watches as model_watch.c keeps them
 * (compiled conditions, their tolerance and scope), shared with
 * model_watch_check.c, which checks rows against them.  Private to these
 * two files (and watch_free, which model.c calls at close).  On the
 * model's public API: the set hangs from model_watch_slot().
 */
#ifndef TD_MODEL_WATCH_SET_H
#define TD_MODEL_WATCH_SET_H

#include "model/model.h"
#include "model/analysis/model_where.h"

struct watch {
	char *name, *text, *expr_text;
	struct expr *e;             /* NULL: operator_overflow (the dump's alerts) */
	struct step_tol tol;
	bool recommended;
	enum model_watch_scope scope;
};

struct watch_set {
	struct watch *v;
	size_t n, cap;
	bool loaded;                /* the recommended set was added once */
	bool recommended_off;
};

/* The model's watch set, made on first use (the recommended set added
 * once unless switched off before). */
struct watch_set *watch_set(struct model *m);
/* Frees m's watches (model_close). */
void watch_free(struct model *m);

#endif
