/*
 * fuzz_tfdbg2_follow.c - libFuzzer target: follow mode of the tfdbg v2
 * reader (issue 13): a file set changes between index passes the way a
 * running, restarted or replaced job changes it, and the reader's passes,
 * decodes and advances over old (perhaps stale) and new rows must hold.
 *
 * The input is a list of steps, each 1 byte of action, 1 byte of file role
 * (mod 6, as in fuzz_tfdbg2_event: metadata ... graph_execution_traces), a
 * 3-byte little-endian length and that many payload bytes (cut at the end
 * of the input).  Actions (mod 5):
 *   0  append the payload as one record with correct CRCs (growth);
 *   1  append the payload raw (a torn tail, garbage);
 *   2  truncate the file to (payload length mod 256) / 256 of its size;
 *   3  replace: write the payload as one record to a new file and rename
 *      it over the file (another inode);
 *   4  rewrite in place: truncate to 0, write the payload as one record.
 * The set starts with a good metadata record.  After every step the reader
 * runs one index pass, then decodes and advances the first and the last
 * eight traces and executions it was given (old rows may be stale now:
 * any status is fine, a crash or a sanitizer report is not).
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/parse/crc32c.h"
#include "reader/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define KEEP 8
#define MAX_STEPS 64

static const char *const roles[6] = { "metadata", "source_files", "stack_frames", "graphs",
				      "execution", "graph_execution_traces" };
static char dir[64];

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
path_of(char *buf, size_t len, int role, const char *suffix)
{
	snprintf(buf, len, "%s/tfdbg_events.1700000000.fuzz.host.%s%s", dir, roles[role], suffix);
}

static void
cleanup(void)
{
	char path[256];

	for (int i = 0; i < 6; i++) {
		path_of(path, sizeof path, i, "");
		unlink(path);
		path_of(path, sizeof path, i, ".new");
		unlink(path);
	}
	rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof dir, "%s/tdbg-fuzz-follow.XXXXXX", "/tmp");
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
start_set(void)
{
	char path[256];

	for (int i = 0; i < 6; i++) {
		FILE *fp;

		path_of(path, sizeof path, i, "");
		if (!(fp = fopen(path, "wb"))) {
			perror(path);
			exit(1);
		}
		if (i == 0)
			frame(fp, good_metadata, sizeof good_metadata);
		fclose(fp);
	}
}

/* Applies one step to the file of role. */
static void
apply(int action, int role, const uint8_t *p, size_t n)
{
	char path[256], tmp[256];
	struct stat st;
	FILE *fp;

	path_of(path, sizeof path, role, "");
	switch (action) {
	case 0:
	case 1:
		if ((fp = fopen(path, "ab"))) {
			if (action == 0)
				frame(fp, p, n);
			else
				fwrite(p, 1, n, fp);
			fclose(fp);
		}
		break;
	case 2:
		if (stat(path, &st) == 0 && truncate(path, st.st_size * (off_t)(n % 256) / 256) != 0)
			perror("truncate");
		break;
	case 3:
		path_of(tmp, sizeof tmp, role, ".new");
		if ((fp = fopen(tmp, "wb"))) {
			frame(fp, p, n);
			fclose(fp);
			if (rename(tmp, path) != 0)
				perror("rename");
		}
		break;
	default:
		if ((fp = fopen(path, "wb"))) {     /* truncates: the same inode */
			frame(fp, p, n);
			fclose(fp);
		}
		break;
	}
}

/* ---- reading ------------------------------------------------------------ */

struct seen {
	struct td_locator first[2][KEEP], last[2][KEEP];
	size_t n[2];
};

static void
keep(struct seen *s, int k, struct td_locator loc)
{
	if (s->n[k] < KEEP)
		s->first[k][s->n[k]] = loc;
	s->last[k][s->n[k] % KEEP] = loc;
	s->n[k]++;
}

static void
on_trace(void *ctx, const struct reader_trace *t)
{
	keep(ctx, 0, t->loc);
}

static void
on_execution(void *ctx, const struct reader_execution *e)
{
	keep(ctx, 1, e->loc);
}

static void
read_back(const struct reader_ops *ops, struct reader *r, enum reader_kind kind,
	  const struct td_locator *locs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct reader_detail d;
		struct td_locator loc = locs[i];

		memset(&d, 0, sizeof d);
		(void)ops->decode(r, kind, &loc, &d);
		reader_detail_done(&d);
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
	struct reader_sink sink = { .ctx = &seen, .on_trace = on_trace, .on_execution = on_execution };
	char err[512];
	int steps = 0;

	start_set();
	if (ops->open(dir, &opt, &r, err, sizeof err) != TD_OK)
		return 0;
	(void)ops->index(r, &sink);
	for (size_t off = 0; off + 5 <= size && steps < MAX_STEPS; steps++) {
		int action = data[off] % 5, role = data[off + 1] % 6;
		size_t n = (size_t)data[off + 2] | (size_t)data[off + 3] << 8 |
			   (size_t)data[off + 4] << 16;

		off += 5;
		if (n > size - off)
			n = size - off;
		apply(action, role, data + off, n);
		off += n;
		(void)ops->index(r, &sink);
		for (int k = 0; k < 2; k++) {
			enum reader_kind kind = k ? READER_EXECUTION : READER_TRACE;

			read_back(ops, r, kind, seen.first[k], seen.n[k] < KEEP ? seen.n[k] : KEEP);
			read_back(ops, r, kind, seen.last[k], seen.n[k] < KEEP ? seen.n[k] : KEEP);
		}
	}
	ops->close(r);
	return 0;
}
