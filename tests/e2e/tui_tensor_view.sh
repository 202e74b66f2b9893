#!/bin/bash
# tui_tensor_view.sh - issue 12 (friction, the tensor view): values and
# statistics first, the metadata in a one-line header (host and device
# once, the wall time as a date: it read 1.58698e+09), the record's text
# last; NaN and +-Inf values stand out (the alert style, not the text's);
# the slice hint is a real command for the row.
# Facts (tests/fixtures/tfdbg2/README.md): in modes/full_tensor the values
# are stored and the Log -> -Inf story holds: the Log alert's tensor holds
# a -inf; the dumps were written in 2020 (TensorFlow 2.3).
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40
tui_start "$FIXTURES/tfdbg2/modes/full_tensor"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_alert_group '^Log$'
tui_keys Enter
tui_wait "InfNan Log: alert 1 of" >/dev/null || die "no Log alert"
tui_keys t
tui_wait "Tensor: trace" || die "no tensor view"
tui_wait "Output 0" >/dev/null
# the header: host, device and the time once, the time as a date
header=$(sed -n 2p "$TUI_SCREEN")
echo "$header" | grep -qE ' 20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} UTC' &&
	ok wall_time_is_a_date || fail wall_time_is_a_date "header: $header"
echo "$header" | grep -qF 'tfdbg-host-a' && ok header_names_host || fail header_names_host "header: $header"
[ "$(grep -c 'tfdbg-host-a' "$TUI_SCREEN")" -le 2 ] && ok host_once ||   # the header and the status bar
	fail host_once "the host is shown $(grep -c 'tfdbg-host-a' "$TUI_SCREEN") times"
# the values' summary comes before the record's metadata
out=$(grep -n 'Output 0' "$TUI_SCREEN" | head -1 | cut -d: -f1)
rec=$(grep -n 'Record' "$TUI_SCREEN" | head -1 | cut -d: -f1)
if [ -n "$out" ] && { [ -z "$rec" ] || [ "$out" -lt "$rec" ]; }; then ok values_first; else
	fail values_first "Output 0 at line $out, Record at line $rec"; fi
# the slice hint is a command that works on this row
tui_expect slice_hint_is_real "(a slice: :print "
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
