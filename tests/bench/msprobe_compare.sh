#!/bin/sh
# msprobe_compare.sh [ENTRIES] - issue 27's measure: two statistics
# dump.json files of ENTRIES (default 200000) API entries, four tensor
# records each (tests/gen/gen_msprobe.py --entries; the target's Mean
# values shifted by sed so that pairs differ), compared by `tdbg -e 'diff
# --nonequal 0:0'` (both indexed, every pair paired and judged) against
# `cat` of both files: wall and user time, peak RSS (the bound is 128 MB);
# with --no-cache, then a first open and a warm one with the persistent
# index and its summary columns (issue 27), and `diff --csv` of the pair.
# msprobe's compare is documented at about 0.1 GB/s (formats/msprobe.md,
# issue 27): the line prints what that rate gives for these bytes.
# Uses a private XDG_CACHE_HOME; prints one line each.
set -e
N=${1:-200000}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TDBG=${TDBG:-$TOP/tdbg}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
python3 "$TOP/tests/gen/gen_msprobe.py" "$W/golden" --entries "$N"
mkdir -p "$W/target/step0/rank0"
sed 's/"Mean": \(-\{0,1\}\)0\./"Mean": \10.5/' "$W/golden/step0/rank0/dump.json" \
	>"$W/target/step0/rank0/dump.json"
A=$W/golden/step0/rank0/dump.json
B=$W/target/step0/rank0/dump.json
BYTES=$(($(wc -c <"$A") + $(wc -c <"$B")))
echo "two dump.json: $BYTES bytes, $N entries each"
echo "msprobe compare at its documented 0.1 GB/s: about $(awk "BEGIN { printf \"%.1f\", $BYTES / 1e8 }") s"
export XDG_CACHE_HOME=$W/cache HOME=$W
/usr/bin/time -f "cat:     %e s wall, %U s user, %M KB peak" cat "$A" "$B" >/dev/null
/usr/bin/time -f "compare, no cache (every row decoded): %e s wall, %U s user, %M KB peak" \
	"$TDBG" -q --no-cache -e 'diff --nonequal 0:0' "$W/golden" "$W/target" >"$W/out"
head -3 "$W/out"
# with the persistent index: the first open builds it and the summary
# columns (the index pass writes each leaf's statistics there), the warm
# ones reuse both; the diff reads the columns, not the records
/usr/bin/time -f "compare, first open (index and columns built): %e s wall, %U s user, %M KB peak" \
	"$TDBG" -q -e 'diff --nonequal 0:0' "$W/golden" "$W/target" >"$W/out.first"
# the warm compare five times after a sync (the first open's writeback of
# the two indexes, 300 MB, otherwise lands in the first of them): each
# run sorted, the median and the least
sync
for i in 1 2 3 4 5; do
	/usr/bin/time -o "$W/t.$i" -f "%e %U %M" \
		"$TDBG" -q -e 'diff --nonequal 0:0' "$W/golden" "$W/target" >"$W/out.warm"
done
RATE_S=$(awk "BEGIN { print $BYTES / 1e8 }")
cat "$W"/t.? | sort -n | awk -v rate_s="$RATE_S" '
	{ w[NR] = $1; u[NR] = $2; if ($3 > m) m = $3; all = all " " $1 }
	END { printf "compare, warm (index and columns reused), 5 runs:%s s; median %s s wall (%s s user), least %s s, %d KB peak; msprobe at 0.1 GB/s / median = %.1fx (target 20x)\n", all, w[3], u[3], w[1], m, (w[3] > 0 ? rate_s / w[3] : 0) }'
# msprobe's own output: the CSV of every pair (its cells are the dumps'
# text: each leaf's entry decoded, not read from the columns)
/usr/bin/time -f "diff --csv, warm: %e s wall, %U s user, %M KB peak" \
	"$TDBG" -q -e "diff --csv $W/pair.csv" "$W/golden" "$W/target" >/dev/null
cmp -s "$W/out" "$W/out.first" && cmp -s "$W/out" "$W/out.warm" ||
	echo "compare: the answers with the cache differ from --no-cache's"
