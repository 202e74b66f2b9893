#!/bin/bash
# tui_origins.sh - where the NaN/Inf started, on screen (issue 14): the
# Alerts pane leads with the origins, Enter on one selects its row (the
# graph pane shows its input) and marks the propagation path with '>' in
# the trace table; O jumps from any row to its origin; a dump of several
# hosts leads with one line per host.
#
# Facts: tests/fixtures/tfdbg2/README.md (row 88 Log:0 is the first -Inf,
# its only input probs:0 is row 85 with one zero; rows before 88 are
# finite) and the generator's parameters (--hosts 2 --nan-at 500
# --nan-every 0: one bad row per host, at row 500 of each host's 2,000).
. "$(dirname "$0")/lib.sh"

TUI_COLS=200 TUI_ROWS=50 TUI_TERM=screen-256color
tui_start "$FIXTURES/tfdbg2/mnist_nan"
tui_wait "InfNan Log" || die "tdbg did not start"
tui_expect alerts_lead_with_origin "Origin: Log:0 at row 88"
pos() { grep -F "[3] Graph executions" "$TUI_SCREEN" | grep -oE '[0-9]+/[0-9]+' | tail -1; }

# Enter on the headline: row 88 selected, its path marked, its input shown
tui_keys 1 g Enter
tui_expect enter_says_cause "origin: Log at row 88: log of a zero in probs:0"
tui_settle
[ "$(pos)" = 89/680 ] && ok enter_selects_row_88 || fail enter_selects_row_88 "at $(pos)"
grep -qE '│> +88 Log ' "$TUI_SCREEN" && ok origin_row_marked || fail origin_row_marked "no '>  88 Log'"
grep -qE '│> +87 ' "$TUI_SCREEN" && fail finite_row_87_unmarked "row 87 marked" || ok finite_row_87_unmarked
# every marked row after the origin holds NaN or Inf (its -Inf/NaN/+Inf
# counts are not all 0): the path carries the bad values
marked=$(grep -E '│> +[0-9]+ ' "$TUI_SCREEN" | grep -vE '│> +88 ' || true)
if [ -n "$marked" ] && ! echo "$marked" | grep -qE ' 0/0/0/[0-9]+/[0-9]+/[0-9]+ *(│|$)'; then
	ok path_rows_hold_nonfinite
else
	fail path_rows_hold_nonfinite "marked: $marked"
fi
tui_expect graph_shows_input "probs"

# O from a later row of the path goes back to the origin
tui_keys 3 j j O
tui_expect o_from_path_row "its origin is row 88"
tui_settle
[ "$(pos)" = 89/680 ] && ok o_selects_origin || fail o_selects_origin "at $(pos)"
# Issue 22: O from a row fed through calls and variables (117, the
# backward function's Identity at step 76, after the eager calls named by
# their tensor ids) goes back to the Log at 88, and the marked path holds
# the starting row itself.
tui_keys : ; tui_type 'goto trace 117'; tui_keys Enter
tui_wait "118/680" >/dev/null || fail goto_117 "not at 118/680"
tui_keys O
tui_expect o_from_117_reaches_88 "its origin is row 88"
tui_settle
[ "$(pos)" = 89/680 ] && ok o_from_117_selects_88 || fail o_from_117_selects_88 "at $(pos)"
tui_keys : ; tui_type 'goto trace 117'; tui_keys Enter
tui_wait "118/680" >/dev/null
tui_settle
grep -qE '│> +117 ' "$TUI_SCREEN" && ok o_path_marks_start_row || fail o_path_marks_start_row "row 117 not marked"
# O on a finite row says so and stays
tui_keys : ; tui_type 'goto trace 85'; tui_keys Enter
tui_wait "86/680" >/dev/null
tui_keys O
tui_expect o_on_finite_row "trace 85 (probs) holds no NaN/Inf"
# O on an alert group: the origin of its first alert
tui_keys 1 g
for i in 1 2 3 4 5 6; do tui_keys j; done
tui_keys O
tui_expect o_on_alert_group "origin"
tui_keys q
tui_expect_exit 0 quit

# ---- many origins: Enter on "N origins in all" lists them all ----------
# (issue 24 item 2) The generator injects one NaN at row 500 and one every
# 100 rows after it, each with finite inputs: 35 origins in 4,000 rows, the
# last at row 3900.
GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
"$GEN" -q -n 4000 --ops 60 --nan-at 500 --nan-every 100 "$WORK/many" || die "generator failed"
tui_start "$WORK/many"
tui_expect many_more_line "35 origins in all (Enter: list)"
tui_keys 1 g j j j Enter
tui_expect many_list_opens "Other origins:"
tui_keys G
tui_expect many_list_whole "3900"
if grep -qF "more (origins" "$TUI_SCREEN"; then fail many_list_not_cut "cut"; else ok many_list_not_cut; fi
tui_keys k Enter
tui_expect many_list_link_jumps "3800"
tui_settle
[ "$(pos)" = 3801/4000 ] && ok many_link_selects_3800 || fail many_link_selects_3800 "at $(pos)"
tui_keys q
tui_expect_exit 0 quit_many

# ---- several hosts: one line per host ---------------------------------
"$GEN" -q -n 4000 --ops 60 --hosts 2 --nan-at 500 --nan-every 0 "$WORK/h2" || die "generator failed"
hosts=$("$TDBG" --json -e info "$WORK/h2" | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["hosts"]))')
set -- $hosts
[ $# = 2 ] || die "expected 2 hosts: $hosts"
tui_start "$WORK/h2"
tui_expect host_0_line "$1, step"
tui_expect host_1_line "$2, step"
tui_settle
line1=$(grep -n -F "$1, step" "$TUI_SCREEN" | cut -d: -f1)
line2=$(grep -n -F "$2, step" "$TUI_SCREEN" | cut -d: -f1)
[ -n "$line1" ] && [ -n "$line2" ] && [ "$line2" = $((line1 + 1)) ] &&
	ok hosts_one_line_each || fail hosts_one_line_each "lines $line1 $line2"
tui_keys 1 g j Enter
tui_expect second_host_origin_row "at row 2500"
tui_settle
[ "$(pos)" = 2501/4000 ] && ok second_host_selects_2500 || fail second_host_selects_2500 "at $(pos)"
tui_keys q
tui_expect_exit 0 quit_hosts
