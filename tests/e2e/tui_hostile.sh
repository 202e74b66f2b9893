#!/bin/bash
# tui_hostile.sh - dump strings never drive the terminal: the robust
# "hostile" dump names ops with escape sequences (clear screen, an OSC
# window title), control bytes and invalid UTF-8 (tests/fixtures/robust/
# README.md).  The TUI shows them as visible escapes; the screen is not
# cleared and the terminal title is not changed.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/robust/hostile"
tui_wait "[6] Stack" || die "tdbg did not start"

tui_keys :
tui_type 'filter op=^evil'
tui_keys Enter
if tui_wait "filter: op=^evil"; then
	expect_file_has escape_shown_as_text "$TUI_SCREEN" 'evil/^[[2J^[[H^[]0;PWNED^Gtitle'
	# the other panes are still drawn: no clear-screen reached the terminal
	expect_file_has screen_not_cleared "$TUI_SCREEN" "[1] Alerts"
	title=$(tmx display-message -p -t t '#{pane_title}')
	case $title in *PWNED*) fail title_not_changed "pane title is '$title'" ;; *) ok title_not_changed ;; esac
fi
# the selected evil op in the graph pane and its tensor overlay
tui_keys 3 t
tui_wait "Tensor: trace" && expect_file_has tensor_title_escaped "$TUI_SCREEN" 'evil/^[[2J'
tui_keys Escape

tui_keys q
tui_expect_exit 0 quit
