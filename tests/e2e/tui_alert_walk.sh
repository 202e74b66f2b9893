#!/bin/bash
# tui_alert_walk.sh - issue 12 item 7: after Enter on an alert the focus is
# in the trace table, and n/N walk that alert's group from there (the hint
# "n: next" used to fail: n searched the trace table instead).  A new '/'
# search gives n back to the search.
# Facts (tests/fixtures/tfdbg2/README.md): row 88 (Log:0) is the first
# trace with Inf or NaN, so it is the Log group's first alert; later Log
# rows hold NaN too.
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

tui_alert_group '^Log$'
tui_keys Enter
tui_wait "alert 1 of" || die "Enter on the Log group did not jump"
tui_expect enter_lands_on_row_88 "89/680"
tui_keys n
tui_expect n_goes_to_alert_2 "InfNan Log: alert 2 of"
expect_file_lacks n_left_row_88 "$TUI_SCREEN" "89/680"
tui_keys N
tui_expect N_goes_back_to_alert_1 "InfNan Log: alert 1 of"
tui_expect N_back_on_row_88 "89/680"

# a '/' search takes n back
tui_keys /
tui_type '^probs$'
tui_keys Enter
tui_wait '/^probs$: ' || fail search_runs "no search message"
tui_keys n
tui_expect n_searches_after_slash '/^probs$: '
tui_keys q
tui_expect_exit 0 quit
