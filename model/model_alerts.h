/*
 * model_alerts.h - alerts and problems: the NaN/Inf and reader alerts, and the
 * records a reader could not use.  Part of model.h.
 */
#ifndef TD_MODEL_ALERTS_H
#define TD_MODEL_ALERTS_H

#include "model_rows.h"

struct model_problem {
	const char *kind;           /* "bad-data-crc" */
	const char *path;
	uint64_t offset;
	int64_t record;
	const char *what;
	const char *detail;
};
/* The first problems kept (up to a few hundred), in arrival order. */
size_t model_problem_count(struct model *m);
bool model_problem_get(struct model *m, size_t i, struct model_problem *p);


/* ---- alerts ----------------------------------------------------------- */

/* The two row tables: what a row number, an alert's source or a filter
 * refers to (trace rows or executions).  The one "trace or execution"
 * type of the model and everything above it. */
enum model_table { TABLE_TRACES, TABLE_EXECUTIONS };
/* "trace" or "execution": the word batch output and the screen use. */
const char *model_table_name(enum model_table t);

struct model_alert {
	const char *kind;           /* "InfNan", or a reader alert's name ("Overflow") */
	enum model_table source;
	uint64_t index;             /* trace or execution row */
	uint32_t slot;
	const char *op_type;
	const char *op_name;
	struct td_summary summary;  /* counts (known bits tell which are null) */
	const char *detail;         /* a reader alert's detail, or NULL */
	bool is_input;              /* the row is an op's input (its producer was not dumped) */
};
uint64_t model_alert_count(struct model *m);
/* The i-th alert in load order (traces, then executions, then the alerts
 * the reader stated).  Counts come from decoding the row (an execution: its
 * bad output's summary).  Reader alerts (kind from reader_alert_name()):
 * source TABLE_EXECUTIONS, index the execution the reader named (0 if none),
 * detail set. */
enum td_status model_alert_get(struct model *m, uint64_t i, struct model_alert *a);

/* Where alert i is without decoding its row: kind, op_type, source and
 * index only (the rest zero).  Cheap enough to walk every alert (a
 * rank/select over per-chunk counts).  false past the end. */
bool model_alert_locate(struct model *m, uint64_t i, struct model_alert *a);

struct model_alert_group {
	const char *kind;
	const char *op_type;
	uint64_t count;
	uint64_t first;             /* alert number of the first one */
};
/* Groups by (kind, op type), in order of first appearance.  Returns the
 * number of groups; fills up to max. */
size_t model_alert_groups(struct model *m, struct model_alert_group *out, size_t max);
/* The next/previous alert number of the same group after/before alert i. */
int64_t model_alert_next_in_group(struct model *m, uint64_t i, int dir);

/* The first NaN/Inf tensor in execution order.  false if none. */
bool model_first_nonfinite(struct model *m, struct model_alert *a);

#endif
