#!/usr/bin/env bash
# batch_watches.sh - watches (issue 15): each named condition on a dump
# made to hit it and on tensors made not to, step conditions across
# MindSpore iterations, the recommended set, unknown rows, watch add/rm/
# list, the watches file and --fail-on watches.
#
# The dump comes from tests/gen/make_watch_dump.py: three iterations of 14
# tensors (8 elements each, one output), in this order per iteration (so
# iteration I's rows are 14*I .. 14*I+13):
#   0 Gradients/.../vanish_grad  abs_mean ~1.4e-12      (gradient)
#   1 Gradients/.../big_grad     abs_mean ~7188         (gradient)
#   2 Gradients/.../nan_grad     one NaN                (gradient)
#   3 Gradients/.../ok_grad      abs_mean ~0.014        (gradient)
#   4 act_wide (ReLU)            0 .. 43.75             (activation)
#   5 act_zero (ReLU)            all zeros              (activation)
#   6 half_near (float16)        max 40000 (> 65504/2)
#   7 half_far (float16)         all 100
#   8 w_zero_init (Parameter)    zeros at iteration 0 only (weight)
#   9 w_big                      abs_mean ~719, x1.00001 per iteration
#  10 w_ok                       abs_mean ~0.07, x1.001 per iteration
#  11 w_frozen                   the same values every iteration
#  12 w_jump                     doubles every iteration (update ratio 1)
#  13 w_inf                      one +Inf
. "$(dirname "$0")/lib.sh"

D=$WORK/w
python3 "$TOP/tests/gen/make_watch_dump.py" "$D" || die "generator failed"
rows() { echo "[r[\"index\"] for r in d[\"items\"] if r[\"condition\"] == \"$1\"]"; }

# ---- the recommended set ------------------------------------------------
tdbg_run --json -e 'watches check' "$D"
expect_rc 0 check_exit_0
json_expect shape 'set(d) >= {"conditions", "hits", "unknown", "items"} and d["hits"] == len(d["items"])'
json_expect item_keys 'set(d["items"][0]) >= {"condition", "source", "index", "op_name", "op_type",
	"output_slot", "host", "step", "values", "thresholds"}'
json_expect recommended_set 'set(d["conditions"]) == {"weight_overflow", "weight_too_large",
	"gradient_vanishing", "gradient_too_large", "gradient_exploding", "operator_overflow",
	"weight_not_changed", "weight_change_too_large", "weight_change_too_small", "fp16_overflow_risk"}'
json_expect gradient_vanishing_rows "$(rows gradient_vanishing) == [0, 14, 28]"
json_expect gradient_vanishing_values '[(r["values"]["abs_mean"] < 1e-11, r["thresholds"]["abs_mean"])
	for r in d["items"] if r["condition"] == "gradient_vanishing"][0] == (True, 1e-09)'
json_expect gradient_too_large_rows "$(rows gradient_too_large) == [1, 15, 29]"
json_expect gradient_exploding_rows "$(rows gradient_exploding) == [2, 16, 30]"
json_expect weight_too_large_rows "$(rows weight_too_large) == [9, 23, 37]"
json_expect weight_overflow_rows "$(rows weight_overflow) == [13, 27, 41]"
json_expect fp16_overflow_risk_rows "$(rows fp16_overflow_risk) == [6, 20, 34]"
json_expect fp16_far_not_hit 'not any(r["index"] % 14 == 7 for r in d["items"])'
json_expect weight_not_changed_rows "$(rows weight_not_changed) == [25, 39]"
json_expect weight_change_too_large_rows "$(rows weight_change_too_large) == [26, 40]"
json_expect weight_change_from_values 'all(r["basis"] == "values" for r in d["items"]
	if r["condition"].startswith("weight_change") or r["condition"] == "weight_not_changed")'
json_expect weight_change_too_small_rows "sorted($(rows weight_change_too_small)) == [23, 25, 37, 39]"
json_expect w_ok_never_hit 'not any(r["index"] % 14 == 10 for r in d["items"])'
json_expect ok_grad_never_hit 'not any(r["index"] % 14 == 3 for r in d["items"])'
json_expect steps_are_iterations 'all(r["step"] == r["index"] // 14 for r in d["items"])'
json_expect hosts_rank_0 'all(r["host"] == "rank_0" for r in d["items"])'
# w_zero_init's update ratio divides by its zero first iteration: unknown
json_expect unknown_counted 'd["unknown"] >= 1'

# ---- the other named conditions, each with a row it must not hit ------------
tdbg_run --json -e 'watch recommended off' \
	-e 'watch add init weight_initialization' \
	-e 'watch add small weight_too_small(abs_mean_lt=0.1)' \
	-e 'watch add over tensor_overflow' \
	-e 'watch add large tensor_too_large(abs_mean_gt=1000)' \
	-e 'watch add tiny tensor_too_small(abs_mean_lt=1e-9)' \
	-e 'watch add zero tensor_all_zero' \
	-e 'watch add act activation_range(range_start_inclusive=0, range_end_inclusive=10)' \
	-e 'watch add range tensor_range(range_start_inclusive=-1000, range_end_inclusive=1000)' \
	-e 'watches check --step 0' "$D"
expect_rc 0 named_exit_0
doc() { echo "d[$1]"; }
c0="d[9]"
json_expect named_conditions_only "$c0[\"conditions\"] == [\"init\", \"small\", \"over\", \"large\", \"tiny\", \"zero\", \"act\", \"range\"]"
r0() { echo "sorted(r[\"index\"] for r in $c0[\"items\"] if r[\"condition\"] == \"$1\")"; }
json_expect weight_initialization_first_record "$(r0 init) == [8]"
json_expect weight_too_small_param "$(r0 small) == [8, 10, 11, 12, 13]"
json_expect tensor_overflow_rows "$(r0 over) == [2, 13]"
json_expect tensor_too_large_rows "$(r0 large) == [1, 6]"
json_expect tensor_too_small_rows "$(r0 tiny) == [0, 5, 8]"
json_expect tensor_all_zero_rows "$(r0 zero) == [5, 8]"
json_expect activation_range_rows "$(r0 act) == [4]"
json_expect tensor_range_rows "$(r0 range) == [1, 6]"
json_expect step_option_keeps_iteration_0 "all(r[\"index\"] < 14 for r in $c0[\"items\"])"
json_expect watch_list_after_add 'd[8]["recommended"] is False and [w["name"] for w in d[8]["watches"]][-1] == "range"'

# ---- errors point at the mistake --------------------------------------------
tdbg_run -e 'watch add x tensor_too_large' "$D"
expect_file_has missing_params_error "$ERR" "needs one of: abs_mean_gt max_gt min_lt mean_gt"
tdbg_run -e 'watch add x gradient_vanishing(abs_mean_lt=x)' "$D"
expect_file_has bad_value_error "$ERR" "abs_mean_lt wants a number"
tdbg_run -e 'watch add x gradient_vanishing(rtol=1)' "$D"
expect_file_has wrong_param_error "$ERR" "gradient_vanishing takes abs_mean_lt max_lt min_gt mean_lt"
tdbg_run -e 'watch add x abs_mean >> 3' "$D"
expect_file_has expression_error_column "$ERR" "column"
tdbg_run -e 'watch rm nosuch' "$D"
expect_file_has rm_unknown "$ERR" "no watch named 'nosuch'"
expect_rc 1 errors_exit_1

# ---- an expression watch, removal -------------------------------------------
tdbg_run --json -e 'watch recommended off' -e "watch add hot 'max > 40 and role == \"activation\"'" \
	-e 'watches check' -e 'watch rm hot' -e 'watches check' "$D"
json_expect expression_watch_rows 'sorted(r["index"] for r in d[2]["items"]) == [4, 18, 32]'
json_expect expression_watch_thresholds 'd[2]["items"][0]["thresholds"] == {"max": 40} and d[2]["items"][0]["values"]["max"] == 43.75'
json_expect removed 'd[4]["conditions"] == [] and d[4]["hits"] == 0'

# ---- unknown: a FULL_HEALTH dump has counts but no means ----------------------
# (tests/fixtures/tfdbg2/README.md: 680 trace rows and 224 executions)
tdbg_run --json -e 'watch recommended off' -e "watch add big 'abs_mean > 0'" -e 'watches check' \
	"$FIXTURES/tfdbg2/mnist_nan"
json_expect health_mode_unknown 'd[2]["hits"] == 0 and d[2]["unknown"] == 680 + 224 and d[2]["checked"] == 680 + 224'
# issue 24 item 6: unknown per condition; a watch decided by the op alone has none
tdbg_run --json -e 'watch recommended off' -e "watch add big 'abs_mean > 0'" \
	-e "watch add none 'role == \"nothing\"'" -e 'watches check' "$FIXTURES/tfdbg2/mnist_nan"
json_expect unknown_by_condition 'd[3]["unknown_by_condition"] == {"big": 680 + 224, "none": 0} and d[3]["unknown"] == 680 + 224'
tdbg_run -e 'watch conditions' "$FIXTURES/tfdbg2/mnist_nan"
expect_eq conditions_column_recommended "$(head -1 "$OUT" | tr -s ' ')" "name recommended defaults dtypes summary"

# ---- the watches file and --fail-on watches -----------------------------------
GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
"$GEN" -q -n 600 --ops 40 --nan-at -1 --facts "$WORK/clean.facts" "$WORK/clean" || die "generator failed"
rows_all=$(awk '$1 == "traces" || $1 == "executions" { n += $2 } END { print n }' "$WORK/clean.facts")
tdbg_run --check "$WORK/clean"
expect_rc 0 clean_check_exit_0
mkdir -p "$XDG_CONFIG_HOME/tdbg"
printf '# test\nrecommended off\nany elements > 0\n' >"$XDG_CONFIG_HOME/tdbg/watches"
tdbg_run --json -e 'watch list' "$WORK/clean"
json_expect file_loaded 'd["recommended"] is False and [(w["name"], w["condition"]) for w in d["watches"]] == [("any", "elements > 0")]'
tdbg_run --check "$WORK/clean"
expect_rc 0 check_without_fail_on_exit_0
tdbg_run --check --fail-on watches "$WORK/clean"
expect_rc 4 fail_on_watches_exit_4
# every row is a hit, or unknown (an execution with no output summary)
expect_file_has fail_on_text "$OUT" "watches: "
tdbg_run --json --check --fail-on watches "$WORK/clean"
json_expect fail_on_json "d[\"nonfinite\"] is False and d[\"watches\"][\"hits\"] >= 600 and d[\"watches\"][\"hits\"] + d[\"watches\"][\"unknown\"] == $rows_all"
tdbg_run --check --fail-on nothing "$WORK/clean"
expect_rc 1 fail_on_bad_value
printf 'recommended maybe\nbad\n' >"$XDG_CONFIG_HOME/tdbg/watches"
tdbg_run -e 'watch list' "$WORK/clean"
expect_file_has bad_file_lines "$ERR" "2 bad lines"
rm -f "$XDG_CONFIG_HOME/tdbg/watches"
