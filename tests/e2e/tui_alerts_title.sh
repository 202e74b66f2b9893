#!/bin/bash
# tui_alerts_title.sh - issue 12 (friction): the Alerts title never cuts
# its count.  With a filter the count reads "N of M"; in the narrow Alerts
# pane of the full layout the row position gives way to it (it read
# "(53 of …").
. "$(dirname "$0")/lib.sh"

for size in 160x45 120x40 80x24; do
	TUI_COLS=${size%x*} TUI_ROWS=${size#*x}
	tui_start "$FIXTURES/tfdbg2/mnist_nan"
	tui_wait "InfNan Log" || die "tdbg did not start at $size"
	tui_keys :
	tui_type 'filter graph=loss'
	tui_keys Enter
	tui_wait "filter: graph=loss" >/dev/null || die "no filter at $size"
	tui_keys 1
	tui_wait " of " >/dev/null
	tui_settle
	if grep -qE '\[1\] Alerts  \([0-9]+ of [0-9]+[,)]' "$TUI_SCREEN"; then
		ok "count_whole_$size"
	else
		fail "count_whole_$size" "$(grep -F '[1] Alerts' "$TUI_SCREEN")"
	fi
	tui_keys q
	tui_expect_exit 0 "quit_$size"
done
