/*
 * fuzz_ms_ir_refs.c - libFuzzer target: MindSpore .ir graphs whose op
 * records pass references (issue 13: references that match nothing cost a
 * scan of every record each, O(nodes x refs)).
 *
 * The input is a little program that writes an .ir text: each byte pair
 * makes a parameter, a node with 0-7 references (to earlier or later nodes,
 * parameters, numbers that match nothing, @subgraphs, constants), a
 * full_name_with_scope line or a trace line, so the fuzzer reaches deep
 * reference structure without having to find the .ir syntax itself.  The
 * text is parsed (ms_ir_parse), indexed by name both ways, every node
 * looked up, and merged into a copy parsed again (ms_graph_merge_frames).
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reader/base/util.h"
#include "reader/mindspore/ms_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const op_types[] = { "Add", "MatMul", "Conv2D", "Cast", "ReLU", "Log",
					"Reshape", "make_tuple", "Depend", "UpdateState" };

static void
ref(struct strbuf *sb, uint8_t how, uint8_t v, size_t node, size_t nparams)
{
	switch (how % 8) {
	case 0: strbuf_addf(sb, "%%%zu", node ? v % node : 0); break;     /* earlier node */
	case 1: strbuf_addf(sb, "%%%u", 1000u + v); break;                 /* matches nothing */
	case 2: strbuf_addf(sb, "%%para%zu_w%zu", v % (nparams + 2) + 1, v % (nparams + 2)); break;
	case 3: strbuf_addf(sb, "@kernel_graph_%u", v % 3); break;
	case 4: strbuf_addf(sb, "Tensor(shape=[%u], dtype=Float32, value=%u)", v % 4, v); break;
	case 5: strbuf_addf(sb, "%%%zu", node + v % 4); break;             /* self or later */
	case 6: strbuf_addf(sb, "cst%u", v % 5); break;
	default: strbuf_addf(sb, "%%%u(Op-op%u)", v, v); break;
	}
}

static void
node(struct strbuf *sb, const uint8_t *p, size_t n, size_t idx, size_t nparams)
{
	const char *type = op_types[p[0] % TD_ARRAY_SIZE(op_types)];
	size_t nrefs = p[1] % 8, i;

	strbuf_addf(sb, "  %%%zu(%s-op%zu) = %s(", idx, type, idx, type);
	for (i = 0; i < nrefs && 2 + 2 * i + 1 < n; i++) {
		if (i)
			strbuf_addf(sb, ", ");
		ref(sb, p[2 + 2 * i], p[3 + 2 * i], idx, nparams);
	}
	strbuf_addf(sb, ")%s\n", p[1] & 0x80 ? "" : " primitive_attrs: {format: \"NCHW\"}");
	strbuf_addf(sb, "      : (<Tensor[Float32], (2)>) -> (%s)\n",
		    p[1] & 0x40 ? "<Tuple[<Tensor[Float32], (2)>, <Tensor[UInt8], (2)>]>"
				: "<Tensor[Float32], (2)>");
	if (!(p[0] & 0x80))
		strbuf_addf(sb, "      : full_name_with_scope: (Default/net/%s-op%zu)\n", type,
			    p[0] & 0x40 ? idx % 7 : idx);
	if (p[0] & 0x20)
		strbuf_addf(sb, "      # In file /home/u/train.py(%u)/    x = f(x)/\n",
			    (unsigned)p[1] * 7919u);
}

static char *
program(const uint8_t *data, size_t size, size_t *len)
{
	struct strbuf sb = {0};
	size_t nparams = size ? data[0] % 16 : 0, i, pos = 1, idx = 0;

	strbuf_addf(&sb, "# IR entry      : @kernel_graph_0\n# Params:\n");
	for (i = 0; i < nparams; i++)
		strbuf_addf(&sb, "%%para%zu_w%zu : <Tensor[Float32], (2)>\n", i + 1, i);
	strbuf_addf(&sb, "\nsubgraph @kernel_graph_0() {\n");
	while (pos + 2 <= size) {
		size_t n = TD_MIN(size - pos, 2 + 2 * (size_t)(data[pos + 1] % 8));

		node(&sb, data + pos, n, idx++, nparams);
		pos += n;
	}
	strbuf_addf(&sb, "  return(%%%zu)\n}\n", idx ? idx - 1 : 0);
	*len = sb.len;
	return strbuf_take(&sb);
}

static void
lookups(const struct ms_graph *g)
{
	struct ms_name_ix *by_name = ms_name_index(g, 0, false);
	struct ms_name_ix *by_full = ms_name_index(g, 0, true);
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		if (g->nodes[i].name)
			(void)ms_name_find(by_name, g->nnodes, g->nodes[i].name);
		if (g->nodes[i].full_name) {
			(void)ms_name_find(by_full, g->nnodes, g->nodes[i].full_name);
			if (i < 64)
				(void)ms_graph_find(g, g->nodes[i].full_name);
		}
	}
	free(by_name);
	free(by_full);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ms_graph a, b;
	size_t len;
	char *text = program(data, size, &len);

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	(void)ms_ir_parse(text, len, &a);
	(void)ms_ir_parse(text, len, &b);
	lookups(&a);
	ms_graph_merge_frames(&a, &b);
	ms_graph_done(&a);
	ms_graph_done(&b);
	free(text);
	return 0;
}
