/*
 * model_fields.c - the model's summary columns (issue 25, item 2): the
 * index pass writes each trace row's summary into the column file beside
 * the persistent index (model_columns.c) as it goes, and scans
 * (conditions, watches, sorts) read a row's fields from there, a window
 * at a time, instead of decoding its record.
 *
 * A row's columns are used only when they are exactly what a decode
 * gives: the reader says so of the summary it sent (reader_trace's
 * summary_exact), or a question decoded the row and kept the result
 * (fields the dump lacks, computed from values, come with it).  Anything
 * else is decoded as before.  The columns follow the index file: made
 * anew when the index is built anew, reopened (and checked) when it is
 * loaded, and not read once a decode found the loaded index stale.
 * Without a column file the pass keeps one bit per row, whether the
 * record holds no values (model_trace_no_values).
 * Not here: the file's layout and checks (model_columns.c).
 */
#include "model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model_cache.h"
#include "model_columns.h"

_Static_assert(MODEL_FIELDS_WALL == COLS_WALL, "one bit asks for the wall time");

/* The column file's name in the cache directory: the index file's, with
 * COLS_SUFFIX for MC_SUFFIX. */
static void
cols_name(const struct model_cache *c, char *out, size_t len)
{
	const char *base = strrchr(c->path, '/');
	size_t n;

	base = base ? base + 1 : c->path;
	n = strlen(base);
	if (n > strlen(MC_SUFFIX))
		n -= strlen(MC_SUFFIX);
	snprintf(out, len, "%.*s%s", (int)n, base, COLS_SUFFIX);
}

static bool
row_rewritten(void *ctx, uint64_t row)
{
	return model_cache_row_rewritten(ctx, row);
}

void
fields_open(struct model *m)
{
	struct model_cache *c = m->icache;
	char name[128], path[600], err[256];
	int dirfd;

	if (!c || !c->path || c->state == MODEL_CACHE_UNAVAILABLE)
		return;
	if ((dirfd = mc_open_dir(m, true)) < 0)
		return;
	cols_name(c, name, sizeof name);
	snprintf(path, sizeof path, "%s/%s", c->dir, name);
	if (c->state == MODEL_CACHE_USED) {
		m->cols = colstore_open(dirfd, name, path, mc_key_hash(c->key), c->loaded_traces, err,
					sizeof err);
		if (!m->cols)
			snprintf(m->cols_why, sizeof m->cols_why, "%s; made anew", err);
	}
	if (!m->cols && !(m->cols = colstore_create(dirfd, name, path, mc_key_hash(c->key), err,
						    sizeof err)))
		snprintf(m->cols_why, sizeof m->cols_why, "no summary columns: %s", err);
	/* fields from the values of data files in folders checked listed
	 * only at the load (those files' bytes were not fingerprinted): kept
	 * unless an entry of the folder changed status since the save (a file
	 * rewritten in place), then the rows are decoded again; a decode sees
	 * such a file too (model_cache_check_data) */
	if (m->cols && c->state == MODEL_CACHE_USED && c->have_newest)
		colstore_unfill_derived(m->cols, row_rewritten, m);
	/* the loaded index's rows the file lacks: decoded when asked, then kept */
	if (m->cols && c->state == MODEL_CACHE_USED && !colstore_extend(m->cols, c->loaded_traces)) {
		snprintf(m->cols_why, sizeof m->cols_why, "%s", colstore_error(m->cols));
		colstore_close(m->cols);
		m->cols = NULL;
	}
	close(dirfd);
}

/* Without columns (--no-cache, or no column file could be made) the
 * pass still says which records hold no values, a bit per row: a diff or
 * a step question then reads such a row's summary through the row cache's
 * cheap decode instead of decoding it whole for values it has not. */
#define NOVALS_BYTES (MODEL_CHUNK / 8)

static void
novals_set(struct model *m, uint64_t row)
{
	uint64_t k = row >> MODEL_CHUNK_SHIFT, r = row & (MODEL_CHUNK - 1);
	uint8_t *c;

	if (k >= MODEL_MAX_CHUNKS)
		return;
	if (!(c = m->novals[k])) {
		c = xcalloc(NOVALS_BYTES, 1);
		__atomic_store_n(&m->novals[k], c, __ATOMIC_RELEASE);
	}
	__atomic_fetch_or(&c[r >> 3], (uint8_t)(1u << (r & 7)), __ATOMIC_RELAXED);
}

static bool
novals_get(struct model *m, uint64_t row)
{
	uint64_t k = row >> MODEL_CHUNK_SHIFT, r = row & (MODEL_CHUNK - 1);
	uint8_t *c;

	if (k >= MODEL_MAX_CHUNKS || !(c = __atomic_load_n(&m->novals[k], __ATOMIC_ACQUIRE)))
		return false;
	return (__atomic_load_n(&c[r >> 3], __ATOMIC_RELAXED) >> (r & 7)) & 1u;
}

void
fields_put(struct model *m, uint64_t row, const struct reader_trace *t)
{
	if (m->cols)
		colstore_put(m->cols, row, &t->summary, t->wall_time, t->summary_exact,
			     (m->ops->flags & READER_ROW_FACTS) && (t->role || t->requires_grad) ?
				     COLS_FACTS | (t->role & 3u) | (t->requires_grad & 3u) << 2 : 0);
	else if (t->summary_exact)
		novals_set(m, row);
}

void
fields_flush(struct model *m)
{
	if (m->cols && !colstore_flush(m->cols) && !*m->cols_why)
		snprintf(m->cols_why, sizeof m->cols_why, "%s", colstore_error(m->cols));
}

void
fields_close(struct model *m)
{
	colstore_close(m->cols);
	m->cols = NULL;
	for (size_t k = 0; k < MODEL_MAX_CHUNKS; k++) {
		free(m->novals[k]);
		m->novals[k] = NULL;
	}
}

const char *
model_fields_why(struct model *m)
{
	return m->cols_why;
}

/* True when the columns may answer for row i: the loaded index was not
 * found stale and the row was not found corrupt by a decode. */
static bool
columns_usable(struct model *m, uint64_t i)
{
	return m->cols && !(m->icache && atomic_load(&m->icache->stale)) &&
	       !(trace_flags(m, i) & TF_CORRUPT);
}

bool
fields_facts(struct model *m, uint64_t i, unsigned *facts)
{
	return columns_usable(m, i) && colstore_get_facts(m->cols, i, facts);
}

bool
model_trace_no_values(struct model *m, uint64_t i)
{
	if (i >= rows_ntraces(m))
		return false;
	if (!m->cols)
		return novals_get(m, i) && !(trace_flags(m, i) & TF_CORRUPT);
	return columns_usable(m, i) && colstore_no_values(m->cols, i);
}

bool
model_trace_fields(struct model *m, uint64_t i, uint32_t need, struct model_fields *out)
{
	struct cache_ent e;

	if (i >= rows_ntraces(m))
		return false;
	if (columns_usable(m, i) &&
	    colstore_get(m->cols, i, need & (COLS_FIELDS | MODEL_FIELDS_WALL), out))
		return true;
	rows_trace_decoded(m, i, &e);
	out->s = e.summary;
	out->from_values = e.from_values;
	out->wall_time = e.wall_time;
	out->from_columns = false;
	if (!e.corrupt && m->cols)
		colstore_fill(m->cols, i, &e.summary, e.from_values, e.wall_time);
	return true;
}

bool
model_brief_of(const struct td_summary *s, uint32_t need, struct model_brief *b)
{
	b->known = s->known & need;
	b->dtype = s->dtype;
	b->rank = s->rank;
	b->nonfinite = s->has_inf_or_nan;
	b->shape = (b->known & SUM_SHAPE) ? cols_shape_word(s) : 0;
	b->elements = s->elements;
	b->nan = s->nan;
	b->neg_inf = s->neg_inf;
	b->pos_inf = s->pos_inf;
	b->min = s->min;
	b->max = s->max;
	b->mean = s->mean;
	return !(b->known & SUM_SHAPE) || b->shape;
}

/* Rows model_trace_briefs_novalues asks the columns for at a time. */
#define NOVAL_CHUNK 512

void
model_trace_briefs_novalues(struct model *m, const uint64_t *rows, size_t n, uint32_t need,
			    struct model_brief *out, bool *ok)
{
	uint64_t ntraces = rows_ntraces(m);
	uint8_t state[NOVAL_CHUNK];

	for (size_t at = 0; at < n; at += NOVAL_CHUNK) {
		size_t len = TD_MIN(n - at, (size_t)NOVAL_CHUNK);

		memset(state, COLS_ROW_NONE, len);
		if (m->cols && !(m->icache && atomic_load(&m->icache->stale)))
			colstore_get_briefs(m->cols, rows + at, len, need & COLS_FIELDS, out + at,
					    state);
		for (size_t i = 0; i < len; i++) {
			uint64_t row = rows[at + i];
			struct model_fields f;

			/* as model_trace_no_values, then model_trace_fields */
			if (m->cols)
				ok[at + i] = row < ntraces && columns_usable(m, row) &&
					     state[i] >= COLS_ROW_UNFILLED;
			else
				ok[at + i] = model_trace_no_values(m, row);
			if (ok[at + i] && state[i] != COLS_ROW_FILLED) {
				model_trace_fields(m, row, need, &f);
				ok[at + i] = model_brief_of(&f.s, need, &out[at + i]);
			}
		}
	}
}

size_t
model_trace_field_window(struct model *m, uint64_t first, size_t n, uint32_t need,
			 struct model_field_window *w)
{
	uint64_t rows = rows_ntraces(m);

	w->first = first;
	w->n = 0;
	if (first >= rows)
		return 0;
	n = (size_t)TD_MIN((uint64_t)n, rows - first);
	if (!m->cols || (m->icache && atomic_load(&m->icache->stale)) ||
	    !colstore_get_window(m->cols, first, n, need & COLS_FIELDS, w)) {
		/* no columns: every row is asked one by one */
		w->n = (size_t)TD_MIN((uint64_t)n, MODEL_FIELD_WINDOW - first % MODEL_FIELD_WINDOW);
		memset(w->filled, 0, w->n);
		memset(w->known, 0, w->n * sizeof(w->known[0]));
		return w->n;
	}
	for (size_t k = 0; k < w->n; k++)
		if (w->filled[k] && (trace_flags(m, first + k) & TF_CORRUPT))
			w->filled[k] = false;
	return w->n;
}

/* Rows model_trace_sort_keys asks the columns for at a time (its stack). */
#define KEYS_CHUNK 1024

void
model_trace_sort_keys(struct model *m, enum model_sort_key key, const uint64_t *rows, size_t n,
		 double *val, bool *known)
{
	uint32_t need = key == MODEL_SORT_WALL ? MODEL_FIELDS_WALL : SUM_ELEMENTS;
	uint64_t ntraces = rows_ntraces(m);
	uint8_t state[KEYS_CHUNK];
	struct model_fields f;

	for (size_t at = 0; at < n; at += KEYS_CHUNK) {
		size_t len = TD_MIN(n - at, (size_t)KEYS_CHUNK);

		memset(state, COLS_KEY_NONE, len);
		if (m->cols && !(m->icache && atomic_load(&m->icache->stale)))
			colstore_get_keys(m->cols, rows + at, len, need, val + at, state);
		for (size_t i = 0; i < len; i++) {
			uint64_t row = rows[at + i];
			double *v = &val[at + i];

			if (row >= ntraces) {
				known[at + i] = false;
				continue;
			}
			if (state[i] != COLS_KEY_NONE && !(trace_flags(m, row) & TF_CORRUPT)) {
				known[at + i] = state[i] == COLS_KEY_KNOWN &&
						(key != MODEL_SORT_WALL || *v > 0);
				continue;
			}
			model_trace_fields(m, row, need, &f);
			*v = key == MODEL_SORT_WALL ? f.wall_time : (double)f.s.elements;
			known[at + i] = key == MODEL_SORT_WALL ? f.wall_time > 0 :
					(f.s.known & SUM_ELEMENTS) != 0;
		}
	}
}
