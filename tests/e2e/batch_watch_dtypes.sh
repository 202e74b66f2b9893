#!/usr/bin/env bash
# batch_watch_dtypes.sh - issue 24 item 5: value conditions on weights,
# gradients and activations look at floating-point tensors: an int32
# OneHot, uint8/uint16 masks, an int64 argmax and an int64 step counter in
# a weight's place do not hit, the float tensors beside them do; the hit
# text names only the comparisons that decided (no "elements 8 > 0"
# guard); watch conditions says which dtypes each condition looks at.
# The dump: tests/gen/make_watch_dump.py --ints (INT_TENSORS: every integer
# tensor has max > 5; logits max 6, abs_mean 2; w_big_f abs_mean ~719).
. "$(dirname "$0")/lib.sh"

D=$WORK/ints
python3 "$TOP/tests/gen/make_watch_dump.py" --ints "$D" || die "generator failed"
ops() { echo "sorted(r[\"op_name\"] for r in d[3][\"items\"] if r[\"condition\"] == \"$1\")"; }

tdbg_run --json -e 'watch recommended off' -e 'watch add large tensor_too_large(max_gt=5)' \
	-e 'watch add wl weight_too_large(abs_mean_gt=100)' -e 'watches check' "$D"
expect_rc 0 check_exit_0
json_expect int_tensors_not_too_large "$(ops large) == [\"Default_logits-op5\", \"w_big_f\"]"
json_expect int_weight_not_too_large "$(ops wl) == [\"w_big_f\"]"
json_expect no_guard_threshold 'all("elements" not in r["thresholds"] for r in d[3]["items"])'
tdbg_run -e 'watch recommended off' -e 'watch add large tensor_too_large(max_gt=5, abs_mean_gt=100)' \
	-e 'watches check' "$D"
expect_file_has hit_text_deciding_clause "$OUT" "Default_logits-op5                    max 6 > 5"
check hit_text_no_guard test "$(grep -c 'elements' "$OUT")" -eq 0

# a user's expression still sees every dtype
tdbg_run --json -e 'watch recommended off' -e "watch add big 'max > 5'" -e 'watches check' "$D"
json_expect expression_any_dtype 'd[2]["hits"] == 7'

tdbg_run --json -e 'watch conditions' "$D"
json_expect conditions_say_dtypes '[{c["name"]: c["dtypes"] for c in d}[k] for k in ("tensor_too_large", "tensor_overflow")] == ["float16, bfloat16, float32, float64", "any"]'

[ "$E2E_FAILS" -eq 0 ]
