#!/bin/bash
# tui_layout_story.sh - issue 12 (friction): the layout is chosen by what
# fits.  At 120x40 the story's panes all show (Alerts | Graph executions on
# top, the Graph, then Source | Stack), so Enter on an alert shows the op,
# its source line and its stack at once (only two panes showed before);
# 2 puts the Timeline in the trace table's place and 3 takes it back.  A
# dump that holds no source and no stack gives their rows to the Graph.
# Facts (tests/fixtures/tfdbg2/README.md): the first alert is Log:0 (row
# 88), created at debug_mnist_v2.py line 216,
# `diff = -labels * tf.math.log(probs)`; tests/fixtures/tfdbg1/README.md:
# v1 dumps hold no source files and no stacks.
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_alert_group '^Log$'; tui_keys Enter
tui_wait "alert 1 of" || die "Enter on the Log group did not jump"
tui_expect traces_shown "[3] Graph executions"
tui_expect alerts_still_shown "[1] Alerts"
tui_expect graph_shows_log "[4] Graph  Log (Log)"
tui_expect source_shows_line_216 "diff = -labels * tf.math.log(probs)"
tui_expect stack_shown "[6] Stack  trace 88 Log:0"
tui_keys 2
tui_expect timeline_swaps_in "[2] Timeline"
expect_file_lacks traces_swapped_out "$TUI_SCREEN" "[3] Graph executions"
expect_file_has graph_stays "$TUI_SCREEN" "[4] Graph"
tui_keys 3
tui_expect traces_swap_back "[3] Graph executions"
tui_keys q
tui_expect_exit 0 quit_tfdbg2

tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "144 traces" || die "tdbg did not start on tfdbg1"
tui_expect tfdbg1_graph_shown "[4] Graph"
expect_file_lacks tfdbg1_no_source_pane "$TUI_SCREEN" "[5] Source"
expect_file_lacks tfdbg1_no_stack_pane "$TUI_SCREEN" "[6] Stack"
tui_keys q
tui_expect_exit 0 quit_tfdbg1
