#!/usr/bin/env bash
# tui_step.sh - issue 17 item 5: the timeline and the trace table in step.
# Selecting a trace row selects and marks (◂) the execution it belongs to,
# when the dump says which; selecting an execution moves the trace table
# to its rows and marks them (▏); a dump whose rows name no execution says
# so in the timeline's title ("(rows not linked)", after the call's name).
#
# Facts from the fixtures' READMEs: tfdbg1 mlp_nan has 3 runs (executions
# 0, 1, 2) of 48 dumps each; its first alert, cross_entropy/Log:0, is in
# run 2; MindSpore sync_lenet's graph 0 runs for iterations 0 and 1 and the
# NaN is in iteration 1; tfdbg v2 graph execution traces are not linked to
# executions (reader/tfdbg2/FORMAT.md §7.3: time order is the only link).
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "144 traces" || die "the index never reached 144 traces"
tui_keys 1 g Enter
tui_wait "cross_entropy/Log (Log) 1 inputs" || die "no cross_entropy/Log"
# the trace row's run is selected on the timeline and marked
tui_expect trace_selects_run_2 "[2] Timeline  3/3 #2"
expect_file_has run_2_cell_marked "$TUI_SCREEN" "Session.run #2 ◂"
# the trace table's rows of run 2 carry the bar (48 of them: all on screen?)
n=$(grep -c " [0-9]\+▏" "$TUI_SCREEN")
[ "$n" -gt 0 ] && ok trace_rows_of_run_marked || fail trace_rows_of_run_marked "no marked row"
# the reverse: run 0 on the timeline moves the trace table to its rows
tui_keys 2 g
tui_expect timeline_run_0 "[2] Timeline  1/3 #0"
if grep -qE " 0▏" "$TUI_SCREEN" && ! grep -qE " (9[6-9]|1[0-4][0-9])▏" "$TUI_SCREEN"; then
	ok run_0_rows_marked
else
	fail run_0_rows_marked "row 0 not marked, or rows of run 2 still marked"
fi
expect_file_has trace_table_at_run_0 "$TUI_SCREEN" "1/144"
# focusing the table selects the row it moved to (the graph follows)
tui_keys 3
tui_wait "trace 0" >/dev/null
tui_settle
grep -qE 'trace 0( |$)' "$TUI_SCREEN" && ok focus_selects_row_0 || fail focus_selects_row_0 "no 'trace 0' on screen"
tui_keys q
tui_wait_exit >/dev/null

tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "InfNan MatMul" || die "tdbg did not start"
tui_keys 1 g Enter
tui_wait "MatMul-op10" || die "alert did not reach MatMul-op10"
tui_expect mindspore_iteration_1_selected "#1 "
tui_screen >/dev/null
grep -qE "1 *◂" "$TUI_SCREEN" && ok mindspore_run_marked || fail mindspore_run_marked "no ◂ mark"
tui_keys q
tui_wait_exit >/dev/null

tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "no alerts on screen"
tui_keys Enter
tui_expect tfdbg2_says_no_link "(rows not linked)"
tui_keys q
tui_expect_exit 0 quit_exits_0
