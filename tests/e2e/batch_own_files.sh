#!/bin/bash
# batch_own_files.sh - issue 23: tdbg's own files (the cache directory and
# its index files, the watches file) are opened without following a link
# or blocking, and used only when they are the user's and not writable by
# group or others; nothing of them is ever written into a dump.  Items 4
# (cache folder a link into the dump, XDG_CACHE_HOME inside it), 5 (a link
# planted at the watches file's temporary name), 6 (a 0777 cache folder, a
# g+w cache file: not used, `index_cache` says why), 9 (a FIFO at the cache
# file's path does not block).  Facts: the tfdbg2 mnist_nan sample (README).
. "$(dirname "$0")/lib.sh"

cp -r "$FIXTURES/tfdbg2/mnist_nan" "$WORK/dump"
D=$WORK/dump
C=$XDG_CACHE_HOME/tdbg
listing() { find "$D" | sort | md5sum; }
before=$(listing)
state() { tdbg_run --json -e info "$D"; json_get 'd["index_cache"] + " | " + d.get("index_cache_why", "")'; }

# ---- a healthy cache first: new, then used -----------------------------
expect_eq cache_new "$(state)" "new | "
expect_eq cache_used "$(state)" "used | "
tdx=$(ls "$C"/*.tdx)

# ---- item 6: a group-writable cache file is not used --------------------
chmod g+w "$tdx"
s=$(state)
case $s in "rebuilt | cache file not used: $tdx is writable by group or others"*) ok gw_file_not_used ;;
	*) fail gw_file_not_used "$s" ;; esac
expect_eq gw_file_replaced_private "$(stat -c %a "$tdx")" 600
expect_eq cache_used_again "$(state)" "used | "

# ---- item 9: a FIFO at the cache file's path never blocks ---------------
rm -f "$tdx"
mkfifo "$tdx"
saved_wrap=${TDBG_WRAP:-}
TDBG_WRAP="timeout 20 $saved_wrap"
tdbg_run --json -e info "$D"
TDBG_WRAP=$saved_wrap
[ "$RC" != 124 ] && ok fifo_cache_no_block || fail fifo_cache_no_block "blocked for 20 s on the FIFO"
json_expect fifo_cache_refused '"is a FIFO, not a regular file" in d["index_cache_why"]'

# ---- item 6: a 0777 cache folder (shared) is not used --------------------
rm -f "$tdx"
tdbg_run -e info "$D"
chmod 0777 "$C"
s=$(state)
case $s in "unavailable | cache directory not used: $C is writable by group or others (mode 0777)") ok shared_folder_unavailable ;;
	*) fail shared_folder_unavailable "$s" ;; esac
chmod 0700 "$C"
expect_eq private_folder_used "$(state)" "used | "

# ---- item 4: the cache folder a link into the dump; XDG_CACHE_HOME inside it
rm -rf "$C"
ln -s "$D" "$C"
s=$(state)
case $s in "unavailable | cache directory not used: $C is a symbolic link"*) ok cache_link_unavailable ;;
	*) fail cache_link_unavailable "$s" ;; esac
rm "$C"
s=$(XDG_CACHE_HOME=$D/cache state)
case $s in "unavailable | cache directory not used: $D/cache/tdbg is inside the dump"*) ok cache_in_dump_unavailable ;;
	*) fail cache_in_dump_unavailable "$s" ;; esac
s=$(XDG_CACHE_HOME=$D/../dump/x state)
case $s in *"is inside the dump"*) ok cache_in_dump_by_dotdot ;; *) fail cache_in_dump_by_dotdot "$s" ;; esac
expect_eq dump_never_written "$(listing)" "$before"
