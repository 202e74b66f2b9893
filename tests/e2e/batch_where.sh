#!/usr/bin/env bash
# batch_where.sh - `traces --where EXPR` (issue 15) on the samples.
#
# Expected values are facts from the fixtures' READMEs: tfdbg2/mnist_nan has
# 680 trace rows in FULL_HEALTH mode (counts only, so no mean: every row is
# unknown for `mean > 0`), row 88 (Log:0, 1000 elements, one -Inf) is the
# first with Inf/NaN, row 85 (probs:0, 1000 elements) holds one zero;
# tfdbg1/mlp_nan's cross_entropy/Log:0 in run 2 has variance 0.305468 (its
# DebugNumericSummary) and its DebugIdentity values are the same tensor;
# mindspore/sync_lenet's MatMul-op10 output 0 holds 2 NaN and 1 -inf in
# iteration 1.
. "$(dirname "$0")/lib.sh"

T2=$FIXTURES/tfdbg2/mnist_nan
T1=$FIXTURES/tfdbg1/mlp_nan
MS=$FIXTURES/mindspore/sync_lenet

doc()
{
	sed -n "${1}p" "$OUT" >"$WORK/doc.$1"
	echo "$WORK/doc.$1"
}

tdbg_run --json -e "traces --where 'mean > 0'" \
	-e "traces 0:1 --where 'neg_inf > 0 or nan > 0 or pos_inf > 0'" \
	-e "traces --where 'type ~ \"^Log\$\" and neg_inf == 1 and elements == 1000'" \
	-e "traces --where 'op == \"probs\" and zero == 1 and zero_fraction == 0.001'" \
	-e "traces --where 'not (mean > 0) or nan >= 0'" "$T2"
expect_rc 0 tfdbg2_exit_0
json_expect full_health_mean_is_unknown \
	'd["total"] == 680 and d["matched"] == 0 and d["unknown"] == 680 and d["rows"] == []' "$(doc 1)"
json_expect first_nonfinite_is_row_88 \
	'd["unknown"] == 0 and [r["index"] for r in d["rows"]] == [88]' "$(doc 2)"
json_expect log_minus_inf_first_at_88 \
	'd["matched"] >= 1 and d["rows"][0]["index"] == 88 and d["rows"][0]["op_name"] == "Log"' \
	"$(doc 3)"
json_expect probs_one_zero_at_85 '85 in [r["index"] for r in d["rows"]]' "$(doc 4)"
json_expect true_or_unknown_is_true 'd["matched"] == 680 and d["unknown"] == 0' "$(doc 5)"

# variance 0.305468 -> std 0.55269: the summary and the values agree
tdbg_run --json -e "traces --where 'op == \"cross_entropy/Log\" and std > 0.5526 and std < 0.5528'" "$T1"
expect_rc 0 tfdbg1_exit_0
json_expect tfdbg1_std_from_summary_and_values \
	'd["matched"] == 2 and all(r["op_name"] == "cross_entropy/Log" and r["summary"]["neg_inf"] in (0, 9)
	 for r in d["rows"])'

tdbg_run --json -e "traces --where 'op ~ \"MatMul-op10\$\" and nan == 2 and neg_inf == 1'" "$MS"
expect_rc 0 mindspore_exit_0
json_expect mindspore_matmul_op10_nan 'd["matched"] >= 1 and all(
	r["op_name"].endswith("fc3-Dense/MatMul-op10") for r in d["rows"])'

# errors point at the column, and the rest of the batch goes on
tdbg_run --json -e "traces --where 'mean > 0 and meen < 1'" -e info "$T2"
expect_rc 1 bad_field_exit_1
json_expect bad_field_names_column \
	'"column 14: unknown field \"meen\"" in d["error"]' "$(doc 1)"
tdbg_run -e "traces --where 'type ~ \"(\"'" "$T2"
expect_rc 1 bad_pattern_exit_1
[ "$E2E_FAILS" -eq 0 ]
