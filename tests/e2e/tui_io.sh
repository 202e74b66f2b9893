#!/bin/bash
# tui_io.sh - MindSpore dumps hold op inputs as well as outputs: the trace
# table's slot column says "in0" / "out0" (header "I/O"); a tfdbg2 dump,
# which holds outputs only, keeps the plain "Slot" numbers.
# Facts from tests/fixtures/mindspore/sync_lenet's file names:
# Conv2D-op1 of conv1 dumps input.0, input.1 and output.0 in iteration 0.
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40 TUI_TERM=screen-256color
tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "Graph executions" || die "tdbg did not start"
tui_keys 3
tui_wait "Conv2D-op1" || die "no Conv2D-op1 row"
expect_file_has header_says_io "$TUI_SCREEN" " I/O "
rows=$(grep -E 'Conv2d/Conv2D-op1 +Conv2D' "$TUI_SCREEN" | grep -oE ' (in|out)[0-9]+ ' | tr -d ' ' | tr '\n' ' ')
expect_eq conv1_inputs_then_output "$rows" "in0 in1 out0 "
tui_keys q
tui_expect_exit 0 quit_mindspore

tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "Graph executions" || die "tdbg did not start"
tui_keys 3
tui_wait "Slot" && ok tfdbg2_header_says_slot
tui_screen >/dev/null
if grep -qE ' (in|out)[0-9]+ ' "$TUI_SCREEN"; then
	fail tfdbg2_no_in_out "in/out shown for a dump without input rows"
else
	ok tfdbg2_no_in_out
fi
tui_keys q
tui_expect_exit 0 quit_tfdbg2
