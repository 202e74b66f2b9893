/*
 * model_diff_state.h - the diff's private state, shared by model_diff.c
 * (alignment), model_diff_hosts.c (host groups, row windows) and
 * model_diff_metrics.c (metrics, divergence, cause).
 * Not a contract: model/model_diff.h is.  Like every file of the analysis
 * floor it sees the models only through their public API.
 */
#ifndef TD_MODEL_DIFF_STATE_H
#define TD_MODEL_DIFF_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model_diff.h"
#include "model/model_query.h"
#include "reader/base/hashtab.h"

/* Rows a side's window holds. */
#define DIFF_WINDOW 256

/* Per-pair status byte. */
enum diff_status { DS_UNKNOWN, DS_EQUAL, DS_DIVERGED };

struct diff_side {
	const char **hosts;         /* the model's host names (borrowed strings) */
	size_t nhosts;
	uint32_t *group;            /* host i -> group, UINT32_MAX: not compared */
	uint32_t memo_sid, memo_group;  /* last host string id looked up */
	bool memo_valid;
	/* Host keys and steps of rows [win_first, win_first + win_n), read a
	 * window at a time for the scans in row order (one lock a window). */
	uint64_t win_first;
	size_t win_n;
	uint32_t win_host[DIFF_WINDOW];
	int64_t win_step[DIFF_WINDOW];
};

struct model_diff {
	struct model *a, *b;
	double rtol, atol, cos_min;     /* < 0: per-dtype default */
	bool fuzzy;                     /* calls pair in order, counts dropped */
	const struct reader_map *map;   /* B's names as A spells them, or NULL (the caller's) */
	struct diff_side side[2];
	bool any_host;                  /* one host a side: hosts are not compared */
	bool explicit_pairs;            /* --pair / --compare-hosts: other hosts left out */
	uint32_t *pa, *pb;              /* pair k: rows of A and B, pa ascending */
	uint64_t npairs, cappairs;
	uint64_t only_a, only_b;
	uint8_t *status;                /* enum diff_status per pair */
	int64_t first;                  /* -2 not known yet, -1 none */
	uint64_t first_scan;            /* pairs below it are known equal */
	uint64_t batch_end;             /* the last batch read ended before this pair */
	size_t batch;                   /* its size (model_diff_metrics.c), 0 none yet */
	struct side_batch *batches;     /* A's and B's batch, NULL until the first */
	struct diff_worker *worker;     /* the second thread of lockstep and the batches,
					 * NULL until first asked (or when it could not start) */
	struct diff_side hostwin;       /* model_diff_host_a's window of A's host keys */
	uint8_t *sel;                   /* model_diff_select: per op of A, NULL all */
	uint32_t nsel;
	struct diff_calls *calls;       /* model_diff_execution_pair's table, NULL until asked */
};

struct diff_calls;
struct side_batch;
struct diff_worker;

/* The diff's second thread (model_diff_metrics.c), started at the first
 * post and kept until model_diff_free.  diff_worker_post hands it fn(arg)
 * (no job of its may be running: each post is waited for before the
 * next) and returns true, or false when the thread cannot start (the
 * caller then runs fn itself); diff_worker_wait returns once that job has
 * returned; diff_worker_free stops the thread (NULL is fine).  The
 * caller's thread only. */
bool diff_worker_post(struct model_diff *d, void *(*fn)(void *), void *arg);
void diff_worker_wait(struct model_diff *d);
void diff_worker_free(struct diff_worker *w);

/* Op id -> class for every op of A (*cls_a, *nops_a of them) and of B,
 * the class numbers shared by both sides (UINT32_MAX: no class; A's ops
 * of a name B lacks have none): the name each op pairs by (model_diff.h,
 * "Calls"), B's after the map's renames.  The arrays are the caller's
 * (model_diff.c). */
void diff_call_classes(struct model_diff *d, uint32_t **cls_a, uint32_t *nops_a, uint32_t **cls_b,
		       uint32_t *nops_b);
/* Frees the table of calls (model_diff_calls.c); NULL is fine. */
void diff_calls_free(struct diff_calls *c);

/* Fills both sides' hosts and groups (model_diff_hosts.c): TD_ERR_ARGS
 * with err set when an explicit pair names a host a model lacks. */
enum td_status diff_host_groups(struct model_diff *d, const struct model_diff_options *o, char *err,
				size_t errlen);
/* The step of row i of side s (0 A, 1 B), -1 unknown, from the side's
 * window (refilled around i when i is outside it). */
int64_t diff_side_step(struct model_diff *d, int s, uint64_t i);
/* The step of trace row i, -1 unknown (one lock). */
int64_t diff_row_step(struct model *m, uint64_t i);
/* Row i's key on side s (0 A, 1 B) given its ops' classes cls (nops of
 * them), UINT64_MAX when it takes no part; its host group, UINT32_MAX
 * when its host takes no part (model_diff.c). */
uint64_t diff_row_key(struct model_diff *d, int s, const uint32_t *cls, uint32_t nops, uint64_t i);
uint32_t diff_row_group(struct model_diff *d, int s, uint64_t i);
/* What the map's leaf rules make of B's rows, into keys: a row's
 * diff_leaf_slot -> the key of A's row holding the golden leaf
 * (UINT64_MAX: A has none, the row is only in B; DIFF_LEAF_KEEP: no rule
 * names it, its own key).  cls_a, cls_b: the sides' op classes
 * (model_diff_leaf.c). */
#define DIFF_LEAF_KEEP (UINT64_MAX - 1)     /* no row key has every class bit set */
uint64_t diff_leaf_slot(uint32_t op, uint32_t slot, uint32_t flags);
void diff_leaf_keys(struct model_diff *d, const uint32_t *cls_a, uint32_t nops_a,
		    const uint32_t *cls_b, uint32_t nops_b, struct hashtab_u64 *keys);

#endif
