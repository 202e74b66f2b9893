#!/usr/bin/env bash
# tui_source_ops.sh - issue 17 item 3 in the interface: the Source pane
# marks the lines that created ops with their count, Enter on such a line
# shows those ops' trace rows; u in the Stack pane hides the framework's
# frames and shows them again.
#
# Facts from the fixtures' READMEs: tfdbg2 mnist_nan's Log op (row 88) was
# created at debug_mnist_v2.py line 216 in loss; TensorFlow's own files
# (tensorflow/python/eager/def_function.py ...) are the framework's, the
# tutorial's example file the user's; MindSpore sync_lenet's
# fc3-Dense/MatMul-op10 comes from train_lenet.py line 26; tfdbg v1 dumps
# hold no source or stacks.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "no alerts on screen"
tui_keys Enter
tui_wait "89/680" || die "alert did not land on row 88"
tui_wait "debug_mnist_v2.py:216 in loss" || die "no frame 216"
# line 216 carries the number of ops it created, before its line number
if grep -qE '^ +[0-9]+ +216 +diff = -labels \* tf\.math\.log\(probs\)' "$TUI_SCREEN"; then
	ok source_marks_line_216
else
	fail source_marks_line_216 "no op count before line 216"
fi
# the stack: all frames, then only the user's
expect_file_has stack_has_framework_frame "$TUI_SCREEN" "def_function.py"
tui_keys 6 u
tui_expect stack_user_only_title "[6] Stack  [user code] trace 88"
expect_file_lacks stack_hides_framework "$TUI_SCREEN" "def_function.py"
expect_file_has stack_keeps_216 "$TUI_SCREEN" "debug_mnist_v2.py:216 in loss"
tui_keys u
tui_expect stack_all_frames_again "def_function.py"
# Enter on line 216 in the source pane: the trace table shows its ops' rows
tui_keys 5 Enter
tui_expect source_enter_lists_ops "line 216 created"
expect_file_has source_enter_filters "$TUI_SCREEN" "op=^(?:"
expect_file_has trace_table_has_log_row "$TUI_SCREEN" "Log"
tui_keys q
tui_wait_exit >/dev/null

tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "InfNan MatMul" || die "tdbg did not start"
tui_keys 1 g Enter
tui_wait "train_lenet.py:26" || die "the alert did not lead to the source line"
tui_keys 5 Enter
tui_expect mindspore_line_26_op "line 26 created 1 op (Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10)"
tui_keys q
tui_wait_exit >/dev/null

tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "144 traces" || die "the index never reached 144 traces"
tui_keys 6 u
tui_expect tfdbg1_stack_toggle_says_so "the user's code only"
expect_file_has tfdbg1_no_stacks "$TUI_SCREEN" "holds no source or stack information"
tui_keys q
tui_expect_exit 0 quit_exits_0
