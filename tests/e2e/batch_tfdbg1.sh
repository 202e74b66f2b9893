#!/usr/bin/env bash
# batch_tfdbg1.sh - batch mode (-e, --json) on the tfdbg v1 session root
# tests/fixtures/tfdbg1/mlp_nan.
#
# Every expected value is a fact written in tests/fixtures/tfdbg1/README.md,
# never tdbg's own earlier output: 3 runs (counters 0, 1, 2), 48 dumps per
# run, one device /job:localhost/replica:0/task:0/device:CPU:0, partition
# graphs of 58 user nodes once the debugger's nodes are hidden; the first
# tensor with inf/NaN is cross_entropy/Log:0 of run 2 (float32 [8, 10],
# 9 -inf, 0 NaN, 0 +inf), the 27th dump of its run, whose only input is
# Softmax:0 and whose next consumer is cross_entropy/mul; runs 0 and 1 hold
# no inf/NaN; the loss cross_entropy/Mean:0 is 2.50253, 2.18158, NaN.
. "$(dirname "$0")/lib.sh"

D=$FIXTURES/tfdbg1/mlp_nan
RUN2=$D/run_1700000000491002_2
G2=run_1700000000491002_2/job:localhost/replica:0/task:0/device:CPU:0

jx()
{
	json_expect "$1" "($2)" "${3:-$OUT}"
}

# line N of $OUT into $WORK/doc.N (1-based), for json_expect.
doc()
{
	sed -n "${1}p" "$OUT" >"$WORK/doc.$1"
	echo "$WORK/doc.$1"
}

# ---- the story ------------------------------------------------------------
tdbg_run --json -e info -e first-nonfinite -e executions -e graphs \
	-e "op cross_entropy/Log --graph $G2" "$D"
expect_rc 0 story_exit_0
expect_eq story_one_line_per_command "$(wc -l <"$OUT" | tr -d ' ')" 5
jx info_facts 'd["format"] == "tfdbg1" and d["runs"] == 3 and d["executions"] == 3
	and d["graph_execution_traces"] == 144 and d["graphs"] == 3 and d["ops"] == 3 * 58
	and d["devices"] == 1 and d["hosts"] == [] and d["source_files"] == 0
	and d["stack_frames"] == 0 and d["corrupt_records"] == 0' "$(doc 1)"
jx info_debug_ops 'set(d["tensor_debug_mode"].split(",")) ==
	{"DebugIdentity", "DebugNumericSummary", "DebugNanCount"}' "$(doc 1)"
jx first_nonfinite_is_log 'd["source"] == "trace" and d["op_name"] == "cross_entropy/Log"
	and d["op_type"] == "Log" and d["output_slot"] == 0 and d["neg_inf"] == 9
	and d["nan"] == 0 and d["pos_inf"] == 0 and d["elements"] == 80
	and d["summary"]["shape"] == [8, 10] and d["graph_id"].startswith("run_1700000000491002_2")' "$(doc 2)"
# the 27th dump of run 2: runs 0 and 1 hold 48 rows each
jx first_nonfinite_is_27th_of_run_2 'd["index"] == 2 * 48 + 26' "$(doc 2)"
jx executions_are_the_runs '[r["op_type"] for r in d["rows"]] ==
	["Session.run #0", "Session.run #1", "Session.run #2"]
	and [r["traces"] for r in d["rows"]] == [48, 48, 48]
	and [r["nonfinite"] for r in d["rows"]] == [False, False, True]
	and [r["num_outputs"] for r in d["rows"]] == [2, 2, 2]
	and abs(d["rows"][0]["wall_time"] - 1700000000.123456) < 1e-6' "$(doc 3)"
jx graphs_have_58_user_nodes 'len(d) == 3 and all(g["ops"] == 58 for g in d)' "$(doc 4)"
jx op_log_reads_softmax 'd["type"] == "Log"
	and [(i["op_name"], i["output_slot"]) for i in d["inputs"]] == [("Softmax", 0)]
	and d["device"] == "/job:localhost/replica:0/task:0/device:CPU:0"' "$(doc 5)"

# ---- links from the first bad tensor ---------------------------------------
FIRST=$(json_get 'd["index"]' "$WORK/doc.2")
tdbg_run --json -e "inputs $FIRST" -e "consumers $FIRST" -e "trace $FIRST" "$D"
expect_rc 0 links_exit_0
jx inputs_is_softmax_of_run_2 'len(d) == 1 and d[0]["op_name"] == "Softmax"
	and d[0]["output_slot"] == 0 and 96 <= d[0]["trace_index"] < '"$FIRST" "$(doc 1)"
jx consumer_is_cross_entropy_mul 'any(c["op_name"] == "cross_entropy/mul"
	and c["trace_index"] > '"$FIRST"' for c in d)' "$(doc 2)"
jx trace_is_debug_identity_value 'd["mode"] == "DebugIdentity" and d["execution"] == 2
	and d["summary"]["neg_inf"] == 9 and d["stack"] == []' "$(doc 3)"

# ---- per-run facts ---------------------------------------------------------
tdbg_run --json -e 'traces --execution 0 --nonfinite' -e 'traces --execution 1 --nonfinite' \
	-e 'traces --op "^cross_entropy/Mean$"' -e 'traces --op "^Softmax$" --execution 2' "$D"
expect_rc 0 per_run_exit_0
jx run_0_finite 'd["matched"] == 0' "$(doc 1)"
jx run_1_finite 'd["matched"] == 0' "$(doc 2)"
jx loss_per_run 'len(d["rows"]) == 6
	and [r["execution"] for r in d["rows"]] == [0, 0, 1, 1, 2, 2]
	and abs(d["rows"][0]["summary"]["min"] - 2.50253) < 1e-5
	and abs(d["rows"][2]["summary"]["min"] - 2.18158) < 1e-5
	and d["rows"][4]["summary"]["nan"] == 1' "$(doc 3)"
jx softmax_run_2_finite_with_zeros 'd["matched"] == 2 and all(not r["nonfinite"]
	and r["summary"]["zero"] >= 9 for r in d["rows"])' "$(doc 4)"

# ---- a run's details: fetches, feeds and core metadata (plain text) -------
tdbg_run -e 'execution 2' "$D"
expect_rc 0 run_detail_exit_0
expect_file_has run_2_session_run_index "$OUT" "session run index: 3"
expect_file_has run_2_global_step "$OUT" "global step: -1"
expect_file_has run_2_inputs "$OUT" "input names: x:0, y:0"
expect_file_has run_2_outputs "$OUT" "output names: cross_entropy/Mean:0"
expect_file_has run_2_targets "$OUT" "target nodes: GradientDescent"
expect_file_has run_2_fetches "$OUT" "fetches: [<tf.Operation 'GradientDescent' type=NoOp>"

tdbg_run --json -e 'execution 0' -e 'execution 2' "$D"
expect_rc 0 run_outputs_exit_0
jx run_0_output_is_the_loss 'len(d["outputs"]) == 2
	and abs(d["outputs"][0]["summary"]["min"] - 2.50253) < 1e-5' "$(doc 1)"
jx run_2_output_is_nan 'd["outputs"][0]["summary"]["nan"] == 1' "$(doc 2)"

# ---- the same tensor at the previous step (run) ----------------------------
# Each run has a partition graph of its own; a tensor follows the same node
# name across runs.  README facts: 48 tensor dumps a run; the loss
# (cross_entropy/Mean, the mean of cross_entropy/Neg's positive
# per-example values, so Neg's abs mean) is 2.50253 in run 0 and 2.18158
# in run 1.
tdbg_run --json -e "traces --where 'first_record == 1'" \
	-e "traces --where 'first_record == 0'" \
	-e "traces --where 'op == \"cross_entropy/Neg\" and delta_abs_mean > -0.3210 and delta_abs_mean < -0.3209'" "$D"
expect_rc 0 steps_exit_0
jx steps_run_0_first_records 'd["matched"] == 48 and all(r["index"] < 48 for r in d["rows"])' "$(doc 1)"
jx steps_later_runs_follow_run_0 'd["matched"] == 96' "$(doc 2)"
jx steps_delta_of_the_loss 'd["matched"] == 1 and d["rows"][0]["index"] in range(48, 96)' "$(doc 3)"

# ---- one run directory opened alone (a plain v1 dump root) -----------------
tdbg_run --json -e info -e first-nonfinite "$RUN2"
expect_rc 0 run_dir_exit_0
jx run_dir_info 'd["format"] == "tfdbg1" and d["runs"] == 1 and d["executions"] == 1
	and d["graph_execution_traces"] == 48' "$(doc 1)"
jx run_dir_first_nonfinite 'd["op_name"] == "cross_entropy/Log" and d["index"] == 26' "$(doc 2)"

# ---- a damaged copy: bad files are reported, the rest still reads ----------
cp -r "$D" "$WORK/mlp"
chmod -R u+w "$WORK/mlp"
DEV0=$(echo "$WORK"/mlp/run_1700000000123456_0/_tfdbg_device_*)
printf '\377\377\377\377\017garbage' >"$DEV0/dense/MatMul_0_DebugIdentity_1700000000125500"
: >"$DEV0/not-a-dump"
tdbg_run --json -e info -e first-nonfinite -e problems "$WORK/mlp"
expect_rc 0 damaged_exit_0
jx damaged_info 'd["executions"] == 3 and d["graph_execution_traces"] == 145
	and d["corrupt_records"] >= 1' "$(doc 1)"
jx damaged_first_nonfinite_unchanged 'd["op_name"] == "cross_entropy/Log"
	and d["neg_inf"] == 9' "$(doc 2)"
jx damaged_problems_name_files 'any(i["file"].endswith("not-a-dump") for i in d["items"])
	and any(i["file"].endswith("MatMul_0_DebugIdentity_1700000000125500") for i in d["items"])' "$(doc 3)"
tdbg_run --strict -e info "$WORK/mlp"
expect_rc 3 damaged_strict_exit_3

[ "$E2E_FAILS" -eq 0 ]
