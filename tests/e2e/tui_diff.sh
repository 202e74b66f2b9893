#!/bin/bash
# tui_diff.sh - the diff layout (issue 16): `tdbg DUMP_A DUMP_B` lists the
# aligned pairs in the trace table, the Alerts pane leads with the first
# divergence, Enter on it selects that pair, Enter on a pair shows both
# tensors side by side, and the graph pane follows A's op.
#
# The pair comes from tests/gen/gen_tfdbg2: the same 2,000-row run, once
# clean (--nan-at -1) and once with NaN from row 700 on (--nan-at 700), so
# the first divergence is pair 700 and rows before it are equal.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
"$GEN" -q -n 2000 --ops 60 --nan-at -1 "$WORK/clean" || die "generator failed"
"$GEN" -q -n 2000 --ops 60 --nan-at 700 --nan-every 1 "$WORK/nan700" || die "generator failed"
op700=$("$TDBG" --json -e 'trace 700' "$WORK/clean" |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["op_name"])')
[ -n "$op700" ] || die "no op name for row 700"

TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start "$WORK/clean" "$WORK/nan700"
tui_expect title_counts_pairs "diff: 2000 pairs, only A 0, only B 0"
tui_expect status_names_both "$WORK/clean vs $WORK/nan700"
tui_expect alerts_lead_with_first_divergence "First divergence: A 700"

# Enter on the first divergence selects pair 700 in the table.
tui_keys 1 Enter
tui_expect enter_selects_pair_700 "701/2000"
tui_settle
sel=$(grep -E '^.*│!? +700 +700 ' "$TUI_SCREEN" || true)
[ -n "$sel" ] && ok pair_700_marked_diverged_in_table || fail pair_700_marked_diverged_in_table "no row 700"
echo "$sel" | grep -q '^[^!]*│!' && ok pair_700_has_divergence_mark || fail pair_700_has_divergence_mark "$sel"
echo "$sel" | grep -q 'nonfinite: op' && ok pair_700_cause_op || fail pair_700_cause_op "$sel"
grep -E '│ +699 +699 ' "$TUI_SCREEN" | grep -q '│!' &&
	fail row_699_not_diverged "699 marked" || ok row_699_not_diverged
# the graph pane follows A's side of the selected pair
tui_expect graph_follows_pair "[4] Graph  $op700"

# Enter on the pair: both tensors side by side
tui_keys Enter
tui_expect pair_view_opens "Pair 700: A trace 700, B trace 700"
if tui_wait "nan change"; then
	row=$(grep -E '^ NaN +' "$TUI_SCREEN" | head -1)
	echo "$row" | grep -qE '^ NaN +0 +[1-9]' && ok pair_view_nan_a0_b_positive ||
		fail pair_view_nan_a0_b_positive "$row"
fi
tui_keys q
tui_wait_gone "Pair 700:" && ok pair_view_closes
tui_keys q
tui_expect_exit 0 quit
