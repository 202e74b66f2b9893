#!/bin/sh
# tests/bench/run.sh - `make bench`: tdbg's scale benchmark (issue 5).
#
# Builds tdbg as `make` does (-O2) and the dump generator, generates 100K, 1M
# and 10M trace FULL_HEALTH dumps into tests/bench/cache/ (kept between runs,
# about 2.5 GB for 10M; the disk is checked first), then measures the first
# screen, batch commands, keypresses and peak memory against `cat` of the same
# files (tests/bench/bench.py says how).  Prints one table per size, writes
# tests/bench/results.md and (default sizes only) fills the README's
# Performance section.
#
# Then the many-file dumps (tests/bench/scale.py: MindSpore 64 ranks x 100
# iterations, statistic-only 10M rows, tfdbg v1 20,000 runs; about 15 GB
# and several minutes to generate once); BENCH_NO_SCALE=1 skips them.
#
# Then tests/bench/nodes.py: 1,024 ranks on 128 pseudo-nodes through pdsh
# -R exec, every node's answer and the merge (tests/bench/nodes.md).
#
# Then tests/bench/msprobe.py: a 200,000-entry msprobe statistics dump.json
# indexed and reopened beside `cat` of the file (BENCH_MSPROBE_ENTRIES;
# tests/bench/msprobe.md).
# Then tests/bench/msprobe_compare.sh: two 200,000-entry msprobe statistics
# dumps compared by diff, against cat of both (msprobe's documented rate
# beside it).
#
# Last, tests/bench/queries.py: where, watches and diff beside the index
# (BENCH_QUERY_SIZES, default 1M; `watches check` warm alone also at
# BENCH_QUERY_WATCH_SIZES, default 10M, empty for none; tests/bench/queries.md).
#
#   BENCH_SIZES=100K,1M  BENCH_RUNS=3  tests/bench/run.sh [bench.py options]
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
command -v python3 >/dev/null || { echo "bench: python3 is needed (make deps)" >&2; exit 1; }
${MAKE:-make} --no-print-directory tdbg >&2
gen=$(tests/gen/build.sh)
# Measure a private copy: a rebuild in the tree during the run cannot swap
# the binary under the benchmark.
mkdir -p tests/bench/cache
cp tdbg tests/bench/cache/tdbg
# Only a full run (default sizes) fills the README's Performance section.
readme=
[ -f README.md ] && [ -z "${BENCH_SIZES:-}" ] && [ -z "${BENCH_NO_SCALE:-}" ] && readme="--readme README.md"
scale=
[ -n "${BENCH_NO_SCALE:-}" ] && scale=--no-scale
# shellcheck disable=SC2086
python3 tests/bench/bench.py --tdbg "$top/tests/bench/cache/tdbg" --gen "$gen" \
	--sizes "${BENCH_SIZES:-100K,1M,10M}" --runs "${BENCH_RUNS:-5}" $readme $scale "$@"
# Many nodes: 1,024 ranks on 128 pseudo-nodes through pdsh, and the merge
# (tests/bench/nodes.md).
python3 tests/bench/nodes.py --tdbg "$top/tests/bench/cache/tdbg"
# msprobe: index and reopen beside cat of the same dump.json (issue 26;
# tests/bench/msprobe.md).
python3 tests/bench/msprobe.py --tdbg "$top/tests/bench/cache/tdbg" \
	--entries "${BENCH_MSPROBE_ENTRIES:-200000}" --runs "${BENCH_RUNS:-3}"
# Two 200,000-entry msprobe statistics dumps compared (issue 27), against cat.
TDBG="$top/tests/bench/cache/tdbg" tests/bench/msprobe_compare.sh
# What where, watches and diff cost beside the index (tests/bench/queries.md).
exec python3 tests/bench/queries.py --tdbg "$top/tests/bench/cache/tdbg" --gen "$gen" \
	--sizes "${BENCH_QUERY_SIZES:-1M}" --watch-sizes "${BENCH_QUERY_WATCH_SIZES-10M}" \
	--runs "${BENCH_RUNS:-3}"
