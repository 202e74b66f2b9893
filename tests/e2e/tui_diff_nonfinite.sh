#!/bin/bash
# tui_diff_nonfinite.sh - issue 22.4-22.6 on screen: sync_lenet against a
# copy made finite at MatMul-op10 (tests/e2e/ms_edit.py writes it and says
# where: 3 positions of 240 changed, iteration 1).  The table cell and the
# pair view lead with the non-finite mismatch; the pair view says the
# finite positions, shows |mean|, std and l2 (computed from the .npy
# values: statistic.csv has none) and the row's step (iteration 1).
. "$(dirname "$0")/lib.sh"

S=$FIXTURES/mindspore/sync_lenet
MM=Default/network-WithLossCell/_backbone-LeNet5/fc3-Dense/MatMul-op10
python3 "$TOP/tests/e2e/ms_edit.py" "$S" "$WORK/finite" "$MM" 1 finite -1 0.5 2 >"$WORK/edit.json" ||
	die "ms_edit.py failed"
n=$(json_get 'd["elements"]' "$WORK/edit.json")
row=$("$TDBG" --json -e "traces --op 'MatMul-op10\$' --execution 1" "$S" |
	python3 -c 'import json,sys; print([r["index"] for r in json.load(sys.stdin)["rows"] if not r["is_input"]][0])')
[ -n "$row" ] || die "no row for MatMul-op10's output"

TUI_COLS=160 TUI_ROWS=50 TUI_TERM=screen-256color
tui_start "$S" "$WORK/finite"
tui_expect alerts_lead_with_first_divergence "First divergence: A $row"
tui_keys 1 Enter
tui_expect enter_selects_the_pair "$((row + 1))/102"
tui_settle
sel=$(grep -E "│!? +$row +$row " "$TUI_SCREEN" || true)
echo "$sel" | grep -q 'nonfinite 3 cos 1.000000' && ok table_cell_leads_with_the_mismatch ||
	fail table_cell_leads_with_the_mismatch "$sel"

tui_keys Enter
tui_expect pair_view_opens "Pair $row: A trace $row, B trace $row"
tui_expect pair_view_step_is_the_iteration "host B rank_0  step 1"
if tui_wait "finite positions"; then
	grep -qE '^ +nonfinite mismatch +3$' "$TUI_SCREEN" && ok pair_view_mismatch_first ||
		fail pair_view_mismatch_first "$(grep -E 'nonfinite|cosine' "$TUI_SCREEN")"
	line=$(grep -nE '^ +nonfinite mismatch' "$TUI_SCREEN" | cut -d: -f1)
	cos=$(grep -nE '^ +cosine ' "$TUI_SCREEN" | cut -d: -f1)
	[ -n "$line" ] && [ -n "$cos" ] && [ "$line" -lt "$cos" ] && ok pair_view_mismatch_leads ||
		fail pair_view_mismatch_leads "lines $line, $cos"
	grep -qE '^ +max abs error +inf$' "$TUI_SCREEN" && ok pair_view_max_abs_inf ||
		fail pair_view_max_abs_inf "$(grep 'max abs' "$TUI_SCREEN")"
	grep -qE "^ +finite positions +$((n - 3))\$" "$TUI_SCREEN" && ok pair_view_finite_positions ||
		fail pair_view_finite_positions "$(grep 'finite positions' "$TUI_SCREEN")"
	for f in '|mean|' 'std' 'l2 norm'; do
		l=$(grep -E "^ $(printf '%s' "$f" | sed 's/|/\\|/g') " "$TUI_SCREEN" | head -1)
		echo "$l" | grep -qE '^ \S.* +[0-9.]+ +[0-9.]+$' && ok "pair_view_shows_${f//[^a-z0-9]/_}" ||
			fail "pair_view_shows_${f//[^a-z0-9]/_}" "$l"
	done
else
	fail pair_view_metrics "no metrics on screen"
fi
tui_keys q
tui_wait_gone "Pair $row:" && ok pair_view_closes
tui_keys q
tui_expect_exit 0 quit
