#!/usr/bin/env bash
# tui_msprobe.sh - the panes on an msprobe dump (issue 26): the six panes
# show its rows (tests/fixtures/msprobe/pt_stats_2rank/facts.json: the NaN is
# born at Torch.sqrt.0.forward on rank 1, step 1; its stack is
# train.py line 31 "s = torch.sqrt(y)"), Enter on the origin shows its op
# with its input, and the Stack and Source panes show the call's frame.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
DUMP=$FIXTURES/msprobe/pt_stats_2rank
tui_start "$DUMP"

if tui_wait "Torch.sqrt"; then
	for title in "[1] Alerts" "[2] Timeline" "[3] Graph executions" "[4] Graph" \
		"[5] Source" "[6] Stack"; do
		expect_file_has "title ${title#* }" "$TUI_SCREEN" "$title"
	done
	status=$(sed -n "$((TUI_ROWS - 1))p" "$TUI_SCREEN")
	case $status in
	*msprobe*) ok status_bar_format ;;
	*) fail status_bar_format "status row is '$status'" ;;
	esac
	expect_file_has timeline_lists_entries "$TUI_SCREEN" "Functional.linear.0.forward"
	ok origin_listed
else
	fail origin_listed "no Torch.sqrt on screen"
fi
# Enter on the first alert (the origin) goes to its row: op, input, stack
tui_keys 1 Enter
tui_expect stack_frame_of_the_call "train.py:31"
tui_expect source_line_shown "s = torch.sqrt(y)"
tui_expect graph_shows_the_input "input.0"
tui_keys q
tui_expect_exit 0 quit
tui_stop
