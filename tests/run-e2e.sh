#!/usr/bin/env bash
# tests/run-e2e.sh - runs the end-to-end test scripts and totals their results.
#
#   TDBG=/path/to/tdbg tests/run-e2e.sh [SCRIPT...]
#
# With no SCRIPT, runs every tests/e2e/*.sh except lib.sh (batch_*, tui_*,
# robust_* and the format tests), in name order.  Each script prints
# "ok NAME" / "FAIL NAME: reason" lines (see tests/e2e/lib.sh).  A script that
# exits non-zero, prints a FAIL line, or runs longer than E2E_SCRIPT_TIMEOUT
# seconds (default 300) counts as failed.  Ends with "e2e: N passed, N failed"
# and exits 1 if anything failed.
#
# TDBG_WRAP (for example "valgrind ...") is passed on to the scripts.

set -u

: "${TDBG:?set TDBG to the tdbg binary}"
case $TDBG in /*) ;; *) TDBG=$(cd "$(dirname "$TDBG")" && pwd)/$(basename "$TDBG") ;; esac
if [ ! -x "$TDBG" ]; then
	echo "run-e2e: $TDBG is not an executable" >&2
	exit 1
fi
export TDBG

here=$(cd "$(dirname "$0")" && pwd)
if [ $# -eq 0 ]; then
	set --
	for f in "$here"/e2e/*.sh; do
		[ -e "$f" ] || continue
		[ "$(basename "$f")" = lib.sh ] && continue
		set -- "$@" "$f"
	done
fi

# E2E_JOBS scripts run at once (default: the number of processors); each has
# a private temp dir, HOME and tmux server (lib.sh), and its output is kept
# apart and printed whole, in the order the scripts were named, so the log
# reads as a serial run's.  The TUI scripts (tui_*) run one at a time, beside
# the others.  E2E_JOBS=1 runs them all one after another.
. "$here/jobs.sh"
jobs=$(jobs_count E2E_JOBS)

# One socket prefix per run and script, so leftovers of a killed script can
# be found and one script's cleanup never touches another's server.
prefix=tdbg-e2e-$$
limit=${E2E_SCRIPT_TIMEOUT:-300}
passed=0
failed=0
failed_scripts=
logs=$(mktemp -d "${TMPDIR:-/tmp}/tdbg-e2e-log.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$logs"' EXIT

cleanup_tmux()
{
	local s
	for s in "/tmp/tmux-$(id -u)/$1"-*; do
		[ -S "$s" ] || continue
		tmux -S "$s" kill-server 2>/dev/null
		rm -f "$s"
	done
}

# run_one I: runs script I into $logs/I, then writes $logs/I.rc.
run_one()
{
	local i=$1 f=${files[$1]} t0 rc
	t0=$(date +%s)
	(E2E_SOCK_PREFIX=$prefix-$i timeout -k 5 "$limit" bash "$f" </dev/null >"$logs/$i" 2>&1
	 echo $? >"$logs/$i.code") 2>/dev/null
	rc=$(cat "$logs/$i.code" 2>/dev/null || echo 1)
	cleanup_tmux "$prefix-$i"
	echo "time $(basename "$f" .sh): $(($(date +%s) - t0)) s" >>"$logs/$i"
	echo "$rc" >"$logs/$i.rc"
}

# report I: prints finished script I's output and adds up its results.
report()
{
	local i=$1 name rc oks fails
	name=$(basename "${files[$1]}" .sh)
	rc=$(cat "$logs/$i.rc")
	cat "$logs/$i"
	oks=$(grep -c '^ok ' "$logs/$i")
	fails=$(grep -c '^FAIL ' "$logs/$i")
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "FAIL $name: timed out after ${limit}s"
		[ "$fails" -gt 0 ] || fails=1
	elif [ "$rc" -ne 0 ] && [ "$fails" -eq 0 ]; then
		echo "FAIL $name: exited $rc"
		fails=1
	elif [ "$oks" -eq 0 ] && [ "$fails" -eq 0 ]; then
		echo "FAIL $name: printed no result"
		fails=1
	fi
	passed=$((passed + oks))
	failed=$((failed + fails))
	[ "$fails" -gt 0 ] && failed_scripts="$failed_scripts $name"
}

# alone I: whether script I drives the TUI (one at a time: jobs.sh)
alone()
{
	case $(basename "${files[$1]}") in tui_*) return 0 ;; esac
	return 1
}

files=("$@")
jobs_run "$jobs" ${#files[@]} run_one report "$logs" alone

if [ -n "$failed_scripts" ]; then
	echo "e2e: failed scripts:$failed_scripts"
fi
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
