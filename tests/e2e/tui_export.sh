#!/bin/bash
# tui_export.sh - issue 17: :export at the prompt (the selected row by
# default) and COMMAND > FILE / >| FILE; neither writes into the dump nor
# replaces a file unasked; a '>' before a number stays a comparison.
# Facts: tfdbg1 mlp_nan run 2 cross_entropy/Log:0 row 3 is nine -inf and a
# 0 at column 7 (README).
. "$(dirname "$0")/lib.sh"

cp -r "$FIXTURES/tfdbg1/mlp_nan" "$WORK/dump"
row=$(tdbg --json -e 'traces --op "^cross_entropy/Log$" --nonfinite' "$WORK/dump" |
	python3 -c 'import json,sys; print([r["index"] for r in json.load(sys.stdin)["rows"] if r["debug_op"] == "DebugIdentity"][0])')
before=$(find "$WORK/dump" | sort | md5sum)

TUI_COLS=120 TUI_ROWS=30
tui_start "$WORK/dump"
tui_wait "Alerts" || die "tdbg did not start"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys :
tui_type "goto $row"
tui_keys Enter
tui_keys :
tui_type "export [3] $WORK/row3.csv"
tui_keys Enter
tui_expect export_selected_row "to $WORK/row3.csv (csv"
expect_eq export_csv_values "$(tr '\n' ' ' <"$WORK/row3.csv")" "-inf -inf -inf -inf -inf -inf -inf 0 -inf -inf "

tui_keys :
tui_type "traces --op '^cross_entropy/Log\$' > $WORK/log.txt"
tui_keys Enter
tui_expect redirect_message "bytes to $WORK/log.txt"
expect_eq redirect_six_rows "$(grep -c 'cross_entropy/Log ' "$WORK/log.txt")" 6

tui_keys :
tui_type "info > $WORK/log.txt"
tui_keys Enter
tui_expect redirect_refuses_existing "exists (>| at the prompt"
tui_keys :
tui_type "info >| $WORK/log.txt"
tui_keys Enter
tui_expect redirect_replaces "bytes to $WORK/log.txt"
grep -q "tfdbg1" "$WORK/log.txt" && ok replaced_with_info || fail replaced_with_info "log.txt does not hold info"

tui_keys :
tui_type "info > $WORK/dump/run_1700000000491002_2/info.txt"
tui_keys Enter
tui_expect redirect_refuses_dump "inside the dump directory"
tui_keys :
tui_type "export $row $WORK/dump/x.npy"
tui_keys Enter
tui_expect export_refuses_dump "inside the dump directory"
expect_eq dump_unchanged "$(find "$WORK/dump" | sort | md5sum)" "$before"

tui_keys :
tui_type "filter where=nan > 0"
tui_keys Enter
tui_expect comparison_is_no_redirect "filter: where=nan > 0"
[ -e "$WORK/0" ] || [ -e "0" ] && fail no_file_named_0 "a file 0 was written" || ok no_file_named_0
tui_keys q
tui_expect_exit 0 quit
