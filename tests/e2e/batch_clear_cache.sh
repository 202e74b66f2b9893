#!/usr/bin/env bash
# batch_clear_cache.sh - issue 24 item 7: info names the persistent
# index's file and size beside its state; tdbg --clear-cache DUMP removes
# that dump's file only, --clear-cache alone every index file, and never a
# file tdbg did not name (another name, a .tdx that is a directory or a
# link).  Sizes come from the file system (stat), not from tdbg.
. "$(dirname "$0")/lib.sh"

C=$XDG_CACHE_HOME/tdbg
cp -r "$FIXTURES/tfdbg2/mnist_nan" "$WORK/a"
cp -r "$FIXTURES/tfdbg2/torn" "$WORK/b"

tdbg_run --json -e info "$WORK/a"
json_expect info_names_cache_path "d[\"index_cache_path\"].startswith(\"$C/\") and d[\"index_cache_path\"].endswith(\".tdx\")"
A=$(json_get 'd["index_cache_path"]')
tdbg_run --json -e info "$WORK/a"
json_expect info_cache_bytes_is_file_size "d[\"index_cache\"] == \"used\" and d[\"index_cache_bytes\"] == $(stat -c %s "$A")"
tdbg_run -e info "$WORK/a"
expect_file_has info_text_names_path "$OUT" "index_cache_path         $A"
tdbg_run --no-cache --json -e info "$WORK/a"
json_expect no_cache_no_path 'd["index_cache_path"] is None and d["index_cache_bytes"] is None'

tdbg_run --json -e info "$WORK/b"
B=$(json_get 'd["index_cache_path"]')
check two_index_files test -f "$A" -a -f "$B" -a "$A" != "$B"

# things in the cache directory that are not tdbg's index files
echo mine >"$C/notes.txt"
mkdir -p "$C/0123456789abcdef.tdx"
ln -s "$WORK/a/$(ls "$WORK/a" | head -1)" "$C/fedcba9876543210.tdx"
echo keep >"$C/0123456789ABCDEF.tdx"

size_a=$(stat -c %s "$A")
tdbg_run --json --clear-cache "$WORK/a"
expect_rc 0 clear_one_exit_0
json_expect clear_one_counts "d[\"removed_files\"] == 1 and d[\"removed_bytes\"] == $size_a and d[\"cache_dir\"] == \"$C\""
check clear_one_removed_it test ! -e "$A"
check clear_one_removed_its_columns test ! -e "${A%.tdx}.tdc"
check clear_one_kept_other test -f "$B"
tdbg_run --clear-cache "$WORK/a"
expect_file_has clear_one_again_none "$OUT" "removed 0 index files (0 bytes) from $C (that dump had none)"

size_b=$(stat -c %s "$B")
tdbg_run --json --clear-cache
expect_rc 0 clear_all_exit_0
json_expect clear_all_counts "d[\"removed_files\"] == 1 and d[\"removed_bytes\"] == $size_b"
check clear_all_removed test ! -e "$B"
check clear_all_removed_columns test -z "$(find "$C" -name '*.tdc')"
check clear_all_kept_notes test -f "$C/notes.txt"
check clear_all_kept_dir test -d "$C/0123456789abcdef.tdx"
check clear_all_kept_link test -L "$C/fedcba9876543210.tdx"
check clear_all_kept_other_name test -f "$C/0123456789ABCDEF.tdx"
check dump_untouched test -n "$(ls "$WORK/a")"

tdbg_run --clear-cache "$WORK/nosuch"
expect_rc 2 clear_missing_dump_exit_2
expect_file_has clear_missing_dump_says "$ERR" "--clear-cache:"
tdbg_run --clear-cache "$WORK/a" "$WORK/b"
expect_rc 1 clear_two_dumps_usage

[ "$E2E_FAILS" -eq 0 ]
