#!/usr/bin/env bash
# batch_cache.sh - the persistent index (issue 18): a dump indexed once is
# opened from $XDG_CACHE_HOME/tdbg/ next time and answers as a fresh index
# does; a grown dump extends the cached index; a changed dump, a corrupt
# cache file or one of another version is ignored and rebuilt; a read-only
# dump and a cache directory that cannot be made still work, quietly;
# --no-cache neither reads nor writes; the directory is bounded (least
# recently used files go first).  Facts come from the generator (--facts).
. "$(dirname "$0")/lib.sh"

GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
C=$XDG_CACHE_HOME/tdbg
# 1500 ops: more than the op hash's first size (a cache bug once looped there)
G="$GEN -q --ops 1500"

fact() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
cache_files() { find "$C" -name '*.tdx' 2>/dev/null | wc -l; }
state() { tdbg_run --json -e info "$@"; json_get 'd["index_cache"]'; }

D=$WORK/dump
$G -n 20000 --facts "$WORK/facts" "$D" || die "generator failed"
N=$(fact traces_valid "$WORK/facts")

# ---- unchanged -------------------------------------------------------
expect_eq first_open_is_new "$(state "$D")" new
json_expect first_open_counts "d[\"graph_execution_traces\"] == $N"
expect_eq one_cache_file "$(cache_files)" 1
expect_eq second_open_uses_cache "$(state "$D")" used
json_expect cached_counts "d[\"graph_execution_traces\"] == $N and d[\"executions\"] == $(fact executions "$WORK/facts")"
check cache_not_in_dump test -z "$(find "$D" -newer "$WORK/facts" -type f)"

# The answers from the cache are those of a fresh index, command by command.
same_answers()
{
	local name=$1 cmd a b
	shift
	for cmd in info alerts first-nonfinite origins "traces --op 'dense_[0-9]+/MatMul' -5:" \
		"traces --nonfinite 0:20" "executions 0:10" graphs problems "trace 17" "why 100"; do
		tdbg_run --json -e "$cmd" "$@"
		a=$(sed 's/"index_cache":"[a-z]*",\?//; s/,"index_cache_why":"[^"]*"//; s/,"index_cache_path":\("[^"]*"\|null\)//; s/,"index_cache_bytes":\([0-9]*\|null\)//' "$OUT")
		tdbg_run --no-cache --json -e "$cmd" "$@"
		b=$(sed 's/"index_cache":"[a-z]*",\?//; s/,"index_cache_path":\("[^"]*"\|null\)//; s/,"index_cache_bytes":\([0-9]*\|null\)//' "$OUT")
		if [ "$a" != "$b" ]; then
			fail "$name" "'$cmd' differs: $(diff <(echo "$a") <(echo "$b") | head -4)"
			return
		fi
	done
	ok "$name"
}
same_answers cached_answers_equal_fresh "$D"
tdbg_run --json -e first-nonfinite "$D"
json_expect cached_first_nonfinite_fact "d[\"index\"] == $(fact first_nonfinite_row "$WORK/facts")"

# ---- --no-cache ----------------------------------------------------------
rm -rf "$C"
expect_eq no_cache_is_off "$(state --no-cache "$D")" off
expect_eq no_cache_writes_nothing "$(cache_files)" 0

# ---- grown ---------------------------------------------------------------
state "$D" >/dev/null
$G -n 3000 --append --facts "$WORK/facts2" "$D" || die "append failed"
N2=$(fact traces_valid "$WORK/facts2")
expect_eq grown_dump_extends "$(state "$D")" extended
json_expect grown_counts "d[\"graph_execution_traces\"] == $N2"
expect_eq grown_then_used "$(state "$D")" used
same_answers grown_answers_equal_fresh "$D"

# ---- changed -------------------------------------------------------------
rm -rf "$D"
$G -n 20000 --seed 7 --nan-at 50 "$D" || die "generator failed"
expect_eq changed_dump_rebuilds "$(state "$D")" rebuilt
json_expect changed_says_why '"changed" in d["index_cache_why"]'
json_expect changed_counts "d[\"graph_execution_traces\"] == 20000"
expect_eq changed_then_used "$(state "$D")" used

# ---- corrupt cache file, another version, another architecture -----------
F=$(find "$C" -name '*.tdx' | head -1)
patch_byte() # FILE OFFSET: flips the bits of one byte
{
	python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2])); b = f.read(1); f.seek(int(sys.argv[2])); f.write(bytes([b[0] ^ 0xff]))' "$1" "$2"
}
patch_byte "$F" $(( $(stat -c %s "$F") / 2 ))
expect_eq corrupt_cache_rebuilds "$(state "$D")" rebuilt
json_expect corrupt_says_why '"corrupt" in d["index_cache_why"]'
check corrupt_no_stderr test ! -s "$ERR"
expect_eq corrupt_then_used "$(state "$D")" used
patch_byte "$F" 40          # the version string
json_expect other_version_says_why "$(state "$D" >/dev/null; echo '"version" in d["index_cache_why"]')"
patch_byte "$F" 32          # the layout fingerprint (model_cache.c, MC_LAYOUT)
json_expect other_layout_says_why "$(state "$D" >/dev/null; echo '"layout" in d["index_cache_why"]')"
patch_byte "$F" 12          # the byte order mark
json_expect other_arch_says_why "$(state "$D" >/dev/null; echo '"architecture" in d["index_cache_why"]')"
head -c 40 "$F" > "$F.cut" && mv "$F.cut" "$F"
expect_eq truncated_cache_rebuilds "$(state "$D")" rebuilt
expect_eq rebuilt_cache_used "$(state "$D")" used

# ---- read-only dump ------------------------------------------------------
R=$WORK/ro
cp -r "$FIXTURES/tfdbg2/mnist_nan" "$R"
chmod -R a-w "$R"
before=$(ls -la "$R" | md5sum)
expect_eq read_only_dump_new "$(state "$R")" new
expect_eq read_only_dump_used "$(state "$R")" used
expect_eq read_only_dump_untouched "$(ls -la "$R" | md5sum)" "$before"
chmod -R u+w "$R"

# ---- no cache directory --------------------------------------------------
XDG_CACHE_HOME=/dev/null/cache state "$R" >/dev/null
expect_rc 0 no_cache_dir_opens
json_expect no_cache_dir_unavailable 'd["index_cache"] == "unavailable"'
check no_cache_dir_no_stderr test ! -s "$ERR"
tdbg_run -e alerts "$R"
XDG_CACHE_HOME=/dev/null/cache tdbg_run -e alerts "$R"
expect_rc 0 no_cache_dir_alerts_exit_0
check no_cache_dir_alerts_quiet test ! -s "$ERR"

# ---- size bound: least recently used first -------------------------------
rm -rf "$C"
state "$D" >/dev/null       # about 200 KB
state "$R" >/dev/null       # about 60 KB
state "$D" >/dev/null       # D used again: R is now the least recent
# what the budget counts: the index files' bytes and the disk blocks of
# the summary columns beside them (a sparse file); T is what the next
# dump's files take (measured in a directory of their own), so a budget
# of everything but 1000 bytes removes the least recent dump only
held() {
	python3 -c 'import glob, os, sys
print(sum(os.stat(f).st_size for f in glob.glob(sys.argv[1] + "/*.tdx")) +
      sum(os.stat(f).st_blocks * 512 for f in glob.glob(sys.argv[1] + "/*.tdc")))' "$1"
}
sz=$(held "$C")
XDG_CACHE_HOME=$WORK/alone state "$FIXTURES/tfdbg2/torn" >/dev/null
sz=$((sz + $(held "$WORK/alone/tdbg")))
TDBG_CACHE_MAX=$((sz - 1000)) state "$FIXTURES/tfdbg2/torn" >/dev/null
expect_eq lru_evicts_least_recent "$(cache_files)" 2
expect_eq lru_kept_recent "$(state "$D")" used
expect_eq lru_dropped_old "$(state "$R")" new

# ---- summary columns whose index file is gone -------------------------------
# (a first pass that never saved): removed by a save once left a while
echo x >"$C/00000000000000aa.tdc"
touch -d '2 hours ago' "$C/00000000000000aa.tdc"
echo x >"$C/00000000000000bb.tdc"
state "$FIXTURES/tfdbg2/modes/shape" >/dev/null
check orphan_columns_removed test ! -e "$C/00000000000000aa.tdc"
check recent_orphan_columns_kept test -e "$C/00000000000000bb.tdc"

exit $((E2E_FAILS > 0))
