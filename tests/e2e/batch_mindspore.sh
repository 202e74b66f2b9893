#!/usr/bin/env bash
# batch_mindspore.sh - batch mode (-e, --json) on the MindSpore fixtures.
#
# Expected values are facts written in tests/fixtures/mindspore/README.md and
# tests/fixtures/mindspore/async_small/README.md (and visible in the fixture
# files themselves), never tdbg's own earlier output:
#   sync_lenet: one rank (rank_0), net Lenet, graph 0 run for iterations 0
#   and 1; in iteration 1 output 0 of .../fc3-Dense/MatMul-op10 (float32
#   (2,120)) holds 2 NaN and 1 -inf; its source is train_lenet.py line 26
#   "x = self.fc1(x)" (user code; the framework frame is basic.py line 624);
#   its inputs are flatten-Flatten/Reshape-op9 and fc1.weight.
#   async_small: async, 2 iterations, 11 tensors; the Opdebug record names
#   Default/network/Mul-op2, whose float16 output has 1 +inf and 1 -inf.
. "$(dirname "$0")/lib.sh"

S=$FIXTURES/mindspore/sync_lenet
A=$FIXTURES/mindspore/async_small
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

# ---- sync: the story from alert to op, inputs and source ------------------
tdbg_run --json -e info -e first-nonfinite -e "stack op $MM" -e executions \
	-e "op $MM" -e "source /home/user/lenet/train_lenet.py 26" "$S"
expect_rc 0 sync_exit_0
expect_eq sync_one_line_per_command "$(wc -l <"$OUT" | tr -d ' ')" 6
jx sync_info 'd["format"] == "mindspore-sync" and d["ranks"] == 1 and d["rank_ids"] == [0]
	and d["hosts"] == ["rank_0"] and d["iterations"] == 2 and d["graphs"] == 1
	and d["executions"] == 2 and d["net_name"] == "Lenet" and d["corrupt_records"] == 0' "$(doc 1)"
jx sync_first_nonfinite_is_matmul_op10 'd["op_name"] == "'"$MM"'" and d["op_type"] == "MatMul"
	and d["output_slot"] == 0 and d["nan"] == 2 and d["neg_inf"] == 1 and d["pos_inf"] == 0
	and d["elements"] == 240 and d["summary"]["shape"] == [2, 120]
	and d["host"] == "rank_0"' "$(doc 2)"
jx sync_stack_reaches_train_lenet_26 'any(f["file"].endswith("train_lenet.py") and f["line"] == 26
	and f["code"].strip() == "x = self.fc1(x)" and f["user_code"] for f in d)
	and any(f["file"].endswith("/site-packages/mindspore/nn/layer/basic.py") and f["line"] == 624
	and not f["user_code"] for f in d)
	and d[0]["file"].endswith("train_lenet.py")' "$(doc 3)"
jx sync_executions_are_graph_runs '[r["op_type"] for r in d["rows"]] == ["graph 0 iter 0", "graph 0 iter 1"]
	and [r["nonfinite"] for r in d["rows"]] == [False, True]
	and all(r["host"] == "rank_0" for r in d["rows"])' "$(doc 4)"
jx sync_op_inputs 'd["type"] == "MatMul" and [i["op_name"] for i in d["inputs"]] ==
	["Default/network-WithLossCell/_backbone-LeNet5/flatten-Flatten/Reshape-op9", "fc1.weight"]' "$(doc 5)"
jx sync_source_line_from_ir 'd["line"] == 26 and d["text"].strip() == "x = self.fc1(x)"' "$(doc 6)"

# ---- the first bad row: its value and its iteration ------------------------
FIRST=$(json_get 'd["index"]' "$WORK/doc.2")
tdbg_run --json -e "print $FIRST" -e "trace $FIRST" -e "inputs $FIRST" "$S"
expect_rc 0 sync_row_exit_0
jx sync_value_has_2_nan_1_neginf 'd["value"]["shape"] == [2, 120] and
	sum(1 for r in d["value"]["data"] for x in r if x == "NaN") == 2 and
	sum(1 for r in d["value"]["data"] for x in r if x == "-Infinity" or x == "-Inf" or x == "-inf") == 1' "$(doc 1)"
jx sync_row_in_iteration_1 'd["execution"] == 1' "$(doc 2)"
jx sync_row_inputs 'set(i["op_name"] for i in d) == {"fc1.weight",
	"Default/network-WithLossCell/_backbone-LeNet5/flatten-Flatten/Reshape-op9"}' "$(doc 3)"

# ---- --source-root reads the whole file from disk --------------------------
tdbg_run --json -r "$FIXTURES/mindspore" -e "source /home/user/lenet/train_lenet.py 1" "$S"
jx sync_source_root_reads_disk 'd["text"] == "import mindspore.nn as nn"'

# ---- compare across iterations, rank switch --------------------------------
tdbg_run --json -e "compare $MM" -e "rank 0" -e "traces --nonfinite --op MatMul-op10" "$S"
expect_rc 0 sync_compare_exit_0
jx sync_compare_two_iterations 'set(r["iteration"] for r in d["rows"]) == {0, 1}
	and any(r["nonfinite"] and r["iteration"] == 1 and not r["is_input"] for r in d["rows"])
	and not any(r["nonfinite"] and r["iteration"] == 0 for r in d["rows"])' "$(doc 1)"
jx sync_rank_0 'd["host"] == "rank_0"' "$(doc 2)"
jx sync_nonfinite_matmul_rows 'd["matched"] == 1' "$(doc 3)"

# ---- the rank directory itself opens too -------------------------------------
tdbg_run --json -e info "$S/rank_0"
jx sync_rank_dir_opens 'd["format"] == "mindspore-sync" and d["hosts"] == ["rank_0"]'

# ---- async: bin files and the overflow alert ---------------------------------
tdbg_run --json -e info -e alerts -e first-nonfinite "$A"
expect_rc 0 async_exit_0
jx async_info 'd["format"] == "mindspore-async" and d["iterations"] == 2 and d["tensors"] == 11
	and d["ranks"] == 1 and d["executions"] == 2 and d["corrupt_records"] == 0' "$(doc 1)"
jx async_overflow_names_mul_op2 '[a["op_name"] for a in d["items"] if a["kind"] == "Overflow"]
	== ["Default/network/Mul-op2"]' "$(doc 2)"
jx async_first_nonfinite_is_mul_output 'd["op_name"] == "Default/network/Mul-op2"
	and d["pos_inf"] == 1 and d["neg_inf"] == 1 and d["nan"] == 0 and d["elements"] == 4' "$(doc 3)"

# ---- the real lenet_graph.pb (a bare GraphProto) as the dump's graph ----------
# README: 104 nodes, 20 parameters, 37 const_vals, name kernel_graph_0; the
# trace lines still come from the dump's .ir.
cp -r "$S" "$WORK/lenet" && chmod -R u+w "$WORK/lenet"
cp "$FIXTURES/mindspore/lenet_graph.pb" "$WORK/lenet/rank_0/graphs/ms_output_trace_code_graph_0.pb"
tdbg_run --json -e info -e graphs -e "op $MM" -e "stack op $MM" "$WORK/lenet"
expect_rc 0 lenet_pb_exit_0
# + the two constant files (constants/Parameter.data-1, data-2) no graph lists
jx lenet_pb_ops 'd["ops"] == 104 + 20 + 37 + 2 and d["corrupt_records"] == 0' "$(doc 1)"
jx lenet_pb_graph 'len(d) == 1 and d[0]["name"] == "kernel_graph_0" and d[0]["ops"] >= 161' "$(doc 2)"
jx lenet_pb_op 'd["type"] == "MatMul" and d["graph_name"] == "kernel_graph_0"
	and d["inputs"][0]["op_name"].endswith("flatten-Flatten/Reshape-op9")' "$(doc 3)"
jx lenet_pb_stack_from_ir 'any(f["file"].endswith("train_lenet.py") and f["line"] == 26 for f in d)' "$(doc 4)"

# ---- two ranks: rank_1 is a copy whose iteration 1 was made finite ----------
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
tdbg_run --json -e info -e "compare $MM" -e "rank 1" -e first-nonfinite -e "rank 0" \
	-e first-nonfinite "$WORK/two"
expect_rc 0 two_ranks_exit_0
jx two_ranks_info 'd["ranks"] == 2 and d["rank_ids"] == [0, 1] and d["hosts"] == ["rank_0", "rank_1"]
	and d["executions"] == 4' "$(doc 1)"
jx two_ranks_compare_shows_both 'set(r["host"] for r in d["rows"]) == {"rank_0", "rank_1"}
	and [r["host"] for r in d["rows"] if r["nonfinite"]] == ["rank_0"]' "$(doc 2)"
jx two_ranks_rank_1_is_finite 'd is None' "$(doc 4)"
jx two_ranks_rank_0_has_the_nan 'd["op_name"] == "'"$MM"'" and d["host"] == "rank_0"
	and d["nan"] == 2' "$(doc 6)"

# ---- without statistic.csv the .npy data gives the same answer ---------------
cp -r "$S" "$WORK/nostat" && chmod -R u+w "$WORK/nostat"
rm -f "$WORK"/nostat/rank_0/Lenet/0/*/statistic.csv
tdbg_run --json -e first-nonfinite -e problems "$WORK/nostat"
expect_rc 0 nostat_exit_0
jx nostat_first_nonfinite_from_npy 'd["op_name"] == "'"$MM"'" and d["nan"] == 2
	and d["neg_inf"] == 1 and d["elements"] == 240' "$(doc 1)"

# ---- a damaged file is reported, the rest still works --------------------------
BAD=$(ls "$WORK"/nostat/rank_0/Lenet/0/0/ReLU.*ReLU-op12.*.output.0.DefaultFormat.npy)
truncate -s 100 "$BAD"
echo "not a tensor" >"$WORK/nostat/rank_0/Lenet/0/0/garbage.bin"
tdbg_run --json -e info -e first-nonfinite -e problems "$WORK/nostat"
expect_rc 0 damaged_exit_0
jx damaged_still_finds_matmul 'd["op_name"] == "'"$MM"'" and d["nan"] == 2' "$(doc 2)"
jx damaged_reports_both 'len(d) >= 2' "$(doc 3)"
tdbg_run --strict -e info "$WORK/nostat"
expect_rc 3 damaged_strict_exit_3

[ "$E2E_FAILS" -eq 0 ]
