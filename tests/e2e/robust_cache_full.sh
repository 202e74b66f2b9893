#!/usr/bin/env bash
# robust_cache_full.sh - the persistent index on a full disk and with a
# bad TDBG_CACHE_MAX (issue 23 item 15): a cache partition that cannot
# take the file says why (index_cache "unavailable", index_cache_why
# names the error) instead of "new" at every open; an old cache file that
# fills the partition is evicted before the save, so the next open uses
# the index; a TDBG_CACHE_MAX that is not a size is refused with a reason
# and evicts nothing.  The small partition is a tmpfs mounted in a user
# namespace (unshare -rm); where the system forbids that, those checks are
# skipped and say so.
. "$(dirname "$0")/lib.sh"

D=$WORK/dump
cp -r "$FIXTURES/tfdbg2/mnist_nan" "$D"
state() { tdbg_run --json -e info "$@"; json_get 'd["index_cache"]'; }
C=$XDG_CACHE_HOME/tdbg

# ---- TDBG_CACHE_MAX ------------------------------------------------------
expect_eq max_default_new "$(state "$D")" new
for bad in 1.5G 1e9 0x10000000 10X 17179869184G; do
	expect_eq "max_${bad}_refused" "$(TDBG_CACHE_MAX=$bad state "$D")" unavailable
	json_expect "max_${bad}_says_why" "'TDBG_CACHE_MAX=\"$bad\" is not a size' in d['index_cache_why']"
done
expect_eq max_refused_evicted_nothing "$(find "$C" -name '*.tdx' | wc -l)" 1
expect_eq max_suffix_taken "$(TDBG_CACHE_MAX=10M state "$D")" used

# ---- a full partition ------------------------------------------------------
if ! unshare -rm true 2>/dev/null; then
	echo "skip $TEST/full_partition: no user namespaces (unshare -rm) here"
	exit $((E2E_FAILS > 0))
fi
# tdbg in a namespace with a 256 KiB tmpfs as the cache home; prints the
# state and why of `info` (TDBG, D and the tmpfs path passed through env)
P=$WORK/small
O=$WORK/ns-out
mkdir -p "$P" "$O"
in_ns() # SETUP: shell commands run after mounting, before each tdbg
{
	unshare -rm sh -c 'mount -t tmpfs -o size=256k tmpfs "$P" && mkdir -p "$P/tdbg" && eval "$SETUP" &&
		for i in 1 2; do XDG_CACHE_HOME="$P" "$TDBG" --json -e info "$D" > "$O/out.$i" 2>&1 || exit 1;
		python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d[\"index_cache\"], d.get(\"index_cache_why\", \"\"))" "$O/out.$i"; done' \
		| tr '\n' '|'
}
export P O D TDBG
# the partition filled by one old cache file of another dump
out=$(SETUP='head -c 240k /dev/zero > "$P/tdbg/0123456789abcdef.tdx" && touch -d "2020-01-01" "$P/tdbg/0123456789abcdef.tdx"' in_ns)
expect_eq full_old_file_evicted "$out" "new |used |"
# a partition too small for the file whatever goes: said, every time
out=$(SETUP='head -c 250k /dev/zero > "$P/filler"' in_ns)
case $out in
"unavailable cannot save the index in $P/tdbg: No space left on device|unavailable cannot save the index in $P/tdbg: No space left on device|") ok full_says_why ;;
*) fail full_says_why "got: $out" ;;
esac
exit $((E2E_FAILS > 0))
