#!/bin/bash
# tui_writes_relink.sh - issue 23 item 1: a dump opened through a symbolic
# link (latest -> run_a) that is re-pointed during the session (latest ->
# run_b) is still the dump: :export and COMMAND > FILE into run_a are
# refused, and so after run_a is renamed.  Facts: tfdbg1 mlp_nan stores
# values (README), so row 0 exports.
. "$(dirname "$0")/lib.sh"

cp -r "$FIXTURES/tfdbg1/mlp_nan" "$WORK/run_a"
mkdir "$WORK/run_b"
ln -s run_a "$WORK/latest"
before=$(find "$WORK/run_a" | sort | md5sum)

TUI_COLS=120 TUI_ROWS=30
tui_start "$WORK/latest"
tui_wait "Alerts" || die "tdbg did not start"
tui_wait_gone "indexing" || die "the index pass did not finish"
ln -sfn run_b "$WORK/latest"

tui_keys :
tui_type "export 0 $WORK/run_a/stolen.npy"
tui_keys Enter
tui_expect relinked_export_refused "inside the dump directory"
tui_keys :
tui_type "traces 0:1 > $WORK/run_a/out.txt"
tui_keys Enter
tui_expect relinked_redirect_refused "inside the dump directory"
mv "$WORK/run_a" "$WORK/renamed"
tui_keys :
tui_type "traces 0:1 > $WORK/renamed/out2.txt"
tui_keys Enter
tui_expect renamed_redirect_refused "inside the dump directory"
tui_keys :
tui_type "save-display $WORK/renamed/screen.txt"
tui_keys Enter
tui_expect renamed_save_display_refused "inside the dump directory"
tui_keys :
tui_type "traces 0:1 > $WORK/run_b/fine.txt"
tui_keys Enter
tui_expect other_folder_written "bytes to $WORK/run_b/fine.txt"
expect_eq dump_unchanged "$(find "$WORK/renamed" | sed "s|$WORK/renamed|$WORK/run_a|" | sort | md5sum)" "$before"
tui_keys q
tui_expect_exit 0 quit
