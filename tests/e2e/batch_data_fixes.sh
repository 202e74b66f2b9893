#!/usr/bin/env bash
# batch_data_fixes.sh - wrong answers and batch friction of issue 12, in
# batch mode.
#
# Expected values are facts from the fixtures' READMEs:
#   tfdbg1/README.md: mlp_nan holds 3 runs of 48 dumps (42 DebugIdentity,
#   4 DebugNumericSummary, 2 DebugNanCount); in run 2 the first bad tensor
#   is cross_entropy/Log:0 (the 27th dump), 18 dumps of run 2 hold inf or
#   NaN, cross_entropy/Log:0 has DebugIdentity and DebugNumericSummary
#   dumps, cross_entropy/mul:0 has DebugIdentity and DebugNanCount dumps.
#   tfdbg2/README.md: mnist_nan is a tfdbg v2 dump (no run_* directories).
#   mindspore/README.md: sync_lenet's bad tensor is output 0 of
#   .../fc3-Dense/MatMul-op10 in iteration 1, whose inputs are
#   flatten-Flatten/Reshape-op9 and fc1.weight.
. "$(dirname "$0")/lib.sh"

V1=$FIXTURES/tfdbg1/mlp_nan
V2=$FIXTURES/tfdbg2/mnist_nan
S=$FIXTURES/mindspore/sync_lenet
MM=Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10

jx()
{
	json_expect "$1" "($2)" "${3:-$OUT}"
}

doc()
{
	sed -n "${1}p" "$OUT" >"$WORK/doc.$1"
	echo "$WORK/doc.$1"
}

# ---- 1: the v1 reader refuses what is no v1 dump ----------------------------
tdbg_run -f tfdbg1 --json -e first-nonfinite "$V2"
expect_rc 2 v1_refuses_v2_dump_exit_2
check v1_refuses_says_what_it_looked_for grep -q 'run_' "$ERR"
mkdir "$WORK/empty"
tdbg_run -f tfdbg1 --json -e info "$WORK/empty"
expect_rc 2 v1_refuses_empty_dir_exit_2
# The old layout (dump files right in the root, no device directory) is
# still a v1 dump: run 2's files give its 48 dumps and the Log -inf.
mkdir "$WORK/legacy"
cp -r "$V1"/run_1700000000491002_2/_tfdbg_device_*/* "$WORK/legacy/"
rm -f "$WORK"/legacy/_tfdbg_graph_*
tdbg_run -f tfdbg1 --json -e info -e first-nonfinite "$WORK/legacy"
expect_rc 0 v1_legacy_layout_exit_0
jx v1_legacy_layout_reads_run 'd["graph_execution_traces"] == 48 and d["runs"] == 1' "$(doc 1)"
jx v1_legacy_layout_first_is_log 'd["op_name"] == "cross_entropy/Log" and d["neg_inf"] == 9' "$(doc 2)"

[ "$E2E_FAILS" -eq 0 ]
