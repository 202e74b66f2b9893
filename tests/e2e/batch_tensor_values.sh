#!/bin/bash
# batch_tensor_values.sh - issue 17: `tensor N [SLICE] --range R` counts and
# lists the elements in value ranges; summaries from values carry the
# percentiles and the standard deviation.  Facts from the fixtures' READMEs:
# tfdbg1 mlp_nan run 2, cross_entropy/Log:0 (DebugIdentity) is float32
# [8,10] with 9 -inf, min -3.4607, max 0, var 0.305468; Softmax row 3 is
# one-hot at class 7, so Log row 3 is nine -inf and a 0 at [3,7].
# MindSpore sync_lenet MatMul-op10 output 0 holds 2 NaN and 1 -inf.
# tfdbg2 mnist_nan is FULL_HEALTH: no values.
. "$(dirname "$0")/lib.sh"

T1=$FIXTURES/tfdbg1/mlp_nan
tdbg_run --json -e 'traces --op "^cross_entropy/Log$" --nonfinite' "$T1"
row=$(json_get '[r["index"] for r in d["rows"] if r["debug_op"] == "DebugIdentity"][0]')
[ -n "$row" ] || die "no DebugIdentity row of cross_entropy/Log in run 2"

tdbg_run --json -e "tensor $row --range '[[-inf,-inf]]'" "$T1"
expect_rc 0 tensor_range_exit_0
json_expect tfdbg1_nine_neg_inf 'd["in_range"] == 9'
json_expect tfdbg1_neg_inf_all_in_row_3 'sorted(d["in_range_indices"]) == [[3, c] for c in range(10) if c != 7]'
json_expect tfdbg1_ranges_echoed 'd["ranges"] == [["-Inf", "-Inf"]]'
json_expect tfdbg1_std_is_sqrt_var 'abs(d["summary"]["std"] - 0.305468 ** 0.5) < 1e-4'
json_expect tfdbg1_min_max 'abs(d["summary"]["min"] + 3.4607) < 1e-4 and d["summary"]["max"] == 0'
json_expect tfdbg1_percentiles_ordered \
	'[d["summary"][k] for k in ("min", "p1", "p25", "p50", "p75", "p99", "max")] == sorted(d["summary"][k] for k in ("min", "p1", "p25", "p50", "p75", "p99", "max"))'

tdbg_run --json -e "tensor $row --range '[[0,0]]'" "$T1"
json_expect tfdbg1_zero_at_3_7 'd["in_range"] == 1 and d["in_range_indices"] == [[3, 7]]'

tdbg_run --json -e "tensor $row [3] --range '[[-inf,-1],[1,inf]]'" "$T1"
json_expect tfdbg1_slice_row_3 'd["selected_shape"] == [10] and d["summary"]["neg_inf"] == 9 and d["summary"]["zero"] == 1 and d["in_range"] == 9'

tdbg_run --json -e "tensor $row --find 0" "$T1"
json_expect find_zero_at_3_7 'd["found"] == 1 and d["found_indices"] == [[3, 7]] and d["find"] == "0"'
tdbg_run --json -e "tensor $row [3] --find -inf" "$T1"
json_expect find_neg_inf_in_row_3 'd["found"] == 9'
tdbg_run -e "tensor $row --find bogus" "$T1"
expect_rc 1 find_bad_value_exit_1

tdbg_run -e "tensor $row --range '[[0,0]]'" "$T1"
expect_file_has text_count "$OUT" "in range [[0, 0]]: 1 of 80 elements"
expect_file_has text_lists_3_7 "$OUT" "[3,7] 0"
grep -qE '^ +p99 ' "$OUT" && ok text_percentiles || fail text_percentiles "no p99 line"

tdbg_run --json -e "trace $row" "$T1"
json_expect trace_summary_has_percentiles 'd["summary"]["p50"] is not None'

MS=$FIXTURES/mindspore/sync_lenet
tdbg_run --json -e 'traces --op "MatMul-op10$" --nonfinite' "$MS"
mrow=$(json_get '[r["index"] for r in d["rows"] if not r["is_input"]][0]')
tdbg_run --json -e "tensor $mrow --range '[[-inf,-inf]]'" "$MS"
json_expect ms_one_neg_inf 'd["in_range"] == 1'
tdbg_run --json -e "tensor $mrow --range '[[-inf,inf]]'" "$MS"
json_expect ms_all_but_the_nans 'd["in_range"] == d["summary"]["elements"] - 2'
tdbg_run --json -e "tensor $mrow --find nan" "$MS"
json_expect ms_find_two_nan 'd["found"] == 2 and len(d["found_indices"]) == 2'
tdbg_run --json -e "tensor $mrow --find nonfinite" "$MS"
json_expect ms_find_three_nonfinite 'd["found"] == 3'

T2=$FIXTURES/tfdbg2/mnist_nan
tdbg_run --json -e "tensor 88 --range '[[-inf,-1]]'" "$T2"
expect_rc 1 health_mode_fails
json_expect health_mode_says_no_values '"no stored values" in d["error"]'
tdbg_run --json -e "trace 88" "$T2"
json_expect health_no_percentiles 'd["summary"]["p50"] is None'

tdbg_run -e "tensor $row --range '[[1,0]]'" "$T1"
expect_rc 1 bad_range_exit_1
expect_file_has bad_range_says_why "$ERR" "low bound is above the high one"
tdbg_run -e "tensor --range '[[0,1]]'" "$T1"
expect_rc 1 batch_needs_row
