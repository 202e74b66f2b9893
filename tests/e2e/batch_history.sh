#!/usr/bin/env bash
# batch_history.sh - `history` (issue 24 item 10): an op's output over the
# steps, one point per step and host, on the three formats.
#
# Expected values come from tests/gen/make_trend_dump.py's --facts (the
# series it wrote, statistics computed there from the float32 values) and
# from the fixtures' READMEs: tfdbg v1 mlp_nan's loss per run, tfdbg v2
# mnist_nan's row 88 (Log:0, one -Inf, the first NaN/Inf) over its 10
# training steps, MindSpore sync_lenet's MatMul-op10 (NaN/-Inf in
# iteration 1).
. "$(dirname "$0")/lib.sh"

D=$WORK/trend
FACTS=$WORK/trend.json
python3 "$TOP/tests/gen/make_trend_dump.py" "$D" --facts "$FACTS" || die "generator failed"
F="__import__('json').load(open('$FACTS'))"
# close(a, b): equal within float32 rounding
CLOSE="(lambda a, b: abs(a - b) <= 1e-5 * max(abs(a), abs(b)) + 1e-30)"

# ---- the generated series ---------------------------------------------
tdbg_run --json -e 'history --op fc.weight' "$D"
expect_rc 0 weight_ok
json_expect shape '(set(d) >= {"op_name", "output_slot", "fields", "steps", "points"} and
	d["op_name"] == "fc.weight" and d["output_slot"] == 0)'
json_expect point_keys '(all(set(p) >= {"step", "trace_index", "host", "values", "nonfinite", "rows_in_step"}
	for p in d["points"]))'
json_expect default_fields 'd["fields"] == ["l2norm", "abs_mean", "mean", "max", "min", "nan", "inf"]'
json_expect steps_and_hosts "(d['steps'] == $F['iterations'] and sorted(d['hosts']) == ['rank_0', 'rank_1']
	and len(d['points']) == 2 * $F['iterations'])"
json_expect by_step_then_host '([(p["step"], p["host"]) for p in d["points"]] ==
	[(s, h) for s in range(12) for h in ("rank_0", "rank_1")])'
json_expect values_match_generator "(all(all($CLOSE(p['values'][k], f[k]) if k in f else p['values'][k] is None
	for k in ('l2norm', 'abs_mean', 'mean', 'max', 'min')) and p['values']['nan'] == f['nan']
	and p['values']['inf'] == f['inf'] and p['nonfinite'] == (f['nan'] + f['inf'] > 0)
	for p in d['points'] for f in [$F['series']['fc.weight'][p['host']][p['step']]]))"
json_expect only_the_nan_step_is_marked "([(p['step'], p['host']) for p in d['points'] if p['nonfinite']]
	== [($F['nan_at'], 'rank_1')])"

# a loop: two rows per step, the last one is the point
tdbg_run --json -e 'history --op loop-op2 --field mean' "$D"
json_expect loop_rows_in_step "all(p['rows_in_step'] == 2 for p in d['points']) and len(d['points']) == 12"
json_expect loop_last_row_wins "(all($CLOSE(p['values']['mean'], f['mean']) or p['values']['mean'] == f['mean']
	for p in d['points'] for f in [$F['series']['loop-op2']['rank_0'][p['step']]])
	and d['points'][1]['values']['mean'] == 2)"

# --host, rank, --field (repeated and comma lists)
tdbg_run --json -e 'history --op grad-op1 --host 1 --field l2norm --field mean,max' "$D"
json_expect host_option 'd["hosts"] == ["rank_1"] and all(p["host"] == "rank_1" for p in d["points"])'
json_expect fields_option '(d["fields"] == ["l2norm", "mean", "max"] and
	all(list(p["values"]) == ["l2norm", "mean", "max"] for p in d["points"]))'
json_expect decades "all($CLOSE(p['values']['mean'], 10.0 ** -p['step']) for p in d['points'])"
tdbg_run --json -e 'rank 0' -e 'history --op fc.weight' "$D"
json_expect rank_restriction 'd[1]["hosts"] == ["rank_0"] and len(d[1]["points"]) == 12'

# text: a table with one line per point
tdbg_run -e 'history --op loop-op2' "$D"
expect_rc 0 text_ok
expect_eq text_header "$(head -1 "$OUT")" "loop-op2:0  12 steps"
expect_eq text_rows "$(grep -cE '^ +[0-9]+  rank_0 ' "$OUT")" 12
expect_file_has text_loop_note "$OUT" "several rows of this tensor"

# errors: one line naming the cause
tdbg_run -e 'history --op fc.weight --field speed' "$D"
expect_rc 1 bad_field_fails
expect_file_has bad_field_named "$ERR" 'unknown field "speed"'
tdbg_run -e 'history --op no_such_op' "$D"
expect_rc 1 unknown_op_fails
tdbg_run -e 'history 0 --op fc.weight' "$D"
expect_rc 1 row_and_op_fails
tdbg_run -e 'history --op fc.weight --slot 4' "$D"
expect_rc 1 no_rows_of_slot_fails
expect_file_has no_rows_said "$ERR" "no output rows of fc.weight:4"

# ---- tfdbg v1: the loss per run (README: 2.50253, 2.18158, NaN) ---------
tdbg_run --json -e 'history --op cross_entropy/Mean --field mean' "$TOP/tests/fixtures/tfdbg1/mlp_nan"
expect_rc 0 v1_ok
json_expect v1_runs_are_steps '[p["step"] for p in d["points"]] == [0, 1, 2]'
json_expect v1_loss "($CLOSE(d['points'][0]['values']['mean'], 2.50253) and
	$CLOSE(d['points'][1]['values']['mean'], 2.18158))"
json_expect v1_nan_run '[p["nonfinite"] for p in d["points"]] == [False, False, True]'
# DebugIdentity and DebugNumericSummary both watch the loss: two rows a run
json_expect v1_two_debug_ops 'all(p["rows_in_step"] == 2 for p in d["points"])'

# ---- tfdbg v2: Log:0 over the 10 training steps (function calls) ---------
tdbg_run --json -e 'history 88' "$TOP/tests/fixtures/tfdbg2/mnist_nan"
expect_rc 0 v2_ok
json_expect v2_op 'd["op_name"] == "Log" and d["output_slot"] == 0'
json_expect v2_ten_steps 'd["steps"] == 10 and len(d["points"]) == 10'
json_expect v2_steps_increase 'all(a["step"] < b["step"] for a, b in zip(d["points"], d["points"][1:]))'
json_expect v2_full_health_fields 'd["fields"] == ["nan", "inf"]'
json_expect v2_row_88 '([(p["values"]["nan"], p["values"]["inf"], p["nonfinite"])
	for p in d["points"] if p["trace_index"] == 88] == [(0, 1, True)])'
json_expect v2_finite_before '([p["nonfinite"] for p in d["points"]
	if p["trace_index"] < 88] == [False] * len([p for p in d["points"] if p["trace_index"] < 88]) and
	any(p["trace_index"] < 88 for p in d["points"]))'

# ---- MindSpore: MatMul-op10 over the iterations ---------------------------
tdbg_run --json -e 'history --op Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10' \
	"$TOP/tests/fixtures/mindspore/sync_lenet"
expect_rc 0 ms_ok
json_expect ms_iterations '[p["step"] for p in d["points"]] == [0, 1] and d["hosts"] == ["rank_0"]'
json_expect ms_iteration_1 '([(p["values"]["nan"], p["values"]["inf"], p["nonfinite"]) for p in d["points"]]
	== [(0, 0, False), (2, 1, True)])'

[ "$E2E_FAILS" -eq 0 ]
