/*
 * gen_prog.h - the made-up training program the generator "runs": graphs,
 * ops with inputs and stacks, source files and stack frames.
 *
 * The program is a dense network of L layers trained by a tf.function
 * train_step, as TensorBoard's Debugger V2 tutorial does, scaled up to a few
 * thousand ops.  Everything is a pure function of the options (and the host
 * number for ids), so a dump generated in two appends equals one generated at
 * once.  Not a TensorFlow model: only the structure the dump files show.
 */
#ifndef GEN_PROG_H
#define GEN_PROG_H

#include <stddef.h>
#include <stdint.h>

enum gen_graph { G_TRAIN, G_MODEL, G_LOSS, G_GRAD, G_COUNT };

struct gen_op {
	char *name, *type;
	enum gen_graph graph;
	int nout;               /* output slots */
	int traced;             /* instrumented: float outputs, not a skipped type */
	char **inputs;          /* "op:slot" */
	int ninputs;
	int64_t first_tid;      /* symbolic tensor id of slot 0 (0 when no outputs) */
	int *stack;             /* frame numbers, outermost first */
	int nstack;
	uint32_t d0, d1;        /* output shape [d0, d1] */
};

/* One traced tensor (op, slot) in the order a training step produces them. */
struct gen_tensor {
	int op;
	int slot;
};

struct gen_source {
	char *path;
	char **lines;
	int nlines;
};

struct gen_frame {
	int file;               /* index in prog.sources */
	int line;               /* 1-based */
	const char *func;
};

struct cause;

struct gen_prog {
	const struct cause *cause;  /* a --cause program (gen_cause.c), else NULL */
	int nlayers;
	int hostile;
	struct gen_op *ops;
	int nops, capops;
	struct gen_tensor *tens;    /* traced tensors of one step */
	int ntens;
	struct gen_source *sources;
	int nsources;
	struct gen_frame *frames;
	int nframes, capframes;
	int exec_frames[3][2];      /* stacks of the three kinds of execution */
};

extern const char *const gen_graph_names[G_COUNT];
extern const int gen_graph_outer[G_COUNT];

/* Builds the program for about target_ops ops.  Exits on OOM. */
void gen_prog_build(struct gen_prog *p, int target_ops, int hostile, uint64_t seed);
/* A program of one traced op "wide" (AddN in graph model) reading the
 * outputs of n placeholders in_0 .. in_{n-1}, which are not traced: every
 * trace row is the wide op (the origins' worst case of issue 23 item 16). */
void gen_prog_build_wide(struct gen_prog *p, int n);
void gen_prog_free(struct gen_prog *p);

/* Deterministic 64-bit mixing (splitmix64). */
uint64_t gen_mix(uint64_t x);
/* A UUID4-shaped id for (seed, host, kind, n) into out[37]. */
void gen_uuid(char out[37], uint64_t seed, int host, int kind, uint64_t n);

#endif
