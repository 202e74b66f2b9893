#!/usr/bin/env bash
# batch_graph_tree.sh - issue 17 item 1: `inputs N --depth D` and
# `consumers N --depth D` (tfdbg's li -r / lo -r) on the three formats.
#
# Facts from the fixtures' READMEs:
#   tfdbg2 mnist_nan: row 88 is Log:0 (nonfinite: one -Inf), its only input
#     probs:0 (a Placeholder, finite) is row 85; tfdbg v2 op creation
#     records list data inputs only (no control inputs to show);
#   tfdbg1 mlp_nan: the first inf/NaN tensor is cross_entropy/Log:0, its
#     only input Softmax:0 (finite), next cross_entropy/mul:0 (NaN);
#     GradientDescent is a NoOp and the 4 ApplyGradientDescent ops have
#     only control consumers (it groups them: ^ inputs);
#   MindSpore sync_lenet: the first NaN/Inf is fc3-Dense/MatMul-op10,
#     whose inputs are flatten-Flatten/Reshape-op9 and fc1.weight.
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

# ---- tfdbg2 ------------------------------------------------------------------
T2=$FIXTURES/tfdbg2/mnist_nan
tdbg_run --json -e 'inputs 88 --depth 3' -e 'consumers 85 --depth 2' -e 'inputs 88' "$T2"
expect_rc 0 tfdbg2_exit_0
jx tfdbg2_tree_root 'd["direction"] == "inputs" and d["trace_index"] == 88 and d["op_name"] == "Log"
	and d["health"] == "nonfinite" and d["depth"] == 3 and d["truncated"] is False' "$(doc 1)"
jx tfdbg2_tree_probs 'd["nodes"][0] == {"depth": 1, "parent": None, "op_name": "probs",
	"op_type": "Placeholder", "output_slot": 0, "control": False, "trace_index": 85,
	"health": "finite", "in_graph": True, "repeat": False}' "$(doc 1)"
jx tfdbg2_placeholder_is_a_leaf 'len(d["nodes"]) == 1' "$(doc 1)"
jx tfdbg2_says_no_control_inputs 'd["control_known"] is False and "control" in d["control_note"]' "$(doc 1)"
jx tfdbg2_consumers_log 'd["nodes"][0]["op_name"] == "Log" and d["nodes"][0]["trace_index"] == 88
	and d["nodes"][0]["health"] == "nonfinite" and d["nodes"][0]["input_slot"] == 0' "$(doc 2)"
jx tfdbg2_consumers_depth_2 'any(n["depth"] == 2 and n["parent"] == 0 and n["trace_index"] > 88
	for n in d["nodes"]) and all(n["depth"] <= 2 for n in d["nodes"])' "$(doc 2)"
jx tfdbg2_plain_inputs_unchanged 'isinstance(d, list) and d[0]["trace_index"] == 85' "$(doc 3)"

tdbg_run -e 'inputs 88 --depth 2' "$T2"
expect_file_has tfdbg2_text_tree "$OUT" "|- (1) probs:0  Placeholder  trace 85 finite"
expect_file_has tfdbg2_text_says_no_control "$OUT" "not control inputs"

tdbg_run --json -e 'inputs 88 --depth 0' -e 'inputs 88 --op Log' "$T2"
expect_rc 1 bad_depth_exit_1
jx bad_depth_error '"--depth" in d["error"]' "$(doc 1)"
jx row_and_op_error '"not both" in d["error"]' "$(doc 2)"

# ---- tfdbg1 ------------------------------------------------------------------
T1=$FIXTURES/tfdbg1/mlp_nan
tdbg_run --json -e first-nonfinite "$T1"
LOG=$(json_get 'd["index"]')
tdbg_run --json -e "inputs $LOG --depth 2" -e "consumers $LOG --depth 1" \
	-e 'inputs --op GradientDescent --depth 1' "$T1"
expect_rc 0 tfdbg1_exit_0
jx tfdbg1_log_input_softmax '[(n["op_name"], n["health"]) for n in d["nodes"] if n["depth"] == 1]
	== [("Softmax", "finite")] and d["health"] == "nonfinite" and d["control_known"] is True' "$(doc 1)"
jx tfdbg1_softmax_expanded 'any(n["depth"] == 2 and n["parent"] == 0 for n in d["nodes"])' "$(doc 1)"
jx tfdbg1_log_consumer_mul 'any(n["op_name"] == "cross_entropy/mul" and n["health"] == "nonfinite"
	and n["trace_index"] > '"$LOG"' for n in d["nodes"])' "$(doc 2)"
jx tfdbg1_gradient_descent_controls 'd["op_type"] == "NoOp" and d["trace_index"] is None
	and len(d["nodes"]) == 4 and all(n["control"] and n["op_type"] == "ApplyGradientDescent"
	for n in d["nodes"])' "$(doc 3)"
APPLY=$(json_get 'd["nodes"][0]["op_name"]' "$(doc 3)")
tdbg_run --json -e "consumers --op $APPLY --depth 2" "$T1"
jx tfdbg1_apply_has_only_control_consumer '[(n["op_name"], n["control"]) for n in d["nodes"]]
	== [("GradientDescent", True)]'
G2=run_1700000000491002_2/job:localhost/replica:0/task:0/device:CPU:0
tdbg_run --json -e "inputs --op cross_entropy/Log --graph $G2" -e 'inputs --op Log --graph nope' "$T1"
jx tfdbg1_op_in_run_2_graph 'd["op_name"] == "cross_entropy/Log" and [n["op_name"] for n in d["nodes"]]
	== ["Softmax"] and d["nodes"][0]["trace_index"] is not None' "$(doc 1)"
jx tfdbg1_op_graph_unknown '"in graph nope" in d["error"]' "$(doc 2)"
tdbg_run -e 'inputs --op GradientDescent' "$T1"
expect_file_has tfdbg1_text_marks_control "$OUT" "|- (1) [ctrl] GradientDescent/"

# ---- MindSpore ---------------------------------------------------------------
S=$FIXTURES/mindspore/sync_lenet
tdbg_run --json -e first-nonfinite "$S"
MM=$(json_get 'd["index"]')
tdbg_run --json -e "inputs $MM --depth 2" -e "consumers $MM --depth 2" "$S"
expect_rc 0 mindspore_exit_0
jx mindspore_matmul_inputs 'set(n["op_name"] for n in d["nodes"] if n["depth"] == 1) ==
	{"Default/network-WithLossCell/_backbone-LeNet5/flatten-Flatten/Reshape-op9", "fc1.weight"}
	and not any(n["control"] for n in d["nodes"]) and d["health"] == "nonfinite"' "$(doc 1)"
jx mindspore_tree_depths 'all(1 <= n["depth"] <= 2 for n in d["nodes"]) and all(
	(n["parent"] is None) == (n["depth"] == 1) for n in d["nodes"])' "$(doc 1)"
jx mindspore_consumers_tree 'd["direction"] == "consumers" and all(n["depth"] <= 2 for n in d["nodes"])' "$(doc 2)"

[ "$E2E_FAILS" -eq 0 ]
