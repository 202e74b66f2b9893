#!/bin/bash
# tui_tutorial.sh - the Debugger V2 tutorial's story with the keyboard alone
# (issue 4): the "InfNan Log" alert -> Enter lands on trace row 88 (Log:0)
# -> the graph pane shows its input probs:0 -> Enter on it goes to row 85
# -> back to row 88 -> the stack pane's frame debug_mnist_v2.py:216 ->
# the source pane shows "diff = -labels * tf.math.log(probs)" highlighted.
# Facts from tests/fixtures/tfdbg2/README.md.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "no alerts on screen"

# Alerts is focused at start; it leads with the origin (Log:0, row 88) and
# lists the "InfNan Log" group below.  Enter on either jumps to row 88.
tui_keys Enter
if tui_wait "89/680"; then             # cursor on row 88 (position is 1-based)
	ok origin_enter_lands_on_row_88
	tui_wait "origin: Log at row 88" >/dev/null
	expect_file_has origin_message "$TUI_SCREEN" "origin: Log at row 88: log of a zero in probs:0"
else
	fail origin_enter_lands_on_row_88 "trace table not at row 88"
fi
tui_keys 3 g 1 /
tui_type '^Log$'
tui_keys Enter
tui_wait_gone "89/680" >/dev/null
tui_keys Enter
if tui_wait "89/680"; then
	ok alert_enter_lands_on_row_88
	expect_file_has row_88_is_log "$TUI_SCREEN" "Log (Log)"
	tui_wait "InfNan Log: alert 1 of" >/dev/null
	expect_file_has alert_message "$TUI_SCREEN" "InfNan Log: alert 1 of"
else
	fail alert_enter_lands_on_row_88 "trace table not at row 88"
fi
expect_file_has graph_shows_input_probs "$TUI_SCREEN" "input 0    probs:0"
expect_file_has graph_links_row_85 "$TUI_SCREEN" "-> trace 85"

# Graph pane: up to the input, Enter follows it to the row that produced it.
tui_keys 4 k Enter
if tui_wait "86/680"; then
	ok input_enter_goes_to_row_85
	expect_file_has row_85_is_probs "$TUI_SCREEN" "probs (Placeholder)"
else
	fail input_enter_goes_to_row_85 "trace table not at row 85"
fi

# Back to Log:0: its stack and source line.
tui_keys '['
tui_wait "89/680" && ok back_returns_to_row_88
tui_wait "debug_mnist_v2.py:216 in loss" && ok stack_has_frame_216
stack_title=$(grep -F "[6] Stack" "$TUI_SCREEN")
case $stack_title in
*"debug_mnist_v2.py:216"*) ok stack_selects_frame_216 ;;
*) fail stack_selects_frame_216 "stack title: $stack_title" ;;
esac
expect_file_has source_shows_line "$TUI_SCREEN" "216     diff = -labels * tf.math.log(probs)"
expect_file_has source_title_line "$TUI_SCREEN" "debug_mnist_v2.py:216"

# The line is highlighted (dark theme: black on yellow), its neighbour not.
tmx capture-pane -p -e -t t >"$WORK/ansi.txt"
hl=$(grep -aF "tf.math.log(probs)" "$WORK/ansi.txt")
nb=$(grep -aF "loss = tf.reduce_mean(diff)" "$WORK/ansi.txt")
case $hl in *"[43m"*) ok source_line_highlighted ;; *) fail source_line_highlighted "no highlight on the line" ;; esac
case $nb in *"[43m"*) fail neighbour_not_highlighted "line 217 highlighted too" ;; *) ok neighbour_not_highlighted ;; esac

# Choosing the frame by hand from the stack pane shows the same line.
tui_keys 6 g
tui_wait "debug_mnist_v2.py:241" >/dev/null   # outermost frame: the module
tui_keys G
tui_keys k k k k k k k
tui_wait "[5] Source  " >/dev/null
sleep 0.2
tui_keys Enter
tui_screen >/dev/null
grep -F "[6] Stack" "$TUI_SCREEN" | grep -qF "debug_mnist_v2.py:216" &&
	expect_file_has frame_enter_shows_line "$TUI_SCREEN" "tf.math.log(probs)" ||
	fail frame_enter_shows_line "frame 216 not selected after moving: $(grep -F '[6] Stack' "$TUI_SCREEN")"

tui_keys q
tui_expect_exit 0 quit_after_tutorial
