/*
 * tfdbg2_stage.c - the producer side of the trace index pipeline: frames,
 * CRC-checks and parses graph execution trace records into blocks of small
 * fixed entries, which the index thread empties into the sink
 * (tfdbg2_index.c) in file order.
 *
 * A big traces file is cut into byte ranges (tf2_stage_chunk bytes) that
 * helper threads and the index thread itself stage at once, one range per
 * block, on every core.  A range other than the first starts at its first
 * offset holding a whole record with both CRCs right (tfrecord_find) and
 * stages the records that start inside it; the index thread accepts a
 * range only when the range before it ended exactly where this one
 * started, else it stages that range again itself from the right offset
 * (bytes inside a payload that look like a record, a resync across the
 * boundary).  So the records, problems and record numbers handed out are
 * those of one pass from the start, whatever the cutting.  A small file
 * (or a follow pass that finds a few new records) is staged on the index
 * thread, one block at a time.  Also here: the allocation-free scan of a
 * trace record (pbwire, FORMAT.md §5.4 and §6).
 */
#include "tfdbg2_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/parse/pbwire.h"
#include "reader/parse/tf_tensor.h"

#define MAX_VECTOR 16
#define STAGE_ARENA_SOFT ((size_t)256 << 10)     /* a block's strings (inline staging) */
#define STAGE_MAX_HELPERS 7                     /* helper threads besides the index thread */
#define STAGE_SLOTS_PER_THREAD 4                /* ranges in flight per thread */
uint64_t tf2_stage_thread_min = (uint64_t)8 << 20;
uint64_t tf2_stage_chunk = (uint64_t)1 << 20;

static const struct td_summary summary_zero;   /* see tf2_summary_from_vector */

/* ---- parsing one trace ------------------------------------------------- */

bool
tf2_full_tensor_summary(const uint8_t *tp, size_t len, struct td_summary *s)
{
	Tensorflow__TensorProto *p;
	enum td_status st;

	memset(s, 0, sizeof(*s));
	if (tf_tensor_summarize_bytes(tp, len, s))
		return true;
	/* typed values, strings, odd shapes: never materialised here (a
	 * declared 2^32 elements with one value costs nothing) */
	if (!(p = tensorflow__tensor_proto__unpack(NULL, len, tp)))
		return false;
	st = tf_tensor_summarize(p, s);
	tensorflow__tensor_proto__free_unpacked(p, NULL);
	return st == TD_OK;
}

bool
tf2_output_summary(int mode, const uint8_t *tp, size_t len, struct td_summary *s, char *why, size_t whylen)
{
	double vec[MAX_VECTOR];
	long n;

	if (mode == 7 && tp) {
		if (tf2_full_tensor_summary(tp, len, s))
			return true;
		/* why was left unset here once: the problem text showed stack bytes */
		snprintf(why, whylen, "FULL_TENSOR value does not decode (or its element count overflows)");
		return false;
	}
	n = tp ? tf2_wire_vector(tp, len, vec, MAX_VECTOR) : 0;
	if (n == 0) {
		*s = summary_zero;              /* NO_TENSOR, placeholder: nothing known */
		return true;
	}
	if (n < 0 || n > MAX_VECTOR || !tf2_summary_from_vector(mode, vec, n, s)) {
		snprintf(why, whylen, "%s debug vector %s", tf2_mode_name(mode),
			 n < 0 ? "is not a numeric vector" : "has the wrong length");
		*s = summary_zero;
		return false;
	}
	return true;
}

bool
tf2_event_payload(const uint8_t *data, size_t len, uint32_t num, struct pbwire_field *out,
		  double *wall_time, char *why, size_t whylen)
{
	struct pbwire r;
	struct pbwire_field f;
	bool found = false;

	*wall_time = 0;
	pbwire_init(&r, data, len);
	while (pbwire_next(&r, &f)) {
		if (f.key == PBWIRE_KEY(1, PBWIRE_FIXED64))
			memcpy(wall_time, &f.v, sizeof *wall_time);     /* not pbwire_double(&f):
			 * taking f's address keeps it in memory, and copying it
			 * out then stalls on store forwarding */
		else if (f.key == PBWIRE_KEY(num, PBWIRE_LEN)) {
			*out = f;
			found = true;
		}
	}
	if (r.error || !found)
		snprintf(why, whylen, r.error ? "malformed DebugEvent" :
			 "not a %s event", num == 10 ? "graph_execution_trace" : "execution");
	return !r.error && found;
}

/* Appends len bytes and a NUL to the block's arena; returns the offset. */
static uint32_t
arena_add(struct tf2_stage_block *b, const void *p, size_t len)
{
	uint32_t at = (uint32_t)b->alen;

	if (b->alen + len + 1 > b->acap) {
		b->acap = TD_MAX(b->acap * 2, b->alen + len + 1);
		b->arena = xrealloc(b->arena, b->acap);
	}
	if (len)                /* p is NULL for a field the record lacks */
		memcpy(b->arena + b->alen, p, len);
	b->arena[b->alen + len] = '\0';
	b->alen += len + 1;
	return at;
}

static void
entry_why(struct tf2_stage_block *b, struct tf2_stage_entry *e, const char *why)
{
	e->why = arena_add(b, why, strlen(why));
}

/* Scans a good trace record into e (strings into the block's arena). */
static void
parse_trace(struct tf2_stage_block *b, struct tf2_stage_entry *e, const struct tfrecord *rec)
{
	struct pbwire_field ev, fl, tp = {0}, gid = {0}, name = {0};
	struct pbwire r;
	char why[256];

	e->decoded = false;
	e->summary_ok = true;
	e->mode = 0;
	e->t.loc.offset = rec->offset;
	e->t.op_type = NULL;
	e->t.slot = 0;
	e->t.is_input = false;
	e->t.repeat = false;
	e->t.execution = -1;
	e->t.step = -1;             /* no step number in the records */
	e->t.summary_exact = false;
	e->t.role = READER_ROLE_UNSTATED;      /* tfdbg v2 states no row facts */
	e->t.requires_grad = READER_GRAD_UNSTATED;
	if (!tf2_event_payload(rec->data, rec->length, 10, &ev, &e->t.wall_time, why, sizeof why)) {
		entry_why(b, e, why);
		return;
	}
	pbwire_init_field(&r, &ev);
	while (pbwire_next(&r, &fl)) {
		switch (fl.key) {
		case PBWIRE_KEY(1, PBWIRE_LEN):    gid = fl; break;
		case PBWIRE_KEY(2, PBWIRE_LEN):    name = fl; break;
		case PBWIRE_KEY(3, PBWIRE_VARINT): e->t.slot = (uint32_t)fl.v; break;
		case PBWIRE_KEY(4, PBWIRE_VARINT): e->mode = (int)(int32_t)fl.v; break;
		case PBWIRE_KEY(5, PBWIRE_LEN):    tp = fl; break;
		default: break;
		}
	}
	if (r.error) {
		entry_why(b, e, "malformed GraphExecutionTrace");
		return;
	}
	e->decoded = true;
	e->graph_id = arena_add(b, gid.data, gid.len);
	e->op_name = arena_add(b, name.data, name.len);
	e->t.op_key = reader_op_key((const char *)gid.data, gid.len, (const char *)name.data, name.len);
	if (!tf2_output_summary(e->mode, tp.data, tp.len, &e->t.summary, why, sizeof why)) {
		e->summary_ok = false;
		entry_why(b, e, why);
		return;
	}
	/* a health mode's summary is the one decode_trace_fast() reads from
	 * the same bytes, and the record holds no values; a FULL_TENSOR row's
	 * decode reads its values (mode 7, FORMAT.md §3, TensorDebugMode) */
	e->t.summary_exact = e->mode != 7 && (int32_t)e->t.slot >= 0;
}

/* ---- staging a run of records ---------------------------------------- */

enum slot_state { SLOT_FREE, SLOT_BUSY, SLOT_READY };

/* One range of a parallel stage, or the block of an inline one. */
struct stage_slot {
	enum slot_state state;
	size_t idx;                     /* range number held */
	uint64_t start;                 /* offset of its first record, UINT64_MAX none */
	struct tfrecord_cursor end;     /* the walk's cursor after it (no window) */
	struct tf2_stage_block b;
};

struct tf2_stage {
	struct tfrecord_cursor *cur;    /* the file's cursor, left after the last record */
	uint64_t torn_at, torn_scanned; /* cur's torn-tail memo when the stage started:
					 * what helpers read (cur's changes under them) */
	bool threaded, finished;
	struct stage_slot one;          /* inline staging; a range staged again */
	/* parallel staging: */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_t th[STAGE_MAX_HELPERS];
	int nth;
	uint64_t base, size, chunk;     /* ranges [base + i * chunk, +chunk) below size */
	size_t nranges, next_job, next_emit;
	struct stage_slot *slots;       /* range i in slots[i % nslots] */
	size_t nslots;
	bool stop;                      /* the consumer gave up: helpers end */
	struct stage_slot *held;        /* handed out by tf2_stage_next */
	bool held_range;                /* held is the range next_emit */
};

static struct tf2_stage_entry *
new_entry(struct tf2_stage_block *b)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		b->e = xrealloc(b->e, b->cap * sizeof(*b->e));
	}
	return &b->e[b->n++];
}

/* Stages records from c into b (emptied first): up to max entries or
 * STAGE_ARENA_SOFT bytes of strings (max 0: no such limits), and then only
 * records that start below hi unless all is set (the file's last range);
 * always to the first END, TORN or IO, which sets b->last.  Record numbers
 * are c->index's. */
static void
walk(struct tfrecord_cursor *c, struct tf2_stage_block *b, size_t max, uint64_t hi, bool all)
{
	b->n = 0;
	b->alen = 0;
	b->last = false;
	for (;;) {
		struct tf2_stage_entry *e;
		struct tfrecord rec;

		if (max && (b->n >= max || b->alen >= STAGE_ARENA_SOFT))
			break;
		if (!all && !c->stopped && c->off >= hi)
			break;
		e = new_entry(b);
		e->recno = (int64_t)c->index;
		e->st = tfrecord_next(c, &rec);
		e->offset = rec.offset;
		e->next = rec.next;
		e->length = rec.length;
		e->stopped = rec.stopped;
		if (e->st == TFRECORD_OK)
			parse_trace(b, e, &rec);
		e->cur_off = c->off;
		if (e->st == TFRECORD_END || e->st == TFRECORD_TORN || e->st == TFRECORD_IO) {
			b->last = true;
			break;
		}
	}
}

/* A cursor like the file's, at off, over the size the stage started with
 * (the file may grow meanwhile: this pass stops where it began).  Any
 * thread: it reads only what does not change during the stage (the file's
 * cursor moves on the index thread, unlocked, as blocks are handed out). */
static void
range_cursor(const struct tf2_stage *sg, struct tfrecord_cursor *c, uint64_t off)
{
	memset(c, 0, sizeof(*c));
	c->src = sg->cur->src;
	c->off = off;
	c->size = sg->size;
	c->index = 0;
	c->torn_at = sg->torn_at;
	c->torn_scanned = sg->torn_scanned;
}

/* Stages range i into slot (any thread). */
static void
stage_range(struct tf2_stage *sg, size_t i, struct stage_slot *slot)
{
	uint64_t lo = sg->base + i * sg->chunk, hi = TD_MIN(lo + sg->chunk, sg->size);
	struct tfrecord_cursor c;

	range_cursor(sg, &c, lo);
	slot->start = lo;
	slot->b.n = 0;
	slot->b.last = false;
	if (i > 0 && !tfrecord_find(&c, lo, hi, &slot->start)) {
		slot->start = UINT64_MAX;
	} else {
		c.off = slot->start;
		walk(&c, &slot->b, 0, hi, i + 1 == sg->nranges);
	}
	tfrecord_cursor_done(&c);
	slot->end = c;
}

/* Under sg->lock: takes the next range to stage, if one may start. */
static bool
take_range(struct tf2_stage *sg, size_t *i)
{
	if (sg->stop || sg->next_job >= sg->nranges || sg->next_job >= sg->next_emit + sg->nslots)
		return false;
	*i = sg->next_job++;
	sg->slots[*i % sg->nslots].state = SLOT_BUSY;
	sg->slots[*i % sg->nslots].idx = *i;
	return true;
}

/* Under sg->lock: stages range i (the lock is dropped meanwhile). */
static void
run_range(struct tf2_stage *sg, size_t i)
{
	struct stage_slot *slot = &sg->slots[i % sg->nslots];

	pthread_mutex_unlock(&sg->lock);
	stage_range(sg, i, slot);
	pthread_mutex_lock(&sg->lock);
	slot->state = SLOT_READY;
	pthread_cond_broadcast(&sg->cond);
}

static void *
helper(void *arg)
{
	struct tf2_stage *sg = arg;
	size_t i;

	pthread_mutex_lock(&sg->lock);
	while (!sg->stop && sg->next_job < sg->nranges) {
		if (take_range(sg, &i))
			run_range(sg, i);
		else
			pthread_cond_wait(&sg->cond, &sg->lock);
	}
	pthread_mutex_unlock(&sg->lock);
	return NULL;
}

/* The file's cursor continues after what a block handed out covers. */
static void
advance_cursor(struct tf2_stage *sg, struct stage_slot *slot, uint64_t first_index)
{
	slot->b.recno_base = (int64_t)first_index;
	sg->cur->off = slot->end.off;
	sg->cur->index = first_index + slot->end.index;
	sg->cur->stopped = slot->end.stopped;
	sg->cur->torn_at = slot->end.torn_at;
	sg->cur->torn_scanned = slot->end.torn_scanned;
}

/* Stages on the index thread from the file's cursor position: a block of
 * an inline stage, or range i again when the ranges did not join up (or
 * after the last range, for the END entry). */
static struct tf2_stage_block *
stage_here(struct tf2_stage *sg, size_t max, uint64_t hi, bool all)
{
	struct tfrecord_cursor c;
	uint64_t first = sg->cur->index;

	range_cursor(sg, &c, sg->cur->off);
	c.stopped = sg->cur->stopped;
	c.torn_at = sg->cur->torn_at;   /* the index thread's own: the latest memo */
	c.torn_scanned = sg->cur->torn_scanned;
	walk(&c, &sg->one.b, max, hi, all);
	tfrecord_cursor_done(&c);
	sg->one.end = c;
	advance_cursor(sg, &sg->one, first);
	return &sg->one.b;
}

static void
stage_threads(struct tf2_stage *sg)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int want = (int)TD_MIN(TD_MAX(cpus - 1, tf2_stage_thread_min == 0 ? 1 : 0), STAGE_MAX_HELPERS);

	sg->chunk = TD_MAX(tf2_stage_chunk, (uint64_t)TFRECORD_HEADER + TFRECORD_FOOTER);
	sg->nranges = (size_t)((sg->size - sg->base + sg->chunk - 1) / sg->chunk);
	sg->nslots = STAGE_SLOTS_PER_THREAD * (size_t)(want + 1);
	sg->slots = xcalloc(sg->nslots, sizeof(*sg->slots));
	pthread_mutex_init(&sg->lock, NULL);
	pthread_cond_init(&sg->cond, NULL);
	for (sg->nth = 0; sg->nth < want; sg->nth++)
		if (pthread_create(&sg->th[sg->nth], NULL, helper, sg) != 0)
			break;
}

struct tf2_stage *
tf2_stage_start(struct tfrecord_cursor *cur)
{
	struct tf2_stage *sg = xcalloc(1, sizeof(*sg));
	uint64_t left = cur->size > cur->off ? cur->size - cur->off : 0;

	sg->cur = cur;
	sg->torn_at = cur->torn_at;
	sg->torn_scanned = cur->torn_scanned;
	sg->base = cur->off;
	sg->size = cur->size;
	sg->threaded = !cur->stopped && left > 0 && left >= tf2_stage_thread_min &&
		       (tf2_stage_thread_min == 0 || sysconf(_SC_NPROCESSORS_ONLN) >= 2);
	if (sg->threaded)
		stage_threads(sg);
	return sg;
}

/* Under sg->lock: waits for range next_emit, staging ranges meanwhile. */
static struct stage_slot *
wait_range(struct tf2_stage *sg)
{
	struct stage_slot *slot = &sg->slots[sg->next_emit % sg->nslots];
	size_t i;

	while (!(slot->state == SLOT_READY && slot->idx == sg->next_emit)) {
		if (take_range(sg, &i))
			run_range(sg, i);
		else
			pthread_cond_wait(&sg->cond, &sg->lock);
	}
	return slot;
}

/* Under sg->lock: range next_emit is done with. */
static void
free_range(struct tf2_stage *sg)
{
	sg->slots[sg->next_emit % sg->nslots].state = SLOT_FREE;
	sg->next_emit++;
	pthread_cond_broadcast(&sg->cond);
}

static struct tf2_stage_block *
next_range(struct tf2_stage *sg)
{
	pthread_mutex_lock(&sg->lock);
	while (sg->next_emit < sg->nranges) {
		struct stage_slot *slot = wait_range(sg);
		uint64_t hi = TD_MIN(sg->base + (sg->next_emit + 1) * sg->chunk, sg->size);
		bool all = sg->next_emit + 1 == sg->nranges;

		if (slot->start == sg->cur->off) {
			pthread_mutex_unlock(&sg->lock);
			advance_cursor(sg, slot, sg->cur->index);
			sg->held = slot;
			sg->held_range = true;
			return &slot->b;
		}
		if (sg->cur->off < hi || all) {
			/* the ranges did not join up: this one again, from
			 * where the one before it ended */
			free_range(sg);
			pthread_mutex_unlock(&sg->lock);
			return stage_here(sg, 0, hi, all);
		}
		free_range(sg);         /* no record starts in it */
	}
	pthread_mutex_unlock(&sg->lock);
	/* the last range was passed over: its END (or torn tail) entry */
	return stage_here(sg, 0, sg->size, true);
}

struct tf2_stage_block *
tf2_stage_next(struct tf2_stage *sg)
{
	struct tf2_stage_block *b;

	if (sg->finished)
		return NULL;
	if (sg->threaded)
		b = next_range(sg);
	else
		b = stage_here(sg, TF2_STAGE_ENTRIES, sg->size, true);
	sg->finished = b->last;
	return b;
}

void
tf2_stage_release(struct tf2_stage *sg)
{
	if (!sg->threaded || !sg->held_range)
		return;
	pthread_mutex_lock(&sg->lock);
	free_range(sg);
	sg->held_range = false;
	pthread_mutex_unlock(&sg->lock);
}

static void
block_free(struct tf2_stage_block *b)
{
	free(b->e);
	free(b->arena);
}

void
tf2_stage_stop(struct tf2_stage *sg)
{
	size_t i;
	int k;

	if (!sg)
		return;
	if (sg->threaded) {
		pthread_mutex_lock(&sg->lock);
		sg->stop = true;
		pthread_cond_broadcast(&sg->cond);
		pthread_mutex_unlock(&sg->lock);
		for (k = 0; k < sg->nth; k++)
			pthread_join(sg->th[k], NULL);
		for (i = 0; i < sg->nslots; i++)
			block_free(&sg->slots[i].b);
		free(sg->slots);
		pthread_cond_destroy(&sg->cond);
		pthread_mutex_destroy(&sg->lock);
	}
	block_free(&sg->one.b);
	free(sg);
}
