#!/bin/bash
# tui_tensor_view.sh - issue 12 (friction, the tensor view): NaN and +-Inf
# values stand out (the alert style, not the text's), and the wall time
# reads as a date (it read 1.58698e+09).
# Facts (tests/fixtures/tfdbg2/README.md): in modes/full_tensor the values
# are stored and the Log -> -Inf story holds: the Log alert's tensor holds
# a -inf; the dumps were written in 2020 (TensorFlow 2.3).
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/modes/full_tensor"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_keys 1 /
tui_type '^InfNan Log'
tui_keys Enter Enter
tui_wait "InfNan Log: alert 1 of" >/dev/null || die "no Log alert"
tui_keys t
tui_wait "wall time" || die "no tensor view"
grep -qE 'wall time +20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} UTC' "$TUI_SCREEN" &&
	ok wall_time_is_a_date || fail wall_time_is_a_date "$(grep 'wall time' "$TUI_SCREEN")"
tui_expect values_shown "-inf"
tmx capture-pane -p -e -t t >"$WORK/ansi.txt"
# the -inf value begins a styled run of its own (an SGR right before it)
grep -aqE $'\e\\[[0-9;]*m-inf' "$WORK/ansi.txt" && ok inf_value_highlighted ||
	fail inf_value_highlighted "no style change before -inf"
# the summary's labels (-Inf, NaN) are text, not values
grep -aqE $'\e\\[[0-9;]*m-Inf' "$WORK/ansi.txt" && fail label_not_highlighted "the -Inf label is styled" ||
	ok label_not_highlighted
tui_keys q q
tui_expect_exit 0 quit
