#!/bin/bash
# tui_mouse.sh - a mouse click focuses the pane under the pointer and
# selects the row (or the timeline cell) there.  The clicks are typed as
# the xterm X10 mouse sequences the terminal would send (ESC [ M b x y),
# which tdbg's curses decodes as KEY_MOUSE.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

# click COL ROW (0-based): press and release of button 1
click()
{
	local b
	for b in 32 35; do
		printf -v ev '\033[M%b%b%b' "\\x$(printf %x $b)" "\\x$(printf %x $((33 + $1)))" \
			"\\x$(printf %x $((33 + $2)))"
		tui_type "$ev"
	done
}

# Alerts: title on row 0, groups from row 1; row 5 is the fifth group.
click 3 5
tui_wait "[1] Alerts" >/dev/null
# the pane's position "5/N" (N, the lines it holds, follows the origins)
alerts_at_5()
{
	tmx capture-pane -p -t t | head -1 | grep -qE 'Alerts[^│|]* 5/[0-9]+ '
}
for i in $(seq 50); do alerts_at_5 && break; sleep 0.2; done
if alerts_at_5; then ok click_selects_alert_row; else
	fail click_selects_alert_row "title: $(tmx capture-pane -p -t t | head -1)"; fi

# Graph executions: title row 0, header row 1, trace rows from row 2;
# a click on screen row 6 selects trace 4, whose op the graph pane shows.
x=$(grep -F "[3] Graph executions" "$TUI_SCREEN" | awk '{ print index($0, "[3] Graph executions") }')
# index() counts characters of the captured line; box characters are one column each
click $((x + 5)) 6
tui_wait "5/680" && ok click_selects_trace_row
tui_keys j
tui_wait "6/680" && ok click_focused_trace_pane

# Timeline: a click on the second cell of the second line (its title row
# and column found on screen: issue 24 put it beside the Graph).
tx=$(grep -F "[2] Timeline" "$TUI_SCREEN" | awk '{ print index($0, "[2] Timeline") }')
ty=$(grep -n -F "[2] Timeline" "$TUI_SCREEN" | head -1 | cut -d: -f1)
click $((tx - 1 + 20)) $((ty - 1 + 2))   # inside the second cell (16 columns a cell)
tui_wait " 5/224 #4 " && ok click_selects_timeline_cell

# issue 12 (friction): a click on a link of the Graph pane follows it.
# README: row 88 is Log:0, whose only input is probs:0 at row 85.
tui_keys :
tui_type 'goto trace 88'
tui_keys Enter
tui_wait "89/680" >/dev/null || fail goto_88 "no row 88"
tui_wait "input 0    probs:0" >/dev/null
tui_screen >/dev/null
line=$(grep -n -F "input 0    probs:0" "$TUI_SCREEN" | head -1 | cut -d: -f1)
gx=$(grep -F "[4] Graph" "$TUI_SCREEN" | awk '{ print index($0, "[4] Graph") }')
if [ -n "$line" ]; then
	click $((gx - 1 + 10)) $((line - 1))
	tui_expect click_on_link_follows_it "86/680"
else
	fail click_on_link_follows_it "no input link on screen"
fi

# the help says what the mouse does and how to turn it off
tui_keys '?'
tui_expect help_documents_mouse "Mouse (on; --no-mouse turns it off)"
tui_keys q

tui_keys q
tui_expect_exit 0 quit

# --no-mouse: clicks are not asked for, and the help says so
tui_start --no-mouse "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg --no-mouse did not start"
tui_keys '?'
tui_expect help_says_mouse_off "Mouse: off (--no-mouse)"
tui_keys q q
tui_expect_exit 0 quit_no_mouse
