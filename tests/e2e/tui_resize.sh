#!/bin/bash
# tui_resize.sh - resizing redraws at once: 160x45 shows six panes, 80x24 a
# page of two (w cycles pages), 200x60 six again, 40x12 one pane, below the
# minimum a "terminal too small" line, and back.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

six() {
	for t in "[1] Alerts" "[2] Timeline" "[3] Graph executions" "[4] Graph" "[5] Source" "[6] Stack"; do
		grep -qF "$t" "$TUI_SCREEN" || return 1
	done
}
count_titles() { grep -oE '\[[1-6]\] [A-Z]' "$TUI_SCREEN" | wc -l; }

tui_screen >/dev/null
six && ok six_panes_at_160x45 || fail six_panes_at_160x45 "missing titles"

tui_resize 80 24
if tui_wait_gone "[6] Stack"; then
	tui_wait "[3] Graph executions" && ok page_of_two_at_80x24
	expect_eq two_panes_at_80x24 "$(count_titles)" 2
	status=$(sed -n 23p "$TUI_SCREEN")
	case $status in *tfdbg2*) ok status_bar_at_80x24 ;; *) fail status_bar_at_80x24 "row 23: $status" ;; esac
	tui_keys w
	tui_wait "[2] Timeline" && tui_wait "[4] Graph" && ok w_cycles_to_next_page
	tui_keys w
	tui_wait "[6] Stack" && tui_wait "[5] Source" && ok w_cycles_to_source_stack
fi

tui_resize 200 60
tui_wait "[1] Alerts" && tui_wait "[6] Stack" && six && ok six_panes_at_200x60

tui_resize 40 12
# focus is on Source after the cycling above: that pane alone shows
if tui_wait_gone "[1] Alerts" && tui_wait "[5] Source"; then
	expect_eq one_pane_at_40x12 "$(count_titles)" 1
fi
tui_keys 3
tui_wait "[3] Graph" && ok digit_shows_pane_at_40x12

tui_resize 15 5
tui_wait "too small: 15x5" && ok too_small_message

tui_resize 160 45
tui_wait "[1] Alerts" && tui_wait "[6] Stack" && six && ok six_panes_again

tui_keys q
tui_expect_exit 0 quit
