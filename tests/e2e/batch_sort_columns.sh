#!/bin/bash
# batch_sort_columns.sh - issue 25 item 3: traces --sort by time and size
# read the summary columns a window at a time, and a short slice is the
# head (or tail) of the sort kept in a heap; the answer must be the
# whole sort's slice, ties included (ties go by row number).
#
# A generated dump of 20,000 FULL_HEALTH traces on two hosts (several
# column blocks of 4,096 rows).  The expected order is worked out here in
# python: element counts from the rows' JSON, wall times from the
# generator's formula (tests/gen/gen_tfdbg2.c row_time: time0 + 10 +
# per-host row * 1e-5 + host * 1e-7; at 1.7e9 s a double's step is 2.4e-7,
# so the two hosts' rows tie in time), checked against `trace N` on a few
# rows.  Each question is asked with no cache, on the first open (the
# columns written by the pass) and on a warm one.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
D=$WORK/g20k
"$GEN" -q -n 20000 -m FULL_HEALTH --hosts 2 --nan-every 97 --seed 5 "$D" ||
	die "generator failed"

tdbg_run --no-cache --json -e traces "$D"
expect_rc 0 all_rows_listed
cp "$OUT" "$WORK/all.json"
tdbg_run --no-cache --json -e 'trace 0' -e 'trace 12345' -e 'trace 19999' "$D"
cp "$OUT" "$WORK/some.json"

# expect.py QUERY OUT: the tdbg answer in OUT is the slice of the order
# worked out from all.json; prints why not.
cat >"$WORK/expect.py" <<'PY'
import json, re, sys
rows = json.load(open(sys.argv[3]))["rows"]
per_host, wall = {}, {}
for r in rows:
    h = int(re.match(r"worker-(\d+)\.tdbg\.test$", r["host"]).group(1))
    k = per_host.get(h, 0)
    per_host[h] = k + 1
    wall[r["index"]] = 1700000000.0 + 10.0 + k * 1e-5 + h * 1e-7
q = sys.argv[1].split()
field, desc = q[2].lstrip("-"), q[2].startswith("-")
sl = q[3] if len(q) > 3 and ":" in q[3] else ":"
keep = rows
if "--nonfinite" in q:
    keep = [r for r in keep if r["nonfinite"]]
m = re.search(r"--where 'elements > (\d+)'", sys.argv[1])
if m:
    keep = [r for r in keep if r["summary"]["elements"] > int(m.group(1))]
key = (lambda r: wall[r["index"]]) if field == "time" else (lambda r: r["summary"]["elements"])
order = sorted(keep, key=lambda r: ((-key(r) if desc else key(r)), r["index"]))
a, b = sl.split(":")
want = [r["index"] for r in order][int(a) if a else None:int(b) if b else None]
got = json.load(open(sys.argv[2]))
gi = [r["index"] for r in got["rows"]]
if gi != want or got["matched"] != len(keep) or (not want and "30000" not in sys.argv[1]):
    print("got %s want %s (matched %s of %d)" % (gi[:12], want[:12], got["matched"], len(keep)))
    sys.exit(1)
PY

python3 - "$WORK/all.json" "$WORK/some.json" <<'PY' || fail formula_matches_dump "the generator's wall times are not the dump's"
import json, re, sys
rows = json.load(open(sys.argv[1]))["rows"]
seen, per_host = {}, {}
for r in rows:
    h = int(re.match(r"worker-(\d+)\.tdbg\.test$", r["host"]).group(1))
    seen[r["index"]] = (h, per_host.get(h, 0))
    per_host[h] = per_host.get(h, 0) + 1
for line in open(sys.argv[2]).read().splitlines():
    t = json.loads(line)
    h, k = seen[t["index"]]
    assert t["wall_time"] == 1700000000.0 + 10.0 + k * 1e-5 + h * 1e-7, t["index"]
assert sorted(per_host) == [0, 1]
PY
ok formula_checked

check_sorts()
{
	local how=$1 q
	shift
	for q in "traces --sort -time 0:10" "traces --sort time 0:10" "traces --sort size 5:15" \
		"traces --sort -size 0:10" "traces --sort -size 4090:4110" \
		"traces --sort -size 0:10 --nonfinite" \
		"traces --sort time 100:120 --where 'elements > 100'" \
		"traces --sort size -10:" "traces --sort -time 19990:" "traces --sort -time -10:" \
		"traces --sort size -15:-5" "traces --sort time -7: --nonfinite" \
		"traces --sort size 30000:"; do
		tdbg_run "$@" --json -e "$q" "$D"
		if [ "$RC" = 0 ] && why=$(python3 "$WORK/expect.py" "$q" "$OUT" "$WORK/all.json"); then
			ok "$how: $q"
		else
			fail "$how: $q" "exit $RC; $why"
		fi
	done
}

check_sorts no_cache --no-cache
check_sorts first_open
tdbg_run --json -e info "$D"
json_expect index_cache_used 'd["index_cache"] == "used"'
check_sorts warm
