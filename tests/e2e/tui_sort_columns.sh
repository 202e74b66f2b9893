#!/bin/bash
# tui_sort_columns.sh - issue 17: the trace table sorted (s cycles the
# field, S reverses, :sort FIELD) and optional columns (:columns).  Facts
# from the fixture READMEs: tfdbg1 mlp_nan has 144 traces (48 dumps per run,
# 3 runs); 18 dumps of run 2 hold inf or NaN and runs 0 and 1 none, so
# sorted by NaN/Inf count descending the first 18 rows are alerts and the
# 19th is not; the largest tensor is 64x32 (inputs 64, hidden 32).
. "$(dirname "$0")/lib.sh"

TUI_COLS=250 TUI_ROWS=50
tui_start "$FIXTURES/tfdbg1/mlp_nan"
tui_wait "Alerts" || die "tdbg did not start"
tui_wait_gone "indexing" || die "the index pass did not finish"
tui_keys 3
tui_keys :
tui_type "sort -nonfinite"
tui_keys Enter
tui_expect sort_message "traces sorted by nonfinite, descending (144 rows)"
tui_expect sort_in_title "sorted by nonfinite desc"
tui_keys g
tui_keys :
tui_type "columns +size +dtype +time"
tui_keys Enter
tui_expect columns_message "columns: time dtype shape size"
tui_expect size_header "Size"
grep -qE 'Time \(s\) +Dtype +Size +Shape' "$TUI_SCREEN" && ok columns_in_order || fail columns_in_order "header: $(grep -m1 Dtype "$TUI_SCREEN")"
grep -qE ' float32 +2048 +float32\[64,32\]' "$TUI_SCREEN" && ok size_and_dtype_cells || fail size_and_dtype_cells "no 'float32 2048 float32[64,32]' row"

tui_keys :
tui_type "sort -size"
tui_keys Enter
tui_expect sort_size "traces sorted by size, descending"
tui_keys g
tui_wait " 1/144" || fail first_row "g did not go to the first row"
grep -A1 'Index Op name' "$TUI_SCREEN" | tail -1 | grep -q 'float32\[64,32\]' && ok largest_first ||
	fail largest_first "first row is not 64x32: $(grep -A1 'Index Op name' "$TUI_SCREEN" | tail -1)"

tui_keys S
tui_expect reverse_key "traces sorted by size (144 rows)"
tui_keys s
tui_expect next_key "traces sorted by time (144 rows)"
tui_keys s
tui_expect next_key_nonfinite "traces sorted by nonfinite (144 rows)"
tui_keys s
tui_expect cycle_back_to_row "traces sorted by row (144 rows)"

tui_keys :
tui_type "filter nonfinite"
tui_keys Enter
tui_wait "filter: nonfinite (" || fail filter_on "no filter message"
n=$(grep -oE 'filter: nonfinite \([0-9]+ traces' "$TUI_SCREEN" | grep -oE '[0-9]+')
tui_keys :
tui_type "sort op"
tui_keys Enter
tui_expect sort_inside_filter "traces sorted by op ($n rows)"
tui_keys :
tui_type "columns -shape -time"
tui_keys Enter
tui_expect columns_hide "columns: dtype size"
tui_keys :
tui_type "sort bogus"
tui_keys Enter
tui_expect bad_sort_field "sort by row, op, type, size, time, nonfinite"
tui_keys q
tui_expect_exit 0 quit

# a growing dump: the sort takes the appended rows in (generated dump,
# tests/gen/gen_tfdbg2: 200 traces, then 300 more)
GEN=$("$TOP/tests/gen/build.sh") || die "cannot build the generator"
G="$GEN -q --ops 60 --nan-at -1"
$G -n 200 --executions 9 "$WORK/grow" || die "generator failed"
TUI_COLS=200 TUI_ROWS=30
tui_start --follow "$WORK/grow"
tui_wait "200 traces" || die "no status bar with 200 traces"
tui_keys 3 :
tui_type "sort op"
tui_keys Enter
tui_expect grow_sorted "traces sorted by op (200 rows)"
$G -n 300 --executions 3 --append "$WORK/grow"
tui_wait "500 traces" 5 || fail grow_seen "500 traces not shown"
tui_keys G
tui_expect sort_takes_appended_rows "500/500"
tui_expect still_sorted_after_growth "sorted by op"
tui_keys q
tui_expect_exit 0 quit_grow
