#!/usr/bin/env bash
# batch_text_details.sh - issue 24 item 9, the batch parts: diff's text
# keeps the end of a long op name (its middle is elided, as traces does),
# so gradients/dense_N/MatMul_grad/MatMul and .../MatMul_1 can be told
# apart; typed bounds echo in the shortest form that reads back the same
# (0.05, not 0.050000000000000003).  Facts: the generator's program names
# the gradient ops gradients/dense_N/MatMul_grad/MatMul and MatMul_1
# (tests/gen/gen_prog.c); tfdbg2 modes/full_tensor keeps values.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
D=$WORK/g
"$GEN" -q -n 2000 --ops 60 "$D" || die "generator failed"

tdbg_run -e 'diff' "$D" "$D"
expect_rc 0 diff_exit_0
n1=$(grep -cE 'MatMul_grad/MatMul_1 +[0-9]+ dnan' "$OUT")
n0=$(grep -cE 'MatMul_grad/MatMul +[0-9]+ dnan' "$OUT")
[ "$n1" -gt 0 ] && [ "$n0" -gt 0 ] && ok diff_names_keep_their_end ||
	fail diff_names_keep_their_end "MatMul rows $n0, MatMul_1 rows $n1"
check diff_no_name_cut_at_the_end test "$(grep -cE 'MatMu… +[0-9]+ dnan' "$OUT")" -eq 0

tdbg_run --json -e 'watch add x tensor_too_large(abs_mean_gt=0.05)' -e 'watch list' "$D"
json_expect watch_expr_shortest_bound '[w["expr"] for w in d[1]["watches"] if w["name"] == "x"] == ["dtype ~ \"float\" and (abs_mean > 0.05)"]'
tdbg_run -e "tensor 0 --range '[[0.05,0.1],[-inf,-1e-300]]'" "$FIXTURES/tfdbg2/modes/full_tensor"
expect_file_has range_echo_shortest "$OUT" "in range [[0.05, 0.1], [-inf, -1e-300]]"

[ "$E2E_FAILS" -eq 0 ]
