/*
 * tfdbg2_stage.c - the producer side of the trace index pipeline: frames,
 * CRC-checks and parses graph execution trace records into blocks of small
 * fixed entries, on a thread of its own for big files, while the index
 * thread empties earlier blocks into the sink (tfdbg2_index.c) in order.
 *
 * The work per trace is split so that the two cores of a small machine both
 * work: reading, CRC and protobuf scanning here; the model's bookkeeping in
 * the sink callbacks on the index thread.  A small file (or a follow pass
 * that finds a few new records) is staged on the index thread itself: the
 * same code path, no thread.  Also here: the allocation-free scan of a
 * trace record (pbwire, shared/formats/tensorflow.md 5.5 and 6).
 */
#include "tfdbg2_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/parse/pbwire.h"
#include "reader/parse/tf_tensor.h"

#define MAX_VECTOR 16
#define STAGE_BLOCKS 8                          /* blocks in flight */
#define STAGE_ARENA_SOFT ((size_t)256 << 10)     /* a block's strings */
/* The producer gets a thread of its own only for this many bytes or more
 * to read and with at least STAGE_THREAD_CPUS processors online.  On the
 * 2-vCPU test machine the thread measured slower (1M FULL_HEALTH traces:
 * `info` 0.74 s against 0.48 s on the index thread): handing ~250-byte
 * entries between cores costs more than the model's share of the work
 * (about a quarter) saves when the two vCPUs are not really free. */
#define STAGE_THREAD_CPUS 4
uint64_t tf2_stage_thread_min = (uint64_t)8 << 20;

static const struct td_summary summary_zero;   /* see tf2_summary_from_vector */

struct tf2_stage {
	struct tfrecord_cursor *cur;    /* owned by the producer while it runs */
	bool threaded, finished;        /* finished: the last block was made */
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct tf2_stage_block *blocks[STAGE_BLOCKS];
	size_t head, nfull;             /* ring: full blocks from head */
	bool stop;                      /* consumer gave up: producer ends */
	bool producer_done;
	size_t taken;                   /* consumer holds blocks[head] */
};

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

/* Summary of one output's TensorProto in mode; false (why set) if it does
 * not decode. */
static bool
output_summary(int mode, const uint8_t *tp, size_t len, struct td_summary *s, char *why, size_t whylen)
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
	e->t.execution = -1;
	e->t.step = -1;             /* no step number in the records */
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
	if (!output_summary(e->mode, tp.data, tp.len, &e->t.summary, why, sizeof why)) {
		e->summary_ok = false;
		entry_why(b, e, why);
	}
}

/* ---- the producer ------------------------------------------------------ */

/* Fills b from the cursor; sets b->last at the end of what can be read. */
static void
fill_block(struct tfrecord_cursor *cur, struct tf2_stage_block *b)
{
	b->n = 0;
	b->alen = 0;
	b->last = false;
	while (b->n < TF2_STAGE_ENTRIES && b->alen < STAGE_ARENA_SOFT) {
		struct tf2_stage_entry *e = &b->e[b->n++];
		struct tfrecord rec;

		e->recno = (int64_t)cur->index;
		e->st = tfrecord_next(cur, &rec);
		e->offset = rec.offset;
		e->next = rec.next;
		e->length = rec.length;
		e->stopped = rec.stopped;
		if (e->st == TFRECORD_OK)
			parse_trace(b, e, &rec);
		e->cur_off = cur->off;
		if (e->st == TFRECORD_END || e->st == TFRECORD_TORN || e->st == TFRECORD_IO) {
			b->last = true;
			break;
		}
	}
}

static void *
producer(void *arg)
{
	struct tf2_stage *sg = arg;

	pthread_mutex_lock(&sg->lock);
	while (!sg->stop) {
		size_t slot = (sg->head + sg->nfull) % STAGE_BLOCKS;
		struct tf2_stage_block *b = sg->blocks[slot];

		if (sg->nfull + sg->taken >= STAGE_BLOCKS) {
			pthread_cond_wait(&sg->cond, &sg->lock);
			continue;
		}
		pthread_mutex_unlock(&sg->lock);
		fill_block(sg->cur, b);
		pthread_mutex_lock(&sg->lock);
		sg->nfull++;
		pthread_cond_broadcast(&sg->cond);
		if (b->last)
			break;
	}
	sg->producer_done = true;
	pthread_cond_broadcast(&sg->cond);
	pthread_mutex_unlock(&sg->lock);
	return NULL;
}

struct tf2_stage *
tf2_stage_start(struct tfrecord_cursor *cur)
{
	struct tf2_stage *sg = xcalloc(1, sizeof(*sg));
	int i;

	sg->cur = cur;
	pthread_mutex_init(&sg->lock, NULL);
	pthread_cond_init(&sg->cond, NULL);
	sg->threaded = cur->size > cur->off && cur->size - cur->off >= tf2_stage_thread_min &&
		       (tf2_stage_thread_min == 0 || sysconf(_SC_NPROCESSORS_ONLN) >= STAGE_THREAD_CPUS);
	for (i = 0; i < (sg->threaded ? STAGE_BLOCKS : 1); i++)
		sg->blocks[i] = xcalloc(1, sizeof(*sg->blocks[i]));
	if (sg->threaded && pthread_create(&sg->th, NULL, producer, sg) != 0)
		sg->threaded = false;
	return sg;
}

struct tf2_stage_block *
tf2_stage_next(struct tf2_stage *sg)
{
	struct tf2_stage_block *b;

	if (sg->finished)
		return NULL;
	if (!sg->threaded) {
		b = sg->blocks[0];
		fill_block(sg->cur, b);
		sg->finished = b->last;
		return b;
	}
	pthread_mutex_lock(&sg->lock);
	while (!sg->nfull && !sg->producer_done)
		pthread_cond_wait(&sg->cond, &sg->lock);
	b = sg->nfull ? sg->blocks[sg->head] : NULL;
	if (b)
		sg->taken = 1;
	pthread_mutex_unlock(&sg->lock);
	if (!b || b->last)
		sg->finished = true;
	return b;
}

void
tf2_stage_release(struct tf2_stage *sg)
{
	if (!sg->threaded)
		return;
	pthread_mutex_lock(&sg->lock);
	if (sg->taken) {
		sg->taken = 0;
		sg->nfull--;
		sg->head = (sg->head + 1) % STAGE_BLOCKS;
		pthread_cond_broadcast(&sg->cond);
	}
	pthread_mutex_unlock(&sg->lock);
}

void
tf2_stage_stop(struct tf2_stage *sg)
{
	int i;

	if (!sg)
		return;
	if (sg->threaded) {
		pthread_mutex_lock(&sg->lock);
		sg->stop = true;
		pthread_cond_broadcast(&sg->cond);
		pthread_mutex_unlock(&sg->lock);
		pthread_join(sg->th, NULL);
	}
	for (i = 0; i < STAGE_BLOCKS; i++) {
		if (sg->blocks[i])
			free(sg->blocks[i]->arena);
		free(sg->blocks[i]);
	}
	pthread_cond_destroy(&sg->cond);
	pthread_mutex_destroy(&sg->lock);
	free(sg);
}
