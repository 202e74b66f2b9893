/*
 * tensor_view.h - the element state of the tensor overlay, shared by
 * pane_tensor.c (which builds the text) and tensor_tools.c (which draws
 * ranges, search matches and the heatmap, and finds elements).
 *
 * The text of the overlay is built once per opening; while it is built,
 * td_tensor_format_cb tells where each printed element went, so each
 * element has a line and a column.  Only the first output that has values
 * gets cells (a trace row has one output).
 */
#ifndef TD_TENSOR_VIEW_H
#define TD_TENSOR_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "tui/cmd/values.h"

struct tv_cell {
	uint32_t line, col, len;    /* where its text is in the overlay */
	int64_t idx;                /* storage index in x */
};

/* Heatmap levels: 0..THEME_HEAT_LEVELS-1 for finite values, then these. */
enum { HEAT_NAN = 250, HEAT_NEG_INF, HEAT_POS_INF };

struct tui_tensor_view {
	struct model_detail d;      /* owned: the values stay while the overlay shows */
	bool have_d;
	enum model_table kind;
	uint64_t index;
	char *slice, *range_text;   /* owned, NULL none */
	const struct td_tensor *x;  /* the output with cells (in d), NULL none */
	struct value_ranges ranges;
	bool has_ranges;
	struct tv_cell *cells;      /* in text order */
	size_t ncells, cap;
	int64_t selected;           /* elements the slice selects */
	size_t heat_line;           /* first heatmap line */
	int heat_rows, heat_cols, heat_x;  /* heat_x: column of the first cell */
	uint8_t *heat;              /* heat_rows * heat_cols levels */
	size_t legend_line;         /* coloured heatmap: the legend's line, where */
	int legend_x, legend_n;     /* its legend_n colour swatches start; 0 none */
	struct value_query q;       /* the value search (/0, /nan) */
	bool searching;
	char *domain;               /* the slice the search walks (owned; NULL whole) */
	int64_t found;              /* place of the last match in the domain, -1 */
	int64_t cur;                /* cell of the search match / jump, -1 none */
};

#endif
