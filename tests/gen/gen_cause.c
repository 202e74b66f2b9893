/*
 * gen_cause.c - small programs that make NaN/Inf for one known reason
 * (--cause NAME), for the root-cause tests.
 *
 * Each program is a placeholder x (and y for binary ops) feeding the op of
 * the cause, whose output goes through mul = op * x and Sum(mul).  Step 0
 * is clean; in step 1 the inputs hold the bad value (a zero for log, a
 * negative for sqrt, a large value for exp...).  The values are computed
 * here with the C library in float32 (float16 where the cause is about
 * float16's range), so every summary written (in any mode) is what those
 * tensors really hold.  The facts name the origin's row and op.
 */
#include "gen_cause.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_wire.h"

enum op_kind { K_LOG, K_DIV, K_RECIP, K_RSQRT, K_SQRT, K_POW, K_EXP, K_SQUARE, K_MATMUL,
	       K_SOFTMAX, K_NONE };

struct cause {
	const char *name;
	const char *type;           /* op type of the origin, "" for the source cause */
	enum op_kind kind;
	int binary;                 /* the op reads x and y */
	int half;                   /* float16 tensors */
	const char *help;
};

static const struct cause causes[] = {
	{ "log-zero", "Log", K_LOG, 0, 0, "log of a zero in x" },
	{ "log-negative", "Log", K_LOG, 0, 0, "log of a negative in x" },
	{ "div-zero", "RealDiv", K_DIV, 1, 0, "x / y with a zero in y" },
	{ "reciprocal-zero", "Reciprocal", K_RECIP, 0, 0, "1 / x with a zero in x" },
	{ "rsqrt-zero", "Rsqrt", K_RSQRT, 0, 0, "rsqrt of a zero in x" },
	{ "sqrt-negative", "Sqrt", K_SQRT, 0, 0, "sqrt of a negative in x" },
	{ "pow-negative", "Pow", K_POW, 1, 0, "x ** 0.5 with a negative in x" },
	{ "exp-overflow", "Exp", K_EXP, 0, 0, "exp of 100 (float32 overflows past 88.7)" },
	{ "square-overflow", "Square", K_SQUARE, 0, 1, "float16 square of 300 (past 65504)" },
	{ "matmul-overflow", "MatMul", K_MATMUL, 1, 1, "float16 matmul of 100s, inner size 8" },
	{ "softmax-extreme", "Softmax", K_SOFTMAX, 0, 0, "softmax of logits up to 1000 (naive)" },
	{ "source", "Placeholder", K_NONE, 0, 0, "x itself holds a NaN (fed from outside)" },
};

#define ROWS 4
#define COLS 8

static const struct cause *
find(const char *name)
{
	for (size_t i = 0; i < sizeof causes / sizeof *causes; i++)
		if (!strcmp(causes[i].name, name))
			return &causes[i];
	return NULL;
}

void
gen_cause_list(FILE *fp)
{
	for (size_t i = 0; i < sizeof causes / sizeof *causes; i++)
		fprintf(fp, "  %-18s %s\n", causes[i].name, causes[i].help);
}

static char *
dup(const char *s)
{
	char *p = strdup(s);
	if (!p) {
		fprintf(stderr, "gen_tfdbg2: out of memory\n");
		exit(2);
	}
	return p;
}

static void *
zalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p) {
		fprintf(stderr, "gen_tfdbg2: out of memory\n");
		exit(2);
	}
	return p;
}

static struct gen_op *
add(struct gen_prog *p, const char *name, const char *type, uint32_t d0, uint32_t d1, int nin, ...)
{
	struct gen_op *op;
	va_list ap;

	p->ops = realloc(p->ops, sizeof *p->ops * (size_t)(p->nops + 1));
	if (!p->ops) {
		fprintf(stderr, "gen_tfdbg2: out of memory\n");
		exit(2);
	}
	op = &p->ops[p->nops++];
	memset(op, 0, sizeof *op);
	op->name = dup(name);
	op->type = dup(type);
	op->graph = G_LOSS;
	op->nout = 1;
	op->traced = 1;
	op->d0 = d0;
	op->d1 = d1;
	op->inputs = zalloc(sizeof(char *) * (size_t)(nin ? nin : 1));
	op->ninputs = nin;
	va_start(ap, nin);
	for (int i = 0; i < nin; i++)
		op->inputs[i] = dup(va_arg(ap, const char *));
	va_end(ap);
	return op;
}

int
gen_cause_build(struct gen_prog *p, const char *name)
{
	const struct cause *c = find(name);
	int64_t tid = 1;

	if (!c)
		return -1;
	memset(p, 0, sizeof *p);
	p->cause = c;
	p->nlayers = 0;
	char out[64];

	snprintf(out, sizeof out, "%s:0", c->type);     /* the op is named after its type */
	if (c->kind == K_MATMUL) {
		add(p, "x", "Placeholder", 2, COLS, 0);
		add(p, "y", "Placeholder", COLS, 2, 0);
		add(p, c->type, c->type, 2, 2, 2, "x:0", "y:0");
		add(p, "mul", "Mul", 2, 2, 2, out, out);
	} else {
		add(p, "x", "Placeholder", ROWS, COLS, 0);
		if (c->binary)
			add(p, "y", "Placeholder", ROWS, COLS, 0);
		if (c->kind != K_NONE) {
			if (c->binary)
				add(p, c->type, c->type, ROWS, COLS, 2, "x:0", "y:0");
			else
				add(p, c->type, c->type, ROWS, COLS, 1, "x:0");
		}
		add(p, "mul", "Mul", ROWS, COLS, 2, c->kind == K_NONE ? "x:0" : out, "x:0");
	}
	add(p, "Sum", "Sum", 1, 1, 1, "mul:0");
	/* One source line and frame for the executions' stacks. */
	p->nsources = 1;
	p->sources = zalloc(sizeof *p->sources);
	p->sources[0].path = dup("/home/tdbg/project/cause.py");
	p->sources[0].lines = zalloc(sizeof(char *));
	p->sources[0].lines[0] = dup("loss = train_step(x, y)  # stand-in written by gen_tfdbg2 --cause");
	p->sources[0].nlines = 1;
	p->frames = zalloc(sizeof *p->frames);
	p->frames[0] = (struct gen_frame){ 0, 1, "<module>" };
	p->nframes = p->capframes = 1;
	p->tens = zalloc(sizeof *p->tens * (size_t)p->nops);
	for (int i = 0; i < p->nops; i++) {
		p->ops[i].first_tid = tid++;
		p->tens[p->ntens++] = (struct gen_tensor){ i, 0 };
	}
	return 0;
}

/* ---- values ------------------------------------------------------------ */

/* Rounds to float16 and back (overflow to +-Inf, as a half store does). */
static float
to_half(float v)
{
	if (isnan(v) || isinf(v))
		return v;
	if (fabsf(v) > 65504.0f)
		return v > 0 ? INFINITY : -INFINITY;
	return v;
}

/* The program's tensors at step s, in op order: vals[op][k], n[op]. */
static void
run(const struct gen_prog *p, int s, float vals[][64], int *n)
{
	const struct cause *c = p->cause;
	int x = 0, y = c->binary ? 1 : -1, op = c->kind == K_NONE ? -1 : (c->binary ? 2 : 1);
	int mul = op >= 0 ? op + 1 : 1, sum = mul + 1;

	for (int i = 0; i < p->nops; i++)
		n[i] = (int)(p->ops[i].d0 * p->ops[i].d1);
	for (int k = 0; k < n[x]; k++)
		vals[x][k] = c->kind == K_MATMUL ? 1.0f + (float)(k % 3) : 0.5f + 0.25f * (float)(k % 7);
	if (y >= 0)
		for (int k = 0; k < n[y]; k++)
			vals[y][k] = c->kind == K_POW ? 0.5f : c->kind == K_MATMUL ? 2.0f : 1.0f + (float)(k % 5);
	if (s == 1) {                   /* the bad input */
		switch (c->kind) {
		case K_LOG: vals[x][3] = strcmp(c->name, "log-zero") ? -1.0f : 0.0f; break;
		case K_DIV: vals[y][5] = 0.0f; break;
		case K_RECIP: case K_RSQRT: vals[x][3] = 0.0f; break;
		case K_SQRT: case K_POW: vals[x][3] = -4.0f; break;
		case K_EXP: vals[x][3] = 100.0f; break;
		case K_SQUARE: vals[x][3] = 300.0f; break;
		case K_MATMUL:
			for (int k = 0; k < n[x]; k++)
				vals[x][k] = 100.0f;
			for (int k = 0; k < n[y]; k++)
				vals[y][k] = 100.0f;
			break;
		case K_SOFTMAX: vals[x][3] = 1000.0f; break;
		case K_NONE: vals[x][3] = NAN; break;
		}
	}
	if (op >= 0) {
		for (int k = 0; k < n[op]; k++) {
			float a = vals[x][k % n[x]], b = y >= 0 ? vals[y][k % n[y]] : 0, r = 0;
			switch (c->kind) {
			case K_LOG: r = logf(a); break;
			case K_DIV: r = a / b; break;
			case K_RECIP: r = 1.0f / a; break;
			case K_RSQRT: r = 1.0f / sqrtf(a); break;
			case K_SQRT: r = sqrtf(a); break;
			case K_POW: r = powf(a, b); break;
			case K_EXP: r = expf(a); break;
			case K_SQUARE: r = to_half(a * a); break;
			case K_MATMUL: {
				int i = k / 2, j = k % 2;
				r = 0;
				for (int t = 0; t < COLS; t++)
					r += vals[x][i * COLS + t] * vals[y][t * 2 + j];
				r = to_half(r);
				break;
			}
			case K_SOFTMAX: {  /* naive: exp(v) / sum(exp(row)) */
				int row = k / COLS;
				float den = 0;
				for (int t = 0; t < COLS; t++)
					den += expf(vals[x][row * COLS + t]);
				r = expf(a) / den;
				break;
			}
			case K_NONE: break;
			}
			vals[op][k] = r;
		}
	}
	for (int k = 0; k < n[mul]; k++) {
		int in = op >= 0 ? op : x;
		vals[mul][k] = c->kind == K_MATMUL ? to_half(vals[in][k] * vals[in][k])
						   : vals[in][k] * vals[x][k];
	}
	vals[sum][0] = 0;
	for (int k = 0; k < n[mul]; k++)
		vals[sum][0] += vals[mul][k];
}

/* shape [d0, d1] (TensorShapeProto, field 2 of TensorProto). */
static void
shape2(struct gen_buf *b, uint32_t d0, uint32_t d1)
{
	struct gen_buf s = { 0 }, d = { 0 };
	uint32_t dims[2] = { d0, d1 };

	for (int i = 0; i < 2; i++) {
		d.len = 0;
		pb_uint(&d, 1, dims[i]);
		pb_msg(&s, 2, &d);
	}
	pb_msg(b, 2, &s);
	gen_buf_done(&s);
	gen_buf_done(&d);
}

static uint16_t
half_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	uint32_t sign = (u >> 16) & 0x8000, e = (u >> 23) & 0xff, m = u & 0x7fffff;
	if (e == 0xff)
		return (uint16_t)(sign | 0x7c00 | (m ? 0x200 : 0));
	int ne = (int)e - 127 + 15;
	if (ne >= 31)
		return (uint16_t)(sign | 0x7c00);
	if (ne <= 0)
		return (uint16_t)sign;      /* tiny: zero (the programs never need subnormals) */
	return (uint16_t)(sign | (uint32_t)ne << 10 | (m >> 13));
}

static void
doubles(struct gen_buf *b, const double *v, size_t n)
{
	struct gen_buf t = { 0 };

	pb_uint(b, 1, 2);                       /* DT_DOUBLE */
	t.len = 0;
	{
		struct gen_buf d = { 0 };
		pb_uint(&d, 1, n);
		pb_msg(&t, 2, &d);
		gen_buf_done(&d);
	}
	pb_msg(b, 2, &t);
	pb_bytes(b, 4, v, n * 8);
	gen_buf_done(&t);
}

void
gen_cause_tensor(struct gen_buf *b, const struct gen_prog *p, int mode, uint64_t row)
{
	static float vals[8][64];
	int n[8];
	int t = (int)(row % (uint64_t)p->ntens), s = (int)(row / (uint64_t)p->ntens) ? 1 : 0;
	const struct gen_op *op = &p->ops[p->tens[t].op];
	int half = p->cause->half && strcmp(op->type, "Sum") != 0;
	int64_t nan = 0, ninf = 0, pinf = 0, neg = 0, zero = 0, pos = 0;
	double v[11];

	run(p, s, vals, n);
	for (int k = 0; k < n[t]; k++) {
		float f = vals[t][k];
		if (isnan(f))
			nan++;
		else if (isinf(f))
			*(f < 0 ? &ninf : &pinf) += 1;
		else if (f < 0)
			neg++;
		else if (f == 0)
			zero++;
		else
			pos++;
	}
	switch (mode) {
	case 1:                                 /* NO_TENSOR */
		pb_uint(b, 1, 1);
		return;
	case 2:                                 /* CURT_HEALTH */
		v[0] = (double)op->first_tid, v[1] = nan + ninf + pinf ? 1 : 0;
		doubles(b, v, 2);
		return;
	case 3:                                 /* CONCISE_HEALTH */
		v[0] = (double)op->first_tid, v[1] = n[t], v[2] = (double)ninf, v[3] = (double)pinf;
		v[4] = (double)nan;
		doubles(b, v, 5);
		return;
	case 5:                                 /* SHAPE */
		memset(v, 0, sizeof v);
		v[0] = (double)op->first_tid, v[1] = half ? 19 : 1, v[2] = 2, v[3] = n[t];
		v[4] = op->d0, v[5] = op->d1;
		doubles(b, v, 10);
		return;
	case 7: {                               /* FULL_TENSOR */
		uint8_t raw[64 * 4];
		size_t len = 0;
		pb_uint(b, 1, half ? 19 : 1);
		shape2(b, op->d0, op->d1);
		for (int k = 0; k < n[t]; k++) {
			if (half) {
				uint16_t h = half_bits(vals[t][k]);
				memcpy(raw + len, &h, 2), len += 2;
			} else {
				memcpy(raw + len, &vals[t][k], 4), len += 4;
			}
		}
		pb_bytes(b, 4, raw, len);
		return;
	}
	default:                                /* FULL_HEALTH */
		v[0] = (double)op->first_tid, v[1] = -1, v[2] = half ? 19 : 1, v[3] = 2, v[4] = n[t];
		v[5] = (double)ninf, v[6] = (double)pinf, v[7] = (double)nan;
		v[8] = (double)neg, v[9] = (double)zero, v[10] = (double)pos;
		doubles(b, v, 11);
		return;
	}
}

int
gen_cause_bad(const struct gen_prog *p, uint64_t row)
{
	static float vals[8][64];
	int n[8];
	int t = (int)(row % (uint64_t)p->ntens), s = (int)(row / (uint64_t)p->ntens) ? 1 : 0;

	run(p, s, vals, n);
	for (int k = 0; k < n[t]; k++)
		if (!isfinite(vals[t][k]))
			return 1;
	return 0;
}

void
gen_cause_facts(FILE *fp, const struct gen_prog *p)
{
	const struct cause *c = p->cause;
	int t = c->kind == K_NONE ? 0 : (c->binary ? 2 : 1);

	fprintf(fp, "cause %s\norigin_row %d\norigin_op %s\norigin_type %s\n", c->name,
		p->ntens + t, p->ops[t].name, p->ops[t].type);
	fprintf(fp, "origin_input %s\n", c->kind == K_NONE ? "" : c->kind == K_DIV ? "y" : "x");
}
