#!/usr/bin/env bash
# batch_msprobe_maps.sh - msprobe compare's name maps on a MindSpore target
# against a PyTorch golden (issue 27): --api-mapping (msprobe -am's
# built-in rules; =FILE: -am FILE), --cell-mapping[=FILE] (-cm) and --data-mapping FILE
# (-dm, full leaf names), their pairs, the JSON and the CSV's Name
# columns, and the errors of bad map files.
#
# tests/gen/gen_msprobe_pair.py --ms-names writes the target with MindSpore
# names (Functional.dense, MintFunctional.relu, Mint.tanh, Cell.dense1.Dense,
# Cell.act.ReLU) and says in truth.json, per leaf, which map gives the
# golden's name back ("fix": same, api, cell, cell-file).  Under a map, a
# target leaf pairs exactly when its fix is one that map has, and then with
# the golden leaf of the same logical call and rank: the checks compute
# that from truth.json, never from tdbg's output.
. "$(dirname "$0")/lib.sh"

GEN=$TOP/tests/gen/gen_msprobe_pair.py
CELLS=$TOP/tests/fixtures/msprobe_maps/cell_mapping.yaml
export PYTHONPATH=$TOP/tests/gen${PYTHONPATH:+:$PYTHONPATH}

# follows NAME DIR FIXES [CSV]: the diff in $OUT pairs the target leaves
# whose fix is in FIXES (comma-separated), each with the golden leaf of its
# call and rank, and leaves the others only in B; with CSV, that file's
# NPU Name / Bench Name columns say the same with each side's own names.
follows()
{
	local why
	if why=$(python3 -c '
import csv, json, sys
from gen_msprobe_pair import truth_rows, csv_rows
T = json.load(open(sys.argv[1] + "/truth.json"))
fixes = set(sys.argv[2].split(","))
G, B = truth_rows(T, "golden"), truth_rows(T, "target")
gold = {(g["call"], g["host"]): g for g in G}
want = [(gold[(b["call"], b["host"])], b) for b in B if b["fix"] in fixes]
d = json.loads(open(sys.argv[3]).read().splitlines()[-1])
got = [(G[r["a_index"]], B[r["b_index"]]) for r in d["rows"]]
bad = []
if d["aligned"] != len(want):
    bad.append("aligned %d, want %d" % (d["aligned"], len(want)))
if d["only_b"] != len(B) - len(want) or d["only_a"] != len(G) - len(want):
    bad.append("only_a %d only_b %d, want %d %d" % (d["only_a"], d["only_b"],
               len(G) - len(want), len(B) - len(want)))
if sorted((g["name"], b["name"]) for g, b in got) != sorted((g["name"], b["name"]) for g, b in want):
    bad.append("pairs differ: %s" % sorted(set((g["name"], b["name"]) for g, b in got) ^
                                        set((g["name"], b["name"]) for g, b in want))[:4])
if len(sys.argv) > 4:
    # the CSV rows: the leaves and the non-tensor arguments (csv_rows)
    rows = list(csv.reader(open(sys.argv[4], newline="")))
    h = rows[0]
    names = [(r[h.index("NPU Name")], r[h.index("Bench Name")]) for r in rows[1:]]
    goldc = {(g["call"], g["host"]): g for g in csv_rows(T, "golden")}
    exp = [(b["name"], goldc[(b["call"], b["host"])]["name"] if b["fix"] in fixes else "N/A")
           for b in csv_rows(T, "target")]
    if names != exp:
        bad.append("csv names differ: %s" % [(x, y) for x, y in zip(names, exp) if x != y][:3])
if bad:
    print("; ".join(bad)); sys.exit(1)' "$2" "$3" "$OUT" ${4:+"$4"} 2>&1); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}

D=$WORK/ms
python3 "$GEN" "$D" --ranks 2 --target-framework mindspore --ms-names

tdbg_run --json -e diff "$D/golden" "$D/target"
expect_rc 0 no_map_exit_0
follows without_maps_only_same_names_pair "$D" same

tdbg_run --json --api-mapping -e diff "$D/golden" "$D/target"
expect_rc 0 api_exit_0
follows api_mapping_pairs_mint_and_table_apis "$D" same,api

tdbg_run --json --cell-mapping -e diff "$D/golden" "$D/target"
expect_rc 0 cell_exit_0
follows cell_mapping_alone_turns_cell_into_module "$D" same,cell

tdbg_run --json "--cell-mapping=$CELLS" -e "diff --csv $WORK/cells.csv" -e diff "$D/golden" "$D/target"
expect_rc 0 cell_file_exit_0
follows cell_mapping_file_renames_cells_in_pairs_and_csv "$D" same,cell,cell-file "$WORK/cells.csv"

# both: the API rules win, as in msprobe (cells stay unpaired)
tdbg_run --json --api-mapping "--cell-mapping=$CELLS" -e "diff --csv $WORK/both.csv" -e diff \
	"$D/golden" "$D/target"
follows api_rules_win_over_cells "$D" same,api "$WORK/both.csv"

# ---- --data-mapping (msprobe -dm): full leaf names ------------------------
# gen --dm-names: the target's tanh is NPU.npu_fast_tanh with a mask first,
# its second linear lists weight and operand swapped; truth.json says per
# leaf which golden leaf it is ("call") and which its own name pairs with
# without the map ("call_nomap"; "fix": "data" for the leaves the map
# restores, "none" for the mask).
# leaf_follows NAME DIR FIXES [CSV]: the diff in $OUT pairs each target
# leaf whose fix is in FIXES (comma-separated) with the golden leaf the map
# gives it, each other leaf with the one its own name gives it
# ("call_nomap" where the truth has one), and leaves the rest only in B /
# only in A.
leaf_follows()
{
	local why
	if why=$(python3 -c '
import csv, json, sys
from gen_msprobe_pair import truth_rows, csv_rows
T = json.load(open(sys.argv[1] + "/truth.json"))
fixes = set(sys.argv[2].split(","))
def want_of(rows_b, rows_g):
    gold = {(g["call"], g["host"]): g for g in rows_g}
    out = []
    for b in rows_b:
        call = b["call"] if b["fix"] in fixes or "call_nomap" not in b else b["call_nomap"]
        out.append((gold.get((call, b["host"])) if call else None, b))
    return out
G, B = truth_rows(T, "golden"), truth_rows(T, "target")
want = [(g, b) for g, b in want_of(B, G) if g is not None]
d = json.loads(open(sys.argv[3]).read().splitlines()[-1])
got = [(G[r["a_index"]], B[r["b_index"]]) for r in d["rows"]]
bad = []
if (d["aligned"], d["only_a"], d["only_b"]) != (len(want), len(G) - len(want), len(B) - len(want)):
    bad.append("aligned/only_a/only_b %d %d %d, want %d %d %d" % (d["aligned"], d["only_a"],
               d["only_b"], len(want), len(G) - len(want), len(B) - len(want)))
key = lambda ps: sorted((g["name"], g["host"], b["name"]) for g, b in ps)
if key(got) != key(want):
    bad.append("pairs differ: %s" % sorted(set(key(got)) ^ set(key(want)))[:4])
if len(sys.argv) > 4:
    rows = list(csv.reader(open(sys.argv[4], newline="")))
    h = rows[0]
    names = [(r[h.index("NPU Name")], r[h.index("Bench Name")]) for r in rows[1:]]
    exp = [(b["name"], g["name"] if g else "N/A")
           for g, b in want_of(csv_rows(T, "target"), csv_rows(T, "golden"))]
    if names != exp:
        bad.append("csv names differ: %s" % [(x, y) for x, y in zip(names, exp) if x != y][:3])
if bad:
    print("; ".join(bad)); sys.exit(1)' "$2" "$3" "$OUT" ${4:+"$4"} 2>&1); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}

DM=$WORK/dm
DATA=$TOP/tests/fixtures/msprobe_maps/data_mapping.yaml
python3 "$GEN" "$DM" --ranks 2 --dm-names
# the fixture holds the map the generator's truth says those leaves need
if python3 -c '
import json, sys
T = json.load(open(sys.argv[1] + "/truth.json"))
m = dict(l.split(": ") for l in open(sys.argv[2]).read().splitlines() if l and l[0] != "#")
sys.exit(m != T["data_mapping"])' "$DM" "$DATA"; then
	ok data_mapping_fixture_is_the_truths_map
else
	fail data_mapping_fixture_is_the_truths_map "$DATA differs from truth.json"
fi

tdbg_run --json -e diff "$DM/golden" "$DM/target"
expect_rc 0 dm_none_exit_0
leaf_follows without_data_map_leaves_pair_by_own_names "$DM" -

tdbg_run --json "--data-mapping=$DATA" -e "diff --csv $WORK/dm.csv" -e diff "$DM/golden" "$DM/target"
expect_rc 0 dm_exit_0
leaf_follows data_map_pairs_renamed_and_renumbered_leaves "$DM" data "$WORK/dm.csv"

tdbg_run --json --data-mapping "$DATA" --fuzzy -e diff "$DM/golden" "$DM/target"
expect_rc 0 dm_fuzzy_exit_0
leaf_follows data_map_with_fuzzy_and_file_after_space "$DM" data

# one kind of rewrite, as msprobe: the API rules win over the data map
tdbg_run --json --api-mapping "--data-mapping=$DATA" -e diff "$DM/golden" "$DM/target"
expect_rc 0 dm_api_exit_0
leaf_follows api_rules_win_over_data_map "$DM" -

tdbg_run --json "--data-mapping=$DATA" -e info "$DM/golden"
expect_rc 1 dm_without_diff_exit_1
expect_file_has dm_without_diff_said "$ERR" "--data-mapping maps the leaf names of a diff: give two dumps"

printf -- '- a.0.forward.input.0\n' >"$WORK/dmlist.yaml"
tdbg_run --json "--data-mapping=$WORK/dmlist.yaml" -e diff "$DM/golden" "$DM/target"
expect_rc 1 dm_wrong_layout_exit_1
expect_file_has dm_wrong_layout_said "$ERR" "dmlist.yaml:1: a data mapping is one mapping"

printf 'a.0.forward.input.0: b.0.forward.input.0\na.0.forward.input.0: c.0.forward.input.0\n' \
	>"$WORK/dmtwice.yaml"
tdbg_run --json "--data-mapping=$WORK/dmtwice.yaml" -e diff "$DM/golden" "$DM/target"
expect_rc 1 dm_twice_exit_1
expect_file_has dm_twice_said "$ERR" "dmtwice.yaml: \"a.0.forward.input.0\" is mapped twice"

# ---- --api-mapping=FILE (msprobe -am FILE): argument/output renumbering ----
# gen --am-names: the target's linears list weight before operand (forward
# inputs, backward outputs); the fixture file renumbers them back.
AM=$WORK/am
AMF=$TOP/tests/fixtures/msprobe_maps/api_mapping.yaml
python3 "$GEN" "$AM" --ranks 2 --am-names

tdbg_run --json -e diff "$AM/golden" "$AM/target"
expect_rc 0 am_none_exit_0
leaf_follows without_api_file_leaves_pair_by_own_places "$AM" -

tdbg_run --json "--api-mapping=$AMF" -e "diff --csv $WORK/am.csv" -e diff "$AM/golden" "$AM/target"
expect_rc 0 am_file_exit_0
leaf_follows api_file_renumbers_arguments_and_gradients "$AM" api-file "$WORK/am.csv"

tdbg_run --json --api-mapping -e diff "$AM/golden" "$AM/target"
expect_rc 0 am_builtin_exit_0
leaf_follows api_rules_without_file_keep_places "$AM" -

tdbg_run --json --api-mapping "$AMF" -e diff "$AM/golden" "$AM/target"
expect_rc 1 am_file_after_space_exit_1
expect_file_has am_file_after_space_said "$ERR" "--api-mapping takes its file after '=': --api-mapping=$AMF"

printf -- '- ms_api: Functional.linear\n  pt_api: Functional.linear\n  ms_args: [0, 1]\n  pt_args: [1]\n' \
	>"$WORK/amlen.yaml"
tdbg_run --json "--api-mapping=$WORK/amlen.yaml" -e diff "$AM/golden" "$AM/target"
expect_rc 1 am_lengths_exit_1
expect_file_has am_lengths_said "$ERR" "amlen.yaml:1: Functional.linear's MindSpore and PyTorch index lists differ"

printf 'fc1.Dense: fc1.Linear\n' >"$WORK/amcells.yaml"
tdbg_run --json "--api-mapping=$WORK/amcells.yaml" -e diff "$AM/golden" "$AM/target"
expect_rc 1 am_wrong_layout_exit_1
expect_file_has am_wrong_layout_said "$ERR" "amcells.yaml:1: an API mapping item needs ms_api"

# ---- bad map files: one clear line naming the file (and its line) --------
tdbg_run --json "--cell-mapping=$WORK/none.yaml" -e diff "$D/golden" "$D/target"
expect_rc 1 missing_map_exit_1
expect_file_has missing_map_named "$ERR" "none.yaml: no such file"

printf 'dense1.Dense: fc1.Linear\n  bad: [\n' >"$WORK/bad.yaml"
tdbg_run --json "--cell-mapping=$WORK/bad.yaml" -e diff "$D/golden" "$D/target"
expect_rc 1 bad_yaml_exit_1
expect_file_has bad_yaml_names_file_and_line "$ERR" "bad.yaml:2:"

printf -- '- dense1.Dense\n- fc1.Linear\n' >"$WORK/list.yaml"
tdbg_run --json "--cell-mapping=$WORK/list.yaml" -e diff "$D/golden" "$D/target"
expect_rc 1 wrong_layout_exit_1
expect_file_has wrong_layout_said "$ERR" "list.yaml:1: a cell mapping is one mapping"

printf 'a: &x fc1\nb: *x\n' >"$WORK/alias.yaml"
tdbg_run --json "--cell-mapping=$WORK/alias.yaml" -e diff "$D/golden" "$D/target"
expect_rc 1 alias_exit_1
expect_file_has alias_refused "$ERR" "alias.yaml:2: an alias"

# the file after a space is no file of the option (getopt): said so
tdbg_run --json --cell-mapping "$CELLS" -e diff "$D/golden" "$D/target"
expect_rc 1 cell_file_after_space_exit_1
expect_file_has cell_file_after_space_said "$ERR" "--cell-mapping takes its file after '=': --cell-mapping=$CELLS"

# a map needs two dumps, and a format that has maps
tdbg_run --json --api-mapping -e info "$D/golden"
expect_rc 1 map_without_diff_exit_1
expect_file_has map_without_diff_said "$ERR" "give two dumps"
tdbg_run --json --api-mapping -e diff "$TOP/tests/fixtures/tfdbg2/mnist_nan" "$TOP/tests/fixtures/tfdbg2/mnist_nan"
expect_rc 1 format_without_maps_exit_1
expect_file_has format_without_maps_said "$ERR" "dumps have no name maps"

# ---- --layer-mapping (msprobe -lm): scopes from construct.json and stack.json --
# gen --lm-names --target-offset 3: the target's forward names pair with
# nothing by name, its backward calls by rank (the wrong ones: the golden
# wrote them in another order); truth.json's
# "call_lm" is the golden call each target leaf pairs with under the map
# (null: the tanh, whose framework function differs, and the sum, whose
# layer has no rule).
# layer_follows NAME DIR MAPPED [CSV]: the diff in $OUT pairs each target
# leaf as the map says (MAPPED=1; 1:PREFIX: but the entries named PREFIX...
# with nothing) or by its own name (0), the others only in B / only in A;
# with CSV, its Name columns the same.
layer_follows()
{
	local why
	if why=$(python3 -c '
import csv, json, sys
from gen_msprobe_pair import truth_rows, csv_rows
T = json.load(open(sys.argv[1] + "/truth.json"))
mapped = sys.argv[2].startswith("1")
unpaired = sys.argv[2][2:] or None      # "1:PREFIX": those entries pair with nothing
off = T["args"]["target_offset"]
def backward_rank(side, host):
    # entry -> (API, rank among the backward entries of the API in file
    # order), and back: how calls pair by name alone (FORMAT.md §10)
    seen, of, back = {}, {}, {}
    for u in T["units"]:
        if u["side"] == side and u["host"] == host:
            for e in u["entries"]:
                if e["entry"].endswith(".backward"):
                    api = e["entry"].split(".")[1]
                    of[e["entry"]] = (api, seen.get(api, 0))
                    back[(api, seen.get(api, 0))] = e["call"]
                    seen[api] = seen.get(api, 0) + 1
    return of, back
def call_of(b):
    if mapped:
        return None if unpaired and b["entry"].startswith(unpaired) else b["call_lm"]
    if b["entry"].endswith(".backward"):    # by rank among the backward calls of the API
        key = backward_rank("target", b["host"])[0][b["entry"]]
        return backward_rank("golden", b["host"])[1][key] + b["call"][len(b["call"].split(".")[0]):]
    return b["call"] if off == 0 else None
def want_of(rows_b, rows_g):
    gold = {(g["call"], g["host"]): g for g in rows_g}
    return [(gold.get((call_of(b), b["host"])), b) for b in rows_b]
G, B = truth_rows(T, "golden"), truth_rows(T, "target")
want = [(g, b) for g, b in want_of(B, G) if g is not None]
d = json.loads(open(sys.argv[3]).read().splitlines()[-1])
got = [(G[r["a_index"]], B[r["b_index"]]) for r in d["rows"]]
bad = []
if (d["aligned"], d["only_a"], d["only_b"]) != (len(want), len(G) - len(want), len(B) - len(want)):
    bad.append("aligned/only_a/only_b %d %d %d, want %d %d %d" % (d["aligned"], d["only_a"],
               d["only_b"], len(want), len(G) - len(want), len(B) - len(want)))
key = lambda ps: sorted((g["name"], g["host"], b["name"]) for g, b in ps)
if key(got) != key(want):
    bad.append("pairs differ: %s" % sorted(set(key(got)) ^ set(key(want)))[:4])
if len(sys.argv) > 4:
    rows = list(csv.reader(open(sys.argv[4], newline="")))
    h = rows[0]
    names = [(r[h.index("NPU Name")], r[h.index("Bench Name")]) for r in rows[1:]]
    exp = [(b["name"], g["name"] if g else "N/A")
           for g, b in want_of(csv_rows(T, "target"), csv_rows(T, "golden"))]
    if names != exp:
        bad.append("csv names differ: %s" % [(x, y) for x, y in zip(names, exp) if x != y][:3])
if bad:
    print("; ".join(bad)); sys.exit(1)' "$2" "$3" "$OUT" ${4:+"$4"} 2>&1); then
		ok "$1"
	else
		fail "$1" "$why"
	fi
}

LM=$WORK/lm
LMF=$TOP/tests/fixtures/msprobe_maps/layer_mapping.yaml
python3 "$GEN" "$LM" --ranks 2 --lm-names --target-offset 3

tdbg_run --json -e diff "$LM/golden" "$LM/target"
expect_rc 0 lm_none_exit_0
layer_follows without_layer_map_backward_calls_pair_by_rank "$LM" 0

tdbg_run --json "--layer-mapping=$LMF" -e "diff --csv $WORK/lm.csv" -e diff "$LM/golden" "$LM/target"
expect_rc 0 lm_exit_0
layer_follows layer_map_pairs_calls_by_scope_state_and_place "$LM" 1 "$WORK/lm.csv"

tdbg_run --json --layer-mapping "$LMF" -e diff "$LM/golden" "$LM/target"
expect_rc 0 lm_file_after_space_exit_0
layer_follows layer_map_file_after_space "$LM" 1

# the longest rule first; the old top key "Cell" stands for "TopLayer"
printf 'TopLayer:\n  first: nowhere\nCell:\n  first: block1\n  second: block2\n' >"$WORK/lmcell.yaml"
tdbg_run --json "--layer-mapping=$WORK/lmcell.yaml" -e diff "$LM/golden" "$LM/target"
layer_follows layer_map_old_top_key_cell "$LM" 1
printf 'TopLayer:\n  first: block1\n  second: nowhere\n  second.linear: block2.linear\n' >"$WORK/lmlong.yaml"
tdbg_run --json "--layer-mapping=$WORK/lmlong.yaml" -e diff "$LM/golden" "$LM/target"
layer_follows layer_map_longest_rule_first_mul_unpaired "$LM" 1:Tensor.mul.
LMS=$WORK/lm_ms
python3 "$GEN" "$LMS" --ranks 1 --lm-names --target-offset 2 --target-framework mindspore
tdbg_run --json "--layer-mapping=$LMF" -e diff "$LMS/golden" "$LMS/target"
expect_rc 0 lm_ms_exit_0
layer_follows layer_map_mindspore_target_cells_and_construct "$LMS" 1

# one kind of rewrite, as msprobe: the API rules win (the calls keep their names)
tdbg_run --json --api-mapping "--layer-mapping=$LMF" -e diff "$LM/golden" "$LM/target"
expect_rc 0 lm_api_exit_0
layer_follows api_rules_win_over_layer_map "$LM" 0

# a layer map needs both dumps' construct.json and stack.json, as msprobe's
LMN=$WORK/lm_nostack
cp -r "$LM" "$LMN"
rm "$LMN"/target/step0/rank*/stack.json
tdbg_run --json "--layer-mapping=$LMF" -e diff "$LMN/golden" "$LMN/target"
expect_rc 0 lm_nostack_exit_0
layer_follows layer_map_without_target_stack_renames_nothing "$LMN" 0

# a pipeline stage: the target's ParallelTransformer holds layers 4 and 5
# (global numbers), the golden's 0 and 1; msprobe renumbers the layers
# under each ParallelTransformer from 0, so with an empty file (scopes
# alone) layer 4's linear pairs with layer 0's and 5's with 1's.
PP=$WORK/lm_pp
python3 - "$PP" <<'PY'
import json, os, sys
def side(name, first, count0):
    d = os.path.join(sys.argv[1], name, "step0", "rank0")
    os.makedirs(d)
    t = lambda v: {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2],
                   "Max": v, "Min": v, "Mean": v, "Norm": v, "requires_grad": False}
    data, cons, stack = {}, {}, {}
    data["Module.model.ParallelTransformer.forward.0"] = {"input_args": [t(1.0)], "input_kwargs": {},
                                                          "output": [t(2.0)]}
    cons["Module.model.ParallelTransformer.forward.0"] = None
    for k in range(2):
        layer = "Module.model.layers.%d.ParallelTransformerLayer.forward.0" % (first + k)
        api = "Functional.linear.%d.forward" % (count0 + k)
        data[layer] = {"input_args": [t(3.0 + k)], "input_kwargs": {}, "output": [t(4.0 + k)]}
        data[api] = {"input_args": [t(5.0 + k)], "input_kwargs": {}, "output": [t(6.0 + k)]}
        cons[layer] = "Module.model.ParallelTransformer.forward.0"
        cons[api] = layer
        stack[api] = ["File /work/m.py, line %d, in forward, \n y = F.linear(x)" % k]
    for f, v in (("dump.json", {"task": "statistics", "level": "mix", "framework": "pytorch",
                                 "dump_data_dir": None, "data": data}),
                 ("construct.json", cons), ("stack.json", stack)):
        json.dump(v, open(os.path.join(d, f), "w"), indent=1)
side("golden", 0, 0)
side("target", 4, 7)
PY
: >"$WORK/lmempty.yaml"
tdbg_run --json "--layer-mapping=$WORK/lmempty.yaml" -e diff "$PP/golden" "$PP/target"
expect_rc 0 lm_pp_exit_0
if python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
got = sorted((r["op_name"], r["b_op_name"]) for r in d["rows"])
want = sorted([("Module.model.ParallelTransformer.forward.0",) * 2] * 2 +
              [("Module.model.layers.%d.ParallelTransformerLayer.forward.0" % k,
                "Module.model.layers.%d.ParallelTransformerLayer.forward.0" % (k + 4)) for k in range(2)] * 2 +
              [("Functional.linear.%d.forward" % k, "Functional.linear.%d.forward" % (k + 7))
               for k in range(2)] * 2)
sys.exit(got != want or (d["only_a"], d["only_b"]) != (0, 0))' "$OUT"; then
	ok layer_map_renumbers_parallel_transformer_layers
else
	fail layer_map_renumbers_parallel_transformer_layers "$(head -c 600 "$OUT")"
fi

tdbg_run --json "--layer-mapping=$LMF" "--data-mapping=$DATA" -e diff "$LM/golden" "$LM/target"
expect_rc 1 lm_with_dm_exit_1
expect_file_has lm_with_dm_said "$ERR" "--layer-mapping makes the data map: give it or --data-mapping, not both"
tdbg_run --json "--layer-mapping=$LMF" -e info "$LM/golden"
expect_rc 1 lm_without_diff_exit_1
expect_file_has lm_without_diff_said "$ERR" "--layer-mapping maps the layers of a diff: give two dumps"
tdbg_run --json "--layer-mapping=$LMF" --compare-hosts rank0,rank1 -e diff "$LM/golden"
expect_rc 1 lm_compare_hosts_exit_1
expect_file_has lm_compare_hosts_said "$ERR" "not of two hosts of one (--compare-hosts)"

printf -- '- first: block1\n' >"$WORK/lmlist.yaml"
tdbg_run --json "--layer-mapping=$WORK/lmlist.yaml" -e diff "$LM/golden" "$LM/target"
expect_rc 1 lm_wrong_layout_exit_1
expect_file_has lm_wrong_layout_said "$ERR" "lmlist.yaml:1: a layer mapping is one mapping of layer classes"
printf 'TopLayer: block1\n' >"$WORK/lmflat.yaml"
tdbg_run --json "--layer-mapping=$WORK/lmflat.yaml" -e diff "$LM/golden" "$LM/target"
expect_rc 1 lm_flat_exit_1
expect_file_has lm_flat_said "$ERR" "lmflat.yaml:1: the names of layer class \"TopLayer\" are not a mapping"
printf 'TopLayer:\n  first: [block1]\n' >"$WORK/lmseq.yaml"
tdbg_run --json "--layer-mapping=$WORK/lmseq.yaml" -e diff "$LM/golden" "$LM/target"
expect_rc 1 lm_seq_exit_1
expect_file_has lm_seq_said "$ERR" "lmseq.yaml:2: the golden name of \"first\" in \"TopLayer\" is not a plain name"
tdbg_run --json "--layer-mapping=$WORK/lmnone.yaml" -e diff "$LM/golden" "$LM/target"
expect_rc 1 lm_missing_exit_1
expect_file_has lm_missing_named "$ERR" "lmnone.yaml: no such file"
tdbg_run --json "--layer-mapping=$LMF" -e diff "$TOP/tests/fixtures/tfdbg2/mnist_nan" \
	"$TOP/tests/fixtures/tfdbg2/mnist_nan"
expect_rc 1 lm_format_without_exit_1
expect_file_has lm_format_without_said "$ERR" "dumps have no layer map"
tdbg_run --json "--layer-mapping=$LMF" -e diff "$TOP/tests/fixtures/tfdbg2/mnist_nan" "$LM/target"
expect_rc 1 lm_two_formats_exit_1
expect_file_has lm_two_formats_said "$ERR" "a layer map pairs two dumps of one format"

# nothing was written into the dumps
if find "$D" -newer "$D/truth.json" -type f | grep -q . ||
	find "$DM" -newer "$DM/truth.json" -type f | grep -q . ||
	find "$LM" -newer "$LM/truth.json" -type f | grep -q . ||
	find "$AM" -newer "$AM/truth.json" -type f | grep -q .; then
	fail dumps_untouched "$(find "$D" -newer "$D/truth.json" -type f | head -3)"
else
	ok dumps_untouched
fi

