#!/usr/bin/env bash
# tui_tfdbg1.sh - the full-screen interface on the tfdbg v1 session root
# tests/fixtures/tfdbg1/mlp_nan (issue 7).
#
# Facts from tests/fixtures/tfdbg1/README.md: three Session.run calls; the
# NaN alert on op type Log leads to cross_entropy/Log:0 of run 2 (counter
# 2, run_1700000000491002_2), whose only input is Softmax:0 and whose
# consumer is cross_entropy/mul; a run holds 48 dumps; v1 dumps carry no
# source files and no stacks, which the panes say.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
tui_start "$FIXTURES/tfdbg1/mlp_nan"
# the index runs in the background: wait until all 144 dumps are in
tui_wait "144 traces" || die "the index never reached 144 traces"
tui_wait "alerts" >/dev/null
tui_screen >/dev/null
expect_file_has opens_with_runs_on_the_timeline "$TUI_SCREEN" "Session.run"
expect_file_has status_names_format "$TUI_SCREEN" "tfdbg1"
# issue 12 (friction): the Source and Stack panes can only stay empty, so
# their rows go to the graph; focused, they show and say why
expect_file_lacks empty_source_gives_way "$TUI_SCREEN" "[5] Source"
expect_file_lacks empty_stack_gives_way "$TUI_SCREEN" "[6] Stack"
tui_keys 5
tui_expect source_pane_says_none "holds no source or stack information"
tui_keys 6
tui_expect stack_pane_says_none "holds no source or stack information"
tui_keys 3
tui_wait_gone "[5] Source" && ok source_gives_way_again || fail source_gives_way_again "still shown"
expect_file_has alerts_group_log "$TUI_SCREEN" "InfNan Log"

# The first alert (op type Log) leads to cross_entropy/Log:0 in run 2.
tui_keys 1 g Enter
if tui_wait "cross_entropy/Log (Log) 1 inputs"; then
	ok alert_leads_to_log
else
	fail alert_leads_to_log "graph pane did not show cross_entropy/Log"
fi
tui_screen >/dev/null
expect_file_has log_in_run_2 "$TUI_SCREEN" "graph run_1700000000491002_2/"
expect_file_has log_input_is_softmax "$TUI_SCREEN" "input 0    Softmax:0  Softmax"
expect_file_has log_consumer_is_mul "$TUI_SCREEN" "cross_entropy/mul (input 1)"

# Selecting run #2 on the timeline shows its 48 dumps.
tui_keys 2 G Enter
if tui_wait "(48 traces, 1 executions)"; then
	ok run_2_shows_its_48_dumps
else
	fail run_2_shows_its_48_dumps "no 48-row filter after Enter on run #2"
fi

tui_keys q
tui_expect_exit 0 quit_exits_0

[ "$E2E_FAILS" -eq 0 ]
