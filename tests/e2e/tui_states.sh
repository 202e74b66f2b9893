#!/bin/bash
# tui_states.sh - what the panes say when a dump lacks something, and the
# runs of a tfdbg1 dump on the timeline:
#   - tfdbg1 holds no source or stack: both panes say so (not blank);
#   - the timeline's cells name each run ("Session.run #1");
#   - Enter on a run shows its traces and its fetches (README: runs are
#     sess.run([train_op, cross_entropy]), 48 dumps each, target node
#     GradientDescent); Enter again opens its details;
#   - MindSpore's long scoped names: the graph pane shows them relative to
#     the selected op's scope, z shows them in full.
. "$(dirname "$0")/lib.sh"

TUI_COLS=80 TUI_ROWS=24 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "Alerts" || die "tdbg did not start"
tui_keys 5
tui_wait "[5] Source" >/dev/null
tui_wait "holds no source or stack information" && ok tfdbg1_source_says_why
tui_keys 6
tui_wait "[6] Stack" >/dev/null
tui_wait "holds no source or stack information" && ok tfdbg1_stack_says_why

# the three runs are told apart on the timeline (cells wide enough)
tui_keys 2
tui_wait "Session.run #1" && ok timeline_cells_name_each_run

tui_keys 2 G Enter
tui_wait "(48 traces, 1 executions)" && ok run_enter_shows_its_traces
tui_screen >/dev/null
expect_file_has run_enter_names_fetches "$TUI_SCREEN" "fetches GradientDescent, cross_entropy"
tui_keys 2 Enter
tui_wait "Execution 2 Session.run #2" && ok run_enter_again_details
tui_wait "target nodes: GradientDescent" && ok run_details_target_node
tui_keys Escape q
tui_expect_exit 0 quit_tfdbg1

# MindSpore: the first alert is fc3-Dense/MatMul-op10 (README); its input 0
# is flatten-Flatten/Reshape-op9 in the same _backbone-LeNet5 scope and its
# consumer relu-ReLU/ReLU-op12.  200 columns: the Graph pane shares its row
# with the Timeline (issue 24 item 1), and the full name needs the room.
TUI_COLS=200 TUI_ROWS=60
tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "Alerts" || die "tdbg did not start"
tui_keys 1 g Enter
tui_wait "MatMul-op10 (MatMul) 2 inputs" || die "no MatMul-op10 in the graph pane"
tui_screen >/dev/null
expect_file_has graph_input_relative "$TUI_SCREEN" "input 0    .../flatten-Flatten/Reshape-op9:0"
expect_file_has graph_consumer_relative "$TUI_SCREEN" "consumer   .../relu-ReLU/ReLU-op12"
expect_file_has graph_op_without_scope "$TUI_SCREEN" "● MatMul-op10:0  MatMul"
tui_keys 4 z
tui_wait "graph: full op names" && ok z_toggles_full_names
tui_screen >/dev/null
expect_file_has graph_op_full_name "$TUI_SCREEN" "● Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10:0"
# 40 columns: the link rows drop their labels so the names keep the room
tui_keys z
tui_resize 40 12
tui_keys 4
tui_wait "0 .../flatten-Flatten/Reshape-op9:0" && ok graph_40_input_name_readable
tui_wait "MatMul-op10" && ok graph_40_title_keeps_name_end
tui_keys q
tui_expect_exit 0 quit_mindspore
