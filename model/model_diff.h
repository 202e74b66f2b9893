/*
 * model_diff.h - two open dumps side by side: which trace row of A is which
 * row of B, how far apart their tensors are, and where they first part.
 *
 * Alignment (model_diff_new) keys every trace row by (op name, output or
 * input slot, host group, step) and pairs the k-th row of a key in A with
 * the k-th row of that key in B (rows in order of appearance within the op).
 * It reads only the models' row index (no decoding): one pass over B
 * chaining its rows per key, one pass over A taking them, so it is linear
 * in the rows and holds 8 bytes per aligned pair plus 4 per row of B while
 * it runs.  Host groups: by default hosts of the same name are paired (and
 * two single-host dumps are paired whatever their host names; two dumps with
 * no name in common and as many hosts pair them in order), the rows of a
 * host without a counterpart being only in A / only in B; explicit pairs
 * (--pair, --compare-hosts) replace that and leave the other hosts out.
 * Steps take part where both rows know theirs: within a key, rows of B with
 * an earlier step than A's row are skipped (only in B), a later one leaves
 * A's row unpaired (only in A).
 *
 * Calls: when the format numbers calls in op names (reader_ops.call_of),
 * an op pairs by its name with the count as the format's compare tool
 * reads it: the count itself, or its rank among the calls of the same key
 * on the same host in order of appearance (READER_CALL_ORDINAL).  Fuzzy
 * (options.fuzzy) drops the counts: the k-th call of a key in A pairs
 * with the k-th in B.  A format that says so (READER_PAIR_HOSTS_BY_POSITION)
 * pairs hosts by sorted position (natural order, "rank2" before
 * "rank10") when both dumps have as many, whatever their names.
 *
 * Leaf maps: a map with leaf rules (reader_ops.map_leaf: the compare
 * tool's map of full leaf names) moves each row of B it names under the
 * key of A's row holding the golden leaf it names (same host group),
 * whatever that row's op and slot; a row it names to a leaf A lacks is
 * only in B, and the rows it does not name keep their op's key.  One row
 * of each place of the ops the map names is decoded (for its slot label:
 * the renames are kept by op and place), and A's rows of the golden
 * leaves' ops until the leaf is found; without leaf rules nothing changes.
 *
 * Metrics (model_diff_pair_get) decode both rows on demand: from the
 * summaries, the change in NaN/Inf counts, min, max, mean and zero fraction;
 * from full values where both rows have them, cosine similarity, the
 * largest absolute and relative error, the RMSE, the change of the mean of
 * |x| and the fraction of elements within tolerance, in one pass over the
 * elements (no copy).  A pair diverges when its shapes or element counts
 * differ, its dtypes are of different kinds (float against int: a float32
 * against a float16 run is what mixed-precision comparisons are for, so it
 * takes the looser tolerance instead), its NaN/Inf counts differ, an element
 * is off by more than atol + rtol * |a| (NaN matching NaN, Inf matching the
 * same Inf), the cosine falls below cos_min, or, with summaries only, min,
 * max or mean are that far apart.
 *
 * The cause of a divergence comes from the op's inputs in A (each the latest
 * trace row of the producer before the row, model_trace_inputs): when one of
 * them is paired and diverged, "inputs differ" (the difference propagated);
 * when all that are paired agree, "op diverged" (this op made it).
 *
 * Both models must be fully indexed (model_wait) and stay open until
 * model_diff_free().  a and b may be the same model (two hosts of one dump).
 * One consumer thread at a time.
 */
#ifndef TD_MODEL_DIFF_H
#define TD_MODEL_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct model_diff;

struct model_diff_hostpair {
	const char *a, *b;          /* host / rank names as the models list them */
};

struct model_diff_options {
	/* Tolerances; a negative value means the default of the pair's dtype
	 * (the looser of the two): float64 rtol 1e-7 atol 1e-9 cos 0.99999,
	 * float32 rtol 1e-5 atol 1e-7 cos 0.9999, float16 rtol 1e-3 atol 1e-5
	 * cos 0.999, bfloat16 rtol 8e-3 atol 1e-4 cos 0.99, other types exact. */
	double rtol, atol, cos_min;
	const struct model_diff_hostpair *pairs;  /* explicit host pairs, or NULL */
	size_t npairs;
	bool fuzzy;                 /* calls pair in order of appearance, their counts
				     * dropped (see "Calls" above) */
	/* B's op names as A spells them (the format's compare tool's maps,
	 * model_map_add on B), applied before the calls are read, and its
	 * leaf rules (see "Leaf maps" above); NULL: none.  An op the map
	 * leaves unpaired is only in B. */
	const struct reader_map *map;
};
/* Options with every tolerance at its per-dtype default and no pairs. */
void model_diff_options_init(struct model_diff_options *o);

/* Aligns a and b.  TD_ERR_ARGS with err set when an explicit pair names a
 * host that model does not have. */
enum td_status model_diff_new(struct model *a, struct model *b, const struct model_diff_options *o,
			      struct model_diff **out, char *err, size_t errlen);
/* NULL is fine.  The models stay open. */
void model_diff_free(struct model_diff *d);

struct model *model_diff_a(const struct model_diff *d);
struct model *model_diff_b(const struct model_diff *d);

struct model_diff_counts {
	uint64_t aligned;           /* pairs */
	uint64_t only_a, only_b;    /* rows of compared hosts left unpaired */
};
void model_diff_counts(const struct model_diff *d, struct model_diff_counts *c);

/* Whether row b_row of B belongs to a compared host (paired or not): false
 * for the rows of a host without a counterpart or left out by explicit
 * pairs (--compare-hosts A,B: every host of B but B). */
bool model_diff_b_row_compared(struct model_diff *d, uint64_t b_row);
/* Pair k (0 <= k < aligned, in A's row order): its rows.  false past the end. */
bool model_diff_rows(const struct model_diff *d, uint64_t k, uint64_t *a_row, uint64_t *b_row);
/* The execution of A that execution b_exec of B pairs with as a call:
 * the execution at the same step of the op of A its op pairs with (the
 * name as rows pair it: the map's renames, the call counts as "Calls"
 * says, the k-th op of a name and host group in B with the k-th in A).
 * -1 when it has none, -2 when its host is not compared.  For calls that
 * have no trace row (rows pair through model_diff_rows; leaf maps move
 * rows, not calls).  The first question builds a table (a pass over both
 * sides' ops and A's executions), kept until model_diff_free. */
int64_t model_diff_execution_pair(struct model_diff *d, uint64_t b_exec);
/* The host (rank) name of pair k's row of A as model_trace_names gives
 * it ("" none, NULL past the pairs), borrowed from A.  The host keys are
 * read a window of rows at a time: pairs asked in order cost no lock
 * each. */
const char *model_diff_host_a(struct model_diff *d, uint64_t k);
/* The pair of A's row a_row, -1 if that row is unpaired. */
int64_t model_diff_pair_of_a(const struct model_diff *d, uint64_t a_row);

enum model_diff_cause {
	DIFF_CAUSE_NONE,            /* not diverged */
	DIFF_CAUSE_INPUTS,          /* "inputs differ" */
	DIFF_CAUSE_OP,              /* "op diverged" */
};
const char *model_diff_cause_name(enum model_diff_cause c);   /* NULL for NONE */

/* Metrics of one pair; NaN where not computable. */
struct model_diff_metrics {
	bool values;                /* both rows had full values */
	double cosine, max_abs_err, max_rel_err, rmse;
	double within;              /* fraction of elements within tolerance */
	/* Values: positions finite on both sides (cosine, RMSE and the
	 * finite max errors are over these), and positions where the sides
	 * differ by a non-finite value (-1 against -Inf, NaN against 2: then
	 * max_abs_err and max_rel_err are Inf); NaN (null) without values.
	 * The same NaN/Inf on both sides is equal. */
	double finite_positions, nonfinite_mismatch;
	double nan_delta, inf_delta;          /* B's count minus A's */
	double min_delta, max_delta, mean_delta, abs_mean_delta, zero_fraction_delta;
	bool shape_differs, dtype_differs;
	double rtol, atol, cos_min;           /* the tolerances applied */
	const char *reason;         /* why it diverged: "shape", "dtype", "nonfinite" (counts
				     * differ, or a non-finite mismatch in the values: it leads),
				     * "values", "cosine", "summary"; NULL if not */
};

struct model_diff_pair {
	uint64_t pair, a_index, b_index;
	int64_t step;               /* A's row's step (model_trace_step), -1 unknown */
	struct model_trace a, b;    /* rows as model_trace_get gives them */
	struct model_diff_metrics metrics;
	bool diverged;
	enum model_diff_cause cause;
};
/* Fills pair k (decoding both rows).  TD_ERR_RANGE past the pairs. */
enum td_status model_diff_pair_get(struct model_diff *d, uint64_t k, struct model_diff_pair *p);
/* Restricts model_diff_selected() to the pairs whose op name (in A) matches
 * the PCRE2 regex (evaluated once per op); NULL or "" selects every pair
 * again.  TD_ERR_REGEX with PCRE2's message and offset in err. */
enum td_status model_diff_select(struct model_diff *d, const char *op_regex, char *err,
				 size_t errlen);
/* Whether pair k is selected (every pair when no regex is set). */
bool model_diff_selected(const struct model_diff *d, uint64_t k);

/* Whether pair k diverged (metrics computed once, then remembered). */
bool model_diff_diverged(struct model_diff *d, uint64_t k);
/* The first diverged pair in A's row order, -1 if none (remembered). */
int64_t model_diff_first(struct model_diff *d);
/* The same in steps (an interface polling between keys): looks at up to
 * budget more pairs; -2 while not known yet. */
int64_t model_diff_first_step(struct model_diff *d, uint64_t budget);
/* Pairs the first-divergence search has found equal so far. */
uint64_t model_diff_scanned(const struct model_diff *d);

#endif
