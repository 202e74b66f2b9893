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

# One socket prefix per run, so leftovers of a killed script can be found.
export E2E_SOCK_PREFIX=tdbg-e2e-$$
limit=${E2E_SCRIPT_TIMEOUT:-300}
passed=0
failed=0
failed_scripts=
log=$(mktemp "${TMPDIR:-/tmp}/tdbg-e2e-log.XXXXXX")
trap 'rm -f "$log" "$log.rc"' EXIT

cleanup_tmux()
{
	local s
	for s in "/tmp/tmux-$(id -u)/$E2E_SOCK_PREFIX"-*; do
		[ -S "$s" ] || continue
		tmux -S "$s" kill-server 2>/dev/null
		rm -f "$s"
	done
}

for f in "$@"; do
	name=$(basename "$f" .sh)
	rc=0
	(timeout -k 5 "$limit" bash "$f" </dev/null >"$log" 2>&1; echo $? >"$log.rc") 2>/dev/null
	rc=$(cat "$log.rc" 2>/dev/null || echo 1)
	cleanup_tmux
	cat "$log"
	oks=$(grep -c '^ok ' "$log")
	fails=$(grep -c '^FAIL ' "$log")
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
done

if [ -n "$failed_scripts" ]; then
	echo "e2e: failed scripts:$failed_scripts"
fi
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
