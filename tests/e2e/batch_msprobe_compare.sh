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
export PYTHONPATH=$TOP/tests/gen${PYTHONPATH:+:$PYTHONPATH}   # truth_rows, for the checks

# pairs NAME DIR EXPR: EXPR over d (the diff document), T (truth.json), G / B
# (the leaves of the golden / target run in tdbg's row order: ranks in
# order, each entry's inputs then outputs), P (the pairs as (golden leaf,
# target leaf)) and C / CG (the target's / golden's CSV rows: leaves and
# non-tensor arguments in msprobe's order).
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
from gen_msprobe_pair import truth_rows, csv_rows
def rows(side):
    return truth_rows(T, side)
G, B = rows("golden"), rows("target")
C, CG = csv_rows(T, "target"), csv_rows(T, "golden")
P = [(G[r["a_index"]], B[r["b_index"]]) for r in d["rows"]] if isinstance(d.get("rows"), list) else []
r = eval("(" + sys.argv[1] + ")", {"d": d, "T": T, "G": G, "B": B, "P": P, "np": np,
                                   "math": math, "C": C, "CG": CG})
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

# ---- diff --csv: the statistics CSV, cell by cell -------------------------
# csv_check NAME DIR FILE: tdbg's CSV FILE equals the one computed
# here from truth.json: rows are the target's leaves in order, each paired
# with the golden leaf of the same call; numbers with numpy, spelled as
# Python writes them; Result by the rules of formats/msprobe.md §7.
csv_check()
{
	local why
	if why=$($PYNUM - "$2" "$3" <<'PY' 2>&1
import csv, json, math, sys
import numpy as np
T = json.load(open(sys.argv[1] + "/truth.json"))
got = list(csv.reader(open(sys.argv[2], newline="")))
from gen_msprobe_pair import csv_rows
import msprobe_arg_rules as A
NO_BENCH = "No bench data matched."     # msprobe's Err_message of a row without a pair
def rows(side):
    return csv_rows(T, side)
G = {(l["host"], l["call"]): l for l in rows("golden")}
def num(v):
    return float(v)                     # "NaN" tokens load as nan already
def raw(v):
    v = num(v)
    return (" inf" if v > 0 else " -inf") if math.isinf(v) else repr(v)
# msprobe's statistics rules (its CalcStatsDiff) on the values as Python
# prints them: equal texts "0" (NaN and NaN too), else by value class
def diff(n, b):
    return A.stat_pair(repr(float(n)), repr(float(b)))[0]
def rel(n, b):
    return A.stat_pair(repr(float(n)), repr(float(b)))[1]
def relf(n, b):
    if math.isnan(n) or math.isnan(b):
        return math.nan
    if n == b:
        return 0.0
    if math.isinf(n) or math.isinf(b) or b == 0:
        return math.inf
    return abs((n - b) / b)
def rg(v):
    return "N/A" if v is None else str(bool(v))
want = [["NPU Name", "Bench Name", "NPU Dtype", "Bench Dtype", "NPU Tensor Shape",
         "Bench Tensor Shape", "NPU Requires_grad", "Bench Requires_grad", "Max diff", "Min diff",
         "Mean diff", "L2norm diff", "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr",
         "NormRelativeErr", "NPU max", "NPU min", "NPU mean", "NPU l2norm", "Bench max",
         "Bench min", "Bench mean", "Bench l2norm", "Requires_grad Consistent", "Result",
         "Err_message"]]
B = rows("target")
i = 0
while i < len(B):
    j = i
    while j < len(B) and B[j]["entry"] == B[i]["entry"] and B[j]["host"] == B[i]["host"]:
        j += 1
    grp = B[i:j]
    res, err = [], []
    ins = []
    def dt(x):
        return x.split(".")[-1].lower()
    def pairs_dtype(n, b):
        fl = ("float16", "float32", "bfloat16")
        return dt(n["dtype"]) == dt(b["dtype"]) or (dt(n["dtype"]) in fl and dt(b["dtype"]) in fl)
    for n in grp:
        b = G.get((n["host"], n["call"]))
        r, e = 0, []
        if n.get("arg"):                    # a non-tensor argument (msprobe_arg_rules)
            nc = A.cells(n)
            bc = A.cells(b) if b else None
            if not bc or nc[0] is None or nc[0] != bc[0]:
                res.append(0); err.append([])
                continue
            if nc[4] is not None and not math.isfinite(nc[4]) and math.isfinite(bc[4]):
                r, e = 2, e + ["NPU max or min is nan or inf, Bench's are finite"]
            if nc[1] != bc[1]:
                r, e = 2, e + ["shape differs"]
            if nc[2] != bc[2]:
                r, e = 2, e + ["argument differs"]
            res.append(r); err.append(e)
            if nc[4] is not None:           # a number: one of the inputs the rules read
                ins.append(relf(nc[4], bc[4]))
            continue
        ns, bs = [num(v) for v in n["stats"]], [num(v) for v in b["stats"]]
        if not pairs_dtype(n, b):
            res.append(0); err.append([])
            continue
        if any(not math.isfinite(v) for v in ns[:2]) and all(math.isfinite(v) for v in bs[:2]):
            r, e = 2, e + ["NPU max or min is nan or inf, Bench's are finite"]
        if n["requires_grad"] is not None and b["requires_grad"] is not None and n["requires_grad"] != b["requires_grad"]:
            r, e = 2, e + ["requires_grad differs"]
        if dt(n["dtype"]) != dt(b["dtype"]):
            r, e = 2, e + ["dtype differs"]
        if n["shape"] != b["shape"]:
            r, e = 2, e + ["shape differs"]
        res.append(r); err.append(e)
        if n["is_input"]:
            ins.append(relf(ns[3], bs[3]))
    in_small = all(x < 0.1 for x in ins)
    in_max = max([x for x in ins if not math.isnan(x)], default=0.0)
    for k, n in enumerate(grp):
        b = G.get((n["host"], n["call"]))
        if n.get("arg"):
            nc = A.cells(n)
            bc = A.cells(b) if b else None
            na = lambda v: "N/A" if v is None else v
            if not bc or nc[0] is None or nc[0] != bc[0]:
                want.append([n["name"], "N/A", na(nc[0]), "N/A", na(nc[1]), "N/A", "N/A", "N/A"]
                            + ["N/A"] * 8 + [A.raw(n)] * 4 + ["N/A"] * 4 + ["N/A", "N/A", NO_BENCH])
                continue
            if not n["is_input"] and ins and nc[4] is not None:
                e = relf(nc[4], bc[4])
                if in_small and e > 0.5:
                    res[k] = 2; err[k].append("output NormRelativeErr > 0.5, every input's < 0.1")
                elif (in_max > 0 and e > 10 * in_max) or (in_max == 0 and e > 0.1):
                    res[k] = max(res[k], 1); err[k].append("output NormRelativeErr > 10x the inputs'")
            dc, rc = A.stat_pair(nc[2], bc[2])
            want.append([n["name"], b["name"], nc[0], bc[0], nc[1], bc[1], "N/A", "N/A"]
                        + [dc] * 4 + [rc] * 4 + [A.raw(n)] * 4 + [A.raw(b)] * 4
                        + ["True", ["pass", "warning", "error"][res[k]], "; ".join(err[k])])
            continue
        ns, bs = [num(v) for v in n["stats"]], [num(v) for v in b["stats"]]
        shape = lambda s: "[" + ", ".join(str(x) for x in s) + "]"
        if not pairs_dtype(n, b):           # written unmatched, as msprobe does
            want.append([n["name"], "N/A", n["dtype"], "N/A", shape(n["shape"]), "N/A",
                         rg(n["requires_grad"]), "N/A"] + ["N/A"] * 8 + [raw(x) for x in ns]
                        + ["N/A"] * 4 + ["N/A", "N/A", NO_BENCH])
            continue
        if not n["is_input"] and ins:
            e = relf(ns[3], bs[3])
            if in_small and e > 0.5:
                res[k] = 2; err[k].append("output NormRelativeErr > 0.5, every input's < 0.1")
            elif (in_max > 0 and e > 10 * in_max) or (in_max == 0 and e > 0.1):
                res[k] = max(res[k], 1); err[k].append("output NormRelativeErr > 10x the inputs'")
        want.append([n["name"], b["name"], n["dtype"], b["dtype"], shape(n["shape"]),
                     shape(b["shape"]), rg(n["requires_grad"]), rg(b["requires_grad"])]
                    + [diff(x, y) for x, y in zip(ns, bs)] + [rel(x, y) for x, y in zip(ns, bs)]
                    + [raw(x) for x in ns] + [raw(y) for y in bs]
                    + ["True" if n["requires_grad"] is None or b["requires_grad"] is None
                       or n["requires_grad"] == b["requires_grad"] else "False",
                       ["pass", "warning", "error"][res[k]], "; ".join(err[k])])
    i = j
if got != want:
    for g, w in zip(got, want):
        if g != w:
            print("row differs:\n got  %s\n want %s" % (g, w)); break
    print("rows: got %d, want %d" % (len(got), len(want)))
    sys.exit(1)
PY
); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}

D=$WORK/csv_pt
"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 3 --diverge-rank 1
tdbg_run --json -e "diff --csv $WORK/csv_pt.csv" "$D/golden" "$D/target"
expect_rc 0 csv_exit_0
csv_check csv_pt "$D" "$WORK/csv_pt.csv"
pairs csv_report "$D" 'd["file"].endswith("csv_pt.csv") and d["mode"] == "statistics"
	and d["rows"] == len(C) == 52 + 2 and d["error"] >= 1 and d["arguments"] == {"rows": 2,
	"unmatched": 0, "differ": 0}'
D=$WORK/csv_nan_target
"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 1 --diverge-rank 0 --nan target
tdbg_run --json -e "diff --csv $WORK/csv_nan_target.csv" "$D/golden" "$D/target"
csv_check csv_nan_target "$D" "$WORK/csv_nan_target.csv"
D=$WORK/csv_nan_golden
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge 2 --diverge-rank 0 --nan golden --target-framework mindspore
tdbg_run --json -e "diff --csv $WORK/csv_nan_golden.csv" "$D/golden" "$D/target"
csv_check csv_nan_golden_mindspore "$D" "$WORK/csv_nan_golden.csv"
# tdbg's verdict beside Result: the golden-side NaNs msprobe's rules pass
pairs csv_verdict_golden_nan_passed "$D" 'd["pass"] == d["rows"] and d["verdict"]["golden_nonfinite_passed"]
	== d["verdict"]["nonfinite_one_side"] == sum(1 for l in G if any(math.isnan(float(v))
	for v in l["stats"][:2])) > 0 and d["verdict"]["unmatched"] == 0'
# rows the exact names leave unpaired are counted, not passed silently
tdbg_run --json -e "diff --csv $WORK/csv_offset.csv" "$F/golden" "$F/target"
pairs csv_verdict_unmatched "$F" 'd["verdict"]["unmatched"] == sum(1 for l in C
	if l["entry"].endswith(".forward")) > 0'

# dtypes: float16 against float32 pairs (and differs: error), int64 does not
D=$WORK/csv_f16
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge-rank 0 --diverge 5 --sum-dtype torch.float16
tdbg_run --json -e "diff --csv $WORK/csv_f16.csv" "$D/golden" "$D/target"
csv_check csv_float16_pairs_with_float32 "$D" "$WORK/csv_f16.csv"
json_expect csv_float16_is_an_error 'd["error"] >= 1 and d["verdict"]["unmatched"] == 0'
D=$WORK/csv_i64
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge-rank 0 --diverge 5 --sum-dtype torch.int64
tdbg_run --json -e "diff --csv $WORK/csv_i64.csv" "$D/golden" "$D/target"
csv_check csv_int64_is_unmatched "$D" "$WORK/csv_i64.csv"
json_expect csv_int64_counted_unmatched 'd["verdict"]["unmatched"] == 1'

# never into a dump, never over a file without --force
tdbg_run --json -e "diff --csv $D/target/out.csv" "$D/golden" "$D/target"
expect_rc 1 csv_refuses_a_dump_directory
tdbg_run --json -e "diff --csv $WORK/csv_pt.csv" "$D/golden" "$D/target"
expect_rc 1 csv_refuses_to_replace_without_force
tdbg_run --json -e "diff --csv $WORK/csv_pt.csv --force" "$D/golden" "$D/target"
expect_rc 0 csv_force_replaces
# the CSV is written through a temporary file beside it, a piece at a time:
# none is left, whether the write was refused or done
expect_eq csv_leaves_no_temporary_file "$(ls -A "$WORK" | grep -c '^\.tmp\.')" 0

# ---- diff --csv on md5 and xor dumps: the md5 header, checksums compared --
# md5_check NAME DIR FILE: tdbg's CSV equals the one built here from
# truth.json: the md5 header (no statistics columns, no Err_message), each
# target leaf beside the golden leaf of the same call, Result "pass" when
# the two checksums the generator wrote are equal, "Different" when not,
# "N/A" for a leaf without a pair.  With --target-offset the target's
# forward calls are numbered one later: msprobe pairs exact names, so a
# forward leaf pairs with the golden leaf of its name (another call), or
# none.
md5_check()
{
	local why
	if why=$($PYNUM - "$2" "$3" <<'PY' 2>&1
import csv, json, sys
T = json.load(open(sys.argv[1] + "/truth.json"))
got = list(csv.reader(open(sys.argv[2], newline="")))
offset = T["args"]["target_offset"]
from gen_msprobe_pair import csv_rows
import msprobe_arg_rules as A
def rows(side):
    return csv_rows(T, side)
G = {(l["host"], l["call"]): l for l in rows("golden")}
GN = {(l["host"], l["name"]): l for l in rows("golden")}
def rg(v):
    return "N/A" if v is None else str(bool(v))
shape = lambda s: "[" + ", ".join(str(x) for x in s) + "]"
want = [["NPU Name", "Bench Name", "NPU Dtype", "Bench Dtype", "NPU Tensor Shape",
         "Bench Tensor Shape", "NPU Requires_grad", "Bench Requires_grad", "NPU MD5", "BENCH MD5",
         "Requires_grad Consistent", "Result"]]
for n in rows("target"):
    b = G.get((n["host"], n["call"]))
    if offset and n["entry"].endswith(".forward"):
        b = GN.get((n["host"], n["name"]))
    if n.get("arg"):                        # a non-tensor argument (msprobe_arg_rules)
        nc = A.cells(n)
        bc = A.cells(b) if b else None
        na = lambda v: "N/A" if v is None else v
        if not bc or nc[0] is None or nc[0] != bc[0]:
            want.append([n["name"], "N/A", na(nc[0]), "N/A", na(nc[1]), "N/A", "N/A", "N/A",
                         na(nc[3]), "N/A", "N/A", "N/A"])
        else:
            want.append([n["name"], b["name"], nc[0], bc[0], nc[1], bc[1], "N/A", "N/A", nc[3],
                         bc[3], "True", "pass" if nc[3] == bc[3] else "Different"])
        continue
    if b is None:
        want.append([n["name"], "N/A", n["dtype"], "N/A", shape(n["shape"]), "N/A",
                     rg(n["requires_grad"]), "N/A", n["md5"], "N/A", "N/A", "N/A"])
        continue
    want.append([n["name"], b["name"], n["dtype"], b["dtype"], shape(n["shape"]), shape(b["shape"]),
                 rg(n["requires_grad"]), rg(b["requires_grad"]), n["md5"], b["md5"],
                 str(n["requires_grad"] == b["requires_grad"]),
                 "pass" if n["md5"] == b["md5"] else "Different"])
if got != want:
    for g, w in zip(got, want):
        if g != w:
            print("row differs:\n got  %s\n want %s" % (g, w)); break
    print("rows: got %d, want %d" % (len(got), len(want)))
    sys.exit(1)
PY
); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}
for mode in md5 xor; do
	D=$WORK/csv_$mode
	"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 3 --diverge-rank 1 --summary $mode
	tdbg_run --json -e "diff --csv $WORK/csv_$mode.csv" "$D/golden" "$D/target"
	expect_rc 0 csv_${mode}_exit_0
	md5_check csv_${mode}_mode "$D" "$WORK/csv_$mode.csv"
	pairs csv_${mode}_report "$D" 'd["mode"] == "md5" and d["rows"] == len(C) and d["different"] > 0
		and d["pass"] + d["different"] == d["rows"] and d["warning"] == d["error"] == 0'
done
D=$WORK/csv_md5_offset
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge-rank 0 --diverge 5 --summary md5 --target-offset 1
tdbg_run --json -e "diff --csv $WORK/csv_md5_offset.csv" "$D/golden" "$D/target"
md5_check csv_md5_unmatched_is_na "$D" "$WORK/csv_md5_offset.csv"
# a statistics dump against an md5 one: the statistics CSV (both must carry checksums)
tdbg_run --json -e "diff --csv $WORK/csv_mixed.csv" "$WORK/csv_pt/golden" "$WORK/csv_md5/target"
json_expect csv_md5_needs_both_sides 'd["mode"] == "statistics" and "different" not in d'

# ---- diff --csv --stack: NPU_Stack_Info (msprobe's -s) -----------------------
# stack_check NAME DIR FILE PLAIN: FILE (written with --stack) is PLAIN
# (without) plus the last column, which holds, on each target entry's first
# input row, Python's repr of the target's frames for that entry as
# stack.json lists them, when the golden entry of the same call has frames
# too; "None" everywhere else.
stack_check()
{
	local why
	if why=$($PYNUM - "$2" "$3" "$4" <<'PY' 2>&1
import csv, json, sys
T = json.load(open(sys.argv[1] + "/truth.json"))
got = list(csv.reader(open(sys.argv[2], newline="")))
plain = list(csv.reader(open(sys.argv[3], newline="")))
gstack = {}
for u in T["units"]:
    if u["side"] == "golden":
        for e in u["entries"]:
            gstack[(u["host"], e["call"])] = e["stack"]
want = [plain[0] + ["NPU_Stack_Info"]]
k = 1
for u in T["units"]:
    if u["side"] != "target":
        continue
    for e in u["entries"]:
        # the entry's CSV rows, its non-tensor arguments among them
        ls = [l for l in u["leaves"] if l["entry"] == e["entry"]]
        ls = [l for l in ls if l["is_input"]] + [l for l in ls if not l["is_input"]]
        for i, l in enumerate(ls):
            cell = "None"
            if i == 0 and l["is_input"] and e["stack"] and gstack[(u["host"], e["call"])]:
                cell = repr(e["stack"])
            want.append(plain[k] + [cell])
            k += 1
if got != want:
    for g, w in zip(got, want):
        if g != w:
            print("row differs:\n got  %s\n want %s" % (g[-1:], w[-1:])); break
    print("rows: got %d, want %d" % (len(got), len(want)))
    sys.exit(1)
PY
); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}
D=$WORK/csv_stack
"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 3 --diverge-rank 1 --stack
tdbg_run --json -e "diff --csv $WORK/csv_stack_plain.csv" "$D/golden" "$D/target"
tdbg_run --json -e "diff --csv $WORK/csv_stack.csv --stack" "$D/golden" "$D/target"
expect_rc 0 csv_stack_exit_0
stack_check csv_stack_column "$D" "$WORK/csv_stack.csv" "$WORK/csv_stack_plain.csv"
D=$WORK/csv_stack_md5
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge-rank 0 --diverge 2 --summary md5 --stack
tdbg_run --json -e "diff --csv $WORK/csv_stack_md5_plain.csv" "$D/golden" "$D/target"
tdbg_run --json -e "diff --csv $WORK/csv_stack_md5.csv --stack" "$D/golden" "$D/target"
stack_check csv_stack_column_md5 "$D" "$WORK/csv_stack_md5.csv" "$WORK/csv_stack_md5_plain.csv"
D=$WORK/csv_stack_tensor
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge-rank 0 --diverge 2 --task tensor --stack
tdbg_run --json -e "diff --csv $WORK/csv_stack_tensor_plain.csv" "$D/golden" "$D/target"
tdbg_run --json -e "diff --csv $WORK/csv_stack_tensor.csv --stack" "$D/golden" "$D/target"
"$PYNUM" - "$WORK/csv_stack_tensor.csv" "$WORK/csv_stack_tensor_plain.csv" "$WORK/st_moved.csv" \
	"$WORK/st_moved_plain.csv" <<'PY'
import csv, sys
# Data_name stays last: move it out of both files, then compare as above
for src, dst in ((sys.argv[1], sys.argv[3]), (sys.argv[2], sys.argv[4])):
    rows = list(csv.reader(open(src, newline="")))
    csv.writer(open(dst, "w", newline="")).writerows(r[:-1] for r in rows)
    print(rows[0][-1], file=open(dst + ".last", "w"))
PY
expect_eq csv_stack_tensor_data_name_last "$(cat "$WORK/st_moved.csv.last")" "Data_name"
stack_check csv_stack_column_tensor "$D" "$WORK/st_moved.csv" "$WORK/st_moved_plain.csv"
tdbg_run --json -e "diff --stack" "$D/golden" "$D/target"
expect_rc 1 csv_stack_needs_csv
expect_file_has csv_stack_needs_csv_says_so "$ERR" "a column of diff --csv"

# ---- first divergence per rank, and which rank parts first -----------------
# Rank 0 diverges at the tanh (forward index 4), rank 1 earlier in its own run
# at the second linear (index 3): rank 1 is first although rank 0's rows
# come first.
D=$WORK/two
"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 3 --diverge-rank 1 --late 4
tdbg_run --json -e diff "$D/golden" "$D/target"
pairs first_per_rank "$D" '[(h["host"], G[h["a_index"]]["call"].split(".")[0], h["position"])
	for h in d["first_by_host"]] == [("rank%d" % r, c, [l for l in G if l["host"] == "rank%d" % r].index(
	next(l for l in G if l["host"] == "rank%d" % r and l["call"].startswith(c + ".output"))))
	for r, c in ((0, "fwd:tanh#0"), (1, "fwd:linear#1"))]'
pairs which_rank_first "$D" 'd["first_host"] == "rank1" and d["first"]["host"] == "rank0"'

# ---- diff --csv on a tensor task: the tensor header and metrics ------------
# tcsv_check NAME DIR FILE: every metric computed here with numpy from the
# values the generator wrote (float32, as in the .npy files), within 1e-12
# relative (summation order); every other cell exactly.
tcsv_check()
{
	local why
	if why=$($PYNUM - "$2" "$3" <<'PY' 2>&1
import csv, json, math, sys
import numpy as np
T = json.load(open(sys.argv[1] + "/truth.json"))
got = list(csv.reader(open(sys.argv[2], newline="")))
head = ["NPU Name", "Bench Name", "NPU Dtype", "Bench Dtype", "NPU Tensor Shape",
        "Bench Tensor Shape", "NPU Requires_grad", "Bench Requires_grad", "Cosine", "EucDist",
        "MaxAbsErr", "MaxRelativeErr", "One Thousandth Err Ratio", "Five Thousandths Err Ratio",
        "NPU max", "NPU min", "NPU mean", "NPU l2norm", "Bench max", "Bench min", "Bench mean",
        "Bench l2norm", "Requires_grad Consistent", "Result", "Err_message", "Data_name"]
assert got[0] == head, got[0]
from gen_msprobe_pair import csv_rows
import msprobe_arg_rules as A
def rows(side):
    return csv_rows(T, side)
G = {(l["host"], l["call"]): l for l in rows("golden")}
B = rows("target")
SCALAR = ("This is type of 0-d tensor, can not calculate 'Cosine', 'EucDist', "
          "'One Thousandth Err Ratio' and 'Five Thousandths Err Ratio'. ")
MSG = {}                                # row name -> msprobe's Err_message of the metrics
def metrics(n, b):
    if n.get("arg"):                    # no data file: msprobe's words, no metrics
        return ["N/A"] * 6
    x = np.array([float(v) for v in n["values"]], dtype=np.float32).astype(np.float64)
    y = np.array([float(v) for v in b["values"]], dtype=np.float32).astype(np.float64)
    fv = lambda v: math.nan if math.isnan(v) else float("{:.12f}".format(v))  # format_value
    def rel(x, y):                      # msprobe's RE: in float32 (the arrays' type)
        xf, yf = x.astype(np.float32), y.astype(np.float32)
        eps, zero = np.finfo(np.float32).eps, y == 0
        xf, yf = np.where(zero, xf + eps, xf), np.where(zero, yf + eps, yf)
        return np.abs((xf - yf) / yf)
    if n["shape"] == []:                # 0-d: before the NaN/Inf handling
        MSG[n["name"]] = SCALAR
        d = float(abs(x[0] - y[0]))
        return ["unsupported", "unsupported", fv(d), fv(float(rel(x, y).max())), "unsupported",
                "unsupported"]
    same = (np.isnan(x) & np.isnan(y)) | (np.isinf(x) & (x == y))
    x, y = np.where(same, 0, x), np.where(same, 0, y)
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        MSG[n["name"]] = "The position of inf or nan in NPU and bench Tensor do not match."
        return ["N/A"] * 6              # msprobe's npy_compare: NaN/Inf positions differ
    d = np.abs(x - y)
    re = rel(x, y)
    eps = np.finfo(float).eps
    if x.size <= 1:
        cos = "unsupported"
    elif np.linalg.norm(x) <= eps and np.linalg.norm(y) <= eps:
        cos = 1.0
    else:
        cos = fv(float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y))))
        cos = round(cos, 6) if cos > 0.9999 else cos
    return [cos, float(np.sqrt((d * d).sum())), fv(d.max()), fv(float(re.max())),
            fv((re < 0.001).mean()), fv((re < 0.005).mean())]
def same(g, w, c):
    if isinstance(w, float) and math.isnan(w):
        return g == "Nan"
    if isinstance(w, float):
        try:
            v = float(g)
        except ValueError:
            return False
        if c == 1:                  # EucDist: not rounded
            return math.isclose(v, w, rel_tol=1e-12, abs_tol=1e-15)
        # rounded as msprobe writes it: 12 decimals (a cosine above
        # 0.9999: 6), within the summation order's last digit
        nd = 6 if c == 0 and w > 0.9999 else 12
        return v == round(v, nd) and math.isclose(v, w, rel_tol=1e-12, abs_tol=1.5 * 10 ** -nd)
    return g == w
i, k = 0, 1
bad = []
while i < len(B):
    j = i
    while j < len(B) and B[j]["entry"] == B[i]["entry"] and B[j]["host"] == B[i]["host"]:
        j += 1
    grp = B[i:j]
    ms = [metrics(n, G.get((n["host"], n["call"]))) for n in grp]
    def num(m, c):
        return 1.0 if m[0] == "unsupported" and c == 0 else (math.nan if isinstance(m[c], str) else m[c])
    ins = [m for n, m in zip(grp, ms) if n["is_input"] and not n.get("arg")]
    in_one = min([num(m, 4) for m in ins if not math.isnan(num(m, 4))], default=math.inf)
    in_cos = min([num(m, 0) for m in ins if not math.isnan(num(m, 0))], default=math.inf)
    for n, m in zip(grp, ms):
        b = G.get((n["host"], n["call"]))
        if n.get("arg"):
            nc = A.cells(n)
            bc = A.cells(b) if b else None
            res, err = "pass", []
            if bc and nc[0] is not None and nc[0] == bc[0]:
                err = ["NPU does not have data file."]
                if nc[4] is not None and not math.isfinite(nc[4]) and math.isfinite(bc[4]):
                    res, err = "error", err + ["NPU max or min is nan or inf, Bench's are finite"]
                if nc[1] != bc[1]:
                    res, err = "error", err + ["shape differs"]
                if nc[2] != bc[2]:
                    res, err = "error", err + ["argument differs"]
            else:
                b = {"name": "N/A"}
                res, err = "N/A", ["No bench data matched."]   # msprobe's acc_compare
            row = got[k]
            want = m + [res, "; ".join(err), "['-1', '-1']"]
            have = row[8:14] + row[23:26]
            if row[0] != n["name"] or row[1] != b["name"] or have != want:
                bad.append((row[0], have, want))
            k += 1
            continue
        ns = [float(v) for v in n["stats"]]
        bs = [float(v) for v in b["stats"]]
        res, err = "pass", [MSG[n["name"]]] if n["name"] in MSG else []
        if any(not math.isfinite(v) for v in ns[:2]) and all(math.isfinite(v) for v in bs[:2]):
            res, err = "error", err + ["NPU max or min is nan or inf, Bench's are finite"]
        if not n["is_input"] and ins:
            if in_one > 0.9 and num(m, 4) < 0.1:
                res = "error"; err.append("output One Thousandth Err Ratio < 0.1, every input's > 0.9")
            elif in_cos > 0.9 and m[0] != "unsupported" and num(m, 0) < in_cos - 0.1:
                res = "warning" if res == "pass" else res
                err.append("output Cosine drops by more than 0.1 from the inputs'")
        row = got[k]
        want = m + [res, "; ".join(err), "['%s.npy', '%s.npy']" % (n["name"], b["name"])]
        have = row[8:14] + row[23:26]
        if row[0] != n["name"] or row[1] != b["name"] or not all(same(g, w, c) for c, (g, w) in enumerate(zip(have, want))):
            bad.append((row[0], have, want))
        k += 1
    i = j
if bad or k != len(got):
    print("rows %d/%d; first bad: %s" % (k, len(got), bad[:1])); sys.exit(1)
PY
); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}

D=$WORK/tensor
"$PYNUM" "$GEN" "$D" --task tensor --ranks 2 --diverge 3 --diverge-rank 1 --jitter
tdbg_run --json -e "diff --csv $WORK/tensor.csv" "$D/golden" "$D/target"
tcsv_check csv_tensor "$D" "$WORK/tensor.csv"
pairs csv_tensor_mode "$D" 'd["mode"] == "tensor" and d["rows"] == len(C) == 52 + 2'
D=$WORK/tensor_nan
"$PYNUM" "$GEN" "$D" --task tensor --ranks 1 --diverge 4 --diverge-rank 0 --nan target \
	--target-framework mindspore
tdbg_run --json -e "diff --csv $WORK/tensor_nan.csv" "$D/golden" "$D/target"
tcsv_check csv_tensor_nan_mindspore "$D" "$WORK/tensor_nan.csv"

# ---- two ranks of one run: the CSV holds the second rank's leaves only ------
D=$WORK/csv_pt
tdbg_run --json --compare-hosts rank0,rank1 -e "diff --csv $WORK/hosts.csv" "$D/golden"
pairs csv_compare_hosts_rows_of_b_only "$D" 'd["rows"] == sum(1 for l in CG if l["host"] == "rank1")
	and d["verdict"]["unmatched"] == 0'
expect_eq csv_compare_hosts_file_rows "$(json_get 'd["rows"]')" "$(($(wc -l <"$WORK/hosts.csv") - 1))"

# ---- non-tensor arguments as rows (msprobe_arg_rules.py has the cells) ------
# Every kind (int, float, bool, str, torch.dtype, torch.device, torch.Size,
# slice, a process group, a peer rank, a bare null), equal, differing and
# target-only (gen_msprobe_pair.py kwargs_of), in each CSV mode.
D=$WORK/csv_args
"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 3 --diverge-rank 1 --args
tdbg_run --json -e "diff --csv $WORK/csv_args.csv" "$D/golden" "$D/target"
expect_rc 0 csv_args_exit_0
csv_check csv_args_statistics "$D" "$WORK/csv_args.csv"
# per rank: linear 2+1, relu 1, mul 2, tanh 1 (null), sum 8 + 1 target-only;
# differing: device, scale, inplace, alpha, dim, size, reduction (idx's
# slice has no statistics: equal cells); unpaired: the null and extra
pairs csv_args_counted "$D" 'd["arguments"] == {"rows": 2 * 16, "unmatched": 2 * 2,
	"differ": 2 * 6} and d["rows"] == len(C) and d["verdict"]["unmatched"] == 2 * 2'
tdbg_run --json -e diff "$D/golden" "$D/target"
pairs csv_args_are_not_diff_rows "$D" 'd["aligned"] == len(G) == len(B) and d["only_b"] == 0'
for mode in md5; do
	D=$WORK/csv_args_$mode
	"$PYNUM" "$GEN" "$D" --ranks 1 --diverge 3 --diverge-rank 0 --summary $mode --args
	tdbg_run --json -e "diff --csv $WORK/csv_args_$mode.csv" "$D/golden" "$D/target"
	md5_check csv_args_${mode} "$D" "$WORK/csv_args_$mode.csv"
done
D=$WORK/csv_args_tensor
"$PYNUM" "$GEN" "$D" --task tensor --ranks 1 --diverge 3 --diverge-rank 0 --args
tdbg_run --json -e "diff --csv $WORK/csv_args_tensor.csv" "$D/golden" "$D/target"
tcsv_check csv_args_tensor "$D" "$WORK/csv_args_tensor.csv"
D=$WORK/csv_args_stack
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge 3 --diverge-rank 0 --stack --args
tdbg_run --json -e "diff --csv $WORK/csv_args_stack_plain.csv" "$D/golden" "$D/target"
tdbg_run --json -e "diff --csv $WORK/csv_args_stack.csv --stack" "$D/golden" "$D/target"
stack_check csv_args_stack_column "$D" "$WORK/csv_args_stack.csv" "$WORK/csv_args_stack_plain.csv"

# ---- calls without a tensor row: their arguments are their only rows -------
# (issue 27): Torch.sym_max (ints in and out) and Distributed.barrier (a
# group, a bool, a None output), in their place in file order, paired by
# call (gen_msprobe_pair.py --rowless), in each CSV mode; a host the diff
# leaves out gives none of them.
D=$WORK/csv_rowless
"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 3 --diverge-rank 1 --rowless
tdbg_run --json -e "diff --csv $WORK/csv_rowless.csv" "$D/golden" "$D/target"
expect_rc 0 csv_rowless_exit_0
csv_check csv_rowless_statistics "$D" "$WORK/csv_rowless.csv"
# per rank: sym_max 3 (2 differ), barrier 3 (the None output unpaired),
# the mul's scalar operand 1
pairs csv_rowless_counted "$D" 'd["arguments"] == {"rows": 2 * 7, "unmatched": 2 * 1,
	"differ": 2 * 2} and d["rows"] == len(C)'
tdbg_run --json -e diff "$D/golden" "$D/target"
pairs csv_rowless_are_not_diff_rows "$D" 'd["aligned"] == len(G) == len(B) and d["only_b"] == 0'
tdbg_run --json --compare-hosts rank0,rank1 -e "diff --csv $WORK/rowless_hosts.csv" "$D/golden"
pairs csv_rowless_compare_hosts "$D" 'd["rows"] == sum(1 for l in CG if l["host"] == "rank1")'
D=$WORK/csv_rowless_md5
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge 3 --diverge-rank 0 --summary md5 --rowless --args
tdbg_run --json -e "diff --csv $WORK/csv_rowless_md5.csv" "$D/golden" "$D/target"
md5_check csv_rowless_md5 "$D" "$WORK/csv_rowless_md5.csv"
D=$WORK/csv_rowless_tensor
"$PYNUM" "$GEN" "$D" --task tensor --ranks 1 --diverge 3 --diverge-rank 0 --rowless
tdbg_run --json -e "diff --csv $WORK/csv_rowless_tensor.csv" "$D/golden" "$D/target"
tcsv_check csv_rowless_tensor "$D" "$WORK/csv_rowless_tensor.csv"
D=$WORK/csv_rowless_stack
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge 3 --diverge-rank 0 --stack --rowless
tdbg_run --json -e "diff --csv $WORK/csv_rowless_stack_plain.csv" "$D/golden" "$D/target"
tdbg_run --json -e "diff --csv $WORK/csv_rowless_stack.csv --stack" "$D/golden" "$D/target"
stack_check csv_rowless_stack_column "$D" "$WORK/csv_rowless_stack.csv" "$WORK/csv_rowless_stack_plain.csv"

# ---- tensor mode's edge cases, as msprobe's npy_compare words them -----------
# A hand-made pair (numpy writes the .npy files): a float16 target against a
# float32 golden, two all-zero tensors, a zero target against a non-zero
# golden, an empty tensor, a shape that differs with the same element count.
# Expected cells from numpy and msprobe's rules (its format_value rounds to
# 12 decimals; the word of every metric and the Err_message of each check).
D=$WORK/tensor_edges
if why=$($PYNUM - "$D" <<'PY' 2>&1
import json, os, sys
import numpy as np
out = sys.argv[1]
F16 = np.array([0.5, -1.25, 3.0, 2.0], dtype=np.float16)
CASES = {  # name -> (golden array, target array)
    "Functional.mul.0.forward.input.0": (np.array([0.5, -1.25, 3.0009, 2.0], np.float32), F16),
    "Functional.mul.0.forward.input.1": (np.zeros(3, np.float32), np.zeros(3, np.float32)),
    "Functional.mul.0.forward.input.2": (np.array([0, 0.2998, 1.0, 2.5], np.float16),
                                         np.array([0.0005, 0.3, 1.0, 2.5], np.float16)),
    "Functional.mul.0.forward.output.0": (np.array([1, 2, 3], np.float32), np.zeros(3, np.float32)),
    "Functional.relu.0.forward.input.0": (np.zeros(0, np.float32), np.zeros(0, np.float32)),
    "Functional.relu.0.forward.output.0": (np.arange(6, dtype=np.float32).reshape(2, 3),
                                           np.arange(6, dtype=np.float32).reshape(3, 2)),
}
for side in ("golden", "target"):
    d = os.path.join(out, side, "step0", "rank0")
    os.makedirs(os.path.join(d, "dump_tensor_data"))
    data = {}
    for name, pair in CASES.items():
        v = pair[side == "target"]
        st = [float(v.max()), float(v.min()), float(v.astype(np.float64).mean()),
              float(np.linalg.norm(v.astype(np.float64)))] if v.size else [None] * 4
        rec = {"type": "torch.Tensor", "dtype": "torch." + str(v.dtype), "shape": list(v.shape),
               "Max": st[0], "Min": st[1], "Mean": st[2], "Norm": st[3],
               "requires_grad": False, "data_name": name + ".npy"}
        np.save(os.path.join(d, "dump_tensor_data", name + ".npy"), v)
        entry, leaf = name.split(".forward.")
        body = data.setdefault(entry + ".forward", {"input_args": [], "input_kwargs": {}, "output": []})
        body["input_args" if leaf.startswith("input") else "output"].append(rec)
    json.dump({"task": "tensor", "level": "L1", "framework": "pytorch", "dump_data_dir": None,
               "data": data}, open(os.path.join(d, "dump.json"), "w"), indent=1)
PY
); then ok csv_tensor_edges_written; else fail csv_tensor_edges_written "$why"; fi
tdbg_run --json -e "diff --csv $WORK/tensor_edges.csv" "$D/golden" "$D/target"
if why=$($PYNUM - "$WORK/tensor_edges.csv" <<'PY' 2>&1
import csv, sys
import numpy as np
got = {r[0]: r for r in csv.reader(open(sys.argv[1], newline=""))}
fv = lambda v: repr(float("{:.12f}".format(v)))     # msprobe's format_value, as Python writes it
x16 = np.array([0.5, -1.25, 3.0, 2.0], np.float16)
y32 = np.array([0.5, -1.25, 3.0009, 2.0], np.float32)
re = np.abs((x16 - y32) / y32)         # msprobe's RE, in numpy's float32 (no zero in y)
x, y = x16.astype(np.float64), y32.astype(np.float64)
d = np.abs(x - y)
cos = float("{:.12f}".format(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y))))
def half():     # two float16 tensors: msprobe's RE in numpy's half arithmetic, float16's eps at 0
    n = np.array([0.0005, 0.3, 1.0, 2.5], np.float16)
    b = np.array([0, 0.2998, 1.0, 2.5], np.float16)
    zero, eps = b == 0, np.finfo(np.float16).eps
    nz, bz = n.copy(), b.copy()
    nz[zero] += eps
    bz[zero] += eps
    re = np.abs((nz - bz) / bz)
    assert re.dtype == np.float16
    x, y = n.astype(np.float64), b.astype(np.float64)
    c = float("{:.12f}".format(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y))))
    return [repr(round(c, 6) if c > 0.9999 else c), repr(float(np.linalg.norm(x - y))),
            fv(np.abs(x - y).max()), fv(float(re.max())), fv((re < 0.001).mean()),
            fv((re < 0.005).mean())]
want = {
    "Functional.mul.0.forward.input.0": (
        [repr(round(cos, 6) if cos > 0.9999 else cos), repr(float(np.linalg.norm(x - y))),
         fv(d.max()), fv(float(re.max())), fv((re < 0.001).mean()), fv((re < 0.005).mean())],
        "Dtype of NPU and bench tensor do not match."),
    "Functional.mul.0.forward.input.1": (["1.0", "0.0", "0.0", "0.0", "1.0", "1.0"], ""),
    "Functional.mul.0.forward.input.2": (half(), ""),
    "Functional.mul.0.forward.output.0": (
        ["Nan", repr(float(np.linalg.norm([1.0, 2.0, 3.0]))), "3.0", "1.0", "0.0", "0.0"],
        "Cannot compare by Cosine Similarity, All the data is Zero in npu dump data."),
    "Functional.relu.0.forward.input.0": (["unsupported"] * 6, "This is empty data, can not compare."),
    "Functional.relu.0.forward.output.0": (["shape unmatched"] * 6,
                                           "Shape of NPU and bench tensor do not match. Skipped."),
}
bad = [(n, got.get(n, [""] * 26)[8:14], got.get(n, [""] * 26)[24], w)
       for n, w in want.items()
       if n not in got or got[n][8:14] != w[0] or got[n][24].split("; ")[0] != w[1]]
if bad or len(got) != len(want) + 1:
    print("rows %d; first bad: %s" % (len(got), bad[:1])); sys.exit(1)
PY
); then ok csv_tensor_edges; else fail csv_tensor_edges "$why"; fi

# ---- statistics of bool tensors (Max and Min are JSON booleans), and nulls ----
# msprobe keeps them as Python values: the raw cells "True" / "False", a null
# "None"; its statistics rules give "0" for equal values, "Diff" for True
# against False (a bool is no number to them), "0" for two nulls, "Nan" for
# a null against a number; two numbers their difference.
D=$WORK/bool_stats
if why=$($PYNUM - "$D" "$TDBG" "$WORK/bool_stats.csv" <<'PY' 2>&1
import csv, json, os, subprocess, sys
out, tdbg, path = sys.argv[1:4]
OUTS = {"golden": [(True, False, None, None), (True, True, None, None),
                   (None, None, None, None), (2.0, 1.0, 1.5, 2.0)],
        "target": [(False, False, None, None), (True, True, None, None),
                   (None, None, None, None), (2.0, 0.5, 1.25, None)]}
for side, outs in OUTS.items():
    d = os.path.join(out, side, "step0", "rank0")
    os.makedirs(d)
    recs = [{"type": "torch.Tensor", "dtype": "torch.bool" if isinstance(st[0], bool) else "torch.float32",
             "shape": [4] if st[0] is not None else [0], "Max": st[0], "Min": st[1],
             "Mean": st[2], "Norm": st[3], "requires_grad": False} for st in outs]
    json.dump({"task": "statistics", "level": "L1", "framework": "pytorch", "dump_data_dir": None,
               "data": {"Torch.eq.0.forward": {"input_args": [], "input_kwargs": {}, "output": recs}}},
              open(os.path.join(d, "dump.json"), "w"))
r = subprocess.run([tdbg, "-e", "diff --csv " + path, out + "/golden", out + "/target"],
                   capture_output=True, text=True)
assert r.returncode == 0, r.stderr
rows = list(csv.reader(open(path, newline="")))[1:]
def cells(n, b):                        # msprobe's statistics rules on Python values
    def one(x, y):
        if str(x) == str(y):
            return "0", "0"
        if x is None or y is None:
            return "Nan", "Nan"
        if isinstance(x, bool) or isinstance(y, bool):
            return "Diff", "Diff"
        return repr(x - y), repr(abs((x - y) / y * 100)) + "%" 
    pairs = [one(x, y) for x, y in zip(n, b)]
    return [p[0] for p in pairs] + [p[1] for p in pairs] + [str(v) for v in n] + [str(v) for v in b]
bad = []
for i, row in enumerate(rows):
    n, b = OUTS["target"][i], OUTS["golden"][i]
    if row[8:24] != cells(n, b):
        bad.append((row[0], row[8:24], cells(n, b)))
if bad or len(rows) != 4:
    print("rows %d; first bad: %s" % (len(rows), bad[:1])); sys.exit(1)
PY
); then ok csv_bool_statistics; else fail csv_bool_statistics "$why"; fi
