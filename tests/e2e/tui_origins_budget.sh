#!/bin/bash
# tui_origins_budget.sh - origins on a dump whose every row is costly
# (issue 23 item 16): one op of 40,000 inputs traced 40,000 times, 20,000
# of its rows NaN (gen_tfdbg2 --wide: the inputs are placeholders that are
# never traced, so every row's inputs are unknown).  Batch `origins` is
# bounded by its work budget and says the answer is partial; the TUI looks
# for the origins between keys, so `q` quits at once.
#
# Facts (the generator's options): 40,000 rows, row r holds NaN when r is
# even (--nan-at 0 --nan-every 2), each row is the op "wide" (AddN) whose
# 40,000 inputs in_0 .. in_39999 have no rows.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
"$GEN" -q -n 40000 --wide 40000 --executions 100 --nan-at 0 --nan-every 2 "$WORK/wide" ||
	die "generator failed"

# ---- batch: bounded, and says so ----------------------------------------------
start=$(date +%s.%N)
E2E_RUNS=$((E2E_RUNS + 1))
RC=0
timeout 60 "$TDBG" --no-cache --json -e origins "$WORK/wide" >"$OUT" 2>"$ERR" || RC=$?
secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
expect_rc 0 batch_exit_0
awk -v s="$secs" 'BEGIN { exit !(s < 20) }' && ok batch_bounded || fail batch_bounded "took ${secs}s"
json_expect batch_says_partial '(d["partial"] is True and d["partial_row"] is not None
	and d["total"] >= 1 and all(o["index"] < d["partial_row"] for o in d["items"])
	and all(o["op_name"] == "wide" and o["index"] % 2 == 0 for o in d["items"]))' "$OUT"
timeout 60 "$TDBG" --no-cache -e origins "$WORK/wide" >"$WORK/text" 2>&1
expect_file_has batch_text_says_partial "$WORK/text" "partial: the work budget ran out"

# ---- TUI: q quits at once while the origins are looked for ----------------------
TUI_COLS=160 TUI_ROWS=45 TUI_TERM=screen-256color
tui_start --no-cache "$WORK/wide"
tui_wait "40000 traces" >/dev/null || fail tui_started "no status line"
tui_keys q
if code=$(tui_wait_exit 5); then
	[ "$code" = 0 ] && ok q_quits_at_once || fail q_quits_at_once "exit $code"
else
	fail q_quits_at_once "still running 5 s after q"
fi

# the look ends, and the pane says the answer is partial; keys still work
tui_start --no-cache "$WORK/wide"
tui_expect tui_look_ends "origins, partial"
tui_keys q
tui_expect_exit 0 quit_after_look

[ "$E2E_FAILS" -eq 0 ]
