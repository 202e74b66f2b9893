/*
 * fuzz_ms_proto.c - libFuzzer target: MindSpore graph files (reader/ms_graph.c
 * and ms_ir.c): the input is decoded as a graph .pb (ModelProto or bare
 * GraphProto) and parsed as .ir text; the second graph's frames are merged
 * into the first and every node looked up by name.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/mindspore/ms_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_graph pb, ir;
	struct ms_frame f;
	char err[256];
	char *text = malloc(size ? size : 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	memset(&pb, 0, sizeof pb);
	memset(&ir, 0, sizeof ir);
	(void)ms_graph_decode(data, size, &pb, err, sizeof err);
	(void)ms_ir_parse(text, size, &ir);
	ms_graph_merge_frames(&pb, &ir);
	for (size_t i = 0; i < ir.nnodes && i < 256; i++)
		if (ir.nodes[i].full_name)
			(void)ms_graph_find(&pb, ir.nodes[i].full_name);
	memset(&f, 0, sizeof f);
	if (ms_ir_parse_trace(text, size, &f))
		ms_frame_done(&f);
	ms_graph_done(&pb);
	ms_graph_done(&ir);
	free(text);
	return 0;
}
