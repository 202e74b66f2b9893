/*
 * fuzz_tfdbg2_event.c - libFuzzer target: every DebugEvent payload kind
 * through the tfdbg v2 reader (reader/tfdbg2*.c) as tdbg uses it.
 *
 * The input is a list of records, each 1 byte of file role (mod 6: metadata,
 * source_files, stack_frames, graphs, execution, graph_execution_traces),
 * a 3-byte little-endian length and that many payload bytes (cut at the end
 * of the input).  Each payload is framed as a TFRecord with correct CRCs and
 * appended to that file of one file set in a private temporary directory, so
 * the fuzzer reaches the DebugEvent decoders rather than the CRC checks.  A
 * good metadata record is written first when the input has none.  The reader
 * then opens the directory, runs its index passes into a sink that keeps the
 * locators, decodes up to 64 traces, 64 executions and 16 sources, and
 * closes.  The sanitizers are the checks, and two of answers: the
 * cheaper decodes of an execution (decode_outputs) and of a trace's
 * summary (decode_summary) must agree with decode().
 */
#include <dirent.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/parse/crc32c.h"
#include "reader/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char *const roles[6] = { "metadata", "source_files", "stack_frames", "graphs",
				      "execution", "graph_execution_traces" };
static char dir[64];

/* ---- writing the file set ------------------------------------------------ */

static void
frame(FILE *fp, const uint8_t *p, size_t n)
{
	uint8_t hdr[12];
	uint64_t len = n;
	uint32_t c;
	memcpy(hdr, &len, 8);
	c = crc32c_mask(crc32c(hdr, 8));
	memcpy(hdr + 8, &c, 4);
	fwrite(hdr, 1, 12, fp);
	fwrite(p, 1, n, fp);
	c = crc32c_mask(crc32c(p, n));
	fwrite(&c, 1, 4, fp);
}

static void
cleanup(void)
{
	char path[256];
	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof path, "%s/tfdbg_events.1700000000.fuzz.host.%s", dir, roles[i]);
		unlink(path);
	}
	rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof dir, "%s/tdbg-fuzz-tfdbg2.XXXXXX", "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	atexit(cleanup);
	return 0;
}

/* A DebugEvent{wall_time, debug_metadata{"2.15.0", "debug.Event:1", "fuzzrun1"}}. */
static const uint8_t good_metadata[] = {
	0x09, 0x00, 0x00, 0x20, 0x00, 0x84, 0xd7, 0xd7, 0x41,
	0x1a, 0x21, 0x0a, 0x06, '2', '.', '1', '5', '.', '0',
	0x12, 0x0d, 'd', 'e', 'b', 'u', 'g', '.', 'E', 'v', 'e', 'n', 't', ':', '1',
	0x1a, 0x08, 'f', 'u', 'z', 'z', 'r', 'u', 'n', '1',
};

static void
write_set(const uint8_t *data, size_t size)
{
	FILE *fp[6];
	char path[256];
	int have_meta = 0;

	for (int i = 0; i < 6; i++) {
		snprintf(path, sizeof path, "%s/tfdbg_events.1700000000.fuzz.host.%s", dir, roles[i]);
		fp[i] = fopen(path, "wb");
		if (!fp[i]) {
			perror(path);
			exit(1);
		}
	}
	for (size_t off = 0; off + 4 <= size;) {
		int role = data[off] % 6;
		size_t n = (size_t)data[off + 1] | (size_t)data[off + 2] << 8 | (size_t)data[off + 3] << 16;
		off += 4;
		if (n > size - off)
			n = size - off;
		if (role == 0 && !have_meta)
			have_meta = 1;
		else if (role != 0 && !have_meta) {
			frame(fp[0], good_metadata, sizeof good_metadata);
			have_meta = 1;
		}
		frame(fp[role], data + off, n);
		off += n;
	}
	if (!have_meta)
		frame(fp[0], good_metadata, sizeof good_metadata);
	for (int i = 0; i < 6; i++)
		fclose(fp[i]);
}

/* ---- reading it back ------------------------------------------------------- */

struct seen {
	struct td_locator traces[64], execs[64], sources[16];
	size_t ntraces, nexecs, nsources;
};

static void
on_trace(void *ctx, const struct reader_trace *t)
{
	struct seen *s = ctx;
	if (s->ntraces < 64)
		s->traces[s->ntraces++] = t->loc;
}

static void
on_execution(void *ctx, const struct reader_execution *e)
{
	struct seen *s = ctx;
	if (s->nexecs < 64)
		s->execs[s->nexecs++] = e->loc;
}

static void
on_source(void *ctx, const struct reader_source *src)
{
	struct seen *s = ctx;
	if (s->nsources < 16)
		s->sources[s->nsources++] = src->loc;
}

/* decode_outputs (an execution's ids and summaries, the cheaper path) must
 * answer as decode does, or fail where it fails: a difference traps. */
static void
check_outputs(const struct reader_ops *ops, struct reader *r, const struct td_locator *loc,
	      const struct reader_detail *full, enum td_status st)
{
	struct reader_detail d;
	enum td_status st2;
	size_t j;

	memset(&d, 0, sizeof d);
	st2 = ops->decode_outputs(r, loc, &d);
	if (st2 != st)
		__builtin_trap();
	if (st == TD_OK) {
		if (d.noutputs != full->noutputs || d.ninput_ids != full->ninput_ids ||
		    d.noutput_ids != full->noutput_ids ||
		    (d.ninput_ids && memcmp(d.input_tensor_ids, full->input_tensor_ids,
					    d.ninput_ids * sizeof(int64_t))) ||
		    (d.noutput_ids && memcmp(d.output_tensor_ids, full->output_tensor_ids,
					     d.noutput_ids * sizeof(int64_t))))
			__builtin_trap();
		for (j = 0; j < d.noutputs; j++)
			if (d.summaries[j].known != full->summaries[j].known ||
			    d.summaries[j].elements != full->summaries[j].elements ||
			    td_summary_nonfinite(&d.summaries[j]) != td_summary_nonfinite(&full->summaries[j]))
				__builtin_trap();
	}
	reader_detail_done(&d);
}

/* decode_summary (a trace's summary for the row cache, the cheaper path)
 * must give what decode gives of the summary, slot and wall time, or fail
 * where it fails: a difference traps. */
static void
check_summary(const struct reader_ops *ops, struct reader *r, const struct td_locator *loc,
	      const struct reader_detail *full, enum td_status st)
{
	struct reader_detail d;
	const struct td_summary *a, *b;

	memset(&d, 0, sizeof d);
	if (ops->decode_summary(r, loc, &d) != st)
		__builtin_trap();
	if (st == TD_OK) {
		if (d.noutputs != full->noutputs || d.slot != full->slot ||
		    memcmp(&d.wall_time, &full->wall_time, sizeof d.wall_time) != 0)
			__builtin_trap();
		a = &d.summaries[0];
		b = &full->summaries[0];
		if (d.noutputs && (a->known != b->known || a->elements != b->elements ||
				   a->dtype != b->dtype || a->nan != b->nan ||
				   a->neg_inf != b->neg_inf || a->pos_inf != b->pos_inf ||
				   td_summary_nonfinite(a) != td_summary_nonfinite(b)))
			__builtin_trap();
	}
	reader_detail_done(&d);
}

static void
decode_all(const struct reader_ops *ops, struct reader *r, enum reader_kind kind,
	   const struct td_locator *locs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct reader_detail d;
		struct td_locator loc = locs[i];
		enum td_status st;
		memset(&d, 0, sizeof d);
		st = ops->decode(r, kind, &loc, &d);
		if (kind == READER_EXECUTION && ops->decode_outputs)
			check_outputs(ops, r, &loc, &d, st);
		if (kind == READER_TRACE && ops->decode_summary)
			check_summary(ops, r, &loc, &d, st);
		reader_detail_done(&d);
		if (ops->advance && kind != READER_SOURCE)
			(void)ops->advance(r, kind, &loc, 1 + i % 3);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct reader_ops *ops = &tfdbg2_reader_ops;
	struct reader_options opt = { 0 };
	struct reader *r = NULL;
	struct seen seen = { 0 };
	struct reader_sink sink = { .ctx = &seen, .on_trace = on_trace,
				    .on_execution = on_execution, .on_source = on_source };
	char err[512];

	write_set(data, size);
	if (ops->probe)
		(void)ops->probe(dir);
	if (ops->open(dir, &opt, &r, err, sizeof err) != TD_OK)
		return 0;
	for (int pass = 0; pass < 4 && ops->index(r, &sink) == TD_ERR_AGAIN; pass++)
		;
	/* A second pass over unchanged files must be harmless. */
	(void)ops->index(r, &sink);
	decode_all(ops, r, READER_TRACE, seen.traces, seen.ntraces);
	decode_all(ops, r, READER_EXECUTION, seen.execs, seen.nexecs);
	decode_all(ops, r, READER_SOURCE, seen.sources, seen.nsources);
	ops->close(r);
	return 0;
}
