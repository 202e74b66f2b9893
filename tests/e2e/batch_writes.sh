#!/bin/bash
# batch_writes.sh - issue 23: what tdbg writes, and where.  A file that is a
# hard link to a dump file (a `cp -al` snapshot) is replaced, never
# truncated (item 2); a MindSpore dump opened at an iteration folder is
# protected whole, the rank and the folder holding the ranks (item 3).
# Facts: the tfdbg1 mlp_nan sample stores values (README); the MindSpore
# sample holds rank_0 with Lenet/0 (its README).
. "$(dirname "$0")/lib.sh"

cd "$WORK" || die "no work dir"

# item 2: snap/ is a hard-linked snapshot of the dump; exporting over a
# link to a dump file with --force must leave the dump's bytes alone
cp -r "$FIXTURES/tfdbg1/mlp_nan" "$WORK/t1"
cp -al "$WORK/t1" "$WORK/snap"
victim=$(cd "$WORK/t1" && find . -type f -size +1k | sort | head -1)
size=$(stat -c %s "$WORK/t1/$victim")
sum=$(md5sum <"$WORK/t1/$victim")
tdbg_run -e "export 0 $WORK/snap/$victim.npy" "$WORK/t1"
ln -f "$WORK/t1/$victim" "$WORK/snap/out.npy"
tdbg_run -e "export 0 $WORK/snap/out.npy --force" "$WORK/t1"
expect_rc 0 hardlink_export_exit_0
expect_eq hardlink_dump_file_size "$(stat -c %s "$WORK/t1/$victim")" "$size"
expect_eq hardlink_dump_file_bytes "$(md5sum <"$WORK/t1/$victim")" "$sum"
head -c 6 "$WORK/snap/out.npy" | grep -q NUMPY && ok hardlink_target_is_new_npy ||
	fail hardlink_target_is_new_npy "snap/out.npy is not the export"
if ls -a "$WORK/snap" | grep -q '\.tdbg-'; then
	fail no_temporary_left "$(ls -a "$WORK/snap")"
else
	ok no_temporary_left
fi

# item 3: opened at rank_0/Lenet/0, the reader reads the whole rank; the
# rank and the folder holding it are the dump
cp -r "$FIXTURES/mindspore/sync_lenet" "$WORK/ms"
before=$(find "$WORK/ms" | sort | md5sum)
refused=0
for target in "$WORK/ms/x.npy" "$WORK/ms/rank_0/x.npy" "$WORK/ms/rank_0/graphs/x.npy" \
	"$WORK/ms/rank_0/Lenet/0/x.npy"; do
	tdbg_run -e "export 0 $target" "$WORK/ms/rank_0/Lenet/0"
	if [ "$RC" = 1 ] && grep -q "inside the dump directory" "$ERR"; then
		refused=$((refused + 1))
	else
		fail "iteration_refuses_$target" "rc $RC: $(cat "$ERR")"
	fi
done
expect_eq iteration_folder_refuses_whole_dump "$refused" 4
expect_eq iteration_dump_unchanged "$(find "$WORK/ms" | sort | md5sum)" "$before"
tdbg_run -e "export 0 $WORK/ok.npy" "$WORK/ms/rank_0/Lenet/0"
expect_rc 0 iteration_export_outside_ok
