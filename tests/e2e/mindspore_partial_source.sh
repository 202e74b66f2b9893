#!/usr/bin/env bash
# mindspore_partial_source.sh - issue 12 item 11: without --source-root the
# Source pane showed the lines the graph's trace records rebuilt as if they
# were the whole file (line 23 empty).  It must say that only the traced
# lines are known and why, mark them, leave the others blank, and L must
# read the file from a path the user types.
#
# Facts (tests/fixtures/mindspore/README.md, train_lenet.py): MatMul-op10
# is made at train_lenet.py line 26 "x = self.fc1(x)"; the file's line 23
# is "x = self.relu(x)", which the trace records do not hold.
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
tui_start "$FIXTURES/mindspore/sync_lenet"
tui_wait "InfNan MatMul" || die "tdbg did not start"
tui_keys 1 g Enter
tui_wait "train_lenet.py:26" || die "the alert did not lead to the source line"
tui_expect says_only_traced_lines "traced lines only: file not found on this machine"
expect_file_has says_source_root "$TUI_SCREEN" "--source-root DIR, or L to name it"
# the recorded line is marked; line 23 (not recorded) is a bare number
grep -qE '^ +([0-9]+ +)?26• +x = self\.fc1\(x\)' "$TUI_SCREEN" && ok traced_line_marked ||
	fail traced_line_marked "line 26 not marked"
grep -qE '^ +23 *│' "$TUI_SCREEN" && ok unknown_line_blank || fail unknown_line_blank "line 23 not blank"

# L asks where the file is; a wrong path says so and changes nothing
tui_keys 5 L
tui_expect l_asks_for_path "train_lenet.py: file or source root:"
tui_type "$WORK/nowhere"
tui_keys Enter
tui_expect wrong_path_reported "L to try another path"
expect_file_has still_partial "$TUI_SCREEN" "traced lines only"

# a directory is used as the source root: the whole file shows
tui_keys L
tui_wait "file or source root:" || fail l_asks_again "no second prompt"
tui_type "$FIXTURES/mindspore"
tui_keys Enter
tui_expect file_read_from_root "read /home/user/lenet/train_lenet.py from"
tui_wait_gone "traced lines only" && ok header_gone || fail header_gone "the partial header stayed"
grep -qE '^ +23 +x = self\.relu\(x\)' "$TUI_SCREEN" && ok line_23_from_file ||
	fail line_23_from_file "line 23 not read from the file"
expect_file_has line_26_still_selected "$TUI_SCREEN" "train_lenet.py:26"
tui_keys L
tui_expect l_again_says_loaded "is already loaded"
tui_keys q
tui_expect_exit 0 quit
