#!/bin/bash
# tui_watches.sh - watch hits in the Alerts pane (issue 15): the check runs
# in the background, its hits are grouped by watch and op type, Enter goes
# to the first hit (its op in the graph pane), n walks the group, and
# :watch add at the prompt adds a group and keeps the watch in the dump's
# saved state (issue 24 item 4: not in the watches file, which other dumps
# read).  The dump is tests/gen/make_watch_dump.py's (see
# batch_watches.sh): vanish_grad (rows 0, 14, 28) has abs_mean ~1.4e-12,
# under gradient_vanishing's 1e-09; act_wide (rows 4, 18, 32) reaches 43.75.
. "$(dirname "$0")/lib.sh"

python3 "$TOP/tests/gen/make_watch_dump.py" "$WORK/w" || die "generator failed"
TUI_COLS=200 TUI_ROWS=50 TUI_TERM=screen-256color
tui_start "$WORK/w"
tui_expect group_listed "gradient_vanishing"
tui_expect check_finishes " hits)"
pos() { grep -F "[3] Graph executions" "$TUI_SCREEN" | grep -oE '[0-9]+/[0-9]+' | tail -1; }

tui_keys 1 /
tui_type 'vanishing'
tui_keys Enter
tui_wait "/vanishing" >/dev/null
tui_keys Enter
tui_expect enter_first_hit "gradient_vanishing MatMul: hit 1 of 3 (trace row 0): abs_mean 1.4375e-12 < 1e-09"
tui_settle
[ "$(pos)" = 1/42 ] && ok trace_table_at_row_0 || fail trace_table_at_row_0 "at $(pos)"
tui_expect graph_shows_op "[4] Graph  Gradients_Default_vanish_grad-op1"
tui_keys n
tui_expect n_second_hit_from_trace_table "hit 2 of 3 (trace row 14)"
tui_keys 1 n
tui_expect n_third_hit_in_alerts "hit 3 of 3 (trace row 28)"

tui_keys :
tui_type "watch add wide 'max > 40'"
tui_keys Enter
tui_expect prompt_add_says "added for this dump"
tui_keys 1 G                     # the new group is the last
tui_expect prompt_add_group " wide "
grep -qx "wide max > 40" "$XDG_CONFIG_HOME/tdbg/watches" 2>/dev/null &&
	fail not_in_watches_file "$(cat "$XDG_CONFIG_HOME/tdbg/watches" 2>&1)" || ok not_in_watches_file
tui_keys q
tui_expect_exit 0 quit

# the next run has it, from the dump's state
tui_start "$WORK/w"
tui_expect check_finishes_again " hits)"
tui_keys G
tui_expect file_watch_next_run " wide "
tui_keys q
tui_expect_exit 0 quit_again

# and per dump, in the state directory: without the watches file the
# dump's state brings it back; --fresh starts without it
grep -rqx "watch wide max > 40" "$XDG_STATE_HOME/tdbg" && ok saved_in_dump_state ||
	fail saved_in_dump_state "$(cat "$XDG_STATE_HOME"/tdbg/* 2>&1 | head -20)"
rm -f "$XDG_CONFIG_HOME/tdbg/watches"
tui_start "$WORK/w"
tui_expect check_finishes_state " hits)"
tui_keys 1 G
tui_expect state_watch_next_run " wide "
tui_keys q
tui_expect_exit 0 quit_state
tui_start --fresh "$WORK/w"
tui_expect check_finishes_fresh " hits)"
tui_keys 1 G
tui_settle
expect_file_lacks fresh_has_no_dump_watch "$TUI_SCREEN" " wide "
tui_keys q
tui_expect_exit 0 quit_fresh
