#!/usr/bin/env bash
# tui_graph_tree.sh - issue 17 item 1: the Graph pane expands an input or a
# consumer in place (x), a tree with the depth shown and control inputs
# marked, on the three formats.
#
# Facts from the fixtures' READMEs: tfdbg1 mlp_nan's first alert is
# cross_entropy/Log:0 of run 2, its only input Softmax:0, its consumer
# cross_entropy/mul (NaN); GradientDescent is a NoOp grouping the 4
# ApplyGradientDescent ops (their only consumers are control edges);
# tfdbg2 mnist_nan's Log:0 reads probs:0, a Placeholder (no inputs);
# MindSpore sync_lenet's first NaN/Inf is fc3-Dense/MatMul-op10, whose
# inputs are flatten-Flatten/Reshape-op9 and fc1.weight.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "144 traces" || die "the index never reached 144 traces"
tui_keys 1 g Enter
tui_wait "cross_entropy/Log (Log) 1 inputs" || die "no cross_entropy/Log in the graph pane"
# graph pane: the cursor is on the op; up to Softmax:0 and expand it
tui_keys 4 k x
tui_expect tfdbg1_input_expanded "(2)"
# the title still counts the op's own inputs and consumers
expect_file_has tfdbg1_title_counts_own "$TUI_SCREEN" "cross_entropy/Log (Log) 1 inputs, 1 consumers"
tui_screen >/dev/null
expect_file_has tfdbg1_expanded_marker "$TUI_SCREEN" "- ↑ input 0    Softmax:0"
# x again folds it
tui_keys x
tui_wait_gone "(2)" && ok tfdbg1_fold
# the consumer: down past the op, expand cross_entropy/mul
tui_keys j j x
tui_expect tfdbg1_consumer_expanded "(2)"
tui_screen >/dev/null
if grep -q "↓ consumer   cross_entropy/mul (input 1).*NaN/Inf" "$TUI_SCREEN" &&
	grep -qE "↓ +\(2\) .*-> trace" "$TUI_SCREEN"; then
	ok tfdbg1_consumer_nonfinite
else
	fail tfdbg1_consumer_nonfinite "cross_entropy/mul not marked NaN/Inf, or no linked (2) row"
	grep -E "↓|↑|●" "$TUI_SCREEN" | sed "s/^/    | /"
fi
# control inputs: the NoOp GradientDescent lists its 4 ApplyGradientDescent
tui_keys : ; tui_type 'op GradientDescent'; tui_keys Enter
tui_wait "GradientDescent (NoOp)" || fail tfdbg1_op_shown "GradientDescent not in the graph pane"
tui_keys Escape
tui_screen >/dev/null
n=$(grep -c "control .*ApplyGradientDescent" "$TUI_SCREEN")
expect_eq tfdbg1_four_control_inputs "$n" 4
tui_keys q
tui_wait_exit >/dev/null

tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "no alerts on screen"
tui_keys Enter
tui_wait "89/680" || die "alert did not land on row 88"
tui_keys 4 k x
tui_expect tfdbg2_placeholder_has_no_inputs "probs has no inputs"
tui_keys q
tui_wait_exit >/dev/null

tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "InfNan" || die "no alerts on screen"
tui_keys 1 g Enter
tui_wait "MatMul-op10" || die "alert did not reach MatMul-op10"
tui_keys 4 g x
tui_expect mindspore_input_expanded "(2)"
tui_keys q
tui_expect_exit 0 quit_exits_0
