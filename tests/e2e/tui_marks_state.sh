#!/bin/bash
# tui_marks_state.sh - issue 17: m + letter marks the selected row, '
# lists the marks and a letter jumps; the focus, filter, sort, columns,
# selection and marks are saved per dump in $XDG_STATE_HOME/tdbg (keyed by
# the dump's real path, never in the dump) and restored on the next open;
# --fresh starts clean; a corrupt state file is ignored with a note.
# Facts (tfdbg2 README): row 88 is Log:0, row 85 is probs:0, 680 traces.
. "$(dirname "$0")/lib.sh"

cp -r "$FIXTURES/tfdbg2/mnist_nan" "$WORK/dump"
ln -s "$WORK/dump" "$WORK/link"
before=$(find "$WORK/dump" | sort | md5sum)
TUI_COLS=200 TUI_ROWS=45

start()
{
	tui_start "$@"
	tui_wait "InfNan Log" || die "tdbg did not start"
	tui_wait_gone "indexing" || die "the index pass did not finish"
}

goto()
{
	tui_keys :
	tui_type "goto $1"
	tui_keys Enter
}

start "$WORK/dump"
tui_keys 3
goto 88
tui_wait "89/680" || fail goto_88 "no 89/680"
tui_keys m a
tui_expect mark_a_set "mark a trace 88 Log:0"
goto 85
tui_keys m b
tui_expect mark_b_set "mark b trace 85 probs:0"
grep -qE '^ *88a' "$TUI_SCREEN" || grep -qE ' 88a' "$TUI_SCREEN" && ok mark_in_gutter || fail mark_in_gutter "no 'a' beside row 88"
tui_keys "'"
tui_expect marks_listed "a trace 88 Log:0, b trace 85 probs:0"
tui_keys a
tui_expect jump_to_a "89/680"
tui_expect jump_a_graph "[4] Graph  Log (Log)"
tui_keys "'" 9
tui_expect unknown_mark "no mark '9'"
tui_keys :
tui_type 'filter op=^(Log|probs)$'
tui_keys Enter
tui_keys :
tui_type "sort -nonfinite"
tui_keys Enter
tui_keys :
tui_type "columns +size"
tui_keys Enter
tui_wait "columns: shape size" || fail columns_set "no columns message"
goto 88
tui_keys q
tui_expect_exit 0 quit_first

files=$(ls "$XDG_STATE_HOME"/tdbg/*.state 2>/dev/null | wc -l)
expect_eq one_state_file "$files" 1
state=$(ls "$XDG_STATE_HOME"/tdbg/*.state)
expect_file_has state_names_real_path "$state" "dump $(cd "$WORK/dump" && pwd -P)"
expect_file_has state_has_mark "$state" "mark a trace 88"
expect_eq dump_unchanged "$(find "$WORK/dump" | sort | md5sum)" "$before"

# the same dump through a link: the same state
start "$WORK/link"
tui_expect restored_message "restored the last session's state"
tui_expect filter_restored "filter: op=^(Log|probs)$; sorted by nonfinite desc"
tui_expect size_column_restored "Size"
tui_keys "'"
tui_expect marks_restored "a trace 88 Log:0, b trace 85 probs:0"
tui_keys b
tui_expect jump_to_b "[4] Graph  probs (Placeholder)"
tui_keys q
tui_expect_exit 0 quit_second

# --fresh starts clean (and saves its own state on quit)
start --fresh "$WORK/dump"
tui_wait_gone "filter: op=" 2 && ok fresh_no_filter || fail fresh_no_filter "filter restored with --fresh"
tui_keys "'"
tui_expect fresh_no_marks "no marks yet"
tui_keys q
tui_expect_exit 0 quit_fresh

# a corrupt state file: a note, a clean start, a good file after quit
printf 'garbage\x01\n' >"$state"
start "$WORK/dump"
tui_expect corrupt_noted "ignored: line 1: not a tdbg state file"
tui_keys q
tui_expect_exit 0 quit_corrupt
head -1 "$state" | grep -qx '# tdbg state 1' && ok corrupt_replaced || fail corrupt_replaced "$(head -1 "$state")"

# tfdbg1 and MindSpore keep marks the same way
for dump in tfdbg1/mlp_nan mindspore/sync_lenet; do
	tui_start "$FIXTURES/$dump"
	tui_wait "Alerts" || die "tdbg did not start on $dump"
	tui_wait_gone "indexing" || die "the index pass did not finish on $dump"
	tui_keys 3
	goto 3
	tui_keys m z
	tui_expect "mark_${dump%%/*}" "mark z trace 3 "
	tui_keys q
	tui_expect_exit 0 "quit_${dump%%/*}"
	tui_start "$FIXTURES/$dump"
	tui_wait "Alerts" || die "tdbg did not restart on $dump"
	tui_keys "'"
	tui_expect "restored_mark_${dump%%/*}" "z trace 3 "
	tui_keys Escape q
	tui_expect_exit 0 "quit_again_${dump%%/*}"
done
