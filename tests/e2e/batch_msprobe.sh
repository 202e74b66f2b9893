#!/usr/bin/env bash
# batch_msprobe.sh - batch mode (--json) on the msprobe fixtures (issue 26).
#
# Expected values come from each fixture's facts.json, written by the
# generator that made the dump (tests/gen/gen_msprobe.py: it computes the
# statistics and knows where the NaN is born), never from tdbg's output:
#   pt_stats_2rank: PyTorch statistics, level mix, 2 ranks x 2 steps; the NaN
#     is born at Torch.sqrt.0.forward on rank 1, step 1, and reaches rank 0
#     through Distributed.all_reduce.0.forward.
#   ms_tensor_npy: MindSpore tensor task (.npy), Megatron construct.json,
#     legacy stack.json; NaN born at Mint.sqrt.0.forward on rank 0, step 0.
#   pt_tensor_pt: PyTorch tensor task with torch.save (.pt) files.
#   pt_md5_legacy: md5 summary mode, legacy stack.json.
# Rows of an entry are its tensor inputs then its outputs, each in file
# order (reader/msprobe/FORMAT.md §4); units go by step, then rank.
. "$(dirname "$0")/lib.sh"

M=$FIXTURES/msprobe

# fx NAME FIXTURE EXPR: EXPR over d (the --json documents of the last run,
# a list) and F (the fixture's facts.json, with L: every leaf in row order
# and E: every entry in row order).
fx()
{
	local why
	if why=$(python3 -c "$_JSON_PY"'
import math
d = load(sys.argv[3])
F = json.load(open(sys.argv[2] + "/facts.json"))
def num(v):
    return float(v) if isinstance(v, str) else v
L, E = [], []
for u in F["units"]:
    for e in u["entries"]:
        E.append(dict(u, entry=e))
        ls = [l for l in u["leaves"] if l["entry"] == e]
        L += [dict(l, host=u["host"], step=u["step"]) for l in ls if l["is_input"]]
        L += [dict(l, host=u["host"], step=u["step"]) for l in ls if not l["is_input"]]
def close(a, b):
    b = num(b)
    if b is None or (isinstance(b, float) and not math.isfinite(b)):
        return a is None
    # float32 statistics are printed with float32 precision
    return a is not None and abs(a - b) <= 1e-6 * max(1.0, abs(b))
def flat(x):
    return [v for r in x for v in flat(r)] if isinstance(x, list) else [x]
r = eval("(" + sys.argv[1] + ")", {"d": d, "F": F, "L": L, "E": E, "close": close, "flat": flat,
                       "num": num, "math": math})
if not r:
    print("false: " + sys.argv[1]); sys.exit(1)' "$3" "$2" "$OUT" 2>&1); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}

# ---- PyTorch statistics, two ranks ---------------------------------------
P=$M/pt_stats_2rank
tdbg_run --json -e info -e "traces 0:100000" -e "executions 0:100000" -e "stack trace 3" -e "trace 3" "$P"
expect_rc 0 pt_exit_0
fx pt_info "$P" 'd[0]["format"] == "msprobe" and d[0]["hosts"] == ["rank0", "rank1"]
	and d[0]["executions"] == len(E) and d[0]["graph_execution_traces"] == len(L)
	and d[0]["framework"] == "pytorch" and d[0]["ranks"] == 2 and d[0]["steps"] == 2
	and d[0]["corrupt_records"] == 0'
fx pt_every_leaf_in_order "$P" 'len(d[1]["rows"]) == len(L) and all(
	r["op_name"] == l["entry"] and r["is_input"] == l["is_input"] and r["host"] == l["host"]
	and r["summary"]["shape"] == l["shape"] for r, l in zip(d[1]["rows"], L))'
fx pt_statistics_of_every_leaf "$P" 'all(
	close(r["summary"]["max"], l["max"]) and close(r["summary"]["min"], l["min"])
	and close(r["summary"]["mean"], l["mean"]) and close(r["summary"]["l2norm"], l["l2norm"])
	for r, l in zip(d[1]["rows"], L) if l["dtype"] != "bool")'
fx pt_nonfinite_rows_are_the_nan_leaves "$P" '[r["nonfinite"] for r in d[1]["rows"]] ==
	[l["dtype"] != "bool" and any(isinstance(v, str) for v in l["values"]) for l in L]'
fx pt_bool_leaf_any_all "$P" 'all(r["summary"]["max"] == (1 if l["max"] else 0)
	and r["summary"]["min"] == (1 if l["min"] else 0) and r["summary"]["dtype"] == "bool"
	for r, l in zip(d[1]["rows"], L) if l["dtype"] == "bool")'
fx pt_zero_d_leaf "$P" 'any(r["summary"]["shape"] == [] and r["summary"]["rank"] == 0
	and close(r["summary"]["max"], l["values"][0]) for r, l in zip(d[1]["rows"], L)
	if l["shape"] == [] and not isinstance(l["values"][0], str))'
fx pt_executions_are_entries "$P" '[r["op_type"] for r in d[2]["rows"]] == [e["entry"] for e in E]'
fx pt_stack_of_an_entry "$P" '[(f["file"], f["line"]) for f in d[3]] == [
	(s.split(", line ")[0][5:], int(s.split(", line ")[1].split(",")[0]))
	for s in reversed(F["units"][0]["stack"]["Functional.linear.0.forward"])]
	and [f["user_code"] for f in d[3]] == [True, False, True]'
fx pt_module_parent_of_an_entry "$P" '{a["name"]: a["value"] for a in d[4]["op"]["attributes"]}["module"]
	== F["units"][0]["construct"]["Functional.linear.0.forward"]'

# msprobe's rule on one rank's folder alone: the first entry (file order)
# with finite inputs and a non-finite output
for u in 0 1; do
	tdbg_run --json -e "origins --by-host" "$P/step1/rank$u"
	fx "pt_rank${u}_alone_first_anomaly" "$P" '[it["op_name"] for it in d["items"]][:1] ==
		[x["first_anomaly"] for x in F["units"] if x["step"] == 1 and x["rank"] == '"$u"']'
done
# all ranks together: the collective links them, so the one origin is where
# the NaN was born, and the other rank'"'"'s all_reduce is a propagation from it
tdbg_run --json -e "origins --by-host" -e "traces 0:100000" "$P"
expect_rc 0 pt_origins_exit_0
fx pt_rank_that_went_bad_first "$P" '[(it["host"], it["op_name"], it["step"]) for it in d[0]["items"]]
	== [("rank%d" % F["nan_rank"], "Torch.sqrt.0.forward", F["nan_step"])]'
AR=$(json_get '[r["index"] for r in d[1]["rows"] if r["host"] == "rank0" and r["op_name"] ==
	"Distributed.all_reduce.0.forward" and not r["is_input"] and r["nonfinite"]][0]')
AR1=$(json_get '[r["index"] for r in d[1]["rows"] if r["host"] == "rank1" and r["op_name"] ==
	"Distributed.all_reduce.0.forward" and r["is_input"] and r["nonfinite"]][0]')
tdbg_run --json -e "why $AR" "$P"
fx pt_collective_carries_it "$P" 'd["role"] == "propagation" and d["from"] == ['"$AR1"']'

# ---- MindSpore tensor task: values from .npy -------------------------------
S=$M/ms_tensor_npy
tdbg_run --json -e info -e "traces 0:100000" "$S"
expect_rc 0 ms_exit_0
fx ms_info "$S" 'd[0]["framework"] == "mindspore" and d[0]["task"] == "tensor"
	and d[0]["executions"] == len(E) and d[0]["graph_execution_traces"] == len(L)
	and all(r["summary"]["dtype"] == l["dtype"] for r, l in zip(d[1]["rows"], L))'
# the sqrt's input (finite, one negative) and output (NaN) on rank 0
SQ_IN=$(json_get '[r["index"] for r in d["rows"] if r["op_name"] == "Mint.sqrt.0.forward" and r["is_input"]][0]' <(sed -n 2p "$OUT"))
SQ_OUT=$((SQ_IN + 1))
tdbg_run --json -e "print $SQ_IN" -e "print $SQ_OUT" -e "stack trace $SQ_OUT" -e "trace $SQ_OUT" "$S"
expect_rc 0 ms_print_exit_0
fx ms_values_from_npy "$S" 'flat(d[0]["value"]["data"]) == [l for l in L if l["entry"] ==
	"Mint.sqrt.0.forward" and l["is_input"]][0]["values"] and d[0]["value"]["shape"] == [4, 2]'
fx ms_nan_values_from_npy "$S" '[v == "NaN" for v in flat(d[1]["value"]["data"])] ==
	[isinstance(v, str) for v in [l for l in L if l["entry"] == "Mint.sqrt.0.forward"
	and not l["is_input"]][0]["values"]]'
fx ms_legacy_stack "$S" '[(f["file"], f["line"]) for f in d[2]] == [
	(s.split(", line ")[0][5:], int(s.split(", line ")[1].split(",")[0]))
	for s in reversed(F["units"][0]["stack"]["Mint.sqrt.0.forward"])]'
tdbg_run --json -e "trace 3" "$S"
fx ms_megatron_module_parent "$S" '{a["name"]: a["value"] for a in d["op"]["attributes"]}["module"]
	== F["units"][0]["construct"]["Mint.linear.0.forward"]'

# ---- .pt files (torch.save's zip archive, reader/parse/pt.c): every leaf's
# values and shape as the generator wrote them
T=$M/pt_tensor_pt
tdbg_run -e "trace 3" "$T"
expect_rc 0 pt_tensor_exit_0
expect_file_has pt_data_name_shown "$OUT" "data_name: Functional.linear.0.forward.output.0.pt"
pargs=()
n=$(python3 -c 'import json,sys; F=json.load(open(sys.argv[1])); print(sum(len(u["leaves"]) for u in F["units"]))' "$T/facts.json")
for ((k = 0; k < n; k++)); do pargs+=(-e "print $k"); done
tdbg_run --json "${pargs[@]}" "$T"
expect_rc 0 pt_print_every_leaf_exit_0
fx pt_values_of_every_leaf "$T" 'len(d) == len(L) and all(
	len(flat(x["value"]["data"])) == len(l["values"]) and all(
		(a == b) if isinstance(b, str) or isinstance(b, bool) else close(a, b)
		for a, b in zip(flat(x["value"]["data"]), l["values"]))
	and x["value"]["shape"] == l["shape"] for x, l in zip(d, L))'
tdbg_run --json -e "traces 0:100000" "$T"
fx pt_statistics_from_the_files "$T" 'all(close(r["summary"]["max"], l["max"])
	and close(r["summary"]["min"], l["min"]) for r, l in zip(d["rows"], L)
	if l["dtype"].startswith("float") and all(not isinstance(v, str) for v in l["values"]))'

# ---- md5 mode ---------------------------------------------------------------
D=$M/pt_md5_legacy
tdbg_run -e "trace 0" "$D"
expect_rc 0 md5_exit_0
expect_file_has md5_checksum_shown "$OUT" "md5 (crc32): "
tdbg_run --json -e info "$D"
fx md5_counts "$D" 'd["executions"] == len(E) and d["graph_execution_traces"] == len(L)
	and d["stack_frames"] > 0'

# ---- every level opens: a step folder, a rank folder ------------------------
tdbg_run --json -e info "$P/step1"
fx open_step_folder "$P" 'd["hosts"] == ["rank0", "rank1"] and d["steps"] == 1
	and d["executions"] == sum(len(u["entries"]) for u in F["units"] if u["step"] == 1)'
tdbg_run --json -e info "$P/step1/rank1"
fx open_rank_folder "$P" 'd["hosts"] == ["rank1"] and d["executions"] ==
	len([u for u in F["units"] if u["step"] == 1 and u["rank"] == 1][0]["entries"])'

# ---- a partial dump.json keeps the entries before the error ----------------
mkdir -p "$WORK/torn/step0/rank0"
F0=$P/step0/rank0/dump.json
CUT=$(grep -n '"Torch.sqrt.0.forward"' "$F0" | cut -d: -f1)
head -n $((CUT + 3)) "$F0" >"$WORK/torn/step0/rank0/dump.json"
cp "$P/facts.json" "$WORK/torn/facts.json"
tdbg_run --json -e info -e problems -e "executions 0:1000" "$WORK/torn"
expect_rc 0 torn_exit_0
fx torn_keeps_entries_before "$WORK/torn" '[r["op_type"] for r in d[2]["rows"]] ==
	F["units"][0]["entries"][:F["units"][0]["entries"].index("Torch.sqrt.0.forward")]'
fx torn_problem_names_line_and_column "$WORK/torn" 'any("line %d, column" % ('"$CUT"' + 4)
	in p["detail"] and p["file"].endswith("dump.json") for p in d[1]["items"])'

# a NaN token where a key belongs: a decode error with its line; still no crash
mkdir -p "$WORK/bad/step0/rank0"
printf '{"task": "statistics",\n "data": {"A.x.0.forward": {"output": [{"type": "torch.Tensor", "Max": NaN}]},\n NaN: 1}}' \
	>"$WORK/bad/step0/rank0/dump.json"
tdbg_run --json -e info -e problems "$WORK/bad"
expect_rc 0 bad_exit_0
json_expect bad_keeps_first_entry 'd[0]["executions"] == 1 and d[0]["graph_execution_traces"] == 1'
json_expect bad_problem_line_3 'any("line 3, column 2: expected a key" in p["detail"]
	for p in d[1]["items"])'

# ---- conditions on the record's statistics -----------------------------------
tdbg_run --json -e "traces --where 'l2norm > 3 and max < 1.9' 0:100000" "$P"
expect_rc 0 where_exit_0
fx where_l2norm_and_max "$P" '[r["index"] for r in d["rows"]] == [i for i, l in enumerate(L)
	if l["dtype"] != "bool" and not isinstance(l["l2norm"], str) and l["l2norm"] is not None
	and l["l2norm"] > 3 and l["max"] < 1.9]'

# ---- xor mode: no statistics in the record, computed from the saved .npy ----
X=$M/pt_xor_npy
tdbg_run --json -e "traces 0:100000" -e first-nonfinite "$X"
expect_rc 0 xor_exit_0
fx xor_nan_counts_from_files "$X" 'len(d[0]["rows"]) == len(L) and all(r["summary"]["nan"] ==
	sum(1 for v in l["values"] if isinstance(v, str)) for r, l in zip(d[0]["rows"], L)
	if l["dtype"] != "bool")'
fx xor_minmax_from_files "$X" 'all(close(r["summary"]["min"], min(l["values"]))
	and close(r["summary"]["max"], max(l["values"])) for r, l in zip(d[0]["rows"], L)
	if l["dtype"] != "bool" and l["values"] and not any(isinstance(v, str) for v in l["values"]))'
fx xor_first_nonfinite_is_the_sqrt "$X" 'd[1]["op_name"] == F["units"][0]["first_anomaly"]'
tdbg_run -e "trace 0" "$X"
expect_file_has xor_checksum_shown "$OUT" "xor: 0x"

# ---- MindSpore's graph/ and pynative/ levels: both read, the level in the host
mkdir -p "$WORK/levels/graph" "$WORK/levels/pynative"
cp -r "$S/step0" "$WORK/levels/graph/"
cp -r "$S/step0" "$WORK/levels/pynative/"
cp "$S/facts.json" "$WORK/levels/"
tdbg_run --json -e info "$WORK/levels"
expect_rc 0 levels_exit_0
fx levels_hosts "$WORK/levels" 'd["hosts"] == ["graph/rank0", "graph/rank1", "pynative/rank0",
	"pynative/rank1"] and d["executions"] == 2 * len(E)'

# ---- Source: the lines stack.json recorded -----------------------------------
tdbg_run --json -e sources -e "source /home/user/mlp/train.py 31" "$P"
expect_rc 0 source_exit_0
fx source_line_from_stack_json "$P" 'd[1]["text"].strip() == [s.split(", \n ", 1)[1]
	for s in F["units"][0]["stack"]["Torch.sqrt.0.forward"] if ", line 31," in s][0]
	and any(x["path"] == "/home/user/mlp/train.py" and x["partial"] for x in d[0])'
# --source-root: the file under it wins over the recorded lines
mkdir -p "$WORK/src/mlp"
for i in $(seq 1 40); do echo "disk line $i"; done >"$WORK/src/mlp/train.py"
tdbg_run --json -r "$WORK/src" -e "source /home/user/mlp/train.py 31" "$P"
expect_rc 0 source_root_exit_0
json_expect source_root_reads_the_file 'd["text"] == "disk line 31" and not d["partial"]'

# ---- role: backward calls and parameter gradients are gradients -------------
tdbg_run --json -e "traces --where 'role == \"gradient\"' 0:100000" "$P"
fx role_gradient_rows "$P" '[r["index"] for r in d["rows"]] ==
	[i for i, l in enumerate(L) if l["role"] == "gradient"]'

# ---- the row's own facts: requires_grad, role per leaf, the entry's prefix
# (conditions and watches; the generator's facts.json says each leaf's
# requires_grad and role, the prefix is its entry's name before the dot)
Q=(-e "traces --where 'requires_grad' 0:100000"
	-e "traces --where 'requires_grad == 0 and role == \"activation\"' 0:100000"
	-e "traces --where 'role == \"weight\"' 0:100000"
	-e "traces --where 'role == \"activation\"' 0:100000"
	-e "traces --where 'prefix == \"Distributed\" or prefix ~ \"^Ten\"' 0:100000"
	-e "executions --where 'prefix == \"Torch\"'"
	-e "watch add rg_weight 'role == \"weight\" and requires_grad'" -e "watches check")
tdbg_run --json --no-cache "${Q[@]}" "$P"
expect_rc 0 facts_exit_0
cp "$OUT" "$WORK/facts_cold.json"
fx facts_requires_grad "$P" '[r["index"] for r in d[0]["rows"]] ==
	[i for i, l in enumerate(L) if l["requires_grad"] is True]'
fx facts_requires_grad_false_activation "$P" '[r["index"] for r in d[1]["rows"]] ==
	[i for i, l in enumerate(L) if l["requires_grad"] is False and l["role"] == "activation"]
	and d[1]["rows"]'
fx facts_role_weight "$P" '[(r["index"], r["role"]) for r in d[2]["rows"]] ==
	[(i, "weight") for i, l in enumerate(L) if l["role"] == "weight"] and d[2]["rows"]'
fx facts_role_activation "$P" '[r["index"] for r in d[3]["rows"]] ==
	[i for i, l in enumerate(L) if l["role"] == "activation"]'
fx facts_prefix "$P" '[r["index"] for r in d[4]["rows"]] == [i for i, l in enumerate(L)
	if l["entry"].split(".")[0] == "Distributed" or l["entry"].startswith("Ten")] and d[4]["rows"]'
fx facts_prefix_of_executions "$P" '[r["op_type"] for r in d[5]["rows"]] ==
	[e["entry"] for e in E if e["entry"].split(".")[0] == "Torch"] and d[5]["unknown"] == 0
	and d[5]["rows"]'
fx facts_watch_hits "$P" 'sorted(h["index"] for h in d[7]["items"] if h["condition"] == "rg_weight")
	== [i for i, l in enumerate(L) if l["role"] == "weight" and l["requires_grad"] is True]
	and all(h["values"]["requires_grad"] == 1 for h in d[7]["items"] if h["condition"] == "rg_weight")'
# the same answers from the persistent index (written on the first open,
# read on the second)
tdbg_run --json "${Q[@]}" "$P"
tdbg_run --json "${Q[@]}" "$P"
if cmp -s "$OUT" "$WORK/facts_cold.json"; then ok facts_same_from_the_index; else
	fail facts_same_from_the_index "$(diff "$WORK/facts_cold.json" "$OUT" | head -5)"; fi
# a dump that states none: unknown, never false
tdbg_run --json -e "traces --where 'requires_grad or prefix == \"x\"' 0:5" -e "executions --where 'prefix == \"x\"'" "$FIXTURES/tfdbg2/mnist_nan"
json_expect facts_unknown_elsewhere 'd[0]["matched"] == 0 and d[0]["unknown"] == d[0]["total"] > 0 and d[1]["matched"] == 0 and d[1]["unknown"] == d[1]["total"] > 0'

# ---- the module tree (construct.json): `module N` on the first row of
# every entry of every unit, against the generator's construct map: the
# parent, the children (entries whose parent it is, in file order), each
# with the first row of its call in N's unit (one call of an entry per
# unit; a call with no output row has none)
MOD_PY='
import json, sys
F = json.load(open(sys.argv[1] + "/facts.json"))
L, Q = [], []
for u in F["units"]:
    for e in u["entries"]:
        ls = [l for l in u["leaves"] if l["entry"] == e]
        L += [dict(l, unit=(u["step"], u["host"])) for l in ls if l["is_input"]]
        L += [dict(l, unit=(u["step"], u["host"])) for l in ls if not l["is_input"]]
def near(entry, unit, n):
    c = [i for i, l in enumerate(L) if l["entry"] == entry and l["unit"] == unit]
    return c[0] if any(not L[i]["is_input"] for i in c) else None
for u in F["units"]:
    unit = (u["step"], u["host"])
    for e in u["entries"]:
        rows = [i for i, l in enumerate(L) if l["entry"] == e and l["unit"] == unit]
        if not rows:
            continue
        n = rows[0]
        p = u["construct"].get(e)
        kids = [k for k, v in u["construct"].items() if v == e]
        Q.append({"n": n, "op_name": e,
                  "parent": None if not p else {"op_name": p, "trace_index": near(p, unit, n)},
                  "children": [{"op_name": k, "trace_index": near(k, unit, n)} for k in kids]})
json.dump(Q, open(sys.argv[2], "w"))
'
for X in "$P" "$S"; do
	name=$(basename "$X")
	python3 -c "$MOD_PY" "$X" "$WORK/mod_$name.json"
	margs=()
	while read -r n; do margs+=(-e "module $n"); done < <(python3 -c '
import json, sys; [print(q["n"]) for q in json.load(open(sys.argv[1]))]' "$WORK/mod_$name.json")
	tdbg_run --json "${margs[@]}" "$X"
	expect_rc 0 "module_${name}_exit_0"
	fx "module_${name}_parents_and_children" "$X" '[
		{"n": q["trace_index"], "op_name": q["op_name"],
		 "parent": q["parent"] and {"op_name": q["parent"]["op_name"],
					    "trace_index": q["parent"]["trace_index"]},
		 "children": [{"op_name": c["op_name"], "trace_index": c["trace_index"]}
			      for c in q["children"]]} for q in d] == __import__("json").load(open("'"$WORK/mod_$name.json"'"))
		and any(q["parent"] for q in d) and any(q["children"] for q in d) and all(q["known"] for q in d)'
done
tdbg_run --json -e "module --op Module.fc2.Linear.forward.0 --graph rank1" -e "module 0" "$FIXTURES/tfdbg2/mnist_nan"
expect_rc 1 module_op_not_in_tfdbg2
tdbg_run --json -e "module 0" "$FIXTURES/tfdbg2/mnist_nan"
json_expect module_unknown_elsewhere 'd["known"] is False and d["parent"] is None and d["children"] == [] and "no module tree" in d["note"]'
