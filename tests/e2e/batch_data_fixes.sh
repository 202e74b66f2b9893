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

# ---- 2: a MindSpore tensor is one alert, on the op that produced it --------
# The expected count comes from the fixture's own .npy files: the output
# files of iteration 1 whose float32 values hold NaN or Inf (each such
# tensor is one alert; the input files of its consumers are copies).
count_bad_outputs()
{
	python3 - "$@" <<'PY'
import glob, math, struct, sys
n = 0
for d in sys.argv[1:]:
    for f in glob.glob(d + "/*.output.*.npy"):
        b = open(f, "rb").read()
        if b"<f4" not in b[:128]:
            continue
        off = 10 + struct.unpack("<H", b[8:10])[0]
        vals = struct.unpack_from("<%df" % ((len(b) - off) // 4), b, off)
        n += any(not math.isfinite(v) for v in vals)
print(n)
PY
}
NBAD=$(count_bad_outputs "$S/rank_0/Lenet/0/1")
tdbg_run --json -e alerts -e first-nonfinite -e "inputs 82" -e "trace 81" -e "traces --nonfinite" "$S"
expect_rc 0 ms_alerts_exit_0
jx ms_one_alert_per_tensor 'd["total"] == '"$NBAD"' and len(d["items"]) == '"$NBAD"'
	and not any(a["is_input"] for a in d["items"])' "$(doc 1)"
jx ms_first_is_matmul_output 'd["op_name"] == "'"$MM"'" and d["is_input"] is False' "$(doc 2)"
jx ms_inputs_82_links_fc1_weight_row_81 'any(i["trace_index"] == 81 and i["op_name"] == "fc1.weight" for i in d)
	and all(i["trace_index"] is not None for i in d)' "$(doc 3)"
jx ms_row_81_is_matmul_input 'd["op_name"] == "'"$MM"'" and d["is_input"] is True' "$(doc 4)"
jx ms_traces_say_input 'any(r["is_input"] for r in d["rows"]) and any(not r["is_input"] for r in d["rows"])' "$(doc 5)"
# an input row links to the output row of its producer
IN=$(json_get '[r["index"] for r in d["rows"] if r["is_input"]][0]' "$WORK/doc.5")
tdbg_run --json -e "inputs $IN" -e "trace $IN" "$S"
jx ms_input_row_links_producer_output 'len(d[0]) == 1 and d[0][0]["trace_index"] is not None
	and d[0][0]["trace_index"] < '"$IN"
PRODUCER=$(json_get 'd[0][0]["trace_index"]' "$OUT")
tdbg_run --json -e "trace $PRODUCER" "$S"
jx ms_producer_row_is_output 'd["is_input"] is False and d["nonfinite"]'
tdbg_run -e "traces --nonfinite" "$S"
check ms_traces_text_has_in_out_column grep -qE ' in +[0-9]+ ' "$OUT"

# two ranks: rank_1's iteration 1 made finite; the alerts are rank_0's
mkdir -p "$WORK/two"
cp -r "$S/rank_0" "$WORK/two/rank_0" && cp -r "$S/rank_0" "$WORK/two/rank_1"
chmod -R u+w "$WORK/two"
rm -f "$WORK/two/rank_1/Lenet/0/1/statistic.csv"
python3 - "$WORK/two/rank_1/Lenet/0/1" <<'PY'
import glob, math, struct, sys
for f in glob.glob(sys.argv[1] + "/*.npy"):
    b = bytearray(open(f, "rb").read())
    if b"<f4" not in b[:128]:
        continue
    off = 10 + struct.unpack("<H", b[8:10])[0]
    for i in range((len(b) - off) // 4):
        if not math.isfinite(struct.unpack_from("<f", b, off + 4 * i)[0]):
            struct.pack_into("<f", b, off + 4 * i, 0.0)
    open(f, "wb").write(bytes(b))
PY
NBAD2=$(count_bad_outputs "$WORK/two/rank_0/Lenet/0/1" "$WORK/two/rank_1/Lenet/0/1")
tdbg_run --json -e alerts "$WORK/two"
jx ms_two_ranks_one_alert_per_tensor 'd["total"] == '"$NBAD2"' and not any(a["is_input"] for a in d["items"])'

# an input whose producer was not dumped still alerts, as an input
cp -r "$S" "$WORK/noprod" && chmod -R u+w "$WORK/noprod"
rm -f "$WORK"/noprod/rank_0/Lenet/0/1/statistic.csv "$WORK"/noprod/rank_0/Lenet/0/1/MatMul.*MatMul-op10.*.output.0.*.npy
tdbg_run --json -e first-nonfinite "$WORK/noprod"
jx ms_orphan_input_alerts_as_input 'd["is_input"] is True and d["nan"] == 2 and d["neg_inf"] == 1'
ORPHAN=$(json_get 'd["index"]')
OPN=$(json_get 'd["op_name"]')
tdbg_run --json -e "traces --op $OPN" "$WORK/noprod"
OUTROW=$(json_get '[r["index"] for r in d["rows"] if not r["is_input"] and r["execution"] == 1][0]')
tdbg_run --json -e "inputs $OUTROW" "$WORK/noprod"
jx ms_orphan_input_linked_from_consumer 'any(i["trace_index"] == '"$ORPHAN"' for i in d)'

# ---- 3: tfdbg1 debug ops: one alert per tensor and step ---------------------
# 18 dumps of run 2 hold inf or NaN; one of them is cross_entropy/Mean:0's
# DebugNumericSummary, a second view of Mean:0 (whose DebugIdentity dump
# holds NaN): 17 tensors.  Log:0 has a DebugIdentity and a
# DebugNumericSummary dump, mul:0 a DebugIdentity and a DebugNanCount dump.
tdbg_run --json -e alerts -e 'traces --op "^cross_entropy/(Log|mul)$" --execution 2' "$V1"
expect_rc 0 v1_alerts_exit_0
jx v1_one_alert_per_tensor 'd["total"] == 17 and d["by_op_type"]["Log"] == 1
	and len(set((a["op_name"], a["output_slot"]) for a in d["items"])) == 17' "$(doc 1)"
jx v1_rows_name_their_debug_op 'sorted((r["op_name"], r["debug_op"]) for r in d["rows"]) ==
	[("cross_entropy/Log", "DebugIdentity"), ("cross_entropy/Log", "DebugNumericSummary"),
	 ("cross_entropy/mul", "DebugIdentity"), ("cross_entropy/mul", "DebugNanCount")]' "$(doc 2)"
cp "$(doc 2)" "$WORK/v1rows"
LOG_ID=$(json_get '[r["index"] for r in d["rows"] if r["debug_op"] == "DebugIdentity" and r["op_name"] == "cross_entropy/Log"][0]' "$WORK/v1rows")
LOG_SUM=$(json_get '[r["index"] for r in d["rows"] if r["debug_op"] == "DebugNumericSummary"][0]' "$WORK/v1rows")
MUL_ID=$(json_get '[r["index"] for r in d["rows"] if r["debug_op"] == "DebugIdentity" and r["op_name"] == "cross_entropy/mul"][0]' "$WORK/v1rows")
MUL_NAN=$(json_get '[r["index"] for r in d["rows"] if r["debug_op"] == "DebugNanCount"][0]' "$WORK/v1rows")
tdbg_run --json -e "trace $LOG_SUM" -e "inputs $MUL_ID" -e "trace $MUL_NAN" "$V1"
jx v1_trace_has_debug_op 'd["debug_op"] == "DebugNumericSummary"' "$(doc 1)"
# mul's inputs: y and Log:0; the link goes to Log's DebugIdentity row (values)
jx v1_inputs_link_the_value_row 'any(i["op_name"] == "cross_entropy/Log" and i["trace_index"] == '"$LOG_ID"' for i in d)' "$(doc 2)"
# a DebugNanCount holds only the NaN count (8): the infinities are unknown
jx v1_nan_count_unknown_infs 'd["summary"]["nan"] == 8 and d["summary"]["neg_inf"] is None
	and d["summary"]["pos_inf"] is None' "$(doc 3)"
tdbg_run -e "traces $MUL_NAN" -e "trace $MUL_NAN" "$V1"
check v1_traces_text_shows_debug_op grep -q 'DebugNanCount' "$OUT"
check v1_nan_count_text_no_zero_infs bash -c "! grep -qE '[-+]inf=0' '$OUT'"

# ---- 4: the shape column never invents a shape ----------------------------
# Row 88 of mnist_nan is Log:0, 1000 float32 elements, in FULL_HEALTH mode
# (which records dtype, rank and element count, not the dims).
tdbg_run --json -e "trace 88" "$V2"
RANK=$(json_get 'd["summary"]["rank"]')
jx v2_full_health_has_no_shape 'd["summary"]["shape"] is None and d["summary"]["elements"] == 1000'
tdbg_run -e "traces 88" "$V2"
check v2_shape_shows_rank grep -qF "float32 rank $RANK, 1000 el" "$OUT"
check v2_shape_not_invented bash -c "! grep -qE 'float32[[(]1000[])]' '$OUT'"

# ---- 10: traces --execution on a dump whose traces name no execution ------
# mnist_nan (tfdbg v2): 224 executions and 680 graph execution traces; v2
# traces record no execution, so filtering by one cannot find anything.
tdbg_run --json -e "traces --execution 3" "$V2"
expect_rc 1 v2_traces_execution_exit_1
jx v2_traces_execution_says_why '"does not link traces to executions" in d["error"] and "--graph" in d["error"]'
# tfdbg1 runs own their traces: the filter works there (runs 0 and 1 are finite)
tdbg_run --json -e "traces --execution 1" "$V1"
jx v1_traces_execution_works 'd["matched"] == 48 and all(r["execution"] == 1 for r in d["rows"])'

# ---- batch friction: opening ------------------------------------------------
# --json with a dump that cannot be opened: the error is on stdout too
tdbg_run --json -e info "$WORK/empty"
expect_rc 2 json_open_error_exit_2
jx json_open_error_on_stdout '"cannot open" in d["error"]'
# a folder holding dumps (tfdbg2/README.md: mnist_nan, modes/<5 modes>, torn)
tdbg_run -e info "$FIXTURES/tfdbg2"
expect_rc 2 folder_of_dumps_exit_2
check folder_of_dumps_names_one_level grep -qF "$FIXTURES/tfdbg2/mnist_nan" "$ERR"
check folder_of_dumps_names_two_levels grep -qF "$FIXTURES/tfdbg2/modes/curt_health" "$ERR"
check folder_of_dumps_counts grep -qF "7 dumps are below it" "$ERR"
# one file of a dump: the dump directory to open
tdbg_run -e info "$(ls "$V2"/*.metadata)"
expect_rc 2 dump_file_exit_2
check dump_file_names_its_dump grep -qF "dump in $V2: open that directory" "$ERR"
tdbg_run -e info "$S/rank_0/Lenet/0/1/statistic.csv"
check ms_file_names_its_dump grep -qF "dump in $S: open that directory" "$ERR"
# a hostile directory name below is shown escaped
mkdir -p "$WORK/hostile/$(printf 'x\033]0;t\007y')"
cp -r "$V2" "$WORK/hostile/$(printf 'x\033]0;t\007y')/"
tdbg_run -e info "$WORK/hostile"
check hint_names_are_sanitized bash -c "! grep -q $'\033' '$ERR'"

# ---- batch friction: the summary without a terminal -------------------------
tdbg_run "$V1"
expect_rc 0 summary_exit_0
# README: the first tensor with inf/NaN is cross_entropy/Log:0 (9 -inf)
check summary_has_first_nonfinite grep -qE 'cross_entropy/Log:0 .*-inf=9' "$OUT"

# ---- batch friction: first-nonfinite on an overflow-only dump ---------------
# async_small/README.md: Mul-op2's output is [inf, -inf, 32752, 65504]
# (float16) and the one overflow alert names Mul-op2.  Its infinities made
# finite, the overflow alert is all that is left.
cp -r "$FIXTURES/mindspore/async_small" "$WORK/ovf" && chmod -R u+w "$WORK/ovf"
python3 - "$(ls "$WORK"/ovf/rank_0/Net/0/0/Mul.*)" <<'PY'
import sys
p = sys.argv[1]
b = open(p, "rb").read()
inf_neginf = b"\x00\x7c\x00\xfc"            # float16 +inf, -inf, little-endian
assert b.count(inf_neginf) == 1
open(p, "wb").write(b.replace(inf_neginf, b"\x00\x00\x00\x00"))
PY
tdbg_run -e first-nonfinite -e alerts "$WORK/ovf"
expect_rc 0 overflow_only_exit_0
check overflow_only_mentions_overflow grep -qE 'no NaN or Inf found, but 1 Overflow alert' "$OUT"

[ "$E2E_FAILS" -eq 0 ]
