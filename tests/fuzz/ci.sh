#!/bin/sh
# tests/fuzz/ci.sh - the CI fuzz smoke run (.ci/run calls it): builds the
# libFuzzer targets and fuzzes each from its seeds and regression corpus for
# FUZZ_RUNS inputs (default 8000) with a fixed seed (FUZZ_SEED, default 1),
# capped at FUZZ_SECONDS (default 180).  A fixed seed and run count make the
# run repeatable: CI fails on a real finding, not on the luck of a random
# seed; long exploratory runs are tests/fuzz/run.sh's job.  make deps
# installs clang's fuzzer runtime, so a build failure fails the step.  Exits
# 1 if a target finds a crash; the input is then in
# tests/fuzz/corpus/<target>/.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
if ! tests/fuzz/build.sh; then
	echo "FAIL fuzz-smoke: the targets do not build (see the message above)"
	exit 1
fi
# FUZZ_JOBS targets at once (default: the number of processors); each
# target's result is printed when its group is done, in name order.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac

fuzz_one()
{
	if tests/fuzz/run.sh "$1" "${FUZZ_SECONDS:-180}" -seed="${FUZZ_SEED:-1}" -runs="${FUZZ_RUNS:-8000}" \
		>"build-fuzz/$1.ci.log" 2>&1; then
		echo 0 >"build-fuzz/$1.ci.rc"
	else
		echo 1 >"build-fuzz/$1.ci.rc"
	fi
}

report()
{
	if [ "$(cat "build-fuzz/$1.ci.rc")" = 0 ]; then
		echo "ok fuzz-smoke/$1: $(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$1.ci.log") runs"
	else
		echo "FAIL fuzz-smoke/$1: see build-fuzz/$1.ci.log"
		grep -E 'runtime error|ERROR: |SUMMARY|Test unit written' "build-fuzz/$1.ci.log" | head -6 | sed 's/^/    | /'
		rc=1
	fi
}

rc=0
group=
n=0
for f in tests/fuzz/fuzz_*.c; do
	t=$(basename "$f" .c)
	rm -f "build-fuzz/$t.ci.rc"
	fuzz_one "$t" &
	group="$group $t"
	n=$((n + 1))
	if [ "$n" -ge "$jobs" ]; then
		wait
		for t in $group; do report "$t"; done
		group=
		n=0
	fi
done
wait
for t in $group; do report "$t"; done
exit $rc
