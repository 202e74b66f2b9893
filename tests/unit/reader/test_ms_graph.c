/*
 * test_ms_graph.c - the debugger graph .pb (lenet_graph.pb facts from the
 * fixture README) and the .ir parser (trace lines in every LOC form).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "reader/mindspore/ms_internal.h"
#include "reader/parse/npy.h"

#define FIX "tests/fixtures/mindspore/"
#define GRAPHS FIX "sync_lenet/rank_0/graphs/"
#define MATMUL10 "Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10"

static void
load_pb(const char *path, struct ms_graph *g)
{
	uint8_t *buf;
	size_t len;
	char err[256] = "";

	assert_int_equal(npy_slurp(path, &buf, &len), TD_OK);
	if (ms_graph_decode(buf, len, g, err, sizeof err) != TD_OK)
		fail_msg("%s: %s", path, err);
	free(buf);
}

static size_t
count_type(const struct ms_graph *g, const char *type)
{
	size_t i, n = 0;

	for (i = 0; i < g->nnodes; i++)
		n += strcmp(g->nodes[i].op_type, type) == 0;
	return n;
}

static bool
is_param(const struct ms_graph *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nparams; i++)
		if (strcmp(g->params[i], name) == 0)
			return true;
	return false;
}

static void
test_ms_graph_lenet_pb_bare_graph_facts(void **state)
{
	struct ms_graph g;

	(void)state;
	load_pb(FIX "lenet_graph.pb", &g);
	assert_false(g.model_proto);
	assert_string_equal(g.name, "kernel_graph_0");
	assert_int_equal(g.nnodes, 104);
	assert_int_equal(g.nparams, 20);
	assert_int_equal(g.nconsts, 37);
	assert_string_equal(g.consts[0], "cst1");
	assert_string_equal(g.consts[36], "cst37");
	assert_string_equal(g.nodes[103].full_name, "Default/make_tuple-op284");
	assert_int_equal(count_type(&g, "tuple_getitem"), 26);
	assert_int_equal(count_type(&g, "Cast"), 13);
	assert_int_equal(count_type(&g, "make_tuple"), 10);
	assert_int_equal(count_type(&g, "MatMul"), 9);
	assert_int_equal(count_type(&g, "Depend"), 9);
	assert_int_equal(count_type(&g, "ApplyMomentum"), 8);
	assert_int_equal(count_type(&g, "Conv2D"), 2);
	assert_int_equal(count_type(&g, "ReduceMean"), 1);
	assert_true(is_param(&g, "conv1.weight"));
	assert_true(is_param(&g, "args0"));
	ms_graph_done(&g);
}

static void
test_ms_graph_lenet_pb_inputs_resolve_to_names(void **state)
{
	struct ms_graph g;
	size_t i, k, edges = 0;
	int64_t conv;

	(void)state;
	load_pb(FIX "lenet_graph.pb", &g);
	for (i = 0; i < g.nnodes; i++) {
		assert_int_equal(g.nodes[i].nframes, 0);   /* no source_address */
		for (k = 0; k < g.nodes[i].ninputs; k++, edges++) {
			char *in = xstrdup(g.nodes[i].inputs[k]), *colon = strrchr(in, ':');

			if (colon)   /* "producer:K" through a tuple_getitem */
				*colon = '\0';
			assert_true(ms_graph_find(&g, in) >= 0 || is_param(&g, in) ||
				    strncmp(in, "cst", 3) == 0);
			free(in);
		}
	}
	assert_int_equal(edges, 215);
	conv = ms_graph_find(&g, "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op1");
	assert_true(conv >= 0);
	assert_int_equal(g.nodes[conv].ninputs, 2);
	assert_string_equal(g.nodes[conv].scope, "Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d");
	ms_graph_done(&g);
}

static void
test_ms_graph_lenet_pb_tuple_getitem_consumers_read_producer_slots(void **state)
{
	struct ms_graph g;
	int64_t conv2;

	(void)state;
	load_pb(FIX "lenet_graph.pb", &g);
	/* conv2 reads output 0 of the first MaxPoolWithArgmax (via tuple_getitem, cst index) */
	conv2 = ms_graph_find(&g, "Default/network-WithLossCell/_backbone-LeNet5/conv2-Conv2d/Conv2D-op5");
	assert_true(conv2 >= 0);
	assert_string_equal(g.nodes[conv2].inputs[0],
			    "Default/network-WithLossCell/_backbone-LeNet5/max_pool2d-MaxPool2d/"
			    "MaxPoolWithArgmax-op3:0");
	ms_graph_done(&g);
}

static void
test_ms_graph_pb_that_is_no_graph_is_a_decode_error(void **state)
{
	const uint8_t junk[] = { 0x08, 0x01, 0xff, 0xff, 0xff };
	struct ms_graph g;
	char err[128];

	(void)state;
	assert_int_equal(ms_graph_decode(junk, sizeof junk, &g, err, sizeof err), TD_ERR_DECODE);
	ms_graph_done(&g);
}

static void
test_ms_graph_sync_pb_model_proto_with_source_address(void **state)
{
	struct ms_graph g;
	int64_t i;

	(void)state;
	load_pb(GRAPHS "ms_output_trace_code_graph_0.pb", &g);
	assert_true(g.model_proto);
	assert_int_equal(g.nnodes, 17);
	i = ms_graph_find(&g, MATMUL10);
	assert_true(i >= 0);
	assert_string_equal(g.nodes[i].op_type, "MatMul");
	assert_int_equal(g.nodes[i].nframes, 2);
	/* Outermost first: the user's line, then the framework's. */
	assert_true(strstr(g.nodes[i].frames[0].file, "train_lenet.py") != NULL);
	assert_int_equal(g.nodes[i].frames[0].line, 26);
	assert_string_equal(g.nodes[i].frames[0].code, "        x = self.fc1(x)");
	ms_graph_done(&g);
}

static void
test_ms_ir_fixture_nodes_names_inputs_frames(void **state)
{
	struct ms_graph g = {0};
	uint8_t *buf;
	size_t len;
	int64_t i;

	(void)state;
	assert_int_equal(npy_slurp(GRAPHS "ms_output_trace_code_graph_0.ir", &buf, &len), TD_OK);
	assert_int_equal(ms_ir_parse((const char *)buf, len, &g), 17);
	free(buf);
	assert_string_equal(g.name, "kernel_graph_0");
	assert_int_equal(g.nparams, 7);
	assert_string_equal(g.params[2], "conv1.weight");
	i = ms_graph_find(&g, MATMUL10);
	assert_true(i >= 0);
	assert_string_equal(g.nodes[i].op_type, "MatMul");
	assert_int_equal(g.nodes[i].ninputs, 2);
	assert_string_equal(g.nodes[i].inputs[0],
			    "Default/network-WithLossCell/_backbone-LeNet5/flatten-Flatten/Reshape-op9");
	assert_string_equal(g.nodes[i].inputs[1], "fc1.weight");
	assert_int_equal(g.nodes[i].nframes, 2);
	/* The fixture prints the framework frame first; stacks are kept
	 * outermost first, so the user's call comes first. */
	assert_string_equal(g.nodes[i].frames[1].file,
			    "/usr/local/lib/python3.9/site-packages/mindspore/nn/layer/basic.py");
	assert_int_equal(g.nodes[i].frames[1].line, 624);
	assert_false(ms_path_is_user_code(g.nodes[i].frames[1].file));
	assert_string_equal(g.nodes[i].frames[0].file, "/home/user/lenet/train_lenet.py");
	assert_true(ms_path_is_user_code(g.nodes[i].frames[0].file));
	assert_int_equal(g.nodes[i].frames[0].line, 26);
	assert_int_equal(g.nodes[i].num_outputs, 1);
	/* "-> (<Tuple[<Tensor...>, <Tensor...>]>)": two outputs */
	i = ms_graph_find(&g, "Default/network-WithLossCell/_backbone-LeNet5/relu-ReLU/ReLUV2-op87");
	assert_true(i >= 0);
	assert_int_equal(g.nodes[i].num_outputs, 2);
	ms_graph_done(&g);
}

static void
test_ms_graph_merge_frames_adds_output_counts(void **state)
{
	struct ms_graph pb, ir = {0};
	uint8_t *buf;
	size_t len;
	int64_t i;

	(void)state;
	load_pb(GRAPHS "ms_output_trace_code_graph_0.pb", &pb);
	i = ms_graph_find(&pb, "Default/network-WithLossCell/_backbone-LeNet5/max_pool2d-MaxPool2d/"
			  "MaxPoolWithArgmax-op3");
	assert_true(i >= 0);
	assert_int_equal(pb.nodes[i].num_outputs, 1);   /* this .pb has no tuple types */
	assert_int_equal(npy_slurp(GRAPHS "ms_output_trace_code_graph_0.ir", &buf, &len), TD_OK);
	ms_ir_parse((const char *)buf, len, &ir);
	free(buf);
	ms_graph_merge_frames(&pb, &ir);
	assert_int_equal(pb.nodes[i].num_outputs, 2);
	assert_int_equal(pb.nodes[i].nframes, 1);
	ms_graph_done(&pb);
	ms_graph_done(&ir);
}

static void
check_trace(const char *line, const char *file, uint32_t lineno, const char *code)
{
	struct ms_frame f;

	if (!ms_ir_parse_trace(line, strlen(line), &f))
		fail_msg("not parsed: %s", line);
	assert_string_equal(f.file, file);
	assert_int_equal(f.line, lineno);
	if (code)
		assert_string_equal(f.code, code);
	else
		assert_null(f.code);
	ms_frame_done(&f);
}

static void
test_ms_ir_trace_line_v1_parenthesis(void **state)
{
	(void)state;
	check_trace("      # In file ./train_alexnet.py(175)/        x = self.conv3(x)/",
		    "./train_alexnet.py", 175, "        x = self.conv3(x)");
}

static void
test_ms_ir_trace_line_v2_colon(void **state)
{
	(void)state;
	check_trace("      # In file /path/x.py:175/        x = self.conv3(x)/", "/path/x.py", 175,
		    "        x = self.conv3(x)");
}

static void
test_ms_ir_trace_line_newest_columns_and_ranges(void **state)
{
	(void)state;
	check_trace("      # In file test_ir.py:16, 12~25/        a = ops.sub(x, 1)/", "test_ir.py", 16,
		    "        a = ops.sub(x, 1)");
	check_trace("      # In file test_ir.py:15~20, 4~16/    def construct(self, x, y):/",
		    "test_ir.py", 15, "    def construct(self, x, y):");
}

static void
test_ms_ir_trace_line_shared_marker_and_missing_code(void **state)
{
	(void)state;
	check_trace("# In file a.py:3/    y = f(x)/<~~This line of code can be shared by multiple "
		    "nodes, and may be duplicated./", "a.py", 3, "    y = f(x)");
	check_trace("      # In file x.py:16/", "x.py", 16, NULL);
	check_trace("      # In file x.py(16)/", "x.py", 16, NULL);
}

static void
test_ms_ir_trace_line_windows_path_with_colon(void **state)
{
	(void)state;
	check_trace("# In file C:\\work\\net.py:42/    return x/", "C:\\work\\net.py", 42,
		    "    return x");
}

/* Issue 23 item 20: "%-1" and "%99999999999999999999" are no node number
 * (strtoul took the first as ULONG_MAX and the second overflowed): kept
 * as written and counted for a problem; "%0" still resolves. */
static void
test_ms_ir_bad_references_are_counted(void **state)
{
	const char *ir =
		"subgraph @g() {\n"
		"  %0(CNode_1) = Abs(%-1)\n"
		"      # Fullname with scope: (Default/Abs-op0)\n"
		"  %1(CNode_2) = Mul(%0, %99999999999999999999)\n"
		"      # Fullname with scope: (Default/Mul-op1)\n"
		"}\n";
	struct ms_graph g = {0};

	(void)state;
	assert_int_equal(ms_ir_parse(ir, strlen(ir), &g), 2);
	assert_int_equal(g.bad_refs, 2);
	assert_string_equal(g.first_bad_ref, "%-1");
	assert_string_equal(g.nodes[0].inputs[0], "%-1");
	assert_string_equal(g.nodes[1].inputs[0], "Default/Abs-op0");
	assert_string_equal(g.nodes[1].inputs[1], "%99999999999999999999");
	ms_graph_done(&g);
}

static void
test_ms_ir_newest_fullname_marker_and_primfunc(void **state)
{
	const char *ir =
		"# IR entry      : @g\n"
		"%para1_x : <Tensor[Float32], ()>\n"
		"subgraph @g() {\n"
		"  %0(CNode_69$a) = PrimFunc_Sub(%para1_x, Tensor(shape=[], dtype=Float32, value=1)) "
		"cnode_attrs: {a: b}\n"
		"      : (<Tensor[Float32], ()>) -> (<Tensor[Float32], ()>)\n"
		"      # Fullname with scope: (Default/Sub-op0)\n"
		"      # In file test_ir.py:15~20, 4~16/    def construct(self, x, y):/\n"
		"      # In file test_ir.py:16, 12~25/        a = ops.sub(x, 1)/\n"
		"  %1(CNode_70) = Mul(%0, %0)\n"
		"      # Fullname with scope: (Default/Mul-op1)\n"
		"  Return(%1)\n"
		"}\n";
	struct ms_graph g = {0};

	(void)state;
	assert_int_equal(ms_ir_parse(ir, strlen(ir), &g), 2);
	assert_string_equal(g.nodes[0].full_name, "Default/Sub-op0");
	assert_string_equal(g.nodes[0].op_type, "Sub");
	assert_string_equal(g.nodes[0].scope, "Default");
	assert_int_equal(g.nodes[0].ninputs, 1);
	assert_string_equal(g.nodes[0].inputs[0], "x");
	assert_int_equal(g.nodes[0].nframes, 2);
	assert_int_equal(g.nodes[0].frames[1].line, 16);
	assert_string_equal(g.nodes[1].inputs[1], "Default/Sub-op0");
	assert_int_equal(g.nodes[1].nframes, 0);
	ms_graph_done(&g);
}

/* Op details: .ir primitive_attrs become name/value pairs (values as
 * written, nested brackets and quoted commas kept), the first type line
 * the output type; a tuple output stays unknown. */
static void
test_ms_ir_attributes_and_output_types(void **state)
{
	const char *ir =
		"subgraph @g() {\n"
		"  %0(MatMul-op10) = MatMul(%para1_x, %para2_w) primitive_attrs: {format: \"NC,HW\", "
		"input_names: [x1, x2], transpose_a: false} cnode_attrs: {a: b}\n"
		"      : (<Tensor[Float32], (2, 400)>) -> (<Tensor[Float32], (2, 120)>)\n"
		"      : (<Float16xNC1HWC0[const vector][32, 16]>) -> (<Tensor[Float16], (9)>)\n"
		"      # Fullname with scope: (Default/MatMul-op10)\n"
		"  %1(T-op1) = Split(%0)\n"
		"      : (<Tensor[Float32], (2, 120)>) -> (<Tuple[Tensor[Float32],Tensor[Float32]]>)\n"
		"  Return(%1)\n"
		"}\n";
	struct ms_graph g = {0};

	(void)state;
	assert_int_equal(ms_ir_parse(ir, strlen(ir), &g), 2);
	assert_int_equal(g.nodes[0].nattrs, 3);
	assert_string_equal(g.nodes[0].attrs[0].name, "format");
	assert_string_equal(g.nodes[0].attrs[0].value, "\"NC,HW\"");
	assert_string_equal(g.nodes[0].attrs[1].name, "input_names");
	assert_string_equal(g.nodes[0].attrs[1].value, "[x1, x2]");
	assert_string_equal(g.nodes[0].attrs[2].value, "false");
	assert_int_equal(g.nodes[0].notypes, 1);        /* the first type line only */
	assert_int_equal(g.nodes[0].otypes[0].dtype, DTYPE_FLOAT32);
	assert_int_equal(g.nodes[0].otypes[0].rank, 2);
	assert_int_equal(g.nodes[0].otypes[0].dims[0], 2);
	assert_int_equal(g.nodes[0].otypes[0].dims[1], 120);
	assert_int_equal(g.nodes[1].nattrs, 0);
	assert_int_equal(g.nodes[1].notypes, 0);        /* a tuple: unknown */
	ms_graph_done(&g);
}

/* The sync_lenet .pb records MatMul-op10's output float32 (2, 120) and the
 * attribute format "NCHW" (as its .ir shows). */
static void
test_ms_graph_pb_attributes_and_output_type(void **state)
{
	struct ms_graph g;
	int64_t i;

	(void)state;
	load_pb(GRAPHS "ms_output_trace_code_graph_0.pb", &g);
	i = ms_graph_find(&g, MATMUL10);
	assert_true(i >= 0);
	assert_int_equal(g.nodes[i].notypes, 1);
	assert_int_equal(g.nodes[i].otypes[0].dtype, DTYPE_FLOAT32);
	assert_int_equal(g.nodes[i].otypes[0].rank, 2);
	assert_int_equal(g.nodes[i].otypes[0].dims[1], 120);
	assert_true(g.nodes[i].nattrs >= 1);
	assert_string_equal(g.nodes[i].attrs[0].name, "format");
	assert_string_equal(g.nodes[i].attrs[0].value, "\"NCHW\"");
	ms_graph_done(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ms_graph_lenet_pb_bare_graph_facts),
		cmocka_unit_test(test_ms_graph_lenet_pb_inputs_resolve_to_names),
		cmocka_unit_test(test_ms_graph_lenet_pb_tuple_getitem_consumers_read_producer_slots),
		cmocka_unit_test(test_ms_graph_pb_that_is_no_graph_is_a_decode_error),
		cmocka_unit_test(test_ms_graph_sync_pb_model_proto_with_source_address),
		cmocka_unit_test(test_ms_ir_fixture_nodes_names_inputs_frames),
		cmocka_unit_test(test_ms_graph_merge_frames_adds_output_counts),
		cmocka_unit_test(test_ms_ir_trace_line_v1_parenthesis),
		cmocka_unit_test(test_ms_ir_trace_line_v2_colon),
		cmocka_unit_test(test_ms_ir_trace_line_newest_columns_and_ranges),
		cmocka_unit_test(test_ms_ir_trace_line_shared_marker_and_missing_code),
		cmocka_unit_test(test_ms_ir_trace_line_windows_path_with_colon),
		cmocka_unit_test(test_ms_ir_newest_fullname_marker_and_primfunc),
		cmocka_unit_test(test_ms_ir_bad_references_are_counted),
		cmocka_unit_test(test_ms_ir_attributes_and_output_types),
		cmocka_unit_test(test_ms_graph_pb_attributes_and_output_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
