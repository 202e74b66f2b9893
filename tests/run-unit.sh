#!/usr/bin/env bash
# tests/run-unit.sh - runs cmocka unit test binaries and totals their results.
#
#   tests/run-unit.sh [--fail-note WHAT]... build/tests/test_crc32c ...
#
# --fail-note WHAT lists WHAT as one failed test in the summary (make test
# uses it for an earlier failing stage, such as the end-to-end tests, so the
# closing summary reports it).
#
# Each binary runs from the top of the repository (so tests open
# tests/fixtures/... by relative path), with a time limit of
# UNIT_TIMEOUT seconds (default 300).  Its cmocka output is printed as is.
# A binary that crashes, times out or exits non-zero without a cmocka summary
# counts as one failed test named after it.
#
# The last lines are an aggregated summary in cmocka's own format:
#   [==========] N test(s) run.
#   [  PASSED  ] N test(s).
# and, when something failed, the failed list and " N FAILED TEST(S)".
# Exits 1 if anything failed.

set -u

top=$(cd "$(dirname "$0")/.." && pwd)
bins=()
failed_names=()
while [ $# -gt 0 ] && [ "$1" = --fail-note ]; do
	failed_names+=("$2 (see above)")
	shift 2
done
for b in "$@"; do
	case $b in /*) ;; *) b=$PWD/$b ;; esac
	bins+=("$b")
done
cd "$top" || exit 1

limit=${UNIT_TIMEOUT:-300}
# the persistent index never goes to the home of whoever runs the tests
XDG_CACHE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/tdbg-unit-cache.XXXXXX") && export XDG_CACHE_HOME
passed=0
skipped=0
total=${#failed_names[@]}
logs=$(mktemp -d "${TMPDIR:-/tmp}/tdbg-unit-log.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$logs" "$XDG_CACHE_HOME"' EXIT
# UNIT_JOBS binaries run at once (default: the number of processors); each
# one's output is kept apart and printed whole, in the order named.
. "$top/tests/jobs.sh"
jobs=$(jobs_count UNIT_JOBS)

# Adds one binary's cmocka counts (possibly several groups) to the totals.
# A failed test appears twice in cmocka's output (as it runs and in the list),
# so names are counted once.  A group that started and printed no summary, or
# an exit code past cmocka's failure count, means the binary crashed.
count()
{
	local bin=$1 rc=$2 log=$3 run=0 ok=0 skip=0 groups=0 ends=0 line name
	local -A seen=()
	while IFS= read -r line; do
		case $line in
		'[==========] Running '*)
			groups=$((groups + 1)) ;;
		'[==========] '*' test(s) run.')
			ends=$((ends + 1))
			line=${line#'[==========] '}; run=$((run + ${line%% *})) ;;
		'[  PASSED  ] '*' test(s).')
			line=${line#'[  PASSED  ] '}; ok=$((ok + ${line%% *})) ;;
		'[  SKIPPED ] '*' test(s), listed below:')
			line=${line#'[  SKIPPED ] '}; skip=$((skip + ${line%% *})) ;;
		'[  FAILED  ] '*' test(s), listed below:') ;;
		'[  FAILED  ] '*)
			name=${line#'[  FAILED  ] '}
			if [ -z "${seen[$name]:-}" ]; then
				seen[$name]=1
				failed_names+=("$bin: $name")
			fi ;;
		esac
	done <"$log"
	local nfail=${#seen[@]}
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		failed_names+=("$bin (timed out after ${limit}s)")
		run=$((run + 1))
	elif [ "$rc" -ne 0 ] && { [ "$ends" -lt "$groups" ] || [ "$nfail" -eq 0 ] || [ "$rc" -gt 100 ]; }; then
		failed_names+=("$bin (crashed or failed outside a test: exit $rc)")
		run=$((run + 1))
	elif [ "$run" -eq 0 ] && [ "$rc" -eq 0 ]; then
		failed_names+=("$bin (printed no cmocka summary)")
		run=1
	fi
	total=$((total + run))
	passed=$((passed + ok))
	skipped=$((skipped + skip))
}

# run_one I: runs binary I into $logs/I, then writes $logs/I.rc.
run_one()
{
	local i=$1 b=${bins[$1]} t0 rc
	t0=$(date +%s)
	if [ ! -x "$b" ]; then
		echo "run-unit: $b: not an executable" >"$logs/$i"
		rc=127
	else
		# In a subshell with stderr closed: bash's own "Aborted" notice
		# would otherwise land after the summary.
		# a cache of its own: binaries running side by side share nothing
		mkdir -p "$XDG_CACHE_HOME/$i"
		(XDG_CACHE_HOME=$XDG_CACHE_HOME/$i timeout -k 5 "$limit" "$b" </dev/null >"$logs/$i" 2>&1
		 echo $? >"$logs/$i.code") 2>/dev/null
		rc=$(cat "$logs/$i.code" 2>/dev/null || echo 1)
	fi
	echo "time $(basename "$b"): $(($(date +%s) - t0)) s" >>"$logs/$i"
	echo "$rc" >"$logs/$i.rc"
}

# report I: prints finished binary I's output and adds up its counts.
report()
{
	cat "$logs/$1"
	count "$(basename "${bins[$1]}")" "$(cat "$logs/$1.rc")" "$logs/$1"
}

jobs_run "$jobs" ${#bins[@]} run_one report "$logs"

nfailed=${#failed_names[@]}
echo
echo "unit: ${#bins[@]} test binaries"
echo "[==========] $total test(s) run."
if [ "$skipped" -gt 0 ]; then
	echo "[  SKIPPED ] $skipped test(s)."
fi
echo "[  PASSED  ] $passed test(s)."
if [ "$nfailed" -gt 0 ]; then
	echo "[  FAILED  ] $nfailed test(s), listed below:"
	for n in "${failed_names[@]}"; do
		echo "[  FAILED  ] $n"
	done
	echo
	echo " $nfailed FAILED TEST(S)"
	exit 1
fi
exit 0
