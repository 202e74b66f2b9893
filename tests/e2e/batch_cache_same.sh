#!/usr/bin/env bash
# batch_cache_same.sh - a dump opened from the persistent index answers
# every command exactly as a fresh index does (issue 18): the JSON of each
# command below, on every tfdbg v2 sample and a generated dump, is the same
# with --no-cache, on the first open (which writes the cache) and on the
# second (which reads it), but for info's "index_cache".  A field the model
# gains and the cache forgets (op attributes, control inputs, ...) shows
# here.
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
"$GEN" -q -n 3000 --ops 80 "$WORK/gen" || die "generator failed"

cmds=(info alerts first-nonfinite origins 'origins --by-host' 'traces 0:300' 'executions 0:100'
      graphs problems sources 'trace 88' 'execution 3' 'inputs 88' 'consumers 88'
      'inputs 88 --depth 3' 'consumers 5 --depth 2' 'why 88' 'watches check'
      "traces --where 'nan > 0' -5:")
run_all() {
	local out=$1 extra=$2 dump=$3 args=()
	for c in "${cmds[@]}"; do args+=(-e "$c"); done
	# the op of row 5, with its attributes, control inputs and outputs
	op=$("$TDBG" --no-cache --json -e 'trace 5' "$dump" 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["op_name"])' 2>/dev/null)
	[ -n "$op" ] && args+=(-e "op $op")
	"$TDBG" $extra --json "${args[@]}" "$dump" 2>/dev/null |
		python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    if isinstance(d, dict):
        d.pop("index_cache", None); d.pop("index_cache_why", None)
        d.pop("index_cache_path", None); d.pop("index_cache_bytes", None)
    print(json.dumps(d, sort_keys=True))' >"$out"
}

for d in "$FIXTURES"/tfdbg2/mnist_nan "$FIXTURES"/tfdbg2/modes/* "$FIXTURES"/tfdbg2/torn \
	 "$FIXTURES"/robust/clean "$FIXTURES"/robust/bad_crc "$WORK/gen"; do
	[ -d "$d" ] || continue
	name=$(basename "$d")
	run_all "$WORK/cold" --no-cache "$d"
	run_all "$WORK/first" "" "$d"
	run_all "$WORK/warm" "" "$d"
	state=$("$TDBG" --json -e info "$d" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("index_cache"))')
	[ "$state" = used ] || [ "$state" = off ] || fail "$name/cache_used" "index_cache is $state"
	if cmp -s "$WORK/cold" "$WORK/first" && cmp -s "$WORK/cold" "$WORK/warm"; then
		ok "$name/same_json_cold_first_warm"
	else
		fail "$name/same_json_cold_first_warm" "$(diff "$WORK/cold" "$WORK/warm" | head -c 600)"
	fi
done
