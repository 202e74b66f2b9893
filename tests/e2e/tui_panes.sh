#!/bin/bash
# tui_panes.sh - issue 2's skeleton test: tdbg opens the sample dump full
# screen with the six titled panes and the status bar (dump path, format),
# ? shows the help overlay built from the key table, Esc closes it, q quits
# with exit code 0 and the terminal is restored (the alternate screen is
# left, so the panes are gone from the tmux pane).
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
DUMP=$FIXTURES/tfdbg2/mnist_nan
tui_start "$DUMP"

# real data, not placeholders: the first alert group is Log (fixture README)
if tui_wait "InfNan Log"; then
	for title in "[1] Alerts" "[2] Timeline" "[3] Graph executions" "[4] Graph" \
		"[5] Source" "[6] Stack"; do
		expect_file_has "title ${title#* }" "$TUI_SCREEN" "$title"
	done
	# status bar: second to last row holds the dump path and the format
	status=$(sed -n "$((TUI_ROWS - 1))p" "$TUI_SCREEN")
	case $status in
	*"$DUMP"*tfdbg2*) ok status_bar_path_format ;;
	*) fail status_bar_path_format "status row is '$status'" ;;
	esac
	ok first_alert_group
fi

# Tab / Shift-Tab move the focus: the focused title is drawn in the
# title-focus style (dark theme: black on cyan), the others are not.
focused() {
	tmx capture-pane -p -e -t t | grep -aoE $'\e\\[[0-9;]*46m\\[[1-6]\\] [A-Za-z]+' |
		grep -oE '\[[1-6]\]' | tr -d '[]'
}
# expect_focus NAME N: polls until pane N alone has the focused title
expect_focus() {
	local i got
	for i in $(seq 50); do
		got=$(focused)
		[ "$got" = "$2" ] && break
		sleep 0.1
	done
	expect_eq "$1" "$got" "$2"
}
expect_focus focus_starts_on_alerts 1
tui_keys Tab
expect_focus tab_focuses_timeline 2
tui_keys BTab BTab
expect_focus shift_tab_wraps_to_stack 6
tui_keys 3
expect_focus digit_focuses_pane 3

tui_keys '?'
if tui_wait "move-down"; then
	expect_file_has help_from_key_table "$TUI_SCREEN" "j, Down"
	tui_keys G        # the command list ends the help text
	tui_wait "save-display FILE" && ok help_lists_commands
fi
tui_keys Escape
tui_wait_gone "move-down" && tui_wait "[6] Stack" && ok esc_closes_help

tui_keys q
tui_expect_exit 0 q_exits_0
tui_screen >/dev/null
expect_file_lacks terminal_restored "$TUI_SCREEN" "Graph executions"
tui_stop

# SIGTERM (a closed SSH session, a job scheduler): the terminal is restored too.
tui_start "$FIXTURES/tfdbg2/mnist_nan"
if tui_wait "InfNan Log"; then
	shell=$(tmx display-message -p -t t '#{pane_pid}')
	pid=$(pgrep -P "$shell" | head -1)
	if [ -n "$pid" ] && kill -TERM "$pid"; then
		tui_wait_exit >/dev/null
		tui_screen >/dev/null
		expect_file_lacks sigterm_restores_terminal "$TUI_SCREEN" "Graph executions"
	else
		fail sigterm_restores_terminal "no tdbg process under the tmux pane"
	fi
fi
