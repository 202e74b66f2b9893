#!/usr/bin/env bash
# robust_syscalls.sh - system calls per dump file stay at the minimum
# (issue 18): on a network file system every stat and open is a round trip.
#
# With strace installed, batch `info` on copies of the fixtures is traced:
#  - MindSpore sync: the .npy files are not stat'ed one by one (the
#    directory entry's type says they are files), and those of the
#    iteration directories are not opened (the statistic.csv rows give
#    their summaries; only constants/, which no statistic.csv lists, is
#    read); without statistic.csv, one open and one read per .npy; a
#    side file (mapping.csv) is opened only when listed, and iteration
#    directories are not stat'ed;
#  - tfdbg v1: one stat per directory entry, not a second lstat, when the
#    entry's type says it is no link;
#  - every format: no fcntl per file (the non-blocking open flag is left
#    as it is: it does nothing to a regular file).
# Those are the index pass's own calls (--no-cache).  The persistent index
# adds its fingerprint of what the pass read (issue 25: a folder announced
# as one dump file is its entries' stat data): at most one stat per file,
# on the first open and on a reopen, and a reopen opens no tensor file;
# tdbg's own cache files may take an fcntl each, a dump file none.
# The counts come from the fixtures' file lists (find), not from tdbg.
# Without strace the script says so and passes nothing.
. "$(dirname "$0")/lib.sh"

if ! command -v strace >/dev/null 2>&1; then
	echo "robust_syscalls: strace not installed: skipped"
	exit 0
fi

# trace NAME DIR [OPTION]: strace of `tdbg --json -e info DIR` into
# $WORK/NAME.st; the index pass alone (--no-cache) unless OPTION is given
trace()
{
	strace -f -qq -o "$WORK/$1.st" -e trace=%stat,%file,fcntl,openat,open,pread64,read \
		"$TDBG" "${3:---no-cache}" --json -e info "$2" >"$WORK/$1.json" 2>/dev/null </dev/null
	json_valid "$WORK/$1.json" || fail "$1_json" "info did not print JSON"
}

# calls NAME PATTERN: lines of the trace matching the extended regex
calls()
{
	grep -cE "$2" "$WORK/$1.st" || true
}

# ---- MindSpore sync ----------------------------------------------------
MS=$WORK/ms
cp -r "$FIXTURES/mindspore/sync_lenet" "$MS"
nnpy=$(find "$MS" -name '*.npy' | wc -l)
[ "$nnpy" -ge 100 ] || die "the sync_lenet fixture should hold 100+ .npy files, found $nnpy"
trace ms "$MS"
npy_stats=$(calls ms 'stat[a-z0-9]*\([^)]*\.npy"')
npy_opens=$(calls ms 'open(at)?\([^)]*/Lenet/0/[0-9]+/[^)]*\.npy"')
expect_eq ms_no_stat_per_npy "$npy_stats" 0
# no mapping.csv is listed: none is looked for; iteration directories are
# known to be directories from the listing
expect_eq ms_no_unlisted_open "$(calls ms 'mapping\.csv')" 0
expect_eq ms_no_stat_per_iteration "$(calls ms 'stat[a-z0-9]*\([^)]*/Lenet/0/[0-9]+"')" 0
expect_eq ms_no_open_per_iteration_npy "$npy_opens" 0

# Without statistic.csv every .npy is read for its summary: one open and
# one read each (the whole file at once), no second stat or read.
MSN=$WORK/msn
cp -r "$FIXTURES/mindspore/sync_lenet" "$MSN"
find "$MSN" -name statistic.csv -delete
trace msn "$MSN"
expect_eq msn_one_open_per_npy "$(calls msn 'open(at)?\([^)]*\.npy"')" "$nnpy"
expect_eq msn_no_path_stat_per_npy "$(calls msn 'stat[a-z0-9]*\([^)]*\.npy"')" 0
preads=$(calls msn '^([0-9]+ +)?pread64\(')
[ "$preads" -le $((nnpy + 20)) ] && ok msn_one_read_per_npy ||
	fail msn_one_read_per_npy "$preads preads for $nnpy .npy files"

# ---- tfdbg v1 ----------------------------------------------------------
T1=$WORK/tf1
cp -r "$FIXTURES/tfdbg1/mlp_nan" "$T1"
nlinks=$(find "$T1" -type l | wc -l)
expect_eq tf1_fixture_has_no_links "$nlinks" 0
trace tf1 "$T1"
lstats=$(calls tf1 'AT_SYMLINK_NOFOLLOW|lstat\(')
expect_eq tf1_no_lstat_per_entry "$lstats" 0
nfiles=$(find "$T1" -type f | wc -l)
opens=$(calls tf1 "open(at)?\\([^,]*\"$T1/run_[^\"]*\", O_RDONLY\\|O_NOCTTY")
[ "$opens" -le "$nfiles" ] && ok tf1_one_open_per_file ||
	fail tf1_one_open_per_file "$opens opens of files for $nfiles files"

# ---- no fcntl per file, any format ----------------------------------------
for name in ms msn tf1; do
	expect_eq "${name}_no_fcntl_setfl" "$(calls $name 'fcntl\([0-9]+, F_SETFL')" 0
done

# ---- the persistent index: its fingerprint's cost ---------------------------
# first open (index pass + fingerprint), then a reopen (fingerprint only)
for run in first reopen; do
	trace "ms_$run" "$MS" --json
	expect_eq "ms_${run}_cache" "$(json_get "d['index_cache']" "$WORK/ms_$run.json")" \
		"$([ $run = first ] && echo new || echo used)"
	stats=$(calls "ms_$run" 'stat[a-z0-9]*\([^)]*\.npy"')
	[ "$stats" -le "$nnpy" ] && ok "ms_${run}_at_most_one_stat_per_npy" ||
		fail "ms_${run}_at_most_one_stat_per_npy" "$stats stats for $nnpy .npy files"
	setfl=$(grep -E 'fcntl\([0-9]+, F_SETFL' "$WORK/ms_$run.st" | wc -l)
	[ "$setfl" -le 2 ] && ok "ms_${run}_fcntl_only_on_own_files" ||
		fail "ms_${run}_fcntl_only_on_own_files" "$setfl F_SETFL calls"
done
expect_eq ms_reopen_opens_no_npy "$(calls ms_reopen 'open(at)?\([^)]*\.npy"')" 0
