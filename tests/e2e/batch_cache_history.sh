#!/usr/bin/env bash
# batch_cache_history.sh - answers never depend on what the persistent
# index saw before (issue 23 items 10 and 12): a cached two-host dump that
# grows and gains a third host numbers its rows as a fresh open does
# (`trace 1000` is the same tensor; the cache says why it indexed afresh),
# while a one-host dump that grows is still extended.  Facts come from
# the generator (--facts) and from --no-cache opens of the same bytes.
# A same-size rewrite in the middle of a file, with or without a record
# appended and the time stamp put back, is seen (rebuilt) when it covers a
# sampled block of the fingerprint (here: the middle third).
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
state() { tdbg_run --json -e info "$@"; json_get 'd["index_cache"]'; }
fact() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
# the op name and step of every trace row, cached and fresh
rows_equal()
{
	local name=$1 dir=$2 a b
	tdbg_run --json -e "traces" "$dir"
	a=$(json_get '"\n".join("%s %s %s" % (r["op_name"], r["host"], r["execution"]) for r in d["rows"])')
	tdbg_run --no-cache --json -e "traces" "$dir"
	b=$(json_get '"\n".join("%s %s %s" % (r["op_name"], r["host"], r["execution"]) for r in d["rows"])')
	if [ "$a" = "$b" ]; then ok "$name"; else fail "$name" "$(diff <(echo "$a") <(echo "$b") | head -4)"; fi
}

D=$WORK/hosts
$GEN -q -n 2000 --hosts 2 "$D" || die "generator failed"
expect_eq two_hosts_new "$(state "$D")" new
$GEN -q -n 1000 --hosts 3 --append --facts "$WORK/facts" "$D" || die "append failed"
expect_eq third_host_rebuilt "$(state "$D")" rebuilt
json_expect third_host_says_why '"afresh" in d["index_cache_why"]'
json_expect third_host_counts "d['graph_execution_traces'] == $(fact traces_valid "$WORK/facts")"
for n in 1000 2500; do
	tdbg_run --json -e "trace $n" "$D"
	a=$(cat "$OUT")
	tdbg_run --no-cache --json -e "trace $n" "$D"
	expect_eq "trace_${n}_same_tensor" "$a" "$(cat "$OUT")"
done
rows_equal grown_hosts_rows_equal_fresh "$D"
expect_eq third_host_then_used "$(state "$D")" used

# a same-size rewrite of the middle third of the traces file (another
# dump's bytes), one more record appended, the time stamp put back: the
# sampled blocks of the old part show the rewrite
R=$WORK/rewrite
$GEN -q -n 20000 "$R" || die "generator failed"
$GEN -q -n 20000 --seed 7 "$WORK/other" || die "generator failed"
expect_eq rewrite_first_new "$(state "$R")" new
f=$(echo "$R"/*.graph_execution_traces)
o=$(echo "$WORK/other"/*.graph_execution_traces)
cp -p "$f" "$WORK/stamp"
python3 -c 'import os, sys
f, o = sys.argv[1], sys.argv[2]
n = os.path.getsize(f)
assert n == os.path.getsize(o), "sizes differ"
src = open(o, "rb"); dst = open(f, "r+b")
src.seek(n // 3); dst.seek(n // 3); dst.write(src.read(n // 3))' "$f" "$o" || die "rewrite failed"
touch -r "$WORK/stamp" "$f"
expect_eq rewrite_same_size_rebuilt "$(state "$R")" rebuilt
$GEN -q -n 20000 "$WORK/again" || die "generator failed"
cp "$WORK/again/$(basename "$f")" "$f"     # back to the first bytes (a new time stamp)
state "$R" >/dev/null
cp -p "$f" "$WORK/stamp"
python3 -c 'import os, sys
f, o = sys.argv[1], sys.argv[2]
n = os.path.getsize(f)
src = open(o, "rb"); dst = open(f, "r+b")
src.seek(n // 3); dst.seek(n // 3); dst.write(src.read(n // 3))' "$f" "$o" || die "rewrite failed"
$GEN -q -n 300 --append "$R" || die "append failed"
touch -r "$WORK/stamp" "$f"
expect_eq rewrite_and_append_rebuilt "$(state "$R")" rebuilt
json_expect rewrite_says_changed '"changed" in d["index_cache_why"]'
rows_equal rewrite_rows_equal_fresh "$R"

# one host: appending keeps the numbering, so the index is extended
S=$WORK/single
$GEN -q -n 2000 "$S" || die "generator failed"
state "$S" >/dev/null
$GEN -q -n 500 --append "$S" || die "append failed"
expect_eq one_host_extended "$(state "$S")" extended
rows_equal one_host_rows_equal_fresh "$S"
exit $((E2E_FAILS > 0))
