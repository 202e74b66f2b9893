#!/bin/sh
# tests/fuzz/ci.sh - the CI fuzz smoke run (.ci/run calls it): builds the
# libFuzzer targets and fuzzes each for FUZZ_SECONDS (default 30) from its
# seeds and regression corpus.  Skips with a note when clang's fuzzer
# runtime is missing (the corpus replay in make test still runs).  Exits 1 if
# a target finds a crash; the input is then in tests/fuzz/corpus/<target>/.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
if ! tests/fuzz/build.sh; then
	echo "fuzz smoke: skipped (see the message above)"
	exit 0
fi
rc=0
for f in tests/fuzz/fuzz_*.c; do
	t=$(basename "$f" .c)
	if tests/fuzz/run.sh "$t" "${FUZZ_SECONDS:-30}" >"build-fuzz/$t.ci.log" 2>&1; then
		echo "ok fuzz-smoke/$t: $(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/$t.ci.log") runs"
	else
		echo "FAIL fuzz-smoke/$t: see build-fuzz/$t.ci.log"
		grep -E 'runtime error|ERROR: |SUMMARY|Test unit written' "build-fuzz/$t.ci.log" | head -6 | sed 's/^/    | /'
		rc=1
	fi
done
exit $rc
