#!/usr/bin/env bash
# batch_diff.sh - two dumps compared (issue 16): tdbg DUMP_A DUMP_B,
# --pair, --compare-hosts and the diff command's JSON.
#
# Pairs come from tests/gen/gen_tfdbg2 (the expected rows are its
# parameters: --nan-at, --perturb-at, --half) and from a copy of the
# MindSpore sync_lenet fixture with a second rank whose Conv2D-op1 output
# (iteration 0) is altered here.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
g() { "$GEN" -q -n 2000 --ops 60 "$@" || die "generator failed: $*"; }

# ---- the same run twice: nothing diverges --------------------------------
g "$WORK/a"
g "$WORK/a2"
tdbg_run --json -e diff "$WORK/a" "$WORK/a2"
expect_rc 0 same_exit_0
json_expect same_counts 'd["aligned"] == 2000 and d["only_a"] == 0 and d["only_b"] == 0'
json_expect same_nothing_diverges 'd["diverged"] == 0 and d["first"] is None'
json_expect same_paths 'd["a"].endswith("/a") and d["b"].endswith("/a2")'
json_expect same_rows_all 'len(d["rows"]) == 2000 and all(not r["diverged"] and r["cause"] is None for r in d["rows"])'
json_expect same_pair_keys 'set(d["rows"][0]) == {"a_index", "b_index", "op_name", "op_type", "output_slot", "step", "host", "b_op_name", "b_host", "a", "b", "metrics", "diverged", "cause"}'
json_expect same_metrics_keys 'all(k in d["rows"][0]["metrics"] for k in ("cosine", "max_abs_err", "max_rel_err", "rmse"))'
json_expect same_rows_aligned_in_order 'all(r["a_index"] == r["b_index"] == i for i, r in enumerate(d["rows"]))'
tdbg_run --json -e 'diff 10:13' "$WORK/a" "$WORK/a2"
json_expect slice_rows '[r["a_index"] for r in d["rows"]] == [10, 11, 12]'

# ---- NaN from row 700 on (FULL_HEALTH counts) --------------------------------
g --nan-at -1 "$WORK/clean"
g --nan-at 700 --nan-every 1 "$WORK/nan700"
tdbg_run --json -e diff -e 'diff --first' -e 'diff --nonequal 0:1' "$WORK/clean" "$WORK/nan700"
expect_rc 0 nan_exit_0
json_expect nan_first_row 'd[0]["first"]["a_index"] == 700 and d[0]["first"]["b_index"] == 700'
json_expect nan_diverged_from_there 'd[0]["diverged"] == 1300'
json_expect nan_first_is_the_op 'd[0]["first"]["cause"] == "op diverged" and d[0]["first"]["metrics"]["nan_delta"] >= 1'
json_expect nan_first_summaries 'd[0]["first"]["a"]["nan"] == 0 and d[0]["first"]["b"]["nan"] >= 1'
json_expect nan_before_equal 'not any(r["diverged"] for r in d[0]["rows"][:700])'
json_expect nan_first_option 'd[1]["first"]["a_index"] == 700 and d[1]["diverged"] == 1 and len(d[1]["rows"]) == 1 and d[1]["aligned"] == 2000'
json_expect nan_nonequal 'd[2]["rows"][0]["a_index"] == 700'
# the same without the persistent index (issue 25: every row read through
# the row cache, the pairs a batch at a time, B's rows on a second thread;
# batches of 64, 128, 256, 512, 1024 pairs: 960 starts the fifth)
tdbg_run --json --no-cache -e diff -e 'diff --first' "$WORK/clean" "$WORK/nan700"
json_expect nocache_nan_first_row 'd[0]["first"]["a_index"] == 700 and d[0]["diverged"] == 1300'
json_expect nocache_nan_rows 'all(r["diverged"] == (r["a_index"] >= 700) for r in d[0]["rows"])'
json_expect nocache_nan_first_option 'd[1]["first"]["a_index"] == 700 and d[1]["diverged"] == 1 and d[1]["aligned"] == 2000'
g --nan-at 960 --nan-every 1 "$WORK/nan960"
tdbg_run --json --no-cache -e 'diff --first' -e diff "$WORK/clean" "$WORK/nan960"
json_expect nocache_batch_edge_first 'd[0]["first"]["a_index"] == 960 and d[0]["first"]["metrics"]["reason"] == "nonfinite"'
json_expect nocache_batch_edge_rows 'd[1]["diverged"] == 1040 and all(r["diverged"] == (r["a_index"] >= 960) for r in d[1]["rows"])'

# ---- float32 against float16 ------------------------------------------------
g -m FULL_TENSOR --nan-at -1 "$WORK/f32"
g -m FULL_TENSOR --nan-at -1 --half "$WORK/f16"
g -m FULL_TENSOR --nan-at -1 --round-half "$WORK/r16"
g -m FULL_TENSOR --nan-at -1 --half --perturb-at 900 --perturb 0.01 "$WORK/f16far"
g -m FULL_TENSOR --nan-at -1 --half --perturb-at 900 --perturb 0.0002 "$WORK/f16near"
tdbg_run --json -e diff "$WORK/f32" "$WORK/f16"
json_expect half_within_its_tolerance 'd["aligned"] == 2000 and d["diverged"] == 0'
json_expect half_dtype_noted 'd["rows"][0]["b"]["dtype"] == "float16" and d["rows"][0]["metrics"]["dtype_differs"] and d["rows"][0]["metrics"]["rtol"] == 0.001'
json_expect half_values_compared 'all(r["metrics"]["cosine"] > 0.999 and r["metrics"]["max_rel_err"] <= 0.0005 for r in d["rows"])'
tdbg_run --json -e 'diff --first' "$WORK/f32" "$WORK/r16"
json_expect rounded_float32_too_far_for_float32 'd["first"] is not None and d["first"]["metrics"]["rtol"] == 1e-05'
tdbg_run --json --rtol 1e-3 -e 'diff' "$WORK/f32" "$WORK/r16"
json_expect rounded_within_rtol_option 'd["diverged"] == 0'
tdbg_run --json -e 'diff --nonequal' "$WORK/f32" "$WORK/f16far"
json_expect half_far_first_row 'd["first"]["a_index"] == 900 and d["first"]["cause"] == "op diverged"'
json_expect half_far_error 'abs(d["first"]["metrics"]["max_rel_err"] - 0.01) < 0.001 and d["first"]["metrics"]["within_tolerance"] < 1'
json_expect half_far_none_before 'min(r["a_index"] for r in d["rows"]) == 900'
tdbg_run --json -e 'diff' "$WORK/f32" "$WORK/f16near"
json_expect half_near_within 'd["diverged"] == 0'

# ---- one op's output differs and propagates -----------------------------------
g -m FULL_TENSOR --nan-at -1 --perturb-at 900 --perturb 0.001 "$WORK/prop"
tdbg_run --json -e 'diff --nonequal' "$WORK/f32" "$WORK/prop"
json_expect prop_first 'd["first"]["a_index"] == 900 and d["first"]["cause"] == "op diverged" and d["first"]["metrics"]["reason"] == "values"'
json_expect prop_next_inherits 'd["rows"][1]["cause"] == "inputs differ"'
json_expect prop_rows_all_diverged 'all(r["diverged"] for r in d["rows"]) and len(d["rows"]) == d["diverged"]'
tdbg_run --json -e "diff --nonequal --op '^$(json_get 'd["first"]["op_name"]')\$'" "$WORK/f32" "$WORK/prop"
json_expect prop_op_filter 'd["rows"] and all(r["op_name"] == d["first"]["op_name"] for r in d["rows"])'

# ---- two MindSpore ranks, one bad ----------------------------------------------
MS=$WORK/ms
mkdir -p "$MS"
cp -r "$FIXTURES/mindspore/sync_lenet/rank_0" "$MS/rank_0"
cp -r "$FIXTURES/mindspore/sync_lenet/rank_0" "$MS/rank_1"
chmod -R u+w "$MS"
CONV=Default/network-WithLossCell/_backbone-LeNet5/conv1-Conv2d/Conv2D-op1
npy=$(ls "$MS"/rank_1/Lenet/0/0/Conv2D.*conv1-Conv2d_Conv2D-op1.*.output.0.*.npy)
[ -f "$npy" ] || die "no Conv2D-op1 output in the fixture copy"
python3 - "$npy" <<'EOF' || die "cannot alter $npy"
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
hl = struct.unpack("<H", b[8:10])[0]
off = 10 + hl
v = struct.unpack("<f", b[off:off + 4])[0]
b[off:off + 4] = struct.pack("<f", v * 2 + 1)   # one element of the float32 data
open(p, "wb").write(b)
EOF
tdbg_run --json --compare-hosts rank_0,rank_1 -e diff "$MS"
expect_rc 0 ranks_exit_0
json_expect ranks_aligned 'd["aligned"] == 102 and d["only_a"] == 0 and d["only_b"] == 0'
json_expect ranks_first "d['first']['op_name'] == '$CONV' and d['first']['output_slot'] == 0"
json_expect ranks_first_cause 'd["first"]["cause"] == "op diverged" and d["first"]["metrics"]["values"]'
json_expect ranks_first_hosts 'd["first"]["host"] == "rank_0"'
json_expect ranks_one_value_off 'd["first"]["metrics"]["within_tolerance"] < 1 and d["first"]["metrics"]["within_tolerance"] > 0.99'
tdbg_run --json --pair rank_0=rank_1 -e 'diff --first' "$FIXTURES/mindspore/sync_lenet" "$MS"
json_expect pair_option "d['first']['op_name'] == '$CONV' and d['aligned'] == 102"
tdbg_run --json -e 'diff --first' "$FIXTURES/mindspore/sync_lenet" "$MS"
json_expect ranks_by_name 'd["first"] is None and d["only_b"] == 102'

# ---- errors --------------------------------------------------------------------
tdbg_run --json -e diff "$WORK/a"
expect_rc 1 one_dump_exit_1
json_expect one_dump_error '"two dumps" in d["error"]'
tdbg_run --json --compare-hosts rank_0,rank_7 -e diff "$MS"
expect_rc 1 unknown_rank_exit_1
expect_file_has unknown_rank_named "$ERR" "rank_7"
tdbg_run --json -e "diff --op '(['" "$WORK/a" "$WORK/a2"
expect_rc 1 bad_regex_exit_1
tdbg_run -e 'diff --first' "$WORK/clean" "$WORK/nan700"
expect_rc 0 text_exit_0
expect_file_has text_first "$OUT" "first divergence: A row 700, B row 700"

[ "$E2E_FAILS" -eq 0 ]
