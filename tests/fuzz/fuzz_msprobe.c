/*
 * fuzz_msprobe.c - libFuzzer target: the msprobe reader (reader/msprobe/)
 * over arbitrary files.  The input is split at the first two 0xff bytes
 * into dump.json, stack.json and construct.json of one rank folder
 * (step0/rank0/); the directory is opened, indexed, and every trace,
 * execution and source it announced (up to 64 each) is decoded and
 * advanced.  Invalid UTF-8, NaN tokens, deep nesting and cuts at any byte
 * come from the mutations; nothing may crash, hang or leak.  An input of
 * odd length is parsed on the ahead thread (msp_ahead_min 0), an even one
 * on the index thread alone.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader/reader.h"
#include "reader/msprobe/msp_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static char dir[64], rank[128];
static const char *const names[3] = { "dump.json", "stack.json", "construct.json" };

static void
cleanup(void)
{
	char path[256];

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", rank, names[i]);
		unlink(path);
	}
	rmdir(rank);
	snprintf(path, sizeof path, "%s/step0", dir);
	rmdir(path);
	rmdir(dir);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[128];

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof dir, "%s/tdbg-fuzz-msprobe.XXXXXX", "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(path, sizeof path, "%s/step0", dir);
	mkdir(path, 0700);
	snprintf(rank, sizeof rank, "%s/rank0", path);
	mkdir(rank, 0700);
	atexit(cleanup);
	return 0;
}

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

static void
decode_all(const struct reader_ops *ops, struct reader *r, enum reader_kind kind,
	   const struct td_locator *locs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct reader_detail d;
		struct td_locator l = locs[i];

		ops->decode(r, kind, &l, &d);
		reader_detail_done(&d);
		ops->advance(r, kind, &l, 1);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct reader_ops *ops = &msprobe_reader_ops;
	struct reader_options opt = { .may_follow = true };
	struct seen seen = { 0 };
	struct reader_sink sink = { .ctx = &seen, .on_trace = on_trace,
				    .on_execution = on_execution, .on_source = on_source };
	struct reader *r;
	char err[256], path[256];
	size_t start = 0;

	for (int i = 0; i < 3; i++) {
		const uint8_t *end = i < 2 ? memchr(data + start, 0xff, size - start) : NULL;
		size_t len = end ? (size_t)(end - (data + start)) : size - start;
		FILE *fp;

		snprintf(path, sizeof path, "%s/%s", rank, names[i]);
		if (!(fp = fopen(path, "wb")))
			abort();
		fwrite(data + start, 1, len, fp);
		fclose(fp);
		start += len + (end ? 1 : 0);
	}
	msp_ahead_min = size % 2 ? 0 : SIZE_MAX;
	if (ops->open(dir, &opt, &r, err, sizeof err) != TD_OK)
		return 0;
	ops->index(r, &sink);
	ops->index(r, &sink);          /* a follow pass over the same bytes */
	decode_all(ops, r, READER_TRACE, seen.traces, seen.ntraces);
	decode_all(ops, r, READER_EXECUTION, seen.execs, seen.nexecs);
	decode_all(ops, r, READER_SOURCE, seen.sources, seen.nsources);
	ops->close(r);
	return 0;
}
