#!/bin/bash
# tui_history.sh - jumps are remembered: [ (or Backspace) goes back, ]
# forward, through :goto jumps and link follows.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

goto() { tui_keys :; tui_type "goto $1"; tui_keys Enter; }

goto 88
tui_wait "89/680" && ok goto_88
goto 85
tui_wait "86/680" && ok goto_85
goto 200
tui_wait "201/680" && ok goto_200

tui_keys '['
tui_wait "86/680" && ok back_to_85
tui_keys BSpace
tui_wait "89/680" && ok backspace_back_to_88
tui_keys ']'
tui_wait "86/680" && ok forward_to_85
tui_keys ']'
tui_wait "201/680" && ok forward_to_200
tui_keys ']'
tui_wait "nothing to go forward to" && ok forward_at_end_says_so

tui_keys q
tui_expect_exit 0 quit
