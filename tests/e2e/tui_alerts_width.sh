#!/usr/bin/env bash
# tui_alerts_width.sh - issue 24 item 1: the Alerts pane's lead line (the
# first origin) is whole on screen at 100x30, 120x40, 160x45 and 200x60,
# and the Graph pane still shows the selected op.  Facts
# (tests/fixtures/tfdbg2/README.md): the first non-finite trace is Log:0 at
# row 88, whose only input is probs:0 (the line's cause names it); the
# first trace row is x:0.
. "$(dirname "$0")/lib.sh"

for size in 100x30 120x40 160x45 200x60; do
	TUI_COLS=${size%x*} TUI_ROWS=${size#*x}
	tui_start "$FIXTURES/tfdbg2/mnist_nan"
	tui_wait "InfNan Log" || die "tdbg did not start at $size"
	tui_expect "lead_line_shown_$size" "Origin: Log:0 at row 88"
	# whole: it goes on to name the input, probs:0, with no ellipsis
	check "lead_line_whole_$size" grep -qE 'Origin: Log:0 at row 88, step [0-9]+: [^…│]* probs:0( |$)' "$TUI_SCREEN"
	expect_file_has "graph_shown_$size" "$TUI_SCREEN" "[4] Graph  x (Placeholder)"
	expect_file_has "traces_shown_$size" "$TUI_SCREEN" "[3] Graph executions"
	tui_keys q
	tui_expect_exit 0 "quit_$size"
done

[ "$E2E_FAILS" -eq 0 ]
