#!/usr/bin/env bash
# batch_step.sh - issue 17 item 5 in batch mode: a trace row names the
# execution it belongs to (`trace N`'s "execution") and that execution's
# rows contain it ("first_trace", "traces"), where the dump says which.
#
# Facts from the fixtures' READMEs: tfdbg1 mlp_nan's runs hold 48 dumps
# each and its first inf/NaN (cross_entropy/Log:0) is in run 2; MindSpore
# sync_lenet's NaN is in iteration 1 of graph 0 (the second graph run);
# tfdbg v2 trace records do not name their execution.
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
tdbg_run --json -e first-nonfinite "$T1"
N=$(json_get 'd["index"]')
tdbg_run --json -e "trace $N" -e executions "$T1"
jx tfdbg1_trace_in_run_2 'd["execution"] == 2' "$(doc 1)"
jx tfdbg1_run_2_holds_it 'd["rows"][2]["first_trace"] <= '"$N"' < d["rows"][2]["first_trace"] + d["rows"][2]["traces"]
	and all(r["traces"] == 48 for r in d["rows"])' "$(doc 2)"

S=$FIXTURES/mindspore/sync_lenet
tdbg_run --json -e first-nonfinite "$S"
N=$(json_get 'd["index"]')
tdbg_run --json -e "trace $N" -e executions "$S"
jx mindspore_trace_in_second_run 'd["execution"] == 1' "$(doc 1)"
jx mindspore_run_holds_it 'd["rows"][1]["op_type"].endswith("iter 1") and
	d["rows"][1]["first_trace"] <= '"$N"' < d["rows"][1]["first_trace"] + d["rows"][1]["traces"]' "$(doc 2)"

T2=$FIXTURES/tfdbg2/mnist_nan
tdbg_run --json -e 'trace 88' -e 'traces --execution 0' "$T2"
jx tfdbg2_trace_names_no_execution 'd["execution"] is None' "$(doc 1)"
jx tfdbg2_execution_filter_says_so '"error" in d' "$(doc 2)"

[ "$E2E_FAILS" -eq 0 ]
