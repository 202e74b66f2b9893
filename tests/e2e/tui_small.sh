#!/bin/bash
# tui_small.sh - 80x24 stays usable: the tutorial's story (README facts:
# row 88 Log:0, its input probs:0 at row 85, created at
# debug_mnist_v2.py:216) with two panes at a time and w to cycle pages.
. "$(dirname "$0")/lib.sh"

TUI_COLS=80 TUI_ROWS=24 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start at 80x24"

tui_keys Enter
tui_wait "89/680" && ok alert_to_row_88
tui_keys w
tui_wait "[4] Graph" && tui_wait "input 0    probs:0" && ok graph_page_shows_input
tui_keys 4 k Enter
tui_wait "86/680" && tui_wait "[3] Graph executions" && ok input_to_row_85_on_traces_page
tui_keys '['
# back to where the jump started: the graph pane on Log:0
tui_wait "[4] Graph  Log (Log)" && ok back_to_88
tui_keys 6
tui_wait "[6] Stack" && tui_wait "debug_mnist_v2.py:216 in loss" && ok stack_page_frame_216
expect_file_has source_line_216 "$TUI_SCREEN" "216     diff = -labels * tf.math.log(probs)"
tui_keys q
tui_expect_exit 0 quit
