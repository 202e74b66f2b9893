#!/usr/bin/env bash
# tui_trend.sh - the trend view (issue 24 item 10): H on a trace row
# charts its op's output over the steps, one line per rank, with the
# values' range on the y axis, the first and last step on the x axis, '!'
# under the NaN/Inf step and '^' under the step cursor; h/l move the
# cursor, Enter goes to that step's row, c/v pick the fields, L the log
# scale, q closes.  A handful of steps still shows its points; a C locale
# gets ASCII; the diff layout puts both dumps on one chart.
#
# Facts: tests/gen/make_trend_dump.py's --facts (fc.weight on rank_0 and
# rank_1 over 12 iterations, NaN on rank_1 at iteration 9); tfdbg v1
# mlp_nan's README (3 runs, the loss NaN in run 2).
. "$(dirname "$0")/lib.sh"

D=$WORK/trend
FACTS=$WORK/trend.json
python3 "$TOP/tests/gen/make_trend_dump.py" "$D" --facts "$FACTS" || die "generator failed"
fact() { python3 -c "import json; f = json.load(open('$FACTS')); print($1)"; }
TOP_LABEL=$(fact "'%.3g' % max(p['l2norm'] for r in f['series']['fc.weight'].values() for p in r if 'l2norm' in p)")
BOT_LABEL=$(fact "'%.3g' % min(p['l2norm'] for r in f['series']['fc.weight'].values() for p in r if 'l2norm' in p)")
L2_0=$(fact "'%.6g' % f['series']['fc.weight']['rank_0'][0]['l2norm']")
NAN_AT=$(fact "f['nan_at']")
LAST=$(fact "f['iterations'] - 1")

# has NAME REGEX: the last screen capture has a line matching REGEX (ERE).
has()
{
	if grep -qE -- "$2" "$TUI_SCREEN"; then ok "$1"; else fail "$1" "no line matching $2"; sed 's/^/    | /' "$TUI_SCREEN"; fi
}

open_trend()
{
	tui_keys :
	tui_type "filter op=fc.weight"
	tui_keys Enter
	tui_wait "filter: op=fc.weight" >/dev/null || fail filter "no filter"
	tui_keys 3 g H
}

tui_start "$D"
tui_wait "72 traces" || die "the index never reached 72 traces"
open_trend
tui_expect trend_opens "Trend: fc.weight:0 over 12 steps"
tui_settle
expect_file_has one_line_per_rank_0 "$TUI_SCREEN" "l2norm rank_0"
expect_file_has one_line_per_rank_1 "$TUI_SCREEN" "l2norm rank_1"
# y axis: the largest and smallest value; x axis: the first and last step
has y_axis_top "^ +$TOP_LABEL ┤"
has y_axis_bottom "^ +$BOT_LABEL ┤"
has x_axis_steps "^ +step 0 +$LAST *\$"
has braille_cells "⣿"
# the marks row: the cursor at step 0 ('^'), the NaN step to its right ('!')
has nan_mark_right_of_cursor "^ +\\^ +! *\$"
expect_file_has cursor_values "$TUI_SCREEN" "step 0:  l2norm $L2_0"
# the cursor to the NaN step: its values say so
for _ in $(seq "$NAN_AT"); do tui_keys l; done
tui_expect cursor_moves "step $NAN_AT:"
has cursor_on_nan_step "^ step $NAN_AT:.*NaN/Inf"
# fields: c shows the next one, v keeps it shown; L switches the log scale
tui_keys c
tui_expect next_field "abs_mean rank_0"
tui_keys v c
tui_expect kept_field "mean rank_0"
expect_file_has kept_field_still_shown "$TUI_SCREEN" "abs_mean rank_0"
tui_expect log_by_default "12 steps, log"
tui_keys L
tui_wait_gone "12 steps, log" && ok log_switches_off || fail log_switches_off "still log"
# Enter on step 3 goes to rank_0's row of step 3 (as `history` names it)
tdbg_run --json -e 'history --op fc.weight --host rank_0' "$D"
ROW3=$(json_get 'd["points"][3]["trace_index"]')
tui_keys g l l l Enter
tui_wait_gone "Trend:" || fail enter_closes "the trend view stayed"
tui_keys t
tui_expect enter_goes_to_the_row "Tensor: trace $ROW3 fc.weight:0"
tui_keys q
# at the prompt, history without N takes the selected row
tui_keys :
tui_type "history --field l2norm"
tui_keys Enter
tui_expect prompt_history_selected_row "fc.weight:0  12 steps, 2 hosts"
tui_keys q
# q closes the view
tui_keys H
tui_wait "Trend:" >/dev/null || fail reopen "no trend view"
tui_keys q
tui_wait_gone "Trend:" && ok q_closes || fail q_closes "the trend view stayed"

# ---- ASCII in a C locale ----------------------------------------------------
export LC_ALL=C LANG=C
tui_start "$D"
tui_wait "72 traces" || die "the index never reached 72 traces (C locale)"
open_trend
tui_expect ascii_trend_opens "Trend: fc.weight:0"
tui_settle
if LC_ALL=C grep -q $'[\x80-\xff]' "$TUI_SCREEN"; then
	fail ascii_only "non-ASCII bytes on a C locale screen"
else
	ok ascii_only
fi
has ascii_points "^ +$TOP_LABEL \\+.*\\+"
has ascii_nan_mark "^ +\\^ +! *\$"
tui_keys q
export LC_ALL=C.UTF-8 LANG=C.UTF-8

# ---- a handful of steps: tfdbg v1's loss over 3 runs ---------------------------
tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "144 traces" || die "the index never reached 144 traces"
tui_keys :
tui_type "filter op=^cross_entropy/Mean$"
tui_keys Enter
tui_wait "filter: op=" >/dev/null
tui_keys 3 g H
tui_expect few_steps_open "Trend: cross_entropy/Mean:0 over 3 steps"
tui_settle
# each of the two finite points is a whole cell; run 2 is NaN: marked
n=$(grep -o '⣿' "$TUI_SCREEN" | wc -l)
[ "$n" -ge 2 ] && ok few_points_shown || fail few_points_shown "$n point cells"
has few_steps_nan_mark "^ +\\^ +! *\$"
has few_steps_axis "^ +step 0 +2 *\$"
tui_keys q

# ---- NO_TENSOR (tfdbg2 README: no statistics at all): the view says so
tui_start "$FIXTURES/tfdbg2/modes/no_tensor"
tui_wait "NO_TENSOR" || die "no_tensor: no screen"
tui_wait_gone "indexing" || die "no_tensor: the index pass never ended"
tui_keys 3 g H
tui_expect no_tensor_says_why "the dump's mode records no statistics of this tensor"
tui_keys q

# ---- the diff layout: both dumps on one chart -----------------------------------
cp -r "$D" "$WORK/trend_b"
tui_start "$D" "$WORK/trend_b"
tui_wait "72 traces" || die "diff layout: no index"
tui_keys 3 g H
tui_expect diff_trend_opens "Trend: "
tui_settle
expect_file_has diff_line_a "$TUI_SCREEN" "A l2norm"
expect_file_has diff_line_b "$TUI_SCREEN" "B l2norm"
tui_keys q

[ "$E2E_FAILS" -eq 0 ]
