#!/usr/bin/env bash
# tui_graph_modules.sh - issue 26: the Graph pane lists the module tree of
# an msprobe entry (construct.json) as links, and Enter jumps.
#
# Facts from tests/fixtures/msprobe/pt_stats_2rank/facts.json (the
# generator's truth): rows go unit by unit (step 0 rank 0 first), an
# entry's input leaves then its outputs.  Row 0 is the first input of
# Functional.linear.0.forward (3 inputs, 1 output: rows 0-3), whose module
# parent is Module.fc1.Linear.forward.0, the next entry (rows 4-7 of its 1
# input, 1 output and 2 parameters); that module's one child is
# Functional.linear.0.forward.  148 rows in all (4 units x 37 leaves).
. "$(dirname "$0")/lib.sh"

TUI_COLS=160 TUI_ROWS=45
DUMP=$FIXTURES/msprobe/pt_stats_2rank
tui_start "$DUMP"
tui_wait "Torch.sqrt" || die "the dump did not open"
tui_keys :; tui_type 'goto 0'; tui_keys Enter
tui_wait "1/148" || die "goto 0 did not select row 0"
tui_keys 4
tui_wait "Functional.linear.0.forward (Functional.linear) 1 inputs" ||
	die "the Graph pane does not show row 0's entry"
tui_screen >/dev/null
if grep -qE "↑ module +Module\.fc1\.Linear\.forward\.0 .*Module\.fc1\.Linear +-> trace 4" "$TUI_SCREEN"; then
	ok module_parent_listed
else
	fail module_parent_listed "no 'module Module.fc1.Linear.forward.0 -> trace 4' line"
	grep -E "↓|↑|●" "$TUI_SCREEN" | sed "s/^/    | /"
fi
# the title counts the data links only (an input row has its producer as
# its one input), not the module line
expect_file_has title_counts_inputs_only "$TUI_SCREEN" "Functional.linear.0.forward (Functional.linear) 1 inputs, 0 consumers"
# g: the first line (the module); Enter follows it to the module's row
tui_keys g Enter
tui_wait "5/148" || fail module_enter_jumps "Enter on the module line did not reach row 4"
tui_keys 4
tui_wait "Module.fc1.Linear.forward.0 (Module.fc1.Linear)" ||
	fail module_graph_shown "the Graph pane does not show the module"
tui_screen >/dev/null
if grep -qE "↓ submodule +Functional\.linear\.0\.forward .*-> trace 0" "$TUI_SCREEN"; then
	ok module_child_listed
else
	fail module_child_listed "no 'submodule Functional.linear.0.forward -> trace 0' line"
	grep -E "↓|↑|●" "$TUI_SCREEN" | sed "s/^/    | /"
fi
# x on a module line explains itself instead of expanding
tui_keys G x
tui_wait "x expands data links" || fail module_x_says_why "x on the submodule line said nothing"
# Enter on the child goes back to row 0
tui_keys G Enter
tui_wait "1/148" || fail module_child_enter_jumps "Enter on the submodule line did not reach row 0"
tui_keys q
tui_expect_exit 0 quit
tui_stop
