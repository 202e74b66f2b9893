/*
 * gen_tfdbg2.c - writes a valid tfdbg v2 dump of any size, fast, for tdbg's
 * scale benchmark and robustness tests.
 *
 * The dump is what tf.debugging.experimental.enable_dump_debug_info would
 * write for a made-up training loop (gen_prog.c) with the circular buffer
 * disabled: per host one file set of six TFRecord files (reader/tfdbg2/FORMAT.md §1),
 * N graph execution traces in training-step order, the eager executions
 * (input pipeline op, the train_step function call, a variable update), the
 * graphs and ops with their inputs and creation stacks, the source files and
 * the stack frames.  Non-finite values are placed where asked; records can be
 * damaged on purpose (--damage, --corrupt, --torn) and names made hostile
 * (--hostile).  --append grows an existing dump (for --follow tests).
 *
 * It prints what it wrote (the facts a correct reader must find) and writes
 * them as "key value" lines with --facts FILE.  It is not a tdbg reader and
 * shares no code with one.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "gen_cause.h"
#include "gen_prog.h"
#include "gen_wire.h"

enum mode { M_NO_TENSOR = 1, M_CURT = 2, M_CONCISE = 3, M_FULL_HEALTH = 4, M_SHAPE = 5,
	    M_FULL_TENSOR = 7 };

enum role { R_METADATA, R_SOURCE_FILES, R_STACK_FRAMES, R_GRAPHS, R_EXECUTION, R_TRACES,
	    R_COUNT };

static const char *const role_names[R_COUNT] = {
	"metadata", "source_files", "stack_frames", "graphs", "execution", "graph_execution_traces",
};

struct damage {
	enum role role;
	enum gen_damage kind;
	uint64_t record;
};

struct opts {
	const char *dir;
	uint64_t traces;
	int64_t executions;         /* -1 derive: 3 per training step */
	enum mode mode;
	int ops;
	int64_t nan_at;             /* -1 none; -2 default (30% in) */
	uint64_t nan_every;
	int hosts;
	uint64_t seed;
	long long time0;
	int hostile;
	uint64_t corrupt;
	int torn;
	int append;
	int omit[R_COUNT];
	struct damage *dmg;
	size_t ndmg;
	const char *facts;
	const char *cause;          /* --cause NAME, or NULL */
	int wide;                   /* --wide N: one op of N inputs, 0 none */
	int quiet;
	int half;                   /* FULL_TENSOR values as float16 (DT_HALF) */
	int round_half;             /* float32 values rounded to float16 precision */
	int64_t perturb_at;         /* -1 none: this row and what depends on it differ */
	double perturb;             /* by this relative amount */
};

/* What one host's writing produced (for the facts). */
struct host_out {
	uint64_t traces, lost, lost_unframed, nonfinite, first_nonfinite;  /* first: local valid row */
	uint64_t ambiguous;         /* lost rows a lenient decoder may still keep */
	int has_nonfinite;
	uint64_t executions, records, bytes;
};

struct host {
	int index;
	char name[64];
	char prefix[4096];
	char run_id[9];
	char graph_id[G_COUNT][37];
	char device[128];
	struct gen_file f[R_COUNT];
	int open[R_COUNT];
	uint64_t row0, exec0;       /* rows / executions already in the files */
	struct gen_buf tmpl;        /* per traced tensor: prefix bytes ... */
	size_t *tmpl_off;           /* ... offsets: [2t] prefix start, [2t+1] suffix start */
	struct gen_buf scratch, sub, sub2;
	struct host_out out;
};

#define TD_MIN_U(a, b) ((a) < (b) ? (a) : (b))

static struct gen_prog prog;
static unsigned char *taint;    /* --perturb-at: per op, depends on the perturbed op */

/* ---- comparisons: float16 values, perturbed rows -------------------------- */

/* IEEE binary16 bits of f, rounded to nearest even. */
static uint16_t
half_bits(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u, e = (x >> 23) & 0xffu, m = x & 0x7fffffu;
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00u | (m ? 0x200u : 0));
	int ee = (int)e - 127 + 15;
	if (ee >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (ee <= 0) {
		if (ee < -10)
			return (uint16_t)sign;
		m |= 0x800000u;
		uint32_t shift = (uint32_t)(14 - ee), h = m >> shift, rem = m & ((1u << shift) - 1);
		uint32_t halfway = 1u << (shift - 1);
		if (rem > halfway || (rem == halfway && (h & 1)))
			h++;
		return (uint16_t)(sign | h);
	}
	uint32_t h = sign | (uint32_t)ee << 10 | m >> 13, rem = m & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (h & 1)))
		h++;
	return (uint16_t)h;
}

static float
half_value(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
	if (e == 0) {
		float v = (float)m / 1024.0f / 16384.0f;
		return sign ? -v : v;
	}
	if (e == 31)
		x = sign | 0x7f800000u | m << 13;
	else
		x = sign | (e - 15 + 127) << 23 | m << 13;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

static int
op_index(const char *name, size_t len)
{
	for (int i = 0; i < prog.nops; i++)
		if (strlen(prog.ops[i].name) == len && !strncmp(prog.ops[i].name, name, len))
			return i;
	return -1;
}

/* taint[op]: op is the perturbed row's op or reads (through any chain of
 * inputs) one that is.  Ops are built in dependency order. */
static void
build_taint(const struct opts *o)
{
	if (o->perturb_at < 0)
		return;
	taint = calloc((size_t)prog.nops, 1);
	if (!taint)
		exit(2);
	taint[prog.tens[o->perturb_at % prog.ntens].op] = 1;
	for (int i = 0; i < prog.nops; i++)
		for (int k = 0; k < prog.ops[i].ninputs && !taint[i]; k++) {
			const char *in = prog.ops[i].inputs[k], *colon = strrchr(in, ':');
			int j = op_index(in, colon ? (size_t)(colon - in) : strlen(in));
			taint[i] = j >= 0 && taint[j];
		}
}

/* Row's value differs from the unperturbed run: the perturbed row, rows of
 * its step after it whose op depends on it, every row of later steps. */
static int
row_perturbed(const struct opts *o, uint64_t row)
{
	uint64_t T = (uint64_t)prog.ntens;
	if (o->perturb_at < 0 || row < (uint64_t)o->perturb_at)
		return 0;
	if (row / T > (uint64_t)o->perturb_at / T)
		return 1;
	return taint[prog.tens[row % T].op];
}

/* ---- rows: time, values, non-finite placement --------------------------- */

static double
row_time(const struct opts *o, int host, uint64_t row)
{
	/* 10 us per traced tensor; hosts run side by side, host 0 a hair first. */
	return (double)o->time0 + 10.0 + (double)row * 1e-5 + host * 1e-7;
}

static int
row_nonfinite(const struct opts *o, uint64_t row)
{
	if (o->nan_at < 0 || row < (uint64_t)o->nan_at)
		return 0;
	uint64_t d = row - (uint64_t)o->nan_at;
	return d == 0 || (o->nan_every && d % o->nan_every == 0);
}

/* The row's value holds NaN/Inf (only modes that can say so). */
static int
row_bad(const struct opts *o, uint64_t row)
{
	if (o->mode == M_SHAPE || o->mode == M_NO_TENSOR)
		return 0;
	return prog.cause ? gen_cause_bad(&prog, row) : row_nonfinite(o, row);
}

static void
doubles(struct gen_buf *b, const double *v, size_t n)
{
	pb_key(b, 4, 2);                        /* tensor_content */
	pb_varint(b, n * 8);
	gen_buf_add(b, v, n * 8);
}

/* shape [n] as a TensorShapeProto field (2); a zero size is an empty Dim. */
static void
shape1(struct gen_buf *b, uint64_t n)
{
	uint8_t dim[12];
	size_t dl = 0;
	if (n) {
		dim[dl++] = 0x08;
		struct gen_buf t = { dim + dl, 0, sizeof dim - dl };
		pb_varint(&t, n);
		dl += t.len;
	}
	pb_key(b, 2, 2);
	pb_varint(b, dl + 2);
	pb_key(b, 2, 2);
	pb_varint(b, dl);
	gen_buf_add(b, dim, dl);
}

/* The debug value of one tensor in mode m (reader/tfdbg2/FORMAT.md §6). */
static void
tensor_proto(const struct opts *o, struct gen_buf *b, enum mode m, uint32_t d0, uint32_t d1,
	     int64_t tid, uint64_t h, int bad, int perturbed)
{
	double v[11];
	uint64_t n = (uint64_t)d0 * d1, nan = 0, ninf = 0, pinf = 0;
	if (bad) {
		nan = TD_MIN_U(1 + h % 5, n);
		ninf = n > nan ? (h >> 4) & 1 : 0;
		pinf = n > nan + ninf ? (h >> 5) & 1 : 0;
	}
	uint64_t rem = n - nan - ninf - pinf, neg = rem * ((h >> 8) % 50) / 100,
		 zero = rem * ((h >> 16) % 10) / 100;
	switch (m) {
	case M_NO_TENSOR:
		pb_uint(b, 1, 1);
		shape1(b, 0);
		return;
	case M_CURT:
		v[0] = (double)tid, v[1] = bad ? 1.0 : 0.0;
		pb_uint(b, 1, 2), shape1(b, 2), doubles(b, v, 2);
		return;
	case M_CONCISE:
		v[0] = (double)tid, v[1] = (double)n, v[2] = (double)ninf, v[3] = (double)pinf;
		v[4] = (double)nan;
		pb_uint(b, 1, 2), shape1(b, 5), doubles(b, v, 5);
		return;
	case M_FULL_HEALTH:
		v[0] = (double)tid, v[1] = -1, v[2] = 1, v[3] = 2, v[4] = (double)n;
		v[5] = (double)ninf, v[6] = (double)pinf, v[7] = (double)nan;
		v[8] = (double)neg, v[9] = (double)zero, v[10] = (double)(rem - neg - zero);
		pb_uint(b, 1, 2), shape1(b, 11), doubles(b, v, 11);
		return;
	case M_SHAPE:
		memset(v, 0, sizeof v);
		v[0] = (double)tid, v[1] = 1, v[2] = 2, v[3] = (double)n, v[4] = d0, v[5] = d1;
		pb_uint(b, 1, 2), shape1(b, 10), doubles(b, v, 10);
		return;
	case M_FULL_TENSOR: {
		/* Small tensors: 4..16 float32 values, NaN and -Inf where asked. */
		float f[16];
		size_t k = 4 + (size_t)(h % 13);
		uint16_t hb[16];
		for (size_t i = 0; i < k; i++) {
			f[i] = (float)((int64_t)(gen_mix(h + i) % 2001) - 1000) / 100.0f;
			if (perturbed)
				f[i] = (float)(f[i] * (1.0 + o->perturb));
			if (o->round_half)
				f[i] = half_value(half_bits(f[i]));
		}
		if (bad) {
			f[0] = NAN;
			f[1] = -INFINITY;
		}
		if (o->half) {
			for (size_t i = 0; i < k; i++)
				hb[i] = half_bits(f[i]);
			pb_uint(b, 1, 19), shape1(b, k);        /* DT_HALF */
			pb_key(b, 4, 2), pb_varint(b, k * 2), gen_buf_add(b, hb, k * 2);
			return;
		}
		pb_uint(b, 1, 1), shape1(b, k);
		pb_key(b, 4, 2), pb_varint(b, k * 4), gen_buf_add(b, f, k * 4);
		return;
	}
	}
}

/* ---- damage lookup ------------------------------------------------------- */

static int
damage_cmp(const void *a, const void *b)
{
	const struct damage *x = a, *y = b;
	if (x->role != y->role)
		return x->role < y->role ? -1 : 1;
	return x->record < y->record ? -1 : x->record > y->record;
}

/* o->dmg is sorted by (role, record) after parsing: binary search. */
static enum gen_damage
damage_at(const struct opts *o, const struct host *h, enum role r, uint64_t rec)
{
	struct damage key = { r, DMG_NONE, rec };
	const struct damage *d;
	if (h->index != 0 || !o->ndmg)
		return DMG_NONE;
	d = bsearch(&key, o->dmg, o->ndmg, sizeof *o->dmg, damage_cmp);
	return d ? d->kind : DMG_NONE;
}

static void
put(const struct opts *o, struct host *h, enum role r, const struct gen_buf *payload)
{
	if (!h->open[r])
		return;
	gen_file_record(&h->f[r], payload->p, payload->len,
			damage_at(o, h, r, h->f[r].records));
	h->out.records++;
}

/* ---- the non-execution files ----------------------------------------------- */

static void
write_metadata(const struct opts *o, struct host *h)
{
	struct gen_buf *e = &h->scratch, *m = &h->sub;
	e->len = m->len = 0;
	pb_str(m, 1, "2.15.0");
	pb_str(m, 2, "debug.Event:1");
	pb_str(m, 3, h->run_id);
	pb_double(e, 1, (double)o->time0 + h->index + 0.25);
	pb_msg(e, 3, m);
	put(o, h, R_METADATA, e);
}

static void
write_sources(const struct opts *o, struct host *h)
{
	struct gen_buf *e = &h->scratch, *m = &h->sub;
	for (int i = 0; i < prog.nsources; i++) {
		e->len = m->len = 0;
		pb_str(m, 1, prog.sources[i].path);
		pb_str(m, 2, h->name);
		for (int k = 0; k < prog.sources[i].nlines; k++)
			pb_str(m, 3, prog.sources[i].lines[k]);
		pb_double(e, 1, (double)o->time0 + 1.0 + i * 1e-3);
		pb_msg(e, 4, m);
		put(o, h, R_SOURCE_FILES, e);
	}
}

static void
write_frames(const struct opts *o, struct host *h)
{
	struct gen_buf *e = &h->scratch, *m = &h->sub, *flc = &h->sub2;
	char id[37];
	for (int i = 0; i < prog.nframes; i++) {
		e->len = m->len = flc->len = 0;
		if (prog.frames[i].file)            /* proto3: zero is not written */
			pb_uint(flc, 1, (uint64_t)prog.frames[i].file);
		pb_uint(flc, 2, (uint64_t)prog.frames[i].line);
		pb_str(flc, 4, prog.frames[i].func);
		gen_uuid(id, o->seed, h->index, 1, (uint64_t)i);
		pb_str(m, 1, id);
		pb_msg(m, 2, flc);
		pb_double(e, 1, (double)o->time0 + 2.0 + i * 1e-5);
		pb_msg(e, 6, m);
		put(o, h, R_STACK_FRAMES, e);
	}
}

/* CodeLocation{host_name, stack_frame_ids} into b as field. */
static void
code_location(const struct opts *o, struct host *h, struct gen_buf *b, uint32_t field,
	      const int *stack, int n)
{
	struct gen_buf cl = { 0 };
	char id[37];
	pb_str(&cl, 1, h->name);
	for (int i = 0; i < n; i++) {
		gen_uuid(id, o->seed, h->index, 1, (uint64_t)stack[i]);
		pb_str(&cl, 2, id);
	}
	pb_msg(b, field, &cl);
	gen_buf_done(&cl);
}

static void
write_graphs(const struct opts *o, struct host *h)
{
	struct gen_buf *e = &h->scratch, *m = &h->sub;
	for (int g = 0; g < G_COUNT; g++) {
		e->len = m->len = 0;
		pb_str(m, 1, h->graph_id[g]);
		pb_str(m, 2, gen_graph_names[g]);
		if (gen_graph_outer[g] >= 0)
			pb_str(m, 6, h->graph_id[gen_graph_outer[g]]);
		pb_double(e, 1, (double)o->time0 + 3.0 + g * 1e-3);
		pb_msg(e, 8, m);
		put(o, h, R_GRAPHS, e);
	}
	for (int i = 0; i < prog.nops; i++) {
		const struct gen_op *op = &prog.ops[i];
		e->len = m->len = 0;
		pb_str(m, 1, op->type);
		pb_str(m, 2, op->name);
		pb_str(m, 3, gen_graph_names[op->graph]);
		pb_str(m, 4, h->graph_id[op->graph]);
		for (int k = 0; k < op->ninputs; k++)
			pb_str(m, 6, op->inputs[k]);
		if (op->nout)
			pb_uint(m, 7, (uint64_t)op->nout);
		code_location(o, h, m, 8, op->stack, op->nstack);
		int64_t tids[4];
		for (int s = 0; s < op->nout && s < 4; s++)
			tids[s] = op->first_tid + s;
		pb_packed_int(m, 9, tids, (size_t)(op->nout < 4 ? op->nout : 4));
		pb_double(e, 1, (double)o->time0 + 4.0 + i * 1e-6);
		pb_msg(e, 7, m);
		put(o, h, R_GRAPHS, e);
	}
	e->len = m->len = 0;
	pb_str(m, 1, h->device);
	pb_uint(m, 2, 1);
	pb_double(e, 1, (double)o->time0 + 5.0);
	pb_msg(e, 12, m);
	put(o, h, R_GRAPHS, e);
}

/* ---- graph execution traces (the hot loop) -------------------------------- */

/* Per traced tensor, the bytes of the GraphExecutionTrace before its
 * tensor_proto (context id, op name, slot, mode) and after it (device). */
static void
build_templates(const struct opts *o, struct host *h)
{
	struct gen_buf *b = &h->tmpl;
	h->tmpl_off = calloc((size_t)prog.ntens * 2 + 1, sizeof(size_t));
	if (!h->tmpl_off) {
		fprintf(stderr, "gen_tfdbg2: out of memory\n");
		exit(2);
	}
	for (int t = 0; t < prog.ntens; t++) {
		const struct gen_op *op = &prog.ops[prog.tens[t].op];
		h->tmpl_off[2 * t] = b->len;
		pb_str(b, 1, h->graph_id[op->graph]);
		pb_str(b, 2, op->name);
		if (prog.tens[t].slot > 0)
			pb_uint(b, 3, (uint64_t)prog.tens[t].slot);
		pb_uint(b, 4, (uint64_t)o->mode);
		h->tmpl_off[2 * t + 1] = b->len;
		pb_str(b, 6, h->device);
	}
	h->tmpl_off[2 * prog.ntens] = b->len;
}

static int
damage_loses_row(enum gen_damage d)
{
	return d != DMG_NONE && d != DMG_GARBAGE;
}

static void
trace_payload(const struct opts *o, struct host *h, uint64_t row, int bad)
{
	struct gen_buf *e = &h->scratch, *tp = &h->sub;
	int t = (int)(row % (uint64_t)prog.ntens);
	const struct gen_op *op = &prog.ops[prog.tens[t].op];
	const uint8_t *pre = h->tmpl.p + h->tmpl_off[2 * t];
	size_t plen = h->tmpl_off[2 * t + 1] - h->tmpl_off[2 * t];
	size_t slen = h->tmpl_off[2 * t + 2] - h->tmpl_off[2 * t + 1];
	uint64_t hv = gen_mix(o->seed ^ (uint64_t)h->index << 48 ^ row);

	tp->len = 0;
	if (prog.cause)
		gen_cause_tensor(tp, &prog, (int)o->mode, row);
	else
		tensor_proto(o, tp, o->mode, op->d0, op->d1, op->first_tid + prog.tens[t].slot, hv, bad,
			     row_perturbed(o, row));
	size_t inner = plen + 1 + pb_varint_len(tp->len) + tp->len + slen;
	e->len = 0;
	pb_double(e, 1, row_time(o, h->index, row));
	pb_key(e, 10, 2);
	pb_varint(e, inner);
	gen_buf_add(e, pre, plen);
	pb_key(e, 5, 2);
	pb_varint(e, tp->len);
	gen_buf_add(e, tp->p, tp->len);
	gen_buf_add(e, pre + plen, slen);
}

static void
write_traces(const struct opts *o, struct host *h, uint64_t n)
{
	struct host_out *out = &h->out;
	int framed = 1;
	for (uint64_t row = h->row0; row < h->row0 + n; row++) {
		int bad = row_bad(o, row);
		enum gen_damage d = damage_at(o, h, R_TRACES, row);
		trace_payload(o, h, row, bad);
		if (h->open[R_TRACES])
			gen_file_record(&h->f[R_TRACES], h->scratch.p, h->scratch.len, d);
		out->records++;
		out->traces++;
		if (d == DMG_GARBAGE || d == DMG_PAST_END || d == DMG_LENGTH_CRC)
			framed = 0;
		out->ambiguous += d == DMG_HUGE || d == DMG_DEEP;
		if (damage_loses_row(d)) {
			out->lost++;
			continue;
		}
		if (!framed)
			out->lost_unframed++;
		if (bad && !out->has_nonfinite) {
			out->has_nonfinite = 1;
			out->first_nonfinite = row - h->row0 - out->lost;
		}
		out->nonfinite += bad;
	}
}

/* ---- executions ------------------------------------------------------------- */

static void
exec_payload(const struct opts *o, struct host *h, uint64_t j, double t)
{
	static const char *const types[3] = { "IteratorGetNext", NULL, "AssignAddVariableOp" };
	static const uint32_t shapes[3][2][2] = { { { 32, 784 }, { 32, 10 } }, { { 1, 1 } }, { { 0 } } };
	struct gen_buf *e = &h->scratch, *m = &h->sub, *tp = &h->sub2;
	int kind = (int)(j % 3), nout = kind == 0 ? 2 : kind == 1 ? 1 : 0;
	char fname[64];
	int64_t in[2] = { 1000 + 2 * (int64_t)j - 2, 1000 + 2 * (int64_t)j - 1 };
	int64_t outs[2] = { 1000 + 2 * (int64_t)j, 1001 + 2 * (int64_t)j }, dev[2] = { 1, 1 };

	snprintf(fname, sizeof fname, "__inference_train_step_%d", 1234 + h->index);
	e->len = m->len = 0;
	pb_str(m, 1, kind == 1 ? fname : types[kind]);
	if (nout)
		pb_uint(m, 2, (uint64_t)nout);
	if (kind == 1)
		pb_str(m, 3, h->graph_id[G_TRAIN]);
	if (j > 0)
		pb_packed_int(m, 4, in, kind == 0 ? 0 : kind == 1 ? 2 : 1);
	pb_packed_int(m, 5, outs, (size_t)nout);
	pb_uint(m, 6, (uint64_t)o->mode);
	for (int s = 0; s < nout && o->mode != M_NO_TENSOR; s++) {
		tp->len = 0;
		tensor_proto(o, tp, o->mode, shapes[kind][s][0], shapes[kind][s][1], -1,
			     gen_mix(o->seed ^ j << 2 ^ (uint64_t)s), 0, 0);
		pb_msg(m, 7, tp);
	}
	code_location(o, h, m, 8, prog.exec_frames[kind], 2);
	pb_packed_int(m, 9, dev, (size_t)nout);
	pb_double(e, 1, t);
	pb_msg(e, 9, m);
}

static void
write_executions(const struct opts *o, struct host *h, uint64_t n)
{
	uint64_t T = (uint64_t)prog.ntens;
	uint64_t s0 = (h->row0 + T - 1) / T, s1 = (h->row0 + n + T - 1) / T;
	uint64_t E = o->executions >= 0 ? (uint64_t)o->executions : 3 * (s1 - s0);
	for (uint64_t k = 0; k < E; k++) {
		uint64_t j = h->exec0 + k;
		uint64_t step = o->executions >= 0 ? s0 + (s1 > s0 ? k * (s1 - s0) / E : 0) : s0 + k / 3;
		/* The input op runs before the step's traces; the function call
		 * is recorded when it returns (after them), then the update. */
		double t = j % 3 == 0 ? row_time(o, h->index, step * T) - 5e-7
				      : row_time(o, h->index, (step + 1) * T) - (double)(3 - j % 3) * 1e-6;
		exec_payload(o, h, j, t);
		put(o, h, R_EXECUTION, &h->scratch);
		h->out.executions++;
	}
}

/* ---- hosts ------------------------------------------------------------------ */

static void
host_init(const struct opts *o, struct host *h, int index)
{
	memset(h, 0, sizeof *h);
	h->index = index;
	/* Host names with dots: file names must be parsed by known suffix. */
	snprintf(h->name, sizeof h->name, "worker-%d.tdbg.test", index);
	snprintf(h->prefix, sizeof h->prefix, "%s/tfdbg_events.%010lld.%s", o->dir,
		 o->time0 + index, h->name);
	snprintf(h->run_id, sizeof h->run_id, "%08x", (unsigned)gen_mix(o->seed) & 0xffffffffu);
	for (int g = 0; g < G_COUNT; g++)
		gen_uuid(h->graph_id[g], o->seed, index, 2, (uint64_t)g);
	snprintf(h->device, sizeof h->device, "/job:worker/replica:0/task:%d/device:GPU:0", index);
	build_templates(o, h);
}

static void
host_open(const struct opts *o, struct host *h)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof path, "%s.metadata", h->prefix);
	int exists = o->append && stat(path, &st) == 0;
	for (int r = 0; r < R_COUNT; r++) {
		if (o->omit[r] || (exists && r != R_TRACES && r != R_EXECUTION))
			continue;
		snprintf(path, sizeof path, "%s.%s", h->prefix, role_names[r]);
		gen_file_open(&h->f[r], path, exists);
		h->open[r] = 1;
	}
	if (exists) {
		h->row0 = h->f[R_TRACES].records;
		h->exec0 = h->f[R_EXECUTION].records;
		return;
	}
	write_metadata(o, h);
	write_sources(o, h);
	write_frames(o, h);
	write_graphs(o, h);
}

static void
host_close(const struct opts *o, struct host *h)
{
	for (int r = 0; r < R_COUNT; r++) {
		if (!h->open[r])
			continue;
		h->out.bytes += h->f[r].bytes;
		gen_file_close(&h->f[r], o->torn && h->index == 0 && r == R_TRACES);
	}
	if (o->torn && h->index == 0 && h->out.traces) {
		h->out.lost++;
		if (row_bad(o, h->row0 + h->out.traces - 1) &&
		    !damage_loses_row(damage_at(o, h, R_TRACES, h->row0 + h->out.traces - 1)))
			h->out.nonfinite--;
	}
	gen_buf_done(&h->tmpl);
	gen_buf_done(&h->scratch);
	gen_buf_done(&h->sub);
	gen_buf_done(&h->sub2);
	free(h->tmpl_off);
}

/* ---- options ------------------------------------------------------------------ */

static void
usage(FILE *fp)
{
	fprintf(fp,
"usage: gen_tfdbg2 [options] DIR\n"
"Writes a valid tfdbg v2 dump (DebugEvent TFRecord files) into DIR.\n"
"\n"
"  -n, --traces N        graph execution traces in all hosts (default 100000;\n"
"                        K, M suffixes: 10M)\n"
"  -m, --mode MODE       NO_TENSOR, CURT_HEALTH, CONCISE_HEALTH, FULL_HEALTH\n"
"                        (default), SHAPE, FULL_TENSOR (small tensors)\n"
"      --ops N           distinct ops to aim for (default 3000)\n"
"      --executions N    executions per host (default 3 per training step)\n"
"      --nan-at ROW      first non-finite trace row (per host; default 30%% of\n"
"                        the rows; -1 for none)\n"
"      --nan-every K     then one every K rows (default 997; 0 = only one)\n"
"      --hosts K         hosts, one file set each (default 1)\n"
"      --seed S          (default 1); output is a function of the options\n"
"      --time T          writer start time, s since the epoch (default 1700000000)\n"
"      --hostile         add ops whose names hold escape sequences, control\n"
"                        bytes, invalid UTF-8, a 5000-byte name; hostile source\n"
"      --corrupt K       flip the payload CRC of K trace records (host 0)\n"
"      --damage [ROLE:]KIND@RECORD\n"
"                        damage one record of host 0 (repeatable); ROLE is a\n"
"                        file suffix (default graph_execution_traces); KIND:\n"
"                        data-crc length-crc garbage past-end bad-proto huge deep\n"
"      --torn            cut host 0's last trace record in half\n"
"      --omit ROLE       do not write that file (e.g. source_files)\n"
"      --append          grow an existing dump: N more traces (and their\n"
"                        executions); hosts without a file set get a new one\n"
"      --facts FILE      write what a reader must find as \"key value\" lines\n"
"      --cause NAME      instead of the network: a small program whose NaN/Inf\n"
"                        has a known cause, two steps (the bad value in step 1);\n"
"                        -n is ignored; --facts adds origin_row, origin_op...\n"
"                        NAME is one of:\n"
"      --wide N          instead of the network: one op (AddN, graph model) of N\n"
"                        inputs from N untraced placeholders; every row is it\n"
"      --half            FULL_TENSOR: values as float16 (rounded from float32)\n"
"      --round-half      FULL_TENSOR: float32 values rounded to float16 precision\n"
"      --perturb-at ROW  FULL_TENSOR: scale the values of trace ROW (per host),\n"
"                        of the rows of its step that depend on its op, and of\n"
"                        every later step (a difference that propagates)\n"
"      --perturb REL     by 1 + REL (default 0.01)\n"
"  -q, --quiet           no summary line\n"
"  -h, --help\n");
	gen_cause_list(fp);
}

static uint64_t
parse_count(const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end == 'K' || *end == 'k')
		v *= 1e3, end++;
	else if (*end == 'M' || *end == 'm')
		v *= 1e6, end++;
	else if (*end == 'G' || *end == 'g')
		v *= 1e9, end++;
	if (errno || *end || v < 0 || end == s) {
		fprintf(stderr, "gen_tfdbg2: bad number '%s'\n", s);
		exit(2);
	}
	return (uint64_t)v;
}

static enum role
parse_role(const char *s)
{
	for (int r = 0; r < R_COUNT; r++)
		if (!strcmp(s, role_names[r]))
			return (enum role)r;
	if (!strcmp(s, "traces"))
		return R_TRACES;
	fprintf(stderr, "gen_tfdbg2: unknown file role '%s'\n", s);
	exit(2);
}

static void
add_damage(struct opts *o, enum role r, enum gen_damage k, uint64_t rec)
{
	o->dmg = realloc(o->dmg, sizeof *o->dmg * (o->ndmg + 1));
	if (!o->dmg)
		exit(2);
	o->dmg[o->ndmg++] = (struct damage){ r, k, rec };
}

static void
parse_damage(struct opts *o, const char *arg)
{
	char buf[256], *at, *colon, *kind = buf;
	enum role r = R_TRACES;
	snprintf(buf, sizeof buf, "%s", arg);
	if ((colon = strchr(buf, ':'))) {
		*colon = 0;
		r = parse_role(buf);
		kind = colon + 1;
	}
	if (!(at = strchr(kind, '@'))) {
		fprintf(stderr, "gen_tfdbg2: --damage wants KIND@RECORD, got '%s'\n", arg);
		exit(2);
	}
	*at = 0;
	enum gen_damage k = gen_damage_parse(kind);
	if (k == DMG_NONE) {
		fprintf(stderr, "gen_tfdbg2: unknown damage '%s'\n", kind);
		exit(2);
	}
	add_damage(o, r, k, parse_count(at + 1));
}

static enum mode
parse_mode(const char *s)
{
	static const struct { const char *name; enum mode m; } modes[] = {
		{ "NO_TENSOR", M_NO_TENSOR }, { "CURT_HEALTH", M_CURT },
		{ "CONCISE_HEALTH", M_CONCISE }, { "FULL_HEALTH", M_FULL_HEALTH },
		{ "SHAPE", M_SHAPE }, { "FULL_TENSOR", M_FULL_TENSOR },
	};
	for (size_t i = 0; i < sizeof modes / sizeof *modes; i++)
		if (!strcasecmp(s, modes[i].name))
			return modes[i].m;
	fprintf(stderr, "gen_tfdbg2: unknown mode '%s'\n", s);
	exit(2);
}

static const char *
mode_name(enum mode m)
{
	switch (m) {
	case M_NO_TENSOR: return "NO_TENSOR";
	case M_CURT: return "CURT_HEALTH";
	case M_CONCISE: return "CONCISE_HEALTH";
	case M_FULL_HEALTH: return "FULL_HEALTH";
	case M_SHAPE: return "SHAPE";
	case M_FULL_TENSOR: return "FULL_TENSOR";
	}
	return "?";
}

static void
parse_args(struct opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "traces", 1, 0, 'n' }, { "mode", 1, 0, 'm' }, { "ops", 1, 0, 'o' },
		{ "executions", 1, 0, 'E' }, { "nan-at", 1, 0, 'a' }, { "nan-every", 1, 0, 'e' },
		{ "hosts", 1, 0, 'H' }, { "seed", 1, 0, 's' }, { "time", 1, 0, 't' },
		{ "hostile", 0, 0, 'X' }, { "corrupt", 1, 0, 'c' }, { "damage", 1, 0, 'd' },
		{ "torn", 0, 0, 'T' }, { "omit", 1, 0, 'O' }, { "append", 0, 0, 'A' },
		{ "facts", 1, 0, 'f' }, { "quiet", 0, 0, 'q' }, { "help", 0, 0, 'h' },
		{ "cause", 1, 0, 'K' }, { "wide", 1, 0, 'W' },
		{ "half", 0, 0, 'F' }, { "round-half", 0, 0, 'R' }, { "perturb-at", 1, 0, 'P' },
		{ "perturb", 1, 0, 'p' },
		{ 0, 0, 0, 0 },
	};
	int c;
	*o = (struct opts){ .traces = 100000, .executions = -1, .mode = M_FULL_HEALTH,
			    .ops = 3000, .nan_at = -2, .nan_every = 997, .hosts = 1, .seed = 1,
			    .time0 = 1700000000, .perturb_at = -1, .perturb = 0.01 };
	while ((c = getopt_long(argc, argv, "n:m:qh", lopts, NULL)) != -1) {
		switch (c) {
		case 'n': o->traces = parse_count(optarg); break;
		case 'm': o->mode = parse_mode(optarg); break;
		case 'o': o->ops = (int)parse_count(optarg); break;
		case 'E': o->executions = (int64_t)parse_count(optarg); break;
		case 'a': o->nan_at = strtoll(optarg, NULL, 10) < 0 ? -1 : (int64_t)parse_count(optarg); break;
		case 'e': o->nan_every = parse_count(optarg); break;
		case 'H': o->hosts = (int)parse_count(optarg); break;
		case 's': o->seed = parse_count(optarg); break;
		case 't': o->time0 = (long long)parse_count(optarg); break;
		case 'X': o->hostile = 1; break;
		case 'c': o->corrupt = parse_count(optarg); break;
		case 'd': parse_damage(o, optarg); break;
		case 'T': o->torn = 1; break;
		case 'O': o->omit[parse_role(optarg)] = 1; break;
		case 'A': o->append = 1; break;
		case 'f': o->facts = optarg; break;
		case 'K': o->cause = optarg; break;
		case 'W': o->wide = (int)parse_count(optarg); break;
		case 'q': o->quiet = 1; break;
		case 'F': o->half = 1; break;
		case 'R': o->round_half = 1; break;
		case 'P': o->perturb_at = (int64_t)parse_count(optarg); break;
		case 'p': o->perturb = strtod(optarg, NULL); break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(2);
		}
	}
	if (optind != argc - 1 || o->hosts < 1 || o->hosts > 1000 || o->ops < 1 || o->wide < 0) {
		usage(stderr);
		exit(2);
	}
	o->dir = argv[optind];
	if (o->nan_at == -2)
		o->nan_at = o->append ? -1 : (int64_t)(o->traces / (uint64_t)o->hosts * 3 / 10);
	/* --corrupt K: payload CRCs of K trace records spread over host 0. */
	uint64_t n0 = o->traces / (uint64_t)o->hosts + (o->traces % (uint64_t)o->hosts ? 1 : 0);
	for (uint64_t k = 0; k < o->corrupt && k < n0; k++)
		add_damage(o, R_TRACES, DMG_DATA_CRC, (k + 1) * n0 / (o->corrupt + 1));
	if (o->ndmg)
		qsort(o->dmg, o->ndmg, sizeof *o->dmg, damage_cmp);
}

/* ---- facts ------------------------------------------------------------------- */

static void
facts(const struct opts *o, struct host *hs, double secs)
{
	uint64_t traces = 0, written = 0, valid = 0, unframed = 0, nonfinite = 0, execs = 0;
	uint64_t records = 0, bytes = 0, before = 0, ambiguous = 0;
	int64_t first = -1;
	for (int i = 0; i < o->hosts; i++) {
		struct host_out *ho = &hs[i].out;
		traces += hs[i].row0 + ho->traces;
		written += ho->traces;
		valid += hs[i].row0 + ho->traces - ho->lost;
		unframed += ho->lost_unframed;
		ambiguous += ho->ambiguous;
		nonfinite += ho->nonfinite;
		execs += hs[i].exec0 + ho->executions;
		records += ho->records;
		bytes += ho->bytes;
		if (first < 0 && ho->has_nonfinite)
			first = (int64_t)(before + hs[i].row0 + ho->first_nonfinite);
		before += hs[i].row0 + ho->traces - ho->lost;
	}
	FILE *fp = o->facts ? fopen(o->facts, "w") : NULL;
	if (o->facts && !fp) {
		fprintf(stderr, "gen_tfdbg2: cannot write %s: %s\n", o->facts, strerror(errno));
		exit(2);
	}
	if (fp) {
		fprintf(fp, "dir %s\nmode %s\nhosts %d\n", o->dir, mode_name(o->mode), o->hosts);
		fprintf(fp, "traces %llu\ntraces_written %llu\ntraces_valid %llu\ntraces_framed %llu\n",
			(unsigned long long)traces, (unsigned long long)written,
			(unsigned long long)valid, (unsigned long long)(valid - unframed));
		fprintf(fp, "traces_ambiguous %llu\n", (unsigned long long)ambiguous);
		fprintf(fp, "executions %llu\nops %d\ngraphs %d\n", (unsigned long long)execs,
			prog.nops, G_COUNT);
		fprintf(fp, "source_files %d\nstack_frames %d\ntraced_per_step %d\n",
			o->omit[R_SOURCE_FILES] ? 0 : prog.nsources, prog.nframes, prog.ntens);
		fprintf(fp, "nonfinite %llu\nfirst_nonfinite_row %lld\ndamaged %zu\n",
			(unsigned long long)nonfinite, (long long)first, o->ndmg + (size_t)o->torn);
		fprintf(fp, "records %llu\nbytes %llu\nseconds %.3f\n", (unsigned long long)records,
			(unsigned long long)bytes, secs);
		if (prog.cause) {
			gen_cause_facts(fp, &prog);
			/* step 1's function call: executions 3 per step, the call second */
			if (o->executions < 0)
				fprintf(fp, "origin_step %d\n", 3 * 1 + 1);
		}
		fclose(fp);
	}
	/* Wall time includes waiting for the disk to take the pages; CPU time
	 * is the generator's own speed. */
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
		     (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
	if (!o->quiet)
		printf("gen_tfdbg2: %s: %d host(s), %s, %llu traces (%llu valid), %llu executions, "
		       "%d ops, first non-finite row %lld, %llu non-finite; %llu records, %.1f MB "
		       "in %.2f s = %.2f M records/s (CPU %.2f s = %.2f M records/s)\n",
		       o->dir, o->hosts, mode_name(o->mode), (unsigned long long)traces,
		       (unsigned long long)valid, (unsigned long long)execs, prog.nops,
		       (long long)first, (unsigned long long)nonfinite, (unsigned long long)records,
		       (double)bytes / 1e6, secs, secs > 0 ? (double)records / secs / 1e6 : 0.0,
		       cpu, cpu > 0 ? (double)records / cpu / 1e6 : 0.0);
}

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
	struct opts o;
	parse_args(&o, argc, argv);
	gen_crc32c_init();
	if (mkdir(o.dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gen_tfdbg2: cannot create %s: %s\n", o.dir, strerror(errno));
		return 2;
	}
	double t0 = now();
	if (o.cause) {
		if (gen_cause_build(&prog, o.cause) != 0) {
			fprintf(stderr, "gen_tfdbg2: unknown cause '%s'; one of:\n", o.cause);
			gen_cause_list(stderr);
			return 2;
		}
		o.traces = 2 * (uint64_t)prog.ntens * (uint64_t)o.hosts;
		o.nan_at = -1;
	} else if (o.wide) {
		gen_prog_build_wide(&prog, o.wide);
	} else {
		gen_prog_build(&prog, o.ops, o.hostile, o.seed);
	}
	build_taint(&o);
	struct host *hs = calloc((size_t)o.hosts, sizeof *hs);
	if (!hs)
		return 2;
	for (int i = 0; i < o.hosts; i++) {
		uint64_t n = o.traces / (uint64_t)o.hosts + ((uint64_t)i < o.traces % (uint64_t)o.hosts);
		host_init(&o, &hs[i], i);
		host_open(&o, &hs[i]);
		write_traces(&o, &hs[i], n);
		write_executions(&o, &hs[i], n);
		host_close(&o, &hs[i]);
	}
	facts(&o, hs, now() - t0);
	free(hs);
	free(taint);
	free(o.dmg);
	gen_prog_free(&prog);
	return 0;
}
