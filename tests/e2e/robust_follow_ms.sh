#!/usr/bin/env bash
# robust_follow_ms.sh - `tdbg --follow` on a MindSpore dump being written
# (issue 13): an iteration written file by file shows up whole once its
# files stop changing, never half; a rank directory that appears is picked
# up; an iteration deleted after it was read is reported.  Facts from
# tests/fixtures/mindspore/README.md: sync_lenet iteration 0 gives 52 rows
# (with the 2 constants), iteration 1 50 .npy files and its statistic.csv.
# While an iteration is held back the status bar says
# "[follow: N being written]".
. "$(dirname "$0")/lib.sh"

# wait_ok NAME TEXT [SECONDS]: ok NAME when TEXT shows in time, else FAIL.
wait_ok()
{
	if tui_probe "$2" "${3:-$E2E_TIMEOUT}"; then ok "$1"; else fail "$1" "'$2' not on screen"; fi
}

TUI_COLS=200 TUI_ROWS=10
D=$WORK/live
IT=rank_0/Lenet/0
cp -r "$FIXTURES/mindspore/sync_lenet" "$D"
chmod -R u+w "$D"
mv "$D/$IT/1" "$WORK/iter1"
find "$D" -exec touch -d '-1 min' {} +

tui_start --follow "$D"
wait_ok started "52 traces"

# The job writes iteration 1 file by file (about 2.5 s in all); tdbg must
# never show part of it.
mkdir "$D/$IT/1"
half=0
for f in "$WORK"/iter1/*; do
	cp "$f" "$D/$IT/1/"
	sleep 0.05
	tui_screen >/dev/null
	if ! grep -qF "52 traces" "$TUI_SCREEN"; then half=1; fi
done
if grep -qE "\b(5[3-9]|[6-9][0-9]|10[01]) traces" "$TUI_SCREEN" || [ $half = 1 ]; then
	fail never_half_an_iteration "the trace count moved while iteration 1 was written"
else
	ok never_half_an_iteration
fi
# The status bar says an iteration is being written (unless it already
# settled: the loop may have been slow), then shows it whole once its
# files have been quiet for 2 s.
if ! grep -qF "102 traces" "$TUI_SCREEN"; then
	wait_ok status_says_being_written "[follow: 1 being written]" 2
fi
wait_ok whole_iteration_after_it_settles "102 traces" 6
if tui_probe_gone "being written" 2; then ok status_back_to_follow; else fail status_back_to_follow "still 'being written'"; fi
wait_ok two_executions "2 exec" 2

# A second rank appears (written elsewhere, moved in: its files are new):
# its directory is picked up, its iterations shown once settled.
cp -r "$D/rank_0" "$WORK/rank_1"
mv "$WORK/rank_1" "$D/rank_1"
wait_ok new_rank_rows "204 traces" 8
wait_ok new_rank_host "2 hosts" 2

# An iteration deleted after it was read is reported (its rows stay).
rm -r "$D/rank_1/Lenet/0/1"
wait_ok deleted_iteration_reported "missing 1" 4
tui_keys q
tui_expect_exit 0 quit
tui_stop
