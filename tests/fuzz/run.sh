#!/bin/sh
# tests/fuzz/run.sh TARGET [SECONDS] - fuzzes one target (built by build.sh)
# for SECONDS (default 600) at low priority.  The working corpus grows in
# build-fuzz/corpus/TARGET (not committed); seeds come from
# build-fuzz/seeds/TARGET; an input that crashes, leaks or times out is
# written to tests/fuzz/corpus/TARGET/ (committed: the regression cases that
# make test replays).  Extra arguments go to libFuzzer.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
out=${FUZZ_BUILD:-build-fuzz}
t=${1:?usage: tests/fuzz/run.sh TARGET [SECONDS] [libFuzzer options]}
secs=${2:-600}
shift; [ $# -gt 0 ] && shift
[ -x "$out/$t" ] || tests/fuzz/build.sh "$t"
mkdir -p "$out/corpus/$t" "tests/fuzz/corpus/$t" "$out/seeds/$t"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec nice -n 19 "$out/$t" -max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb=2048 \
	-max_len=262144 -print_final_stats=1 \
	-artifact_prefix="tests/fuzz/corpus/$t/" "$@" \
	"$out/corpus/$t" "$out/seeds/$t" "tests/fuzz/corpus/$t"
