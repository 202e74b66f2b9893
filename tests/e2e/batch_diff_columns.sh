#!/usr/bin/env bash
# batch_diff_columns.sh - the two-dump diff reads a row's summary from the
# summary columns when its record holds no values (issue 27: msprobe
# statistics leaves, tfdbg v2 health rows) instead of decoding it.  Its
# answers are those of the records: every pair's JSON with --no-cache
# (each row decoded) equals a first open (the columns the index pass
# wrote) and a warm one, on generated msprobe pairs (a divergence, a NaN
# on either side, MindSpore against PyTorch, a shape transposed in the
# target: same rank and element count, other dims) and tfdbg v2 health
# dumps.  The transposed pair is judged "shape" (the edit's own truth).
. "$(dirname "$0")/lib.sh"

GEN=$TOP/tests/gen/gen_msprobe_pair.py

# same NAME A B: diff of A and B (all pairs) decoded, cold, warm: equal
same()
{
	local run
	rm -rf "$XDG_CACHE_HOME"/tdbg
	tdbg_run --json --no-cache -e diff "$2" "$3"
	expect_rc 0 "$1/exit_0"
	cp "$OUT" "$WORK/$1.records"
	for run in first warm; do
		tdbg_run --json -e diff "$2" "$3"
		cp "$OUT" "$WORK/$1.$run"
		check "$1/${run}_same_as_records" cmp -s "$WORK/$1.records" "$WORK/$1.$run"
	done
	check "$1/column_file" test -f "$(ls "$XDG_CACHE_HOME"/tdbg/*.tdc | head -1)"
}

D=$WORK/pt
"$PYNUM" "$GEN" "$D" --ranks 2 --diverge 3 --diverge-rank 1 >/dev/null
same pt "$D/golden" "$D/target"
D=$WORK/nan_target
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge 1 --diverge-rank 0 --nan target >/dev/null
same nan_target "$D/golden" "$D/target"
D=$WORK/nan_golden_ms
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge 2 --diverge-rank 0 --nan golden \
	--target-framework mindspore >/dev/null
same nan_golden_ms "$D/golden" "$D/target"

# the target's first 2-d leaf transposed: [r, c] -> [c, r]
D=$WORK/shape
"$PYNUM" "$GEN" "$D" --ranks 1 --diverge 5 --diverge-rank 0 >/dev/null
"$PYNUM" - "$D/target/step0/rank0/dump.json" >"$WORK/shape.entry" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
for name, e in d["data"].items():
    leaves = [l for l in e.get("input_args", []) if isinstance(l, dict)]
    l = next((l for l in leaves if len(l.get("shape", [])) == 2 and
              l["shape"][0] != l["shape"][1]), None)
    if l:
        l["shape"] = l["shape"][::-1]
        print(name)
        break
json.dump(d, open(p, "w"), indent=1)
PY
same shape "$D/golden" "$D/target"
E=$(cat "$WORK/shape.entry")
json_expect shape/transposed_leaf_judged_shape "any(r[\"op_name\"] == \"$E\" and
	r[\"metrics\"][\"shape_differs\"] and r[\"metrics\"][\"reason\"] == \"shape\"
	for r in d[\"rows\"])" "$WORK/shape.warm"

GEN2=$("$TOP/tests/gen/build.sh") || { fail gen "cannot build the generator"; exit 1; }
for mode in CURT_HEALTH FULL_HEALTH; do
	"$GEN2" -q -n 3000 --ops 100 -m $mode --nan-every 500 "$WORK/$mode.a" &&
		"$GEN2" -q -n 3000 --ops 100 -m $mode --nan-every 700 "$WORK/$mode.b" ||
		{ fail "$mode/gen" "generator failed"; continue; }
	same "$mode" "$WORK/$mode.a" "$WORK/$mode.b"
done
[ "$E2E_FAILS" -eq 0 ]
