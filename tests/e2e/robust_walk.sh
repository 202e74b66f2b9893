#!/usr/bin/env bash
# robust_walk.sh - odd directory entries never hang the walk, never make
# phantom rows and are never dropped in silence (issue 13).  Each case is
# made in a temporary copy of a sample dump (git cannot hold FIFOs, and
# link loops in the tree would trouble other tools).
. "$(dirname "$0")/lib.sh"

# run_guarded NAME ARGS...: tdbg_run with a hang guard (not a speed target:
# before the fix two `a -> .` links made the walk follow 2^64 paths).
run_guarded()
{
	E2E_RUNS=$((E2E_RUNS + 1))
	RC=0
	timeout 60 ${TDBG_WRAP:-} "$TDBG" "$@" </dev/null >"$OUT" 2>"$ERR" || RC=$?
	_wrap_check "$@"
}

# tfdbg1 (mlp_nan: 3 runs x 48 dumped tensors, README): two links to the
# device directory itself, a link out of the dump and a FIFO.
T1=$WORK/v1
cp -r "$FIXTURES/tfdbg1/mlp_nan" "$T1"
DEV="$T1/run_1700000000123456_0/_tfdbg_device_,job_localhost,replica_0,task_0,device_CPU_0"
ln -s . "$DEV/a"
ln -s . "$DEV/b"
ln -s /etc "$DEV/outside"
mkfifo "$DEV/fifo"
run_guarded --json -e info -e problems "$T1"
expect_rc 0 v1_links/exit_0
json_expect v1_links/no_phantom_rows 'd[0]["graph_execution_traces"] == 144'
json_expect v1_links/each_skip_is_a_problem 'd[0]["corrupt_records"] == 4'
json_expect v1_links/loop_named 'sum("link loop" in p["detail"] for p in d[1]["items"]) == 2'
json_expect v1_links/outside_named 'any(p["file"].endswith("/outside") and "out of the dump" in p["detail"] for p in d[1]["items"])'
json_expect v1_links/fifo_named 'any(p["file"].endswith("/fifo") and "FIFO" in p["detail"] for p in d[1]["items"])'
run_guarded --strict -e info "$T1"
expect_rc 3 v1_links/strict_fails

# MindSpore: an iteration directory that cannot be listed made the dump
# look smaller with no problem and --strict exiting 0.  chmod 000 denies
# nothing to root (CI runs as root): there tdbg runs as nobody (setpriv).
MSU=$WORK/ms_unreadable
cp -r "$FIXTURES/mindspore/sync_lenet" "$MSU"
as_user=
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null && [ -z "${TDBG_WRAP:-}" ]; then
		as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
		chmod -R a+rX "$MSU"
		chmod o+rx "$WORK"
	fi
fi
chmod 000 "$MSU/rank_0/Lenet/0/1"
if [ "$(id -u)" != 0 ] || [ -n "$as_user" ]; then
	E2E_RUNS=$((E2E_RUNS + 1)); RC=0
	$as_user "$TDBG" --json -e info -e problems "$MSU" </dev/null >"$OUT" 2>"$ERR" || RC=$?
	_wrap_check
	expect_rc 0 ms_unreadable/exit_0
	json_expect ms_unreadable/problem_counted 'd[0]["corrupt_records"] >= 1'
	json_expect ms_unreadable/problem_named 'any(p["kind"] == "unreadable" and p["file"].endswith("/Lenet/0/1") and p["what"] == "iteration directory" for p in d[1]["items"])'
	RC=0
	$as_user "$TDBG" --strict -e info "$MSU" </dev/null >"$OUT" 2>"$ERR" || RC=$?
	expect_rc 3 ms_unreadable/strict_fails
else
	echo "    (root without setpriv, or under valgrind: the unreadable case needs another user)"
fi
chmod 755 "$MSU/rank_0/Lenet/0/1"
