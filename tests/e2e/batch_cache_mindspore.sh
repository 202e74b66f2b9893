#!/usr/bin/env bash
# batch_cache_mindspore.sh - the persistent index of a MindSpore dump
# (issue 25 item 5): the second open is served from the cache, and the
# cache trusts nothing it did not fingerprint: a statistic.csv rewritten to
# the same size, a .npy whose bytes changed in place, a file added to an
# iteration folder each make the next open index afresh, and its answers
# are the dump's as it is now, not the cached ones.  Facts come from the
# fixture's README (tests/fixtures/mindspore/README.md: iteration 1's
# MatMul-op10 output 0 holds 2 NaN and 1 -inf per its statistic.csv row).
. "$(dirname "$0")/lib.sh"

state() { tdbg_run --json -e info "$@"; json_get 'd["index_cache"]'; }
# the why of the last info call (state's)
why() { json_get 'd.get("index_cache_why") or ""'; }

D=$WORK/ms
cp -r "$FIXTURES/mindspore/sync_lenet" "$D" || die "cannot copy the fixture"
IT0=$D/rank_0/Lenet/0/0
IT1=$D/rank_0/Lenet/0/1
OP10='Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10'

expect_eq first_open_is_new "$(state "$D")" new
expect_eq second_open_uses_cache "$(state "$D")" used
tdbg_run --json -e first-nonfinite "$D"
json_expect cached_first_nonfinite_is_matmul_op10 \
	"d[\"op_name\"] == \"$OP10\" and d[\"nan\"] == 2 and d[\"neg_inf\"] == 1 and not d[\"is_input\"]"

# ---- a statistic.csv rewritten in place, same size ------------------------
# MatMul-op10's output row: NaN 2, -inf 1 -> 0, 0 (same length, so only
# the folder's stat data can tell)
python3 - "$IT1/statistic.csv" <<'EOF' || die "cannot rewrite statistic.csv"
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
hit = [i for i, l in enumerate(lines) if "MatMul-op10" in l and ",output,0," in l]
assert len(hit) == 1 and lines[hit[0]].endswith(",2,1,0,0"), lines[hit[0]]
lines[hit[0]] = lines[hit[0]][:-len(",2,1,0,0")] + ",0,0,0,0"
open(p, "w").write("\n".join(lines))
EOF
touch -d '2 seconds' "$IT1/statistic.csv"   # a new time even on a coarse clock
expect_eq rewritten_csv_rebuilds "$(state "$D")" rebuilt
case $(why) in *"changed since it was indexed"*"Lenet/0/1"*) ok rewritten_csv_says_which ;;
	*) fail rewritten_csv_says_which "why: $(why)" ;; esac
tdbg_run --json -e first-nonfinite "$D"
json_expect rewritten_csv_answers_now "d is None or d[\"op_name\"] != \"$OP10\""
expect_eq rewritten_csv_then_used "$(state "$D")" used

# ---- a .npy whose data bytes change in place ---------------------------------
NPY=$(ls "$IT0"/*MatMul-op10*output.0*.npy) || die "no MatMul-op10 output in iteration 0"
python3 - "$NPY" <<'EOF' || die "cannot rewrite the .npy"
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
b[-4:] = bytes(4) if b[-4:] != bytes(4) else b"\x00\x00\x80\x3f"
open(p, "r+b").write(b)
EOF
touch -d '4 seconds' "$NPY"
expect_eq rewritten_npy_rebuilds "$(state "$D")" rebuilt
expect_eq rewritten_npy_then_used "$(state "$D")" used

# ---- a file added to an iteration folder ------------------------------------
echo notes >"$IT1/notes.txt"
expect_eq added_file_rebuilds "$(state "$D")" rebuilt

# ---- the answers from the cache are those of a fresh index ------------------
for cmd in info "traces 0:60" executions "first-nonfinite" problems "trace 20" "op $OP10"; do
	tdbg_run --json -e "$cmd" "$D"
	a=$(json_sans_cache "$OUT")
	tdbg_run --no-cache --json -e "$cmd" "$D"
	b=$(json_sans_cache "$OUT")
	[ -n "$a" ] && [ "$a" = "$b" ] && ok "warm_equals_fresh/$cmd" || fail "warm_equals_fresh/$cmd" "$(diff <(echo "$a") <(echo "$b") | head -4)"
done
