#!/usr/bin/env bash
# mindspore_tui.sh - the full-screen interface on the MindSpore fixtures
# (issue 8): the NaN of sync_lenet leads from its alert to the op, its
# inputs and its source line; the async sample's overflow shows as an alert.
#
# Facts from tests/fixtures/mindspore/README.md and async_small/README.md:
# the first NaN/Inf is output 0 of .../fc3-Dense/MatMul-op10 (iteration 1),
# made at train_lenet.py line 26 "x = self.fc1(x)", inputs Reshape-op9 and
# fc1.weight, consumer ReLU-op12; the async dump's Opdebug record names
# Default/network/Mul-op2.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "graph 0 iter" || die "the timeline never showed the graph runs"
ok opens_with_graph_runs
expect_file_has status_names_format "$TUI_SCREEN" "mindspore-sync"
expect_file_has status_names_rank "$TUI_SCREEN" "rank_0"
expect_file_has status_counts "$TUI_SCREEN" "102 traces"
expect_file_has alerts_group_matmul "$TUI_SCREEN" "InfNan MatMul"

# The first alert (op type MatMul) leads to MatMul-op10, its inputs and source.
tui_keys 1 g Enter
if tui_probe "fc3-Dense/MatMul-op10 (MatMul) 2 input"; then   # (the narrower Graph title may cut "inputs")
	ok alert_leads_to_matmul_op10
else
	fail alert_leads_to_matmul_op10 "graph pane did not show MatMul-op10"
fi
tui_screen >/dev/null
expect_file_has input_is_fc1_weight "$TUI_SCREEN" "fc1.weight"
expect_file_has input_is_reshape "$TUI_SCREEN" "flatten-Flatten/"
expect_file_has source_line_26 "$TUI_SCREEN" "train_lenet.py:26"
expect_file_has source_code "$TUI_SCREEN" "x = self.fc1(x)"
expect_file_has stack_has_user_frame "$TUI_SCREEN" "0 train_lenet.py:26"
tui_keys q
tui_expect_exit 0 sync_quit_exits_0
tui_stop

tui_start "$FIXTURES/mindspore/async_small"
tui_wait "mindspore-async" || die "the async sample did not open"
ok async_opens
expect_file_has async_overflow_alert "$TUI_SCREEN" "Overflow Mul"
# the alert group is by op type: Mul is Default/network/Mul-op2's type
tui_alert_group '^Overflow$'
tui_keys Enter
if tui_probe "Overflow Mul: alert 1 of 1"; then
	ok overflow_alert_opens
else
	fail overflow_alert_opens "no overflow alert message after Enter"
fi
# issue 12 item 9: the overflow lands on the op's trace row, with its graph
# and its source line (async_small/README.md: Mul-op2 is the second kernel,
# source lines 12, 13, 14 in kernel order: train.py line 13)
tui_expect overflow_lands_on_a_trace_row "Overflow Mul: alert 1 of 1 (trace row"
tui_expect overflow_graph_shows_mul "Default/network/Mul-op2 (Mul)"
tui_expect overflow_source_line "train.py:13"
tui_keys q
tui_expect_exit 0 async_quit_exits_0

[ "$E2E_FAILS" -eq 0 ]
