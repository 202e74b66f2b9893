#!/usr/bin/env bash
# batch_origins.sh - origins, why and --check on every sample dump.
#
# Expected values are facts from the fixtures' READMEs, never tdbg's own
# output:
#   tfdbg2/mnist_nan: row 85 is probs:0 (Placeholder, 1000 elements, one 0,
#     the rest positive); row 88 is Log:0, only input probs:0, one -Inf: the
#     first trace with Inf or NaN.  modes/: the same Log story in the health
#     modes; SHAPE and NO_TENSOR carry no Inf/NaN information.
#   tfdbg1/mlp_nan: the first tensor with inf/NaN is cross_entropy/Log:0 of
#     run 2 (the 27th dump of the run; runs 0 and 1 hold 48 rows each), its
#     only input Softmax:0, finite with nine zeros (80 elements); next
#     cross_entropy/mul:0; runs 0 and 1 hold no inf/NaN.
#   mindspore/sync_lenet: in iteration 1 the output 0 of
#     .../fc3-Dense/MatMul-op10 holds 2 NaN and 1 -inf (rank_0).
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

# ---- tfdbg2 mnist_nan ------------------------------------------------------
D=$FIXTURES/tfdbg2/mnist_nan
tdbg_run --json -e origins -e 'why 88' -e 'origins --by-host' "$D"
expect_rc 0 mnist_exit_0
jx mnist_first_is_log_88 'd["first"]["index"] == 88 and d["first"]["source"] == "trace"
	and d["first"]["op_name"] == "Log" and d["first"]["op_type"] == "Log"
	and d["first"]["output_slot"] == 0 and d["first"]["neg_inf"] == 1
	and d["first"]["elements"] == 1000 and d["first"]["host"] == "tfdbg-host-a"
	and d["items"][0] == d["first"] and d["total"] == len(d["items"])' "$(doc 1)"
jx mnist_input_probs_finite_one_zero '[(i["op_name"], i["output_slot"], i["trace_index"], i["state"],
	i["summary"]["zero"], i["summary"]["elements"]) for i in d["first"]["inputs"]]
	== [("probs", 0, 85, "finite", 1, 1000)]' "$(doc 1)"
jx mnist_cause_log_of_zero '"log of a zero in probs:0" in d["first"]["cause"]
	and any("1 zero in 1000 elements" in e for e in d["first"]["evidence"])' "$(doc 1)"
jx mnist_path_starts_at_origin 'd["first"]["path"][0] == 88 and len(d["first"]["path"]) >= 2
	and all(a < b for a, b in zip(d["first"]["path"], d["first"]["path"][1:]))' "$(doc 1)"
jx mnist_contract_keys 'set(d) == {"total", "first", "items", "partial", "partial_row"}
	and all(set(o) == {"source", "index",
	"op_name", "op_type", "output_slot", "host", "step", "nan", "neg_inf", "pos_inf", "elements",
	"inputs", "cause", "evidence", "path", "carried"} for o in d["items"]) and all(set(i) == {"op_name",
	"output_slot", "trace_index", "state", "summary"} for o in d["items"] for i in o["inputs"])' "$(doc 1)"
jx mnist_no_origin_before_88 'all(o["index"] >= 88 for o in d["items"] if o["source"] == "trace")' "$(doc 1)"
jx mnist_why_88_origin 'd["role"] == "origin" and d["index"] == 88 and d["origin"] == 88
	and d["inputs"][0]["trace_index"] == 85 and d["from"] == []' "$(doc 2)"
jx mnist_by_host 'len(d["hosts"]) == 1 and d["hosts"][0]["host"] == "tfdbg-host-a"
	and d["hosts"][0]["index"] == 88 and d["hosts"][0]["op_name"] == "Log"' "$(doc 3)"

# Issue 22: the roots only.  Every later NaN of the tutorial goes back to
# the Log through links the dump records: the function graphs' input
# placeholders (gradients_grad_ys_0, probs, input_tensor) are their calls'
# inputs (Execution input_tensor_ids = an earlier call's output ids), the
# ReadVariableOps read variables the eager ResourceApplyAdam executions
# wrote from those NaN gradients, the Softmax reads a nested call's output.
tdbg_run --json -e origins -e 'why 121' -e 'why 101' -e 'why 134' -e 'why 98' "$D"
jx mnist_roots_only 'd["total"] <= 20 and d["first"]["index"] == 88 and not any(o["op_type"]
	in ("Placeholder", "ReadVariableOp", "Softmax") for o in d["items"]) and not d["partial"]' "$(doc 1)"
jx mnist_root_carried_far 'd["first"]["carried"]["rows"] > 100 and d["first"]["carried"]["variables"] > 0
	and d["first"]["carried"]["calls"] > 0 and d["first"]["carried"]["steps"] > 0' "$(doc 1)"
jx mnist_why_121_carried_variable 'd["role"] == "carried" and d["index"] == 121 and d["origin"] == 88
	and d["link"] == "variable" and d["path"][0] == 88 and d["path"][-1] == 121
	and "ResourceApplyAdam" in d["cause"] and d["via"] is not None' "$(doc 2)"
jx mnist_why_101_call_input 'd["role"] == "carried" and d["op_name"] == "gradients_grad_ys_0"
	and d["link"] == "call input" and d["origin"] == 88 and d["from"] == [100]' "$(doc 3)"
jx mnist_why_134_call_output 'd["role"] in ("carried", "propagation") and d["origin"] == 88
	and (d["role"] == "propagation" or d["link"] == "call output")' "$(doc 4)"
jx mnist_why_98_says_unrecorded 'd["role"] == "carried" and d["link"] == "unrecorded input"
	and "inputs not all recorded" in d["cause"] and d["origin"] == 88' "$(doc 5)"

# every non-finite row goes back to the Log at 88 (the tutorial's one
# bug: what the TUI's O follows from any row)
tdbg_run --json -e 'traces --nonfinite' "$D"
rows=$(json_get '" ".join(str(r["index"]) for r in d["rows"])' "$OUT")
set --
for r in $rows; do set -- "$@" -e "why $r"; done
tdbg_run --json "$@" "$D"
check mnist_every_bad_row_goes_back_to_88 python3 -c '
import json, sys
ds = [json.loads(l) for l in open(sys.argv[1])]
sys.exit(not (len(ds) > 400 and all(d["origin"] == 88 for d in ds)))' "$OUT"

# the path's rows, asked one by one, go back to the origin at 88
P=$(json_get 'd["first"]["path"][1]' "$WORK/doc.1")
tdbg_run --json -e "why $P" -e 'why 85' "$D"
jx mnist_path_row_is_propagation 'd["role"] == "propagation" and d["origin"] == 88
	and d["path"][0] == 88 and d["path"][-1] == '"$P" "$(doc 1)"
jx mnist_probs_finite 'd["role"] == "finite" and d["origin"] is None' "$(doc 2)"

tdbg_run -e origins "$D"
expect_file_has mnist_text_headline "$OUT" "Origin: Log:0 (Log) at row 88"
check mnist_text_cause grep -qE '^cause +log of a zero in probs:0$' "$OUT"

tdbg_run --check "$D"
expect_rc 4 mnist_check_exit_4
expect_file_has mnist_check_text "$OUT" "Origin: Log:0 (Log) at row 88"
tdbg_run --json --check "$D"
expect_rc 4 mnist_check_json_exit_4
jx mnist_check_json 'd["nonfinite"] and d["known"] and d["alerts"] > 0
	and d["first"]["index"] == 88' "$(doc 1)"

# ---- tfdbg2 modes ------------------------------------------------------------
for m in curt_health concise_health full_tensor; do
	tdbg_run --json -e origins "$FIXTURES/tfdbg2/modes/$m"
	jx "modes_${m}_origin_is_log" 'd["first"]["op_type"] == "Log"
		and [(i["op_name"], i["state"]) for i in d["first"]["inputs"]] == [("probs", "finite")]' "$(doc 1)"
done
tdbg_run --json -e origins "$FIXTURES/tfdbg2/modes/curt_health"
jx modes_curt_says_what_is_unknown '"likely" in d["first"]["cause"]
	and any(e.startswith("unknown:") for e in d["first"]["evidence"])' "$(doc 1)"
for m in shape no_tensor; do
	# issue 22.7: a mode that records no NaN/Inf cannot give an all-clear
	tdbg_run --check "$FIXTURES/tfdbg2/modes/$m"
	expect_rc 5 "modes_${m}_check_exit_5_cannot_tell"
	expect_file_has "modes_${m}_check_says_unknown" "$OUT" "unknown"
	tdbg_run --json --check "$FIXTURES/tfdbg2/modes/$m"
	expect_rc 5 "modes_${m}_check_json_exit_5"
	jx "modes_${m}_check_json_not_known" 'd["known"] is False and d["nonfinite"] is False' "$(doc 1)"
	tdbg_run --strict --check "$FIXTURES/tfdbg2/modes/$m"
	expect_rc 5 "modes_${m}_strict_check_exit_5"
	tdbg_run --json -e origins "$FIXTURES/tfdbg2/modes/$m"
	jx "modes_${m}_no_origin" 'd == {"total": 0, "first": None, "items": [], "partial": False,
		"partial_row": None}' "$(doc 1)"
done

# ---- tfdbg1 mlp_nan -------------------------------------------------------------
D=$FIXTURES/tfdbg1/mlp_nan
tdbg_run --json -e origins -e 'origins --step 0' -e 'origins --step 2' "$D"
expect_rc 0 v1_exit_0
jx v1_first_is_log_in_run_2 'd["first"]["op_name"] == "cross_entropy/Log"
	and d["first"]["index"] == 2 * 48 + 26 and d["first"]["step"] == 2
	and d["first"]["neg_inf"] == 9 and d["first"]["elements"] == 80' "$(doc 1)"
jx v1_input_softmax_finite_nine_zeros '[(i["op_name"], i["state"], i["summary"]["zero"])
	for i in d["first"]["inputs"]] == [("Softmax", "finite", 9)]
	and "zero in Softmax:0" in d["first"]["cause"]' "$(doc 1)"
jx v1_one_log_origin 'sum(o["op_name"] == "cross_entropy/Log" for o in d["items"]) == 1
	and all(o["step"] == 2 for o in d["items"])' "$(doc 1)"
jx v1_run_0_clean 'd["total"] == 0 and d["first"] is None' "$(doc 2)"
jx v1_run_2_has_it 'd["first"]["op_name"] == "cross_entropy/Log"' "$(doc 3)"
MUL=$(json_get '[o for o in d["first"]["path"]][1]' "$WORK/doc.1")
tdbg_run --json -e "why $MUL" -e "trace $MUL" "$D"
jx v1_next_is_mul_propagation 'd["role"] == "propagation" and d["origin"] == 2 * 48 + 26' "$(doc 1)"
jx v1_next_is_mul 'd["op_name"] == "cross_entropy/mul"' "$(doc 2)"
tdbg_run --check "$D"
expect_rc 4 v1_check_exit_4
expect_file_has v1_check_names_log "$OUT" "cross_entropy/Log:0 (Log)"

# ---- MindSpore sync_lenet ---------------------------------------------------------
D=$FIXTURES/mindspore/sync_lenet
OP=Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10
tdbg_run --json -e origins -e 'origins --by-host' -e 'origins --host rank_0 --step 0' "$D"
expect_rc 0 ms_exit_0
jx ms_origin_matmul_iteration_1 'd["first"]["op_name"] == "'"$OP"'" and d["first"]["output_slot"] == 0
	and d["first"]["step"] == 1 and d["first"]["nan"] == 2 and d["first"]["neg_inf"] == 1
	and d["first"]["host"] == "rank_0"' "$(doc 1)"
jx ms_inputs_finite 'len(d["first"]["inputs"]) == 2
	and all(i["state"] == "finite" for i in d["first"]["inputs"])' "$(doc 1)"
jx ms_by_host '[(h["host"], h["step"], h["op_name"]) for h in d["hosts"]] == [("rank_0", 1, "'"$OP"'")]' "$(doc 2)"
jx ms_iteration_0_clean 'd["total"] == 0' "$(doc 3)"
tdbg_run -e 'origins --by-host' "$D"
expect_file_has ms_text_rank_table "$OUT" "rank_0"
tdbg_run --check "$D"
expect_rc 4 ms_check_exit_4

# ---- MindSpore async npy, input records, no graph (issue 22) ----------------------
# tests/fixtures/mindspore/README.md, async_npy: one origin, MatMul-op10's
# output in iteration 1 (row 16, inputs finite at rows 14 and 15); ReLU-op12's
# input record (row 17) holds that same value.
D=$FIXTURES/mindspore/async_npy
tdbg_run --json -e origins -e 'why 17' -e 'why 18' -e 'why 21' "$D"
expect_rc 0 ms_async_exit_0
jx ms_async_one_origin 'd["total"] == 1 and d["first"]["index"] == 16
	and d["first"]["op_name"] == "MatMul-op10" and d["first"]["step"] == 1
	and d["first"]["nan"] == 2 and d["first"]["neg_inf"] == 1
	and [(i["trace_index"], i["state"]) for i in d["first"]["inputs"]] == [(14, "finite"), (15, "finite")]
	and "unknown" not in d["first"]["cause"]' "$(doc 1)"
jx ms_async_relu_input_record_carried 'd["role"] == "carried" and d["link"] == "same value"
	and d["from"] == [16] and d["origin"] == 16' "$(doc 2)"
jx ms_async_relu_output_propagation 'd["role"] == "propagation" and d["from"] == [17]
	and d["origin"] == 16' "$(doc 3)"
jx ms_async_last_goes_back 'd["role"] == "propagation" and d["origin"] == 16' "$(doc 4)"

# ---- generated: independent NaN are each a root ----------------------------------
# gen_tfdbg2 injects a NaN at row 1000 and every 147 rows after it, each
# independent of the others (--facts: nonfinite, first_nonfinite_row); row
# 1147 is the loss graph's labels placeholder, nested in train_step after
# the model graph's row 1000: no recorded link joins them, so each of the
# injected rows is an origin (a nearby earlier NaN is not a cause).
GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
"$GEN" -q -n 3000 --nan-at 1000 --nan-every 147 --facts "$WORK/g.facts" "$WORK/g" ||
	die "generator failed"
NF=$(sed -n 's/^nonfinite //p' "$WORK/g.facts")
FIRST=$(sed -n 's/^first_nonfinite_row //p' "$WORK/g.facts")
tdbg_run --json -e origins -e 'why 1147' "$WORK/g"
jx gen_each_injected_nan_is_a_root 'd["total"] == '"$NF"' and [o["index"] for o in d["items"]]
	== ['"$FIRST"' + 147 * k for k in range('"$NF"')]' "$(doc 1)"
jx gen_nested_placeholder_not_linked_by_guess 'd["role"] == "origin" and d["op_name"] == "labels"' "$(doc 2)"

# ---- usage -----------------------------------------------------------------------
tdbg_run --json -e 'origins --step x' -e 'why' -e 'why 99999' "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 1 bad_args_exit_1
jx bad_step_error '"error" in d' "$(doc 1)"
jx why_needs_row '"error" in d' "$(doc 2)"
jx why_out_of_range '"error" in d' "$(doc 3)"

[ "$E2E_FAILS" -eq 0 ]
