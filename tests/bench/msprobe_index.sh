#!/bin/sh
# msprobe_index.sh [ENTRIES] - issue 26's measure alone (make bench runs it
# too): tests/bench/msprobe.py on a statistics dump.json of ENTRIES
# (default 200000) API entries, index and reopen beside `cat` of the file,
# with the load; writes tests/bench/msprobe.md.  TDBG (default ./tdbg);
# BENCH_COLD=1 adds cat and index on a cold page cache (root: it drops the
# page cache before each of those runs).
set -e
TOP=$(cd "$(dirname "$0")/../.." && pwd)
exec python3 "$TOP/tests/bench/msprobe.py" --tdbg "${TDBG:-$TOP/tdbg}" --entries "${1:-200000}" \
	--runs "${BENCH_RUNS:-3}" ${BENCH_COLD:+--cold}
