/*
 * ms_state.c - the MindSpore reader's resume state (reader.h save_state /
 * load_state), kept by the model with its cached index (issue 25 item 5).
 *
 * Saved: the runs in the order they were numbered (each iteration folder's
 * path below the dump), and for every run already sent the table decode()
 * reads (each entry's file, op, ids, slot, kind and statistic.csv line) with what
 * follow mode compares later (the folder's time and entry count); the
 * counts of what went to the sink (ranks, sources, frames, tensors), and
 * the rank layout with what the walk depended on (ms_layout.c).
 * Loaded: the layout from the state when nothing it depended on changed
 * (ms_layout.c: no walk; graphs loaded on demand); else the folder layout
 * is walked again without a sink (ranks, graphs and their frames, the
 * iteration folders' list: a listing of folders, no tensor file is
 * opened), the runs sorted as a first pass sorts them, and the state fits
 * only when the saved runs come first in that order and the walk gives
 * the same counts; the saved tables then replace the reading of every
 * iteration folder.  Runs the walk finds beyond the saved ones (a dump
 * that grew, sorting after them) are read by the next index().  Not here:
 * whether the iteration folders are unchanged (the model compares
 * fingerprints: an iteration folder's is its entries' stat data,
 * fingerprint.h).
 *
 * Constants folders (a graph's constants/, read with its first run) are
 * not announced files: a rewrite of them alone is not noticed.
 */
#include "ms_internal.h"

#include <stdlib.h>
#include <string.h>

#include "reader/base/serial.h"

/* 1: the first; 2: op names in one table, entry paths below their run,
 * summaries without unused dims and percentiles; 3: a run's file names in
 * one block, an entry's name an offset in it; 4: no summary (an entry's
 * statistic.csv line offset, the file's size and time per run); 5: file names
 * spelt by the entries' fields; 6: entries as varint changes from the one
 * before; 7: the rank layout (ms_layout.c); 8: a run's entries after their
 * byte length (kept packed at the load).  Bump on any change below. */
#define MS_STATE_VERSION 8u

/* path below the dump's root when it is there (the same dump opened by
 * another path resumes from the same state), else as is. */
static const char *
rel_path(const struct reader *r, const char *p)
{
	size_t n = strlen(r->root);

	return strncmp(p, r->root, n) == 0 && p[n] == '/' ? p + n + 1 : p;
}

/* ---- saving ------------------------------------------------------------------ */

/* The op names and types of the sent runs' entries, each once, in the
 * order of first use (an entry saves its names' places in it); the loaded
 * state's first, in its order, so that a run still packed is saved as
 * its bytes. */
static void
collect_names(const struct reader *r, struct td_strpool *names)
{
	size_t i, k;

	for (i = 0; i < r->nstate_names; i++)
		td_strpool_add(names, r->state_names[i]);
	for (i = 0; i < r->nemitted; i++)
		for (k = 0; r->runs[i].entries && k < r->runs[i].n; k++) {
			td_strpool_add(names, r->runs[i].entries[k].op_name);
			td_strpool_add(names, r->runs[i].entries[k].op_type);
		}
}

/* The entry before in the run: entries are saved as changes from it. */
struct entry_prev {
	uint64_t name, op, type, task, stream, ts, line;
};

/* An entry as varint changes from the one before (names, ids, time stamps
 * and line offsets mostly step a little): 14-16 bytes where its fixed
 * fields took 59 (606 MB of a 10M-row statistic-only dump's state). */
static void
save_entry(struct td_strpool *names, const struct ms_run *run, size_t k, struct entry_prev *p,
	   struct strbuf *o)
{
	const struct ms_entry *e = &run->entries[k];
	uint64_t op = (uint64_t)td_strpool_find(names, e->op_name);
	uint64_t type = (uint64_t)td_strpool_find(names, e->op_type);
	uint64_t task = ms_entry_task(run, k), stream = ms_entry_stream(run, k);
	uint64_t line = ms_entry_line(e);

	ser_put_delta(o, p->name, e->name);
	ser_put_u8(o, (uint8_t)(e->is_input | e->flagged << 1 | e->in_const << 2));
	ser_put_delta(o, p->op, op);
	ser_put_delta(o, p->type, type);
	ser_put_delta(o, p->task, task);
	ser_put_delta(o, p->stream, stream);
	ser_put_delta(o, p->ts, e->ts);
	ser_put_varint(o, e->slot);
	ser_put_u8(o, e->kind);
	ser_put_u8(o, e->hint);
	ser_put_varint(o, (run->sizes ? run->sizes[k] : MS_SIZE_UNKNOWN) + 1);  /* unknown: 0 */
	ser_put_delta(o, p->line, line);
	*p = (struct entry_prev){ e->name, op, type, task, stream, e->ts, line };
}

void
ms_save_state(struct reader *r, struct strbuf *out)
{
	struct td_strpool names = {0};
	struct strbuf ents = {0};     /* a run's entries, saved after their length */
	size_t i, k;

	pthread_mutex_lock(&r->layout_lock);   /* not while a lazy layout is made whole */
	pthread_mutex_lock(&r->lock);
	collect_names(r, &names);
	ser_put_u32(out, MS_STATE_VERSION);
	ser_put_u8(out, r->acl);
	ser_put_u8(out, r->async);
	ser_put_u64(out, r->nruns);
	ser_put_u64(out, r->nemitted);
	ser_put_u64(out, r->tensors);
	ser_put_u64(out, r->nranks_sent);
	ser_put_u64(out, r->nsources_sent);
	ser_put_u64(out, r->nframes_sent);
	ms_layout_save(r, out);
	ser_put_u64(out, names.n);
	for (i = 0; i < names.n; i++)
		ser_put_str(out, names.strs[i]);
	for (i = 0; i < r->nruns; i++) {
		const struct ms_run *run = &r->runs[i];

		ser_put_str(out, rel_path(r, run->path));
		if (i >= r->nemitted)
			continue;
		ser_put_u64(out, (uint64_t)run->dir_mtime);
		ser_put_u64(out, run->nnames);
		ser_put_u8(out, run->gone);
		ser_put_u8(out, run->changed);
		ser_put_u64(out, run->names_len);
		ser_put_bytes(out, run->names, run->names_len);
		ser_put_u32(out, run->suffix);
		ser_put_u64(out, run->stat_size);
		ser_put_u64(out, (uint64_t)run->stat_mtime);
		ser_put_u64(out, run->n);
		if (!run->entries && run->packed) {   /* as loaded: the same names' places */
			ser_put_u64(out, run->packed_len);
			ser_put_bytes(out, run->packed, run->packed_len);
			continue;
		}
		struct entry_prev prev = {0};
		strbuf_reset(&ents);
		for (k = 0; k < run->n; k++)
			save_entry(&names, run, k, &prev, &ents);
		ser_put_u64(out, ents.len);
		ser_put_bytes(out, ents.buf, ents.len);
	}
	pthread_mutex_unlock(&r->lock);
	pthread_mutex_unlock(&r->layout_lock);
	strbuf_done(&ents);
	td_strpool_done(&names);
}

/* ---- loading ----------------------------------------------------------------- */

/* Entry k's ids (MS_WIDE_ID and run->wide when they do not fit) and its
 * data file's size (run->sizes, made when one is known). */
static void
load_wide_size(struct ms_run *run, size_t k, uint64_t task, uint64_t stream, uint64_t size,
	       size_t *capwide)
{
	struct ms_entry *e = &run->entries[k];
	size_t i;

	e->task = task < MS_WIDE_ID ? (uint32_t)task : MS_WIDE_ID;
	e->stream = stream < MS_WIDE_ID ? (uint32_t)stream : MS_WIDE_ID;
	if (e->task == MS_WIDE_ID || e->stream == MS_WIDE_ID) {
		TD_GROW(run->wide, *capwide, run->nwide + 1);
		run->wide[run->nwide++] = (struct ms_wide){ (uint32_t)k, task, stream };
	}
	if (size != MS_SIZE_UNKNOWN && !run->sizes) {
		run->sizes = xcalloc(run->cap, sizeof(*run->sizes));
		for (i = 0; i < run->cap; i++)
			run->sizes[i] = MS_SIZE_UNKNOWN;
	}
	if (run->sizes)
		run->sizes[k] = size;
}

/* The state's name table, interned in the reader. */
struct name_table {
	const char **s;
	size_t n;
};

/* An entry's fields as saved (save_entry's order), before their checks. */
struct entry_raw {
	uint64_t name, op, type, task, stream, ts, slot, size, line;
	uint8_t bits, kind, hint;
};

/* The longest entry: nine varints of ten bytes and three bytes. */
#define ENTRY_MAX_BYTES (9 * 10 + 3)

static inline uint64_t
zigzag(uint64_t prev, uint64_t z)
{
	return prev + ((z >> 1) ^ (uint64_t)-(int64_t)(z & 1));
}

/* ser_get_varint on bytes known to hold ENTRY_MAX_BYTES more: *p moves
 * past it; *bad set past ten bytes, as ser_get_varint does. */
static inline uint64_t
raw_varint(const uint8_t **pp, bool *bad)
{
	const uint8_t *p = *pp;
	uint64_t v = 0;
	int shift;

	if (*p < 0x80) {
		*pp = p + 1;
		return *p;
	}
	for (shift = 0; shift < 64; shift += 7) {
		uint8_t b = *p++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*pp = p;
			return v;
		}
	}
	*bad = true;
	*pp = p;
	return 0;
}

/* An entry read from in: where ENTRY_MAX_BYTES remain, through a local
 * pointer without a bounds check a field (326,400 entries of twelve
 * fields at a 64-rank reopen: through serial.h's calls they were a third
 * of its instructions); near the end, through the checked calls.  false
 * on a bad input (in->bad set). */
static bool
read_entry(struct ser_in *in, const struct entry_prev *prev, struct entry_raw *e)
{
	if (!in->bad && in->n - in->off >= ENTRY_MAX_BYTES) {
		const uint8_t *p = in->p + in->off;
		bool bad = false;

		e->name = zigzag(prev->name, raw_varint(&p, &bad));
		e->bits = *p++;
		e->op = zigzag(prev->op, raw_varint(&p, &bad));
		e->type = zigzag(prev->type, raw_varint(&p, &bad));
		e->task = zigzag(prev->task, raw_varint(&p, &bad));
		e->stream = zigzag(prev->stream, raw_varint(&p, &bad));
		e->ts = zigzag(prev->ts, raw_varint(&p, &bad));
		e->slot = raw_varint(&p, &bad);
		e->kind = *p++;
		e->hint = *p++;
		e->size = raw_varint(&p, &bad);
		e->line = zigzag(prev->line, raw_varint(&p, &bad));
		in->off = (size_t)(p - in->p);
		in->bad = bad;
		return !bad;
	}
	e->name = ser_get_delta(in, prev->name);
	e->bits = ser_get_u8(in);
	e->op = ser_get_delta(in, prev->op);
	e->type = ser_get_delta(in, prev->type);
	e->task = ser_get_delta(in, prev->task);
	e->stream = ser_get_delta(in, prev->stream);
	e->ts = ser_get_delta(in, prev->ts);
	e->slot = ser_get_varint(in);
	e->kind = ser_get_u8(in);
	e->hint = ser_get_u8(in);
	e->size = ser_get_varint(in);
	e->line = ser_get_delta(in, prev->line);
	return !in->bad;
}

/* Entry k of run (save_entry's changes from prev); its wide ids and size
 * kept by load_wide_size(). */
static bool
load_entry(struct ser_in *in, struct ms_run *run, const struct name_table *names, size_t k,
	   struct entry_prev *p, size_t *capwide)
{
	struct ms_entry *e = &run->entries[k];
	struct entry_raw w;

	if (!read_entry(in, p, &w) || w.name > UINT32_MAX || w.op >= names->n ||
	    w.type >= names->n || w.slot > UINT32_MAX || w.kind > MS_ENTRY_STAT ||
	    w.hint >= DTYPE_COUNT || w.line > MS_NO_LINE ||
	    (w.kind == MS_ENTRY_STAT && w.line == MS_NO_LINE))
		return false;
	e->is_input = w.bits & 1;
	e->flagged = (w.bits >> 1) & 1;
	e->in_const = (w.bits >> 2) & 1;
	e->name = (uint32_t)w.name;
	if ((e->name == MS_NAME_REBUILT ? run->suffix >= run->names_len
					: e->name != MS_NO_NAME && e->name >= run->names_len) ||
	    (e->in_const && !run->const_dir))
		return false;
	e->op_name = names->s[w.op];
	e->op_type = names->s[w.type];
	e->kind = w.kind & 3;
	e->hint = w.hint;
	e->ts = w.ts;
	e->slot = (uint32_t)w.slot;
	ms_entry_set_line(e, w.line);
	load_wide_size(run, k, w.task, w.stream, w.size - 1, capwide);  /* 0: MS_SIZE_UNKNOWN */
	*p = (struct entry_prev){ w.name, w.op, w.type, w.task, w.stream, w.ts, w.line };
	return true;
}

/* The run's name block: NUL-terminated names, the last one too. */
static bool
load_names_block(struct ser_in *in, struct ms_run *run)
{
	uint64_t n = ser_get_count(in, 1);
	const char *p = n ? ser_get_bytes(in, (size_t)n) : NULL;

	if (in->bad || n >= MS_NAME_REBUILT || (n && (!p || p[n - 1] != '\0')))
		return false;
	run->names = NULL;
	if (n) {
		run->names = xmalloc((size_t)n);
		memcpy(run->names, p, (size_t)n);
	}
	run->names_len = (size_t)n;
	run->suffix = ser_get_u32(in);
	return !in->bad && (run->suffix == MS_NO_NAME || run->suffix < run->names_len);
}

/* The saved table of a sent run into run, its entries left packed (in
 * the state's bytes) until first used. */
static bool
load_run(struct ser_in *in, struct ms_run *run)
{
	uint64_t n, len;
	const void *p;

	run->dir_mtime = ser_get_i64(in);
	run->nnames = (size_t)ser_get_u64(in);
	run->gone = ser_get_u8(in) != 0;
	run->changed = ser_get_u8(in) != 0;
	if (!load_names_block(in, run))
		return false;
	run->stat_size = ser_get_u64(in);
	run->stat_mtime = ser_get_i64(in);
	n = ser_get_count(in, 12);   /* an entry's least: twelve one-byte fields */
	len = ser_get_count(in, 1);
	p = len ? ser_get_bytes(in, (size_t)len) : NULL;
	if (in->bad || len / 12 < n || (len && !p))
		return false;
	run->packed = p ? p : (const uint8_t *)"";
	run->packed_len = (size_t)len;
	run->n = (size_t)n;
	return true;
}

bool
ms_run_unpack(struct reader *r, struct ms_run *run)
{
	const struct name_table names = { r->state_names, r->nstate_names };
	struct entry_prev prev = {0};
	struct ser_in in;
	size_t k, capwide = 0;

	if (run->entries || !run->packed)
		return true;
	ser_in_init(&in, run->packed, run->packed_len);
	/* not zeroed (load_entry sets every field): callgrind counts a
	 * zeroing rep stosb a byte at a time */
	run->entries = xmalloc((run->n ? run->n : 1) * sizeof(*run->entries));
	run->cap = run->n ? run->n : 1;
	for (k = 0; k < run->n; k++)
		if (!load_entry(&in, run, &names, k, &prev, &capwide))
			break;
	if (k == run->n && ser_in_done(&in)) {
		run->packed = NULL;
		return true;
	}
	free(run->entries);    /* stays packed: its rows do not decode */
	free(run->wide);
	free(run->sizes);
	run->entries = NULL;
	run->wide = NULL;
	run->sizes = NULL;
	run->nwide = run->cap = 0;
	return false;
}

/* What the first pass sent before any run, marked as sent: the graphs' ops
 * (and the ops of the saved runs' entries, below), ranks, sources and
 * frames, which the model has from its cache. */
static void
mark_layout_sent(struct reader *r)
{
	size_t i, g, k;

	for (i = 0; i < r->nranks; i++) {
		struct ms_rank *rk = &r->ranks[i];

		for (g = 0; g < rk->ngraphs; g++) {
			const struct ms_graph *gr = &rk->graphs[g];

			for (k = 0; k < gr->nnodes; k++)
				ms_note_op_sent(r, rk->graph_ids[g], gr->nodes[k].full_name);
			for (k = 0; k < gr->nparams; k++)
				ms_note_op_sent(r, rk->graph_ids[g], gr->params[k]);
			for (k = 0; k < gr->nconsts; k++)
				ms_note_op_sent(r, rk->graph_ids[g], gr->consts[k]);
		}
		rk->ngraphs_sent = rk->ngraphs;
	}
	r->nranks_sent = r->nranks;
	r->nsources_sent = r->nsources;
	r->nframes_sent = r->nframes;
}

/* Whether run b's rows name the ops of run a's rows, in the same graph
 * (graph ids and op names are interned: compared as pointers). */
static bool
same_ops(const struct ms_run *a, const struct ms_run *b)
{
	size_t k;

	if (a->graph_id != b->graph_id || a->n != b->n || !a->entries)
		return false;
	for (k = 0; k < a->n && a->entries[k].op_name == b->entries[k].op_name; k++)
		;
	return k == a->n;
}

/* The saved runs and their tables, in the state's order; false when a
 * saved run is not the walk's run of that place. */
static bool
load_runs(struct reader *r, struct ser_in *in, uint64_t nruns, uint64_t nemitted)
{
	uint64_t i;

	for (i = 0; i < nruns; i++) {
		const char *p = ser_get_str(in);
		struct ms_run *run = &r->runs[i];

		if (!p || strcmp(p, rel_path(r, run->path)) != 0)
			return false;
		if (i >= nemitted)
			continue;
		if (!load_run(in, run))
			return false;
		run->execution = (int64_t)i;
		run->looked = true;
		if (r->may_follow && !run->dir_mtime)
			ms_run_note_dir(run);   /* saved by a batch run, which does not note it */
	}
	return true;
}

void
ms_state_note_sent(struct reader *r)
{
	size_t i, k;
	bool all = true;

	mark_layout_sent(r);
	pthread_mutex_lock(&r->lock);   /* the runs' entries unpacked (decode may too) */
	for (i = 0; i < r->nemitted; i++) {
		const struct ms_run *run = &r->runs[i];

		if (!ms_run_unpack(r, &r->runs[i])) {
			all = false;
			continue;
		}
		/* op names are interned: the row before's op (an op's inputs
		 * and outputs follow one another) is noted already, and so are
		 * all of a run whose ops are the run before's (iterations) */
		if (i && same_ops(&r->runs[i - 1], run))
			continue;
		for (k = 0; k < run->n; k++)
			if (!k || run->entries[k].op_name != run->entries[k - 1].op_name)
				ms_note_op_sent(r, run->graph_id, run->entries[k].op_name);
	}
	if (all) {   /* no run points into the state's bytes any more */
		free(r->state_copy);
		r->state_copy = NULL;
	}
	pthread_mutex_unlock(&r->lock);
}

/* The state's op names and types into r->state_names (interned). */
static bool
load_names(struct reader *r, struct ser_in *in)
{
	uint64_t n = ser_get_count(in, 4), i;   /* a string: its length at least */

	if (in->bad)
		return false;
	free(r->state_names);
	r->state_names = xcalloc(n ? n : 1, sizeof(*r->state_names));
	r->nstate_names = 0;
	for (i = 0; i < n; i++) {
		const char *s = ser_get_str(in);

		if (!s)
			return false;
		r->state_names[i] = td_strpool_add(&r->strs, s);
		r->nstate_names = i + 1;
	}
	return true;
}

/* The walk a first pass makes, without the tensor folders' reading, and
 * the runs sorted as it sorts them; false when it finds fewer runs or
 * other ranks, sources or frames than the state's. */
static bool
walk_layout(struct reader *r, uint64_t nruns, uint64_t nranks_sent, uint64_t nsources_sent,
	    uint64_t nframes_sent)
{
	const struct reader_sink quiet = {0};
	size_t i;

	if (r->acl)
		ms_acl_scan(r, &quiet);
	else
		ms_sync_scan(r, &quiet);
	pthread_mutex_lock(&r->lock);
	if (r->nruns > 1)
		td_sort(r->runs, r->nruns, sizeof(*r->runs), ms_run_cmp);
	for (i = 0; i < r->nruns; i++)
		r->runs[i].file_id = (uint32_t)i;
	pthread_mutex_unlock(&r->lock);
	ms_register_frames(r);
	return r->nruns >= nruns && r->nranks == nranks_sent && r->nsources == nsources_sent &&
	       r->nframes == nframes_sent;
}

bool
ms_load_state(struct reader *r, const void *data, size_t len)
{
	uint64_t nruns, nemitted, nranks_sent, nsources_sent, nframes_sent;
	enum ms_layout_fit fit;
	struct ser_in in;
	bool acl, async, ok;

	if (r->indexed || r->nruns || r->state_copy)
		return false;
	/* kept: the runs' entries stay packed in it until first used */
	r->state_copy = xmalloc(len ? len : 1);
	if (len)
		memcpy(r->state_copy, data, len);
	ser_in_init(&in, r->state_copy, len);
	if (ser_get_u32(&in) != MS_STATE_VERSION)
		return false;
	acl = ser_get_u8(&in) != 0;
	async = ser_get_u8(&in) != 0;
	nruns = ser_get_u64(&in);
	nemitted = ser_get_u64(&in);
	r->tensors = ser_get_u64(&in);
	nranks_sent = ser_get_u64(&in);
	nsources_sent = ser_get_u64(&in);
	nframes_sent = ser_get_u64(&in);
	if (in.bad || acl != r->acl || nemitted > nruns)
		return false;
	fit = ms_layout_load(r, &in, nruns);
	if (in.bad || fit == MS_LAYOUT_REFUSE)
		return false;
	r->async = r->async || async;
	if (fit == MS_LAYOUT_LAZY) {
		/* unchanged since the save: sources and frames as then, made
		 * when asked for (ms_layout_materialize) */
		if (r->nranks != nranks_sent)
			return false;
		r->nsources_sent = (size_t)nsources_sent;
		r->nframes_sent = (size_t)nframes_sent;
	} else if (!walk_layout(r, nruns, nranks_sent, nsources_sent, nframes_sent)) {
		return false;
	}
	pthread_mutex_lock(&r->lock);
	ok = load_names(r, &in) && load_runs(r, &in, nruns, nemitted) && ser_in_done(&in);
	pthread_mutex_unlock(&r->lock);
	if (!ok)
		return false;
	r->nemitted = (size_t)nemitted;
	if (fit != MS_LAYOUT_LAZY)
		ms_state_note_sent(r);
	r->indexed = r->resumed = true;
	return true;
}
