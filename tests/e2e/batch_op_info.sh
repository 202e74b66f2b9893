#!/usr/bin/env bash
# batch_op_info.sh - issue 17 item 2: op details as `ni -a -d` shows them
# (attributes, device, output dtypes and shapes, control inputs, creation
# stack) in `op` / `ni` on the three formats, and a clear note where the
# format records no attributes.
#
# Facts from the fixtures' READMEs (and the fixture files themselves, as
# batch_mindspore.sh): tfdbg1 mlp_nan runs every node on
# /job:localhost/replica:0/task:0/device:CPU:0, cross_entropy/Log:0 is
# float32 [8, 10], GradientDescent is a NoOp grouping the 4
# ApplyGradientDescent ops (their only consumers are control edges);
# tfdbg2 mnist_nan's Log:0 holds 1000 float32 elements and Log was created
# at debug_mnist_v2.py line 216; MindSpore sync_lenet's MatMul-op10 outputs
# float32 (2, 120) and its .ir lists primitive_attrs {format: "NCHW"};
# async_small's Default/network/Mul-op2 outputs float16 (4) and
# Default/Add-op1 float32 (2, 3).
. "$(dirname "$0")/lib.sh"

jx()
{
	json_expect "$1" "($2)" "${3:-$OUT}"
}

doc()
{
	sed -n "${1}p" "$OUT" >"$WORK/doc.$1"
	echo "$WORK/doc.$1"
}

T1=$FIXTURES/tfdbg1/mlp_nan
G2=run_1700000000491002_2/job:localhost/replica:0/task:0/device:CPU:0
tdbg_run --json -e "op cross_entropy/Log --graph $G2" -e "ni GradientDescent --graph $G2" "$T1"
expect_rc 0 tfdbg1_exit_0
jx tfdbg1_log_device 'd["device"] == "/job:localhost/replica:0/task:0/device:CPU:0"' "$(doc 1)"
jx tfdbg1_log_attr_T '{"name": "T", "value": "float32"} in d["attributes"] and d["attributes_known"]
	and d["attributes_note"] is None' "$(doc 1)"
jx tfdbg1_log_output '[(o["output_slot"], o["dtype"], o["shape"]) for o in d["outputs"]] ==
	[(0, "float32", [8, 10])]' "$(doc 1)"
jx tfdbg1_gradient_descent_controls 'd["type"] == "NoOp" and len(d["control_inputs"]) == 4 and
	all(c.endswith("/ApplyGradientDescent") for c in d["control_inputs"])' "$(doc 2)"
tdbg_run -e "ni cross_entropy/Log --graph $G2" "$T1"
expect_file_has tfdbg1_text_attr "$OUT" "  T                        float32"
expect_file_has tfdbg1_text_output "$OUT" "  0  float32[8,10]"

T2=$FIXTURES/tfdbg2/mnist_nan
tdbg_run --json -e 'op Log' -e 'trace 88' "$T2"
expect_rc 0 tfdbg2_exit_0
jx tfdbg2_no_attributes 'd["attributes"] == [] and d["attributes_known"] is False
	and "no attributes" in d["attributes_note"]' "$(doc 1)"
jx tfdbg2_output_from_trace 'd["outputs"][0]["dtype"] == "float32" and d["outputs"][0]["from"] == "trace"' "$(doc 1)"
jx tfdbg2_creation_stack 'any(f["file"].endswith("debug_mnist_v2.py") and f["line"] == 216
	and f["function"] == "loss" for f in d["stack"])' "$(doc 1)"
jx tfdbg2_trace_op_has_details '"attributes_known" in d["op"] and "outputs" in d["op"]' "$(doc 2)"
tdbg_run -e 'ni Log' "$T2"
expect_file_has tfdbg2_text_says_no_attributes "$OUT" "attributes: tfdbg v2 op creation records carry no attributes"

S=$FIXTURES/mindspore/sync_lenet
MM=Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10
tdbg_run --json -e "op $MM" "$S"
expect_rc 0 mindspore_exit_0
jx mindspore_output_from_graph 'd["outputs"][0] == {"output_slot": 0, "dtype": "float32",
	"shape": [2, 120], "from": "graph", "trace_index": None}'
jx mindspore_attribute_format '{"name": "format", "value": "\"NCHW\""} in d["attributes"]'

A=$FIXTURES/mindspore/async_small
tdbg_run --json -e 'op Default/network/Mul-op2' -e 'op Default/Add-op1' "$A"
jx async_mul_float16_4 '[(o["dtype"], o["shape"], o["from"]) for o in d["outputs"]] ==
	[("float16", [4], "graph")]' "$(doc 1)"
jx async_add_float32_2_3 'd["outputs"][0]["dtype"] == "float32" and d["outputs"][0]["shape"] == [2, 3]' "$(doc 2)"

[ "$E2E_FAILS" -eq 0 ]
