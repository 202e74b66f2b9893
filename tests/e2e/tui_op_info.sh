#!/usr/bin/env bash
# tui_op_info.sh - issue 17 item 2 in the interface: i in the Graph pane
# shows the selected op's details (attributes, outputs, device, control
# inputs, stack) in the output pane, on the three formats.
#
# Facts (fixtures' READMEs, and the MindSpore .ir as batch_op_info.sh):
# tfdbg1's first alert is cross_entropy/Log:0, float32 [8, 10], on
# /job:localhost/replica:0/task:0/device:CPU:0; tfdbg2's Log op was created
# at debug_mnist_v2.py line 216 and v2 op records carry no attributes;
# MindSpore's MatMul-op10 outputs float32 (2, 120), primitive_attrs
# {format: "NCHW"}.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "144 traces" || die "the index never reached 144 traces"
tui_keys 1 g Enter
tui_wait "cross_entropy/Log (Log) 1 inputs" || die "no cross_entropy/Log in the graph pane"
tui_keys 4 i
tui_expect tfdbg1_details_open "op        cross_entropy/Log"
expect_file_has tfdbg1_output_shape "$TUI_SCREEN" "0  float32[8,10]"
expect_file_has tfdbg1_attr_T "$TUI_SCREEN" "T                        float32"
expect_file_has tfdbg1_device "$TUI_SCREEN" "device    /job:localhost/replica:0/task:0/device:CPU:0"
tui_keys Escape q
tui_wait_exit >/dev/null

tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "no alerts on screen"
tui_keys Enter
tui_wait "89/680" || die "alert did not land on row 88"
tui_keys 4 i
tui_expect tfdbg2_says_no_attributes "carry no attributes"
expect_file_has tfdbg2_stack_216 "$TUI_SCREEN" "debug_mnist_v2.py:216 in loss"
tui_keys Escape q
tui_wait_exit >/dev/null

tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "InfNan MatMul" || die "tdbg did not start"
tui_keys 1 g Enter
tui_wait "MatMul-op10" || die "alert did not reach MatMul-op10"
tui_keys 4 i
tui_expect mindspore_output_shape "0  float32[2,120]"
expect_file_has mindspore_attr_format "$TUI_SCREEN" 'format                   "NCHW"'
tui_keys Escape q
tui_expect_exit 0 quit_exits_0
