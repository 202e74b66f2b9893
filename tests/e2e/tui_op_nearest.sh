#!/bin/bash
# tui_op_nearest.sh - issue 12 item 12: ":op NAME" selects the op's trace
# row nearest the selected one (it took the op's last row and lost the
# user's place), and the old place goes on the back history.
# Facts (tests/fixtures/tfdbg2/README.md): row 85 is probs:0, row 88 is
# Log:0, the first of the Log op's rows after row 85 (its Log input); the
# Log op has rows in each of the 10 steps, so its last row is far away.
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

tui_keys 3 :
tui_type 'goto trace 85'
tui_keys Enter
tui_wait "86/680" || die "goto trace 85 did not select row 85"
tui_keys :
tui_type 'op Log'
tui_keys Enter
tui_wait "Graph  Log (Log)" || die ":op Log did not show the op"
tui_keys 3
tui_expect op_selects_nearest_row "89/680"
tui_keys '['
tui_expect back_returns_to_row_85 "86/680"
tui_keys q
tui_expect_exit 0 quit
