/*
 * test_tfdbg1_event.c - decoding the Event of one tfdbg v1 file: tensor
 * dumps of several dtypes per debug op, uninitialised tensors, log messages,
 * partition graphs with the debugger's nodes hidden, and bad bytes.  Event
 * bytes are built here with protobuf-c; expected values follow
 * reader/parse/FORMAT.md §3.4, reader/tfdbg1/FORMAT.md §5, §10, §11.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reader/tfdbg1/tfdbg1_internal.h"
#include "tf_event.pb-c.h"

struct shape {
	Tensorflow__TensorShapeProto proto;
	Tensorflow__TensorShapeProto__Dim dims[4];
	Tensorflow__TensorShapeProto__Dim *dimp[4];
};

static void
shape_init(struct shape *s, int rank, const int64_t *dims)
{
	int i;

	tensorflow__tensor_shape_proto__init(&s->proto);
	for (i = 0; i < rank; i++) {
		tensorflow__tensor_shape_proto__dim__init(&s->dims[i]);
		s->dims[i].size = dims[i];
		s->dimp[i] = &s->dims[i];
	}
	s->proto.n_dim = (size_t)rank;
	s->proto.dim = s->dimp;
}

/* Packs Event{wall_time, summary{value{tag, tensor}}}. */
static uint8_t *
pack_tensor_event(Tensorflow__TensorProto *tp, double wall, size_t *len)
{
	Tensorflow__Event ev = TENSORFLOW__EVENT__INIT;
	Tensorflow__Summary sum = TENSORFLOW__SUMMARY__INIT;
	Tensorflow__Summary__Value val = TENSORFLOW__SUMMARY__VALUE__INIT;
	Tensorflow__Summary__Value *vals[1] = { &val };
	uint8_t *buf;

	val.tag = "t";
	val.value_case = TENSORFLOW__SUMMARY__VALUE__VALUE_TENSOR;
	val.tensor = tp;
	sum.n_value = 1;
	sum.value = vals;
	ev.wall_time = wall;
	ev.what_case = TENSORFLOW__EVENT__WHAT_SUMMARY;
	ev.summary = &sum;
	*len = tensorflow__event__get_packed_size(&ev);
	buf = malloc(*len);
	tensorflow__event__pack(&ev, buf);
	return buf;
}

/* Decodes a tensor with raw content bytes as a dump of debug_op. */
static enum td_status
decode_content(int dtype, int rank, const int64_t *dims, const void *content, size_t nbytes,
	       const char *debug_op, struct tfdbg1_datum *d)
{
	Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
	struct shape sh;
	uint8_t *buf;
	size_t len;
	char err[256];
	enum td_status st;

	shape_init(&sh, rank, dims);
	tp.dtype = dtype;
	tp.tensor_shape = &sh.proto;
	tp.tensor_content.data = (uint8_t *)content;
	tp.tensor_content.len = nbytes;
	buf = pack_tensor_event(&tp, 5.0, &len);
	st = tfdbg1_datum_decode(buf, len, debug_op, d, err, sizeof(err));
	free(buf);
	return st;
}

/* ---- tensor dumps -------------------------------------------------- */

static void
test_tfdbg1_event_doc_example_float32(void **state)
{
	/* the 77-byte worked example of reader/tfdbg1/FORMAT.md §12 */
	static const uint8_t bytes[] = {
		0x09, 0x00, 0x89, 0x97, 0x1e, 0xc4, 0xbc, 0x16, 0x43, 0x2a, 0x42, 0x0a, 0x40, 0x0a, 0x0c, 0x64,
		0x65, 0x6e, 0x73, 0x65, 0x2f, 0x4d, 0x61, 0x74, 0x4d, 0x75, 0x6c, 0x3a, 0x1c, 0x64, 0x65, 0x6e,
		0x73, 0x65, 0x2f, 0x4d, 0x61, 0x74, 0x4d, 0x75, 0x6c, 0x3a, 0x30, 0x3a, 0x44, 0x65, 0x62, 0x75,
		0x67, 0x49, 0x64, 0x65, 0x6e, 0x74, 0x69, 0x74, 0x79, 0x42, 0x12, 0x08, 0x01, 0x12, 0x04, 0x12,
		0x02, 0x08, 0x02, 0x22, 0x08, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x20, 0xc0,
	};
	struct tfdbg1_datum d;
	char err[256];

	(void)state;
	assert_int_equal(sizeof(bytes), 77);
	assert_int_equal(tfdbg1_datum_decode(bytes, sizeof(bytes), "DebugIdentity", &d, err, sizeof(err)),
			 TD_OK);
	assert_true(d.wall_time_us == 1600000000123456.0);
	assert_string_equal(d.tag, "dense/MatMul");
	assert_string_equal(d.debug_node, "dense/MatMul:0:DebugIdentity");
	assert_non_null(d.value);
	assert_int_equal(d.value->dtype, DTYPE_FLOAT32);
	assert_int_equal(d.value->n, 2);
	assert_true(td_tensor_get(d.value, 0) == 1.0);
	assert_true(td_tensor_get(d.value, 1) == -2.5);
	assert_int_equal(d.summary.negative, 1);
	assert_int_equal(d.summary.positive, 1);
	assert_false(td_summary_nonfinite(&d.summary));
	tfdbg1_datum_done(&d);
}

static void
test_tfdbg1_event_float64_nonfinite_counts(void **state)
{
	const double v[] = { NAN, INFINITY, -INFINITY, 1.0, 0.0 };
	const int64_t dims[] = { 5 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(2, 1, dims, v, sizeof(v), "DebugIdentity", &d), TD_OK);
	assert_int_equal(d.summary.dtype, DTYPE_FLOAT64);
	assert_int_equal(d.summary.nan, 1);
	assert_int_equal(d.summary.pos_inf, 1);
	assert_int_equal(d.summary.neg_inf, 1);
	assert_int_equal(d.summary.zero, 1);
	assert_true(td_summary_nonfinite(&d.summary));
	tfdbg1_datum_done(&d);
}

static void
test_tfdbg1_event_integer_and_bool_content(void **state)
{
	const int32_t i32[] = { 3, -1, 0 };
	const int64_t i64[] = { -7, 9000000000ll };
	const uint8_t b[] = { 1, 0, 1, 1 };
	const int64_t d3[] = { 3 }, d2[] = { 2 }, d22[] = { 2, 2 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(3, 1, d3, i32, sizeof(i32), "DebugIdentity", &d), TD_OK);
	assert_int_equal(d.value->dtype, DTYPE_INT32);
	assert_true(td_tensor_get(d.value, 1) == -1);
	assert_int_equal(d.summary.negative, 1);
	tfdbg1_datum_done(&d);
	assert_int_equal(decode_content(9, 1, d2, i64, sizeof(i64), "DebugIdentity", &d), TD_OK);
	assert_int_equal(d.value->dtype, DTYPE_INT64);
	assert_true(td_tensor_get(d.value, 1) == 9000000000.0);
	tfdbg1_datum_done(&d);
	assert_int_equal(decode_content(10, 2, d22, b, sizeof(b), "DebugIdentity", &d), TD_OK);
	assert_int_equal(d.value->dtype, DTYPE_BOOL);
	assert_int_equal(d.summary.rank, 2);
	assert_int_equal(d.summary.positive, 3);
	tfdbg1_datum_done(&d);
}

static void
test_tfdbg1_event_half_content_inf(void **state)
{
	const uint16_t h[] = { 0x3c00, 0x7c00 };   /* 1.0, +inf */
	const int64_t dims[] = { 2 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(19, 1, dims, h, sizeof(h), "DebugIdentity", &d), TD_OK);
	assert_int_equal(d.value->dtype, DTYPE_FLOAT16);
	assert_true(td_tensor_get(d.value, 0) == 1.0);
	assert_int_equal(d.summary.pos_inf, 1);
	assert_true(td_summary_nonfinite(&d.summary));
	tfdbg1_datum_done(&d);
}

static void
test_tfdbg1_event_string_val(void **state)
{
	Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
	ProtobufCBinaryData sv[2] = { { 2, (uint8_t *)"ab" }, { 1, (uint8_t *)"c" } };
	const int64_t dims[] = { 2 };
	struct shape sh;
	struct tfdbg1_datum d;
	uint8_t *buf;
	size_t len;
	char err[256];

	(void)state;
	shape_init(&sh, 1, dims);
	tp.dtype = 7;
	tp.tensor_shape = &sh.proto;
	tp.n_string_val = 2;
	tp.string_val = sv;
	buf = pack_tensor_event(&tp, 1, &len);
	assert_int_equal(tfdbg1_datum_decode(buf, len, "DebugIdentity", &d, err, sizeof(err)), TD_OK);
	assert_int_equal(d.value->dtype, DTYPE_STRING);
	assert_string_equal(d.value->strings[0], "ab");
	assert_string_equal(d.value->strings[1], "c");
	assert_false(d.summary.known & SUM_UNINITIALIZED);
	tfdbg1_datum_done(&d);
	free(buf);
}

static void
test_tfdbg1_event_no_data_is_uninitialized_not_zeros(void **state)
{
	const int64_t dims[] = { 3 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(1, 1, dims, NULL, 0, "DebugIdentity", &d), TD_OK);
	assert_null(d.value);
	assert_true(d.summary.known & SUM_UNINITIALIZED);
	assert_int_equal(d.summary.dtype, DTYPE_FLOAT32);
	assert_int_equal(d.summary.elements, 3);
	assert_false(d.summary.known & SUM_ZERO);
	tfdbg1_datum_done(&d);
}

static void
test_tfdbg1_event_zero_elements_is_initialized(void **state)
{
	const int64_t dims[] = { 0, 4 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(1, 2, dims, NULL, 0, "DebugIdentity", &d), TD_OK);
	assert_false(d.summary.known & SUM_UNINITIALIZED);
	assert_non_null(d.value);
	assert_int_equal(d.value->n, 0);
	tfdbg1_datum_done(&d);
}

static void
test_tfdbg1_event_typed_float_val_edge_padding(void **state)
{
	Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
	float fv[] = { 2.5f };
	const int64_t dims[] = { 3 };
	struct shape sh;
	struct tfdbg1_datum d;
	uint8_t *buf;
	size_t len;
	char err[256];

	(void)state;
	shape_init(&sh, 1, dims);
	tp.dtype = 1;
	tp.tensor_shape = &sh.proto;
	tp.n_float_val = 1;
	tp.float_val = fv;
	buf = pack_tensor_event(&tp, 1, &len);
	assert_int_equal(tfdbg1_datum_decode(buf, len, "DebugIdentity", &d, err, sizeof(err)), TD_OK);
	assert_int_equal(d.value->n, 3);
	assert_true(td_tensor_get(d.value, 2) == 2.5);
	tfdbg1_datum_done(&d);
	free(buf);
}

static void
test_tfdbg1_event_nan_count(void **state)
{
	const int64_t eight[] = { 8 }, zero[] = { 0 };
	const int64_t dims[] = { 1 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(9, 1, dims, eight, sizeof(eight), "DebugNanCount", &d), TD_OK);
	assert_null(d.value);
	assert_int_equal(d.nvector, 1);
	assert_true(d.summary.known & SUM_NAN);
	assert_int_equal(d.summary.nan, 8);
	assert_false(d.summary.known & SUM_NEG_INF);   /* says nothing about inf */
	assert_true(td_summary_nonfinite(&d.summary));
	tfdbg1_datum_done(&d);
	assert_int_equal(decode_content(9, 1, dims, zero, sizeof(zero), "DebugNanCount", &d), TD_OK);
	assert_false(td_summary_nonfinite(&d.summary));
	tfdbg1_datum_done(&d);
}

static void
test_tfdbg1_event_numeric_summary_vector(void **state)
{
	const double v[] = { 1, 1, 1, 0, 0, 0, 0, 0, INFINITY, -INFINITY, NAN, NAN, 1, 0 };
	const int64_t dims[] = { 14 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(2, 1, dims, v, sizeof(v), "DebugNumericSummary", &d), TD_OK);
	assert_null(d.value);
	assert_int_equal(d.nvector, 14);
	assert_true(isinf(d.vector[8]));
	assert_non_null(d.layout);
	assert_int_equal(d.summary.nan, 1);
	assert_int_equal(d.summary.elements, 1);
	assert_int_equal(d.summary.dtype, DTYPE_FLOAT32);
	assert_int_equal(d.summary.rank, 0);
	assert_true(td_summary_nonfinite(&d.summary));
	tfdbg1_datum_done(&d);
}

static void
test_tfdbg1_event_summary_op_with_string_tensor_has_no_vector(void **state)
{
	Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
	ProtobufCBinaryData sv[1] = { { 1, (uint8_t *)"x" } };
	struct tfdbg1_datum d;
	uint8_t *buf;
	size_t len;
	char err[256];

	(void)state;
	tp.dtype = 7;
	tp.n_string_val = 1;
	tp.string_val = sv;
	buf = pack_tensor_event(&tp, 1, &len);
	assert_int_equal(tfdbg1_datum_decode(buf, len, "DebugNanCount", &d, err, sizeof(err)), TD_OK);
	assert_int_equal(d.nvector, 0);
	assert_false(d.summary.known & SUM_NAN);
	tfdbg1_datum_done(&d);
	assert_int_equal(tfdbg1_datum_decode(buf, len, "DebugNumericSummary", &d, err, sizeof(err)),
			 TD_OK);
	assert_int_equal(d.nvector, 0);
	assert_null(d.layout);
	tfdbg1_datum_done(&d);
	free(buf);
}

static void
test_tfdbg1_event_unknown_debug_op_is_raw(void **state)
{
	const float v[] = { NAN, 1.0f };
	const int64_t dims[] = { 2 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(1, 1, dims, v, sizeof(v), "DebugSomethingNew", &d), TD_OK);
	assert_non_null(d.value);                 /* shown as dumped */
	assert_int_equal(d.summary.elements, 2);
	assert_false(d.summary.known & SUM_NAN);  /* but no claim about the watched tensor */
	assert_false(td_summary_nonfinite(&d.summary));
	tfdbg1_datum_done(&d);
}

/* ---- bad bytes and other Events ------------------------------------ */

static void
test_tfdbg1_event_garbage_is_decode_error(void **state)
{
	const uint8_t junk[] = { 0xff, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x99 };
	struct tfdbg1_datum d;
	char err[256] = "";

	(void)state;
	assert_int_equal(tfdbg1_datum_decode(junk, sizeof(junk), "DebugIdentity", &d, err, sizeof(err)),
			 TD_ERR_DECODE);
	assert_true(strlen(err) > 0);
	assert_null(d.value);
}

static void
test_tfdbg1_event_content_size_mismatch_is_corrupt(void **state)
{
	const float v[] = { 1.0f, 2.0f };
	const int64_t dims[] = { 3 };
	struct tfdbg1_datum d;

	(void)state;
	assert_int_equal(decode_content(1, 1, dims, v, sizeof(v), "DebugIdentity", &d), TD_ERR_CORRUPT);
	assert_null(d.value);
}

static void
test_tfdbg1_event_log_message(void **state)
{
	Tensorflow__Event ev = TENSORFLOW__EVENT__INIT;
	Tensorflow__LogMessage lm = TENSORFLOW__LOG_MESSAGE__INIT;
	struct tfdbg1_datum d;
	uint8_t buf[128];
	size_t len;
	char err[256], *msg;
	double wall = 0;

	(void)state;
	lm.message = "{\"global_step\":-1}";
	ev.wall_time = 1700000000492602.0;
	ev.what_case = TENSORFLOW__EVENT__WHAT_LOG_MESSAGE;
	ev.log_message = &lm;
	len = tensorflow__event__pack(&ev, buf);
	assert_int_equal(tfdbg1_log_message(buf, len, &msg, &wall, err, sizeof(err)), TD_OK);
	assert_string_equal(msg, "{\"global_step\":-1}");
	assert_true(wall == 1700000000492602.0);
	free(msg);
	/* a log message is not a tensor dump */
	assert_int_equal(tfdbg1_datum_decode(buf, len, "DebugIdentity", &d, err, sizeof(err)),
			 TD_ERR_DECODE);
}

/* ---- partition graphs ---------------------------------------------- */

static uint8_t *
pack_graph_event(Tensorflow__NodeDef **nodes, size_t n, size_t *len)
{
	Tensorflow__GraphDef gd = TENSORFLOW__GRAPH_DEF__INIT;
	Tensorflow__Event ev = TENSORFLOW__EVENT__INIT;
	uint8_t *g, *buf;

	gd.n_node = n;
	gd.node = nodes;
	ev.graph_def.len = tensorflow__graph_def__get_packed_size(&gd);
	g = malloc(ev.graph_def.len);
	tensorflow__graph_def__pack(&gd, g);
	ev.graph_def.data = g;
	ev.what_case = TENSORFLOW__EVENT__WHAT_GRAPH_DEF;
	ev.wall_time = 7;
	*len = tensorflow__event__get_packed_size(&ev);
	buf = malloc(*len);
	tensorflow__event__pack(&ev, buf);
	free(g);
	return buf;
}

static void
node_init(Tensorflow__NodeDef *nd, const char *name, const char *op, char **inputs, size_t n)
{
	tensorflow__node_def__init(nd);
	nd->name = (char *)name;
	nd->op = (char *)op;
	nd->device = "/job:localhost/replica:0/task:0/device:CPU:0";
	nd->input = inputs;
	nd->n_input = n;
}

static void
test_tfdbg1_graph_hides_debugger_nodes_and_rewires(void **state)
{
	/* split:1 -> (copy) -> b; a -> (copy) -> b, with debug nodes and a
	 * control input, the way DebugNodeInserter wires them (FORMAT.md §11) */
	char *b_in[] = { "__copy_a_0", "__copy_split_1", "^__dbg_a:0_0_DebugIdentity", "^c" };
	char *ca_in[] = { "a" }, *cs_in[] = { "split:1" };
	char *da_in[] = { "__copy_a_0" }, *ds_in[] = { "__copy_split_1" };
	Tensorflow__NodeDef nd[7], *np[7];
	struct tfdbg1_graph g;
	const struct tfdbg1_graph_node *b, *split;
	uint8_t *buf;
	size_t len, i;
	char err[256];

	(void)state;
	node_init(&nd[0], "a", "Const", NULL, 0);
	node_init(&nd[1], "split", "Split", NULL, 0);
	node_init(&nd[2], "b", "AddV2", b_in, 4);
	node_init(&nd[3], "__copy_a_0", "Copy", ca_in, 1);
	node_init(&nd[4], "__copy_split_1", "Copy", cs_in, 1);
	node_init(&nd[5], "__dbg_a:0_0_DebugIdentity", "DebugIdentity", da_in, 1);
	node_init(&nd[6], "__dbg_split:1_0_DebugNanCount", "DebugNanCount", ds_in, 1);
	for (i = 0; i < 7; i++)
		np[i] = &nd[i];
	buf = pack_graph_event(np, 7, &len);
	assert_int_equal(tfdbg1_graph_decode(buf, len, &g, err, sizeof(err)), TD_OK);
	assert_int_equal(g.nnodes, 3);
	assert_int_equal(g.ncopy, 2);
	assert_int_equal(g.ndebug, 2);
	assert_true(g.wall_time_us == 7);
	b = tfdbg1_graph_find(&g, "b");
	assert_non_null(b);
	assert_string_equal(b->op, "AddV2");
	assert_int_equal(b->ninputs, 2);
	assert_string_equal(b->inputs[0], "a:0");
	assert_string_equal(b->inputs[1], "split:1");
	split = tfdbg1_graph_find(&g, "split");
	assert_int_equal(split->num_outputs, 2);
	assert_null(tfdbg1_graph_find(&g, "__copy_a_0"));
	tfdbg1_graph_done(&g);
	free(buf);
}

static void
test_tfdbg1_graph_event_without_graph_is_error(void **state)
{
	const float v[] = { 1.0f };
	Tensorflow__TensorProto tp = TENSORFLOW__TENSOR_PROTO__INIT;
	struct tfdbg1_graph g;
	uint8_t *buf;
	size_t len;
	char err[256];

	(void)state;
	tp.dtype = 1;
	tp.tensor_content.data = (uint8_t *)v;
	tp.tensor_content.len = sizeof(v);
	buf = pack_tensor_event(&tp, 1, &len);
	assert_int_equal(tfdbg1_graph_decode(buf, len, &g, err, sizeof(err)), TD_ERR_DECODE);
	assert_int_equal(g.nnodes, 0);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tfdbg1_event_doc_example_float32),
		cmocka_unit_test(test_tfdbg1_event_float64_nonfinite_counts),
		cmocka_unit_test(test_tfdbg1_event_integer_and_bool_content),
		cmocka_unit_test(test_tfdbg1_event_half_content_inf),
		cmocka_unit_test(test_tfdbg1_event_string_val),
		cmocka_unit_test(test_tfdbg1_event_no_data_is_uninitialized_not_zeros),
		cmocka_unit_test(test_tfdbg1_event_zero_elements_is_initialized),
		cmocka_unit_test(test_tfdbg1_event_typed_float_val_edge_padding),
		cmocka_unit_test(test_tfdbg1_event_nan_count),
		cmocka_unit_test(test_tfdbg1_event_numeric_summary_vector),
		cmocka_unit_test(test_tfdbg1_event_summary_op_with_string_tensor_has_no_vector),
		cmocka_unit_test(test_tfdbg1_event_unknown_debug_op_is_raw),
		cmocka_unit_test(test_tfdbg1_event_garbage_is_decode_error),
		cmocka_unit_test(test_tfdbg1_event_content_size_mismatch_is_corrupt),
		cmocka_unit_test(test_tfdbg1_event_log_message),
		cmocka_unit_test(test_tfdbg1_graph_hides_debugger_nodes_and_rewires),
		cmocka_unit_test(test_tfdbg1_graph_event_without_graph_is_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
