#!/bin/bash
# tui_timeline_call.sh - issue 12 item 8: Enter on a tf.function call in
# the timeline keeps that call selected (it selected the function's last
# call) and the trace table starts at that call's own traces (it showed the
# first call's); ":filter off" keeps the selected execution and trace row
# (it restored a position: the timeline landed on an unrelated eager op).
# Facts (tests/fixtures/tfdbg2/README.md): 10 training steps, so the loss
# function is called more than once; its graph is `loss`.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"

# exec: the "#N" of the Timeline title; tpos: the trace table's position
# (tfdbg2's timeline title may end "(rows not linked)": traces name no call)
exec_no() { tui_screen >/dev/null; grep -oE '\[2\] Timeline +[0-9]+/[0-9]+ #[0-9]+' "$TUI_SCREEN" | grep -oE '#[0-9]+'; }
tpos() { tui_screen >/dev/null; grep -oE '[0-9]+/[0-9]+ *$' "$TUI_SCREEN" | head -1 | cut -d/ -f1; }

enter_call() {
	tui_keys 2 /
	tui_type '^__inference_loss'
	tui_keys Enter
	tui_wait '/^__inference_loss' >/dev/null || die "no loss call found"
	[ "$1" = second ] && { tui_keys n; sleep 0.3; }
	call=$(exec_no)
	tui_keys Enter
	tui_wait "filter: graph=loss" >/dev/null || die "Enter did not filter by the call's graph"
}

enter_call first
first_call=$call
tui_wait "Timeline  " >/dev/null
tui_settle
grep -qE 'Timeline  1/' "$TUI_SCREEN" && ok first_call_kept ||
	fail first_call_kept "$(grep -oE '\[2\] Timeline[^│]*' "$TUI_SCREEN")"
first_pos=$(tpos)
tui_keys :
tui_type 'filter off'
tui_keys Enter
tui_wait "filter off" >/dev/null

enter_call second
second_call=$call
[ "$second_call" != "$first_call" ] || die "n did not reach another call ($first_call)"
tui_expect second_call_kept_selected "$second_call __inference"
second_pos=$(tpos)
if [ -n "$first_pos" ] && [ -n "$second_pos" ] && [ "$second_pos" -gt "$first_pos" ]; then
	ok traces_start_at_the_calls_own_rows
else
	fail traces_start_at_the_calls_own_rows "trace positions: first call $first_pos, second call $second_pos"
fi
tui_keys :
tui_type 'filter off'
tui_keys Enter
tui_wait "filter off" >/dev/null
expect_eq filter_off_keeps_the_execution "$(exec_no)" "$second_call"
tui_keys q
tui_expect_exit 0 quit
