#!/usr/bin/env bash
# robust_follow.sh - growing dumps (issue 6): `tdbg --follow` picks up
# records appended by a running job, a new host's file set, and the rest of
# a torn record, within about a second (we allow 2 s), and the status bar
# says it is following.  The dumps grow through tests/gen/gen_tfdbg2 --append
# (which appends whole records, as TensorFlow's writer flushes them).
. "$(dirname "$0")/lib.sh"

# wait_ok NAME TEXT [SECONDS]: ok NAME when TEXT shows in time, else FAIL.
wait_ok()
{
	if tui_probe "$2" "${3:-$E2E_TIMEOUT}"; then ok "$1"; else fail "$1" "'$2' not on screen"; fi
}

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
G="$GEN -q --ops 60 --nan-at -1"
TUI_COLS=200 TUI_ROWS=10

D=$WORK/grow
$G -n 200 --executions 9 "$D" || die "generator failed"
tui_start --follow "$D"
tui_wait "200 traces" || fail started "no status bar with 200 traces"
wait_ok status_says_following "[follow]" 2

# A running job appends 300 traces and 3 executions.
$G -n 300 --executions 3 --append "$D"
t0=$(date +%s.%N)
if tui_probe "500 traces" 2; then
	ok appended_rows_seen
	echo "    seen after $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s"
else
	fail appended_rows_seen "500 traces not shown within 2 s"
fi
wait_ok appended_executions_seen "12 exec" 2

# A second host starts writing: its file set appears (50 traces), host 0
# writes 50 more.
$G -n 100 --hosts 2 --executions 1 --append "$D"
wait_ok new_host_rows_seen "600 traces" 2
wait_ok new_host_seen "2 hosts" 2
tui_keys q
tui_expect_exit 0 quit_1
tui_stop

# A torn last record completed later: 199 rows and "torn 1" first, then 200
# rows and no torn file once the writer finishes the record (a torn tail is
# the normal state of a file being written, not a lasting problem).
T=$WORK/torn
cp -r "$FIXTURES/robust/clean" "$T"
chmod -R u+w "$T"
f=$(basename "$(echo "$T"/*.graph_execution_traces)")
full=$(stat -c %s "$FIXTURES/robust/clean/$f")
cut=$(stat -c %s "$FIXTURES/robust/torn/$f")
truncate -s "$cut" "$T/$f"
tui_start --follow "$T"
tui_wait "199 traces" || fail torn_start "no status bar with 199 traces"
wait_ok torn_reported "torn 1" 2
# Still reported once after a few refreshes.
sleep 2
tui_screen >/dev/null
check torn_reported_once grep -qF "torn 1" "$TUI_SCREEN"
tail -c +"$((cut + 1))" "$FIXTURES/robust/clean/$f" >>"$T/$f"
check torn_completed_size test "$(stat -c %s "$T/$f")" = "$full"
wait_ok torn_record_completed "200 traces" 2
if tui_probe_gone "torn 1" 2; then ok torn_cleared; else fail torn_cleared "still torn 1"; fi
tui_keys q
tui_expect_exit 0 quit_2
