/*
 * model.h - the format-neutral model of one open dump.
 *
 * Readers fill it through the reader_sink; everything above (the command
 * layer, batch mode, the panes) asks it questions by row number and never
 * sees a file format.  The model:
 *   - opens a dump and returns at once; a background thread runs the
 *     reader's index pass and publishes how far it got (model_progress);
 *     callers read whatever is indexed so far;
 *   - keeps per row only what queries need (an op reference and a flag byte
 *     per trace, sparse locators), a few bytes per row, and decodes rows on
 *     demand through a bounded cache;
 *   - interns names for the lifetime of the model: every `const char *`
 *     returned here stays valid until model_close() unless said otherwise;
 *   - computes alerts (NaN/Inf as TensorFlow's InfNanMonitor does) and keeps
 *     those the reader states (overflow ...),
 *     links (trace -> op -> inputs/consumers -> their rows; -> stack ->
 *     source line) and regex filters (PCRE2, once per distinct name).
 *
 * All functions are safe to call from one consumer thread while the index
 * thread runs.  Nothing here draws or prints.
 *
 * Typical use (batch mode):
 *
 *	struct model *m;
 *	if (model_open(dir, &opts, &m, err, sizeof err) != TD_OK) ...
 *	model_wait(m);                        // batch: wait for the full index
 *	struct model_trace row;
 *	model_trace_get(m, 88, &row);
 *	model_close(m);
 */
#ifndef TD_MODEL_H
#define TD_MODEL_H

/* The model's API by area; each includes the one before it. */
#include "model_base.h"      /* open, close, progress, formats, dump facts */
#include "model_rows.h"      /* trace and execution rows, ops, graphs, links, source */
#include "model_alerts.h"    /* alerts and problems */
#include "model_analysis.h"  /* link trees, filters, watches, origins */

#endif
