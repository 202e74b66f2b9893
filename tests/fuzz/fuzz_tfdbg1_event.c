/*
 * fuzz_tfdbg1_event.c - libFuzzer target: the files of a tfdbg v1 dump
 * (reader/tfdbg1_event.c, tfdbg1_graph.c, tfdbg1_meta.c): the input is
 * decoded as a tensor dump file for each debug op, as a log-message Event,
 * as a partition graph Event, and as core-metadata JSON text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/tfdbg1/tfdbg1_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ops[] = { "DebugIdentity", "DebugIdentityV3", "DebugNumericSummary",
					   "DebugNanCount", "DebugOther" };
	char err[256];

	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		struct tfdbg1_datum d;
		memset(&d, 0, sizeof d);
		if (tfdbg1_datum_decode(data, size, ops[i], &d, err, sizeof err) == TD_OK)
			tfdbg1_datum_done(&d);
	}
	char *msg = NULL;
	double wt;
	if (tfdbg1_log_message(data, size, &msg, &wt, err, sizeof err) == TD_OK)
		free(msg);
	struct tfdbg1_graph g;
	memset(&g, 0, sizeof g);
	if (tfdbg1_graph_decode(data, size, &g, err, sizeof err) == TD_OK) {
		for (size_t i = 0; i < g.nnodes && i < 64; i++)
			(void)tfdbg1_graph_find(&g, g.nodes[i].name);
		tfdbg1_graph_done(&g);
	}
	/* Core metadata is JSON text: NUL-terminate a copy. */
	char *json = malloc(size + 1);
	if (json) {
		struct tfdbg1_core_meta m;
		memcpy(json, data, size);
		json[size] = 0;
		memset(&m, 0, sizeof m);
		tfdbg1_core_meta_parse(json, &m);
		tfdbg1_core_meta_done(&m);
		free(json);
	}
	return 0;
}
