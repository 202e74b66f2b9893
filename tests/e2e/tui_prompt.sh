#!/bin/bash
# tui_prompt.sh - the ':' prompt: line editing, Tab completion of command
# and op names, output to the output pane, errors on the message line, and
# history kept across runs in $XDG_STATE_HOME/tdbg/history.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
DUMP=$FIXTURES/tfdbg2/mnist_nan
export TDBG_THEMES=$TOP/themes
tui_start "$DUMP"
tui_wait "InfNan Log" || die "tdbg did not start"

# Tab completes a command name: "first-non" -> "first-nonfinite "
tui_keys :
tui_type 'first-non'
tui_keys Tab
tui_wait ":first-nonfinite" && ok tab_completes_command
tui_keys Enter
# the first NaN/Inf is Log:0 at trace row 88 (README)
tui_wait "89/680" && ok first_nonfinite_jumps_to_88

# Tab completes an op name after "op": "op prob" -> "op probs "
tui_keys :
tui_type 'op prob'
tui_keys Tab
tui_wait ":op probs" && ok tab_completes_op_name
tui_keys Escape
tui_wait_gone ":op probs" && ok escape_cancels_prompt

# Tab completes theme names after "theme"
tui_keys :
tui_type 'theme high'
tui_keys Tab
tui_wait ":theme high-contrast" && ok tab_completes_theme_name
tui_keys C-u Escape

# several candidates: the common prefix is inserted and the list is shown
tui_keys :
tui_type 'g'
tui_keys Tab
tui_wait "2 matches: graphs goto" && ok tab_lists_candidates ||
	fail tab_lists_candidates "no candidate list"
tui_keys C-u Escape

# :op shows an op in the graph pane (probs is the Placeholder of README row 85)
tui_keys :
tui_type 'op probs'
tui_keys Enter
tui_wait "[4] Graph  probs (Placeholder)" && ok op_command_shows_graph

# ^C cancels the line and tdbg keeps running
tui_keys :
tui_type 'goto 1'
tui_keys C-c
tui_wait_gone ":goto 1" && tui_wait "[6] Stack" && ok ctrl_c_cancels_prompt

# editing: ^U clears, ^A/^E move, Backspace deletes
tui_keys :
tui_type 'garbage'
tui_keys C-u
tui_type 'oto 85'
tui_keys C-a
tui_type 'g'
tui_keys C-e Enter
tui_wait "86/680" && ok line_editing_keys

# unknown command: one error line
tui_keys :
tui_type 'frobnicate'
tui_keys Enter
tui_wait "frobnicate" && grep -qiE "unknown|no such" "$TUI_SCREEN" && ok unknown_command_error ||
	fail unknown_command_error "no error line"

# a command with several lines of output opens the output pane
tui_keys :
tui_type 'info'
tui_keys Enter
tui_wait "Command output" && tui_wait "FULL_HEALTH" && ok info_output_in_pane
tui_keys Escape
tui_wait_gone "Command output" && ok output_pane_closes

tui_keys q
tui_expect_exit 0 quit_first_run
HIST=$XDG_STATE_HOME/tdbg/history
[ -f "$HIST" ] && ok history_file_written || fail history_file_written "no $HIST"
# libedit's history file encodes blanks with vis(3): "goto\04085"
grep -qE 'goto( |\\040)85' "$HIST" 2>/dev/null && ok history_has_command || fail history_has_command "goto 85 not in $HIST"
tui_stop

# second run: Up recalls the last command of the first run
tui_start "$DUMP"
tui_wait "InfNan Log" || die "tdbg did not restart"
tui_keys :
tui_wait ":" >/dev/null
tui_keys Up
tui_wait ":info" && ok history_survives_restart
tui_keys Up
tui_wait ":frobnicate" && ok history_up_goes_older
tui_keys Down Down
tui_wait_gone ":frobnicate" && ok history_down_returns
tui_keys Escape q
tui_expect_exit 0 quit_second_run
