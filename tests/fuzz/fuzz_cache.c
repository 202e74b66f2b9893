/*
 * fuzz_cache.c - libFuzzer target: the persistent index's reader
 * (model/model_cache*.c and the tfdbg v2 reader's load_state) on any bytes.
 *
 * The input is a whole cache file (header, sections).  It is applied to a
 * model opened on the fixture tests/fixtures/tfdbg2/mnist_nan (run from the
 * top of the repository, as run.sh and replay.sh do) with the checksum and
 * the fingerprints not checked, so the fuzzer reaches the section parsers
 * rather than the CRC.  A refused input is fine; an accepted one must give
 * a model that answers: the resumed index pass runs, then info, alerts,
 * first-nonfinite, origins, rows at both ends, ops, graphs, frames and
 * sources are read.  The sanitizers are the checks.  The seeds (seeds.py)
 * are cache files tdbg wrote for the fixtures.  An input that starts with
 * the index's magic gets this build's format, layout and version stamped
 * on its header first (mc_header_restamp), so that seeds written before a
 * format bump still reach the section parsers; the other header checks
 * (magic, stale mark, length, checksum) are still the fuzzer's to reach.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_cache.h"
#include "reader/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define DUMP "tests/fixtures/tfdbg2/mnist_nan"

static void
read_rows(struct model *m)
{
	uint64_t n = model_trace_count(m), i;
	struct model_trace t;
	struct model_execution e;

	for (i = 0; i < n && i < 32; i++)
		model_trace_get(m, i, &t);
	for (i = n > 32 ? n - 32 : 0; i < n; i++)
		model_trace_get(m, i, &t);
	n = model_execution_count(m);
	for (i = 0; i < n && i < 32; i++)
		model_execution_get(m, i, &e);
}

static void
read_tables(struct model *m)
{
	struct model_op op;
	struct model_graph g;
	struct model_frame f;
	struct model_source s;
	uint32_t i;

	for (i = 0; i < model_op_count(m) && i < 256; i++)
		model_op_get(m, i, &op);
	for (i = 0; i < model_graph_count(m); i++)
		model_graph_get(m, i, &g);
	for (i = 0; i < model_frame_count(m) && i < 256; i++)
		model_frame_get(m, i, &f);
	for (i = 0; i < model_source_count(m); i++)
		model_source_get(m, i, &s);
}

static void
read_alerts(struct model *m)
{
	struct model_alert a;
	struct model_alert_group groups[16];
	struct model_origins_query q = { .step = -1 };
	struct model_origin *o = NULL;
	struct model_info info;
	struct model_problem p;
	uint64_t i;
	size_t n;

	model_info(m, &info);
	for (i = 0; i < model_alert_count(m) && i < 16; i++)
		model_alert_get(m, i, &a);
	model_alert_groups(m, groups, 16);
	model_first_nonfinite(m, &a);
	for (i = 0; i < model_problem_count(m); i++)
		model_problem_get(m, i, &p);
	n = model_origins(m, &q, &o);
	model_origins_free(o, n);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model *m;
	char err[256];
	uint8_t *copy = NULL;
	enum td_status st;

	if (size >= MC_HEADER_BYTES && memcmp(data, "TDBGIDX", 8) == 0) {
		copy = malloc(size);
		if (!copy)
			return 0;
		memcpy(copy, data, size);
		mc_header_restamp(copy);
		data = copy;
	}
	st = model_open_cache_bytes(&tfdbg2_reader_ops, DUMP, data, size, &m, err, sizeof err);
	if (st == TD_OK) {
		read_rows(m);
		read_tables(m);
		read_alerts(m);
		model_close(m);
	}
	free(copy);
	return 0;
}
