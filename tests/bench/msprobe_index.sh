#!/bin/sh
# msprobe_index.sh [ENTRIES] - issue 26's measure: a statistics dump.json of
# ENTRIES (default 200000) API entries, four tensor records each
# (tests/gen/gen_msprobe.py --entries), indexed by `tdbg -e info`: wall and
# user time against `cat` of the file, peak RSS, then the reopen from the
# persistent index.  Uses a private XDG_CACHE_HOME; prints one line each.
set -e
N=${1:-200000}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TDBG=${TDBG:-$TOP/tdbg}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
python3 "$TOP/tests/gen/gen_msprobe.py" "$W/dump" --entries "$N"
F=$W/dump/step0/rank0/dump.json
echo "dump.json: $(wc -c <"$F") bytes, $N entries"
export XDG_CACHE_HOME=$W/cache HOME=$W
/usr/bin/time -f "cat:    %e s wall, %U s user, %M KB peak" cat "$F" >/dev/null
/usr/bin/time -f "index:  %e s wall, %U s user, %M KB peak" "$TDBG" --no-cache -e info "$W/dump" >/dev/null
"$TDBG" -e info "$W/dump" >/dev/null          # writes the persistent index
/usr/bin/time -f "reopen: %e s wall, %U s user, %M KB peak" "$TDBG" -e info "$W/dump" >/dev/null
