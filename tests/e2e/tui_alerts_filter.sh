#!/bin/bash
# tui_alerts_filter.sh - issue 12 item 5: with a filter or a rank on, the
# Alerts pane counts only the alerts whose rows the filter shows, so Enter
# on an alert lands on a row that is on screen (it used to say "trace row
# N" while the trace table, where the filter hid N, stayed elsewhere).
. "$(dirname "$0")/lib.sh"

TUI_COLS=120 TUI_ROWS=40

# ---- a filter on the op type (tfdbg2): only the Log group is left ----
# Facts (tests/fixtures/tfdbg2/README.md): Log:0 at row 88 is the first
# trace with Inf or NaN; many later rows (of other types) hold NaN.
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Mul" || die "tdbg did not start"
tui_keys :
tui_type 'filter type=^Log$'
tui_keys Enter
tui_wait "filter: type=^Log$" || die "the filter did not apply"
tui_wait_gone "InfNan Mul" && ok other_groups_leave || fail other_groups_leave "InfNan Mul still listed"
tui_expect log_group_stays "InfNan Log"
tui_expect title_says_filtered "Alerts  ("
grep -qE 'Alerts  \([0-9]+ of [0-9]+[,)]' "$TUI_SCREEN" && ok title_counts_shown_of_total ||
	fail title_counts_shown_of_total "no 'N of M' in the Alerts title"
tui_alert_group '^Log$'
tui_keys Enter
tui_expect enter_lands_on_row_88 "(trace row 88)"
expect_file_lacks enter_not_hidden "$TUI_SCREEN" "hidden"
tui_keys :
tui_type 'filter off'
tui_keys Enter
tui_expect filter_off_brings_groups_back "InfNan Mul"
tui_keys q
tui_expect_exit 0 quit_tfdbg2

# ---- a rank (MindSpore, two ranks with the same tensors) --------------
mkdir -p "$WORK/two"
cp -r "$FIXTURES/mindspore/sync_lenet/rank_0" "$WORK/two/rank_0"
cp -r "$FIXTURES/mindspore/sync_lenet/rank_0" "$WORK/two/rank_1"
tui_start "$WORK/two"
tui_wait "InfNan MatMul" || die "tdbg did not start on two ranks"
tui_wait "alerts" >/dev/null
tui_settle
total=$(grep -oE 'Alerts  \([0-9]+[,)]' "$TUI_SCREEN" | grep -oE '[0-9]+')
[ -n "$total" ] || die "no alert count in the title"
mm=$(grep -oE 'InfNan MatMul +[0-9]+' "$TUI_SCREEN" | grep -oE '[0-9]+$')
[ -n "$mm" ] || die "no MatMul group"
tui_keys :
tui_type 'rank 1'
tui_keys Enter
# the ranks hold the same tensors: rank 1 has half of the alerts
tui_expect rank_halves_alerts "Alerts  ($((total / 2)) of $total"
tui_alert_group '^MatMul$'
tui_keys Enter
tui_expect rank_enter_jumps "InfNan MatMul: alert 1 of $((mm / 2)) (trace row"
expect_file_lacks rank_enter_not_hidden "$TUI_SCREEN" "hidden"
tui_keys q
tui_expect_exit 0 quit_two_ranks
