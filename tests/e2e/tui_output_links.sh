#!/bin/bash
# tui_output_links.sh - issue 12 (friction): command output is live.  The
# output pane has a cursor, and Enter on a line of :traces, :alerts,
# :executions, :inputs, :stack (and the others) goes to the row, op or
# frame the line names; the old place goes on the back history.
# Facts (tests/fixtures/tfdbg2/README.md): row 85 is probs:0, row 88 is
# Log:0 (op Log, only input probs:0), the first trace with Inf or NaN; the
# Log op was created at debug_mnist_v2.py line 216,
# `diff = -labels * tf.math.log(probs)`.
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

# cmd TEXT: runs a prompt command
cmd() { tui_keys :; tui_type "$1"; tui_keys Enter; }
# :traces --op ^Log$ : the second data line is row 88 (rows in order)
cmd 'traces --op ^Log$'
tui_wait "Command output" || die "no output pane"
tui_keys g j j j j          # heading, count line, column header, row 20, row 88
tui_expect cursor_on_line_5 "5/"
tui_keys Enter
tui_wait_gone "Command output" || fail traces_enter_closes "output still open"
tui_expect traces_line_jumps_to_row_88 "89/680"

# :inputs 88 : its one line names probs at trace 85
cmd 'inputs 88'
tui_keys o
tui_wait "Command output" >/dev/null
tui_keys j j Enter           # the heading, the column header, then the probs line
tui_expect inputs_line_jumps_to_row_85 "86/680"
tui_keys '['
tui_expect back_returns_to_row_88 "89/680"

# :stack trace 88 : the frame at line 216 shows its source line
cmd 'stack trace 88'
tui_wait "Command output" >/dev/null
tui_keys /
tui_type 'debug_mnist_v2.py:216'
tui_keys Enter
tui_wait '/debug_mnist_v2.py:216: ' >/dev/null || fail stack_search "frame not found"
tui_keys Enter
tui_expect stack_line_shows_source "[5] Source"
tui_expect stack_line_shows_216 "216/"
tui_expect stack_line_text "diff = -labels * tf.math.log(probs)"

# :alerts --limit 1 : its one item is trace 88
tui_keys 3 g
cmd 'alerts --limit 1'
tui_wait "Command output" >/dev/null
tui_keys /
tui_type 'Log:0'
tui_keys Enter
tui_wait '/Log:0: ' >/dev/null || fail alerts_search "item not found"
tui_keys Enter
tui_expect alerts_line_jumps_to_row_88 "89/680"
# :executions : the execution a line names is selected on the timeline
cmd 'executions 5:8'
tui_wait "Command output" >/dev/null
tui_keys j j j j             # from the heading: count line, column header, 5, 6
tui_screen >/dev/null
ex=$(awk '/:executions 5:8/ { f = 1; next } f && $1 ~ /^[0-9]+$/ && $2 != "of" { n++; if (n == 2) { print $1; exit } }' "$TUI_SCREEN")
[ -n "$ex" ] || die "no execution lines"
tui_keys Enter
tui_expect executions_line_selects_it "#$ex "
tui_keys q
tui_expect_exit 0 quit
