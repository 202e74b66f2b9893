#!/usr/bin/env bash
# batch_msprobe_compare.sh - two msprobe runs compared as msprobe's compare
# does (issue 27): pairing (backward ordinals, --fuzzy, ranks by sorted
# position, MindSpore against PyTorch), numbers, Result and the CSV.
#
# The pairs come from tests/gen/gen_msprobe_pair.py, which writes a golden
# and a target run and, in truth.json, every leaf with the logical call it
# belongs to ("fwd:linear#1.output.0"): a pair is right when both rows are
# the same call.  Numbers are computed here with numpy from the values the
# generator wrote, never from tdbg's output.
. "$(dirname "$0")/lib.sh"

GEN=$TOP/tests/gen/gen_msprobe_pair.py

# pairs NAME DIR EXPR: EXPR over d (the diff document), T (truth.json), G / B
# (the leaves of the golden / target run in tdbg's row order: ranks in
# order, each entry's inputs then outputs) and P (the pairs as (golden leaf,
# target leaf)).
pairs()
{
	local why
	if why=$($PYNUM -c "$_JSON_PY"'
import math
import numpy as np
d = load(sys.argv[3])
if isinstance(d, list):
    d = d[-1]
T = json.load(open(sys.argv[2] + "/truth.json"))
def rows(side):
    out = []
    for u in T["units"]:
        if u["side"] != side:
            continue
        for e in u["entries"]:
            ls = [dict(l, host=u["host"]) for l in u["leaves"] if l["entry"] == e["entry"]]
            out += [l for l in ls if l["is_input"]] + [l for l in ls if not l["is_input"]]
    return out
G, B = rows("golden"), rows("target")
P = [(G[r["a_index"]], B[r["b_index"]]) for r in d["rows"]]
r = eval("(" + sys.argv[1] + ")", {"d": d, "T": T, "G": G, "B": B, "P": P, "np": np,
                                   "math": math})
if not r:
    print("false: " + sys.argv[1]); sys.exit(1)' "$3" "$2" "$OUT" 2>&1); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}

# ---- pairing: backward ordinals, every rank in one run -------------------
D=$WORK/pt
"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 3 --diverge-rank 1
tdbg_run --json -e diff "$D/golden" "$D/target"
expect_rc 0 diff_exit_0
pairs every_leaf_paired "$D" 'd["aligned"] == len(G) == len(B) and d["only_a"] == 0
	and d["only_b"] == 0'
pairs pairs_join_the_same_call "$D" 'all(g["call"] == b["call"] and g["host"] == b["host"]
	for g, b in P)'
pairs backward_paired_by_ordinal_not_by_name "$D" 'any(g["entry"] == "Functional.linear.0.backward"
	and b["entry"] == "Functional.linear.1.backward" for g, b in P)'
pairs b_op_name_is_the_target_entry "$D" 'all(r["b_op_name"] == B[r["b_index"]]["entry"]
	for r in d["rows"])'

# ---- ranks by sorted position (rank2 before rank10) ----------------------
mv "$D/target/step0/rank0" "$D/target/step0/rank2_"
mv "$D/target/step0/rank1" "$D/target/step0/rank10"
mv "$D/target/step0/rank2_" "$D/target/step0/rank2"
tdbg_run --json -e diff "$D/golden" "$D/target"
pairs ranks_paired_by_sorted_position "$D" 'd["aligned"] == len(G) and
	{(r["host"], r["b_host"]) for r in d["rows"]} == {("rank0", "rank2"), ("rank1", "rank10")}'

# ---- --fuzzy: counts dropped, calls paired in order -----------------------
F=$WORK/offset
"$PYNUM" "$GEN" "$F" --ranks 1 --diverge-rank 0 --target-offset 3
tdbg_run --json -e diff "$F/golden" "$F/target"
pairs exact_names_leave_shifted_counts_unpaired "$F" 'd["only_a"] > 0 and d["only_b"] > 0'
tdbg_run --json --fuzzy -e diff "$F/golden" "$F/target"
pairs fuzzy_pairs_every_call "$F" 'd["aligned"] == len(G) and d["only_a"] == 0 and d["only_b"] == 0
	and all(g["call"] == b["call"] for g, b in P)'

# ---- MindSpore target against a PyTorch golden ---------------------------
M=$WORK/ms
"$PYNUM" "$GEN" "$M" --ranks 2 --target-framework mindspore
tdbg_run --json -e diff "$M/golden" "$M/target"
pairs mindspore_float32_is_torch_float32 "$M" 'd["aligned"] == len(G)
	and all(g["call"] == b["call"] for g, b in P) and B[0]["dtype"] == "Float32"
	and not any(r["metrics"]["dtype_differs"] for r in d["rows"])'

# ---- the first divergence is the known one --------------------------------
tdbg_run --json -e 'diff --first' "$D/golden" "$D/target"
pairs first_divergence_is_known "$D" 'd["first"] is not None and
	G[d["first"]["a_index"]]["call"].startswith(T["first"]["call"] + ".output")
	and d["first"]["host"] == "rank%d" % T["first"]["rank"] and d["first"]["cause"] == "op diverged"'
