#!/usr/bin/env bash
# tui_timeline_title.sh - issue 24 item 9: in a tfdbg v2 dump the Timeline's
# title says the trace rows are not linked to executions after the call's
# name, so the note, not the name, is what a narrow title loses.  Facts
# (tests/fixtures/tfdbg2/README.md, reader/tfdbg2/FORMAT.md): mnist_nan has
# 224 executions, among them tf.function calls named __inference_NAME_ID
# (execution 33 is one: the fourth call of the first step).
. "$(dirname "$0")/lib.sh"

TUI_COLS=200 TUI_ROWS=60
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_keys :
tui_type 'goto execution 33'
tui_keys Enter
tui_wait "Timeline  34/224 #33 " >/dev/null || fail title_position "no #33 in the title"
tui_settle
check title_names_the_whole_call grep -qE 'Timeline  34/224 #33 __inference_[A-Za-z0-9_]*_[0-9]+( |$)' "$TUI_SCREEN"
tui_keys q
tui_expect_exit 0 quit_exits_0

[ "$E2E_FAILS" -eq 0 ]
